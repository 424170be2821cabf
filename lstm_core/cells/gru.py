"""The gated recurrent unit, exactly PyTorch's ``nn.GRU`` (one layer, gate order r, z, n).

    r(t) = σ(W_r x(t) + b_ir + U_r h(t−1) + b_hr)
    z(t) = σ(W_z x(t) + b_iz + U_z h(t−1) + b_hz)
    n(t) = tanh(W_n x(t) + b_in + r(t) ⊙ (U_n h(t−1) + b_hn))
    h(t) = (1 − z(t)) ⊙ n(t) + z(t) ⊙ h(t−1)
Shapes: W_* (..., H, n_in), U_* (..., H, H), b_i*, b_h* (..., H); state h (..., B, H).

``step`` below is the readable cell (the four equations, line by line), the code ``Model.step``
and ``lc.forward`` run; ``backward_step`` / ``param_grads`` are its chain rule.
``forward_sequence`` / ``backward_sequence`` (``gru_fused``) are the opt-in whole-sequence
accelerator (``lc.forward(..., fast=True)``), equal to the readable path to 1e-12.
"""

from __future__ import annotations

import numpy as np

from ..activations import sigmoid
from . import gru_fused
from .base import outer_sum, stack_records, time_batch_sum, transposed

GATES = ("r", "z", "n")


