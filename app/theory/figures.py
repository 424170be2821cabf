"""Figure builders for the Theory page: data in, ``go.Figure`` out (no Streamlit here).

Colours are the Okabe–Ito palette (distinguishable with the common colour-vision
deficiencies); every curve also differs by dash or marker so the figures survive grey-scale
projectors. ``large_font`` scales text and lines for a classroom projector. Each figure sets
``layout.uirevision`` so a rerun with new data keeps the user's zoom. Texts are in this session's
language (``app.i18n._``); nothing here is cached, so a figure is built in its reader's language.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.i18n import _
from app.theory.demo import CURVES, DemoResult
from app.ui.figures import variant_label

OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "grey": "#7F7F7F",
}
# one colour + dash per squashing function, shared by both panels of the activation figure
CURVE_STYLE = {
    "sigmoid": (OKABE_ITO["blue"], "solid"),
    "tanh": (OKABE_ITO["orange"], "dash"),
    "g1997": (OKABE_ITO["green"], "dot"),
    "h1997": (OKABE_ITO["purple"], "dashdot"),
}


def _style(fig: go.Figure, large_font: bool, height: int, uirevision: str) -> go.Figure:
    size = 20 if large_font else 13  # as app.ui.figures.font_size
    fig.update_layout(
        height=height + (80 if large_font else 0),
        uirevision=uirevision,
        template="plotly_white",
        font=dict(size=size),
        margin=dict(l=10, r=10, t=50, b=10),
        legend=dict(orientation="h", yanchor="top", y=-0.16, x=0, font=dict(size=size)),
        hoverlabel=dict(font_size=size),
    )
    for ann in fig.layout.annotations:  # subplot titles and labels: readable when projected
        ann.font.size = size + 1
    # explicit sizes: Streamlit's chart theme would otherwise keep its own small tick font
    fig.update_xaxes(tickfont=dict(size=size), title_font=dict(size=size))
    fig.update_yaxes(tickfont=dict(size=size), title_font=dict(size=size))
    return fig


def _mark_peak(fig: go.Figure, quarter: float, width: float, large_font: bool) -> None:
    """The right panel's σ' maximum: a dotted line, a diamond at x = 0 and a labelled arrow."""
    fig.add_hline(
        y=quarter, row=1, col=2, line=dict(color=OKABE_ITO["vermillion"], width=width * 0.8, dash="dot")
    )
    fig.add_trace(
        go.Scatter(
            x=[0.0],
            y=[quarter],
            mode="markers",
            showlegend=False,
            hoverinfo="skip",
            marker=dict(color=OKABE_ITO["vermillion"], size=14 if large_font else 10, symbol="diamond"),
        ),
        row=1,
        col=2,
    )
    fig.add_annotation(
        x=0.0,
        y=quarter,
        ax=3.2,
        ay=quarter + 0.42,
        axref="x2",
        ayref="y2",
        row=1,
        col=2,
        text=_("max σ' = {value} at x = 0").format(value=f"{quarter:g}"),
        showarrow=True,
        arrowhead=2,
        arrowwidth=1.5,
        arrowcolor=OKABE_ITO["vermillion"],
        font=dict(color=OKABE_ITO["vermillion"]),
        bgcolor="rgba(255,255,255,0.9)",
        bordercolor=OKABE_ITO["vermillion"],
        borderpad=3,
    )


def activation_figure(curves: pd.DataFrame, bounds: dict[str, float], large_font: bool = False) -> go.Figure:
    """Left: σ, tanh, g, h. Right: their derivatives, with each maximum (σ' ≤ ¼) marked.

    ``curves`` is ``theory_demo.activation_curves()``; ``bounds`` maps core name -> max f'.
    """
    width = 4 if large_font else 2.5
    fig = make_subplots(
        rows=1,
        cols=2,
        horizontal_spacing=0.08,
        subplot_titles=(_("squashing functions f(x)"), _("their slopes f'(x)")),
    )
    for name, label in CURVES.items():
        label = _(label)
        colour, dash = CURVE_STYLE[name]
        for col, kind in ((1, "f"), (2, "f'")):
            d = curves[(curves["name"] == name) & (curves["kind"] == kind)]
            fig.add_trace(
                go.Scatter(
                    x=d["x"],
                    y=d["value"],
                    mode="lines",
                    name=label,
                    legendgroup=name,
                    showlegend=col == 1,
                    line=dict(color=colour, dash=dash, width=width),
                    hovertemplate=f"{label}<br>x=%{{x:.2f}}<br>{kind}=%{{y:.4f}}<extra></extra>",  # i18n: kept (tags)
                ),
                row=1,
                col=col,
            )
    _mark_peak(fig, bounds["sigmoid"], width, large_font)
    fig.update_xaxes(title_text="x", zeroline=True)
    fig.update_yaxes(title_text="f(x)", row=1, col=1)
    fig.update_yaxes(title_text="f'(x)", row=1, col=2, range=[-0.03, max(bounds.values()) * 1.08])
    return _style(fig, large_font, 420, "theory-activations")


def _tag(name: str) -> str:
    """Plotly's side box of a hover label, naming the curve (short: the trace's legend name is long)."""
    return f"<extra>{name}</extra>"


def _positive(a: pd.Series) -> np.ndarray:
    """Values for a log axis: exact zeros (underflow, or w = 0) become gaps instead of -inf."""
    a = np.asarray(a, dtype=float)
    return np.where(a > 0, a, np.nan)


def flow_figure(result: DemoResult, large_font: bool = False) -> go.Figure:
    """Left: error reaching q steps back (log scale). Right: the factor each step multiplies by."""
    s = result.settings
    width = 4 if large_font else 2.5
    msize = 9 if large_font else 6
    fname = "σ" if s.f == "sigmoid" else "tanh"
    fig = make_subplots(
        rows=1,
        cols=2,
        column_widths=[0.6, 0.4],
        horizontal_spacing=0.09,
        subplot_titles=(
            _("error reaching q steps back, relative to q = 0"),
            _("factor applied at each step back"),
        ),
    )
    _flow_rnn_norms(fig, result, width, msize, fname)
    _flow_cec_norms(fig, result, width)
    _flow_factors(fig, result, width, msize, fname)
    _flow_axes(fig, result)
    _style(fig, large_font, 470, "theory-flow")
    # Fixed margins, no axis automargin: with it Plotly lays the chart out twice at every redraw, and a
    # slider's preview took ~94 ms to draw, ~47 ms without (headless Chromium, issue 48). The left
    # margin holds the log axis' title and its widest label (10⁻⁴² as drawn by automargin: 72 px at
    # the normal size, 98 px with large fonts), a superscript digit wider per digit beyond two. The
    # legend below still pushes the bottom margin (its rows depend on the chart's width).
    fig.update_xaxes(automargin=False)
    fig.update_yaxes(automargin=False)
    fig.update_layout(margin_l=_left_margin(fig, large_font))
    return fig


def _left_margin(fig: go.Figure, large_font: bool) -> int:
    """Room left of the log panel for its title and tick labels (see ``flow_figure``)."""
    lowest = [
        np.nanmin(y)
        for t in fig.data
        if t.xaxis in (None, "x") and t.y is not None and np.isfinite(y := np.asarray(t.y, dtype=float)).any()
    ]
    digits = len(str(abs(int(np.floor(np.log10(min(lowest))))))) if lowest and min(lowest) > 0 else 2
    return (98 if large_font else 72) + max(0, digits - 2) * (9 if large_font else 6)


def _flow_rnn_norms(fig: go.Figure, result: DemoResult, width: float, msize: int, fname: str) -> None:
    """Left panel, rnn: the measured norm, the product of its factors, and the 1997 bound."""
    s, d = result.settings, result.frame
    q = d["q"]
    fig.add_trace(
        go.Scatter(
            x=q,
            y=_positive(d["rnn_norm"]),
            mode="lines",
            name=_("{rnn} ‖∂L/∂h(t−q)‖, w = {w}, f = {f}").format(
                rnn=variant_label("rnn"), w=f"{s.w:g}", f=fname
            ),
            line=dict(color=OKABE_ITO["blue"], width=width),
            legendgroup="rnn",
            hovertemplate=_("q=%{x}<br>measured %{y:.3e}") + _tag(variant_label("rnn")),
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=q,
            y=_positive(d["rnn_product"]),
            mode="markers",
            name=_("product of the q factors |w f'(net)|"),
            marker=dict(color=OKABE_ITO["orange"], size=msize, symbol="circle-open", line=dict(width=2)),
            legendgroup="rnn",
            hovertemplate=_("q=%{x}<br>Π factors %{y:.3e}<extra></extra>"),
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=q,
            y=_positive(d["bound"]),
            mode="lines",
            name=_("bound (|w| · max {f}')^q = {factor}^q").format(
                f=fname, factor=f"{result.bound_factor:.3g}"
            ),
            line=dict(color=OKABE_ITO["grey"], dash="dash", width=width * 0.8),
            hovertemplate=_("q=%{x}<br>bound %{y:.3e}<extra></extra>"),
        ),
        row=1,
        col=1,
    )


def _flow_cec_norms(fig: go.Figure, result: DemoResult, width: float) -> None:
    """Left panel, lstm1997: the cell state's norm with the 1997 truncation and with full BPTT."""
    d, q = result.frame, result.frame["q"]
    fig.add_trace(
        go.Scatter(
            x=q,
            y=_positive(d["cec_truncated"]),
            mode="lines",
            name=_("{lstm} ‖∂L/∂s(t−q)‖, 1997 truncation (CEC)").format(lstm=variant_label("lstm1997")),
            line=dict(color=OKABE_ITO["green"], width=width),
            legendgroup="cec",
            hovertemplate=_("q=%{x}<br>CEC %{y:.6f}<extra></extra>"),
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=q,
            y=_positive(d["cec_bptt"]),
            mode="lines",
            name=_("{lstm} ‖∂L/∂s(t−q)‖, full BPTT").format(lstm=variant_label("lstm1997")),
            line=dict(color=OKABE_ITO["purple"], dash="dashdot", width=width * 0.8),
            legendgroup="cec",
            hovertemplate=_("q=%{x}<br>full BPTT %{y:.6f}<extra></extra>"),
        ),
        row=1,
        col=1,
    )


