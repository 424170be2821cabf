"""Train and watch in words: the run's progress bar and the one message its state calls for (solved,
at the budget, diverged, paused, queued, …), and the task's notes from the paper."""

from __future__ import annotations

import streamlit as st

from app.i18n import _
from app.train import live_run, live_state
from app.train import settings as train_settings
from app.ui import slots, state, words


def status_box(run: live_run.LiveRun, place: int = 0) -> None:
    """The progress bar (sequences, speed, streak, status) and the one message the run's state calls for."""
    _progress(run, place)
    _message(run, place)


def _progress(run: live_run.LiveRun, place: int) -> None:
    tr = run.trainer
    budget = tr.config.budget
    streak = int(run.last.streak) if run.last is not None else 0
    # What the user gets, by the wall clock (drawing and other users included): the recent speed
    # while running, the average over the run's running time otherwise.
    if run.active:
        speed = _("{rate} sequences/s").format(rate=f"{live_run.wall_rate(run):,.1f}")
    else:
        speed = _("{rate} sequences/s on average").format(rate=f"{live_run.average_rate(run):,.1f}")
    st.progress(
        min(run.sequences / budget, 1.0),
        text=_("**{n}** of {budget} sequences · {speed} · {streak} · {status}").format(
            n=f"{run.sequences:,}",
            budget=f"{budget:,}",
            speed=speed,
            streak=words.streak(streak, tr.required, tr.fixed_set is not None),
            status=words.status_word("queued" if place else run.status),
        ),
    )


def _message(run: live_run.LiveRun, place: int) -> None:
    tr = run.trainer
    msg = words.message(tr)
    # One slot for the message, drawn whether or not there is one: an element appearing above the
    # charts would shift them in the page and the browser would re-create them (losing the zoom).
    box = st.container()
    s = live_state.get()
    superseded = s.superseded
    if s.notice:
        box.warning(s.notice)  # a press refused (app/train/controls.act)
    if superseded:
        box.info(
            _(
                "You changed the settings after this run was started ({label}). It stays on screen with its "
                "curves and export; “Start a new run” trains a new network with the new settings (this one "
                "then stays available with “Back to the previous run”); set the settings back to carry on with "
                "it."
            ).format(label=run.label)
        )
    if run.status == "solved":
        box.success(_("Stopped at the criterion — {message}.").format(message=msg))
    elif run.status == "budget":
        box.warning(
            _(
                "Stopped at the budget — {message}. Raise the budget, or try the paper's settings "
                "(a preset) or another seed."
            ).format(message=msg)
        )
    elif run.status == "diverged":
        box.error(
            _(
                "Training diverged and was stopped cleanly — {message}. The learning rate is {lr}: "
                "a step that large throws the weights so far that the outputs or gradients overflow. The "
                "papers use 0.01 – 1; “clip the gradient norm” (Training) caps every step."
            ).format(message=msg, lr=f"{tr.config.lr:g}")
        )
    elif superseded:
        pass  # said above
    elif run.lost:
        box.error(
            _(
                "The server's training process for this run ended unexpectedly (restarted, or out of memory), "
                "so the run stopped after {n} sequences; its curves and export stay. “Start again” trains a new "
                "network with the current settings."
            ).format(n=f"{run.sequences:,}")
        )
    elif run.status == "stopped":
        box.info(
            _(
                "Stopped by you after {n} sequences; the run stays on screen. “Start again” trains a new network "
                "from scratch with the current settings (this one stays available with “Back to the previous "
                "run”); “Keep as run A” first draws the two together."
            ).format(n=f"{run.sequences:,}")
        )
    elif run.status == "paused":
        box.info(
            _("Paused after {n} sequences — “Resume” carries on exactly where it stopped.").format(
                n=f"{run.sequences:,}"
            )
        )
    elif run.active and place:
        training = slots.load()[0]
        box.info(
            _(
                "The server is busy: {training} runs are training right now (at most {most} at a "
                "time). Your run is queued — position {place} — and starts by itself when a place frees up."
            ).format(training=training, most=slots.capacity(), place=place)
        )
    elif run.status == "idle" and not state.presenting():
        box.info(_("Press **Start**. Until then the probe charts show the untrained network."))


def task_notes(run: live_run.LiveRun) -> None:
    task = run.trainer.task
    with st.expander(
        _("The task: {title} — {paper}").format(title=_(task.title or task.name), paper=_(task.paper))
    ):
        st.markdown(
            _(
                "**Paper setup.** {setup}\n\n**Reported result.** {reported}\n\n**Criterion here.** "
                "{criterion}."
            ).format(setup=_(task.setup), reported=_(task.reported), criterion=words.criterion(run.trainer))
        )
        p = train_settings.paper_preset(task.name, run.trainer.model.config.variant)
        if p is not None:
            st.caption(
                _("The preset “{title}” loads the paper's settings. {notes}").format(
                    title=_(p.title), notes=_(p.notes)
                )
            )
