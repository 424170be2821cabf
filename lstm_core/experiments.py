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
import dataclasses
import json
import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from .training import PRESETS, get_preset

# The set behind the results table (docs/results.md, docs/results.json):
# (preset, trials, task settings, reduced, budget). The noise-free long-lag rows use the reduced
# criterion (1,000 correct in a row instead of 10,000; labelled) and one budget for LSTM and RNN.
ALL_RUNS: list[tuple[str, int, dict, bool, int | None]] = [
    ("long_lag", 10, {"p": 100}, True, 20_000),
    ("long_lag_rnn", 10, {"p": 4}, True, 20_000),
    ("long_lag_rnn", 10, {"p": 10}, True, 20_000),
    ("long_lag_rnn", 10, {"p": 100}, True, 20_000),
    ("long_lag_random", 10, {"p": 100}, True, 10_000),
    ("two_sequence_3a", 10, {}, False, 100_000),
    ("temporal_order_4", 10, {}, False, 60_000),
    ("adding", 10, {}, False, 100_000),
    ("embedded_reber", 10, {}, False, None),
    ("periodic_cos_f10", 10, {}, False, 2_000),
    ("periodic_cos_f10_lstm2000", 10, {}, False, 2_000),
    ("periodic_cos_f25", 10, {}, False, 2_000),
    ("periodic_cos_f25_lstm2000", 10, {}, False, 2_000),
    ("periodic_cos_f10", 10, {}, False, 20_000),
]


@dataclass
class Outcome:
    name: str
    title: str
    trials: int
    solved: int
    diverged: int
    median: float | None
    low: int | None
    high: int | None
    wall: float
    budget: int
    reduced: bool
    setup: str
    paper: str
    paper_sequences: float | None
    command: str
    notes: list[str] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return 100.0 * self.solved / self.trials

    def line(self) -> str:
        med = "—" if self.median is None else f"{self.median:,.0f} (range {self.low:,}–{self.high:,})"
        paper = f"; paper: {self.paper_sequences:,.0f}" if self.paper_sequences else ""
        div = f", {self.diverged} diverged" if self.diverged else ""
        red = "  [REDUCED]" if self.reduced else ""
        return (f"ours: {self.solved}/{self.trials} trials solved ({self.percent:.0f}%){div}; median sequences "
                f"to criterion {med}{paper}; budget {self.budget:,} per network; wall time {self.wall:.0f} s{red}")

    def markdown(self) -> str:
        med = "—" if self.median is None else f"{self.median:,.0f} ({self.low:,}–{self.high:,})"
        paper_n = f"{self.paper_sequences:,.0f}" if self.paper_sequences else "—"
        notes = "; ".join(self.notes)
        cells = [f"{self.title}" + (" **(reduced)**" if self.reduced else ""), self.setup, self.paper, paper_n,
                 f"{self.solved}/{self.trials} ({self.percent:.0f}%)", med, f"{self.budget:,}", f"{self.wall:.0f} s",
                 notes, f"`{self.command}`"]
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def append_markdown(path: str, out: Outcome) -> None:
    """Append ``out``'s table row to ``path``, starting the table (header) if the file has none."""
    text = ""
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
    with open(path, "a", encoding="utf-8") as f:
        if MARKDOWN_HEADER.splitlines()[0] not in text:
            f.write(("\n" if text and not text.endswith("\n") else "") + ("\n" if text else "")
                    + MARKDOWN_HEADER + "\n")
        f.write(out.markdown() + "\n")


