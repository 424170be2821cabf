"""The Theory page's demo settings (one shared form, ``?cfg=`` links) and its error-flow chart.

In a module of their own, not in ``pages/theory.py``: Streamlit runs a page's file afresh at every
run, so a schema defined there is a new object each run, and the page's slider preview
(``app.ui.previews``, kept per schema) was made anew at every run — a new socket and nothing built
ahead, every notch a page run's time (measured: ~200 ms a notch, issue 48).
"""

from __future__ import annotations

from app.i18n import N_
from app.theory import demo, flow_figure
from app.ui import form, saving
from app.ui.form import Field
from app.ui.page_frame import PageSpec

PAGE = "theory"
D = demo.DEFAULTS
SCHEMA = form.Schema(
    [
        Field("w", N_("recurrent weight w"), "float", D.w, *demo.W_RANGE, 0.1, widget="slider"),
        Field(
            "f",
            N_("activation f"),
            "choice",
            D.f,
            choices=demo.ACTIVATIONS,
            widget="segmented",
            fmt={"sigmoid": "σ (1997)", "tanh": "tanh"}.get,
        ),
        Field("amp", N_("input amplitude"), "float", D.amp, *demo.AMP_RANGE, 0.1, widget="slider"),
        Field("T", N_("sequence length T"), "int", D.T, *demo.T_RANGE, 1, widget="slider"),
        Field("seed", N_("seed"), "int", D.seed, *demo.SEED_RANGE, 1, widget="number"),
    ]
)
DEFAULTS = SCHEMA.defaults()
SPEC = PageSpec(PAGE, SCHEMA, DEFAULTS)
WIDTHS = {"w": 3, "f": 2, "amp": 2, "T": 2, "seed": 1.4}  # the demo's controls, in one row


FLOW_CHART = "theory_flow"


def flow_chart(result: demo.DemoResult, values: dict, large_font: bool) -> tuple:
    """The demo's error-flow chart: figure, alt text, Plotly config (the page and its slider previews)."""
    return (
        flow_figure.flow_figure(result, large_font),
        flow_figure.flow_alt(result),
        saving.config("theory-error-flow", [k + saving.slug(values[k]) for k in WIDTHS]),
    )
