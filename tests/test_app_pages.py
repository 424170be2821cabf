"""Home and Step through a cell pages (Streamlit AppTest): defaults, every control, playback, links
and uploads.

Chart assertions read the figure JSON the page sends to the browser
(``json.loads(chart.proto.spec)``) and, where it matters, compare it with numbers computed
here directly from ``lstm_core`` — a page drawing made-up curves would fail.
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from helpers import chart_specs
from page_helpers import PAGES_DIR, errors, fig, metric, open_page, page_module, step_charts, trace, ys

import lstm_core as lc
from app.step import settings as step_settings
from app.ui import export, netconfig, urlstate


# ============================================================================= Home
def test_home_shows_the_real_error_flow_of_rnn_and_lstm1997():
    at = open_page("home")
    assert any(t.value == "Gate Lab" for t in at.title)
    spec = fig(at, "home-flow")
    rnn, lstm = trace(spec, "RNN (h)"), trace(spec, "LSTM 1997 (s)")  # the variants' titles
    # the same computation, straight from the core
    home = page_module("home")
    xs = np.random.default_rng(home.SEED).uniform(-1, 1, size=(home.T, 1, 2))
    for name, label, shown in (("rnn", "h", rnn), ("lstm1997", "s", lstm)):
        norms = lc.error_flow(lc.build(home.HEADLINE[name]), xs).norms[label][::-1]
        np.testing.assert_allclose(shown, norms / norms[0], rtol=1e-9)
    assert rnn[-1] < 0.1 and lstm[-1] > 0.99  # vanishing vs carousel, visibly
    assert spec["layout"]["yaxis"]["type"] == "log"


def test_home_links_only_to_pages_that_exist():
    at = open_page("home")
    links = at.get("page_link")
    expected = [
        f
        for f in (
            "lessons.py",
            "step.py",
            "gradient_flow.py",
            "theory.py",
            "train.py",
            "bias_lab.py",
            "experiments.py",
        )
        if (PAGES_DIR / f).exists()
    ]
    assert len(links) == len(expected) >= 2


# ============================================================================= Step: defaults
def test_step_default_run_draws_the_real_run():
    at = open_page("step")
    assert not errors(at)
    assert len(chart_specs(at)) == 5  # diagram + 4 panels
    assert metric(at).startswith("1 / ")
    # the cell-state chart shows the core's forward pass on the page's default sequence
    DEFAULTS = step_settings.DEFAULTS
    task = lc.get_task("adding", T=DEFAULTS["adding.T"])
    b = task.generate(np.random.default_rng(DEFAULTS["seed"]), batch=1)
    xs = b.xs[: int(b.lengths[0])]
    cfg = netconfig.model_config(DEFAULTS, 2, 1)
    run = lc.forward(lc.build(cfg), xs)
    states = fig(at, "step-states")
    for j in range(cfg.n_cells):
        np.testing.assert_allclose(trace(states, f"s{j + 1}"), run.internals["s"][:, 0, j], rtol=1e-12)
    gates = fig(at, "step-gates")
    np.testing.assert_allclose(trace(gates, "input gate"), run.internals["y_ig"][:, 0, 0], rtol=1e-12)
    # first sight: milder biases than the paper's, so the untrained cell visibly moves
    ig = trace(gates, "input gate")
    assert 0.05 < ig.min() and ig.max() - ig.min() > 0.2
    assert np.abs(run.internals["s"]).max() > 1.0
    assert at.latex and "s_c(t)" in at.latex[0].value
    # the paper's settings are two clicks away: input gates −3, −6, weights ±0.1 → mostly shut
    at.button(key="step.reset.bias").click().run()
    at.button(key="step.reset.model").click().run()
    assert at.slider(key="step.init_range").value == 0.1
    assert at.slider(key="step.b_input").value == -3.0
    assert trace(fig(at, "step-gates"), "input gate").max() < 0.1


# ============================================================================= Step: every control
@pytest.mark.parametrize(
    "change",
    [
        ("selectbox", "step.variant", "gru"),
        ("selectbox", "step.variant", "rnn"),
        ("slider", "step.n_blocks", 3),
        ("slider", "step.block_size", 1),
        ("slider", "step.init_range", 0.5),
        ("slider", "step.b_output", 2.0),
        ("number_input", "step.b_input_step", 0.0),
        ("number_input", "step.seed", 5),
        ("selectbox", "step.task", "temporal_order"),
        ("number_input", "step.adding.T", 30),
        ("segmented_control", "step.source", "typed"),
        ("toggle", "step.output_gate", False),
        ("selectbox", "step.cell_input", "sigmoid"),
    ],
    ids=lambda c: f"{c[1]}={c[2]}",
)
def test_step_each_main_control_changes_the_charts(change):
    kind, key, value = change
    at = open_page("step")
    before = step_charts(at)
    getattr(at, kind)(key=key).set_value(value).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not errors(at), errors(at)
    assert step_charts(at) != before


def test_step_forward_back_reset_and_unit_move_the_cursor_and_diagram():
    at = open_page("step")
    diagram = fig(at, "diagram")
    at.button(key="step.fwd").click().run()
    at.button(key="step.fwd").click().run()
    assert metric(at).startswith("3 / ")
    assert fig(at, "step-input")["layout"]["shapes"][0]["x0"] == 3  # the cursor line
    assert fig(at, "diagram") != diagram
    at.button(key="step.back").click().run()
    assert metric(at).startswith("2 / ")
    gates = ys(fig(at, "step-gates"))
    at.selectbox(key="step.unit").set_value(2).run()  # block 2, cell 1
    assert ys(fig(at, "step-gates")) != gates
    at.button(key="step.reset").click().run()
    assert metric(at).startswith("1 / ")


def test_step_play_starts_the_timer_and_advances_one_step_per_tick():
    at = open_page("step")
    at.segmented_control(key="step.play").set_value("play").run()
    assert not at.exception
    assert metric(at).startswith("2 / ")  # each fragment run while playing = one step
    at.run()  # (AppTest does not simulate the timer: one run = one tick)
    assert metric(at).startswith("3 / ")
    at.segmented_control(key="step.play").set_value("pause").run()
    assert metric(at).startswith("3 / ")
    at.run()
    assert metric(at).startswith("3 / ")  # paused: no more ticks
    at.button(key="step.fwd").click().run()
    assert metric(at).startswith("4 / ")


def timestep(at):
    """The Timestep slider (its key changes at every Play/Pause switch: app.step.player.slider_key)."""
    (slider,) = [s for s in at.slider if s.label == "Timestep"]
    return slider


def test_step_a_lagging_slider_value_never_pulls_playback_or_pause_back():
    """While playing, the browser's slider value lags the page (late timer ticks: 15+ steps seen in
    a browser); neither a tick nor the Pause click carrying such a value moves the cursor back. (Playback
    follows the clock, and a late tick catches up: on a busy machine a tick may move more than one step,
    so the steps are compared, not named.)"""
    at = open_page("step")
    at.session_state["step.speed"] = 0.5  # the slowest playback: far from the end however slow the runs
    at.segmented_control(key="step.play").set_value("play").run()
    at.run()
    shown = step(at)
    assert shown >= 3 and timestep(at).disabled  # playing: the slider only shows
    stale = timestep(at).key  # (AppTest refuses to set a disabled slider; the browser sends it anyway)
    at.session_state[stale] = 1
    at.run()  # a tick carrying step 1
    assert step(at) > shown, "a tick's lagging slider value pulled playback back"
    shown = step(at)
    at.session_state[stale] = 2  # Pause carrying step 2
    at.segmented_control(key="step.play").set_value("pause").run()
    assert step(at) == shown  # stops where the page was
    assert timestep(at).key != stale and not timestep(at).disabled
    at.run()  # a tick still in flight
    assert step(at) == shown
    timestep(at).set_value(2).run()  # the user drags back
    assert metric(at).startswith("2 / ")
    assert fig(at, "step-input")["layout"]["shapes"][0]["x0"] == 2


def step(at) -> int:
    """The step the page shows ("7 / 22" -> 7)."""
    return int(metric(at).split("/")[0])


def test_step_where_the_browser_reports_its_step_an_older_slider_value_is_no_move():
    """Where the browser's transport runs (it has reported a step: app.step.scrub.on_report), Streamlit's
    Timestep slider is hidden; a request can still carry a value it was drawn with runs ago. That value
    is never a move (seen in a browser under load: three Back clicks to step 4, then a file upload
    whose request carried the slider's 6, and the cursor went back to 6)."""
    at = open_page("step")
    timestep(at).set_value(6).run()  # a page without the browser's transport: the slider is the user's
    assert step(at) == 6
    timestep(at).set_value(4).run()
    assert step(at) == 4
    stale = timestep(at).key
    at.session_state[stale] = 6  # an older value the slider was drawn with
    at.run()
    assert step(at) == 6  # without the browser's transport it cannot be told from the user's move
    timestep(at).set_value(4).run()
    at.session_state["step.scrub"] = {"at": {"t": 4, "n": 1.0}}  # the browser's transport said: step 4
    at.run()
    assert step(at) == 4
    at.session_state[stale] = 6
    at.run()
    assert step(at) == 4 and not at.exception


def test_step_play_stops_at_the_end_and_plays_again_from_the_start():
    at = open_page("step")
    T = int(metric(at).split("/")[1])
    timestep(at).set_value(T - 1).run()
    at.segmented_control(key="step.play").set_value("play").run()
    assert metric(at) == f"{T} / {T}"
    at.run()
    assert not at.exception and metric(at) == f"{T} / {T}"  # stays at the end
    assert any("End of the sequence" in c.value for c in at.caption)
    assert at.session_state["_page.step"]["armed"] is False  # the timer is off
    at.segmented_control(key="step.play").set_value("pause").run()
    at.segmented_control(key="step.play").set_value("play").run()  # Play at the end: from the start
    assert metric(at).startswith("2 / ")


def test_step_typed_sequence_is_used_and_bad_text_keeps_the_last_good_run():
    at = open_page("step")
    at.segmented_control(key="step.source").set_value("typed").run()
    at.text_area(key="step.typed").set_value("1 2\n3 4\n5 6").run()
    assert not errors(at)
    x = fig(at, "step-input")
    np.testing.assert_allclose(trace(x, "x1"), [1, 3, 5])
    np.testing.assert_allclose(trace(x, "x2"), [2, 4, 6])
    good = step_charts(at)
    for bad, words in (
        ("1 2\n3", "row 2 has 1 numbers"),
        ("1, two, 3", "'two' is not a number"),
        ("", "at least one number"),
        ("1 nan", "not a finite number"),
    ):
        at.text_area(key="step.typed").set_value(bad).run()
        assert not at.exception
        assert any(words in e for e in errors(at)), (bad, errors(at))
        assert step_charts(at) == good  # last good result kept


def test_step_invalid_task_settings_give_an_error_and_keep_the_last_good_run():
    at = open_page("step")
    good = step_charts(at)
    at.number_input(key="step.adding.T").set_value(5).run()  # the task needs T >= 12
    assert any("T must be" in e for e in errors(at)), errors(at)
    assert step_charts(at) == good
    at.number_input(key="step.adding.T").set_value(5000).run()  # beyond the page's cap
    assert any("at most 500" in e for e in errors(at)), errors(at)
    assert step_charts(at) == good


def test_step_reset_buttons_restore_paper_defaults():
    at = open_page("step")
    at.slider(key="step.b_input").set_value(4.0).run()
    at.slider(key="step.n_blocks").set_value(5).run()
    at.button(key="step.reset.bias").click().run()
    at.button(key="step.reset.model").click().run()
    assert at.slider(key="step.b_input").value == -3.0  # adding: input gate biases −3, −6
    assert at.number_input(key="step.b_input_step").value == -3.0
    assert at.slider(key="step.n_blocks").value == 2
    at.number_input(key="step.adding.T").set_value(40).run()
    at.button(key="step.reset.task").click().run()
    assert at.number_input(key="step.adding.T").value == 100  # the paper's T


# ============================================================================= Step: URL
def test_step_query_string_reproduces_the_configuration():
    at = open_page("step")
    at.selectbox(key="step.variant").set_value("lstm2000").run()
    at.checkbox(key="step.b_forget.on").check().run()
    at.slider(key="step.b_forget").set_value(2.5).run()
    at.number_input(key="step.seed").set_value(11).run()
    at.button(key="step.fwd").click().run()
    query = dict(at.query_params)
    assert set(query) == {urlstate.PARAM}
    again = open_page("step", {k: v[0] if isinstance(v, list) else v for k, v in query.items()})
    assert not errors(again)
    assert again.selectbox(key="step.variant").value == "lstm2000"
    assert again.number_input(key="step.seed").value == 11
    assert metric(again) == metric(at)
    assert step_charts(again) == step_charts(at)
    assert fig(again, "diagram") == fig(at, "diagram")


@pytest.mark.parametrize(
    "query, words",
    [
        ({"cfg": "%%%not-base64"}, "not a Gate Lab configuration"),
        ({"cfg": base64.urlsafe_b64encode(b"[1,2]").decode()}, "JSON object"),
        ({"cfg": '{"n_blocks": 99}'}, "between 1 and 8"),
        ({"cfg": '{"variant": "transformer"}'}, "must be one of"),
        ({"cfg": '{"seed": "abc"}'}, "finite number"),
        ({"cfg": '{"warp": 9}'}, "unknown setting"),
        ({"cfg": '{"seed": 1'}, "not valid JSON"),
        ({"seed": "3"}, "Unknown URL parameter"),
    ],
)
def test_step_bad_query_parameters_give_an_error_not_an_exception(query, words):
    at = open_page("step", query)
    assert any(words in e for e in errors(at)), errors(at)
    assert step_charts(at) == step_charts(open_page("step"))  # the defaults are shown


# ============================================================================= Step: upload
def test_step_upload_applies_a_good_configuration_and_refuses_bad_ones():
    at = open_page("step")
    good = step_charts(at)
    up = at.file_uploader[0]
    up.set_value(("broken.json", b"{not json", "application/json")).run()
    assert any("not valid JSON" in e for e in errors(at)) and step_charts(at) == good
    too_big = lc.ModelConfig(variant="lstm1997", n_in=2, n_out=1, n_blocks=20).to_json().encode()
    at.file_uploader[0].set_value(("big.json", too_big, "application/json")).run()
    assert any("between 1 and 8" in e for e in errors(at)) and step_charts(at) == good
    gru = lc.ModelConfig(variant="gru", n_in=3, n_out=2, n_hidden=5, bias={"update": 1.5}, seed=7)
    at.file_uploader[0].set_value(("gru.json", gru.to_json().encode(), "application/json")).run()
    assert not errors(at) and at.success
    assert at.selectbox(key="step.variant").value == "gru"
    assert at.slider(key="step.n_hidden").value == 5 and at.slider(key="step.b_update").value == 1.5
    assert [t["name"] for t in fig(at, "step-gates")["data"]] == ["reset r", "update z"]


def test_config_upload_validation_directly():
    DEFAULTS, PAGE, SCHEMA = step_settings.DEFAULTS, step_settings.PAGE, step_settings.SCHEMA
    doc = export.config_document(PAGE, netconfig.model_config(DEFAULTS, 2, 1), DEFAULTS)
    values, notes = export.parse_config_upload(doc.encode(), PAGE, SCHEMA)
    assert values == DEFAULTS and notes == []
    cases = [
        (b"\xff\xfe", "not text"),
        (b"[]", "JSON object"),
        (b'{"a": 1}', "neither"),
        (b'{"variant": "lstm1997", "n_in": 0, "n_out": 1}', "n_in"),
        (
            json.dumps(
                {"variant": "lstm1997", "n_in": 2, "n_out": 1, "bias": {"input": {"uniform": [-1, 0]}}}
            ).encode(),
            "drawn at random",
        ),
        (
            json.dumps(
                {
                    "variant": "lstm1997",
                    "n_in": 2,
                    "n_out": 1,
                    "n_blocks": 3,
                    "bias": {"output": [-1, -5, -2]},
                }
            ).encode(),
            "not evenly spaced",
        ),
        (b" " * 70_000, "at most"),
        (json.dumps({"kind": export.DOC_KIND, "page": PAGE, "settings": {"seed": -1}}).encode(), "seed"),
    ]
    for data, words in cases:
        with pytest.raises(ValueError, match=None) as e:
            export.parse_config_upload(data, PAGE, SCHEMA)
        assert words in str(e.value), (data[:40], str(e.value))
    staggered = lc.ModelConfig(
        variant="lstm1997", n_in=2, n_out=1, n_blocks=4, bias={"output": [-1, -2, -3, -4]}
    )
    values, _ = netconfig.values_from_model(staggered, SCHEMA)
    assert (values["b_output"], values["b_output_step"]) == (-1.0, -1.0)
    rebuilt = netconfig.model_config({**DEFAULTS, **values}, 2, 1)
    assert dict(rebuilt.bias)["output"].to_json() == [-1.0, -2.0, -3.0, -4.0]
