"""Figure and table builders of the Paper experiments page. Data in, figures/tables out.

``comparison_chart`` puts three sources on one log axis of "training sequences to criterion":
the paper's reported number, the reproduction command's trials (the baseline, read from the
results file) and the run made on this page — unsolved trials are drawn at their budget as
"✗", so a failure never looks like a success. The notes and setup texts these show are put
into this session's language by ``app.experiments.notes``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from app.experiments.notes import notes_line
from app.i18n import N_, _
from app.ui.figures import PALETTE, Chart, font_size, layout, make_figure


def _fmt(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:,.0f}"


NOT_SOLVED_HOVER = N_("{n} not solved within %{{x:,.0f}}<extra></extra>")


def comparison_chart(
    *, paper: float | None, baseline: pd.DataFrame, here: dict | None, large: bool, title: str
) -> Chart:
    """Sequences to criterion: paper (◆), baseline median and range (●, bar), this run's trials."""
    rows, data = [], []
    m = 12 if large else 10
    if paper:
        rows.append(_("paper"))
        data.append(_paper_trace(paper, m))
    labels, traces = _baseline_traces(baseline, m)
    rows += labels
    data += traces
    at = np.array([], dtype=float)
    if here is not None:
        label, traces, at = _here_traces(here, m)
        rows.append(label)
        data += traces
    lay = layout(
        title=title,
        x=_("training sequences to criterion (log scale)"),
        y="",
        large=large,
        uirevision="exp-compare",
        height=120 + 45 * max(len(rows), 1),
        legend=False,
    )
    _log_axis(lay, data)
    lay["yaxis"].update(categoryorder="array", categoryarray=rows[::-1], type="category")
    lay["hovermode"] = "closest"
    # room for the row labels (measured in characters of the tick font)
    lay["margin"].update(r=40, l=int(16 + 0.62 * font_size(large) * max((len(r) for r in rows), default=6)))
    alt = _chart_alt(paper=paper, baseline=baseline, here=here, at=at, title=title)
    return make_figure(dict(data=data, layout=lay)), alt


def _paper_trace(paper: float, m: int) -> dict:
    return dict(
        type="scatter",
        x=[paper],
        y=[_("paper")],
        mode="markers",
        name=_("paper (reported)"),
        marker=dict(symbol="diamond", size=m + 4, color=PALETTE[6]),
        hovertemplate=_("paper: %{x:,.0f} sequences<extra></extra>"),
    )


def _not_solved_trace(budget: float, label: str, n: int, m: int) -> dict:
    """The "✗ n" marker at the budget: unsolved trials drawn where they gave up."""
    return dict(
        type="scatter",
        x=[budget],
        y=[label],
        mode="markers+text",
        name=_("not solved"),
        text=[f"✗ {n}"],
        textposition="middle right",
        marker=dict(symbol="x", size=m + 2, color=PALETTE[3]),
        hovertemplate=_(NOT_SOLVED_HOVER).format(n=n),
    )


def _baseline_traces(baseline: pd.DataFrame, m: int) -> tuple[list[str], list[dict]]:
    """One row per reproduction-command result: its median with the range as an error bar, and its
    unsolved trials at the budget."""
    rows, data = [], []
    for label, (_i, r) in zip(command_labels(baseline), baseline.iterrows()):
        rows.append(label)
        if r["median"] is not None and not (isinstance(r["median"], float) and math.isnan(r["median"])):
            data.append(
                dict(
                    type="scatter",
                    x=[r["median"]],
                    y=[label],
                    mode="markers",
                    name=_("reproduction command"),
                    marker=dict(symbol="circle", size=m + 2, color=PALETTE[0]),
                    error_x=dict(
                        type="data",
                        symmetric=False,
                        array=[r.high - r["median"]],
                        arrayminus=[r["median"] - r.low],
                        color=PALETTE[0],
                        thickness=2,
                    ),
                    hovertemplate=_(
                        "reproduction command, median %{{x:,.0f}} (range {low}–{high}), "
                        "{solved}/{trials} solved<extra></extra>"
                    ).format(low=_fmt(r.low), high=_fmt(r.high), solved=r.solved, trials=r.trials),
                )
            )
        if r.solved is not None and r.trials is not None and r.solved < r.trials and r.budget:
            data.append(_not_solved_trace(r.budget, label, r.trials - r.solved, m))
    return rows, data


