"""Train-and-watch page (AppTest): its controls, links, paper presets and the export/import box.

Each control changes the configuration and the charts; a link reproduces a configuration; every
paper preset maps onto the page; a bad link or upload gives a message and keeps the run.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from train_page_helpers import data, errors, link, open_page, run_of, specs, start, values

from app.train import live_run
from app.train import settings as train_settings
from app.ui import export, urlstate
from lstm_core.training import PRESETS

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
    ("checkbox", "b_input.on", True, lambda r: dict(r.trainer.model.config.bias)["input"].to_json() == 0.0),
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
    _set(at, kind, name, value)  # before Start: the configuration changes
    assert not at.exception and not errors(at), errors(at)
    assert dict(at.query_params) != url
    decoded, bad = urlstate.decode(at.query_params[urlstate.PARAM], train_settings.SCHEMA.check)
    field = name.removesuffix(".on")
    assert not bad and (decoded[field] is not None if name.endswith(".on") else decoded[field] == value)
    assert check(run_of(at))
    if name not in ("budget", "streak", "lr", "momentum", "clip_norm.on", "batch"):
        assert data(at) != idle  # a different network or probe sequence
    at = start(open_page(), ticks=3)  # after Start: the run is kept, paused, and shown ...
    old, shown = run_of(at), data(at)
    _set(at, kind, name, value)
    assert not at.exception and not errors(at), errors(at)
    assert run_of(at) is old and old.status == "paused" and old.sequences
    assert {k: v for k, v in data(at).items() if k != "progress"} == {
        k: v for k, v in shown.items() if k != "progress"
    }
    assert any("this run was paused" in i.value for i in at.info)
    assert any("You changed the settings after this run was started" in i.value for i in at.info)
    assert at.button(key="train.go").label == "Start a new run"
    at.button(key="train.go").click().run()  # ... until "Start a new run": one with the new setting
    new = run_of(at)
    assert new is not old and new.status == "running" and check(new)
    assert at.session_state["_page.train"]["live"].previous is old


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
    assert run_of(at) is run and run.status == "paused"  # the trained run is kept, paused ...
    at.button(key="train.go").click().run()  # ... until "Start a new run"
    new = run_of(at)
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
    assert (
        at.number_input(key="train.lr").value == 1.0
        and at.segmented_control(key="train.algorithm").value == "rtrl"
    )


# ============================================================================= divergence
def test_absurd_learning_rate_diverges_cleanly_with_an_explanation():
    at = open_page(link(variant="rnn", algorithm="bptt", task="periodic", lr=1e6))
    assert not errors(at)
    start(at)
    for _ in range(80):  # ~19 sequences; a chunk is ≥ 1 per run
        if run_of(at).status != "running":
            break
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    run = run_of(at)
    assert run.status == "diverged"
    msg = " ".join(errors(at))
    assert "diverged" in msg and "sequence" in msg and "learning rate is 1e+06" in msg
    assert "clip" in msg
    assert all(np.isfinite(p).all() for p in run.trainer.model.params.values())  # last finite weights kept
    assert at.button(key="train.go").label == "Start again"


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
    assert (b.config.algorithm, b.config.k, b.config.lr, b.config.momentum, b.config.clip_value) == (
        "tbptt",
        7,
        0.25,
        0.9,
        1.0,
    )
    assert b.task.settings()["T"] == 20 and b.model.config.seed == 11
    assert data(again) == data(at)
    start(again, ticks=2)
    start(at, ticks=2)
    # same settings, same seed: the same training (bit for bit) in both sessions
    np.testing.assert_array_equal(run_of(at).curves.array("loss")[:1], run_of(again).curves.array("loss")[:1])


@pytest.mark.parametrize(
    "query, words",
    [
        ({"cfg": "%%%not-base64"}, "not a Gate Lab configuration"),
        ({"cfg": '{"lr": "fast"}'}, "finite number"),
        ({"cfg": '{"lr": 1e9}'}, "between"),
        ({"cfg": '{"budget": 5000000}'}, "between"),
        ({"cfg": '{"algorithm": "adam"}'}, "must be one of"),
        ({"cfg": '{"n_blocks": 99}'}, "between 1 and 8"),
        ({"cfg": '{"seed": 1'}, "not valid JSON"),
        ({"lr": "3"}, "Unknown URL parameter"),
    ],
)
def test_bad_query_parameters_give_an_error_not_an_exception(query, words):
    at = open_page(query)
    assert any(words in e for e in errors(at)), errors(at)
    assert data(at) == data(open_page())  # the defaults are shown


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
    assert at.selectbox(key="train.preset").value == "—"  # ready for the next choice
    run = run_of(at)
    built, ref = run.trainer.model.config.to_dict(), p.model_config(seed=0).to_dict()
    if name == "multiplication":  # random biases shown as the even stagger −3, −6 (said so)
        assert dict(run.trainer.model.config.bias)["input"].to_json() == [-3.0, -6.0]
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
    kept = at.session_state["_page.train"]["live"].run_a
    assert kept.label == f"A: {a.label}" and len(kept) >= 3
    at.number_input(key="train.lr").set_value(0.5).run()  # run B: "Start a new run" with the new setting
    at.button(key="train.go").click().run()
    at.run()
    charts = specs(at)
    names = [t["name"] for t in charts["train-loss"]["data"]]
    assert names == [kept.label, f"B: {run_of(at).label}"]
    assert "lr 0.5" in names[1] and "lr 1" in names[0]
    np.testing.assert_allclose(values(charts["train-loss"], kept.label), kept.array("loss"))
    assert [t["line"]["dash"] for t in charts["train-criterion"]["data"]] == ["dash", "solid"]
    at.button(key="train.clear_a").click().run()
    assert len(specs(at)["train-loss"]["data"]) == 1


def test_keep_as_run_a_pressed_before_the_first_point_keeps_nothing_and_says_nothing_wrong():
    """While running the button is enabled from the start (it is drawn at the Start click, before any
    curve exists); a press before the first point keeps nothing, without an error."""
    at = start(open_page())
    run = run_of(at)
    assert run.active and not at.button(key="train.keep_a").disabled
    run.curves = live_run.Curves(run.label)  # as at the instant training started
    at.button(key="train.keep_a").click().run()
    assert not at.exception and at.session_state["_page.train"]["live"].run_a is None


# ============================================================================= export / import
def test_exports_and_config_round_trip():
    at = start(open_page(), ticks=2)
    run = run_of(at)
    frame = run.trainer.history_frame()
    assert list(frame["sequences"])[-1] == run.sequences and {"loss", "streak", "criterion_fraction"} <= set(
        frame
    )
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Training curves (CSV)" in labels and "Configuration (JSON)" in labels
    doc = export.config_document(
        train_settings.PAGE, run.trainer.model.config, {**train_settings.DEFAULTS, "lr": 0.3}
    )
    values, notes = export.parse_config_upload(doc.encode(), train_settings.PAGE, train_settings.SCHEMA)
    assert values["lr"] == 0.3 and not notes


def test_bad_uploaded_configuration_gives_an_error_and_keeps_the_run():
    at = start(open_page(), ticks=2)
    run = run_of(at)
    for name, payload, words in (
        ("broken.json", b"{not json", "not valid JSON"),
        (
            "bad.json",
            json.dumps(
                {"kind": export.DOC_KIND, "page": train_settings.PAGE, "settings": {"lr": -1}}
            ).encode(),
            "lr",
        ),
    ):
        at.file_uploader[0].set_value((name, payload, "application/json")).run()
        assert not at.exception
        assert any(words in e and "unchanged" in e for e in errors(at)), errors(at)
        assert run_of(at) is run
    good = export.config_document(
        train_settings.PAGE, None, {**train_settings.DEFAULTS, "lr": 0.3, "seed": 4}
    )
    at.file_uploader[0].set_value(("good.json", good.encode(), "application/json")).run()
    assert not errors(at) and at.number_input(key="train.lr").value == 0.3
    assert run_of(at) is run  # kept on screen until a new run is started
    at.button(key="train.go").click().run()
    assert run_of(at).trainer.config.lr == 0.3 and run_of(at).trainer.model.config.seed == 4
