"""Make the PyTorch parity fixtures: ``make torch-fixtures`` (needs torch==2.13.0, a test-only tool).

    .venv/bin/python tests/torch_fixtures.py [OUT.npz]   (default: tests/fixtures/torch_parity.npz)

For each case, a one-layer ``torch.nn.LSTM`` / ``torch.nn.GRU`` in float64 with PyTorch's own
initialisation runs a random batch; the file keeps its state dict, the inputs, targets and mask,
PyTorch's outputs, final states, masked squared-error loss and parameter gradients. The parity
tests (tests/test_torch_parity.py) compare lstm_core against these numbers without importing
torch, so a user's ``make test`` needs no PyTorch; ``make test-torch`` re-runs this script in
memory and checks that today's PyTorch still produces the committed numbers.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

FIXTURE = Path(__file__).with_name("fixtures") / "torch_parity.npz"
KINDS = ("lstm", "gru")
SEEDS = range(4)


def parity_case(kind: str, seed: int) -> dict[str, np.ndarray]:
    """PyTorch's forward and backward on a random net and batch (sizes drawn from the seed)."""
    import torch

    torch.set_default_dtype(torch.float64)
    rng = np.random.default_rng(100 + seed)
    n_in, H, T, B = (int(v) for v in rng.integers(1, 9, size=4))
    torch.manual_seed(seed)
    net = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU}[kind](n_in, H)
    rng = np.random.default_rng(seed)
    xs = rng.normal(size=(T, B, n_in))
    targets = rng.normal(size=(T, B, H))
    mask = (rng.uniform(size=(T, B)) < 0.7).astype(float)
    out, final = net(torch.from_numpy(xs))
    loss = 0.5 * (torch.from_numpy(mask)[..., None] * (out - torch.from_numpy(targets)) ** 2).sum() / B
    loss.backward()
    h_n, c_n = final if kind == "lstm" else (final, None)
    case = {
        "xs": xs,
        "targets": targets,
        "mask": mask,
        "out": out.detach().numpy(),
        "h_n": h_n[0].detach().numpy(),
        "loss": np.array(loss.item()),
    }
    if c_n is not None:
        case["c_n"] = c_n[0].detach().numpy()
    case.update({f"sd.{k}": v.detach().numpy().copy() for k, v in net.state_dict().items()})
    case.update({f"grad.{k}": p.grad.numpy().copy() for k, p in net.named_parameters()})
    return case


def round_trip_case(kind: str) -> dict[str, np.ndarray]:
    """An lstm_core model exported with to_torch, loaded into PyTorch, run on a fixed batch."""
    import torch

    import lstm_core as lc

    torch.set_default_dtype(torch.float64)
    model = lc.build(kind, n_in=3, n_out=5, n_hidden=5, seed=3, init_range=0.5, output_activation="identity")
    sd = lc.to_torch(model)
    net = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU}[kind](3, 5)
    net.load_state_dict({k: torch.from_numpy(v) for k, v in sd.items()})
    xs = np.random.default_rng(0).normal(size=(6, 2, 3))
    out, _ = net(torch.from_numpy(xs))
    back = {f"sd.{k}": v.detach().numpy().copy() for k, v in net.state_dict().items()}
    return {"xs": xs, "out": out.detach().numpy(), **back}


def all_cases() -> dict[str, np.ndarray]:
    """Every fixture array under a flat key ``<case>/<name>`` (npz has no nesting)."""
    import torch

    flat = {"torch_version": np.array(torch.__version__)}
    for kind in KINDS:
        for seed in SEEDS:
            flat.update({f"parity.{kind}.{seed}/{k}": v for k, v in parity_case(kind, seed).items()})
        flat.update({f"round_trip.{kind}/{k}": v for k, v in round_trip_case(kind).items()})
    return flat


def load(path: Path = FIXTURE) -> dict[str, dict[str, np.ndarray]]:
    """The committed fixture as {case: {name: array}} (no torch needed)."""
    with np.load(path) as data:
        cases: dict[str, dict[str, np.ndarray]] = {}
        for key in data.files:
            if "/" in key:
                case, name = key.split("/", 1)
                cases.setdefault(case, {})[name] = data[key]
        return cases


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else FIXTURE
    np.savez_compressed(out, **all_cases())
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
