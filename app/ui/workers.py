"""Training off the page server's interpreter: worker processes hold the live runs' trainers.

Why (issue 45): Streamlit serves every session from threads of one process that share one
interpreter lock. With thirty students training in those threads, the lecturer's projected page
waited seconds for a step and for a new page (docs/serving.md, "The lecturer's view"). Here a run's
trainer lives in a worker process started at a lower OS priority (``worker_host.NICE``); the server
keeps the session's state, the feeds and the drawing, and a training tick is one request over a
pipe: the server thread waits for the answer in the kernel, without the interpreter lock, so pages,
clicks and the presenter's steps go on meanwhile.

Why not a library pool: ``concurrent.futures.ProcessPoolExecutor`` and ``multiprocessing.Pool`` hand
each task to any free worker, but a run's model, optimiser and data streams must stay where they are
(a ``Trainer`` does not even pickle), so a run is *placed* on one worker, the one holding the fewest
runs, and its requests go there. Where a Dask scheduler is configured (``GATELAB_DASK_SCHEDULER``,
e.g. ``tcp://host:8786``), Dask's actors do exactly that on the cluster and ``DaskPool`` only wraps
them (the cluster's machines need Gate Lab installed).

Fairness: a worker answers one request at a time; a request is one chunk of about
``live_run.TICK_SECONDS`` of training; which sessions may ask at all is ``slots.py``'s first-come
queue. So thirty runs on two workers take turns every few tenths of a second.

Settings: ``GATELAB_TRAINING_WORKERS`` — the number of worker processes (default: one per core;
``0`` trains in the server process, as a plain ``streamlit run app/main.py`` does unless it is set).
The processes and their pipes are server bookkeeping behind a lock, like ``slots.py``'s table: no
user state — the trainers live in the workers, the ``Remote`` handles in the sessions' state.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import threading
import weakref
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from app.ui import feeds, worker_host
from app.ui.worker_host import Mirror, Recipe


class WorkerLost(RuntimeError):
    """The worker holding a run ended (killed, out of memory): the run's trainer is gone with it."""


def count() -> int:
    """Worker processes to start: ``GATELAB_TRAINING_WORKERS``, else one per core."""
    raw = os.environ.get("GATELAB_TRAINING_WORKERS", "").strip()
    try:
        return max(0, int(raw)) if raw else os.cpu_count() or 1
    except ValueError:
        return os.cpu_count() or 1


def enabled() -> bool:
    """True where live runs train in workers: a Dask scheduler is configured, or
    ``GATELAB_TRAINING_WORKERS`` asks for ≥ 1 worker, or (unset) this process serves the live feeds
    (``app/serve.py``: the Gate Lab server; a plain script run and the page tests train in-process)."""
    if os.environ.get("GATELAB_DASK_SCHEDULER"):
        return True
    if os.environ.get("GATELAB_TRAINING_WORKERS", "").strip():
        return count() > 0
    return feeds.served()


