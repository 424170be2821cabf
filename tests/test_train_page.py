"""Train-and-watch page (Streamlit AppTest) and its helpers (settings, live run, figures).

AppTest does not fire fragment timers: each ``at.run()`` is one script run, and a script run
while training trains one chunk (as a timer tick does). Chart assertions read the figure JSON
sent to the browser and compare it with the trainer kept in the session, so a page drawing
made-up curves would fail.
"""

from __future__ import annotations

import base64

import numpy as np
import plotly.graph_objects as go
import pytest
from train_page_helpers import (
    CHARTS,
    data,
    errors,
    link,
    open_page,
    progress_text,
    run_of,
    specs,
    start,
    values,
)

import lstm_core as lc
from app.train import figures as train_figures
from app.train import live_run
from app.train import settings as train_settings
from app.ui import pacing
from lstm_core.training import PRESETS, Trainer


# ============================================================================= default run
def test_default_page_shows_the_untrained_network_and_every_chart():
    at = open_page()
    assert any(t.value == "Train and watch" for t in at.title)
    assert not errors(at)
    charts = specs(at)
    assert set(charts) == set(CHARTS)
    for spec in charts.values():  # every figure is valid Plotly (the builders skip validation)
        go.Figure(spec)
    run = run_of(at)
    assert run.status == "idle" and run.sequences == 0
    assert "0** of 20,000 sequences" in progress_text(at)
    # the probe charts show the real network on the real probe sequence
    probe = run.trainer.probe()
    np.testing.assert_allclose(values(charts["train-gates"], "input gate"), probe.internals["y_ig"][:, 0, 0])
    np.testing.assert_allclose(values(charts["train-states"], "s1"), probe.internals["s"][:, 0, 0])
    # the default is the 1997 long-lag network of the paper at p = 10, reduced criterion labelled
    cfg = run.trainer.model.config
    assert (cfg.variant, cfg.n_blocks, cfg.block_size, cfg.output_gate, cfg.input_to_output) == (
        "lstm1997",
        1,
        1,
        False,
        True,
    )
    assert "REDUCED" in charts["train-criterion"]["layout"]["title"]["text"]
    assert not dict(at.query_params)  # defaults: a short, clean URL


def test_captions_are_written_from_what_is_drawn():
    """The gate caption's numbers are the chart's; the outputs caption names the chart type."""
    at = start(open_page(), ticks=3)
    charts, caps = specs(at), [c.value for c in at.caption]
    ig = values(charts["train-gates"], "input gate")
    gate_cap = next(c for c in caps if "On the probe now" in c)
    assert f"input gate {ig.min():.2f} – {ig.max():.2f}" in gate_cap
    assert f"at step {int(np.argmax(ig)) + 1}" in gate_cap
    assert any(c.startswith("Heat map of the outputs") for c in caps)  # long lag: 11 outputs
    adding = open_page(link(task="adding"))
    assert any("(lines) against the targets" in c.value for c in adding.caption)
    reber = open_page(link(task="embedded_reber"))
    assert not errors(reber)
    caps = [c.value for c in reber.caption]
    assert any(c.startswith("Heat map of the outputs") and "B T S X P V E" in c for c in caps), caps
    rows = specs(reber)["train-outputs"]["data"][0]["y"]
    assert list(rows)[:2] == ["y B", "y T"]


def test_embedded_reber_with_the_papers_fixed_sets_is_judged_on_them():
    """sets > 0 with the paper's criterion (streak 0): the run is judged on all 2N strings of the
    fixed sets after every N training sequences, and the progress text and criterion chart say so."""
    at = open_page(link(task="embedded_reber", **{"embedded_reber.sets": 8, "streak": 0}))
    assert not errors(at)
    start(at)
    for _ in range(50):  # AppTest fires no timers: one chunk per run
        if run_of(at).sequences >= 8:
            break
        at.run()
    assert not errors(at) and not at.exception
    tr = run_of(at).trainer
    assert tr.fixed_set is not None and tr.required == 16 and not tr.reduced
    assert "of the 16 fixed-set sequences right at the last check" in progress_text(at)
    chart = specs(at)[train_figures.UIREVISIONS["criterion"]]
    assert chart["layout"]["title"]["text"].startswith("Pass criterion: all 16 fixed-set sequences right")
    right = values(chart, chart["data"][0]["name"])
    assert right[-1] == tr.book.streak[0] / 16  # the curve is the last check's fraction
    assert any("measured after every 8 training sequences" in c.value for c in at.caption)
    # a streak (the page's default 1,000) replaces the fixed-set criterion, labelled
    streaked = open_page(link(task="embedded_reber", **{"embedded_reber.sets": 8}))
    start(streaked)
    assert run_of(streaked).trainer.fixed_set is None and "REPLACED" in run_of(streaked).trainer.criterion


