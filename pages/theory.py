"""Theory: every variant's equations side by side, the symbol table, the vanishing-gradient argument.

A thin pipeline: text from app.theory.content; the demo's settings (a ``form.Schema``, so the
URL's ``?cfg=``, the JSON files and the widgets work as on every other page) → app.theory.demo
(lstm_core) → app.theory.figures → st.plotly_chart.
"""

from __future__ import annotations

import streamlit as st

from app.i18n import N_, _
from app.theory import content as tc
from app.theory import demo
from app.theory import figures as theory_figures
from app.ui import export, form, live, previews, saving, state, urlstate
from app.ui.form import Field

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
WIDTHS = {"w": 3, "f": 2, "amp": 2, "T": 2, "seed": 1.4}  # the demo's controls, in one row


def upgrade_old_link() -> None:
    """Old links (``?w=3&T=50``, before the page used ``?cfg=``) become the shared form, so
    ``start_page`` validates them like any link (a bad value: an error and the defaults)."""
    old = demo.legacy_query(st.query_params.to_dict())
    if old is not None:
        rest = {k: v for k, v in st.query_params.to_dict().items() if k not in demo.LEGACY_PARAMS}
        st.query_params.from_dict({**rest, urlstate.PARAM: urlstate.encode(old, {})})


FLOW_CHART = "theory_flow"


def flow_chart(result: demo.DemoResult, values: dict, large_font: bool) -> tuple:
    """The demo's error-flow chart: figure, alt text, Plotly config (the page and its slider previews)."""
    return (
        theory_figures.flow_figure(result, large_font),
        theory_figures.flow_alt(result),
        saving.config("theory-error-flow", [k + saving.slug(values[k]) for k in WIDTHS]),
    )


def argument(parts: list[tuple[str, str]]) -> None:
    for text, tex in parts:
        st.markdown(_(text))
        if tex:
            st.latex(tc.text_in_latex(tex))


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

    # --- 1. equations -------------------------------------------------------------------------
    # A long equation scrolls sideways inside its column instead of being cut off.
    st.html(
        "<style>[data-testid='stMarkdownContainer'] .katex-display"
        "{overflow-x:auto;overflow-y:hidden;padding:2px 0;}</style>"
    )
    st.header(_("Equations, side by side"))
    st.markdown(
        _(
            "Each tab puts a variant next to the one it grew from. In the right-hand column the "
            ":orange-background[**framed orange terms**] are new compared with the left-hand column "
            "(also listed in words under it)."
        )
        + (_(" Large-font mode shows the two one under the other.") if large_font else "")
    )
    for tab, (_label, chain) in zip(st.tabs([_(label) for label, _chain in tc.COMPARISONS]), tc.COMPARISONS):
        with tab:
            # side by side at a slightly smaller size; stacked and larger for a projector
            cols = [st.container() for _ in chain] if large_font else st.columns(len(chain))
            for i, (col, v) in enumerate(zip(cols, chain)):
                info = tc.VARIANTS[v]
                with col:
                    st.markdown(f"**{info.title}**  \n*{info.paper}*")
                    st.latex(tc.equations(v, highlight=i > 0, size="large" if large_font else "small"))
                    if i > 0:
                        st.caption(
                            _("New vs {previous}: {new}").format(previous=chain[i - 1], new=_(info.new))
                        )
                    if info.note:
                        st.caption(_(info.note))

    # --- 2. symbols -----------------------------------------------------------------------------
    st.header(_("Symbols"))
    st.caption(
        _(
            "Shapes of one network in lstm_core (a population adds a leading axis K, states add the "
            "batch axis B). Z = n_in + |r|, H = n_static + n_net_fb + n_act_fb, "
            "n_cells = n_blocks · block_size."
        )
    )
    st.table(
        tc.symbol_table(),
        hide_index=True,
        alt=_(
            "Table of every symbol in the equations: its name, its array shape in lstm_core, the "
            "name to look up in model.params or the step record, and the variants that use it."
        ),
    )

    # --- 3. the argument ------------------------------------------------------------------------
    st.header(_("Why gradients vanish, and how the CEC stops it"))
    argument(tc.VANISHING)
    bounds = {name: demo.max_derivative(name) for name in demo.CURVES}
    alt_activations = theory_figures.activation_alt(bounds)
    live.chart(
        st,
        theory_figures.activation_figure(demo.activation_curves(), bounds, large_font),
        "theory_activations",
        alt_activations,
        config=saving.config("activations"),
    )
    st.caption(_("Alt text: {alt}").format(alt=alt_activations))
    argument(tc.CEC_AND_FIXES)

    # --- 4. live demo ---------------------------------------------------------------------------
    st.subheader(_("Try it: the product of q factors |w f'(net)|"))
    st.markdown(
        _(
            "An **rnn with one hidden unit** (self-weight *w*, input weight 1, bias 0) and an **lstm1997 "
            "network with one memory cell** read the same noisy input x(t) = amplitude · N(0, 1). The loss "
            "is the output at the last step; the curves are the exact error norms computed by "
            "`lstm_core.error_flow` as the error travels q steps back."
        )
    )
    # The page's settings start here, before their widgets, as on every page; here rather than
    # above the title so a link's or an upload's message appears next to the demo it concerns.
    upgrade_old_link()
    form.start_page(PAGE, SCHEMA, DEFAULTS)
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
    )
    if outcome.value is not None:
        fig, alt_flow, config = flow_chart(outcome.value, values, large_font)
        live.chart(st, fig, FLOW_CHART, alt_flow, config=config, preview=previews.chart_data(pv, FLOW_CHART))
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
    form.finish_page(PAGE, values, DEFAULTS)


# Streamlit runs a page as __main__; tests import the module for its settings without drawing.
if __name__ == "__main__":
    page()
