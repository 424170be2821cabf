"""The Theory page (Streamlit AppTest) and its content / symbols / demo modules.

The chart assertions read the figure JSON the page sends to the browser and compare it with
numbers computed here directly from lstm_core, so a page that drew made-up curves would fail.
The page's links and configuration files are tests/test_theory_links.py's (it uses the helpers
here to open the page).
"""

from __future__ import annotations

import base64
import importlib.util
import re
from dataclasses import asdict
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

import lstm_core as lc
from app.theory import content as tc
from app.theory import demo, symbols
from app.ui import state, urlstate

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"
PAGE = "../pages/theory.py"  # relative to the entry script


@cache
def theory_module():
    """The page module for its SCHEMA / DEFAULTS (its drawing only runs as __main__)."""
    spec = importlib.util.spec_from_file_location(
        "gatelab_page_theory", ENTRY.parents[1] / "pages" / "theory.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cfg(**values) -> dict[str, str]:
    """The query string the page writes for these settings (the non-default ones, in ``cfg``)."""
    encoded = urlstate.encode({**theory_module().DEFAULTS, **values}, theory_module().DEFAULTS)
    return {urlstate.PARAM: encoded} if encoded else {}


def url_settings(at: AppTest) -> dict:
    """The settings the page's current URL carries (the defaults plus what ``cfg`` changes)."""
    m = theory_module()
    assert set(at.query_params) <= {urlstate.PARAM}, dict(at.query_params)
    raw = at.query_params.get(urlstate.PARAM)
    if not raw:
        return dict(m.DEFAULTS)
    raw = raw[-1] if isinstance(raw, list) else raw
    values, errors = urlstate.decode(raw, m.SCHEMA.check)
    assert not errors, errors
    return {**m.DEFAULTS, **values}


def shown_settings(at: AppTest) -> dict:
    """The settings the demo's widgets show."""
    w = {el.key: el.value for kind in ("slider", "segmented_control", "number_input") for el in at.get(kind)}
    return {name: w[f"theory.{name}"] for name in theory_module().SCHEMA.fields}


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
    for spec in chart_specs(at):
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
    m = lc.build(
        "rnn",
        n_in=1,
        n_out=1,
        n_hidden=1,
        activation=f,
        output_activation="identity",
        init={"U": w, "W": 1.0, "b": 0.0, "W_out": 1.0, "b_out": 0.0},
        seed=seed,
    )
    n = lc.error_flow(m, xs).norms["h"].reshape(T)[::-1]
    return n / n[0]


# --- the page ---


def test_default_run_renders_equations_table_and_charts():
    at = open_theory()
    shown = [el.value.strip().removeprefix("$$").removesuffix("$$").strip() for el in at.latex]
    for v in tc.CHAIN:  # every variant appears, exactly as theory_content typesets it
        assert any(x in (tc.equations(v, h, "small") for h in (False, True)) for x in shown), v
    assert sum(r"\fcolorbox" in x for x in shown) == len(tc.COMPARISONS)  # one highlighted per tab
    assert len(at.table) == 1
    table = at.table[0].value
    assert list(table.columns) == ["symbol", "name", "shape", "lstm_core name", "variants"]
    assert len(table) == len(symbols.SYMBOLS)
    assert len(chart_specs(at)) == 2
    assert not at.error
    assert dict(at.query_params) == {}  # all defaults: a clean URL
    assert shown_settings(at) == asdict(demo.DEFAULTS)


def test_schema_matches_the_demo_settings():
    m = theory_module()
    assert m.PAGE == "theory" and m.DEFAULTS == asdict(demo.DEFAULTS)
    for name, rng in (
        ("w", demo.W_RANGE),
        ("amp", demo.AMP_RANGE),
        ("T", demo.T_RANGE),
        ("seed", demo.SEED_RANGE),
    ):
        assert (m.SCHEMA[name].lo, m.SCHEMA[name].hi) == rng
    assert m.SCHEMA["f"].choices == demo.ACTIVATIONS


def test_charts_show_numbers_from_the_core():
    at = open_theory()
    act = figure(at, "theory-activations")
    sig_prime = next(t for t in act["data"] if t.get("name") == demo.CURVES["sigmoid"] and t["xaxis"] == "x2")
    assert ys(sig_prime).max() == pytest.approx(0.25, abs=1e-12)
    flow = figure(at, "theory-flow")
    d = demo.DEFAULTS
    np.testing.assert_allclose(
        ys(trace(flow, "RNN ‖")), expected_rnn_flow(d.w, d.f, d.amp, d.T, d.seed), rtol=1e-12
    )
    np.testing.assert_allclose(ys(trace(flow, "LSTM 1997 ‖∂L/∂s(t−q)‖, 1997")), 1.0, rtol=1e-12)
    bound = ys(trace(flow, "bound"))
    np.testing.assert_allclose(bound, (abs(d.w) / 4) ** np.arange(d.T), rtol=1e-12)
    assert np.all(ys(trace(flow, "RNN ‖")) <= bound * (1 + 1e-12))  # σ' ≤ ¼ in action


@pytest.mark.parametrize(
    "name, kind, value",
    [
        ("w", "slider", 5.0),
        ("amp", "slider", 0.3),
        ("T", "slider", 80),
        ("f", "segmented_control", "tanh"),
        ("seed", "number_input", 7),
    ],
)
def test_each_control_changes_the_chart_and_the_url(name, kind, value):
    at = open_theory()
    before = ys(trace(figure(at, "theory-flow"), "RNN ‖"))
    widget = next(w for w in at.get(kind) if w.key == f"theory.{name}")
    widget.set_value(value).run()
    assert not at.exception, [e.value for e in at.exception]
    after = ys(trace(figure(at, "theory-flow"), "RNN ‖"))
    assert after.shape != before.shape or not np.allclose(after, before, equal_nan=True)
    assert url_settings(at) == {**asdict(demo.DEFAULTS), name: value}


def test_moving_w_gives_the_core_curve_for_that_w():
    at = open_theory()
    slider(at, "theory.w").set_value(-1.5).run()
    flow = figure(at, "theory-flow")
    np.testing.assert_allclose(
        ys(trace(flow, "RNN ‖")), expected_rnn_flow(-1.5, "sigmoid", 1.0, 50, 0), rtol=1e-12
    )


@pytest.mark.parametrize(
    "q",
    [
        dict(w=8.0, f="tanh", amp=0.0, T=150),
        dict(w=-8.0, f="tanh", amp=3.0, T=150),
        dict(w=0.0, f="sigmoid", amp=0.0, T=5),
    ],
)
def test_extreme_settings_stay_finite_and_honest(q):
    at = open_theory(cfg(**q))
    assert not at.error
    rnn = ys(trace(figure(at, "theory-flow"), "RNN ‖"))
    assert np.all(np.isnan(rnn) | (rnn > 0))  # zeros are gaps on the log axis, never -inf
    if q["w"] == 8 and q["amp"] == 0:  # tanh at net = 0: factor exactly |w|
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
    for _, chain in tc.COMPARISONS:  # tabs are consecutive pairs of the chain
        assert tc.predecessor(chain[1]) == chain[0]
    assert {v for _, chain in tc.COMPARISONS for v in chain} == set(lc.VARIANTS)


def test_symbol_table_shapes_match_the_core():
    sizes = dict(n_in=3, n_out=2, n_hidden=5, n_blocks=2, block_size=3, n_static=1, n_net_fb=2, n_act_fb=4)
    dims = {
        "n_in": 3,
        "n_out": 2,
        "n_hidden": 5,
        "n_blocks": 2,
        "block_size": 3,
        "n_cells": 6,
        "n_net_fb": 2,
        "n_act_fb": 4,
        "H": 7,
    }
    n_r = {"lstm1997": 2 + 2 + 6, "lstm2000": 2 + 2 + 2 + 6, "lstm2002": 2 + 2 + 2 + 6}  # gates + cells
    checked = 0
    for symbol, _, shape, core, variants in symbols.SYMBOLS:
        names = [n.strip() for n in core.split(",")]
        shapes = re.findall(r"\(([^()]*)\)", shape)
        if shape == "—" or core.startswith("rec") or not shapes:
            continue
        if len(shapes) == 1 and len(names) > 1:  # "(…) each"
            shapes = shapes * len(names)
        for v in [x.strip() for x in variants.split(",")] if variants != "all" else list(lc.VARIANTS):
            m = lc.build(v, **sizes)
            hidden = m.params["W_out"].shape[1]
            for name, sh in zip(names, shapes):
                if name not in m.params:
                    continue
                env = {**dims, "Z": 3 + n_r.get(v, 0), "n_hidden_out": hidden}
                want = tuple(eval(d, {}, env) for d in sh.split(",") if d.strip())
                assert m.params[name].shape == want, (symbol, v, name)
                checked += 1
    assert checked >= 40


def test_demo_settings_validation_and_old_links():
    with pytest.raises(ValueError, match="w must be a number between -8 and 8"):
        demo.DemoSettings(w=9.0)
    with pytest.raises(ValueError, match="T must be a whole number"):
        demo.DemoSettings(T=151)
    assert demo.legacy_query({"w": "-2.5", "T": "80", "f": "tanh"}) == {"w": -2.5, "T": 80, "f": "tanh"}
    assert demo.legacy_query({"w": "banana", "T": "3.5", "seed": "inf"}) == {
        "w": "banana",
        "T": 3.5,
        "seed": "inf",
    }
    assert demo.legacy_query({"cfg": "x", "w": "1"}) is None and demo.legacy_query({"zoom": "1"}) is None


def test_demo_product_of_factors_equals_the_measured_flow():
    r = demo.compute_demo(demo.DemoSettings(w=2.5, f="tanh", amp=0.7, T=40, seed=1))
    d = r.frame
    np.testing.assert_allclose(np.cumprod(d["rnn_factor"].fillna(1.0)), d["rnn_norm"], rtol=1e-10)
    assert r.fmax == pytest.approx(1.0) and r.bound_factor == pytest.approx(2.5)
    assert np.all(d["rnn_factor"].iloc[1:] <= r.bound_factor + 1e-12)
