"""Train the small character LSTM shipped as docs/examples/names_lstm.safetensors (needs torch, dev only).

    .venv/bin/python examples/train_names_lstm.py [OUT.safetensors] [--seconds 45]

An ``nn.LSTM(27, 24)`` + ``nn.Linear(24, 27)`` learns to spell the first names of
``lstm_core/tasks/names.txt`` as the ``names`` task feeds them: one-hot ``.abc…z`` ('.' = start
/ end), predict the next character (cross-entropy). The file is written with Gate Lab's own
safetensors writer (no ``safetensors`` package) in float32, with ``__metadata__`` carrying the
vocabulary and the softmax output, so "Bring your own model" on Step through a cell can encode
typed names. Deterministic for a given torch version (seeded, one thread); training stops after
a fixed number of epochs or ``--seconds``, whichever comes first.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch

from lstm_core.io.tensor_files import write_safetensors
from lstm_core.tasks.names import ALPHABET, encode, load_names

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "examples" / "names_lstm.safetensors"
HIDDEN, EPOCHS, LR = 24, 1500, 0.02


class CharLSTM(torch.nn.Module):
    def __init__(self, n: int, hidden: int) -> None:
        super().__init__()
        self.lstm = torch.nn.LSTM(n, hidden, batch_first=True)
        self.fc = torch.nn.Linear(hidden, n)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.lstm(x)[0])


def batch() -> tuple[torch.Tensor, torch.Tensor]:
    """All names, padded: one-hot inputs (B, T, 27) and next-character targets (-1 = padding)."""
    seqs = [encode(w) for w in load_names()]
    T, n = max(len(s) for s in seqs) - 1, len(ALPHABET)
    xs, ys = np.zeros((len(seqs), T, n), np.float32), np.full((len(seqs), T), -1, np.int64)
    for b, s in enumerate(seqs):
        xs[b, np.arange(len(s) - 1), s[:-1]] = 1.0
        ys[b, : len(s) - 1] = s[1:]
    return torch.from_numpy(xs), torch.from_numpy(ys)


def train(seconds: float) -> tuple[CharLSTM, float]:
    torch.manual_seed(0)
    torch.set_num_threads(1)
    net = CharLSTM(len(ALPHABET), HIDDEN)
    opt = torch.optim.Adam(net.parameters(), lr=LR)
    xs, ys = batch()
    start, loss = time.monotonic(), torch.tensor(float("nan"))
    for epoch in range(EPOCHS):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(
            net(xs).reshape(-1, len(ALPHABET)), ys.reshape(-1), ignore_index=-1
        )
        loss.backward()
        opt.step()
        if epoch % 250 == 0:
            print(f"epoch {epoch:4d}  cross-entropy {loss.item():.3f} nats/char")
        if time.monotonic() - start > seconds:
            break
    return net, loss.item()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", type=Path, default=OUT)
    ap.add_argument("--seconds", type=float, default=45.0)
    args = ap.parse_args()
    net, loss = train(args.seconds)
    sd = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    meta = {
        "vocab": ALPHABET,
        "output_activation": "softmax",
        "task": "names",
        "about": f"nn.LSTM({len(ALPHABET)}, {HIDDEN}) + nn.Linear on names.txt, made by "
        f"examples/train_names_lstm.py (torch {torch.__version__}); final cross-entropy {loss:.3f}",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(write_safetensors(sd, meta, dtype="F32"))
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes), cross-entropy {loss:.3f} nats/char")


if __name__ == "__main__":
    main()
