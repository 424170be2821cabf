"""The Theory page's text sections, drawn with Streamlit: the equations side by side, the symbol
table, and the vanishing-gradient argument with its activation figure (the live demo, with its
settings, stays in ``pages/theory.py``)."""

from __future__ import annotations

import streamlit as st

from app.i18n import _
from app.theory import argument as theory_argument
from app.theory import content as tc
from app.theory import demo, symbols
from app.theory import figures as theory_figures
from app.ui import live, saving


def argument(parts: list[tuple[str, str]]) -> None:
    """Markdown paragraphs, each followed by its equation (its words in this session's language)."""
    for text, tex in parts:
        st.markdown(_(text))
        if tex:
            st.latex(tc.text_in_latex(tex))


def equations_section(large_font: bool) -> None:
    """One expander per consecutive pair of variants (the first open), the newer one's new terms framed.

    Expanders, not tabs: Streamlit's tabs (react-aria) walk every node of their panels, the hidden
    ones included, after each render of the page, looking for something to focus — each typeset
    equation is hundreds of nodes, so ~6,000 nodes walked per render, about ten renders per slider
    notch of the demo below, and the demo's chart waited behind them (issue 48, docs/benchmarks.md).
    A closed expander costs nothing, and opening one needs no page run."""
    # A long equation scrolls sideways inside its column instead of being cut off.
    st.html(
        "<style>[data-testid='stMarkdownContainer'] .katex-display"
        "{overflow-x:auto;overflow-y:hidden;padding:2px 0;}</style>"
    )
    st.header(_("Equations, side by side"))
    st.markdown(
        _(
            "Each pair below puts a variant next to the one it grew from: click a pair's title to expand "
            "or collapse it (the first is expanded). In the right-hand column the "
            ":orange-background[**framed orange terms**] are new compared with the left-hand column "
            "(also listed in words under it)."
        )
        + (_(" Large-font mode shows the two one under the other.") if large_font else "")
    )
    for i, (label, chain) in enumerate(tc.COMPARISONS):
        with st.expander(_(label), expanded=i == 0):
            # side by side at a slightly smaller size; stacked and larger for a projector
            cols = [st.container() for _ in chain] if large_font else st.columns(len(chain))
            for j, (col, v) in enumerate(zip(cols, chain)):
                info = tc.VARIANTS[v]
                with col:
                    st.markdown(f"**{info.title}**  \n*{info.paper}*")
                    st.latex(tc.equations(v, highlight=j > 0, size="large" if large_font else "small"))
                    if j > 0:
                        st.caption(
                            _("New vs {previous}: {new}").format(previous=chain[j - 1], new=_(info.new))
                        )
                    if info.note:
                        st.caption(_(info.note))


def symbols_section() -> None:
    """The symbol table with its shapes in lstm_core."""
    st.header(_("Symbols"))
    st.caption(
        _(
            "Shapes of one network in lstm_core (a population adds a leading axis K, states add the "
            "batch axis B). Z = n_in + |r|, H = n_static + n_net_fb + n_act_fb, "
            "n_cells = n_blocks · block_size."
        )
    )
    st.table(
        symbols.symbol_table(),
        hide_index=True,
        alt=_(
            "Table of every symbol in the equations: its name, its array shape in lstm_core, the "
            "name to look up in model.params or the step record, and the variants that use it."
        ),
    )


def argument_section(large_font: bool) -> None:
    """Why gradients vanish, the squashing functions' slopes (computed by lstm_core), the CEC."""
    st.header(_("Why gradients vanish, and how the CEC stops it"))
    argument(theory_argument.VANISHING)
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
    argument(theory_argument.CEC_AND_FIXES)
