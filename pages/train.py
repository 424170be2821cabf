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

import streamlit as st

import lstm_core as lc
from app.i18n import N_, _
from app.train import class_cells, live_run, live_state
from app.train import settings as train_settings
from app.train.controls import current_run, sidebar, superseded
from app.train.settings import PAGE, SCHEMA
from app.train.status import task_notes
from app.train.view import live_part
from app.ui import export, keys, limits, state
from app.ui.page_frame import Frame, page_frame


def page() -> None:
    large = state.display_options()
    class_cells.take_cell()  # class mode: a handed-out cell becomes this student's class link
    with page_frame(train_settings.SPEC) as frame:  # a teacher's locks, before any widget
        _content(frame, large)


def _content(frame: Frame, large: bool) -> None:
    st.title(_("Train and watch"))
    state.intro(
        _(
            "Pick a cell, a task from the papers and a training algorithm (or a paper preset), press Start and "
            "watch the loss fall, the pass criterion fill up and the gates learn on a fixed probe sequence."
        )
    )
    sidebar()
    frame.banner()
    values = SCHEMA.read(PAGE)
    if not state.presenting():
        frame.share_panel(values)
    s = live_state.get()
    outcome = state.keep_good(PAGE, "run", lambda: current_run(values, s))
    state.show_flashes(PAGE)
    state.report(outcome, N_("these training settings"))
    if outcome.value is None:
        return
    run = s.run = outcome.value
    class_cells.attach(run)  # a student's run of their cell reports itself to the class
    s.superseded = superseded(run, values)  # kept on screen; the next Start uses the new settings
    s.touched()  # a whole-page run = the user did something (idle pause)
    go = keys.button(state.wkey(PAGE, "go"))  # a click the press witness sees (app/ui/actions.py)
    if not state.presenting():  # above the buttons: the live part below is rerun by each click
        task_notes(run)
        keys.help_panel([_("**Space** — start, pause and resume training")])
        keys.bind({"Space": go})
    else:  # a presenter clicker sends PageDown / PageUp (some → / ←): each starts, pauses and resumes
        keys.bind({"Space": go, "PageDown": go, "PageUp": go, "ArrowRight": go, "ArrowLeft": go})
    st.fragment(live_part)(large)
    class_cells.panel(values, tuple(lc.variant(values["variant"]).gate_biases))  # the teacher's class sweep
    if state.presenting():  # below the curves: on a projector they come first (1366 × 768)
        keys.help_panel(
            [
                _(
                    "**Space / PageDown / PageUp / → / ←** — start, pause and resume training (a presenter "
                    "clicker too)"
                )
            ]
        )
    shown = run.settings or values  # the export describes the run on screen
    export.io_panel(
        PAGE,
        SCHEMA,
        csv=lambda: live_run.history_csv(run),
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


if __name__ == "__main__":
    page()