# ----------------------------------------------------------------------------- processes on this machine
class _Worker:
    """One worker process (``python -m app.ui.worker_host``) and the server's end of its socket."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        env = dict(os.environ)  # the checkout on the path, as app/serve.py has it, installed or not
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.ui.worker_host", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),),
            env=env,
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self.conn = Connection(ours.detach())
        self.lock = threading.Lock()  # one request at a time on the socket
        self.runs = 0  # runs placed here (placement picks the emptiest)
        self.dead = False
        self._dropped: list[str] = []  # runs whose handle was collected: forgotten at the next request
        self._drop_lock = threading.Lock()

    def alive(self) -> bool:
        return not self.dead and self.process.poll() is None

    def forget(self, run: str) -> None:
        """The run's handle was collected (a new run, the session ended): the worker drops its trainer
        at the next request. Never a request here — a collector may run while this thread is inside one."""
        with self._drop_lock:
            self._dropped.append(run)
        self.runs -= 1

    def call(self, method: str, *args: Any) -> Any:
        with self.lock:
            if self.dead:
                raise WorkerLost("the worker ended")
            with self._drop_lock:
                dropped, self._dropped = self._dropped, []
            try:
                if dropped:
                    self.conn.send(("drop", (dropped,)))
                    self.conn.recv()
                self.conn.send((method, args))
                kind, value = self.conn.recv()
            except (EOFError, OSError) as e:
                self.dead = True
                raise WorkerLost(f"the worker ended ({type(e).__name__})") from None
        if kind == "error":
            raise value
        return value

    def close(self) -> None:
        self.dead = True
        self.conn.close()  # the worker's loop ends at the closed socket
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Remote:
    """A run's handle in the session's state: its trainer lives in ``worker`` under ``run``. The trainer
    is built there at the first ``train`` (so a Start click never waits for a busy worker)."""

    def __init__(self, worker: Any, recipe: Recipe) -> None:
        self.worker, self.recipe, self.run, self.placed = worker, recipe, secrets.token_hex(8), False
        weakref.finalize(self, worker.forget, self.run)

    def train(self, n: int) -> tuple[Any, Mirror]:
        """Train ``n`` more sequences there: (the progress report, the mirror for the server's copy)."""
        if not self.placed:
            self.worker.call("put", self.run, self.recipe)
            self.placed = True
        return self.worker.call("train", self.run, n)

    def train_into(self, trainer: Any, n: int) -> tuple[Any, float]:
        """``train`` there, then the server's copy ``trainer`` made to read the same: (the progress
        report, the worker's seconds spent training)."""
        p, change = self.train(n)
        worker_host.apply(trainer, change)
        return p, change.seconds


_lock = threading.Lock()
_workers: list[_Worker] = []
ROOT = Path(__file__).resolve().parents[2]  # the folder holding app/ and lstm_core/


def _pool() -> list[_Worker]:
    """The live workers, ended ones replaced (their runs are lost; new runs go to the new ones).
    A worker is a fresh interpreter (``subprocess``, not ``multiprocessing``: its spawn would import
    the server's main module, streamlit, into every worker; a fork of the threaded server is unsafe)."""
    with _lock:
        for i, w in enumerate(_workers):
            if not w.alive():
                w.dead = True
                _workers[i] = _Worker()
        while len(_workers) < max(count(), 1):
            _workers.append(_Worker())
        return list(_workers)


def for_trainer(trainer: Any) -> Remote | None:
    """Where ``enabled()``, a handle for a new run of ``trainer`` (a copy built in a worker from its
    recipe); None where runs train in-process, or for a trainer no recipe rebuilds (it then trains here)."""
    if not enabled():
        return None
    try:
        recipe = Recipe.of(trainer)
    except ValueError:
        return None
    return place(recipe)


def place(recipe: Recipe) -> Remote:
    """A handle for a new run, on the worker (or Dask actor) holding the fewest runs."""
    if os.environ.get("GATELAB_DASK_SCHEDULER"):
        return DaskPool.get().place(recipe)
    worker = min(_pool(), key=lambda w: w.runs)
    worker.runs += 1
    return Remote(worker, recipe)


def shutdown() -> None:
    """End every worker (tests; the server's own end closes them as daemons)."""
    with _lock:
        for w in _workers:
            w.close()
        _workers.clear()


def load() -> list[int]:
    """Runs placed on each worker process now."""
    with _lock:
        return [w.runs for w in _workers if w.alive()]


# ----------------------------------------------------------------------------- a Dask cluster
class _Actor:
    """A Dask actor seen as a worker: one ``worker_host.TrainerHost`` per run, where Dask put it. The
    actor lives as long as its future is held (here); a call the actor cannot answer (its worker gone)
    never resolves in Dask, so it waits at most ``CALL_TIMEOUT`` seconds."""

    CALL_TIMEOUT = 120.0

    def __init__(self, future: Any) -> None:
        self.future, self.actor, self.runs = future, future.result(), 1

    def call(self, method: str, *args: Any) -> Any:
        if self.actor is None:
            raise WorkerLost("the run's actor was released")
        try:
            return getattr(self.actor, method)(*args).result(timeout=self.CALL_TIMEOUT)
        except (OSError, EOFError, TimeoutError) as e:  # the worker holding the actor is gone
            raise WorkerLost(f"the Dask actor did not answer ({type(e).__name__})") from None

    def forget(self, run: str) -> None:
        self.future = self.actor = None  # the actor ends when nothing holds its future


class DaskPool:
    """Runs placed as actors on the Dask cluster at ``GATELAB_DASK_SCHEDULER``."""

    _instance: DaskPool | None = None
    _lock = threading.Lock()

    def __init__(self, address: str) -> None:
        from dask.distributed import Client

        self.address = address
        self.client = Client(address, timeout="10s", set_as_default=False)

    @classmethod
    def get(cls) -> DaskPool:
        address = os.environ["GATELAB_DASK_SCHEDULER"]
        with cls._lock:
            if cls._instance is None or cls._instance.address != address:
                cls._instance = DaskPool(address)
            return cls._instance

    def place(self, recipe: Recipe) -> Remote:
        return Remote(_Actor(self.client.submit(worker_host.TrainerHost, actor=True, pure=False)), recipe)
