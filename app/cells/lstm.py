"""The modern (PyTorch-style) LSTM (``lstm_core/cells/lstm.py``) on the page: gates i, f, g, o per
unit, the cell state c scaled by the forget gate each step."""

from __future__ import annotations

from typing import Any

import lstm_core as lc
from app.cells.canvas import Canvas, gated_cell
from app.cells.common import Row, num, plain_unit_labels, values
from app.i18n import _

STATE = ("i", "f", "g", "o", "c_prev", "c", "tanh_c", "h")
# Slow motion: what exists only after each operation (``slowmo.OPS``); h is this cell's output.
AFTER = {1: ("i", "f"), 2: ("g",), 3: ("c",), 4: ("tanh_c",), 5: ("o",), 6: ("h", "y")}
CARRIED = ("c", "c_prev")
# Gradient flow page: its theory line is exact (drawn solid beside the measured flow)
THEORY_IS_BOUND = False

unit_labels = plain_unit_labels


def snapshot(cfg: lc.ModelConfig, at: dict[str, Any], unit: int, params: dict | None) -> dict[str, Any]:
    H = cfg.n_hidden  # the net inputs are recorded packed, gate by gate (i, f, g, o)
    nets = {f"net_{gate}": float(at["net"][i * H + unit]) for i, gate in enumerate("ifgo")}
    return nets | values(at, unit, STATE)


def _cell_row(s: dict[str, Any]) -> Row:
    n = num
    return (
        r"c(t)",
        r"f\,c(t-1) + i\,g",
        rf"{n(s['f'])}\times{n(s['c_prev'], True)} + {n(s['i'])}\times{n(s['g'], True)} = {n(s['c'])}",
    )


def _h_row(s: dict[str, Any]) -> Row:
    return (r"h(t)", r"o \tanh(c(t))", rf"{num(s['o'])}\times{num(s['tanh_c'], True)} = {num(s['h'])}")


def lines(cfg: lc.ModelConfig, s: dict[str, Any]) -> list[Row]:
    n = num
    rows = [
        (
            f"{gate}(t)",
            rf"{fn}(W_{gate} x + U_{gate} h(t-1) + b_{gate})",
            rf"{fn}({n(s['net_' + gate])}) = {n(s[gate])}",
        )
        for gate, fn in (("i", r"\sigma"), ("f", r"\sigma"), ("g", r"\tanh"), ("o", r"\sigma"))
    ]
    return rows + [_cell_row(s), _h_row(s)]


def note(cfg: lc.ModelConfig) -> str:
    return _("c(t) is the carousel, scaled by the forget gate f(t) each step.")


def draw(c: Canvas, cfg: lc.ModelConfig, s: dict[str, Any]) -> None:
    labels = {
        "in": "W_g x + U_g h",
        "g": "g = tanh",
        "g_key": "g",
        "ig": "i",
        "state": _("c (cell)"),
        "state_key": "c",
        "h": "tanh(c)",
        "h_key": "tanh_c",
        "out": "h(t)",
        "out_key": "h",
    }
    gated_cell(c, s, labels, s["f"], s["o"], False)


def stages(cfg: lc.ModelConfig, s: dict[str, Any], out_row: Row) -> list[list[Row]]:
    """Slow motion: the step's equations grouped by operation (``slowmo.OPS``)."""
    n = num
    nets = [(rf"net_{g}(t)", rf"W_{g} x + U_{g} h(t-1) + b_{g}", n(s[f"net_{g}"])) for g in "ifgo"]
    return [
        nets[:3],
        [(r"i(t)", r"\sigma(net_i)", n(s["i"])), (r"f(t)", r"\sigma(net_f)", n(s["f"]))],
        [(r"g(t)", r"\tanh(net_g)", n(s["g"]))],
        [_cell_row(s)],
        [(r"\tanh(c(t))", r"\tanh(c(t))", n(s["tanh_c"]))],
        [nets[3], (r"o(t)", r"\sigma(net_o)", n(s["o"]))],
        [_h_row(s), out_row],
    ]
