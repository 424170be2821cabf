"""The trainer's state in words and tables: its status word and message (one network or a
population), one row per network (``Trainer.results``) and the history as a tidy table
(``Trainer.history_frame``)."""

from __future__ import annotations

import numpy as np

from .bookkeeping import BUDGET, DIVERGED, RUNNING, SOLVED, STATUS_NAMES, Bookkeeper
from .checkset import streak_words


def status_word(st: np.ndarray, population: bool) -> str:
    """'running', 'solved', 'diverged' or 'budget': a population's only when all its networks agree
    (running while any runs; budget for a mix)."""
    if not population:
        return STATUS_NAMES[st[0]]
    if (st == RUNNING).any():
        return "running"
    if (st == SOLVED).all():
        return "solved"
    if (st == DIVERGED).all():
        return "diverged"
    return "budget"


def message(b: Bookkeeper, population: bool, budget: int, required: int, criterion: str, fixed: bool) -> str:
    """Where training stands, in a sentence (a population: counts per status and the first divergence)."""
    if not population:
        s = b.status[0]
        if s == SOLVED:
            return f"solved: the criterion was met after {b.solved_at[0]:,} sequences ({criterion})"
        if s == BUDGET:
            return (
                f"stopped: the budget of {budget:,} sequences is used up without meeting "
                f"the criterion ({streak_words(b.best_streak[0], required, fixed, best=True)})"
            )
        if s == DIVERGED:
            return b.messages[0]
        return f"running: {b.seen[0]:,} sequences, {streak_words(b.streak[0], required, fixed)}"
    counts = {name: int((b.status == i).sum()) for i, name in enumerate(STATUS_NAMES)}
    parts = [f"population of {b.n}: {counts['solved']} solved"]
    if counts["solved"]:
        parts[0] += f" (median {int(np.median(b.solved_at[b.status == SOLVED])):,} sequences to criterion)"
    parts += [
        f"{counts['running']} running",
        f"{counts['budget']} out of budget",
        f"{counts['diverged']} diverged",
    ]
    first_div = next((m for m in b.messages if m), "")
    return ", ".join(parts) + (f"; first divergence: {first_div}" if first_div else "")


def results_frame(b: Bookkeeper, seeds: list[int]):
    """One row per network: member, seed, status, sequences seen, sequences to criterion, message."""
    import pandas as pd

    return pd.DataFrame(
        {
            "member": np.arange(b.n),
            "seed": seeds,
            "status": [STATUS_NAMES[s] for s in b.status],
            "sequences": b.seen,
            "solved_at": [int(s) if s >= 0 else None for s in b.solved_at],
            "best_streak": b.best_streak,
            "message": b.messages,
        }
    )


def history_frame(h: dict[str, list], n: int):
    """The history as a tidy table: one row per report (and member)."""
    import pandas as pd

    rows = []
    for i in range(len(h["sequences"])):
        for k in range(n):
            pick = lambda v, k=k: np.asarray(v).reshape(-1)[k]
            rows.append(
                {
                    "report": i,
                    "member": k,
                    "sequences": int(pick(h["sequences"][i])),
                    "loss": float(pick(h["loss"][i])),
                    "streak": int(pick(h["streak"][i])),
                    "criterion_fraction": float(pick(h["criterion_fraction"][i])),
                    "elapsed": h["elapsed"][i],
                }
            )
    return pd.DataFrame(rows)
