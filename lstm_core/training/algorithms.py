"""The three training procedures, one batch each: what ``Trainer`` runs per batch.

* ``bptt``  — the exact gradient of a sequence (or mini-batch); one update per batch, made by the
  trainer after the batch is judged (returned as pending).
* ``tbptt`` — chunks of k steps, the state carried from chunk to chunk; one update per chunk.
* ``rtrl``  — the 1997 online method: ``lc.RTRL`` is reset at each sequence start and the weights
  are updated after EVERY timestep with that step's truncated gradient.

Each returns ``(outputs, loss, pending)``. They are functions of the trainer, not methods, so the
trainer's file keeps the bookkeeping and this one the procedures; they use the trainer's hooks for
non-finite values (``_forward_failures``, ``_check_grads``, ``_check_weights``) and its optimiser.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from ..errors import CoreText
from ..gradients import backward
from ..model import Model
from ..sequence import forward, loss_and_output_error
from ..tasks.base import Batch
from .data import stop_streams

Array = np.ndarray
# where a weight turned non-finite, and since when the restored weights are (a diverged run's message)
IN_SEQUENCE = CoreText("an update in this sequence")
SEQUENCE_START = CoreText("the start of the sequence")


class Trainer(Protocol):
    """What the procedures use of ``trainer.Trainer`` (a protocol, so this file does not import that one
    and the two are no import circle)."""

    model: Model
    config: Any  # its TrainConfig
    task: Any
    opt: Any  # its SGD
    rtrl: Any  # lc.RTRL (algorithm "rtrl") or None
    last_grads: dict[str, Array] | None

    def _member_mask(self, mask: Array) -> Array | bool: ...
    def _check_grads(self, grads: dict, alive: Array, step: int | None = None) -> tuple[dict, Array]: ...
    def _check_weights(
        self, snapshot: dict, active: Array, where: CoreText, since: CoreText = ..., counted: bool = ...
    ) -> None: ...
    def _forward_failures(
        self,
        loss: Array,
        alive: Array,
        internals: dict | None = None,
        step: int | None = None,
        offset: int = ...,
    ) -> Array: ...


def bptt(tr: Trainer, batch: Batch, active: Array, steps: Array) -> tuple:
    """Exact gradient of the batch; the update is returned (pending), made after the batch is judged."""
    model = tr.model
    run = forward(model, batch.xs, check=False, fast=True)
    loss, dnet = loss_and_output_error(
        model, run.outputs, run.internals["net_out"], batch.targets, batch.mask
    )
    alive = tr._forward_failures(loss, active, run.internals)
    grads, _ = backward(model, run, dnet, "bptt")
    tr.last_grads = grads
    clipped, _ = tr._check_grads(grads, alive)
    snapshot = {n: p.copy() for n, p in model.params.items()}
    return run.outputs, loss, (clipped, snapshot)


def tbptt(tr: Trainer, batch: Batch, active: Array, steps: Array) -> tuple:
    """Chunks of k steps, the state carried over; one update per chunk."""
    model, k = tr.model, tr.config.k
    snapshot = {n: p.copy() for n, p in model.params.items()}
    state, outs, total = None, [], 0.0
    alive = active.copy()
    for t0 in range(0, batch.xs.shape[0], k):
        sl = slice(t0, t0 + k)
        run = forward(model, batch.xs[sl], state=state, check=False, fast=True)
        loss, dnet = loss_and_output_error(
            model, run.outputs, run.internals["net_out"], batch.targets[sl], batch.mask[sl]
        )
        alive = tr._forward_failures(loss, alive, run.internals, offset=t0)
        grads, _ = backward(model, run, dnet, "bptt")
        clipped, alive = tr._check_grads(grads, alive, step=t0)
        tr.opt.apply(model.params, clipped, tr._member_mask(alive & (t0 < steps)))
        total = total + loss
        state = run.state
        outs.append(run.outputs)
    tr.last_grads = grads
    tr._check_weights(snapshot, active, IN_SEQUENCE, SEQUENCE_START)
    return np.concatenate(outs), total, None


def rtrl(tr: Trainer, batch: Batch, active: Array, steps: Array) -> tuple:
    """The 1997 online method: an update after every timestep with that step's truncated gradient."""
    model, r = tr.model, tr.rtrl
    snapshot = {n: p.copy() for n, p in model.params.items()}
    r.reset(tr.config.batch)
    alive, outs, total, last = active.copy(), [], 0.0, None
    xs, tg, mk = model.check_inputs(batch.xs), batch.targets, batch.mask  # checked once per batch
    silent = ~mk.reshape(mk.shape[0], -1).any(1)  # steps where no sequence carries a target
    tol = tr.task.step_tolerance if tr.config.reset_on_error else None
    steps = np.array(steps, copy=True)
    prepare = model.cell.prepare
    P = prepare(model.params)  # the packed weights, redone after every update
    for t in range(xs.shape[0]):
        if silent[t]:
            # no error at this step: the gradient is exactly 0 and, without momentum, so is the
            # update — skip computing them (bit-identical, and cheaper on end-of-sequence tasks)
            outs.append(r.advance(xs[t], P))
            if tr.config.momentum:
                zeros = {n: np.zeros_like(p) for n, p in model.params.items()}
                tr.opt.apply(model.params, zeros, tr._member_mask(alive & (t < steps)))
                P = prepare(model.params)
            continue
        y, lt, g = r.step(xs[t], tg[t], mk[t], prepared=P, checked=True)  # P: the newest weights
        outs.append(y)
        if tol is not None:  # this step is still trained, later ones not
            steps = stop_streams(y, tg[t], mk[t], t, steps, tol)
        if not np.isfinite(lt).all():
            alive = tr._forward_failures(lt, alive, step=t)
        if tr.opt.clip_norm is not None:
            clipped, alive = tr._check_grads(g, alive, step=t)
        else:
            # no per-step norm (it would cost as much as the step): a non-finite gradient makes
            # the weights non-finite, which the check after the sequence catches and undoes
            clipped = tr.opt.clip(g, need_norm=False)[0]
        tr.opt.apply(model.params, clipped, tr._member_mask(alive & (t < steps)))
        P = prepare(model.params)
        total = total + lt
        last = g
        if tol is not None and not (alive & (t < steps)).any() and t + 1 < xs.shape[0]:
            # every stream stopped: the rest is never trained; its outputs only belong to
            # sequences already judged wrong (or to padding), so the last output stands in
            outs.extend([y] * (xs.shape[0] - t - 1))
            break
    tr.last_grads = last
    tr._check_weights(snapshot, active, IN_SEQUENCE, SEQUENCE_START)
    return np.stack(outs), total, None


ALGORITHMS = {"bptt": bptt, "tbptt": tbptt, "rtrl": rtrl}
