"""Noise-free and noisy long time lag sequences (Hochreiter & Schmidhuber 1997, exp. 2a-2c)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .base import Aligned, Batch, Criterion, Report, Task, check_choice, check_int, one_hot, pack, pad_rows

_SETUP_2A = (
    "p + 1 one-hot inputs and outputs, no hidden units; 1 block x 1 cell, no output gate; "
    "g = sigmoid, h = identity; init [-0.2, 0.2]; lr 1. A run succeeds when the max abs "
    "output error stays < 0.25 on every symbol for 10,000 test sequences in a row."
)


@dataclass(frozen=True)
class LongLag(Task):
    """Noise-free long time lag (1997 experiment 2a).

    Alphabet {x, y, a_1 .. a_{p-1}} (one-hot, p + 1 units; index 0 = x, 1 = y, 1 + i = a_i).
    Sequences (x, a_1, ..., a_{p-1}, x) and (y, a_1, ..., a_{p-1}, y), each with p. 0.5.
    At every step the net predicts the next symbol (one-hot target); the last prediction
    needs the first symbol, p steps back. Pass: max abs error < 0.25 on every symbol,
    ``streak`` (paper: 10,000) test sequences in a row.

    Setup: 1 block x 1 cell, no output gate, g = sigmoid, h = identity, lr 1, init [-0.2, 0.2].
    Reported: RTRL still partly solves p = 4 but fails for p >= 10; only LSTM solves p = 100.
    """

    p: int = 100
    streak: int = 10_000

    name: ClassVar[str] = "long_lag"
    title: ClassVar[str] = "Noise-free long time lag (1997 exp. 2a)"
    paper: ClassVar[str] = "Hochreiter & Schmidhuber 1997, experiment 2a"
    setup: ClassVar[str] = _SETUP_2A
    reported: ClassVar[str] = (
        "RTRL partly solves p = 4 and fails for p >= 10; LSTM is the only "
        "method that solves p = 100, and it converges fastest."
    )
    tolerance: ClassVar[float] = 0.25

    def __post_init__(self) -> None:
        self._set(
            "p", check_int(self.name, "p", self.p, 2, "p is the time lag between the first and last symbol")
        )
        self._set(
            "streak",
            check_int(
                self.name,
                "streak",
                self.streak,
                1,
                "the number of correct test sequences in a row "
                "(paper: 10,000; smaller = a reduced criterion)",
            ),
        )

    n_in = property(lambda self: self.p + 1)
    n_out = property(lambda self: self.p + 1)
    max_length = property(lambda self: self.p)  # p + 1 symbols; the last is only a target

    @property
    def criterion(self) -> Criterion:
        return Criterion(
            self.streak,
            None,
            f"max abs error < {self.tolerance} on every symbol, "
            f"{self.streak:,} sequences in a row (paper: 10,000)",
        )

    def _middle(self, rng: np.random.Generator, batch: int) -> np.ndarray:
        return np.broadcast_to(np.arange(2, self.p + 1), (batch, self.p - 1))  # a_1 .. a_{p-1}

    def _targets(self, seq: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return one_hot(seq[1:], self.n_out), np.ones(len(seq) - 1)

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        first = rng.integers(2, size=batch)  # 0 = x, 1 = y
        mid = self._middle(rng, batch)
        seqs = np.concatenate([first[:, None], mid, first[:, None]], axis=1)
        if type(self)._targets is LongLag._targets:
            # every sequence has p + 1 symbols: one-hot inputs and targets for all at once
            # (the same arrays as ``pack`` of the per-sequence ones below)
            eye = np.eye(self.n_in)
            xs = eye[seqs[:, :-1].T]  # (T, B, n)
            ts = eye[seqs[:, 1:].T]
            lengths = np.full(batch, self.p, dtype=np.int64)
            return Batch(
                xs, ts, np.ones((self.p, batch)), lengths, {"label": first, "symbols": seqs.astype(np.int64)}
            )
        tm = [self._targets(s) for s in seqs]
        return pack(
            [one_hot(s[:-1], self.n_in) for s in seqs],
            [t for t, _ in tm],
            [m for _, m in tm],
            {"label": first, "symbols": pad_rows(list(seqs))},
        )

    def _evaluate(self, a: Aligned) -> Report:
        return self._report(a, self.tolerance)


@dataclass(frozen=True)
class LongLagRandom(LongLag):
    """No local regularities (1997 experiment 2b).

    As 2a, but the p - 1 middle symbols are drawn uniformly at random from {a_1 .. a_{p-1}},
    so they cannot be predicted. ``targets = "expected"`` (default) trains every step on the
    expected next symbol: 1/(p-1) on each a_i while a middle symbol follows, then the one-hot
    x|y at the end - the least-squares optimum, so the 2a test (max abs error < 0.25 on every
    symbol) stays meaningful. ``targets = "last"`` trains and tests only the final prediction.

    Setup as 2a. Reported: only LSTM solves it; for p = 100 after 5,680 sequence presentations.
    """

    targets: str = "expected"

    name: ClassVar[str] = "long_lag_random"
    title: ClassVar[str] = "Long time lag, no local regularities (1997 exp. 2b)"
    paper: ClassVar[str] = "Hochreiter & Schmidhuber 1997, experiment 2b"
    reported: ClassVar[str] = (
        "Only LSTM solves it; p = 100 was solved after 5,680 sequence "
        "presentations, about as fast as the noise-free 2a."
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        check_choice(
            self.name,
            "targets",
            self.targets,
            ("expected", "last"),
            "'expected' trains every step on the expected next symbol, 'last' only the end",
        )

    def _middle(self, rng: np.random.Generator, batch: int) -> np.ndarray:
        return rng.integers(2, self.p + 1, size=(batch, self.p - 1))

    def _targets(self, seq: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t = np.zeros((len(seq) - 1, self.n_out))
        t[:-1, 2:] = 1.0 / (self.p - 1)  # a random a_i follows
        t[-1, seq[-1]] = 1.0  # the first symbol comes back
        m = np.ones(len(seq) - 1)
        if self.targets == "last":
            m[:-1] = 0.0
        return t, m


@dataclass(frozen=True)
class VeryLongLag(Task):
    """Very long time lags, no local regularities (1997 experiment 2c).

    Alphabet {a_1 .. a_{p-1}, e, b, x, y}, one-hot (p + 3 inputs; the paper counts p + 4).
    A sequence is b, x|y, q random a_i, then repeatedly: with p. 0.9 another random a_i, with
    p. 0.1 e followed by the same x|y (length q + k + 4, expected q + 14). Only the final
    prediction is trained: after e, 2 outputs (x, y) one-hot. Pass: abs error < 0.2 on
    ``streak`` (paper: 10,000) sequences in a row. The number k of extra a_i is capped at
    ``max_extra`` (a truncated geometric law; P(k > 100) = 0.9^101 ~ 2e-5).

    Setup: 2 blocks x 1 cell, init [-0.2, 0.2], lr 0.01. Reported: LSTM solves q up to 1,000
    (sequences > 1,000 steps); training time grows slowly with (p, q), and learning slows down
    when q/p (how often each a_i appears) grows.
    """

    p: int = 50
    q: int = 50
    max_extra: int = 100
    streak: int = 10_000

    name: ClassVar[str] = "very_long_lag"
    title: ClassVar[str] = "Very long time lags (1997 exp. 2c)"
    paper: ClassVar[str] = "Hochreiter & Schmidhuber 1997, experiment 2c"
    setup: ClassVar[str] = (
        "p + 3 one-hot inputs, 2 outputs (x, y), no hidden units; 2 blocks x 1 "
        "cell; init [-0.2, 0.2]; lr 0.01. Only the final prediction is trained. "
        "Success: error < 0.2 on 10,000 test sequences in a row."
    )
    reported: ClassVar[str] = (
        "LSTM solved every (p, q) tried, up to q = 1,000 (no other method "
        "could); training time grows only slowly with (p, q)."
    )
    tolerance: ClassVar[float] = 0.2

    def __post_init__(self) -> None:
        why = "q is the number of random a_i between x|y and the end (paper: up to 1,000)"
        self._set("p", check_int(self.name, "p", self.p, 2, "there are p - 1 distractor symbols a_i"))
        self._set("q", check_int(self.name, "q", self.q, 0, why))
        self._set(
            "max_extra",
            check_int(
                self.name, "max_extra", self.max_extra, 0, "the cap on the extra a_i drawn with p. 0.9 each"
            ),
        )
        self._set(
            "streak",
            check_int(
                self.name,
                "streak",
                self.streak,
                1,
                "the number of correct sequences in a row (paper: 10,000)",
            ),
        )

    n_in = property(lambda self: self.p + 3)
    n_out = property(lambda self: 2)
    max_length = property(lambda self: self.q + self.max_extra + 3)

    @property
    def criterion(self) -> Criterion:
        return Criterion(
            self.streak,
            None,
            f"abs error < {self.tolerance} on the final prediction, "
            f"{self.streak:,} sequences in a row (paper: 10,000)",
        )

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        p = self.p
        E, Bsym, X = p - 1, p, p + 1  # a_i -> i - 1, e, b, x (= p + 1), y (= p + 2)
        label = rng.integers(2, size=batch)
        # truncated geometric: P(k) ∝ 0.1 * 0.9^k, k = 0 .. max_extra (inverse CDF, vectorised)
        u = rng.random(batch) * (1.0 - 0.9 ** (self.max_extra + 1))
        k = np.minimum(np.floor(np.log1p(-u) / np.log(0.9)), self.max_extra).astype(np.int64)
        xs, ts, ms, rows = [], [], [], []
        for b in range(batch):
            a = rng.integers(0, p - 1, size=self.q + k[b])
            seq = np.concatenate([[Bsym, X + label[b]], a, [E, X + label[b]]])
            L = len(seq) - 1
            t, m = np.zeros((L, 2)), np.zeros(L)
            t[-1, label[b]], m[-1] = 1.0, 1.0
            xs.append(one_hot(seq[:-1], self.n_in))
            ts.append(t)
            ms.append(m)
            rows.append(seq)
        return pack(xs, ts, ms, {"label": label, "extra": k, "symbols": pad_rows(rows)})

    def _evaluate(self, a: Aligned) -> Report:
        return self._report(a, self.tolerance)
