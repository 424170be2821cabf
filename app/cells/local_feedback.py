"""Local feedback (``lstm_core/cells/local_feedback.py``, the 1992 study) on the page: static units,
net-input feedback units (self-loop u on the net input) and activation feedback units (self-loop v
on the activation)."""

from __future__ import annotations

import math
from typing import Any

import lstm_core as lc
from app.cells.canvas import Canvas, ungated_unit
from app.cells.common import Row, num
from app.i18n import N_, _

AFTER = None  # no slow motion: no gates to go through
CARRIED = None
# Gradient flow page: its theory line is exact (drawn solid beside the measured flow)
THEORY_IS_BOUND = False
NOTES = {
    "static": N_("no gates and no memory: only the current input counts"),
    "net_fb": N_("no gates: only the self-loop u carries the past"),
    "act_fb": N_("no gates: only the self-loop v carries the past"),
}


def unit_labels(cfg: lc.ModelConfig) -> list[str]:
    kinds = (
        [N_("static")] * cfg.n_static
        + [N_("net-input feedback")] * cfg.n_net_fb
        + [N_("activation feedback")] * cfg.n_act_fb
    )
    return [_("unit {unit} ({kind})").format(unit=j + 1, kind=_(k)) for j, k in enumerate(kinds)]


def snapshot(cfg: lc.ModelConfig, at: dict[str, Any], unit: int, params: dict | None) -> dict[str, Any]:
    """The unit's net input and output; a feedback unit also its previous value and loop weight."""
    ns, nn = cfg.n_static, cfg.n_net_fb
    out: dict[str, Any] = {"net": float(at["net"][unit]), "h": float(at["h"][unit])}
    if ns <= unit < ns + nn:
        j = unit - ns
        w = float(params["u"][j]) if params else math.nan
        return out | {"kind": "net_fb", "prev": float(at["a_net_prev"][j]), "w": w}
    if unit >= ns + nn:
        j = unit - ns - nn
        w = float(params["v"][j]) if params else math.nan
        return out | {"kind": "act_fb", "prev": float(at["h_act_prev"][j]), "w": w}
    return out | {"kind": "static"}


def lines(cfg: lc.ModelConfig, s: dict[str, Any]) -> list[Row]:
    n, kind = num, s["kind"]
    h = (r"h(t)", r"f(a) = \tanh(a/2)", rf"\tanh({n(s['net'] / 2)}) = {n(s['h'])}")
    if kind == "static":
        return [(r"a(t)", r"w\cdot x(t) + b", n(s["net"])), h]
    rest = s["net"] - s["w"] * s["prev"]  # the input's part of the net input
    lhs, formula = (
        (r"\hat a(t)", r"u\,\hat a(t-1) + w\cdot x(t) + b")
        if kind == "net_fb"
        else (r"\bar a(t)", r"v\,h(t-1) + w\cdot x(t) + b")
    )
    return [(lhs, formula, rf"{n(s['w'])}\times{n(s['prev'], True)} + {n(rest, True)} = {n(s['net'])}"), h]


def note(cfg: lc.ModelConfig) -> str:
    return _("Only self-loops: u (net-input units) or v (activation units) carry the past.")


def draw(c: Canvas, cfg: lc.ModelConfig, s: dict[str, Any]) -> None:
    ungated_unit(c, s, s["kind"], _(NOTES[s["kind"]]))


stages = None
