"""Units of work on Dask (lstm_core.reproduce.distributed): serial ≡ LocalCluster bit for bit, resumable after
Ctrl-C, a worker that dies mid-unit has its unit retried, a bad scheduler address gets a clear
message; sweeps from the command line and their results file, loaded by the Bias lab page."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

from lstm_core.errors import words_to_json
from lstm_core.reproduce import distributed, experiments
from lstm_core.sweeps import cli as sweep_cli

REPO = Path(__file__).resolve().parents[1]
ENTRY = REPO / "app" / "main.py"
ROWS = [("long_lag_rnn", 4, {"p": 4}, True, 40), ("long_lag", 3, {"p": 5}, True, 30)]
SWEEP_ARGS = [
    "--task",
    "two_sequence",
    "--set",
    "T=10",
    "--model",
    "n_blocks=2",
    "block_size=1",
    "--x",
    "input",
    "--x-values",
    "0,-2",
    "--y",
    "output",
    "--y-values",
    "0,-2",
    "--seeds",
    "4",
    "--budget",
    "60",
    "--streak",
    "10",
    "--goal",
    "none",
    "--no-progress",
]


def table_units(chunk: int | None) -> list[distributed.Unit]:
    return [
        u
        for i, (n, t, s, r, b) in enumerate(ROWS)
        for u in experiments.units_for(n, t, s, r, b, chunk=chunk, row=i)
    ]


def members(report, units) -> list[dict]:
    """Every network's result in unit order (wall times left out: they are measurements)."""
    return [m for u in units for m in report.results[u.key]["members"]]


@pytest.fixture(scope="module")
def serial():
    units = table_units(None)
    return members(distributed.run_units(units, workers=1, progress=False), units)


def test_chunking_does_not_change_any_network(serial):
    units = table_units(1)
    assert members(distributed.run_units(units, workers=1, progress=False), units) == serial


@pytest.mark.slow
def test_local_cluster_of_two_equals_the_serial_run_and_survives_a_dying_worker(
    serial, tmp_path, monkeypatch
):
    marker = tmp_path / "died"
    monkeypatch.setenv(distributed.DIE_ONCE_ENV, str(marker))  # one worker exits mid-unit, once
    units = table_units(2)
    report = distributed.run_units(units, workers=2, progress=False, log=lambda m: None)
    assert marker.exists(), "no worker died: the retry was not exercised"
    assert report.complete(units) and report.dashboard and report.dashboard.startswith("http://127.0.0.1")
    assert members(report, units) == serial


def test_bad_scheduler_address_is_a_clear_error(monkeypatch):
    # (nothing listens on port 9: Dask retries until the connect timeout, 10 s in use, 2 s here)
    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT", 2)
    with pytest.raises(
        ValueError, match="could not reach the Dask scheduler at tcp://127.0.0.1:9 within 2 s"
    ):
        distributed.run_units(
            table_units(None)[:1], scheduler="tcp://127.0.0.1:9", progress=False, log=lambda m: None
        )


def test_state_file_reuses_finished_units_and_rejects_foreign_files(serial, tmp_path):
    state = tmp_path / "units.jsonl"
    units = table_units(1)
    distributed.run_units(units[:3], workers=1, state=str(state), progress=False)
    with open(state, "a") as f:
        f.write('{"key": "torn')  # a run killed while writing
    report = distributed.run_units(units, workers=1, state=str(state), progress=False, log=lambda m: None)
    assert (report.reused, report.ran) == (3, len(units) - 3)
    assert members(report, units) == serial
    bad = tmp_path / "other.jsonl"
    bad.write_text("not json\n{}\n")
    with pytest.raises(ValueError, match="not a Gate Lab units file"):
        distributed.run_units(units, state=str(bad), progress=False)


INTERRUPT_BUDGET = 800  # sequences per network of the interrupted run


