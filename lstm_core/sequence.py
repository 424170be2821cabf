"""Whole-sequence forward pass and the losses.

``forward(model, xs)`` runs ``cell.step`` once per timestep (the same code as
``Model.step``, the readable cell) and stacks every step's named internals into
``run.internals[name]`` of shape (T, ..., B, n). ``fast=True`` (training, benchmarks) lets a
cell with a whole-sequence accelerator (``forward_sequence``: lstm, gru) write all steps
straight into (T, ...) buffers instead — the same numbers to 1e-12, plain arrays, and
``run.recs[t]`` are views of them.
Loss (the papers' squared error, averaged over the batch):
    L = (1/B) Σ_t Σ_i mask_t · ½ (y_i(t) − d_i(t))²
or, for softmax outputs, L = −(1/B) Σ_t mask_t Σ_i d_i(t) log y_i(t).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from . import activations
from .errors import CoreError
from .model import Model
from .numerics import NonFiniteError, first_nonfinite

Array = np.ndarray


class Internals(Mapping):
    """name -> (T, ..., B, n): each step's records, stacked over time on first access only
    (a training step needs two of them; stacking all would double the cost of a forward pass).
    A value given as a callable is computed on first access."""

    def __init__(self, recs: Sequence[dict], stacked: dict[str, Array], cache: Sequence[str] = ()) -> None:
        self._recs, self._stacked = recs, dict(stacked)
        self._names = list(recs[0]) + list(stacked) if recs else list(stacked)
        self.cache = tuple(cache)  # the names only the backward pass reads (the cells' ``CACHE``)

    def shown(self) -> list[str]:
        """The quantities a run shows: every record but the backward pass's cache."""
        return [n for n in self._names if n not in self.cache]

    def __getitem__(self, name: str) -> Array:
        if callable(self._stacked.get(name)):
            # like the forward pass itself: overflow becomes inf (reported by forward's check or
            # the caller's), never a RuntimeWarning in the user's log
            with np.errstate(over="ignore", invalid="ignore"):
                self._stacked[name] = self._stacked[name]()
        if name not in self._stacked:
            if not self._recs or name not in self._recs[0]:
                raise KeyError(name)
            self._stacked[name] = np.stack([r[name] for r in self._recs])
        return self._stacked[name]

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


class StepViews(Sequence):
    """Per-step dicts ``{name: arrays[name][t]}`` of (T, ...) arrays, made on access only."""

    def __init__(self, arrays: Mapping[str, Array], names: list[str], T: int) -> None:
        self._arrays, self._names, self._T = arrays, names, T

    def __len__(self) -> int:
        return self._T

    def __getitem__(self, t: int) -> dict:
        if not -self._T <= t < self._T:
            raise IndexError(t)
        return {n: self._arrays[n][t] for n in self._names}


@dataclass
class Run:
    outputs: Array  # (T, ..., B, n_out)
    internals: Mapping[str, Array]  # name -> (T, ..., B, n), stacked lazily
    state: dict[str, Array]  # final state
    recs: Sequence[dict] = field(repr=False)
    prepared: dict = field(repr=False)
    fused: dict | None = field(default=None, repr=False)  # cache of the whole-sequence fast path

    def to_frame(self, names: list[str] | None = None):
        """Tidy table: one row per (t, [member], batch, quantity, unit) with its value."""
        import pandas as pd

        names = names or shown_names(self.internals)
        frames = []
        for name in names:
            a = self.internals[name]
            idx = np.indices(a.shape).reshape(a.ndim, -1)
            cols = {"t": idx[0]}
            if a.ndim == 4:
                cols["member"] = idx[1]
            cols.update(batch=idx[-2], quantity=name, unit=idx[-1], value=a.reshape(-1))
            frames.append(pd.DataFrame(cols))
        return pd.concat(frames, ignore_index=True)


def shown_names(internals: Mapping[str, Array]) -> list[str]:
    """The quantities ``internals`` shows: a run's ``Internals`` leave out the backward pass's cache; a
    plain mapping (e.g. a file's) is shown whole."""
    return internals.shown() if isinstance(internals, Internals) else list(internals)


