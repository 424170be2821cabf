"""Whole-sequence forward and backward of the GRU into preallocated buffers.

The same idea as ``lstm_fused`` (read that module first): (T, ..., B, ·) buffers written
with ``out=``, per-step factors computed for all t at once; ``GRUCell.step`` is the readable
per-gate code of the same equations, held to the same numbers (1e-12) by the tests. Gate order r, z, n
(PyTorch's). With the column scale s = ½ on r, z and 1 on n, folded into W, U, b_i, b_h:
    gi(t) = s ⊙ (W x(t) + b_i),   gh(t) = s ⊙ (U h(t−1) + b_h)       (hn = gh_n, unscaled)
    [r, z] = ½ tanh(gi_rz + gh_rz) + ½                            (σ(x) = ½ tanh(x/2) + ½)
    n = tanh(gi_n + r ⊙ hn);   h = n + z ⊙ (h(t−1) − n)          (= (1 − z) n + z h(t−1))
Backward: every error at a net input is dh(t) times a factor known after the forward,
    Fn = (1 − z)(1 − n²),   Fz = (h(t−1) − n) σ'_z,   Fr = Fn hn σ'_r
    dgh(t) = dh(t) ⊙ [Fr, Fz, Fn r],   dgi(t) = dh(t) ⊙ [Fr, Fz, Fn]
so the sequential loop is dh(t) = dy(t) + dgh(t+1) U + dh(t+1) ⊙ z(t+1) and dgh(t) = dh(t) ⊙ G(t).
"""

from __future__ import annotations

import numpy as np

from .. import buffers
from .base import outer_sum, time_batch_sum

Array = np.ndarray


def column_scale(H: int) -> Array:
    """s (3H,): ½ on the σ columns r, z; 1 on n."""
    s = np.full(3 * H, 0.5)
    s[2 * H :] = 1.0
    return s


def forward_sequence(P: dict, xs: Array, h0: Array, gi: Array | None = None) -> dict:
    """Run T steps of xs (T, ..., B, n_in) from h0 (..., B, H); ``gi`` = s ⊙ (W x + b_i) if known.

    Returns the buffers ``gi``, ``gh`` (T, ..., B, 3H), ``rz`` (T, ..., B, 2H), ``n`` (T, ..., B, H)
    and ``hs`` (T+1, ..., B, H) with h0 at index 0.
    """
    T, H = xs.shape[0], h0.shape[-1]
    lead = np.broadcast_shapes(xs.shape[1:-1], h0.shape[:-1])
    gib = buffers.empty((T,) + lead + (3 * H,))
    if gi is None:
        np.matmul(xs, P["Wt_s"], out=gib)
        gib += P["bi_s"]
    else:
        gib[...] = gi
    gh, rz = buffers.empty(gib.shape), buffers.empty((T,) + lead + (2 * H,))
    n, hs = buffers.empty((T,) + lead + (H,)), buffers.empty((T + 1,) + lead + (H,))
    hs[0] = h0
    Ut, bh = P["Ut_s"], P["bh_s"]
    views = zip(
        gib[..., : 2 * H],
        gib[..., 2 * H :],
        gh,
        gh[..., : 2 * H],
        gh[..., 2 * H :],
        rz,
        rz[..., :H],
        rz[..., H:],
        n,
        hs[:-1],
        hs[1:],
    )
    for gi_rz, gi_n, gh_t, gh_rz, hn, rz_t, r_t, z_t, n_t, h_prev, h_t in views:
        np.matmul(h_prev, Ut, out=gh_t)
        gh_t += bh  # s ⊙ (U h(t−1) + b_h)
        np.add(gi_rz, gh_rz, out=rz_t)
        np.tanh(rz_t, out=rz_t)
        rz_t *= 0.5
        rz_t += 0.5  # r, z = σ(net)
        np.multiply(r_t, hn, out=n_t)
        n_t += gi_n
        np.tanh(n_t, out=n_t)  # n = tanh(gi_n + r ⊙ hn)
        np.subtract(h_prev, n_t, out=h_t)
        h_t *= z_t
        h_t += n_t  # h = n + z (h(t−1) − n)
    return {"gi": gib, "gh": gh, "rz": rz, "n": n, "hs": hs, "xs": xs}


