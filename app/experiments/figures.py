"""Figure and table builders of the Paper experiments page. Data in, figures/tables out.

``comparison_chart`` puts three sources on one log axis of "training sequences to criterion":
the paper's reported number, the reproduction command's trials (the baseline, read from the
results file) and the run made on this page — unsolved trials are drawn at their budget as
"✗", so a failure never looks like a success.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pandas as pd

from app.i18n import N_, _, current
from app.ui.figures import PALETTE, Chart, font_size, layout, make_figure
from lstm_core.reproduce.results import join_notes


def _fmt(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:,.0f}"


NOT_SOLVED_HOVER = N_("{n} not solved within %{{x:,.0f}}<extra></extra>")


def comparison_chart(
    *, paper: float | None, baseline: pd.DataFrame, here: dict | None, large: bool, title: str
) -> Chart:
    """Sequences to criterion: paper (◆), baseline median and range (●, bar), this run's trials."""
    rows, data = [], []
    m = 12 if large else 10
    if paper:
        rows.append(_("paper"))
        data.append(
            dict(
                type="scatter",
                x=[paper],
                y=[_("paper")],
                mode="markers",
                name=_("paper (reported)"),
                marker=dict(symbol="diamond", size=m + 4, color=PALETTE[6]),
                hovertemplate=_("paper: %{x:,.0f} sequences<extra></extra>"),
            )
        )
    for label, (_i, r) in zip(command_labels(baseline), baseline.iterrows()):
        rows.append(label)
        if r["median"] is not None and not (isinstance(r["median"], float) and math.isnan(r["median"])):
            data.append(
                dict(
                    type="scatter",
                    x=[r["median"]],
                    y=[label],
                    mode="markers",
                    name=_("reproduction command"),
                    marker=dict(symbol="circle", size=m + 2, color=PALETTE[0]),
                    error_x=dict(
                        type="data",
                        symmetric=False,
                        array=[r.high - r["median"]],
                        arrayminus=[r["median"] - r.low],
                        color=PALETTE[0],
                        thickness=2,
                    ),
                    hovertemplate=_(
                        "reproduction command, median %{{x:,.0f}} (range {low}–{high}), "
                        "{solved}/{trials} solved<extra></extra>"
                    ).format(low=_fmt(r.low), high=_fmt(r.high), solved=r.solved, trials=r.trials),
                )
            )
        if r.solved is not None and r.trials is not None and r.solved < r.trials and r.budget:
            data.append(
                dict(
                    type="scatter",
                    x=[r.budget],
                    y=[label],
                    mode="markers+text",
                    name=_("not solved"),
                    text=[f"✗ {r.trials - r.solved}"],
                    textposition="middle right",
                    marker=dict(symbol="x", size=m + 2, color=PALETTE[3]),
                    hovertemplate=_(NOT_SOLVED_HOVER).format(n=r.trials - r.solved),
                )
            )
    if here is not None:
        label = _("here {solved}/{trials}").format(solved=here['solved'], trials=here['trials']) + (
            "*" if here["reduced"] else ""
        )
        rows.append(label)
        at = np.array([v for v in here["solved_at"] if v is not None], dtype=float)
        if at.size:
            data.append(
                dict(
                    type="scatter",
                    x=at,
                    y=[label] * at.size,
                    mode="markers",
                    name=_("this page's trials"),
                    marker=dict(symbol="circle-open", size=m + 2, color=PALETTE[1], line=dict(width=2)),
                    hovertemplate=_("this trial: %{x:,.0f} sequences<extra></extra>"),
                )
            )
        failed = here["trials"] - at.size - here.get("running", 0)
        if failed > 0:
            data.append(
                dict(
                    type="scatter",
                    x=[here["budget"]],
                    y=[label],
                    mode="markers+text",
                    name=_("not solved"),
                    text=[f"✗ {failed}"],
                    textposition="middle right",
                    marker=dict(symbol="x", size=m + 2, color=PALETTE[3]),
                    hovertemplate=_(NOT_SOLVED_HOVER).format(n=failed),
                )
            )
    lay = layout(
        title=title,
        x=_("training sequences to criterion (log scale)"),
        y="",
        large=large,
        uirevision="exp-compare",
        height=120 + 45 * max(len(rows), 1),
        legend=False,
    )
    # One tick per decade; within less than a decade that can be one tick or none, so then 1, 2, 5
    # — written out in full (Plotly's own minor log ticks say "2" for 2,000).
    xs = [x for d in data for x in np.atleast_1d(d["x"]) if x and np.isfinite(x) and x > 0]
    lay["xaxis"].update(type="log", exponentformat="none")
    if xs:
        lo, hi = np.log10(min(xs)), np.log10(max(xs))
        steps = (1,) if hi - lo >= 1 else (1, 2, 5)
        ticks = [m * 10.0**e for e in range(int(np.floor(lo)) - 1, int(np.ceil(hi)) + 2) for m in steps]
        lay["xaxis"].update(
            tickmode="array",
            tickvals=ticks,
            ticktext=[f"{t:,.0f}" for t in ticks],
            # room on the right for the "✗ n" label next to a marker at the budget
            range=[lo - 0.08 * max(hi - lo, 0.3), hi + 0.18 * max(hi - lo, 0.3) + 0.05],
        )
    lay["yaxis"].update(categoryorder="array", categoryarray=rows[::-1], type="category")
    lay["hovermode"] = "closest"
    # room for the row labels (measured in characters of the tick font)
    lay["margin"].update(r=40, l=int(16 + 0.62 * font_size(large) * max((len(r) for r in rows), default=6)))
    parts = []
    if paper:
        parts.append(_("paper {n}").format(n=f"{paper:,.0f}"))
    for _i, r in baseline.iterrows():
        parts.append(
            _("reproduction command median {median} ({solved}/{trials} solved)").format(
                median=_fmt(r['median']), solved=r.solved, trials=r.trials
            )
        )
    if here is not None:
        med = np.median(at) if here is not None and at.size else None
        parts.append(
            _("this page median {median} ({solved}/{trials} solved)").format(
                median=_fmt(med), solved=here['solved'], trials=here['trials']
            )
        )
    alt = _("Dot chart: {title}. {numbers}.").format(
        title=title, numbers="; ".join(parts) if parts else _("no numbers yet")
    )
    return make_figure(dict(data=data, layout=lay)), alt