def _here_traces(here: dict, m: int) -> tuple[str, list[dict], np.ndarray]:
    """This page's row: its label, each solved trial and the unsolved ones, and the solved-at values."""
    label = _("here {solved}/{trials}").format(solved=here["solved"], trials=here["trials"]) + (
        "*" if here["reduced"] else ""
    )
    data = []
    at = np.array([v for v in here["solved_at"] if v is not None], dtype=float)
    if at.size:
        data.append(
            dict(
                type="scatter",
                x=at,
                y=[label] * at.size,
                mode="markers",
                name=_("this page's trials"),
                marker=dict(symbol="circle-open", size=m + 2, color=PALETTE[1], line=dict(width=2)),
                hovertemplate=_("this trial: %{x:,.0f} sequences<extra></extra>"),
            )
        )
    failed = here["trials"] - at.size - here.get("running", 0)
    if failed > 0:
        data.append(_not_solved_trace(here["budget"], label, failed, m))
    return label, data, at


def _log_axis(lay: dict, data: list[dict]) -> None:
    """One tick per decade; within less than a decade that can be one tick or none, so then 1, 2, 5
    — written out in full (Plotly's own minor log ticks say "2" for 2,000)."""
    xs = [x for d in data for x in np.atleast_1d(d["x"]) if x and np.isfinite(x) and x > 0]
    lay["xaxis"].update(type="log", exponentformat="none")
    if xs:
        lo, hi = np.log10(min(xs)), np.log10(max(xs))
        steps = (1,) if hi - lo >= 1 else (1, 2, 5)
        ticks = [m * 10.0**e for e in range(int(np.floor(lo)) - 1, int(np.ceil(hi)) + 2) for m in steps]
        lay["xaxis"].update(
            tickmode="array",
            tickvals=ticks,
            ticktext=[f"{t:,.0f}" for t in ticks],
            # room on the right for the "✗ n" label next to a marker at the budget
            range=[lo - 0.08 * max(hi - lo, 0.3), hi + 0.18 * max(hi - lo, 0.3) + 0.05],
        )


def _chart_alt(
    *, paper: float | None, baseline: pd.DataFrame, here: dict | None, at: np.ndarray, title: str
) -> str:
    """The chart's numbers as one sentence, for readers who cannot see it."""
    parts = []
    if paper:
        parts.append(_("paper {n}").format(n=f"{paper:,.0f}"))
    for _i, r in baseline.iterrows():
        parts.append(
            _("reproduction command median {median} ({solved}/{trials} solved)").format(
                median=_fmt(r["median"]), solved=r.solved, trials=r.trials
            )
        )
    if here is not None:
        med = np.median(at) if at.size else None
        parts.append(
            _("this page median {median} ({solved}/{trials} solved)").format(
                median=_fmt(med), solved=here["solved"], trials=here["trials"]
            )
        )
    return _("Dot chart: {title}. {numbers}.").format(
        title=title, numbers="; ".join(parts) if parts else _("no numbers yet")
    )


def command_labels(baseline: pd.DataFrame) -> list[str]:
    """One y-axis label per reproduction-command row: "command 1/10" (* = reduced); rows that would
    share a label (the same solved count) add what tells them apart — their task settings, else
    their budget, else their place — so no two rows are drawn on one line."""
    base = [
        _("command {solved}/{trials}").format(solved=r.solved, trials=r.trials) + ("*" if r.reduced else "")
        for _i, r in baseline.iterrows()
    ]
    settings = [
        _settings(s) if isinstance(s, dict) and s else ""
        for s in baseline.get("settings", [None] * len(base))
    ]
    budgets = [
        _("budget {n}").format(n=f"{b:,.0f}") if isinstance(b, (int, float)) and b == b else ""
        for b in baseline.get("budget", [None] * len(base))
    ]
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
            out.append(_("{label} · row {n}").format(label=label, n=same.index(i) + 1))
    return out


