"""The worker's side of training off the page server: trainers built from a recipe, trained on request.

A worker process (``app/ui/workers.py`` starts them; a Dask worker holds one as an actor) keeps the
trainers of the runs placed on it, each under the run's id. A request trains one run ``n`` sequences
and answers the progress report and the *mirror*: what the server's own copy of the trainer needs to
read the same as this one (the stop bookkeeping, the weights, the new history rows), never the whole
trainer (a ``Trainer`` does not pickle: its squashing functions are lambdas; and the server's copy
already holds everything that does not change: the task, the configurations, the fixed check set).

This module imports only the core: a worker never loads streamlit or plotly.
"""

from __future__ import annotations

import copy
import os
import time
from dataclasses import dataclass
from typing import Any

import lstm_core as lc
from lstm_core.sweeps.sweep import with_goal
from lstm_core.training import Progress, TrainConfig, Trainer

NICE = 10  # the workers' OS priority (nice value): the processes serving pages come first


@dataclass(frozen=True)
class Recipe:
    """What a trainer is built from, in plain data (JSON-ready): the server's run and the worker's copy
    are built from the same recipe, so they start identical (the seed is in the configurations)."""

    model: dict  # lc.ModelConfig.to_dict()
    task: str
    task_settings: dict  # Task.settings()
    train: dict  # TrainConfig.to_dict()
    members: tuple[dict, ...] | None = None  # a population's networks (a sweep, a paper experiment)
    goal: tuple[float | None] | None = None  # the Bias lab's changed goal (sweep.with_goal), if any

    @classmethod
    def of(cls, tr: Trainer) -> Recipe:
        """The recipe of a trainer: one network or a population, a task from the registry (with the Bias
        lab's changed goal), a training configuration. ValueError if the recipe would build a trainer
        judged otherwise (a task changed in a way a recipe does not carry): that one trains in-process."""
        members = tuple(c.to_dict() for c in tr.model.members) if tr.K is not None else None
        plain = lc.get_task(tr.task.name, **tr.task.settings())
        mae = tr.task.criterion.mean_abs_error_below
        goal = None if mae == plain.criterion.mean_abs_error_below else (mae,)
        recipe = cls(
            tr.model.config.to_dict(), tr.task.name, tr.task.settings(), tr.config.to_dict(), members, goal
        )
        if recipe.build_task().criterion != tr.task.criterion:
            raise ValueError(
                f"the task {tr.task.name!r} was changed in a way a recipe does not carry"
            )  # i18n: kept (workers.for_trainer catches it and trains in-process; never shown)
        return recipe

    def build_task(self) -> Any:
        task = lc.get_task(self.task, **self.task_settings)
        return task if self.goal is None else with_goal(task, self.goal[0])

    def build(self) -> Trainer:
        if self.members is not None:
            model = lc.build_population(list(self.members))
        else:
            model = lc.build(lc.ModelConfig.from_dict(self.model))
        return Trainer(model, self.build_task(), TrainConfig.from_dict(self.train))


@dataclass
class Mirror:
    """What changed in a trainer by training: applied to the server's copy with ``apply``."""

    book: Any  # the stop bookkeeping (status, streaks, messages)
    params: dict  # name -> array: the weights now
    history: dict  # name -> the rows added since the last answer
    elapsed: float
    last_loss: Any
    seconds: float  # the worker's time training this request (sizes the next chunk)


def mirror(tr: Trainer, seconds: float) -> Mirror:
    """The trainer's changes for the server; the rows sent leave the worker's history (the server keeps
    them, thinned as its own copy is: ``live_run.record``), so a long run does not grow here."""
    history = {k: list(v) for k, v in tr.history.items()}
    for v in tr.history.values():
        v.clear()
    # copies: a Dask actor in the server's own process answers without pickling
    params = {k: v.copy() for k, v in tr.model.params.items()}
    return Mirror(copy.deepcopy(tr.book), params, history, tr.elapsed, tr.last_loss.copy(), seconds)


def apply(tr: Trainer, m: Mirror) -> None:
    """Make the server's copy ``tr`` read as the worker's trainer does after the request."""
    tr.book, tr.elapsed, tr.last_loss = m.book, m.elapsed, m.last_loss
    for name, value in m.params.items():
        tr.model.params[name][...] = value
    for name, rows in m.history.items():
        tr.history[name].extend(rows)


def lower_priority(nice: int = NICE) -> None:
    """This process at ``nice`` or lower priority (set, not added: a Dask worker hosting several runs
    is lowered once). Where the OS has no priorities, nothing."""
    try:
        now = os.getpriority(os.PRIO_PROCESS, 0)
        if now < nice:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
    except (AttributeError, OSError):  # not POSIX, or not allowed
        pass


class TrainerHost:
    """The runs placed on one worker: ``put`` builds a run's trainer, ``train`` advances it, ``drop``
    forgets it. Also a Dask actor (``workers.DaskPool``): its methods are what the server calls."""

    def __init__(self) -> None:
        lower_priority()
        self.trainers: dict[str, Trainer] = {}

    def put(self, run: str, recipe: Recipe) -> None:
        self.trainers[run] = recipe.build()

    def train(self, run: str, n: int) -> tuple[Progress, Mirror]:
        tr = self.trainers[run]
        t0 = time.perf_counter()
        p = tr.train(n)
        return p, mirror(tr, time.perf_counter() - t0)

    def drop(self, runs: list[str]) -> None:
        for run in runs:
            self.trainers.pop(run, None)

    def count(self) -> int:
        return len(self.trainers)


def serve(conn: Any) -> None:
    """A worker process's loop: one request at a time from the server's end of the pipe, one answer
    each: ``("ok", value)`` or ``("error", exception)``. Ends when the server's end closes."""
    host = TrainerHost()
    while True:
        try:
            method, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer = ("ok", getattr(host, method)(*args))
        except Exception as e:  # a request that failed: the server raises it in the caller
            answer = ("error", e)
        conn.send(answer)


if __name__ == "__main__":  # a worker process: python -m app.ui.worker_host <socket fd>
    import sys
    from multiprocessing.connection import Connection

    from app.ui import worker_host  # the classes answered are pickled under this name, not __main__

    worker_host.serve(Connection(int(sys.argv[1])))
