"""The reproduction command's outputs: ``--json`` and ``--markdown`` files the app reads back."""

from __future__ import annotations

import json

from app.experiments import results_file
from lstm_core.reproduce import cli, experiments, results

ARGS = ["--workers", "1", "long_lag_rnn", "--trials", "2", "--budget", "20", "--set", "p=4", "--reduced"]


def test_json_file_is_written_replaced_by_command_and_loaded_by_the_app(tmp_path, capsys):
    js, md = tmp_path / "results.json", tmp_path / "results.md"
    assert cli.main(ARGS + ["--json", str(js), "--markdown", str(md)]) == 0
    data = json.loads(js.read_text())
    assert len(data) == 1
    row = data[0]
    assert (
        row["name"] == "long_lag_rnn"
        and row["trials"] == 2
        and row["budget"] == 20
        and row["reduced"] is True
    )
    assert row["command"] == (
        "python -m lstm_core.experiments long_lag_rnn --trials 2 --set p=4 --budget 20 --reduced"
    )
    assert set(row) >= {f.name for f in experiments.dataclasses.fields(experiments.Outcome)}
    # a second command is appended; re-running the first replaces its entry instead of duplicating it
    assert (
        cli.main(
            [
                "long_lag_rnn",
                "--trials",
                "2",
                "--budget",
                "10",
                "--set",
                "p=4",
                "--reduced",
                "--json",
                str(js),
            ]
        )
        == 0
    )
    assert cli.main(ARGS + ["--json", str(js)]) == 0
    data = json.loads(js.read_text())
    assert [d["budget"] for d in data] == [20, 10]
    frame, source = results_file.load(tmp_path)
    assert "results.json (2 runs)" in source
    assert frame.iloc[0]["name"] == "long_lag_rnn" and frame.iloc[0].settings == {"p": 4}
    assert frame.iloc[0].solved == row["solved"] and bool(frame.iloc[0].reduced)
    # the markdown row of the same run says the same
    md_frame = results_file.parse_markdown(md.read_text())
    assert md_frame.iloc[0].solved == row["solved"] and md_frame.iloc[0].budget == 20


def test_unreadable_json_file_starts_a_new_list(tmp_path):
    js = tmp_path / "results.json"
    js.write_text("{broken")
    assert cli.main(ARGS + ["--json", str(js)]) == 0
    assert len(json.loads(js.read_text())) == 1


def test_markdown_file_gets_the_table_header_once(tmp_path):
    md = tmp_path / "results.md"
    md.write_text("# Results\n\nHow they were produced.")
    for _ in range(2):
        assert cli.main(ARGS + ["--markdown", str(md)]) == 0
    text = md.read_text()
    assert text.count(results.MARKDOWN_HEADER) == 1 and text.startswith("# Results")
    assert "produced.\n\n| experiment" in text
    frame = results_file.parse_markdown(text)
    assert len(frame) == 2 and frame.iloc[1]["name"] == "long_lag_rnn"


def test_all_runs_are_valid_presets_with_at_least_ten_trials():
    from lstm_core.training import get_preset

    for name, trials, settings, reduced, budget in experiments.ALL_RUNS:
        preset = get_preset(name)
        if settings:
            preset = preset.with_task(**settings)  # raises on a bad setting
        assert trials >= 10 and (budget is None or budget >= 1)
        assert isinstance(reduced, bool)


