"""Temporal order problems (Hochreiter & Schmidhuber 1997, experiments 6a and 6b)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .base import Aligned, Batch, Criterion, Report, Task, check_choice, check_int

SYMBOLS = "abcdBEXY"
_B, _E, _X = 4, 5, 6
# classes -> windows [lo, hi] (inclusive, 0-based positions with B at 0) of the X/Y symbols
_WINDOWS = {4: ((10, 20), (50, 60)), 8: ((10, 20), (33, 43), (66, 76))}


@dataclass(frozen=True)
class TemporalOrder(Task):
    """Temporal order: classify the order of two (6a) or three (6b) widely separated X/Y.

    Length L uniform in [min_len, max_len] = [100, 110], symbols {a, b, c, d, B, E, X, Y}
    (one-hot, 8 inputs); B first, E last, random a-d elsewhere except X or Y (p. 0.5 each) at
    t1 in [10, 20] and t2 in [50, 60] (6b: t1 in [10, 20], t2 in [33, 43], t3 in [66, 76]).
    Classes: XX, XY, YX, YY (6b: XXX ... YYY), class index = the X/Y string read as binary
    (X = 0, Y = 1, first symbol most significant). Target at the last step (input E): the
    class one-hot over 4 (8) sigmoid outputs. Correct (paper): every output unit's abs error
    < 0.3. Stop: 2,000 correct in a row with mean abs error < 0.1 (the paper's "average
    training error"; mean over output units here).

    Setup: 2 blocks x 2 cells (6b: 3 blocks), input gate biases -2, -4 (6b: -2, -4, -6), init
    [-0.1, 0.1], lr 0.5 (6b: 0.1). Reported: LSTM solved both with mean error < 0.1 and at
    most 3 of 2,560 test sequences wrong; with 2 cells it can store the symbols in order.
    """

    classes: int = 4
    min_len: int = 100
    max_len: int = 110

    name: ClassVar[str] = "temporal_order"
    title: ClassVar[str] = "Temporal order (1997 exp. 6a / 6b)"
    paper: ClassVar[str] = "Hochreiter & Schmidhuber 1997, experiments 6a (4 classes) and 6b (8 classes)"
    setup: ClassVar[str] = (
        "8 one-hot inputs, 4 (6b: 8) outputs; 2 blocks x 2 cells (6b: 3 blocks); "
        "input gate biases -2, -4 (6b: -2, -4, -6); init [-0.1, 0.1]; lr 0.5 (6b: "
        "0.1). Error only at the end; correct when every output's abs error < 0.3; "
        "stop at 2,000 correct in a row with mean error < 0.1."
    )
    reported: ClassVar[str] = (
        "LSTM solved 6a and 6b (mean error < 0.1, no more than 3 of 2,560 test sequences wrong)."
    )

    def __post_init__(self) -> None:
        t = self.name
        check_choice(t, "classes", self.classes, (4, 8), "4 = two X/Y positions (6a), 8 = three (6b)")
        last = _WINDOWS[self.classes][-1][1]
        self._set(
            "min_len",
            check_int(
                t,
                "min_len",
                self.min_len,
                last + 2,
                f"the last X/Y may sit at position {last} and E must follow it",
            ),
        )
        self._set(
            "max_len",
            check_int(
                t, "max_len", self.max_len, self.min_len, f"max_len must be >= min_len = {self.min_len}"
            ),
        )

    n_in = property(lambda self: len(SYMBOLS))
    n_out = property(lambda self: self.classes)
    max_length = property(lambda self: self.max_len)

    @property
    def criterion(self) -> Criterion:
        return Criterion(
            2000, 0.1, "every output's abs error < 0.3 on 2,000 sequences in a row, mean abs error < 0.1"
        )

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        wins = _WINDOWS[self.classes]
        lengths = rng.integers(self.min_len, self.max_len + 1, size=batch)
        Tm = int(lengths.max())
        steps = np.arange(Tm)[:, None]
        b = np.arange(batch)
        sym = rng.integers(0, 4, size=(Tm, batch))  # a, b, c, d
        sym[0] = _B
        sym[lengths - 1, b] = _E
        pos = np.stack([rng.integers(lo, hi + 1, size=batch) for lo, hi in wins], -1)
        xy = rng.integers(2, size=(batch, len(wins)))  # 0 = X, 1 = Y
        for j in range(len(wins)):
            sym[pos[:, j], b] = _X + xy[:, j]
        label = (xy * (2 ** np.arange(len(wins))[::-1])).sum(-1)
        inside = steps < lengths
        xs = np.eye(len(SYMBOLS))[sym] * inside[..., None]
        mask = (steps == lengths - 1).astype(float)
        targets = np.eye(self.classes)[label][None] * mask[..., None]
        symbols = np.where(inside, sym, -1).T
        return Batch(
            xs,
            targets,
            mask,
            lengths.astype(np.int64),
            {"label": label, "positions": pos, "symbols": symbols},
        )

    def _evaluate(self, a: Aligned) -> Report:
        rep = self._report(a, 0.3)
        pred = a.final(a.out).argmax(-1)
        acc = (pred == a.info["label"]).astype(float)
        return Report(rep.correct, {**rep.metrics, "accuracy": acc})
