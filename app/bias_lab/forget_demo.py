"""The Bias lab's forget-gate demo: error flowing back along s for several forget-gate biases
(no training: the exact backward pass of untrained networks), and a button that takes those biases
to the grid view.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from app import i18n
from app.bias_lab import figures as lab_figures
from app.bias_lab import settings as lab_settings
from app.bias_lab.demo_jobs import show_chart
from app.bias_lab.settings import PAGE, SCHEMA
from app.i18n import N_, _
from app.ui import flow_figures, form, live, netconfig, routes, saving, state
from lstm_core.sweeps import bias_demos as bd
from lstm_core.variants import REGISTRY

FORGET_TEXT = N_(
    "**The forget gate's bias.** With a forget gate the carousel becomes s(t) = y_fg·s(t−1) + y_ig·g, so error "
    "flowing back along s is multiplied by y_fg at every step: it decays like Π y_fg(t). Gers, Schmidhuber & "
    "Cummins (2000) therefore started forget gates **positive** (open: remember by default, the 1997 CEC); the "
    "2002 timing experiments used **−2** with peepholes, where the cell must learn to reset itself. The chart "
    "shows the exact backward pass (solid) and the product of the measured y_fg (dashed) for each bias."
)


def forget(values: dict) -> None:
    st.markdown(_(FORGET_TEXT))
    atlas = routes.route("bias_atlas.py")
    st.page_link(  # this demo is flow without training; the atlas trains the literature's schemes
        routes.PAGES_DIR / atlas.file,
        label=_(
            "Which biases for your time lag? The Bias atlas trains the literature's schemes as the lag grows"
        ),
        icon=atlas.icon,
        query_params=i18n.url_params(),
    )
    c1, c2 = st.columns([2, 1])
    c1.text_input(
        _(SCHEMA["forget_biases"].label), key=state.wkey(PAGE, "forget_biases"), persist_state=form.PERSIST
    )
    SCHEMA["forget_T"].render(PAGE, c2)
    outcome = state.keep_good(PAGE, "forget", lambda: forget_data(values))
    state.report(outcome, N_("these forget-gate settings"))
    if outcome.value is None:
        return
    d, variant = outcome.value
    large = state.large_fonts()
    curves = [
        flow_figures.FlowCurve(f"b_fg = {b:g}", d["q"], d["relative"][k], d["theory"][k])
        for k, b in enumerate(d["biases"])
    ]
    left, right = st.columns([2, 1])
    fig, alt = flow_figures.flow_chart(
        curves,
        title=_("Error flowing back along s ({variant})").format(variant=variant),
        large=large,
        uirevision="forget-flow",
        height=420,
    )
    live.chart(
        left,
        fig,
        state.wkey(PAGE, "forget_flow"),
        alt,
        config=saving.config("forget-flow", variant, f"t{values['forget_T']}"),
    )
    show_chart(
        right,
        lab_figures.forget_factor_chart(d["biases"], d["per_step"], d["y_fg"].mean(1), large=large),
        "forget_factor",
    )
    right.caption(
        _(
            "Measured: the geometric mean of ‖δ_s(t−1)‖/‖δ_s(t)‖ over the sequence. The mean "
            "forget-gate activation is what the theory multiplies by."
        )
    )
    if variant != values["variant"]:
        st.caption(
            _(
                "The sidebar's network is {chosen}, which has no forget gate: shown with {variant} and the "
                "sidebar's sizes."
            ).format(chosen=values["variant"], variant=variant)
        )
    st.button(
        _("Train a forget-bias × input-bias grid"),
        key=state.wkey(PAGE, "forget_grid"),
        on_click=_to_grid,
        args=(values,),
        icon=":material/grid_on:",
        help=_("Switch to the grid with the forget-gate biases above on the x axis and the input gate on y."),
    )
    st.session_state[state.wkey(PAGE, "_forget_csv")] = d


def forget_variant(values: dict) -> str:
    """The chosen variant if it has a forget gate, else the first that has one (lstm2000)."""
    with_forget = [n for n, v in REGISTRY.items() if "forget_gate" in v.options]
    return values["variant"] if values["variant"] in with_forget else with_forget[0]


def forget_data(values: dict):
    variant = forget_variant(values)
    v = {**values, "variant": variant, "forget_gate": True}
    base = netconfig.model_config(v, 2, 1)
    xs = np.random.default_rng(values["seed"]).uniform(-1.0, 1.0, size=(values["forget_T"], 1, 2))
    return bd.forget_flow(base, lab_settings.forget_biases(values), xs), variant


def _to_grid(values: dict) -> None:
    variant = forget_variant(values)
    SCHEMA.apply(
        PAGE,
        {
            "view": "grid",
            "variant": variant,
            "x_gate": "forget",
            "x_mode": "values",
            "x_values": values["forget_biases"],
            "x_step": 0.0,
            "y_gate": "input",
        },
    )