# ============================================================================= training advances
def test_start_trains_a_chunk_per_run_and_the_charts_show_the_trainer():
    at = open_page()
    before = data(at)
    start(at)
    run = run_of(at)
    assert run.status == "running" and run.sequences > 0
    first = run.sequences
    at.run()
    at.run()
    assert run_of(at) is run and run.sequences > first
    assert data(at) != before
    charts = specs(at)
    np.testing.assert_allclose(
        values(charts["train-loss"], f"this run: {run.label}", "x"), run.curves.array("sequences")
    )
    np.testing.assert_allclose(
        values(charts["train-loss"], f"this run: {run.label}"), run.curves.array("loss")
    )
    # the curve's last point is what the trainer reported, and the progress text agrees
    assert run.curves.data["sequences"][-1] == run.trainer.history["sequences"][-1] == run.sequences
    assert f"**{run.sequences:,}** of 20,000 sequences" in progress_text(at)
    assert set(run.curves.grads) == {"input gate", "cell input", "output layer"}
    assert len(charts["train-grads"]["data"]) == 3
    assert at.button(key="train.go").label == "Pause"


def test_pause_resume_stop_and_start_again():
    at = start(open_page(), ticks=2)
    go = lambda: at.button(key="train.go")  # one button: Start, Pause, Resume, Start again
    assert go().label == "Pause"
    go().click().run()
    run = run_of(at)
    n = run.sequences
    assert run.status == "paused"
    at.run()
    assert run.sequences == n  # paused: no training
    assert any("Paused after" in i.value for i in at.info)
    assert go().label == "Resume"
    go().click().run()
    assert run.status == "running" and run.sequences > n
    at.button(key="train.stop").click().run()
    assert run.status == "stopped"
    n = run.sequences
    at.run()
    assert run.sequences == n and any("Stopped by you" in i.value for i in at.info)
    assert go().label == "Start again"
    go().click().run()
    fresh = run_of(at)
    assert fresh is not run and fresh.status == "running" and 0 < fresh.sequences


def test_budget_stops_training_and_says_so():
    at = start(open_page(link(budget=3)), ticks=4)
    run = run_of(at)
    assert run.status == "budget" and run.sequences == 3
    assert any("Stopped at the budget" in w.value and "budget of 3 sequences" in w.value for w in at.warning)
    assert at.button(key="train.go").label == "Start again"


def test_tick_adapts_the_chunk_to_the_measured_speed(monkeypatch):
    class Clock:  # every tick takes 0.01 s, whatever the machine's load
        now = 0.0

        @classmethod
        def perf_counter(cls) -> float:
            cls.now += 0.01
            return cls.now

        monotonic = staticmethod(__import__("time").monotonic)

    monkeypatch.setattr(live_run, "time", Clock)
    run = live_run.new_run(
        train_settings.build_trainer(train_settings.DEFAULTS), "k", "label", status="running"
    )
    assert run.chunk == 1
    live_run.tick(run, seconds=0.05)  # 1 sequence in 0.01 s = 100/s -> 5 per 0.05 s
    assert (run.sequences, run.chunk) == (1, 4)  # ... but a chunk grows at most 4× at a time
    live_run.tick(run, seconds=0.05)  # 4 in 0.01 s -> 20
    assert (run.sequences, run.chunk) == (5, 16)
    live_run.tick(run, seconds=0.01)  # 16 in 0.01 s -> 16 per 0.01 s
    assert (run.sequences, run.chunk) == (21, 16)
    for _ in range(8):
        live_run.tick(run, seconds=10.0)  # 1,600/s -> 16,000, but capped
    assert run.chunk == pacing.MAX_CHUNK


def test_history_stays_bounded_and_keeps_the_newest_point():
    run = live_run.new_run(
        train_settings.build_trainer(train_settings.DEFAULTS), "k", "label", status="running"
    )
    for _ in range(live_run.MAX_POINTS + 50):
        run.trainer.train(1)
        live_run.record(run, run.trainer.progress())
    assert len(run.curves) <= live_run.MAX_POINTS
    assert run.curves.data["sequences"][-1] == run.sequences
    assert all(len(v) == len(run.curves) for v in run.curves.grads.values())
    seqs = run.curves.array("sequences")
    assert (np.diff(seqs) > 0).all()


# ============================================================================= figures
def test_figures_are_valid_and_alt_texts_do_not_change_while_training():
    run = live_run.new_run(
        train_settings.build_trainer(train_settings.DEFAULTS), "k", "label", status="running"
    )

    def alts():
        c = run.curves
        charts = [
            train_figures.loss_chart(c, None, loss_name="squared error", large=False),
            train_figures.criterion_chart(c, None, required=100, reduced=False, large=True),
            train_figures.grad_chart(c, large=False),
        ]
        charts += train_figures.probe_panels("lstm1997", 1, run.probe, 0, "block 1, cell 1", False)
        for fig, _ in charts:
            go.Figure(fig.to_dict())  # validation on: no misspelt properties
        return [alt for _, alt in charts]

    live_run.tick(run)
    first = alts()
    for _ in range(3):
        live_run.tick(run)
    assert alts() == first  # a changing alt text remounts the chart (flicker)
    assert all(a for a in first)


