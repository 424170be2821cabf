"""Reproduce the papers' experiments: ``python -m lstm_core.experiments NAME --trials N``.

Runs a paper preset (``lstm_core.training.PRESETS``) as one population of N networks (model
seeds 0..N−1, each with its own data stream) and prints the paper's setup and reported
result next to ours: % of trials that met the criterion, median sequences to criterion, and
wall time.

    python -m lstm_core.experiments --list
    python -m lstm_core.experiments long_lag --trials 10 --reduced
    python -m lstm_core.experiments long_lag_rnn --trials 10 --set p=100 --budget 20000
    python -m lstm_core.experiments adding --trials 10 --markdown docs/results.md
    python -m lstm_core.experiments --all --markdown docs/results.md --json docs/results.json
                                                                          # the results table's set

``--reduced`` applies the preset's documented reductions (e.g. a shorter criterion streak);
reduced results are labelled as such in every line and table row they produce.

This is the command line (options, printing, files); a row's units of work and its summary are
in ``experiments.py``.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from typing import TYPE_CHECKING

from ..training import PRESETS
from . import machine
from .diagnostics import summary as diagnostics_summary
from .experiments import ALL_RUNS, SET_CRITERION, preset_for, summarise, units_for
from .results import MARKDOWN_HEADER, Outcome, append_markdown, write_json

if TYPE_CHECKING:
    from .distributed import RunReport, Unit

# A table row to run: (preset, trials, task settings, reduced, budget, its units of work).
Row = tuple[str, int, dict, bool, "int | None", "list[Unit]"]


def _parse_settings(items: list[str]) -> dict:
    out = {}
    for item in items or []:
        if "=" not in item:
            raise ValueError(f"--set expects key=value (e.g. p=10), got {item!r}")
        key, value = item.split("=", 1)
        try:
            out[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[key] = value
    return out


def _best(out: Outcome, d: dict) -> str:
    """A failed network's best streak in words (with a fixed-set criterion: its best check)."""
    if SET_CRITERION in out.setup:
        return f"at best {d['best_streak']:,} {SET_CRITERION} at one check"
    return f"best streak {d['best_streak']:,}"


def _print_partial(name, trials, sets, reduced, budget, args, row_units, report) -> None:
    """Ctrl-C: the row so far (finished units and the interrupted one), labelled and never written."""
    parts = [report.results.get(u.key) or report.partial.get(u.key) for u in row_units]
    if not any(u.key in report.partial for u in row_units):
        return
    got = [p for p in parts if p is not None]
    n = sum(len(p["members"]) for p in got)
    out = summarise(name, n, sets, reduced, budget, args.seed, got, args.first_seed)
    print(
        f"  PARTIAL (interrupted, not written to any file): {n} of {trials} networks — " + out.line(),
        flush=True,
    )
    for d in out.diagnostics:
        print(f"    seed {d['seed']} ({d['status']}, {_best(out, d)}): " + diagnostics_summary(d), flush=True)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m lstm_core.experiments", description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="preset name(s); see --list")
    ap.add_argument("--trials", type=int, default=10, help="networks (seeds 0..N-1) per row")
    ap.add_argument(
        "--budget", type=int, default=None, help="training sequences per network (default: the preset's)"
    )
    ap.add_argument(
        "--reduced", action="store_true", help="apply the preset's documented reductions (labelled)"
    )
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE", help="task settings, e.g. p=10")
    ap.add_argument("--seed", type=int, default=0, help="data seed")
    ap.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="model seed of the first network (fresh trials: e.g. --first-seed 10 trains seeds 10..19)",
    )
    ap.add_argument(
        "--markdown",
        nargs="?",
        const="-",
        default=None,
        metavar="FILE",
        help="print a markdown table row (or append it to FILE)",
    )
    ap.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="add each run's outcome to the JSON results FILE (the app prefers it; same command replaces)",
    )
    ap.add_argument("--all", action="store_true", help="run the results table's set (ALL_RUNS)")
    ap.add_argument("--list", action="store_true", help="list the presets")
    ap.add_argument(
        "--summarise-only",
        action="store_true",
        help="train nothing: summarise (and write) only the rows whose units are all in the state file",
    )
    add_cluster_arguments(ap, "networks")
    return ap


