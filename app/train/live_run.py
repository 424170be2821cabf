"""The live training run of one browser session, and run A kept for the overlay.

A ``LiveRun`` wraps an ``lstm_core`` ``Trainer`` (which owns the model, optimiser, data
streams and stop bookkeeping) with what the page needs around it: a status the buttons
change, a chunk size adapted so each UI tick trains for about ``TICK_SECONDS``, and a capped
history of the progress reports (curves and gradient norms) so the figures sent to the
browser stay small however long training goes on. It lives in ``st.session_state`` (the
page's ``state.page_state`` dict), never in a module global, so two tabs never share a run.

Statuses: idle (built, not started) → running ⇄ paused → stopped (by the user) or, from the
trainer, solved / budget / diverged. Nothing here loops: ``tick`` trains one chunk.

Two threads may touch a run: the session's script runs and, with ``app/serve.py``, the live feed's
WebSocket requests (``app/train/feed.py``), which train while the browser draws. ``LiveRun.lock`` keeps
them apart: the status, the buttons and ``snapshot`` (what the figures read) hold it; ``train_lock``
is held while a chunk trains (one chunk at a time), so a click or a redraw never waits for training.

Where ``app.ui.workers`` is enabled (the Gate Lab server), the chunk trains in a worker process
(``remote``): the run's ``trainer`` here is the server's copy, built from the same recipe and kept
reading the same after each chunk (``worker_host.apply``: the bookkeeping, the weights, the history).
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from app.ui import pacing, slots, workers
from lstm_core.training import ProbeTrace, Progress, Trainer

TICK_SECONDS = 0.03  # training time per UI tick: short enough for ≥ 5 chart redraws a second
MAX_POINTS = 400  # points per curve in the figures; older points are thinned
MAX_TRAINER_HISTORY = 4_000  # reports kept in trainer.history (the CSV export)
FINISHED = ("stopped", "solved", "budget", "diverged")
MAX_TICK_GAP = 2.0  # a longer gap between ticks is a hidden tab or a pause, not waiting
CURVES = ("sequences", "loss", "streak", "fraction", "rate", "wall")


@dataclass
class Curves:
    """A run's training curves, one entry per progress report (capped, oldest thinned first)."""

    label: str
    data: dict[str, list] = field(default_factory=lambda: {k: [] for k in CURVES})
    grads: dict[str, list] = field(default_factory=dict)  # group -> norms (NaN before it appeared)

    def __len__(self) -> int:
        return len(self.data["sequences"])

    def array(self, name: str) -> np.ndarray:
        return np.asarray(self.data[name], dtype=float)

    def copy(self, label: str | None = None) -> Curves:
        return Curves(
            label or self.label,
            {k: list(v) for k, v in self.data.items()},
            {k: list(v) for k, v in self.grads.items()},
        )


@dataclass
class LiveRun:
    trainer: Trainer
    key: str  # settings_key of the configuration it was built from
    label: str  # legend label, e.g. "lstm1997 · rtrl · lr 1"
    settings: dict = field(default_factory=dict)  # the page's values it was built from ("Back to …")
    name: str = field(default_factory=lambda: secrets.token_hex(4))  # which run a press was meant for
    status: str = "idle"
    chunk: int = 1  # sequences per tick (adapted from the measured speed)
    curves: Curves | None = None
    last: Progress | None = None
    probe: ProbeTrace | None = None
    tick_seconds: float = 0.0  # wall time of the last tick (training + probe)
    wall_active: float = 0.0  # wall-clock seconds spent running (drawing included, pauses not)
    last_tick: float | None = None
    remote: Any = None  # a workers.Remote where the chunks train in a worker process
    lost: bool = False  # the worker process holding the run ended: the run stopped there
    on_finish: Any = None  # called with the run once it is solved, out of budget or diverged (class mode)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)
    train_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def sequences(self) -> int:
        return int(self.last.sequences) if self.last is not None else 0

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    @property
    def active(self) -> bool:
        return self.status == "running"


def new_run(
    trainer: Trainer, key: str, label: str, status: str = "idle", settings: dict | None = None
) -> LiveRun:
    """A run on a fresh trainer; the probe shows the untrained network until the first tick. Where
    ``workers.enabled()``, its chunks will train in a worker process on a copy built from the same
    recipe (``trainer`` stays the server's copy)."""
    return LiveRun(
        trainer,
        key,
        label,
        settings=dict(settings or {}),
        status=status,
        chunk=trainer.config.batch,
        curves=Curves(label),
        probe=trainer.probe(),
        remote=workers.for_trainer(trainer),
    )


# ----------------------------------------------------------------------------- buttons
def start(run: LiveRun) -> None:
    with run.lock:
        if run.status in ("idle", "paused"):
            run.status = "running"


def pause(run: LiveRun) -> None:
    with run.lock:
        if run.status == "running":
            run.status = "paused"


