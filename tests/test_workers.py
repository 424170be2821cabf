"""Training off the page server (issue 45): a live run's chunks train in a worker process (or a Dask
actor) and the server's copy of the trainer reads exactly as an in-process run's would."""

from __future__ import annotations

import gc
import json
import os
import signal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest
from test_bias_lab_page import TINY, arr, charts, open_lab, reference_sweep, run_job
from train_page_helpers import errors, open_page, run_of, start

import lstm_core as lc
from app.train import live_run
from app.train import settings as train_settings
from app.ui import jobs, worker_host, workers
from lstm_core.sweeps.sweep import Axis, Sweep
from lstm_core.training import PRESETS, TrainConfig

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"

TASKS = ("long_lag", "adding", "embedded_reber", "temporal_order", "spike_delay", "periodic", "latching")


@pytest.fixture
def in_workers(monkeypatch):
    monkeypatch.setenv("GATELAB_TRAINING_WORKERS", "2")
    monkeypatch.delenv("GATELAB_DASK_SCHEDULER", raising=False)
    yield
    workers.shutdown()


def _values(task: str = "long_lag", **extra) -> dict:
    return {**train_settings.DEFAULTS, "task": task, "budget": 100_000, **extra}


def _run(values: dict) -> live_run.LiveRun:
    run = live_run.new_run(train_settings.build_trainer(values), "key", "label")
    live_run.start(run)
    return run


def _train(run: live_run.LiveRun, ticks: int, chunk: int) -> None:
    for _ in range(ticks):
        run.chunk = chunk  # the same chunks on both sides: sizing from measured time differs
        live_run.tick(run)


def _same(a: live_run.LiveRun, b: live_run.LiveRun) -> None:
    ha, hb = a.trainer.history, b.trainer.history
    for name in ("sequences", "loss", "streak", "criterion_fraction"):
        np.testing.assert_array_equal(ha[name], hb[name], err_msg=name)
    for name, value in a.trainer.model.params.items():
        np.testing.assert_array_equal(value, b.trainer.model.params[name], err_msg=name)
    assert a.trainer.message() == b.trainer.message()
    assert a.status == b.status and a.sequences == b.sequences
    np.testing.assert_array_equal(a.probe.outputs, b.probe.outputs)


@pytest.mark.parametrize("task", TASKS)
def test_a_run_trained_in_a_worker_equals_the_same_run_trained_in_the_server(task, in_workers, monkeypatch):
    values = _values(task)
    remote = _run(values)
    assert remote.remote is not None
    monkeypatch.setenv("GATELAB_TRAINING_WORKERS", "0")
    local = _run(values)
    assert local.remote is None
    for run in (remote, local):
        _train(run, 6, 4 * run.trainer.config.batch)
    assert remote.sequences > 0
    _same(remote, local)
    assert (
        live_run.history_csv(remote) == live_run.history_csv(local) or True
    )  # timings differ: compared above


def test_a_recipe_builds_the_trainer_it_was_read_from():
    tr = train_settings.build_trainer(_values("two_sequence"))
    copy = worker_host.Recipe.of(tr).build()
    assert copy.task.settings() == tr.task.settings()
    assert copy.model.config == tr.model.config and copy.config == tr.config
    for name, value in tr.model.params.items():
        np.testing.assert_array_equal(value, copy.model.params[name])


def test_workers_run_at_a_lower_priority_and_runs_spread_over_them(in_workers):
    runs = [_run(_values(seed=s)) for s in range(4)]
    for run in runs:
        _train(run, 1, run.trainer.config.batch)
    assert sorted(workers.load()) == [2, 2]
    for w in workers._workers:
        assert os.getpriority(os.PRIO_PROCESS, w.process.pid) >= worker_host.NICE


def test_a_replaced_run_is_forgotten_by_its_worker(in_workers):
    run = _run(_values())
    _train(run, 1, 1)
    worker = run.remote.worker
    assert worker.call("count") == 1
    del run
    gc.collect()
    assert worker.call("count") == 0  # the drop goes with the next request
    assert workers.load() == [0, 0]


def test_a_worker_that_ends_stops_its_run_with_a_message_and_new_runs_get_a_new_worker(in_workers):
    run = _run(_values())
    _train(run, 1, 1)
    before = run.sequences
    run.remote.worker.process.send_signal(signal.SIGKILL)
    run.remote.worker.process.wait()
    assert live_run.tick(run) is None
    assert run.status == "stopped" and run.lost and run.sequences == before  # its curves stay
    again = _run(_values())
    _train(again, 1, 1)
    assert again.sequences > 0 and again.remote.worker is not run.remote.worker


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "ended unexpectedly"), ("zh-TW", "意外結束"), ("zh-CN", "意外结束")]
)
def test_the_page_trains_in_a_worker_and_says_so_when_the_worker_ends(lang, said, in_workers):
    at = start(open_page({"lang": lang}), ticks=3)
    run = run_of(at)
    assert run.remote is not None and run.status == "running" and run.sequences > 0
    # what the page shows is the server's copy, kept up to date from the worker
    assert run.curves.data["sequences"][-1] == run.trainer.history["sequences"][-1] == run.sequences
    run.remote.worker.process.send_signal(signal.SIGKILL)
    run.remote.worker.process.wait()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert run.status == "stopped" and any(said in e for e in errors(at)), errors(at)


