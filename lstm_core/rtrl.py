"""The 1997 truncated gradient computed forward in time: RTRL with eligibility traces.

For the LSTM-1997 family, error reaches the past only along the CEC, so the truncated
dL/dw of every gate and cell-input weight is carried forward in per-cell traces
(memory independent of T, "local in space and time"). With f = y_fg (1 without a forget
gate) and z_q(t) the q-th source of step t (x(t), r(t−1), or s(t−1) for peepholes):

    e_c(t)  = f(t) e_c(t−1)  + y_ig(t) g'(net_c(t)) z_q(t)          (W_c, b_c: per cell)
    e_ig(t) = f(t) e_ig(t−1) + g(net_c(t)) σ'(net_ig(t)) z_q(t)      (W_ig, b_ig, u_ig: per cell j of block k)
    e_fg(t) = f(t) e_fg(t−1) + s(t−1) σ'(net_fg(t)) z_q(t)           (W_fg, b_fg, u_fg)
    dL/dw  += δ_s(t) e(t),   δ_s(t) = δ_yc(t) y_og(t) h'(s(t))

with δ_yc(t) the error arriving at the cell output from the output layer at step t. The
output gate and output layer gradients are local in time. ``RTRL.step`` returns the
gradient of step t's error alone, so a trainer can update the weights after every step.
"""

from __future__ import annotations

import numpy as np

from .errors import CoreError
from .model import Model
from .numerics import NonFiniteError, nonfinite_params
from .sequence import loss_and_output_error
from .variants import check_algorithm

Array = np.ndarray


class RTRL:
    """Online truncated-gradient computation for one (population) model."""

    def __init__(self, model: Model, batch: int = 1) -> None:
        check_algorithm(model.config, "rtrl")
        self.model = model
        self.reset(batch)

    def reset(self, batch: int = 1) -> None:
        """Start a new sequence: zero state and zero traces."""
        m, c = self.model, self.model.cell
        self.state = m.initial_state(batch)
        lead = m.lead + (batch,)
        nb, bs, nxr = c.nb, c.bs, c.n_xr
        self.e = {"W_c": np.zeros(lead + (c.nc, nxr)), "b_c": np.zeros(lead + (c.nc,))}
        gates = ["ig"] + (["fg"] if c.fg else [])
        for g in gates:
            self.e[f"W_{g}"] = np.zeros(lead + (nb, bs, nxr))
            self.e[f"b_{g}"] = np.zeros(lead + (nb, bs))
            if c.peep:
                self.e[f"u_{g}"] = np.zeros(lead + (nb, bs, bs))

    def step(
        self,
        x: Array,
        target: Array | None = None,
        mask: Array | None = None,
        prepared: dict | None = None,
        checked: bool = False,
    ):
        """One timestep. Returns (y, loss of this step, truncated gradient of this step's loss).

        ``checked=True``: ``x`` is already checked and broadcast (``model.check_inputs``, as the
        trainer does once per batch) and is used as it is.
        """
        m, c = self.model, self.model.cell
        if not checked:
            x = m.check_inputs(x, time_axis=False)
        P = prepared if prepared is not None else c.prepare(m.params)
        with np.errstate(over="ignore", invalid="ignore"):
            self.state, hidden, rec = c.step(P, self.state, x)
            net_out, y = m.output(hidden)
            self._update_traces(rec)
            if target is None:
                return y, None, None
            mk = (
                np.ones(y.shape[:-1])
                if mask is None
                else np.broadcast_to(np.asarray(mask, float), y.shape[:-1])
            )
            loss, dnet_out = loss_and_output_error(
                m, y[None], net_out[None], np.asarray(target)[None], mk[None]
            )
            grads = self._grads(rec, hidden, dnet_out[0], P)
        return y, loss, grads

    def advance(self, x: Array, prepared: dict) -> Array:
        """One timestep without a target (no loss, no gradient): state and traces move on.

        The trainer's fast path for steps where no sequence carries a target: ``x`` must already
        be checked and broadcast (``model.check_inputs``) and ``prepared`` must be
        ``cell.prepare`` of the current weights. Same arithmetic as ``step(x)``; returns y.
        """
        m = self.model
        with np.errstate(over="ignore", invalid="ignore"):
            self.state, hidden, rec = m.cell.step(prepared, self.state, x)
            y = m.output(hidden)[1]
            self._update_traces(rec)
        return y

    def _update_traces(self, rec: dict) -> None:
        # in place (the traces belong to this object; reset() makes fresh ones): e ← f e + coef xr,
        # the same two roundings as e = f e + coef xr, without a new array per trace per step
        c, e = self.model.cell, self.e
        blocks = c._blocks
        xr = rec["xr"]
        per_cell = (lambda a: a) if c.bs == 1 else (lambda a: np.repeat(a, c.bs, axis=-1))
        gc, yig = rec["g"], rec["y_ig"]
        # cell input weights: e_c = f e_c + y_ig g'(net_c) xr
        coef_c = per_cell(yig) * c.gprime(rec["net_c"], gc)
        if c.fg:
            fc = per_cell(rec["y_fg"])
            e["W_c"] *= fc[..., None]
            e["b_c"] *= fc
        e["W_c"] += coef_c[..., None] * xr[..., None, :]
        e["b_c"] += coef_c
        sp4 = blocks(rec["s_prev"])
        coefs = {"ig": blocks(gc) * (yig * (1.0 - yig))[..., None]}
        if c.fg:
            yfg = rec["y_fg"]
            coefs["fg"] = sp4 * (yfg * (1.0 - yfg))[..., None]
            fg_b = yfg[..., None]  # forget gate per block, for bias traces (..., B, nb, 1)
            fg_w = fg_b[..., None]  # ... and for weight traces (..., B, nb, 1, 1)
        for g, coef in coefs.items():  # coef: (..., B, nb, bs)
            if c.fg:
                e[f"W_{g}"] *= fg_w
                e[f"b_{g}"] *= fg_b
            e[f"W_{g}"] += coef[..., None] * xr[..., None, None, :]
            e[f"b_{g}"] += coef
            if c.peep:
                if c.fg:
                    e[f"u_{g}"] *= fg_w
                e[f"u_{g}"] += coef[..., None] * sp4[..., None, :]

    def _grads(self, rec: dict, hidden: Array, dnet_out: Array, P: dict) -> dict:
        m, c, e = self.model, self.model.cell, self.e

        def outer(d: Array, a: Array) -> Array:  # Σ_batch d ⊗ a: (..., B, m), (..., B, n) -> (..., m, n)
            return np.swapaxes(d, -1, -2) @ a

        grads = {"W_out": outer(dnet_out, hidden), "b_out": dnet_out.sum(-2)}
        dyc = dnet_out @ m.params["W_out"]
        if m.config.input_to_output:
            dyc = dyc[..., m.config.n_in :]
        s, hs = rec["s"], rec["h"]
        hp = c.hprime(s, hs)
        if c.og:
            yog = rec["y_og"]
            ds = dyc * hp * np.repeat(yog, c.bs, axis=-1)  # δ_s(t), truncated
            dnet_og = (c._blocks(dyc) * c._blocks(hs)).sum(-1) * yog * (1.0 - yog)
            grads["W_og"], grads["b_og"] = outer(dnet_og, rec["xr"]), dnet_og.sum(-2)
            if c.peep:
                grads["u_og"] = (dnet_og[..., None] * c._blocks(s)).sum(-3)
        else:
            ds = dyc * hp
        grads["W_c"] = (ds[..., None] * e["W_c"]).sum(-3)
        grads["b_c"] = (ds * e["b_c"]).sum(-2)
        d4 = c._blocks(ds)
        for g in ["ig"] + (["fg"] if c.fg else []):
            grads[f"W_{g}"] = (d4[..., None] * e[f"W_{g}"]).sum(-2).sum(-3)
            grads[f"b_{g}"] = (d4 * e[f"b_{g}"]).sum(-1).sum(-2)
            if c.peep:
                grads[f"u_{g}"] = (d4[..., None] * e[f"u_{g}"]).sum(-2).sum(-3)
        return {n: grads[n] for n in m.params}


