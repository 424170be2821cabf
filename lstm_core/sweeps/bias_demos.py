"""Measurements behind the bias lab's demonstrations of the 1997 pathologies.

* **Abuse problem** (1997, "abuse problem"): with output gates open from the start, cells
  that have learned nothing yet still emit their (random) contents and the net can use them
  as bias units. ``input_dependence`` measures, over a batch of probe sequences, how much of
  each cell's output depends on the input at all (a cell whose output is the same for every
  sequence is a bias unit) and ``abuse_summary`` adds how far the output gates are open early
  in the sequence.
* **Internal state drift**: with input gates open, s(t) accumulates, h'(s) goes to 0 and the
  gradients of the input-gate and cell-input weights — which all pass through h'(s) — vanish.
  ``drift_profile`` gives |s(t)| and h'(s(t)) over the probe sequence; ``probe_grad_norms``
  the gradient norm per parameter group of the probe sequence's loss.
* **Forget-gate bias** (2000: positive; 2002: −2): ``forget_flow`` runs ``lc.error_flow`` on a
  population that differs only in its forget-gate bias: per step the error along s is
  multiplied by y_fg(t), so the flow decays like Π y_fg.

Nothing here asserts an effect: every number comes from running the networks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import activations
from ..config import ModelConfig
from ..error_flow import error_flow
from ..errors import CoreError
from ..gradients import gradients
from ..model import Model, build_population
from ..sequence import forward
from ..training.progress import group_norms
from ..training.trainer import PROBE_STREAM
from ..variants import MEMORY_CELL_VARIANTS, REGISTRY, is_memory_cell
from .sweep import Sweep, Trace

# A cell counts as a "bias unit" when at least this share of its output's power is the same for
# every probe sequence (it does not depend on the input) and its output is not negligible.
BIAS_UNIT_SHARE = 0.9
MIN_RMS = 0.05
PROBE_BATCH = 32  # sequences in the abuse measurement's probe batch


def _memory(cfg: ModelConfig) -> None:
    if not is_memory_cell(cfg):
        raise CoreError(
            "this measurement needs an LSTM-1997-family network (cell states s, output gates y_og), "
            "not {variant}; choose one of {choices}",
            variant=cfg.variant,
            choices=list(MEMORY_CELL_VARIANTS),
        )


def _length(tr: Trace) -> int:
    """Steps of the probe that carry input (the probe is one sequence, maybe padded)."""
    return int(tr.xs.shape[0])


def input_dependence(y: np.ndarray, valid: np.ndarray) -> pd.DataFrame:
    """Per cell of y (T, B, n) over a batch of B probe sequences (``valid`` (T, B) marks real steps).

    ``rms``: size of the cell's output; ``input_share``: the part of its power that differs
    between sequences (Σ (y − mean over sequences at t)² / Σ y²). A cell whose output is the
    same whatever the input (input_share ≈ 0) but not negligible carries no information: it
    acts as a bias unit — the 1997 paper's "abuse problem".
    """
    w = valid[..., None].astype(float)  # (T, B, 1)
    n_t = np.maximum(w.sum(1, keepdims=True), 1.0)
    mean_t = (w * y).sum(1, keepdims=True) / n_t  # mean over sequences at t
    total = max(float(w.sum()), 1.0)
    power = (w * y * y).sum((0, 1)) / total
    varying = (w * (y - mean_t) ** 2).sum((0, 1)) / total
    rms = np.sqrt(power)
    share = np.where(power > 0, varying / np.where(power > 0, power, 1.0), 0.0)
    return pd.DataFrame(
        {
            "cell": np.arange(1, y.shape[-1] + 1),
            "rms": rms,
            "input_share": share,
            "bias_unit": (share <= 1 - BIAS_UNIT_SHARE) & (rms >= MIN_RMS),
        }
    )


def drift_profile(tr: Trace, cfg: ModelConfig, k: int | None = None) -> dict[str, np.ndarray]:
    """Over the probe: mean |s(t)| and mean h'(s(t)) over cells, and the largest |s|."""
    _memory(cfg)
    s = tr.internals["s"]
    s = s[:, k, 0] if k is not None else s[:, 0]  # (T, n_cells)
    h, dh = activations.get(cfg.cell_output)
    with np.errstate(over="ignore", invalid="ignore"):
        hp = dh(s, h(s))
    return {
        "t": np.arange(1, s.shape[0] + 1),
        "abs_s": np.abs(s).mean(1),
        "max_abs_s": np.abs(s).max(1),
        "h_prime": hp.mean(1),
        "h_prime_max": float(dh(np.zeros(1), h(np.zeros(1)))[0]),
    }


def probe_grad_norms(model: Model, batch, method: str = "bptt") -> dict[str, np.ndarray]:
    """‖dL/dθ‖ per parameter group for the probe sequence's loss (one value per member)."""
    K = model.K
    xs, tg, mk = batch.xs, batch.targets, batch.mask
    if K is not None:
        xs, tg, mk = (np.broadcast_to(a[:, None], a.shape[:1] + (K,) + a.shape[1:]) for a in (xs, tg, mk))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        _, grads = gradients(model, xs, tg, mk, method=method)
        axes = lambda g: tuple(range(1 if K is not None else 0, g.ndim))
        sq = {n: (g * g).sum(axis=axes(g)) for n, g in grads.items()}
    return {g: np.asarray(v, dtype=float) for g, v in group_norms(sq, model.config.variant).items()}


