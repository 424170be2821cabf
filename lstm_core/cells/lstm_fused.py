"""Whole-sequence forward and backward of the modern LSTM into preallocated buffers.

The per-step API (``LSTMCell.step`` / ``backward_step``) builds a dict of fresh arrays per
timestep; at small sizes NumPy's per-call overhead then costs more than the arithmetic, and
at large sizes fresh memory (page faults) and extra passes over it do. Here the T steps write
into a few (T, ..., B, ·) buffers with ``out=``, everything that does not depend on the
recurrence is computed for all t in one call, and the Python loop keeps only what is truly
sequential. ``LSTMCell.step`` runs this same forward on a length-1 sequence, so ``Model.step``
and ``lc.forward`` agree bit for bit.

Internal gate order (o, i, f, g): the σ gates are then one contiguous block (forward) and
so are the gates fed by dc, i.e. i, f, g (backward). With the column scale s = ½ on o, i, f
and 1 on g, folded into W, U, b once (exact: a power of 2),
    a(t) = tanh(s ⊙ (W x(t) + b) + h(t−1) (s ⊙ U)ᵀ)      one tanh for all four gates
    [o, i, f] = ½ a + ½      (σ(x) = ½ tanh(x/2) + ½),      g = a
    c(t) = f c(t−1) + i g,   h(t) = o tanh c(t)
Backward: with, for every t at once,
    A(t) = o (1 − tanh²c)                                          ∂h/∂c
    F(t) = [tanh c σ'_o,  g σ'_i,  c(t−1) σ'_f,  i (1 − g²)]        (T, ..., B, 4H)
the sequential loop is
    dh(t) = dy(t) + dnet(t+1) U;   dc(t) = dh(t) A(t) + dc(t+1) f(t+1)
    dnet(t) = [dh, dc, dc, dc](t) ⊙ F(t)
and the weight gradients are one matmul each over all (t, b).
"""
from __future__ import annotations

import numpy as np

from .. import buffers
from .base import outer_sum, time_batch_sum

Array = np.ndarray
ORDER = ("o", "i", "f", "g")                       # internal order of the stacked gates


def column_scale(H: int) -> Array:
    """s (4H,): ½ on the σ columns o, i, f; 1 on the tanh column g."""
    s = np.full(4 * H, 0.5)
    s[3 * H:] = 1.0
    return s


def to_public(H: int) -> Array:
    """Column index taking internal (o, i, f, g) blocks to PyTorch's (i, f, g, o)."""
    return np.r_[H:4 * H, 0:H]


def forward_sequence(P: dict, xs: Array, h0: Array, c0: Array, xp: Array | None = None) -> dict:
    """Run T steps of inputs xs (T, ..., B, n_in) from state (h0, c0) (..., B, H).

    ``xp`` = s ⊙ (W x(t) + b) if already computed. Returns the buffers ``act`` (T, ..., B, 4H)
    = [o, i, f, g] of every step, ``hs``, ``cs`` (T+1, ..., B, H) with the initial state at
    index 0, ``tc`` = tanh c(t) (T, ..., B, H).
    """
    T, H = xs.shape[0], h0.shape[-1]
    lead = np.broadcast_shapes(xs.shape[1:-1], h0.shape[:-1])           # (..., B)
    Ut = P["Ut_s"]
    act = buffers.empty((T,) + lead + (4 * H,))
    if xp is None:
        np.matmul(xs, P["Wt_s"], out=act)
        act += P["b_s"]
    else:
        act[...] = xp
    hs, cs = buffers.empty((T + 1,) + lead + (H,)), buffers.empty((T + 1,) + lead + (H,))
    hs[0], cs[0] = h0, c0
    tc, rec, ig = buffers.empty((T,) + lead + (H,)), np.empty(lead + (4 * H,)), np.empty(lead + (H,))
    # per-gate views made once; the loop only steps through them (zip)
    views = zip(act, act[..., :3 * H], act[..., :H], act[..., H:2 * H], act[..., 2 * H:3 * H],
                act[..., 3 * H:], tc, hs[:-1], hs[1:], cs[:-1], cs[1:])
    for a_t, sig_t, o_t, i_t, f_t, g_t, tc_t, h_prev, h_t, c_prev, c_t in views:
        np.matmul(h_prev, Ut, out=rec)
        a_t += rec                                        # s ⊙ net(t)
        np.tanh(a_t, out=a_t)
        sig_t *= 0.5
        sig_t += 0.5                                      # σ = ½ tanh(x/2) + ½ on o, i, f
        np.multiply(f_t, c_prev, out=c_t)
        np.multiply(i_t, g_t, out=ig)
        c_t += ig                                         # c = f c(t−1) + i g
        np.tanh(c_t, out=tc_t)
        np.multiply(o_t, tc_t, out=h_t)                   # h = o tanh(c)
    return {"act": act, "hs": hs, "cs": cs, "tc": tc, "xs": xs, "xp": xp}


