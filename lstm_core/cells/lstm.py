"""The modern LSTM, exactly PyTorch's ``nn.LSTM`` (one layer, gate order i, f, g, o).

    i(t) = σ(W_i x(t) + U_i h(t−1) + b_i)        f(t) = σ(W_f x(t) + U_f h(t−1) + b_f)
    g(t) = tanh(W_g x(t) + U_g h(t−1) + b_g)     o(t) = σ(W_o x(t) + U_o h(t−1) + b_o)
    c(t) = f(t) ⊙ c(t−1) + i(t) ⊙ g(t)
    h(t) = o(t) ⊙ tanh(c(t))
Shapes: W_* (..., H, n_in), U_* (..., H, H), b_* (..., H) (PyTorch's bias_ih + bias_hh);
state h, c (..., B, H).
"""
from __future__ import annotations

import numpy as np

from ..activations import sigmoid
from .base import outer_sum, stack, time_batch_sum

GATES = ("i", "f", "g", "o")


class LSTMCell:
    flow_states = {"c": "dc", "h": "dh"}

    def __init__(self, cfg) -> None:
        self.cfg = cfg
        self.H = cfg.n_hidden
        self.recurrent = tuple(f"U_{k}" for k in GATES)

    def shapes(self) -> dict[str, tuple]:
        H, n = self.H, self.cfg.n_in
        s = {f"W_{k}": (H, n) for k in GATES}
        s.update({f"U_{k}": (H, H) for k in GATES})
        s.update({f"b_{k}": (H,) for k in GATES})
        return s

    def prepare(self, p: dict) -> dict:
        W = np.concatenate([p[f"W_{k}"] for k in GATES], axis=-2)     # (..., 4H, n_in)
        U = np.concatenate([p[f"U_{k}"] for k in GATES], axis=-2)     # (..., 4H, H)
        return {"W": W, "U": U, "Wt": np.ascontiguousarray(np.swapaxes(W, -1, -2)),
                "Ut": np.ascontiguousarray(np.swapaxes(U, -1, -2)),
                "b": np.concatenate([p[f"b_{k}"] for k in GATES], axis=-1)[..., None, :]}

    def zero_state(self, lead: tuple) -> dict:
        return {"h": np.zeros(lead + (self.H,)), "c": np.zeros(lead + (self.H,))}

    def project_inputs(self, P: dict, xs: np.ndarray) -> np.ndarray:
        """W x(t) + b for every t at once (one large matmul instead of T small ones)."""
        return xs @ P["Wt"] + P["b"]

    def step(self, P: dict, state: dict, x: np.ndarray, xp: np.ndarray | None = None):
        H = self.H
        if xp is None:
            xp = self.project_inputs(P, x)
        net = state["h"] @ P["Ut"]
        net += xp
        act = sigmoid(net)                                   # i, f, o use σ (one call); g below
        i, f, o = act[..., :H], act[..., H:2 * H], act[..., 3 * H:]
        g = np.tanh(net[..., 2 * H:3 * H])
        c = f * state["c"]
        c += i * g
        tc = np.tanh(c)
        h = o * tc
        rec = {"x": x, "h_prev": state["h"], "c_prev": state["c"], "net": net,
               "i": i, "f": f, "g": g, "o": o, "c": c, "tanh_c": tc, "h": h,
               "dact": act * (1.0 - act)}                    # σ' of every gate, for the backward pass
        return {"h": h, "c": c}, h, rec

    def backward_step(self, P, rec, dstate, dhidden, truncated=False):
        H = self.H
        dh = dhidden + dstate["h"]                           # total dL/dh(t)
        i, f, g, o, tc, dact = rec["i"], rec["f"], rec["g"], rec["o"], rec["tanh_c"], rec["dact"]
        dc = tc * tc
        np.subtract(1.0, dc, out=dc)
        dc *= o
        dc *= dh
        dc += dstate["c"]                                    # total dL/dc(t); h = o tanh(c)
        dnet = np.empty(dh.shape[:-1] + (4 * H,))
        d_i, d_f, d_g, d_o = dnet[..., :H], dnet[..., H:2 * H], dnet[..., 2 * H:3 * H], dnet[..., 3 * H:]
        np.multiply(dc, g, out=d_i)                          # c += i g
        d_i *= dact[..., :H]
        np.multiply(dc, rec["c_prev"], out=d_f)              # c += f c(t−1)
        d_f *= dact[..., H:2 * H]
        np.multiply(g, g, out=d_g)                           # g = tanh(net_g)
        np.subtract(1.0, d_g, out=d_g)
        d_g *= i
        d_g *= dc
        np.multiply(dh, tc, out=d_o)                         # h = o tanh(c)
        d_o *= dact[..., 3 * H:]
        return {"h": dnet @ P["U"], "c": dc * f}, {"dh": dh, "dc": dc, "dnet": dnet}

    def param_grads(self, P, recs, deltas) -> dict:
        H = self.H
        dnet = stack(deltas, "dnet")
        gW = outer_sum(dnet, stack(recs, "x"))
        gU = outer_sum(dnet, stack(recs, "h_prev"))
        gb = time_batch_sum(dnet)
        grads = {}
        for n, k in enumerate(GATES):
            rows = slice(n * H, (n + 1) * H)
            grads[f"W_{k}"], grads[f"U_{k}"], grads[f"b_{k}"] = gW[..., rows, :], gU[..., rows, :], gb[..., rows]
        return grads

    def local_factor(self, P, rec) -> dict:
        """Along the cell state ∂c(t)/∂c(t−1) = f(t) (the modern CEC with forgetting)."""
        return {"c": rec["f"]}
