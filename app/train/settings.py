"""Settings of the Train-and-watch page: the schema, its caps, presets and the trainer they build.

The page's configuration is one flat dict (``form.Schema``): the shared network, bias, task
and seed fields plus the training fields defined here. ``build_trainer`` turns it into an
``lc`` model, task and ``TrainConfig`` (``ValueError`` with an actionable message when the core
or the caps below refuse it); ``preset_values`` maps a paper preset onto the same dict, so a
preset, a link and an uploaded file all end up as widget values the user can see and change.
"""

from __future__ import annotations

import json
from typing import Any

import lstm_core as lc
from app.i18n import N_, _
from app.ui import classlink, controls, figures, limits, netconfig, task_controls
from app.ui.form import Field, Schema
from app.ui.page_frame import PageSpec
from lstm_core.training import PRESETS, Preset, TrainConfig, Trainer
from lstm_core.variants import variant as variant_record

PAGE = "train"

TRAIN_MAX_T, TRAIN_MAX_BUDGET, TRAIN_MAX_BATCH = (
    limits.TRAIN_MAX_T,
    limits.TRAIN_MAX_BUDGET,
    limits.TRAIN_MAX_BATCH,
)
TRAIN_MAX_LR, MAX_STREAK = limits.TRAIN_MAX_LR, limits.TRAIN_MAX_STREAK

TRAIN_FIELDS = [
    Field(
        "algorithm",
        N_("Algorithm"),
        "choice",
        "rtrl",
        choices=("rtrl", "bptt", "tbptt"),
        widget="segmented",
        fmt={"rtrl": "RTRL (1997)", "bptt": "BPTT", "tbptt": "TBPTT(k)"}.get,
        help=N_(
            "RTRL (1997): the 1997 online truncated gradient, weights updated every timestep (LSTM "
            "1997/2000/2002 only). BPTT: exact gradient, one update per sequence or mini-batch. TBPTT(k): "
            "chunks of k steps."
        ),
    ),
    Field(
        "k",
        N_("TBPTT chunk length k"),
        "int",
        10,
        1,
        TRAIN_MAX_T,
        1,
        help=N_("The backward pass is cut after k steps; the state is carried from chunk to chunk."),
    ),
    Field(
        "lr",
        N_("Learning rate"),
        "float",
        1.0,
        1e-6,
        TRAIN_MAX_LR,
        0.01,
        help=N_(
            "Step size of gradient descent. The 1997 experiments use 0.01 – 1, the 2002 timing tasks "
            "1e-5 – 1e-3."
        ),
    ),
    Field(
        "momentum",
        N_("Momentum"),
        "float",
        0.0,
        0.0,
        0.9999,
        0.01,
        help=N_("v ← μ v − lr g, θ ← θ + v (the 2002 paper uses 0.99 – 0.9999). 0 = plain SGD."),
    ),
    Field(
        "clip_value",
        N_("clip each gradient entry at ±"),
        "optfloat",
        None,
        0.01,
        100.0,
        0.01,
        fallback=1.0,
        help=N_("Clip every gradient entry to [−c, c] before the update."),
    ),
    Field(
        "clip_norm",
        N_("clip the gradient norm at"),
        "optfloat",
        None,
        0.01,
        100.0,
        0.01,
        fallback=5.0,
        help=N_("Rescale the whole gradient so its global norm is at most this value."),
    ),
    Field("batch", N_("Sequences per update (batch)"), "int", 1, 1, TRAIN_MAX_BATCH, 1, widget="slider"),
    Field(
        "budget",
        N_("Budget (training sequences)"),
        "int",
        20_000,
        1,
        TRAIN_MAX_BUDGET,
        1_000,
        help=N_("Training stops after this many sequences if the criterion is not met (at most {most})."),
    ),
    Field(
        "streak",
        N_("Correct in a row to stop (0 = the paper's)"),
        "int",
        1_000,
        0,
        MAX_STREAK,
        100,
        help=N_(
            "Override the task's criterion streak for a quicker run. Any other value than 0 is a REDUCED "
            "criterion and is labelled so next to the results."
        ),
    ),
]
TRAIN_NAMES = [f.name for f in TRAIN_FIELDS]
IO_FIELD = Field(
    "input_to_output",
    N_("Direct input → output connections"),
    "bool",
    False,
    widget="toggle",
    help=N_("The output layer also sees x(t) (the 1997 experiment 2 networks have them)."),
)
OUT_BIAS_FIELD = Field(
    "out_bias",
    N_("output-unit biases start at"),
    "optfloat",
    None,
    -10.0,
    10.0,
    0.25,
    fallback=-3.0,
    help=N_(
        "Unset = random like the other weights. A negative start "
        "keeps the outputs 'off' at first (the long-lag presets use −3)."
    ),
)
NETWORK_EXTRAS = ("input_to_output", "out_bias")
# the paper's gates by the names bias specs use (a note on a preset says which gate it means)
GATE_WORDS = {"input": N_("input"), "output": N_("output"), "forget": N_("forget")}

