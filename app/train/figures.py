"""Figure builders of the Train-and-watch page: training curves in, ``(go.Figure, alt text)`` out.

Same conventions as ``app.ui.figures``: figures assembled as dicts and made once (``make_figure``),
Okabe–Ito palette, dash styles that carry meaning, large fonts on request, a constant
``uirevision`` per chart so a live redraw keeps the user's zoom.
Alt texts name what is drawn but no numbers that change while training: Streamlit remounts a
chart whose alt text changes, which would make the live charts flicker.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from app.i18n import N_, _
from app.train.live_run import Curves
from app.ui import figures, run_panels
from app.ui.figures import Chart
from lstm_core import variant as variant_record
from lstm_core.training import ProbeTrace

X_TITLE = N_("training sequences seen")
RUN_COLOUR, A_COLOUR = 0, 3  # blue for the current run, vermillion for run A
UIREVISIONS = {
    "loss": "train-loss",
    "criterion": "train-criterion",
    "grads": "train-grads",
    "gates": "train-gates",
    "states": "train-states",
    "outputs": "train-outputs",
}


def _positive(a: np.ndarray) -> np.ndarray:
    """Log axes cannot show 0: those points become gaps, not fake values."""
    a = np.asarray(a, dtype=float).copy()
    a[~(a > 1e-300)] = np.nan
    return a


def _fixed_margins(lay: Any, large: bool) -> None:
    """Fixed margins instead of Plotly's automargin, which measures the tick labels and draws the
    plot a second time (≈ 60 ms of a ≈ 75 ms redraw in headless Chromium, measured): live charts
    are redrawn several times a second, so they leave room for their labels up front."""
    lay["margin"] = dict(l=88 if large else 66, r=12, t=64 if large else 48, b=72 if large else 52)
    lay["xaxis"]["automargin"] = False
    lay["yaxis"]["automargin"] = False


def _log_axis(*arrays: np.ndarray) -> dict[str, Any]:
    """A log y axis labelled with plain numbers at 1-2-5 (short ranges) or whole decades.

    Plotly's own log ticks label every minor tick with a bare digit ("5" for 0.5), which reads
    wrong; explicit tick values say 0.5.
    """
    finite = np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays] or [np.zeros(0)])
    finite = finite[np.isfinite(finite) & (finite > 0)]
    if not finite.size:
        return dict(type="log")
    lo, hi = int(np.floor(np.log10(finite.min()))), int(np.ceil(np.log10(finite.max())))
    hi = max(hi, lo + 1)
    span = hi - lo
    steps = (1, 2, 5) if span <= 3 else (1,)
    every = -(-(span + 1) // 10)  # at most ~10 labelled decades, however wide the range
    vals = [m * 10.0**e for e in range(lo, hi + 1) if (e - lo) % every == 0 for m in steps]
    return dict(type="log", tickmode="array", tickvals=vals, ticktext=[f"{v:g}" for v in vals])


def _empty(lay: dict, large: bool) -> None:
    lay["annotations"] = [
        dict(
            text=_("Press Start to train"),
            showarrow=False,
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.5,
            font=dict(size=figures.font_size(large) + 2, color="#555555"),
        )
    ]


def _curve(c: Curves, y: np.ndarray, name: str, colour: int, dash: str, large: bool) -> dict[str, Any]:
    return dict(
        type="scatter",
        x=c.array("sequences"),
        y=y,
        name=name,
        mode="lines",
        line=dict(color=figures.colour(colour), dash=dash, width=2.8 if large else 2.2),
    )


def _runs(run: Curves, a: Curves | None) -> list[tuple[Curves, str, int, str]]:
    """(curves, legend name, colour, dash): run A dashed underneath, the current run solid on top."""
    out = [(a, a.label, A_COLOUR, "dash")] if a is not None and len(a) else []
    name = f"B: {run.label}" if out else _("this run: {label}").format(label=run.label)
    return out + [(run, name, RUN_COLOUR, "solid")]


def loss_chart(run: Curves, a: Curves | None, *, loss_name: str, large: bool) -> Chart:
    """Mean sequence loss between two reports against sequences seen (log scale)."""
    data = [
        _curve(c, _positive(c.array("loss")), name, col, dash, large) for c, name, col, dash in _runs(run, a)
    ]
    lay = figures.layout(
        title=_("Training loss"),
        x=_(X_TITLE),
        y=_("mean {loss} per sequence").format(loss=loss_name),
        large=large,
        uirevision=UIREVISIONS["loss"],
        legend=len(data) > 1,
    )
    _fixed_margins(lay, large)
    lay["yaxis"].update(_log_axis(*(d["y"] for d in data)))
    if not len(run):
        _empty(lay, large)
    fig = figures.make_figure(dict(data=data, layout=lay))
    alt = (
        _(
            "Log-scale line chart of the training loss ({loss}) against {x}, run {a} dashed under the current run."
        )
        if a is not None and len(a)
        else _("Log-scale line chart of the training loss ({loss}) against {x}.")
    ).format(loss=loss_name, x=_(X_TITLE), a=a.label if a is not None else "")
    return fig, alt


def criterion_chart(
    run: Curves, a: Curves | None, *, required: int, reduced: bool, large: bool, fixed_set: bool = False
) -> Chart:
    """Current streak of correct sequences as a fraction of the streak the criterion asks for (with a
    fixed-set criterion: the fraction of the set right at the last check)."""
    data = [_curve(c, c.array("fraction"), name, col, dash, large) for c, name, col, dash in _runs(run, a)]
    if fixed_set:
        what = _("all {n} fixed-set sequences right").format(n=f"{required:,}")
        title, y_title = _("Pass criterion: {what}").format(what=what), _("right at the last check / all")
    else:
        what = (_("{n} correct in a row (REDUCED)") if reduced else _("{n} correct in a row")).format(
            n=f"{required:,}"
        )
        title, y_title = _("Pass criterion: streak / {what}").format(what=what), _("streak / required")
    lay = figures.layout(
        title=title,
        x=_(X_TITLE),
        y=y_title,
        large=large,
        uirevision=UIREVISIONS["criterion"],
        legend=len(data) > 1,
    )
    _fixed_margins(lay, large)
    lay["yaxis"]["range"] = [-0.03, 1.1]
    lay["shapes"] = [
        dict(
            type="line",
            xref="paper",
            x0=0,
            x1=1,
            yref="y",
            y0=1,
            y1=1,
            line=dict(color=figures.colour(2), width=2, dash="dot"),
        )
    ]
    lay["annotations"] = [
        dict(
            text=_("criterion met"),
            showarrow=False,
            xref="paper",
            x=0,
            xanchor="left",
            yref="y",
            y=1,
            yanchor="top",
            font=dict(color=figures.colour(2)),
        )
    ]
    if not len(run):
        _empty(lay, large)
    fig = figures.make_figure(dict(data=data, layout=lay))
    alt = (
        _(
            "Line chart of the fraction of the fixed set's sequences right at the last check ({what}), against "
            "{x}."
        )
        if fixed_set
        else _("Line chart of the current streak of correct sequences as a fraction of {what}, against {x}.")
    ).format(what=what, x=_(X_TITLE))
    return fig, alt


def grad_chart(run: Curves, *, large: bool) -> Chart:
    """Norm of the last update's gradient per parameter group (log scale)."""
    dashes = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
    data = [
        dict(
            type="scatter",
            x=run.array("sequences"),
            y=_positive(values),
            name=_(group),
            mode="lines",
            line=dict(color=figures.colour(i), dash=dashes[i % len(dashes)], width=2.5 if large else 2),
        )
        for i, (group, values) in enumerate(run.grads.items())
    ]
    lay = figures.layout(
        title=_("Gradient norm per parameter group"),
        x=_(X_TITLE),
        y=_("‖gradient‖ of the last update"),
        large=large,
        uirevision=UIREVISIONS["grads"],
        legend=True,
    )
    _fixed_margins(lay, large)
    lay["yaxis"].update(_log_axis(*(d["y"] for d in data)))
    if not len(run):
        _empty(lay, large)
    fig = figures.make_figure(dict(data=data, layout=lay))
    groups = ", ".join(_(g) for g in run.grads) or _("none yet")  # the core's group names, translated
    return fig, _(
        "Log-scale line chart of the gradient norm per parameter group ({groups}) against {x}."
    ).format(groups=groups, x=_(X_TITLE))


