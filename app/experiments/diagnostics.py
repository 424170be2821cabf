"""Why networks failed: the failure diagnostics of the Paper experiments page, as data.

The reproduction command (``python -m lstm_core.experiments``) stores, for every network of a
row that did not meet the criterion, the symptoms ``lstm_core.reproduce.diagnostics.diagnose`` measured on
fresh sequences after training (``docs/results.json``, key ``diagnostics``). This module turns
such a list into a per-network table and a few sentences that explain the flagged symptoms —
every number and every word comes from the list, nothing is written per experiment. Pure
functions (pandas in, pandas / markdown out); the page draws them.

    diags = members(row["diagnostics"])      # [] for a row without diagnostics (older files)
    table(diags)                             # one row per network
    explanation(diags)                       # markdown bullets, one per flagged symptom
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import pandas as pd

from app.i18n import N_, _
from lstm_core.reproduce import diagnostics as core

# The sequences ``diagnose`` runs by default (what the command used): read from its signature so
# the caption follows the code instead of repeating a number.
BATCH: int = inspect.signature(core.diagnose).parameters["batch"].default

COLUMNS = {  # column header -> what the cell holds (the caption repeats it in words)
    N_("seed"): N_("model seed"),
    N_("status"): N_("why training ended"),
    N_("best streak"): N_(
        "longest run of correct sequences while training (with a fixed-set criterion: the most of "
        "the set's sequences right at one check)"
    ),
    N_("input gate, info steps (y_ig)"): N_(
        "openness of the most open input gate (mean y_ig) at the steps that carry the information to store"
    ),
    N_("input gate, other steps (y_ig)"): N_("the same at all other steps"),
    N_("max |s|"): N_("largest magnitude of the internal cell state s"),
    N_("mean h'(s) / h'(0)"): N_(
        "mean slope of the cell output function h at s, as a share of its slope at s = 0 (100% = unsaturated)"
    ),
    N_("output gate (mean y_og)"): N_("mean output-gate openness"),
    N_("output spread / targets'"): N_(
        "spread (std) of the outputs over the sequences at the steps with a target, as "
        "a share of the targets' spread (≈ 0%: the output sits at the target mean)"
    ),
    N_("symptoms"): N_("the flags raised"),
}

# Flag key (``lstm_core.reproduce.diagnostics.flag_key``, as ``lstm_core.reproduce.experiments.summarise`` counts them)
# -> the symptom's short name in the table. A flag not listed here is shown with its own key.
SYMPTOMS = {
    "state drift": N_("state drift"),
    "input gate shut at the relevant steps": N_("input gate shut at the info steps"),
    "output gate always open": N_("output gate always open (abuse)"),
    "output sits at the target mean": N_("output at the target mean"),
    "wrong answers pinned": N_("wrong answers pinned (saturated outputs)"),
}

# Mean h'(s)/h'(0) below this: h saturates at the drifted state (h1997, tanh); at or above it h
# is (close to) linear — an identity cell output — and the drift does its harm another way.
SATURATED = 0.95

STATUS = {
    "budget": N_("budget spent"),
    "diverged": N_("diverged"),
    "interrupted": N_("interrupted"),
    "running": N_("stopped"),
}


def members(diagnostics: Any) -> list[dict]:
    """A results row's per-network diagnostics; [] when there are none (a results file written
    before diagnostics existed, a markdown table, every network solved) or they are malformed."""
    if not isinstance(diagnostics, (list, tuple)):
        return []
    return [d for d in diagnostics if isinstance(d, dict)]


flag_key = core.flag_key  # the symptom a flag names, as the command counts them


def symptoms(d: dict) -> list[str]:
    """The symptom keys of one network's flags, in flag order."""
    flags = d.get("flags")
    return [flag_key(f) for f in flags] if isinstance(flags, (list, tuple)) else []


def _value(d: dict, key: str) -> float | None:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(float(v)):
        return None
    return float(v)


def _fmt(v: float | None, kind: str) -> str:
    """One cell: '—' where the network has no such number (no output gate, no information step)."""
    if v is None:
        return "—"
    if kind == "gate":
        return f"{v:.2f}"
    if kind == "pct":
        return f"{100 * v:.0f}%"
    if kind == "int":
        return f"{v:,.0f}"
    if abs(v) >= 1e6:  # a diverged state: keep the cell narrow
        return f"{v:.2e}"
    return f"{v:.3g}" if abs(v) < 1000 else f"{v:,.0f}"


