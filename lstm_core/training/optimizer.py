"""Stochastic gradient descent with momentum and gradient clipping — the papers' optimiser — and Adam.

One step, for every parameter θ with gradient g (clipping first, in this order):

    clip by value:   g ← min(max(g, −c_v), c_v)                    (entry by entry)
    clip by norm:    g ← g · min(1, c_n / ‖g‖),  ‖g‖² = Σ_θ Σ g²      (over ALL parameters)
    momentum:        v ← μ v − lr g;   θ ← θ + v                     (μ = 0: θ ← θ − lr g)

For a population (every array has a leading axis K) everything is per member: member k's
global norm uses only member k's gradients, and ``active`` (a (K,) bool mask) freezes the
members that already stopped — their weights and velocities are left exactly as they are.
Norms are sums over each member's entries flattened in the same order as for a single
network, so a member of a population gets bit-for-bit the update it would get alone.

``Adam`` (Kingma & Ba 2015; β₁ = 0.9, β₂ = 0.999, ε = 1e-8, PyTorch's defaults) replaces the momentum
step, after the same clipping:

    m ← β₁ m + (1 − β₁) g;   v ← β₂ v + (1 − β₂) g²;   θ ← θ − lr · m̂ / (√v̂ + ε)
    m̂ = m / (1 − β₁ᵗ),  v̂ = v / (1 − β₂ᵗ),  t = the member's own count of updates

It is what the bias-initialisation literature trains with (RMSProp / Adam, e.g. Tallec & Ollivier
2018), where plain SGD at a classroom budget leaves every scheme at the memoryless baseline (measured
for the atlas: docs/bias_atlas.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Array = np.ndarray


def sq_norms(arrays: dict[str, Array], K: int | None) -> dict[str, Array]:
    """Σ of squares of each array, per member: name -> float array of shape () or (K,)."""
    lead = () if K is None else (K,)
    return {n: np.square(a).reshape(lead + (-1,)).sum(-1) for n, a in arrays.items()}


@dataclass
class StepInfo:
    norm: Array  # global gradient norm before clipping: () or (K,)
    clipped: Array  # whether norm clipping scaled this step's gradient: () or (K,) bool


@dataclass
class SGD:
    """SGD(lr, momentum, clip_value, clip_norm) for a network or a population of K networks."""

    lr: float
    momentum: float = 0.0
    clip_value: float | None = None
    clip_norm: float | None = None
    K: int | None = None
    velocity: dict[str, Array] | None = field(default=None, repr=False)
    # parameter name -> 0/1 array (Model.masks): absent connections get no update, so they stay 0
    masks: dict[str, Array] = field(default_factory=dict, repr=False)

    def _member(self, x: Array, like: Array) -> Array:
        """A per-member () or (K,) array broadcast against a parameter of shape ([K], ...)."""
        return x if self.K is None else x.reshape((self.K,) + (1,) * (like.ndim - 1))

    def clip(
        self, grads: dict[str, Array], need_norm: bool = True
    ) -> tuple[dict[str, Array], StepInfo | None]:
        """Clipped gradients and the pre-clipping global norm per member (computed only if
        norm clipping is on or ``need_norm``; otherwise the info is None)."""
        if self.clip_value is not None:
            c = self.clip_value
            grads = {n: np.clip(g, -c, c) for n, g in grads.items()}
        if self.clip_norm is None and not need_norm:
            return grads, None
        norm = np.sqrt(sum(sq_norms(grads, self.K).values()))
        clipped = np.zeros(np.shape(norm), dtype=bool)
        if self.clip_norm is not None:
            with np.errstate(divide="ignore", invalid="ignore"):
                scale = np.minimum(1.0, self.clip_norm / norm)
            clipped = scale < 1.0
            grads = {n: g * self._member(scale, g) for n, g in grads.items()}
        return grads, StepInfo(norm, clipped)

    def apply(
        self, params: dict[str, Array], grads: dict[str, Array], active: Array | bool | None = None
    ) -> None:
        """θ ← θ + v with already clipped ``grads``; frozen members (active False) do not move."""
        if self.K is None:
            if active is not None and not bool(active):
                return
            idx = None
        else:
            mask = np.ones(self.K, dtype=bool) if active is None else np.asarray(active, dtype=bool)
            if mask.ndim == 0:  # one flag for every member
                mask = np.full(self.K, bool(mask))
            frozen = np.flatnonzero(~mask)
            if frozen.size == self.K:
                return
            idx = None if frozen.size == 0 else np.flatnonzero(mask)  # update only the active members
        if self.momentum and self.velocity is None:
            self.velocity = {n: np.zeros_like(p) for n, p in params.items()}
        where: dict[int, Array] = {}  # the mask, shaped per ndim
        for n, g in grads.items():
            p = params[n]
            if n in self.masks:
                g = g * self.masks[n]
            if idx is None:
                if self.momentum:
                    v = self.velocity[n]
                    v *= self.momentum
                    v -= self.lr * g
                    p += v
                else:
                    p -= self.lr * g
                continue
            if self.momentum:
                # only the active members' entries are written (ufunc ``where=``): the same
                # numbers as updating v[idx], p[idx] with g[idx], without gathered copies
                w = where.get(p.ndim)
                if w is None:
                    w = where[p.ndim] = mask.reshape((self.K,) + (1,) * (p.ndim - 1))
                v = self.velocity[n]
                np.copyto(v, self.momentum * v - self.lr * g, where=w)
                np.add(p, v, out=p, where=w)
            else:
                # a frozen member's step is set to exactly 0 (whatever its gradient holds), and
                # x − 0 is x bit for bit: the same as updating p[idx] only, with fewer copies
                u = self.lr * g
                u[frozen] = 0.0
                p -= u

    def step(
        self, params: dict[str, Array], grads: dict[str, Array], active: Array | bool | None = None
    ) -> StepInfo:
        """Clip, then update ``params`` in place. Returns the pre-clipping norm per member."""
        grads, info = self.clip(grads)
        self.apply(params, grads, active)
        return info

    def state_dict(self) -> dict:
        return {
            "velocity": None if self.velocity is None else {n: v.copy() for n, v in self.velocity.items()}
        }


@dataclass
class Adam(SGD):
    """Adam(lr, clip_value, clip_norm) for a network or a population of K networks (momentum unused)."""

    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    moments: dict[str, tuple[Array, Array]] | None = field(default=None, repr=False)
    t: Array | None = field(default=None, repr=False)  # updates so far, per member

    def apply(
        self, params: dict[str, Array], grads: dict[str, Array], active: Array | bool | None = None
    ) -> None:
        """θ ← θ − lr m̂ / (√v̂ + ε) with already clipped ``grads``; frozen members do not move."""
        lead = () if self.K is None else (self.K,)
        flag = np.broadcast_to(np.asarray(True if active is None else active, dtype=bool), lead)
        if not flag.any():
            return
        if self.moments is None:
            self.moments = {n: (np.zeros_like(p), np.zeros_like(p)) for n, p in params.items()}
            self.t = np.zeros(lead)
        self.t = self.t + flag
        # Python's pow per member: NumPy's vectorised pow can differ from it in the last bit, and a
        # population member must get bit for bit the update it would get alone
        ts = [max(float(x), 1.0) for x in np.ravel(self.t)]
        c1 = np.reshape([1.0 - self.beta1**x for x in ts], lead)
        c2 = np.reshape([1.0 - self.beta2**x for x in ts], lead)
        for n, g in grads.items():
            p, (m, v) = params[n], self.moments[n]
            if n in self.masks:
                g = g * self.masks[n]
            w = self._member(flag, p)
            np.copyto(m, self.beta1 * m + (1.0 - self.beta1) * g, where=w)
            np.copyto(v, self.beta2 * v + (1.0 - self.beta2) * g * g, where=w)
            step = self.lr * (m / self._member(c1, p)) / (np.sqrt(v / self._member(c2, p)) + self.eps)
            np.subtract(p, step, out=p, where=w)

    def state_dict(self) -> dict:
        return {
            "moments": None
            if self.moments is None
            else {n: (m.copy(), v.copy()) for n, (m, v) in self.moments.items()},
            "t": None if self.t is None else self.t.copy(),
        }
