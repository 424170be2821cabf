"""Embedded Reber grammar (Hochreiter & Schmidhuber 1997, experiment 1)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

from .base import Aligned, Batch, Criterion, Report, Task, check_int, one_hot, pack, pad_rows

SYMBOLS = "BTSXPVE"
_IX = {c: i for i, c in enumerate(SYMBOLS)}
# Reber's finite-state machine (paper fig. 3): state -> [(symbol, next state)], each branch p. 0.5.
_REBER = {
    0: [("B", 1)],
    1: [("T", 2), ("P", 3)],
    2: [("S", 2), ("X", 4)],
    3: [("T", 3), ("V", 5)],
    4: [("X", 3), ("S", 6)],
    5: [("P", 4), ("V", 6)],
    6: [("E", -1)],
}


def reber_string(rng: np.random.Generator) -> str:
    s, out = 0, []
    while s >= 0:
        sym, s = _REBER[s][int(rng.integers(len(_REBER[s])))]
        out.append(sym)
    return "".join(out)


def embedded_reber_string(rng: np.random.Generator) -> str:
    """B, T|P, a Reber string, the same T|P, E (paper fig. 4); the shortest is BTBTXSETE."""
    c = "TP"[int(rng.integers(2))]
    return "B" + c + reber_string(rng) + c + "E"


def next_sets(s: str) -> np.ndarray:
    """(len(s) - 1, 7) multi-hot: the symbols that may follow each prefix of ``s``."""
    out = np.zeros((len(s) - 1, len(SYMBOLS)))
    out[0, [_IX["T"], _IX["P"]]] = 1  # after the outer B
    out[1, _IX["B"]] = 1  # after the outer T|P
    state = 1  # inner machine, after its B
    for t in range(2, len(s) - 3):  # inner symbols s[2] .. s[-3]
        if t > 2:
            state = dict(_REBER[state])[s[t]]
        for sym, _ in _REBER[state]:
            out[t, _IX[sym]] = 1
    out[len(s) - 3, _IX[s[1]]] = 1  # after the inner E: the long-lag symbol
    out[len(s) - 2, _IX["E"]] = 1
    return out


def _strings_slow(rng: np.random.Generator, batch: int, max_len: int) -> list[str]:
    strings = []
    while len(strings) < batch:
        s = embedded_reber_string(rng)
        if len(s) <= max_len:
            strings.append(s)
    return strings


def _strings(rng: np.random.Generator, batch: int, max_len: int) -> list[str]:
    """``batch`` embedded Reber strings of at most ``max_len`` symbols (longer ones redrawn).

    The same strings and the same rng state afterwards as drawing them one branch at a time
    (``embedded_reber_string``; tested): every branch is ``rng.integers(2)`` (a one-way state
    draws nothing), and for PCG64 n such draws equal one ``rng.integers(2, size=n)``. So the
    branches come from one block of draws, and the rng is then moved on by exactly the number
    used (a string running past the block falls back to the one-at-a-time code).
    """
    if type(rng.bit_generator) is not np.random.PCG64:
        return _strings_slow(rng, batch, max_len)
    start = rng.bit_generator.state
    bits = rng.integers(2, size=48 * batch + 64).tolist()
    strings, pos = [], 0
    try:
        while len(strings) < batch:
            c = "TP"[bits[pos]]
            pos += 1
            st, out = 0, ["B", c]
            while st >= 0:
                opts = _REBER[st]
                if len(opts) == 1:
                    sym, st = opts[0]
                else:
                    sym, st = opts[bits[pos]]
                    pos += 1
                out.append(sym)
            out += [c, "E"]
            if len(out) <= max_len:
                strings.append("".join(out))
    except IndexError:  # ran out of the block: start over slowly
        rng.bit_generator.state = start
        return _strings_slow(rng, batch, max_len)
    rng.bit_generator.state = start
    rng.integers(2, size=pos)  # consume exactly the draws used
    return strings


MAX_SET = 10_000  # strings per fixed set (each check runs 2 × this many)
SET_STREAM = 97_001  # the sets' rng stream, apart from every training stream


@lru_cache(maxsize=16)
def fixed_sets(n: int, seed: int, max_len: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A training set of ``n`` strings and a test set of ``n`` strings none of which is in the
    training set (a drawn string that is, is drawn again), both from ``seed`` alone."""
    rng = np.random.default_rng([SET_STREAM, seed])
    train = tuple(_strings(rng, n, max_len))
    seen, test = set(train), []
    while len(test) < n:
        test += [s for s in _strings(rng, n - len(test), max_len) if s not in seen]
    return train, tuple(test)


