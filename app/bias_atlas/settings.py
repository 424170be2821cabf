"""The Bias atlas page's settings, and the atlas's results as the page reads them (cached).

The results are the committed ``docs/bias_atlas.json`` (``python -m lstm_core.atlas``); the choices a
page offers are the atlas's own variants, tasks and lags, so every combination has an answer.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

import lstm_core as lc
from app.i18n import N_
from app.ui import form
from app.ui.form import Field
from app.ui.page_frame import PageSpec
from app.ui.paths import DOCS
from lstm_core import atlas
from lstm_core.atlas.before import before_training
from lstm_core.init_schemes import KEEP_GATE, SCHEMES
from lstm_core.scheme_code import FRAMEWORKS

PAGE = "bias_atlas"
RESULTS: Path = DOCS / "bias_atlas.json"
GRID = atlas.FULL
FRAMEWORK_LABELS = {"pytorch": "PyTorch", "keras": "Keras", "flax": "Flax"}
# the keep gate's name in a chart title, per variant (a GRU keeps its state through its update gate)
KEEP_GATE_LABELS = {"forget": N_("forget gate"), "update": N_("update gate")}

SCHEMA = form.Schema(
    [
        Field(
            "variant",
            N_("Network"),
            "choice",
            "lstm",
            choices=GRID.variants,
            widget="segmented",
            fmt=lambda v: lc.variant(v).title,
        ),
        Field(
            "task",
            N_("Task"),
            "choice",
            GRID.tasks[0],
            choices=GRID.tasks,
            widget="select",
            fmt=lambda n: lc.TASKS[n].title,
        ),
        Field(
            "lag",
            N_("Your time lag T (steps)"),
            "choice",
            100,
            choices=GRID.lags,
            widget="segmented",
            help=N_("The lags the atlas trained; the before-training pictures are computed at this one."),
        ),
        Field(
            "scheme",
            N_("Scheme"),
            "choice",
            "chrono",
            choices=tuple(SCHEMES),
            widget="select",
            fmt=lambda n: SCHEMES[n].title,
        ),
        Field(
            "framework",
            N_("Framework"),
            "choice",
            "pytorch",
            choices=FRAMEWORKS,
            widget="segmented",
            fmt=FRAMEWORK_LABELS.get,
        ),
        Field(
            "seed",
            N_("Seed"),
            "int",
            0,
            0,
            GRID.seeds - 1,
            1,
            help=N_(
                "The atlas trained seeds 0 to {last}: the network shown before training and trained live is this seed's."
            ),
        ),
    ]
)
DEFAULTS = SCHEMA.defaults()
SPEC = PageSpec(PAGE, SCHEMA, DEFAULTS)


@st.cache_data(show_spinner=False, max_entries=2)
def results(path: str, mtime: float) -> dict:
    """The atlas's results (re-read when the file changes)."""
    return atlas.load(path)


def _mtime() -> float:
    return RESULTS.stat().st_mtime if RESULTS.is_file() else 0.0


def load() -> dict:
    return results(str(RESULTS), _mtime())


@st.cache_data(show_spinner=False, max_entries=2)
def _summary(path: str, mtime: float) -> pd.DataFrame:
    return atlas.cells(results(path, mtime))


def summary() -> pd.DataFrame:
    """``atlas.cells`` of the results, once per file (≈ 0.13 s each: not on every page run)."""
    return _summary(str(RESULTS), _mtime())


@st.cache_data(show_spinner=False, max_entries=64)
def before(variant: str, task: str, lag: int, seed: int) -> list:
    """Every scheme's network at initialisation (the atlas's own, seed ``seed``): memory times, error flow."""
    return before_training(variant, task, lag, seed % GRID.seeds, GRID)


def keep_gate(variant: str) -> str:
    return KEEP_GATE_LABELS[KEEP_GATE[variant]]
