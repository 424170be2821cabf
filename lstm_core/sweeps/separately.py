"""The proof that training a grid as one population changes nothing: the same networks trained one
after another, each alone (``run_separately``), and where two results tables differ
(``result_differences``). For the tests and the benchmark (benchmarks/bias_sweep.py).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..model import build
from ..training import Trainer
from .sweep import Sweep

RESULT_COLUMNS = ("status", "sequences", "solved_at", "best_streak", "message")


def result_differences(
    a: pd.DataFrame, b: pd.DataFrame, columns: Iterable[str] = RESULT_COLUMNS
) -> list[tuple[int, str, object, object]]:
    """(row, column, a's value, b's value) wherever two ``results()`` tables differ.

    Missing values (``solved_at`` of a network that never met the criterion: None or NaN,
    depending on how pandas built the column) count as equal to each other and to nothing
    else; numbers compare by value (1051 == 1051.0). Tables of different lengths differ at
    the rows only one of them has.
    """
    out = []
    for r in range(max(len(a), len(b))):
        for c in columns:
            if r >= len(a) or r >= len(b):
                out.append(
                    (
                        r,
                        c,
                        a[c].iloc[r] if r < len(a) else "<missing>",
                        b[c].iloc[r] if r < len(b) else "<missing>",
                    )
                )
                continue
            x, y = a[c].iloc[r], b[c].iloc[r]
            if pd.isna(x) or pd.isna(y):
                same = bool(pd.isna(x) and pd.isna(y))
            else:
                same = bool(x == y)
            if not same:
                out.append((r, c, x, y))
    return out


def run_separately(
    sweep: Sweep, chunk: int | None = None, params: dict[int, dict[str, np.ndarray]] | None = None
) -> pd.DataFrame:
    """The same networks trained one after another, each alone (for tests and benchmarks).

    Returns ``results()``-shaped rows. Each network gets its own Trainer with the sweep's
    training settings, task and model seed — exactly what it gets inside the population.
    Pass a dict as ``params`` to receive every network's final parameters (member -> name -> array).
    """
    rows = []
    for k, cfg in enumerate(sweep.configs):
        model = build(cfg)
        tr = Trainer(model, sweep.task, sweep.train_config)
        if chunk is None:
            while not tr.done:
                tr.train(sweep.train_config.budget)
        else:
            while not tr.done:
                tr.train(chunk)
        r = tr.results().iloc[0].to_dict()
        r.pop("seed")
        r["member"] = k
        rows.append(r)
        if params is not None:
            params[k] = model.params
    out = sweep.coords.merge(pd.DataFrame(rows), on="member")
    out["x_gate"], out["y_gate"] = sweep.x.gate, sweep.y.gate if sweep.y is not None else ""
    return out
