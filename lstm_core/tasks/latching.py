"""Information latching (Frasconi, Gori & Soda 1992, example 1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .base import Aligned, Batch, Criterion, Report, Task, check_choice, check_int


@dataclass(frozen=True)
class Latching(Task):
    """Classify a sequence of arbitrary length by its first input only.

    k classes; the first input is the class, one-hot over k units; the length is uniform in
    [min_len, max_len]; later inputs are random one-hot symbols of the same alphabet
    (``distractors = "random"``, so the net must discover that only the first one matters)
    or all zero ("none"). Target at the last step: the class one-hot over k sigmoid outputs.
    A sequence is correct when the most active output is the class (the paper gives no
    numeric criterion; 100 in a row is our classroom criterion).

    Paper: local-feedback (activation-feedback) units can latch information - keep the sign
    of their net input forever - when the self-weight |w| > 2; 5 classes need at least 3
    latching units (binary code). Latching keeps only a sign, so counting-like tasks that
    need exact values fail.
    """

    k: int = 5
    min_len: int = 5
    max_len: int = 30
    distractors: str = "random"

    name: ClassVar[str] = "latching"
    title: ClassVar[str] = "Information latching (1992 example)"
    paper: ClassVar[str] = "Frasconi, Gori & Soda 1992, Local feedback multilayered networks, example 1"
    setup: ClassVar[str] = (
        "Local-feedback network (activation-feedback hidden units, self-weights), "
        "k one-hot inputs and k outputs; the class depends only on the first "
        "input; sequences of arbitrary length; error only at the end."
    )
    reported: ClassVar[str] = (
        "Solved by latching: units with self-weight |w| > 2 keep the sign of "
        "their state; 5 classes needed at least 3 latching units."
    )

    def __post_init__(self) -> None:
        t = self.name
        self._set("k", check_int(t, "k", self.k, 2, "k is the number of classes"))
        self._set("min_len", check_int(t, "min_len", self.min_len, 1, "the shortest sequence"))
        self._set(
            "max_len",
            check_int(
                t, "max_len", self.max_len, self.min_len, f"max_len must be >= min_len = {self.min_len}"
            ),
        )
        check_choice(
            t,
            "distractors",
            self.distractors,
            ("random", "none"),
            "what follows the first input: random symbols or zeros",
        )

    n_in = property(lambda self: self.k)
    n_out = property(lambda self: self.k)
    max_length = property(lambda self: self.max_len)

    @property
    def criterion(self) -> Criterion:
        return Criterion(
            100,
            None,
            "classroom criterion: the most active output is the class, "
            "100 sequences in a row (the paper states none)",
        )

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        lengths = rng.integers(self.min_len, self.max_len + 1, size=batch)
        Tm = int(lengths.max())
        steps = np.arange(Tm)[:, None]
        label = rng.integers(self.k, size=batch)
        sym = rng.integers(self.k, size=(Tm, batch))
        sym[0] = label
        on = (steps < lengths) & ((steps == 0) | (self.distractors == "random"))
        xs = np.eye(self.k)[sym] * on[..., None]
        mask = (steps == lengths - 1).astype(float)
        targets = np.eye(self.k)[label][None] * mask[..., None]
        return Batch(xs, targets, mask, lengths.astype(np.int64), {"label": label})

    def _evaluate(self, a: Aligned) -> Report:
        mean, mx = self.errors(a)
        ok = a.final(a.out).argmax(-1) == a.info["label"]
        ok = ok & np.isfinite(mx)
        return Report(ok, {"seq_abs_error": mean, "max_abs_error": mx, "accuracy": ok.astype(float)})
