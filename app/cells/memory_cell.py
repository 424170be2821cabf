"""The LSTM-1997 family (lstm1997, lstm2000, lstm2002; ``lstm_core/cells/memory_cell.py``) on the
page: cells in blocks, gates per block, the constant error carousel (CEC), optional forget gate,
output gate and peepholes."""

from __future__ import annotations

from typing import Any

import lstm_core as lc
from app.cells.canvas import Canvas, gated_cell
from app.cells.common import G_TEX, H_TEX, Row, num, values
from app.i18n import _

GATES = ("net_ig", "y_ig", "net_og", "y_og", "net_fg", "y_fg")  # one value per block
CELLS = ("net_c", "g", "s_prev", "s", "h", "y_c")  # one value per cell
# Slow motion: the values that exist only after each operation (``slowmo.OPS``), and the state
# that still holds its previous value before the update.
AFTER = {1: ("y_ig", "y_fg"), 2: ("g",), 3: ("s",), 4: ("h",), 5: ("y_og",), 6: ("y_c", "y")}
CARRIED = ("s", "s_prev")
# Gradient flow page: its theory line is exact (drawn solid beside the measured flow)
THEORY_IS_BOUND = False


def unit_labels(cfg: lc.ModelConfig) -> list[str]:
    return [
        _("block {block}, cell {cell}").format(block=c // cfg.block_size + 1, cell=c % cfg.block_size + 1)
        for c in range(cfg.n_cells)
    ]


def snapshot(cfg: lc.ModelConfig, at: dict[str, Any], unit: int, params: dict | None) -> dict[str, Any]:
    k = unit // cfg.block_size
    out: dict[str, Any] = {name: float(at[name][k]) for name in GATES if name in at}
    return out | values(at, unit, CELLS) | {"block": k}


def _peepholes(cfg: lc.ModelConfig) -> tuple[str, str, str]:
    """The input, forget and output gates' peephole terms (lstm2002), else empty."""
    if not cfg.has_peepholes:
        return ("", "", "")
    return (r" + u^{in} s_c(t-1)", r" + u^{\varphi} s_c(t-1)", r" + u^{out} s_c(t)")


def lines(cfg: lc.ModelConfig, s: dict[str, Any]) -> list[Row]:
    n, g, h = num, G_TEX[cfg.cell_input], H_TEX[cfg.cell_output]
    p_in, p_fg, p_out = _peepholes(cfg)
    rows = [
        (
            r"y^{in}(t)",
            rf"\sigma(W^{{in}} z(t) + b^{{in}}{p_in})",
            rf"\sigma({n(s['net_ig'])}) = {n(s['y_ig'])}",
        )
    ]
    if "y_fg" in s:
        rows.append(
            (
                r"y^{\varphi}(t)",
                rf"\sigma(W^{{\varphi}} z(t) + b^{{\varphi}}{p_fg})",
                rf"\sigma({n(s['net_fg'])}) = {n(s['y_fg'])}",
            )
        )
    rows.append((rf"{g}(net_c(t))", rf"{g}(W_c\, z(t) + b_c)", rf"{g}({n(s['net_c'])}) = {n(s['g'])}"))
    rows.append(_cec(s, g))
    if "y_og" not in s:
        return rows + [(r"y^c(t)", rf"{h}(s_c(t))", rf"{h}({n(s['s'])}) = {n(s['y_c'])}")]
    return rows + [
        (
            r"y^{out}(t)",
            rf"\sigma(W^{{out}} z(t) + b^{{out}}{p_out})",
            rf"\sigma({n(s['net_og'])}) = {n(s['y_og'])}",
        ),
        (r"y^c(t)", rf"y^{{out}} {h}(s_c(t))", rf"{n(s['y_og'])}\times {n(s['h'], True)} = {n(s['y_c'])}"),
    ]


def _cec(s: dict[str, Any], g: str) -> Row:
    """The carousel's update: weight 1 on s_c(t−1) (1997), or the forget gate's (2000 on)."""
    n = num
    if "y_fg" in s:
        return (
            r"s_c(t)",
            rf"y^{{\varphi}} s_c(t-1) + y^{{in}} {g}",
            rf"{n(s['y_fg'])}\times{n(s['s_prev'], True)} + {n(s['y_ig'])}\times{n(s['g'], True)}"
            rf" = {n(s['s'])}",
        )
    return (
        r"s_c(t)",
        rf"1\cdot s_c(t-1) + y^{{in}} {g}",
        rf"{n(s['s_prev'])} + {n(s['y_ig'])}\times{n(s['g'], True)} = {n(s['s'])}",
    )


def note(cfg: lc.ModelConfig) -> str:
    # Whole messages (a sentence glued to another reads wrong in Chinese), English unchanged.
    if not cfg.has_forget_gate:
        if not cfg.output_gate:
            return _(
                "The constant error carousel (CEC): s_c(t−1) enters with weight 1, so error flowing "
                "back along the cell state is never shrunk. Without an output gate, y^c = h(s)."
            )
        return _(
            "The constant error carousel (CEC): s_c(t−1) enters with weight 1, so error flowing "
            "back along the cell state is never shrunk."
        )
    if cfg.has_peepholes:
        return _(
            "The forget gate scales the carousel: each step back along s, the error is multiplied by "
            "y^φ(t). Peepholes let the gates see the cell state."
        )
    return _(
        "The forget gate scales the carousel: each step back along s, the error is multiplied by y^φ(t)."
    )


def draw(c: Canvas, cfg: lc.ModelConfig, s: dict[str, Any]) -> None:
    labels = {
        "in": "net_c(t)",
        "g": "g",
        "g_key": "g",
        "ig": "y_ig",
        "state": _("s_c (cell)"),
        "state_key": "s",
        "h": "h(s)",
        "h_key": "h",
        "out": "y_c(t)",
        "out_key": "y_c",
    }
    gated_cell(c, s, labels, s.get("y_fg"), s.get("y_og"), cfg.has_peepholes)


def stages(cfg: lc.ModelConfig, s: dict[str, Any], out_row: Row) -> list[list[Row]]:
    """Slow motion: the step's equations grouped by operation (``slowmo.OPS``)."""
    n, g, h = num, G_TEX[cfg.cell_input], H_TEX[cfg.cell_output]
    p_in, p_fg, p_out = _peepholes(cfg)
    nets = [(r"net_{in}(t)", r"W^{in} z(t) + b^{in}" + p_in, n(s["net_ig"]))]
    acts = [(r"y^{in}(t)", r"\sigma(net_{in})", n(s["y_ig"]))]
    if "y_fg" in s:
        nets.append(
            (
                r"net_{\varphi}(t)",
                r"W^{\varphi} z(t) + b^{\varphi}" + p_fg,
                n(s["net_fg"]),
            )
        )
        acts.append((r"y^{\varphi}(t)", r"\sigma(net_{\varphi})", n(s["y_fg"])))
    nets.append((r"net_c(t)", r"W_c\, z(t) + b_c", n(s["net_c"])))
    if "y_og" in s:
        gate = [
            (
                r"net_{out}(t)",
                r"W^{out} z(t) + b^{out}" + p_out,
                n(s["net_og"]),
            ),
            (r"y^{out}(t)", r"\sigma(net_{out})", n(s["y_og"])),
        ]
        yc = (
            r"y^c(t)",
            rf"y^{{out}} {h}(s_c(t))",
            rf"{n(s['y_og'])}\times {n(s['h'], True)} = {n(s['y_c'])}",
        )
    else:
        gate = [(r"y^{out}(t)", r"1 \text{ (no output gate)}", "1")]
        yc = (r"y^c(t)", rf"{h}(s_c(t))", n(s["y_c"]))
    return [
        nets,
        acts,
        [(rf"{g}(net_c(t))", rf"{g}(net_c)", n(s["g"]))],
        [_cec(s, g)],
        [(rf"{h}(s_c(t))", rf"{h}(s_c(t))", n(s["h"]))],
        gate,
        [yc, out_row],
    ]
