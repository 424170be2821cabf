"""Whole-sequence forward and backward of the modern LSTM into preallocated buffers.

The per-step API (``LSTMCell.step`` / ``backward_step``) builds a dict of fresh arrays per
timestep; at small sizes NumPy's per-call overhead then costs more than the arithmetic, and
at large sizes fresh memory (page faults) and extra passes over it do. Here the T steps write
into a few (T, ...) buffers with ``out=``, everything that does not depend on the recurrence
is computed for all t in one call, and the Python loop keeps only what is truly sequential.
``LSTMCell.step`` is the readable per-gate code of the same equations (``lc.forward`` without
``fast``); the tests hold the two paths to the same numbers (1e-12).

Layout: inside this module every per-step quantity is stored feature-major, (..., n, B)
(the transpose of the public (..., B, n)), so that one gate of one step is a contiguous
block and every elementwise call runs over one stretch of memory. The public internals are
transposed views. Internal gate order (o, i, f, g): the σ gates are one block (forward) and
so are the gates fed by dc, i.e. i, f, g (backward). With the row scale s = ½ on o, i, f and
1 on g, folded into W, U, b once (exact: a power of 2),
    a(t) = tanh((s ⊙ W) x(t) + s ⊙ b + (s ⊙ U) h(t−1))      one tanh for all four gates
    [o, i, f] = ½ a + ½      (σ(x) = ½ tanh(x/2) + ½),      g = a
    c(t) = f c(t−1) + i g,   h(t) = o tanh c(t)
Backward: with, for every t at once,
    A(t) = o (1 − tanh²c)                                          ∂h/∂c
    F(t) = [tanh c σ'_o,  g σ'_i,  c(t−1) σ'_f,  i (1 − g²)]        (T, ..., 4H, B)
the sequential loop is
    dh(t) = dy(t) + Uᵀ dnet(t+1);   dc(t) = dh(t) A(t) + dc(t+1) f(t+1)
    dnet(t) = [dh, dc, dc, dc](t) ⊙ F(t)
and the weight gradients are one matmul each over all (t, b).
"""

from __future__ import annotations

import numpy as np

from .. import buffers

Array = np.ndarray
ORDER = ("o", "i", "f", "g")  # internal order of the stacked gates


def column_scale(H: int) -> Array:
    """s (4H,): ½ on the σ gates o, i, f; 1 on the tanh gate g."""
    s = np.full(4 * H, 0.5)
    s[3 * H :] = 1.0
    return s


def pack(p: dict) -> dict:
    """The per-gate parameters W_k (..., H, n_in), U_k (..., H, H), b_k (..., H) stacked in the internal
    order (o, i, f, g): W (..., 4H, n_in), U (..., 4H, H), Ut = Uᵀ; ``*_s`` scaled row-wise by s (½ on
    o, i, f), b_s (..., 4H, 1) a column (each step is stored feature-major, (4H, B))."""
    W = np.concatenate([p[f"W_{k}"] for k in ORDER], axis=-2)
    U = np.concatenate([p[f"U_{k}"] for k in ORDER], axis=-2)
    b = np.concatenate([p[f"b_{k}"] for k in ORDER], axis=-1)[..., :, None]
    s = column_scale(U.shape[-1])[:, None]  # σ(x) = ½ tanh(x/2) + ½
    return {
        "W": W,
        "U": U,
        "Ut": np.ascontiguousarray(swap_major(U)),
        "W_s": W * s,
        "U_s": U * s,
        "b_s": b * s,
    }


def unpack(gW: Array, gU: Array, gb: Array) -> dict:
    """Stacked-gate gradients (..., 4H, ·) in the internal order -> one array per gate parameter."""
    H = gU.shape[-1]
    grads = {}
    for n, k in enumerate(ORDER):
        rows = slice(n * H, (n + 1) * H)
        grads[f"W_{k}"], grads[f"U_{k}"], grads[f"b_{k}"] = gW[..., rows, :], gU[..., rows, :], gb[..., rows]
    return grads


def public_order(a: Array) -> Array:
    """(..., 4H) in the internal order (o, i, f, g) -> the readable cell's (i, f, g, o)."""
    H = a.shape[-1] // 4
    return np.concatenate([a[..., H:], a[..., :H]], axis=-1)


def swap_major(a: Array) -> Array:
    """Swap the last two axes: feature-major (..., n, B) <-> public (..., B, n) (a view)."""
    return np.swapaxes(a, -1, -2)


