"""Paper experiments page (Streamlit AppTest) and the results-file reader behind its baseline.

The baseline test writes a results table with ``lstm_core.reproduce.experiments``' own markdown writer
into a temporary docs folder and checks that the page shows exactly those numbers; the
"reproduce here" test compares the page's table with the same run made directly in the core.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

from app.experiments import results_file
from lstm_core.reproduce.results import MARKDOWN_HEADER, Outcome
from lstm_core.training import PRESETS

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"


def open_exp(cfg: dict | None = None, raw: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ENTRY), default_timeout=120)
    at.run()
    if cfg is not None or raw is not None:
        at.query_params["cfg"] = raw if raw is not None else json.dumps(cfg)
    at.switch_page("../pages/experiments.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def outcome(**kw) -> Outcome:
    base = dict(
        name="adding",
        title="Adding problem, T = 100",
        trials=10,
        solved=7,
        diverged=1,
        median=41234.0,
        low=30000,
        high=90000,
        wall=812.0,
        budget=100_000,
        reduced=False,
        setup="lstm1997, rtrl, lr 0.5",
        paper="solved | in all trials",
        paper_sequences=74000.0,
        command="python -m lstm_core.experiments adding --trials 10",
        notes=["1 diverged: member 3 ..."],
    )
    base.update(kw)
    return Outcome(**base)


def test_markdown_results_are_parsed_exactly(tmp_path):
    rows = [
        outcome(),
        outcome(
            name="long_lag_rnn",
            title="RNN (p=100)",
            solved=0,
            median=None,
            low=None,
            high=None,
            reduced=True,
            paper_sequences=None,
            diverged=0,
            notes=[],
            command="python -m lstm_core.experiments long_lag_rnn --trials 10 --set p=100 "
            "--budget 20000 --reduced",
        ),
    ]
    (tmp_path / "results.md").write_text(
        "# Results\n\n" + MARKDOWN_HEADER + "\n" + "\n".join(r.markdown() for r in rows)
    )
    frame, source = results_file.load(tmp_path)
    assert "results.md (2 runs)" in source
    a, b = frame.iloc[0], frame.iloc[1]
    assert (a["name"], a.trials, a.solved, a.diverged, a["median"], a.low, a.high, a.budget, a.wall) == (
        "adding",
        10,
        7,
        1,
        41234.0,
        30000.0,
        90000.0,
        100000.0,
        812.0,
    )
    assert not a.reduced and a.paper_sequences == 74000.0
    assert (b["name"], b.solved, b.reduced, b.settings) == ("long_lag_rnn", 0, True, {"p": 100})
    assert b["median"] is None or np.isnan(b["median"])


def test_json_results_are_preferred(tmp_path):
    (tmp_path / "results.md").write_text("nothing useful")
    (tmp_path / "results.json").write_text(json.dumps([{**outcome().__dict__, "notes": []}]))
    frame, source = results_file.load(tmp_path)
    assert "results.json" in source and frame.iloc[0].solved == 7


def test_missing_or_broken_results_never_raise(tmp_path):
    frame, source = results_file.load(tmp_path)
    assert frame.empty and "no results file yet" in source
    (tmp_path / "results.json").write_text("{broken")
    frame, source = results_file.load(tmp_path)
    assert frame.empty and "could not be read" in source


def test_default_page_shows_the_gallery_and_the_paper_setup():
    at = open_exp()
    assert not at.error
    gallery = at.dataframe[0].value
    assert len(gallery) == len(PRESETS)
    setup = " ".join(m.value for m in at.markdown)
    assert (
        "| model | lstm1997, 1 block(s)" in setup and "p = 100" in setup and "{" not in setup
    )  # no dict dump
    assert at.button(key="experiments.paper_size")  # the paper-size run, one click away
    at.button(key="experiments.paper_size").click().run()
    assert (
        at.toggle(key="experiments.reduced").value is False
        and at.number_input(key="experiments.budget").value == 5000
    )
    table = at.dataframe[1].value
    assert table.source.tolist()[0] == "paper"


def test_baseline_comes_from_the_results_file(tmp_path, monkeypatch):
    (tmp_path / "results.md").write_text(MARKDOWN_HEADER + "\n" + outcome().markdown() + "\n")
    monkeypatch.setattr(results_file, "DOCS", tmp_path)
    at = open_exp({"experiment": "adding"})
    table = at.dataframe[1].value
    row = table[table.source == "reproduction command"].iloc[0]
    assert row["trials solved"] == "7/10" and row["median sequences (range)"] == "41,234 (30,000–90,000)"
    spec = chart_specs(at)[0]
    xs = [x for t in spec["data"] for x in (t["x"] if isinstance(t["x"], list) else [])]
    assert 74000 in xs and 41234 in xs  # paper ◆ and baseline median ●


def test_reproduce_here_runs_to_completion_and_reports_the_core_numbers():
    cfg = {"experiment": "long_lag_rnn", "trials": 3, "budget": 40, "seed": 2}
    at = open_exp(cfg)
    at.button(key="experiments.run").click().run()
    for _ in range(60):
        if not at.get("progress"):
            break
        at.run()
    assert not at.exception and not at.get("progress")
    assert any(s.value.startswith("Finished in") for s in at.success)
    table = at.dataframe[1].value
    row = table[table.source.str.startswith("this page")].iloc[0]
    assert row.source == "this page (REDUCED)"
    assert any("**this page:**" in m.value and "REDUCED" in m.value for m in at.markdown)
    tr = PRESETS["long_lag_rnn"].trainer(trials=3, reduced=True, budget=40, seed=2, probe=False)
    while not tr.done:
        tr.train(40)
    res = tr.results()
    assert row["trials solved"] == f"{(res.status == 'solved').sum()}/3"
    assert row["budget / network"] == "40"


def test_url_round_trip_and_bad_query():
    at = open_exp({"experiment": "embedded_reber", "trials": 6, "reduced": False})
    assert at.selectbox(key="experiments.experiment").value == "embedded_reber"
    assert at.slider(key="experiments.trials").value == 6
    assert at.toggle(key="experiments.reduced").value is False
    at = open_exp({"experiment": "no_such_thing"})
    assert any("experiment" in e.value for e in at.error)


@pytest.mark.parametrize("cfg", [{"trials": 16, "budget": 20000, "experiment": "temporal_order_8"}])
def test_oversized_runs_are_refused(cfg):
    at = open_exp(cfg)
    assert any("timesteps per network" in e.value for e in at.error)
    assert at.button(key="experiments.run").disabled


def test_experiment_figures_pass_plotly_validation():
    import pandas as pd
    import plotly.graph_objects as go

    from app.experiments import figures as experiment_figures

    frame = results_file.parse_markdown(MARKDOWN_HEADER + "\n" + outcome().markdown())
    here = {
        "trials": 3,
        "solved": 1,
        "running": 0,
        "solved_at": [1200, None, None],
        "budget": 2000,
        "wall": 12.0,
        "reduced": True,
        "label": "x",
    }
    fig, alt = experiment_figures.comparison_chart(
        paper=74000.0, baseline=frame, here=here, large=True, title="t"
    )
    go.Figure(fig.to_dict())
    assert "paper 74,000" in alt and "1/3 solved" in alt
    table = experiment_figures.comparison_table(preset=PRESETS["adding"], baseline=frame, here=here)
    assert table.source.tolist() == ["paper", "reproduction command", "this page (REDUCED)"]
    assert isinstance(
        experiment_figures.gallery_table(PRESETS, pd.DataFrame(columns=results_file.COLUMNS)), pd.DataFrame
    )


def test_command_rows_with_the_same_count_are_drawn_on_lines_of_their_own():
    # three pairs of Reber sets, 1/10 each, and two adding budgets, 0/10 each: one line per command row
    from app.experiments import figures as ef

    md = (
        MARKDOWN_HEADER
        + "\n"
        + "\n".join(
            outcome(
                solved=1,
                command=f"python -m lstm_core.experiments embedded_reber_sets --trials 10 --set set_seed={s}",
            ).markdown()
            for s in range(3)
        )
        + "\n"
        + "\n".join(
            outcome(
                solved=0,
                median=None,
                low=None,
                high=None,
                budget=b,
                command=f"python -m lstm_core.experiments adding --budget {b}",
            ).markdown()
            for b in (100_000, 200_000)
        )
    )
    frame = results_file.parse_markdown(md)
    labels = ef.command_labels(frame)
    assert labels == [
        "command 1/10 · set_seed=0",
        "command 1/10 · set_seed=1",
        "command 1/10 · set_seed=2",
        "command 0/10 · budget 100,000",
        "command 0/10 · budget 200,000",
    ]
    fig, _ = ef.comparison_chart(paper=8440.0, baseline=frame, here=None, large=False, title="t")
    drawn = {y for tr in fig.data if tr.name in ("reproduction command", "not solved") for y in tr.y}
    assert drawn == set(labels)
    assert ef.command_labels(frame.iloc[:1]) == ["command 1/10"]  # a row of its own keeps the short label


def test_notes_from_the_results_file_are_sentences_not_a_python_list():
    from app.experiments import figures as ef

    base = pd.DataFrame(
        [{"command": "python -m lstm_core.experiments adding", "notes": ["1 diverged", "lr 0.5"]}]
    )
    text = ef.comparison_notes(preset=PRESETS["adding"], baseline=base, here=None)
    assert "1 diverged; lr 0.5" in text and "[" not in text and "'" not in text
    base["machine"] = ["AMD EPYC, OpenBLAS Haswell kernels, NumPy 2.4.6"]
    assert "lr 0.5 (ran on AMD EPYC, OpenBLAS Haswell kernels, NumPy 2.4.6)" in ef.comparison_notes(
        preset=PRESETS["adding"], baseline=base, here=None
    )


def test_the_page_reads_the_committed_results_of_the_reproduction_command():
    """The page's results file is the repository's docs/results.json (a wrong path once hid every
    baseline behind "no results file yet"): its rows reach the default page's comparison table."""
    assert results_file.DOCS == Path(__file__).resolve().parents[1] / "docs"
    committed = json.loads((results_file.DOCS / "results.json").read_text())
    names = {r["name"] for r in (committed["results"] if isinstance(committed, dict) else committed)}
    at = open_exp()
    table = at.dataframe[1].value
    shown = table[table.source.str.startswith("reproduction command")]
    assert at.session_state["experiments.experiment"] in names and len(shown) >= 1
    assert not any("no results file" in c.value for c in at.caption)


