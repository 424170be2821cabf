"""The Bias atlas's charts, from the atlas's results and the core's measurements: arrays in,
``(go.Figure, alt text)`` out (the conventions of ``app.ui.figures``: Okabe–Ito colours, a marker
symbol per scheme so colour is never the only cue, a constant ``uirevision`` per chart).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from app.i18n import _
from app.ui.figures import SYMBOLS, Chart, colour, font_size, layout, make_figure
from lstm_core.init_schemes import SCHEMES


def scheme_label(name: str) -> str:
    return _(SCHEMES[name].title)


def _style(i: int, large: bool, dash: bool = True) -> dict:
    c = colour(i)
    return dict(
        line=dict(
            color=c,
            width=2.5 if large else 2,
            dash=("solid", "dash", "dot", "dashdot")[i % 4] if dash else "solid",
        ),
        marker=dict(color=c, size=10 if large else 8, symbol=SYMBOLS[i % len(SYMBOLS)]),
    )


def _vline(x: float, text: str, f: int, log: bool = False) -> tuple[dict, dict]:
    """A dotted vertical line at ``x`` with its label. On a log axis Plotly (7) takes a shape's x as data but an
    annotation's in log10 units (seen in the browser: a label "at 100" sat at 10^100)."""
    shape = dict(
        type="line", xref="x", yref="paper", x0=x, x1=x, y0=0, y1=1, line=dict(color="#444444", dash="dot")
    )
    note = dict(
        x=float(np.log10(x)) if log else x, y=1, xref="x", yref="paper", text=text, showarrow=False, xanchor="left",
        yanchor="top", font=dict(size=f - 1),
    )  # fmt: skip
    return shape, note


def _hline(y: float) -> dict:
    """A dotted horizontal line at ``y`` across the plot (a log axis takes a shape's y as data)."""
    return dict(
        type="line", xref="paper", yref="y", x0=0, x1=1, y0=y, y1=y, line=dict(color="#444444", dash="dot")
    )


def solved_against_lag(cells: pd.DataFrame, schemes: list[str], lag: int, large: bool) -> Chart:
    """Solved share (of the seeds) against the lag, one line per scheme."""
    data = []
    for i, s in enumerate(schemes):
        c = cells[cells.scheme == s].sort_values("lag")
        data.append(
            dict(
                type="scatter",
                x=c.lag.tolist(),
                y=c.solved_share.tolist(),
                name=scheme_label(s),
                mode="lines+markers",
                customdata=np.stack([c.solved, c.networks], -1).tolist(),
                hovertemplate="%{y:.0%} (%{customdata[0]}/%{customdata[1]})",  # i18n: kept (Plotly's markup, no words)
                **_style(i, large),
            )
        )
    f = font_size(large)
    lay = layout(
        title=_("Solved share against the time lag"),
        x=_("time lag T (steps)"),
        y=_("solved share"),
        large=large,
        uirevision="atlas-solved",
        height=470,
    )
    lay["xaxis"].update(type="log", tickvals=sorted(cells.lag.unique().tolist()))
    lay["yaxis"].update(range=[-0.05, 1.05], tickformat=".0%")
    shape, note = _vline(lag, _("your lag"), f, log=True)
    lay.update(shapes=[shape], annotations=[note], hovermode="closest")
    at = cells[cells.lag == lag].sort_values("solved_share", ascending=False)
    best = at.iloc[0] if len(at) else None
    alt = _(
        "Line chart: the share of seeds each of {n} schemes solved, against the time lag ({lags})."
    ).format(n=len(schemes), lags=", ".join(str(x) for x in sorted(cells.lag.unique())))
    if best is not None:
        alt += " " + _("At lag {lag} the most solved: {scheme}, {solved} of {networks}.").format(
            lag=lag, scheme=scheme_label(best.scheme), solved=int(best.solved), networks=int(best.networks)
        )
    return make_figure(dict(data=data, layout=lay)), alt