def rtrl_gradients(model: Model, xs: Array, targets: Array, mask: Array | None = None):
    """(loss, truncated gradient) of a whole sequence by online RTRL with fixed weights."""
    xs = model.check_inputs(xs)  # T = 0, wrong n_in, NaN inputs: ValueError
    bad = nonfinite_params(model.params)
    if bad:
        raise NonFiniteError(
            f"weight(s) {bad} hold NaN or infinity; rebuild the model or restore finite weights", name=bad[0]
        )
    T = xs.shape[0]
    targets = np.asarray(targets, dtype=float)
    if mask is None:
        mask = np.ones(targets.shape[:-1])
    mask = np.asarray(mask, dtype=float)
    for what, a, want in (("targets", targets, "(T, B, n_out)"), ("mask", mask, "(T, B)")):
        if a.ndim == 0 or a.shape[0] != T:
            raise CoreError(
                "{what} must have shape {want} with T = {T} (one entry per input step); got {shape}",
                what=what,
                want=want,
                T=T,
                shape=a.shape,
            )
    r = RTRL(model, batch=xs.shape[-2])
    P = model.cell.prepare(model.params)
    total, loss = None, 0.0
    with np.errstate(over="ignore", invalid="ignore"):  # a running sum that overflows: reported below
        for t in range(T):
            _, lt, g = r.step(xs[t], targets[t], mask[t], prepared=P)
            if not np.isfinite(lt).all():
                raise NonFiniteError(
                    f"the loss at step {t} is not finite (outputs or cell states overflowed; "
                    "inputs or weights too large?)",
                    step=t,
                    name="loss",
                )
            loss = loss + lt
            total = g if total is None else {n: total[n] + g[n] for n in g}
            bad = nonfinite_params(total)
            if bad:
                raise NonFiniteError(
                    f"the truncated gradient of {bad} is not finite from step {t} on "
                    "(inputs or weights too large?)",
                    step=t,
                    name=bad[0],
                )
    return loss, total