def test_a_narrow_range_of_sequences_still_gets_labelled_ticks():
    """Within less than a decade (e.g. 1,758–5,680) one tick per decade would leave one tick or
    none under the axis title: the chart then labels 1, 2 and 5 × powers of ten, written out in
    full (Plotly's own minor log ticks would say "2" for 2,000)."""
    from app.experiments import figures as experiment_figures

    here = {
        "trials": 4,
        "solved": 3,
        "running": 0,
        "solved_at": [1758, 2125, 3420, None],
        "budget": 5000,
        "wall": 1.0,
        "reduced": True,
        "label": "",
    }
    base = pd.DataFrame(columns=results_file.COLUMNS)
    fig, _ = experiment_figures.comparison_chart(paper=5680, baseline=base, here=here, large=False, title="t")
    shown = [t for t, v in zip(fig.layout.xaxis.ticktext, fig.layout.xaxis.tickvals) if 1758 <= v <= 5680]
    assert shown == ["2,000", "5,000"]
    fig, _ = experiment_figures.comparison_chart(
        paper=74000, baseline=base, here=here, large=False, title="t"
    )
    shown = [t for t, v in zip(fig.layout.xaxis.ticktext, fig.layout.xaxis.tickvals) if 1758 <= v <= 74000]
    assert shown == ["10,000"]


def test_every_preset_opens_on_the_page_with_its_comparison():
    # the page offers every preset: each one shows its comparison table and chart, no error
    at = open_exp()
    for name in PRESETS:
        at.selectbox(key="experiments.experiment").set_value(name).run()
        assert not at.exception and not at.error, (name, [e.value for e in at.error])
        table = at.dataframe[1].value
        assert table.source.tolist()[0] == "paper", name
        assert chart_specs(at), name  # the comparison chart is drawn


def test_choosing_an_experiment_with_long_sequences_lowers_the_budget_and_says_so():
    at = open_exp()
    assert at.number_input(key="experiments.budget").value == 3500
    at.selectbox(key="experiments.experiment").set_value("periodic_cos_f10_stream").run()
    assert not at.error
    cap = at.number_input(key="experiments.budget").value
    assert cap < 3500 and any("Budget lowered from 3,500 to" in i.value for i in at.info)
    # a budget typed over the cap afterwards is refused with a message, not silently lowered
    at.number_input(key="experiments.budget").set_value(cap + 500).run()
    assert at.number_input(key="experiments.budget").value == cap + 500
    assert any("Cannot use these run settings" in e.value for e in at.error)
