"""The Theory page (Streamlit AppTest) and its content / demo modules.

The chart assertions read the figure JSON the page sends to the browser and compare it with
numbers computed here directly from lstm_core, so a page that drew made-up curves would fail.
"""
from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import lstm_core as lc
from app.ui import state
from app.theory import content as tc
from app.theory import demo

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"
PAGE = "../pages/theory.py"   # relative to the entry script


def open_theory(query: dict[str, str] | None = None, state: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(ENTRY), default_timeout=60).run()
    for k, v in (state or {}).items():
        at.session_state[k] = v
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def figure(at: AppTest, uirevision: str) -> dict:
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        if spec["layout"].get("uirevision") == uirevision:
            return spec
    raise AssertionError(f"no chart with uirevision {uirevision!r}")


def trace(spec: dict, name_start: str) -> dict:
    return next(t for t in spec["data"] if t.get("name", "").startswith(name_start))


def values(v) -> np.ndarray:
    """A data array from figure JSON: a list, or Plotly's typed array {"dtype", "bdata"}."""
    if isinstance(v, dict) and "bdata" in v:
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"])).astype(float)
        return a.reshape(v["shape"]) if isinstance(v.get("shape"), list) else a
    return np.array([np.nan if x is None else x for x in v], dtype=float)


def ys(t: dict) -> np.ndarray:
    return values(t["y"])


def slider(at: AppTest, key: str):
    return next(s for s in at.slider if s.key == key)


def expected_rnn_flow(w: float, f: str, amp: float, T: int, seed: int) -> np.ndarray:
    """The rnn curve computed here, independently of the page's modules."""
    xs = amp * np.random.default_rng(seed).standard_normal((T, 1, 1))
    m = lc.build("rnn", n_in=1, n_out=1, n_hidden=1, activation=f, output_activation="identity",
                 init={"U": w, "W": 1.0, "b": 0.0, "W_out": 1.0, "b_out": 0.0}, seed=seed)
    n = lc.error_flow(m, xs).norms["h"].reshape(T)[::-1]
    return n / n[0]


# --- the page -----------------------------------------------------------------------------------

def test_default_run_renders_equations_table_and_charts():
    at = open_theory()
    shown = [el.value.strip().removeprefix("$$").removesuffix("$$").strip() for el in at.latex]
    for v in tc.CHAIN:        # every variant appears, exactly as theory_content typesets it
        assert any(x in (tc.equations(v, h, "small") for h in (False, True)) for x in shown), v
    assert sum(r"\fcolorbox" in x for x in shown) == len(tc.COMPARISONS)   # one highlighted per tab
    assert len(at.table) == 1
    table = at.table[0].value
    assert list(table.columns) == ["symbol", "name", "shape", "lstm_core name", "variants"]
    assert len(table) == len(tc.SYMBOLS)
    assert len(at.get("plotly_chart")) == 2
    assert not at.error
    assert dict(at.query_params) == demo.DEFAULTS.to_query()


def test_charts_show_numbers_from_the_core():
    at = open_theory()
    act = figure(at, "theory-activations")
    sig_prime = next(t for t in act["data"] if t.get("name") == demo.CURVES["sigmoid"] and t["xaxis"] == "x2")
    assert ys(sig_prime).max() == pytest.approx(0.25, abs=1e-12)
    flow = figure(at, "theory-flow")
    d = demo.DEFAULTS
    np.testing.assert_allclose(ys(trace(flow, "rnn ‖")), expected_rnn_flow(d.w, d.f, d.amp, d.T, d.seed), rtol=1e-12)
    np.testing.assert_allclose(ys(trace(flow, "lstm1997 ‖∂L/∂s(t−q)‖, 1997")), 1.0, rtol=1e-12)
    bound = ys(trace(flow, "bound"))
    np.testing.assert_allclose(bound, (abs(d.w) / 4) ** np.arange(d.T), rtol=1e-12)
    assert np.all(ys(trace(flow, "rnn ‖")) <= bound * (1 + 1e-12))          # σ' ≤ ¼ in action


@pytest.mark.parametrize("key, kind, value", [
    ("theory_w", "slider", 5.0), ("theory_amp", "slider", 0.3), ("theory_T", "slider", 80),
    ("theory_f", "radio", "tanh"), ("theory_seed", "number_input", 7)])
