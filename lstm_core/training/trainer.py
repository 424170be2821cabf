"""The trainer: the papers' training procedures on one network or a population of K.

    trainer = lc.Trainer(model, "adding", algorithm="bptt", lr=0.5, budget=20_000)
    for progress in trainer.run(report_every=100):      # or: trainer.train(500) per UI tick
        ...

* ``rtrl``  — the 1997 online method: ``lc.RTRL`` is reset at each sequence start and the
  weights are updated after EVERY timestep with that step's truncated gradient (the next
  step runs with the new weights).
* ``bptt``  — the exact gradient of a sequence (or mini-batch); one update per batch.
* ``tbptt`` — chunks of k steps, the state carried from chunk to chunk; one update per chunk.

(The procedures themselves, one batch each, are in ``algorithms.py``; this file keeps the
bookkeeping around them.)

A population (``model.K`` networks) is trained in one vectorised run: one forward/backward
over (T, K, B, ...) arrays. Each network has its own data stream and its own stop
bookkeeping; one that met the criterion, ran out of budget or produced a non-finite value is
frozen (its weights stop changing) while the others go on. A network trained inside a
population gets the same sequences and updates as trained alone.

The trainer is a plain object: everything (model, optimiser velocity, rngs, streaks,
counters) lives on it, so ``train(N)`` twice is the same as ``train(2N)``. The model is
trained in place. Non-finite values never raise: the network stops, and the message names
the sequence, step and quantity where the value first appeared.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import CoreError, CoreText
from ..model import Model
from ..numerics import first_nonfinite
from ..rtrl import RTRL
from ..sequence import forward
from ..tasks import Task, get_task
from . import reports
from .algorithms import ALGORITHMS
from .bookkeeping import STATUS_NAMES, Bookkeeper
from .checkset import FixedSetCheck, criterion_text
from .config import TrainConfig
from .data import MemberStream, population_batch
from .grow import Grower
from .optimizer import SGD, Adam, sq_norms
from .progress import ProbeTrace, Progress, group_norms
from .stuck import PINNED_CHECKS, StuckWatch, advice, saturated_fractions

Array = np.ndarray
PROBE_STREAM = 2**32 - 1  # the probe's rng is default_rng([seed, PROBE_STREAM])
CHECK_STREAM = 2**32 - 2  # the stuck check's sequence: default_rng([seed, CHECK_STREAM])
BEFORE_IT = CoreText("before it")  # since when restored weights are, unless the caller says
_ADVICE = CoreText("try a smaller learning rate, gradient clipping or a smaller init range")


def _checked(
    model: Model, task: Task | str, config: TrainConfig | None, settings: dict
) -> tuple[Task, TrainConfig]:
    """The task and the settings, checked against each other and the model (ValueError: what to change)."""
    if not isinstance(model, Model):
        raise CoreError(
            "Trainer needs a model from lc.build / lc.stack, got {type}", type=type(model).__name__
        )
    try:
        config = (config or TrainConfig()).replace(**settings) if settings else (config or TrainConfig())
    except TypeError as e:
        raise CoreError(
            "{why}; valid training settings are {valid}",
            why=str(e),
            valid=list(TrainConfig.__dataclass_fields__),
        ) from None
    task_ = get_task(task) if isinstance(task, str) else task
    if not isinstance(task_, Task):
        raise CoreError("task must be a task name or a Task, got {type}", type=type(task).__name__)
    config.check_model(model.config)
    mc = model.config
    sizes = {"task": task_.name, "n_in": task_.n_in, "n_out": task_.n_out}
    if mc.n_in != task_.n_in:
        raise CoreError(
            "the model has {m} inputs (n_in) but the task {task} needs {t}; build the model with "
            "n_in={n_in}, n_out={n_out}",
            m=mc.n_in,
            t=task_.n_in,
            **sizes,
        )
    if mc.n_out != task_.n_out:
        raise CoreError(
            "the model has {m} outputs (n_out) but the task {task} needs {t}; build the model with "
            "n_in={n_in}, n_out={n_out}",
            m=mc.n_out,
            t=task_.n_out,
            **sizes,
        )
    if config.reset_on_error and task_.step_tolerance is None:
        raise CoreError(
            "reset_on_error needs a task with a per-step tolerance (spike_delay, spike_generation, "
            "periodic); {task} has none — set reset_on_error=False",
            task=task_.name,
        )
    return task_, config


class Trainer:
    """Train ``model`` on ``task`` (a Task or a task name). Settings: see ``TrainConfig``."""

    def __init__(
        self, model: Model, task: Task | str, config: TrainConfig | None = None, **settings: Any
    ) -> None:
        self.task, config = _checked(model, task, config, settings)
        mc = model.config
        self.model, self.config, self.K = model, config, model.K
        self.n = model.K or 1
        crit = self.task.criterion
        # a fixed-set criterion (embedded Reber's paper protocol) unless a streak replaces it
        self.fixed_set = FixedSetCheck(self.task) if crit.check_every and not config.streak else None
        self.required = config.streak or crit.streak
        self.criterion, self.reduced = criterion_text(crit, config.streak)
        self.book = Bookkeeper(
            self.n,
            self.required,
            crit.mean_abs_error_below,
            config.budget,
            by_check=self.fixed_set is not None,
        )
        self.opt = (Adam if config.optimizer == "adam" else SGD)(
            config.lr, config.momentum, config.clip_value, config.clip_norm, model.K, masks=model.masks()
        )
        # sequential construction: the memory cells join each network when its error stops decreasing
        self.grower = Grower(model, config.grow_window) if config.grow_window else None
        self._absent_out = self.opt.masks.get("W_out")
        if self.grower is not None:
            self.opt.masks["W_out"] = self.grower.mask(self._absent_out)
        seeds = [c.seed for c in model.members] if model.K else [mc.seed]
        self.streams = [
            MemberStream(self.task, np.random.default_rng([config.seed, s]), config.batch) for s in seeds
        ]
        self.rtrl = RTRL(model, batch=config.batch) if config.algorithm == "rtrl" else None
        self.probe_batch = (
            self.task.generate(np.random.default_rng([config.seed, PROBE_STREAM]), 1)
            if config.probe
            else None
        )
        self.watch = StuckWatch(self.n, every=max(100, config.batch), budget=config.budget)
        self.check_batch = self.task.generate(np.random.default_rng([config.seed, CHECK_STREAM]), 1)
        self.history: dict[str, list] = {
            k: [] for k in ("sequences", "loss", "streak", "criterion_fraction", "seq_per_second", "elapsed")
        }
        self.last_grads: dict[str, Array] | None = None  # raw gradient of the last batch (for norms)
        self.last_loss = np.full(self.n, np.nan)
        self._loss_sum, self._loss_count = np.zeros(self.n), np.zeros(self.n)
        self.elapsed, self._since_time, self._since_seqs = 0.0, 0.0, 0

    # ------------------------------------------------------------------ public interface
    @property
    def done(self) -> bool:
        return not self.book.running.any()

    def run(self, report_every: int | None = None) -> Iterator[Progress]:
        """Train until every network stopped, yielding a Progress every ``report_every`` sequences."""
        every = self.config.report_every if report_every is None else report_every
        if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 1:
            raise CoreError("report_every must be a whole number ≥ 1, got {value}", value=repr(every))
        since = 0
        while not self.done:
            self._train_batch()
            since += self.config.batch
            if since >= every:
                since = 0
                yield self.progress()
        if since or not self.history["sequences"]:
            yield self.progress()

    def train(self, n_sequences: int) -> Progress:
        """Train ``n_sequences`` more sequences per network (whole batches), or until stopped."""
        if isinstance(n_sequences, bool) or not isinstance(n_sequences, (int, np.integer)) or n_sequences < 0:
            raise CoreError("n_sequences must be a whole number ≥ 0, got {value}", value=repr(n_sequences))
        trained = 0
        while trained < n_sequences and not self.done:
            self._train_batch()
            trained += self.config.batch
        return self.progress()

    # ------------------------------------------------------------------ one batch
    def _train_batch(self) -> None:
        t0 = time.perf_counter()
        active = self.book.running.copy()
        batch, steps = population_batch(self.streams, active, self.K is not None)
        algo = self.config.algorithm
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            outputs, loss, pending = ALGORITHMS[algo](self, batch, active, steps)
            report = self.task.evaluate(outputs, batch)
        alive = active & self.book.running  # divergence was recorded during the batch
        B = self.config.batch
        correct = np.asarray(report.correct).reshape(self.n, B)
        err = np.asarray(report.metrics["seq_abs_error"]).reshape(self.n, B)
        before = self.book.seen.copy() if self.fixed_set is not None else None
        solved_now = self.book.record(correct, err, alive)
        if pending is not None:  # bptt: the update comes after judging the batch
            grads, snapshot = pending
            with np.errstate(over="ignore", invalid="ignore"):
                self._apply(grads, alive & ~solved_now, snapshot, CoreText("the update"))
        if self.fixed_set is not None:  # judged on the fixed set, with the updated weights
            due = self.fixed_set.due(before, self.book.seen, alive)
            if due.any():
                self.book.checked(self.fixed_set.right(self.model), due)
        loss = np.reshape(loss, self.n)
        self._loss_sum += np.where(alive, loss, 0.0)
        self._loss_count += alive
        if self.grower is not None and self.grower.update(loss, alive, self.book.seen):
            self.opt.masks["W_out"] = self.grower.mask(self._absent_out)
        self.last_loss = np.where(alive, loss, self.last_loss)
        self.watch.add(loss, alive)
        running = self.book.running
        if running.any() and self.watch.due(int(self.book.seen[running].max())):
            self._check_stuck(int(self.book.seen[running].max()))
        dt = time.perf_counter() - t0
        self.elapsed += dt
        self._since_time += dt
        self._since_seqs += int(alive.sum()) * B

    def _check_stuck(self, seen: int) -> None:
        """Saturated and not improving for ``watch.patience`` sequences: stop, say which units."""
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            run = forward(self.model, self.check_batch.xs, check=False, fast=True)
            fractions = saturated_fractions(run.internals, self.model.config, self.K is not None)
        w = self.watch
        for k, parts in w.check(fractions, self.book.running, seen):
            why = (
                CoreText(
                    "the outputs have been pinned for the last {n} sequences, so no weight can learn any more",
                    n=format(int(w.pinned[k]) * w.every, ","),
                )
                if w.pinned[k] >= PINNED_CHECKS
                else CoreText(
                    "the loss has not improved by 1 % for {n} sequences (best {best})",
                    n=format(int(w.stale[k]), ","),
                    best=format(w.best[k], ".3g"),
                )
            )
            self.book.diverge(
                k,
                CoreText(
                    "{who}stopped in sequence {at}: stuck — saturated {groups} on a check sequence (f′ ≈ 0, so "
                    "almost no error flows back); {why}; {advice}",
                    who=self._who(k),
                    at=format(seen, ","),
                    groups=parts,
                    why=why,
                    advice=advice(self.config.lr),
                ),
            )

    def _member_mask(self, mask: Array) -> Array | bool:
        """(n,) per-network mask -> what the optimiser expects (bool for one network)."""
        return mask if self.K is not None else bool(mask[0])

    def _check_grads(self, grads: dict, alive: Array, step: int | None = None) -> tuple[dict, Array]:
        """Clip; networks whose gradient is non-finite stop (the message names the parameter)."""
        clipped, info = self.opt.clip(grads)
        bad = alive & ~np.isfinite(np.reshape(info.norm, self.n))
        for k in np.flatnonzero(bad):
            name = next((n for n, g in grads.items() if not np.isfinite(g[k] if self.K else g).all()), None)
            what = (
                CoreText("non-finite gradient of '{name}'", name=name)
                if name
                else CoreText("the gradient norm overflows")
            )
            self.book.diverge(k, self._failed(k, what, step))
        return clipped, alive & ~bad

    def _apply(self, grads: dict, active: Array, snapshot: dict, where: CoreText) -> None:
        self.opt.apply(self.model.params, grads, self._member_mask(active))
        self._check_weights(snapshot, active, where, counted=True)

    def _bad_weight(self, k: int) -> str | None:
        """The first parameter of network k holding a non-finite value (None if all finite)."""
        return next(
            (n for n, p in self.model.params.items() if not np.isfinite(p[k] if self.K else p).all()), None
        )

    def _check_weights(
        self,
        snapshot: dict,
        active: Array,
        where: CoreText,
        since: CoreText = BEFORE_IT,
        counted: bool = False,
    ) -> None:
        """Networks whose weights turned non-finite get their snapshot back and stop."""
        lead = (self.n,)
        bad = np.zeros(self.n, dtype=bool)
        for p in self.model.params.values():
            bad |= ~np.isfinite(p.reshape(lead + (-1,))).all(-1)
        for k in np.flatnonzero(bad & active):
            name = self._bad_weight(k)
            for n, p in self.model.params.items():  # back to the last finite weights
                if self.K is None:
                    p[...] = snapshot[n]
                else:
                    p[k] = snapshot[n][k]
            what = CoreText(
                "{where} made weight '{name}' non-finite (weights restored from {since})",
                where=where,
                name=name,
                since=since,
            )
            self.book.diverge(k, self._failed(k, what, counted=counted))

    def _who(self, k: int) -> CoreText | str:
        """'member 3 (seed 3) ' in a population, nothing for one network."""
        if self.K is None:
            return ""
        return CoreText("member {k} (seed {seed}) ", k=k, seed=self.model.members[k].seed)

    def _failed(self, k: int, what: CoreText, step: int | None = None, counted: bool = False) -> CoreText:
        """'member 3 (seed 3) diverged in sequence 57, step 12: <what>; <advice>' (the sequence being
        trained)."""
        return CoreText(
            "{who}diverged in sequence {n}{at}: {what}; {advice}",
            who=self._who(k),
            n=format(self.book.seen[k] + (0 if counted else 1), ","),
            at=CoreText(", step {step}", step=step) if step is not None else "",
            what=what,
            advice=_ADVICE,
        )

    def _forward_failures(
        self,
        loss: Array,
        alive: Array,
        internals: dict | None = None,
        step: int | None = None,
        offset: int = 0,
    ) -> Array:
        """Networks whose loss is non-finite stop; the message names the first bad quantity."""
        bad = alive & ~np.isfinite(np.reshape(loss, self.n))
        for k in np.flatnonzero(bad):
            weight = self._bad_weight(k)
            if weight is not None:
                what = CoreText("weight '{name}' became non-finite in the previous update", name=weight)
            elif internals is not None:
                t, name = first_nonfinite({n: (a[:, k] if self.K else a) for n, a in internals.items()})
                if name is None:
                    what = CoreText("the loss overflowed (finite but huge outputs, e.g. in 'y')")
                else:
                    what = CoreText("non-finite value in the forward pass, first in '{name}'", name=name)
                    step = t + offset
            else:  # rtrl: only this step's state is at hand
                s = self.rtrl.state["s"]
                what = (
                    CoreText("non-finite value in the forward pass, first in the cell state s")
                    if not np.isfinite(s[k] if self.K else s).all()
                    else CoreText("non-finite value in the forward pass, first in the output y")
                )
            self.book.diverge(k, self._failed(k, what, step))
        return alive & ~bad

    # ------------------------------------------------------------------ reporting
    def probe(self) -> ProbeTrace | None:
        """The probe sequence through the current network(s): outputs and internals."""
        if self.probe_batch is None:
            return None
        b = self.probe_batch
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            run = forward(self.model, b.xs, check=False)
        # the quantities the run shows; y is the outputs, held apart
        internals = {n: run.internals[n] for n in run.internals.shown() if n != "y"}
        return ProbeTrace(b.xs, b.targets, b.mask, run.outputs, internals)

    def status(self) -> str:
        return reports.status_word(self.book.status, self.K is not None)

    def message(self) -> str:
        return reports.message(
            self.book,
            self.K is not None,
            self.config.budget,
            self.required,
            self.criterion,
            self.fixed_set is not None,
        )

    def _value(self, a: Array):
        a = np.asarray(a)
        return a if self.K is not None else a[0].item()

    def progress(self) -> Progress:
        """A progress report now (also appended to ``history``)."""
        b = self.book
        mean_loss = np.where(
            self._loss_count > 0, self._loss_sum / np.maximum(self._loss_count, 1), self.last_loss
        )
        self._loss_sum[:], self._loss_count[:] = 0.0, 0.0
        rate = self._since_seqs / self._since_time if self._since_time > 0 else 0.0
        self._since_seqs, self._since_time = 0, 0.0
        norms = {}
        if self.last_grads is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                sq = sq_norms(self.last_grads, self.K)
            norms = {
                g: self._value(np.reshape(v, self.n))
                for g, v in group_norms(sq, self.model.config.variant).items()
            }
        p = Progress(
            status=self.status(),
            message=self.message(),
            sequences=self._value(b.seen.copy()),
            loss=self._value(mean_loss),
            streak=self._value(b.streak.copy()),
            required=self.required,
            criterion=self.criterion,
            reduced=self.reduced,
            seq_per_second=rate,
            grad_norms=norms,
            statuses=tuple(STATUS_NAMES[s] for s in b.status),
            solved_at=tuple(int(s) if s >= 0 else None for s in b.solved_at),
            elapsed=self.elapsed,
            probe=self.probe(),
        )
        h = self.history
        h["sequences"].append(p.sequences)
        h["loss"].append(p.loss)
        h["streak"].append(p.streak)
        h["criterion_fraction"].append(p.criterion_fraction)
        h["seq_per_second"].append(rate)
        h["elapsed"].append(self.elapsed)
        return p

    def results(self):
        """One row per network: member, seed, status, sequences seen, sequences to criterion, message."""
        seeds = [c.seed for c in self.model.members] if self.K else [self.model.config.seed]
        return reports.results_frame(self.book, seeds)

    def history_frame(self):
        """The history as a tidy table: one row per report (and member)."""
        return reports.history_frame(self.history, self.n)