def stop(run: LiveRun) -> None:
    with run.lock:
        if not run.finished:
            run.status = "stopped"


# ----------------------------------------------------------------------------- one tick
def tick(run: LiveRun, seconds: float = TICK_SECONDS) -> Progress | None:
    """Train one chunk if running, record the report, and size the next chunk.

    The chunk is a whole number of batches chosen from the measured training time so the next
    tick takes about ``seconds`` (at least one batch, so very long sequences still advance). A tick
    asked for while another is training (the feed and the fragment at once) has nothing to do.
    """
    with run.lock:
        if run.status != "running":
            run.last_tick = None
            return None
        now = time.perf_counter()
        if run.last_tick is not None:  # the whole cycle since the last tick: what the user waited
            run.wall_active += min(now - run.last_tick, MAX_TICK_GAP)
        run.last_tick = now
        chunk = run.chunk
    if not run.train_lock.acquire(blocking=False):
        return None
    try:
        try:
            p, dt = _train(run, chunk)
        except workers.WorkerLost:
            with run.lock:
                run.status, run.lost = "stopped", True
            return None
        batch = run.trainer.config.batch
        with run.lock:
            done = int(p.sequences) - run.sequences
            run.chunk = pacing.next_chunk(run.chunk, done, dt, seconds, multiple=batch)
            run.tick_seconds = dt
            record(run, p)
            finished = p.status != "running" and not run.finished
            if p.status != "running":
                run.status = p.status  # solved | budget | diverged
        if finished and run.on_finish is not None:
            run.on_finish(run)  # outside the run's lock: it may write to a database
        return p
    finally:
        run.train_lock.release()


def share(run: LiveRun) -> float:
    """Seconds of training one tick asks for: ``TICK_SECONDS`` where the run trains in a worker (the
    workers' cores are for training; a worker answers one chunk at a time, so a class takes turns), else
    the server's fair share of it (``slots.tick_seconds``: the training holds the server's interpreter)."""
    return TICK_SECONDS if run.remote is not None else slots.tick_seconds(TICK_SECONDS)


def _train(run: LiveRun, chunk: int) -> tuple[Progress, float]:
    """One chunk (in the worker where there is one): the report and the seconds spent training."""
    if run.remote is None:
        t0 = time.perf_counter()
        p = run.trainer.train(chunk)
        return p, time.perf_counter() - t0
    return run.remote.train_into(run.trainer, chunk)


def record(run: LiveRun, p: Progress) -> None:
    """Append one report to the run's curves (and keep both histories bounded)."""
    run.last, run.probe = p, p.probe
    c = run.curves
    n = len(c)
    for name, value in (
        ("sequences", p.sequences),
        ("loss", p.loss),
        ("streak", p.streak),
        ("fraction", p.criterion_fraction),
        ("rate", p.seq_per_second),
        ("wall", time.monotonic()),
    ):
        c.data[name].append(float(value))
    for group in p.grad_norms:
        c.grads.setdefault(group, [float("nan")] * n)
    for group, values in c.grads.items():
        values.append(float(p.grad_norms.get(group, np.nan)))
    if len(c) > MAX_POINTS:
        _thin(c.data, c.grads)
    h = run.trainer.history
    if len(h["sequences"]) > MAX_TRAINER_HISTORY:
        _thin(h)


def _thin(*tables: dict[str, list]) -> None:
    """Keep every other entry of every list (always the newest): resolution halves, shape stays."""
    for table in tables:
        for values in table.values():
            keep = values[-1::-2][::-1]
            values[:] = keep


def snapshot(run: LiveRun) -> Curves:
    """A copy of the run's curves, taken between two ticks (the figures draw it while the live feed
    may be training the run in another thread)."""
    with run.lock:
        return run.curves.copy()


def history_csv(run: LiveRun) -> bytes:
    """Every progress report of the run (``Trainer.history``) as CSV, read between two ticks."""
    with run.train_lock, run.lock:
        frame = run.trainer.history_frame()
    return frame.to_csv(index=False).encode()


def average_rate(run: LiveRun) -> float:
    """Sequences per second of wall-clock time over the whole run (drawing included, pauses not)."""
    return run.sequences / run.wall_active if run.wall_active > 0 else 0.0


def wall_rate(run: LiveRun, window: int = 10) -> float:
    """Sequences per second of wall-clock time over the last reports (drawing included)."""
    with run.lock:
        c = run.curves
        if c is None or len(c) < 2:
            return float(run.last.seq_per_second) if run.last is not None else 0.0
        i = max(0, len(c) - window)
        seqs, wall = c.data["sequences"], c.data["wall"]
        dt = wall[-1] - wall[i]
        return (seqs[-1] - seqs[i]) / dt if dt > 0 else 0.0


def keep_as_a(run: LiveRun) -> Curves:
    """A copy of the run's curves, drawn under the next run's for comparison."""
    with run.lock:
        return run.curves.copy(f"A: {run.label}")