def table(diags: list[dict]) -> pd.DataFrame:
    """One row per network: its seed, status, best streak, the measured numbers and its symptoms."""
    rows = []
    for d in diags:
        names = [_(SYMPTOMS.get(k, k)) for k in symptoms(d)]
        rows.append(
            dict(
                zip(
                    COLUMNS,
                    [
                        _fmt(_value(d, "seed"), "int"),
                        _(STATUS.get(str(d.get("status")), str(d.get("status", "—")))),
                        _fmt(_value(d, "best_streak"), "int"),
                        _fmt(_value(d, "ig_relevant"), "gate"),
                        _fmt(_value(d, "ig_other"), "gate"),
                        _fmt(_value(d, "s_max"), "num"),
                        _fmt(_value(d, "hprime"), "pct"),
                        _fmt(_value(d, "og_mean"), "gate"),
                        _fmt(_value(d, "out_std_ratio"), "pct"),
                        "; ".join(names) or _("none flagged"),
                    ],
                )
            )
        )
    return pd.DataFrame(rows, columns=list(COLUMNS)).rename(columns=_header)


def _header(name: str) -> str:
    return _(name)


def _range(values: list[float | None], kind: str) -> str:
    """'29.2' or '25.5–32.4' (formatted as in the table); '—' if no network has the number."""
    vs = [v for v in values if v is not None]
    if not vs:
        return "—"
    lo, hi = _fmt(min(vs), kind), _fmt(max(vs), kind)
    return lo if lo == hi else f"{lo}–{hi}"


def _drift(hit: list[dict]) -> str:
    s = _range([_value(d, "s_max") for d in hit], "num")
    hp = [_value(d, "hprime") for d in hit]
    if any(v is not None and v < SATURATED for v in hp):
        # h saturates: its slope at the drifted state is what blocks the error (the paper's argument)
        blocked = any(v is not None and v < core.DRIFT_HPRIME for v in hp)
        out = (
            _(
                "the internal state grew to max |s| = {s}, where the cell output h flattens (mean h'(s) at {hp} of "
                "h'(0)), so little error flows back into the cell and it cannot learn what to store."
            )
            if blocked
            else _(
                "the internal state grew to max |s| = {s}, where the cell output h flattens (mean h'(s) at {hp} of "
                "h'(0)), so less error flows back into the cell."
            )
        ).format(s=s, hp=_range(hp, 'pct'))
    else:
        # h does not saturate (an identity cell output): the drift swamps the stored value instead
        ig = [_value(d, "ig_other") for d in hit]
        slope, gate = any(v is not None for v in hp), any(v is not None for v in ig)
        out = {
            (True, True): _(
                "the internal state grew to max |s| = {s}; h'(s) stays at {hp} of h'(0) here (h does "
                "not saturate), but the state sums all the input gate lets in (mean y_ig {ig} at the "
                "other steps) and buries the one value worth storing."
            ),
            (True, False): _(
                "the internal state grew to max |s| = {s}; h'(s) stays at {hp} of h'(0) here (h does "
                "not saturate), but the state sums all the input gate lets in and buries the one "
                "value worth storing."
            ),
            (False, True): _(
                "the internal state grew to max |s| = {s}; the state sums all the input gate lets in "
                "(mean y_ig {ig} at the other steps) and buries the one value worth storing."
            ),
            (False, False): _(
                "the internal state grew to max |s| = {s}; the state sums all the input gate lets in "
                "and buries the one value worth storing."
            ),
        }[(slope, gate)]
        out = out.format(s=s, hp=_range(hp, 'pct'), ig=_range(ig, 'gate'))
    return out + _(
        " The 1997 paper's remedy: negative input-gate biases, so the gate starts nearly shut and s stays "
        "small."
    )


def _shut(hit: list[dict]) -> str:
    ig = _range([_value(d, "ig_relevant") for d in hit], "gate")
    return _(
        "the input gate stayed nearly closed (mean y_ig {ig}) exactly at the steps that carry the information, "
        "so nothing was stored."
    ).format(ig=ig)


def _abuse(hit: list[dict]) -> str:
    og = _range([_value(d, "og_mean") for d in hit], "gate")
    return _(
        "the output gate is open almost all the time (mean y_og {og}): the cell's output is never gated — the "
        "1997 paper's abuse problem, a cell used as a constant bias unit instead of a memory (its remedy: "
        "negative, staggered output-gate biases)."
    ).format(og=og)


def _mean(hit: list[dict]) -> str:
    r = _range([_value(d, "out_std_ratio") for d in hit], "pct")
    return _(
        "the outputs hardly vary from sequence to sequence (spread {r} of the targets'): the net answers every "
        "sequence with the target mean, the least-squares answer of a net that stored nothing."
    ).format(r=r)


def _pinned(hit: list[dict]) -> str:
    r = _range([_value(d, "pinned_wrong") for d in hit], "pct")
    return _(
        "{r} of the clearly wrong outputs come from output units driven deep into saturation (σ'(net) < "
        "{slope}): such an answer sends no error back, so nothing can correct it. Seen in the paper's 2a net "
        "here: a cell used as a bias unit pushed the units that must answer at the last step far below 0 (the "
        "abuse problem; an output bias or an output gate with a negative bias are the paper's remedies)."
    ).format(r=r, slope=f"{core.PINNED_SLOPE:g}")


EXPLAIN = {
    "state drift": _drift,
    "input gate shut at the relevant steps": _shut,
    "output gate always open": _abuse,
    "output sits at the target mean": _mean,
    "wrong answers pinned": _pinned,
}


