"""A criterion judged on a fixed set of sequences (``Criterion.check_every``): the paper's
embedded Reber protocol, where a trial succeeds when every string of a fixed training set and of
a fixed test set is predicted right.

Every ``check_every`` training sequences of a network, the whole set is run forward with its
current weights (no learning) and the sequences it gets right are counted (``Bookkeeper.checked``
solves it when all are right).
"""

from __future__ import annotations

import numpy as np

from ..errors import CoreError
from ..model import Model
from ..sequence import forward
from ..tasks import Criterion, Task


class FixedSetCheck:
    def __init__(self, task: Task) -> None:
        self.task, self.every = task, int(task.criterion.check_every)
        self.batch = task.check_set()
        if self.batch is None:
            raise CoreError(
                "{task}: its criterion is checked every {every} sequences but the task has no fixed set "
                "to check (check_set() gave None)",
                task=task.name,
                every=self.every,
            )
        self.size = int(self.batch.xs.shape[-2])

    def due(self, before: np.ndarray, seen: np.ndarray, alive: np.ndarray) -> np.ndarray:
        """The networks that completed another ``every`` training sequences in this batch."""
        return alive & (seen // self.every > before // self.every)

    def right(self, model: Model) -> np.ndarray:
        """(n,) the number of the set's sequences each network gets right now."""
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            run = forward(model, self.batch.xs, check=False)
            correct = np.asarray(self.task.evaluate(run.outputs, self.batch).correct)
        return correct.reshape(-1, self.size).sum(1)


def criterion_text(crit: Criterion, streak: int | None) -> tuple[str, bool]:
    """(what the criterion is, whether it is reduced) when ``TrainConfig.streak`` is ``streak``. A
    streak replaces a fixed-set criterion by that many training sequences in a row right (quicker
    runs in the app), and says so."""
    if streak and crit.check_every:
        return (
            crit.description + f" — REPLACED here (REDUCED) by {streak:,} training sequences in a row right",
            True,
        )
    if streak and streak != crit.streak:
        return crit.description + f" — REDUCED here to {streak:,} in a row", True
    return crit.description, False


def streak_words(n: int, required: int, fixed_set: bool, best: bool = False) -> str:
    """A network's streak in words (with a fixed set it counts the set's sequences right)."""
    if fixed_set:
        return f"{'at best ' if best else ''}{n:,} of the {required:,} fixed-set sequences right at " + (
            "one check" if best else "the last check"
        )
    return f"{'best ' if best else ''}streak {n:,} of {required:,}"