def test_each_control_changes_the_chart_and_the_url(key, kind, value):
    at = open_theory()
    before = ys(trace(figure(at, "theory-flow"), "rnn ‖"))
    widget = next(w for w in at.get(kind) if w.key == key)
    widget.set_value(value).run()
    assert not at.exception, [e.value for e in at.exception]
    after = ys(trace(figure(at, "theory-flow"), "rnn ‖"))
    assert after.shape != before.shape or not np.allclose(after, before, equal_nan=True)
    name = key.removeprefix("theory_")
    assert at.query_params[name] == demo.DemoSettings(**{name: value}).to_query()[name]


def test_moving_w_gives_the_core_curve_for_that_w():
    at = open_theory()
    slider(at, "theory_w").set_value(-1.5).run()
    flow = figure(at, "theory-flow")
    np.testing.assert_allclose(ys(trace(flow, "rnn ‖")), expected_rnn_flow(-1.5, "sigmoid", 1.0, 50, 0), rtol=1e-12)


def test_query_string_reproduces_the_configuration():
    q = {"w": "-2.5", "f": "tanh", "amp": "0.5", "T": "80", "seed": "3"}
    at = open_theory(q)
    assert not at.error
    assert slider(at, "theory_w").value == -2.5 and slider(at, "theory_T").value == 80
    assert at.radio[0].value == "tanh"
    np.testing.assert_allclose(ys(trace(figure(at, "theory-flow"), "rnn ‖")),
                               expected_rnn_flow(-2.5, "tanh", 0.5, 80, 3), rtol=1e-12)
    assert dict(at.query_params) == q


@pytest.mark.parametrize("query, bad", [
    ({"w": "banana"}, "w"), ({"w": "1e9"}, "w"), ({"w": "nan"}, "w"), ({"f": "relu"}, "f"),
    ({"T": "100000"}, "T"), ({"T": "3.5"}, "T"), ({"seed": "-1"}, "seed"), ({"amp": "inf"}, "amp")])
def test_bad_query_parameters_give_an_error_and_the_default(query, bad):
    at = open_theory({**query, "T": query.get("T", "60")})
    assert any(f"{bad}" in e.value and "default" in e.value for e in at.error), [e.value for e in at.error]
    assert at.query_params[bad] == demo.DEFAULTS.to_query()[bad]
    if bad != "T":                         # the good parameter next to a bad one is still used
        assert slider(at, "theory_T").value == 60
    assert len(at.get("plotly_chart")) == 2


def test_settings_survive_a_visit_to_another_page():
    at = open_theory()
    slider(at, "theory_w").set_value(6.0).run()
    at.switch_page("../pages/home.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert slider(at, "theory_w").value == 6.0
    assert at.query_params["w"] == "6"


def test_reset_restores_the_defaults():
    at = open_theory({"w": "7", "f": "tanh"})
    next(b for b in at.button if b.key == "theory_reset").click().run()
    assert slider(at, "theory_w").value == demo.DEFAULTS.w and at.radio[0].value == demo.DEFAULTS.f
    assert dict(at.query_params) == demo.DEFAULTS.to_query()


def test_import_configuration_json():
    at = open_theory()
    good = demo.DemoSettings(w=-4.0, f="tanh", amp=0.0, T=30, seed=5).to_json().encode()
    at.get("file_uploader")[0].set_value(("mine.json", good, "application/json")).run()
    assert not at.exception and not at.error
    assert slider(at, "theory_w").value == -4.0 and slider(at, "theory_T").value == 30
    np.testing.assert_allclose(ys(trace(figure(at, "theory-flow"), "rnn ‖")), 4.0 ** np.arange(30), rtol=1e-12)


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b'{"w": 99}', b'{"w": 1, "colour": "red"}',
                                     b'{"T": "long"}', b"\xff\xfe\x00",
                                     b'{"w": 1, "pad": "' + b"x" * 20_000 + b'"}'])
