"""The atlas grid: every scheme × seed of one (variant, task, lag) trained as one population.

One unit of work (``run_unit``) is a population: the schemes that have a meaning for the variant
(``init_schemes.schemes_for``) × the seeds, all members of one vectorised ``Trainer`` run. Members of
one seed share every weight but the biases and see the same training sequences, so a scheme is
compared with the others and nothing else. Every ``eval_every`` sequences each member's loss on a
fixed evaluation set (``eval_size`` sequences, its own data stream) is divided by the task's
memoryless baseline (``Task.memoryless_loss``): the member is **solved** at the first evaluation
where that ratio is ≤ ``margin`` — it beats the best network that remembers nothing by a factor of
1/margin (Tallec & Ollivier 2018 judge their runs against this baseline).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

import numpy as np

from ..config import ModelConfig
from ..init_schemes import ATLAS_VARIANTS, schemes_for, with_scheme
from ..model import Model, build_population
from ..sequence import forward, loss_and_output_error
from ..tasks import Batch, Task, get_task
from ..training import TrainConfig, Trainer

EVAL_STREAM = 7_700_001  # the evaluation set's data stream (apart from every training stream)
T_MAX_FACTOR = 1.5  # chrono's T_max = 1.5 × the lag (Tallec & Ollivier 2018's copy-task choice)


@dataclass(frozen=True)
class Grid:
    """The atlas's settings; ``FULL`` is the committed one, ``QUICK`` the one the tests run."""

    variants: tuple[str, ...] = ATLAS_VARIANTS
    tasks: tuple[str, ...] = ("adding_sum", "adding")
    lags: tuple[int, ...] = (25, 50, 100, 200)
    seeds: int = 5
    hidden: int = 32  # units (lstm, gru) or one-cell blocks (the 1997 family)
    budget: int = 16_000  # training sequences per network
    batch: int = 16
    lr: float = 0.01
    optimizer: str = "adam"
    clip_norm: float = 1.0
    eval_every: int = 1000
    eval_size: int = 64
    margin: float = 0.1  # solved: evaluation loss ≤ margin × the memoryless baseline
    data_seed: int = 0
    extra: dict = field(default_factory=dict)  # task settings besides the lag (none in FULL)

    def to_dict(self) -> dict:
        d = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}

    @classmethod
    def from_dict(cls, d: dict) -> Grid:
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})


FULL = Grid()
QUICK = replace(
    FULL,
    lags=(6, 12),
    seeds=2,
    hidden=4,
    budget=96,
    batch=8,
    eval_every=32,
    eval_size=16,
    tasks=("copy", "adding_sum"),
)


def t_max(lag: int) -> float:
    return T_MAX_FACTOR * lag


def member_configs(
    grid: Grid, variant: str, task_name: str, lag: int
) -> tuple[list[ModelConfig], list[dict]]:
    """The population of one unit: (configs, one row of labels per member)."""
    task = get_task(task_name, T=lag, **grid.extra)
    sizes = (
        {"n_hidden": grid.hidden}
        if variant in ("lstm", "gru")
        else {"n_blocks": grid.hidden, "block_size": 1}
    )
    base = ModelConfig.from_dict(
        {
            "variant": variant,
            "n_in": task.n_in,
            "n_out": task.n_out,
            "output_activation": task.output_activation,
            "loss": task.loss,
            **sizes,
            # PyTorch's weight range for its cells; the 1997 family keeps its paper's ±0.1
            **({"init_range": 1.0 / np.sqrt(grid.hidden)} if variant in ("lstm", "gru") else {}),
        }
    )
    configs, rows = [], []
    for name in schemes_for(variant):
        for seed in range(grid.seeds):
            configs.append(with_scheme(base.replace(seed=seed), name, t_max(lag)))
            rows.append({"scheme": name, "seed": seed})
    return configs, rows


def member_config(grid: Grid, variant: str, task_name: str, lag: int, scheme: str, seed: int) -> ModelConfig:
    """One network of the atlas: the config the atlas trained for this scheme and seed."""
    configs, rows = member_configs(replace(grid, seeds=seed + 1), variant, task_name, lag)
    return configs[rows.index({"scheme": scheme, "seed": seed})]


def train_config(grid: Grid) -> TrainConfig:
    """How every atlas network trains (the live cell of the page trains the same way)."""
    return TrainConfig(
        algorithm="bptt",
        optimizer=grid.optimizer,
        lr=grid.lr,
        clip_norm=grid.clip_norm,
        batch=grid.batch,
        budget=grid.budget,
        seed=grid.data_seed,
        probe=False,
        streak=grid.budget,  # the atlas judges by its own criterion, never the task's streak
    )


def evaluation_set(grid: Grid, task: Task) -> Batch:
    return task.generate(np.random.default_rng([grid.data_seed, EVAL_STREAM]), grid.eval_size)


def loss_ratios(model: Model, task: Task, ev: Batch) -> np.ndarray:
    """Each network's loss on the evaluation set over the task's memoryless baseline, (K,) or (1,)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        run = forward(model, ev.xs, check=False)
        loss, _d = loss_and_output_error(model, run.outputs, run.internals["net_out"], ev.targets, ev.mask)
    return np.reshape(loss, -1) / task.memoryless_loss


def rounded(r: float) -> float | None:
    return round(float(r), 5) if np.isfinite(r) else None


def run_unit(spec: dict) -> dict:
    """One (variant, task, lag) population trained to the budget; per member its evaluation curve."""
    grid = Grid.from_dict(spec["grid"])
    variant, task_name, lag = spec["variant"], spec["task"], int(spec["lag"])
    task = get_task(task_name, T=lag, **grid.extra)
    configs, rows = member_configs(grid, variant, task_name, lag)
    trainer = Trainer(build_population(configs), task, train_config(grid))
    ev = evaluation_set(grid, task)
    curves: list[list[float | None]] = [[] for _ in configs]
    at = [0]
    while at[-1] < grid.budget and not trainer.done:
        trainer.train(grid.eval_every)
        at.append(int(trainer.book.seen.max()))
        for k, r in enumerate(loss_ratios(trainer.model, task, ev)):
            curves[k].append(rounded(r))
    status = trainer.results()["status"].tolist()
    out = []
    for k, row in enumerate(rows):
        hit = next((at[i + 1] for i, r in enumerate(curves[k]) if r is not None and r <= grid.margin), None)
        finite = [r for r in curves[k] if r is not None]
        out.append(
            {
                **row,
                "solved_at": hit,
                "final_ratio": curves[k][-1] if curves[k] else None,
                "best_ratio": min(finite) if finite else None,
                "diverged": status[k] == "diverged",  # stopped early: non-finite, or stuck saturated
                "curve": curves[k],
            }
        )
    return {
        "variant": variant,
        "task": task_name,
        "lag": lag,
        "at": at[1:],
        "members": out,
        "wall": trainer.elapsed,
    }
