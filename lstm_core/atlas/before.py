"""What a scheme does before any training: memory times against the lag, and the exact error flow.

For the atlas's own network at initialisation (``grid.member_configs``: the same seed, size and
weights the atlas trains), per scheme:

* each unit's keep-gate memory time 1 / (1 − σ(b)) (``init_schemes.memory_times``) — a forget gate at
  σ(b) multiplies the cell's contents by σ(b) a step, so after the lag T a fraction σ(b)^T is left;
* the error flow at initialisation (``lc.error_flow``): a loss at the last step of one of the task's
  sequences, followed back by the exact backward pass; ``reach`` is the share of it (relative to the
  last step) that arrives at the state ``lag`` steps back — the gradient a first update can use.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..error_flow import error_flow
from ..init_schemes import keep_biases, memory_times
from ..model import build
from ..tasks import get_task
from ..variants import variant as variant_record
from .grid import FULL, Grid, member_configs


@dataclass(frozen=True)
class Before:
    scheme: str
    memory_times: np.ndarray  # (units,) steps; empty for a cell without a keep gate
    flow: np.ndarray  # (steps back 0 … T−1,) ‖δ(at − d)‖ / ‖δ(at)‖
    reach: float  # flow at ``lag`` steps back (or the furthest step the sequence has)


def before_training(variant: str, task_name: str, lag: int, seed: int = 0, grid: Grid = FULL) -> list[Before]:
    """Every scheme the atlas trains for ``variant`` at this lag, seen at initialisation (seed ``seed``)."""
    task = get_task(task_name, T=lag, **grid.extra)
    batch = task.generate(np.random.default_rng([grid.data_seed, seed]), 1)
    configs, rows = member_configs(replace(grid, seeds=seed + 1), variant, task_name, lag)
    label = variant_record(variant).flow_state
    out = []
    for cfg, row in zip(configs, rows):
        if row["seed"] != seed:
            continue
        model = build(cfg)
        with np.errstate(over="ignore", under="ignore"):
            f = error_flow(model, batch.xs, batch.targets, batch.mask)
        norms = f.norms[label][: f.at + 1][::-1]  # steps back 0, 1, …
        flow = norms / norms[0] if norms[0] > 0 else np.full_like(norms, np.nan)
        kb = keep_biases(model.params, variant)
        out.append(
            Before(
                row["scheme"],
                memory_times(kb) if kb is not None else np.zeros(0),
                flow,
                float(flow[min(lag, len(flow) - 1)]),
            )
        )
    return out