def test_trainer_built_by_the_page_equals_one_built_by_hand():
    trainer = train_settings.build_trainer(train_settings.DEFAULTS)
    task = lc.get_task("long_lag", p=10)
    p = PRESETS["long_lag_assisted"]  # the page's default recipe (it has no absent connections)
    cfg = lc.ModelConfig.from_dict(
        {**p.model_config(seed=0).to_dict(), "n_in": task.n_in, "n_out": task.n_out}
    )
    by_hand = Trainer(lc.build(cfg), task, p.train_config(streak=1000))
    a, b = trainer.train(20), by_hand.train(20)
    assert a.loss == b.loss and a.streak == b.streak


# ============================================================================= every variant, unit picker
@pytest.mark.parametrize("variant", list(lc.VARIANTS))
def test_every_variant_trains_and_shows_its_own_gates_and_states(variant):
    algorithm = "rtrl" if variant in ("lstm1997", "lstm2000", "lstm2002") else "bptt"
    at = start(
        open_page(
            link(variant=variant, algorithm=algorithm, task="adding", output_gate=True, **{"adding.T": 20})
        ),
        ticks=2,
    )
    assert not errors(at), errors(at)
    run = run_of(at)
    assert run.trainer.model.config.variant == variant and run.sequences > 0
    charts = specs(at)
    gates = charts["train-gates"]
    expected = {
        "lstm": ["input i", "forget f", "output o"],
        "gru": ["reset r", "update z"],
        "lstm1997": ["input gate", "output gate"],
        "lstm2000": ["input gate", "forget gate", "output gate"],
        "lstm2002": ["input gate", "forget gate", "output gate"],
    }
    if variant in expected:
        assert [t["name"] for t in gates["data"]] == expected[variant]
    else:  # no gates: the chart says so and shows net inputs
        assert "no gates" in gates["layout"]["title"]["text"]
    probe = run.trainer.probe()  # the charts show the network as it is now
    name = {"lstm": "c", "gru": "h", "rnn": "h", "local_feedback": "h"}.get(variant, "s")
    states = charts["train-states"]
    first = states["data"][0]
    shown = values(states, f"{name}1") if first["type"] == "scatter" else _row(first, 0)
    np.testing.assert_allclose(shown, probe.internals[name][:, 0, 0])


def _row(heatmap: dict, i: int) -> np.ndarray:
    z = heatmap["z"]
    if isinstance(z, dict):
        shape = [int(n) for n in str(z["shape"]).split(",")]
        arr = np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(shape)
        return arr[i]
    return np.asarray(z[i], dtype=float)


def test_unit_picker_moves_the_gate_chart_to_another_block():
    at = open_page(link(n_blocks=3, b_input=-1.0, b_input_step=-2.0))
    first = specs(at)["train-gates"]
    at.selectbox(key="train.unit").set_value(2).run()
    third = specs(at)["train-gates"]
    assert "block 3" in third["layout"]["title"]["text"] and third["data"] != first["data"]
    probe = run_of(at).trainer.probe()
    np.testing.assert_allclose(values(third, "input gate"), probe.internals["y_ig"][:, 0, 2])


def test_large_fonts_make_every_chart_bigger():
    at = open_page()
    small = {k: s["layout"]["font"]["size"] for k, s in specs(at).items()}
    at.sidebar.toggle[0].set_value(True).run()
    big = {k: s["layout"]["font"]["size"] for k, s in specs(at).items()}
    assert all(big[k] > small[k] for k in small)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_trains_on_the_page(name):
    at = open_page()
    at.selectbox(key="train.preset").set_value(name).run()
    start(at, ticks=2)
    assert not errors(at), errors(at)
    run = run_of(at)
    assert run.sequences > 0 and run.status in ("running", "solved")
    assert set(specs(at)) == set(CHARTS)
    loss = specs(at)["train-loss"]["layout"]["yaxis"]["title"]["text"]
    assert ("cross-entropy" in loss) == (run.trainer.task.loss == "ce")


def test_meeting_the_criterion_stops_training_and_says_so():
    settings = {"long_lag.p": 4, "streak": 100}
    at = open_page(link(**settings))
    cfg = {**train_settings.DEFAULTS, **settings}
    run = live_run.new_run(
        train_settings.build_trainer(cfg),
        train_settings.effective_key(cfg),
        train_settings.summary(cfg),
        "running",
    )
    while run.status == "running":  # the page's own tick, with longer chunks
        live_run.tick(run, seconds=0.5)
    assert run.status == "solved"
    at.session_state["_page.train"]["live"].run = run  # this session's run, as if trained live
    at.run()
    assert not at.exception
    assert run_of(at) is run
    assert any("Stopped at the criterion" in s.value and "100 in a row" in s.value for s in at.success)
    assert at.button(key="train.go").label == "Start again"
    crit = specs(at)["train-criterion"]
    assert values(crit, f"this run: {run.label}")[-1] == 1.0  # the curve reaches the line
