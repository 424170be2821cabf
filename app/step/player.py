"""Step through a cell: the player (cursor, Play/Pause, Back/Forward/Reset) and the panels.

The player is a fragment that, while playing, moves the cursor on a timer and redraws the
diagram, the equations and the four charts below them. Playback follows the clock, not the
number of timer ticks: each tick moves at least one step, and as many as ``speed`` steps per
second since Play say are due, so late ticks (a busy server) catch up instead of slowing down. The charts are live
charts (``app.ui.live``): a tick sends only the moved cursor, and the user's zoom stays.
"""
from __future__ import annotations

import math
import time

import streamlit as st

import lstm_core as lc
from app.step import diagram, equations, slowmo
from app.step.settings import DEFAULTS, PAGE, SCHEMA
from app.ui import controls, figures, state

PLAY_KEY = state.wkey(PAGE, "play")
PLAY_LABELS = {"play": ":material/play_arrow: Play", "pause": ":material/pause: Pause"}
SHOWN_MEMORY = 8      # recent cursor values the page sent (a stale timer tick carries one of them)


def is_playing() -> bool:
    """The user's intent (the Play/Pause switch). Only the user changes it: a value the server
    rewrote could be undone by a timer tick still carrying the old one."""
    return st.session_state.get(PLAY_KEY) == "play"


def _set_cursor(t: int) -> None:
    st.session_state[state.wkey(PAGE, "t")] = state.page_state(PAGE)["t"] = t
    state.page_state(PAGE).pop("clock", None)     # playback carries on from the new step


def on_play_change(T: int) -> None:
    """Play pressed at the end of the sequence: play again from the start. Pause: stop on the step
    the browser was showing when it was clicked (the slider's value it sent), not on a step a
    timer tick computed after it."""
    t_key = state.wkey(PAGE, "t")
    if is_playing() and st.session_state.get(t_key, 1) >= T:
        _set_cursor(1)
    elif not is_playing():
        _set_cursor(int(st.session_state.get(t_key, 1)))


def move(delta: int | None, T: int) -> None:
    """Back / Forward (delta) or Reset (None) callback: moves the cursor (playing or not)."""
    t = state.page_state(PAGE).get("t", st.session_state[state.wkey(PAGE, "t")])
    _set_cursor(1 if delta is None else min(max(t + delta, 1), T))


def cursor(widget: int, T: int) -> int:
    """This run's cursor. The page keeps its own (``page_state["t"]``); the slider's value counts
    only when the user moved it. While playing, a timer tick can carry a slider value the browser
    showed a tick or two ago (its request left before the newer step arrived): taking that back
    would make playback stutter backwards, so values the page itself showed recently are not
    mistaken for a move."""
    ps = state.page_state(PAGE)
    t = ps.get("t")
    if t is None or (widget != t and widget not in ps.get("shown", ())):
        t = widget
        ps.pop("clock", None)
    return min(max(int(t), 1), T)


def advance(t: int, T: int, speed: float, now: float, clock: tuple | None) -> tuple[int, tuple]:
    """The playback cursor at a timer tick at time ``now``: one step on, or further if the clock
    says more are due (``speed`` steps per second since the clock's start) — a tick that comes
    late (a busy server) catches up instead of slowing the playback down.

    ``clock`` is (start step, start time, speed, last step shown); it restarts at ``t`` when
    there is none, the speed changed or the cursor was moved by hand (``t`` is not the step it
    last showed). Returns the new step (at most ``T``) and the clock to keep."""
    if clock is None or clock[2] != speed or clock[3] != t:
        clock = (t, now, speed, t)
    t0, since, _, _ = clock
    new = min(T, max(t + 1, t0 + math.floor((now - since) * speed + 1e-9)))
    return new, (t0, since, speed, new)


