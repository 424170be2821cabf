"""Bias sweeps from the command line — the Bias lab's grid at any size, on a Dask cluster.

    python -m lstm_core.sweep --variant lstm1997 --task two_sequence --set T=50 \
        --model n_blocks=3 block_size=1 init_range=0.1 \
        --x input --x-values 0,-2,-4,-6 --x-step -2 --y output --y-values 0,-1,-3,-5 --y-step -2 \
        --seeds 32 --algorithm rtrl --lr 1 --budget 3000 --streak 100 --goal 0.05 \
        --out sweep.json --workers 2

A unit of work is the whole grid for a chunk of seeds (one vectorised population of grid × seeds
networks, at most ``sweep.MAX_MEMBERS``); results are identical whatever the chunking, because a
network's training depends only on its own seeds. The results file (``--out``) holds the settings
and one row per network; the Bias lab page loads it ("Load a precomputed sweep") and draws the
same heat maps as a sweep trained in the browser. ``load_results`` validates such a file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..config import ModelConfig
from ..errors import CoreError
from ..numerics import finite_number
from ..tasks import get_task
from ..training import TrainConfig
from .sweep import MAX_MEMBERS, Axis, Sweep, aggregate, grid_configs, n_bias_units, with_goal

KIND, VERSION = "gatelab-sweep-results", 1
MAX_FILE_BYTES = 20_000_000  # a results file of ~100,000 networks
MAX_ROWS = 100_000
STATUSES = ("solved", "budget", "diverged", "running")
ROW_FIELDS = {"i": int, "j": int, "seed": int, "status": str, "sequences": int, "best_streak": int}


def _task(d: dict):
    task = get_task(d["task"], **d.get("task_settings", {}))
    goal = d.get("goal", "paper")
    if goal != "paper" and task.criterion.mean_abs_error_below is not None:
        task = with_goal(task, None if goal == "none" else float(goal))
    return task


def _sweep(d: dict, seeds) -> Sweep:
    y = Axis.from_dict(d["y"]) if d.get("y") else None
    return Sweep(
        ModelConfig.from_dict(d["base"]),
        _task(d),
        TrainConfig.from_dict(d["train"]),
        Axis.from_dict(d["x"]),
        y,
        seeds,
    )


def run_unit(spec: dict) -> dict:
    """One unit: the grid for ``spec["seeds"]``, trained to the end as one population."""
    sweep = _sweep(spec["sweep"], spec["seeds"])
    while not sweep.done:
        sweep.advance(sweep.train_config.budget)
    res = sweep.results()
    rows = [
        {
            "i": int(r.i),
            "j": int(r.j),
            "seed": int(r.seed),
            "status": str(r.status),
            "sequences": int(r.sequences),
            "best_streak": int(r.best_streak),
            "solved_at": None if pd.isna(r.solved_at) else int(r.solved_at),
            "message": str(r.message or ""),
        }
        for r in res.itertuples()
    ]
    return {"rows": rows, "wall": sweep.wall}


def units_for(d: dict, seeds: list[int], chunk: int | None):
    """The units of a sweep: the grid for chunks of ``chunk`` seeds (capped so a unit holds at
    most MAX_MEMBERS networks)."""
    from ..reproduce.distributed import Unit

    grid = len(d["x"]["settings"]) * (len(d["y"]["settings"]) if d.get("y") else 1)
    size = min(chunk or len(seeds), max(1, MAX_MEMBERS // grid), 16)
    budget = d["train"]["budget"]
    return [
        Unit(
            "sweep",
            {"row": 0, "sweep": d, "seeds": seeds[i : i + size]},
            label=f"seeds {seeds[i]}–{seeds[min(i + size, len(seeds)) - 1]}",
            members=grid * len(seeds[i : i + size]),
            sequences=grid * len(seeds[i : i + size]) * budget,
            cost=float(budget * grid * len(seeds[i : i + size])),
        )
        for i in range(0, len(seeds), size)
    ]


@dataclass
class SweepResults:
    """A loaded results file: the sweep's settings and one row per network."""

    settings: dict
    results: pd.DataFrame  # i, j, x, y, seed, status, sequences, solved_at, best_streak, message

    def axis(self, name: str) -> Axis | None:
        d = self.settings.get(name)
        return Axis.from_dict(d) if d else None

    def labels(self, name: str) -> list[str]:
        a = self.axis(name)
        return a.labels(n_bias_units(ModelConfig.from_dict(self.settings["base"]))) if a is not None else []

    def cells(self) -> pd.DataFrame:
        return aggregate(self.results)

    @property
    def budget(self) -> int:
        return int(self.settings["train"]["budget"])


