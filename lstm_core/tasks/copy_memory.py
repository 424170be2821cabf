"""The long-lag benchmarks of the bias-initialisation literature, whose lag is a setting.

Both are the forms Tallec & Ollivier 2018 ("Can recurrent neural networks warp time?") train chrono
initialisation on, taken from Arjovsky, Shah & Bengio 2016; each knows its *memoryless baseline*:
the loss of the best network that remembers nothing, which a network must beat to have bridged the
lag (``memoryless_loss``, in the core's loss units: summed over the steps, per sequence).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .base import Aligned, Batch, Criterion, Report, Task, check_int, one_hot


@dataclass(frozen=True)
class Copy(Task):
    """Copy task (Arjovsky et al. 2016; Tallec & Ollivier 2018, section 5).

    Input (one-hot over ``n_symbols`` + 2): ``length`` symbols drawn from 1..n_symbols, then T − 1
    blanks (0), a delimiter (n_symbols + 1) and ``length`` more blanks — T + 2·length steps.
    Target (softmax over blank + the symbols): blank for the first T + length steps, then the
    ``length`` symbols in order. The memoryless baseline outputs blanks, then a uniform guess:
    length · log(n_symbols) nats per sequence. A sequence is correct when every step's most probable
    output is its target; 100 in a row.
    """

    T: int = 100
    length: int = 10
    n_symbols: int = 8

    name: ClassVar[str] = "copy"
    title: ClassVar[str] = "Copy task (Arjovsky 2016; Tallec & Ollivier 2018)"
    paper: ClassVar[str] = "Arjovsky, Shah & Bengio 2016; Tallec & Ollivier 2018, section 5"
    setup: ClassVar[str] = (
        "10 symbols of 8, T blanks, a delimiter, then reproduce the 10 symbols; one-hot inputs, softmax "
        "output, cross-entropy at every step. The 2018 paper: 128 units, RMSProp, T = 500 and 2,000."
    )
    reported: ClassVar[str] = (
        "Tallec & Ollivier 2018: chrono initialisation (T_max = 3T/2) learns the task at T = 500 and "
        "2,000, where the standard initialisation stays at the memoryless baseline."
    )

    def __post_init__(self) -> None:
        self._set(
            "T", check_int(self.name, "T", self.T, 1, "T is the lag between the symbols and their recall")
        )
        self._set("length", check_int(self.name, "length", self.length, 1, "the symbols to copy", hi=50))
        self._set(
            "n_symbols", check_int(self.name, "n_symbols", self.n_symbols, 2, "the alphabet's size", hi=32)
        )

    n_in = property(lambda self: self.n_symbols + 2)
    n_out = property(lambda self: self.n_symbols + 1)
    output_activation = property(lambda self: "softmax")
    loss = property(lambda self: "ce")
    max_length = property(lambda self: self.T + 2 * self.length)
    memoryless_loss = property(lambda self: self.length * float(np.log(self.n_symbols)))

    @property
    def criterion(self) -> Criterion:
        return Criterion(100, None, "every step's most probable output right, 100 sequences in a row")

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        L, n = self.length, self.max_length
        data = rng.integers(1, self.n_symbols + 1, size=(batch, L))
        x = np.zeros((n, batch), dtype=np.int64)
        x[:L] = data.T
        x[self.T + L - 1] = self.n_symbols + 1  # the delimiter: "recall now"
        y = np.zeros((n, batch), dtype=np.int64)
        y[n - L :] = data.T
        lengths = np.full(batch, n, dtype=np.int64)
        return Batch(
            one_hot(x, self.n_in), one_hot(y, self.n_out), np.ones((n, batch)), lengths, {"symbols": data}
        )

    def _evaluate(self, a: Aligned) -> Report:
        mean, mx = self.errors(a)
        hit = (a.out.argmax(-1) == a.tgt.argmax(-1)) | (a.mask <= 0)
        recall = hit[-self.length :].mean(0)  # the share of the symbols recalled
        correct = hit.all(0) & np.isfinite(mx)
        return Report(correct, {"seq_abs_error": mean, "max_abs_error": mx, "recall": recall})


@dataclass(frozen=True)
class AddingSum(Task):
    """Adding problem in the form of Arjovsky et al. 2016 and Tallec & Ollivier 2018.

    Input pairs (value, marker) over T steps, values uniform in [0, 1]; one marker in the first
    half, one in the second; target at the last step: the sum of the two marked values (in [0, 2],
    identity output, squared error). The memoryless baseline answers 1: mean squared error 1/6,
    i.e. 1/12 in the core's loss (½ err²). A sequence is correct when its abs error < 0.04 (the
    1997 tolerance); 2,000 in a row. The lag between the first marker and the answer is T/2 to T.
    """

    T: int = 100

    name: ClassVar[str] = "adding_sum"
    title: ClassVar[str] = "Adding problem, sum form (Arjovsky 2016; Tallec & Ollivier 2018)"
    paper: ClassVar[str] = "Arjovsky, Shah & Bengio 2016; Tallec & Ollivier 2018, section 5"
    setup: ClassVar[str] = (
        "2 inputs (value in [0, 1], marker), 1 identity output: the sum of the two marked values, one "
        "marked in each half; squared error at the last step. The 2018 paper: 128 units, T = 200 and 750."
    )
    reported: ClassVar[str] = (
        "Tallec & Ollivier 2018: chrono initialisation learns faster than the standard one at T = 200 "
        "and 750; both beat the memoryless baseline (mean squared error 0.167)."
    )

    def __post_init__(self) -> None:
        self._set("T", check_int(self.name, "T", self.T, 4, "T is the sequence length (two halves of ≥ 2)"))

    n_in = property(lambda self: 2)
    n_out = property(lambda self: 1)
    output_activation = property(lambda self: "identity")
    max_length = property(lambda self: self.T)
    memoryless_loss = property(lambda self: 1.0 / 12.0)

    @property
    def criterion(self) -> Criterion:
        return Criterion(2000, None, "abs error < 0.04 on 2,000 sequences in a row")

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        T, half = self.T, self.T // 2
        values = rng.uniform(0.0, 1.0, size=(T, batch))
        first = rng.integers(0, half, size=batch)
        second = rng.integers(half, T, size=batch)
        b = np.arange(batch)
        marker = np.zeros((T, batch))
        marker[first, b] = marker[second, b] = 1.0
        target = values[first, b] + values[second, b]
        mask = np.zeros((T, batch))
        mask[-1] = 1.0
        return Batch(
            np.stack([values, marker], -1),
            (mask * target)[..., None],
            mask,
            np.full(batch, T, dtype=np.int64),
            {"positions": np.stack([first, second], -1)},
        )

    def _evaluate(self, a: Aligned) -> Report:
        return self._report(a, 0.04)
