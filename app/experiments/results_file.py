"""The reproduction command's results (``python -m lstm_core.experiments --all``), read from disk.

The Paper experiments page shows them as the baseline; it never re-runs them. A JSON file
(``docs/results.json``: a list of objects with the fields of ``lstm_core.reproduce.experiments.Outcome``)
is preferred when present; otherwise the markdown table the command appends to
``docs/results.md`` is parsed. A missing or unreadable file gives an empty table and a note.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pandas as pd

from app.i18n import _
from app.ui import paths
from lstm_core.errors import CoreList, CoreText, words_from_json
from lstm_core.numerics import finite_number

DOCS = paths.DOCS  # the repository's docs/ (or the installed copy)
COLUMNS = [
    "name",
    "title",
    "settings",
    "trials",
    "solved",
    "diverged",
    "median",
    "low",
    "high",
    "budget",
    "wall",
    "reduced",
    "paper_sequences",
    "command",
    "notes",
    "diagnostics",
    "machine",
]
# "diagnostics": per unsolved network, the command's failure diagnostics (JSON only; missing in
# older files and in the markdown table: None / NaN, see app.experiments.diagnostics.members);
# "machine": where the row ran (JSON only, newer rows; see lstm_core.reproduce.machine)


def _num(text: str) -> float | None:
    text = text.strip().replace(",", "").replace(" s", "")
    try:
        return float(text)
    except ValueError:
        return None


def _from_command(cmd: str) -> tuple[str | None, dict]:
    """Preset name and --set task settings of a reproduction command."""
    try:
        parts = shlex.split(cmd)
    except ValueError:
        return None, {}
    if "lstm_core.experiments" not in parts:
        return None, {}
    rest = parts[parts.index("lstm_core.experiments") + 1 :]
    name = rest[0] if rest and not rest[0].startswith("-") else None
    settings: dict = {}
    if "--set" in rest:
        for item in rest[rest.index("--set") + 1 :]:
            if item.startswith("--"):
                break
            if "=" in item:
                k, v = item.split("=", 1)
                num = _num(v)
                settings[k] = (
                    int(num)
                    if num is not None and num == int(num) and "." not in v
                    else (num if num is not None else v)
                )
    return name, settings


_ROW = re.compile(r"^\|(.+)\|\s*$")


def parse_markdown(text: str) -> pd.DataFrame:
    """The rows of the results table(s) in ``docs/results.md`` (header/separator rows skipped)."""
    rows = []
    for line in text.splitlines():
        m = _ROW.match(line.strip())
        if not m:
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", m.group(1))]
        if len(cells) < 10 or not cells[-1].startswith("`"):
            continue
        command = cells[-1].strip("`")
        name, settings = _from_command(command)
        if name is None:
            continue
        solved = re.match(r"\s*(\d{1,12})\s*/\s*(\d{1,12})\b", cells[4])
        med = re.match(r"\s*([\d,]+)\s*\(([\d,]+)\s*[–-]\s*([\d,]+)\)", cells[5])
        notes = cells[8]
        div = re.search(r"\b(\d{1,12}) diverged", notes)
        rows.append(
            {
                "name": name,
                "title": cells[0].replace("**(reduced)**", "").strip(),
                "settings": settings,
                "trials": int(solved.group(2)) if solved else None,
                "solved": int(solved.group(1)) if solved else None,
                "diverged": int(div.group(1)) if div else 0,
                "median": _num(med.group(1)) if med else None,
                "low": _num(med.group(2)) if med else None,
                "high": _num(med.group(3)) if med else None,
                "budget": _num(cells[6]),
                "wall": _num(cells[7]),
                "reduced": "(reduced)" in cells[0] or "--reduced" in command,
                "paper_sequences": _num(cells[3]),
                "command": command,
                "notes": notes,
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


NUMBERS = ("trials", "solved", "diverged", "median", "low", "high", "budget", "wall", "paper_sequences")
TEXTS = ("name", "title", "command", "machine")


def _checked(n: int, d: object) -> dict:
    """One row of a results.json as the page reads it, or ValueError naming the row and field."""
    if not isinstance(d, dict):
        raise ValueError(
            _("results[{n}] is {kind}, not an object with one run's fields").format(
                n=n, kind=type(d).__name__
            )
        )
    for k in NUMBERS:
        v = d.get(k)
        if v is not None and not finite_number(v):  # (a 400-digit integer is not: no float holds it)
            raise ValueError(
                _("results[{n}].{field} must be a finite number or null, got {value}").format(
                    n=n, field=k, value=repr(str(v)[:40])
                )
            )
    for k in TEXTS:
        if d.get(k) is not None and not isinstance(d[k], str):
            raise ValueError(
                _("results[{n}].{field} must be text, got {kind}").format(
                    n=n, field=k, kind=type(d[k]).__name__
                )
            )
    if not isinstance(d.get("reduced", False), bool):
        raise ValueError(_("results[{n}].reduced must be true or false").format(n=n))
    if not isinstance(d.get("settings", {}), (dict, type(None))):
        raise ValueError(_("results[{n}].settings must be an object of task settings").format(n=n))
    if not _notes_ok(d.get("notes")):
        raise ValueError(_("results[{n}].notes must be text or a list of sentences").format(n=n))
    diags = d.get("diagnostics")
    if diags is not None and not (isinstance(diags, list) and all(isinstance(x, dict) for x in diags)):
        raise ValueError(
            _("results[{n}].diagnostics must be a list of objects (one per unsolved network)").format(n=n)
        )
    return d


def _notes_ok(notes: Any) -> bool:
    """Notes are text, or a list of sentences: each text or the core's words as the reproduction
    command writes them (``lstm_core.errors.words_to_json``), whose templates name only their values."""
    if notes is None or isinstance(notes, str):
        return True
    if not isinstance(notes, list):
        return False
    try:
        return all(isinstance(words_from_json(x), (str, CoreText, CoreList)) for x in notes)
    except (ValueError, RecursionError):
        return False


def parse_json(text: str) -> pd.DataFrame:
    """The rows of ``docs/results.json``; ValueError saying which row or field is damaged."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(_("the JSON is nested too deeply to be a results file")) from None
    except ValueError as e:  # JSONDecodeError, or an integer of over 4,300 digits
        raise ValueError(_("it is not valid JSON ({why})").format(why=str(e)[:80])) from None
    if isinstance(data, dict):
        data = data.get("results", [])
    if not isinstance(data, list):
        raise ValueError(_("a results file is a JSON list of runs (or an object with a 'results' list)"))
    rows = []
    for n, d in enumerate(data):
        d = _checked(n, d)
        name, settings = _from_command(d.get("command") or "")
        rows.append(
            {
                "name": d.get("name", name),
                "title": d.get("title") or "",
                "settings": d.get("settings", settings),
                **{k: d.get(k) for k in COLUMNS[3:] if k != "settings"},
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def load(docs: Path | None = None) -> tuple[pd.DataFrame, str]:
    """(results, where they came from / why there are none). Never raises: a damaged file gives
    an empty table and a note saying what is wrong with it."""
    docs = DOCS if docs is None else docs
    for path, parse in ((docs / "results.json", parse_json), (docs / "results.md", parse_markdown)):
        if path.is_file():
            try:
                frame = parse(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:  # UnicodeDecodeError is a ValueError
                return pd.DataFrame(columns=COLUMNS), _("{file} could not be read ({why})").format(
                    file=path.name, why=e
                )
            return frame, _("{file} ({n} runs)").format(file=path.relative_to(docs.parent), n=len(frame))
    return pd.DataFrame(columns=COLUMNS), _(
        "no results file yet (docs/results.json or docs/results.md); run "
        "`python -m lstm_core.experiments --all --markdown docs/results.md`"
    )


def for_preset(results: pd.DataFrame, name: str) -> pd.DataFrame:
    return results[results.name == name]