@dataclass
class Recorder:
    """Training curves of a demo sweep: one entry per chunk (per member arrays)."""

    groups: tuple[str, ...] = ("input gate", "cell input", "output gate")
    sequences: list = field(default_factory=list)
    loss: list = field(default_factory=list)
    grad: dict = field(default_factory=dict)

    def record(self, sweep: Sweep, progress, method: str) -> None:
        self.sequences.append(np.asarray(progress.sequences, dtype=float).copy())
        self.loss.append(np.asarray(progress.loss, dtype=float).copy())
        batch = _probe(sweep)
        norms = probe_grad_norms(sweep.trainer.model, batch, method)
        for g in self.groups:
            if g in norms:
                self.grad.setdefault(g, []).append(norms[g])

    def frame(self, sweep: Sweep) -> pd.DataFrame:
        """Tidy curves: chunk, member, setting (i), seed, sequences, loss, grad_<group>."""
        rows = []
        for c, (seq, loss) in enumerate(zip(self.sequences, self.loss)):
            for k, row in sweep.coords.iterrows():
                r = {
                    "chunk": c,
                    "member": k,
                    "i": row.i,
                    "setting": row.x,
                    "seed": row.seed,
                    "sequences": seq[k],
                    "loss": loss[k],
                }
                for g, vals in self.grad.items():
                    r[f"grad_{g.replace(' ', '_')}"] = vals[c][k]
                rows.append(r)
        return pd.DataFrame(rows)


def _probe(sweep: Sweep):
    from .sweep import probe_batch

    return probe_batch(sweep.task, sweep.train_config.seed)


def gradient_method(sweep: Sweep) -> str:
    """The gradient the sweep's training uses (rtrl = the 1997 truncation)."""
    return "truncated" if sweep.train_config.algorithm == "rtrl" else "bptt"


def abuse_batch(sweep: Sweep, batch: int = PROBE_BATCH):
    """A fixed batch of probe sequences (its own stream, next to the trainer's probe)."""
    return sweep.task.generate(np.random.default_rng([sweep.train_config.seed, PROBE_STREAM - 1]), batch)


def abuse_summary(sweep: Sweep, early: int = 10) -> pd.DataFrame:
    """Per member, before and after training: bias-unit cells and how open the output gates are.

    Measured on ``abuse_batch``: the initial networks (``sweep.configs``) and the current ones.
    """
    b = abuse_batch(sweep)
    T = b.xs.shape[0]
    valid = np.arange(T)[:, None] < b.lengths[None, :]
    rows = []
    for when, model in (("before", build_population(sweep.configs)), ("after", sweep.trainer.model)):
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            run = forward(model, b.xs, check=False)
        y_c, y_og = run.internals["y_c"], run.internals.get("y_og")
        for k, row in sweep.coords.iterrows():
            cells = input_dependence(y_c[:, k], valid)
            g = y_og[:early, k] if y_og is not None else np.ones((1, 1, 1))
            rows.append(
                {
                    "member": k,
                    "i": row.i,
                    "setting": row.x,
                    "seed": row.seed,
                    "when": when,
                    "bias_units": int(cells.bias_unit.sum()),
                    "cells": len(cells),
                    "input_share": float(cells.input_share.mean()),
                    "rms": float(cells.rms.mean()),
                    "early_output_gate": float(g.mean()),
                }
            )
    return pd.DataFrame(rows)


def forget_flow(base: ModelConfig, biases: list[float], xs: np.ndarray, method: str = "bptt") -> dict:
    """Error flow along s for networks that differ only in their forget-gate bias.

    ``xs`` (T, 1, n_in) is the shared input sequence; the loss is at the last step. Returns
    ``q`` (steps back), ``relative`` (n_biases, T) = ‖δ_s(T−q)‖ / ‖δ_s(T)‖, ``theory`` (same,
    from the per-step factors), ``y_fg`` (n_biases, T) mean forget-gate activation per step and
    ``per_step`` (n_biases,) the geometric-mean factor of one step back.
    """
    if not base.has_forget_gate:
        with_forget = [n for n, v in REGISTRY.items() if "forget_gate" in v.options]
        raise CoreError(
            "the forget-gate story needs {variants} with a forget gate, not {variant}",
            variants=" or ".join(with_forget),
            variant=base.variant,
        )
    if not 1 <= len(biases) <= 12:
        raise CoreError("give between 1 and 12 forget-gate biases")
    d = base.to_dict()
    configs = [ModelConfig.from_dict({**d, "bias": {**d["bias"], "forget": float(b)}}) for b in biases]
    pop = build_population(configs)
    f = error_flow(pop, xs, method=method)
    n = np.asarray(f.norms["s"], dtype=float)  # (T, K)
    th = np.asarray(f.theory["s"], dtype=float)
    last = n[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = (n / last).T[:, ::-1]
        theory = (th / last).T[:, ::-1]
    fac = np.asarray(f.factors["s"], dtype=float)  # (T, K, B[, n])
    y_fg = fac.reshape(fac.shape[0], fac.shape[1], -1).mean(-1).T
    T = n.shape[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        per = np.where(rel[:, -1] > 0, rel[:, -1] ** (1.0 / max(T - 1, 1)), 0.0)
    return {
        "biases": [float(b) for b in biases],
        "q": np.arange(T),
        "relative": rel,
        "theory": theory,
        "y_fg": y_fg,
        "per_step": per,
    }
