"""Gradient flow: vanishing error in an RNN vs the constant error carousel of the LSTM.

Pipeline: controls -> the same random input sequence through every chosen variant ->
``lc.error_flow`` (exact backward pass, or the 1997 truncation) for a loss at the last step,
cached per variant -> log-scale curves of how much error reaches each earlier state, next to
the theory line built from the per-step local factors.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from app.gradient_flow.flow import (
    FORGET_VARIANTS,
    GROUPS,
    LOCAL_CHART,
    MAIN_CHART,
    PAGE,
    SCHEMA,
    SPEC,
    add_forget_variants,
    chart_figures,
    curves,
    idle_fields,
    local_curves,
    local_figure,
    main_figure,
)
from app.i18n import _
from app.ui import export, figures, flow_figures, form, limits, previews, state
from app.ui.page_frame import page_frame


def page() -> None:
    """The page: controls -> cached error flows -> charts with explanations -> export."""
    large = state.display_options()
    with page_frame(SPEC):
        _content(large)


def _content(large: bool) -> None:
    st.title(_("Gradient flow: vanishing vs CEC"))
    state.intro(
        _(
            "One random input sequence goes through each network; an error is injected at the last step and "
            "followed back in time by the exact backward pass. The curves show how much of it reaches each "
            "earlier state (relative to the last step), on a log scale. First the 1997 cell against the RNN; "
            "then add the forget-gate LSTMs and move the forget-gate bias."
        )
    )
    _sidebar()
    values = SCHEMA.read(PAGE)

    main = state.keep_good(PAGE, "main", lambda: curves(values))
    state.report(main)
    # On a projector (large fonts) each chart gets the full width, its explanation below it.
    columns = (lambda: (st.container(), st.container())) if large else (lambda: st.columns([2, 1.15]))
    chart, text = columns()
    pv = previews.attach(PAGE, SCHEMA, lambda v: chart_figures(v, large), reads=(large,))
    if main.value:
        fig, alt, config = main_figure(main.value, values, large)
        figures.show(fig, alt, MAIN_CHART, chart, config=config, preview=previews.chart_data(pv, MAIN_CHART))
    elif main.error is None:
        chart.info(_("Choose at least one network in the sidebar."))
    missing = [n for n in FORGET_VARIANTS if n not in values["variants"]]
    if missing:
        chart.button(
            _("Add the forget-gate LSTMs ({names})").format(names=", ".join(missing)),
            key=state.wkey(PAGE, "add_forget"),
            on_click=add_forget_variants,
            icon=":material/add:",
            help=_("Compare: a forget gate multiplies the carousel by y_φ at every step."),
        )
    with text:
        st.markdown(flow_figures.flow_explanation(main.value or [], values, FORGET_VARIANTS))

    local = _local_feedback(values, columns, pv, large)

    export.io_panel(
        PAGE,
        SCHEMA,
        csv=lambda: export.flow_csv((main.value or []) + (local.value or [])),
        csv_name="gatelab-gradient-flow.csv",
        csv_label=_("Error-flow curves (CSV)"),
        doc=export.config_document(PAGE, None, values),
        doc_name="gatelab-gradient-flow.json",
        from_model=None,
    )


def _sidebar() -> None:
    """The controls by group; a control no chosen network reads is greyed out with the reason."""
    idle = idle_fields(list(SCHEMA.read(PAGE)["variants"]))
    with st.sidebar:
        for title, names in GROUPS.items():
            with st.expander(_(title), expanded=True):
                for n in names:  # form.render_fields, with the length's cap in its help
                    fld = (
                        SCHEMA[n]
                        if n != "T"
                        else replace(SCHEMA[n], help=_(SCHEMA[n].help).format(most=limits.FLOW_MAX_T))
                    )
                    fld.render(PAGE, disabled=n in idle)
                for n in names:
                    if n in idle:
                        st.caption(
                            _("{label}: greyed out, {why}.").format(label=_(SCHEMA[n].label), why=idle[n])
                        )
                form.reset_button(PAGE, SCHEMA, title, lambda names=names: names, lambda: SCHEMA.defaults())


def _local_feedback(values: dict, columns, pv, large: bool) -> state.Kept:
    """The local-feedback section: its chart and whether the forgetting condition holds."""
    st.subheader(_("The local-feedback forgetting condition"))
    local = state.keep_good(PAGE, "local", lambda: local_curves(values))
    state.report(local)
    chart2, text2 = columns()
    if local.value:
        fig, alt, config = local_figure(local.value, values, large)
        figures.show(
            fig, alt, LOCAL_CHART, chart2, config=config, preview=previews.chart_data(pv, LOCAL_CHART)
        )
    with text2:
        holds = abs(values["u"]) < 1 and abs(values["v"]) < 2
        msg = _("|u| = {u} {u_vs} 1 and |v| = {v} {v_vs} 2").format(
            u=f"{abs(values['u']):.2f}",
            u_vs="<" if abs(values["u"]) < 1 else "≥",
            v=f"{abs(values['v']):.2f}",
            v_vs="<" if abs(values["v"]) < 2 else "≥",
        )
        (st.success if holds else st.warning)(
            (
                _("{condition}: the forgetting condition holds.")
                if holds
                else _("{condition}: the forgetting condition does not hold.")
            ).format(condition=msg)
        )
        st.markdown(_(flow_figures.LOCAL_FEEDBACK_TEXT))

    return local


# Streamlit runs a page as __main__; tests import the module for its settings without drawing.
if __name__ == "__main__":
    page()