def command_labels(baseline: pd.DataFrame) -> list[str]:
    """One y-axis label per reproduction-command row: "command 1/10" (* = reduced); rows that would
    share a label (the same solved count) add what tells them apart — their task settings, else
    their budget, else their place — so no two rows are drawn on one line."""
    base = [
        _("command {solved}/{trials}").format(solved=r.solved, trials=r.trials) + ("*" if r.reduced else "")
        for _i, r in baseline.iterrows()
    ]
    settings = [
        _settings(s) if isinstance(s, dict) and s else ""
        for s in baseline.get("settings", [None] * len(base))
    ]
    budgets = [
        _("budget {n}").format(n=f"{b:,.0f}") if isinstance(b, (int, float)) and b == b else ""
        for b in baseline.get("budget", [None] * len(base))
    ]
    out = []
    for i, label in enumerate(base):
        same = [j for j, other in enumerate(base) if other == label]
        if len(same) == 1:
            out.append(label)
            continue
        for tell in (settings, budgets):
            if len({tell[j] for j in same}) == len(same) and tell[i]:
                out.append(f"{label} · {tell[i]}")
                break
        else:
            out.append(_("{label} · row {n}").format(label=label, n=same.index(i) + 1))
    return out


def comparison_table(*, preset: Any, baseline: pd.DataFrame, here: dict | None) -> pd.DataFrame:
    """Paper vs reproduction command vs this page, one row each (numbers only; see ``comparison_notes``)."""
    rows = [
        {
            "source": _("paper"),
            "trials solved": "—",
            "median sequences (range)": _fmt(preset.paper_sequences),
            "budget / network": "—",
            "wall time": "—",
        }
    ]
    for _i, r in baseline.iterrows():
        rows.append(
            {
                "source": _("reproduction command (REDUCED)") if r.reduced else _("reproduction command"),
                "trials solved": f"{r.solved}/{r.trials}",
                "median sequences (range)": (
                    f"{_fmt(r['median'])} ({_fmt(r.low)}–{_fmt(r.high)})" if r.solved else "—"
                ),
                "budget / network": _fmt(r.budget),
                "wall time": f"{_fmt(r.wall)} s",
            }
        )
    if here is not None:
        at = np.array([v for v in here["solved_at"] if v is not None], dtype=float)
        rng = f" ({at.min():,.0f}–{at.max():,.0f})" if at.size else ""
        rows.append(
            {
                "source": _("this page (REDUCED)") if here["reduced"] else _("this page"),
                "trials solved": f"{here['solved']}/{here['trials']}",
                "median sequences (range)": (_fmt(np.median(at)) + rng) if at.size else "—",
                "budget / network": _fmt(here["budget"]),
                "wall time": f"{here['wall']:.0f} s",
            }
        )
    return pd.DataFrame(rows).rename(columns=_header)


# the tables' column headers (the frames keep English keys; the headers are translated when built)
HEADERS = (
    N_("source"),
    N_("trials solved"),
    N_("median sequences (range)"),
    N_("budget / network"),
    N_("wall time"),
    N_("experiment"),
    N_("paper"),
    N_("paper: sequences"),
    N_("reproduction command"),
)


def _header(name: str) -> str:
    return _(name)


def comparison_notes(*, preset: Any, baseline: pd.DataFrame, here: dict | None) -> str:
    """What each row of ``comparison_table`` is, as markdown bullets."""
    out = [_("- **paper:** {reported}").format(reported=_(preset.reported))]
    for _i, r in baseline.iterrows():
        machine = r.get("machine")
        notes = _notes(r.notes)
        if isinstance(machine, str) and machine:
            notes = (_("{notes} (ran on {machine})") if notes else _("(ran on {machine})")).format(
                notes=notes, machine=machine
            )
        out.append(
            (
                _("- **reproduction command:** `{command}` — {notes}")
                if notes
                else _("- **reproduction command:** `{command}`")
            ).format(command=r.command, notes=notes)
        )
    if here is not None:
        out.append(_("- **this page:** {label}").format(label=here['label']))
    return "\n".join(out)


def gallery_table(presets: dict, results: pd.DataFrame) -> pd.DataFrame:
    """Every experiment: paper, reported, and the reproduction command's result if there is one."""
    rows = []
    for name, p in presets.items():
        r = results[results.name == name]
        ours = "; ".join(
            (
                _("{solved}/{trials} solved, median {median} (reduced)")
                if x.reduced
                else _("{solved}/{trials} solved, median {median}")
            ).format(solved=x.solved, trials=x.trials, median=_fmt(x['median']))
            + (f" [{_settings(x.settings)}]" if x.settings else "")
            for _i, x in r.iterrows()
        ) or _("not run yet")
        rows.append(
            {
                "experiment": _(p.title),
                "paper": _(p.paper),
                "paper: sequences": _fmt(p.paper_sequences),
                "reproduction command": ours,
            }
        )
    return pd.DataFrame(rows).rename(columns=_header)


def _settings(s: Any) -> str:
    return ", ".join(f"{k}={v}" for k, v in s.items()) if isinstance(s, dict) else str(s)


def _notes(notes: Any) -> str:
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
