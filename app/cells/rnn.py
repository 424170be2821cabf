"""The plain RNN (``lstm_core/cells/rnn.py``) on the page: h(t) = f(W x + U h(t−1) + b), no gates."""

from __future__ import annotations

from typing import Any

import lstm_core as lc
from app.cells.canvas import Canvas, ungated_unit
from app.cells.common import Row, num, plain_unit_labels, values
from app.i18n import _

AFTER = None  # no slow motion: no gates to go through
CARRIED = None
# Gradient flow page: its theory line Π‖J‖ is only an upper bound (loose for many units), drawn dotted
THEORY_IS_BOUND = True

unit_labels = plain_unit_labels


def snapshot(cfg: lc.ModelConfig, at: dict[str, Any], unit: int, params: dict | None) -> dict[str, Any]:
    return values(at, unit, ("net", "h_prev", "h"))


def lines(cfg: lc.ModelConfig, s: dict[str, Any]) -> list[Row]:
    f = r"\tanh" if cfg.activation == "tanh" else r"\sigma"
    return [
        (r"net(t)", r"W x(t) + U h(t-1) + b", num(s["net"])),
        (r"h(t)", rf"{f}(net(t))", rf"{f}({num(s['net'])}) = {num(s['h'])}"),
    ]


def note(cfg: lc.ModelConfig) -> str:
    return _("No gates: h(t−1) is squashed through f again every step, so information and error fade.")


def draw(c: Canvas, cfg: lc.ModelConfig, s: dict[str, Any]) -> None:
    ungated_unit(c, s, "rnn", _("no gates: h(t−1) is squashed through f again every step"))


stages = None
