"""Adding and multiplication problems (Hochreiter & Schmidhuber 1997, experiments 4 and 5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .base import Aligned, Batch, Criterion, Report, Task, check_int


@dataclass(frozen=True)
class Adding(Task):
    """Adding problem (1997 experiment 4). Input pairs (value, marker), one output.

    Values are uniform in [-1, 1]; the length L is uniform in [T, T + T/10]. Markers: the
    first and last pair get -1, all others 0; one position among the first 10 gets +1 added
    (so if it is the first pair its marker becomes 0 and X1 is taken as 0), a second, still
    unmarked position among the first T/2 - 1 gets marker 1. Target at the last step:
    0.5 + (X1 + X2) / 4. Correct when the abs error < 0.04; stop when 2,000 sequences in a
    row are correct and their mean abs error < 0.01.

    Setup: 2 blocks x 2 cells, input gate biases -3, -6, init [-0.1, 0.1], lr 0.5; all
    non-input weights get a bias to provoke internal state drift. Reported: LSTM solves
    T = 100, 500 and 1,000 with at most 3 wrong of 2,560 test sequences.
    """

    T: int = 100

    name: ClassVar[str] = "adding"
    title: ClassVar[str] = "Adding problem (1997 exp. 4)"
    paper: ClassVar[str] = "Hochreiter & Schmidhuber 1997, experiment 4"
    setup: ClassVar[str] = (
        "2 inputs (value, marker), 1 output; 2 blocks x 2 cells; input gate biases "
        "-3, -6; init [-0.1, 0.1]; lr 0.5. Error only at the last step. Stop when "
        "2,000 sequences in a row have abs error < 0.04 and mean abs error < 0.01; "
        "2,560 test sequences."
    )
    reported: ClassVar[str] = (
        "LSTM solved T = 100, 500 and 1,000 with no more than 3 of 2,560 test "
        "sequences wrong; it bridges lags > T/2 despite internal state drift."
    )
    low: ClassVar[float] = -1.0
    x1_if_first: ClassVar[float] = 0.0  # X1 when the first pair is the one marked

    def __post_init__(self) -> None:
        self._set(
            "T",
            check_int(
                self.name,
                "T",
                self.T,
                12,
                "T is the minimum length; the second "
                "marker goes among the first T/2 - 1 positions, which must leave "
                "room beyond the first 10",
            ),
        )

    n_in = property(lambda self: 2)
    n_out = property(lambda self: 1)
    output_activation = property(lambda self: "sigmoid")
    max_length = property(lambda self: self.T + self.T // 10)

    @property
    def criterion(self) -> Criterion:
        return Criterion(
            2000, 0.01, "abs error < 0.04 on 2,000 sequences in a row, whose mean abs error is < 0.01"
        )

    def combine(self, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
        return 0.5 + (x1 + x2) / 4.0

    @property
    def memoryless_loss(self) -> float:
        """The loss (½ err², per sequence) of answering the target's mean, 0.5: ½ · E[(X1 + X2)²] / 16,
        with X1 = 0 when the first pair is the marked one (1 in 10)."""
        return 0.5 * (0.9 / 3.0 + 1.0 / 3.0) / 16.0

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        lengths = rng.integers(self.T, self.max_length + 1, size=batch)
        Tm = int(lengths.max())
        steps = np.arange(Tm)[:, None]
        inside = steps < lengths
        values = rng.uniform(self.low, 1.0, size=(Tm, batch))
        t1 = rng.integers(0, 10, size=batch)
        # second marker: uniform over the still unmarked positions among the first T/2 - 1,
        # i.e. 1 .. T/2 - 2 without t1 (position 0 holds the -1 end marker or is t1 itself)
        hi = self.T // 2 - 2
        clash = (t1 >= 1) & (t1 <= hi)
        t2 = 1 + np.floor(rng.random(batch) * (hi - clash)).astype(np.int64)
        t2 = t2 + (clash & (t2 >= t1))
        marker = np.zeros((Tm, batch))
        b = np.arange(batch)
        marker[0], marker[lengths - 1, b] = -1.0, -1.0
        marker[t1, b] += 1.0
        marker[t2, b] = 1.0
        x1 = np.where(t1 == 0, self.x1_if_first, values[t1, b])
        x2 = values[t2, b]
        target = self.combine(x1, x2)
        mask = (steps == lengths - 1).astype(float)
        xs = np.stack([np.where(inside, values, 0.0), np.where(inside, marker, 0.0)], -1)
        return Batch(
            xs,
            (mask * target)[..., None],
            mask,
            lengths.astype(np.int64),
            {"positions": np.stack([t1, t2], -1), "operands": np.stack([x1, x2], -1)},
        )

    def _evaluate(self, a: Aligned) -> Report:
        return self._report(a, 0.04)


@dataclass(frozen=True)
class Multiplication(Adding):
    """Multiplication problem (1997 experiment 5): as adding, with values uniform in [0, 1]
    and target X1 * X2 (X1 = 1.0 when the first pair is the marked one).

    Paper stop: fewer than n_seq of the last 2,000 training sequences have abs error >= 0.04,
    n_seq = 140 (the net stores the information but computes imprecisely) or 13 (precise).
    Here the single-streak form: 2,000 correct (abs error < 0.04) in a row - stricter.

    Setup: as adding, but random input gate biases and lr 0.1. Reported: with n_seq = 140 at
    most 170, with n_seq = 13 at most 15 of 2,560 test sequences wrong (T = 100); extra hidden
    units speed up learning.
    """

    name: ClassVar[str] = "multiplication"
    title: ClassVar[str] = "Multiplication problem (1997 exp. 5)"
    paper: ClassVar[str] = "Hochreiter & Schmidhuber 1997, experiment 5"
    setup: ClassVar[str] = (
        "As adding: 2 inputs, 1 output, 2 blocks x 2 cells, init [-0.1, 0.1]; input "
        "gate biases random; lr 0.1. Stop when fewer than n_seq (140 or 13) of the "
        "last 2,000 sequences have abs error >= 0.04."
    )
    reported: ClassVar[str] = (
        "LSTM solved it: at most 170 (n_seq = 140) or 15 (n_seq = 13) of 2,560 "
        "test sequences wrong; hidden units made learning faster."
    )
    low: ClassVar[float] = 0.0
    x1_if_first: ClassVar[float] = 1.0

    @property
    def criterion(self) -> Criterion:
        return Criterion(
            2000,
            None,
            "abs error < 0.04 on 2,000 sequences in a row (paper: fewer than "
            "n_seq = 140 or 13 of the last 2,000 with error >= 0.04)",
        )

    def combine(self, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
        return x1 * x2

    @property
    def memoryless_loss(self) -> float:
        """½ · the target's variance: E[X1] = 0.1 + 0.9 · ½, E[X1²] = 0.1 + 0.9 / 3, X2 uniform in [0, 1]."""
        mean = (0.1 + 0.9 * 0.5) * 0.5
        return 0.5 * ((0.1 + 0.9 / 3.0) / 3.0 - mean * mean)
