"""Bias lab settings: the page's schema and what its flat settings mean for ``lstm_core.sweeps``.

The sweep is described by the shared network / task / bias controls (``app.ui.controls``) plus
two swept axes ("x" and "y"), seeds and the training settings. ``plan`` turns the settings
into the core's objects (``ValueError`` with an actionable message if they do not make sense),
without training anything.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import lstm_core as lc
from app.i18n import N_, _
from app.ui import controls, form, limits, netconfig, task_controls
from app.ui.controls import ALL_GATES
from app.ui.form import Field
from app.ui.page_frame import PageSpec
from lstm_core.sweeps.sweep import MAX_AXIS_VALUES, MAX_MEMBERS, MAX_SEEDS, Axis, with_goal
from lstm_core.training import TrainConfig
from lstm_core.variants import MEMORY_CELL_VARIANTS, check_algorithm
from lstm_core.variants import variant as variant_record

PAGE = "bias_lab"
LAB_MAX_T, LAB_MAX_BUDGET, STEP_CAP = limits.LAB_MAX_T, limits.LAB_MAX_BUDGET, limits.STEP_CAP
VIEWS = {
    "grid": N_("Bias grid"),
    "abuse": N_("Abuse problem"),
    "drift": N_("Internal state drift"),
    "forget": N_("Forget-gate bias"),
}
GOALS = ("paper", "0.05", "0.1", "none")
MODES = {"values": N_("values (same change per block)"), "stagger": N_("staggering off / on")}

SCHEMA = form.Schema(
    controls.model_fields()
    + controls.bias_fields()
    + task_controls.task_fields("two_sequence")
    + [
        controls.seed_field(),
        Field("view", N_("Show"), "choice", "grid", choices=tuple(VIEWS), widget="segmented", fmt=VIEWS.get),
        Field(
            "x_gate",
            N_("Sweep (x axis)"),
            "choice",
            "input",
            choices=ALL_GATES,
            widget="select",
            fmt=controls.GATE_LABELS.get,
        ),
        Field(
            "x_mode",
            N_("x values are"),
            "choice",
            "values",
            choices=tuple(MODES),
            widget="select",
            fmt=MODES.get,
        ),
        Field("x_values", N_("x biases (first block)"), "text", "0, -1, -2, -3", hi=200, widget="none"),
        Field(
            "x_step", N_("x change per block"), "float", -2.0, *limits.BIAS_STEP_RANGE, 0.5, widget="number"
        ),
        Field(
            "y_gate",
            N_("Sweep (y axis)"),
            "choice",
            "output",
            choices=("none",) + ALL_GATES,
            widget="select",
            fmt=lambda g: N_("— (one axis only)") if g == "none" else controls.GATE_LABELS[g],
        ),
        Field(
            "y_mode",
            N_("y values are"),
            "choice",
            "values",
            choices=tuple(MODES),
            widget="select",
            fmt=MODES.get,
        ),
        Field("y_values", N_("y biases (first block)"), "text", "0, -2, -4", hi=200, widget="none"),
        Field(
            "y_step", N_("y change per block"), "float", -2.0, *limits.BIAS_STEP_RANGE, 0.5, widget="number"
        ),
        Field(
            "n_seeds",
            N_("Seeds per setting"),
            "int",
            4,
            1,
            MAX_SEEDS,
            1,
            widget="slider",
            help=N_(
                "Networks per grid cell: model seeds first seed … first seed + n − 1. The same seed "
                "means the same weights (apart from the swept biases) and the same training sequences."
            ),
        ),
        Field("first_seed", N_("First model seed"), "int", 0, 0, 10**6, 1, widget="number"),
        Field(
            "algorithm",
            N_("Training"),
            "choice",
            "rtrl",
            choices=("rtrl", "bptt"),
            widget="segmented",
            fmt={"rtrl": "RTRL (1997)", "bptt": "BPTT"}.get,
            help=N_(
                "RTRL: the 1997 online truncated gradient (LSTM-1997 family only); BPTT: exact gradient."
            ),
        ),
        Field("lr", N_("Learning rate"), "float", 1.0, 1e-4, 10.0, 0.1, widget="number"),
        Field(
            "budget",
            N_("Budget (sequences per network)"),
            "int",
            1500,
            10,
            LAB_MAX_BUDGET,
            100,
            widget="number",
        ),
        Field(
            "streak",
            N_("Correct in a row to pass"),
            "int",
            100,
            1,
            10_000,
            10,
            widget="number",
            help=N_("The papers ask for thousands; a shorter streak (labelled REDUCED) keeps a sweep quick."),
        ),
        Field(
            "goal",
            N_("Mean-abs-error goal"),
            "choice",
            "0.05",
            choices=GOALS,
            widget="select",
            fmt=lambda g: {"paper": N_("the paper's"), "none": N_("none (classification only)")}.get(
                g, f"< {g}"
            ),
            help=N_("Some criteria also ask for a mean absolute error below a goal over the streak."),
        ),
        Field(
            "abuse_first",
            N_("Staggered output biases start at"),
            "float",
            -1.0,
            *limits.BIAS_RANGE,
            0.5,
            widget="number",
        ),
        Field(
            "abuse_step",
            N_("… and change per block by"),
            "float",
            -1.0,
            *limits.BIAS_STEP_RANGE,
            0.5,
            widget="number",
        ),
        Field(
            "drift_first",
            N_("Negative input biases start at"),
            "float",
            -3.0,
            *limits.BIAS_RANGE,
            0.5,
            widget="number",
        ),
        Field(
            "drift_step",
            N_("… and change per block by"),
            "float",
            -3.0,
            *limits.BIAS_STEP_RANGE,
            0.5,
            widget="number",
        ),
        Field(
            "forget_biases", N_("Forget-gate biases"), "text", "-2, -1, 0, 1, 2, 3, 5", hi=200, widget="none"
        ),
        Field("forget_T", N_("Sequence length"), "int", 100, 5, limits.FLOW_MAX_T, 5, widget="slider"),
    ]
)
DEFAULTS = SCHEMA.defaults(
    **{**controls.paper_values(SCHEMA, "lstm1997", "two_sequence"), "two_sequence.T": 50}
)
SPEC = PageSpec(PAGE, SCHEMA, DEFAULTS)

_NUM = re.compile(r"[,;\s]+")


class Lazy(str):
    """A message kept in English (``str``) that reads in the session's language wherever it is
    formatted or printed: a job's label or a stored error outlives the run that made it, and the
    language may be switched in between."""

    def __new__(cls, message: str, translate: Callable[[str], str] = _, **values) -> Lazy:
        text = super().__new__(cls, message.format(**values) if values else message)
        text.message, text.translate, text.values = message, translate, values
        return text

    def __str__(self) -> str:
        shown = self.translate(self.message)
        return shown.format(**self.values) if self.values else shown

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def parse_values(
    text: str, what: str, lo: float = limits.BIAS_RANGE[0], hi: float = limits.BIAS_RANGE[1]
) -> list[float]:
    """'0, -1, -2' -> [0.0, -1.0, -2.0]; ValueError naming the box and the problem."""
    out = []
    for tok in _NUM.split(text.replace("−", "-").strip()):
        if not tok:
            continue
        try:
            v = float(tok)
        except ValueError:
            raise ValueError(
                _(
                    "{what}: {token} is not a number (type numbers separated by commas, e.g. 0, -1, -2)"
                ).format(what=what, token=repr(tok))
            ) from None
        if not math.isfinite(v) or not lo <= v <= hi:
            raise ValueError(
                _("{what}: {token} is outside [{lo}, {hi}]").format(
                    what=what, token=tok, lo=f"{lo:g}", hi=f"{hi:g}"
                )
            )
        out.append(v)
    if not out:
        raise ValueError(_("{what}: type at least one number").format(what=what))
    if len(out) > MAX_AXIS_VALUES:
        raise ValueError(
            _("{what}: {n} values; at most {most}").format(what=what, n=len(out), most=MAX_AXIS_VALUES)
        )
    if len(set(out)) != len(out):
        raise ValueError(_("{what}: a value repeats; give distinct values").format(what=what))
    return out


def axis(values: dict, name: str) -> Axis | None:
    gate = values[f"{name}_gate"]
    if gate == "none":
        return None
    nums = parse_values(values[f"{name}_values"], _("the {axis} biases").format(axis=name))
    step = values[f"{name}_step"]
    if values[f"{name}_mode"] == "stagger":
        return Axis.stagger(gate, first=nums[0], step=step)
    return Axis.values(gate, nums, step)


@dataclass(frozen=True)
class Plan:
    base: lc.ModelConfig
    task: lc.Task
    train: TrainConfig
    x: Axis | None
    y: Axis | None
    seeds: tuple[int, ...]

    @property
    def networks(self) -> int:
        return (len(self.x) if self.x else 1) * (len(self.y) if self.y else 1) * len(self.seeds)


def task_of(values: dict) -> lc.Task:
    name = values["task"]
    task = lc.get_task(name, **task_controls.task_settings(values, name))
    limits.check_task(task, LAB_MAX_T, _("the lab"))
    goal = values["goal"]
    if goal == "paper" or task.criterion.mean_abs_error_below is None:
        return task  # nothing to relax: this criterion has no error goal
    return with_goal(task, None if goal == "none" else float(goal))


def train_of(values: dict, variant: str) -> TrainConfig:
    check_algorithm(variant, values["algorithm"])
    return TrainConfig(
        algorithm=values["algorithm"],
        lr=values["lr"],
        budget=values["budget"],
        streak=values["streak"],
        seed=values["seed"],
        probe=False,
    )


def plan(values: dict, x: Axis | None = None, y: Axis | None = None, grid: bool = True) -> Plan:
    """The sweep the settings describe (checked against the caps); nothing is trained."""
    task = task_of(values)
    base = netconfig.model_config(values, task.n_in, task.n_out, task.output_activation, task.loss)
    if grid:
        x, y = axis(values, "x"), axis(values, "y")
    seeds = tuple(range(values["first_seed"], values["first_seed"] + values["n_seeds"]))
    p = Plan(base, task, train_of(values, base.variant), x, y, seeds)
    for a in (p.x, p.y):
        if a is not None and a.gate not in base.record.gate_biases:
            raise ValueError(
                _("a {variant} network has no {gate}; sweep one of {gates}").format(
                    variant=base.variant,
                    gate=_(controls.GATE_LABELS[a.gate]),
                    gates=[_(controls.GATE_LABELS[g]) for g in base.record.gate_biases],
                )
            )
    if p.networks > MAX_MEMBERS:
        raise ValueError(
            _(
                "{n} networks (settings × seeds); at most {most} train together — use fewer values or seeds"
            ).format(n=p.networks, most=MAX_MEMBERS)
        )
    limits.check_steps(p.train.budget, task.max_length, _("a sweep"))
    return p


def demo_plan(values: dict, kind: str) -> Plan:
    """The two-setting population of the abuse or drift demo (same seeds, one bias differs)."""
    if not variant_record(values["variant"]).memory_cell:
        raise ValueError(
            _(
                "the {demo} demo is about the 1997 memory cell; choose an LSTM-1997-family "
                "network ({variants}), not {variant}"
            ).format(
                demo=_(VIEWS[kind]).lower(),
                variants=", ".join(MEMORY_CELL_VARIANTS),
                variant=values["variant"],
            )
        )
    if kind == "abuse":
        if not values["output_gate"]:
            raise ValueError(
                _("the abuse-problem demo needs output gates; switch 'Output gate' on in Cell options")
            )
        ax = Axis.stagger("output", values["abuse_first"], values["abuse_step"])
    else:
        ax = Axis("input", ((0.0, 0.0), (values["drift_first"], values["drift_step"])))
    return plan(values, ax, None, grid=False)


def forget_biases(values: dict) -> list[float]:
    return parse_values(values["forget_biases"], _("the forget-gate biases"))


# The measured sweep: 5 × 5 bias grid × 8 seeds on two_sequence, T = 50 — used by
# benchmarks/bias_sweep.py (population vs member by member) and by the browser test (the same
# settings through the page), so both measure exactly the same networks. Budget 3,000: at 1,500
# the well-biased cells were cut off mid-learning (5/8 at best, 17 of 25 cells with nothing);
# at 3,000 most cells resolve and the diagonal band of working settings shows.
BENCHMARK: dict = {
    "task": "two_sequence",
    "two_sequence.T": 50,
    "x_gate": "input",
    "x_values": "0, -1, -2, -3, -4",
    "x_step": -2.0,
    "y_gate": "output",
    "y_values": "0, -1, -2, -3, -4",
    "y_step": -2.0,
    "n_seeds": 8,
    "algorithm": "rtrl",
    "lr": 1.0,
    "budget": 3000,
    "streak": 100,
    "goal": "0.05",
}
