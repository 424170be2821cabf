"""Figure builders for the Theory page: data in, ``go.Figure`` out (no Streamlit here).

Colours are the Okabe–Ito palette (distinguishable with the common colour-vision
deficiencies); every curve also differs by dash or marker so the figures survive grey-scale
projectors. ``large_font`` scales text and lines for a classroom projector. Each figure sets
``layout.uirevision`` so a rerun with new data keeps the user's zoom. Texts are in this session's
language (``app.i18n._``); nothing here is cached, so a figure is built in its reader's language.
The demo's error-flow figure is ``app.theory.flow_figure``'s.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.i18n import _
from app.theory.demo import CURVES

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


def text_size(large_font: bool) -> int:
    return 20 if large_font else 13  # as app.ui.figures.font_size


def style(fig: go.Figure, large_font: bool, height: int, uirevision: str) -> go.Figure:
    size = text_size(large_font)
    fig.update_layout(
        height=height + (80 if large_font else 0),
        uirevision=uirevision,
        template="plotly_white",
        font=dict(size=size),
        margin=dict(l=10, r=10, t=50, b=10),
        legend=dict(orientation="h", yanchor="top", y=-0.16, x=0, font=dict(size=size)),
        hoverlabel=dict(font_size=size),
    )
    annotation_sizes(fig, large_font)
    # explicit sizes: Streamlit's chart theme would otherwise keep its own small tick font
    fig.update_xaxes(tickfont=dict(size=size), title_font=dict(size=size))
    fig.update_yaxes(tickfont=dict(size=size), title_font=dict(size=size))
    return fig


def annotation_sizes(fig: go.Figure, large_font: bool) -> None:
    """Subplot titles and labels a size above the text: readable when projected."""
    for ann in fig.layout.annotations:
        ann.font.size = text_size(large_font) + 1


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
    return style(fig, large_font, 420, "theory-activations")


def hover_tag(name: str) -> str:
    """Plotly's side box of a hover label, naming the curve (short: the trace's legend name is long)."""
    return f"<extra>{name}</extra>"


def positive(a: pd.Series) -> np.ndarray:
    """Values for a log axis: exact zeros (underflow, or w = 0) become gaps instead of -inf."""
    a = np.asarray(a, dtype=float)
    return np.where(a > 0, a, np.nan)


def activation_alt(bounds: dict[str, float]) -> str:
    """Alt text of the activation figure (the maximum slopes are the core's, passed in)."""
    return _(
        "Left, the squashing functions σ, tanh, g = 4σ − 2 and h = 2σ − 1 for x from −6 to 6; "
        "right, their slopes, computed by lstm_core. Maximum slopes: {slopes}. The dotted line "
        "marks σ' = ¼ at x = 0."
    ).format(slopes=", ".join(f"{CURVES[n].split(' (')[0]}: {b:g}" for n, b in bounds.items()))
