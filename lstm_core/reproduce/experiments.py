"""The reproduction command's work: the results table's set (``ALL_RUNS``), a table row as units of
work (``units_for``, ``run_unit``: N networks of a paper preset as one population), and a row's
``Outcome`` from its units' results (``summarise``). The command line is ``cli.py``
(``python -m lstm_core.experiments``).
"""

from __future__ import annotations

import dataclasses  # noqa: F401 — tests read experiments.dataclasses.fields(Outcome)
import time
from collections.abc import Callable

import numpy as np

from ..errors import CoreList, CoreText, Words, words_from_json, words_to_json
from ..tasks import Task
from ..training import Preset, TrainConfig, get_preset
from . import machine
from .diagnostics import diagnose, flag_key
from .results import Outcome

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


def preset_for(name: str, settings: dict | None) -> Preset:
    """The named preset with ``settings`` applied to its task (ValueError: a bad name or setting)."""
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
    preset = preset_for(spec["name"], spec.get("settings"))
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
            # the core's words, so a results file's note can be translated (lstm_core/errors.py)
            "message": words_to_json(message),
            "diagnostics": d,
        }
        for r, d, message in zip(res.itertuples(), diags, trainer.book.words)
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
    from .distributed import Unit

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
    preset = preset_for(name, settings)  # validates the name and task settings now
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


def _setup(preset: Preset, task: Task, cfg: TrainConfig, required: int, by_set: bool) -> str:
    """The row's setup in words: network, algorithm, task and criterion."""
    m = preset.model
    return (
        f"{m.variant}, {cfg.algorithm}, lr {cfg.lr:g}"
        + (f", momentum {cfg.momentum:g}" if cfg.momentum else "")
        + f"; {task.name} {_short(task.settings())}; criterion "
        + (f"all {required:,} {SET_CRITERION}" if by_set else f"{required:,} in a row")
    )


def _command(
    name: str,
    trials: int,
    settings: dict | None,
    reduced: bool,
    budget: int | None,
    seed: int,
    first_seed: int,
) -> str:
    """The command line that reproduces the row (recorded in every results file)."""
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
    return cmd


def _grow_note(grow_window: int, members: list[dict]) -> CoreText:
    """Sequential construction: when the memory cell joined the networks."""
    added = [mm.get("cells_added_at") for mm in members]
    joined = np.array([a for a in added if a is not None], dtype=int)
    if not len(joined):
        return CoreText(
            "sequential construction (the error stopped decreasing: a {window}-sequence window's mean loss "
            "not 1 % below the previous one's): the memory cell joined none of the {n} networks",
            window=format(grow_window, ","),
            n=len(members),
        )
    return CoreText(
        "sequential construction (the error stopped decreasing: a {window}-sequence window's mean loss not "
        "1 % below the previous one's): the memory cell joined {k} of {n} networks after a median of "
        "{median} sequences ({range})",
        window=format(grow_window, ","),
        k=len(joined),
        n=len(members),
        median=format(int(np.median(joined)), ","),
        range=format(int(joined.min()), ",") + "–" + format(int(joined.max()), ","),
    )


def _failure_notes(
    members: list[dict], required: int, by_set: bool
) -> tuple[list[Words], list[dict], list[dict]]:
    """Notes on the networks that did not solve it, the diverged ones, and the unsolved ones' diagnostics."""
    notes: list[Words] = []
    unsolved = [mm for mm in members if mm["status"] != "solved"]
    if unsolved:
        best = np.array([mm["best_streak"] for mm in unsolved])
        values = dict(
            median=format(int(np.median(best)), ","),
            max=format(int(best.max()), ","),
            of=format(required, ","),
        )
        notes.append(
            CoreText(
                "unsolved networks: most fixed-set sequences right at one check median {median}, max {max} "
                "of {of}",
                **values,
            )
            if by_set
            else CoreText("unsolved networks: best streak median {median}, max {max} of {of}", **values)
        )
    diverged = [mm for mm in members if mm["status"] == "diverged"]
    if diverged:
        first = next((mm["message"] for mm in diverged if mm["message"]), "")
        notes.append(CoreText("{k} diverged: {message}", k=len(diverged), message=words_from_json(first)))
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
            CoreText(
                "diagnostics of the unsolved networks: {symptoms}",
                symptoms=CoreList(
                    tuple(CoreText("{symptom} in {n}", symptom=CoreText(k), n=v) for k, v in counts.items())
                ),
            )
            if counts
            else CoreText("diagnostics of the unsolved networks: no symptom flagged")
        )
    return notes, diverged, diags


def _ran_on(results: list[dict]) -> str:
    # units resumed from a state file written before machines were recorded have none
    machines = sorted({r["machine"] for r in results if r.get("machine")})
    return "; ".join(machines) + (
        " (some units: machine not recorded)"
        if machines and not all(r.get("machine") for r in results)
        else ""
    )


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
    preset = preset_for(name, settings)
    members = [m for r in results for m in r["members"]]
    if len(members) != trials:
        raise ValueError(f"{name}: {len(members)} of {trials} networks have results")
    task = preset.build_task(reduced)
    cfg = preset.train_config(reduced, **({"budget": budget} if budget is not None else {}), seed=seed)
    required = cfg.streak or task.criterion.streak
    by_set = bool(task.criterion.check_every) and not cfg.streak  # judged on a fixed set (embedded Reber)
    notes: list[Words] = []
    if reduced and preset.reduced.get("note"):
        notes.append(CoreText("reduced: {note}", note=CoreText(preset.reduced["note"])))
    if preset.notes:
        notes.append(preset.notes)  # a registry text
    if cfg.grow_window:
        notes.append(_grow_note(cfg.grow_window, members))
    at = np.array([mm["solved_at"] for mm in members if mm["status"] == "solved"], dtype=int)
    failures, diverged, diags = _failure_notes(members, required, by_set)
    return Outcome(
        name,
        preset.title + (f" ({_short(settings)})" if settings else ""),
        trials,
        len(at),
        len(diverged),
        float(np.median(at)) if len(at) else None,
        int(at.min()) if len(at) else None,
        int(at.max()) if len(at) else None,
        float(sum(r["wall"] for r in results)),
        cfg.budget,
        reduced,
        _setup(preset, task, cfg, required, by_set),
        preset.reported,
        preset.paper_sequences,
        _command(name, trials, settings, reduced, budget, seed, first_seed),
        notes + failures,
        diags,
        _ran_on(results),
    )


def _short(settings: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in settings.items() if k != "streak")
