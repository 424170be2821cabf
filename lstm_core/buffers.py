"""Reuse of large float64 buffers across calls (the whole-sequence fast paths).

Why: a training loop calls forward + backward with the same shapes again and again. Fresh
multi-megabyte arrays are handed back to the operating system when freed (glibc trims and
unmaps them), so every call pays a page fault per 4 KiB page touched — on a virtual machine
that costs more than the arithmetic at moderate sizes. ``empty(shape)`` returns a pooled
array that nobody else references any more (no run, view or state still points into it),
or a new one that is kept for the next call.

Safety rests on reference counts: every NumPy view holds a reference to the array that owns
the memory, so a pooled array whose count shows only the pool's own references is unused.
"""

from __future__ import annotations

import sys
import threading

import numpy as np

MAX_POOLED_BYTES = 256 * 2**20  # keep at most this much memory for reuse
MIN_BYTES = 64 * 2**10  # smaller arrays are cheap to allocate: not pooled

_pool: dict[tuple, list[np.ndarray]] = {}
_pooled_bytes = 0
_lock = threading.Lock()


def _calibrate() -> tuple[int, int, bool]:
    """Reference counts of an unused pooled array, as seen in ``empty`` (list + loop variable
    + argument) and in ``_evict`` (list + argument), measured rather than assumed (they
    differ between Python versions); and whether one more reference shows (if it does not,
    as on interpreters without exact counts, pooling is switched off)."""
    probe = [np.empty(1)]
    for a in probe:
        in_loop = sys.getrefcount(a)
    del a
    by_index = sys.getrefcount(probe[0])
    extra = probe[0][:]  # a view holds a reference to its base
    exact = sys.getrefcount(probe[0]) == by_index + 1
    del extra
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()  # free-threaded builds: counts are not exact
    return in_loop, by_index, exact and gil


_FREE_REFS, _FREE_REFS_INDEXED, ENABLED = _calibrate()


def empty(shape: tuple) -> np.ndarray:
    """An uninitialised float64 array of ``shape``, reused from the pool when one is free."""
    global _pooled_bytes
    shape = tuple(int(n) for n in shape)
    nbytes = 8 * int(np.prod(shape))
    if nbytes < MIN_BYTES or not ENABLED:
        return np.empty(shape)
    with _lock:  # check-and-take must not interleave between threads
        arrays = _pool.setdefault(shape, [])
        for a in arrays:
            if sys.getrefcount(a) == _FREE_REFS:
                return a
        a = np.empty(shape)
        if _pooled_bytes + nbytes > MAX_POOLED_BYTES:
            _evict(_pooled_bytes + nbytes - MAX_POOLED_BYTES)
        if _pooled_bytes + nbytes <= MAX_POOLED_BYTES:
            arrays.append(a)
            _pooled_bytes += nbytes
        return a


def _evict(need: int) -> None:
    """Forget free pooled arrays (of any shape) until ``need`` bytes are released."""
    global _pooled_bytes
    for arrays in _pool.values():
        for j in range(len(arrays) - 1, -1, -1):
            if need <= 0:
                return
            if sys.getrefcount(arrays[j]) == _FREE_REFS_INDEXED:
                need -= arrays[j].nbytes
                _pooled_bytes -= arrays[j].nbytes
                del arrays[j]


def clear() -> None:
    """Drop every pooled array (their memory is freed once no run refers to it)."""
    global _pooled_bytes
    with _lock:
        _pool.clear()
        _pooled_bytes = 0
