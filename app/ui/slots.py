"""Training slots: how many sessions of this server process train at the same time.

Without training workers (``workers.py``) every model trains inside the Streamlit server, one script
thread per browser tab, and the threads share the process's interpreter lock: thirty runs training
at once each get a thirtieth of one core and every page crawls. With them the server still draws
every run's charts. So at most ``limits.MAX_TRAINING_SESSIONS`` sessions train at
once; the others wait in a first-come queue, are told their place ("the server is busy, your
run is queued (position k)") and start by themselves when a slot frees.

A slot is held while its session keeps ticking. A session that stops ticking (tab closed,
hidden, paused, finished) loses it after ``STALE_SECONDS`` or at once when it says so
(``release``). This is server bookkeeping shared by all sessions (a module-level table behind a
lock), not user state: it holds session ids and times only, never a model or a setting.
"""

from __future__ import annotations

import os
import threading
import time

from app.ui import limits

STALE_SECONDS = 5.0  # no tick for this long: the slot (or the queue place) is given up
# Calibrated with benchmarks/classroom_load.py on 2 cores: a tick without training costs the server
# ~6-8 ms; with these values 30 sessions each redraw ~2 times a second and train ~4 ms a tick.
TICK_COST = 0.015  # seconds of timer interval per run training (30 runs: a tick every 0.45 s)
# Train and watch's probe and gradient charts (a whole fragment: four figures) were half the server's
# work with 30 runs training (py-spy, issue 45): with many runs they are redrawn less often.
SLOW_COST = 0.1  # seconds of the slow charts' period per run training (30 runs: every 3 s)
FULL_SPEED_RUNS = 4  # up to this many runs train a full chunk each tick, more share it

_lock = threading.Lock()
_active: dict[str, float] = {}  # session id -> last tick
_waiting: dict[str, float] = {}  # session id -> last tick; insertion order is the queue order


def capacity() -> int:
    """Sessions that may train at once (``GATELAB_MAX_TRAINING`` overrides the default)."""
    try:
        return max(1, int(os.environ.get("GATELAB_MAX_TRAINING", limits.MAX_TRAINING_SESSIONS)))
    except ValueError:
        return limits.MAX_TRAINING_SESSIONS


def _expire(now: float) -> None:
    for table in (_active, _waiting):
        for sid in [s for s, t in table.items() if now - t > STALE_SECONDS]:
            del table[sid]


def claim(session: str, now: float | None = None) -> int:
    """Called on every training tick: 0 if ``session`` may train now, else its place in the queue
    (1 = next)."""
    now = time.monotonic() if now is None else now
    with _lock:
        _expire(now)
        if session in _active:
            _active[session] = now
            return 0
        _waiting[session] = now  # keeps its place if it was queued already
        free = capacity() - len(_active)
        for sid in list(_waiting)[: max(free, 0)]:  # first come, first served
            _active[sid] = _waiting.pop(sid)
        if session in _active:
            return 0
        return list(_waiting).index(session) + 1


def tick_every(alone: float) -> float:
    """Seconds between one run's timer ticks: ``alone`` when few runs train, longer when many do,
    so the ticks of all of them fit into what one server process can serve (about one core: the
    script threads share one interpreter lock)."""
    with _lock:
        n = len(_active)
    return max(alone, TICK_COST * n)


def slow_every(alone: float) -> float:
    """Seconds between redraws of a page's slow charts: ``alone`` when few runs train, longer when many do."""
    with _lock:
        n = len(_active)
    return max(alone, SLOW_COST * n)


def tick_seconds(alone: float) -> float:
    """Training time per tick: ``alone`` with up to ``FULL_SPEED_RUNS`` runs training, then a fair
    share of it, so a tick's cost stays close to its drawing and every run keeps redrawing."""
    with _lock:
        n = len(_active)
    return alone * min(1.0, FULL_SPEED_RUNS / max(n, 1))


def release(session: str) -> None:
    """The session stopped training (pause, stop, finished): its slot goes to the next in line."""
    with _lock:
        _active.pop(session, None)
        _waiting.pop(session, None)


def load() -> tuple[int, int]:
    """(sessions training, sessions queued) right now."""
    with _lock:
        _expire(time.monotonic())
        return len(_active), len(_waiting)


def reset() -> None:
    """Forget every session (tests)."""
    with _lock:
        _active.clear()
        _waiting.clear()
