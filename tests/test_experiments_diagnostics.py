"""Why networks failed (issue 13): the failure diagnostics on the Paper experiments page.

Unit tests of ``app.experiments.diagnostics`` on synthetic rows and on every row of the committed
``docs/results.json``, then the page (Streamlit AppTest): an experiment whose baseline has
unsolved networks shows the section and its table with the file's numbers, one whose baseline
solved everything shows none, an older results file without diagnostics shows a note and no
error, and a finished "Reproduce here" run gets the same table, measured as the core measures it.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from test_experiments_page import open_exp, outcome

from app.experiments import diagnostics as why
from app.experiments import results_file
from app.ui import state
from lstm_core.reproduce import diagnostics as core
from lstm_core.reproduce.experiments import DIAGNOSTIC_STREAM
from lstm_core.training import PRESETS

COMMITTED = json.loads((results_file.DOCS / "results.json").read_text())
COMMITTED = COMMITTED["results"] if isinstance(COMMITTED, dict) else COMMITTED
WITH_DIAGS = [r for r in COMMITTED if r.get("diagnostics")]


def net(seed: int = 3, **kw) -> dict:
    """One network's diagnostics as the command stores them (flags from the core's own rule)."""
    d = {
        "ig_relevant": 0.5,
        "ig_other": 0.02,
        "s_max": 1.5,
        "hprime": 0.95,
        "og_mean": 0.6,
        "out_std_ratio": 1.0,
        "out_mean_gap": 0.01,
    }
    d.update(kw)
    d["flags"] = core.flags(d)
    return {"seed": seed, "status": "budget", "best_streak": 120, **d}


# --- the module -------------------------------------------------------------------------------


def test_a_healthy_network_is_a_row_without_symptoms():
    t = why.table([net()])
    assert list(t.columns) == list(why.COLUMNS) and len(t) == 1
    row = t.iloc[0]
    assert (row["seed"], row["status"], row["best streak"]) == ("3", "budget spent", "120")
    assert (row["input gate, info steps (y_ig)"], row["input gate, other steps (y_ig)"]) == ("0.50", "0.02")
    assert (row["max |s|"], row["mean h'(s) / h'(0)"], row["output gate (mean y_og)"]) == (
        "1.5",
        "95%",
        "0.60",
    )
    assert row["output spread / targets'"] == "100%" and row["symptoms"] == "none flagged"
    text = why.explanation([net()])
    assert "None of these networks shows a flagged symptom" in text and "best streak 120" in text


@pytest.mark.parametrize(
    "kw, words, means",
    [
        (dict(s_max=40.0, hprime=0.2), "state drift", "negative input-gate biases"),
        (dict(ig_relevant=0.03), "input gate shut at the info steps", "nothing was stored"),
        (dict(og_mean=0.97), "output gate always open (abuse)", "abuse problem"),
        (dict(out_std_ratio=0.05), "output at the target mean", "stored nothing"),
        (dict(pinned_wrong=1.0), "wrong answers pinned (saturated outputs)", "sends no error back"),
    ],
)
def test_each_flag_maps_to_its_words_and_its_explanation(kw, words, means):
    d = net(**kw)
    assert len(d["flags"]) == 1  # exactly this symptom, by the core's thresholds
    assert why.table([d]).iloc[0]["symptoms"] == words
    text = why.explanation([d, net(seed=4)])
    assert f"**{words[0].upper() + words[1:]}** (1 of 2)" in text and means in text
    assert "- 1 of 2 shows no flagged symptom" in text  # the healthy one


def test_the_drift_explanation_follows_the_measured_slope():
    """Where h saturates (h'(s) well below h'(0)) the drift blocks the error flow; where h stays
    linear (identity cell output, h'(s) = h'(0)) the words say so instead of claiming a flat h."""
    sat = why.explanation([net(s_max=38.0, hprime=0.19), net(seed=5, s_max=22.3, hprime=0.46)])
    assert (
        "max |s| = 22.3–38" in sat and "h'(s) at 19%–46% of h'(0)" in sat and "little error flows back" in sat
    )
    lin = why.explanation([net(s_max=29.2, hprime=1.0, ig_other=0.53)])
    assert "does not saturate" in lin and "0.53 at the other steps" in lin and "flattens" not in lin


def test_missing_numbers_show_a_dash_and_unknown_flags_their_own_words():
    d = {
        "seed": 1,
        "status": "diverged",
        "best_streak": 0,
        "ig_relevant": None,
        "ig_other": float("nan"),
        "s_max": 2.9e234,
        "hprime": None,
        "og_mean": None,
        "out_std_ratio": 0.0,
        "flags": ["output sits at the target mean (output spread 0% of the targets')", "something new: 3"],
    }
    row = why.table([d]).iloc[0]
    assert row["input gate, info steps (y_ig)"] == row["input gate, other steps (y_ig)"] == "—"
    assert row["max |s|"] == "2.90e+234" and row["symptoms"] == "output at the target mean; something new"
    text = why.explanation([d])
    assert "**Something new** (1 of 1)" in text and "1 of 1 diverged" in text


@pytest.mark.parametrize("value", [None, float("nan"), "x", [], [1, "no"]])
def test_a_row_without_diagnostics_renders_nothing(value):
    diags = why.members(value)
    assert diags == [] and why.explanation(diags) == "" and why.table(diags).empty


def test_results_without_a_diagnostics_key_read_as_none(tmp_path):
    (tmp_path / "results.json").write_text(
        json.dumps([{**outcome().__dict__, "notes": []} | {"diagnostics": None}])
    )
    old = {k: v for k, v in outcome().__dict__.items() if k != "diagnostics"}
    (tmp_path / "old.json").write_text(json.dumps([old]))
    for name in ("results.json", "old.json"):
        frame = results_file.parse_json((tmp_path / name).read_text())
        assert why.members(frame.iloc[0]["diagnostics"]) == []


@pytest.mark.parametrize("row", WITH_DIAGS, ids=lambda r: r["command"].split("experiments ")[1][:60])
def test_every_committed_row_with_diagnostics_renders(row):
    diags = why.members(row["diagnostics"])
    t = why.table(diags)
    assert len(t) == len(diags) == row["trials"] - row["solved"]
    assert t["seed"].tolist() == [f"{d['seed']:,}" for d in diags]
    assert (
        not t.isna().any().any()
        and not t.map(lambda v: "nan" in v.lower() or "none" == v.lower()).any().any()
    )
    text = why.explanation(diags)
    for d in diags:  # every flag's words, in the table and explained
        for flag in d["flags"]:
            key = why.flag_key(flag)
            assert why.SYMPTOMS[key] in t.loc[t.seed == f"{d['seed']:,}", "symptoms"].iloc[0]
            n = sum(key in why.symptoms(x) for x in diags)
            assert f"**{why._cap(why.SYMPTOMS[key])}** ({n} of {len(diags)})" in text
    assert why.heading(diags, row["trials"], row["command"]).startswith(
        f"`{row['command']}` — {len(diags)} of"
    )


def test_what_the_command_writes_is_what_the_page_renders(tmp_path):
    """The command's own --json output (a tiny run that solves nothing), read back by the page's
    reader: one table row per unsolved network, with the command's numbers."""
    from lstm_core.reproduce import cli

    js = tmp_path / "results.json"
    assert (
        cli.main(
            [
                "--workers",
                "1",
                "long_lag_rnn",
                "--trials",
                "2",
                "--budget",
                "20",
                "--set",
                "p=4",
                "--reduced",
                "--json",
                str(js),
                "--no-progress",
            ]
        )
        == 0
    )
    frame, _ = results_file.load(tmp_path)
    written = json.loads(js.read_text())[0]["diagnostics"]
    diags = why.members(frame.iloc[0]["diagnostics"])
    assert diags == written and len(diags) == 2 - frame.iloc[0].solved
    t = why.table(diags)
    assert t["seed"].tolist() == [str(d["seed"]) for d in diags]
    assert t["output spread / targets'"].tolist() == [f"{100 * d['out_std_ratio']:.0f}%" for d in diags]


