"""Step through a cell: one sequence through one network, replayed a timestep at a time.

Pipeline: controls -> one cached ``lc.forward`` over the whole sequence -> a cursor moved by
play / step buttons in a fragment -> diagram, equations and charts at the cursor. (The core's
tests prove ``model.step`` one step at a time equals ``forward``, so replaying the recorded run
is the same as stepping the cell.)
"""

from __future__ import annotations

import streamlit as st

from app import i18n
from app.cells import families
from app.i18n import _
from app.step import slowmo, upload
from app.step.player import PLAY_KEY, PLAY_LABELS, is_playing, on_play_change, player, unit_picker
from app.step.settings import PAGE, SCHEMA, SPEC, compute
from app.ui import controls, export, keys, state, task_controls
from app.ui.page_frame import Frame, page_frame


def page() -> None:
    """The page: controls -> cached run -> player fragment -> export/import."""
    large = state.display_options()
    with page_frame(SPEC) as frame:  # a teacher's locks, before any widget
        _content(frame, large)


def _content(frame: Frame, large: bool) -> None:
    st.title(_("Step through a cell"))
    state.intro(
        _(upload.INTRO)
        if upload.chosen()
        else _(
            "Pick a cell and an input sequence, then play it or step one timestep at a time: the "
            "diagram shades each gate by how open it is, the equations show this step's numbers. "
            "The network is untrained; its first settings use milder gate biases (−1, −2) and larger "
            "weights (±1) than the adding experiment (−3, −6 and ±0.1, which leave an untrained cell "
            "almost still) — *Reset to paper defaults* under Network and under Gate biases puts the paper's back."
        )
    )
    src, byo = _sidebar()
    frame.banner()
    values = SCHEMA.read(PAGE)
    if src == "uploaded" and byo is None:
        return
    outcome = state.keep_good(
        PAGE,
        "byo" if byo else "run",
        (lambda: upload.compute(byo, values["seed"])) if byo else (lambda: compute(values)),
    )
    state.report(outcome)
    if outcome.value is None:
        return
    cfg, data = outcome.value
    _playback(cfg, data, large, preview=byo is None)
    if byo is not None:  # the uploaded network's error flow; links and exports carry settings, not weights
        upload.extras(byo, data, large)
        return
    if not state.presenting():
        frame.share_panel(SCHEMA.read(PAGE))
    export.io_panel(
        PAGE,
        SCHEMA,
        csv=lambda: export.traces_csv(data["outputs"], data["internals"], data["targets"], data["mask"]),
        csv_name=f"gatelab-{cfg.variant}-traces.csv",
        doc_name=f"gatelab-step-{cfg.variant}.json",
        doc=export.config_document(PAGE, cfg, SCHEMA.read(PAGE)),
    )


def _sidebar() -> tuple[str, object]:
    """The sidebar's controls; (where the network comes from, the uploaded network or None)."""
    byo = None  # an uploaded PyTorch model replaces the network and input settings (app/step/upload.py)
    with st.sidebar:
        with st.expander(_("Network"), expanded=True):
            src = upload.source()
            if src == "uploaded":
                byo = upload.network_group()
            else:
                variant = controls.model_group(SPEC)
        with st.expander(_("Input sequence"), expanded=True):
            if byo is not None:
                upload.input_group(byo)
            elif src == "built":
                task_controls.task_group(PAGE, SCHEMA)
            else:
                st.caption(_("Upload a model first."))
        if src == "built":
            with st.expander(_("Gate biases"), expanded=True):
                controls.bias_group(SPEC, variant)
        with st.expander(_("Seed")):
            controls.seed_group(SPEC)
    return src, byo


def _playback(cfg, data: dict, large: bool, preview: bool) -> None:
    """Play / Pause, the speed, the player fragment (its timer set while playing) and the keys."""
    T = data["xs"].shape[0]
    labels = families.unit_labels(cfg)
    t_key, unit_key = state.wkey(PAGE, "t"), state.wkey(PAGE, "unit")
    st.session_state[t_key] = min(max(int(st.session_state.get(t_key, 1)), 1), T)
    st.session_state[unit_key] = min(int(st.session_state.get(unit_key, 0)), len(labels) - 1)
    # Play/Pause is a value widget, not a button: a click is a new value that cannot get lost when
    # it races a timer tick (button triggers could, seen under load), and it reruns the whole
    # page, which is what changes the fragment's timer.
    st.session_state.setdefault(PLAY_KEY, "pause")
    armed = state.page_state(PAGE)["armed"] = is_playing() and st.session_state[t_key] < T
    # Presenting, every control above the diagram fits two rows (this one and the player's transport
    # row), labels kept for screen readers only, so the diagram is whole on a 1366 × 768 projector
    # (tests/e2e/test_presenter_browser.py); the block picker and slow motion's switch come up here.
    presenting = state.presenting()
    shown = "collapsed" if presenting else "visible"
    if presenting:
        c_play, c_speed, c_unit, c_slow = st.columns([1.3, 1.6, 1.9, 1.3], vertical_alignment="center")
    else:
        c_play, c_speed = st.columns([1, 3], vertical_alignment="bottom")
    c_play.segmented_control(
        _("Playback"),
        ["play", "pause"],
        format_func=i18n.labels(PLAY_LABELS),
        key=PLAY_KEY,
        required=True,
        on_change=on_play_change,
        args=(T,),
        label_visibility=shown,
    )
    speed = SCHEMA["speed"].render(PAGE, c_speed, label_visibility=shown)
    if presenting:
        unit_picker(labels, c_unit, label_visibility="collapsed")
        slowmo.switch(cfg, c_slow)
    st.fragment(player, run_every=1.0 / speed if armed else None)(
        cfg, data, labels, large, speed, preview=preview
    )
    # The browser's transport (app/step/scrub.py) first; Streamlit's own where it has none (keys.py
    # clicks the first one drawn).
    forward = ".gatelab-scrub .gl-fwd, " + keys.button(state.wkey(PAGE, "fwd"))
    back = ".gatelab-scrub .gl-back, " + keys.button(state.wkey(PAGE, "back"))
    clicker = state.presenting()  # a presenter clicker sends PageDown / PageUp (else they scroll)
    keys.bind(
        {
            "Space": ".gatelab-scrub .gl-play, " + keys.other_option(PLAY_KEY),  # Play <-> Pause
            "ArrowRight": forward,
            "ArrowLeft": back,
            "Home": ".gatelab-scrub .gl-reset, " + keys.button(state.wkey(PAGE, "reset")),
            **({"PageDown": forward, "PageUp": back} if clicker else {}),
        }
    )
    keys.help_panel(
        [
            _("**→ / ← / PageDown / PageUp** — one step forward / back (a presenter clicker too)")
            if clicker
            else _("**→ / ←** — one step forward / back"),
            _("**Space** — play / pause"),
            _("**Home** — back to the first step"),
        ]
    )


# Streamlit runs a page as __main__; tests import the module for its settings without drawing.
if __name__ == "__main__":
    page()