def ratio_curves(
    at: list[int], members: pd.DataFrame, schemes: list[str], margin: float, lag: int, large: bool
) -> Chart:
    """Each scheme's median (over seeds) evaluation loss / memoryless baseline during training."""
    data = []
    for i, s in enumerate(schemes):
        rows = members[members.scheme == s]
        curves = np.array([[np.nan if v is None else v for v in c] for c in rows.curve], dtype=float)
        med = np.nanmedian(curves, axis=0) if len(curves) else np.array([])
        data.append(
            dict(
                type="scatter",
                x=at[: len(med)],
                y=med.tolist(),
                name=scheme_label(s),
                mode="lines+markers",
                **_style(i, large),
            )
        )
    f = font_size(large)
    lay = layout(
        title=_("Loss / baseline while training (lag {lag})").format(lag=lag),
        x=_("training sequences"),
        y=_("loss / baseline (median of seeds)"),
        large=large,
        uirevision="atlas-ratio",
        height=470,
    )
    lay["yaxis"].update(type="log")
    lay["shapes"] = [
        dict(type="line", xref="paper", yref="y", x0=0, x1=1, y0=v, y1=v, line=dict(color="#444444", dash=d))
        for v, d in ((1.0, "dash"), (margin, "dot"))
    ]
    lay["annotations"] = [
        dict(x=1, y=np.log10(v), xref="paper", yref="y", text=t, showarrow=False, xanchor="right", yanchor="bottom",
             font=dict(size=f - 1))
        for v, t in ((1.0, _("memoryless baseline")), (margin, _("solved below this line")))
    ]  # fmt: skip
    lay["hovermode"] = "x unified"
    alt = _(
        "Line chart: for each of {n} schemes, the median over seeds of the evaluation loss divided by the memoryless "
        "baseline, after each {every:,} training sequences; a network is solved once it falls below {margin:g}."
    ).format(n=len(schemes), every=at[0] if at else 0, margin=margin)
    return make_figure(dict(data=data, layout=lay)), alt


def memory_times(befores: list, lag: int, gate: str, large: bool) -> Chart:
    """Each unit's keep-gate memory time at initialisation, one row of points per scheme, the lag marked."""
    data = []
    names = [scheme_label(b.scheme) for b in befores]
    for i, b in enumerate(befores):
        t = np.asarray(b.memory_times, dtype=float)
        data.append(
            dict(
                type="scatter",
                x=t.tolist(),
                y=[names[i]] * len(t),
                name=names[i],
                mode="markers",
                showlegend=False,
                hovertemplate="%{x:.3g}<extra>%{y}</extra>",  # i18n: kept (Plotly's markup, no words)
                marker=dict(
                    color=colour(i), symbol=SYMBOLS[i % len(SYMBOLS)], size=9 if large else 7, opacity=0.75
                ),
            )
        )
    f = font_size(large)
    lay = layout(
        title=_("Memory times at initialisation ({gate})").format(gate=gate),
        x=_("memory time in steps (log scale)"),
        y="",
        large=large,
        uirevision="atlas-memory",
        height=90 + 34 * len(befores) + (40 if large else 0),
        legend=False,
    )
    lay["xaxis"].update(type="log")
    lay["yaxis"].update(autorange="reversed", type="category")
    lay["margin"]["l"] = 330 if large else 280
    shape, note = _vline(lag, _("lag {lag}").format(lag=lag), f, log=True)
    lay.update(shapes=[shape], annotations=[note], hovermode="closest")
    longest = max(befores, key=lambda b: float(np.median(b.memory_times)) if len(b.memory_times) else 0.0)
    alt = _(
        "Strip chart: each unit's memory time (steps) under {n} schemes, against the lag {lag}; the longest median "
        "memory: {scheme}, {median:.3g} steps."
    ).format(
        n=len(befores),
        lag=lag,
        scheme=scheme_label(longest.scheme),
        median=float(np.median(longest.memory_times)),
    )
    return make_figure(dict(data=data, layout=lay)), alt


