"""Stuck training: saturated units and a loss that no longer improves stop a network, saying why.

NaN/inf stop a network at once (trainer.py). A learning rate far too large (10⁶, say) usually
produces no NaN: the first updates drive the net inputs to |net| ≫ 10, every sigmoid sits at 0
or 1, its derivative f'(net) ≈ 0, almost no error flows back, and the network "trains" for ever
with a flat loss. This watcher catches that state.

Every ``every`` training sequences the trainer runs one fixed check sequence (its own data
stream, so training data are untouched) through the current weights and, per network, measures
for each group of units (each gate, the cell input g, the hidden units, the output units) the
fraction of unit-steps whose derivative is below ``SATURATED`` × its maximum — for a sigmoid,
|net| > 17.5. A group counts as saturated when that fraction is ≥ ``GROUP_FRACTION``. A network
is *stuck* — it stops with status "diverged" and a message naming the groups and what to
change — in two cases:

* **pinned**: its output units (or, with linear outputs, every group of hidden units) are
  saturated at ``PINNED_CHECKS`` checks in a row. Every error signal passes through the output
  units' f'(net) ≈ 0, so no weight can learn any more; the loss only wanders with the data.
* **saturated, not improving**: some group is saturated at every check of a stretch of
  ``patience`` sequences in which the mean loss (per check window) never beat its best by 1 %.
  ``patience`` grows with the budget (``budget // 20``, between 300 and 5,000 sequences), so a
  paper run that sits on a plateau for a while before solving is not cut short.
"""

from __future__ import annotations

import numpy as np

from ..activations import ACTIVATIONS
from ..config import ModelConfig
from ..errors import CoreList, CoreText

Array = np.ndarray
SATURATED = 1e-7  # f'(y) below this fraction of max f' counts as saturated
GROUP_FRACTION = 0.99  # ... on at least this fraction of a group's unit-steps
IMPROVEMENT = 0.01  # a window's mean loss must beat the best by 1 % to count as progress
PINNED_CHECKS = 3  # checks in a row with the outputs (or all hidden groups) saturated
OUTPUT_LABEL = "output units"
# the labels of the groups groups() names besides the variants' gates (a diverged run's message shows them)
HIDDEN, CANDIDATE, CELL_INPUT, CELL_OUTPUT = (
    "hidden units",
    "candidate n",
    "cell input g",
    "cell output squash h",
)
LABELS = (HIDDEN, CANDIDATE, CELL_INPUT, CELL_OUTPUT, OUTPUT_LABEL)
MAX_SLOPE = {"sigmoid": 0.25, "tanh": 1.0, "g1997": 1.0, "h1997": 0.5, "half_tanh": 0.5, "softmax": 0.25}


def groups(cfg: ModelConfig) -> list[tuple[str, str, str]]:
    """(internal name, label, activation) of every group of squashing units the check measures."""
    rec = cfg.record
    out = [(key, label, "sigmoid") for key, label in rec.gates]
    if rec.family == "rnn":
        out.append(("h", HIDDEN, cfg.activation))
    elif rec.family == "local_feedback":
        out.append(("h", HIDDEN, "half_tanh"))
    elif rec.family == "gru":
        out.append(("n", CANDIDATE, "tanh"))
    elif rec.family == "lstm":
        out.append(("g", CELL_INPUT, "tanh"))
    else:  # the 1997 family: cell input g and output squash h
        for key, label, act in (
            ("g", CELL_INPUT, cfg.cell_input),
            ("h", CELL_OUTPUT, cfg.cell_output),
        ):
            if act != "identity":
                out.append((key, label, act))
    if cfg.output_activation != "identity":
        out.append(("y", OUTPUT_LABEL, cfg.output_activation))
    return out


def saturated_fractions(internals: dict[str, Array], cfg: ModelConfig, population: bool) -> dict[str, Array]:
    """label -> (n,) fraction of that group's unit-steps that are saturated, per network."""
    fractions = {}
    for key, label, act in groups(cfg):
        if key not in internals:  # e.g. no output gate (1997 experiment 2a)
            continue
        y = internals[key]
        deriv = (y * (1.0 - y)) if act == "softmax" else ACTIVATIONS[act][1](None, y)
        flat = np.abs(deriv) < SATURATED * MAX_SLOPE[act]
        flat = np.moveaxis(flat, 1, 0).reshape(flat.shape[1], -1) if population else flat.reshape(1, -1)
        fractions[label] = flat.mean(axis=1)
    return fractions


class StuckWatch:
    """Per-network stale counters, updated every ``every`` sequences (see the module docstring)."""

    def __init__(self, n: int, every: int, budget: int) -> None:
        self.every = every
        self.patience = int(min(5000, max(300, budget // 20)))
        self.best = np.full(n, np.inf)
        self.stale = np.zeros(n, dtype=np.int64)  # sequences saturated without progress
        self.pinned = np.zeros(n, dtype=np.int64)  # checks in a row with the outputs pinned
        self.loss_sum, self.count = np.zeros(n), np.zeros(n)
        self.next_check = every

    def add(self, loss: Array, alive: Array) -> None:
        self.loss_sum += np.where(alive, loss, 0.0)
        self.count += alive

    def due(self, seen: int) -> bool:
        return seen >= self.next_check

    def check(self, fractions: dict[str, Array], alive: Array, seen: int) -> list[tuple[int, CoreList]]:
        """Update the counters; return [(network, saturated group descriptions)] that are stuck now."""
        self.next_check = (seen // self.every + 1) * self.every
        window = np.where(self.count > 0, self.loss_sum / np.maximum(self.count, 1), np.inf)
        self.loss_sum[:], self.count[:] = 0.0, 0.0
        progress = window < self.best * (1.0 - IMPROVEMENT)
        self.best = np.minimum(self.best, window)
        sat = {label: f >= GROUP_FRACTION for label, f in fractions.items()}
        none = np.zeros(len(alive), dtype=bool)
        any_sat = np.logical_or.reduce(list(sat.values())) if sat else none
        hidden = [v for label, v in sat.items() if label != OUTPUT_LABEL]
        pinned = (
            sat[OUTPUT_LABEL] if OUTPUT_LABEL in sat else (np.logical_and.reduce(hidden) if hidden else none)
        )
        self.stale = np.where(alive & any_sat & ~progress, self.stale + self.every, 0)
        self.pinned = np.where(alive & pinned, self.pinned + 1, 0)
        stuck = []
        for k in np.flatnonzero(alive & ((self.stale >= self.patience) | (self.pinned >= PINNED_CHECKS))):
            stuck.append(
                (
                    int(k),
                    CoreList(
                        tuple(
                            CoreText(
                                "{group} ({pct} of unit-steps)",
                                group=CoreText(label),
                                pct=f"{fractions[label][k]:.0%}",
                            )
                            for label in fractions
                            if sat[label][k]
                        )
                    ),
                )
            )
        return stuck


def advice(lr: float) -> CoreText:
    if lr > 1.0:
        return CoreText(
            "the learning rate {lr:g} is far too large for these networks: try 0.1 – 1 "
            "(the papers' range), or clip the gradient",
            lr=lr,
        )
    return CoreText(
        "try a smaller learning rate or init range; for LSTMs, more negative input/output gate "
        "biases keep cells from drifting into saturation (the 1997 paper's cure)"
    )
