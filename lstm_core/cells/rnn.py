"""Simple recurrent network (the vanishing-gradient baseline).

Equations (f = tanh or σ):
    net(t) = W x(t) + U h(t−1) + b
    h(t)   = f(net(t))
Shapes: W (..., H, n_in), U (..., H, H), b (..., H); state h (..., B, H).
Error flowing back one step is multiplied by J(t)ᵀ with J(t) = diag(f'(net(t))) U, so q steps
back it is scaled by a product of q such factors: it vanishes when ‖J‖ < 1 and explodes when > 1.
"""

from __future__ import annotations

import numpy as np

from .. import activations
from .base import outer_sum, stack_records, time_batch_sum


class RNNCell:
    flow_states = {"h": "dh"}  # error-flow curve label -> delta holding dL/dh(t)
    CACHE = ("h_prev",)

    def __init__(self, cfg) -> None:
        self.cfg = cfg
        self.f, self.fprime = activations.get(cfg.activation)

    def shapes(self) -> dict[str, tuple]:
        H, n = self.cfg.n_hidden, self.cfg.n_in
        return {"W": (H, n), "U": (H, H), "b": (H,)}

    recurrent = ("U",)

    def prepare(self, p: dict) -> dict:
        return {
            "Wt": np.swapaxes(p["W"], -1, -2),
            "Ut": np.swapaxes(p["U"], -1, -2),
            "U": p["U"],
            "b": p["b"][..., None, :],
        }

    def zero_state(self, lead: tuple) -> dict:
        return {"h": np.zeros(lead + (self.cfg.n_hidden,))}

    def project_inputs(self, P: dict, xs: np.ndarray) -> np.ndarray:
        """W x(t) + b for every t at once (one large matmul instead of T small ones)."""
        return xs @ P["Wt"] + P["b"]

    def step(self, P: dict, state: dict, x: np.ndarray, xp: np.ndarray | None = None):
        if xp is None:
            xp = self.project_inputs(P, x)
        net = xp + state["h"] @ P["Ut"]
        h = self.f(net)
        return {"h": h}, h, {"x": x, "h_prev": state["h"], "net": net, "h": h}

    def backward_step(self, P, rec, dstate, dhidden, truncated=False):
        dh = dhidden + dstate["h"]  # total dL/dh(t)
        dnet = dh * self.fprime(rec["net"], rec["h"])  # through f
        dh_prev = dnet @ P["U"]  # through U h(t−1)
        return {"h": dh_prev}, {"dh": dh, "dnet": dnet}

    def param_grads(self, P, recs, deltas) -> dict:
        dnet = stack_records(deltas, "dnet")
        return {
            "W": outer_sum(dnet, stack_records(recs, "x")),
            "U": outer_sum(dnet, stack_records(recs, "h_prev")),
            "b": time_batch_sum(dnet),
        }

    def local_factor(self, P, rec) -> dict:
        """‖J(t)‖₂ with J(t) = diag(f'(net(t))) U = ∂h(t)/∂h(t−1) (per batch element)."""
        J = self.fprime(rec["net"], rec["h"])[..., :, None] * P["U"][..., None, :, :]
        return {"h": np.linalg.norm(J, ord=2, axis=(-2, -1))}
