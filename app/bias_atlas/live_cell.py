"""Train one cell of the atlas live: the network the atlas trained for a scheme and seed, trained here
the same way (``lstm_core.atlas.grid``: its config, training settings and evaluation set), drawn on
top of the atlas's own record of it.

A member of a population gets bit for bit the updates it would get alone, so the live curve retraces
the atlas's — a student sees the atlas is a measurement, not a picture. The work trains one evaluation
interval per ``advance`` (whatever chunk ``app.ui.jobs`` asks for): the atlas evaluates after exactly
those intervals, and a chunk that crossed one would evaluate elsewhere. It runs in the session's process
(no ``trainer`` attribute for ``jobs`` to hand to a worker): one small network, an interval well under a
second.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from lstm_core.atlas.grid import Grid, evaluation_set, loss_ratios, member_config, rounded, train_config
from lstm_core.model import build
from lstm_core.tasks import get_task
from lstm_core.training import Trainer


@dataclass
class CellWork:
    grid: Grid
    variant: str
    task: str
    lag: int
    scheme: str
    seed: int
    at: list[int] = field(default_factory=list)
    curve: list[float | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._task = get_task(self.task, T=self.lag, **self.grid.extra)
        cfg = member_config(self.grid, self.variant, self.task, self.lag, self.scheme, self.seed)
        self._trainer = Trainer(build(cfg), self._task, train_config(self.grid))
        self._eval = evaluation_set(self.grid, self._task)

    def advance(self, n: int) -> None:
        self._trainer.train(self.grid.eval_every)
        self.at.append(int(self._trainer.book.seen.max()))
        self.curve.append(rounded(loss_ratios(self._trainer.model, self._task, self._eval)[0]))

    @property
    def done(self) -> bool:
        return self._trainer.done or (bool(self.at) and self.at[-1] >= self.grid.budget)

    def fraction(self) -> float:
        return min(1.0, (self.at[-1] if self.at else 0) / self.grid.budget)

    def solved_at(self) -> int | None:
        return next((a for a, r in zip(self.at, self.curve) if r is not None and r <= self.grid.margin), None)


def same_as_atlas(work: CellWork, atlas_curve: list) -> bool:
    """Whether the live curve so far equals the atlas's (to the 5 digits the atlas keeps)."""
    n = len(work.curve)
    a = np.array([np.nan if v is None else v for v in atlas_curve[:n]], dtype=float)
    b = np.array([np.nan if v is None else v for v in work.curve], dtype=float)
    return n > 0 and len(a) == n and bool(np.allclose(a, b, rtol=0, atol=2e-5, equal_nan=True))
