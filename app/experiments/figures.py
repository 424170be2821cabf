"""Figure and table builders of the Paper experiments page. Data in, figures/tables out.

``comparison_chart`` puts three sources on one log axis of "training sequences to criterion":
the paper's reported number, the reproduction command's trials (the baseline, read from the
results file) and the run made on this page — unsolved trials are drawn at their budget as
"✗", so a failure never looks like a success.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from app.ui.figures import PALETTE, Chart, font_size, layout, make_figure
from lstm_core.reproduce.results import join_notes


def _fmt(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:,.0f}"


def comparison_chart(*, paper: float | None, baseline: pd.DataFrame, here: dict | None, large: bool,
                     title: str) -> Chart:
    """Sequences to criterion: paper (◆), baseline median and range (●, bar), this run's trials."""
    rows, data = [], []
    m = 12 if large else 10
    if paper:
        rows.append("paper")
        data.append(dict(type="scatter", x=[paper], y=["paper"], mode="markers", name="paper (reported)",
                         marker=dict(symbol="diamond", size=m + 4, color=PALETTE[6]),
                         hovertemplate="paper: %{x:,.0f} sequences<extra></extra>"))
    for label, (_, r) in zip(command_labels(baseline), baseline.iterrows()):
        rows.append(label)
        if r["median"] is not None and not (isinstance(r["median"], float) and math.isnan(r["median"])):
            data.append(dict(type="scatter", x=[r["median"]], y=[label], mode="markers", name="reproduction command",
                             marker=dict(symbol="circle", size=m + 2, color=PALETTE[0]),
                             error_x=dict(type="data", symmetric=False, array=[r.high - r["median"]],
                                          arrayminus=[r["median"] - r.low], color=PALETTE[0], thickness=2),
                             hovertemplate=(f"reproduction command, median %{{x:,.0f}} (range {_fmt(r.low)}–"
                                            f"{_fmt(r.high)}), {r.solved}/{r.trials} solved<extra></extra>")))
        if r.solved is not None and r.trials is not None and r.solved < r.trials and r.budget:
            data.append(dict(type="scatter", x=[r.budget], y=[label], mode="markers+text", name="not solved",
                             text=[f"✗ {r.trials - r.solved}"], textposition="middle right",
                             marker=dict(symbol="x", size=m + 2, color=PALETTE[3]),
                             hovertemplate=f"{r.trials - r.solved} not solved within %{{x:,.0f}}<extra></extra>"))
    if here is not None:
        label = f"here {here['solved']}/{here['trials']}" + ("*" if here["reduced"] else "")
        rows.append(label)
        at = np.array([v for v in here["solved_at"] if v is not None], dtype=float)
        if at.size:
            data.append(dict(type="scatter", x=at, y=[label] * at.size, mode="markers", name="this page's trials",
                             marker=dict(symbol="circle-open", size=m + 2, color=PALETTE[1], line=dict(width=2)),
                             hovertemplate="this trial: %{x:,.0f} sequences<extra></extra>"))
        failed = here["trials"] - at.size - here.get("running", 0)
        if failed > 0:
            data.append(dict(type="scatter", x=[here["budget"]], y=[label], mode="markers+text", name="not solved",
                             text=[f"✗ {failed}"], textposition="middle right",
                             marker=dict(symbol="x", size=m + 2, color=PALETTE[3]),
                             hovertemplate=f"{failed} not solved within %{{x:,.0f}}<extra></extra>"))
    lay = layout(title=title, x="training sequences to criterion (log scale)", y="", large=large,
                 uirevision="exp-compare", height=120 + 45 * max(len(rows), 1), legend=False)
    # One tick per decade; within less than a decade that can be one tick or none, so then 1, 2, 5
    # — written out in full (Plotly's own minor log ticks say "2" for 2,000).
    xs = [x for d in data for x in np.atleast_1d(d["x"]) if x and np.isfinite(x) and x > 0]
    lay["xaxis"].update(type="log", exponentformat="none")
    if xs:
        lo, hi = np.log10(min(xs)), np.log10(max(xs))
        steps = (1,) if hi - lo >= 1 else (1, 2, 5)
        ticks = [m * 10.0 ** e for e in range(int(np.floor(lo)) - 1, int(np.ceil(hi)) + 2) for m in steps]
        lay["xaxis"].update(tickmode="array", tickvals=ticks, ticktext=[f"{t:,.0f}" for t in ticks],
                            # room on the right for the "✗ n" label next to a marker at the budget
                            range=[lo - 0.08 * max(hi - lo, 0.3), hi + 0.18 * max(hi - lo, 0.3) + 0.05])
    lay["yaxis"].update(categoryorder="array", categoryarray=rows[::-1], type="category")
    lay["hovermode"] = "closest"
    # room for the row labels (measured in characters of the tick font)
    lay["margin"].update(r=40, l=int(16 + 0.62 * font_size(large) * max((len(r) for r in rows), default=6)))
    parts = []
    if paper:
        parts.append(f"paper {paper:,.0f}")
    for _, r in baseline.iterrows():
        parts.append(f"reproduction command median {_fmt(r['median'])} ({r.solved}/{r.trials} solved)")
    if here is not None:
        med = np.median(at) if here is not None and at.size else None
        parts.append(f"this page median {_fmt(med)} ({here['solved']}/{here['trials']} solved)")
    alt = f"Dot chart: {title}. " + ("; ".join(parts) if parts else "no numbers yet") + "."
    return make_figure(dict(data=data, layout=lay)), alt


