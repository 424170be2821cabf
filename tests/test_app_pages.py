"""Home, Step through a cell and Gradient flow pages (Streamlit AppTest), plus the shared
app pieces they use (URL state, uploads, typed sequences).

Chart assertions read the figure JSON the page sends to the browser
(``json.loads(chart.proto.spec)``) and, where it matters, compare it with numbers computed
here directly from ``lstm_core`` — a page drawing made-up curves would fail.
"""
from __future__ import annotations

import base64
import importlib
import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import lstm_core as lc
from app.ui import controls, export, urlstate
from app.ui.controls import Field, Schema
from helpers import chart_specs

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"
PAGES_DIR = ENTRY.parents[1] / "pages"


def page_module(name: str):
    """A page's module (``pages`` is a package) for its settings and builders; its drawing only
    runs when Streamlit executes it as __main__."""
    return importlib.import_module(f"pages.{name}")


def open_page(page: str, query: dict[str, str] | None = None) -> AppTest:
    # Run once first: before that, switch_page finds pages by file name, not by url_path.
    at = AppTest.from_file(str(ENTRY), default_timeout=60).run()
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.switch_page(f"../pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def fig(at: AppTest, uirevision: str) -> dict:
    for spec in chart_specs(at):
        if spec["layout"].get("uirevision") == uirevision:
            return spec
    raise AssertionError(f"no chart with uirevision {uirevision!r}")


def ys(spec: dict) -> list:
    """Every trace's (name, y) -- what the user sees, as comparable data."""
    return [(tr.get("name"), tr.get("y"), tr.get("z")) for tr in spec["data"]]


def trace(spec: dict, name: str) -> np.ndarray:
    tr = next(t for t in spec["data"] if t.get("name") == name)
    y = tr["y"]
    if isinstance(y, dict):   # plotly may ship arrays as typed buffers
        y = np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"])
    return np.array([np.nan if v is None else v for v in y], dtype=float)


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def step_charts(at: AppTest) -> dict:
    return {k: ys(fig(at, k)) for k in ("step-input", "step-gates", "step-states", "step-outputs")}


def metric(at: AppTest) -> str:
    return at.metric[0].value


# ============================================================================= Home
def test_home_shows_the_real_error_flow_of_rnn_and_lstm1997():
    at = open_page("home")
    assert any(t.value == "Gate Lab" for t in at.title)
    spec = fig(at, "home-flow")
    rnn, lstm = trace(spec, "rnn (h)"), trace(spec, "lstm1997 (s)")
    # the same computation, straight from the core
    home = page_module("home")
    xs = np.random.default_rng(home.SEED).uniform(-1, 1, size=(home.T, 1, 2))
    for name, label, shown in (("rnn", "h", rnn), ("lstm1997", "s", lstm)):
        norms = lc.error_flow(lc.build(home.HEADLINE[name]), xs).norms[label][::-1]
        np.testing.assert_allclose(shown, norms / norms[0], rtol=1e-9)
    assert rnn[-1] < 0.1 and lstm[-1] > 0.99          # vanishing vs carousel, visibly
    assert spec["layout"]["yaxis"]["type"] == "log"


def test_home_links_only_to_pages_that_exist():
    at = open_page("home")
    links = at.get("page_link")
    expected = [f for f in ("lessons.py", "step.py", "gradient_flow.py", "theory.py", "train.py", "bias_lab.py",
                            "experiments.py") if (PAGES_DIR / f).exists()]
    assert len(links) == len(expected) >= 2


# ============================================================================= Step: defaults
def test_step_default_run_draws_the_real_run():
    at = open_page("step")
    assert not errors(at)
    assert len(chart_specs(at)) == 5                   # diagram + 4 panels
    assert metric(at).startswith("1 / ")
    # the cell-state chart shows the core's forward pass on the page's default sequence
    DEFAULTS = page_module("step").DEFAULTS
    task = lc.get_task("adding", T=DEFAULTS["adding.T"])
    b = task.generate(np.random.default_rng(DEFAULTS["seed"]), batch=1)
    xs = b.xs[: int(b.lengths[0])]
    cfg = export.model_config(DEFAULTS, 2, 1)
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
@pytest.mark.parametrize("change", [
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
], ids=lambda c: f"{c[1]}={c[2]}")
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
    assert fig(at, "step-input")["layout"]["shapes"][0]["x0"] == 3     # the cursor line
    assert fig(at, "diagram") != diagram
    at.button(key="step.back").click().run()
    assert metric(at).startswith("2 / ")
    gates = ys(fig(at, "step-gates"))
    at.selectbox(key="step.unit").set_value(2).run()                  # block 2, cell 1
    assert ys(fig(at, "step-gates")) != gates
    at.button(key="step.reset").click().run()
    assert metric(at).startswith("1 / ")


def test_step_play_starts_the_timer_and_advances_one_step_per_tick():
    at = open_page("step")
    at.segmented_control(key="step.play").set_value("play").run()
    assert not at.exception
    assert metric(at).startswith("2 / ")              # each fragment run while playing = one step
    at.run()                                          # (AppTest does not simulate the timer: one run = one tick)
    assert metric(at).startswith("3 / ")
    at.segmented_control(key="step.play").set_value("pause").run()
    assert metric(at).startswith("3 / ")
    at.run()
    assert metric(at).startswith("3 / ")              # paused: no more ticks
    at.button(key="step.fwd").click().run()
    assert metric(at).startswith("4 / ")


def timestep(at):
    """The Timestep slider (its key changes at every Play/Pause switch: app.step.player.slider_key)."""
    (slider,) = [s for s in at.slider if s.label == "Timestep"]
    return slider


def test_step_a_lagging_slider_value_never_pulls_playback_or_pause_back():
    """While playing, the browser's slider value lags the page (late timer ticks: 15+ steps seen in
    a browser); neither a tick nor the Pause click carrying such a value moves the cursor back."""
    at = open_page("step")
    at.segmented_control(key="step.play").set_value("play").run()
    at.run()
    assert metric(at).startswith("3 / ") and timestep(at).disabled       # playing: the slider only shows
    stale = timestep(at).key        # (AppTest refuses to set a disabled slider; the browser sends it anyway)
    at.session_state[stale] = 1
    at.run()                                                              # a tick carrying step 1
    assert metric(at).startswith("4 / ")
    at.session_state[stale] = 2                                           # Pause carrying step 2
    at.segmented_control(key="step.play").set_value("pause").run()
    assert metric(at).startswith("4 / ")                                  # stops where the page was
    assert timestep(at).key != stale and not timestep(at).disabled
    at.run()                                                              # a tick still in flight
    assert metric(at).startswith("4 / ")
    timestep(at).set_value(2).run()                                       # the user drags back
    assert metric(at).startswith("2 / ")
    assert fig(at, "step-input")["layout"]["shapes"][0]["x0"] == 2


def test_step_play_stops_at_the_end_and_plays_again_from_the_start():
    at = open_page("step")
    T = int(metric(at).split("/")[1])
    timestep(at).set_value(T - 1).run()
    at.segmented_control(key="step.play").set_value("play").run()
    assert metric(at) == f"{T} / {T}"
    at.run()
    assert not at.exception and metric(at) == f"{T} / {T}"          # stays at the end
    assert any("End of the sequence" in c.value for c in at.caption)
    assert at.session_state["_page.step"]["armed"] is False          # the timer is off
    at.segmented_control(key="step.play").set_value("pause").run()
    at.segmented_control(key="step.play").set_value("play").run()   # Play at the end: from the start
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
    for bad, words in (("1 2\n3", "row 2 has 1 numbers"), ("1, two, 3", "'two' is not a number"),
                       ("", "at least one number"), ("1 nan", "not a finite number")):
        at.text_area(key="step.typed").set_value(bad).run()
        assert not at.exception
        assert any(words in e for e in errors(at)), (bad, errors(at))
        assert step_charts(at) == good                              # last good result kept


def test_step_invalid_task_settings_give_an_error_and_keep_the_last_good_run():
    at = open_page("step")
    good = step_charts(at)
    at.number_input(key="step.adding.T").set_value(5).run()      # the task needs T >= 12
    assert any("T must be" in e for e in errors(at)), errors(at)
    assert step_charts(at) == good
    at.number_input(key="step.adding.T").set_value(5000).run()   # beyond the page's cap
    assert any("at most 500" in e for e in errors(at)), errors(at)
    assert step_charts(at) == good


def test_step_reset_buttons_restore_paper_defaults():
    at = open_page("step")
    at.slider(key="step.b_input").set_value(4.0).run()
    at.slider(key="step.n_blocks").set_value(5).run()
    at.button(key="step.reset.bias").click().run()
    at.button(key="step.reset.model").click().run()
    assert at.slider(key="step.b_input").value == -3.0           # adding: input gate biases −3, −6
    assert at.number_input(key="step.b_input_step").value == -3.0
    assert at.slider(key="step.n_blocks").value == 2
    at.number_input(key="step.adding.T").set_value(40).run()
    at.button(key="step.reset.task").click().run()
    assert at.number_input(key="step.adding.T").value == 100      # the paper's T


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


@pytest.mark.parametrize("query, words", [
    ({"cfg": "%%%not-base64"}, "not a Gate Lab configuration"),
    ({"cfg": base64.urlsafe_b64encode(b"[1,2]").decode()}, "JSON object"),
    ({"cfg": '{"n_blocks": 99}'}, "between 1 and 8"),
    ({"cfg": '{"variant": "transformer"}'}, "must be one of"),
    ({"cfg": '{"seed": "abc"}'}, "finite number"),
    ({"cfg": '{"warp": 9}'}, "unknown setting"),
    ({"cfg": '{"seed": 1'}, "not valid JSON"),
    ({"seed": "3"}, "Unknown URL parameter"),
])
def test_step_bad_query_parameters_give_an_error_not_an_exception(query, words):
    at = open_page("step", query)
    assert any(words in e for e in errors(at)), errors(at)
    assert step_charts(at) == step_charts(open_page("step"))      # the defaults are shown


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
    step = page_module("step")
    DEFAULTS, PAGE, SCHEMA = step.DEFAULTS, step.PAGE, step.SCHEMA
    doc = export.config_document(PAGE, export.model_config(DEFAULTS, 2, 1), DEFAULTS)
    values, notes = export.parse_config_upload(doc.encode(), PAGE, SCHEMA)
    assert values == DEFAULTS and notes == []
    cases = [(b"\xff\xfe", "not text"), (b"[]", "JSON object"), (b'{"a": 1}', "neither"),
             (b'{"variant": "lstm1997", "n_in": 0, "n_out": 1}', "n_in"),
             (json.dumps({"variant": "lstm1997", "n_in": 2, "n_out": 1,
                          "bias": {"input": {"uniform": [-1, 0]}}}).encode(), "drawn at random"),
             (json.dumps({"variant": "lstm1997", "n_in": 2, "n_out": 1, "n_blocks": 3,
                          "bias": {"output": [-1, -5, -2]}}).encode(), "not evenly spaced"),
             (b" " * 70_000, "at most"),
             (json.dumps({"kind": export.DOC_KIND, "page": PAGE, "settings": {"seed": -1}}).encode(), "seed")]
    for data, words in cases:
        with pytest.raises(ValueError, match=None) as e:
            export.parse_config_upload(data, PAGE, SCHEMA)
        assert words in str(e.value), (data[:40], str(e.value))
    staggered = lc.ModelConfig(variant="lstm1997", n_in=2, n_out=1, n_blocks=4, bias={"output": [-1, -2, -3, -4]})
    values, _ = export.values_from_model(staggered, SCHEMA)
    assert (values["b_output"], values["b_output_step"]) == (-1.0, -1.0)
    rebuilt = export.model_config({**DEFAULTS, **values}, 2, 1)
    assert dict(rebuilt.bias)["output"] == (-1.0, -2.0, -3.0, -4.0)


# ============================================================================= Gradient flow
def flow_curve(at: AppTest, which: str, name: str) -> np.ndarray:
    return trace(fig(at, which), name)


def test_gradient_flow_default_curves_are_the_cores_error_flow():
    at = open_page("gradient_flow")
    assert not errors(at)
    gf = importlib.import_module("app.gradient_flow.flow")
    v = gf.DEFAULTS
    xs = np.random.default_rng(v["seed"]).uniform(-1, 1, size=(v["T"], 1, gf.N_IN))
    for variant in v["variants"]:
        f = lc.error_flow(lc.build(gf.network(variant, v)), xs)
        n = f.norms[lc.variant(variant).flow_state][::-1]
        np.testing.assert_allclose(flow_curve(at, "flow-main", variant), n / n[0], rtol=1e-9)
    rnn, cec = flow_curve(at, "flow-main", "rnn"), flow_curve(at, "flow-main", "lstm1997")
    assert rnn[-1] < 1e-3 < 0.9 < cec[-1]
    assert fig(at, "flow-main")["layout"]["yaxis"]["type"] == "log"
    assert any("holds" in s.value for s in at.success)


@pytest.mark.parametrize("change", [
    ("slider", "gradient_flow.T", 50), ("number_input", "gradient_flow.seed", 3),
    ("slider", "gradient_flow.rnn_scale", 1.5), ("segmented_control", "gradient_flow.activation", "sigmoid"),
    ("slider", "gradient_flow.input_bias", -8.0), ("slider", "gradient_flow.forget_bias", 5.0),
    ("segmented_control", "gradient_flow.method", "truncated"), ("slider", "gradient_flow.n_hidden", 4),
    ("slider", "gradient_flow.n_blocks", 3), ("multiselect", "gradient_flow.variants", ["rnn", "gru"]),
    ("slider", "gradient_flow.u", 0.5), ("slider", "gradient_flow.v", 3.0),
], ids=lambda c: f"{c[1]}={c[2]}")
def test_gradient_flow_each_control_changes_the_chart_data(change):
    kind, key, value = change
    at = open_page("gradient_flow")
    if key == "gradient_flow.forget_bias":          # the defaults have no forget gate: add them first
        at.button(key="gradient_flow.add_forget").click().run()
    before = (ys(fig(at, "flow-main")), ys(fig(at, "flow-local")))
    getattr(at, kind)(key=key).set_value(value).run()
    assert not at.exception and not errors(at), errors(at)
    assert (ys(fig(at, "flow-main")), ys(fig(at, "flow-local"))) != before


def test_gradient_flow_defaults_tell_the_cec_story_and_forget_gates_are_one_click_away():
    at = open_page("gradient_flow")
    text = " ".join(m.value for m in at.markdown)
    rnn, cec = flow_curve(at, "flow-main", "rnn"), flow_curve(at, "flow-main", "lstm1997")
    assert cec[50] / rnn[50] >= 1e4                              # the CEC story, measured
    assert f"keeps {cec[50] / rnn[50]:.2g} times more error" in text
    names = [d["name"] for d in fig(at, "flow-main")["data"]]
    assert "rnn (upper bound Π‖J‖)" in names and "rnn (theory)" not in names   # a bound, never a prediction
    assert "σ(1) = 0.73" in text and "lstm2000" not in names
    # a slider that would change nothing is greyed out, and says why
    assert at.slider(key="gradient_flow.forget_bias").disabled
    assert any("no chosen network has a forget gate" in c.value for c in at.caption)
    at.button(key="gradient_flow.add_forget").click().run()
    assert {"lstm2000", "lstm"} <= {d["name"] for d in fig(at, "flow-main")["data"]}
    assert not at.slider(key="gradient_flow.forget_bias").disabled
    at.slider(key="gradient_flow.forget_bias").set_value(2.0).run()
    text = " ".join(m.value for m in at.markdown)
    assert "σ(2) = 0.88" in text and "Measured per step: lstm2000" in text


def test_gradient_flow_truncation_makes_the_cec_exactly_flat_and_u_v_condition_is_checked():
    at = open_page("gradient_flow")
    at.segmented_control(key="gradient_flow.method").set_value("truncated").run()
    np.testing.assert_allclose(flow_curve(at, "flow-main", "lstm1997"), 1.0, rtol=1e-12)
    at.slider(key="gradient_flow.v").set_value(2.5).run()
    assert any("does not hold" in w.value for w in at.warning)
    local = flow_curve(at, "flow-local", "net-input unit (u)")
    np.testing.assert_allclose(local, 0.9 ** np.arange(len(local)), rtol=1e-9)   # exactly |u|^q


def test_gradient_flow_query_string_round_trip_and_bad_queries():
    at = open_page("gradient_flow")
    at.slider(key="gradient_flow.rnn_scale").set_value(1.2).run()
    at.slider(key="gradient_flow.T", ).set_value(40).run()
    again = open_page("gradient_flow", dict(at.query_params))
    assert ys(fig(again, "flow-main")) == ys(fig(at, "flow-main"))
    bad = open_page("gradient_flow", {"cfg": '{"T": 100000}'})
    assert any("between 5 and 400" in e for e in errors(bad))
    assert ys(fig(bad, "flow-main")) == ys(fig(open_page("gradient_flow"), "flow-main"))


def test_gradient_flow_upload_refuses_other_files_with_a_clear_error():
    at = open_page("gradient_flow")
    model = lc.ModelConfig(variant="rnn", n_in=2, n_out=1).to_json().encode()
    at.file_uploader[0].set_value(("rnn.json", model, "application/json")).run()
    assert any("loads only configurations saved on itself" in e for e in errors(at))
    gf = importlib.import_module("app.gradient_flow.flow")
    doc = export.config_document(gf.PAGE, None, {**gf.DEFAULTS, "T": 30})
    at.file_uploader[0].set_value(("mine.json", doc.encode(), "application/json")).run()
    assert not errors(at) and at.slider(key="gradient_flow.T").value == 30


# ============================================================================= building blocks
def test_urlstate_round_trip_and_decoder_never_raises():
    schema = Schema([Field("a", "A", "int", 1, 0, 10), Field("b", "B", "optfloat", None, -1.0, 1.0)])
    defaults = schema.defaults()
    assert urlstate.encode(defaults, defaults) == ""
    text = urlstate.encode({"a": 3, "b": 0.5}, defaults)
    assert urlstate.decode(text, schema.check) == ({"a": 3, "b": 0.5}, [])
    assert urlstate.decode('{"a": 4}', schema.check) == ({"a": 4}, [])         # plain JSON too
    for bad in ("", "!!!", "e30" * 2000, '{"a": 11}', '{"a": true}', '{"b": "x"}', "bnVsbA"):
        values, errs = urlstate.decode(bad, schema.check)
        assert values is None and errs and all(isinstance(e, str) for e in errs), bad


def test_parse_sequence_shapes_and_caps():
    assert export.parse_sequence("1, 2, 3").shape == (3, 1)
    assert export.parse_sequence("1 2\n3 4\n\n5 6\n").shape == (3, 2)
    assert export.parse_sequence("−1; 2").tolist() == [[-1.0], [2.0]]          # a typographic minus
    with pytest.raises(ValueError, match="at most 500"):
        export.parse_sequence(" ".join(["1"] * 501))
    with pytest.raises(ValueError, match="at most"):
        export.parse_sequence("1 " * 15_000)


def test_paper_defaults_build_valid_networks_for_every_variant_and_task():
    SCHEMA = page_module("step").SCHEMA
    for variant in lc.VARIANTS:
        for task in [None, *lc.TASKS]:
            v = {**SCHEMA.defaults(), **controls.paper_values(SCHEMA, variant, task), "variant": variant}
            cfg = export.model_config(v, 3, 2)
            lc.build(cfg)


def test_every_figure_builder_produces_valid_plotly_figures():
    """The app skips Plotly's validation for speed; here every builder's output is validated."""
    import plotly.graph_objects as go  # noqa: PLC0415

    from app.step import diagram, equations  # noqa: PLC0415
    from app.ui import figures
    rng = np.random.default_rng(0)
    for variant in lc.VARIANTS:
        for n_out, n_in in ((1, 2), (7, 9)):          # lines and heat maps
            cfg = lc.ModelConfig(variant=variant, n_in=n_in, n_out=n_out, n_blocks=2, block_size=2)
            model = lc.build(cfg)
            xs = rng.uniform(-1, 1, (6, 1, n_in))
            run = lc.forward(model, xs)
            data = dict(xs=xs, internals=run.internals, outputs=run.outputs, targets=np.ones((6, 1, n_out)),
                        mask=np.ones((6, 1)), params={k: model.params[k] for k in ("u", "v") if k in model.params})
            charts = figures.step_panels(variant, cfg.block_size, data, 1, "unit 2", 3, large=True)
            snap = equations.snapshot(cfg, run.internals, 2, 1, data["params"])
            charts.append(diagram.cell_diagram(cfg, snap, "unit 2", 3, large=False))
            for fig, alt in charts:
                go.Figure(fig.to_dict())                   # raises on any invalid property
                assert alt and "uirevision" in fig.to_dict()["layout"]
    curve = figures.relative_flow("x", np.array([1e-300, 0.0, 0.5, 1.0]), np.ones(4), bound=np.ones(4))
    fig, alt = figures.flow_chart([curve], title="t", large=True, uirevision="u")
    go.Figure(fig.to_dict())
    shown = np.asarray(fig.data[0].y, dtype=float)           # q = 0 … 3 is t = 3 … 0
    assert np.isnan(shown[2]) and np.isnan(shown[3])         # 0 and underflow: gaps on a log axis, not fakes


def test_csv_exports_hold_the_recorded_numbers():
    import io  # noqa: PLC0415

    import pandas as pd  # noqa: PLC0415
    cfg = lc.ModelConfig(variant="lstm1997", n_in=2, n_out=1, n_blocks=2, block_size=1)
    xs = np.random.default_rng(1).uniform(-1, 1, (5, 1, 2))
    run = lc.forward(lc.build(cfg), xs)
    frame = pd.read_csv(io.BytesIO(export.traces_csv(run.outputs, run.internals, np.ones((5, 1, 1)), np.ones((5, 1)))))
    s = frame[frame.quantity == "s"].sort_values(["t", "unit"])
    np.testing.assert_allclose(s.value.to_numpy(), run.internals["s"][:, 0, :].reshape(-1))
    assert s.t.min() == 1 and {"target", "mask", "y_ig"} <= set(frame.quantity)
    from app.ui import figures  # noqa: PLC0415
    curve = figures.relative_flow("rnn", np.array([0.25, 0.5, 1.0]), np.array([0.5, 0.7, 1.0]))
    flow = pd.read_csv(io.BytesIO(export.flow_csv([curve])))
    assert flow.measured.tolist() == [1.0, 0.5, 0.25] and flow.theory.tolist() == [1.0, 0.7, 0.5]
