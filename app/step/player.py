"""Step through a cell: the player (cursor, Play/Pause, Back/Forward/Reset) and the panels.

The player is a fragment that, while playing, advances one timestep per timer tick and redraws
the diagram and equations; the four charts below it are drawn by full runs only (their cursor
returns when playback pauses), so the timer's ticks never re-create them.
"""
from __future__ import annotations

import streamlit as st

import lstm_core as lc
from app.step import diagram, equations
from app.step.settings import DEFAULTS, PAGE, SCHEMA
from app.ui import controls, figures, state

PLAY_KEY = state.wkey(PAGE, "play")
PLAY_LABELS = {"play": ":material/play_arrow: Play", "pause": ":material/pause: Pause"}


def is_playing() -> bool:
    """The user's intent (the Play/Pause switch). Only the user changes it: a value the server
    rewrote could be undone by a timer tick still carrying the old one."""
    return st.session_state.get(PLAY_KEY) == "play"


def on_play_change(T: int) -> None:
    """Play pressed at the end of the sequence: play again from the start."""
    t_key = state.wkey(PAGE, "t")
    if is_playing() and st.session_state.get(t_key, 1) >= T:
        st.session_state[t_key] = 1


def move(delta: int | None, T: int) -> None:
    """Back / Forward (delta) or Reset (None) callback: moves the cursor (playing or not)."""
    t_key = state.wkey(PAGE, "t")
    st.session_state[t_key] = 1 if delta is None else min(max(st.session_state[t_key] + delta, 1), T)


def player(cfg: lc.ModelConfig, data: dict, labels: list[str], large: bool) -> None:
    """Everything that depends on the cursor; run as a fragment (one timestep per timer tick)."""
    t_key, ps = state.wkey(PAGE, "t"), state.page_state(PAGE)
    T = data["xs"].shape[0]
    if is_playing() and st.session_state[t_key] < T:
        st.session_state[t_key] += 1           # one timestep per timer tick
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
    # On a projector (large fonts) the diagram gets the full width and the equations go below it.
    left, right = (st.container(), st.container()) if large else st.columns([1, 1.1])
    fig, alt = diagram.cell_diagram(cfg, snap, labels[unit], t, large)
    figures.show(fig, alt, state.wkey(PAGE, "diagram"), left, config={"displayModeBar": False})
    with right:
        st.markdown(f"**{cfg.variant} equations at step t = {t}** ({labels[unit]})")
        st.latex(equations.latex(equations.lines(cfg, snap)))
        st.caption(equations.note(cfg))
    if not ps.get("armed"):     # while playing, the URL is written by full runs only (no history spam)
        controls.finish_page(PAGE, SCHEMA.read(PAGE), DEFAULTS)
    if ps.get("panels") != panel_key(t, unit):   # a step by hand: redraw the charts' cursor (full run)
        st.rerun()


def panel_key(t: int, unit: int) -> tuple:
    """What the four charts below the player show: no cursor while playing (so the timer's ticks
    leave them alone -- a changed Plotly figure is re-created, which flickers), else the cursor."""
    return (None if state.page_state(PAGE).get("armed") else t, unit)


def panels(cfg: lc.ModelConfig, data: dict, labels: list[str], large: bool) -> None:
    """Input, gates, cell states and outputs, drawn by full runs only."""
    t, unit = st.session_state[state.wkey(PAGE, "t")], st.session_state[state.wkey(PAGE, "unit")]
    cursor, _ = state.page_state(PAGE)["panels"] = panel_key(t, unit)
    # Always one caption line, so starting or pausing playback does not shift the charts.
    st.caption("Playing: the charts' dotted cursor returns when you pause; the diagram and equations "
               "follow every step." if cursor is None else
               f"The dotted line in each chart marks the current step, t = {cursor}.")
    charts = figures.step_panels(cfg.variant, cfg.block_size, data, unit, labels[unit], cursor, large)
    grid = figures.pair(large) + figures.pair(large)
    for i, (fig, alt) in enumerate(charts):
        figures.show(fig, alt, state.wkey(PAGE, f"panel{i}"), grid[i])
