"""Bias lab page (Streamlit AppTest): a tiny sweep runs to completion, both heat maps show the
sweep's real numbers, choosing a cell shows that network's probe traces, demos run, the URL
round-trips and bad input gives a message instead of an exception.

AppTest cannot click inside a Plotly chart, so the click is covered twice: the selection
decoder (``app.bias_lab.heatmap.selected_cell``) is tested on the event shapes Streamlit produces, and
the cell selectbox it writes to is driven here; the real click runs in the browser test.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

from app.bias_lab import figures as lab_figures
from app.bias_lab import heatmap as lab_heatmap
from app.bias_lab import settings as lab_settings
from lstm_core.sweeps.sweep import Sweep

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"
TINY = {
    "two_sequence.T": 10,
    "x_values": "0, -2",
    "y_values": "0, -2, -4",
    "n_seeds": 2,
    "budget": 150,
    "streak": 10,
    "goal": "none",
}


def open_lab(cfg: dict | None = None, raw: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ENTRY), default_timeout=120)
    at.run()
    if cfg is not None or raw is not None:
        at.query_params["cfg"] = raw if raw is not None else json.dumps(cfg)
    at.switch_page("../pages/bias_lab.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def run_job(at: AppTest, button: str) -> AppTest:
    at.button(key=f"bias_lab.{button}").click().run()
    for _ in range(60):  # AppTest fires no run_every timers: each run is one tick
        assert not at.exception, [e.value for e in at.exception]
        if not at.get("progress"):
            break
        at.run()
    assert not at.get("progress"), "the job did not finish"
    return at


def charts(at: AppTest) -> dict[str, dict]:
    out = {}
    for spec in chart_specs(at):
        out[spec["layout"].get("uirevision")] = spec
    return out


def arr(v) -> np.ndarray:
    if isinstance(v, dict):  # plotly may ship arrays as typed buffers
        shape = v.get("shape", "-1")
        shape = tuple(int(n) for n in shape.split(",")) if isinstance(shape, str) else shape
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).reshape(shape)
    return np.array(
        [
            [np.nan if x is None else x for x in row]
            if isinstance(row, list)
            else (np.nan if row is None else row)
            for row in v
        ],
        dtype=float,
    )


def reference_sweep(cfg: dict) -> Sweep:
    p = lab_settings.plan({**lab_settings.DEFAULTS, **cfg})
    sweep = Sweep(p.base, p.task, p.train, p.x, p.y, p.seeds)
    for _ in sweep.run(50):
        pass
    return sweep


def test_default_page_has_no_exception_and_offers_the_sweep():
    at = open_lab()
    assert not at.error
    assert at.button(key="bias_lab.train").label == "Train the sweep"
    assert any("48 networks" in c.value for c in at.caption)  # 4 × 3 settings × 4 seeds


def test_the_page_opens_on_the_committed_baseline_sweep_labelled_as_such():
    """A picture on arrival: docs/bias_baseline.json (made by `make bias-baseline`) drawn from the
    file — the same network and task as the page's defaults — until the user trains a grid."""
    import json as _json

    from app.bias_lab import precomputed
    from app.bias_lab import settings as lab_settings
    from lstm_core.sweeps.cli import load_results

    at = open_lab()
    ch = charts(at)
    assert {"bias-baseline-success", "bias-baseline-median"} <= set(ch)
    assert any("Precomputed baseline, not trained now" in c.value for c in at.caption)
    heat_alts = [c.value for c in at.caption if c.value.startswith("Heat map:")]
    assert len(heat_alts) == 2 and not any("Click a cell" in a for a in heat_alts)  # not clickable: not said
    res = load_results(precomputed.BASELINE.read_bytes())
    cells = res.cells()
    z = arr(ch["bias-baseline-success"]["data"][0]["z"])
    for r in cells.itertuples():
        assert z[r.j][r.i] == pytest.approx(r.success_rate)
    doc = _json.loads(precomputed.BASELINE.read_text())
    assert doc["command"].startswith("python -m lstm_core.sweep ")
    assert "--state" not in doc["command"] and "--workers" not in doc["command"]  # how, not what
    plan = lab_settings.plan(lab_settings.DEFAULTS)
    base = res.settings["base"]
    assert (base["variant"], base["n_blocks"], base["block_size"]) == (
        plan.base.variant,
        plan.base.n_blocks,
        plan.base.block_size,
    )
    assert res.settings["task"] == "two_sequence" and res.axis("x").gate == plan.x.gate
    # once a grid is trained, its own heat maps replace the baseline
    at = run_job(open_lab(TINY), "train")
    assert "bias-baseline-success" not in charts(at) and "bias-success" in charts(at)