def command_labels(baseline: pd.DataFrame) -> list[str]:
    """One y-axis label per reproduction-command row: "command 1/10" (* = reduced); rows that would
    share a label (the same solved count) add what tells them apart — their task settings, else
    their budget, else their place — so no two rows are drawn on one line."""
    base = [f"command {r.solved}/{r.trials}" + ("*" if r.reduced else "") for _, r in baseline.iterrows()]
    settings = [_settings(s) if isinstance(s, dict) and s else "" for s in baseline.get("settings", [None] * len(base))]
    budgets = [f"budget {b:,.0f}" if isinstance(b, (int, float)) and b == b else "" for b in
               baseline.get("budget", [None] * len(base))]
    out = []
    for i, label in enumerate(base):
        same = [j for j, other in enumerate(base) if other == label]
        if len(same) == 1:
            out.append(label)
            continue
        for tell in (settings, budgets):
            if len({tell[j] for j in same}) == len(same) and tell[i]:
                out.append(f"{label} · {tell[i]}")
                break
        else:
            out.append(f"{label} · row {same.index(i) + 1}")
    return out


def comparison_table(*, preset: Any, baseline: pd.DataFrame, here: dict | None) -> pd.DataFrame:
    """Paper vs reproduction command vs this page, one row each (numbers only; see ``comparison_notes``)."""
    rows = [{"source": "paper", "trials solved": "—", "median sequences (range)": _fmt(preset.paper_sequences),
             "budget / network": "—", "wall time": "—"}]
    for _, r in baseline.iterrows():
        rows.append({"source": "reproduction command" + (" (REDUCED)" if r.reduced else ""),
                     "trials solved": f"{r.solved}/{r.trials}",
                     "median sequences (range)": (f"{_fmt(r['median'])} ({_fmt(r.low)}–{_fmt(r.high)})"
                                                  if r.solved else "—"),
                     "budget / network": _fmt(r.budget), "wall time": f"{_fmt(r.wall)} s"})
    if here is not None:
        at = np.array([v for v in here["solved_at"] if v is not None], dtype=float)
        rng = f" ({at.min():,.0f}–{at.max():,.0f})" if at.size else ""
        rows.append({"source": "this page" + (" (REDUCED)" if here["reduced"] else ""),
                     "trials solved": f"{here['solved']}/{here['trials']}",
                     "median sequences (range)": (_fmt(np.median(at)) + rng) if at.size else "—",
                     "budget / network": _fmt(here["budget"]), "wall time": f"{here['wall']:.0f} s"})
    return pd.DataFrame(rows)


def comparison_notes(*, preset: Any, baseline: pd.DataFrame, here: dict | None) -> str:
    """What each row of ``comparison_table`` is, as markdown bullets."""
    out = [f"- **paper:** {preset.reported}"]
    for _, r in baseline.iterrows():
        machine = r.get("machine")
        notes = _notes(r.notes) + (f" (ran on {machine})" if isinstance(machine, str) and machine else "")
        out.append(f"- **reproduction command:** `{r.command}`" + (f" — {notes}" if notes else ""))
    if here is not None:
        out.append(f"- **this page:** {here['label']}")
    return "\n".join(out)


def gallery_table(presets: dict, results: pd.DataFrame) -> pd.DataFrame:
    """Every experiment: paper, reported, and the reproduction command's result if there is one."""
    rows = []
    for name, p in presets.items():
        r = results[results.name == name]
        ours = "; ".join(f"{x.solved}/{x.trials} solved, median {_fmt(x['median'])}"
                         + (" (reduced)" if x.reduced else "") + (f" [{_settings(x.settings)}]" if x.settings else "")
                         for _, x in r.iterrows()) or "not run yet"
        rows.append({"experiment": p.title, "paper": p.paper, "paper: sequences": _fmt(p.paper_sequences),
                     "reproduction command": ours})
    return pd.DataFrame(rows)


def _settings(s: Any) -> str:
    return ", ".join(f"{k}={v}" for k, v in s.items()) if isinstance(s, dict) else str(s)


def _notes(notes: Any) -> str:
    """An outcome's notes (a list of sentences in the results file) as one line of text."""
    if notes is None or (isinstance(notes, float) and math.isnan(notes)):
        return ""
    if isinstance(notes, (list, tuple, np.ndarray)):
        return join_notes(notes)
    return str(notes)


def setup_markdown(preset: Any, reduced: bool = False) -> str:
    """The preset's setup as a small two-column table (task settings as "name = value", not a dict)."""
    task = preset.build_task(reduced)
    rows = {"task": f"{task.name}: " + ", ".join(f"{k} = {_value(v)}" for k, v in task.settings().items())}
    for line in preset.describe(reduced=reduced).splitlines()[2:]:
        key, _, text = line.strip().partition(":")
        if key in ("model", "training", "criterion", "notes", "reduced"):
            rows[key] = text.strip()
    body = "\n".join(f"| {k} | {v.replace('|', '/')} |" for k, v in rows.items())
    return "| part | setup |\n|---|---|\n" + body      # a named header: an empty one draws a blank row


def _value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(x) for x in v)
    return str(v)
