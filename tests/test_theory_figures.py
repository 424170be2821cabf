"""Theory's demo figure, built from its styled panels kept per language and size (``flow_figure``), is
the figure built whole the plain way — plotly.py validating every property — for every language,
both sizes and settings that change its titles, scales and margins."""

from __future__ import annotations

import dataclasses
import json

import pytest
from plotly.subplots import make_subplots
from plotly.utils import PlotlyJSONEncoder

from app import i18n
from app.theory import demo
from app.theory import flow_figure as tf


def whole(result: demo.DemoResult, large_font: bool):
    """The figure built the plain way: panels, curves, then style (as it was before the panels were kept)."""
    fig = make_subplots(**tf.FLOW_PANELS, subplot_titles=tf.flow_titles())
    tf.flow_content(fig, result, large_font)
    tf.flow_style(fig, large_font)
    fig.update_layout(margin_l=tf._left_margin(fig, large_font))
    return fig


def text(fig) -> str:
    return json.dumps(fig.to_plotly_json(), cls=PlotlyJSONEncoder, sort_keys=True)


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
@pytest.mark.parametrize("large_font", [False, True])
@pytest.mark.parametrize(
    "changes",
    [{}, {"f": "tanh", "w": 3.5}, {"w": 0.2, "T": 120, "amp": 0.1}],
    ids=["defaults", "tanh-exploding", "long-tiny"],
)
def test_the_demo_figure_is_the_one_built_whole(lang, large_font, changes):
    result = demo.compute_demo(dataclasses.replace(demo.DEFAULTS, **changes))
    token = i18n._PINNED.set(lang)
    try:
        fast = tf.flow_figure(result, large_font)
        assert text(fast) == text(whole(result, large_font))
        again = tf.flow_figure(
            result, large_font
        )  # the kept panels are not changed by a figure made from them
        assert text(again) == text(fast)
    finally:
        i18n._PINNED.reset(token)


@pytest.mark.parametrize("changes", [{}, {"f": "tanh", "w": 3.5}], ids=["defaults", "tanh-exploding"])
def test_the_bound_line_and_the_axes_are_what_plotlys_helpers_make(changes):
    """The bound's line and label and the axes' titles and scales are written out as plain properties
    (plotly.py's underscored helpers define a class per parsed name: issue 48); they are what
    ``add_hline`` and ``update_xaxes``/``update_yaxes`` with ``row``/``col`` make."""
    result = demo.compute_demo(dataclasses.replace(demo.DEFAULTS, **changes))
    fname = "σ" if result.settings.f == "sigmoid" else "tanh"
    fig = tf.flow_figure(result).to_plotly_json()["layout"]
    ref = make_subplots(**tf.FLOW_PANELS)
    line = fig["shapes"][0]["line"]
    label = "|w| · max {f}' = {factor}".format(f=fname, factor=f"{result.bound_factor:.3g}")
    ref.add_hline(
        y=result.bound_factor,
        row=1,
        col=2,
        line=line,
        annotation_text=label,
        annotation_position="top left",
        exclude_empty_subplots=False,
    )
    ref.update_xaxes(title_text="q = steps back in time from the loss", row=1, col=1)
    ref.update_xaxes(title_text="q (the q-th step back)", row=1, col=2)
    ref.update_yaxes(title_text="relative error norm (log)", type="log", exponentformat="power", row=1, col=1)
    ref.update_yaxes(title_text="factor", range=fig["yaxis2"]["range"], row=1, col=2)
    want = ref.to_plotly_json()["layout"]
    assert fig["shapes"] == want["shapes"]
    (bound,) = [a for a in fig["annotations"] if a["text"] == label]
    assert {k: v for k, v in bound.items() if k != "font"} == want["annotations"][0]
    for axis in ("xaxis", "xaxis2", "yaxis", "yaxis2"):
        assert fig[axis]["title"]["text"] == want[axis]["title"]["text"]
        for prop in ("type", "exponentformat", "range"):
            assert fig[axis].get(prop) == want[axis].get(prop)
