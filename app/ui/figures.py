"""Figure builders: arrays in, ``(go.Figure, alt text)`` out. No model math here.

Conventions for every chart:
- colours from the Okabe–Ito palette (distinguishable with the common colour-vision
  deficiencies); line styles (dash) carry meaning too, so nothing depends on colour alone;
- ``large=True`` scales every font for a projector;
- ``layout.uirevision`` is a constant per chart, so a live update (the cursor moving, a slider
  changing the data) keeps the user's zoom and hidden traces;
- the alt text describes what is plotted and does not depend on the cursor (Streamlit
  remounts a chart whose alt text changes, which would flicker while playing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from app.i18n import N_, _
from lstm_core.variants import variant as variant_record

# Okabe & Ito (2008); yellow last because it is faint on white.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"]
CURSOR_COLOUR = "#444444"
SYMBOLS = ["circle", "square", "diamond", "triangle-up", "cross", "x", "star", "hexagon"]
GRID = "#E5E5E5"
Chart = tuple[go.Figure, str]
# Figures are assembled as plain dicts and turned into a go.Figure once: Plotly's incremental
# update_* calls and named templates deep-copy on every call (≈ 50–150 ms per chart measured),
# which would blow the 500 ms slider budget. Property validation is skipped for the same reason
# (``_validate`` is Plotly's own switch, ≈ 15 ms per chart); tests/test_app_pages.py rebuilds every
# builder's figure with validation on, so a misspelt property still fails a test.


def make_figure(spec: dict) -> go.Figure:
    return go.Figure(spec, _validate=False)


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def font_size(large: bool) -> int:
    return 20 if large else 13


def layout(
    *,
    title: str,
    x: str,
    y: str,
    large: bool,
    uirevision: str,
    height: int = 300,
    legend: bool = True,
    cursor: float | None = None,
    cursor_colour: str = CURSOR_COLOUR,
) -> dict[str, Any]:
    """Shared layout: white background, readable fonts, small margins, legend above, kept zoom."""
    f = font_size(large)
    # Fixed margins instead of axis ``automargin``: automargin makes Plotly lay every chart out
    # twice, which measured about 2x slower redraws in the browser.
    axis = lambda text: dict(
        title=dict(text=text, font=dict(size=f), standoff=8),  # noqa: E731
        tickfont=dict(size=f - 1),
        gridcolor=GRID,
        zerolinecolor="#BBBBBB",
        automargin=False,
        showline=False,
    )
    shapes = (
        []
        if cursor is None
        else [
            dict(
                type="line",
                x0=cursor,
                x1=cursor,
                xref="x",
                y0=0,
                y1=1,
                yref="paper",
                line=dict(color=cursor_colour, width=2, dash="dot"),
            )
        ]
    )
    return dict(
        template="none",
        paper_bgcolor="white",
        plot_bgcolor="white",
        height=height + (60 if large else 0),
        uirevision=uirevision,
        # Title at the very top, legend in its own row just above the plot: they never overlap.
        title=dict(
            text=title, font=dict(size=f + 3), x=0, xanchor="left", y=0.99, yanchor="top", yref="container"
        ),
        font=dict(size=f, color="#222222"),
        margin=dict(
            l=80 if large else 62,
            r=12,
            t=(72 if legend else 48) + (24 if large else 0),
            b=62 if large else 48,
        ),
        showlegend=legend,
        legend=dict(orientation="h", yanchor="bottom", y=1.01, xanchor="left", x=0, font=dict(size=f - 1)),
        hovermode="x unified",
        xaxis=axis(x),
        yaxis=axis(y),
        shapes=shapes,
    )


@dataclass(frozen=True)
class Series:
    name: str
    y: np.ndarray
    dash: str = "solid"
    colour_index: int | None = None
    mode: str = "lines"  # lines | markers | lines+markers


def lines(
    t: np.ndarray,
    series: list[Series],
    *,
    title: str,
    y: str,
    cursor: float | None,
    large: bool,
    uirevision: str,
    x: str = N_("timestep t"),
    height: int = 300,
    y_range: tuple[float, float] | None = None,
) -> Chart:
    data = []
    for i, s in enumerate(series):
        c = colour(s.colour_index if s.colour_index is not None else i)
        data.append(
            dict(
                type="scatter",
                x=t,
                y=s.y,
                name=s.name,
                mode=s.mode,
                line=dict(color=c, dash=s.dash, width=2.5 if large else 2),
                marker=dict(size=10 if large else 8, symbol="x", color=c),
            )
        )
    lay = layout(
        title=title,
        x=_(x),
        y=y,
        large=large,
        uirevision=uirevision,
        height=height,
        legend=len(series) > 1,
        cursor=cursor,
    )
    if y_range is not None:
        lay["yaxis"]["range"] = list(y_range)
    names = ", ".join(s.name for s in series[:8]) + (" …" if len(series) > 8 else "")
    alt = _("Line chart: {title}. {n} line(s) ({names}) over {T} timesteps.").format(
        title=title, n=len(series), names=names, T=len(t)
    )
    return make_figure(dict(data=data, layout=lay)), alt


def heatmap(
    t: np.ndarray,
    z: np.ndarray,
    *,
    title: str,
    rows: list[str],
    cursor: float | None,
    large: bool,
    uirevision: str,
    marks: tuple[np.ndarray, np.ndarray] | None = None,
    mark_name: str = N_("target"),
    zmid: float | None = None,
    height: int = 300,
) -> Chart:
    """z (T, n) as rows over time; ``marks`` = (t values, row indices) drawn as crosses."""
    data = [
        dict(
            type="heatmap",
            x=t,
            y=rows,
            z=z.T,
            colorscale="Cividis",
            zmid=zmid,
            colorbar=dict(thickness=12, tickfont=dict(size=font_size(large) - 2)),
            hovertemplate="t=%{x}<br>%{y}: %{z:.3g}<extra></extra>",
        )
    ]  # i18n: kept (Plotly's hover tags)
    if marks is not None and len(marks[0]):
        data.append(
            dict(
                type="scatter",
                x=marks[0],
                y=[rows[i] for i in marks[1]],
                mode="markers",
                name=_(mark_name),
                marker=dict(symbol="x-thin", size=12 if large else 9, line=dict(width=2, color="#D55E00")),
            )
        )
    # Pink cursor: visible on both ends of the Cividis scale (dark blue and yellow).
    lay = layout(
        title=title,
        x=_("timestep t"),
        y="",
        large=large,
        uirevision=uirevision,
        height=height,
        legend=marks is not None,
        cursor=cursor,
        cursor_colour="#CC79A7",
    )
    alt = _("Heat map: {title}. {n} rows ({rows}) over {T} timesteps, values {lo} to {hi}.").format(
        title=title,
        n=z.shape[1],
        rows=", ".join(rows[:6]) + (" …" if len(rows) > 6 else ""),
        T=len(t),
        lo=f"{np.nanmin(z):.3g}",
        hi=f"{np.nanmax(z):.3g}",
    )
    return make_figure(dict(data=data, layout=lay)), alt


@dataclass(frozen=True)
class FlowCurve:
    """One measured error-flow curve, its theory line and an optional reference bound."""

    name: str
    back: np.ndarray  # steps back in time, q = at − t
    measured: np.ndarray  # ‖δ(t)‖ / ‖δ(at)‖
    theory: np.ndarray | None = None
    bound: np.ndarray | None = None
    bound_name: str = N_("bound")


def _positive(a: np.ndarray) -> np.ndarray:
    """Log axes cannot show 0 or underflow: those points become gaps, not fake values."""
    a = np.asarray(a, dtype=float).copy()
    a[~(a > 1e-300)] = np.nan
    return a


def flow_chart(
    curves: list[FlowCurve], *, title: str, large: bool, uirevision: str, height: int = 380
) -> Chart:
    """Log-scale relative error-flow norm against the distance back in time."""
    w, data = (3 if large else 2.2), []
    for i, c in enumerate(curves):
        col = colour(i)
        # A few markers of a distinct shape per network: lines that coincide (e.g. LSTMs whose forget
        # gates are ≈ 1) stay tellable apart, and not by colour alone.
        data.append(
            dict(
                type="scatter",
                x=c.back,
                y=_positive(c.measured),
                name=_(c.name),
                legendgroup=c.name,
                mode="lines+markers",
                line=dict(color=col, width=w),
                marker=dict(
                    symbol=SYMBOLS[i % len(SYMBOLS)], size=9 if large else 7, color=col, maxdisplayed=12
                ),
            )
        )
        # Theory and bound lines share the network's legend entry; their dash is explained once.
        for extra, dash, label in ((c.theory, "dash", N_("theory")), (c.bound, "dot", c.bound_name)):
            if extra is None:
                continue
            # A loose upper bound (no exact theory line) is hidden until asked for, with its own
            # legend entry, so it is never read as a prediction beside exact lines.
            loose = dash == "dot" and c.theory is None and label.startswith(("upper bound", _("upper bound")))
            data.append(
                dict(
                    type="scatter",
                    x=c.back,
                    y=_positive(extra),
                    name=_("{curve} ({line})").format(curve=_(c.name), line=_(label)),
                    legendgroup=f"{c.name}-bound" if loose else c.name,
                    showlegend=loose,
                    visible="legendonly" if loose else True,
                    mode="lines",
                    line=dict(color=col, width=w if dash == "dash" else w - 0.8, dash=dash),
                )
            )
    for dash, label in (("dash", N_("theory")), ("dot", N_("bound"))):
        if any((c.theory if dash == "dash" else c.bound) is not None for c in curves):
            data.append(
                dict(
                    type="scatter",
                    x=[None],
                    y=[None],
                    mode="lines",
                    name=_(label),
                    line=dict(color="#777777", width=w, dash=dash),
                )
            )
    lay = layout(
        title=title,
        x=_("steps back in time q"),
        y=_("relative error ‖δ(T−q)‖ / ‖δ(T)‖"),
        large=large,
        uirevision=uirevision,
        height=height,
    )
    # Whole decades only (Plotly's automatic minor labels 2, 3, 4 … crowd short ranges), and at
    # most ~7 labels however many decades the curves span.
    finite = np.concatenate([_positive(c.measured) for c in curves]) if curves else np.array([1.0])
    finite = finite[np.isfinite(finite)]
    span = np.log10(finite.max() / finite.min()) if finite.size else 1.0
    lay["yaxis"].update(type="log", exponentformat="power", dtick=max(1, int(np.ceil(span / 7))))
    lay.update(
        hovermode="closest",
        legend=dict(
            orientation="v", yanchor="top", y=1, x=1.02, xanchor="left", font=dict(size=font_size(large) - 1)
        ),
    )
    lay["margin"].update(
        t=48 + (24 if large else 0),  # the legend sits at the side here
        l=110 if large else 84,
    )  # room for 10⁻¹⁵ tick labels + title
    ends = _("; ").join(
        _("{curve} keeps {kept} of the error after {q} steps").format(
            curve=_(c.name), kept=f"{_last(c.measured):.2g}", q=int(c.back[-1])
        )
        for c in curves
    )
    alt = _("Log-scale line chart: {title}. {ends}.").format(title=title, ends=ends)
    return make_figure(dict(data=data, layout=lay)), alt


def _last(a: np.ndarray) -> float:
    finite = np.asarray(a)[np.isfinite(a)]
    return float(finite[-1]) if finite.size else float("nan")


# ----------------------------------------------------------------------------- Step page panels
MANY = 6  # more channels than this are drawn as a heat map


def channels(
    t: np.ndarray,
    a: np.ndarray,
    *,
    title: str,
    prefix: str,
    cursor: float | None,
    large: bool,
    uirevision: str,
    y: str = "",
    names: Sequence[str] | None = None,
) -> Chart:
    """(T, n) values as lines (few channels) or a heat map (many); ``names`` label the channels
    (a task's symbols), else prefix1, prefix2, …"""
    names = (
        [f"{prefix}{i + 1}" for i in range(a.shape[1])] if names is None else [f"{prefix} {n}" for n in names]
    )
    if a.shape[1] > MANY:
        return heatmap(t, a, title=title, rows=names, cursor=cursor, large=large, uirevision=uirevision)
    return lines(
        t,
        [Series(n, a[:, i]) for i, n in enumerate(names)],
        title=title,
        y=y or prefix,
        cursor=cursor,
        large=large,
        uirevision=uirevision,
    )


def step_panels(
    variant: str, block_size: int, data: dict, unit: int, unit_label: str, cursor: int, large: bool
) -> list[Chart]:
    """Input, gate activations, cell states and outputs-vs-targets of one recorded run."""
    ins, xs = data["internals"], data["xs"][:, 0, :]
    t = np.arange(1, xs.shape[0] + 1)
    kw = dict(cursor=cursor, large=large)
    symbols = data.get("symbols")
    out = [
        channels(
            t,
            xs,
            title=_("Input x(t) — one unit per symbol") if symbols else _("Input x(t)"),
            prefix="x",
            uirevision="step-input",
            names=symbols,
            **kw,
        )
    ]
    v = variant_record(variant)
    if v.gates:
        per_block = v.bias_unit == "block"  # gates are shared by the cells of a block
        idx = unit // block_size if per_block else unit
        who = _("block {n}").format(n=idx + 1) if per_block else unit_label
        series = [Series(_(label), ins[name][:, 0, idx]) for name, label in v.gates if name in ins]
        out.append(
            lines(
                t,
                series,
                title=_("Gate activations — {who}").format(who=who),
                y=_("openness"),
                y_range=(-0.03, 1.03),
                uirevision="step-gates",
                **kw,
            )
        )
    else:
        out.append(
            channels(
                t,
                ins["net"][:, 0, :],
                title=_("Net inputs (this cell has no gates)"),
                prefix="net",
                uirevision="step-gates",
                **kw,
            )
        )
    name, title = v.state
    out.append(channels(t, ins[name][:, 0, :], title=_(title), prefix=name, uirevision="step-states", **kw))
    y = data["outputs"][:, 0, :]
    tg, mask = data.get("targets"), data.get("mask")
    if y.shape[1] > MANY:
        marks = None
        if tg is not None:
            tt, jj = np.nonzero((tg[:, 0, :] > 0.5) & (mask[:, 0, None] > 0))
            marks = (t[tt], jj)
        out.append(
            heatmap(
                t,
                y,
                title=_("Outputs y(t) (× = target 1)"),
                rows=[f"y {s}" for s in symbols] if symbols else [f"y{i + 1}" for i in range(y.shape[1])],
                marks=marks,
                uirevision="step-outputs",
                **kw,
            )
        )
    else:
        out_names = list(symbols) if symbols else [str(i + 1) for i in range(y.shape[1])]
        series = [
            Series(f"y{n}" if not symbols else f"y {n}", y[:, i], colour_index=i)
            for i, n in enumerate(out_names)
        ]
        if tg is not None:
            on = mask[:, 0] > 0
            series += [
                Series(
                    _("target {n}").format(n=n),
                    np.where(on, tg[:, 0, i], np.nan),
                    colour_index=i,
                    mode="markers",
                )
                for i, n in enumerate(out_names)
            ]
        title = (
            _("Outputs y(t) and targets (×)")
            if tg is not None
            else _("Outputs y(t) (typed input: no targets)")
        )
        out.append(lines(t, series, title=title, y="y", uirevision="step-outputs", **kw))
    return out


# ----------------------------------------------------------------------------- Gradient-flow page
def relative_flow(
    name: str,
    norms: np.ndarray,
    theory: np.ndarray | None = None,
    bound: np.ndarray | None = None,
    bound_name: str = "bound",
) -> FlowCurve:
    """Norms over t (loss at the last step) -> a curve over q = steps back, relative to q = 0."""
    n = np.asarray(norms, dtype=float)[::-1]
    scale = 1.0 / n[0] if n[0] > 0 else np.nan
    th = None if theory is None else np.asarray(theory, dtype=float)[::-1] * scale
    return FlowCurve(name, np.arange(len(n)), n * scale, th, bound, bound_name)


def per_step(c: FlowCurve) -> float:
    """Geometric-mean factor by which one step back scales the error (from the measured curve)."""
    q, kept = int(c.back[-1]), _last(c.measured)
    return kept ** (1.0 / q) if q > 0 and kept > 0 else float("nan")


def kept_at(c: FlowCurve, q: int) -> float:
    """The measured relative error ``q`` steps back (NaN beyond the curve)."""
    return float(c.measured[q]) if 0 <= q < len(c.measured) else float("nan")


def flow_explanation(curves: list[FlowCurve], v: dict, forget_names: tuple[str, ...] = ()) -> str:
    """Markdown next to the main chart: the measured numbers and why they come out that way.

    Every number is read from the drawn curves or computed from the settings (σ of the actual
    forget bias), so the text stays true whatever the sliders say.
    """
    q = min(50, v["T"] - 1)
    rows = "\n".join(
        f"| {c.name} | {kept_at(c, q):.2g} | {_last(c.measured):.2g} | {per_step(c):.3f} |" for c in curves
    )
    table = (
        _("| network | kept {q} steps back | after {last} | per step |").format(q=q, last=v["T"] - 1)
        + f"\n|---|---|---|---|\n{rows}\n\n"
        if curves
        else ""
    )
    by = {c.name: c for c in curves}
    lead = ""
    if "rnn" in by and "lstm1997" in by and kept_at(by["rnn"], q) > 0:
        ratio = kept_at(by["lstm1997"], q) / kept_at(by["rnn"], q)
        lead = (
            _(
                "**{q} steps back the 1997 cell keeps {ratio} times more error than the RNN** "
                "({lstm} against {rnn})."
            ).format(
                q=q,
                ratio=f"{ratio:.2g}",
                lstm=f"{kept_at(by['lstm1997'], q):.2g}",
                rnn=f"{kept_at(by['rnn'], q):.2g}",
            )
            + "\n\n"
        )
    fmax = 1.0 if v["activation"] == "tanh" else 0.25
    gain = v["rnn_scale"] * fmax
    rnn = _(
        "**Why the RNN forgets.** One step back multiplies the error by Jᵀ = Uᵀ·diag f′(net). "
        "Here ‖U‖ = {scale} and max f′ = {fmax}, so each step shrinks it by at least ‖U‖·max f′ = {gain}"
    ).format(
        scale=f"{v['rnn_scale']:.2f}",
        fmax="1 (tanh)" if fmax == 1 else _("¼ (logistic sigmoid)"),
        gain=f"{gain:.2f}",
    )
    rnn += (
        _(
            ": after {q} steps at most {left} is left (the dotted upper bound Π‖J‖, hidden until you "
            "click its legend entry, is tighter still). "
        ).format(q=q, left=f"{gain**q:.2g}")
        if gain < 1
        else _(
            " — not below 1, so the shrinking is no longer guaranteed (and above 1 the error can explode). "
        )
    )
    fb = float(v["forget_bias"])
    y_fg = 1.0 / (1.0 + np.exp(-fb))
    shown = [c for c in curves if c.name in forget_names]
    measured = (
        _(" Measured per step: {values}.").format(
            values=", ".join(f"{c.name} {per_step(c):.2f}" for c in shown)
        )
        if shown
        else _(" Add the forget-gate LSTMs (the button under the chart) to see it.")
    )
    forget = _(
        "**What a forget gate does.** With a forget gate the carousel is s(t) = y_φ·s(t−1) + y_in·g, so each "
        "step back multiplies the error by y_φ ≈ σ({bias}) = {y}: after {q} steps "
        "{y}^{q} ≈ {left} is left.{measured} The gate lets a cell *reset* its memory; "
        "a forget bias of 5 (σ = 0.99) keeps the carousel almost as flat as in 1997."
    ).format(bias=f"{fb:g}", y=f"{y_fg:.2f}", q=q, left=f"{y_fg**q:.2g}", measured=measured)
    return (
        table
        + lead
        + rnn
        + "\n\n"
        + (
            _(
                "**Why the CEC is flat.** In lstm1997 the cell state is s(t) = s(t−1) + y_in·g: "
                "∂s(t)/∂s(t−1) = 1, so error travelling along s is copied unchanged (dashed theory line = 1)."
            )
            + "\n\n"
            + forget
            + "\n\n"
            + _(
                "**Full BPTT vs the 1997 truncation.** The truncation keeps only the path along s, so the "
                "measured curve equals the theory line exactly; full BPTT adds the (small) paths through "
                "the gates and recurrent connections — shut input gates make them smaller still."
            )
        )
    )


# English, marked for the catalogue: the page draws it with _(LOCAL_FEEDBACK_TEXT).
LOCAL_FEEDBACK_TEXT = N_(
    "A **net-input feedback** unit keeps â(t) = u·â(t−1) + w·x(t) + b: one step back multiplies its "
    "error by exactly u, so the curve follows |u|^q. An **activation feedback** unit computes "
    "h(t) = f(v·h(t−1) + w·x(t) + b) with f(a) = tanh(a/2), whose slope is at most M = ½: each "
    "step back multiplies the error by v·f′(ā) ≤ |v|/2 (dotted bound).\n\n"
    "Frasconi, Gori & Soda (1992): with |u| < 1 and |v| < 1/M = 2 the network **forgets** — the "
    "influence of x(t−q) vanishes like these bounds. **Latching** a bit for ever needs |v| > 2, "
    "which gives up this guarantee."
)


# ----------------------------------------------------------------------------- drawing
def pair(large: bool) -> tuple[Any, Any]:
    """Two places for two charts: side by side, or on a projector (large fonts) one above the other
    at full width, so chart titles and button labels are not cut off (seen at 1280 × 720)."""
    import streamlit as st  # here, so the builders above stay importable without Streamlit

    if large:
        return st.container(), st.container()
    c1, c2 = st.columns(2)
    return c1, c2


def show(
    fig: go.Figure,
    alt: str,
    key: str,
    where: Any = None,
    config: dict | None = None,
    caption: bool = True,
    preview: dict | None = None,
) -> None:
    """Draw a figure that updates in place (``app.ui.live``; ``preview``: ``app.ui.previews.chart_data``),
    with its alt text as a caption."""
    import streamlit as st  # here, so the builders above stay importable without Streamlit

    from app.ui import live

    where = where or st
    live.chart(where, fig, key, alt, config=config, preview=preview)
    if caption:
        where.caption(alt)
