"""Character-level names (classroom task, not from a paper): learn to spell first names."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import ClassVar

import numpy as np

from ..errors import CoreError
from .base import Aligned, Batch, Criterion, Report, Task, check_float, check_int, one_hot, pack, pad_rows

BOUNDARY = "."  # start token when fed, end token when predicted
ALPHABET = BOUNDARY + "abcdefghijklmnopqrstuvwxyz"
_IX = {c: i for i, c in enumerate(ALPHABET)}


@lru_cache(maxsize=1)
def load_names() -> tuple[str, ...]:
    """The ~300 first names shipped with the project (names.txt, one lowercase name a line)."""
    text = (Path(__file__).with_name("names.txt")).read_text(encoding="utf-8")
    return tuple(w.strip() for w in text.splitlines() if w.strip())


def encode(name: str) -> np.ndarray:
    """'ada' -> [0, 1, 4, 1, 0]: boundary, letters, boundary."""
    bad = sorted({c for c in name.lower() if c not in _IX or c == BOUNDARY})
    if bad:
        raise CoreError(
            "names: only the letters a-z can be encoded (got {bad} in {word})", bad=bad, word=repr(name)
        )
    return np.array([0] + [_IX[c] for c in name.lower()] + [0], dtype=np.int64)


def decode(indices: np.ndarray | list[int]) -> str:
    """Indices -> letters; boundary tokens are dropped (the name ends at an inner one)."""
    out = []
    for i in list(indices)[1 if len(indices) and int(indices[0]) == 0 else 0 :]:
        if int(i) == 0:
            break
        out.append(ALPHABET[int(i)])
    return "".join(out)


@dataclass(frozen=True)
class Names(Task):
    """Next-character prediction on the shipped list of names; sample new names afterwards.

    Alphabet: 26 letters + one boundary token '.' (27 one-hot inputs, 27 softmax outputs,
    cross-entropy loss). A name n_1..n_m is fed as '.', n_1, ..., n_m and trained on
    n_1, ..., n_m, '.' (every step carries a target). ``n_names`` uses the first names of the
    list (a small list is memorised quickly in class).

    Classroom criterion (no paper): a name is "correct" when at least ``accuracy_threshold``
    of its next characters are the most probable output; 20 names in a row. Metrics add the
    per-step accuracy and the mean cross-entropy (nats per character).
    """

    n_names: int = 0  # 0 = all names
    accuracy_threshold: float = 0.5

    name: ClassVar[str] = "names"
    title: ClassVar[str] = "Names: character-level language model (classroom)"
    paper: ClassVar[str] = "Classroom task (not from a paper), in the spirit of char-level RNN demos"
    setup: ClassVar[str] = (
        "27 one-hot inputs (a-z + boundary), softmax output, cross-entropy loss; "
        "any variant; e.g. 1 layer of 32 units, lr 0.1, BPTT per name."
    )
    reported: ClassVar[str] = (
        "No paper result: a trained net reaches well above the ~1/27 chance "
        "accuracy and samples plausible new names."
    )

    def __post_init__(self) -> None:
        total = len(load_names())
        self._set(
            "n_names",
            check_int(
                self.name,
                "n_names",
                self.n_names,
                0,
                f"how many names of the list to use (0 = all {total})",
                hi=total,
            ),
        )
        t = check_float(
            self.name,
            "accuracy_threshold",
            self.accuracy_threshold,
            0.0,
            "the fraction of characters a 'correct' name must get right",
        )
        if t > 1.0:
            raise CoreError("names: accuracy_threshold must be in [0, 1] (got {t})", t=t)
        self._set("accuracy_threshold", t)

    @property
    def words(self) -> tuple[str, ...]:
        names = load_names()
        return names[: self.n_names] if self.n_names else names

    n_in = property(lambda self: len(ALPHABET))
    symbols = property(lambda self: tuple(ALPHABET))
    n_out = property(lambda self: len(ALPHABET))
    output_activation = property(lambda self: "softmax")
    loss = property(lambda self: "ce")
    max_length = property(lambda self: max(len(w) for w in self.words) + 1)

    @property
    def criterion(self) -> Criterion:
        return Criterion(
            20,
            None,
            f"classroom criterion: >= {self.accuracy_threshold:.0%} of each "
            f"name's next characters predicted (top-1), 20 names in a row",
        )

    def _generate(self, rng: np.random.Generator, batch: int) -> Batch:
        words = self.words
        pick = rng.integers(len(words), size=batch)
        seqs = [encode(words[i]) for i in pick]
        return pack(
            [one_hot(s[:-1], self.n_in) for s in seqs],
            [one_hot(s[1:], self.n_out) for s in seqs],
            [np.ones(len(s) - 1) for s in seqs],
            {"index": pick, "symbols": pad_rows(seqs)},
        )

    def _evaluate(self, a: Aligned) -> Report:
        mean, mx = self.errors(a)
        m = a.mask > 0
        steps = np.maximum(a.mask.sum(0), 1)
        hit = a.out.argmax(-1) == a.tgt.argmax(-1)
        acc = np.where(m, hit, False).sum(0) / steps
        p = np.where(a.tgt > 0.5, a.out, 1.0).prod(-1)  # probability of the true next char
        ce = np.where(m, -np.log(np.clip(p, 1e-12, None)), 0.0).sum(0) / steps
        correct = (acc >= self.accuracy_threshold) & np.isfinite(mx)
        return Report(
            correct, {"seq_abs_error": mean, "max_abs_error": mx, "accuracy": acc, "cross_entropy": ce}
        )