def error_flow(befores: list, lag: int, large: bool) -> Chart:
    """The share of a last-step error that reaches each earlier step, at initialisation, per scheme."""
    data = []
    for i, b in enumerate(befores):
        flow = np.where(np.asarray(b.flow) > 0, b.flow, np.nan)
        data.append(
            dict(type="scatter", x=list(range(len(flow))), y=flow.tolist(), name=scheme_label(b.scheme), mode="lines",
                 **_style(i, large))
        )  # fmt: skip
    f = font_size(large)
    lay = layout(
        title=_("Error flow at initialisation"),
        x=_("steps back"),
        y=_("share of the error (log scale)"),
        large=large,
        uirevision="atlas-flow",
        height=470,
    )
    lay["yaxis"].update(type="log", exponentformat="power")
    shape, note = _vline(lag, _("lag {lag}").format(lag=lag), f)
    lay.update(shapes=[shape], annotations=[note])
    best = max(befores, key=lambda b: b.reach)
    alt = _(
        "Line chart, log scale: the share of an error at the last step that reaches each earlier step, for {n} schemes "
        "at initialisation. At the lag {lag}: {scheme} keeps {reach}."
    ).format(n=len(befores), lag=lag, scheme=scheme_label(best.scheme), reach=f"{best.reach:.2g}")
    return make_figure(dict(data=data, layout=lay)), alt


def live_cell(
    at: list[int], atlas: list, live_at: list[int], live: list[float], margin: float, large: bool
) -> Chart:
    """One network trained here, live, on top of the atlas's own record of the same network."""
    series = [
        dict(type="scatter", x=at[: len(atlas)], y=atlas, name=_("the atlas's run"), mode="lines+markers",
             **_style(6, large, dash=False)),
        dict(type="scatter", x=live_at, y=live, name=_("trained here, now"), mode="lines+markers", **_style(0, large)),
    ]  # fmt: skip
    lay = layout(
        title=_("This network, trained live against the atlas's record"),
        x=_("training sequences"),
        y=_("loss / memoryless baseline"),
        large=large,
        uirevision="atlas-live",
        height=340,
    )
    lay["yaxis"].update(type="log")
    lay["shapes"] = [_hline(margin)]
    alt = _(
        "Line chart: the loss of one network against the memoryless baseline, as the atlas recorded it and as trained here ({n} points so far)."
    ).format(n=len(live))
    return make_figure(dict(data=series, layout=lay)), alt


def uploaded(times: np.ndarray, lag: int, gate: str, large: bool) -> Chart:
    """An uploaded model's units, sorted by memory time, against the lag."""
    t = np.sort(np.asarray(times, dtype=float))
    f = font_size(large)
    data = [
        dict(type="bar", x=list(range(1, len(t) + 1)), y=t.tolist(), name=_("memory time"), marker=dict(color=colour(0)),
             hovertemplate="%{y:.3g}<extra></extra>")  # i18n: kept (Plotly's markup, no words)
    ]  # fmt: skip
    lay = layout(
        title=_("Your model: each unit's {gate} memory time").format(gate=gate),
        x=_("unit (sorted)"),
        y=_("memory time in steps (log scale)"),
        large=large,
        uirevision="atlas-upload",
        height=320,
        legend=False,
    )
    lay["yaxis"].update(type="log")
    lay["shapes"] = [_hline(lag)]
    lay["annotations"] = [
        dict(x=0, y=np.log10(lag), xref="paper", yref="y", text=_("lag {lag}").format(lag=lag), showarrow=False,
             xanchor="left", yanchor="bottom", font=dict(size=f - 1))
    ]  # fmt: skip
    alt = _(
        "Bar chart: the memory times of the model's {n} units, sorted, from {lo:.3g} to {hi:.3g} steps, against the lag {lag}."
    ).format(n=len(t), lo=float(t[0]) if len(t) else 0.0, hi=float(t[-1]) if len(t) else 0.0, lag=lag)
    return make_figure(dict(data=data, layout=lay)), alt
