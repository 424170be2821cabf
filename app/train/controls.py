"""Train and watch: the sidebar (network, task, training, biases, seed, paper presets), the
buttons' callbacks and the run they act on (a new run when the settings change)."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from app import i18n
from app.i18n import N_, _
from app.i18n.core_errors import translate
from app.train import live_run, live_state
from app.train import settings as train_settings
from app.train.settings import PAGE, SCHEMA, SPEC
from app.ui import actions, classlink, controls, form, state, task_controls
from lstm_core.training import PRESETS
from lstm_core.variants import variant as variant_record

NO_PRESET = "—"


# ----------------------------------------------------------------------------- callbacks
def apply_preset() -> None:
    """Preset selectbox: fill every control with the paper's values (the seed is kept)."""
    key = state.wkey(PAGE, "preset")
    name = st.session_state.get(key)
    if name in PRESETS:
        p = PRESETS[name]
        try:
            values, notes = train_settings.preset_values(name, SCHEMA["seed"].read(PAGE))
        except ValueError as e:  # a preset this page cannot express: say so, change nothing
            state.flash(
                PAGE,
                _("The preset {title} cannot be loaded here: {why}. Your settings are unchanged.").format(
                    title=_(p.title), why=translate(e)
                ),
            )
        else:
            kept = [n for n in values if classlink.is_locked(PAGE, n)]  # a class link's locks hold
            SCHEMA.apply(PAGE, {n: v for n, v in values.items() if n not in kept})
            if kept:
                notes.append(_("The controls your teacher locked keep the teacher's values."))
            state.flash(
                PAGE,
                _("Loaded the preset **{title}** ({paper}). Paper: {reported} {notes}").format(
                    title=_(p.title), paper=_(p.paper), reported=_(p.reported), notes=" ".join(notes)
                ),
                kind="success",
            )
    st.session_state[key] = NO_PRESET  # choosing the same preset again works again


def press(action: str) -> None:
    """A button's callback (before the script runs): the presses as the browser saw them
    (``app/ui/actions.py``), or, from a client without the witness script, the action the button was drawn
    with."""
    fresh = actions.claim(PAGE)
    if fresh is None:
        act(action)
    for seen in fresh or ():
        act(str(seen.get("action")), seen.get("run"))


def witnessed() -> None:
    """The witness's callback: presses the browser sent again that no button callback claimed."""
    for seen in actions.claim(PAGE) or ():
        act(str(seen.get("action")), seen.get("run"))


def act(action: str, meant_for: str | None = None) -> None:
    """Start / Pause / Resume / Stop / Start again / Keep as A / Clear A / Back to the previous run. Each
    says what it does to the run the user saw ("pause the run that is running"): applied twice, it changes
    nothing more. A press meant for a run that is no longer shown is refused, with a message."""
    s = live_state.get()
    run = s.run
    s.touched()  # a click (idle pause; the page may not rerun)
    s.notice = None
    if meant_for is not None and (run is None or run.name != meant_for) and action not in ("clear_a",):
        s.notice = _(
            "That press was meant for a run that is no longer shown, so nothing was changed. "
            "The buttons now act on the run on screen."
        )
        return
    if action == "again":
        s.restart = True
    elif action == "clear_a":
        s.run_a = None
    elif action == "back":
        back_to_previous(s)
    elif run is not None:
        if action == "keep_a":
            if len(run.curves):  # pressed before the first point: nothing to keep yet
                s.run_a = live_run.keep_as_a(run)
        elif action in ("start", "pause", "stop"):
            {"start": live_run.start, "pause": live_run.pause, "stop": live_run.stop}[action](run)


def back_to_previous(s: live_state.TrainState) -> None:
    """ "Back to the previous run": the run a "Start again" replaced comes back with its settings (paused
    or as it ended); the one it replaces becomes the previous run in turn when it trained at all."""
    previous, run = s.previous, s.run
    if previous is None:
        return
    s.previous = None
    if run is not None:
        live_run.pause(run)
        if run.sequences:
            s.previous = run
    s.run = previous
    values = {n: v for n, v in previous.settings.items() if not classlink.is_locked(PAGE, n)}
    SCHEMA.apply(PAGE, values)  # the sidebar shows the settings the run was trained with
    s.full_run = True  # the sidebar is outside the live part: the whole page redraws


