"""The ``Preset`` record (a paper experiment: network, training, task, reported result) and the
helpers the preset lists use (``presets_reber`` and ``presets_1997`` for the 1997 experiments,
``presets_2002`` for the 2002 timing experiments, ``presets`` for the others and the table of all)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..config import ModelConfig
from ..errors import CoreError, CoreList, CoreText, Words
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

    def setup(self, reduced: bool = False, budget: int | None = None) -> dict[str, Words]:
        """The setup table's lines as words an interface translates (``lstm_core.errors``): "model",
        "training" and "criterion" composed (``CoreText`` / ``CoreList``), "notes" and "reduced" the
        preset's own texts where it has them. ``str()`` of each is the English ``describe`` prints."""
        t = self.train_config(reduced, **({"budget": budget} if budget is not None else {}))
        task = self.build_task(reduced)
        lines: dict[str, Words] = {
            "model": _model_words(self.model_config(reduced=reduced)),
            "training": _training_words(t),
            "criterion": _criterion_words(task, t),
        }
        if self.notes:
            lines["notes"] = self.notes
        if reduced and self.reduced.get("note"):
            lines["reduced"] = self.reduced["note"]
        return lines

    def describe(self, reduced: bool = False, budget: int | None = None) -> str:
        words = self.setup(reduced, budget)
        task = self.build_task(reduced)
        lines = [
            f"{self.title} — {self.paper}",
            f"  task:     {task.name} {task.settings()}",
            f"  model:    {words['model']}",
            f"  training: {words['training']}",
            f"  criterion: {words['criterion']}",
            f"  paper:    {self.reported}",
        ]
        if "notes" in words:
            lines.append(f"  notes:    {words['notes']}")
        if "reduced" in words:
            lines.append(f"  reduced:  {words['reduced']}")
        return "\n".join(lines)


def _with(cfg: ModelConfig, **changes: Any) -> ModelConfig:
    # changes in the JSON form (e.g. a bias {"uniform": [lo, hi]}), read as a file's would be
    return ModelConfig.from_dict({**cfg.to_dict(), **changes})


# -- the setup's words: parts a CoreList joins (", "; "" where a part brings its own separator, as
# "; {n} trainable weights" does), each template a literal the catalogue extracts (lstm_core/errors.py)
def _model_words(m: ModelConfig) -> Words:
    """The model line as words: "lstm1997, 2 block(s) × 2 cell(s) (g=g1997, h=h1997), init ±0.1, gate
    biases: input [-3.0, -6.0]; 93 trainable weights" (names and numbers stay as they are)."""
    if m.record.memory_cell:
        options: list[Words] = [_function_words("g", m.cell_input), _function_words("h", m.cell_output)]
        if not m.output_gate:
            options.append(CoreText("no output gate"))
        if "peepholes" in m.record.options and not m.peepholes:
            options.append(CoreText("no peepholes"))
        if m.input_to_output:
            options.append(CoreText("inputs → outputs"))
        size = CoreText("{blocks} block(s) × {cells} cell(s)", blocks=m.n_blocks, cells=m.block_size)
        network: Words = CoreText("{size} ({options})", size=size, options=CoreList(tuple(options)))
    elif m.record.local_feedback:
        network = CoreText(
            "{n} static + {net} net-feedback + {act} activation-feedback units",
            n=m.n_static,
            net=m.n_net_fb,
            act=m.n_act_fb,
        )
    else:
        network = CoreText("{n} hidden units", n=m.n_hidden)
    parts: list[Words] = [m.variant, network, CoreText("init ±{range}", range=format(m.init_range, "g"))]
    if m.bias:
        biases = CoreList(tuple(_bias_words(g, v) for g, v in m.bias))
        parts.append(CoreList((CoreText("gate biases: "), biases), sep=""))
    if m.init:
        starts = CoreList(tuple(CoreText("{name} = {value}", name=n, value=v.words()) for n, v in m.init))
        parts.append(CoreList((CoreText("start values: "), starts), sep=""))
    line: list[Words] = [CoreList(tuple(parts))]
    if m.absent:
        absent = CoreList(tuple(_ABSENT_WORDS.get(a, a) for a in m.absent))
        line.append(CoreList((CoreText(", without "), absent), sep=""))
    line.append(CoreText("; {n} trainable weights", n=format(build(m).n_trainable(), ",")))
    return CoreList(tuple(line), sep="")


def _function_words(name: str, function: str) -> Words:
    # g=identity reads 恆等函數 in Chinese; sigmoid, tanh, g1997, h1997 are names
    return CoreText("{fn}=identity", fn=name) if function == "identity" else f"{name}={function}"


# one template per gate: the English says "input", a translation "input gate" (輸入閘門)
_BIAS_TEMPLATES = {
    "input": CoreText("input {value}"),
    "output": CoreText("output {value}"),
    "forget": CoreText("forget {value}"),
    "cell": CoreText("cell {value}"),
    "hidden": CoreText("hidden {value}"),
    "reset": CoreText("reset {value}"),
    "update": CoreText("update {value}"),
    "candidate": CoreText("candidate {value}"),
}


def _bias_words(gate: str, spec: Any) -> Words:
    """One gate's bias, "input [-3.0, -6.0]" (the gate as the config names it)."""
    if gate in _BIAS_TEMPLATES:
        return CoreText(_BIAS_TEMPLATES[gate].template, value=spec.words())
    return f"{gate} {spec.words()}"


def _training_words(t: TrainConfig) -> Words:
    """The training line as words: "rtrl, lr 0.5, batch 1, budget 100,000 sequences per network"."""
    parts: list[Words] = [t.algorithm, CoreText("lr {lr}", lr=format(t.lr, "g"))]
    if t.momentum:
        parts.append(CoreText("momentum {m}", m=format(t.momentum, "g")))
    parts.append(CoreText("batch {n}", n=t.batch))
    parts.append(CoreText("budget {n} sequences per network", n=format(t.budget, ",")))
    if not t.grow_window:
        return CoreList(tuple(parts))
    grow = CoreText(
        "; the memory cells join when the error stops decreasing (window {n} sequences)",
        n=format(t.grow_window, ","),
    )
    return CoreList((CoreList(tuple(parts)), grow), sep="")


def _criterion_words(task: Task, t: TrainConfig) -> Words:
    """The task's criterion (a registry text, or its wording where the core composed it), and the
    reduced streak where a run asks for fewer sequences in a row."""
    criterion = task.criterion.wording or CoreText(task.criterion.description)
    if t.streak and t.streak != task.criterion.streak:
        return CoreList((criterion, CoreText(" — REDUCED to {n} in a row", n=format(t.streak, ","))), sep="")
    return criterion


_ABSENT_WORDS = {
    "b_c": CoreText("cell-input bias"),
    "b_ig": CoreText("input-gate bias"),
    "b_og": CoreText("output-gate bias"),
    "b_fg": CoreText("forget-gate bias"),
    "b_out": CoreText("output-unit bias"),
    "recurrent": CoreText("recurrent connections"),
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