def comparison_table(*, preset: Any, baseline: pd.DataFrame, here: dict | None) -> pd.DataFrame:
    """Paper vs reproduction command vs this page, one row each (numbers only; see ``comparison_notes``)."""
    rows = [
        {
            "source": _("paper"),
            "trials solved": "—",
            "median sequences (range)": _fmt(preset.paper_sequences),
            "budget / network": "—",
            "wall time": "—",
        }
    ]
    for _i, r in baseline.iterrows():
        rows.append(
            {
                "source": _("reproduction command (REDUCED)") if r.reduced else _("reproduction command"),
                "trials solved": f"{r.solved}/{r.trials}",
                "median sequences (range)": (
                    f"{_fmt(r['median'])} ({_fmt(r.low)}–{_fmt(r.high)})" if r.solved else "—"
                ),
                "budget / network": _fmt(r.budget),
                "wall time": f"{_fmt(r.wall)} s",
            }
        )
    if here is not None:
        at = np.array([v for v in here["solved_at"] if v is not None], dtype=float)
        rng = f" ({at.min():,.0f}–{at.max():,.0f})" if at.size else ""
        rows.append(
            {
                "source": _("this page (REDUCED)") if here["reduced"] else _("this page"),
                "trials solved": f"{here['solved']}/{here['trials']}",
                "median sequences (range)": (_fmt(np.median(at)) + rng) if at.size else "—",
                "budget / network": _fmt(here["budget"]),
                "wall time": f"{here['wall']:.0f} s",
            }
        )
    return pd.DataFrame(rows).rename(columns=_header)


# the tables' column headers (the frames keep English keys; the headers are translated when built)
HEADERS = (
    N_("source"),
    N_("trials solved"),
    N_("median sequences (range)"),
    N_("budget / network"),
    N_("wall time"),
    N_("experiment"),
    N_("paper"),
    N_("paper: sequences"),
    N_("reproduction command"),
)


def _header(name: str) -> str:
    return _(name)


def comparison_notes(*, preset: Any, baseline: pd.DataFrame, here: dict | None) -> str:
    """What each row of ``comparison_table`` is, as markdown bullets."""
    out = [_("- **paper:** {reported}").format(reported=_(preset.reported))]
    for _i, r in baseline.iterrows():
        machine = r.get("machine")
        notes = notes_line(r.notes)
        if isinstance(machine, str) and machine:
            notes = (_("{notes} (ran on {machine})") if notes else _("(ran on {machine})")).format(
                notes=notes, machine=machine
            )
        out.append(
            (
                _("- **reproduction command:** `{command}` — {notes}")
                if notes
                else _("- **reproduction command:** `{command}`")
            ).format(command=r.command, notes=notes)
        )
    if here is not None:
        out.append(_("- **this page:** {label}").format(label=here['label']))
    return "\n".join(out)


def gallery_table(presets: dict, results: pd.DataFrame) -> pd.DataFrame:
    """Every experiment: paper, reported, and the reproduction command's result if there is one."""
    rows = []
    for name, p in presets.items():
        r = results[results.name == name]
        ours = "; ".join(
            (
                _("{solved}/{trials} solved, median {median} (reduced)")
                if x.reduced
                else _("{solved}/{trials} solved, median {median}")
            ).format(solved=x.solved, trials=x.trials, median=_fmt(x['median']))
            + (f" [{_settings(x.settings)}]" if x.settings else "")
            for _i, x in r.iterrows()
        ) or _("not run yet")
        rows.append(
            {
                "experiment": _(p.title),
                "paper": _(p.paper),
                "paper: sequences": _fmt(p.paper_sequences),
                "reproduction command": ours,
            }
        )
    return pd.DataFrame(rows).rename(columns=_header)


def _settings(s: Any) -> str:
    return ", ".join(f"{k}={v}" for k, v in s.items()) if isinstance(s, dict) else str(s)
