"""Slow motion through one timestep: the operations inside one step of an LSTM cell, one at a time.

net inputs → gate activations → cell input → CEC update → squashing → output gate → output.

``stages(cfg, snap)`` splits the step's equation rows (the family module's ``stages``, with the
recorded numbers) into those operations; ``hidden(cfg, snap, op)`` blanks every value not computed yet, so the
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
from app.cells import families
from app.cells.common import Row, output_row
from app.i18n import N_, _
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
# Diagram boxes (``canvas.Box.key``) each operation works on.
HIGHLIGHT = {
    0: {"input gate", "forget gate", "cell input", "net"},
    1: {"input gate", "forget gate"},
    2: {"cell input"},
    3: {"state"},
    4: {"squash"},
    5: {"output gate"},
    6: {"output"},
}


def supported(cfg: lc.ModelConfig) -> bool:
    """A gated cell (its family module has ``stages``)."""
    return families.of(cfg).stages is not None


def hidden(cfg: lc.ModelConfig, snap: dict[str, Any], op: int) -> dict[str, Any]:
    """``snap`` with the values not yet computed after operation ``op`` set to NaN (drawn as "?")."""
    family, out = families.of(cfg), dict(snap)
    for stage, names in family.AFTER.items():
        if stage > op:
            out.update({n: math.nan for n in names if n in out})
    now, before = family.CARRIED
    if op < 3 and before in out:  # before the update the carousel still holds s(t−1)
        out[now] = out[before]
    return out


def stages(cfg: lc.ModelConfig, s: dict[str, Any]) -> list[list[Row]]:
    """The step's equations grouped by operation (one list of rows per entry of ``OPS``)."""
    return families.of(cfg).stages(cfg, s, output_row(cfg, s))


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
SERVER_OPS = "step-server-ops"  # Streamlit's own operation buttons, hidden where the browser draws its own


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
    ps["op_seq"] = ps.get("op_seq", 0) + 1  # the server chose the operation: the browser's shows it


def switch(cfg: lc.ModelConfig, where: Any = st) -> bool:
    """The slow-motion switch (presenting, the page draws it in its one row of controls)."""
    return where.toggle(
        _("Slow motion"),
        key=ON_KEY,
        persist_state=form.PERSIST,
        disabled=not supported(cfg),
        help=_(
            "One operation at a time inside a timestep: net inputs → gate activations → "
            "cell input → CEC update → squashing → output gate → output (LSTM cells)."
        ),
    )


def controls_row(
    cfg: lc.ModelConfig,
    t: int,
    T: int,
    playing: bool,
    set_cursor: Callable[[int], None],
    with_switch: bool = True,
    browser: Callable[[Any, int], None] | None = None,
) -> int | None:
    """The slow-motion switch (unless drawn elsewhere: ``with_switch``) and its Back / Next operation
    buttons; the operation to show, or None (switched off, playing, or a cell without gates to go
    through). Nothing is drawn when the switch is elsewhere and off. ``browser(where, op)`` draws the
    browser's own buttons beside Streamlit's (``app.step.scrub.ops``: it hides these where it runs)."""
    if not with_switch and not (st.session_state.get(ON_KEY) and supported(cfg)):
        return None
    left, right = st.columns([1.5, 5.5], vertical_alignment="center")
    on = switch(cfg, left) if with_switch else bool(st.session_state.get(ON_KEY))
    if not on or not supported(cfg):
        return None
    if playing:
        right.caption(_("Pause to go through a step one operation at a time."))
        return None
    ps = state.page_state(PAGE)
    if ps.get("op_t") != t:  # a new timestep (Forward, the slider): start at its first operation
        ps["op"], ps["op_t"] = 0, t
        ps["op_seq"] = ps.get("op_seq", 0) + 1
    op = min(max(int(ps.get("op", 0)), 0), len(OPS) - 1)
    with right.container(key=SERVER_OPS):  # Streamlit's own (a page run without the browser's script)
        b1, b2, info = st.columns([1.2, 1.7, 2.6], vertical_alignment="center")
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
    if browser is not None:
        browser(right, op)
    return op
