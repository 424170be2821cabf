"""Reproduction rows on a local Dask cluster of 2 worker processes vs 1 process (same units).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/cluster_speedup.py

Two fixed sets of table rows (paper presets, 8 trials each, split into units of 4 networks): a
mixed set whose networks may stop early at the criterion, and the table's expensive,
budget-bound rows. Each set runs once in this process (``--workers 1``, no Dask) and once on a ``LocalCluster`` of 2
single-threaded workers; the script checks that every network's result is identical and prints
both wall times and their ratio (goal on a 2-core machine: ≥ 1.8×).
"""

from __future__ import annotations

import os
import time

from lstm_core.reproduce import distributed, experiments

SETS = {
    # rows whose networks may meet the criterion early: units end at different times
    "mixed": [
        ("long_lag", 8, {"p": 20}, True, 6000),
        ("long_lag_rnn", 8, {"p": 4}, True, 6000),
        ("two_sequence_3a", 8, {"T": 50}, False, 4000),
        ("temporal_order_4", 8, {}, False, 1500),
    ],
    # the table's expensive rows (adding T = 100, long lag p = 100, periodic cos): budget-bound units
    "budget-bound": [
        ("adding", 8, {}, False, 1200),
        ("long_lag", 8, {"p": 100}, True, 1500),
        ("long_lag_rnn", 8, {"p": 100}, True, 2500),
        ("periodic_cos_f25", 8, {}, False, 250),
    ],
}


def measure(name: str, rows: list) -> None:
    units = [
        u
        for i, (n, t, s, r, b) in enumerate(rows)
        for u in experiments.units_for(n, t, s, r, b, chunk=4, row=i)
    ]
    times, results, cpu, wall = {}, {}, {}, {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        report = distributed.run_units(units, workers=workers, progress=False, log=lambda m: None)
        times[workers] = time.perf_counter() - t0
        results[workers] = [m for u in units for m in report.results[u.key]["members"]]
        cpu[workers] = [report.results[u.key]["cpu"] for u in units]
        wall[workers] = [report.results[u.key]["wall"] for u in units]
    same = results[1] == results[2]
    print(
        f"{name}: {len(units)} units ({sum(u.members for u in units)} networks) of {len(rows)} rows on "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"1 process (no Dask): {times[1]:.1f} s;  LocalCluster of 2 workers: {times[2]:.1f} s;  "
        f"speed-up {times[1] / times[2]:.2f}× (goal ≥ 1.8×);  identical results: {same}"
    )
    # where the time goes: each unit's CPU seconds in this process and on a worker; the best a
    # 2-worker cluster can do is max(half the work, the longest unit)
    for u, c1, c2, w1, w2 in zip(units, cpu[1], cpu[2], wall[1], wall[2]):
        print(
            f"    {u.label:34s} CPU {c1:6.1f} s here, {c2:6.1f} s on a worker ({c2 / c1:.2f}×); "
            f"wall {w1:6.1f} s here, {w2:6.1f} s on a worker"
        )
    ideal = max(sum(cpu[1]) / 2, max(cpu[1]))
    print(
        f"  units' CPU: {sum(cpu[1]):.1f} s here, {sum(cpu[2]):.1f} s on the workers; a perfect 2-way split of "
        f"the in-process CPU would take {ideal:.1f} s ({times[1] / ideal:.2f}×)"
    )


def main() -> None:
    for name, rows in SETS.items():
        measure(name, rows)


if __name__ == "__main__":  # (the guard matters: Dask starts worker processes by spawning)
    main()
