"""Why did a network fail? Per-member symptoms of the 1997 paper's failure modes.

    diags = diagnose(model, task, np.random.default_rng(0))     # one dict per network
    diags[0]["flags"]        # e.g. ["state drift: max |s| = 97.3, mean h'(s) at 2% of h'(0)"]

A fixed batch of fresh sequences is run forward (no training) and, per network, measured:

- ``ig_relevant`` / ``ig_other``: input-gate openness (mean y_ig; the most open block) at the
  steps that carry the information to store (adding: the marked pairs; temporal order: the
  X/Y positions; long lag: the first symbol; embedded Reber: the second symbol; two-sequence:
  the first N values) and at all other steps. A gate that stays shut at the relevant steps
  never stores the information; one open everywhere lets the state drift (1997, section 4.
  "internal state drift").
- ``s_max`` and ``hprime``: max |s| of the internal state, and the mean h'(s) relative to
  h'(0) (1 = unsaturated). A drifted state (large |s|) makes h'(s) ≈ 0 (h = 2σ − 1), which
  blocks the error flow into the cell (the gradient vanishes through h').
- ``og_mean``: mean output-gate openness. The "abuse problem" (section 4): a cell used as a
  bias unit keeps its output gate open and its state constant.
- ``out_std_ratio`` / ``out_mean_gap``: at the steps with a target, std of the outputs over
  the batch relative to the std of the targets, and |mean output − mean target|. A ratio near
  0 means the output sits at the target mean (the least-squares answer of a net that has not
  stored anything) — the typical local minimum of the adding and timing tasks.
- ``pinned_wrong`` (sigmoid output units only): of the clearly wrong outputs (|y − target| > 0.5
  at a step with a target), the share whose unit is saturated, σ'(net) < 10⁻⁴: such an answer
  sends (almost) no error back, so nothing can correct it. Measured for 2a (issue 13): a cell
  abused as a bias unit drove the x/y output units to net ≈ −18…−47 at the last step.

Pure NumPy; works for a single network or a population (every result is per member).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import activations
from ..errors import CoreError
from ..model import Model
from ..sequence import forward
from ..tasks import Task
from ..tasks.base import Batch

# Thresholds of the flags (each one a symptom the 1997 paper names). They describe a state, so
# they are meant for trained networks: an untrained net naturally "sits at the target mean" and,
# with the papers' negative input-gate biases (−3, −6), has its input gates nearly shut. A fresh
# net never shows drift or an always-open output gate (tests/test_diagnostics.py checks both sides).
DRIFT_S = 10.0  # |s| above this: the state has drifted (h1997 is flat beyond |s| ≈ 6)
DRIFT_HPRIME = 0.3  # mean h'(s) below 30 % of h'(0): the cell's error flow is mostly blocked
SHUT_IG = 0.1  # input gate below this at the relevant steps: nothing gets stored
OPEN_OG = 0.9  # output gate above this on average: the cell output is never gated
MEAN_OUTPUT = 0.2  # output std below 20 % of the target std: the output sits at the mean
PINNED_SLOPE = 1e-4  # σ'(net) below this: a sigmoid output unit passes (almost) no error back
PINNED = 0.5  # at least half of the clearly wrong outputs pinned there: flagged


def relevant_steps(task: Task, batch: Batch) -> np.ndarray | None:
    """(T, B) bool: the steps whose input the network must store, or None if the task has none."""
    T, B = batch.xs.shape[0], batch.xs.shape[-2]
    out = np.zeros((T, B), dtype=bool)
    b = np.arange(B)
    name = task.name
    if "positions" in batch.info:  # adding, multiplication, temporal order
        pos = np.asarray(batch.info["positions"])
        for j in range(pos.shape[-1]):
            out[pos[:, j], b] = True
    elif name in ("long_lag", "long_lag_random"):
        out[0] = True  # x or y, to be repeated at the end
    elif name in ("embedded_reber", "very_long_lag"):
        out[1] = True  # T/P (Reber) or x/y after b (2c)
    elif name == "two_sequence":
        out[: getattr(task, "N", 1)] = True  # the N class-carrying values
    else:
        return None
    return out


def _names(model: Model) -> tuple[str | None, str | None, str | None, str]:
    """(input gate, output gate, state) record names and the cell-output function's name."""
    cfg = model.config
    if cfg.record.memory_cell:
        return "y_ig", ("y_og" if cfg.output_gate else None), "s", cfg.cell_output
    if cfg.variant == "lstm":
        return "i", "o", "c", "tanh"
    return None, None, None, ""


