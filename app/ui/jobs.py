"""Long jobs (a bias sweep, a paper reproduction) run one chunk per fragment tick.

A job lives in the page's session state (``state.page_state``), never in a module global, so
every browser tab has its own. ``live`` draws a fragment that, while the job runs, re-executes
every ``EVERY`` seconds (``st.fragment(run_every=...)``), trains for about ``TICK`` seconds
and redraws; when the job ends it triggers one full rerun, which stops the timer and lets the
rest of the page draw the final results. No ``while True`` / ``time.sleep`` loop anywhere.

The work object only needs ``advance(n) -> progress``, ``done`` and ``fraction()``
(``lstm_core.sweeps.sweep.Sweep`` has them; ``TrainerWork`` adapts a ``Trainer``).

Where ``workers.enabled()`` (the Gate Lab server) and the work has a ``trainer``, the chunks train in
a worker process (``Job.remote``, as Train and watch's runs do): the fragment's thread waits for each
chunk without the interpreter lock, so a bias sweep a student runs never holds the other pages up, and
the work's own trainer is the server's copy, kept reading the same (``worker_host.apply``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import streamlit as st

from app.i18n import _
from app.ui import pacing, state, workers

# Measured on 2 loaded cores: a tick's redraw costs 0.1–0.8 s and the next timer rerun starts
# 0.25–0.6 s after it (more under heavy load), so 2 s of training per tick keeps most of the
# wall time training while the progress bar still moves every ~2–3 s and "Stop" answers
# within one tick.
TICK = 2.0  # seconds of training per fragment run
EVERY = 0.2  # timer period while a job runs (a timer rerun never preempts a running one)
TARGET_CHUNK = 0.15  # aim each advance() call at this many seconds (keeps a tick close to TICK)


class TrainerWork:
    """A ``Trainer`` seen as a job: advance(n) trains n sequences per network."""

    def __init__(self, trainer: Any) -> None:
        self.trainer = trainer

    def advance(self, n: int):
        return self.trainer.train(n)

    @property
    def done(self) -> bool:
        return self.trainer.done

    def fraction(self) -> float:
        b = self.trainer.book
        return float(np.where(b.running, np.minimum(b.seen / self.trainer.config.budget, 1.0), 1.0).mean())


@dataclass
class Job:
    work: Any
    label: str  # what runs, in words (shown next to the bar, through _)
    settings: dict  # the page settings it was started with
    after_chunk: Callable[[Any, Any], None] | None = None  # (work, progress) -> None, e.g. a recorder
    running: bool = True
    stopped: bool = False
    error: str | None = None
    started: float = field(default_factory=time.perf_counter)
    finished: float | None = None
    compute: float = 0.0  # seconds spent training
    chunk: int = 1  # sequences per advance() (adapted to TARGET_CHUNK)
    last: Any = None  # the last progress report
    recorder: Any = None  # page extras: a demo's training-curve recorder,
    summary: Any = None  # a measurement made once the job ended,
    csv: Any = None  # and the table its CSV download exports
    remote: Any = None  # a workers.Remote where the chunks train in a worker process

    @property
    def elapsed(self) -> float:
        return (self.finished or time.perf_counter()) - self.started


def get(page: str, slot: str) -> Job | None:
    return state.page_state(page).get(f"job.{slot}")


def start(page: str, slot: str, job: Job) -> None:
    trainer = getattr(job.work, "trainer", None)
    if trainer is not None:
        job.remote = workers.for_trainer(trainer)
    state.page_state(page)[f"job.{slot}"] = job


def clear(page: str, slot: str) -> None:
    state.page_state(page).pop(f"job.{slot}", None)


def stop(page: str, slot: str) -> None:
    """Stop-button callback: the job keeps what it has trained so far."""
    job = get(page, slot)
    if job is not None and job.running:
        job.running, job.stopped, job.finished = False, True, time.perf_counter()


def tick(job: Job, seconds: float = TICK) -> None:
    """Train for about ``seconds``; a user error (e.g. a NaN) ends the job with its message."""
    t_end = time.perf_counter() + seconds
    try:
        while job.running and not job.work.done and time.perf_counter() < t_end:
            job.last, dt = _advance(job)
            job.compute += dt
            if job.after_chunk is not None:
                job.after_chunk(job.work, job.last)
            job.chunk = pacing.next_chunk(job.chunk, job.chunk, dt, TARGET_CHUNK)
    except state.USER_ERRORS as e:
        job.error = state.user_message(e)
        job.running = False
    except workers.WorkerLost:
        job.error = _(
            "the server's background work training it ended unexpectedly (restarted, or out of memory)"
        )
        job.running = False
    if job.work.done and job.running:
        job.running, job.finished = False, time.perf_counter()


def _advance(job: Job) -> tuple[Any, float]:
    """One chunk (in the worker where there is one): the report and the seconds spent training."""
    if job.remote is None:
        t0 = time.perf_counter()
        p = job.work.advance(job.chunk)
        return p, time.perf_counter() - t0
    p, seconds = job.remote.train_into(job.work.trainer, job.chunk)
    if hasattr(job.work, "wall"):  # a Sweep's own account of its training time
        job.work.wall += seconds
    return p, seconds


def status_line(job: Job) -> str:
    if job.error:
        return _("Stopped with an error after {seconds} s: {why}").format(
            seconds=f"{job.elapsed:.0f}", why=job.error
        )
    if job.running:
        return _("{what} — {percent}% of the budget, {seconds} s").format(
            what=_(job.label), percent=f"{100 * job.work.fraction():.0f}", seconds=f"{job.elapsed:.0f}"
        )
    if job.stopped:
        return _("Stopped by you after {seconds} s ({what}); the results so far are shown.").format(
            seconds=f"{job.elapsed:.1f}", what=_(job.label)
        )
    return _("Finished in {seconds} s ({what}); {training} s of it training.").format(
        seconds=f"{job.elapsed:.1f}", what=_(job.label), training=f"{job.compute:.1f}"
    )


def settings_note(job: Job | None, values: dict, button: str) -> None:
    """Nothing is thrown away by a setting change: the results shown stay the job's, and this says that the
    next press of ``button`` (its label, translated) trains with the new settings."""
    if job is None or json.dumps(job.settings, sort_keys=True, default=str) == json.dumps(
        values, sort_keys=True, default=str
    ):
        return
    if job.running:
        st.info(
            _(
                "You changed the settings while this run trains: it goes on with the settings it started with; "
                "press **{button}** afterwards to train with the new ones."
            ).format(button=button)
        )
    else:
        st.info(
            _(
                "The results below are from the settings you trained with; the settings have changed since — "
                "press **{button}** to train with the new ones."
            ).format(button=button)
        )


def live(page: str, slot: str, draw: Callable[[Job | None], None]) -> None:
    """The live part of a page: progress and whatever ``draw`` shows, refreshed while running."""
    job = get(page, slot)
    running = job is not None and job.running
    st.fragment(_body, run_every=EVERY if running else None)(page, slot, draw)


def _body(page: str, slot: str, draw: Callable[[Job | None], None]) -> None:
    job = get(page, slot)
    if job is not None and job.running:
        tick(job)
        if not job.running:
            st.rerun()  # full run: stops the timer, final results everywhere
        st.progress(min(job.work.fraction(), 1.0), text=status_line(job))
    elif job is not None:
        (st.error if job.error else st.success if not job.stopped else st.warning)(status_line(job))
    draw(job)