def results_document(d: dict, seeds: list[int], unit_results: list[dict], command: str) -> dict:
    rows = [r for u in unit_results for r in u["rows"]]
    rows.sort(key=lambda r: (r["i"], r["j"], r["seed"]))
    return {
        "kind": KIND,
        "version": VERSION,
        "command": command,
        "sweep": {**d, "seeds": seeds},
        "wall": float(sum(u["wall"] for u in unit_results)),
        "networks": rows,
    }


def _read_document(data: bytes | str) -> dict:
    """The file's JSON object, checked to be a sweep results file of this version."""
    if isinstance(data, bytes):
        if len(data) > MAX_FILE_BYTES:
            raise CoreError(
                "the file is {size:,} bytes; a sweep results file is at most {max_bytes:,}",
                size=len(data),
                max_bytes=MAX_FILE_BYTES,
            )
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise CoreError(
                "the file is not text (UTF-8); upload the .json file `python -m lstm_core.sweep` wrote"
            ) from None
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as e:
        raise CoreError(
            "the file is not valid JSON: {why} (line {lineno}, column {colno})",
            why=e.msg,
            lineno=e.lineno,
            colno=e.colno,
        ) from None
    except RecursionError:
        raise CoreError("the file's JSON is nested too deeply to be a sweep results file") from None
    except ValueError:  # json reads an integer of over 4,300 digits with int(), which refuses it
        raise CoreError(
            "the file holds a number thousands of digits long; no sweep setting is that big"
        ) from None
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise CoreError(
            'not a sweep results file: expected a JSON object with "kind": "{kind}" (written by '
            "python -m lstm_core.sweep --out FILE)",
            kind=KIND,
        )
    if doc.get("version") != VERSION:
        raise CoreError(
            "results file version {version}; this Gate Lab reads version {expected}",
            version=repr(doc.get("version")),
            expected=VERSION,
        )
    return doc


def _checked_settings(d: dict) -> tuple[dict, ModelConfig, Axis, Axis | None]:
    """The sweep's settings checked, with every default filled in; its network and axes."""
    try:
        base = ModelConfig.from_dict(d["base"])
        x = Axis.from_dict(d["x"])
        y = Axis.from_dict(d["y"]) if d.get("y") else None
        train = TrainConfig.from_dict(d["train"])
        _task(d)
        seeds = d["seeds"]
    except (KeyError, TypeError) as e:
        raise CoreError(
            "the sweep settings are incomplete or malformed ({error}: {why})",
            error=type(e).__name__,
            why=str(e),
        ) from None
    if (
        not isinstance(seeds, list)
        or not seeds
        or not all(finite_number(s) and s == int(s) and s >= 0 for s in seeds)
        or len(set(map(int, seeds))) != len(seeds)
    ):
        raise CoreError("'seeds' must be a list of distinct whole numbers ≥ 0")
    seeds = [int(s) for s in seeds]
    # The page reads the settings back (variant, algorithm, lr, budget, seeds): keep them as the
    # checked objects write them, with every default filled in, not as the file spelled them.
    d = {
        **d,
        "base": base.to_dict(),
        "train": train.to_dict(),
        "x": x.to_dict(),
        "y": y.to_dict() if y is not None else None,
        "seeds": seeds,
    }
    grid_configs(base, x, y, seeds[:1])  # the gates exist in this network
    return d, base, x, y