def forward(
    model: Model, xs: Array, state: dict | None = None, check: bool = True, fast: bool = False
) -> Run:
    """Run a whole sequence xs (T, B, n_in) [or (T, K, B, n_in)] through the model.

    ``fast=True`` uses the cell's whole-sequence accelerator if it has one (opt-in: training
    and benchmarks; the tests compare the two paths).
    """
    xs = model.check_inputs(xs)
    if state is None:
        state = model.initial_state(xs.shape[-2])
    cell = model.cell
    P = cell.prepare(model.params)
    recs, cache = [], None
    with np.errstate(over="ignore", invalid="ignore"):  # non-finite values are reported below instead
        if fast and hasattr(cell, "forward_sequence"):
            hidden, stacked, state, cache = cell.forward_sequence(P, xs, state)
            net_out, y = model.output(hidden)
        else:
            # W x(t) for every t in one matmul, for cells whose step takes it precomputed
            xp = cell.project_inputs(P, xs) if hasattr(cell, "project_inputs") else [None] * xs.shape[0]
            hiddens = []
            for t in range(xs.shape[0]):
                state, hidden, rec = cell.step(P, state, xs[t], xp[t])
                hiddens.append(hidden)
                recs.append(rec)
            hidden = np.stack(hiddens)
            net_out, y = model.output(hidden)
    hide = tuple(cell.CACHE) + model.CACHE
    if cache is not None:
        internals = Internals([], {**stacked, "hidden": hidden, "net_out": net_out, "y": y}, hide)
        recs = StepViews(internals, list(stacked), xs.shape[0])
    else:
        internals = Internals(recs, {"hidden": hidden, "net_out": net_out, "y": y}, hide)
    if check:
        # every internal, not only y: a squashed output can stay finite while a net input
        # (rnn 'net', lstm2000 'net_ig', local_feedback 'a_net') is already ±inf
        step, name = first_nonfinite(internals)
        if name is not None:
            raise NonFiniteError(
                f"non-finite value in the forward pass: first in '{name}' at step {step} "
                "(inputs or weights too large? scale the inputs down, or try a smaller "
                "learning rate or init range)",
                step=step,
                name=name,
            )
    return Run(y, internals, state, recs, P, cache)


def loss_and_output_error(model: Model, y: Array, net_out: Array, targets: Array, mask: Array):
    """(L per network, dL/dnet_out) for outputs y (T, ..., B, n_out)."""
    targets = np.asarray(targets, dtype=float)
    mask = np.asarray(mask, dtype=float)
    if targets.shape[-1] != y.shape[-1] or targets.shape[0] != y.shape[0]:
        raise CoreError(
            "targets must have shape (T, B, n_out) = {expected}; got {shape}",
            expected=(y.shape[0], y.shape[-2], y.shape[-1]),
            shape=targets.shape,
        )
    if mask.shape[0] != y.shape[0]:
        raise CoreError(
            "mask must have shape (T, B) with T = {T}; got {shape}", T=y.shape[0], shape=mask.shape
        )
    B = y.shape[-2]
    if targets.ndim < 2 or targets.shape[-2] != B:
        raise CoreError(
            "targets must hold one row per sequence of the batch (B = {B}): shape (T, B, n_out) = "
            "{expected}; got {shape}",
            B=B,
            expected=(y.shape[0], B, y.shape[-1]),
            shape=targets.shape,
        )
    if mask.ndim < 2 or mask.shape[-1] != B:
        raise CoreError(
            "mask must hold one value per sequence of the batch (B = {B}): shape (T, B) = {expected}; got {shape}",
            B=B,
            expected=(y.shape[0], B),
            shape=mask.shape,
        )
    if not (np.isfinite(targets).all() and np.isfinite(mask).all()):
        raise CoreError("targets and mask must be finite numbers (no NaN or infinity)")
    if model.K is not None and targets.ndim == 3:  # shared by all members
        targets = targets[:, None]
    if model.K is not None and mask.ndim == 2:
        mask = mask[:, None]
    m = mask[..., None]
    # huge outputs overflow here to inf instead of warning; the callers report a non-finite loss
    # (lc.gradients raises NonFiniteError, the trainer stops that network and says where)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        err = y - targets
        if model.config.loss == "ce":
            logy = np.where(targets > 0, np.log(np.maximum(y, 1e-300)), 0.0)
            loss = -(m * targets * logy).sum(axis=(0, -1)).sum(-1) / B
            dnet = m * err / B  # softmax + cross-entropy
        else:
            loss = 0.5 * (m * err * err).sum(axis=(0, -1)).sum(-1) / B
            act = model.config.output_activation
            if act == "identity":  # f_out' = 1: skip an array of ones (same numbers)
                dnet = m * err / B
            else:
                dnet = m * err * activations.get(act)[1](net_out, y) / B
    return loss, dnet
