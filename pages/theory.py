"""Theory: every variant's equations side by side, the symbol table, the vanishing-gradient argument.

A thin pipeline: the text sections from app.theory.view; the demo's settings (a ``form.Schema``, so the
URL's ``?cfg=``, the JSON files and the widgets work as on every other page) → app.theory.demo
(lstm_core) → app.theory.figures → st.plotly_chart.
"""

from __future__ import annotations

import streamlit as st

from app.i18n import N_, _
from app.theory import demo
from app.theory import view as theory_view
from app.theory.settings import DEFAULTS, FLOW_CHART, PAGE, SCHEMA, SPEC, WIDTHS, flow_chart
from app.ui import export, form, live, previews, state, urlstate
from app.ui.page_frame import page_frame

__all__ = ["DEFAULTS", "PAGE", "SCHEMA", "SPEC", "page"]  # what tests read of the page (app.theory.settings)


def upgrade_old_link() -> None:
    """Old links (``?w=3&T=50``, before the page used ``?cfg=``) become the shared form, so
    ``start_page`` validates them like any link (a bad value: an error and the defaults)."""
    old = demo.legacy_query(st.query_params.to_dict())
    if old is not None:
        rest = {k: v for k, v in st.query_params.to_dict().items() if k not in demo.LEGACY_PARAMS}
        st.query_params.from_dict({**rest, urlstate.PARAM: urlstate.encode(old, {})})


def page() -> None:
    # the app-wide sidebar toggle (app.state); "large_font" is honoured too, for callers that set it
    large_font = state.display_options() or bool(st.session_state.get("large_font", False))
    st.title(_("Theory"))
    if not state.presenting():
        st.markdown(
            _(
                "Why a plain recurrent network forgets, and what each cell design changes. The equations are "
                "exactly the ones `lstm_core` computes; the figures below are computed by it live."
            )
        )
    theory_view.equations_section(large_font)
    theory_view.symbols_section()
    theory_view.argument_section(large_font)
    demo_section(large_font)


def demo_section(large_font: bool) -> None:
    """The live demo: its settings (the page's form), the error-flow chart, the CSV / JSON panel."""
    st.subheader(_("Try it: the product of q factors |w f'(net)|"))
    st.markdown(
        _(
            "An **RNN with one hidden unit** (self-weight *w*, input weight 1, bias 0) and an **LSTM 1997 "
            "network with one memory cell** read the same noisy input x(t) = amplitude · N(0, 1). The loss "
            "is the output at the last step; the curves are the exact error norms computed by "
            "`lstm_core.error_flow` as the error travels q steps back."
        )
    )
    # The page's settings start here, before their widgets, as on every page; here rather than
    # above the title so a link's or an upload's message appears next to the demo it concerns.
    upgrade_old_link()
    with page_frame(SPEC):
        for col, name in zip(st.columns(list(WIDTHS.values())), WIDTHS):
            SCHEMA[name].render(PAGE, col)
        form.reset_button(PAGE, SCHEMA, "demo", lambda: list(WIDTHS), lambda: DEFAULTS)
        values = SCHEMA.read(PAGE)

        outcome = state.keep_good(PAGE, "demo", lambda: demo.compute_demo(demo.DemoSettings(**values)))
        state.report(outcome, N_("these demo settings"))
        pv = previews.attach(
            PAGE,
            SCHEMA,
            lambda v: {FLOW_CHART: flow_chart(demo.compute_demo(demo.DemoSettings(**v)), v, large_font)},
            reads=(large_font,),
        )
        if outcome.value is not None:
            fig, alt_flow, config = flow_chart(outcome.value, values, large_font)
            live.chart(
                st, fig, FLOW_CHART, alt_flow, config=config, preview=previews.chart_data(pv, FLOW_CHART)
            )
            st.caption(_("Alt text: {alt}").format(alt=alt_flow))
        frame = outcome.value.frame if outcome.value is not None else None
        export.io_panel(
            PAGE,
            SCHEMA,
            csv=lambda: b"" if frame is None else frame.to_csv(index=False).encode(),
            csv_name="gatelab-theory-error-flow.csv",
            csv_label=N_("Curves (CSV)"),
            doc=export.config_document(PAGE, None, values),
            doc_name="gatelab-theory.json",
            from_model=None,
        )


# Streamlit runs a page as __main__; tests import the module for its settings without drawing.
if __name__ == "__main__":
    page()
