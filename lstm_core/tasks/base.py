"""The task interface: generate batches from an explicit rng, evaluate outputs against the
paper's pass criterion.

Conventions shared by every task
--------------------------------
* Time-major arrays: ``xs (T, B, n_in)``, ``targets (T, B, n_out)``, ``mask (T, B)``.
  ``T`` is the longest sequence of the batch; shorter ones are zero-padded and masked.
* Symbol-prediction tasks feed ``seq[:-1]`` and train on ``seq[1:]``: the last symbol of a
  string is only ever a target, so every step inside ``length`` carries a target there.
* ``evaluate`` accepts outputs with extra population axes between time and batch,
  ``(T, K, B, n_out)``; the batch is then shared (``(T, B, ...)``) or stacked per member
  (``(T, K, B, ...)``, see :func:`stack_batches`). Reports have shape ``(K, B)``.
* ``seq_abs_error`` = mean of |y - target| over masked steps *and* output units;
  ``max_abs_error`` = max over the same entries (the papers' "max abs error" tests).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from lstm_core.errors import CoreError, CoreText

from ..numerics import finite_number


@dataclass(frozen=True)
class Batch:
    xs: np.ndarray
    targets: np.ndarray
    mask: np.ndarray
    lengths: np.ndarray
    info: Mapping[str, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class Criterion:
    """When a network has learnt the task. Normally: ``streak`` training sequences in a row judged
    correct as they are learnt (and, if given, their mean abs error below a threshold). With
    ``check_every`` the criterion is a fixed set instead (the paper's embedded Reber protocol):
    every ``check_every`` training sequences every sequence of ``Task.check_set()`` is run with the
    current weights, and the network has learnt the task when all ``streak`` of them are right."""

    streak: int
    mean_abs_error_below: float | None = None
    description: str = ""
    check_every: int | None = None
    # the description as a template and values where the core composed it (with_goal's note), so an
    # interface can translate it; None: ``description`` is a fixed text (a registry text)
    wording: CoreText | None = None


@dataclass(frozen=True)
class Report:
    correct: np.ndarray
    metrics: dict[str, np.ndarray]

    def summary(self) -> dict[str, float]:
        out = {"fraction_correct": float(np.mean(self.correct))}
        out.update({k: float(np.mean(v)) for k, v in self.metrics.items()})
        return out


# ----------------------------------------------------------------------------- validation
def check_int(task: str, name: str, value: Any, lo: int, why: str, hi: int | None = None) -> int:
    """Integers only (bool and 3.5 are refused): sizes must not silently round."""
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if ok and lo <= int(value) and (hi is None or int(value) <= hi):
        return int(value)
    rng = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
    raise CoreError(
        "{task}: {name} must be an integer {range} (got {value}); {why}",
        task=task,
        name=name,
        range=rng,
        value=repr(value),
        why=why,
    )


def check_float(task: str, name: str, value: Any, lo: float, why: str, strict: bool = False) -> float:
    if finite_number(value) and (float(value) > lo if strict else float(value) >= lo):
        return float(value)
    op = ">" if strict else ">="
    raise CoreError(
        "{task}: {name} must be a finite number {range} (got {value}); {why}",
        task=task,
        name=name,
        range=op + " " + str(lo),
        value=repr(value),
        why=why,
    )


def check_choice(task: str, name: str, value: Any, choices: tuple, why: str) -> Any:
    if value in choices:
        return value
    raise CoreError(
        "{task}: {name} must be one of {choices} (got {value}); {why}",
        task=task,
        name=name,
        choices=list(choices),
        value=repr(value),
        why=why,
    )


# ----------------------------------------------------------------------------- helpers
def pack(
    inputs: list[np.ndarray],
    targets: list[np.ndarray],
    masks: list[np.ndarray],
    info: Mapping[str, np.ndarray] | None = None,
) -> Batch:
    """Zero-pad per-sequence arrays (L_i, n) into a time-major batch (T, B, n)."""
    lengths = np.array([len(x) for x in inputs], dtype=np.int64)
    T, B = int(lengths.max()), len(inputs)
    xs = np.zeros((T, B, inputs[0].shape[1]))
    ts = np.zeros((T, B, targets[0].shape[1]))
    ms = np.zeros((T, B))
    for b, (x, t, m) in enumerate(zip(inputs, targets, masks)):
        xs[: len(x), b], ts[: len(x), b], ms[: len(x), b] = x, t * m[:, None], m
    return Batch(xs, ts, ms, lengths, dict(info or {}))


def one_hot(indices: np.ndarray, n: int) -> np.ndarray:
    return np.eye(n)[np.asarray(indices)]


def pad_rows(rows: list[np.ndarray], fill: int = -1) -> np.ndarray:
    """Ragged int rows -> (B, max_len) padded with ``fill`` (for info["symbols"])."""
    out = np.full((len(rows), max(len(r) for r in rows)), fill, dtype=np.int64)
    for b, r in enumerate(rows):
        out[b, : len(r)] = r
    return out


def stack_batches(batches: list[Batch]) -> Batch:
    """K batches of B sequences -> one population batch (T, K, B, ...), zero-padded to the
    longest T (one allocation per array: training calls it once per step, so it must be cheap)."""
    T = max(b.xs.shape[0] for b in batches)
    K, first = len(batches), batches[0]
    out = {}
    for name in ("xs", "targets", "mask"):
        a0 = getattr(first, name)
        a = np.zeros((T, K) + a0.shape[1:])
        for k, b in enumerate(batches):
            v = getattr(b, name)
            a[: v.shape[0], k] = v
        out[name] = a
    info = {key: _stack_info([np.asarray(b.info[key]) for b in batches]) for key in first.info}
    return Batch(out["xs"], out["targets"], out["mask"], np.stack([b.lengths for b in batches]), info)


def _stack_info(arrs: list[np.ndarray]) -> np.ndarray:
    """K members' info arrays -> (K, ...); ragged second axes (e.g. symbols) padded with −1 / 0."""
    if arrs[0].ndim >= 2 and len({a.shape[1] for a in arrs}) > 1:
        L = max(a.shape[1] for a in arrs)
        fill = -1 if arrs[0].dtype.kind in "iu" else 0
        padded = np.full((len(arrs), arrs[0].shape[0], L) + arrs[0].shape[2:], fill, dtype=arrs[0].dtype)
        for k, a in enumerate(arrs):
            padded[k, :, : a.shape[1]] = a
        return padded
    return np.stack(arrs)


@dataclass(frozen=True)
class Aligned:
    """Outputs and batch broadcast to the same population axes; see Task._align."""

    out: np.ndarray  # (T, *pop, B, n_out)
    tgt: np.ndarray  # (T, *pop, B, n_out) (broadcast view)
    mask: np.ndarray  # (T, *pop, B)
    lengths: np.ndarray  # (*pop, B)
    info: dict[str, np.ndarray]  # (*pop, B, ...)

    def final(self, a: np.ndarray) -> np.ndarray:
        """Value at the (single) masked step: for tasks that answer only at the end."""
        return np.where(self.mask[..., None] > 0, a, 0.0).sum(0)


# ----------------------------------------------------------------------------- the base class
class Task:
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    paper: ClassVar[str] = ""
    setup: ClassVar[str] = ""
    reported: ClassVar[str] = ""

    # -- settings ------------------------------------------------------------------
    def with_settings(self, **kw: Any) -> Task:
        valid = [f.name for f in dataclasses.fields(self)]
        bad = [k for k in kw if k not in valid]
        if bad:
            raise CoreError(
                "{task}: unknown setting(s) {names}; valid settings are {valid}",
                task=self.name,
                names=bad,
                valid=valid,
            )
        return dataclasses.replace(self, **kw)

    def settings(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)  # normalise types inside a frozen dataclass

    # -- per-task hooks --------------------------------------------------------------
    @property
    def n_in(self) -> int:
        raise NotImplementedError

    @property
    def n_out(self) -> int:
        raise NotImplementedError

    @property
    def symbols(self) -> tuple[str, ...] | None:
        """Names of the one-hot input (and output) units, for tasks over an alphabet (embedded
        Reber: B T S X P V E); None where units are plain numbers (shown as x1, x2, …)."""
        return None

    @property
    def output_activation(self) -> str:
        return "sigmoid"

    @property
    def loss(self) -> str:
        return "mse"

    @property
    def criterion(self) -> Criterion:
        raise NotImplementedError

    @property
    def max_length(self) -> int:
        raise NotImplementedError

    @property
    def memoryless_loss(self) -> float | None:
        """The loss per sequence (the core's units) of the best network that remembers nothing — the
        baseline a long-lag network must beat (the bias-initialisation atlas); None: not worked out."""
        return None

    def check_set(self) -> Batch | None:
        """The fixed sequences a ``Criterion.check_every`` criterion is judged on (None: the task
        judges training sequences as they come)."""
        return None

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        raise NotImplementedError

    def _evaluate(self, a: Aligned) -> Report:
        raise NotImplementedError

    # -- public API -------------------------------------------------------------------
    def generate(self, rng: np.random.Generator, batch: int = 1, **settings: Any) -> Batch:
        if settings:
            return self.with_settings(**settings).generate(rng, batch)
        if not isinstance(rng, np.random.Generator):
            raise CoreError(
                "{task}: rng must be a numpy Generator, e.g. np.random.default_rng(0) (got {type})",
                task=self.name,
                type=type(rng).__name__,
            )
        batch = check_int(self.name, "batch", batch, 1, "the number of sequences to generate")
        return self._generate(rng, batch)

    def evaluate(self, outputs: np.ndarray, batch: Batch) -> Report:
        return self._evaluate(self._align(outputs, batch))

    def _align(self, outputs: np.ndarray, batch: Batch) -> Aligned:
        out = np.asarray(outputs, dtype=np.float64)
        T, B = batch.xs.shape[0], batch.xs.shape[-2]
        shared = batch.xs.ndim == 3  # batch has no population axes
        npop = out.ndim - 3
        ok = (
            out.ndim >= 3
            and out.shape[0] == T
            and out.shape[-2] == B
            and out.shape[-1] == self.n_out
            and (shared or out.shape[1:-2] == batch.xs.shape[1:-2])
        )
        if not ok:
            want = (T,) + (("K",) if shared else batch.xs.shape[1:-2]) + (B, self.n_out)
            raise CoreError(
                "{task}: outputs must have shape (T, B, n_out) = {expected} or with population axes {want} "
                "(got {shape})",
                task=self.name,
                expected=(T, B, self.n_out),
                want=want,
                shape=out.shape,
            )
        ex = npop if shared else 0  # axes to insert for a shared batch

        def t_major(a: np.ndarray) -> np.ndarray:
            return a.reshape(a.shape[:1] + (1,) * ex + a.shape[1:])

        def b_major(a: np.ndarray) -> np.ndarray:
            return np.asarray(a).reshape((1,) * ex + np.shape(a))

        lead = out.shape[1:-1]  # (*pop, B): every report has this shape
        skip = 1 if shared else npop + 1  # leading axes of an info array before its extras

        def info(v: np.ndarray) -> np.ndarray:
            v = np.asarray(v)
            return np.broadcast_to(b_major(v), lead + v.shape[skip:])

        return Aligned(
            out,
            np.broadcast_to(t_major(batch.targets), out.shape),
            np.broadcast_to(t_major(batch.mask), out.shape[:-1]),
            np.broadcast_to(b_major(batch.lengths), lead),
            {k: info(v) for k, v in batch.info.items()},
        )

    @staticmethod
    def errors(a: Aligned, tgt: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(seq_abs_error, max_abs_error) over masked steps and output units, each (*pop, B)."""
        t = a.tgt if tgt is None else tgt
        m = a.mask[..., None] > 0
        err = np.where(m, np.abs(a.out - t), 0.0)
        n = np.maximum(a.mask.sum(0) * a.out.shape[-1], 1)
        return err.sum((0, -1)) / n, err.max((0, -1))

    @property
    def step_tolerance(self) -> float | None:
        """The abs error that ends a training stream at its first step beyond it (the 2002 timing
        protocol, ``TrainConfig.reset_on_error``); None: the task has no per-step criterion."""
        return None

    def _report(self, a: Aligned, tol: float, **extra: np.ndarray) -> Report:
        """The common case: a sequence is correct when every masked entry is within tol."""
        mean, mx = self.errors(a)
        correct = mx < tol  # NaN outputs compare False -> incorrect
        return Report(correct, {"seq_abs_error": mean, "max_abs_error": mx, **extra})

    def __str__(self) -> str:
        return f"{self.title} {self.settings()}"
