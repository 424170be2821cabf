"""Bias lab settings: the page's schema and what its flat settings mean for ``lstm_core.sweeps``.

The sweep is described by the shared network / task / bias controls (``app.ui.controls``) plus
two swept axes ("x" and "y"), seeds and the training settings. ``plan`` turns the settings
into the core's objects (``ValueError`` with an actionable message if they do not make sense),
without training anything.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import lstm_core as lc
from app.ui import controls, form, limits, netconfig
from app.ui.controls import ALL_GATES
from app.ui.form import Field
from lstm_core.variants import check_algorithm, variant as variant_record
from lstm_core.variants import MEMORY_CELL_VARIANTS
from lstm_core.sweeps.sweep import MAX_AXIS_VALUES, MAX_MEMBERS, MAX_SEEDS, Axis, with_goal
from lstm_core.training import TrainConfig

PAGE = "bias_lab"
LAB_MAX_T, LAB_MAX_BUDGET, STEP_CAP = limits.LAB_MAX_T, limits.LAB_MAX_BUDGET, limits.STEP_CAP
VIEWS = {"grid": "Bias grid", "abuse": "Abuse problem", "drift": "Internal state drift",
         "forget": "Forget-gate bias"}
GOALS = ("paper", "0.05", "0.1", "none")
MODES = {"values": "values (same change per block)", "stagger": "staggering off / on"}

SCHEMA = form.Schema(
    controls.model_fields() + controls.bias_fields() + controls.task_fields("two_sequence") + [
        controls.seed_field(),
        Field("view", "Show", "choice", "grid", choices=tuple(VIEWS), widget="segmented", fmt=VIEWS.get),
        Field("x_gate", "Sweep (x axis)", "choice", "input", choices=ALL_GATES, widget="select",
              fmt=controls.GATE_LABELS.get),
        Field("x_mode", "x values are", "choice", "values", choices=tuple(MODES), widget="select", fmt=MODES.get),
        Field("x_values", "x biases (first block)", "text", "0, -1, -2, -3", hi=200, widget="none"),
        Field("x_step", "x change per block", "float", -2.0, *limits.BIAS_STEP_RANGE, 0.5, widget="number"),
        Field("y_gate", "Sweep (y axis)", "choice", "output", choices=("none",) + ALL_GATES, widget="select",
              fmt=lambda g: "— (one axis only)" if g == "none" else controls.GATE_LABELS[g]),
        Field("y_mode", "y values are", "choice", "values", choices=tuple(MODES), widget="select", fmt=MODES.get),
        Field("y_values", "y biases (first block)", "text", "0, -2, -4", hi=200, widget="none"),
        Field("y_step", "y change per block", "float", -2.0, *limits.BIAS_STEP_RANGE, 0.5, widget="number"),
        Field("n_seeds", "Seeds per setting", "int", 4, 1, MAX_SEEDS, 1, widget="slider",
              help="Networks per grid cell: model seeds first seed … first seed + n − 1. The same seed "
                   "means the same weights (apart from the swept biases) and the same training sequences."),
        Field("first_seed", "First model seed", "int", 0, 0, 10**6, 1, widget="number"),
        Field("algorithm", "Training", "choice", "rtrl", choices=("rtrl", "bptt"), widget="segmented",
              fmt={"rtrl": "RTRL (1997)", "bptt": "BPTT"}.get,
              help="RTRL: the 1997 online truncated gradient (LSTM-1997 family only); BPTT: exact gradient."),
        Field("lr", "Learning rate", "float", 1.0, 1e-4, 10.0, 0.1, widget="number"),
        Field("budget", "Budget (sequences per network)", "int", 1500, 10, LAB_MAX_BUDGET, 100, widget="number"),
        Field("streak", "Correct in a row to pass", "int", 100, 1, 10_000, 10, widget="number",
              help="The papers ask for thousands; a shorter streak (labelled REDUCED) keeps a sweep quick."),
        Field("goal", "Mean-abs-error goal", "choice", "0.05", choices=GOALS, widget="select",
              fmt=lambda g: {"paper": "the paper's", "none": "none (classification only)"}.get(g, f"< {g}"),
              help="Some criteria also ask for a mean absolute error below a goal over the streak."),
        Field("abuse_first", "Staggered output biases start at", "float", -1.0, *limits.BIAS_RANGE, 0.5,
              widget="number"),
        Field("abuse_step", "… and change per block by", "float", -1.0, *limits.BIAS_STEP_RANGE, 0.5,
              widget="number"),
        Field("drift_first", "Negative input biases start at", "float", -3.0, *limits.BIAS_RANGE, 0.5,
              widget="number"),
        Field("drift_step", "… and change per block by", "float", -3.0, *limits.BIAS_STEP_RANGE, 0.5,
              widget="number"),
        Field("forget_biases", "Forget-gate biases", "text", "-2, -1, 0, 1, 2, 3, 5", hi=200, widget="none"),
        Field("forget_T", "Sequence length", "int", 100, 5, limits.FLOW_MAX_T, 5, widget="slider"),
    ])
DEFAULTS = SCHEMA.defaults(**{**controls.paper_values(SCHEMA, "lstm1997", "two_sequence"),
                              "two_sequence.T": 50})

_NUM = re.compile(r"[,;\s]+")


def parse_values(text: str, what: str, lo: float = limits.BIAS_RANGE[0],
                 hi: float = limits.BIAS_RANGE[1]) -> list[float]:
    """'0, -1, -2' -> [0.0, -1.0, -2.0]; ValueError naming the box and the problem."""
    out = []
    for tok in _NUM.split(text.replace("−", "-").strip()):
        if not tok:
            continue
        try:
            v = float(tok)
        except ValueError:
            raise ValueError(f"{what}: {tok!r} is not a number (type numbers separated by commas, "
                             "e.g. 0, -1, -2)") from None
        if not math.isfinite(v) or not lo <= v <= hi:
            raise ValueError(f"{what}: {tok} is outside [{lo:g}, {hi:g}]")
        out.append(v)
    if not out:
        raise ValueError(f"{what}: type at least one number")
    if len(out) > MAX_AXIS_VALUES:
        raise ValueError(f"{what}: {len(out)} values; at most {MAX_AXIS_VALUES}")
    if len(set(out)) != len(out):
        raise ValueError(f"{what}: a value repeats; give distinct values")
    return out


def axis(values: dict, name: str) -> Axis | None:
    gate = values[f"{name}_gate"]
    if gate == "none":
        return None
    nums = parse_values(values[f"{name}_values"], f"the {name} biases")
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
    task = lc.get_task(name, **controls.task_settings(values, name))
    limits.check_task(task, LAB_MAX_T, "the lab")
    goal = values["goal"]
    if goal == "paper" or task.criterion.mean_abs_error_below is None:
        return task                      # nothing to relax: this criterion has no error goal
    return with_goal(task, None if goal == "none" else float(goal))


def train_of(values: dict, variant: str) -> TrainConfig:
    check_algorithm(variant, values["algorithm"])
    return TrainConfig(algorithm=values["algorithm"], lr=values["lr"], budget=values["budget"],
                       streak=values["streak"], seed=values["seed"], probe=False)


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
            raise ValueError(f"a {base.variant} network has no {controls.GATE_LABELS[a.gate]}; sweep one of "
                             f"{[controls.GATE_LABELS[g] for g in base.record.gate_biases]}")
    if p.networks > MAX_MEMBERS:
        raise ValueError(f"{p.networks} networks (settings × seeds); at most {MAX_MEMBERS} train together — use "
                         "fewer values or seeds")
    limits.check_steps(p.train.budget, task.max_length, "a sweep")
    return p


def demo_plan(values: dict, kind: str) -> Plan:
    """The two-setting population of the abuse or drift demo (same seeds, one bias differs)."""
    if not variant_record(values["variant"]).memory_cell:
        raise ValueError(f"the {VIEWS[kind].lower()} demo is about the 1997 memory cell; choose an LSTM-1997-family "
                         f"network ({', '.join(MEMORY_CELL_VARIANTS)}), not {values['variant']}")
    if kind == "abuse":
        if not values["output_gate"]:
            raise ValueError("the abuse-problem demo needs output gates; switch 'Output gate' on in Cell options")
        ax = Axis.stagger("output", values["abuse_first"], values["abuse_step"])
    else:
        ax = Axis("input", ((0.0, 0.0), (values["drift_first"], values["drift_step"])))
    return plan(values, ax, None, grid=False)


def forget_biases(values: dict) -> list[float]:
    return parse_values(values["forget_biases"], "the forget-gate biases")


# The measured sweep: 5 × 5 bias grid × 8 seeds on two_sequence, T = 50 — used by
# benchmarks/bias_sweep.py (population vs member by member) and by the browser test (the same
# settings through the page), so both measure exactly the same networks. Budget 3,000: at 1,500
# the well-biased cells were cut off mid-learning (5/8 at best, 17 of 25 cells with nothing);
# at 3,000 most cells resolve and the diagonal band of working settings shows.
BENCHMARK: dict = {"task": "two_sequence", "two_sequence.T": 50, "x_gate": "input", "x_values": "0, -1, -2, -3, -4",
                   "x_step": -2.0, "y_gate": "output", "y_values": "0, -1, -2, -3, -4", "y_step": -2.0,
                   "n_seeds": 8, "algorithm": "rtrl", "lr": 1.0, "budget": 3000, "streak": 100, "goal": "0.05"}
