"""Slow motion through one timestep: the operations inside one step of an LSTM cell, one at a time.

net inputs → gate activations → cell input → CEC update → squashing → output gate → output.

``stages(cfg, snap)`` splits the step's equation rows (``equations``, with the recorded numbers)
into those operations; ``hidden(cfg, snap, op)`` blanks every value not computed yet, so the
diagram shows only what exists after operation ``op``; ``HIGHLIGHT`` names the diagram boxes each
operation works on (``diagram.cell_diagram(..., highlight=...)``). No recomputation: every number
is the one the core recorded for this step.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import streamlit as st

import lstm_core as lc
from app.i18n import N_, _
from app.step.equations import G_TEX, H_TEX, OUT_TEX, Row, num
from app.ui import actions, form, state, theme

OPS = (
    N_("net inputs"),
    N_("gate activations"),
    N_("cell input"),
    N_("CEC update"),
    N_("squashing"),
    N_("output gate"),
    N_("output"),
)
FAMILIES = ("memory_cell", "lstm")
# Diagram boxes (``diagram.Box.key``) each operation works on.
HIGHLIGHT = {
    0: {"input gate", "forget gate", "cell input", "net"},
    1: {"input gate", "forget gate"},
    2: {"cell input"},
    3: {"state"},
    4: {"squash"},
    5: {"output gate"},
    6: {"output"},
}
# Snapshot values that exist only after an operation (memory cell names, modern LSTM names).
AFTER = {
    1: ("y_ig", "y_fg", "i", "f"),
    2: ("g",),
    3: ("s", "c"),
    4: ("h", "tanh_c"),
    5: ("y_og", "o"),
    6: ("y_c", "y"),
}


def supported(cfg: lc.ModelConfig) -> bool:
    return cfg.record.family in FAMILIES


def hidden(cfg: lc.ModelConfig, snap: dict[str, Any], op: int) -> dict[str, Any]:
    """``snap`` with the values not yet computed after operation ``op`` set to NaN (drawn as "?")."""
    out = dict(snap)
    lstm = cfg.record.family == "lstm"
    for stage, names in AFTER.items():
        if stage <= op:
            continue
        for n in names:
            if lstm and n == "h":  # the modern LSTM's h is its output (stage 6), not squashing
                continue
            if n in out:
                out[n] = math.nan
        if lstm and stage == 6:
            out["h"] = math.nan
    if op < 3:  # before the update the carousel still holds s(t−1)
        for now, before in (("s", "s_prev"), ("c", "c_prev")):
            if before in out:
                out[now] = out[before]
    return out


def stages(cfg: lc.ModelConfig, s: dict[str, Any]) -> list[list[Row]]:
    """The step's equations grouped by operation (one list of rows per entry of ``OPS``)."""
    n = num
    fo = OUT_TEX[cfg.output_activation]
    out_row = (
        r"y_1(t)",
        rf"{fo}(W_{{out}}\,\mathrm{{hidden}}(t) + b_{{out}})_1",
        rf"{fo}({n(s['net_y'])}) = {n(s['y'])}" if cfg.output_activation != "softmax" else n(s["y"]),
    )
    if cfg.record.family == "lstm":
        nets = [(rf"net_{g}(t)", rf"W_{g} x + U_{g} h(t-1) + b_{g}", n(s[f"net_{g}"])) for g in "ifgo"]
        return [
            nets[:3],
            [(r"i(t)", r"\sigma(net_i)", n(s["i"])), (r"f(t)", r"\sigma(net_f)", n(s["f"]))],
            [(r"g(t)", r"\tanh(net_g)", n(s["g"]))],
            [
                (
                    r"c(t)",
                    r"f\,c(t-1) + i\,g",
                    rf"{n(s['f'])}\times{n(s['c_prev'], True)} + {n(s['i'])}"
                    rf"\times{n(s['g'], True)} = {n(s['c'])}",
                )
            ],
            [(r"\tanh(c(t))", r"\tanh(c(t))", n(s["tanh_c"]))],
            [nets[3], (r"o(t)", r"\sigma(net_o)", n(s["o"]))],
            [(r"h(t)", r"o \tanh(c(t))", rf"{n(s['o'])}\times{n(s['tanh_c'], True)} = {n(s['h'])}"), out_row],
        ]
    g, h = G_TEX[cfg.cell_input], H_TEX[cfg.cell_output]
    peep = cfg.has_peepholes
    forget = "y_fg" in s
    nets = [
        (r"net_{in}(t)", r"W^{in} z(t) + b^{in}" + (r" + u^{in} s_c(t-1)" if peep else ""), n(s["net_ig"]))
    ]
    acts = [(r"y^{in}(t)", r"\sigma(net_{in})", n(s["y_ig"]))]
    if forget:
        nets.append(
            (
                r"net_{\varphi}(t)",
                r"W^{\varphi} z(t) + b^{\varphi}" + (r" + u^{\varphi} s_c(t-1)" if peep else ""),
                n(s["net_fg"]),
            )
        )
        acts.append((r"y^{\varphi}(t)", r"\sigma(net_{\varphi})", n(s["y_fg"])))
    nets.append((r"net_c(t)", r"W_c\, z(t) + b_c", n(s["net_c"])))
    if forget:
        cec = (
            r"s_c(t)",
            rf"y^{{\varphi}} s_c(t-1) + y^{{in}} {g}",
            rf"{n(s['y_fg'])}\times{n(s['s_prev'], True)} + {n(s['y_ig'])}\times{n(s['g'], True)} = {n(s['s'])}",
        )
    else:
        cec = (
            r"s_c(t)",
            rf"1\cdot s_c(t-1) + y^{{in}} {g}",
            rf"{n(s['s_prev'])} + {n(s['y_ig'])}\times{n(s['g'], True)} = {n(s['s'])}",
        )
    if "y_og" in s:
        gate = [
            (
                r"net_{out}(t)",
                r"W^{out} z(t) + b^{out}" + (r" + u^{out} s_c(t)" if peep else ""),
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
        [cec],
        [(rf"{h}(s_c(t))", rf"{h}(s_c(t))", n(s["h"]))],
        gate,
        [yc, out_row],
    ]


def latex(rows_by_op: list[list[Row]], op: int) -> str:
    """Every operation's equations up to ``op`` with their numbers, ``op``'s own in colour, the later
    ones as formulas only (greyed): the equation lines advance in step with the diagram."""
    parts = []
    # the current operation in vermillion, the later ones greyed: both readable (WCAG AA, 4.5:1)
    # on the light and on the dark background
    c, grey = (
        (r"\color{#F0883E}", r"\color{#9AA0A8}") if theme.dark() else (r"\color{#B84F00}", r"\color{#666666}")
    )
    for k, rows in enumerate(rows_by_op):
        for lhs, formula, numbers in rows:
            head, sep, result = numbers.rpartition(" = ")
            if k < op:  # done: the formula and its result (the substitution was shown before)
                parts.append(rf"{lhs} &= {formula} = {result if sep else numbers}")
            elif k == op:  # now: the formula, then this step's numbers (long ones over two lines)
                lines = (
                    [head, result] if sep and len(re.sub(r"\\[a-zA-Z]+", "x", numbers)) > 36 else [numbers]
                )
                parts.append(
                    rf"{c}{{{lhs}}} &{c}{{= {formula}}}" + "".join(rf" \\ &{c}{{= {x}}}" for x in lines)
                )
            else:  # still to come: the formula only, greyed
                parts.append(rf"{grey}{{{lhs}}} &{grey}{{= {formula}}}")
    return r"\small\begin{aligned} " + r" \\[4pt] ".join(parts) + r" \end{aligned}"


# ----------------------------------------------------------------------------- the controls
PAGE = "step"
ON_KEY = state.wkey(PAGE, "slowmo")


def _move(delta: int, t: int, T: int, set_cursor: Callable[[int], None]) -> None:
    """Next / previous operation; past the last (first) one, on to the next (previous) timestep."""
    ps = state.page_state(PAGE)
    op = ps.get("op", 0) + delta
    if op >= len(OPS):
        if t >= T:
            return
        t, op = t + 1, 0
        set_cursor(t)
    elif op < 0:
        if t <= 1:
            return
        t, op = t - 1, len(OPS) - 1
        set_cursor(t)
    ps["op"], ps["op_t"] = op, t


def controls_row(
    cfg: lc.ModelConfig, t: int, T: int, playing: bool, set_cursor: Callable[[int], None]
) -> int | None:
    """The slow-motion switch and its Back / Next operation buttons; the operation to show, or None
    (switched off, playing, or a cell without gates to go through)."""
    left, b1, b2, info = st.columns([1.5, 1.2, 1.7, 2.6], vertical_alignment="center")
    on = left.toggle(
        _("Slow motion"),
        key=ON_KEY,
        persist_state=form.PERSIST,
        disabled=not supported(cfg),
        help=_(
            "One operation at a time inside a timestep: net inputs → gate activations → "
            "cell input → CEC update → squashing → output gate → output (LSTM cells)."
        ),
    )
    if not on or not supported(cfg):
        return None
    if playing:
        info.caption(_("Pause to go through a step one operation at a time."))
        return None
    ps = state.page_state(PAGE)
    if ps.get("op_t") != t:  # a new timestep (Forward, the slider): start at its first operation
        ps["op"], ps["op_t"] = 0, t
    op = min(max(int(ps.get("op", 0)), 0), len(OPS) - 1)
    actions.button(
        b1,
        PAGE,
        _("Previous"),
        state.wkey(PAGE, "op_back"),
        _move,
        (-1, t, T, set_cursor),
        icon=":material/undo:",
        width="stretch",
        disabled=op == 0 and t <= 1,
        help=_("Back one operation (from the first, to the previous timestep's last)."),
    )
    actions.button(
        b2,
        PAGE,
        _("Next operation"),
        state.wkey(PAGE, "op_next"),
        _move,
        (1, t, T, set_cursor),
        icon=":material/redo:",
        type="primary",
        width="stretch",
        disabled=op == len(OPS) - 1 and t >= T,
    )
    info.markdown(_("**Operation {k} of {n}: {name}**").format(k=op + 1, n=len(OPS), name=_(OPS[op])))
    return op
