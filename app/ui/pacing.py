"""How much work one live tick does: the one chunk-sizing rule of every live run.

Training runs inside the Streamlit server in chunks, one or more per fragment tick (Train and
watch: one chunk per tick; Bias lab and Paper experiments: chunks for about ``jobs.TICK``
seconds). After each chunk the next one is sized from the measured speed so that it takes about
``target`` seconds — short enough for the page to stay responsive, long enough that the
overhead of a tick stays small.
"""

from __future__ import annotations

MAX_CHUNK = 5_000  # sequences per chunk, whatever the measured speed
GROWTH = 4  # a chunk grows at most this much at a time (a first fast measurement may be noise)


def next_chunk(
    chunk: int, done: int, seconds: float, target: float, multiple: int = 1, cap: int = MAX_CHUNK
) -> int:
    """Sequences for the next chunk: about ``target`` seconds at the speed just measured
    (``done`` sequences in ``seconds``), a whole number of ``multiple`` (a batch), at least one
    multiple, at most ``cap`` and at most ``GROWTH`` × the last chunk."""
    if done <= 0 or seconds <= 0:
        wanted = GROWTH * chunk
    else:
        wanted = done / seconds * target
    wanted = min(wanted, GROWTH * chunk, cap)
    return int(max(multiple, round(wanted / multiple) * multiple))
