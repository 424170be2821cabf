"""The task control group: which input sequence a page runs (a task with its settings, or values
typed by hand), as ``app.ui.form`` fields, and the group that draws them with its "Reset to paper
defaults" button (the paper defaults are each task's own settings in ``lstm_core.tasks``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import streamlit as st

import lstm_core as lc
from app.i18n import N_, _
from app.ui import limits
from app.ui.form import Field, Schema, render_fields, reset_button
from lstm_core.tasks.reber import MAX_SET as MAX_REBER_SET

DEFAULT_TYPED = "1, 0, 0, 0, 0.5, 0, 0, 0, -1, 0, 0, 0"
TASK_CHOICES = {
    ("spike_delay", "mode"): ("msd", "nmsd"),
    ("spike_delay", "delay_set"): ("range", "pair"),
    ("spike_generation", "delay_set"): ("range", "pair"),
    ("periodic", "shape"): ("cos", "triangle", "rectangle"),
    ("long_lag_random", "targets"): ("expected", "last"),
    ("latching", "distractors"): ("random", "none"),
    ("two_sequence", "variant"): ("3a", "3b", "3c"),
    ("temporal_order", "classes"): (4, 8),
}
# Task settings whose name is an English word: a label for the catalogue (the others, such as T, p or
# max_len, are shown as the core names them). Choice values that are words, likewise.
TASK_SETTING_LABELS = {
    "sets": N_("sets"),
    "streak": N_("streak"),
    "targets": N_("targets"),
    "variant": N_("variant"),
    "mode": N_("mode"),
    "classes": N_("classes"),
    "shape": N_("shape"),
    "length": N_("length"),
    "tolerance": N_("tolerance"),
    "distractors": N_("distractors"),
}
TASK_CHOICE_LABELS = {
    "range": N_("range"),
    "pair": N_("pair"),
    "cos": N_("cos"),
    "triangle": N_("triangle"),
    "rectangle": N_("rectangle"),
    "expected": N_("expected"),
    "last": N_("last"),
    "random": N_("random"),
    "none": N_("none"),
}
# Integer task settings with their own upper limit and a help text (the others: 0 … TASK_MAX_SETTING).
TASK_INT_HELP = {
    ("embedded_reber", "sets"): (
        MAX_REBER_SET,
        N_(
            "0: every training sequence is a fresh random string. N: the "
            "paper's protocol — a fixed set of N training strings and N test strings not in it; "
            "with the paper's criterion a run is judged on all 2N after every N training "
            "sequences (the paper: 256)."
        ),
    ),
    ("embedded_reber", "set_seed"): (
        limits.TASK_MAX_SETTING,
        N_(
            "Which fixed training and test sets are drawn when "
            "sets is above 0 (the paper used three pairs of sets, ten networks each)."
        ),
    ),
}
# Settings that only matter for training/evaluation (hidden on pages that just run a sequence).
EVAL_SETTINGS = ("streak", "tolerance", "accuracy_threshold")


def task_fields(default_task: str = "adding") -> list[Field]:
    """Input source, task, every task's settings (named ``<task>.<setting>``) and typed text."""
    out = [
        Field(
            "source",
            N_("Input sequence"),
            "choice",
            "task",
            choices=("task", "typed"),
            widget="segmented",
            fmt={"task": N_("From a task"), "typed": N_("Typed by hand")}.get,
        ),
        Field(
            "task",
            N_("Task"),
            "choice",
            default_task,
            choices=tuple(lc.TASKS),
            widget="select",
            fmt=lambda n: lc.TASKS[n].title or n,
        ),
    ]
    for tname, task in lc.TASKS.items():
        for s, v in task.settings().items():
            name, label = f"{tname}.{s}", TASK_SETTING_LABELS.get(s, s)
            if (tname, s) in TASK_CHOICES:
                out.append(
                    Field(
                        name,
                        label,
                        "choice",
                        v,
                        choices=TASK_CHOICES[(tname, s)],
                        widget="select",
                        fmt=lambda c: TASK_CHOICE_LABELS.get(c, str(c)),
                    )
                )
            elif isinstance(v, bool):
                out.append(Field(name, label, "bool", v, widget="toggle"))
            elif isinstance(v, int):
                hi, why = TASK_INT_HELP.get((tname, s), (limits.TASK_MAX_SETTING, None))
                out.append(Field(name, label, "int", v, 0, hi, 1, help=why))
            elif isinstance(v, float):
                out.append(Field(name, label, "float", v, 0.0, 1e6, 0.01))
            else:
                out.append(Field(name, label, "text", str(v), hi=100, widget="text_area"))
    out.append(
        Field(
            "typed",
            N_("Values (one row per timestep, or one row for a single input)"),
            "text",
            DEFAULT_TYPED,
            hi=limits.MAX_TYPED_CHARS,
            widget="text_area",
            help=N_("Numbers separated by commas or spaces. Several rows = several inputs per step."),
        )
    )
    return out


def task_settings(values: dict, task: str) -> dict:
    """The chosen task's settings out of the flat page values."""
    return {s: values[f"{task}.{s}"] for s in lc.TASKS[task].settings()}


def task_group(
    page: str, schema: Schema, where: Any = st, allow_typed: bool = True, hide: Iterable[str] = EVAL_SETTINGS
) -> tuple[str, str]:
    """Input source and the task's settings (or the typed text); returns (source, task)."""
    source = schema["source"].render(page, where) if allow_typed else "task"
    task = schema["task"].read(page)
    if source == "typed":
        schema["typed"].render(page, where)
    else:
        task = schema["task"].render(page, where)
        info = lc.TASKS[task]
        where.caption(_("{paper}. {setup}").format(paper=_(info.paper), setup=_(info.setup)))
        render_fields(page, schema, [f"{task}.{s}" for s in info.settings() if s not in hide], where)

    def paper() -> dict:
        t = schema["task"].read(page)
        return {f"{t}.{s}": v for s, v in lc.TASKS[t].settings().items()}

    reset_button(page, schema, "task", lambda: paper().keys(), paper, where)
    return source, task
