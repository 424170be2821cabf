"""The GRU (``lstm_core/cells/gru.py``) on the page: reset gate r, update gate z, candidate n."""

from __future__ import annotations

from typing import Any

import lstm_core as lc
from app.cells.canvas import EDGE, GATE_H, GATE_Y, Box, Canvas
from app.cells.common import Row, num, plain_unit_labels, values
from app.i18n import _

STATE = ("r", "z", "n", "hn", "h_prev", "h")
AFTER = None  # no slow motion: it goes through the operations of an LSTM cell
CARRIED = None
# Gradient flow page: its theory line Π‖J‖ is only an upper bound (loose for many units), drawn dotted
THEORY_IS_BOUND = True

unit_labels = plain_unit_labels


def snapshot(cfg: lc.ModelConfig, at: dict[str, Any], unit: int, params: dict | None) -> dict[str, Any]:
    return values(at, unit, STATE)


def lines(cfg: lc.ModelConfig, s: dict[str, Any]) -> list[Row]:
    n = num
    return [
        (r"r(t)", r"\sigma(W_r x + b_{ir} + U_r h(t-1) + b_{hr})", n(s["r"])),
        (r"z(t)", r"\sigma(W_z x + b_{iz} + U_z h(t-1) + b_{hz})", n(s["z"])),
        (
            r"n(t)",
            r"\tanh(W_n x + b_{in} + r\,(U_n h(t-1) + b_{hn}))",
            rf"\tanh(\ldots + {n(s['r'])}\times{n(s['hn'], True)}) = {n(s['n'])}",
        ),
        (
            r"h(t)",
            r"(1-z)\,n + z\,h(t-1)",
            rf"{n(1 - s['z'])}\times{n(s['n'], True)} + {n(s['z'])}\times{n(s['h_prev'], True)} = {n(s['h'])}",
        ),
    ]


def note(cfg: lc.ModelConfig) -> str:
    return _("The update gate z mixes the old state h(t−1) with the candidate n(t).")


def draw(c: Canvas, cfg: lc.ModelConfig, s: dict[str, Any]) -> None:
    y = 2.3
    c.box(Box(1.2, y, "h(t−1)", s["h_prev"]))
    c.box(Box(3.2, GATE_Y, _("reset<br>gate r"), s["r"], gate=True))
    c.arrow(1.95, y, 4.3, y)
    c.arrow(3.2, GATE_Y - GATE_H / 2, 3.2, y + 0.05)
    c.box(Box(5.1, y, _("candidate<br>n"), s["n"], w=1.6, h=1.3))
    c.box(Box(7.3, GATE_Y, _("update<br>gate z"), s["z"], gate=True))
    c.op(7.3, y, _("mix"))
    c.arrow(5.9, y, 7.02, y)
    c.arrow(7.3, GATE_Y - GATE_H / 2, 7.3, y + 0.3)
    # h(t−1)'s share of the mix, straight from the old state to the mixing point
    c.notes.append(
        dict(x=7.3, y=y - 0.3, ax=1.2, ay=y - 0.5, xref="x", yref="y", axref="x", ayref="y")
        | dict(text="", showarrow=True, arrowhead=2, arrowcolor=EDGE)
    )
    c.text(4.2, 1.2, "z × h(t−1)", size=c.f - 1)
    c.arrow(7.58, y, 8.35, y)
    c.box(Box(9.1, y, "h(t)", s["h"], w=1.3))


stages = None