def test_tiny_sweep_runs_to_completion_and_both_heatmaps_show_its_numbers():
    at = run_job(open_lab(TINY), "train")
    assert not at.error
    assert any(s.value.startswith("Finished in") for s in at.success)
    ch = charts(at)
    assert {"bias-success", "bias-median"} <= set(ch)
    ref = reference_sweep(TINY).cells()
    assert 0 < ref.solved.sum() < ref.networks.sum()  # a grid with successes and failures
    z = arr(ch["bias-success"]["data"][0]["z"])
    for r in ref.itertuples():
        assert z[r.j][r.i] == pytest.approx(r.success_rate)
    zm = arr(ch["bias-median"]["data"][0]["z"])
    text = ch["bias-median"]["data"][0]["text"]
    for r in ref.itertuples():
        if np.isfinite(r.median_to_criterion):
            assert zm[r.j][r.i] == pytest.approx(r.median_to_criterion)
        else:
            assert np.isnan(zm[r.j][r.i]) and text[r.j][r.i] == "✗"  # failures marked
    assert ch["bias-success"]["data"][1]["type"] == "scatter"  # the click target
    heat_alts = [c.value for c in at.caption if c.value.startswith("Heat map:")]
    assert len(heat_alts) == 2 and all(a.endswith("Click a cell to see its network.") for a in heat_alts)


def test_choosing_a_cell_shows_that_networks_traces_before_and_after():
    at = run_job(open_lab(TINY), "train")
    at.selectbox(key="bias_lab.cell").set_value((1, 2)).run()
    at.selectbox(key="bias_lab.cell_seed").set_value(1).run()
    assert not at.exception
    ch = charts(at)
    assert {"bias-gates-before", "bias-gates-after", "bias-states-before", "bias-states-after"} <= set(ch)
    sweep = reference_sweep(TINY)
    k = sweep.member_index(1, 2, 1)
    tr = sweep.probe(k)
    for when in ("before", "after"):
        spec = ch[f"bias-gates-{when}"]
        got = next(t for t in spec["data"] if t["name"] == "output gate 1")
        np.testing.assert_allclose(arr(got["y"]), tr[when].internals["y_og"][:, 0, 0], rtol=1e-12)
    # the selected cell is outlined on the heat map
    assert charts(at)["bias-success"]["layout"]["shapes"][0]["x0"] == 0.5
    assert any(f"Network {k}" in m.value for m in at.markdown)


def test_selection_decoder_reads_streamlit_events():
    ev = {
        "selection": {
            "points": [{"x": 2, "y": 1, "customdata": [2, 1], "point_index": 7}],
            "point_indices": [7],
            "box": [],
            "lasso": [],
        }
    }
    assert lab_heatmap.selected_cell(ev, 5, 5) == (2, 1)
    assert lab_heatmap.selected_cell({"selection": {"points": [{"x": 3.0, "y": 0.0}]}}, 5, 5) == (3, 0)
    assert lab_heatmap.selected_cell({"selection": {"points": []}}, 5, 5) is None
    assert lab_heatmap.selected_cell({"selection": {"points": [{"x": 9, "y": 0}]}}, 5, 5) is None
    assert lab_heatmap.selected_cell(None, 5, 5) is None


def test_url_round_trip():
    cfg = {"x_gate": "output", "x_values": "0, -1", "y_gate": "none", "n_seeds": 3, "lr": 0.5, "seed": 7}
    at = open_lab(cfg)
    assert at.selectbox(key="bias_lab.x_gate").value == "output"
    assert at.text_input(key="bias_lab.x_values").value == "0, -1"
    assert at.slider(key="bias_lab.n_seeds").value == 3
    assert at.number_input(key="bias_lab.seed").value == 7
    q = at.query_params["cfg"]
    q = q[0] if isinstance(q, list) else q
    written = json.loads(base64.urlsafe_b64decode(q + "=" * (-len(q) % 4)).decode())
    assert written == {**cfg, "y_gate": "none"}
    assert any("6 networks" in c.value for c in at.caption)  # 2 settings × 3 seeds


@pytest.mark.parametrize(
    "raw,needle",
    [
        ("not-base64!!", "could not be used"),
        (json.dumps({"n_seeds": 99}), "n_seeds"),
        (json.dumps({"x_gate": "nonsense"}), "x_gate"),
    ],
)
def test_bad_query_gives_an_error_not_an_exception(raw, needle):
    at = open_lab(raw=raw)
    assert any(needle in e.value for e in at.error), [e.value for e in at.error]


def test_bad_typed_values_and_oversized_sweeps_are_refused_with_a_message():
    at = open_lab({"x_values": "0, banana"})
    assert any("'banana' is not a number" in e.value for e in at.error)
    assert at.button(key="bias_lab.train").disabled
    at = open_lab({"budget": 20000})
    assert any("timesteps per network" in e.value for e in at.error)
    at = open_lab({"n_seeds": 16, "x_values": "0,-1,-2,-3,-4,-5", "y_values": "0,-1,-2,-3,-4"})
    assert any("at most 400 train together" in e.value for e in at.error)