class GRUCell:
    flow_states = {"h": "dh"}
    CACHE = ("h_prev",)

    def __init__(self, cfg) -> None:
        self.cfg = cfg
        self.H = cfg.n_hidden
        self.recurrent = tuple(f"U_{k}" for k in GATES)

    def shapes(self) -> dict[str, tuple]:
        H, n = self.H, self.cfg.n_in
        s = {f"W_{k}": (H, n) for k in GATES}
        s.update({f"U_{k}": (H, H) for k in GATES})
        s.update({f"b_i{k}": (H,) for k in GATES})
        s.update({f"b_h{k}": (H,) for k in GATES})
        return s

    def prepare(self, p: dict) -> dict:
        """Stacked gates (r, z, n): W (..., 3H, n_in), U (..., 3H, H); ``*_s`` scaled by s
        (½ on r, z: σ(x) = ½ tanh(x/2) + ½, see ``gru_fused``)."""
        W = np.concatenate([p[f"W_{k}"] for k in GATES], axis=-2)
        U = np.concatenate([p[f"U_{k}"] for k in GATES], axis=-2)
        bi = np.concatenate([p[f"b_i{k}"] for k in GATES], axis=-1)[..., None, :]
        bh = np.concatenate([p[f"b_h{k}"] for k in GATES], axis=-1)[..., None, :]
        s = gru_fused.column_scale(self.H)
        return {
            "p": p,
            "W": W,
            "U": U,
            "Wt_s": np.ascontiguousarray(np.swapaxes(W, -1, -2) * s),
            "Ut_s": np.ascontiguousarray(np.swapaxes(U, -1, -2) * s),
            "bi_s": bi * s,
            "bh_s": bh * s,
        }

    def zero_state(self, lead: tuple) -> dict:
        return {"h": np.zeros(lead + (self.H,))}

    def step(self, P: dict, state: dict, x: np.ndarray, xp: np.ndarray | None = None):
        """One timestep of the equations above: (state(t−1), x(t)) -> (state(t), h(t), rec)."""
        p, h_prev = P["p"], state["h"]
        lin = lambda k: x @ transposed(p[f"W_{k}"]) + p[f"b_i{k}"][..., None, :]  # W_k x + b_ik
        rec_ = lambda k: h_prev @ transposed(p[f"U_{k}"]) + p[f"b_h{k}"][..., None, :]  # U_k h + b_hk
        r = sigmoid(lin("r") + rec_("r"))  # reset gate
        z = sigmoid(lin("z") + rec_("z"))  # update gate
        hn = rec_("n")
        n = np.tanh(lin("n") + r * hn)  # candidate
        h = (1.0 - z) * n + z * h_prev  # new hidden state
        rec = {"x": x, "h_prev": h_prev, "r": r, "z": z, "n": n, "hn": hn, "h": h}
        return {"h": h}, h, rec

    # -- the opt-in whole-sequence accelerator (gru_fused) ---------------------------------
    def project_sequence(self, P: dict, xs: np.ndarray) -> np.ndarray:
        """s ⊙ (W x(t) + b_i) for every t at once (one large matmul instead of T small ones)."""
        gi = np.matmul(xs, P["Wt_s"])
        gi += P["bi_s"]
        return gi

    def forward_sequence(self, P: dict, xs: np.ndarray, state: dict, xp: np.ndarray | None = None):
        """All T steps at once: (hidden, internals name -> (T, ..., B, n), final state, cache)."""
        fw = gru_fused.forward_sequence(P, xs, state["h"], xp)
        return fw["hs"][1:], gru_fused.internals(fw), {"h": fw["hs"][-1]}, fw

    def backward_step(self, P, rec, dstate, dhidden, truncated=False):
        dh = dhidden + dstate["h"]  # total dL/dh(t)
        r, z, n, hp = rec["r"], rec["z"], rec["n"], rec["h_prev"]
        dn_net = dh * (1.0 - z) * (1.0 - n * n)  # h = (1−z) n + z h(t−1)
        dz_net = dh * (hp - n) * z * (1.0 - z)
        dr_net = dn_net * rec["hn"] * r * (1.0 - r)  # n = tanh(… + r ⊙ hn)
        dgi = np.concatenate([dr_net, dz_net, dn_net], axis=-1)  # error at W x + b_i
        dgh = np.concatenate([dr_net, dz_net, dn_net * r], axis=-1)  # error at U h + b_h
        return {"h": dh * z + dgh @ P["U"]}, {"dh": dh, "dgi": dgi, "dgh": dgh}

    def backward_sequence(self, P: dict, cache: dict, dhidden: np.ndarray, k: int | None = None):
        """Fast path of T × ``backward_step`` + ``param_grads`` (``dhidden`` is overwritten)."""
        grads, errors = gru_fused.backward_sequence(P, cache, dhidden, k)
        return self._split(*grads), errors

    def param_grads(self, P, recs, deltas) -> dict:
        dgi, dgh = stack_records(deltas, "dgi"), stack_records(deltas, "dgh")
        gW, gU = outer_sum(dgi, stack_records(recs, "x")), outer_sum(dgh, stack_records(recs, "h_prev"))
        return self._split(gW, gU, time_batch_sum(dgi), time_batch_sum(dgh))

    def _split(self, gW, gU, gbi, gbh) -> dict:
        """Stacked-gate gradients (..., 3H, ·) -> one array per gate parameter."""
        H = self.H
        grads = {}
        for n, k in enumerate(GATES):
            rows = slice(n * H, (n + 1) * H)
            grads[f"W_{k}"], grads[f"U_{k}"] = gW[..., rows, :], gU[..., rows, :]
            grads[f"b_i{k}"], grads[f"b_h{k}"] = gbi[..., rows], gbh[..., rows]
        return grads

    def local_factor(self, P, rec) -> dict:
        """‖∂h(t)/∂h(t−1)‖₂ of the full GRU Jacobian (per batch element)."""
        H = self.H
        r, z, n, hp = rec["r"], rec["z"], rec["n"], rec["h_prev"]
        U = P["U"][..., None, :, :]  # (..., 1, 3H, H)
        Ur, Uz, Un = U[..., :H, :], U[..., H : 2 * H, :], U[..., 2 * H :, :]
        dr = (r * (1 - r))[..., None] * Ur
        dz = (z * (1 - z))[..., None] * Uz
        dn = (1 - n * n)[..., None] * (r[..., None] * Un + rec["hn"][..., None] * dr)
        J = (1 - z)[..., None] * dn + (hp - n)[..., None] * dz
        J = J + z[..., None] * np.eye(H)
        return {"h": np.linalg.norm(J, ord=2, axis=(-2, -1))}
