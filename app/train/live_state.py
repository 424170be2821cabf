"""Train and watch's state in one browser session: one typed record under one key of the page's
state, and the live part's timing ("what should the fast fragment do now?") as pure functions of
that record and the clock, unit-tested without Streamlit (tests/test_train_live_state.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from app.ui import limits, state

PAGE = "train"
KEY = "live"  # the record's key in the page's state (``state.page_state(PAGE)``)
QUEUED_EVERY = 1.0  # a queued run only checks its place in the queue, once a second


@dataclass(eq=False)
class TrainState:
    """What the page keeps between script runs (the runs are ``app.train.live_run.LiveRun``)."""

    run: Any = None  # the run on screen
    previous: Any = None  # the run "Back to the previous run" brings back
    run_a: Any = None  # curves kept by "Keep as run A", drawn under the run on screen
    restart: bool = False  # "Start again" was pressed: the next page run builds a new run
    full_run: bool = False  # the live part must hand over to a whole-page run (the sidebar changes)
    superseded: bool = False  # the settings on screen are no longer the run's
    notice: str | None = None  # a press refused, said above the charts
    last_interaction: float = field(default_factory=time.monotonic)  # a click or a page run (idle pause)
    buttons_status: str | None = None  # the run's status the buttons on screen were drawn for
    queued: int = 0  # the run's place in the server's queue at the last tick (0: training or not asking)
    every: float | None = None  # the fast fragment's timer while running (None: not running)
    since: float | None = None  # when the fast fragment's timer was set (monotonic)
    slow: float | None = None  # the slow fragment's timer while running (``slots.slow_every``)
    feed: Any = None  # the live feed the charts pull (``app.train.feed.TrainFeed``)

    def touched(self, now: float | None = None) -> None:
        """The user did something (a click, a whole-page run): the idle pause counts from now."""
        self.last_interaction = time.monotonic() if now is None else now

    def idle(self, now: float | None = None) -> float:
        """Seconds since the user last did something."""
        return (time.monotonic() if now is None else now) - self.last_interaction

    def started_ticking(self, every: float, now: float | None = None, slow: float | None = None) -> None:
        """The run went live: the fast fragment's first timer (and the slow one's)."""
        self.every, self.since, self.slow = every, time.monotonic() if now is None else now, slow

    def stopped_ticking(self) -> None:
        self.every = self.since = self.slow = None


def get() -> TrainState:
    """This session's record (created at the first use)."""
    return state.page_state(PAGE).setdefault(KEY, TrainState())


# ----------------------------------------------------------------------------- the live part's timing
def fast_every(place: int, pulled: bool, feed_redraw: float, tick: float) -> float:
    """The fast fragment's period: once a second while queued, the page's redraw period while the
    browser pulls the live feed (the feed trains), else the training tick's."""
    return QUEUED_EVERY if place else feed_redraw if pulled else tick


def timers_stale(s: TrainState, place: int, every: float, slow: float | None = None) -> bool:
    """True when the timers declared by the last whole live-part run no longer fit: the run was queued
    or let in (the slow charts' timer is off in the queue), or the fast period (or the slow charts'
    ``slow``, against the declared one) moved by more than a factor of two (many more or fewer runs
    training; not for every small change)."""
    moved = not 0.5 <= every / (s.every or every) <= 2.0
    if slow is not None and s.slow is not None:
        moved = moved or not 0.5 <= slow / s.slow <= 2.0
    return bool(place) != bool(s.queued) or moved


def buttons_stale(s: TrainState, status: str) -> bool:
    """True when the buttons on screen were drawn for another status than the run's: a click's rerun
    was lost (seen once in a busy suite run: paused, but "Pause" still showing for 30 s)."""
    return s.buttons_status is not None and s.buttons_status != status


def idle_too_long(s: TrainState, now: float | None = None) -> bool:
    """A run left without a click for ``limits.IDLE_PAUSE_SECONDS`` is paused (a forgotten tab)."""
    return s.idle(now) > limits.IDLE_PAUSE_SECONDS
