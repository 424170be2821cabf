"""Shared pieces of the cell modules.

A cell is a small object built from a ``ModelConfig`` with five methods:

* ``prepare(params) -> P``: pack the named parameter arrays into the few matrices the
  step uses (done once per sequence, so the per-timestep loop does one matmul);
* ``zero_state(lead) -> state``: the state at t = 0 for leading shape ``lead = (..., B)``;
* ``step(P, state, x) -> (state, hidden, rec)``: one timestep; ``rec`` names every
  internal of that step (and is the backward pass's cache);
* ``CACHE``: the names in ``rec`` that only the backward pass reads (e.g. ``h_prev``); every other
  record is a quantity a run shows (``Run.to_frame``, the traces CSV, Train's probe);
* ``backward_step(P, rec, dstate, dhidden, truncated) -> (dstate_prev, delta)``: one
  step of the chain rule; ``delta`` holds this step's errors at the net inputs (and the
  total error at the state, for ``error_flow``);
* ``param_grads(P, recs, deltas) -> grads``: contract the stacked per-step errors with
  the stacked inputs in a few large matmuls instead of T small ones.

Every array carries leading ``...`` axes (population K, batch B) before its last axis.

Optional whole-sequence fast path (lstm, gru; used by ``lc.forward`` / ``lc.backward``):
``forward_sequence(P, xs, state, xp)`` and ``backward_sequence(P, cache, dhidden, k)`` run all
T steps into preallocated buffers (see ``lstm_fused.py``). ``step`` stays the readable per-step
code, the generic path: the tests hold the two paths to the same numbers (1e-12).
"""

from __future__ import annotations

import numpy as np

Array = np.ndarray


def transposed(w: Array) -> Array:
    """Wᵀ over the last two axes (a population's leading K axis stays in front)."""
    return np.swapaxes(w, -1, -2)


def outer_sum(delta: Array, inp: Array) -> Array:
    """Σ over time and batch of outer products: (T, ..., B, n), (T, ..., B, m) -> (..., n, m)."""
    inp = np.broadcast_to(inp, delta.shape[:-1] + inp.shape[-1:])
    d = np.moveaxis(delta, 0, -3)  # (..., T, B, n)
    z = np.moveaxis(inp, 0, -3)
    d = d.reshape(d.shape[:-3] + (-1, d.shape[-1]))
    z = z.reshape(z.shape[:-3] + (-1, z.shape[-1]))
    return np.swapaxes(d, -1, -2) @ z


def time_batch_sum(delta: Array) -> Array:
    """Σ over time (axis 0) and batch (axis −2): (T, ..., B, n) -> (..., n)."""
    return delta.sum(axis=0).sum(axis=-2)


def stack_records(recs: list[dict], name: str) -> Array:
    """One named quantity of every step record, stacked over time: (T, ...)."""
    return np.stack([r[name] for r in recs])
