"""What the trainer reports: ``Progress`` (every N sequences) and the probe-sequence trace.

For a population every per-network quantity is an array with one entry per member (K,);
for a single network it is a plain number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..variants import variant as lookup

Array = np.ndarray

# parameter name -> group shown in the gradient-norm plot
_GROUP_RULES = [
    (r"^(W|b)_out$", "output layer"),
    (r"^u_(ig|fg|og)$", "peephole"),
    (r"^(W|b)_ig$|^(W|U|b)_i$", "input gate"),
    (r"^(W|b)_og$|^(W|U|b)_o$", "output gate"),
    (r"^(W|b)_fg$|^(W|U|b)_f$", "forget gate"),
    (r"^(W|b)_c$|^(W|U|b)_g$", "cell input"),
    (r"^(W|U)_r$|^b_[ih]r$", "reset gate"),
    (r"^(W|U)_z$|^b_[ih]z$", "update gate"),
    (r"^(W|U)_n$|^b_[ih]n$", "candidate"),
]

RULE_GROUPS: tuple[str, ...] = tuple(dict.fromkeys(g for _, g in _GROUP_RULES))  # the names above, once each


def param_group(name: str, variant: str) -> str:
    """The group a parameter belongs to, e.g. 'W_ig' -> 'input gate', 'U' (rnn) -> 'recurrent'."""
    plain = lookup(variant).param_groups
    if name in plain:
        return plain[name]
    for pattern, group in _GROUP_RULES:
        if re.search(pattern, name):
            return group
    return name


def group_norms(sq: dict[str, Array], variant: str) -> dict[str, Array]:
    """Per-group gradient norms from per-parameter sums of squares (each () or (K,))."""
    groups: dict[str, Array] = {}
    for name, s in sq.items():
        g = param_group(name, variant)
        groups[g] = groups[g] + s if g in groups else s
    return {g: np.sqrt(s) for g, s in groups.items()}


@dataclass(frozen=True)
class ProbeTrace:
    """The fixed probe sequence (generated once from the data seed) through the current network.

    xs (T, 1, n_in), targets (T, 1, n_out), mask (T, 1); outputs (T, [K,] 1, n_out);
    internals: name -> (T, [K,] 1, n), e.g. gate activations y_ig, y_og, y_fg and cell states s.
    """

    xs: Array
    targets: Array
    mask: Array
    outputs: Array
    internals: dict[str, Array] = field(repr=False)


@dataclass(frozen=True)
class Progress:
    """One progress report. Per-network fields are numbers (one network) or (K,) arrays."""

    status: str  # running | solved | budget | diverged (population: see Trainer)
    message: str  # a human sentence saying where training stands
    sequences: int | Array  # training sequences seen, per network
    loss: float | Array  # mean sequence loss since the previous report
    streak: int | Array  # current run of correct sequences
    required: int  # the streak the criterion asks for
    criterion: str  # what "correct" and the criterion mean
    reduced: bool  # the streak was overridden (a reduced criterion)
    seq_per_second: float  # training sequences per second (all networks together)
    grad_norms: dict[str, float | Array]  # ‖gradient‖ per parameter group (the last update)
    statuses: tuple[str, ...]  # per network
    solved_at: tuple[int | None, ...]  # sequences to criterion per network (None = not solved)
    elapsed: float  # seconds of training so far
    probe: ProbeTrace | None = field(default=None, repr=False)

    @property
    def criterion_fraction(self) -> float | Array:
        return (
            np.minimum(np.asarray(self.streak) / self.required, 1.0)
            if np.ndim(self.streak)
            else min(self.streak / self.required, 1.0)
        )

    @property
    def done(self) -> bool:
        return self.status != "running"