_MODEL, _BIAS, _TASK = (
    controls.model_fields() + [IO_FIELD, OUT_BIAS_FIELD],
    controls.bias_fields(),
    task_controls.task_fields("long_lag"),
)
# What a teacher's class link can lock, by the sidebar's groups (the run's buttons stay the student's).
# Its keys are names (in links too): they stay English and are translated where they are drawn.
CLASS_GROUPS = {
    N_("Network"): [f.name for f in _MODEL],
    N_("Task"): [f.name for f in _TASK],
    N_("Training"): TRAIN_NAMES,
    N_("Gate biases"): [f.name for f in _BIAS],
    N_("Seed"): ["seed"],
}
SCHEMA = Schema(
    _MODEL + _BIAS + _TASK + [controls.seed_field()] + TRAIN_FIELDS + classlink.fields(CLASS_GROUPS)
)


def _default_values() -> dict:
    """The page opens on the 1997 noise-free long-lag recipe (2a) at p = 10 instead of 100 —
    the *assisted* one (biases, recurrence; issue 13): the page cannot leave connections out, and
    the paper's bias-free net (preset ``long_lag``) does not meet the criterion in a classroom minute.

    It meets the reduced criterion (1,000 correct in a row, labelled as such wherever it is
    shown) after about 2,000 sequences, a minute or so of live training, so a first visit sees
    the loss fall and the criterion met; the paper's p = 100 and full criterion are one preset
    away.
    """
    values, _notes = preset_values("long_lag_assisted", seed=0)
    return SCHEMA.defaults(**{**values, "long_lag.p": 10, "streak": 1_000})


# ----------------------------------------------------------------------------- settings -> trainer
def make_task(values: dict) -> lc.tasks.Task:
    """The chosen task with its settings, refused if its sequences are longer than the cap."""
    name = values["task"]
    task = lc.get_task(name, **task_controls.task_settings(values, name))
    limits.check_task(task, TRAIN_MAX_T)
    return task


def model_config(values: dict, task: Any) -> lc.ModelConfig:
    cfg = netconfig.model_config(values, task.n_in, task.n_out, task.output_activation, task.loss)
    extra: dict[str, Any] = {}
    if "input_to_output" in cfg.record.options and values["input_to_output"]:
        extra["input_to_output"] = True
    if values["out_bias"] is not None:
        extra["init"] = {**dict(cfg.init), "b_out": values["out_bias"]}
    if extra:  # via the dict form: ModelConfig.replace re-validates bias specs it cannot re-read
        cfg = lc.ModelConfig.from_dict({**cfg.to_dict(), **extra})
    return cfg


def train_config(values: dict) -> TrainConfig:
    return TrainConfig(
        algorithm=values["algorithm"],
        lr=values["lr"],
        momentum=values["momentum"],
        k=values["k"] if values["algorithm"] == "tbptt" else None,
        batch=values["batch"],
        clip_value=values["clip_value"],
        clip_norm=values["clip_norm"],
        budget=values["budget"],
        seed=values["seed"],
        streak=values["streak"] or None,
    )


def build_trainer(values: dict) -> Trainer:
    """A fresh trainer (untrained network) for the page's settings; ValueError if refused."""
    task = make_task(values)
    return Trainer(lc.build(model_config(values, task)), task, train_config(values))


def effective_key(values: dict) -> str:
    """What the run is built from (network, task, training): the run restarts when this changes.

    Built from the validated configurations, not the raw widget values, so a control that does
    not apply (e.g. the chunk length k under rtrl) does not throw the run away.
    """
    task = make_task(values)
    return json.dumps(
        {
            "model": model_config(values, task).to_dict(),
            "task": [task.name, task.settings()],
            "train": train_config(values).to_dict(),
        },
        sort_keys=True,
        default=str,
    )


