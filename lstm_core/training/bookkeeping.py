"""Stop bookkeeping per network: criterion streaks, sequence counts, budget, divergence.

A network's streak counts its training sequences judged correct by the task, in a row (the
outputs it produced while learning them). It has met the criterion when the streak reaches
``required`` and — for tasks with a mean-abs-error condition — the mean of ``seq_abs_error``
over those last ``required`` sequences is below the threshold. A network that met the
criterion, used up its budget or diverged is frozen; the others go on.

With a fixed-set criterion (``by_check``; ``Criterion.check_every``) training sequences only count
towards the budget; ``checked`` records each check of the set, and the streak is then the number
of the set's sequences right at the last check (``required`` = the set's size).
"""

from __future__ import annotations

import numpy as np

from ..errors import Words

RUNNING, SOLVED, BUDGET, DIVERGED = 0, 1, 2, 3
STATUS_NAMES = ("running", "solved", "budget", "diverged")


class Bookkeeper:
    def __init__(
        self, n: int, required: int, mae_below: float | None, budget: int, by_check: bool = False
    ) -> None:
        self.n, self.required, self.mae_below, self.budget = n, required, mae_below, budget
        self.by_check = by_check
        self.seen = np.zeros(n, dtype=np.int64)  # training sequences per network
        self.streak = np.zeros(n, dtype=np.int64)
        self.best_streak = np.zeros(n, dtype=np.int64)
        self.status = np.full(n, RUNNING)
        self.solved_at = np.full(n, -1, dtype=np.int64)
        # why each diverged network stopped: the English sentence, and the same as the core's words
        # (lstm_core/errors.py) for an interface that translates it
        self.messages: list[str] = [""] * n
        self.words: list[Words] = [""] * n
        # the last `required` seq_abs_errors (a ring buffer), only if the criterion needs them
        self.errors = np.zeros((n, required)) if mae_below is not None else None
        self.pos = np.zeros(n, dtype=np.int64)

    @property
    def running(self) -> np.ndarray:
        return self.status == RUNNING

    def diverge(self, k: int, message: Words) -> None:
        if self.status[k] == RUNNING:
            self.status[k] = DIVERGED
            self.messages[k] = str(message)
            self.words[k] = message

    def record(self, correct: np.ndarray, seq_err: np.ndarray, active: np.ndarray) -> np.ndarray:
        """Count one batch: correct/seq_err (n, B) in order. Returns the networks solved now."""
        solved_now = np.zeros(self.n, dtype=bool)
        for b in range(correct.shape[1]):
            a = active & self.running
            if not a.any():
                break
            self.seen += a
            if self.by_check:
                continue
            self.streak = np.where(a, np.where(correct[:, b], self.streak + 1, 0), self.streak)
            self.best_streak = np.maximum(self.best_streak, self.streak)
            if self.errors is not None:
                idx = np.flatnonzero(a)
                self.errors[idx, self.pos[idx]] = seq_err[idx, b]
                self.pos[idx] = (self.pos[idx] + 1) % self.required
            done = a & (self.streak >= self.required)
            if self.errors is not None:
                for k in np.flatnonzero(done):
                    done[k] = self.errors[k].mean() < self.mae_below
            self.status[done] = SOLVED
            self.solved_at[done] = self.seen[done]
            solved_now |= done
        out = self.running & (self.seen >= self.budget)
        self.status[out] = BUDGET
        return solved_now

    def checked(self, right: np.ndarray, due: np.ndarray) -> np.ndarray:
        """Record a check of the fixed set: ``right`` (n,) sequences of it right, for the ``due``
        networks. Those with all ``required`` right are solved (at their sequences seen so far);
        a network whose budget ran out with this batch still counts its last check. Returns the
        networks solved now."""
        due = due & ((self.status == RUNNING) | (self.status == BUDGET))
        self.streak = np.where(due, right, self.streak)
        self.best_streak = np.maximum(self.best_streak, self.streak)
        done = due & (right >= self.required)
        self.status[done] = SOLVED
        self.solved_at[done] = self.seen[done]
        return done

    def mean_error(self) -> np.ndarray:
        """Mean seq_abs_error over the current window (NaN before the window is full)."""
        if self.errors is None:
            return np.full(self.n, np.nan)
        full = self.seen >= self.required
        return np.where(full, self.errors.mean(1), np.nan)
