"""The reproduction command's results: one ``Outcome`` per table row, written as a markdown row
(``append_markdown``) and into the JSON results file the app reads (``write_json``)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from dataclasses import dataclass, field

from ..errors import Words, words_from_json, words_to_json


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
    # sentences: the core's words (lstm_core/errors.py; str() is the English), so a page can translate
    # them; in the JSON file as words_to_json writes them (a plain string: a registry text, or an old file's)
    notes: list[Words] = field(default_factory=list)
    # per network that did not meet the criterion: {"seed", "status", "best_streak", and the
    # symptoms of lstm_core.diagnostics (input-gate openness, max |s|, h'(s), ...), "flags"}
    diagnostics: list[dict] = field(default_factory=list)
    # where it ran (lstm_core.machine.describe(); "; "-joined if units ran on different machines):
    # results repeat bit for bit on one kind of machine, not across CPUs. "" = not recorded.
    machine: str = ""

    @classmethod
    def from_dict(cls, d: dict) -> Outcome:
        """An outcome from a results-file entry (extra keys such as ``percent`` are ignored)."""
        names = {f.name for f in dataclasses.fields(cls)}
        out = cls(**{k: v for k, v in d.items() if k in names})
        if isinstance(out.notes, list):
            out.notes = [words_from_json(n) for n in out.notes]
        return out

    @property
    def first_seed(self) -> int:
        """The model seed of the first network (the command's ``--first-seed``, else 0)."""
        m = re.search(r"--first-seed (\d+)", self.command)
        return int(m.group(1)) if m else 0

    @property
    def percent(self) -> float:
        return 100.0 * self.solved / self.trials

    def line(self) -> str:
        med = "—" if self.median is None else f"{self.median:,.0f} (range {self.low:,}–{self.high:,})"
        paper = f"; paper: {self.paper_sequences:,.0f}" if self.paper_sequences else ""
        div = f", {self.diverged} diverged" if self.diverged else ""
        red = "  [REDUCED]" if self.reduced else ""
        return (
            f"ours: {self.solved}/{self.trials} trials solved ({self.percent:.0f}%){div}; median sequences "
            f"to criterion {med}{paper}; budget {self.budget:,} per network; wall time {self.wall:.0f} s{red}"
        )

    def _cells(self) -> dict[str, str]:
        """The table cells both tables share."""
        return {
            "title": self.title + (" **(reduced)**" if self.reduced else ""),
            "median": "—" if self.median is None else f"{self.median:,.0f} ({self.low:,}–{self.high:,})",
            "paper": f"{self.paper_sequences:,.0f}" if self.paper_sequences else "—",
            "budget": f"{self.budget:,}",
            "wall": f"{self.wall:.0f} s",
        }

    def markdown(self) -> str:
        c = self._cells()
        notes = self.notes + ([f"ran on {self.machine}"] if self.machine else [])
        return _row(
            [
                c["title"],
                self.setup,
                self.paper,
                c["paper"],
                f"{self.solved}/{self.trials} ({self.percent:.0f}%)",
                c["median"],
                c["budget"],
                c["wall"],
                join_notes(notes),
                f"`{self.command}`",
            ]
        )

    def summary(self) -> str:
        """Its line of the short results table (docs/reproducing.md) (``SUMMARY_HEADER``)."""
        c = self._cells()
        seeds = f"{self.first_seed}–{self.first_seed + self.trials - 1}"
        return _row(
            [
                c["title"],
                seeds,
                f"{self.solved}/{self.trials}",
                c["median"],
                c["paper"],
                c["budget"],
                c["wall"],
                self.machine or "not recorded",
            ]
        )


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


SUMMARY_HEADER = (
    "| experiment | seeds | ours: solved | ours: median sequences to criterion (range) | "
    "paper: sequences | budget / network | wall time | machine |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- |"
)


def summary_markdown(entries: list[dict]) -> str:
    """The short results table of a results file (docs/reproducing.md): one line per entry, in the file's order
    (``python -m lstm_core.reproduce.results docs/results.json`` prints it)."""
    return "\n".join([SUMMARY_HEADER] + [Outcome.from_dict(e).summary() for e in entries])


def join_notes(notes) -> str:
    """A row's notes (sentences) as one line: "; " between them, without a note's own final full stop
    before it (no ".;")."""
    parts = [str(n).strip() for n in notes if str(n).strip()]
    return "; ".join(n[:-1] if n.endswith(".") and i < len(parts) - 1 else n for i, n in enumerate(parts))


def append_markdown(path: str, out: Outcome) -> None:
    """Append ``out``'s table row to ``path``, starting the table (header) if the file has none."""
    text = ""
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
    with open(path, "a", encoding="utf-8") as f:
        if MARKDOWN_HEADER.splitlines()[0] not in text:
            f.write(
                ("\n" if text and not text.endswith("\n") else "")
                + ("\n" if text else "")
                + MARKDOWN_HEADER
                + "\n"
            )
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
        d["notes"] = [words_to_json(n) for n in out.notes]
        d["percent"] = out.percent
        i = next(
            (j for j, e in enumerate(entries) if isinstance(e, dict) and e.get("command") == out.command),
            None,
        )
        if i is None:
            entries.append(d)
        else:
            entries[i] = d
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(entries, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


MARKDOWN_HEADER = (
    "| experiment | setup (ours) | paper reports | paper: sequences | ours: solved | ours: median "
    "sequences to criterion (range) | budget / network | wall time | notes | command |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


if __name__ == "__main__":  # print the short results table (docs/reproducing.md) of a results file
    import sys

    with open(sys.argv[1] if len(sys.argv) > 1 else "docs/results.json", encoding="utf-8") as f:
        print(summary_markdown(json.load(f)))
