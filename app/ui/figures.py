"""Generic figure builders (shared layout, line charts, heat maps, palette) and drawing them on a
page. Arrays in, ``(go.Figure, alt text)`` out; no model math here. The error-flow charts are in
``app.ui.flow_figures``, the panels of one recorded run in ``app.ui.run_panels``.

Conventions for every chart:
- colours from the Okabe–Ito palette (distinguishable with the common colour-vision
  deficiencies); line styles (dash) carry meaning too, so nothing depends on colour alone;
- ``large=True`` scales every font for a projector;
- ``layout.uirevision`` is a constant per chart, so a live update (the cursor moving, a slider
  changing the data) keeps the user's zoom and hidden traces;
- the alt text describes what is plotted and does not depend on the cursor (Streamlit
  remounts a chart whose alt text changes, which would flicker while playing);
- a legend or hover text names a variant, a task or a training algorithm as the page's controls do,
  by its registry title in the session's language (``variant_label`` and friends), never by its
  code name (``lstm1997``, ``two_sequence``, ``rtrl``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from app.i18n import N_, _
from lstm_core.tasks import TASKS
from lstm_core.variants import ALGORITHM_TITLES, REGISTRY

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


# A title's closing note in parentheses: " (CEC, no forget gate)" in English, "（CEC，無遺忘閘門）" in
# Chinese. "BPTT(k)" has no space before its parenthesis: it is a name, not a note.
_NOTE = re.compile(r"(?: \(([^()]*)\)|\s*（[^（）]*）)$")
_NAME = re.compile(r"[A-Z][A-Za-z]*|\d{4}")  # a note that is a name or a year: (PyTorch), (1992)


def short_title(title: str) -> str:
    """A registry title (English) as a legend shows it: in this session's language, without its
    closing note ("LSTM 1997 (CEC, no forget gate)" → "LSTM 1997"; 「LSTM 1997（CEC，無遺忘閘門）」 →
    「LSTM 1997」), unless the note is a name or a year ("LSTM (PyTorch)", "Local feedback (1992)").
    The note tells the choices apart in the page's controls; a legend beside a chart has no room for
    it (two runs' labels would wrap over the chart's title)."""
    text = _(title)
    note = _NOTE.search(title)
    if note is None or (note.group(1) is not None and _NAME.fullmatch(note.group(1))):
        return text
    return _NOTE.sub("", text) or text


def variant_label(name: str, short: bool = True) -> str:
    """A cell variant (``lstm1997``) as the page names it: its registry title, translated (short:
    without the title's note). An unknown name is shown as it is."""
    rec = REGISTRY.get(name)
    if rec is None:
        return name
    return short_title(rec.title) if short else _(rec.title)


def algorithm_label(name: str, k: int | None = None, short: bool = True) -> str:
    """A training algorithm (``rtrl``, ``tbptt``) by its title, translated; truncated BPTT with its
    chunk length ``k`` ("truncated BPTT(10)")."""
    title = ALGORITHM_TITLES.get(name)
    if title is None:
        return name
    text = short_title(title) if short else _(title)
    return text.replace("(k)", f"({k})") if k is not None else text


def task_label(name: str, short: bool = False) -> str:
    """A task (``two_sequence``) by its registry title, translated (short: without its note)."""
    task = TASKS.get(name)
    title = getattr(task, "title", "") if task is not None else ""
    if not title:
        return name
    return short_title(title) if short else _(title)


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


BASE_FONT = 13  # a chart's text size (px); its title and labels are set relative to it
# Large fonts (projector): every text — the page's body, captions, labels, buttons, titles, and the
# charts' — grows by this one factor (read from the back row of a lecture room at 1366 × 768)
LARGE_SCALE = 1.3


def font_size(large: bool) -> int:
    """A chart's base text size: ``LARGE_SCALE`` × larger with large fonts, the factor every text on
    the page grows by (app/ui/state.py scales the page's own text)."""
    return round(BASE_FONT * LARGE_SCALE) if large else BASE_FONT


def _axis(text: str, f: int) -> dict[str, Any]:
    """One axis: titled, light grid, tick labels a size below the text."""
    # Fixed margins instead of axis ``automargin``: automargin makes Plotly lay every chart out
    # twice, which measured about 2x slower redraws in the browser.
    return dict(
        title=dict(text=text, font=dict(size=f), standoff=8),
        tickfont=dict(size=f - 1),
        gridcolor=GRID,
        zerolinecolor="#BBBBBB",
        automargin=False,
        showline=False,
    )


def _cursor_line(cursor: float | None, cursor_colour: str) -> list[dict]:
    """The dotted vertical line at the cursor's timestep (none without a cursor)."""
    if cursor is None:
        return []
    return [
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
        xaxis=_axis(x, f),
        yaxis=_axis(y, f),
        shapes=_cursor_line(cursor, cursor_colour),
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
            hovertemplate="t=%{x}<br>%{y}: %{z:.3g}<extra></extra>",  # i18n: kept (Plotly's hover tags)
        )
    ]
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
    frames: tuple | None = None,
    at: int | None = None,
) -> None:
    """Draw a figure that updates in place (``app.ui.live``; ``preview``: ``app.ui.previews.chart_data``;
    ``frames`` and ``at``: ``app.step.frames``), with its alt text as a caption."""
    import streamlit as st  # here, so the builders above stay importable without Streamlit

    from app.ui import live

    where = where or st
    live.chart(where, fig, key, alt, config=config, preview=preview, frames=frames, at=at)
    if caption:
        where.caption(alt)
