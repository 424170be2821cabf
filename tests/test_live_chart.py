"""The in-place live chart (app/ui/live.py): what is sent to the browser, and the Step clock.

The browser half (Plotly.react on one kept div, patches applied on the anchor) is tested in
tests/e2e/test_live_browser.py; here: the patch a figure change becomes, and that a second
draw of the same chart sends only the new points.
"""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
from streamlit.testing.v1 import AppTest

from app.step.player import advance
from app.ui import live


def line(y, title="loss", shapes=()):
    y = np.asarray(y, dtype=float)
    return go.Figure(
        {
            "data": [{"type": "scatter", "x": np.arange(len(y)), "y": y, "name": "run"}],
            "layout": {"title": {"text": title}, "uirevision": "loss", "shapes": list(shapes)},
        }
    )


def raw(fig):
    return live.raw(fig, None)


def test_appended_points_become_a_patch_with_only_the_new_points():
    patch = live.diff(raw(line([1.0, 0.5])), raw(line([1.0, 0.5, 0.25, 0.125])))
    assert patch == {"extend": {"0": {"x": [2, 3], "y": [0.25, 0.125]}}, "layout": {}}


def test_a_changed_old_point_or_trace_count_sends_the_whole_figure():
    assert live.diff(raw(line([1.0, 0.5])), raw(line([1.0, 0.4, 0.2]))) is None  # history rewritten (thinned)
    two = raw(line([1.0]))
    two["data"].append(dict(two["data"][0]))
    assert live.diff(raw(line([1.0])), two) is None
    assert live.diff(raw(line([1.0, 0.5])), raw(line([1.0]))) is None  # shorter


def test_a_moved_cursor_is_a_layout_patch_and_nan_becomes_null():
    cursor = lambda t: [{"type": "line", "x0": t, "x1": t, "y0": 0, "y1": 1}]
    patch = live.diff(raw(line([1.0, 2.0], shapes=cursor(1))), raw(line([1.0, 2.0], shapes=cursor(2))))
    assert patch["extend"] == {} and patch["layout"]["shapes"][0]["x0"] == 2
    patch = live.diff(raw(line([1.0])), raw(line([1.0, np.nan, 3.0])))
    assert patch["extend"]["0"]["y"] == [None, 3.0]
    json.dumps(patch, allow_nan=False)  # valid JSON for the browser


def test_same_treats_nan_as_equal_and_compares_nested_arrays():
    assert live.same({"a": np.array([1.0, np.nan])}, {"a": np.array([1.0, np.nan])})
    assert not live.same({"a": np.array([1.0, 2.0])}, {"a": np.array([1.0, 2.5])})
    assert not live.same([1, 2], [1, 2, 3])


def _app() -> None:
    import numpy as np
    import plotly.graph_objects as go
    import streamlit as st

    from app.ui import live

    n = st.session_state["n"] = st.session_state.get("n", 0) + 1
    y = 1.0 / np.arange(1, 3 * n + 1)
    live.chart(
        None,
        go.Figure({"data": [{"type": "scatter", "y": y}], "layout": {"uirevision": "t"}}),
        "t.loss",
        "a loss curve",
    )


def _messages(at: AppTest) -> list[dict]:
    return [json.loads(e.proto.json) for e in at.get("bidi_component")]


def test_a_second_draw_sends_a_patch_against_the_first_whole_figure():
    at = AppTest.from_function(_app).run()
    (first,) = _messages(at)
    assert "full" in first and first["alt"] == "a loss curve"
    assert len(json.loads(first["full"])["data"]) == 1
    at.run()
    (second,) = _messages(at)
    assert "full" not in second and second["base"] == first["rev"] and second["rev"] > first["rev"]
    assert json.loads(second["patch"])["extend"]["0"]["y"] == [1 / 4, 1 / 5, 1 / 6]
    at.run()
    (third,) = _messages(at)  # relative to the anchor (the whole figure), not to the previous patch
    assert third["base"] == first["rev"]
    assert json.loads(third["patch"])["extend"]["0"]["y"] == [1 / k for k in range(4, 10)]
    live_sent = at.session_state[live.SENT_KEY]["t.loss"]
    assert live_sent.rev == first["rev"]


def test_playback_follows_the_clock_but_moves_at_least_one_step_per_tick():
    t, clock = advance(5, 100, 4.0, now=10.0, clock=None)  # Play: the clock starts at step 5
    assert t == 6
    t, clock = advance(t, 100, 4.0, now=10.25, clock=clock)  # on time: one step (4 steps/s)
    assert t == 7
    t, clock = advance(t, 100, 4.0, now=12.0, clock=clock)  # a late tick catches up: 5 + 2 s × 4
    assert t == 13
    t, clock = advance(t, 15, 4.0, now=20.0, clock=clock)  # never past the end
    assert t == 15
    t2, clock2 = advance(3, 100, 4.0, now=21.0, clock=clock)  # moved by hand: the clock restarts there
    assert t2 == 4 and clock2[0] == 3
    t3, clock3 = advance(t2, 100, 10.0, now=21.5, clock=clock2)  # a new speed restarts it too
    assert t3 == 5 and clock3[2] == 10.0


def test_the_live_charts_plotly_bundle_is_the_version_the_figures_are_written_for():
    """app/static's cartesian bundle (committed) must be the plotly.js the installed plotly package
    writes figures for: a plotly upgrade without a new bundle fails here, not in a browser."""
    from plotly.offline import get_plotlyjs_version

    head = live.PLOTLY_JS.read_text(encoding="utf-8")[:200]
    assert f"plotly.js (cartesian - minified) v{get_plotlyjs_version()}" in head
    assert live.PLOTLY_VERSION == get_plotlyjs_version()


def test_every_trace_type_the_app_draws_is_in_the_cartesian_bundle():
    """The figure builders use only scatter and heatmap traces; the bundle registers both (a chart
    of another type would draw nothing in the browser)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    used = set()
    for path in [*root.glob("app/**/*.py"), *root.glob("pages/*.py")]:
        text = path.read_text(encoding="utf-8")
        used |= set(
            re.findall(
                r'\btype="(scatter|heatmap|bar|box|pie|histogram\w*|contour|scattergl|image|violin)"', text
            )
        )
        used |= {
            m.lower()
            for m in re.findall(
                r"\bgo\.(Scatter\w*|Heatmap|Bar|Box|Pie|Histogram\w*|Contour|Image|Violin)\(", text
            )
        }
    assert used and used <= {
        "scatter",
        "heatmap",
        "bar",
        "box",
        "pie",
        "histogram",
        "contour",
        "image",
        "violin",
    }
    bundle = live.PLOTLY_JS.read_text(encoding="utf-8")
    for kind in used:
        assert f'name:"{kind}"' in bundle or f"name:`{kind}`" in bundle, kind
