"""Sampling new names from a trained character-level model (the ``names`` task)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import CoreError
from .tasks.names import ALPHABET, decode


def sample_names(
    model: Any, task: Any, rng: np.random.Generator, n: int = 10, temperature: float = 1.0, max_len: int = 20
) -> list[str]:
    """Sample ``n`` names, one character at a time, all n in parallel (batch = n).

    Feeds the boundary token, draws the next character from the output probabilities
    reshaped by ``temperature`` (p ** (1 / temperature), renormalised: < 1 sharper, > 1
    flatter), feeds it back, and stops a name at the boundary token or after ``max_len``
    letters. Needs ``model.initial_state(batch)`` and ``model.step(state, x) -> (state, y, rec)``.
    """
    if not isinstance(rng, np.random.Generator):
        raise CoreError("sample_names: rng must be a numpy Generator, e.g. np.random.default_rng(0)")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise CoreError("sample_names: n must be an integer >= 1 (got {value})", value=repr(n))
    if isinstance(max_len, bool) or not isinstance(max_len, (int, np.integer)) or max_len < 1:
        raise CoreError("sample_names: max_len must be an integer >= 1 (got {value})", value=repr(max_len))
    if not np.isfinite(temperature) or temperature <= 0:
        raise CoreError(
            "sample_names: temperature must be > 0 (got {value}); 1 samples the model's own distribution",
            value=repr(temperature),
        )
    V = len(ALPHABET)
    if getattr(task, "n_in", V) != V or getattr(task, "n_out", V) != V:
        raise CoreError("sample_names: the task must be the names task (27 symbols in and out)")
    state = model.initial_state(batch=n)
    x = np.zeros((n, V))
    x[:, 0] = 1.0  # the start (boundary) token
    chars = np.zeros((n, max_len), dtype=np.int64)
    done = np.zeros(n, dtype=bool)
    for t in range(max_len):
        state, y, _ = model.step(state, x)
        y = np.asarray(y, dtype=np.float64).reshape(-1, V)
        if y.shape[0] != n:
            raise CoreError("sample_names: model output has {rows} rows, expected {n}", rows=y.shape[0], n=n)
        # work in log space so a small temperature cannot underflow every probability to 0
        logp = np.log(np.clip(np.nan_to_num(y, nan=0.0), 1e-300, None)) / temperature
        p = np.exp(logp - logp.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        u = rng.random((n, 1))
        nxt = np.minimum((np.cumsum(p, -1) < u).sum(-1), V - 1)  # inverse-CDF draw per row
        chars[:, t] = np.where(done, 0, nxt)
        done |= nxt == 0
        if done.all():
            break
        x = np.eye(V)[nxt]
    return [decode(row) for row in chars]