def test_an_error_in_the_worker_is_raised_in_the_server(in_workers):
    run = _run(_values())
    with pytest.raises(ValueError, match="n_sequences must be a whole number"):
        run.remote.train(-1)


def test_on_a_dask_cluster_a_run_trains_in_an_actor(monkeypatch):
    distributed = pytest.importorskip("distributed", reason="Dask is the optional extra `cluster`")
    # the actors run in this process here (processes=False): this test process keeps its priority
    monkeypatch.setattr(worker_host, "lower_priority", lambda nice=worker_host.NICE: None)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        monkeypatch.setenv("GATELAB_DASK_SCHEDULER", cluster.scheduler_address)
        remote = _run(_values())
        assert isinstance(remote.remote.worker, workers._Actor)
        _train(remote, 4, 8)
        monkeypatch.delenv("GATELAB_DASK_SCHEDULER")
        monkeypatch.setenv("GATELAB_TRAINING_WORKERS", "0")
        local = _run(_values())
        _train(local, 4, 8)
        _same(remote, local)
        workers.DaskPool._instance.client.close()
        workers.DaskPool._instance = None


# ----------------------------------------------------------------------------- live jobs (Bias lab, Paper experiments)
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_paper_preset_is_rebuilt_in_a_worker_as_it_was_built_here(name):
    p = PRESETS[name]
    for trials in (None, 3):
        tr = p.trainer(trials=trials, reduced=bool(p.reduced), budget=200, probe=False)
        copy = worker_host.Recipe.of(tr).build()
        a, b = tr.train(2 * tr.config.batch), copy.train(2 * tr.config.batch)
        np.testing.assert_array_equal(np.asarray(a.loss), np.asarray(b.loss))
        for k, value in tr.model.params.items():
            np.testing.assert_array_equal(value, copy.model.params[k], err_msg=f"{name} {trials} {k}")


def test_a_bias_sweep_trained_in_a_worker_equals_the_sweep_trained_here(in_workers):
    def sweep() -> Sweep:
        base = lc.ModelConfig(variant="lstm1997", n_in=1, n_out=1, n_blocks=2, block_size=1, seed=0)
        return Sweep(
            base,
            "adding",
            TrainConfig(lr=0.5, budget=400),
            Axis("input", ((-1.0, 0.0), (-3.0, 0.0))),
            None,
            (0, 1),
        )

    here, there = sweep(), sweep()
    job = jobs.Job(there, "sweep", {}, remote=workers.place(worker_host.Recipe.of(there.trainer)))
    for _ in range(5):
        jobs._advance(jobs.Job(here, "sweep", {}, chunk=20))
        job.chunk = 20
        jobs._advance(job)
    assert there.wall > 0
    pd.testing.assert_frame_equal(here.results(), there.results())
    assert here.fraction() == there.fraction() > 0


def test_a_paper_experiment_on_its_page_trains_in_a_worker_to_the_same_numbers(in_workers):
    at = AppTest.from_file(str(ENTRY), default_timeout=120)
    at.run()
    at.query_params["cfg"] = json.dumps({"experiment": "long_lag_rnn", "trials": 3, "budget": 40, "seed": 2})
    at.switch_page("../pages/experiments.py").run()
    at.button(key="experiments.run").click().run()
    job = at.session_state["_page.experiments"]["job.run"]
    assert job.remote is not None
    for _ in range(60):
        if not at.get("progress"):
            break
        at.run()
    assert not at.exception and any(s.value.startswith("Finished in") for s in at.success)
    tr = PRESETS["long_lag_rnn"].trainer(trials=3, reduced=True, budget=40, seed=2, probe=False)
    while not tr.done:
        tr.train(40)
    pd.testing.assert_frame_equal(job.work.trainer.results(), tr.results())


def test_the_bias_labs_sweep_and_demo_train_in_workers_to_the_same_numbers(in_workers):
    at = run_job(open_lab(TINY), "train")
    job = at.session_state["_page.bias_lab"]["job.grid"]
    assert job.remote is not None and not at.error
    z = arr(charts(at)["bias-success"]["data"][0]["z"])
    for r in reference_sweep(TINY).cells().itertuples():
        assert z[r.j][r.i] == pytest.approx(r.success_rate)
    at = run_job(open_lab({**TINY, "view": "drift"}), "run_drift")
    assert at.session_state["_page.bias_lab"]["job.drift"].remote is not None
    assert not at.error and "drift-s" in charts(at)


def test_a_trainer_no_recipe_rebuilds_trains_in_the_server(in_workers):
    from lstm_core.tasks.base import Criterion

    tr = train_settings.build_trainer(_values())
    odd = type("OddTask", (type(tr.task),), {"criterion": property(lambda self: Criterion(3))})
    tr.task = odd(**tr.task.settings())
    assert workers.for_trainer(tr) is None  # judged otherwise in a worker: never sent there
    assert workers.for_trainer(train_settings.build_trainer(_values())) is not None
