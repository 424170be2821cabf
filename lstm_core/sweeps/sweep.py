"""Bias sweeps: a grid of gate-bias settings × seeds trained as ONE population.

    x = Axis.values("input", [0, -1, -2, -3])                 # every block gets the value
    y = Axis.values("output", [0, -2, -4], step=-1)           # block k gets value + k·(−1)
    sweep = Sweep(base_config, "two_sequence", TrainConfig(algorithm="rtrl", lr=1.0, budget=1500,
                  streak=100), x, y, seeds=range(4))
    while not sweep.done:
        sweep.advance(50)                                     # one chunk (a UI tick)
    sweep.results()    # tidy: member, i, j, x, y, seed, status, solved_at, ...
    sweep.cells()      # per grid cell: success rate, median sequences to criterion, ...

Every grid cell × seed is one member of a population (``lc.build_population``) and the whole
grid trains in one vectorised ``Trainer`` run. Members that share a seed share every weight
except the swept biases (``init_params`` draws all weights before applying bias overrides) and
see the same training sequences (the data stream of a member depends only on the training
seed and its model seed), so the grid compares bias settings and nothing else. A member
trained inside the population gets exactly the updates it would get trained alone
(``separately.run_separately`` does that, for the tests and the benchmark).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..config import ModelConfig
from ..errors import CoreError, CoreText
from ..model import Model, build, build_population
from ..sequence import forward
from ..tasks import Criterion, Task, get_task
from ..training import Progress, TrainConfig, Trainer
from ..training.trainer import PROBE_STREAM

# Caps: a sweep must stay a classroom-sized job on one server.
MAX_AXIS_VALUES = 10
MAX_SEEDS = 16
MAX_MEMBERS = 400


def n_bias_units(cfg: ModelConfig) -> int:
    """How many entries a per-block / per-unit bias list has for this network."""
    return cfg.n_bias_units


def _fmt(v: float) -> str:
    return f"{v:g}".replace("-", "−")


@dataclass(frozen=True)
class Axis:
    """One swept bias: a gate and its settings, each (first-block value, change per block).

    Block / unit k gets ``value + k · change`` — change 0 is the same bias everywhere, change −1
    with value −1 is the 1997 paper's staggered −1, −2, −3, …
    """

    gate: str
    settings: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.gate, str) or not self.gate:
            raise CoreError("an axis needs a gate name (e.g. 'input'), got {value}", value=repr(self.gate))
        try:
            pairs = tuple((float(v), float(s)) for v, s in self.settings)
        except (TypeError, ValueError):
            raise CoreError(
                "{gate} axis: settings must be (value, change per block) pairs, got {value}",
                gate=self.gate,
                value=repr(self.settings),
            ) from None
        except OverflowError:  # an integer of hundreds of digits (from a JSON file)
            raise CoreError("{gate} axis: every bias value must be a finite number", gate=self.gate) from None
        if not 1 <= len(pairs) <= MAX_AXIS_VALUES:
            raise CoreError(
                "{gate} axis: give between 1 and {most} values, got {n}",
                gate=self.gate,
                most=MAX_AXIS_VALUES,
                n=len(pairs),
            )
        if not np.isfinite(np.array(pairs)).all():
            raise CoreError("{gate} axis: every bias value must be a finite number", gate=self.gate)
        if len(set(pairs)) != len(pairs):
            raise CoreError(
                "{gate} axis: the values repeat ({labels}); give distinct values",
                gate=self.gate,
                labels=self.labels(),
            )
        object.__setattr__(self, "settings", pairs)

    @classmethod
    def values(cls, gate: str, values: Iterable[float], step: float = 0.0) -> Axis:
        """A range of biases, all with the same per-block change ``step``."""
        return cls(gate, tuple((v, step) for v in values))

    @classmethod
    def stagger(cls, gate: str, first: float = -1.0, step: float = -1.0, off: float = 0.0) -> Axis:
        """Staggering off / on: every block ``off`` vs ``first, first + step, …``."""
        return cls(gate, ((off, 0.0), (first, step)))

    def __len__(self) -> int:
        return len(self.settings)

    def spec(self, i: int, units: int) -> float | list[float]:
        """The ``ModelConfig.bias`` spec of setting i for a network with ``units`` blocks/units."""
        v, s = self.settings[i]
        return v if s == 0 or units == 1 else [round(v + k * s, 10) for k in range(units)]

    def label(self, i: int, units: int | None = None) -> str:
        """'−2' (same everywhere) or the per-block list, e.g. '−1, −3, −5' (None = unknown count)."""
        v, s = self.settings[i]
        if s == 0:
            return _fmt(v)
        if units is None:
            return f"{_fmt(v)}, {_fmt(v + s)}, …"
        vals = [_fmt(round(v + k * s, 10)) for k in range(units)]
        return ", ".join(vals) if units <= 4 else f"{vals[0]}, {vals[1]}, …, {vals[-1]}"

    def labels(self, units: int | None = None) -> list[str]:
        return [self.label(i, units) for i in range(len(self))]

    @property
    def title(self) -> str:
        return (
            f"{self.gate} gate bias"
            if self.gate not in ("hidden", "cell", "candidate")
            else f"{self.gate} bias"
        )

    def to_dict(self) -> dict:
        return {"gate": self.gate, "settings": [list(p) for p in self.settings]}

    @classmethod
    def from_dict(cls, d: dict) -> Axis:
        if not isinstance(d, dict) or set(d) != {"gate", "settings"}:
            raise CoreError("an axis is a JSON object with 'gate' and 'settings'")
        return cls(d["gate"], tuple(tuple(p) for p in d["settings"]))


def with_goal(task: Task, mae_below: float | None) -> Task:
    """``task`` with its criterion's mean-abs-error goal replaced (None = no goal).

    The bias lab's quick criterion: the paper's goals (e.g. mean abs error < 0.01 on the
    two-sequence problem) take thousands of sequences after a network has learned the task;
    a relaxed goal measures *when it learned*, and is labelled as relaxed in the description.
    """
    base = task.criterion
    if mae_below == base.mean_abs_error_below:
        return task
    if mae_below is not None and not (np.isfinite(mae_below) and mae_below > 0):
        raise CoreError(
            "the mean-abs-error goal must be a positive number or None, got {value}",
            value=repr(mae_below),
        )
    note = (
        CoreText("no mean-abs-error goal")
        if mae_below is None
        else CoreText("mean abs error < {goal:g}", goal=mae_below)
    )
    old = base.mean_abs_error_below
    paper = CoreText("none") if old is None else old
    criterion = base.wording or CoreText(base.description)
    if old is not None and (mae_below is None or mae_below > old):
        wording = CoreText(
            "{criterion} — RELAXED here: {note} (paper: {paper})", criterion=criterion, note=note, paper=paper
        )
    else:
        wording = CoreText(
            "{criterion} — CHANGED here: {note} (paper: {paper})", criterion=criterion, note=note, paper=paper
        )
    crit = Criterion(base.streak, mae_below, str(wording), wording=wording)
    cls = type(task)
    sub = type(
        f"Relaxed{cls.__name__}", (cls,), {"criterion": property(lambda self: crit), "__module__": __name__}
    )
    return sub(**task.settings())


def probe_batch(task: Task, seed: int):
    """The probe sequence the trainer would use for data seed ``seed`` (one sequence)."""
    return task.generate(np.random.default_rng([seed, PROBE_STREAM]), 1)


def grid_configs(
    base: ModelConfig, x: Axis, y: Axis | None, seeds: Iterable[int]
) -> tuple[list[ModelConfig], pd.DataFrame]:
    """The member configs of a grid (order: x value, y value, seed) and their coordinates."""
    seeds = [int(s) for s in seeds]
    if not 1 <= len(seeds) <= MAX_SEEDS or len(set(seeds)) != len(seeds) or min(seeds) < 0:
        raise CoreError(
            "give between 1 and {most} distinct seeds ≥ 0, got {seeds}", most=MAX_SEEDS, seeds=seeds
        )
    gates = base.record.gate_biases
    axes = [x] + ([y] if y is not None else [])
    for a in axes:
        if a.gate not in gates:
            raise CoreError(
                "a {variant} network has no '{gate}' bias; sweep one of {gates}",
                variant=base.variant,
                gate=a.gate,
                gates=list(gates),
            )
    if y is not None and y.gate == x.gate:
        raise CoreError("both axes sweep the {gate} bias; choose two different gates", gate=x.gate)
    ny = len(y) if y is not None else 1
    n = len(x) * ny * len(seeds)
    if n > MAX_MEMBERS:
        raise CoreError(
            "{nx} × {ny} settings × {seeds} seeds = {n} networks; at most {most} train "
            "together — use fewer values or seeds",
            nx=len(x),
            ny=ny,
            seeds=len(seeds),
            n=n,
            most=MAX_MEMBERS,
        )
    units = n_bias_units(base)
    d = base.to_dict()
    configs, rows = [], []
    for i in range(len(x)):
        for j in range(ny):
            bias = dict(d["bias"])
            bias[x.gate] = x.spec(i, units)
            if y is not None:
                bias[y.gate] = y.spec(j, units)
            for s in seeds:
                # the base's settings in their JSON form, with this cell's biases
                configs.append(ModelConfig.from_dict({**d, "bias": bias, "seed": s}))
                rows.append(
                    {
                        "member": len(rows),
                        "i": i,
                        "j": j,
                        "x": x.label(i, units),
                        "y": y.label(j, units) if y is not None else "",
                        "seed": s,
                    }
                )
    return configs, pd.DataFrame(rows)


def aggregate(results: pd.DataFrame) -> pd.DataFrame:
    """Per grid cell (i, j): networks, solved, diverged, success rate, median sequences to criterion."""
    rows = []
    for (i, j), g in results.groupby(["i", "j"], sort=True):
        solved = g[g.status == "solved"]
        at = solved.solved_at.astype(float).to_numpy()
        rows.append(
            {
                "i": int(i),
                "j": int(j),
                "x": g.x.iloc[0],
                "y": g.y.iloc[0],
                "networks": len(g),
                "solved": len(solved),
                "diverged": int((g.status == "diverged").sum()),
                "running": int((g.status == "running").sum()),
                "success_rate": len(solved) / len(g),
                "median_to_criterion": float(np.median(at)) if len(at) else np.nan,
                "best_streak": int(g.best_streak.max()),
            }
        )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Trace:
    """One network's probe run: inputs, targets, mask, outputs and internals (T, 1, ·)."""

    xs: np.ndarray
    targets: np.ndarray
    mask: np.ndarray
    outputs: np.ndarray
    internals: dict