def project(P: dict, xs: Array, out: Array | None = None) -> Array:
    """(s ⊙ W) x(t) + s ⊙ b for every t at once, feature-major (T, ..., 4H, B)."""
    out = np.matmul(P["W_s"], swap_major(xs), out=out)
    out += P["b_s"]
    return out


def forward_sequence(P: dict, xs: Array, h0: Array, c0: Array, xp: Array | None = None) -> dict:
    """Run T steps of inputs xs (T, ..., B, n_in) from state (h0, c0) (..., B, H).

    ``xp`` = ``project(P, xs)`` if already computed. Returns the feature-major buffers ``act``
    (T, ..., 4H, B) = [o, i, f, g] of every step, ``hs``, ``cs`` (T+1, ..., H, B) with the
    initial state at index 0 and ``tc`` = tanh c(t) (T, ..., H, B).
    """
    T, H = xs.shape[0], h0.shape[-1]
    lead = np.broadcast_shapes(xs.shape[1:-1], h0.shape[:-1])  # (..., B)
    fm = lead[:-1] + (H, lead[-1])  # (..., H, B)
    act = buffers.empty((T,) + lead[:-1] + (4 * H, lead[-1]))
    if xp is None:
        project(P, xs, out=act)
    else:
        act[...] = xp
    hs, cs, tc = buffers.empty((T + 1,) + fm), buffers.empty((T + 1,) + fm), buffers.empty((T,) + fm)
    hs[0], cs[0] = swap_major(h0), swap_major(c0)
    rec, ig = np.empty(act.shape[1:]), np.empty(fm)
    U = P["U_s"]
    # per-gate views made once; the loop only steps through them (zip)
    views = zip(
        act,
        act[..., : 3 * H, :],
        act[..., :H, :],
        act[..., H : 2 * H, :],
        act[..., 2 * H : 3 * H, :],
        act[..., 3 * H :, :],
        tc,
        hs[:-1],
        hs[1:],
        cs[:-1],
        cs[1:],
    )
    for a_t, sig_t, o_t, i_t, f_t, g_t, tc_t, h_prev, h_t, c_prev, c_t in views:
        np.matmul(U, h_prev, out=rec)
        a_t += rec  # s ⊙ net(t)
        np.tanh(a_t, out=a_t)
        sig_t *= 0.5
        sig_t += 0.5  # σ = ½ tanh(x/2) + ½ on o, i, f
        np.multiply(f_t, c_prev, out=c_t)
        np.multiply(i_t, g_t, out=ig)
        c_t += ig  # c = f c(t−1) + i g
        np.tanh(c_t, out=tc_t)
        np.multiply(o_t, tc_t, out=h_t)  # h = o tanh(c)
    return {"act": act, "hs": hs, "cs": cs, "tc": tc, "xs": xs, "xp": xp}


def internals(fw: dict) -> dict:
    """The step records of every t as plain (T, ..., B, n) arrays, named as in ``LSTMCell.step``
    (all but ``net``, which training never reads: the readable path records it)."""
    act, hs, cs = fw["act"], fw["hs"], fw["cs"]
    H = hs.shape[-2]
    return {
        "x": fw["xs"],
        "h_prev": swap_major(hs[:-1]),
        "c_prev": swap_major(cs[:-1]),
        "i": swap_major(act[..., H : 2 * H, :]),
        "f": swap_major(act[..., 2 * H : 3 * H, :]),
        "g": swap_major(act[..., 3 * H :, :]),
        "o": swap_major(act[..., :H, :]),
        "c": swap_major(cs[1:]),
        "tanh_c": swap_major(fw["tc"]),
        "h": swap_major(hs[1:]),
    }