def _plan(args: argparse.Namespace, runs: list, workers: int) -> list[Row]:
    """Each run's units of work (chunked for the workers), its setup printed as it is planned."""
    rows = []
    for i, (name, trials, sets, reduced, budget) in enumerate(runs):
        size = args.chunk or (trials if workers <= 1 and not args.scheduler else -(-trials // workers))
        units = units_for(
            name, trials, sets, reduced, budget, args.seed, size, row=i, first_seed=args.first_seed
        )
        rows.append((name, trials, sets, reduced, budget, units))
        print(preset_for(name, sets).describe(reduced, budget) + "\n", flush=True)
    return rows


def _finished_units(
    args: argparse.Namespace, units: list[Unit], state: str | None, workers: int
) -> RunReport:
    """The RunReport: the units run now (resuming from ``state``), or with --summarise-only only read."""
    from .distributed import RunReport, load_state, log_line, run_units

    if not args.summarise_only:
        return run_units(
            units,
            workers=workers,
            scheduler=args.scheduler,
            state=state,
            progress=not args.no_progress,
            log=log_line,
        )
    # the rows whose units are all in the state file (e.g. while the run goes on elsewhere)
    if not state:
        raise ValueError(
            "--summarise-only reads finished units from the state file: give --state FILE "
            "(or --json / --markdown FILE, whose state file is FILE.units.jsonl)"
        )
    done = load_state(state)
    report = RunReport(results={u.key: done[u.key] for u in units if u.key in done})
    report.reused = len(report.results)
    return report


def _summarise_rows(args: argparse.Namespace, rows: list[Row], report: RunReport) -> list[str]:
    """Print each finished row (and write its files unless interrupted); its markdown lines."""
    lines = []
    for name, trials, sets, reduced, budget, row_units in rows:
        if not all(u.key in report.results for u in row_units):
            done = sum(u.key in report.results for u in row_units)
            print(f"{name}: {done} of {len(row_units)} units finished — not summarised", flush=True)
            _print_partial(name, trials, sets, reduced, budget, args, row_units, report)
            continue
        results = [report.results[u.key] for u in row_units]
        out = summarise(name, trials, sets, reduced, budget, args.seed, results, args.first_seed)
        print(out.title + ": " + out.line(), flush=True)
        for d in out.diagnostics:
            print(
                f"  unsolved seed {d['seed']} ({d['status']}, {_best(out, d)}): " + diagnostics_summary(d),
                flush=True,
            )
        print(flush=True)
        lines.append(out.markdown())
        if not report.interrupted:
            if args.markdown and args.markdown != "-":
                append_markdown(args.markdown, out)
            if args.json:
                write_json(args.json, [out])
    return lines


def _print_totals(report: RunReport, units: list[Unit], state: str | None) -> None:
    cpu = sum(r.get("cpu", 0.0) for u in units if (r := report.results.get(u.key)) is not None)
    print(
        f"{report.ran} unit(s) run, {report.reused} reused, {report.seconds:.0f} s wall"
        + (f", {cpu:.0f} s of CPU in the units" if cpu else "")
        + (f"; state kept in {state}" if state else ""),
        file=sys.stderr,
        flush=True,
    )
    if report.interrupted:
        print(
            "Interrupted (Ctrl-C): the finished units are kept"
            + (
                f" in {state}; run the same command to resume."
                if state
                else "; give --state FILE to resume later."
            ),
            file=sys.stderr,
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)
    if args.list:
        for name, p in PRESETS.items():
            print(f"{name:28s} {p.title}")
        return 0
    try:
        settings = _parse_settings(args.set)
        if args.all:
            runs = ALL_RUNS
        elif args.names:
            runs = [(n, args.trials, settings, args.reduced, args.budget) for n in args.names]
        else:
            ap.error("give a preset name, --all or --list")
        workers = cluster_workers(args)
        print(f"machine: {machine.describe()} (each unit records the machine it ran on)\n", flush=True)
        rows = _plan(args, runs, workers)
        state = args.state or next(
            (f + ".units.jsonl" for f in (args.json, args.markdown) if f and f != "-"), None
        )
        units = [u for row in rows for u in row[-1]]
        report = _finished_units(args, units, state, workers)
        lines = _summarise_rows(args, rows, report)
        _print_totals(report, units, state)
        if report.interrupted:
            return 130
        if args.markdown == "-":
            print(MARKDOWN_HEADER)
            print("\n".join(lines))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def add_cluster_arguments(ap: argparse.ArgumentParser, what: str) -> None:
    """--workers / --scheduler / --chunk / --state / --no-progress (shared with the sweep command)."""
    ap.add_argument(
        "--workers",
        type=int,
        default=None,
        help="worker processes of a local Dask cluster (default: this machine's cores); 1 runs in this "
        "process without Dask",
    )
    ap.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="an existing Dask scheduler, e.g. tcp://10.0.0.5:8786 (see docs/reproducing.md: many machines)",
    )
    ap.add_argument(
        "--chunk",
        type=int,
        default=None,
        help=f"{what} per unit of work (default: spread evenly over the workers)",
    )
    ap.add_argument(
        "--state",
        default=None,
        metavar="FILE",
        help="JSON-lines file of finished units, for resuming (default: the results file + '.units.jsonl')",
    )
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")


def cluster_workers(args: argparse.Namespace) -> int:
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if args.chunk is not None and args.chunk < 1:
        raise ValueError(f"--chunk must be at least 1, got {args.chunk}")
    return workers