def probe_panels(
    variant: str,
    block_size: int,
    probe: ProbeTrace,
    unit: int,
    unit_label: str,
    large: bool,
    symbols: tuple[str, ...] | None = None,
) -> list[Chart]:
    """Gate activations, cell states and outputs vs targets of the network on the probe sequence.

    Reuses the Step page's panels (same layout, same meaning) with this page's titles and
    uirevisions; the probe is generated once per run, so its length never changes mid-run.
    """
    data = {
        "xs": probe.xs,
        "internals": probe.internals,
        "outputs": probe.outputs,
        "targets": probe.targets,
        "mask": probe.mask,
        "symbols": symbols,
    }
    panels = run_panels.step_panels(variant, block_size, data, unit, unit_label, None, large)[1:]
    out = []
    for (fig, alt), slot in zip(panels, ("gates", "states", "outputs")):
        title = _("{title} — probe sequence").format(title=fig.layout.title.text)
        fig.layout.title.text, fig.layout.uirevision = title, UIREVISIONS[slot]
        _fixed_margins(fig.layout, large)
        alt = alt.split(", values ")[0].rstrip(".") + "."  # heat maps: no changing numbers
        out.append(
            (
                fig,
                alt.replace("Line chart: ", "Line chart on the fixed probe sequence: ").replace(
                    "Heat map: ", "Heat map on the fixed probe sequence: "
                ),
            )
        )
    return out


def gate_readout(variant: str, block_size: int, probe: ProbeTrace, unit: int) -> str:
    """What the gate chart shows now, in numbers computed from the probe run (a caption that
    cannot contradict the chart): each gate's range and the step where it is most open."""
    v = variant_record(variant)
    if not v.gates:
        return ""
    idx = unit // block_size if v.bias_unit == "block" else unit
    parts = []
    for name, label in v.gates:
        if name in probe.internals:
            a = probe.internals[name][:, 0, idx]
            parts.append(
                _("{gate} {lo} – {hi} (most open, {hi}, at step {step})").format(
                    gate=_(label), lo=f"{a.min():.2f}", hi=f"{a.max():.2f}", step=int(np.argmax(a)) + 1
                )
            )
    return _("On the probe now: {gates}.").format(gates="; ".join(parts))


def outputs_caption(n_out: int, symbols: tuple[str, ...] | None) -> str:
    """The outputs chart's caption, matching how it is drawn (lines for few outputs, a heat map for many)."""
    if n_out > run_panels.MANY:
        rows = (
            _(" (rows: one per symbol, {symbols})").format(symbols=" ".join(symbols))
            if symbols
            else _(" (rows: output units)")
        )
        return _(
            "Heat map of the outputs on the probe sequence{rows}; × marks each target of 1 at the steps "
            "that carry one. Training makes the × cells bright and the rest dark."
        ).format(rows=rows)
    return _(
        "Outputs on the probe sequence (lines) against the targets (×) at the steps that carry one: "
        "training pulls the lines onto the crosses."
    )
