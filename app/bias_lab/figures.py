"""Figure builders of the Bias lab: data in, ``(go.Figure, alt text)`` out. No model math.

* ``sweep_heatmap`` — success rate or median sequences-to-criterion over a bias grid. Failed
  cells are marked twice (a "✗" and a grey, pattern-free background where no value exists),
  so nothing depends on colour alone. Plotly heatmaps do not report point selections to
  Streamlit, so an invisible scatter of the grid points sits on top: clicking a cell selects
  that scatter point (``customdata`` = [i, j]) and ``selected_cell`` decodes the event.
* ``probe_panels`` — one network's gate activations and cell states on the probe sequence,
  before and after training, on shared axes.
* demo charts: training curves per seed, drift profiles, forget-gate flow.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from app.i18n import N_, _
from app.ui.figures import PALETTE, Chart, Series, colour, font_size, layout, make_figure
from lstm_core.variants import variant as variant_record

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
    z = _grid(cells, "success_rate" if success else "median_to_criterion", nx, ny)
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
    f = font_size(large)
    colorbar = dict(
        thickness=12,
        tickfont=dict(size=f - 2),
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
    gx, gy = np.meshgrid(np.arange(nx), np.arange(ny))
    # The click and hover target: one (invisible) point per cell; Streamlit reports its customdata.
    # It carries the hover text too (a heat map under it would lose the hover to it), and with no
    # hover distance limit the nearest centre, i.e. the cell under the mouse, answers anywhere.
    pick = dict(
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
    if success:
        title = _("Success rate (networks that met the criterion)")
    elif budget:
        title = _("Median sequences to criterion (✗ = none solved within {budget})").format(
            budget=f"{budget:,}"
        )
    else:
        title = _("Median sequences to criterion (✗ = none solved)")
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
    # x labels side by side must fit the plot (about 24 characters in half a page): longer bias
    # lists go on two or more lines, never rotated onto the axis title
    per_line = 99 if nx * max((len(t) for t in x_labels), default=0) <= 24 else 2
    ticks = [_wrap(t, per_line) for t in x_labels]
    extra = max(t.count("<br>") for t in ticks) if ticks else 0
    lay["xaxis"].update(tickvals=list(range(nx)), ticktext=ticks, showgrid=False, zeroline=False, tickangle=0)
    lay["margin"]["b"] += int(extra * 1.25 * f)
    lay["height"] += int(extra * 1.25 * f)
    lay["yaxis"].update(
        tickvals=list(range(ny)), ticktext=y_labels if has_y else [""], showgrid=False, zeroline=False
    )
    # Bias lists ("−4, −6, −8") are long tick labels: the left margin is sized from the longest
    # one (≈ 0.62 em per character) plus the axis title, so neither is clipped nor overlaps.
    longest = max((len(t) for t in y_labels), default=0)
    lay["margin"]["l"] = max(lay["margin"]["l"], int(0.62 * (f - 1) * longest) + 2 * f + 22)
    lay["yaxis"]["title"]["standoff"] = 10
    if selected is not None:
        i, j = selected
        lay["shapes"] = [
            dict(
                type="rect",
                x0=i - 0.5,
                x1=i + 0.5,
                y0=j - 0.5,
                y1=j + 0.5,
                line=dict(color=SELECT_COLOUR, width=4 if large else 3),
            )
        ]
    fig = make_figure(dict(data=[heat, pick], layout=lay))
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
    alt = (
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
    if clickable:
        alt += " " + _("Click a cell to see its network.")
    return fig, alt


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


# ----------------------------------------------------------------------------- one network
STATE_NAMES = [
    ("s", N_("cell state s")),
    ("c", N_("cell state c")),
    ("h", N_("hidden state h")),
    ("net", N_("net input")),
]
WHEN = {"before": N_("{what} before training"), "after": N_("{what} after training")}
GATES_TITLE = {"before": N_("Gates before training"), "after": N_("Gates after training")}
OUTPUT_TITLE = {
    "before": N_("Output and target (×) before training"),
    "after": N_("Output and target (×) after training"),
}


def _lines(
    t: np.ndarray,
    series: list[Series],
    *,
    title: str,
    y: str,
    large: bool,
    uirevision: str,
    y_range: tuple[float, float] | None = None,
) -> Chart:
    """``figures.lines`` with the legend beside the plot (many series would cover the title)."""
    data = [
        dict(
            type="scatter",
            x=t,
            y=s.y,
            name=s.name,
            mode=s.mode,
            line=dict(
                color=colour(s.colour_index if s.colour_index is not None else i),
                dash=s.dash,
                width=2.5 if large else 2,
            ),
            marker=dict(
                size=10 if large else 8,
                symbol="x",
                color=colour(s.colour_index if s.colour_index is not None else i),
            ),
        )
        for i, s in enumerate(series)
    ]
    lay = layout(title=title, x=_("timestep t"), y=y, large=large, uirevision=uirevision, height=300)
    lay["legend"].update(orientation="v", x=1.02, xanchor="left", y=1, yanchor="top")
    if y_range is not None:
        lay["yaxis"]["range"] = list(y_range)
    names = ", ".join(s.name for s in series[:8]) + (" …" if len(series) > 8 else "")
    return make_figure(dict(data=data, layout=lay)), _(
        "Line chart: {title}. {n} line(s) ({names}) over {steps} timesteps."
    ).format(title=title, n=len(series), names=names, steps=len(t))


def probe_panels(before: Any, after: Any, *, variant: str, large: bool) -> list[tuple[Chart, Chart]]:
    """[(gates before, gates after), (states before, after), (outputs before, after)].

    Gates: colour = gate, dash = block / unit (at most 4 blocks drawn).
    """
    n = before.xs.shape[0]
    t = np.arange(1, n + 1)
    out = []
    gates = [(k, name) for k, name in variant_record(variant).gates if k in before.internals]
    if gates:
        pair = []
        for when, tr in (("before", before), ("after", after)):
            series = []
            for gi, (k, name) in enumerate(gates):
                a = tr.internals[k][:, 0, :]
                for u in range(min(a.shape[1], 4)):
                    series.append(
                        Series(
                            f"{_(name)} {u + 1}",
                            a[:, u],
                            dash=["solid", "dash", "dot", "dashdot"][u],
                            colour_index=gi,
                        )
                    )
            pair.append(
                _lines(
                    t,
                    series,
                    title=_(GATES_TITLE[when]),
                    y=_("openness"),
                    large=large,
                    uirevision=f"bias-gates-{when}",
                    y_range=(-0.03, 1.03),
                )
            )
        out.append(tuple(pair))
    key, name = next(((k, nm) for k, nm in STATE_NAMES if k in before.internals), (None, None))
    if key is not None:
        lo = min(np.nanmin(before.internals[key]), np.nanmin(after.internals[key]))
        hi = max(np.nanmax(before.internals[key]), np.nanmax(after.internals[key]))
        pad = 0.05 * (hi - lo) + 1e-9
        pair = []
        for when, tr in (("before", before), ("after", after)):
            a = tr.internals[key][:, 0, :]
            series = [Series(f"{key}{u + 1}", a[:, u], colour_index=u) for u in range(min(a.shape[1], 8))]
            what = _(name)
            pair.append(
                _lines(
                    t,
                    series,
                    title=_(WHEN[when]).format(what=what[:1].upper() + what[1:]),
                    y=key,
                    large=large,
                    uirevision=f"bias-states-{when}",
                    y_range=(lo - pad, hi + pad),
                )
            )
        out.append(tuple(pair))
    pair = []
    on = before.mask[:, 0] > 0
    for when, tr in (("before", before), ("after", after)):
        y = tr.outputs[:, 0, :]
        series = [Series(f"y{u + 1}", y[:, u], colour_index=u) for u in range(min(y.shape[1], 4))]
        series += [
            Series(
                _("target {n}").format(n=u + 1),
                np.where(on, tr.targets[:, 0, u], np.nan),
                colour_index=u,
                mode="markers",
            )
            for u in range(min(y.shape[1], 4))
        ]
        pair.append(
            _lines(t, series, title=_(OUTPUT_TITLE[when]), y="y", large=large, uirevision=f"bias-out-{when}")
        )
    out.append(tuple(pair))
    return out


# ----------------------------------------------------------------------------- demos
def curves(
    frame: pd.DataFrame,
    column: str,
    *,
    title: str,
    y: str,
    large: bool,
    uirevision: str,
    log: bool = False,
    settings: list[str] | None = None,
) -> Chart:
    """One thin line per network (colour = setting, dash = setting) and the median per setting."""
    data = []
    settings = settings or list(dict.fromkeys(frame.setting))
    w = 2.6 if large else 2.0
    for si, s in enumerate(settings):
        sub = frame[frame.setting == s]
        c, dash = colour(si), ["solid", "dash", "dot", "dashdot"][si % 4]
        for seed, g in sub.groupby("seed"):
            data.append(
                dict(
                    type="scatter",
                    x=g.sequences.to_numpy(),
                    y=g[column].to_numpy(),
                    mode="lines",
                    legendgroup=s,
                    showlegend=False,
                    opacity=0.35,
                    name=_("{setting}, seed {seed}").format(setting=s, seed=seed),
                    line=dict(color=c, width=1, dash=dash),
                )
            )
        med = sub.groupby("chunk").agg(sequences=("sequences", "median"), v=(column, "median"))
        data.append(
            dict(
                type="scatter",
                x=med.sequences.to_numpy(),
                y=med.v.to_numpy(),
                mode="lines",
                name=_("{setting} (median)").format(setting=s),
                legendgroup=s,
                line=dict(color=c, width=w + 1, dash=dash),
            )
        )
    lay = layout(title=title, x=_("training sequences"), y=y, large=large, uirevision=uirevision, height=330)
    lay["hovermode"] = "closest"
    if log:
        lay["yaxis"].update(type="log", exponentformat="power")
    fig = make_figure(dict(data=data, layout=lay))
    last = frame[frame.chunk == frame.chunk.max()] if len(frame) else frame
    ends = (
        "; ".join(
            _("{setting}: median {value}").format(
                setting=s, value=f"{last[last.setting == s][column].median():.3g}"
            )
            for s in settings
        )
        if len(frame)
        else ""
    )
    alt = _(
        "Line chart: {title}, one thin line per seed and a thick median per setting ({settings}). At the end: "
        "{ends}."
    ).format(title=title, settings=", ".join(settings), ends=ends)
    return fig, alt


def profiles(
    t: np.ndarray,
    rows: list[tuple[str, np.ndarray, int, str]],
    *,
    title: str,
    y: str,
    large: bool,
    uirevision: str,
    y_range: tuple[float, float] | None = None,
) -> Chart:
    """Quantities over the probe sequence: rows = (name, values, colour index, dash)."""
    series = [Series(name, v, dash=dash, colour_index=ci) for name, v, ci, dash in rows]
    return _lines(t, series, title=title, y=y, large=large, uirevision=uirevision, y_range=y_range)


def forget_factor_chart(biases: list[float], per_step: np.ndarray, y_fg: np.ndarray, *, large: bool) -> Chart:
    """Measured per-step decay of the error along s vs the mean forget-gate activation."""
    data = [
        dict(
            type="scatter",
            x=biases,
            y=y_fg,
            name=_("mean y_fg (the theory's factor)"),
            mode="lines+markers",
            line=dict(color=PALETTE[0], dash="dash"),
            marker=dict(size=9, symbol="circle", color=PALETTE[0]),
        ),
        dict(
            type="scatter",
            x=biases,
            y=per_step,
            name=_("measured per-step factor"),
            mode="lines+markers",
            line=dict(color=PALETTE[1]),
            marker=dict(size=9, symbol="x", color=PALETTE[1]),
        ),
    ]
    lay = layout(
        title=_("Error kept per step back along s"),
        x=_("forget-gate bias"),
        y=_("factor per step"),
        large=large,
        uirevision="bias-forget-factor",
        height=300,
    )
    lay["yaxis"]["range"] = [0, 1.05]
    lay["hovermode"] = "closest"
    fig = make_figure(dict(data=data, layout=lay))
    pairs = ", ".join(f"b={b:g}: {p:.3f}" for b, p in zip(biases, per_step))
    return fig, _(
        "Line chart: measured error kept per step back against the forget-gate bias ({pairs})."
    ).format(pairs=pairs)


def fmt_int(v: float) -> str:
    return "—" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:,.0f}"
