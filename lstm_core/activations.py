"""Squashing functions and their derivatives, safe for every finite float64.

σ is computed as 1/(1 + e^(−max(x, −700))): the clamp keeps e^(−x) finite (e^700 ≈ 1e304),
so no input ever overflows or warns, and for x < −700 the result (≈ 1e−304) differs from the
true value by less than 1e−304. (``np.tanh`` is several times slower than ``np.exp`` on this
kind of CPU, and σ runs on every gate of every step.) Derivatives are
computed from the *output* ``y`` where that is exact, so the backward pass needs no
second call to ``exp``.

The 1997 paper's squashing functions:
    g(x) = 4σ(x) − 2 = 2·tanh(x/2)   ∈ [−2, 2]   (cell input),   g'(x) = 1 − (g/2)²
    h(x) = 2σ(x) − 1 = tanh(x/2)     ∈ [−1, 1]   (cell output),  h'(x) = ½(1 − h²)
Frasconi et al. 1992 use f(a) = tanh(a/2), i.e. the same function as h (max f' = ½).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .errors import CoreError

Array = np.ndarray


def sigmoid(x: Array) -> Array:
    """σ(x) = 1 / (1 + e^(−x)) for every finite float64, without overflow (see module docstring)."""
    e = np.exp(-np.maximum(x, -700.0))
    e += 1.0
    return np.reciprocal(e, out=e)


def _ones_like(x: Array, y: Array) -> Array:
    return np.ones_like(y)


# name -> (f(x), f'(x) given x and y = f(x))
ACTIVATIONS: dict[str, tuple[Callable[[Array], Array], Callable[[Array, Array], Array]]] = {
    "sigmoid": (sigmoid, lambda x, y: y * (1.0 - y)),
    "tanh": (np.tanh, lambda x, y: 1.0 - y * y),
    "g1997": (lambda x: 2.0 * np.tanh(0.5 * x), lambda x, y: 1.0 - 0.25 * y * y),
    "h1997": (lambda x: np.tanh(0.5 * x), lambda x, y: 0.5 * (1.0 - y * y)),
    "half_tanh": (lambda x: np.tanh(0.5 * x), lambda x, y: 0.5 * (1.0 - y * y)),
    "identity": (lambda x: x, _ones_like),
}


def get(name: str) -> tuple[Callable[[Array], Array], Callable[[Array, Array], Array]]:
    """Return ``(f, f_prime)`` for an activation name; ValueError lists the valid names."""
    try:
        return ACTIVATIONS[name]
    except KeyError:
        raise CoreError(
            "unknown activation {activation}; choose one of {choices}",
            activation=repr(name),
            choices=sorted(ACTIVATIONS),
        ) from None


def softmax(x: Array) -> Array:
    """Softmax over the last axis, shifted by the max so it never overflows."""
    with np.errstate(over="ignore"):  # x − max may reach −inf for ±1e308; exp(−inf) = 0 is right
        e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
