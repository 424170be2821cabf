"""Slow motion through one timestep on Step through a cell (Streamlit AppTest + unit checks):
each operation advances once, Back works (also across a step boundary), the diagram outlines the
current operation and hides values not computed yet, the equation lines follow."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest
from helpers import chart_specs
from page_helpers import open_page

import lstm_core as lc
from app.cells import canvas, common, families
from app.step import diagram, slowmo
from app.ui import urlstate


def op_label(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Operation"))


def outlined(at) -> set[str]:
    """Texts of the diagram boxes drawn with the slow-motion outline colour."""
    spec = chart_specs(at)[0]
    boxes = [s for s in spec["layout"]["shapes"] if s.get("type") == "rect"]
    return {i for i, b in enumerate(boxes) if b["line"]["color"] == canvas.FOCUS}


def test_each_operation_advances_once_and_back_works_across_steps():
    at = open_page("step")
    at.toggle(key="step.slowmo").set_value(True).run()
    seen = [op_label(at)]
    for _ in range(len(slowmo.OPS)):
        at.button(key="step.op_next").click().run()
        assert not at.exception
        seen.append(op_label(at))
    assert seen == [f"**Operation {k + 1} of 7: {name}**" for k, name in enumerate(slowmo.OPS)] + [
        "**Operation 1 of 7: net inputs**"
    ]
    assert at.metric[0].value.startswith("2 / ")  # past the output: the next timestep
    at.button(key="step.op_back").click().run()
    assert op_label(at) == "**Operation 7 of 7: output**" and at.metric[0].value.startswith("1 / ")
    at.button(key="step.op_back").click().run()
    assert op_label(at) == "**Operation 6 of 7: output gate**"
    # the current operation's equation in colour, later ones greyed without numbers
    tex = at.latex[0].value
    assert r"\color{#B84F00}{y^{out}(t)}" in tex and r"\color{#666666}{y^c(t)}" in tex


def test_the_diagram_follows_the_operations():
    at = open_page("step")
    at.toggle(key="step.slowmo").set_value(True).run()
    texts = lambda: " ".join(a["text"] for a in chart_specs(at)[0]["layout"]["annotations"])
    assert "?" in texts() and len(outlined(at)) >= 2  # net inputs: gates and cell input outlined
    for _ in range(len(slowmo.OPS) - 1):
        at.button(key="step.op_next").click().run()
    assert "?" not in texts()  # the output: everything computed
    at.toggle(key="step.slowmo").set_value(False).run()
    assert not outlined(at)  # off: the ordinary diagram


@pytest.mark.parametrize(
    "variant,settings",
    [
        ("lstm1997", dict(n_blocks=2, block_size=2)),
        ("lstm1997", dict(n_blocks=1, block_size=1, output_gate=False)),
        ("lstm2000", dict(n_blocks=2, block_size=1)),
        ("lstm2002", dict(n_blocks=1, block_size=1)),
        ("lstm", dict(n_hidden=3)),
    ],
)
def test_stages_use_the_recorded_numbers_and_hide_what_is_not_computed(variant, settings):
    m = lc.build(variant, n_in=2, n_out=1, seed=0, init_range=0.5, **settings)
    run = lc.forward(m, np.random.default_rng(0).normal(size=(4, 1, 2)))
    snap = families.snapshot(m.config, run.internals, 2, 0)
    rows = slowmo.stages(m.config, snap)
    assert len(rows) == len(slowmo.OPS) and all(rows)
    state_name = "c" if variant == "lstm" else "s"
    assert common.num(snap[state_name]) in " ".join(r[2] for r in rows[3])  # the CEC update's result
    for op in range(len(slowmo.OPS)):
        shown = slowmo.hidden(m.config, snap, op)
        assert (math.isnan(shown["y"])) == (op < 6)
        if op < 3:
            assert shown[state_name] == snap[f"{state_name}_prev"]  # the carousel still holds s(t−1)
        spec, _ = diagram.cell_diagram(m.config, shown, "unit", 3, highlight=frozenset(slowmo.HIGHLIGHT[op]))
        fig = go.Figure(spec)  # validated: the plain dict is a figure Plotly accepts
        assert (
            any(
                s["line"]["color"] == canvas.FOCUS
                for s in fig.to_dict()["layout"]["shapes"]
                if s.get("type") == "rect"
            )
            or op == 6
            or (op == 5 and "y_og" not in snap and "o" not in snap)
        )
        slowmo.latex(rows, op)  # renders for every operation


def test_slow_motion_is_offered_only_for_lstm_cells():
    at = open_page("step", {urlstate.PARAM: urlstate.encode({"variant": "rnn"}, {})})
    assert at.toggle(key="step.slowmo").disabled
