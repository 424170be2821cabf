"""Step's frames (app/step/frames.py): what the browser applies at step t is what the server draws at t.

For every variant: each chart's figure at step 1 with step t's frame written in equals the figure the
server builds at step t (layout, traces, config), and each step's equations filled from the templates
equal the LaTeX the server renders at that step. The browser applies exactly these values
(``Plotly.relayout`` with the same paths; tests/e2e/test_scrub_browser.py watches it do so).
"""

from __future__ import annotations

import json

import pytest
from plotly.utils import PlotlyJSONEncoder

import lstm_core as lc
from app.step import frames, player
from app.step.settings import DEFAULTS, SCHEMA, compute
from app.ui import controls, live


def _plain(d):
    return json.loads(json.dumps(d, cls=PlotlyJSONEncoder))


@pytest.mark.parametrize("variant", list(lc.VARIANTS))
def test_each_step_is_the_first_figure_with_its_frame_applied(variant):
    values = {**DEFAULTS, **controls.paper_values(SCHEMA, variant, DEFAULTS["task"]), "adding.T": 12}
    cfg, data = compute(values)
    T = data["xs"].shape[0]
    unit = min(1, len(player.families.unit_labels(cfg)) - 1)
    run = player.run_frames(cfg, data, False, unit)
    assert run[player.DIAGRAM_KEY] is not None and run[player.DIAGRAM_KEY].paths, "the diagram changes"
    first = {
        k: live.raw(f, c) for k, (f, _a, c) in player.cursor_figures(cfg, data, False, 1, unit, None).items()
    }
    eq = frames.equation_frames(run["equations"])
    for t in range(1, T + 1):
        for key, (fig, _alt, config) in player.cursor_figures(cfg, data, False, t, unit, None).items():
            drawn = live.raw(fig, config)
            f = run[key]
            assert f is not None, key
            assert frames.apply(first[key]["layout"], f, t) == _plain(drawn["layout"]), (key, t)
            assert live.same(first[key]["data"], drawn["data"]) and first[key]["config"] == drawn["config"]
        assert frames.fill(eq, t) == run["equations"][t - 1]
    # the cursor line moves: the charts' frames are not all the same value
    assert len({v for v in run["step.panel1"].values}) == T


def test_a_chart_whose_traces_change_between_steps_gets_no_frames():
    a = {"data": [{"y": [1, 2]}], "layout": {"title": {"text": "t = 1"}}, "config": {}}
    b = {"data": [{"y": [1, 3]}], "layout": {"title": {"text": "t = 2"}}, "config": {}}
    assert frames.figure_frames([a, b], live.same) is None
    c = {"data": [{"y": [1, 2]}], "layout": {"title": {"text": "t = 2"}}, "config": {}}
    f = frames.figure_frames([a, c], live.same)
    assert f.paths == ("title.text",) and f.values == (("t = 1",), ("t = 2",))
    # a layout of another shape (a shape more) is not a frame either
    d = {"data": [{"y": [1, 2]}], "layout": {"title": {"text": "t = 2"}, "shapes": [{"x0": 1}]}, "config": {}}
    assert frames.figure_frames([a, d], live.same) is None


def test_equation_templates_keep_every_number_and_share_a_template_when_they_can():
    texts = [r"a &= \sigma(0.5) = 0.622 \\ b &= 1\cdot 3", r"a &= \sigma(-0.5) = 0.378 \\ b &= 1\cdot 3"]
    texts.append(r"a &= \sigma(1.2\times 10^{-3}) = 0.5 \\ b &= 1\cdot 3")
    eq = frames.equation_frames(texts)
    assert [frames.fill(eq, t) for t in (1, 2, 3)] == texts
    # the constant 1 and 3 are written into the template, not sent at every step
    assert all(len(nums) == 2 for _k, nums in eq["steps"])
    assert len(eq["templates"]) == 1


@pytest.mark.parametrize("variant", list(lc.VARIANTS))
def test_the_diagram_read_from_its_plain_dict_is_the_figure_plotly_makes_of_it(variant):
    # the frames read the diagram at every step without building a go.Figure (live.raw_spec): the
    # same dict as the figure's own, for the whole step and after each slow-motion operation
    values = {**DEFAULTS, **controls.paper_values(SCHEMA, variant, DEFAULTS["task"]), "adding.T": 12}
    cfg, data = compute(values)
    for op in [None, *range(len(player.slowmo.OPS))]:
        spec, _alt, config = player._diagram(cfg, data, False, 3, 0, op)
        made = live.raw(player.figures.make_figure(spec), config)
        spec, _alt, config = player._diagram(cfg, data, False, 3, 0, op)
        read = live.raw_spec(spec, config)
        assert _plain(read) == _plain(made), op
        assert read["layout"]["shapes"], "a diagram draws its boxes"
