"""The Bias lab's heat map of a sweep: success rate or median sequences-to-criterion over a bias grid.

Failed cells are marked twice (a "✗" and a grey, pattern-free background where no value exists),
so nothing depends on colour alone. Plotly heatmaps do not report point selections to Streamlit,
so an invisible scatter of the grid points sits on top: clicking a cell selects that scatter point
(``customdata`` = [i, j]) and ``selected_cell`` decodes the event.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from app.i18n import N_, _
from app.ui.figures import Chart, font_size, layout, make_figure

FAIL_BG = "#d9d9d9"  # background seen through cells without a value (no network solved)
SELECT_COLOUR = "#D55E00"
# The swept axes' titles as the core names them (``lstm_core.sweeps.sweep.Axis.title``), for the
# catalogue: the page shows ``_(axis.title)``.
AXIS_TITLES = (
    N_("input gate bias"),
    N_("output gate bias"),
    N_("forget gate bias"),
    N_("reset gate bias"),
    N_("update gate bias"),
    N_("hidden bias"),
    N_("cell bias"),
    N_("candidate bias"),
)


def _grid(cells: pd.DataFrame, column: str, nx: int, ny: int) -> np.ndarray:
    z = np.full((ny, nx), np.nan)
    for r in cells.itertuples():
        z[r.j, r.i] = getattr(r, column)
    return z


def _hover(r: Any, x_title: str, y_title: str, has_y: bool) -> str:
    med = "—" if not np.isfinite(r.median_to_criterion) else f"{r.median_to_criterion:,.0f}"
    lines_ = (
        [_("{axis}: {value}").format(axis=x_title, value=r.x)]
        + ([_("{axis}: {value}").format(axis=y_title, value=r.y)] if has_y else [])
        + [
            _("solved {solved}/{networks} ({percent}%)").format(
                solved=r.solved, networks=r.networks, percent=f"{100 * r.success_rate:.0f}"
            ),
            _("median sequences to criterion: {median}").format(median=med),
        ]
    )
    if r.diverged:
        lines_.append(_("diverged: {n}").format(n=r.diverged))
    if r.running:
        lines_.append(_("still training: {n}").format(n=r.running))
    return "<br>".join(lines_)


def _wrap(label: str, per_line: int) -> str:
    """'−1, −3, −5' -> '−1, −3,<br>−5' (at most ``per_line`` values on a line)."""
    parts = label.split(", ")
    return ",<br>".join(", ".join(parts[i : i + per_line]) for i in range(0, len(parts), per_line))


def sweep_heatmap(
    cells: pd.DataFrame,
    x_labels: list[str],
    y_labels: list[str],
    *,
    x_title: str,
    y_title: str,
    metric: str,
    large: bool,
    uirevision: str,
    selected: tuple[int, int] | None = None,
    budget: int | None = None,
    clickable: bool = True,
) -> Chart:
    """Heat map of one metric ("success" or "median") over the grid, with a selectable overlay;
    ``clickable``: the alt text says a click on a cell shows its network (a finished sweep's maps)."""
    nx, ny = len(x_labels), max(len(y_labels), 1)
    has_y = bool(y_labels)
    success = metric == "success"
    f = font_size(large)
    z = _grid(cells, "success_rate" if success else "median_to_criterion", nx, ny)
    text, hover = _cell_texts(
        cells, success=success, x_title=x_title, y_title=y_title, has_y=has_y, nx=nx, ny=ny
    )
    heat = _heat_trace(z, text, success=success, f=f)
    pick = _pick_trace(hover, nx, ny)
    title = _heat_title(success, budget)
    lay = layout(
        title=title,
        x=x_title,
        y=y_title if has_y else "",
        large=large,
        uirevision=uirevision,
        height=110 + 60 * ny if ny > 1 else 220,
        legend=False,
    )
    lay.update(
        hovermode="closest", hoverdistance=-1, plot_bgcolor=FAIL_BG, clickmode="event+select", dragmode=False
    )
    _grid_axes(lay, x_labels, y_labels, f=f)
    if selected is not None:
        lay["shapes"] = [_selection_box(selected, large)]
    fig = make_figure(dict(data=[heat, pick], layout=lay))
    alt = _heat_alt(
        cells, title=title, nx=nx, ny=ny, x_title=x_title, y_title=y_title, has_y=has_y, success=success
    )
    if clickable:
        alt += " " + _("Click a cell to see its network.")
    return fig, alt


def _cell_texts(
    cells: pd.DataFrame, *, success: bool, x_title: str, y_title: str, has_y: bool, nx: int, ny: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's label ("✗ 0/5", "1,200…") and hover text, on the (ny, nx) grid."""
    text = np.full((ny, nx), "", dtype=object)
    hover = np.full((ny, nx), "", dtype=object)
    for r in cells.itertuples():
        pending = "…" if r.running else ""
        if success:
            text[r.j, r.i] = (
                "✗ " if r.solved == 0 and not r.running else ""
            ) + f"{r.solved}/{r.networks}{pending}"
        else:
            text[r.j, r.i] = (
                f"{r.median_to_criterion:,.0f}{pending}"
                if np.isfinite(r.median_to_criterion)
                else ("…" if r.running else "✗")
            )
        hover[r.j, r.i] = _hover(r, x_title, y_title, has_y)
    return text, hover


def _heat_trace(z: np.ndarray, text: np.ndarray, *, success: bool, f: int) -> dict:
    ny, nx = z.shape
    colorbar = dict(
        thickness=12,
        tickfont=dict(size=f - 2),
        # each label below its tick: the top one ("100%") then sits inside the bar's height, clear of
        # the title above it (a wide title, 解出, and large fonts made them overlap)
        ticklabelposition="outside bottom",
        title=dict(text=_("solved") if success else _("sequences"), font=dict(size=f - 1)),
    )
    heat = dict(
        type="heatmap",
        x=list(range(nx)),
        y=list(range(ny)),
        z=z,
        text=text,
        texttemplate="%{text}",
        textfont=dict(size=f + (1 if nx * ny <= 25 else -1)),
        hoverinfo="skip",
        colorscale="Cividis",
        reversescale=not success,
        colorbar=colorbar,
        xgap=2,
        ygap=2,
    )
    if success:
        heat.update(zmin=0.0, zmax=1.0)
        colorbar.update(tickformat=".0%")
    elif not np.isfinite(z).any():
        # no cell has a value yet (none solved, or all still running): Plotly draws nothing at all for
        # an all-empty heat map, not even the cells' "✗"/"…" — so the cells are drawn in the
        # failed-cell grey (a flat scale, no colour bar), their labels on top; the values stay absent
        heat.update(
            z=np.zeros_like(z),
            colorscale=[[0.0, FAIL_BG], [1.0, FAIL_BG]],
            showscale=False,
            reversescale=False,
        )
    return heat


def _pick_trace(hover: np.ndarray, nx: int, ny: int) -> dict:
    """The click and hover target: one (invisible) point per cell; Streamlit reports its customdata.
    It carries the hover text too (a heat map under it would lose the hover to it), and with no
    hover distance limit the nearest centre, i.e. the cell under the mouse, answers anywhere."""
    gx, gy = np.meshgrid(np.arange(nx), np.arange(ny))
    return dict(
        type="scatter",
        x=gx.ravel(),
        y=gy.ravel(),
        mode="markers",
        name=_("cells"),
        showlegend=False,
        customdata=np.stack([gx.ravel(), gy.ravel()], 1),
        text=hover.ravel(),
        hovertemplate="%{text}<extra></extra>",  # i18n: kept (Plotly's hover markup, no words)
        marker=dict(symbol="square", size=max(18, min(60, 360 // max(nx, ny))), opacity=0.0, color="#000000"),
        selected=dict(marker=dict(opacity=0.0)),
        unselected=dict(marker=dict(opacity=0.0)),
    )


def _heat_title(success: bool, budget: int | None) -> str:
    if success:
        return _("Success rate (networks that met the criterion)")
    if budget:
        return _("Median sequences to criterion (✗ = none solved within {budget})").format(
            budget=f"{budget:,}"
        )
    return _("Median sequences to criterion (✗ = none solved)")


def _grid_axes(lay: dict, x_labels: list[str], y_labels: list[str], *, f: int) -> None:
    """Tick labels of the bias lists on both axes, with the margins they need."""
    nx, ny = len(x_labels), max(len(y_labels), 1)
    # x labels side by side must fit the plot (about 24 characters in half a page): longer bias
    # lists go on two or more lines, never rotated onto the axis title
    per_line = 99 if nx * max((len(t) for t in x_labels), default=0) <= 24 else 2
    ticks = [_wrap(t, per_line) for t in x_labels]
    extra = max(t.count("<br>") for t in ticks) if ticks else 0
    lay["xaxis"].update(tickvals=list(range(nx)), ticktext=ticks, showgrid=False, zeroline=False, tickangle=0)
    lay["margin"]["b"] += int(extra * 1.25 * f)
    lay["height"] += int(extra * 1.25 * f)
    lay["yaxis"].update(
        tickvals=list(range(ny)), ticktext=y_labels if y_labels else [""], showgrid=False, zeroline=False
    )
    # Bias lists ("−4, −6, −8") are long tick labels: the left margin is sized from the longest
    # one (≈ 0.62 em per character) plus the axis title, so neither is clipped nor overlaps.
    longest = max((len(t) for t in y_labels), default=0)
    lay["margin"]["l"] = max(lay["margin"]["l"], int(0.62 * (f - 1) * longest) + 2 * f + 22)
    lay["yaxis"]["title"]["standoff"] = 10


def _selection_box(selected: tuple[int, int], large: bool) -> dict:
    i, j = selected
    return dict(
        type="rect",
        x0=i - 0.5,
        x1=i + 0.5,
        y0=j - 0.5,
        y1=j + 0.5,
        line=dict(color=SELECT_COLOUR, width=4 if large else 3),
    )


def _heat_alt(
    cells: pd.DataFrame,
    *,
    title: str,
    nx: int,
    ny: int,
    x_title: str,
    y_title: str,
    has_y: bool,
    success: bool,
) -> str:
    """The map in one sentence: its grid, how far the sweep got and its best (or fastest) cell."""
    done = cells[cells.running == 0]
    if success:
        best = cells.sort_values(["success_rate", "median_to_criterion"], ascending=[False, True]).iloc[0]
        summary = (
            _("best cell {x} / {y} with {solved}/{networks} solved")
            if has_y
            else _("best cell {x} with {solved}/{networks} solved")
        ).format(x=best.x, y=best.y if has_y else "", solved=best.solved, networks=best.networks)
    else:
        ok = cells[np.isfinite(cells.median_to_criterion)]
        if ok.empty:
            summary = _("no cell solved")
        else:
            fastest = ok.loc[ok.median_to_criterion.idxmin()]
            summary = (
                _("fastest cell {x} / {y} at a median of {n} sequences")
                if has_y
                else _("fastest cell {x} at a median of {n} sequences")
            ).format(x=fastest.x, y=fastest.y if has_y else "", n=f"{ok.median_to_criterion.min():,.0f}")
    return (
        _(
            "Heat map: {title}, {nx} × {ny} grid of {x_title} and {y_title}; {done} of {cells} cells finished; "
            "{summary}."
        )
        if has_y
        else _(
            "Heat map: {title}, {nx} × {ny} grid of {x_title}; {done} of {cells} cells finished; {summary}."
        )
    ).format(
        title=title,
        nx=nx,
        ny=ny,
        x_title=x_title,
        y_title=y_title,
        done=len(done),
        cells=len(cells),
        summary=summary,
    )


def selected_cell(event: Any, nx: int, ny: int) -> tuple[int, int] | None:
    """(i, j) of the clicked grid cell from a ``st.plotly_chart`` selection event (or None)."""
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        return None
    for p in points or []:
        cd = p.get("customdata")
        if isinstance(cd, (list, tuple)) and len(cd) == 2:
            i, j = cd
        else:
            i, j = p.get("x"), p.get("y")
        try:
            i, j = int(round(float(i))), int(round(float(j)))
        except (TypeError, ValueError):
            continue
        if 0 <= i < nx and 0 <= j < ny:
            return i, j
    return None
