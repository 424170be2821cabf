"""The Paper experiments page's generated English in this session's language: a results row's notes
(the reproduction command's recurring phrases, a preset's texts) and a preset's setup table.

Pattern rules fill translated messages from the core's generated lines; in an English session
every text stays exactly the core's.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from app.i18n import N_, _, current
from lstm_core.reproduce.results import join_notes


def notes_line(notes: Any) -> str:
    """An outcome's notes (a list of sentences in the results file) as one line of text, each note in
    this session's language where it is a preset's text or one of the command's recurring phrases."""
    if notes is None or (isinstance(notes, float) and math.isnan(notes)):
        return ""
    if isinstance(notes, (list, tuple, np.ndarray)):
        if current() == "en":
            return join_notes(notes)
        parts = [note_text(str(n).strip()) for n in notes if str(n).strip()]
        return "；".join(
            n[:-1] if n.endswith(("。", ".")) and i < len(parts) - 1 else n for i, n in enumerate(parts)
        )
    return note_text(str(notes))


# Rules that translate the generated English of the core (the describe() lines of a preset, the
# reproduction command's notes): a pattern -> the message its named groups fill. Applied only in a
# session that is not English, so the English stays exactly the core's.
NOTE_RULES = (
    (r"reduced: (?P<note>.+)", N_("reduced: {note}")),
    (
        r"unsolved networks: best streak median (?P<median>[\d,]+), max (?P<max>[\d,]+) of (?P<of>[\d,]+)",
        N_("unsolved networks: best streak median {median}, max {max} of {of}"),
    ),
    (
        r"unsolved networks: most fixed-set sequences right at one check median (?P<median>[\d,]+), "
        r"max (?P<max>[\d,]+) of (?P<of>[\d,]+)",
        N_(
            "unsolved networks: most fixed-set sequences right at one check median {median}, max {max} of {of}"
        ),
    ),
    (
        r"diagnostics of the unsolved networks: no symptom flagged",
        N_("diagnostics of the unsolved networks: no symptom flagged"),
    ),
    (
        r"diagnostics of the unsolved networks: (?P<symptoms>.+)",
        N_("diagnostics of the unsolved networks: {symptoms}"),
    ),
    (
        r"sequential construction \(the error stopped decreasing: a (?P<window>[\d,]+)-sequence window's mean loss not "
        r"1 % below the previous one's\): the memory cell joined (?P<k>\d+) of (?P<n>\d+) networks after a median of "
        r"(?P<median>[\d,]+) sequences \((?P<range>[^)]*)\)",
        N_(
            "sequential construction (the error stopped decreasing: a {window}-sequence window's mean loss not 1 % below "
            "the previous one's): the memory cell joined {k} of {n} networks after a median of {median} sequences "
            "({range})"
        ),
    ),
    # the clauses of a diverged network's note (the trainer's stuck diagnosis) and of a timing remark
    (
        r"(?P<k>\d+) diverged: member (?P<m>\d+) \(seed (?P<seed>\d+)\) stopped in sequence (?P<at>[\d,]+): stuck — "
        r"saturated (?P<groups>.+) on a check sequence \(f′ ≈ 0, so almost no error flows back\)",
        N_(
            "{k} diverged: member {m} (seed {seed}) stopped in sequence {at}: stuck — saturated {groups} on a check "
            "sequence (f′ ≈ 0, so almost no error flows back)"
        ),
    ),
    (
        r"the outputs have been pinned for the last (?P<n>[\d,]+) sequences, so no weight can learn any more",
        N_("the outputs have been pinned for the last {n} sequences, so no weight can learn any more"),
    ),
    (
        r"the loss has not improved by 1 % for (?P<n>[\d,]+) sequences \(best (?P<best>[\d.]+)\)",
        N_("the loss has not improved by 1 % for {n} sequences (best {best})"),
    ),
    (
        r"wall time (?P<wall>[\d,]+) s includes ~(?P<m>\d+) min stopped \(SIGSTOP\) while the test suite was timed on "
        r"a quiet machine",
        N_(
            "wall time {wall} s includes ~{m} min stopped (SIGSTOP) while the test suite was timed on "
            "a quiet machine"
        ),
    ),
    (r"(?P<n>[\d,]+) s of CPU", N_("{n} s of CPU")),
)
# a diverged note's saturated groups ("input gate (100% of unit-steps), …") and its advice
SATURATED_GROUP = N_("{group} ({pct} of unit-steps)")
CLAUSES = (
    N_("try a smaller learning rate or init range"),
    N_("output units"),
    N_(
        "for LSTMs, more negative input/output gate biases keep cells from drifting into saturation (the 1997 "
        "paper's cure)"
    ),
    # a preset note as an older run recorded it (docs/results.json keeps what the command wrote then)
    N_(
        "the paper's lr 1e-5 and momentum 0.9999; the paper's stream protocol: a stream of 100 spikes stops (the "
        "net is reset) at its first step with abs error ≥ 0.49; solved = 1,000 spikes in a row (10 whole "
        "streams); budget and 'sequences' count streams (the paper allows up to 10,000,000)."
    ),
)
# a flag count in "diagnostics of the unsolved networks: state drift in 2, …"
SYMPTOM_COUNT = N_("{symptom} in {n}")
FLAGS = (
    N_("state drift"),
    N_("input gate shut at the relevant steps"),
    N_("output gate always open"),
    N_("output sits at the target mean"),
    N_("wrong answers pinned"),
)


def note_text(note: str) -> str:
    """One note of a results row in this session's language: a preset's text, one of the command's
    recurring phrases, or clauses ("; ") that all are; anything else stays as it is (recorded data)."""
    if current() == "en":
        return note
    whole = _note_text(note)
    if whole != note or "; " not in note:
        return whole
    clauses = [_note_text(c) for c in note.split("; ")]
    return "；".join(clauses) if all(c != o for c, o in zip(clauses, note.split("; "))) else note