def write_json(path: str, outcomes: list[Outcome]) -> None:
    """Add ``outcomes`` to the JSON results file ``path`` (a list of objects with Outcome's fields).

    An entry with the same command is replaced (re-running a command updates its row); the
    others are kept in order. A missing, empty or unreadable file starts a new list.
    """
    entries: list = []
    if os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as f:
                loaded = json.load(f)
            entries = loaded if isinstance(loaded, list) else []
        except (OSError, ValueError):
            entries = []
    for out in outcomes:
        d = dataclasses.asdict(out)
        d["percent"] = out.percent
        i = next((j for j, e in enumerate(entries) if isinstance(e, dict) and e.get("command") == out.command), None)
        if i is None:
            entries.append(d)
        else:
            entries[i] = d
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(entries, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


MARKDOWN_HEADER = ("| experiment | setup (ours) | paper reports | paper: sequences | ours: solved | ours: median "
                   "sequences to criterion (range) | budget / network | wall time | notes | command |\n"
                   "|---|---|---|---|---|---|---|---|---|---|")


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


def run_experiment(name: str, trials: int, settings: dict | None = None, reduced: bool = False,
                   budget: int | None = None, seed: int = 0, quiet: bool = False) -> Outcome:
    """Train ``trials`` networks of preset ``name`` as one population and summarise."""
    preset = get_preset(name)
    if settings:
        preset = preset.with_task(**settings)
    overrides = {"seed": seed, "probe": False}
    if budget is not None:
        overrides["budget"] = budget
    trainer = preset.trainer(trials=trials, reduced=reduced, **overrides)
    cfg = trainer.config
    if not quiet:
        print(preset.describe(reduced), flush=True)
    t0 = time.perf_counter()
    every = max(cfg.batch, min(cfg.budget // 20, 1000))
    last_print = t0
    for progress in trainer.run(report_every=every):
        now = time.perf_counter()
        if not quiet and (now - last_print > 30 or progress.done):
            last_print = now
            seen = np.asarray(progress.sequences)
            print(f"  … {now - t0:5.0f} s  sequences/network up to {seen.max():,}  "
                  f"{sum(s == 'solved' for s in progress.statuses)}/{trials} solved  "
                  f"streaks {np.asarray(progress.streak).tolist()}", file=sys.stderr, flush=True)
    wall = time.perf_counter() - t0
    res = trainer.results()
    solved = res[res.status == "solved"]
    at = solved.solved_at.astype(int).to_numpy()
    task = trainer.task
    m = trainer.model.config
    setup = (f"{m.variant}, {cfg.algorithm}, lr {cfg.lr:g}" + (f", momentum {cfg.momentum:g}" if cfg.momentum else "")
             + f"; {task.name} {_short(task.settings())}; criterion {trainer.required:,} in a row")
    cmd = f"python -m lstm_core.experiments {name} --trials {trials}"
    if settings:
        cmd += " --set " + " ".join(f"{k}={v}" for k, v in settings.items())
    if budget is not None:
        cmd += f" --budget {budget}"
    if reduced:
        cmd += " --reduced"
    if seed:
        cmd += f" --seed {seed}"
    notes = []
    if reduced and preset.reduced.get("note"):
        notes.append("reduced: " + preset.reduced["note"])
    if preset.notes:
        notes.append(preset.notes)
    unsolved = res[res.status != "solved"]
    if len(unsolved):
        notes.append(f"unsolved networks: best streak median {int(np.median(unsolved.best_streak)):,}, "
                     f"max {int(unsolved.best_streak.max()):,} of {trainer.required:,}")
    diverged = int((res.status == "diverged").sum())
    if diverged:
        notes.append(f"{diverged} diverged: " + next(msg for msg in res.message if msg))
    return Outcome(name, preset.title + (f" ({_short(settings)})" if settings else ""), trials, len(solved),
                   diverged, float(np.median(at)) if len(at) else None,
                   int(at.min()) if len(at) else None, int(at.max()) if len(at) else None,
                   wall, cfg.budget, reduced, setup, preset.reported, preset.paper_sequences, cmd, notes)


def _short(settings: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in settings.items() if k != "streak")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m lstm_core.experiments", description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="preset name(s); see --list")
    ap.add_argument("--trials", type=int, default=10, help="networks (seeds 0..N-1) trained as one population")
    ap.add_argument("--budget", type=int, default=None, help="training sequences per network (default: the preset's)")
    ap.add_argument("--reduced", action="store_true", help="apply the preset's documented reductions (labelled)")
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE", help="task settings, e.g. p=10")
    ap.add_argument("--seed", type=int, default=0, help="data seed")
    ap.add_argument("--markdown", nargs="?", const="-", default=None, metavar="FILE",
                    help="print a markdown table row (or append it to FILE)")
    ap.add_argument("--json", default=None, metavar="FILE",
                    help="add each run's outcome to the JSON results FILE (the app prefers it; same command replaces)")
    ap.add_argument("--all", action="store_true", help="run the results table's set (ALL_RUNS)")
    ap.add_argument("--list", action="store_true", help="list the presets")
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
        rows = []
        for name, trials, sets, reduced, budget in runs:
            out = run_experiment(name, trials, sets, reduced, budget, seed=args.seed)
            print(out.line() + "\n", flush=True)
            rows.append(out.markdown())
            if args.markdown and args.markdown != "-":
                append_markdown(args.markdown, out)
            if args.json:
                write_json(args.json, [out])
        if args.markdown == "-":
            print(MARKDOWN_HEADER)
            print("\n".join(rows))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
