"""The family modules by the family name the core's variant registry gives (``lc.VARIANTS[v].family``),
and what every page asks of a cell: its unit names, one unit's values at one step, its equations
with those numbers and the sentence on what to look for."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

import lstm_core as lc
from app.cells import gru, local_feedback, lstm, memory_cell, rnn
from app.cells.common import Row, output_row

FAMILIES: dict[str, ModuleType] = {
    "memory_cell": memory_cell,
    "lstm": lstm,
    "gru": gru,
    "rnn": rnn,
    "local_feedback": local_feedback,
}


def of(cfg: lc.ModelConfig) -> ModuleType:
    """The module that writes and draws ``cfg``'s cell."""
    return FAMILIES[cfg.record.family]


def unit_labels(cfg: lc.ModelConfig) -> list[str]:
    """Names of the units a page can pick (cells, for the LSTM-1997 family)."""
    return of(cfg).unit_labels(cfg)


def snapshot(
    cfg: lc.ModelConfig,
    internals: dict[str, np.ndarray],
    t: int,
    unit: int,
    params: dict[str, np.ndarray] | None = None,
) -> dict[str, Any]:
    """Values of one unit (cell) at step ``t`` (0-based), batch element 0 — every number the one the
    core recorded (no recomputation)."""
    at = {k: v[t, 0] for k, v in internals.items()}
    out = {"y": float(at["y"][0]), "net_y": float(at["net_out"][0])}
    return out | of(cfg).snapshot(cfg, at, unit, params)


def lines(cfg: lc.ModelConfig, s: dict[str, Any]) -> list[Row]:
    """The cell's step equations and the output layer's, each with this step's numbers."""
    return of(cfg).lines(cfg, s) + [output_row(cfg, s)]


def note(cfg: lc.ModelConfig) -> str:
    """One sentence on what to look for in this cell's equations."""
    return of(cfg).note(cfg)
