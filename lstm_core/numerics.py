"""Finding and reporting non-finite values (where they first appeared)."""

from __future__ import annotations

import math

import numpy as np


class NonFiniteError(ArithmeticError):
    """A NaN or infinity appeared; ``step`` and ``name`` say where it first did."""

    def __init__(self, message: str, step: int | None = None, name: str | None = None) -> None:
        super().__init__(message)
        self.step, self.name = step, name


def finite_number(value: object) -> bool:
    """A real number (not a bool) that is finite as a float. A setting read from JSON may be an
    integer of hundreds of digits, on which ``math.isfinite`` raises OverflowError; no setting is
    meant to be that big, so it counts as not finite and the caller's message names the setting."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def first_nonfinite(internals: dict[str, np.ndarray]) -> tuple[int, str]:
    """(first timestep, internal name) holding a non-finite value; arrays are (T, ...)."""
    best = (None, None)
    for name, a in internals.items():
        bad = ~np.isfinite(a.reshape(a.shape[0], -1)).all(axis=1)
        if bad.any():
            t = int(np.argmax(bad))
            if best[0] is None or t < best[0]:
                best = (t, name)
    return best


def nonfinite_params(params: dict[str, np.ndarray]) -> list[str]:
    """Names of parameter (or gradient) arrays holding NaN or infinity."""
    return [n for n, p in params.items() if not np.isfinite(p).all()]
