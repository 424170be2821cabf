"""Theory's demo figure: the error reaching q steps back (log scale) and the factor each step back
multiplies by, from ``app.theory.demo``'s result (no Streamlit here; the page's other figure is in
``app.theory.figures``, whose palette and style it shares). Texts are in this session's language.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app import i18n
from app.i18n import _
from app.theory.demo import DemoResult
from app.theory.figures import OKABE_ITO, annotation_sizes, hover_tag, positive, style
from app.ui.figures import variant_label


def flow_figure(result: DemoResult, large_font: bool = False) -> go.Figure:
    """Left: error reaching q steps back (log scale). Right: the factor each step multiplies by.

    The two styled, empty panels are built once per language and size (``_panels``) and the
    result's curves, lines and axes added to a copy without plotly.py's validation: the panels and
    their style were two thirds of the ~31 ms this took, and a slider's preview of the demo waits
    for it (issue 48). The same figure as building it whole (tests/test_theory_figures.py)."""
    text, grid_str, grid_ref = _panels(large_font, i18n.current())
    fig = go.Figure({**json.loads(text), "_grid_str": grid_str, "_grid_ref": grid_ref}, _validate=False)
    flow_content(fig, result, large_font)
    annotation_sizes(fig, large_font)  # the lines' labels, as the panels' titles
    fig.layout.margin.l = _left_margin(fig, large_font)
    return fig


FLOW_PANELS = dict(rows=1, cols=2, column_widths=[0.6, 0.4], horizontal_spacing=0.09)


def flow_titles() -> tuple[str, str]:
    return _("error reaching q steps back, relative to q = 0"), _("factor applied at each step back")


@functools.lru_cache(maxsize=16)
def _panels(large_font: bool, lang: str) -> tuple[str, Any, Any]:
    """The demo's two panels, titled in ``lang`` and styled, without curves: as JSON (each figure
    parses its own copy) and the subplot grid ``make_subplots`` leaves on its figure (which
    ``add_trace(..., row, col)`` reads)."""
    fig = make_subplots(**FLOW_PANELS, subplot_titles=flow_titles())
    flow_style(fig, large_font)
    return fig.to_json(), fig._grid_str, fig._grid_ref


def flow_content(fig: go.Figure, result: DemoResult, large_font: bool) -> None:
    """The result's curves, the bound's line and the axes' titles and scales."""
    width = 4 if large_font else 2.5
    msize = 9 if large_font else 6
    fname = "σ" if result.settings.f == "sigmoid" else "tanh"
    _flow_rnn_norms(fig, result, width, msize, fname)
    _flow_cec_norms(fig, result, width)
    _flow_factors(fig, result, width, msize, fname)
    _flow_axes(fig, result)


def flow_style(fig: go.Figure, large_font: bool) -> None:
    """Sizes, template, legend and margins of the demo's figure."""
    style(fig, large_font, 470, "theory-flow")
    # Fixed margins, no axis automargin: with it Plotly lays the chart out twice at every redraw, and a
    # slider's preview took ~94 ms to draw, ~47 ms without (headless Chromium, issue 48). The left
    # margin holds the log axis' title and its widest label (10⁻⁴² as drawn by automargin: 72 px at
    # the normal size, 98 px with large fonts), a superscript digit wider per digit beyond two. The
    # legend below still pushes the bottom margin (its rows depend on the chart's width).
    fig.update_xaxes(automargin=False)
    fig.update_yaxes(automargin=False)


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
            y=positive(d["rnn_norm"]),
            mode="lines",
            name=_("{rnn} ‖∂L/∂h(t−q)‖, w = {w}, f = {f}").format(
                rnn=variant_label("rnn"), w=f"{s.w:g}", f=fname
            ),
            line=dict(color=OKABE_ITO["blue"], width=width),
            legendgroup="rnn",
            hovertemplate=_("q=%{x}<br>measured %{y:.3e}") + hover_tag(variant_label("rnn")),
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=q,
            y=positive(d["rnn_product"]),
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
            y=positive(d["bound"]),
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
            y=positive(d["cec_truncated"]),
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
            y=positive(d["cec_bptt"]),
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
            hovertemplate=_("step back %{x}<br>|w f'(net)| = %{y:.4f}") + hover_tag(variant_label("rnn")),
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
    # A line across the right panel at the bound and its label: what ``add_hline(..., row=1, col=2,
    # annotation_text=…)`` makes, written out (see ``_flow_axes``).
    bound, line = result.bound_factor, dict(color=OKABE_ITO["grey"], dash="dash", width=width * 0.8)
    fig.add_shape(type="line", x0=0, x1=1, y0=bound, y1=bound, xref="x2 domain", yref="y2", line=line)
    fig.add_annotation(
        text=_("|w| · max {f}' = {factor}").format(f=fname, factor=f"{bound:.3g}"),
        showarrow=False,
        x=0,
        xanchor="left",
        y=bound,
        yanchor="bottom",
        xref="x2 domain",
        yref="y2",
    )


def _flow_axes(fig: go.Figure, result: DemoResult) -> None:
    """Axis titles; the left axis is logarithmic, the right one reaches above every factor and the bound."""
    d = result.frame
    # Set by plain attribute, not ``update_xaxes(title_text=…, row=…)``: plotly.py parses each
    # underscored name into a path with a class it defines per call (``chomp_empty_strings``),
    # ~130 classes a figure — garbage that made the server's full collections frequent (issue 48).
    lay = fig.layout
    lay.xaxis.title.text = _("q = steps back in time from the loss")
    lay.xaxis2.title.text = _("q (the q-th step back)")
    lay.yaxis.title.text = _("relative error norm (log)")
    lay.yaxis.type, lay.yaxis.exponentformat = "log", "power"
    top = max(
        1.1,
        float(np.nanmax(d["rnn_factor"])) * 1.1 if d["rnn_factor"].notna().any() else 1.1,
        result.bound_factor * 1.15,
    )
    lay.yaxis2.title.text = _("factor")
    lay.yaxis2.range = [0, top]


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
