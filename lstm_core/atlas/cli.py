"""``python -m lstm_core.atlas``: train the bias-initialisation atlas and write its results.

    python -m lstm_core.atlas --out docs/bias_atlas.json            # the full grid (FULL), resumable
    python -m lstm_core.atlas --quick --out /tmp/atlas.json         # the tests' tiny grid

Units (one per variant × task × lag) run on a Dask cluster of ``--workers`` processes (default: one
per core) or in this process (``--workers 1``); each finished unit is kept in ``--state`` (default
OUT.units.jsonl) at once, so the same command after an interruption resumes where it stopped. The
results file names the command, the machine and the wall time, and ``--table`` writes the markdown
table of docs/bias_atlas.md from it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from ..reproduce.machine import describe
from ..sweeps.cli import command_line
from .grid import FULL, QUICK, Grid, member_configs
from .results import markdown_table


def units(grid: Grid) -> list:
    from ..reproduce.distributed import Unit

    out = []
    for variant in grid.variants:
        for task in grid.tasks:
            for lag in grid.lags:
                n = len(member_configs(grid, variant, task, lag)[0])
                out.append(
                    Unit(
                        "atlas",
                        {"grid": grid.to_dict(), "variant": variant, "task": task, "lag": lag},
                        label=f"{variant}, {task}, lag {lag}",
                        members=n,
                        sequences=n * grid.budget,
                        cost=float(n * grid.budget * (lag + 20)),
                    )
                )
    return out


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m lstm_core.atlas", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="the tests' tiny grid (seconds)")
    ap.add_argument("--out", required=True, metavar="FILE", help="results file (JSON)")
    ap.add_argument("--table", metavar="FILE", help="also write the markdown table to FILE")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: one per core)")
    ap.add_argument("--scheduler", default=None, help="an existing Dask scheduler, tcp://host:8786")
    ap.add_argument("--state", default=None, help="finished units, to resume (default OUT.units.jsonl)")
    ap.add_argument("--no-progress", action="store_true")
    return ap


def main(argv: list[str] | None = None) -> int:
    from ..reproduce.distributed import log_line, run_units

    argv = sys.argv[1:] if argv is None else argv
    args = _parser().parse_args(argv)
    grid = QUICK if args.quick else FULL
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        print(f"error: --workers must be at least 1, got {workers}", file=sys.stderr)
        return 2
    todo = units(grid)
    state = args.state or args.out + ".units.jsonl"
    t0 = time.perf_counter()
    report = run_units(
        todo,
        workers=workers,
        scheduler=args.scheduler,
        state=state,
        progress=not args.no_progress,
        log=log_line,
    )
    done = [report.results[u.key] for u in todo if u.key in report.results]
    if report.interrupted or len(done) < len(todo):
        print(
            f"Interrupted: {len(done)} of {len(todo)} units finished, kept in {state}; run the same command "
            "to resume.",
            file=sys.stderr,
        )
        return 130
    command = command_line([a for a in argv if a != "--no-progress"], "python -m lstm_core.atlas")
    doc = {
        "grid": grid.to_dict(),
        "command": command.strip(),
        "machine": f"{describe()}, {os.cpu_count()} cores, {workers} worker(s)",
        "wall_seconds": round(report.seconds, 1),
        "unit_seconds": round(sum(r["wall"] for r in done), 1),
        "reused_units": report.reused,
        "units": done,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=None, separators=(",", ":"), allow_nan=False)
    if args.table:
        with open(args.table, "w", encoding="utf-8") as f:
            f.write(markdown_table(doc))
    print(f"{len(todo)} units ({report.reused} reused), {time.perf_counter() - t0:.0f} s; wrote {args.out}")
    return 0
