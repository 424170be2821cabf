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
"""

from __future__ import annotations

import argparse
import ast
import dataclasses  # noqa: F401 — tests read experiments.dataclasses.fields(Outcome)
import os
import sys
import time
from collections.abc import Callable

import numpy as np

from ..training import PRESETS, get_preset
from . import machine
from .diagnostics import diagnose, flag_key
from .diagnostics import summary as diagnostics_summary
from .results import MARKDOWN_HEADER, Outcome, append_markdown, write_json  # noqa: F401 — re-exported

DIAGNOSTIC_STREAM = 2**32 - 3  # the diagnostics' sequences: default_rng([data seed, DIAGNOSTIC_STREAM])

# The set behind the results table (docs/results.md, docs/results.json):
# (preset, trials, task settings, reduced, budget). The noise-free long-lag rows use the reduced
# criterion (1,000 correct in a row instead of 10,000; labelled) and one budget for LSTM and RNN.
# Each faithful preset is followed by its *_assisted* recipe where one exists (labelled ASSISTED).
SET_CRITERION = "fixed-set sequences right"  # a row judged on fixed sets says so in its setup
ALL_RUNS: list[tuple[str, int, dict, bool, int | None]] = [
    ("long_lag", 10, {"p": 100}, True, 20_000),
    ("long_lag_assisted", 10, {"p": 100}, True, 20_000),
    ("long_lag_rnn", 10, {"p": 4}, True, 20_000),
    ("long_lag_rnn", 10, {"p": 10}, True, 20_000),
    ("long_lag_rnn", 10, {"p": 100}, True, 20_000),
    ("long_lag_random", 10, {"p": 100}, True, 10_000),
    ("long_lag_random_assisted", 10, {"p": 100}, True, 10_000),
    ("two_sequence_3a", 10, {}, False, 100_000),
    ("two_sequence_3a_assisted", 10, {}, False, 100_000),
    ("temporal_order_4", 10, {}, False, 60_000),
    ("adding", 10, {}, False, 100_000),
    ("embedded_reber", 10, {}, False, None),
    ("embedded_reber_4x1", 10, {}, False, None),
    ("embedded_reber_assisted", 10, {}, False, None),
    ("periodic_cos_f10", 10, {}, False, 2_000),
    ("periodic_cos_f10_lstm2000", 10, {}, False, 2_000),
    ("periodic_cos_f25", 10, {}, False, 2_000),
    ("periodic_cos_f25_lstm2000", 10, {}, False, 2_000),
    ("periodic_cos_f10", 10, {}, False, 20_000),
    ("periodic_cos_f10_stream", 10, {}, False, 50_000),
    ("periodic_cos_f25_stream", 10, {}, False, 50_000),
    # added after the 21-row run measured for issue 17 (README: the whole table's wall time)
    ("adding_lr1", 10, {}, False, 100_000),
    ("embedded_reber_lr01", 10, {}, False, None),
    ("spike_delay_nmsd", 10, {}, False, 50_000),
    ("spike_delay_msd_stream", 10, {}, False, 50_000),
    ("spike_delay_msd_stream_lstm2000", 10, {}, False, 50_000),
    ("spike_generation_stream", 10, {}, False, 50_000),
    # the paper's embedded Reber protocol: three pairs of fixed 256/256 sets, ten networks each
    ("embedded_reber_sets", 10, {"set_seed": 0}, False, None),
    ("embedded_reber_sets", 10, {"set_seed": 1}, False, None),
    ("embedded_reber_sets", 10, {"set_seed": 2}, False, None),
]


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


def _preset(name: str, settings: dict | None):
    preset = get_preset(name)
    return preset.with_task(**settings) if settings else preset


class UnitInterrupted(KeyboardInterrupt):
    """Ctrl-C inside a unit: carries the unit's partial result (never stored as finished)."""

    def __init__(self, partial: dict) -> None:
        super().__init__("interrupted")
        self.partial = partial


