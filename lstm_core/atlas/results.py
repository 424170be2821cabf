"""Reading the atlas's results: one row per network, per-cell summaries, the ranking at a lag.

doc = load(path)                    # the JSON python -m lstm_core.atlas wrote
networks(doc)                       # variant, task, lag, scheme, seed, solved_at, final_ratio, ...
cells(doc)                          # per (variant, task, lag, scheme): solved share, median sequences
ranking(doc, "lstm", "copy", 100)   # the schemes at that lag, best first
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import CoreError
from ..init_schemes import SCHEMES

DEFAULT = Path(__file__).resolve().parents[2] / "docs" / "bias_atlas.json"


def load(path: str | Path = DEFAULT) -> dict:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise CoreError("cannot read the atlas results {path}: {why}", path=str(path), why=str(e)) from None
    if not isinstance(doc, dict) or "units" not in doc or "grid" not in doc:
        raise CoreError("{path} is not an atlas results file (no grid and units)", path=str(path))
    return doc


def networks(doc: dict) -> pd.DataFrame:
    rows = [
        {
            "variant": u["variant"],
            "task": u["task"],
            "lag": int(u["lag"]),
            **{k: v for k, v in m.items() if k != "curve"},
        }
        for u in doc["units"]
        for m in u["members"]
    ]
    return pd.DataFrame(rows)


def curves(doc: dict, variant: str, task: str, lag: int) -> tuple[list[int], pd.DataFrame]:
    """(sequences at each evaluation, one row per network with its ratio curve)."""
    for u in doc["units"]:
        if (u["variant"], u["task"], int(u["lag"])) == (variant, task, int(lag)):
            return u["at"], pd.DataFrame(u["members"])
    raise CoreError(
        "the atlas has no {variant} run of {task} at lag {lag}", variant=variant, task=task, lag=lag
    )


def cells(doc: dict) -> pd.DataFrame:
    """Per (variant, task, lag, scheme): networks, solved, solved share, median sequences to solved
    (over the solved ones), median final and best loss ratio to the memoryless baseline."""
    net = networks(doc)
    out = []
    for (v, t, lag, s), g in net.groupby(["variant", "task", "lag", "scheme"], sort=False):
        solved = g.solved_at.dropna().astype(float)
        out.append(
            {
                "variant": v,
                "task": t,
                "lag": int(lag),
                "scheme": s,
                "networks": len(g),
                "solved": len(solved),
                "solved_share": len(solved) / len(g),
                "median_to_solved": float(np.median(solved)) if len(solved) else np.nan,
                "median_final_ratio": float(np.nanmedian(g.final_ratio.astype(float))),
                "median_best_ratio": float(np.nanmedian(g.best_ratio.astype(float))),
            }
        )
    return pd.DataFrame(out)


def ranking(doc: dict, variant: str, task: str, lag: int) -> pd.DataFrame:
    """The schemes at one lag, best first: most solved, then fewest sequences to solved, then the
    lowest median final loss ratio (which still orders schemes none of whose networks solved)."""
    return rank_at(cells(doc), variant, task, lag)


def rank_at(all_cells: pd.DataFrame, variant: str, task: str, lag: int) -> pd.DataFrame:
    """``ranking`` from an already summarised ``cells(doc)`` (a page summarises its file once)."""
    c = all_cells[(all_cells.variant == variant) & (all_cells.task == task) & (all_cells.lag == int(lag))]
    if c.empty:
        raise CoreError(
            "the atlas has no {variant} run of {task} at lag {lag}", variant=variant, task=task, lag=lag
        )
    c = c.assign(_speed=c.median_to_solved.fillna(np.inf))
    return (
        c.sort_values(["solved_share", "_speed", "median_final_ratio"], ascending=[False, True, True])
        .drop(columns="_speed")
        .reset_index(drop=True)
    )


def markdown_table(doc: dict) -> str:
    """docs/bias_atlas.md's table: one row per (variant, task, lag, scheme), with the command and machine."""
    g = doc["grid"]
    lines = [
        f"Command: `{doc['command']}` — machine: {doc['machine']} — wall time {doc['wall_seconds']:,.0f} s "
        f"(units' own time {doc.get('unit_seconds', 0):,.0f} s).",
        "",
        f"Criterion: solved = evaluation loss ≤ {g['margin']:g} × the memoryless baseline on {g['eval_size']} "
        f"held-out sequences, checked every {g['eval_every']:,} training sequences; budget {g['budget']:,} "
        f"sequences per network ({g['optimizer']}, lr {g['lr']:g}, batch {g['batch']}, clip norm "
        f"{g['clip_norm']:g}); {g['hidden']} units; {g['seeds']} seeds.",
        "",
        "| variant | task | lag | scheme | solved | median sequences to solved | median final loss / baseline "
        "| made by |",
        "| --- | --- | ---: | --- | ---: | ---: | ---: | --- |",
    ]
    made = f"`{doc['command']}` on {doc['machine']}"  # every row, as the papers' reproduction table does
    for r in cells(doc).itertuples():
        med = "—" if not np.isfinite(r.median_to_solved) else f"{r.median_to_solved:,.0f}"
        lines.append(
            f"| {r.variant} | {r.task} | {r.lag} | {SCHEMES[r.scheme].title} | {r.solved}/{r.networks} | {med} "
            f"| {r.median_final_ratio:.3f} | {made} |"
        )
    return "\n".join(lines) + "\n"
