"""The panels of one recorded run: input, gate activations, cell states and outputs against targets
over time (Step page player and upload, Train page probe).

Same conventions as ``app.ui.figures`` (whose ``lines`` and ``heatmap`` draw them): arrays in,
``(go.Figure, alt text)`` out, no model math here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from app.i18n import _
from app.ui.figures import Chart, Series, heatmap, lines
from lstm_core.variants import Variant
from lstm_core.variants import variant as variant_record

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


def _gate_panel(
    v: Variant, ins: dict, t: np.ndarray, unit: int, block_size: int, unit_label: str, kw: dict[str, Any]
) -> Chart:
    """The gates of the chosen unit's block (or unit), or the net inputs of a cell without gates."""
    if not v.gates:
        return channels(
            t,
            ins["net"][:, 0, :],
            title=_("Net inputs (this cell has no gates)"),
            prefix="net",
            uirevision="step-gates",
            **kw,
        )
    per_block = v.bias_unit == "block"  # gates are shared by the cells of a block
    idx = unit // block_size if per_block else unit
    who = _("block {n}").format(n=idx + 1) if per_block else unit_label
    series = [Series(_(label), ins[name][:, 0, idx]) for name, label in v.gates if name in ins]
    return lines(
        t,
        series,
        title=_("Gate activations — {who}").format(who=who),
        y=_("openness"),
        y_range=(-0.03, 1.03),
        uirevision="step-gates",
        **kw,
    )


def _outputs_heatmap(t: np.ndarray, data: dict, symbols: Sequence[str] | None, kw: dict[str, Any]) -> Chart:
    """Many outputs as a heat map, the targets that are 1 marked with crosses."""
    y, tg, mask = data["outputs"][:, 0, :], data.get("targets"), data.get("mask")
    marks = None
    if tg is not None:
        tt, jj = np.nonzero((tg[:, 0, :] > 0.5) & (mask[:, 0, None] > 0))
        marks = (t[tt], jj)
    return heatmap(
        t,
        y,
        title=_("Outputs y(t) (× = target 1)"),
        rows=[f"y {s}" for s in symbols] if symbols else [f"y{i + 1}" for i in range(y.shape[1])],
        marks=marks,
        uirevision="step-outputs",
        **kw,
    )


def _outputs_lines(t: np.ndarray, data: dict, symbols: Sequence[str] | None, kw: dict[str, Any]) -> Chart:
    """Few outputs as lines, each target as crosses in its output's colour where the mask is on."""
    y, tg, mask = data["outputs"][:, 0, :], data.get("targets"), data.get("mask")
    out_names = list(symbols) if symbols else [str(i + 1) for i in range(y.shape[1])]
    series = [
        Series(f"y{n}" if not symbols else f"y {n}", y[:, i], colour_index=i) for i, n in enumerate(out_names)
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
        _("Outputs y(t) and targets (×)") if tg is not None else _("Outputs y(t) (typed input: no targets)")
    )
    return lines(t, series, title=title, y="y", uirevision="step-outputs", **kw)


def step_panels(
    variant: str, block_size: int, data: dict, unit: int, unit_label: str, cursor: int, large: bool
) -> list[Chart]:
    """Input, gate activations, cell states and outputs-vs-targets of one recorded run."""
    ins, xs = data["internals"], data["xs"][:, 0, :]
    t = np.arange(1, xs.shape[0] + 1)
    kw = dict(cursor=cursor, large=large)
    symbols = data.get("symbols")
    v = variant_record(variant)
    name, title = v.state
    outputs = _outputs_heatmap if data["outputs"].shape[2] > MANY else _outputs_lines
    return [
        channels(
            t,
            xs,
            title=_("Input x(t) — one unit per symbol") if symbols else _("Input x(t)"),
            prefix="x",
            uirevision="step-input",
            names=symbols,
            **kw,
        ),
        _gate_panel(v, ins, t, unit, block_size, unit_label, kw),
        channels(t, ins[name][:, 0, :], title=_(title), prefix=name, uirevision="step-states", **kw),
        outputs(t, data, symbols, kw),
    ]