def _checked_row(n: int, r: object, d: dict, x: Axis, y: Axis | None, units: int) -> dict:
    """networks[n] checked against the grid and seeds, with its axis labels."""
    nx, ny = len(x), len(y) if y is not None else 1
    if not isinstance(r, dict):
        raise CoreError("networks[{n}] is not an object", n=n)
    row = {}
    for k, typ in ROW_FIELDS.items():
        v = r.get(k)
        if typ is int and (not finite_number(v) or v != int(v) or v < 0):
            raise CoreError(
                "networks[{n}].{k} must be a whole number ≥ 0, got {value}", n=n, k=k, value=repr(v)
            )
        if typ is str and not isinstance(v, str):
            raise CoreError("networks[{n}].{k} must be text, got {value}", n=n, k=k, value=repr(v))
        row[k] = typ(v)
    if row["status"] not in STATUSES:
        raise CoreError(
            "networks[{n}].status must be one of {choices}, got {value}",
            n=n,
            choices=list(STATUSES),
            value=repr(row["status"]),
        )
    if row["i"] >= nx or row["j"] >= ny or row["seed"] not in d["seeds"]:
        raise CoreError(
            "networks[{n}] lies outside the grid (i < {nx}, j < {ny}, seed in 'seeds')", n=n, nx=nx, ny=ny
        )
    at = r.get("solved_at")
    if row["status"] == "solved" and (not finite_number(at) or at < 1):
        raise CoreError("networks[{n}] is solved but 'solved_at' is {value}", n=n, value=repr(at))
    row["solved_at"] = float(at) if row["status"] == "solved" else np.nan
    row["message"] = str(r.get("message", ""))[:500]
    row["x"], row["y"] = x.label(row["i"], units), y.label(row["j"], units) if y is not None else ""
    return row


def load_results(data: bytes | str) -> SweepResults:
    """Validate a results file; ValueError saying what is wrong (nothing is half-loaded)."""
    doc = _read_document(data)
    d, rows = doc.get("sweep"), doc.get("networks")
    if not isinstance(d, dict) or not isinstance(rows, list) or not rows:
        raise CoreError("the file needs a 'sweep' object (the settings) and a non-empty 'networks' list")
    if len(rows) > MAX_ROWS:
        raise CoreError("{n:,} networks; at most {max_rows:,} can be shown", n=len(rows), max_rows=MAX_ROWS)
    d, base, x, y = _checked_settings(d)
    units = n_bias_units(base)
    return SweepResults(d, pd.DataFrame([_checked_row(n, r, d, x, y, units) for n, r in enumerate(rows)]))


def _pairs(items: list[str], what: str) -> dict:
    import ast

    out = {}
    for item in items or []:
        if "=" not in item:
            raise ValueError(f"{what} expects key=value, got {item!r}")
        k, v = item.split("=", 1)
        try:
            out[k] = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            out[k] = v
    return out


def _axis(gate: str, values: str, step: float, stagger: bool) -> Axis:
    nums = [float(v) for v in values.replace(";", ",").split(",") if v.strip()]
    if not nums:
        raise ValueError(f"give the {gate} biases as a comma-separated list, e.g. 0,-1,-2")
    return Axis.stagger(gate, first=nums[0], step=step) if stagger else Axis.values(gate, nums, step)


