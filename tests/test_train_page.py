"""Train-and-watch page (Streamlit AppTest) and its helpers (settings, live run, figures).

AppTest does not fire fragment timers: each ``at.run()`` is one script run, and a script run
while training trains one chunk (as a timer tick does). Chart assertions read the figure JSON
sent to the browser and compare it with the trainer kept in the session, so a page drawing
made-up curves would fail.
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

import lstm_core as lc
from app.train import figures as train_figures, run as train_run
from app.ui import export, pacing, urlstate
from app.train import settings as train_settings
from lstm_core.training import PRESETS, Trainer
from helpers import chart_specs

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"
CHARTS = tuple(train_figures.UIREVISIONS.values())


def open_page(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ENTRY), default_timeout=60)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.switch_page("../pages/train.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def link(**values) -> dict[str, str]:
    """A query string holding these settings (the page's own encoding)."""
    return {urlstate.PARAM: urlstate.encode({**train_settings.DEFAULTS, **values}, train_settings.DEFAULTS)}


def specs(at: AppTest) -> dict[str, dict]:
    out = {}
    for spec in chart_specs(at):
        out[spec["layout"]["uirevision"]] = spec
    return out


def data(at: AppTest) -> dict:
    """What the charts show (every trace's name, x, y, z) plus the progress text."""
    shown = {k: [(t.get("name"), t.get("x"), t.get("y"), t.get("z")) for t in s["data"]] for k, s in specs(at).items()}
    shown["progress"] = progress_text(at)
    return shown


def values(spec: dict, name: str, axis: str = "y") -> np.ndarray:
    tr = next(t for t in spec["data"] if t.get("name") == name)
    v = tr[axis]
    if isinstance(v, dict):   # plotly ships arrays as typed buffers
        v = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
    return np.array([np.nan if x is None else x for x in v], dtype=float)


def progress_text(at: AppTest) -> str:
    return at.get("progress")[0].proto.text


def run_of(at: AppTest) -> train_run.LiveRun:
    return at.session_state["_page.train"]["run"]


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def start(at: AppTest, ticks: int = 1) -> AppTest:
    at.button(key="train.start").click().run()
    for _ in range(ticks - 1):
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


# ============================================================================= default run
def test_default_page_shows_the_untrained_network_and_every_chart():
    at = open_page()
    assert any(t.value == "Train and watch" for t in at.title)
    assert not errors(at)
    charts = specs(at)
    assert set(charts) == set(CHARTS)
    for spec in charts.values():          # every figure is valid Plotly (the builders skip validation)
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
    assert (cfg.variant, cfg.n_blocks, cfg.block_size, cfg.output_gate, cfg.input_to_output) == \
        ("lstm1997", 1, 1, False, True)
    assert "REDUCED" in charts["train-criterion"]["layout"]["title"]["text"]
    assert not dict(at.query_params)                 # defaults: a short, clean URL


def test_captions_are_written_from_what_is_drawn():
    """The gate caption's numbers are the chart's; the outputs caption names the chart type."""
    at = start(open_page(), ticks=3)
    charts, caps = specs(at), [c.value for c in at.caption]
    ig = values(charts["train-gates"], "input gate")
    gate_cap = next(c for c in caps if "On the probe now" in c)
    assert f"input gate {ig.min():.2f} – {ig.max():.2f}" in gate_cap
    assert f"at step {int(np.argmax(ig)) + 1}" in gate_cap
    assert any(c.startswith("Heat map of the outputs") for c in caps)        # long lag: 11 outputs
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
    for _ in range(50):                                   # AppTest fires no timers: one chunk per run
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
    assert right[-1] == tr.book.streak[0] / 16          # the curve is the last check's fraction
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
    np.testing.assert_allclose(values(charts["train-loss"], f"this run: {run.label}", "x"),
                               run.curves.array("sequences"))
    np.testing.assert_allclose(values(charts["train-loss"], f"this run: {run.label}"), run.curves.array("loss"))
    # the curve's last point is what the trainer reported, and the progress text agrees
    assert run.curves.data["sequences"][-1] == run.trainer.history["sequences"][-1] == run.sequences
    assert f"**{run.sequences:,}** of 20,000 sequences" in progress_text(at)
    assert set(run.curves.grads) == {"input gate", "cell input", "output layer"}
    assert len(charts["train-grads"]["data"]) == 3
    assert at.button(key="train.pause").label == "Pause"


def test_pause_resume_stop_and_start_again():
    at = start(open_page(), ticks=2)
    at.button(key="train.pause").click().run()
    run = run_of(at)
    n = run.sequences
    assert run.status == "paused"
    at.run()
    assert run.sequences == n                                  # paused: no training
    assert any("Paused after" in i.value for i in at.info)
    at.button(key="train.resume").click().run()
    assert run.status == "running" and run.sequences > n
    at.button(key="train.stop").click().run()
    assert run.status == "stopped"
    n = run.sequences
    at.run()
    assert run.sequences == n and any("Stopped by you" in i.value for i in at.info)
    at.button(key="train.again").click().run()
    fresh = run_of(at)
    assert fresh is not run and fresh.status == "running" and 0 < fresh.sequences


def test_budget_stops_training_and_says_so():
    at = start(open_page(link(budget=3)), ticks=4)
    run = run_of(at)
    assert run.status == "budget" and run.sequences == 3
    assert any("Stopped at the budget" in w.value and "budget of 3 sequences" in w.value for w in at.warning)
    assert at.button(key="train.again").label == "Start again"


def test_tick_adapts_the_chunk_to_the_measured_speed(monkeypatch):
    class Clock:                      # every tick takes 0.01 s, whatever the machine's load
        now = 0.0

        @classmethod
        def perf_counter(cls) -> float:
            cls.now += 0.01
            return cls.now

        monotonic = staticmethod(__import__("time").monotonic)

    monkeypatch.setattr(train_run, "time", Clock)
    run = train_run.new_run(train_settings.build_trainer(train_settings.DEFAULTS), "k", "label", status="running")
    assert run.chunk == 1
    train_run.tick(run, seconds=0.05)       # 1 sequence in 0.01 s = 100/s -> 5 per 0.05 s
    assert (run.sequences, run.chunk) == (1, 4)   # ... but a chunk grows at most 4× at a time
    train_run.tick(run, seconds=0.05)       # 4 in 0.01 s -> 20
    assert (run.sequences, run.chunk) == (5, 16)
    train_run.tick(run, seconds=0.01)       # 16 in 0.01 s -> 16 per 0.01 s
    assert (run.sequences, run.chunk) == (21, 16)
    for _ in range(8):
        train_run.tick(run, seconds=10.0)   # 1,600/s -> 16,000, but capped
    assert run.chunk == pacing.MAX_CHUNK


def test_history_stays_bounded_and_keeps_the_newest_point():
    run = train_run.new_run(train_settings.build_trainer(train_settings.DEFAULTS), "k", "label", status="running")
    for _ in range(train_run.MAX_POINTS + 50):
        run.trainer.train(1)
        train_run.record(run, run.trainer.progress())
    assert len(run.curves) <= train_run.MAX_POINTS
    assert run.curves.data["sequences"][-1] == run.sequences
    assert all(len(v) == len(run.curves) for v in run.curves.grads.values())
    seqs = run.curves.array("sequences")
    assert (np.diff(seqs) > 0).all()


# ============================================================================= every control
CONTROLS = [
    ("selectbox", "variant", "lstm2000", lambda r: r.trainer.model.config.variant == "lstm2000"),
    ("selectbox", "task", "adding", lambda r: r.trainer.task.name == "adding"),
    ("segmented_control", "algorithm", "bptt", lambda r: r.trainer.config.algorithm == "bptt"),
    ("number_input", "lr", 0.5, lambda r: r.trainer.config.lr == 0.5),
    ("number_input", "momentum", 0.9, lambda r: r.trainer.config.momentum == 0.9),
    ("checkbox", "clip_norm.on", True, lambda r: r.trainer.config.clip_norm == 5.0),
    ("slider", "batch", 4, lambda r: r.trainer.config.batch == 4),
    ("number_input", "budget", 5000, lambda r: r.trainer.config.budget == 5000),
    ("number_input", "streak", 0, lambda r: r.trainer.required == 10_000),
    ("slider", "n_blocks", 2, lambda r: r.trainer.model.config.n_blocks == 2),
    ("slider", "init_range", 0.5, lambda r: r.trainer.model.config.init_range == 0.5),
    ("checkbox", "b_input.on", True, lambda r: dict(r.trainer.model.config.bias).get("input") == 0.0),
    ("toggle", "input_to_output", False, lambda r: r.trainer.model.config.input_to_output is False),
    ("number_input", "long_lag.p", 20, lambda r: r.trainer.task.settings()["p"] == 20),
    ("number_input", "seed", 3, lambda r: r.trainer.model.config.seed == 3 and r.trainer.config.seed == 3),
]


def _set(at: AppTest, kind: str, name: str, value) -> None:
    w = getattr(at, kind)(key=f"train.{name}")
    (w.check() if value is True else w.uncheck()) if kind == "checkbox" else w.set_value(value)
    at.run()


@pytest.mark.parametrize("kind, name, value, check", CONTROLS, ids=[f"{c[1]}={c[2]}" for c in CONTROLS])
def test_each_main_control_changes_the_configuration_and_the_charts(kind, name, value, check):
    at = open_page()
    idle = data(at)
    url = dict(at.query_params)
    _set(at, kind, name, value)                       # before Start: the configuration changes
    assert not at.exception and not errors(at), errors(at)
    assert dict(at.query_params) != url
    decoded, bad = urlstate.decode(at.query_params[urlstate.PARAM], train_settings.SCHEMA.check)
    field = name.removesuffix(".on")
    assert not bad and (decoded[field] is not None if name.endswith(".on") else decoded[field] == value)
    assert check(run_of(at))
    if name not in ("budget", "streak", "lr", "momentum", "clip_norm.on", "batch"):
        assert data(at) != idle                       # a different network or probe sequence
    at = start(open_page(), ticks=3)                  # after Start: a new run with the new setting
    old, shown = run_of(at), data(at)
    _set(at, kind, name, value)
    assert not at.exception and not errors(at), errors(at)
    new = run_of(at)
    assert new is not old and new.status == "running" and check(new)
    assert data(at) != shown
    assert any("training restarted from scratch" in i.value for i in at.info)


def test_choosing_a_variant_switches_to_an_algorithm_it_supports():
    """The page never offers a dead end: rtrl exists only for the 1997 family, so choosing an
    rnn switches the algorithm to bptt (and says so) instead of showing an error."""
    at = start(open_page(), ticks=2)
    run = run_of(at)
    at.selectbox(key="train.variant").set_value("rnn").run()
    assert not at.exception and not errors(at), errors(at)
    assert any("switched to BPTT" in i.value for i in at.info), [i.value for i in at.info]
    algo = at.segmented_control(key="train.algorithm")
    assert algo.value == "bptt" and "rtrl" not in algo.options
    new = run_of(at)                                                   # a running run restarts on the new network
    assert new is not run and new.trainer.model.config.variant == "rnn"
    assert new.trainer.config.algorithm == "bptt"


def test_task_longer_than_the_cap_is_refused():
    at = open_page()
    at.selectbox(key="train.task").set_value("adding").run()
    good = data(at)
    at.number_input(key="train.adding.T").set_value(5000).run()
    assert any("at most 1100" in e for e in errors(at)), errors(at)
    assert data(at) == good


def test_reset_training_group_restores_the_papers_settings():
    at = open_page()
    at.number_input(key="train.lr").set_value(0.01).run()
    at.segmented_control(key="train.algorithm").set_value("bptt").run()
    at.button(key="train.reset.train").click().run()
    assert at.number_input(key="train.lr").value == 1.0 and at.segmented_control(key="train.algorithm").value == "rtrl"


# ============================================================================= divergence
def test_absurd_learning_rate_diverges_cleanly_with_an_explanation():
    at = open_page(link(variant="rnn", algorithm="bptt", task="periodic", lr=1e6))
    assert not errors(at)
    start(at)
    for _ in range(80):                            # ~19 sequences; a chunk is ≥ 1 per run
        if run_of(at).status != "running":
            break
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    run = run_of(at)
    assert run.status == "diverged"
    msg = " ".join(errors(at))
    assert "diverged" in msg and "sequence" in msg and "learning rate is 1e+06" in msg
    assert "clip" in msg
    assert all(np.isfinite(p).all() for p in run.trainer.model.params.values())   # last finite weights kept
    assert at.button(key="train.again").label == "Start again"


# ============================================================================= URL
def test_query_string_reproduces_the_configuration():
    at = open_page()
    at.selectbox(key="train.variant").set_value("lstm2000").run()
    at.selectbox(key="train.task").set_value("adding").run()
    at.number_input(key="train.adding.T").set_value(20).run()
    at.segmented_control(key="train.algorithm").set_value("tbptt").run()
    at.number_input(key="train.k").set_value(7).run()
    at.number_input(key="train.lr").set_value(0.25).run()
    at.number_input(key="train.momentum").set_value(0.9).run()
    at.checkbox(key="train.clip_value.on").check().run()
    at.checkbox(key="train.b_forget.on").check().run()
    at.number_input(key="train.seed").set_value(11).run()
    assert not errors(at)
    query = {k: v[0] if isinstance(v, list) else v for k, v in dict(at.query_params).items()}
    assert set(query) == {urlstate.PARAM}
    again = open_page(query)
    assert not errors(again)
    a, b = run_of(at).trainer, run_of(again).trainer
    assert a.model.config.to_dict() == b.model.config.to_dict()
    assert a.config.to_dict() == b.config.to_dict()
    assert (b.config.algorithm, b.config.k, b.config.lr, b.config.momentum, b.config.clip_value) == \
        ("tbptt", 7, 0.25, 0.9, 1.0)
    assert b.task.settings()["T"] == 20 and b.model.config.seed == 11
    assert data(again) == data(at)
    start(again, ticks=2)
    start(at, ticks=2)
    # same settings, same seed: the same training (bit for bit) in both sessions
    np.testing.assert_array_equal(run_of(at).curves.array("loss")[:1], run_of(again).curves.array("loss")[:1])


@pytest.mark.parametrize("query, words", [
    ({"cfg": "%%%not-base64"}, "not a Gate Lab configuration"),
    ({"cfg": '{"lr": "fast"}'}, "finite number"),
    ({"cfg": '{"lr": 1e9}'}, "between"),
    ({"cfg": '{"budget": 5000000}'}, "between"),
    ({"cfg": '{"algorithm": "adam"}'}, "must be one of"),
    ({"cfg": '{"n_blocks": 99}'}, "between 1 and 8"),
    ({"cfg": '{"seed": 1'}, "not valid JSON"),
    ({"lr": "3"}, "Unknown URL parameter"),
])
def test_bad_query_parameters_give_an_error_not_an_exception(query, words):
    at = open_page(query)
    assert any(words in e for e in errors(at)), errors(at)
    assert data(at) == data(open_page())           # the defaults are shown


def test_valid_link_with_an_impossible_combination_is_corrected_with_a_note():
    at = open_page(link(variant="gru", algorithm="rtrl"))
    assert not at.exception and not errors(at), errors(at)
    assert any("switched to BPTT" in i.value for i in at.info), [i.value for i in at.info]
    assert at.segmented_control(key="train.algorithm").value == "bptt"


# ============================================================================= presets
@pytest.mark.parametrize("name", ["adding", "spike_delay_msd", "latching", "multiplication"])
def test_preset_fills_every_control_with_the_papers_values(name):
    at = open_page()
    at.selectbox(key="train.preset").set_value(name).run()
    assert not at.exception and not errors(at), errors(at)
    p = PRESETS[name]
    assert any(p.title in s.value for s in at.success)
    assert at.selectbox(key="train.preset").value == "—"            # ready for the next choice
    run = run_of(at)
    built, ref = run.trainer.model.config.to_dict(), p.model_config(seed=0).to_dict()
    if name == "multiplication":          # random biases shown as the even stagger −3, −6 (said so)
        assert dict(run.trainer.model.config.bias)["input"] == (-3.0, -6.0)
        assert any("staggers them evenly" in s.value for s in at.success)
        built.pop("bias"), ref.pop("bias")
    assert built == ref
    assert run.trainer.config.to_dict() == p.train_config().to_dict()
    assert run.trainer.task.settings() == p.build_task().settings()
    assert at.selectbox(key="train.variant").value == p.model.variant
    assert at.number_input(key="train.lr").value == p.train.lr


def test_every_preset_maps_onto_the_page():
    for name, p in PRESETS.items():
        v, notes = train_settings.preset_values(name, seed=2)
        trainer = train_settings.build_trainer({**train_settings.DEFAULTS, **v, "seed": 2})
        # the page has no stream-protocol (2002 reset_on_error) or sequential-construction (1997
        # grow_window) control: it says so in the notes
        want = p.train_config(seed=2).replace(reset_on_error=False, grow_window=None).to_dict()
        assert trainer.config.to_dict() == want, name
        if p.train_config().reset_on_error:
            assert any("stream protocol" in n for n in notes), name
        if p.train_config().grow_window:
            assert any("sequential construction" in n for n in notes), name
        assert trainer.model.config.variant == p.model.variant and trainer.model.config.seed == 2


# ============================================================================= run A vs run B
def test_keep_as_run_a_draws_it_under_the_next_run():
    at = start(open_page(), ticks=3)
    a = run_of(at)
    at.button(key="train.keep_a").click().run()
    kept = at.session_state["_page.train"]["run_a"]
    assert kept.label == f"A: {a.label}" and len(kept) >= 3
    at.number_input(key="train.lr").set_value(0.5).run()           # run B starts with the new setting
    at.run()
    charts = specs(at)
    names = [t["name"] for t in charts["train-loss"]["data"]]
    assert names == [kept.label, f"B: {run_of(at).label}"]
    assert "lr 0.5" in names[1] and "lr 1" in names[0]
    np.testing.assert_allclose(values(charts["train-loss"], kept.label), kept.array("loss"))
    assert [t["line"]["dash"] for t in charts["train-criterion"]["data"]] == ["dash", "solid"]
    at.button(key="train.clear_a").click().run()
    assert len(specs(at)["train-loss"]["data"]) == 1


# ============================================================================= export / import
def test_exports_and_config_round_trip():
    at = start(open_page(), ticks=2)
    run = run_of(at)
    frame = run.trainer.history_frame()
    assert list(frame["sequences"])[-1] == run.sequences and {"loss", "streak", "criterion_fraction"} <= set(frame)
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Training curves (CSV)" in labels and "Configuration (JSON)" in labels
    doc = export.config_document(train_settings.PAGE, run.trainer.model.config, {**train_settings.DEFAULTS, "lr": 0.3})
    values, notes = export.parse_config_upload(doc.encode(), train_settings.PAGE, train_settings.SCHEMA)
    assert values["lr"] == 0.3 and not notes


def test_bad_uploaded_configuration_gives_an_error_and_keeps_the_run():
    at = start(open_page(), ticks=2)
    run = run_of(at)
    for name, payload, words in (("broken.json", b"{not json", "not valid JSON"),
                                 ("bad.json", json.dumps({"kind": export.DOC_KIND, "page": train_settings.PAGE,
                                                          "settings": {"lr": -1}}).encode(), "lr")):
        at.file_uploader[0].set_value((name, payload, "application/json")).run()
        assert not at.exception
        assert any(words in e and "unchanged" in e for e in errors(at)), errors(at)
        assert run_of(at) is run
    good = export.config_document(train_settings.PAGE, None, {**train_settings.DEFAULTS, "lr": 0.3, "seed": 4})
    at.file_uploader[0].set_value(("good.json", good.encode(), "application/json")).run()
    assert not errors(at) and at.number_input(key="train.lr").value == 0.3
    assert run_of(at).trainer.config.lr == 0.3 and run_of(at).trainer.model.config.seed == 4


# ============================================================================= figures
def test_figures_are_valid_and_alt_texts_do_not_change_while_training():
    run = train_run.new_run(train_settings.build_trainer(train_settings.DEFAULTS), "k", "label", status="running")
    def alts():
        c = run.curves
        charts = [train_figures.loss_chart(c, None, loss_name="squared error", large=False),
                  train_figures.criterion_chart(c, None, required=100, reduced=False, large=True),
                  train_figures.grad_chart(c, large=False)]
        charts += train_figures.probe_panels("lstm1997", 1, run.probe, 0, "block 1, cell 1", False)
        for fig, _ in charts:
            go.Figure(fig.to_dict())           # validation on: no misspelt properties
        return [alt for _, alt in charts]
    train_run.tick(run)
    first = alts()
    for _ in range(3):
        train_run.tick(run)
    assert alts() == first                    # a changing alt text remounts the chart (flicker)
    assert all(a for a in first)


def test_trainer_built_by_the_page_equals_one_built_by_hand():
    trainer = train_settings.build_trainer(train_settings.DEFAULTS)
    task = lc.get_task("long_lag", p=10)
    p = PRESETS["long_lag_assisted"]               # the page's default recipe (it has no absent connections)
    cfg = lc.ModelConfig.from_dict({**p.model_config(seed=0).to_dict(), "n_in": task.n_in, "n_out": task.n_out})
    by_hand = Trainer(lc.build(cfg), task, p.train_config(streak=1000))
    a, b = trainer.train(20), by_hand.train(20)
    assert a.loss == b.loss and a.streak == b.streak


# ============================================================================= every variant, unit picker
@pytest.mark.parametrize("variant", list(lc.VARIANTS))
def test_every_variant_trains_and_shows_its_own_gates_and_states(variant):
    algorithm = "rtrl" if variant in ("lstm1997", "lstm2000", "lstm2002") else "bptt"
    at = start(open_page(link(variant=variant, algorithm=algorithm, task="adding", output_gate=True,
                              **{"adding.T": 20})), ticks=2)
    assert not errors(at), errors(at)
    run = run_of(at)
    assert run.trainer.model.config.variant == variant and run.sequences > 0
    charts = specs(at)
    gates = charts["train-gates"]
    expected = {"lstm": ["input i", "forget f", "output o"], "gru": ["reset r", "update z"],
                "lstm1997": ["input gate", "output gate"], "lstm2000": ["input gate", "forget gate", "output gate"],
                "lstm2002": ["input gate", "forget gate", "output gate"]}
    if variant in expected:
        assert [t["name"] for t in gates["data"]] == expected[variant]
    else:                                   # no gates: the chart says so and shows net inputs
        assert "no gates" in gates["layout"]["title"]["text"]
    probe = run.trainer.probe()            # the charts show the network as it is now
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
    run = train_run.new_run(train_settings.build_trainer(cfg), train_settings.effective_key(cfg), train_settings.summary(cfg), "running")
    while run.status == "running":                 # the page's own tick, with longer chunks
        train_run.tick(run, seconds=0.5)
    assert run.status == "solved"
    at.session_state["_page.train"]["run"] = run     # this session's run, as if trained live
    at.run()
    assert not at.exception
    assert run_of(at) is run
    assert any("Stopped at the criterion" in s.value and "100 in a row" in s.value for s in at.success)
    assert at.button(key="train.again").label == "Start again"
    crit = specs(at)["train-criterion"]
    assert values(crit, f"this run: {run.label}")[-1] == 1.0        # the curve reaches the line