def summary(values: dict) -> str:
    """A run's short legend label in this session's language, e.g. 'LSTM 1997 · RTRL · lr 1': the
    variant and the algorithm by their registry titles (``figures.variant_label``), not their code names."""
    k = values["k"] if values["algorithm"] == "tbptt" else None
    words = dict(
        variant=figures.variant_label(values["variant"]),
        algorithm=figures.algorithm_label(values["algorithm"], k),
        lr=f"{values['lr']:g}",
    )
    if values["momentum"]:
        return _("{variant} · {algorithm} · lr {lr} · μ {momentum}").format(
            **words, momentum=f"{values['momentum']:g}"
        )
    return _("{variant} · {algorithm} · lr {lr}").format(**words)


# ----------------------------------------------------------------------------- paper values
def _train_values(cfg: TrainConfig) -> dict:
    return {
        "algorithm": cfg.algorithm,
        "lr": cfg.lr,
        "momentum": cfg.momentum,
        "k": cfg.k or 10,
        "batch": min(cfg.batch, TRAIN_MAX_BATCH),
        "clip_value": cfg.clip_value,
        "clip_norm": cfg.clip_norm,
        "budget": min(cfg.budget, TRAIN_MAX_BUDGET),
        "streak": cfg.streak or 0,
    }


def paper_preset(task: str, variant: str) -> Preset | None:
    """The paper preset of this task (the one for this variant if there is one)."""
    same_task = [p for p in PRESETS.values() if p.task == task]
    return next((p for p in same_task if p.model.variant == variant), same_task[0] if same_task else None)


def paper_train_values(task: str, variant: str) -> dict:
    """Training settings the paper used for this task (TrainConfig defaults if it has none)."""
    p = paper_preset(task, variant)
    values = _train_values(p.train_config() if p else TrainConfig(algorithm="bptt"))
    values["algorithm"] = variant_record(variant).default_algorithm(values["algorithm"])
    return values


def _model_values(cfg: lc.ModelConfig) -> tuple[dict, list[str]]:
    """``netconfig.values_from_model`` plus what it cannot express (random biases, input → output,
    the output-unit bias start)."""
    d, notes = cfg.to_dict(), []
    init = dict(d.get("init") or {})
    out_bias = init.pop("b_out", None)
    if out_bias is not None and not isinstance(out_bias, (int, float)):
        raise ValueError(
            _("init['b_out'] must be one number on this page, got {value}").format(value=repr(out_bias))
        )
    bias = {}
    for gate, spec in cfg.bias:
        if spec.random:
            staggered = bias[gate] = spec.staggered()
            notes.append(
                _(
                    "The paper draws the {gate} gate biases at random in [{lo}, {hi}]; this page "
                    "staggers them evenly from {hi} to {lo} instead."
                ).format(
                    gate=_(GATE_WORDS.get(gate, gate)), lo=f"{staggered.last:g}", hi=f"{staggered.first:g}"
                )
            )
        else:
            bias[gate] = spec
    if d.get("absent"):
        # this page has no control for absent connections: say so instead of dropping them silently
        notes.append(
            _(
                "The paper's network has no {names} (never trained, held at 0); this page "
                "trains them, starting from their random initial values."
            ).format(names=", ".join(d["absent"]))
        )
    cfg = lc.ModelConfig.from_dict(
        {**d, "bias": {g: s.to_json() for g, s in bias.items()}, "init": init, "absent": []}
    )
    values, _notes = netconfig.values_from_model(cfg, SCHEMA)
    values["input_to_output"] = cfg.input_to_output
    values["out_bias"] = None if out_bias is None else float(out_bias)
    return values, notes


def preset_values(name: str, seed: int) -> tuple[dict, list[str]]:
    """Every control's value for a paper preset (the current seed is kept), plus notes."""
    p = PRESETS[name]
    task = p.build_task()
    values, notes = _model_values(p.model_config(seed=seed))
    values.update({"task": p.task, **{f"{p.task}.{s}": v for s, v in task.settings().items()}})
    values.update(_train_values(p.train_config()))
    if p.train_config().reset_on_error:
        # no control for it on this page: say so rather than drop it silently
        notes.append(
            _(
                "The preset trains the paper's stream protocol (a stream stops at its first too-large "
                "error); this page trains every sequence to its end instead — use `python -m "
                "lstm_core.experiments {name}` for the protocol."
            ).format(name=name)
        )
    if p.train_config().grow_window:
        notes.append(
            _(
                "The preset adds the memory cell only when the error stops decreasing (the paper's "
                "sequential construction); this page trains the cell from the start instead — use `python -m "
                "lstm_core.experiments {name}` for the paper's construction."
            ).format(name=name)
        )
    if p.notes:
        notes.append(_(p.notes))
    return SCHEMA.check(values), notes


DEFAULTS = _default_values()
SPEC = PageSpec(PAGE, SCHEMA, DEFAULTS, CLASS_GROUPS)
