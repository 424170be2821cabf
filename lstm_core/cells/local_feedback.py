"""Local-feedback multilayer network (Frasconi, Gori & Soda 1992).

Hidden units see only the current input x(t); the only recurrence is each unit's own
self-loop. With f(a) = tanh(a/2) (max f' = M = ½):
    static units:                 h_j(t) = f(w_j·x(t) + b_j)
    net-input feedback units:     â_j(t) = u_j â_j(t−1) + w_j·x(t) + b_j,   h_j(t) = f(â_j(t))
    activation feedback units:    ā_j(t) = v_j h_j(t−1) + w_j·x(t) + b_j,   h_j(t) = f(ā_j(t))
Hidden order: [static, net-input feedback, activation feedback].
Shapes: W (..., H, n_in), b (..., H), u (..., n_net_fb), v (..., n_act_fb);
state a_net (..., B, n_net_fb), h_act (..., B, n_act_fb).
Forgetting: error through q steps is scaled by u^q (net-input units) or Π v f'(ā) ≤ (|v| M)^q
(activation units), so it vanishes when |u| < 1 and |v| < 1/M = 2. Latching needs |w| > 2.
"""

from __future__ import annotations

import numpy as np

from .. import activations
from .base import outer_sum, stack_records, time_batch_sum


class LocalFeedbackCell:
    flow_states = {"net_fb": "da", "act_fb": "dha"}
    CACHE = ("a_net_prev", "h_act_prev")

    def __init__(self, cfg) -> None:
        self.cfg = cfg
        self.ns, self.nn, self.na = cfg.n_static, cfg.n_net_fb, cfg.n_act_fb
        self.H = self.ns + self.nn + self.na
        self.f, self.fprime = activations.get("half_tanh")
        self.recurrent = ("u", "v")

    def shapes(self) -> dict[str, tuple]:
        return {"W": (self.H, self.cfg.n_in), "b": (self.H,), "u": (self.nn,), "v": (self.na,)}

    def prepare(self, p: dict) -> dict:
        return {
            "Wt": np.swapaxes(p["W"], -1, -2),
            "b": p["b"][..., None, :],
            "u": p["u"][..., None, :],
            "v": p["v"][..., None, :],
        }

    def zero_state(self, lead: tuple) -> dict:
        return {"a_net": np.zeros(lead + (self.nn,)), "h_act": np.zeros(lead + (self.na,))}

    def project_inputs(self, P: dict, xs: np.ndarray) -> np.ndarray:
        """w·x(t) + b for every t at once (one large matmul instead of T small ones)."""
        return xs @ P["Wt"] + P["b"]

    def step(self, P: dict, state: dict, x: np.ndarray, xp: np.ndarray | None = None):
        ns, nn = self.ns, self.nn
        net = (self.project_inputs(P, x) if xp is None else xp).copy()
        net[..., ns : ns + nn] += P["u"] * state["a_net"]  # â(t) = u â(t−1) + w·x
        net[..., ns + nn :] += P["v"] * state["h_act"]  # ā(t) = v h(t−1) + w·x
        h = self.f(net)
        rec = {"x": x, "a_net_prev": state["a_net"], "h_act_prev": state["h_act"], "net": net, "h": h}
        return {"a_net": net[..., ns : ns + nn], "h_act": h[..., ns + nn :]}, h, rec

    def backward_step(self, P, rec, dstate, dhidden, truncated=False):
        ns, nn = self.ns, self.nn
        dh = dhidden.copy()
        dh[..., ns + nn :] += dstate["h_act"]  # total dL/dh of activation units
        dnet = dh * self.fprime(rec["net"], rec["h"])
        dnet[..., ns : ns + nn] += dstate["a_net"]  # total dL/dâ(t)
        da, dab = dnet[..., ns : ns + nn], dnet[..., ns + nn :]
        prev = {"a_net": da * P["u"], "h_act": dab * P["v"]}
        return prev, {"dnet": dnet, "da": da, "dha": dh[..., ns + nn :]}

    def param_grads(self, P, recs, deltas) -> dict:
        ns, nn = self.ns, self.nn
        dnet = stack_records(deltas, "dnet")
        return {
            "W": outer_sum(dnet, stack_records(recs, "x")),
            "b": time_batch_sum(dnet),
            "u": time_batch_sum(dnet[..., ns : ns + nn] * stack_records(recs, "a_net_prev")),
            "v": time_batch_sum(dnet[..., ns + nn :] * stack_records(recs, "h_act_prev")),
        }

    def local_factor(self, P, rec) -> dict:
        """Per unit: |∂â(t)/∂â(t−1)| = |u|;  |∂h(t)/∂h(t−1)| = |v f'(ā(t))| (activation units)."""
        ns, nn = self.ns, self.nn
        fp = self.fprime(rec["net"], rec["h"])[..., ns + nn :]
        return {
            "net_fb": np.abs(np.broadcast_to(P["u"], rec["a_net_prev"].shape)),
            "act_fb": np.abs(P["v"] * fp),
        }
