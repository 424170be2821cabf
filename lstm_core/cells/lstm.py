"""The modern LSTM, exactly PyTorch's ``nn.LSTM`` (one layer, gate order i, f, g, o).

    i(t) = σ(W_i x(t) + U_i h(t−1) + b_i)        f(t) = σ(W_f x(t) + U_f h(t−1) + b_f)
    g(t) = tanh(W_g x(t) + U_g h(t−1) + b_g)     o(t) = σ(W_o x(t) + U_o h(t−1) + b_o)
    c(t) = f(t) ⊙ c(t−1) + i(t) ⊙ g(t)
    h(t) = o(t) ⊙ tanh(c(t))
Shapes: W_* (..., H, n_in), U_* (..., H, H), b_* (..., H) (PyTorch's bias_ih + bias_hh);
state h, c (..., B, H).

``step`` below is the readable cell: the six equations above, line by line, and the code that
``Model.step`` and ``lc.forward`` run. ``backward_step`` / ``param_grads`` are its chain rule.
``forward_sequence`` / ``backward_sequence`` are an opt-in accelerator (``lstm_fused``: all T
steps into pooled buffers; ``lc.forward(..., fast=True)``, used by training and the benchmarks),
equal to the readable path to 1e-12 (``tests/test_fast_path.py``).
"""

from __future__ import annotations

import numpy as np

from ..activations import sigmoid
from . import lstm_fused
from .base import outer_sum, stack_records, time_batch_sum, transposed

GATES = ("i", "f", "g", "o")  # PyTorch's order, the docstring's (parameter names, rec "net", "dnet")


class LSTMCell:
    flow_states = {"c": "dc", "h": "dh"}
    CACHE = ("h_prev", "c_prev")

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
        """The per-gate parameters as they are (``step``, ``backward_step``), and the packed matrices
        of the whole-sequence accelerator (built by ``lstm_fused.pack``, the one place that knows
        their order)."""
        return {"p": p, **lstm_fused.pack(p)}

    def zero_state(self, lead: tuple) -> dict:
        return {"h": np.zeros(lead + (self.H,)), "c": np.zeros(lead + (self.H,))}

    def step(self, P: dict, state: dict, x: np.ndarray, xp: np.ndarray | None = None):
        """One timestep of the equations above: (state(t−1), x(t)) -> (state(t), h(t), rec)."""
        p, h_prev, c_prev = P["p"], state["h"], state["c"]
        net = {
            k: x @ transposed(p[f"W_{k}"]) + h_prev @ transposed(p[f"U_{k}"]) + p[f"b_{k}"][..., None, :]
            for k in GATES
        }
        i = sigmoid(net["i"])  # input gate
        f = sigmoid(net["f"])  # forget gate
        g = np.tanh(net["g"])  # candidate
        o = sigmoid(net["o"])  # output gate
        c = f * c_prev + i * g  # cell state: the carousel, scaled by f
        tanh_c = np.tanh(c)
        h = o * tanh_c  # hidden state
        rec = {
            "x": x,
            "h_prev": h_prev,
            "c_prev": c_prev,
            "net": np.concatenate([net[k] for k in GATES], -1),
            "i": i,
            "f": f,
            "g": g,
            "o": o,
            "c": c,
            "tanh_c": tanh_c,
            "h": h,
        }
        return {"h": h, "c": c}, h, rec

    # -- the opt-in whole-sequence accelerator (lstm_fused) --------------------------------
    def project_sequence(self, P: dict, xs: np.ndarray) -> np.ndarray:
        """s ⊙ (W x(t) + b) for every t at once (one large matmul instead of T small ones),
        feature-major: (T, ..., 4H, B)."""
        return lstm_fused.project(P, xs)

    def forward_sequence(self, P: dict, xs: np.ndarray, state: dict, xp: np.ndarray | None = None):
        """All T steps of xs (T, ..., B, n_in) at once: (hidden (T, ..., B, H), internals
        name -> (T, ..., B, n), final state, cache for ``backward_sequence``)."""
        fw = lstm_fused.forward_sequence(P, xs, state["h"], state["c"], xp)
        swap_major = lstm_fused.swap_major
        final = {"h": swap_major(fw["hs"][-1]), "c": swap_major(fw["cs"][-1])}
        return swap_major(fw["hs"][1:]), lstm_fused.internals(fw), final, fw

    def backward_step(self, P, rec, dstate, dhidden, truncated=False):
        """The chain rule of ``step``, gate by gate in the docstring's order: (errors to state(t−1),
        this step's errors; ``dnet`` the net inputs' errors of i, f, g, o side by side, as ``rec["net"]``)."""
        p, i, f, g, o, tc = P["p"], rec["i"], rec["f"], rec["g"], rec["o"], rec["tanh_c"]
        dh = dhidden + dstate["h"]  # total dL/dh(t)
        dc = dh * o * (1.0 - tc * tc) + dstate["c"]  # total dL/dc(t); h = o tanh(c)
        dnet = {
            "i": dc * g * i * (1.0 - i),  # c += i g, i = σ(net_i)
            "f": dc * rec["c_prev"] * f * (1.0 - f),  # c += f c(t−1), f = σ(net_f)
            "g": dc * i * (1.0 - g * g),  # g = tanh(net_g)
            "o": dh * tc * o * (1.0 - o),  # h = o tanh(c), o = σ(net_o)
        }
        dh_prev = sum(dnet[k] @ p[f"U_{k}"] for k in GATES)  # through U_k h(t−1)
        delta = {"dh": dh, "dc": dc, "dnet": np.concatenate([dnet[k] for k in GATES], -1)}
        return {"h": dh_prev, "c": dc * f}, delta

    def backward_sequence(self, P: dict, cache: dict, dhidden: np.ndarray, k: int | None = None):
        """Fast path of T × ``backward_step`` + ``param_grads``: (grads, errors name -> (T, ...))."""
        return lstm_fused.backward_sequence(P, cache, dhidden, k)

    def param_grads(self, P, recs, deltas) -> dict:
        """dL/dW_k, dL/dU_k, dL/db_k of every gate k: its net errors against x(t), h(t−1) and 1."""
        H, dnet = self.H, stack_records(deltas, "dnet")
        x, h_prev = stack_records(recs, "x"), stack_records(recs, "h_prev")
        grads = {}
        for n, k in enumerate(GATES):
            d = dnet[..., n * H : (n + 1) * H]
            grads[f"W_{k}"], grads[f"U_{k}"], grads[f"b_{k}"] = (
                outer_sum(d, x),
                outer_sum(d, h_prev),
                time_batch_sum(d),
            )
        return grads

    def local_factor(self, P, rec) -> dict:
        """Along the cell state ∂c(t)/∂c(t−1) = f(t) (the modern CEC with forgetting)."""
        return {"c": rec["f"]}
