"""Per-network data streams: every network of a population draws its own sequences.

Member k's sequences come from ``np.random.default_rng([train seed, member k's model seed])``,
so a network trained inside a population sees exactly the sequences it would see trained
alone. Sequences are generated ``chunk`` at a time (one vectorised ``task.generate`` call
instead of one per sequence — for most tasks many times cheaper) and handed out B at a time;
the chunk size depends only on B, so the stream is the same alone and in a population.
"""

from __future__ import annotations

import numpy as np

from ..tasks import Batch, Task
from ..tasks.base import _stack_info

CHUNK = 32  # sequences generated per task.generate call (rounded up to a multiple of B)


def take(batch: Batch, i: int, j: int) -> Batch:
    """Sequences i..j−1 of a batch, trimmed to their own longest length."""
    lengths = batch.lengths[i:j]
    T = int(lengths.max())
    return Batch(
        batch.xs[:T, i:j],
        batch.targets[:T, i:j],
        batch.mask[:T, i:j],
        lengths,
        {k: np.asarray(v)[i:j] for k, v in batch.info.items()},
    )


class MemberStream:
    """The sequence stream of one network (its own rng, a buffer of generated sequences)."""

    def __init__(self, task: Task, rng: np.random.Generator, batch: int) -> None:
        self.task, self.rng, self.batch = task, rng, batch
        self.chunk = batch * -(-CHUNK // batch)
        self.buffer: Batch | None = None
        self.pos = 0

    def claim(self) -> tuple[Batch, int, int]:
        """The next B sequences as (buffer, i, j): sequences i..j−1 of ``buffer`` (no copy)."""
        if self.buffer is None or self.pos >= self.chunk:
            self.buffer, self.pos = self.task.generate(self.rng, self.chunk), 0
            # the longest sequence of each batch of B in the buffer (claims start at multiples of B)
            self._longest = self.buffer.lengths.reshape(-1, self.batch).max(1).tolist()
        i = self.pos
        self.pos += self.batch
        self.longest = self._longest[i // self.batch]  # of the batch just claimed
        return self.buffer, i, self.pos

    def next(self) -> Batch:
        return take(*self.claim())


def population_batch(
    streams: list[MemberStream], active: np.ndarray, population: bool
) -> tuple[Batch, np.ndarray]:
    """The next batch of every active member, stacked to (T, K, B, ...) (padded to the longest).

    Frozen members draw nothing (their streams do not advance); they get a copy of an active
    member's batch with the mask zeroed, which they compute on but never learn from.
    Returns (batch, per-member number of steps that carry data).

    (The same arrays as ``stack_batches([take(...) for each member])``, copied straight from every
    member's buffer: this runs once per training step of a population of up to hundreds.)
    """
    if not population:
        b = streams[0].next()
        return b, np.array([b.xs.shape[0]])
    K = len(streams)
    picks: list = [None] * K
    t_of = [0] * K
    for k in np.flatnonzero(active).tolist():
        s = streams[k]
        picks[k] = s.claim()
        t_of[k] = s.longest
    f = next(k for k, p in enumerate(picks) if p is not None)
    first, t_first = picks[f], t_of[f]
    steps = np.array(t_of)  # 0 for a frozen member
    src = [p if p is not None else first for p in picks]
    t_of = [t if p is not None else t_first for p, t in zip(picks, t_of)]
    T = max(t_of)
    fb, B = first[0], first[2] - first[1]
    if all(p is not None for p in picks) and min(t_of) == T:
        # the common case (everyone learning, equal lengths): one stack per array
        xs = np.stack([buf.xs[:T, i:j] for buf, i, j in src], axis=1).astype(float, copy=False)
        tg = np.stack([buf.targets[:T, i:j] for buf, i, j in src], axis=1).astype(float, copy=False)
        mk = np.stack([buf.mask[:T, i:j] for buf, i, j in src], axis=1).astype(float, copy=False)
    else:
        xs = np.zeros((T, K, B) + fb.xs.shape[2:])
        tg = np.zeros((T, K, B) + fb.targets.shape[2:])
        mk = np.zeros((T, K, B) + fb.mask.shape[2:])
        for k, (buf, i, j) in enumerate(src):
            Tk = t_of[k]
            xs[:Tk, k] = buf.xs[:Tk, i:j]
            tg[:Tk, k] = buf.targets[:Tk, i:j]
            if picks[k] is not None:  # a frozen member's mask stays 0
                mk[:Tk, k] = buf.mask[:Tk, i:j]
    lengths = np.stack([buf.lengths[i:j] for buf, i, j in src])
    info = {key: _stack_info([np.asarray(buf.info[key])[i:j] for buf, i, j in src]) for key in fb.info}
    return Batch(xs, tg, mk, lengths, info), steps


def stop_streams(
    y: np.ndarray, tg: np.ndarray, mk: np.ndarray, t: int, steps: np.ndarray, tol: float
) -> np.ndarray:
    """The 2002 timing protocol (``TrainConfig.reset_on_error``): a stream (batch 1) whose step t
    has an abs error ≥ ``tol`` at a target gets no later update — its ``steps`` ends at t + 1 —
    and the next sequence starts from the zero state. Shapes: y, tg ([K,] B, n_out), mk ([K,] B)."""
    err = np.where(mk[..., None] > 0, np.abs(y - tg), 0.0).max(-1)
    bad = (err >= tol).any(-1) | ~np.isfinite(err).all(-1)  # per member
    return np.where(bad, np.minimum(steps, t + 1), steps)