def test_the_caption_says_what_and_where_from():
    text = why.caption("docs/results.json (21 runs)")
    assert "reproduction command's results file, docs/results.json" in text
    assert f"{why.BATCH} fresh sequences" in text and why.BATCH == 32
    for header in list(why.COLUMNS)[3:-1]:
        here, short = why.here_caption(0).lower(), why.here_caption(0, columns=False).lower()
        assert header in text and header in here and header not in short


# --- the page ---------------------------------------------------------------------------------


def section(at) -> list:
    return [s for s in at.subheader if s.value == "Why networks failed"]


@pytest.mark.parametrize("name", ["adding", "long_lag"])
def test_a_baseline_with_failures_shows_the_section_and_its_table(name):
    at = open_exp({"experiment": name})
    assert not at.error and section(at)
    row = next(r for r in COMMITTED if r["name"] == name and r.get("diagnostics"))
    table = next(t.value for t in at.table if "symptoms" in t.value.columns)
    pd.testing.assert_frame_equal(table.reset_index(drop=True), why.table(row["diagnostics"]))
    texts = [m.value for m in at.markdown]
    assert why.explanation(row["diagnostics"]) in texts
    assert any(c.value.startswith("From the reproduction command's results file") for c in at.caption)


def test_a_baseline_that_solved_everything_shows_no_section():
    at = open_exp({"experiment": "temporal_order_4", "budget": 2000})  # within the run cap: no error
    assert not at.error and not section(at)
    assert not at.table