def _note_text(note: str) -> str:
    end = "." if note.endswith(".") else ""
    for text in (note, note[:-1] if end else None):
        if text and _(text) != text:
            return _(text) + ("" if text == note else "。")
    for pattern, message in NOTE_RULES:
        m = re.fullmatch(pattern, note.rstrip("."))
        if m:
            groups = m.groupdict()
            if "note" in groups:
                groups["note"] = note_text(groups["note"])
            if "groups" in groups:
                groups["groups"] = "、".join(_saturated(x) for x in re.split(r"(?<=\)), ", groups["groups"]))
            if "symptoms" in groups:
                groups["symptoms"] = "、".join(_symptom_count(x) for x in groups["symptoms"].split(", "))
            return _(message).format(**groups)
    return note


def _saturated(text: str) -> str:
    m = re.fullmatch(r"(?P<group>.+) \((?P<pct>\d+%) of unit-steps\)", text)
    return _(SATURATED_GROUP).format(group=_(m["group"]), pct=m["pct"]) if m else _(text)


def _symptom_count(text: str) -> str:
    m = re.fullmatch(r"(?P<symptom>.+) in (?P<n>\d+)", text)
    return _(SYMPTOM_COUNT).format(symptom=_(m["symptom"]), n=m["n"]) if m else _(text)


# the parts of a preset's generated setup lines (model, training, criterion): words as they are …
SETUP_WORDS = (
    N_("no output gate"),
    N_("no peepholes"),
    N_("inputs → outputs"),
    N_("gate biases: "),
    N_("start values: "),
    N_(", without "),
    N_("cell-input bias"),
    N_("input-gate bias"),
    N_("output-gate bias"),
    N_("forget-gate bias"),
    N_("output-unit bias"),
    N_("recurrent connections"),
)
# … and patterns with numbers in them
SETUP_RULES = tuple((re.escape(w), w) for w in SETUP_WORDS) + (
    (r"(?P<blocks>\d+) block\(s\) × (?P<cells>\d+) cell\(s\)", N_("{blocks} block(s) × {cells} cell(s)")),
    (r"init ±(?P<range>[\d.e+-]+)", N_("init ±{range}")),
    (r"\b(?P<gate>input|output|forget|cell) (?=\[|-?\d|uniform )", "{gate} "),
    (r"uniform \[", N_("uniform [")),
    (r"; (?P<n>[\d,]+) trainable weights", N_("; {n} trainable weights")),
    (
        r"(?P<n>\d+) static \+ (?P<net>\d+) net-feedback \+ (?P<act>\d+) activation-feedback units",
        N_("{n} static + {net} net-feedback + {act} activation-feedback units"),
    ),
    (r"(?P<n>\d+) hidden units", N_("{n} hidden units")),
    (r"\blr (?P<lr>[\d.e+-]+)", N_("lr {lr}")),
    (r"\b(?P<fn>[gh])=identity\b", N_("{fn}=identity")),
    (r"momentum (?P<m>[\d.e+-]+)", N_("momentum {m}")),
    (r"batch (?P<n>\d+)", N_("batch {n}")),
    (r"budget (?P<n>[\d,]+) sequences per network", N_("budget {n} sequences per network")),
    (
        r"; the memory cells join when the error stops decreasing \(window (?P<n>[\d,]+) sequences\)",
        N_("; the memory cells join when the error stops decreasing (window {n} sequences)"),
    ),
    (r" — REDUCED to (?P<n>[\d,]+) in a row", N_(" — REDUCED to {n} in a row")),
)
GATE_WORDS = {
    "input": N_("input gate"),
    "output": N_("output gate"),
    "forget": N_("forget gate"),
    "cell": N_("cell input"),
}


def setup_text(text: str) -> str:
    """A generated setup line (model, training) in this session's language, part by part."""
    if current() == "en":
        return text

    def one(message: str):
        def fill(m: re.Match) -> str:
            groups = m.groupdict()
            if "gate" in groups:
                groups["gate"] = _(GATE_WORDS[groups["gate"]])
            return _(message).format(**groups)

        return fill

    for pattern, message in SETUP_RULES:
        text = re.sub(pattern, one(message), text)
    return text


SETUP_KEYS = {
    "task": N_("task"),
    "model": N_("model"),
    "training": N_("training"),
    "criterion": N_("criterion"),
    "notes": N_("notes"),
    "reduced": N_("reduced"),
}


def setup_markdown(preset: Any, reduced: bool = False) -> str:
    """The preset's setup as a small two-column table (task settings as "name = value", not a dict)."""
    task = preset.build_task(reduced)
    rows = {"task": f"{task.name}: " + ", ".join(f"{k} = {_value(v)}" for k, v in task.settings().items())}
    for line in preset.describe(reduced=reduced).splitlines()[2:]:
        key, _sep, text = line.strip().partition(":")
        if key in ("model", "training", "criterion", "notes", "reduced"):
            rows[key] = text.strip()
    if current() != "en":
        crit = task.criterion.description
        for key in rows:
            text = rows[key]
            if key in ("notes", "reduced"):
                rows[key] = _(text)
            elif key == "criterion" and text.startswith(crit):
                rows[key] = _(crit) + setup_text(text[len(crit) :])
            elif key != "task":
                rows[key] = setup_text(text)
    body = "\n".join(f"| {_(SETUP_KEYS[k])} | {v.replace('|', '/')} |" for k, v in rows.items())
    return _("| part | setup |") + "\n|---|---|\n" + body  # a named header: an empty one draws a blank row


def _value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(x) for x in v)
    return str(v)