def run_unit(spec: dict, report: Callable[[int, int], None] | None = None) -> dict:
    """One unit of work: ``spec["trials"]`` networks of a preset with model seeds
    ``first_seed`` … as one population. Returns one JSON-able record per network (a member's
    result depends only on its own seeds, so any chunking of a row gives the same records).
    ``report(sequences so far, at most)`` is called after every progress report (in-process runs)."""
    preset = _preset(spec["name"], spec.get("settings"))
    overrides = {"seed": spec.get("seed", 0), "probe": False}
    if spec.get("budget") is not None:
        overrides["budget"] = spec["budget"]
    trainer = preset.trainer(
        trials=spec["trials"],
        first_seed=spec.get("first_seed", 0),
        reduced=spec.get("reduced", False),
        **overrides,
    )
    t0, c0 = time.perf_counter(), time.process_time()
    total = spec["trials"] * trainer.config.budget
    try:
        for _ in trainer.run(report_every=max(trainer.config.batch, min(trainer.config.budget // 20, 1000))):
            if report is not None:
                report(int(np.sum(trainer.book.seen)), total)
    except KeyboardInterrupt:
        raise UnitInterrupted(_unit_result(trainer, spec, t0, c0, interrupted=True)) from None
    return _unit_result(trainer, spec, t0, c0)


def _unit_result(trainer, spec: dict, t0: float, c0: float, interrupted: bool = False) -> dict:
    res = trainer.results()
    # symptoms of every network on fresh sequences (the same ones for each member of a row)
    diags = diagnose(
        trainer.model, trainer.task, np.random.default_rng([spec.get("seed", 0), DIAGNOSTIC_STREAM])
    )
    members = [
        {
            "seed": int(r.seed),
            "status": "interrupted" if interrupted and r.status == "running" else str(r.status),
            "sequences": int(r.sequences),
            "solved_at": None if r.solved_at is None or r.solved_at != r.solved_at else int(r.solved_at),
            "best_streak": int(r.best_streak),
            "message": str(r.message or ""),
            "diagnostics": d,
        }
        for r, d in zip(res.itertuples(), diags)
    ]
    if trainer.grower is not None:  # sequential construction: when each network's cells joined
        for m, at in zip(members, trainer.grower.added_at):
            m["cells_added_at"] = None if at < 0 else int(at)
    # wall and CPU seconds of the unit: on a shared machine CPU time shows the work itself; the machine,
    # because the last bits (and so a chaotic run's trajectory) depend on the CPU's kernels (lstm_core.machine)
    return {
        "members": members,
        "wall": time.perf_counter() - t0,
        "cpu": time.process_time() - c0,
        "machine": machine.describe(),
    }


def chunks(trials: int, size: int, first_seed: int = 0) -> list[tuple[int, int]]:
    """(first seed, count) of each chunk of ``trials`` networks (seeds first_seed … first_seed + trials − 1)."""
    size = max(1, int(size))
    return [(first_seed + first, min(size, trials - first)) for first in range(0, trials, size)]


def units_for(
    name: str,
    trials: int,
    settings: dict | None = None,
    reduced: bool = False,
    budget: int | None = None,
    seed: int = 0,
    chunk: int | None = None,
    row: int = 0,
    first_seed: int = 0,
) -> list:
    """The units of one table row: chunks of its trials (``chunk`` networks each; default all)."""
    from .distributed import Unit  # noqa: PLC0415

    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ValueError(f"trials must be a whole number ≥ 1, got {trials!r}")
    if (
        isinstance(first_seed, bool)
        or not isinstance(first_seed, int)
        or not 0 <= first_seed < 2**32 - trials
    ):
        raise ValueError(
            f"--first-seed must be a whole number ≥ 0 (model seeds first_seed … first_seed + trials − 1), "
            f"got {first_seed!r}"
        )
    preset = _preset(name, settings)  # validates the name and task settings now
    per = budget if budget is not None else preset.train_config(reduced).budget
    T = preset.build_task(reduced).max_length
    return [
        Unit(
            "experiment",
            {
                "row": row,
                "name": name,
                "settings": settings or {},
                "reduced": reduced,
                "budget": budget,
                "seed": seed,
                "first_seed": first,
                "trials": k,
            },
            label=f"{name} seeds {first}–{first + k - 1}",
            members=k,
            sequences=k * per,
            cost=float(per * T * (1 + 0.1 * k)),
        )  # a population step costs little more per member
        for first, k in chunks(trials, chunk or trials, first_seed)
    ]


def summarise(
    name: str,
    trials: int,
    settings: dict | None,
    reduced: bool,
    budget: int | None,
    seed: int,
    results: list[dict],
    first_seed: int = 0,
) -> Outcome:
    """The row's Outcome from its units' results (in seed order)."""
    preset = _preset(name, settings)
    members = [m for r in results for m in r["members"]]
    if len(members) != trials:
        raise ValueError(f"{name}: {len(members)} of {trials} networks have results")
    task = preset.build_task(reduced)
    cfg = preset.train_config(reduced, **({"budget": budget} if budget is not None else {}), seed=seed)
    m = preset.model
    required = cfg.streak or task.criterion.streak
    by_set = bool(task.criterion.check_every) and not cfg.streak  # judged on a fixed set (embedded Reber)
    setup = (
        f"{m.variant}, {cfg.algorithm}, lr {cfg.lr:g}"
        + (f", momentum {cfg.momentum:g}" if cfg.momentum else "")
        + f"; {task.name} {_short(task.settings())}; criterion "
        + (f"all {required:,} {SET_CRITERION}" if by_set else f"{required:,} in a row")
    )
    cmd = f"python -m lstm_core.experiments {name} --trials {trials}"
    if settings:
        cmd += " --set " + " ".join(f"{k}={v}" for k, v in settings.items())
    if budget is not None:
        cmd += f" --budget {budget}"
    if reduced:
        cmd += " --reduced"
    if seed:
        cmd += f" --seed {seed}"
    if first_seed:
        cmd += f" --first-seed {first_seed}"
    notes = []
    if reduced and preset.reduced.get("note"):
        notes.append("reduced: " + preset.reduced["note"])
    if preset.notes:
        notes.append(preset.notes)
    if cfg.grow_window:
        added = [mm.get("cells_added_at") for mm in members]
        joined = np.array([a for a in added if a is not None], dtype=int)
        notes.append(
            f"sequential construction (the error stopped decreasing: a {cfg.grow_window:,}-sequence window's "
            f"mean loss not 1 % below the previous one's): the memory cell joined "
            + (
                f"{len(joined)} of {len(members)} networks after a median of {int(np.median(joined)):,} "
                f"sequences ({int(joined.min()):,}–{int(joined.max()):,})"
                if len(joined)
                else f"none of the {len(members)} networks"
            )
        )
    at = np.array([mm["solved_at"] for mm in members if mm["status"] == "solved"], dtype=int)
    unsolved = [mm for mm in members if mm["status"] != "solved"]
    if unsolved:
        best = np.array([mm["best_streak"] for mm in unsolved])
        notes.append(
            f"unsolved networks: {'most fixed-set sequences right at one check' if by_set else 'best streak'}"
            f" median {int(np.median(best)):,}, max {int(best.max()):,} of {required:,}"
        )
    diverged = [mm for mm in members if mm["status"] == "diverged"]
    if diverged:
        notes.append(
            f"{len(diverged)} diverged: " + next((mm["message"] for mm in diverged if mm["message"]), "")
        )
    diags = [
        {"seed": mm["seed"], "status": mm["status"], "best_streak": mm["best_streak"], **mm["diagnostics"]}
        for mm in unsolved
        if mm.get("diagnostics")
    ]
    if diags:
        counts: dict[str, int] = {}
        for d in diags:
            for flag in d["flags"]:
                key = flag_key(flag)
                counts[key] = counts.get(key, 0) + 1
        notes.append(
            "diagnostics of the unsolved networks: "
            + (", ".join(f"{k} in {v}" for k, v in counts.items()) or "no symptom flagged")
        )
    wall = float(sum(r["wall"] for r in results))
    # units resumed from a state file written before machines were recorded have none
    machines = sorted({r["machine"] for r in results if r.get("machine")})
    ran_on = "; ".join(machines) + (
        " (some units: machine not recorded)"
        if machines and not all(r.get("machine") for r in results)
        else ""
    )
    return Outcome(
        name,
        preset.title + (f" ({_short(settings)})" if settings else ""),
        trials,
        len(at),
        len(diverged),
        float(np.median(at)) if len(at) else None,
        int(at.min()) if len(at) else None,
        int(at.max()) if len(at) else None,
        wall,
        cfg.budget,
        reduced,
        setup,
        preset.reported,
        preset.paper_sequences,
        cmd,
        notes,
        diags,
        ran_on,
    )


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


def _short(settings: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in settings.items() if k != "streak")


def main(argv: list[str] | None = None) -> int:
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
        rows = []
        for i, (name, trials, sets, reduced, budget) in enumerate(runs):
            size = args.chunk or (trials if workers <= 1 and not args.scheduler else -(-trials // workers))
            rows.append(
                (
                    name,
                    trials,
                    sets,
                    reduced,
                    budget,
                    units_for(
                        name,
                        trials,
                        sets,
                        reduced,
                        budget,
                        args.seed,
                        size,
                        row=i,
                        first_seed=args.first_seed,
                    ),
                )
            )
            print(_preset(name, sets).describe(reduced, budget) + "\n", flush=True)
        state = args.state or next(
            (f + ".units.jsonl" for f in (args.json, args.markdown) if f and f != "-"), None
        )
        from .distributed import RunReport, load_state, log_line, run_units  # noqa: PLC0415

        units = [u for row in rows for u in row[-1]]
        if args.summarise_only:
            # the rows whose units are all in the state file (e.g. while the run goes on elsewhere)
            if not state:
                raise ValueError(
                    "--summarise-only reads finished units from the state file: give --state FILE "
                    "(or --json / --markdown FILE, whose state file is FILE.units.jsonl)"
                )
            done = load_state(state)
            report = RunReport(results={u.key: done[u.key] for u in units if u.key in done})
            report.reused = len(report.results)
        else:
            report = run_units(
                units,
                workers=workers,
                scheduler=args.scheduler,
                state=state,
                progress=not args.no_progress,
                log=log_line,
            )
        lines = []
        for name, trials, sets, reduced, budget, row_units in rows:
            if not all(u.key in report.results for u in row_units):
                done = sum(u.key in report.results for u in row_units)
                print(f"{name}: {done} of {len(row_units)} units finished — not summarised", flush=True)
                _print_partial(name, trials, sets, reduced, budget, args, row_units, report)
                continue
            out = summarise(
                name,
                trials,
                sets,
                reduced,
                budget,
                args.seed,
                [report.results[u.key] for u in row_units],
                args.first_seed,
            )
            print(out.title + ": " + out.line(), flush=True)
            for d in out.diagnostics:
                print(
                    f"  unsolved seed {d['seed']} ({d['status']}, {_best(out, d)}): "
                    + diagnostics_summary(d),
                    flush=True,
                )
            print(flush=True)
            lines.append(out.markdown())
            if not report.interrupted:
                if args.markdown and args.markdown != "-":
                    append_markdown(args.markdown, out)
                if args.json:
                    write_json(args.json, [out])
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
