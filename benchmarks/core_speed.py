"""Forward + exact gradient: the NumPy core against PyTorch's nn.LSTM, in the same run.

Both sides: one thread, float64, an LSTM layer plus a linear output layer, squared-error
loss on every step, the whole sequence forward and backward. Prints the median of several
repetitions and the ratio (PyTorch time / NumPy time; > 1 means the core is faster).
Also prints the cost of one ``Model.step`` call and of one online RTRL step for a
paper-sized lstm1997 (4 blocks × 2 cells, 7 inputs).

    python benchmarks/core_speed.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread on both sides, set before imports
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import time  # noqa: E402

import numpy as np  # noqa: E402

import lstm_core as lc  # noqa: E402

SIZES = [(1, 8, 100), (32, 16, 100), (32, 32, 200), (128, 64, 200)]


def median_time(fn, repeats: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def numpy_case(B: int, H: int, T: int, fast: bool = True):
    """fast=True: the fused whole-sequence path training uses; False: the readable per-step cell."""
    model = lc.build("lstm", n_in=H, n_out=H, n_hidden=H, output_activation="identity", seed=0)
    rng = np.random.default_rng(0)
    xs, targets = rng.normal(size=(T, B, H)), rng.normal(size=(T, B, H))
    mask = np.ones((T, B))
    return lambda: lc.gradients(model, xs, targets, mask, fast=fast)


def torch_case(B: int, H: int, T: int):
    import torch

    torch.manual_seed(0)
    lstm = torch.nn.LSTM(H, H).double()
    out_layer = torch.nn.Linear(H, H).double()
    xs = torch.randn(T, B, H, dtype=torch.float64)
    targets = torch.randn(T, B, H, dtype=torch.float64)

    def run():
        lstm.zero_grad()
        out_layer.zero_grad()
        h, _ = lstm(xs)
        loss = 0.5 * ((out_layer(h) - targets) ** 2).sum() / B
        loss.backward()

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    print(f"numpy {np.__version__}, torch {torch.__version__}, float64, 1 thread, median of {args.repeats}")
    print(
        "numpy: the fused fast path (fast=True, what training runs); readable: the per-step cell "
        "(lc.gradients' default)"
    )
    print(
        f"{'(batch, hidden, T)':>20} {'numpy ms':>10} {'torch ms':>10} {'torch/numpy':>12} "
        f"{'readable ms':>12} {'torch/readable':>15}"
    )
    for B, H, T in SIZES:
        tn = median_time(numpy_case(B, H, T), args.repeats)
        tt = median_time(torch_case(B, H, T), args.repeats)
        tr = median_time(numpy_case(B, H, T, fast=False), args.repeats)
        print(
            f"{str((B, H, T)):>20} {tn * 1e3:10.2f} {tt * 1e3:10.2f} {tt / tn:11.2f}× {tr * 1e3:12.2f} "
            f"{tt / tr:14.2f}×"
        )

    model = lc.build("lstm1997", n_in=7, n_out=7, n_blocks=4, block_size=2, seed=0)
    state, x = model.initial_state(1), np.zeros((1, 7))
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        state, _, _ = model.step(state, x)
    step_us = (time.perf_counter() - t0) / n * 1e6
    r = lc.RTRL(model, batch=1)
    target = np.zeros((1, 7))
    t0 = time.perf_counter()
    for _ in range(n):
        r.step(x, target)
    rtrl_us = (time.perf_counter() - t0) / n * 1e6
    print(
        f"lstm1997 4 blocks × 2 cells, 7 inputs: Model.step {step_us:.1f} µs, RTRL online step "
        f"(forward + traces + gradient) {rtrl_us:.1f} µs"
    )


if __name__ == "__main__":
    main()
