"""Tasks from the papers (and one classroom task): batches, sizes and pass criteria.

>>> import numpy as np
>>> from lstm_core.tasks import get_task
>>> task = get_task("adding", T=100)
>>> batch = task.generate(np.random.default_rng(0), batch=32)
>>> batch.xs.shape[1:], task.n_out, task.criterion.streak
((32, 2), 1, 2000)
"""

from __future__ import annotations

from typing import Any

from lstm_core.errors import CoreError

from .adding import Adding, Multiplication
from .base import Batch, Criterion, Report, Task, stack_batches
from .copy_memory import AddingSum, Copy
from .latching import Latching
from .long_lag import LongLag, LongLagRandom, VeryLongLag
from .names import ALPHABET, Names, decode, encode, load_names
from .reber import EmbeddedReber
from .temporal_order import TemporalOrder
from .timing import Periodic, SpikeDelay, SpikeGeneration
from .two_sequence import TwoSequence

_CLASSES = (
    EmbeddedReber,
    LongLag,
    LongLagRandom,
    VeryLongLag,
    TwoSequence,
    Adding,
    Multiplication,
    TemporalOrder,
    SpikeDelay,
    SpikeGeneration,
    Periodic,
    Latching,
    Names,
    Copy,
    AddingSum,
)

TASKS: dict[str, Task] = {cls.name: cls() for cls in _CLASSES}


def get_task(name: str, **settings: Any) -> Task:
    """The task ``name`` with the given settings (validated); ValueError lists valid names."""
    if name not in TASKS:
        raise CoreError("unknown task {task}; valid tasks are {valid}", task=repr(name), valid=sorted(TASKS))
    return TASKS[name].with_settings(**settings) if settings else TASKS[name]


__all__ = [
    "TASKS",
    "get_task",
    "Task",
    "Batch",
    "Report",
    "Criterion",
    "stack_batches",
    "ALPHABET",
    "encode",
    "decode",
    "load_names",
] + [c.__name__ for c in _CLASSES]