def _flow_factors(fig: go.Figure, result: DemoResult, width: float, msize: int, fname: str) -> None:
    """Right panel: the factor each step back multiplies by (rnn and CEC), against the bound line."""
    d, q = result.frame, result.frame["q"]
    fig.add_trace(
        go.Scatter(
            x=q,
            y=d["rnn_factor"],
            mode="lines+markers",
            name=_("{rnn} factor |w f'(net)| of that step").format(rnn=variant_label("rnn")),
            line=dict(color=OKABE_ITO["blue"], width=width * 0.6),
            marker=dict(size=msize - 2),
            legendgroup="rnn",
            showlegend=False,
            hovertemplate=_("step back %{x}<br>|w f'(net)| = %{y:.4f}") + _tag(variant_label("rnn")),
        ),
        row=1,
        col=2,
    )
    fig.add_trace(
        go.Scatter(
            x=q,
            y=d["cec_factor"],
            mode="lines",
            name=_("CEC factor ∂s(t)/∂s(t−1) = 1"),
            line=dict(color=OKABE_ITO["green"], width=width),
            legendgroup="cec",
            showlegend=False,
            hovertemplate=_("step back %{x}<br>∂s(t)/∂s(t−1) = %{y:.4f}<extra>CEC</extra>"),
        ),
        row=1,
        col=2,
    )
    fig.add_hline(
        y=result.bound_factor,
        row=1,
        col=2,
        line=dict(color=OKABE_ITO["grey"], dash="dash", width=width * 0.8),
        annotation_text=_("|w| · max {f}' = {factor}").format(f=fname, factor=f"{result.bound_factor:.3g}"),
        annotation_position="top left",
    )


