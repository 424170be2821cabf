"""Train and watch: one network learning a paper task, drawn live.

Pipeline: controls (or a paper preset) -> a ``Trainer`` kept in this session's state ->
the live part (``app.train.view.live_part``, a fragment: the buttons and two timed fragments inside
it; a click on Start or Pause reruns only it) -> a fragment that, while running, trains one chunk
(~0.03 s) per timer tick and redraws the curves -> figure builders in ``app.train.figures``. A
full script run while running also trains one chunk (so AppTest, which does not fire fragment
timers, sees training advance).
Served by ``app/serve.py``, the loss and criterion charts pull their points over the live feed
instead, each pull training a chunk (``app/train/feed.py``); the fragment then only redraws.
Changing a setting never throws a trained run away: it stays on screen (paused if it was running) and
"Start a new run" uses the new settings; "Start again" keeps the run it replaces ("Back to the previous
run"); "Keep as run A" keeps the curves to compare.
"""

from __future__ import annotations

import time

import streamlit as st

from app.i18n import N_, _
from app.train import run as train_run
from app.train import settings as train_settings
from app.train.controls import current_run, sidebar, superseded
from app.train.view import live_part, task_notes
from app.ui import classlink, export, form, keys, limits, state

PAGE, SCHEMA, DEFAULTS = train_settings.PAGE, train_settings.SCHEMA, train_settings.DEFAULTS
GROUPS = train_settings.CLASS_GROUPS


def page() -> None:
    large = state.display_options()
    form.start_page(PAGE, SCHEMA, DEFAULTS)
    classlink.enforce(PAGE, SCHEMA, DEFAULTS, GROUPS)  # a teacher's locks, before any widget
    st.title(_("Train and watch"))
    state.intro(
        _(
            "Pick a cell, a task from the papers and a training algorithm (or a paper preset), press Start and "
            "watch the loss fall, the pass criterion fill up and the gates learn on a fixed probe sequence."
        )
    )
    sidebar()
    classlink.banner(PAGE, SCHEMA, DEFAULTS, GROUPS)
    values = SCHEMA.read(PAGE)
    if not state.presenting():
        classlink.share_panel(PAGE, SCHEMA, values, DEFAULTS, GROUPS)
    ps = state.page_state(PAGE)
    outcome = state.keep_good(PAGE, "run", lambda: current_run(values, ps))
    state.show_flashes(PAGE)
    state.report(outcome, N_("these training settings"))
    if outcome.value is None:
        form.finish_page(PAGE, values, DEFAULTS)
        return
    run = ps["run"] = outcome.value
    ps["superseded"] = superseded(run, values)  # kept on screen; the next Start uses the new settings
    ps["last_interaction"] = time.monotonic()  # a full run = the user did something (idle pause)
    if not state.presenting():  # above the buttons: the live part below is rerun by each click
        task_notes(run)
        keys.help_panel([_("**Space** — start, pause and resume training")])
    keys.bind(
        {"Space": keys.button(state.wkey(PAGE, "go"))}
    )  # a click the press witness sees (app/ui/actions.py)
    st.fragment(live_part)(large)
    shown = run.settings or values  # the export describes the run on screen
    export.io_panel(
        PAGE,
        SCHEMA,
        csv=lambda: train_run.history_csv(run),
        csv_name="gatelab-training-curves.csv",
        csv_label=_("Training curves (CSV)"),
        doc=export.config_document(PAGE, run.trainer.model.config, shown),
        doc_name=f"gatelab-train-{shown['variant']}-{shown['task']}.json",
    )
    if not state.presenting():
        st.caption(
            _(
                "Caps: sequences up to {steps} steps, budget up to {budget} sequences, at most {blocks} blocks "
                "× {cells} cells or {units} units."
            ).format(
                steps=f"{train_settings.TRAIN_MAX_T:,}",
                budget=f"{train_settings.TRAIN_MAX_BUDGET:,}",
                blocks=limits.MAX_BLOCKS,
                cells=limits.MAX_BLOCK_SIZE,
                units=limits.MAX_HIDDEN,
            )
        )
    form.finish_page(PAGE, values, DEFAULTS)


if __name__ == "__main__":
    page()