def _per_member(a: np.ndarray, where: np.ndarray | None, K: int | None, reduce: str = "mean") -> np.ndarray:
    """Reduce (T, [K,] B, n) over everything but K, keeping only entries with ``where`` (T, [K,] B)."""
    a = a if K is not None else a[:, None]
    w = None if where is None else (where if K is not None else where[:, None])
    a = np.moveaxis(a, 1, 0).reshape(a.shape[1], -1, a.shape[-1])  # (K, T*B, n)
    if w is not None:
        w = np.broadcast_to(np.moveaxis(w, 1, 0).reshape(a.shape[0], -1)[..., None], a.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        if reduce == "max":
            return np.where(w, a, -np.inf).max((1, 2)) if w is not None else a.max((1, 2))
        if reduce == "max_unit_mean":  # the most open block's mean openness
            if w is None:
                return a.mean(1).max(-1)
            return (np.where(w, a, 0.0).sum(1) / w.sum(1)).max(-1)
        return np.where(w, a, 0.0).sum((1, 2)) / w.sum((1, 2)) if w is not None else a.mean((1, 2))


def diagnose(model: Model, task: Task, rng: np.random.Generator, batch: int = 32) -> list[dict[str, Any]]:
    """Per-network symptoms on ``batch`` fresh sequences of ``task`` (see the module docstring)."""
    if isinstance(batch, bool) or not isinstance(batch, (int, np.integer)) or batch < 1:
        raise CoreError("diagnose: batch must be a whole number ≥ 1, got {value}", value=repr(batch))
    # a diverged or saturated network may have huge outputs: their spread overflows to inf (a valid
    # answer: "not at the mean") — without a RuntimeWarning in the command's log
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        return _diagnose(model, task, rng, int(batch))


def _diagnose(model: Model, task: Task, rng: np.random.Generator, batch: int) -> list[dict[str, Any]]:
    data = task.generate(rng, int(batch))
    run = forward(model, data.xs, check=False)
    K = model.K
    T, B = data.xs.shape[0], data.xs.shape[-2]
    inside = np.arange(T)[:, None] < np.asarray(data.lengths)[None, :]  # (T, B)
    lead = lambda m: m[:, None] if K is not None else m
    inside_k = np.broadcast_to(lead(inside), (T,) + ((K,) if K else ()) + (B,))
    ig, og, st, h_name = _names(model)
    n = K or 1
    nan = np.full(n, np.nan)
    res: dict[str, np.ndarray] = {}
    rel = relevant_steps(task, data)
    if ig is not None:
        y_ig = run.internals[ig]
        if rel is not None:
            rel_k = np.broadcast_to(lead(rel & inside), inside_k.shape)
            res["ig_relevant"] = _per_member(y_ig, rel_k, K, "max_unit_mean")
            res["ig_other"] = _per_member(y_ig, inside_k & ~rel_k, K, "max_unit_mean")
        else:
            res["ig_relevant"], res["ig_other"] = nan, _per_member(y_ig, inside_k, K, "max_unit_mean")
    else:
        res["ig_relevant"] = res["ig_other"] = nan
    if st is not None:
        s = run.internals[st]
        res["s_max"] = _per_member(np.abs(s), inside_k, K, "max")
        h, hp = activations.get(h_name)
        hs = h(s)
        with np.errstate(over="ignore", invalid="ignore"):
            ratio = hp(s, hs) / hp(np.zeros(1), h(np.zeros(1)))[0]
        res["hprime"] = _per_member(ratio, inside_k, K)
    else:
        res["s_max"] = res["hprime"] = nan
    res["og_mean"] = _per_member(run.internals[og], inside_k, K) if og is not None else nan
    # outputs at the steps with a target, against the targets' spread over the batch
    y = run.outputs if K is not None else run.outputs[:, None]
    mask = np.asarray(data.mask, dtype=bool)  # (T, B)
    tg = np.asarray(data.targets)
    ys = np.moveaxis(y, 1, 0)[:, mask]  # (K, M, n_out)
    ts = tg[mask]  # (M, n_out)
    t_std = ts.std(0)
    varying = t_std > 1e-9
    with np.errstate(invalid="ignore", divide="ignore"):
        res["out_std_ratio"] = (ys.std(1)[:, varying] / t_std[varying]).mean(-1) if varying.any() else nan
        res["out_mean_gap"] = np.abs(ys.mean(1) - ts.mean(0)).mean(-1)
    res["pinned_wrong"] = _pinned_wrong(ys, ts) if model.config.output_activation == "sigmoid" else nan
    out = []
    for k in range(n):
        d = {key: _num(v[k]) for key, v in res.items()}
        d["flags"] = flags(d)
        out.append(d)
    return out


def _pinned_wrong(ys: np.ndarray, ts: np.ndarray) -> np.ndarray:
    """Per member: the share of clearly wrong sigmoid outputs (|y − t| > 0.5) at σ'(net) < PINNED_SLOPE
    (NaN for a member without clearly wrong outputs). ys (K, M, n_out), ts (M, n_out)."""
    wrong = np.abs(ys - ts[None]) > 0.5
    pinned = wrong & (ys * (1.0 - ys) < PINNED_SLOPE)  # σ'(net) = y (1 − y)
    n_wrong = wrong.sum(axis=(1, 2))
    return np.where(n_wrong > 0, pinned.sum(axis=(1, 2)) / np.maximum(n_wrong, 1), np.nan)


def _num(v: Any) -> float | None:
    v = float(v)
    return None if math.isnan(v) else round(v, 4)


# the symptoms' names, as each flag starts (flag_key) and a results row's note counts them
SYMPTOMS = (
    "state drift",
    "input gate shut at the relevant steps",
    "output gate always open",
    "output sits at the target mean",
    "wrong answers pinned",
)


def flags(d: dict[str, Any]) -> list[str]:
    """The symptoms a diagnostics dict shows, in words (empty: nothing suspicious)."""
    out = []
    s_max, hp = d.get("s_max"), d.get("hprime")
    if (s_max is not None and s_max > DRIFT_S) or (hp is not None and hp < DRIFT_HPRIME):
        out.append(
            f"{SYMPTOMS[0]}: max |s| = {s_max:.3g}"
            + (f", mean h'(s) at {100 * hp:.0f}% of h'(0)" if hp is not None else "")
        )
    ig = d.get("ig_relevant")
    if ig is not None and ig < SHUT_IG:
        out.append(f"{SYMPTOMS[1]} (y_ig ≤ {ig:.2g})")
    og = d.get("og_mean")
    if og is not None and og > OPEN_OG:
        out.append(f"{SYMPTOMS[2]} (mean y_og {og:.2f}): cell possibly abused as a bias unit")
    r = d.get("out_std_ratio")
    if r is not None and r < MEAN_OUTPUT:
        out.append(f"{SYMPTOMS[3]} (output spread {100 * r:.0f}% of the targets')")
    pw = d.get("pinned_wrong")
    if pw is not None and pw >= PINNED:
        out.append(
            f"{SYMPTOMS[4]}: {100 * pw:.0f}% of the clearly wrong outputs sit at a saturated output "
            f"unit (σ'(net) < {PINNED_SLOPE:g}), which sends no error back"
        )
    return out


def flag_key(flag: str) -> str:
    """The symptom a flag names (its text before the numbers), e.g. "state drift"."""
    return str(flag).split(":")[0].split(" (")[0].strip()


def summary(d: dict[str, Any]) -> str:
    """One line: the numbers and the flags of one network's diagnostics."""

    def f(key: str, fmt: str) -> str:
        v = d.get(key)
        return "—" if v is None else format(v, fmt)

    line = (
        f"ig at relevant steps {f('ig_relevant', '.2f')} (elsewhere {f('ig_other', '.2f')}), "
        f"max |s| {f('s_max', '.3g')}, h'(s)/h'(0) {f('hprime', '.2f')}, og {f('og_mean', '.2f')}, "
        f"output spread/target spread {f('out_std_ratio', '.2f')}"
        + (
            f", wrong answers pinned {100 * d['pinned_wrong']:.0f}%"
            if d.get("pinned_wrong") is not None
            else ""
        )
    )
    return line + ("; " + "; ".join(d["flags"]) if d.get("flags") else "")