def _flow_axes(fig: go.Figure, result: DemoResult) -> None:
    """Axis titles; the left axis is logarithmic, the right one reaches above every factor and the bound."""
    d = result.frame
    fig.update_xaxes(title_text=_("q = steps back in time from the loss"), row=1, col=1)
    fig.update_xaxes(title_text=_("q (the q-th step back)"), row=1, col=2)
    fig.update_yaxes(
        title_text=_("relative error norm (log)"), type="log", exponentformat="power", row=1, col=1
    )
    top = max(
        1.1,
        float(np.nanmax(d["rnn_factor"])) * 1.1 if d["rnn_factor"].notna().any() else 1.1,
        result.bound_factor * 1.15,
    )
    fig.update_yaxes(title_text=_("factor"), range=[0, top], row=1, col=2)


def activation_alt(bounds: dict[str, float]) -> str:
    """Alt text of the activation figure (the maximum slopes are the core's, passed in)."""
    return _(
        "Left, the squashing functions σ, tanh, g = 4σ − 2 and h = 2σ − 1 for x from −6 to 6; "
        "right, their slopes, computed by lstm_core. Maximum slopes: {slopes}. The dotted line "
        "marks σ' = ¼ at x = 0."
    ).format(slopes=", ".join(f"{CURVES[n].split(' (')[0]}: {b:g}" for n, b in bounds.items()))