def internals(P: dict, fw: dict) -> dict:
    """The step records of every t as (T, ..., B, n) views, named as in ``LSTMCell.step``.

    ``net`` and ``dact`` (PyTorch order i, f, g, o) are callables, computed on first access.
    """
    act, hs, cs = fw["act"], fw["hs"], fw["cs"]
    H = hs.shape[-1]

    def net() -> Array:                                   # the same sums as the loop, so bit-identical
        xp = fw["xp"]
        if xp is None:
            xp = np.matmul(fw["xs"], P["Wt_s"])
            xp += P["b_s"]
        return ((xp + hs[:-1] @ P["Ut_s"]) / column_scale(H))[..., to_public(H)]

    def dact() -> Array:                                  # σ' of i, f, o and tanh' of g
        d = act * (1.0 - act)
        g = act[..., 3 * H:]
        d[..., 3 * H:] = 1.0 - g * g
        return d[..., to_public(H)]

    return {"x": fw["xs"], "h_prev": hs[:-1], "c_prev": cs[:-1], "net": net,
            "i": act[..., H:2 * H], "f": act[..., 2 * H:3 * H], "g": act[..., 3 * H:], "o": act[..., :H],
            "c": cs[1:], "tanh_c": fw["tc"], "h": hs[1:], "dact": dact}


def backward_sequence(P: dict, fw: dict, dy: Array, k: int | None = None):
    """Exact BPTT (or BPTT(k): no error crosses a chunk boundary) given dy = ∂L/∂h(t) from
    the output layer (T, ..., B, H). ``dy`` is overwritten with the total dL/dh(t).

    Returns (gW, gU, gb) of the stacked gates (..., 4H, n_in), (..., 4H, H), (..., 4H) and
    the per-step errors ``{"dh", "dc"}`` (T, ..., B, H), ``"dnet"`` (T, ..., B, 4H), gates in
    the internal order (o, i, f, g).
    """
    act, tc, cs, hs = fw["act"], fw["tc"], fw["cs"], fw["hs"]
    T, H = tc.shape[0], tc.shape[-1]
    lead = tc.shape[1:-1]
    o, i, f, g = act[..., :H], act[..., H:2 * H], act[..., 2 * H:3 * H], act[..., 3 * H:]
    # --- F of every step, vectorised over t, written into dnet (each F(t) is used once, then
    # overwritten by dnet(t) in place)
    dnet = buffers.empty(act.shape)
    D4 = dnet.reshape(dnet.shape[:-1] + (4, H))           # (T, ..., B, 4, H) view: gate blocks
    tmp, A = buffers.empty(tc.shape), buffers.empty(tc.shape)
    np.subtract(1.0, act, out=dnet)
    dnet *= act                                           # σ' = σ (1 − σ) (two passes over contiguous memory)
    D4[..., 0, :] *= tc                                   # ∂h/∂net_o = tanh c σ'_o
    D4[..., 1, :] *= g                                    # ∂c/∂net_i = g σ'_i
    D4[..., 2, :] *= cs[:-1]                              # ∂c/∂net_f = c(t−1) σ'_f
    np.multiply(g, g, out=tmp)
    np.subtract(1.0, tmp, out=tmp)
    np.multiply(tmp, i, out=D4[..., 3, :])                # ∂c/∂net_g = i (1 − g²)
    np.multiply(tc, tc, out=A)
    np.subtract(1.0, A, out=A)
    A *= o                                                # ∂h/∂c = o (1 − tanh²c)
    # --- the sequential part: 7 calls per step
    dH, dC = dy, tmp                                      # dy becomes dh; tmp is free again
    dh_rec, dc_next = np.zeros(lead + (H,)), np.zeros(lead + (H,))
    U = P["U"]
    views = zip(range(T - 1, -1, -1), dH[::-1], dC[::-1], dC[::-1, ..., None, :], A[::-1],
                D4[::-1, ..., 0, :], D4[::-1, ..., 1:, :], dnet[::-1], f[::-1])
    for t, dh, dc, dc_col, A_t, Do_t, Dc_t, dnet_t, f_t in views:
        if k is not None and (t + 1) % k == 0 and t + 1 < T:
            dh_rec[...] = 0.0                             # chunk boundary: no error crosses
            dc_next[...] = 0.0
        dh += dh_rec                                      # total dL/dh(t)
        np.multiply(dh, A_t, out=dc)
        dc += dc_next                                     # total dL/dc(t); h = o tanh(c)
        Do_t *= dh                                        # h = o tanh(c): error at net_o
        Dc_t *= dc_col                                    # c = f c(t−1) + i g: at net_i, net_f, net_g
        np.matmul(dnet_t, U, out=dh_rec)                  # to h(t−1) through U
        np.multiply(dc, f_t, out=dc_next)                 # to c(t−1) through f
    gW = outer_sum(dnet, fw["xs"])
    gU = outer_sum(dnet, hs[:-1])
    gb = time_batch_sum(dnet)
    return (gW, gU, gb), {"dh": dH, "dc": dC, "dnet": dnet}
