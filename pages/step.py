"""Step through a cell: one sequence through one network, replayed a timestep at a time.

Pipeline: controls -> one cached ``lc.forward`` over the whole sequence -> a cursor moved by
play / step buttons in a fragment -> diagram, equations and charts at the cursor. (The core's
tests prove ``model.step`` one step at a time equals ``forward``, so replaying the recorded run
is the same as stepping the cell.)
"""
from __future__ import annotations

import json

import numpy as np
import streamlit as st

import lstm_core as lc
from app.step import diagram, equations
from app.ui import controls, export, figures, limits, state
from app.ui.controls import Field

PAGE = "step"
SCHEMA = controls.Schema(
    controls.model_fields() + controls.bias_fields() + controls.task_fields("adding")
    + [controls.seed_field(),
       Field("speed", "Speed (steps per second)", "float", 4.0, limits.MIN_SPEED, limits.MAX_SPEED, 0.5,
             widget="slider"),
       Field("t", "Timestep", "int", 1, 1, limits.STEP_MAX_T, widget="none"),
       Field("unit", "Unit", "int", 0, 0, limits.MAX_BLOCKS * limits.MAX_BLOCK_SIZE, widget="none")])
# Page defaults: the 1997 LSTM on a short adding-problem sequence, biases as in that experiment.
DEFAULTS = SCHEMA.defaults(**{**controls.paper_values(SCHEMA, "lstm1997", "adding"), "adding.T": 20})


@st.cache_data(max_entries=64, show_spinner=False)
def make_inputs(source: str, task: str, settings_json: str, typed: str, seed: int) -> dict:
    """The input sequence (and targets) from a task with a seed, or parsed from typed text."""
    if source == "typed":
        xs = export.parse_sequence(typed)
        return dict(xs=xs[:, None, :], targets=None, mask=None, n_out=1, act="sigmoid", loss="mse")
    tk = lc.get_task(task, **json.loads(settings_json))
    limits.check_task(tk, limits.STEP_MAX_T)
    b = tk.generate(np.random.default_rng(seed), batch=1)
    T = int(b.lengths[0])
    return dict(xs=b.xs[:T], targets=b.targets[:T], mask=b.mask[:T], n_out=tk.n_out,
                act=tk.output_activation, loss=tk.loss)


@st.cache_data(max_entries=64, show_spinner=False)
def run_model(model_json: str, source: str, task: str, settings_json: str, typed: str, seed: int) -> dict:
    data = dict(make_inputs(source, task, settings_json, typed, seed))
    model = lc.build(lc.ModelConfig.from_json(model_json))
    run = lc.forward(model, data["xs"])
    data.update(outputs=run.outputs, internals=run.internals,
                params={k: model.params[k] for k in ("u", "v") if k in model.params})
    return data


def compute(values: dict) -> tuple[lc.ModelConfig, dict]:
    task = values["task"]
    args = (values["source"], task, json.dumps(controls.task_settings(values, task), sort_keys=True),
            values["typed"], values["seed"])
    inp = make_inputs(*args)
    cfg = export.model_config(values, inp["xs"].shape[-1], inp["n_out"], inp["act"], inp["loss"])
    return cfg, run_model(cfg.to_json(), *args)


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
    grid = st.columns(2) + st.columns(2)
    for i, (fig, alt) in enumerate(charts):
        figures.show(fig, alt, state.wkey(PAGE, f"panel{i}"), grid[i])


def page() -> None:
    """The page: controls -> cached run -> player fragment -> export/import."""
    large = state.display_options()
    controls.start_page(PAGE, SCHEMA, DEFAULTS)
    st.title("Step through a cell")
    st.caption("Pick a cell and an input sequence, then play it or step one timestep at a time: the "
               "diagram shades each gate by how open it is, the equations show this step's numbers.")
    with st.sidebar:
        with st.expander("Network", expanded=True):
            variant = controls.model_group(PAGE, SCHEMA)
        with st.expander("Input sequence", expanded=True):
            controls.task_group(PAGE, SCHEMA)
        with st.expander("Gate biases", expanded=True):
            controls.bias_group(PAGE, SCHEMA, variant)
        with st.expander("Seed"):
            controls.seed_group(PAGE, SCHEMA)

    values = SCHEMA.read(PAGE)
    outcome = state.keep_good(PAGE, "run", lambda: compute(values))
    state.report(outcome)
    if outcome.value is None:
        controls.finish_page(PAGE, values, DEFAULTS)
        return
    cfg, data = outcome.value
    T = data["xs"].shape[0]
    labels = equations.unit_labels(cfg)
    t_key, unit_key = state.wkey(PAGE, "t"), state.wkey(PAGE, "unit")
    st.session_state[t_key] = min(max(int(st.session_state.get(t_key, 1)), 1), T)
    st.session_state[unit_key] = min(int(st.session_state.get(unit_key, 0)), len(labels) - 1)

    # Play/Pause is a value widget, not a button: a click is a new value that cannot get lost when
    # it races a timer tick (button triggers could, seen under load), and it reruns the whole
    # page, which is what changes the fragment's timer.
    st.session_state.setdefault(PLAY_KEY, "pause")
    armed = state.page_state(PAGE)["armed"] = is_playing() and st.session_state[t_key] < T
    c_play, c_speed = st.columns([1, 3], vertical_alignment="bottom")
    c_play.segmented_control("Playback", ["play", "pause"], format_func=PLAY_LABELS.get, key=PLAY_KEY,
                             required=True, on_change=on_play_change, args=(T,))
    speed = SCHEMA["speed"].render(PAGE, c_speed)
    ps = state.page_state(PAGE)
    ps["panels"] = panel_key(st.session_state[t_key], st.session_state[unit_key])
    st.fragment(player, run_every=1.0 / speed if armed else None)(cfg, data, labels, large)
    panels(cfg, data, labels, large)

    export.io_panel(PAGE, SCHEMA, csv=lambda: export.traces_csv(data["outputs"], data["internals"],
                                                                data["targets"], data["mask"]),
                    csv_name=f"gatelab-{cfg.variant}-traces.csv", doc_name=f"gatelab-step-{cfg.variant}.json",
                    doc=export.config_document(PAGE, cfg, SCHEMA.read(PAGE)))
    controls.finish_page(PAGE, SCHEMA.read(PAGE), DEFAULTS)


# Streamlit runs a page as __main__; tests import the module for its settings without drawing.
if __name__ == "__main__":
    page()
