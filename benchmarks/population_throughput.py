"""Population throughput: K = 32 networks trained in one vectorised run vs one after another.

Both sides train the same 32 networks (model seeds 0..31) on the same task with the same data
seeds for the same number of sequences (the criterion is made unreachable so every network
does the full work), then the script checks that both sides ended with identical weights and
prints the wall times and the ratio (sequential time / population time; goal ≥ 8×).

    python benchmarks/population_throughput.py [--K 32] [--sequences 20]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread on both sides, set before imports
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import time  # noqa: E402

import numpy as np  # noqa: E402

from lstm_core.training import PRESETS, Trainer  # noqa: E402

# (label, preset, task settings): one online-RTRL case, two BPTT cases
CASES = [
    ("long_lag p=20, lstm1997, rtrl", "long_lag", {"p": 20}),
    ("adding T=100, lstm1997, rtrl", "adding", {"T": 100}),
    ("embedded_reber, lstm1997 3x2, rtrl", "embedded_reber", {}),
    ("long_lag p=10, rnn, bptt", "long_lag_rnn", {"p": 10}),
    ("names, lstm 32, bptt batch 8 *", "names", {}),
]
# * a contrast, not a population use case: 32 hidden units × 8 sequences per update are real
#   arithmetic, so stacking 32 networks saves little (the per-step Python overhead is small)


def train(model, preset, task, n: int) -> float:
    cfg = preset.train_config(budget=n, streak=n + 1, probe=False)
    trainer = Trainer(model, task, cfg)
    t0 = time.perf_counter()
    trainer.train(n)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--K", type=int, default=32)
    ap.add_argument("--sequences", type=int, default=16, help="training sequences per network")
    args = ap.parse_args()
    K, n = args.K, args.sequences
    print(f"K = {K} networks, {n} training sequences each (one thread)\n")
    print(f"{'case':38s} {'one run':>9s} {'one by one':>11s} {'ratio':>7s}  identical")
    ratios = []
    for label, name, settings in CASES:
        preset = PRESETS[name].with_task(**settings) if settings else PRESETS[name]
        task = preset.build_task()
        pop = preset.build_population(K)
        t_pop = train(pop, preset, task, n)
        t_seq, same = 0.0, True
        for k in range(K):
            single = preset.build_model(seed=k)
            t_seq += train(single, preset, task, n)
            same &= all(np.array_equal(pop.params[p][k], v) for p, v in single.params.items())
        ratios.append(t_seq / t_pop)
        print(
            f"{label:38s} {t_pop:8.2f}s {t_seq:10.2f}s {t_seq / t_pop:6.1f}×  {'yes' if same else 'NO'}",
            flush=True,
        )
    paper = ratios[:-1]
    print(
        f"\nratio over the paper-style cases (small networks, one sequence per update): min {min(paper):.1f}×, "
        f"median {float(np.median(paper)):.1f}× (goal ≥ 8×); * compute-bound contrast: {ratios[-1]:.1f}×"
    )


if __name__ == "__main__":
    main()