@pytest.mark.parametrize("view", ["abuse", "drift"])
def test_demo_trains_both_settings_with_the_same_seeds(view):
    at = run_job(open_lab({**TINY, "view": view}), f"run_{view}")
    assert not at.error
    ch = charts(at)
    if view == "abuse":
        loss = ch["abuse-loss"]
        assert {t["name"] for t in loss["data"] if "median" in t["name"]} == {
            "0 (median)",
            "−1, −2, −3 (median)",
        }
        table = at.dataframe[-1].value
        assert list(table["training"]) == ["before", "after", "before", "after"]
    else:
        assert {"drift-s", "drift-h", "drift-grad_input_gate", "drift-grad_cell_input"} <= set(ch)
        names = [t["name"] for t in ch["drift-s"]["data"]]
        assert "input bias 0 (before)" in names and "input bias −3, −6, −9 (after)" in names


def test_forget_view_shows_the_measured_flow():
    at = open_lab(
        {"view": "forget", "variant": "lstm2000", "forget_biases": "-2, 2", "forget_T": 30, "seed": 1}
    )
    assert not at.error
    ch = charts(at)
    flow = ch["forget-flow"]
    values = {
        **lab_settings.DEFAULTS,
        "variant": "lstm2000",
        "forget_biases": "-2, 2",
        "forget_T": 30,
        "seed": 1,
    }
    from app.bias_lab import forget_demo

    d, _ = forget_demo.forget_data(values)
    got = arr(next(t for t in flow["data"] if t["name"] == "b_fg = -2")["y"])
    np.testing.assert_allclose(got, d["relative"][0], rtol=1e-9)
    assert d["per_step"][0] < d["per_step"][1]


def test_paper_setup_button_loads_the_drift_experiment():
    at = open_lab({"view": "drift"})
    at.button(key="bias_lab.paper_drift").click().run()
    assert not at.exception
    assert at.selectbox(key="bias_lab.task").value == "adding"
    assert at.slider(key="bias_lab.n_blocks").value == 2 and at.slider(key="bias_lab.block_size").value == 2
    names = [t["name"] for t in charts(at)["drift-s"]["data"]]
    assert names == ["input bias 0 (before)", "input bias −3, −6 (before)"]


def test_every_bias_lab_figure_passes_plotly_validation():
    """The builders skip Plotly's validation for speed; a misspelt property must still fail here."""
    import plotly.graph_objects as go

    sweep = reference_sweep(TINY)
    cells = sweep.cells()
    figs = [
        lab_heatmap.sweep_heatmap(
            cells,
            sweep.labels("x"),
            sweep.labels("y"),
            x_title="a",
            y_title="b",
            metric=m,
            large=True,
            uirevision="u",
            selected=(0, 1),
            budget=10,
        )[0]
        for m in ("success", "median")
    ]
    tr = sweep.probe(3)
    figs += [
        c[0]
        for pair in lab_figures.probe_panels(tr["before"], tr["after"], variant="lstm1997", large=False)
        for c in pair
    ]
    frame = pd.DataFrame(
        {
            "chunk": [0, 0, 1, 1],
            "setting": ["0", "−1", "0", "−1"],
            "seed": [0] * 4,
            "sequences": [10, 10, 20, 20],
            "loss": [1.0, 2.0, 0.5, 1.5],
        }
    )
    figs.append(lab_figures.curves(frame, "loss", title="t", y="y", large=False, uirevision="c", log=True)[0])
    figs.append(
        lab_figures.forget_factor_chart([0.0, 1.0], np.array([0.5, 0.7]), np.array([0.5, 0.73]), large=False)[
            0
        ]
    )
    for f in figs:
        go.Figure(f.to_dict())  # raises on an invalid property


def test_a_map_with_no_value_yet_still_draws_each_cells_mark():
    # Plotly draws nothing at all for an all-empty heat map (seen in the browser: a blank median map
    # while its title promised "✗ = none solved"); every cell's label must still be drawn
    cells = pd.DataFrame(
        {
            "i": [0, 1],
            "j": [0, 0],
            "x": ["0", "−2"],
            "y": ["", ""],
            "solved": [0, 0],
            "networks": [2, 1],
            "success_rate": [0.0, 0.0],
            "median_to_criterion": [np.nan, np.nan],
            "diverged": [0, 0],
            "running": [0, 1],
        }
    )
    fig, _alt = lab_heatmap.sweep_heatmap(
        cells, ["0", "−2"], [], x_title="a", y_title="b", metric="median", large=False, uirevision="u"
    )
    heat = fig.data[0]
    assert np.isfinite(np.asarray(heat.z, dtype=float)).all()  # something Plotly will draw
    assert heat.showscale is False  # no colour bar pretending to a scale
    assert [list(r) for r in heat.text] == [["✗", "…"]]
    fig2, _alt = lab_heatmap.sweep_heatmap(
        cells, ["0", "−2"], [], x_title="a", y_title="b", metric="success", large=False, uirevision="u"
    )
    assert fig2.data[0].showscale is None  # values exist: the real scale
