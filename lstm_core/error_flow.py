"""Error flow: how much of an error injected at one timestep reaches each earlier state.

For a loss at one timestep ``at`` (default: the last), ``error_flow`` runs the exact
backward pass (or the 1997 truncated one) and reports, for every t ≤ at, the norm of
dL/d(state at t) — h for rnn/gru, c (and h) for lstm, the cell states s (and cell outputs
y_c) for the LSTM-1997 family, â and h for the local-feedback units.

It also reports each step's *local factor* — how one step back scales the error along the
state — and the *theory line* built from those factors alone:
    rnn / gru:               ‖∂h(t)/∂h(t−1)‖₂ per sequence; theory = ‖δ(at)‖ Π ‖J‖ (an upper bound,
                             equal to the measurement for a single unit)
    lstm1997:                1 (the CEC); lstm2000/2002 and lstm: the forget gate, per cell;
    local_feedback:          |u| (net-input units), |v f'(ā)| (activation units), per unit;
                             theory = ‖δ(at) ⊙ Π factors‖ — exact along the CEC once nothing else
                             feeds the state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import CoreError
from .gradients import backward
from .model import Model
from .sequence import forward, loss_and_output_error

Array = np.ndarray


@dataclass
class ErrorFlow:
    at: int  # the timestep carrying the loss
    norms: dict[str, Array]  # label -> (T, ...) ‖dL/dstate(t)‖ over batch and units (NaN after `at`)
    theory: dict[str, Array]  # label -> (T, ...) the product-of-local-factors prediction
    factors: dict[str, Array]  # label -> (T, ..., B[, n]) local factor of step t (from t back to t−1)
    deltas: dict[str, Array]  # label -> (T, ..., B, n) dL/dstate(t) itself

    def ratios(self, label: str) -> Array:
        """Measured norm ratio ‖δ(t−1)‖ / ‖δ(t)‖ for every step (the per-step decay)."""
        n = self.norms[label]
        return n[:-1] / n[1:]


def _norm(a: Array) -> Array:
    """Norm over batch and units: (T, ..., B, n) -> (T, ...), scaled so squaring never overflows."""
    if a.shape[-1] == 0 or a.shape[-2] == 0:
        return np.zeros(a.shape[:-2])
    scale = np.abs(a).max(axis=(-2, -1), keepdims=True)
    scale = np.where(scale > 0, scale, 1.0)
    r = a / scale
    return scale[..., 0, 0] * np.sqrt((r * r).sum(axis=-1).sum(axis=-1))


def error_flow(
    model: Model,
    xs: Array,
    targets: Array | None = None,
    mask: Array | None = None,
    at: int | None = None,
    method: str = "bptt",
) -> ErrorFlow:
    """Norm of dL/d(state(t)) for every t ≤ ``at`` for a loss at step ``at`` only.

    With ``targets=None`` the loss is Σ_i y_i(at) (a unit error at every output).
    """
    run = forward(model, xs)
    T = run.outputs.shape[0]
    at = T - 1 if at is None else int(at)
    if not 0 <= at < T:
        raise CoreError("'at' must be a timestep between 0 and {last}; got {at}", last=T - 1, at=at)
    only_at = np.zeros(run.outputs.shape[:1] + run.outputs.shape[-2:-1])
    only_at[at] = 1.0
    if model.K is not None:
        only_at = only_at[:, None]
    if targets is None:
        from . import activations

        act = model.config.output_activation
        if act == "softmax":
            raise CoreError("error_flow without targets needs a non-softmax output; pass targets")
        dnet = only_at[..., None] * activations.get(act)[1](run.internals["net_out"], run.outputs)
        dnet = dnet / run.outputs.shape[-2]
    else:
        m = np.asarray(mask, dtype=float) if mask is not None else np.ones(np.asarray(targets).shape[:-1])
        m = m * (only_at if m.ndim == only_at.ndim else only_at[:, 0])
        _, dnet = loss_and_output_error(model, run.outputs, run.internals["net_out"], targets, m)
    _, deltas = backward(model, run, dnet, method)
    cell = model.cell
    norms, theory, factors, dstack = {}, {}, {}, {}
    local = [cell.local_factor(run.prepared, r) for r in run.recs]
    for label, dname in cell.flow_states.items():
        d = np.stack([dl[dname] for dl in deltas])
        d[at + 1 :] = np.nan
        dstack[label], norms[label] = d, _norm(d)
        if label not in local[0]:
            continue
        f = np.stack([lf[label] for lf in local])
        factors[label] = f
        # theory(t) = δ(at) scaled by the factors of steps t+1 … at
        acc = np.ones_like(f[0])
        th = np.full(norms[label].shape, np.nan)
        base = d[at]
        for t in range(at, -1, -1):
            if f.ndim == d.ndim:  # diagonal (per unit) factors
                th[t] = _norm((base * acc)[None])[0]
            else:  # one matrix-norm per sequence
                per_seq = _norm(base[None, ..., None, :])[0] * acc  # ‖δ_b(at)‖ Π ‖J‖, per sequence b
                th[t] = _norm(per_seq[None, ..., None])[0]
            acc = acc * f[t]
        theory[label] = th
    return ErrorFlow(at, norms, theory, factors, dstack)