def explanation(diags: list[dict]) -> str:
    """Markdown bullets: per flagged symptom, how many networks show it and what it means, with
    the measured ranges; a line for the networks that show none. Empty for no networks."""
    if not diags:
        return ""
    n = len(diags)
    keys: list[str] = []
    for d in diags:
        keys += [k for k in symptoms(d) if k not in keys]
    out = []
    for k in keys:
        hit = [d for d in diags if k in symptoms(d)]
        what = EXPLAIN[k](hit) if k in EXPLAIN else _("see the flags in the table.")
        out.append(
            _("- **{symptom}** ({k} of {n}): {what}").format(
                symptom=_cap(_(SYMPTOMS.get(k, k))), k=len(hit), n=n, what=what
            )
        )
    diverged = [d for d in diags if d.get("status") == "diverged"]
    if diverged:
        # the numbers of a diverged net describe the weights where training stopped, not a trained net
        out.append(
            _(
                "- {k} of {n} diverged (training stopped at a non-finite value): their numbers describe the "
                "weights at the stop."
            ).format(k=len(diverged), n=n)
        )
    clean = [d for d in diags if not symptoms(d)]
    if clean:
        streak = _range([_value(d, "best_streak") for d in clean], "int")
        if len(clean) == n:
            line = (
                _(
                    "- None of these networks shows a flagged symptom: gates, state and output spread look healthy; "
                    "they just did not reach the criterion within the budget (best streak {streak})."
                )
                if n > 1
                else _(
                    "- None of these networks shows a flagged symptom: gates, state and output spread look healthy; "
                    "it just did not reach the criterion within the budget (best streak {streak})."
                )
            )
        else:
            line = (
                _(
                    "- {k} of {n} show no flagged symptom: gates, state and output spread look healthy; they just "
                    "did not reach the criterion within the budget (best streak {streak})."
                )
                if len(clean) > 1
                else _(
                    "- {k} of {n} shows no flagged symptom: gates, state and output spread look healthy; it just "
                    "did not reach the criterion within the budget (best streak {streak})."
                )
            )
        out.append(line.format(k=len(clean), n=n, streak=streak))
    return "\n".join(out)


def heading(diags: list[dict], trials: Any = None, command: str | None = None) -> str:
    """The line above a table: which run (a reproduction command, or this page's run when
    ``command`` is None), and how many of its networks failed."""
    of = isinstance(trials, (int, float)) and not isinstance(trials, bool) and not math.isnan(float(trials))
    who = f"`{command}`" if command else _("This page's run")
    one = len(diags) == 1
    line = {
        (True, False): _("{who} — {k} of {trials} networks did not meet the criterion:"),
        (True, True): _("{who} — {k} of {trials} network did not meet the criterion:"),
        (False, False): _("{who} — {k} networks did not meet the criterion:"),
        (False, True): _("{who} — {k} network did not meet the criterion:"),
    }[(of, one)]
    return line.format(who=who, k=len(diags), trials=int(trials) if of else "")


def caption(source: str) -> str:
    """What the baseline tables show and where the numbers come from."""
    return _(
        "From the reproduction command's results file, {source}: for every network that did not meet the "
        "criterion, the command ran {batch} fresh sequences through the trained network (no learning) and "
        "measured: {columns}. — : not measured for this network (no such gate, or no step of this task carries "
        "information to store)."
    ).format(source=source, batch=BATCH, columns=_columns_in_words())


def here_caption(seed: int, columns: bool = True) -> str:
    """What the table of this page's run shows (computed here, the same way as the command's);
    ``columns=False`` when the command's table above already explained the columns."""
    return (
        _(
            "Computed here when the run ended, the same way as the command's: {batch} fresh sequences (data seed "
            "{seed}, the diagnostics' own stream) through each network that did not meet the criterion, no "
            "learning."
        ).format(batch=BATCH, seed=seed)
        + " "
        + (_cap(_columns_in_words()) + ". " if columns else _("Columns as in the table above.") + " ")
        # the flags describe a state: after a short run they can just mean "not trained yet"
        + _(
            "After a short run the symptoms may only say the networks have not learnt yet: an untrained net "
            "with negative input-gate biases has its input gates nearly shut and answers with the target mean."
        )
    )


def _cap(text: str) -> str:
    """First letter upper case (str.capitalize would lower-case the rest: y_og, h'(0), names)."""
    return text[:1].upper() + text[1:]


def _columns_in_words() -> str:
    return "; ".join(f"{_(k)}: {_(v)}" for k, v in list(COLUMNS.items())[3:-1])


def missing_note(command: str, source: str) -> str:
    """A row with unsolved networks but no diagnostics (an older results file, or the markdown table)."""
    return _(
        "No failure diagnostics for the unsolved networks of `{command}` in {source} (an older results "
        "file): the command records them in its JSON results file (`{command} --json docs/results.json`)."
    ).format(command=command, source=source)