@lru_cache(maxsize=4096)
def _encoded(s: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(symbol indices, one-hot inputs, next-symbol targets, mask) of a string (read-only, cached:
    short strings recur all the time)."""
    idx = np.array([_IX[c] for c in s])
    out = (idx, one_hot(idx[:-1], 7), next_sets(s), np.ones(len(s) - 1))
    for a in out:
        a.setflags(write=False)
    return out


@dataclass(frozen=True)
class EmbeddedReber(Task):
    """Embedded Reber grammar: next-symbol prediction over BTSXPVE (one-hot in and out).

    Strings are B, T|P, a Reber string, the same T|P, E; every branch has p. 0.5. The
    target at each step is the *set* of possible next symbols (multi-hot); a string is
    right when at every step the units of the possible next symbols are the most active
    (top-|allowed| outputs == allowed set). Only the second-to-last symbol needs long-term
    memory: it must repeat the second symbol.

    ``sets = 0`` (the default) trains on fresh random strings and the criterion is 256 strings
    right in a row as they are learnt. ``sets = N`` is the paper's protocol: a fixed training set
    of N strings and a test set of N strings none of which is in the training set, both drawn once
    from ``set_seed`` (the paper used three such pairs of sets, ten trials each); every training
    sequence is one of the N training strings, picked at random; after every N training sequences
    all 2N strings are run with the current weights, and the task is learnt when every one of them
    is right. The paper does not say whether a set may hold a string twice; here a set is N
    independent draws, so short strings recur in it as they do in the grammar.

    Paper setup: 256 training / 256 test strings; (blocks, cells) = (3, 2) or (4, 1);
    output gate biases -1, -2, -3, -4; lr 0.1-0.5; init [-0.2, 0.2]; RTRL.
    Reported: LSTM solved it in (nearly) all trials and converged faster than every other
    method (RTRL, Elman nets trained with ELM, ...); without output gates it converged more
    slowly. Strings longer than ``max_len`` are redrawn (the grammar's loops make lengths
    unbounded; the cut-off changes almost nothing).
    """

    max_len: int = 50
    sets: int = 0
    set_seed: int = 0

    name: ClassVar[str] = "embedded_reber"
    title: ClassVar[str] = "Embedded Reber grammar (1997 exp. 1)"
    paper: ClassVar[str] = "Hochreiter & Schmidhuber 1997, experiment 1"
    setup: ClassVar[str] = (
        "7 one-hot inputs/outputs (BTSXPVE), no hidden units; (blocks, cells) = (3, 2) "
        "or (4, 1); output gate biases -1, -2, -3, -4; init [-0.2, 0.2]; lr 0.1, 0.2 "
        "or 0.5. 256 training and 256 disjoint test strings; a trial succeeds when "
        "every string of both sets is predicted right."
    )
    reported: ClassVar[str] = (
        "LSTM (RTRL, truncated gradient) solved the task in nearly all trials, "
        "faster than every other method; RTRL and Elman nets mostly failed."
    )

    def __post_init__(self) -> None:
        self._set(
            "max_len",
            check_int(
                self.name,
                "max_len",
                self.max_len,
                9,
                "the shortest embedded Reber string (BTBTXSETE) has 9 symbols",
            ),
        )
        self._set(
            "sets",
            check_int(
                self.name,
                "sets",
                self.sets,
                0,
                "0 trains on fresh random strings; N > 0 on a fixed set of N training "
                "strings, judged with N test strings (the paper: 256)",
                hi=MAX_SET,
            ),
        )
        self._set(
            "set_seed",
            check_int(
                self.name,
                "set_seed",
                self.set_seed,
                0,
                "the seed that draws the fixed training and test sets",
            ),
        )

    n_in = property(lambda self: len(SYMBOLS))
    symbols = property(lambda self: tuple(SYMBOLS))
    n_out = property(lambda self: len(SYMBOLS))
    max_length = property(lambda self: self.max_len - 1)  # the final E is only a target

    @property
    def criterion(self) -> Criterion:
        right = "at every step the outputs of the possible next symbols are the most active"
        if self.sets:
            return Criterion(
                2 * self.sets,
                None,
                f"all {self.sets:,} training and {self.sets:,} test strings "
                f"right ({right}), checked after every {self.sets:,} "
                "training sequences",
                check_every=self.sets,
            )
        return Criterion(256, None, f"256 strings in a row right as they are learnt ({right})")

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        if self.sets:
            train, _ = fixed_sets(self.sets, self.set_seed, self.max_len)
            strings = [train[i] for i in rng.integers(self.sets, size=batch).tolist()]
        else:
            strings = _strings(rng, batch, self.max_len)
        return self._pack(strings)

    def check_set(self) -> Batch | None:
        """The training set, then the test set (None without fixed sets)."""
        if not self.sets:
            return None
        train, test = fixed_sets(self.sets, self.set_seed, self.max_len)
        return self._pack(list(train + test))

    @staticmethod
    def _pack(strings: list[str]) -> Batch:
        enc = [_encoded(s) for s in strings]
        return pack(
            [e[1] for e in enc],
            [e[2] for e in enc],
            [e[3] for e in enc],
            {"symbols": pad_rows([e[0] for e in enc]), "embedded": np.array([_IX[s[1]] for s in strings])},
        )

    def _evaluate(self, a: Aligned) -> Report:
        allowed, m = a.tgt > 0.5, a.mask > 0
        lo = np.where(allowed, a.out, np.inf).min(-1)  # weakest allowed unit
        hi = np.where(allowed, -np.inf, a.out).max(-1)  # strongest forbidden unit
        step_ok = lo > hi
        correct = np.where(m, step_ok, True).all(0)
        mean, mx = self.errors(a)
        steps = np.maximum(a.mask.sum(0), 1)
        acc = np.where(m, step_ok, False).sum(0) / steps
        return Report(correct, {"seq_abs_error": mean, "max_abs_error": mx, "step_accuracy": acc})