def test_bad_configuration_file_gives_an_error_and_keeps_the_settings(content):
    at = open_theory({"w": "2"})
    at.get("file_uploader")[0].set_value(("bad.json", content, "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Could not load bad.json" in e.value for e in at.error), [e.value for e in at.error]
    assert slider(at, "theory_w").value == 2.0 and at.query_params["w"] == "2"
    assert len(at.get("plotly_chart")) == 2


@pytest.mark.parametrize("q", [{"w": "8", "f": "tanh", "amp": "0", "T": "150"},
                               {"w": "-8", "f": "tanh", "amp": "3", "T": "150"},
                               {"w": "0", "f": "sigmoid", "amp": "0", "T": "5"}])
def test_extreme_settings_stay_finite_and_honest(q):
    at = open_theory(q)
    assert not at.error
    rnn = ys(trace(figure(at, "theory-flow"), "rnn ‖"))
    assert np.all(np.isnan(rnn) | (rnn > 0))            # zeros are gaps on the log axis, never -inf
    if q["w"] == "8" and q["amp"] == "0":               # tanh at net = 0: factor exactly |w|
        np.testing.assert_allclose(rnn, 8.0 ** np.arange(150), rtol=1e-12)


def test_large_font_flag_enlarges_the_figures():
    small = figure(open_theory(), "theory-flow")["layout"]["font"]["size"]
    at = open_theory(state={"large_font": True})
    assert figure(at, "theory-flow")["layout"]["font"]["size"] > small
    assert any(r"\large" in el.value for el in at.latex)


def test_the_sidebar_large_font_toggle_enlarges_the_figures():
    at = open_theory()
    small = figure(at, "theory-activations")["layout"]["font"]["size"]
    toggle = next(t for t in at.toggle if t.key == state.LARGE_FONTS_KEY)
    toggle.set_value(True).run()
    assert not at.exception
    assert figure(at, "theory-activations")["layout"]["font"]["size"] > small
    assert figure(at, "theory-flow")["layout"]["xaxis"]["tickfont"]["size"] > small


# --- content and demo modules -----------------------------------------------------------------

def test_every_variant_but_the_first_highlights_what_is_new():
    for v in tc.CHAIN:
        plain, marked = tc.equations(v), tc.equations(v, highlight=True)
        assert r"\NEW" not in plain and r"\NEW" not in marked
        assert (r"\fcolorbox" in marked) == (tc.predecessor(v) is not None), v
        assert plain.count("{") == plain.count("}") and marked.count("{") == marked.count("}")
    for _, chain in tc.COMPARISONS:                      # tabs are consecutive pairs of the chain
        assert tc.predecessor(chain[1]) == chain[0]
    assert {v for _, chain in tc.COMPARISONS for v in chain} == set(lc.VARIANTS)


def test_symbol_table_shapes_match_the_core():
    sizes = dict(n_in=3, n_out=2, n_hidden=5, n_blocks=2, block_size=3, n_static=1, n_net_fb=2, n_act_fb=4)
    dims = {"n_in": 3, "n_out": 2, "n_hidden": 5, "n_blocks": 2, "block_size": 3, "n_cells": 6,
            "n_net_fb": 2, "n_act_fb": 4, "H": 7}
    n_r = {"lstm1997": 2 + 2 + 6, "lstm2000": 2 + 2 + 2 + 6, "lstm2002": 2 + 2 + 2 + 6}  # gates + cells
    checked = 0
    for symbol, _, shape, core, variants in tc.SYMBOLS:
        names = [n.strip() for n in core.split(",")]
        shapes = re.findall(r"\(([^()]*)\)", shape)
        if shape == "—" or core.startswith("rec") or not shapes:
            continue
        if len(shapes) == 1 and len(names) > 1:          # "(…) each"
            shapes = shapes * len(names)
        for v in [x.strip() for x in variants.split(",")] if variants != "all" else list(lc.VARIANTS):
            m = lc.build(v, **sizes)
            hidden = m.params["W_out"].shape[1]
            for name, sh in zip(names, shapes):
                if name not in m.params:
                    continue
                env = {**dims, "Z": 3 + n_r.get(v, 0), "n_hidden_out": hidden}
                want = tuple(eval(d, {}, env) for d in sh.split(",") if d.strip())  # noqa: S307
                assert m.params[name].shape == want, (symbol, v, name)
                checked += 1
    assert checked >= 40


def test_demo_settings_json_round_trip_and_validation():
    s = demo.DemoSettings(w=-1.5, f="tanh", amp=0.2, T=20, seed=9)
    assert demo.from_json(s.to_json()) == s
    assert demo.from_query(s.to_query()) == (s, [])
    with pytest.raises(ValueError, match="w must be a number between -8 and 8"):
        demo.DemoSettings(w=9.0)
    with pytest.raises(ValueError, match="T must be a whole number"):
        demo.DemoSettings(T=151)
    with pytest.raises(ValueError, match="not valid JSON"):
        demo.from_json("{")


def test_demo_product_of_factors_equals_the_measured_flow():
    r = demo.compute_demo(demo.DemoSettings(w=2.5, f="tanh", amp=0.7, T=40, seed=1))
    d = r.frame
    np.testing.assert_allclose(np.cumprod(d["rnn_factor"].fillna(1.0)), d["rnn_norm"], rtol=1e-10)
    assert r.fmax == pytest.approx(1.0) and r.bound_factor == pytest.approx(2.5)
    assert np.all(d["rnn_factor"].iloc[1:] <= r.bound_factor + 1e-12)