def internals(fw: dict) -> dict:
    """The step records of every t as (T, ..., B, n) views, named as in ``GRUCell.step``."""
    rz, hs = fw["rz"], fw["hs"]
    H = hs.shape[-1]
    return {
        "x": fw["xs"],
        "h_prev": hs[:-1],
        "r": rz[..., :H],
        "z": rz[..., H:],
        "n": fw["n"],
        "hn": fw["gh"][..., 2 * H :],
        "h": hs[1:],
    }


def backward_sequence(P: dict, fw: dict, dy: Array, k: int | None = None):
    """Exact BPTT (or BPTT(k)) given dy = ∂L/∂h(t) (T, ..., B, H), overwritten with the total
    dL/dh(t). Returns (gW, gU, gbi, gbh) of the stacked gates and the per-step errors
    ``{"dh", "dgi", "dgh"}`` (as ``GRUCell.backward_step``)."""
    rz, n, hs, gh = fw["rz"], fw["n"], fw["hs"], fw["gh"]
    T, H = n.shape[0], n.shape[-1]
    lead = n.shape[1:-1]
    r, z, hn = rz[..., :H], rz[..., H:], gh[..., 2 * H :]
    # --- G = [Fr, Fz, Fn r] of every step, into dgh (each G(t) is used once, then overwritten)
    dgh, dgi = buffers.empty(gh.shape), buffers.empty(gh.shape)
    dgh_by_gate = dgh.reshape(dgh.shape[:-1] + (3, H))  # (T, ..., B, 3, H) view: gate blocks
    Fn, scratch = buffers.empty(n.shape), dgi[..., 2 * H :]
    np.subtract(1.0, rz, out=dgh[..., : 2 * H])
    dgh[..., : 2 * H] *= rz  # σ' of r, z
    np.subtract(hs[:-1], n, out=scratch)
    dgh_by_gate[..., 1, :] *= scratch  # Fz = (h(t−1) − n) σ'_z
    np.multiply(n, n, out=Fn)
    np.subtract(1.0, Fn, out=Fn)
    np.subtract(1.0, z, out=scratch)
    Fn *= scratch  # Fn = (1 − z)(1 − n²)
    dgh_by_gate[..., 0, :] *= hn
    dgh_by_gate[..., 0, :] *= Fn  # Fr = Fn hn σ'_r
    np.multiply(Fn, r, out=dgh_by_gate[..., 2, :])  # error at hn = Fn r
    # --- the sequential part: 5 calls per step
    dH = dy
    dh_rec, dz = np.zeros(lead + (H,)), np.empty(lead + (H,))
    U = P["U"]
    views = zip(range(T - 1, -1, -1), dH[::-1], dH[::-1, ..., None, :], dgh_by_gate[::-1], dgh[::-1], z[::-1])
    for t, dh, dh_col, G_t, dgh_t, z_t in views:
        if k is not None and (t + 1) % k == 0 and t + 1 < T:
            dh_rec[...] = 0.0  # chunk boundary: no error crosses
        dh += dh_rec  # total dL/dh(t)
        G_t *= dh_col  # errors at gi_r, gi_z and at U h + b_h
        np.matmul(dgh_t, U, out=dh_rec)  # to h(t−1) through U
        np.multiply(dh, z_t, out=dz)
        dh_rec += dz  # and through h = … + z h(t−1)
    dgi[..., : 2 * H] = dgh[..., : 2 * H]  # r, z: the same error at gi and gh
    np.multiply(dH, Fn, out=dgi[..., 2 * H :])  # n: dh Fn at gi_n (gh_n is scaled by r)
    grads = outer_sum(dgi, fw["xs"]), outer_sum(dgh, hs[:-1]), time_batch_sum(dgi), time_batch_sum(dgh)
    return grads, {"dh": dH, "dgi": dgi, "dgh": dgh}
