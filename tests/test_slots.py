"""Sharing one server between a class: training slots, the queue and the idle pause (app/ui/slots.py).

Unit tests of the first-come queue, then two AppTest sessions on Train and watch with one slot:
the second is told it is queued (and trains nothing) until the first pauses."""

from __future__ import annotations

import time

import pytest
from train_page_helpers import link, open_page

from app.ui import limits, slots, state


@pytest.fixture(autouse=True)
def clean(monkeypatch):
    slots.reset()
    yield
    slots.reset()


def test_first_come_first_served_and_a_released_slot_goes_to_the_next(monkeypatch):
    monkeypatch.setenv("GATELAB_MAX_TRAINING", "2")
    assert [slots.claim(s, now=0.0) for s in "abcd"] == [0, 0, 1, 2]
    assert slots.claim("d", now=0.1) == 2 and slots.claim("c", now=0.1) == 1  # places are kept
    slots.release("a")
    assert slots.claim("d", now=0.2) == 1  # c is still first in line ...
    assert slots.claim("c", now=0.2) == 0  # ... and takes the free slot


def test_a_session_that_stops_ticking_loses_its_slot(monkeypatch):
    monkeypatch.setenv("GATELAB_MAX_TRAINING", "1")
    assert slots.claim("a", now=0.0) == 0
    assert slots.claim("b", now=1.0) == 1
    assert slots.claim("b", now=1.0 + slots.STALE_SECONDS + 0.1) == 0  # a closed its tab


def test_many_runs_tick_less_often_and_train_less_per_tick(monkeypatch):
    monkeypatch.setenv("GATELAB_MAX_TRAINING", "100")
    assert slots.tick_every(0.02) == 0.02 and slots.tick_seconds(0.03) == 0.03  # nobody training
    for s in range(30):
        slots.claim(f"s{s}", now=time.monotonic())
    assert slots.tick_every(0.02) == pytest.approx(30 * slots.TICK_COST)
    assert slots.tick_seconds(0.03) == pytest.approx(0.03 * slots.FULL_SPEED_RUNS / 30)


def test_many_runs_redraw_their_slow_charts_less_often(monkeypatch):
    monkeypatch.setenv("GATELAB_MAX_TRAINING", "100")
    assert slots.slow_every(1.0) == 1.0  # nobody training
    for s in range(30):
        slots.claim(f"s{s}", now=time.monotonic())
    assert slots.slow_every(1.0) == pytest.approx(30 * slots.SLOW_COST)
    assert 30 * slots.SLOW_COST > 1.0


def test_capacity_reads_the_environment_and_survives_nonsense(monkeypatch):
    monkeypatch.setenv("GATELAB_MAX_TRAINING", "oops")
    assert slots.capacity() == limits.MAX_TRAINING_SESSIONS
    monkeypatch.setenv("GATELAB_MAX_TRAINING", "0")
    assert slots.capacity() == 1


def sequences(at) -> int:
    return int(at.session_state["_page.train"]["live"].run.sequences)


def as_session(monkeypatch, name: str) -> None:
    """AppTest gives every app the same session id; the tests tell the two tabs apart."""
    monkeypatch.setattr(state, "session_id", lambda: name)


def test_a_second_session_is_queued_with_its_place_until_the_first_pauses(monkeypatch):
    monkeypatch.setenv("GATELAB_MAX_TRAINING", "1")
    first, second = open_page(link(streak=5000)), open_page(link(streak=5000))
    as_session(monkeypatch, "first")
    first.button(key="train.go").click().run()
    assert sequences(first) > 0
    as_session(monkeypatch, "second")
    second.button(key="train.go").click().run()
    second.run()
    assert sequences(second) == 0
    queued = [i.value for i in second.info if "queued" in i.value]
    assert queued and "position 1" in queued[0] and "at most 1 at a time" in queued[0]
    as_session(monkeypatch, "first")
    first.button(key="train.go").click().run()  # the slot is released ...
    as_session(monkeypatch, "second")
    second.run()  # ... and the next tick of the queued run trains
    assert sequences(second) > 0
    assert not any("queued" in i.value for i in second.info)


def test_a_run_left_alone_is_paused_and_says_why(monkeypatch):
    at = open_page(link(streak=5000))
    at.button(key="train.go").click().run()
    assert at.session_state["_page.train"]["live"].run.status == "running"
    # the next tick comes after the idle limit (AppTest has no timers, and its page run counts as the
    # user's doing: a limit already passed stands for the long wait)
    monkeypatch.setattr(limits, "IDLE_PAUSE_SECONDS", -1.0)
    at.run()
    assert at.session_state["_page.train"]["live"].run.status == "paused"
    assert any("without a click" in i.value for i in at.info), [i.value for i in at.info]
    assert slots.load()[0] == 0