# ----------------------------------------------------------------------------- controls
def training_group(variant: str) -> None:
    f = SCHEMA.fields
    controls.algorithm_control(SPEC, variant)
    if SCHEMA["algorithm"].read(PAGE) == "tbptt":
        f["k"].render(PAGE)
    for name in ("lr", "momentum"):  # %g: 1e-05 and 0.9999 must be readable, not "0.00" / "1.00"
        fld = f[name]
        st.number_input(
            _(fld.label),
            fld.lo,
            fld.hi,
            step=fld.step,
            format="%g",
            key=state.wkey(PAGE, name),
            help=_(fld.help),
            persist_state=form.PERSIST,
            disabled=classlink.is_locked(PAGE, name),
        )
    form.render_fields(PAGE, SCHEMA, ["clip_value", "clip_norm", "batch"])
    replace(f["budget"], help=_(f["budget"].help).format(most=f"{train_settings.TRAIN_MAX_BUDGET:,}")).render(
        PAGE
    )
    f["streak"].render(PAGE)
    form.reset_button(
        PAGE,
        SCHEMA,
        "train",
        lambda: train_settings.TRAIN_NAMES,
        lambda: train_settings.paper_train_values(SCHEMA["task"].read(PAGE), SCHEMA["variant"].read(PAGE)),
    )


def sidebar() -> None:
    with st.sidebar:
        texts = {NO_PRESET: N_("Choose a paper experiment…"), **{n: p.title for n, p in PRESETS.items()}}
        st.selectbox(
            _("Paper preset"),
            (NO_PRESET, *PRESETS),
            key=state.wkey(PAGE, "preset"),
            format_func=i18n.labels(texts),
            on_change=apply_preset,
            help=_(
                "Fills every control below with the paper's network, task and "
                "training settings (your seed is kept)."
            ),
        )
        with st.expander(_("Network"), expanded=True):
            variant = controls.model_group(SPEC)
            if "input_to_output" in variant_record(variant).options:
                SCHEMA["input_to_output"].render(PAGE)
            SCHEMA["out_bias"].render(PAGE)
        with st.expander(_("Task"), expanded=True):
            task_controls.task_group(PAGE, SCHEMA, allow_typed=False, hide=("streak",))
        with st.expander(_("Training"), expanded=True):
            training_group(variant)
        with st.expander(_("Gate biases")):
            controls.bias_group(SPEC, variant)
        with st.expander(_("Seed")):
            controls.seed_group(SPEC)


def current_run(values: dict, s: live_state.TrainState) -> live_run.LiveRun:
    """The run to show: the session's run, or a new one for "Start again" or when nothing was trained yet.

    A run that trained is never replaced by a setting change (nothing the user did asked to throw it
    away): it stays on screen, paused if it was running, and the page says that "Start a new run" uses
    the new settings (``superseded``). Setting them back carries on with it. "Start again" keeps the run
    it replaces as ``s.previous`` ("Back to the previous run")."""
    key = train_settings.effective_key(values)
    run, restart = s.run, s.restart
    s.restart = False
    if run is not None and not restart:
        if run.key == key:
            return run
        if run.sequences:
            train_settings.build_trainer(values)  # the new settings are checked now, not at the next Start
            if run.active:
                live_run.pause(run)
                state.flash(
                    PAGE,
                    _("The settings changed, so this run was paused: it was trained with the earlier ones."),
                    kind="info",
                )
            return run
    status = "running" if restart or (run is not None and run.active) else "idle"
    new = live_run.new_run(
        train_settings.build_trainer(values), key, train_settings.summary(values), status, settings=values
    )
    if restart and run is not None and run.sequences:
        s.previous = run
    return new


def superseded(run: live_run.LiveRun, values: dict) -> bool:
    """True when the settings on screen are no longer the ones ``run`` was built from."""
    try:
        return run.key != train_settings.effective_key(values)
    except ValueError:  # settings the page refuses: the run shown is still the last good one
        return True