def command_line(argv: list[str], prog: str = "python -m lstm_core.sweep") -> str:
    """The command as a reader would type it again; ``--state FILE`` (where the finished units are
    kept to resume, not what is computed) and ``--workers`` / ``--scheduler`` are left out."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("--state", "--workers", "--scheduler"):
            skip = True
            continue
        if a.startswith(("--state=", "--workers=", "--scheduler=")):
            continue
        out.append(a)
    return f"{prog} " + " ".join(out)


def _parser() -> argparse.ArgumentParser:
    from ..reproduce.cli import add_cluster_arguments

    ap = argparse.ArgumentParser(prog="python -m lstm_core.sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="lstm1997")
    ap.add_argument("--task", default="two_sequence")
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE", help="task settings, e.g. T=50")
    ap.add_argument(
        "--model",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help="network settings (ModelConfig), e.g. n_blocks=3 block_size=1 init_range=0.1",
    )
    for a, gate in (("x", "input"), ("y", "output")):
        ap.add_argument(f"--{a}", default=gate, help=f"gate swept along {a} ('none' for y: one axis)")
        ap.add_argument(
            f"--{a}-values", default="0,-1,-2,-3", help="comma-separated biases of the first block"
        )
        ap.add_argument(f"--{a}-step", type=float, default=0.0, help="change per block (stagger)")
        ap.add_argument(
            f"--{a}-stagger", action="store_true", help="compare 0 with the staggered list instead"
        )
    ap.add_argument(
        "--seeds", type=int, default=8, help="networks per grid cell (model seeds first … first+n−1)"
    )
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--algorithm", default="rtrl")
    ap.add_argument("--lr", type=float, default=1.0)
    ap.add_argument("--budget", type=int, default=1500, help="training sequences per network")
    ap.add_argument(
        "--streak", type=int, default=None, help="correct sequences in a row (default: the task's)"
    )
    ap.add_argument("--goal", default="paper", help="mean-abs-error goal: paper | none | a number")
    ap.add_argument("--data-seed", type=int, default=0)
    ap.add_argument("--out", required=True, metavar="FILE", help="results file (JSON) for the Bias lab page")
    add_cluster_arguments(ap, "seeds")
    return ap


def _settings(args: argparse.Namespace) -> tuple[dict, list[int]]:
    """The sweep's settings (as the results file records them) and its seeds, checked before it starts."""
    task = get_task(args.task, **_pairs(args.set, "--set"))
    base = ModelConfig(
        variant=args.variant,
        n_in=task.n_in,
        n_out=task.n_out,
        output_activation=task.output_activation,
        loss=task.loss,
        **_pairs(args.model, "--model"),
    )
    x = _axis(args.x, args.x_values, args.x_step, args.x_stagger)
    y = None if args.y == "none" else _axis(args.y, args.y_values, args.y_step, args.y_stagger)
    train = TrainConfig(
        algorithm=args.algorithm,
        lr=args.lr,
        budget=args.budget,
        streak=args.streak,
        seed=args.data_seed,
        probe=False,
    )
    train.check_model(base)
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    d = {
        "base": base.to_dict(),
        "task": task.name,
        "task_settings": task.settings(),
        "goal": args.goal,
        "train": train.to_dict(),
        "x": x.to_dict(),
        "y": y.to_dict() if y is not None else None,
    }
    grid_configs(base, x, y, seeds[:1])  # gates and axes valid before anything starts
    return d, seeds


def main(argv: list[str] | None = None) -> int:
    from ..reproduce.cli import cluster_workers
    from ..reproduce.distributed import log_line, run_units

    ap = _parser()
    args = ap.parse_args(argv)
    try:
        d, seeds = _settings(args)
        workers = cluster_workers(args)
        units = units_for(d, seeds, args.chunk or max(1, -(-len(seeds) // workers)))
        state = args.state or args.out + ".units.jsonl"
        t0 = time.perf_counter()
        report = run_units(
            units,
            workers=workers,
            scheduler=args.scheduler,
            state=state,
            progress=not args.no_progress,
            log=log_line,
        )
        if report.interrupted or not report.complete(units):
            print(
                f"Interrupted: {sum(u.key in report.results for u in units)} of {len(units)} units finished, "
                f"kept in {state}; run the same command to resume.",
                file=sys.stderr,
            )
            return 130
        results = [report.results[u.key] for u in units]
        doc = results_document(d, seeds, results, command_line(sys.argv[1:] if argv is None else argv))
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, allow_nan=False)
        cells = load_results(json.dumps(doc)).cells()
        print(
            f"{len(doc['networks'])} networks in {len(units)} unit(s) ({report.reused} reused), "
            f"{time.perf_counter() - t0:.0f} s; wrote {args.out}"
        )
        print(
            cells[["x", "y", "networks", "solved", "success_rate", "median_to_criterion"]].to_string(
                index=False
            )
        )
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
