"""Figure builders of the Bias lab: data in, ``(go.Figure, alt text)`` out. No model math.
(The sweep's heat map is in ``app.bias_lab.heatmap``.)

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
from app.ui.figures import PALETTE, Chart, Series, colour, layout, make_figure
from lstm_core.variants import variant as variant_record

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
    t = np.arange(1, before.xs.shape[0] + 1)
    traces = (("before", before), ("after", after))
    out = []
    gates = [(k, name) for k, name in variant_record(variant).gates if k in before.internals]
    if gates:
        out.append(tuple(_gate_panel(t, when, tr, gates, large) for when, tr in traces))
    key, name = next(((k, nm) for k, nm in STATE_NAMES if k in before.internals), (None, None))
    if key is not None:
        lo = min(np.nanmin(before.internals[key]), np.nanmin(after.internals[key]))
        hi = max(np.nanmax(before.internals[key]), np.nanmax(after.internals[key]))
        pad = 0.05 * (hi - lo) + 1e-9
        out.append(
            tuple(_state_panel(t, when, tr, key, name, (lo - pad, hi + pad), large) for when, tr in traces)
        )
    on = before.mask[:, 0] > 0
    out.append(tuple(_output_panel(t, when, tr, on, large) for when, tr in traces))
    return out


def _gate_panel(t: np.ndarray, when: str, tr: Any, gates: list[tuple[str, str]], large: bool) -> Chart:
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
    return _lines(
        t,
        series,
        title=_(GATES_TITLE[when]),
        y=_("openness"),
        large=large,
        uirevision=f"bias-gates-{when}",
        y_range=(-0.03, 1.03),
    )


def _state_panel(
    t: np.ndarray, when: str, tr: Any, key: str, name: str, y_range: tuple[float, float], large: bool
) -> Chart:
    """One state (s, c, h or net input) per unit; before and after share ``y_range``."""
    a = tr.internals[key][:, 0, :]
    series = [Series(f"{key}{u + 1}", a[:, u], colour_index=u) for u in range(min(a.shape[1], 8))]
    what = _(name)
    return _lines(
        t,
        series,
        title=_(WHEN[when]).format(what=what[:1].upper() + what[1:]),
        y=key,
        large=large,
        uirevision=f"bias-states-{when}",
        y_range=y_range,
    )


def _output_panel(t: np.ndarray, when: str, tr: Any, on: np.ndarray, large: bool) -> Chart:
    """Outputs as lines, targets as crosses where the mask scores them."""
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
    return _lines(t, series, title=_(OUTPUT_TITLE[when]), y="y", large=large, uirevision=f"bias-out-{when}")


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
    settings = settings or list(dict.fromkeys(frame.setting))
    data = [d for si, s in enumerate(settings) for d in _setting_lines(frame, column, s, si, large)]
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


def _setting_lines(frame: pd.DataFrame, column: str, s: str, si: int, large: bool) -> list[dict]:
    """One setting's thin line per seed and its thick median line."""
    data = []
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
            line=dict(color=c, width=(2.6 if large else 2.0) + 1, dash=dash),
        )
    )
    return data


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
