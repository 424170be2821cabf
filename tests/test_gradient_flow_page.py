"""Gradient flow page (Streamlit AppTest), plus the shared app pieces every page uses (URL state,
typed sequences, paper defaults, figure builders, CSV exports).

Chart assertions read the figure JSON the page sends to the browser and compare it with numbers
computed here directly from ``lstm_core`` — a page drawing made-up curves would fail.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from page_helpers import errors, fig, open_page, trace, ys
from streamlit.testing.v1 import AppTest

import lstm_core as lc
from app.ui import controls, export, figures, netconfig, urlstate
from app.ui.form import Field, Schema


# ============================================================================= Gradient flow
def flow_curve(at: AppTest, which: str, name: str) -> np.ndarray:
    """The curve of variant ``name`` (the legend names it by its title: figures.variant_label)."""
    return trace(fig(at, which), figures.variant_label(name))


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


@pytest.mark.parametrize(
    "change",
    [
        ("slider", "gradient_flow.T", 50),
        ("number_input", "gradient_flow.seed", 3),
        ("slider", "gradient_flow.rnn_scale", 1.5),
        ("segmented_control", "gradient_flow.activation", "sigmoid"),
        ("slider", "gradient_flow.input_bias", -8.0),
        ("slider", "gradient_flow.forget_bias", 5.0),
        ("segmented_control", "gradient_flow.method", "truncated"),
        ("slider", "gradient_flow.n_hidden", 4),
        ("slider", "gradient_flow.n_blocks", 3),
        ("multiselect", "gradient_flow.variants", ["rnn", "gru"]),
        ("slider", "gradient_flow.u", 0.5),
        ("slider", "gradient_flow.v", 3.0),
    ],
    ids=lambda c: f"{c[1]}={c[2]}",
)
def test_gradient_flow_each_control_changes_the_chart_data(change):
    kind, key, value = change
    at = open_page("gradient_flow")
    if key == "gradient_flow.forget_bias":  # the defaults have no forget gate: add them first
        at.button(key="gradient_flow.add_forget").click().run()
    before = (ys(fig(at, "flow-main")), ys(fig(at, "flow-local")))
    getattr(at, kind)(key=key).set_value(value).run()
    assert not at.exception and not errors(at), errors(at)
    assert (ys(fig(at, "flow-main")), ys(fig(at, "flow-local"))) != before


def test_gradient_flow_defaults_tell_the_cec_story_and_forget_gates_are_one_click_away():
    at = open_page("gradient_flow")
    text = " ".join(m.value for m in at.markdown)
    rnn, cec = flow_curve(at, "flow-main", "rnn"), flow_curve(at, "flow-main", "lstm1997")
    assert cec[50] / rnn[50] >= 1e4  # the CEC story, measured
    assert f"keeps {cec[50] / rnn[50]:.2g} times more error" in text
    names = [d["name"] for d in fig(at, "flow-main")["data"]]
    assert "RNN (upper bound Π‖J‖)" in names and "RNN (theory)" not in names  # a bound, never a prediction
    assert "σ(1) = 0.73" in text and "LSTM 2000" not in names
    # a slider that would change nothing is greyed out, and says why
    assert at.slider(key="gradient_flow.forget_bias").disabled
    assert any("no chosen network has a forget gate" in c.value for c in at.caption)
    at.button(key="gradient_flow.add_forget").click().run()
    assert {"LSTM 2000", "LSTM (PyTorch)"} <= {d["name"] for d in fig(at, "flow-main")["data"]}
    assert not at.slider(key="gradient_flow.forget_bias").disabled
    at.slider(key="gradient_flow.forget_bias").set_value(2.0).run()
    text = " ".join(m.value for m in at.markdown)
    assert "σ(2) = 0.88" in text and "Measured per step: LSTM 2000" in text


def test_gradient_flow_truncation_makes_the_cec_exactly_flat_and_u_v_condition_is_checked():
    at = open_page("gradient_flow")
    at.segmented_control(key="gradient_flow.method").set_value("truncated").run()
    np.testing.assert_allclose(flow_curve(at, "flow-main", "lstm1997"), 1.0, rtol=1e-12)
    at.slider(key="gradient_flow.v").set_value(2.5).run()
    assert any("does not hold" in w.value for w in at.warning)
    local = flow_curve(at, "flow-local", "net-input unit (u)")
    np.testing.assert_allclose(local, 0.9 ** np.arange(len(local)), rtol=1e-9)  # exactly |u|^q


def test_gradient_flow_query_string_round_trip_and_bad_queries():
    at = open_page("gradient_flow")
    at.slider(key="gradient_flow.rnn_scale").set_value(1.2).run()
    at.slider(
        key="gradient_flow.T",
    ).set_value(40).run()
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
    assert urlstate.decode('{"a": 4}', schema.check) == ({"a": 4}, [])  # plain JSON too
    for bad in ("", "!!!", "e30" * 2000, '{"a": 11}', '{"a": true}', '{"b": "x"}', "bnVsbA"):
        values, errs = urlstate.decode(bad, schema.check)
        assert values is None and errs and all(isinstance(e, str) for e in errs), bad


def test_parse_sequence_shapes_and_caps():
    assert export.parse_sequence("1, 2, 3").shape == (3, 1)
    assert export.parse_sequence("1 2\n3 4\n\n5 6\n").shape == (3, 2)
    assert export.parse_sequence("−1; 2").tolist() == [[-1.0], [2.0]]  # a typographic minus
    with pytest.raises(ValueError, match="at most 500"):
        export.parse_sequence(" ".join(["1"] * 501))
    with pytest.raises(ValueError, match="at most"):
        export.parse_sequence("1 " * 15_000)


def test_paper_defaults_build_valid_networks_for_every_variant_and_task():
    from app.step.settings import SCHEMA

    for variant in lc.VARIANTS:
        for task in [None, *lc.TASKS]:
            v = {**SCHEMA.defaults(), **controls.paper_values(SCHEMA, variant, task), "variant": variant}
            cfg = netconfig.model_config(v, 3, 2)
            lc.build(cfg)


def test_every_figure_builder_produces_valid_plotly_figures():
    """The app skips Plotly's validation for speed; here every builder's output is validated."""
    import plotly.graph_objects as go

    from app.cells import families
    from app.step import diagram
    from app.ui import flow_figures, run_panels

    rng = np.random.default_rng(0)
    for variant in lc.VARIANTS:
        for n_out, n_in in ((1, 2), (7, 9)):  # lines and heat maps
            cfg = lc.ModelConfig(variant=variant, n_in=n_in, n_out=n_out, n_blocks=2, block_size=2)
            model = lc.build(cfg)
            xs = rng.uniform(-1, 1, (6, 1, n_in))
            run = lc.forward(model, xs)
            data = dict(
                xs=xs,
                internals=run.internals,
                outputs=run.outputs,
                targets=np.ones((6, 1, n_out)),
                mask=np.ones((6, 1)),
                params={k: model.params[k] for k in ("u", "v") if k in model.params},
            )
            charts = run_panels.step_panels(variant, cfg.block_size, data, 1, "unit 2", 3, large=True)
            snap = families.snapshot(cfg, run.internals, 2, 1, data["params"])
            spec, alt = diagram.cell_diagram(cfg, snap, "unit 2", 3, large=False)
            charts.append((figures.make_figure(spec), alt))
            for chart, alt in charts:
                go.Figure(chart.to_dict())  # raises on any invalid property
                assert alt and "uirevision" in chart.to_dict()["layout"]
    curve = flow_figures.relative_flow("x", np.array([1e-300, 0.0, 0.5, 1.0]), np.ones(4), bound=np.ones(4))
    chart, alt = flow_figures.flow_chart([curve], title="t", large=True, uirevision="u")
    go.Figure(chart.to_dict())
    shown = np.asarray(chart.data[0].y, dtype=float)  # q = 0 … 3 is t = 3 … 0
    assert np.isnan(shown[2]) and np.isnan(shown[3])  # 0 and underflow: gaps on a log axis, not fakes


def test_csv_exports_hold_the_recorded_numbers():
    import io

    import pandas as pd

    cfg = lc.ModelConfig(variant="lstm1997", n_in=2, n_out=1, n_blocks=2, block_size=1)
    xs = np.random.default_rng(1).uniform(-1, 1, (5, 1, 2))
    run = lc.forward(lc.build(cfg), xs)
    frame = pd.read_csv(
        io.BytesIO(export.traces_csv(run.outputs, run.internals, np.ones((5, 1, 1)), np.ones((5, 1))))
    )
    s = frame[frame.quantity == "s"].sort_values(["t", "unit"])
    np.testing.assert_allclose(s.value.to_numpy(), run.internals["s"][:, 0, :].reshape(-1))
    assert s.t.min() == 1 and {"target", "mask", "y_ig"} <= set(frame.quantity)
    from app.ui import flow_figures

    curve = flow_figures.relative_flow("rnn", np.array([0.25, 0.5, 1.0]), np.array([0.5, 0.7, 1.0]))
    flow = pd.read_csv(io.BytesIO(export.flow_csv([curve])))
    assert flow.measured.tolist() == [1.0, 0.5, 0.25] and flow.theory.tolist() == [1.0, 0.7, 0.5]