def test_an_older_results_file_gets_a_note_not_an_error(tmp_path, monkeypatch):
    old = {k: v for k, v in outcome().__dict__.items() if k != "diagnostics"}
    (tmp_path / "results.json").write_text(json.dumps([old]))
    monkeypatch.setattr(results_file, "DOCS", tmp_path)
    at = open_exp({"experiment": "adding"})
    assert not at.exception and not at.error and not section(at)
    assert any(c.value.startswith("No failure diagnostics for the unsolved networks") for c in at.caption)


def test_presenting_folds_the_section_into_an_expander():
    at = open_exp({"experiment": "long_lag"})
    at.toggle(key=state.PRESENT_KEY).set_value(True).run()
    assert not at.exception and not section(at)
    assert any(e.label == "Why networks failed" for e in at.expander)


def test_a_finished_run_here_gets_the_table_measured_as_the_core_does():
    cfg = {"experiment": "long_lag_rnn", "trials": 3, "budget": 40, "seed": 2}
    at = open_exp(cfg)
    at.button(key="experiments.run").click().run()
    for _ in range(60):  # waits on the job's state, one tick per run
        if not at.get("progress"):
            break
        at.run()
    assert not at.exception and not at.get("progress")
    tr = PRESETS["long_lag_rnn"].trainer(trials=3, reduced=True, budget=40, seed=2, probe=False)
    while not tr.done:
        tr.train(40)
    res = tr.results()
    diags = core.diagnose(tr.model, tr.task, np.random.default_rng([2, DIAGNOSTIC_STREAM]))
    want = [
        {"seed": int(r.seed), "status": r.status, "best_streak": int(r.best_streak), **d}
        for r, d in zip(res.itertuples(), diags)
        if r.status != "solved"
    ]
    assert want  # 40 sequences: this run solves nothing
    texts = [m.value for m in at.markdown]
    assert why.heading(want, 3) in texts
    tables = [t.value for t in at.table if "symptoms" in t.value.columns]
    pd.testing.assert_frame_equal(tables[-1].reset_index(drop=True), why.table(want))
    assert any(c.value.startswith("Computed here when the run ended") for c in at.caption)
