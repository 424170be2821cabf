"""The ``Preset`` record (a paper experiment: network, training, task, reported result) and the
helpers the preset lists use (``presets_reber`` and ``presets_1997`` for the 1997 experiments,
``presets_2002`` for the 2002 timing experiments, ``presets`` for the others and the table of all)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..config import ModelConfig
from ..errors import CoreError
from ..model import Model, build, build_population
from ..tasks import Task, get_task
from .config import TrainConfig
from .trainer import Trainer


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    paper: str  # paper and experiment
    task: str
    task_settings: dict
    model: ModelConfig  # n_in / n_out / output activation are set from the task
    train: TrainConfig
    reported: str  # the paper's reported result, in words
    paper_sequences: float | None = None  # the paper's training sequences to criterion, if stated
    notes: str = ""  # how this preset differs from the paper
    reduced: dict = field(default_factory=dict)  # {"task": {...}, "train": {...}, "note": "..."}

    # -- building blocks -----------------------------------------------------------------
    def build_task(self, reduced: bool = False) -> Task:
        settings = dict(self.task_settings)
        if reduced:
            settings.update(self.reduced.get("task", {}))
        return get_task(self.task, **settings)

    def model_config(self, seed: int = 0, reduced: bool = False) -> ModelConfig:
        task = self.build_task(reduced)
        return _with(
            self.model,
            n_in=task.n_in,
            n_out=task.n_out,
            output_activation=task.output_activation,
            loss=task.loss,
            seed=seed,
        )

    def train_config(self, reduced: bool = False, **overrides: Any) -> TrainConfig:
        cfg = self.train
        if reduced:
            cfg = cfg.replace(**self.reduced.get("train", {}))
        return cfg.replace(**overrides) if overrides else cfg

    def build_model(self, seed: int = 0, reduced: bool = False) -> Model:
        return build(self.model_config(seed, reduced))

    def build_population(self, trials: int, first_seed: int = 0, reduced: bool = False) -> Model:
        """``trials`` networks with model seeds first_seed, first_seed + 1, ..."""
        if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
            raise CoreError("trials must be a whole number ≥ 1, got {value}", value=repr(trials))
        return build_population([self.model_config(first_seed + i, reduced) for i in range(trials)])

    def trainer(
        self, trials: int | None = None, first_seed: int = 0, reduced: bool = False, **train_overrides: Any
    ) -> Trainer:
        """A Trainer on one network (trials=None) or a population of ``trials`` networks."""
        model = (
            self.build_model(first_seed, reduced)
            if trials is None
            else self.build_population(trials, first_seed, reduced)
        )
        return Trainer(model, self.build_task(reduced), self.train_config(reduced, **train_overrides))

    def with_task(self, **settings: Any) -> Preset:
        """The same preset on other task settings (e.g. ``with_task(p=50)``); sizes follow."""
        merged = {**self.task_settings, **settings}
        get_task(self.task, **merged)  # validate now, with the task's message
        return dataclasses.replace(self, task_settings=merged)

    def describe(self, reduced: bool = False, budget: int | None = None) -> str:
        m = self.model_config(reduced=reduced)
        t = self.train_config(reduced, **({"budget": budget} if budget is not None else {}))
        task = self.build_task(reduced)
        lines = [
            f"{self.title} — {self.paper}",
            f"  task:     {task.name} {task.settings()}",
            f"  model:    {m.variant}" + _model_summary(m),
            f"  training: {t.algorithm}, lr {t.lr:g}"
            + (f", momentum {t.momentum:g}" if t.momentum else "")
            + f", batch {t.batch}, budget {t.budget:,} sequences per network"
            + (
                f"; the memory cells join when the error stops decreasing (window {t.grow_window:,} sequences)"
                if t.grow_window
                else ""
            ),
            f"  criterion: {task.criterion.description}"
            + (
                f" — REDUCED to {t.streak:,} in a row"
                if t.streak and t.streak != task.criterion.streak
                else ""
            ),
            f"  paper:    {self.reported}",
        ]
        if self.notes:
            lines.append(f"  notes:    {self.notes}")
        if reduced and self.reduced.get("note"):
            lines.append(f"  reduced:  {self.reduced['note']}")
        return "\n".join(lines)


def _with(cfg: ModelConfig, **changes: Any) -> ModelConfig:
    # changes in the JSON form (e.g. a bias {"uniform": [lo, hi]}), read as a file's would be
    return ModelConfig.from_dict({**cfg.to_dict(), **changes})


def _model_summary(m: ModelConfig) -> str:
    if m.record.memory_cell:
        s = f", {m.n_blocks} block(s) × {m.block_size} cell(s)"
        opts = [f"g={m.cell_input}", f"h={m.cell_output}"]
        if not m.output_gate:
            opts.append("no output gate")
        if "peepholes" in m.record.options and not m.peepholes:
            opts.append("no peepholes")
        if m.input_to_output:
            opts.append("inputs → outputs")
        s += " (" + ", ".join(opts) + ")"
    elif m.record.local_feedback:
        s = f", {m.n_static} static + {m.n_net_fb} net-feedback + {m.n_act_fb} activation-feedback units"
    else:
        s = f", {m.n_hidden} hidden units"
    bias = ", ".join(f"{g} {v.describe()}" for g, v in m.bias)
    init = ", ".join(f"{n} = {v.describe()}" for n, v in m.init)
    absent = (", without " + ", ".join(_ABSENT_WORDS.get(a, a) for a in m.absent)) if m.absent else ""
    return (
        s
        + f", init ±{m.init_range:g}"
        + (f", gate biases: {bias}" if bias else "")
        + (f", start values: {init}" if init else "")
        + absent
        + f"; {build(m).n_trainable():,} trainable weights"
    )


_ABSENT_WORDS = {
    "b_c": "cell-input bias",
    "b_ig": "input-gate bias",
    "b_og": "output-gate bias",
    "b_fg": "forget-gate bias",
    "b_out": "output-unit bias",
    "recurrent": "recurrent connections",
}


def _preset(name, title, paper, task, task_settings, model, train, reported, **kw) -> Preset:
    t = get_task(task, **task_settings)
    model = _with(model, n_in=t.n_in, n_out=t.n_out, output_activation=t.output_activation, loss=t.loss)
    return Preset(name, title, paper, task, dict(task_settings), model, train, reported, **kw)


def _mc(variant: str, **kw) -> ModelConfig:
    return ModelConfig(variant=variant, n_in=1, n_out=1, **kw)  # sizes are replaced from the task


H97 = "Hochreiter & Schmidhuber 1997"
_NO_BIAS_ASSISTED = "ASSISTED (not the paper's network)"  # in the title of a recipe the paper's net lacks
G02 = "Gers, Schraudolph & Schmidhuber 2002"
