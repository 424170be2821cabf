"""Train and watch: the sidebar (network, task, training, biases, seed, paper presets), the
buttons' callbacks and the run they act on (a new run when the settings change)."""
from __future__ import annotations

import time
from dataclasses import replace

import streamlit as st

from app import i18n
from app.i18n import N_, _
from app.i18n.core_errors import translate
from app.ui import classlink, controls, form, state
from app.train import settings as train_settings
from app.train import run as train_run
from lstm_core.variants import variant as variant_record
from lstm_core.training import PRESETS

PAGE, SCHEMA, DEFAULTS = train_settings.PAGE, train_settings.SCHEMA, train_settings.DEFAULTS
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
        except ValueError as e:       # a preset this page cannot express: say so, change nothing
            state.flash(PAGE, _("The preset {title} cannot be loaded here: {why}. Your settings are unchanged.").format(
                title=_(p.title), why=translate(str(e))))
        else:
            kept = [n for n in values if classlink.is_locked(PAGE, n)]      # a class link's locks hold
            SCHEMA.apply(PAGE, {n: v for n, v in values.items() if n not in kept})
            if kept:
                notes.append(_("The controls your teacher locked keep the teacher's values."))
            state.flash(PAGE, _("Loaded the preset **{title}** ({paper}). Paper: {reported} {notes}").format(
                title=_(p.title), paper=_(p.paper), reported=_(p.reported), notes=" ".join(notes)), kind="success")
    st.session_state[key] = NO_PRESET          # choosing the same preset again works again


def press(action: str) -> None:
    """Start / Pause / Resume / Stop / Start again / Keep as A / Clear A (before the script runs)."""
    ps = state.page_state(PAGE)
    run = ps.get("run")
    ps["last_interaction"] = time.monotonic()     # a click (idle pause; the page may not rerun)
    if action == "again":
        ps["restart"] = True
    elif action == "clear_a":
        ps.pop("run_a", None)
    elif run is not None:
        if action == "keep_a":
            if len(run.curves):            # pressed before the first point: nothing to keep yet
                ps["run_a"] = train_run.keep_as_a(run)
        else:
            {"start": train_run.start, "pause": train_run.pause, "stop": train_run.stop}[action](run)


# ----------------------------------------------------------------------------- controls
def training_group(variant: str) -> None:
    f = SCHEMA.fields
    controls.algorithm_control(PAGE, SCHEMA, variant)
    if SCHEMA["algorithm"].read(PAGE) == "tbptt":
        f["k"].render(PAGE)
    for name in ("lr", "momentum"):     # %g: 1e-05 and 0.9999 must be readable, not "0.00" / "1.00"
        fld = f[name]
        st.number_input(_(fld.label), fld.lo, fld.hi, step=fld.step, format="%g", key=state.wkey(PAGE, name),
                        help=_(fld.help), persist_state=form.PERSIST, disabled=classlink.is_locked(PAGE, name))
    form.render_fields(PAGE, SCHEMA, ["clip_value", "clip_norm", "batch"])
    replace(f["budget"], help=_(f["budget"].help).format(most=f"{train_settings.TRAIN_MAX_BUDGET:,}")).render(PAGE)
    f["streak"].render(PAGE)
    form.reset_button(PAGE, SCHEMA, "train", lambda: train_settings.TRAIN_NAMES,
                          lambda: train_settings.paper_train_values(SCHEMA["task"].read(PAGE), SCHEMA["variant"].read(PAGE)))


def sidebar() -> None:
    with st.sidebar:
        texts = {NO_PRESET: N_("Choose a paper experiment…"), **{n: p.title for n, p in PRESETS.items()}}
        st.selectbox(_("Paper preset"), (NO_PRESET, *PRESETS), key=state.wkey(PAGE, "preset"),
                     format_func=i18n.labels(texts),
                     on_change=apply_preset, help=_("Fills every control below with the paper's network, task and "
                                                    "training settings (your seed is kept)."))
        with st.expander(_("Network"), expanded=True):
            variant = controls.model_group(PAGE, SCHEMA)
            if "input_to_output" in variant_record(variant).options:
                SCHEMA["input_to_output"].render(PAGE)
            SCHEMA["out_bias"].render(PAGE)
        with st.expander(_("Task"), expanded=True):
            controls.task_group(PAGE, SCHEMA, allow_typed=False, hide=("streak",))
        with st.expander(_("Training"), expanded=True):
            training_group(variant)
        with st.expander(_("Gate biases")):
            controls.bias_group(PAGE, SCHEMA, variant)
        with st.expander(_("Seed")):
            controls.seed_group(PAGE, SCHEMA)


def current_run(values: dict, ps: dict) -> train_run.LiveRun:
    """The session's run, or a new one when the settings changed or "Start again" was pressed."""
    key = train_settings.effective_key(values)
    run, restart = ps.get("run"), ps.pop("restart", False)
    if run is not None and run.key == key and not restart:
        return run
    status = "running" if restart or (run is not None and run.active) else "idle"
    new = train_run.new_run(train_settings.build_trainer(values), key, train_settings.summary(values), status)
    if run is not None and run.sequences and not restart:
        what = _("The settings changed, so training restarted from scratch with them.") if status == "running" \
            else _("The settings changed, so the next run starts from scratch with them (press Start).")
        state.flash(PAGE, what + _(" (“Keep as run A” first keeps a run's curves to compare with the next one.)"),
                    kind="info")
    return new