def interrupt_mid_run(out: Path, sig: signal.Signals) -> list[str]:
    """Start the reproduction command the way a background job is started — SIGINT *ignored*, as a
    non-interactive shell's ``cmd &`` (or CI) hands it down — and send ``sig`` once two units are
    done. Returns the command, after checking it stopped cleanly."""
    # 12 one-network units that each train their whole budget (the RNN never solves p = 10): the
    # run is still busy with the other ten (~0.3 s of CPU each at 800 sequences) when the signal
    # arrives after two, however loaded the machine (the waiting loop below polls every 50 ms)
    cmd = [
        sys.executable,
        "-m",
        "lstm_core.experiments",
        "long_lag_rnn",
        "--trials",
        "12",
        "--set",
        "p=10",
        "--reduced",
        "--budget",
        str(INTERRUPT_BUDGET),
        "--workers",
        "1",
        "--chunk",
        "1",
        "--json",
        str(out),
        "--no-progress",
    ]
    state = Path(str(out) + ".units.jsonl")
    proc = subprocess.Popen(
        cmd,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    deadline = time.monotonic() + 300
    while not (state.exists() and state.read_text().count("\n") >= 2):  # wait on state: two units done
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, (proc.returncode, stderr)
    assert "Traceback" not in stderr and "Interrupted (Ctrl-C)" in stderr
    assert "units finished — not summarised" in stdout
    assert not out.exists()  # no half table
    return cmd


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_the_same_command_resumes(tmp_path):
    out = tmp_path / "results.json"
    cmd = interrupt_mid_run(out, signal.SIGINT)
    again = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert "Reusing" in again.stderr
    resumed = json.loads(out.read_text())[0]
    in_one_go = experiments.summarise(
        "long_lag_rnn",
        12,
        {"p": 10},
        True,
        INTERRUPT_BUDGET,
        0,
        [
            experiments.run_unit(
                experiments.units_for("long_lag_rnn", 12, {"p": 10}, True, INTERRUPT_BUDGET)[0].spec
            )
        ],
    )
    assert (resumed["solved"], resumed["median"], resumed["notes"]) == (
        in_one_go.solved,
        in_one_go.median,
        [words_to_json(n) for n in in_one_go.notes],
    )


@pytest.mark.slow
def test_kill_stops_a_background_run_like_ctrl_c(tmp_path):
    """``kill PID`` (SIGTERM) on a long run in the background: the same clean stop, finished units
    kept (before, it died with no summary)."""
    out = tmp_path / "results.json"
    interrupt_mid_run(out, signal.SIGTERM)
    assert Path(str(out) + ".units.jsonl").read_text().count("\n") >= 2


@pytest.fixture(scope="module")
def sweep_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("sweep") / "sweep.json"
    assert sweep_cli.main(SWEEP_ARGS + ["--workers", "1", "--out", str(path)]) == 0
    return path


def test_sweep_command_chunks_equal_one_population_and_the_file_loads(sweep_file, tmp_path):
    other = tmp_path / "chunked.json"
    assert sweep_cli.main(SWEEP_ARGS + ["--workers", "1", "--chunk", "1", "--out", str(other)]) == 0
    a, b = json.loads(sweep_file.read_text()), json.loads(other.read_text())
    assert a["networks"] == b["networks"] and len(a["networks"]) == 16
    res = sweep_cli.load_results(sweep_file.read_bytes())
    cells = res.cells()
    assert len(cells) == 4 and cells.networks.sum() == 16 and res.labels("x") == ["0", "−2"]


@pytest.mark.parametrize(
    "mangle, message",
    [
        (lambda d: b"{not json", "not valid JSON"),
        (lambda d: json.dumps({**d, "kind": "gatelab-config"}).encode(), "not a sweep results file"),
        (lambda d: json.dumps({**d, "version": 7}).encode(), "version 7"),
        (lambda d: json.dumps({**d, "networks": []}).encode(), "non-empty 'networks'"),
        (
            lambda d: json.dumps({**d, "networks": [{**d["networks"][0], "i": 9}]}).encode(),
            "outside the grid",
        ),
        (
            lambda d: json.dumps({**d, "networks": [{**d["networks"][0], "status": "great"}]}).encode(),
            "status",
        ),
        (
            lambda d: json.dumps({**d, "networks": [{**d["networks"][0], "sequences": -1}]}).encode(),
            "whole number",
        ),
        (
            lambda d: json.dumps(
                {**d, "sweep": {**d["sweep"], "base": {**d["sweep"]["base"], "variant": "lstm1999"}}}
            ).encode(),
            "unknown variant",
        ),
        (lambda d: b"x" * (sweep_cli.MAX_FILE_BYTES + 1), "bytes"),
    ],
)
def test_malformed_sweep_files_are_refused_with_a_clear_message(sweep_file, mangle, message):
    with pytest.raises(ValueError, match=message):
        sweep_cli.load_results(mangle(json.loads(sweep_file.read_text())))


def test_bias_lab_page_draws_a_loaded_sweep_and_keeps_it_when_a_bad_file_follows(sweep_file):
    at = AppTest.from_file(str(ENTRY), default_timeout=120).run()
    at.switch_page("../pages/bias_lab.py").run()
    up = next(u for u in at.file_uploader if u.key == "bias_lab.precomputed_upload")
    up.set_value(("sweep.json", sweep_file.read_bytes(), "application/json")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    keys = {s["layout"].get("uirevision") for s in chart_specs(at)}
    assert {"bias-file-success", "bias-file-median"} <= keys
    up = next(u for u in at.file_uploader if u.key == "bias_lab.precomputed_upload")
    up.set_value(("broken.json", b"{oops", "application/json")).run()
    assert not at.exception
    assert any("Could not load broken.json" in e.value and "kept" in e.value for e in at.error)
    keys = {s["layout"].get("uirevision") for s in chart_specs(at)}
    assert {"bias-file-success", "bias-file-median"} <= keys  # the good sweep is still shown
