"""Train and watch's live-part timing as pure functions of the page's record and the clock
(app/train/live_state.py): no Streamlit, no waiting."""

from __future__ import annotations

from app.train import live_state
from app.train.live_state import QUEUED_EVERY, TrainState
from app.ui import limits


def test_the_fast_period_follows_the_queue_then_the_feed_then_the_tick():
    assert live_state.fast_every(place=3, pulled=True, feed_redraw=0.5, tick=0.04) == QUEUED_EVERY
    assert live_state.fast_every(place=0, pulled=True, feed_redraw=0.5, tick=0.04) == 0.5
    assert live_state.fast_every(place=0, pulled=False, feed_redraw=0.5, tick=0.04) == 0.04


def test_timers_are_redeclared_only_when_queued_or_let_in_or_the_period_moves_twofold():
    s = TrainState(every=0.04, queued=0)
    assert not live_state.timers_stale(s, place=0, every=0.07)  # a small change: keep the timers
    assert live_state.timers_stale(s, place=0, every=0.09)  # more than twice as slow
    assert live_state.timers_stale(s, place=0, every=0.019)  # more than twice as fast
    assert live_state.timers_stale(s, place=2, every=0.04)  # queued: the slow charts' timer goes off
    assert live_state.timers_stale(TrainState(every=1.0, queued=2), place=0, every=1.0)  # let in
    assert not live_state.timers_stale(TrainState(every=None), place=0, every=0.04)  # none declared yet


def test_the_slow_charts_timer_is_redeclared_when_the_class_grows_or_shrinks_twofold():
    s = TrainState(every=0.5, queued=0, slow=1.0)
    assert not live_state.timers_stale(s, place=0, every=0.5, slow=1.8)
    assert live_state.timers_stale(s, place=0, every=0.5, slow=3.0)  # 30 runs training: every 3 s
    assert live_state.timers_stale(TrainState(every=0.5, slow=3.0), place=0, every=0.5, slow=1.0)
    assert not live_state.timers_stale(TrainState(every=0.5), place=0, every=0.5, slow=3.0)  # none declared


def test_buttons_drawn_for_another_status_are_stale():
    assert not live_state.buttons_stale(TrainState(), "running")  # never drawn: nothing to redraw
    assert not live_state.buttons_stale(TrainState(buttons_status="running"), "running")
    assert live_state.buttons_stale(TrainState(buttons_status="running"), "paused")


def test_idle_pause_counts_from_the_last_click_or_page_run():
    s = TrainState()
    s.touched(now=100.0)
    assert s.idle(now=130.0) == 30.0
    assert not live_state.idle_too_long(s, now=100.0 + limits.IDLE_PAUSE_SECONDS)
    assert live_state.idle_too_long(s, now=100.0 + limits.IDLE_PAUSE_SECONDS + 1)
    s.touched(now=100.0 + limits.IDLE_PAUSE_SECONDS + 1)  # a click: counted from now again
    assert not live_state.idle_too_long(s, now=100.0 + limits.IDLE_PAUSE_SECONDS + 2)


def test_ticking_starts_and_stops_with_its_clock():
    s = TrainState()
    s.started_ticking(0.04, now=7.0)
    assert (s.every, s.since) == (0.04, 7.0)
    s.stopped_ticking()
    assert (s.every, s.since) == (None, None)
