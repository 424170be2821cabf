"""Probe for issue 13 (not a preset, not in the app): WHY the paper's 2a network fails here.

The faithful ``long_lag`` preset (1997 exp. 2a, p = 100: 10,504 weights, no biases, no recurrence, the
memory cell joins when the error stops decreasing) solves 0 of 10. This script trains four of its
networks (model seeds 10..13, the table's first four) for 6,000 sequences and then runs the two
sequences (x, a_1 .. a_99, x) and (y, a_1 .. a_99, y) with the weights fixed, printing for each net:
when its cell joined, the weights from the cell to the x and y output units, the cell state s at the
first step (the only place the two sequences differ) and at the last, and the net input and slope
σ'(net) of the x and y output units at the last step — the one prediction that needs the memory —
and the symptoms ``lstm_core.reproduce.diagnostics`` flags (as the reproduction command does for failed nets).

Run: ``python examples/long_lag_saturation_probe.py`` (~10 min of CPU). Result on 2026-11-26 (all four
alike): cells joined after 3,100-4,600 sequences; weights cell -> x and cell -> y -0.9 to -2.4; s ≈ 19-22
at the last step, the two sequences' states 0.03-0.21 apart at step 1; at the last step the x and y units'
net inputs are -18 to -47 for both sequences (σ' 1e-8 to 4e-21); flags: state drift and "wrong answers
pinned: 100%". See docs/results.md (the 2a bullet).
"""

import numpy as np

from lstm_core.reproduce.diagnostics import diagnose
from lstm_core.sequence import forward
from lstm_core.training import PRESETS

SEQUENCES, SEEDS = 6_000, 4

pre = PRESETS["long_lag"]
trainer = pre.trainer(trials=SEEDS, first_seed=10, reduced=True, probe=False)
trainer.train(SEQUENCES)
task = pre.build_task(True)
data = task.generate(np.random.default_rng(0), 16)
first = np.asarray(data.info["label"])  # 0 = x, 1 = y
bx, by = int(np.flatnonzero(first == 0)[0]), int(np.flatnonzero(first == 1)[0])
run = forward(trainer.model, data.xs, check=False)
s, net = run.internals["s"][..., 0], run.internals["net_out"]  # (T, K, B), (T, K, B, n_out)
slope = lambda v: float(1 / (1 + np.exp(-v)) * (1 - 1 / (1 + np.exp(-v))))  # noqa: E731 — σ'(net)
for k in range(SEEDS):
    w = trainer.model.params["W_out"][k][:, -1]  # weights from the cell to every output
    print(
        f"seed {10 + k}: cell joined after {trainer.grower.added_at[k]:,} sequences; "
        f"best streak {trainer.book.best_streak[k]} of {trainer.required:,}"
    )
    print(
        f"  cell -> output x {w[0]:+.2f}, -> y {w[1]:+.2f} (largest |w| {np.abs(w).max():.2f}); "
        f"s at step 1: x-seq {s[0, k, bx]:.2f}, y-seq {s[0, k, by]:.2f}; at step {s.shape[0]}: "
        f"{s[-1, k, bx]:.1f} / {s[-1, k, by]:.1f}"
    )
    for name, b, want in (("x-seq", bx, "x"), ("y-seq", by, "y")):
        nx, ny = net[-1, k, b, 0], net[-1, k, b, 1]
        print(
            f"  last step of the {name} (target {want}): net x {nx:+.1f} (σ' {slope(nx):.0e}), "
            f"net y {ny:+.1f} (σ' {slope(ny):.0e})"
        )
diags = diagnose(trainer.model, task, np.random.default_rng(0))
for k, d in enumerate(diags):
    print(f"seed {10 + k} diagnostics: " + "; ".join(d["flags"]))