def test_header_shows_the_budget_and_unsolved_networks_get_diagnostics(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert (
        cli.main(
            [
                "long_lag",
                "--trials",
                "2",
                "--set",
                "p=5",
                "--budget",
                "30",
                "--reduced",
                "--workers",
                "1",
                "--first-seed",
                "7",
                "--json",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "budget 30 sequences per network" in text  # the header names --budget
    assert "unsolved seed 7 (budget" in text and "max |s|" in text  # diagnostics of each failed network
    row = json.loads(out.read_text())[0]
    assert row["command"].endswith("--first-seed 7") and [d["seed"] for d in row["diagnostics"]] == [7, 8]
    from lstm_core.reproduce.machine import describe

    assert f"machine: {describe()}" in text and row["machine"] == describe()  # where it ran
    assert {"ig_relevant", "s_max", "hprime", "og_mean", "out_std_ratio", "flags"} <= set(
        row["diagnostics"][0]
    )


def test_progress_inside_a_unit_names_the_total_and_the_time_left():
    from lstm_core.reproduce import distributed

    lines = []
    unit = experiments.units_for("long_lag", 2, {"p": 5}, True, 100)[0]
    progress = distributed._InUnit(unit, True, lines.append, every=0.0)
    progress(50, 200)
    assert len(lines) == 1 and "50/200 sequences (25%)" in lines[0] and "s left" in lines[0]
    distributed._InUnit(unit, False, lines.append, every=0.0)(50, 200)  # --no-progress: silent
    assert len(lines) == 1


def test_ctrl_c_inside_a_unit_prints_a_partial_summary_not_a_traceback(tmp_path, capsys, monkeypatch):
    from lstm_core.reproduce import distributed

    class CtrlC:
        def __init__(self, *a, **k):
            pass

        def __call__(self, done, total):
            raise KeyboardInterrupt

    monkeypatch.setattr(distributed, "_InUnit", CtrlC)
    out = tmp_path / "r.json"
    code = cli.main(
        [
            "long_lag",
            "--trials",
            "2",
            "--set",
            "p=5",
            "--budget",
            "400",
            "--reduced",
            "--workers",
            "1",
            "--json",
            str(out),
            "--no-progress",
        ]
    )
    captured = capsys.readouterr()
    assert code == 130 and "Interrupted (Ctrl-C)" in captured.err and "Traceback" not in captured.err
    assert "PARTIAL (interrupted, not written to any file): 2 of 2 networks" in captured.out
    assert "seed 0 (interrupted" in captured.out
    assert not out.exists()  # nothing half-done is written
    state = tmp_path / "r.json.units.jsonl"
    assert not state.exists() or state.read_text().strip() == ""  # the partial unit is not "finished"


def test_summarise_only_writes_the_finished_rows_from_the_state_file(tmp_path, capsys):
    state = tmp_path / "units.jsonl"
    assert cli.main(ARGS + ["--state", str(state), "--no-progress"]) == 0
    out = tmp_path / "r.json"
    both = [
        "--workers",
        "1",
        "long_lag_rnn",
        "long_lag",
        "--trials",
        "2",
        "--budget",
        "20",
        "--set",
        "p=4",
        "--reduced",
        "--state",
        str(state),
        "--json",
        str(out),
        "--summarise-only",
    ]
    assert cli.main(both) == 0
    text = capsys.readouterr().out
    assert "long_lag: 0 of 1 units finished — not summarised" in text
    rows = json.loads(out.read_text())
    assert [r["name"] for r in rows] == ["long_lag_rnn"]  # nothing was trained for long_lag
    assert cli.main(["long_lag", "--summarise-only", "--workers", "1"]) == 2  # no state file: error


def test_notes_join_without_a_full_stop_before_the_semicolon():
    from lstm_core.reproduce.results import join_notes

    assert (
        join_notes(["budget counts streams.", " ", "unsolved networks: 3."])
        == "budget counts streams; unsolved networks: 3."
    )
    assert join_notes([]) == ""


def test_every_committed_json_row_is_its_markdown_row_in_docs():
    """docs/results.md and docs/results.json hold the same runs: each JSON outcome, rendered as the
    command renders it, is a line of the markdown table (a hand edit of either file breaks this)."""
    from lstm_core.reproduce.results import Outcome

    rows = json.loads((results_file.DOCS / "results.json").read_text())
    lines = set((results_file.DOCS / "results.md").read_text(encoding="utf-8").split("\n"))
    missing = [r["command"] for r in rows if Outcome.from_dict(r).markdown() not in lines]
    assert rows and not missing, f"rows of docs/results.json missing from docs/results.md: {missing}"


def test_the_summary_in_docs_reproducing_is_printed_from_the_committed_results_file():
    """docs/reproducing.md's short results table is what ``python -m lstm_core.reproduce.results docs/results.json``
    prints — no hand-edited figure or stale wall time."""
    from lstm_core.reproduce.results import summary_markdown

    rows = json.loads((results_file.DOCS / "results.json").read_text())
    doc = (results_file.DOCS / "reproducing.md").read_text(encoding="utf-8")
    assert summary_markdown(rows) in doc


def test_a_summary_line_names_the_seeds_from_the_command():
    from lstm_core.reproduce.results import Outcome

    o = Outcome(
        "adding",
        "Adding | T",
        30,
        6,
        0,
        16047.0,
        7751,
        24548,
        12.3,
        50000,
        False,
        "s",
        "p",
        8440.0,
        "python -m lstm_core.experiments adding --trials 30 --first-seed 10",
    )
    assert (
        o.summary()
        == "| Adding \\| T | 10–39 | 6/30 | 16,047 (7,751–24,548) | 8,440 | 50,000 | 12 s | not recorded |"
    )
    assert Outcome.from_dict({**o.__dict__, "percent": 20.0}).first_seed == 10
    o.command = "python -m lstm_core.experiments adding --trials 30"
    assert o.first_seed == 0 and "| 0–29 |" in o.summary()
    o.machine = "AMD EPYC, OpenBLAS Haswell kernels, NumPy 2.4.6"
    assert o.summary().endswith("| 12 s | AMD EPYC, OpenBLAS Haswell kernels, NumPy 2.4.6 |")
    assert o.markdown().split(" | ")[-2].endswith("ran on AMD EPYC, OpenBLAS Haswell kernels, NumPy 2.4.6")


def test_a_row_names_the_machines_its_units_ran_on():
    """Units from an older state file have no machine: the row says so only beside a recorded one."""
    spec = experiments.units_for("long_lag_rnn", 2, {"p": 4}, True, 20, chunk=1)
    units = [experiments.run_unit(u.spec) for u in spec]
    args = ("long_lag_rnn", 2, {"p": 4}, True, 20, 0)
    from lstm_core.reproduce.machine import describe

    assert experiments.summarise(*args, units).machine == describe()
    old = [{k: v for k, v in u.items() if k != "machine"} for u in units]
    assert experiments.summarise(*args, old).machine == ""
    mixed = [units[0], old[1]]
    assert experiments.summarise(*args, mixed).machine == describe() + " (some units: machine not recorded)"
    assert "ran on" not in experiments.summarise(*args, old).markdown()
