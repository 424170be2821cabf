"""Bias sweep wall time: a 5 × 5 bias grid × 8 seeds as ONE population vs member by member.

The sweep is the Bias lab's ``BENCHMARK`` settings (``app/bias_lab/settings.py``): lstm1997, 3 blocks
× 1 cell, on the two-sequence problem (3a, T = 50), input-gate × output-gate biases
{0, −1, −2, −3, −4} each staggered by −2 per block (the paper's setting, −1/−3/−5 and
−2/−4/−6, is one of the cells), 8 seeds, RTRL lr 1, budget 3,000 sequences per network,
criterion 100 correct in a row with mean abs error < 0.05 (REDUCED/RELAXED from the paper's
2,560 and 0.01). Both sides use one thread and train exactly the same networks; the script
checks that every network's result is identical, prints both wall times and the ratio (goal:
population ≥ 8× faster and within 2 minutes), the per-cell table and the best settings, and
merges the figures into docs/measurements.json (key "bias_sweep").

    python benchmarks/bias_sweep.py                  # full: both sides (member by member ≈ 15 min)
    python benchmarks/bias_sweep.py --members 20     # time 20 networks one by one, extrapolate (labelled)
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread on both sides, set before imports
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from app.bias_lab import settings as lab_settings  # noqa: E402
from lstm_core.sweeps.separately import result_differences, run_separately  # noqa: E402
from lstm_core.sweeps.sweep import Sweep  # noqa: E402

MEASUREMENTS = Path(__file__).resolve().parents[1] / "docs" / "measurements.json"
COMMAND = "OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bias_sweep.py"
COLS = ["member", "status", "sequences", "solved_at", "best_streak"]


def build() -> Sweep:
    values = {**lab_settings.DEFAULTS, **lab_settings.BENCHMARK}
    p = lab_settings.plan(values)
    return Sweep(p.base, p.task, p.train, p.x, p.y, p.seeds)


def compare(sweep: Sweep, picks, sep: pd.DataFrame, alone: dict) -> tuple[list, float]:
    """How the population's networks ``picks`` differ from the same networks trained alone.

    Returns (differing result fields, largest absolute difference of any final weight). Results
    are status, sequences, sequences to criterion and best streak; a network that never met the
    criterion has no ``solved_at`` on either side, and missing == missing. (The first version
    compared ``astype(str)`` arrays: pandas 3 keeps NaN as a missing value there, NaN != NaN,
    so every sweep with an unsolved network reported "not identical".)
    """
    res = sweep.results().iloc[list(picks)].reset_index(drop=True)
    diffs = result_differences(res, sep.reset_index(drop=True), COLS[1:])
    pop = sweep.trainer.model.params
    worst = max(
        float(np.abs(pop[name][k] - alone[m][name]).max()) for m, k in enumerate(picks) for name in pop
    )
    return diffs, worst


def best_sentence(cells: pd.DataFrame, sweep: Sweep) -> str:
    c = cells.sort_values(["success_rate", "median_to_criterion"], ascending=[False, True])
    top = c.iloc[0]
    worst = cells[cells.success_rate == 0]
    return (
        f"Best: input-gate biases {top.x} with output-gate biases {top.y} — {top.solved}/{top.networks} "
        f"networks met the criterion, median {top.median_to_criterion:,.0f} sequences; "
        f"{len(worst)} of {len(cells)} cells solved nothing within {sweep.train_config.budget:,} sequences."
    )


def merge(entry: dict) -> None:
    data = json.loads(MEASUREMENTS.read_text()) if MEASUREMENTS.is_file() else {}
    data["bias_sweep"] = {**data.get("bias_sweep", {}), **entry}
    MEASUREMENTS.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def time_population(sweep: Sweep) -> tuple[float, float, float]:
    """Train the whole grid as one population: (wall s, CPU s, load average just after)."""
    # wall time is what a user waits; CPU time (one thread) is what the work costs — on a shared,
    # loaded machine the two differ, so both are reported and the ratio is given for both
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in sweep.run(chunk=50):
        pass
    t_pop, c_pop = time.perf_counter() - t0, time.process_time() - c0
    load_pop = os.getloadavg()[0]
    sweep.results()  # timed with the run: the results table is what a user waits for
    print(
        f"population (one vectorised run): {t_pop:.1f} s wall, {c_pop:.1f} s CPU "
        f"(load average {load_pop:.1f} on {os.cpu_count()} CPUs)",
        flush=True,
    )
    return t_pop, c_pop, load_pop


def time_alone(sweep: Sweep, n: int) -> tuple[np.ndarray, pd.DataFrame, dict, float, float]:
    """Train n of the grid's networks (spread over it) one by one: (their members, results, final
    weights, wall s, CPU s)."""
    picks = np.linspace(0, sweep.K - 1, n).round().astype(int) if n < sweep.K else np.arange(sweep.K)
    sub = Sweep.__new__(Sweep)  # the same sweep restricted to the timed members
    sub.__dict__.update(sweep.__dict__)
    sub.configs = [sweep.configs[k] for k in picks]
    sub.coords = sweep.coords.iloc[picks].assign(member=np.arange(n)).reset_index(drop=True)
    alone: dict = {}
    t0, c0 = time.perf_counter(), time.process_time()
    sep = run_separately(sub, params=alone)
    return picks, sep, alone, time.perf_counter() - t0, time.process_time() - c0


def print_tables(cells: pd.DataFrame, sweep: Sweep) -> None:
    """Success rate and median sequences to criterion, per grid cell."""
    print("\nsuccess rate (rows: input-gate biases, columns: output-gate biases)")
    print(
        cells.pivot(index="x", columns="y", values="success_rate")
        .reindex(index=sweep.labels("x"), columns=sweep.labels("y"))
        .to_string()
    )
    print("\nmedian sequences to criterion")
    print(
        cells.pivot(index="x", columns="y", values="median_to_criterion")
        .reindex(index=sweep.labels("x"), columns=sweep.labels("y"))
        .to_string()
    )


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--members",
        type=int,
        default=None,
        help="time only this many networks one by one and extrapolate (labelled as an estimate)",
    )
    ap.add_argument("--no-save", action="store_true", help="do not write docs/measurements.json")
    return ap.parse_args()


def main() -> None:
    args = parse_args()
    sweep = build()
    print(
        f"{sweep.K} networks: {len(sweep.x)} × {len(sweep.y)} settings × {len(sweep.seeds)} seeds; "
        f"{sweep.task.name} T={sweep.task.T}; criterion: {sweep.criterion()}",
        flush=True,
    )
    t_pop, c_pop, load_pop = time_population(sweep)
    n = sweep.K if args.members is None else min(args.members, sweep.K)
    picks, sep, alone, t_sep, c_sep = time_alone(sweep, n)
    diffs, max_weight_diff = compare(sweep, picks, sep, alone)
    same = not diffs and max_weight_diff == 0.0
    for r, c, a, b in diffs[:10]:
        print(f"DIFFERENT: network {picks[r]} {c}: population {a!r}, alone {b!r}")
    estimate = n < sweep.K
    t_members, c_members = t_sep * sweep.K / n, c_sep * sweep.K / n
    label = f" (estimated from {n} of {sweep.K} networks)" if estimate else ""
    print(
        f"member by member: {t_members:.1f} s wall, {c_members:.1f} s CPU{label}; identical results: "
        f"{'yes' if same else 'NO'} ({len(diffs)} differing result fields, largest final-weight difference "
        f"{max_weight_diff:g}) (load average {os.getloadavg()[0]:.1f})"
    )
    print(
        f"ratio: {t_members / t_pop:.1f}× wall, {c_members / c_pop:.1f}× CPU (goal ≥ 8×; population within "
        f"2 minutes: {'yes' if t_pop <= 120 else 'no'})"
    )
    cells = sweep.cells()
    print_tables(cells, sweep)
    sentence = best_sentence(cells, sweep)
    print("\n" + sentence)
    if not args.no_save:
        merge(
            {
                "population_seconds": round(t_pop, 1),
                "member_by_member_seconds": round(t_members, 1),
                "population_cpu_seconds": round(c_pop, 1),
                "member_by_member_cpu_seconds": round(c_members, 1),
                "ratio_cpu": round(c_members / c_pop, 1),
                "load_avg_1min_end": round(os.getloadavg()[0], 2),
                "member_by_member_estimated": estimate,
                "members_timed": int(n),
                "ratio": round(t_members / t_pop, 1),
                "identical_results": bool(same),
                "differing_result_fields": len(diffs),
                "max_final_weight_difference": max_weight_diff,
                "networks": sweep.K,
                "best": sentence,
                "load_avg_1min_after_population": round(load_pop, 2),
                "command": COMMAND,
                "settings": lab_settings.BENCHMARK,
                "threads": 1,
                "machine_cpus": os.cpu_count(),
                "measured_at": time.strftime("%Y-%m-%d %H:%M:%S"),
            }
        )


if __name__ == "__main__":
    main()