def trace(model: Model, batch) -> Trace:
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        run = forward(model, batch.xs, check=False)
    return Trace(batch.xs, batch.targets, batch.mask, run.outputs, dict(run.internals))


class Sweep:
    """A bias grid × seeds, trained as one population; advance it chunk by chunk."""

    def __init__(
        self,
        base: ModelConfig,
        task: Task | str,
        train: TrainConfig,
        x: Axis,
        y: Axis | None = None,
        seeds: Iterable[int] = (0, 1, 2, 3),
    ) -> None:
        self.task = get_task(task) if isinstance(task, str) else task
        if base.n_in != self.task.n_in or base.n_out != self.task.n_out:
            base = ModelConfig.from_dict(
                {
                    **base.to_dict(),
                    "n_in": self.task.n_in,
                    "n_out": self.task.n_out,
                    "output_activation": self.task.output_activation,
                    "loss": self.task.loss,
                }
            )
        self.base, self.x, self.y = base, x, y
        self.configs, self.coords = grid_configs(base, x, y, seeds)
        self.seeds = tuple(int(s) for s in seeds)
        self.train_config = train.replace(probe=False)  # probes are per member, on request
        self.trainer = Trainer(build_population(self.configs), self.task, self.train_config)
        self.wall = 0.0  # seconds spent in advance()

    # ------------------------------------------------------------------ stepping
    @property
    def K(self) -> int:
        return len(self.configs)

    @property
    def done(self) -> bool:
        return self.trainer.done

    def advance(self, n_sequences: int) -> Progress:
        """Train every running network ``n_sequences`` more sequences (one UI tick)."""
        t0 = time.perf_counter()
        p = self.trainer.train(n_sequences)
        self.wall += time.perf_counter() - t0
        return p

    def run(self, chunk: int = 100) -> Iterator[Progress]:
        """Advance in chunks until every network stopped, yielding after each chunk."""
        while not self.done:
            yield self.advance(chunk)

    def fraction(self) -> float:
        """Share of the work done: stopped networks count 1, running ones seen / budget."""
        b = self.trainer.book
        part = np.where(b.running, np.minimum(b.seen / self.train_config.budget, 1.0), 1.0)
        return float(part.mean())

    # ------------------------------------------------------------------ results
    def results(self) -> pd.DataFrame:
        """One row per network: grid coordinates, seed, status, sequences to criterion, ..."""
        r = self.trainer.results().drop(columns=["seed"])
        out = self.coords.merge(r, on="member")
        out["x_gate"], out["y_gate"] = self.x.gate, self.y.gate if self.y is not None else ""
        return out

    def cells(self) -> pd.DataFrame:
        return aggregate(self.results())

    def criterion(self) -> str:
        return self.trainer.criterion

    def labels(self, axis: str = "x") -> list[str]:
        """The axis' setting labels with this network's per-block values spelled out."""
        a = self.x if axis == "x" else self.y
        return a.labels(n_bias_units(self.base)) if a is not None else []

    def member_index(self, i: int, j: int, seed: int) -> int:
        hit = self.coords[(self.coords.i == i) & (self.coords.j == j) & (self.coords.seed == seed)]
        if hit.empty:
            raise CoreError("no network at grid cell ({i}, {j}) with seed {seed}", i=i, j=j, seed=seed)
        return int(hit.member.iloc[0])

    def probe(self, k: int) -> dict[str, Trace]:
        """Network k on the probe sequence before training (its initial weights) and now."""
        if not 0 <= k < self.K:
            raise CoreError("member must be between 0 and {last}, got {k}", last=self.K - 1, k=k)
        batch = probe_batch(self.task, self.train_config.seed)
        return {
            "before": trace(build(self.configs[k]), batch),
            "after": trace(self.trainer.model.member(k), batch),
        }

    def to_dict(self) -> dict:
        """The sweep's settings (not its state) as JSON-able data."""
        return {
            "base": self.base.to_dict(),
            "task": self.task.name,
            "task_settings": self.task.settings(),
            "train": self.train_config.to_dict(),
            "x": self.x.to_dict(),
            "y": self.y.to_dict() if self.y is not None else None,
            "seeds": list(self.seeds),
        }