def player(cfg: lc.ModelConfig, data: dict, labels: list[str], large: bool, speed: float) -> None:
    """Everything that depends on the cursor; run as a fragment (the cursor follows the clock)."""
    t_key, ps = state.wkey(PAGE, "t"), state.page_state(PAGE)
    T = data["xs"].shape[0]
    t = cursor(st.session_state[t_key], T)
    if is_playing() and t < T:
        t, ps["clock"] = advance(t, T, speed, time.monotonic(), ps.get("clock"))
    else:
        ps.pop("clock", None)
    st.session_state[t_key] = ps["t"] = t
    ps["shown"] = (ps.get("shown", ()) + (t,))[-SHOWN_MEMORY:]
    # The timer runs only while playing and not at the end; when that changes, a full rerun
    # re-arms or stops it (the user's Play/Pause switch itself is never rewritten).
    if ps.get("armed") != (is_playing() and st.session_state[t_key] < T):
        st.rerun()
    b1, b2, b3, b4, b5 = st.columns([1, 1.2, 1, 3, 1.3], vertical_alignment="bottom")
    b1.button("Back", key=state.wkey(PAGE, "back"), on_click=move, args=(-1, T), icon=":material/skip_previous:")
    b2.button("Forward", key=state.wkey(PAGE, "fwd"), on_click=move, args=(1, T), icon=":material/skip_next:")
    b3.button("Reset", key=state.wkey(PAGE, "reset"), on_click=move, args=(None, T), icon=":material/replay:")
    if T > 1:
        b4.slider("Timestep", 1, T, key=t_key, persist_state=controls.PERSIST)
    t = st.session_state[t_key]
    b5.metric("Step", f"{t} / {T}")
    if is_playing() and t >= T:
        st.caption("End of the sequence: press Reset or Back to play again from there.")
    unit = st.selectbox("Block / unit shown in the diagram and equations", range(len(labels)),
                        format_func=labels.__getitem__, key=state.wkey(PAGE, "unit"),
                        persist_state=controls.PERSIST)
    snap = equations.snapshot(cfg, data["internals"], t - 1, unit, data["params"])
    op = slowmo.controls_row(cfg, t, T, is_playing(), _set_cursor)
    # On a projector (large fonts) the diagram gets the full width and the equations go below it.
    left, right = (st.container(), st.container()) if large else st.columns([1, 1.1])
    if op is None:
        fig, alt = diagram.cell_diagram(cfg, snap, labels[unit], t, large)
    else:        # slow motion: only what this step has computed so far, the current operation outlined
        fig, alt = diagram.cell_diagram(cfg, slowmo.hidden(cfg, snap, op), labels[unit], t, large,
                                        highlight=frozenset(slowmo.HIGHLIGHT[op]))
    figures.show(fig, alt, state.wkey(PAGE, "diagram"), left, config={"displayModeBar": False})
    with right:
        st.markdown(f"**{cfg.variant} equations at step t = {t}** ({labels[unit]})")
        if op is None:
            st.latex(equations.latex(equations.lines(cfg, snap)))
        else:
            st.latex(slowmo.latex(slowmo.stages(cfg, snap), op))
        st.caption(equations.note(cfg))
    panels(cfg, data, labels, large, t, unit)
    if not ps.get("armed"):     # while playing, the URL is written by full runs only (no history spam)
        controls.finish_page(PAGE, SCHEMA.read(PAGE), DEFAULTS)


def panels(cfg: lc.ModelConfig, data: dict, labels: list[str], large: bool, t: int, unit: int) -> None:
    """Input, gates, cell states and outputs, with a cursor at step ``t``."""
    st.caption(f"The dotted line in each chart marks the current step, t = {t}.")
    charts = figures.step_panels(cfg.variant, cfg.block_size, data, unit, labels[unit], t, large)
    grid = figures.pair(large) + figures.pair(large)
    for i, (fig, alt) in enumerate(charts):
        figures.show(fig, alt, state.wkey(PAGE, f"panel{i}"), grid[i])