def flow_alt(result: DemoResult) -> str:
    """Alt text of the demo figure: the numbers it shows and what they mean."""
    s, last = result.settings, result.frame.iloc[-1]
    fname = "σ" if s.f == "sigmoid" else "tanh"
    if result.bound_factor < 1:
        verdict = _("every factor is below 1, so the error must vanish")
    elif last["rnn_norm"] > 1:
        verdict = _("the error grew: the factors stayed above 1 (net stayed near 0, where f' peaks)")
    else:
        verdict = _(
            "the bound allows growth, yet the error shrank: the unit saturates, so f'(net) "
            "stays far below its maximum"
        )
    return _(
        "Log-scale error norm against q = 0…{steps} steps back. {rnn} (w = {w}, f = {f}): "
        "after {steps} steps the error is {norm} of its starting value; the product "
        "of the measured factors gives {product} and the bound (|w| · max {f}')^q "
        "= {factor}^q gives {bound}: {verdict}. {lstm} cell state with "
        "the 1997 truncation: {cec} (constant: every factor ∂s(t)/∂s(t−1) is "
        "1); with full BPTT: {cec_bptt}. Right panel: the factor each step back "
        "multiplies by, against the bound line."
    ).format(
        steps=s.T - 1,
        rnn=variant_label("rnn"),
        lstm=variant_label("lstm1997"),
        w=f"{s.w:g}",
        f=fname,
        norm=f"{last['rnn_norm']:.3g}",
        product=f"{last['rnn_product']:.3g}",
        factor=f"{result.bound_factor:.3g}",
        bound=f"{last['bound']:.3g}",
        verdict=verdict,
        cec=f"{last['cec_truncated']:.6g}",
        cec_bptt=f"{last['cec_bptt']:.3g}",
    ) + (
        _(
            " {n} {rnn} values are exactly 0 (w = 0, or smaller than float64 can hold)"
            " and are not drawn on the log axis."
        ).format(n=result.underflow, rnn=variant_label("rnn"))
        if result.underflow
        else ""
    )
