"""Figures that save (issue 32): every chart on every page has a save button in its Plotly toolbar
that downloads an SVG named after the chart and its settings, and (issue 45) a live chart one more
that downloads the same picture as a 2× PNG of the same name (app.ui.saving)."""

from __future__ import annotations

import json

import pytest
from page_helpers import open_page
from test_bias_lab_page import TINY, open_lab, run_job

from app.ui import saving


def chart_configs(at, streamlit_charts: list | None = None) -> list[tuple[str, dict]]:
    """(title, Plotly config) of every chart an AppTest run drew: ``st.plotly_chart`` elements and
    the live charts of ``app.ui.live``."""
    out: list[tuple[str, dict]] = []

    def title(spec: dict) -> str:
        t = spec.get("layout", {}).get("title", {})
        return t.get("text", "") if isinstance(t, dict) else str(t)

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            kind = getattr(child, "type", None)
            if kind == "plotly_chart":
                out.append((title(json.loads(child.proto.spec)), json.loads(child.proto.config or "{}")))
                if streamlit_charts is not None:
                    streamlit_charts.append(out[-1][0])
            elif kind == "bidi_component" and child.proto.component_name == "gatelab_live_chart":
                spec = json.loads(json.loads(child.proto.json)["full"])
                out.append((title(spec), spec.get("config", {})))
            walk(child)

    walk(at._tree)
    return out


def assert_saves(configs: list[tuple[str, dict]], streamlit_charts: tuple = ()) -> list[str]:
    """Every chart shows a save button for a named SVG, and a live chart one for a 2× PNG of the same
    name (``streamlit_charts``: titles of ``st.plotly_chart`` charts, which have no PNG button);
    returns the file names."""
    assert configs, "no chart drawn"
    names = []
    for chart_title, c in configs:
        png = c.get(saving.PNG_KEY)
        if chart_title in streamlit_charts:
            assert png is None, chart_title  # st.plotly_chart runs no script of ours: no PNG button
        else:
            assert png and png["scale"] == 2, f"chart {chart_title!r} has no PNG button: {c}"
            assert png["filename"] == c["toImageButtonOptions"]["filename"], chart_title
            assert png["title"], chart_title
        opts = c.get("toImageButtonOptions")
        assert opts, f"chart {chart_title!r} has no save options: {c}"
        assert c.get("displayModeBar", True) is not False, chart_title
        if "modeBarButtons" in c:
            assert "toImage" in sum(c["modeBarButtons"], []), chart_title
        assert "toImage" not in c.get("modeBarButtonsToRemove", []), chart_title
        # plotly.js 4's "Share chart..." is on by default and does nothing without a Plotly server
        assert c.get("showSendToCloud") is False, chart_title
        assert opts["format"] in ("svg", "png"), chart_title
        assert opts["format"] == "svg" or opts["scale"] >= 2, chart_title
        assert opts["filename"].startswith("gatelab-"), opts
        assert all(ch.isalnum() or ch in "-." for ch in opts["filename"]), opts
        names.append(opts["filename"])
    return names


def test_file_names():
    assert (
        saving.filename("gradient-flow", ["rnn", "lstm1997"], "t100")
        == "gatelab-gradient-flow-rnn-lstm1997-t100"
    )
    assert saving.filename("forget flow", "Input gate −3", "", 0.5) == "gatelab-forget-flow-input-gate-3-0.5"
    c = saving.config("cell-diagram", "lstm1997", only_save=True)
    assert c["modeBarButtons"] == [["toImage"]] and c.get("displayModeBar", "hover") == "hover"
    assert c["toImageButtonOptions"] == {
        "format": "svg",
        "filename": "gatelab-cell-diagram-lstm1997",
        "scale": 2,
    }


@pytest.mark.parametrize(
    "page, expected",
    [
        ("home", {"gatelab-error-flow-rnn-lstm1997"}),
        ("theory", {"gatelab-activations"}),
        (
            "gradient_flow",
            {"gatelab-gradient-flow-rnn-lstm1997-t100-bptt", "gatelab-local-feedback-u0.9-v1.5"},
        ),
        (
            "step",
            {"gatelab-step-input-lstm1997-block-1-cell-1", "gatelab-cell-diagram-lstm1997-block-1-cell-1"},
        ),
        ("train", set()),
        ("experiments", set()),
        ("bias_lab", set()),
    ],
)
def test_every_chart_saves(page, expected):
    at = open_page(page)
    streamlit_charts: list = []
    names = assert_saves(chart_configs(at, streamlit_charts), tuple(streamlit_charts))
    assert expected <= set(names), names
    print(page, names)


def test_a_revealed_lesson_chart_saves():
    at = open_page("lessons")
    lesson = at.selectbox(key="lessons.lesson").value
    at.radio(key=f"lessons.pick.{lesson}.0").set_value(0).run()
    at.button(key=f"lessons.reveal.{lesson}.0").click().run()
    assert not at.exception
    assert f"gatelab-lesson-{lesson}-q1" in assert_saves(chart_configs(at))


def test_bias_lab_heat_maps_and_probe_charts_save():
    at = run_job(open_lab(TINY), "train")
    at.selectbox(key="bias_lab.cell").set_value((1, 2)).run()
    streamlit_charts: list = []
    names = assert_saves(chart_configs(at, streamlit_charts), tuple(streamlit_charts))
    assert streamlit_charts  # the finished heat maps (clicks pick a cell): SVG only
    assert {"gatelab-bias-sweep-success-lstm1997", "gatelab-bias-sweep-median-lstm1997"} <= set(names)
    assert any(n.startswith("gatelab-bias-probe1-before-lstm1997-network") for n in names), names
    heat = [
        c
        for _t, c in chart_configs(at)
        if c["toImageButtonOptions"]["filename"].startswith("gatelab-bias-sweep")
    ]
    assert all(c["modeBarButtons"] == [["toImage"]] for c in heat)  # only the save button: clicks pick cells


@pytest.mark.parametrize("view", ["abuse", "drift"])
def test_bias_lab_demo_charts_save(view):
    names = assert_saves(chart_configs(run_job(open_lab({**TINY, "view": view}), f"run_{view}")))
    assert any(n.startswith(f"gatelab-bias-lab-{view}") for n in names), names


def test_bias_lab_forget_charts_save():
    at = open_page("bias_lab", {"cfg": json.dumps({"view": "forget", "variant": "lstm2000", "forget_T": 30})})
    names = assert_saves(chart_configs(at))
    assert {"gatelab-forget-flow-lstm2000-t30", "gatelab-bias-lab-forget-factor"} <= set(names), names
