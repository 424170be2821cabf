"""Gradients of the loss by backpropagation through time.

``gradients(model, xs, targets, mask, method=...)`` returns ``(loss, grads)`` with one
gradient array per parameter (same names and shapes, population axis included):

* ``"bptt"``      — the exact gradient (checked against finite differences in the tests);
* ``"truncated"`` — the 1997 truncated gradient of the LSTM-1997 family: error reaches the
  past only through the CEC s(t−1) → s(t) (see ``cells/memory_cell.py``); computed here by a
  backward pass, and forward in time by ``rtrl.py`` — the tests check they agree;
* ``"tbptt"``     — truncated BPTT(k): the sequence is cut into chunks of k steps and no
  error crosses a chunk boundary (what ``state.detach()`` every k steps does in PyTorch).
"""

from __future__ import annotations

import numpy as np

from .cells.base import outer_sum, time_batch_sum
from .errors import CoreError
from .model import Model
from .numerics import NonFiniteError, nonfinite_params
from .sequence import Run, StepViews, forward, loss_and_output_error
from .variants import supporting

Array = np.ndarray
METHODS = ("bptt", "truncated", "tbptt")


def backward(
    model: Model, run: Run, dnet_out: Array, method: str = "bptt", k: int | None = None, fast: bool = True
):
    """Backward pass over a recorded run given dL/dnet_out (T, ..., B, n_out).

    Returns (grads, deltas): ``deltas[t]`` holds step t's errors, including the total error
    at the state (used by ``error_flow``). A run made by a cell's whole-sequence fast path
    (the lstm) is differentiated by its ``backward_sequence`` for bptt and tbptt, unless
    ``fast=False`` (the generic per-step chain rule; the tests compare the two).
    """
    if method not in METHODS:
        raise CoreError(
            "unknown gradient method {method}; choose one of {choices}",
            method=repr(method),
            choices=list(METHODS),
        )
    truncated = method == "truncated"
    if method not in model.config.record.gradient_methods:
        raise CoreError(
            "the 1997 truncated gradient is defined for {variants}, not {variant}; use method='bptt' or 'tbptt'",
            variants=", ".join(supporting("truncated")),
            variant=model.config.variant,
        )
    if method == "tbptt":
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise CoreError("tbptt needs k, a whole number of steps ≥ 1; got {value}", value=repr(k))
    cell, P = model.cell, run.prepared
    hidden = run.internals["hidden"]
    grads = {"W_out": outer_sum(dnet_out, hidden), "b_out": time_batch_sum(dnet_out)}
    dhidden = dnet_out @ model.params["W_out"][None]  # (T, ..., B, n_hidden_out)
    T = dnet_out.shape[0]
    if fast and run.fused is not None and not truncated:
        with np.errstate(over="ignore", invalid="ignore"):
            cell_grads, errors = cell.backward_sequence(
                P, run.fused, dhidden, k if method == "tbptt" else None
            )
        grads.update(cell_grads)
        return {n: grads[n] for n in model.params}, StepViews(errors, list(errors), T)
    dstate = {n: np.zeros_like(v) for n, v in run.state.items()}
    deltas: list = [None] * T
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(T - 1, -1, -1):
            if method == "tbptt" and (t + 1) % k == 0 and t + 1 < T:
                dstate = {n: np.zeros_like(v) for n, v in dstate.items()}  # chunk boundary
            dstate, deltas[t] = cell.backward_step(P, run.recs[t], dstate, dhidden[t], truncated)
        grads.update(cell.param_grads(P, run.recs, deltas))
    return {n: grads[n] for n in model.params}, deltas


def gradients(
    model: Model,
    xs: Array,
    targets: Array,
    mask: Array | None = None,
    method: str = "bptt",
    k: int | None = None,
    state: dict | None = None,
    return_run: bool = False,
    fast: bool = False,
):
    """(loss, grads): loss per network (scalar, or (K,) for a population) and dL/dθ.

    ``state`` starts the sequence from a given state (treated as a constant);
    ``return_run=True`` also returns the forward ``Run`` (outputs, internals, final state);
    ``fast=True`` uses the cell's whole-sequence accelerator if it has one (lstm, gru).
    """
    run = forward(model, xs, state=state, fast=fast)
    if mask is None:
        mask = np.ones(np.asarray(targets).shape[:-1])
    loss, dnet_out = loss_and_output_error(model, run.outputs, run.internals["net_out"], targets, mask)
    if not np.isfinite(loss).all():
        raise NonFiniteError(
            "the loss overflowed: the outputs y are finite but so large that (y − target)² "
            "is not (identity output with huge inputs or weights?); scale the inputs down or "
            "use a smaller init range / learning rate",
            name="loss",
        )
    with np.errstate(over="ignore", invalid="ignore"):
        grads, _ = backward(model, run, dnet_out, method, k)
    bad = nonfinite_params(grads)
    if bad:
        raise NonFiniteError(
            f"the gradient of {', '.join(repr(b) for b in bad)} is not finite (the forward pass "
            "was, but the backward pass overflowed: inputs or weights too large); scale the inputs "
            "down or use a smaller init range / learning rate",
            name=bad[0],
        )
    return (loss, grads, run) if return_run else (loss, grads)