def backward_sequence(P: dict, fw: dict, dy: Array, k: int | None = None):
    """Exact BPTT (or BPTT(k): no error crosses a chunk boundary) given dy = ∂L/∂h(t) from
    the output layer (T, ..., B, H).

    Returns the gradients of every gate parameter (W_k, U_k, b_k, as ``LSTMCell.param_grads``) and
    the per-step errors ``{"dh", "dc"}`` (T, ..., B, H) (views) and ``"dnet"`` (T, ..., B, 4H), gates in
    the readable cell's order (i, f, g, o).
    """
    act, tc, cs, hs = fw["act"], fw["tc"], fw["cs"], fw["hs"]
    T, H = tc.shape[0], tc.shape[-2]
    o, i, f, g = act[..., :H, :], act[..., H : 2 * H, :], act[..., 2 * H : 3 * H, :], act[..., 3 * H :, :]
    # --- F of every step, vectorised over t, written into dnet (each F(t) is used once, then
    # overwritten by dnet(t) in place)
    dnet = buffers.empty(act.shape)
    dnet_by_gate = dnet.reshape(
        dnet.shape[:-2] + (4, H, dnet.shape[-1])
    )  # (T, ..., 4, H, B) view: gate blocks
    tmp, A, dH = buffers.empty(tc.shape), buffers.empty(tc.shape), buffers.empty(tc.shape)
    dH[...] = swap_major(dy)
    np.subtract(1.0, act, out=dnet)
    dnet *= act  # σ' = σ (1 − σ)
    dnet_by_gate[..., 0, :, :] *= tc  # ∂h/∂net_o = tanh c σ'_o
    dnet_by_gate[..., 1, :, :] *= g  # ∂c/∂net_i = g σ'_i
    dnet_by_gate[..., 2, :, :] *= cs[:-1]  # ∂c/∂net_f = c(t−1) σ'_f
    np.multiply(g, g, out=tmp)
    np.subtract(1.0, tmp, out=tmp)
    np.multiply(tmp, i, out=dnet_by_gate[..., 3, :, :])  # ∂c/∂net_g = i (1 − g²)
    np.multiply(tc, tc, out=A)
    np.subtract(1.0, A, out=A)
    A *= o  # ∂h/∂c = o (1 − tanh²c)
    # --- the sequential part: 7 calls per step
    dC = tmp  # tmp is free again
    dh_rec, dc_next = np.zeros(tc.shape[1:]), np.zeros(tc.shape[1:])
    Ut = P["Ut"]
    views = zip(
        range(T - 1, -1, -1),
        dH[::-1],
        dC[::-1],
        dC[::-1, ..., None, :, :],
        A[::-1],
        dnet_by_gate[::-1, ..., 0, :, :],
        dnet_by_gate[::-1, ..., 1:, :, :],
        dnet[::-1],
        f[::-1],
    )
    for t, dh, dc, dc_blk, A_t, Do_t, Dc_t, dnet_t, f_t in views:
        if k is not None and (t + 1) % k == 0 and t + 1 < T:
            dh_rec[...] = 0.0  # chunk boundary: no error crosses
            dc_next[...] = 0.0
        dh += dh_rec  # total dL/dh(t)
        np.multiply(dh, A_t, out=dc)
        dc += dc_next  # total dL/dc(t); h = o tanh(c)
        Do_t *= dh  # h = o tanh(c): error at net_o
        Dc_t *= dc_blk  # c = f c(t−1) + i g: at net_i, net_f, net_g
        np.matmul(Ut, dnet_t, out=dh_rec)  # to h(t−1) through U
        np.multiply(dc, f_t, out=dc_next)  # to c(t−1) through f
    grads = unpack(*_weight_gradients(dnet, fw["xs"], hs[:-1]))
    return grads, {"dh": swap_major(dH), "dc": swap_major(dC), "dnet": public_order(swap_major(dnet))}


def _weight_gradients(dnet: Array, xs: Array, h_prev: Array) -> tuple[Array, Array, Array]:
    """(gW, gU, gb) from the errors at the nets (T, ..., 4H, B), the inputs and h(t−1)."""
    # one matmul each over all (t, b); dnet copied to (..., 4H, T, B) so that (t, b) is one
    # contiguous axis (cheaper than T small matmuls and a sum over t)
    d2 = buffers.empty(dnet.shape[1:-1] + dnet.shape[:1] + dnet.shape[-1:])
    d2[...] = np.moveaxis(dnet, 0, -2)
    d2 = d2.reshape(d2.shape[:-2] + (-1,))  # (..., 4H, T·B)
    return d2 @ _rows(xs), d2 @ _rows(swap_major(h_prev)), d2.sum(axis=-1)


def _rows(z: Array) -> Array:
    """(T, ..., B, m) -> (..., T·B, m): one row per (t, b), t-major (a copy only if needed)."""
    z = np.moveaxis(z, 0, -3)
    return z.reshape(z.shape[:-3] + (-1, z.shape[-1]))
