"""The frozen configuration of one training run, validated and JSON round-trippable.

``TrainConfig`` holds every setting of the trainer (algorithm, learning rate, momentum,
clipping, batch, budget, data seed, ...). Invalid values raise ``ValueError`` with a message
that says what to change; settings that depend on the model (e.g. ``rtrl`` needs a
LSTM-1997-family network) are checked by ``TrainConfig.check_model``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from ..errors import CoreError
from ..numerics import finite_number
from ..variants import check_algorithm

ALGORITHMS: dict[str, str] = {
    "rtrl": "the 1997 online method: truncated gradient by RTRL, weights updated after every timestep",
    "bptt": "exact gradient by backpropagation through time, one update per sequence / mini-batch",
    "tbptt": "truncated BPTT(k): chunks of k steps, state carried over, one update per chunk",
}
# the update rule: the papers' SGD (with momentum) or Adam (the bias-initialisation literature's)
OPTIMIZERS: dict[str, str] = {
    "sgd": "stochastic gradient descent with classical momentum (the papers' optimiser)",
    "adam": "Adam (Kingma & Ba 2015), β₁ 0.9, β₂ 0.999: what the bias-initialisation papers train with",
}
MAX_BATCH = 1024
MAX_BUDGET = 10**9


def _number(
    name: str,
    value: Any,
    lo: float | None = None,
    hi: float | None = None,
    strict_lo: bool = False,
    why: str = "",
) -> float:
    ok = finite_number(value)
    if ok and lo is not None:
        ok = value > lo if strict_lo else value >= lo
    if ok and hi is not None:
        ok = value < hi
    if not ok:
        # one sentence per kind of range, so that a translation words "and" itself
        op, said = (">" if strict_lo else "≥"), {"name": name, "value": repr(value), "why": why}
        if lo is not None and hi is not None:
            raise CoreError(
                "{name} must be a finite number {op} {lo:g} and < {hi:g}, got {value}{why}",
                op=op,
                lo=lo,
                hi=hi,
                **said,
            )
        if lo is not None:
            raise CoreError(
                "{name} must be a finite number {op} {lo:g}, got {value}{why}", op=op, lo=lo, **said
            )
        if hi is not None:
            raise CoreError("{name} must be a finite number < {hi:g}, got {value}{why}", hi=hi, **said)
        raise CoreError("{name} must be a finite number, got {value}{why}", **said)
    return float(value)


def _whole(name: str, value: Any, lo: int, hi: int, why: str = "") -> int:
    if not finite_number(value) or value != int(value) or not lo <= int(value) <= hi:
        raise CoreError(
            "{name} must be a whole number between {lo:,} and {hi:,}, got {value}{why}",
            name=name,
            lo=lo,
            hi=hi,
            value=repr(value),
            why=why,
        )
    return int(value)


@dataclass(frozen=True)
class TrainConfig:
    """Every setting of a training run (the model has its own ``ModelConfig``).

    algorithm    "rtrl" | "bptt" | "tbptt" (see ``ALGORITHMS``)
    optimizer    "sgd" (momentum below) | "adam" (see ``OPTIMIZERS``; momentum must stay 0)
    lr           learning rate (> 0)
    momentum     classical momentum μ in [0, 1): v ← μ v − lr g, θ ← θ + v (the 2002 paper's form)
    k            chunk length for tbptt (required there, unused otherwise)
    batch        sequences per update (bptt/tbptt: a mini-batch, loss averaged over it;
                 rtrl: B sequences stepped side by side, one update per timestep)
    clip_value   clip every gradient entry to [−clip_value, clip_value] (None = off)
    clip_norm    rescale the gradient so its global norm (per member) is ≤ clip_norm (None = off)
    budget       at most this many training sequences per network
    seed         data seed: member k's sequences come from rng([seed, member's model seed])
    report_every sequences between two progress reports of ``Trainer.run``
    streak       override the task's "correct sequences in a row" (None = the paper's) —
                 a reduced criterion, labelled as such wherever results are shown
    probe        record a probe-sequence trace with every progress report
    grow_window  sequential construction (1997 §5.2, experiment 2a): the memory cells join a network
                 (which starts with input → output connections only) once its mean loss over
                 ``grow_window`` sequences is no longer 1 % below the previous window's (None = off)
    reset_on_error  the 2002 timing protocol (rtrl, batch 1, a task with ``step_tolerance``): a
                 sequence is a stream whose updates stop at its first step with abs error beyond
                 the task's tolerance; the next sequence starts from the zero state
    """

    algorithm: str = "bptt"
    lr: float = 0.1
    momentum: float = 0.0
    k: int | None = None
    batch: int = 1
    clip_value: float | None = None
    clip_norm: float | None = None
    budget: int = 10_000
    seed: int = 0
    report_every: int = 100
    streak: int | None = None
    probe: bool = True
    reset_on_error: bool = False
    grow_window: int | None = None
    optimizer: str = "sgd"

    def __post_init__(self) -> None:
        self._check_update()
        self._check_run()

    def _set(self, k: str, v: Any) -> None:
        object.__setattr__(self, k, v)  # a frozen dataclass's normalisation, in __post_init__ only

    def _check_update(self) -> None:
        """How the weights are updated: algorithm, learning rate, momentum, tbptt's k, batch, clipping."""
        if self.algorithm not in ALGORITHMS:
            raise CoreError(
                "unknown training algorithm {algorithm}; choose one of {choices}",
                algorithm=repr(self.algorithm),
                choices=list(ALGORITHMS),
            )
        if self.optimizer not in OPTIMIZERS:
            raise CoreError(
                "unknown optimizer {optimizer}; choose one of {choices}",
                optimizer=repr(self.optimizer),
                choices=list(OPTIMIZERS),
            )
        self._set(
            "lr",
            _number(
                "lr (learning rate)",
                self.lr,
                lo=0,
                strict_lo=True,
                why="; typical values are 0.01 – 1 (the 2002 timing tasks: 1e-5 – 1e-3)",
            ),
        )
        self._set(
            "momentum",
            _number(
                "momentum", self.momentum, lo=0, hi=1, why="; 0 = plain SGD, 0.9 – 0.9999 in the 2002 paper"
            ),
        )
        if self.optimizer == "adam" and self.momentum:
            raise CoreError(
                "momentum is SGD's; Adam keeps its own running averages — set momentum=0 with "
                "optimizer='adam'"
            )
        if self.algorithm == "tbptt":
            if self.k is None:
                raise CoreError(
                    "tbptt needs k, the chunk length in steps (e.g. k=10); or use algorithm='bptt' for the "
                    "exact gradient"
                )
            self._set("k", _whole("k (tbptt chunk length)", self.k, 1, 100_000))
        elif self.k is not None:
            raise CoreError(
                "k (the chunk length) is only used by algorithm='tbptt', not {algorithm}; leave k=None "
                "or switch to tbptt",
                algorithm=repr(self.algorithm),
            )
        self._set("batch", _whole("batch (sequences per update)", self.batch, 1, MAX_BATCH))
        for name in ("clip_value", "clip_norm"):
            v = getattr(self, name)
            if v is not None:
                self._set(
                    name, _number(name, v, lo=0, strict_lo=True, why="; or None to switch clipping off")
                )

    def _check_run(self) -> None:
        """How long and how a run goes: budget, seeds, reports, stop streak, growth, the 2002 reset."""
        self._set("budget", _whole("budget (training sequences per network)", self.budget, 1, MAX_BUDGET))
        self._set("seed", _whole("seed (data seed)", self.seed, 0, 2**32 - 1))
        self._set(
            "report_every",
            _whole("report_every (sequences between progress reports)", self.report_every, 1, MAX_BUDGET),
        )
        if self.streak is not None:
            self._set(
                "streak", _whole("streak (correct sequences in a row to stop)", self.streak, 1, MAX_BUDGET)
            )
        if not isinstance(self.probe, bool):
            raise CoreError("probe must be true or false, got {value}", value=repr(self.probe))
        if self.grow_window is not None:
            self._set(
                "grow_window",
                _whole(
                    "grow_window (sequences per window of the 'error stopped decreasing' test)",
                    self.grow_window,
                    1,
                    MAX_BUDGET,
                    "; or None for no sequential construction",
                ),
            )
        if not isinstance(self.reset_on_error, bool):
            raise CoreError(
                "reset_on_error must be true or false, got {value}",
                value=repr(self.reset_on_error),
            )
        if self.reset_on_error and (self.algorithm != "rtrl" or self.batch != 1):
            raise CoreError(
                "reset_on_error (stop a stream at its first too-large error, the 2002 protocol) needs "
                "algorithm='rtrl' with batch=1 (online updates), got {algorithm} with batch {batch}",
                algorithm=repr(self.algorithm),
                batch=self.batch,
            )

    def check_model(self, model_config) -> None:
        """Settings that depend on the network (ValueError with the alternative to use)."""
        check_algorithm(model_config, self.algorithm)

    # -- JSON round trip -------------------------------------------------------------------
    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> TrainConfig:
        if not isinstance(d, dict):
            raise CoreError("a training configuration must be a JSON object (a dict of settings)")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise CoreError(
                "unknown training setting(s) {names}; valid settings are {valid}",
                names=sorted(unknown),
                valid=sorted(names),
            )
        return cls(**d)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TrainConfig:
        try:
            d = json.loads(text)
        except (json.JSONDecodeError, TypeError) as e:
            raise CoreError("training configuration is not valid JSON: {why}", why=str(e)) from None
        return cls.from_dict(d)

    def replace(self, **changes: Any) -> TrainConfig:
        """A validated copy with some settings changed."""
        return dataclasses.replace(self, **changes)
