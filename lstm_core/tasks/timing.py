"""Precise timing tasks (Gers, Schraudolph & Schmidhuber 2002): MSD/NMSD, GTS, PFG.

Shared 2002 setup: 1 block x 1 cell with forget gate and peepholes, g = h = identity, forget /
input / output gate biases -2 / 0 / +2, init [-0.1, 0.1], gradient descent with momentum,
lr 1e-5. The paper trains on one continuous stream that stops — the net is reset to its zero
state and a new stream begins — at the first step whose abs error exceeds the task's tolerance
(or after enough correct spikes / steps). ``TrainConfig(reset_on_error=True)`` does this with
RTRL: a sequence is such a stream (make it long, e.g. ``length=1000`` or ``n_spikes=100``), the
updates stop after its first step beyond ``Task.step_tolerance`` and the next sequence starts
from the zero state. Without it, every sequence is trained to its end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..errors import CoreError
from .base import Aligned, Batch, Criterion, Report, Task, check_choice, check_float, check_int, pack

_SETUP = (
    "1 block x 1 cell, forget gate + peepholes, g = h = identity; forget / input / output gate "
    "biases -2 / 0 / +2; init [-0.1, 0.1]; SGD with momentum, lr 1e-5."
)


def _delays(task: Task, rng: np.random.Generator, shape: tuple) -> np.ndarray:
    """I(n): uniform over {0 .. max_delay} ("range") or over {0, max_delay} ("pair")."""
    if task.delay_set == "pair":
        return rng.integers(2, size=shape) * task.max_delay
    return rng.integers(0, task.max_delay + 1, size=shape)


def _check_timing(task: Task, n_spikes: bool = True) -> None:
    t = task.name
    task._set("F", check_int(t, "F", task.F, 2, "F is the spike period (paper: 10 and more)"))
    task._set(
        "max_delay",
        check_int(
            t, "max_delay", task.max_delay, 0, "the delays I(n) lie in {0 .. max_delay} or {0, max_delay}"
        ),
    )
    check_choice(
        t,
        "delay_set",
        task.delay_set,
        ("range", "pair"),
        "'range' draws I(n) from {0 .. max_delay}, 'pair' from {0, max_delay}",
    )
    if n_spikes:
        task._set("n_spikes", check_int(t, "n_spikes", task.n_spikes, 1, "the number of spikes per sequence"))


@dataclass(frozen=True)
class SpikeDelay(Task):
    """Measuring spike delays (2002, MSD / NMSD). One input, one output.

    Time is counted t = 1, 2, ... (array index t - 1). Input spikes (1s, else 0) at
    T(n) = T(n-1) + F + I(n), T(0) = 0, with delays I(n) drawn from {0 .. max_delay}
    (``delay_set = "range"``) or {0, max_delay} ("pair"). At each spike T(n) the target is
    the delay I(n) itself (only spike steps carry a target): after F - 1 zeros the cell must
    start counting. "nmsd" = one spike per sequence; "msd" = ``n_spikes`` spikes in one
    continuous stream (the paper runs streams of many spikes). Pass: abs error < 0.49 at every
    spike (the rounded output is the delay); test: 1,000 spikes in a row. Output sigmoid for
    I(n) in {0, 1} (paper), identity for larger delays (the paper switched to identity then).

    Reported: longer periods F are harder, even with I(n) in {0, 1}; peepholes are not
    needed here (the peephole LSTM did slightly better for I(n) in {0, 1}, LSTM 2000 better on
    wider delay ranges); with F = 10 and identity output, convergence slows once the largest
    delay exceeds 5, and an identity output learns {0, 1} faster than a sigmoid one.
    """

    mode: str = "msd"
    F: int = 10
    max_delay: int = 1
    delay_set: str = "range"
    n_spikes: int = 10

    name: ClassVar[str] = "spike_delay"
    title: ClassVar[str] = "Measuring spike delays (2002 MSD / NMSD)"
    paper: ClassVar[str] = "Gers, Schraudolph & Schmidhuber 2002, MSD and NMSD"
    setup: ClassVar[str] = (
        _SETUP + " Momentum 0.9999 (MSD) / 0.99 (NMSD). Target I(n) only at spikes; "
        "pass: abs error < 0.49 at every spike, 1,000 test spikes in a row."
    )
    reported: ClassVar[str] = (
        "Solved for I(n) in {0, 1} at several periods F, more slowly for larger "
        "F; with wider delay ranges (F = 10) learning slows beyond a maximum "
        "delay of 5."
    )

    def __post_init__(self) -> None:
        check_choice(
            self.name,
            "mode",
            self.mode,
            ("msd", "nmsd"),
            "'msd' = a continuous stream of spikes, 'nmsd' = one spike per sequence",
        )
        _check_timing(self)

    @property
    def spikes(self) -> int:
        return 1 if self.mode == "nmsd" else self.n_spikes

    n_in = property(lambda self: 1)
    n_out = property(lambda self: 1)
    output_activation = property(lambda self: "sigmoid" if self.max_delay <= 1 else "identity")
    max_length = property(lambda self: self.spikes * (self.F + self.max_delay))

    @property
    def criterion(self) -> Criterion:
        n = math.ceil(1000 / self.spikes)
        return Criterion(
            n,
            None,
            f"abs error < 0.49 at every spike; 1,000 spikes in a row (= {n:,} sequences of {self.spikes})",
        )

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        I = _delays(self, rng, (batch, self.spikes))
        T = np.cumsum(self.F + I, axis=1)  # spike times, 1-based
        xs, ts, ms = [], [], []
        for b in range(batch):
            x = np.zeros((T[b, -1], 1))
            t = np.zeros_like(x)
            m = np.zeros(T[b, -1])
            x[T[b] - 1, 0], t[T[b] - 1, 0], m[T[b] - 1] = 1.0, I[b], 1.0
            xs.append(x)
            ts.append(t)
            ms.append(m)
        return pack(xs, ts, ms, {"delays": I, "spike_times": T})

    step_tolerance = property(lambda self: 0.49)

    def _evaluate(self, a: Aligned) -> Report:
        return self._report(a, 0.49)


@dataclass(frozen=True)
class SpikeGeneration(Task):
    """Generating timed spikes (2002, GTS): the inverse of MSD. Two inputs, one output.

    Input 0 is a start pulse at step 0; input 1 carries the next delay I(n) at step 0 and at
    each target spike (always 0 when max_delay = 0, the pure "spike every F steps" case). The
    target is 1 at T(n) = T(n-1) + F + I(n) (T(0) = 0 = the start step) and 0 at every other
    step; every step is trained, so the net must stay silent in between. Pass: abs error < 0.49
    at every step, 1,000 spikes in a row. (The paper gives no exact input encoding; this one
    is our choice: a start cue plus the interval, mostly-zero input as in the paper.)

    Reported: only the peephole LSTM solves GTS (LSTM 2000 cannot see its cell state while
    the input is mostly zero); longer periods take longer; the output gate opens only at the
    spike, when forget and input gates reset the state; without a forget gate it fails.
    """

    F: int = 10
    max_delay: int = 0
    delay_set: str = "range"
    n_spikes: int = 5

    name: ClassVar[str] = "spike_generation"
    title: ClassVar[str] = "Generating timed spikes (2002 GTS)"
    paper: ClassVar[str] = "Gers, Schraudolph & Schmidhuber 2002, GTS"
    setup: ClassVar[str] = (
        _SETUP + " Momentum 0.999. Target 1 at each spike, 0 elsewhere; pass: abs error < 0.49 at every step."
    )
    reported: ClassVar[str] = (
        "The peephole LSTM learns to generate precisely timed spikes (longer "
        "periods take longer); LSTM without peepholes or without forget gate "
        "does not."
    )

    def __post_init__(self) -> None:
        _check_timing(self)

    n_in = property(lambda self: 2)
    n_out = property(lambda self: 1)
    max_length = property(lambda self: self.n_spikes * (self.F + self.max_delay) + 1)

    @property
    def criterion(self) -> Criterion:
        n = math.ceil(1000 / self.n_spikes)
        return Criterion(
            n,
            None,
            f"abs error < 0.49 at every step; 1,000 spikes in a row (= {n:,} sequences of {self.n_spikes})",
        )

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        I = _delays(self, rng, (batch, self.n_spikes))
        T = np.cumsum(self.F + I, axis=1)  # spike steps (index; 0 = start)
        xs, ts, ms = [], [], []
        for b in range(batch):
            L = T[b, -1] + 1
            x = np.zeros((L, 2))
            t = np.zeros((L, 1))
            x[0, 0] = 1.0
            x[np.concatenate([[0], T[b, :-1]]), 1] = I[b]  # the next interval's delay
            t[T[b], 0] = 1.0
            xs.append(x)
            ts.append(t)
            ms.append(np.ones(L))
        return pack(xs, ts, ms, {"delays": I, "spike_times": T})

    step_tolerance = property(lambda self: 0.49)

    def _evaluate(self, a: Aligned) -> Report:
        return self._report(a, 0.49)


def wave(shape: str, t: np.ndarray, F: int) -> np.ndarray:
    """The 2002 targets in [0, 1]: cos, triangle (peak 1 at F/2) and rectangle waves."""
    r = np.mod(t, F)
    if shape == "cos":
        return 0.5 * (1.0 - np.cos(2.0 * np.pi * t / F))
    if shape == "triangle":
        return np.where(r <= F / 2, 2.0 * r / F, 2.0 - 2.0 * r / F)
    return (r > F / 2).astype(float)


@dataclass(frozen=True)
class Periodic(Task):
    """Periodic function generation (2002, PFG). No input: one constant-zero input unit (set
    ``start_pulse`` to put a single 1 at t = 0 instead); one identity output.

    Target f(t), t = 0 .. length - 1: cos ½(1 - cos(2πt/F)); triangle 2r/F for r = t mod F
    <= F/2, else 2 - 2r/F; rectangle 1 if r > F/2 else 0. F = 10 or 25 in the paper. Every
    step is trained; pass: abs error < ``tolerance`` (0.3; harder: 0.15) at every step for
    1,000 steps in a row. The paper ran one endless stream; here each sequence restarts
    from the initial state, so the net must also learn the phase from it.

    Reported: the peephole LSTM learns the waves, its cell state acting as a clock, and
    faster than LSTM 2000, which managed only cos at F = 10, slowly; LSTM without forget gate
    cannot generate more than about two periods. With
    tolerance 0.15 (cos, F = 25) the RMSE fell from 0.17 ± 0.019 to 0.086 ± 0.002 and a perfect
    run took (2,704 ± 49) x 10^3 steps.
    """

    shape: str = "cos"
    F: int = 10
    length: int = 100
    tolerance: float = 0.3
    start_pulse: bool = False

    name: ClassVar[str] = "periodic"
    title: ClassVar[str] = "Periodic function generation (2002 PFG)"
    paper: ClassVar[str] = "Gers, Schraudolph & Schmidhuber 2002, PFG"
    setup: ClassVar[str] = (
        _SETUP + " Output identity, momentum 0.99, no input. Pass: abs error < 0.3 "
        "(harder 0.15) at every step."
    )
    reported: ClassVar[str] = (
        "The peephole LSTM learns the waves (its cell state acts as a clock); "
        "LSTM 2000 managed only cos with F = 10; without forget gate it fails. "
        "Cos, F = 25, tolerance 0.15: RMSE 0.086 ± 0.002."
    )

    def __post_init__(self) -> None:
        t = self.name
        check_choice(t, "shape", self.shape, ("cos", "triangle", "rectangle"), "the wave to generate")
        self._set("F", check_int(t, "F", self.F, 2, "F is the period in steps (paper: 10 or 25)"))
        self._set("length", check_int(t, "length", self.length, 1, "the number of steps per sequence"))
        self._set(
            "tolerance",
            check_float(
                t,
                "tolerance",
                self.tolerance,
                0.0,
                "the allowed abs error per step (paper: 0.3, harder 0.15)",
                strict=True,
            ),
        )
        if not isinstance(self.start_pulse, (bool, np.bool_)):
            raise CoreError(
                "{task}: start_pulse must be True or False (got {value})",
                task=t,
                value=repr(self.start_pulse),
            )
        self._set("start_pulse", bool(self.start_pulse))

    n_in = property(lambda self: 1)
    n_out = property(lambda self: 1)
    output_activation = property(lambda self: "identity")
    max_length = property(lambda self: self.length)

    @property
    def criterion(self) -> Criterion:
        n = math.ceil(1000 / self.length)
        return Criterion(
            n,
            None,
            f"abs error < {self.tolerance} at every step for 1,000 steps "
            f"(= {n:,} sequences of {self.length})",
        )

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        # the task is deterministic; rng is accepted for the common interface
        L = self.length
        xs = np.zeros((L, batch, 1))
        if self.start_pulse:
            xs[0] = 1.0
        tgt = np.broadcast_to(wave(self.shape, np.arange(L), self.F)[:, None, None], (L, batch, 1))
        return Batch(xs, tgt.copy(), np.ones((L, batch)), np.full(batch, L, dtype=np.int64), {})

    step_tolerance = property(lambda self: self.tolerance)

    def _evaluate(self, a: Aligned) -> Report:
        return self._report(a, self.tolerance)
