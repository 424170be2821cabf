"""Home: what Gate Lab is, a live headline picture and a guided first lesson."""

from __future__ import annotations

import numpy as np
import streamlit as st
from streamlit.errors import StreamlitAPIException

import lstm_core as lc
from app.i18n import N_, _
from app.ui import figures, flow_figures, routes, saving, state, urlstate
from lstm_core.variants import variant as variant_record

T, SEED = 60, 0
# The headline networks: a tanh RNN whose recurrent matrix has all singular values 0.8 (so
# |w f'| < 1), and a 1997 LSTM whose input gates are shut (bias −6): its cell state only carries.
HEADLINE = {
    "rnn": lc.ModelConfig(variant="rnn", n_in=2, n_out=1, n_hidden=8, recurrent_scale=0.8, seed=SEED),
    "lstm1997": lc.ModelConfig(
        variant="lstm1997", n_in=2, n_out=1, n_blocks=2, block_size=1, bias={"input": -6.0}, seed=SEED
    ),
}


def flow_state(name: str) -> str:
    return variant_record(name).flow_state


# The path through the lessons, in teaching order (Theory after the two pictures it explains).
# English, marked for the catalogue; drawn with _(text).
LESSON = [
    (
        "step.py",
        N_(
            "Play a sequence through the 1997 LSTM and watch its gates open and close; switch to the "
            "RNN and see that it has nothing to hold information with."
        ),
    ),
    (
        "gradient_flow.py",
        N_(
            "Follow an error back in time: it fades geometrically in the RNN and stays flat "
            "along the constant error carousel. Then add a forget gate and move its bias."
        ),
    ),
    (
        "theory.py",
        N_("The equations of every variant side by side, and the vanishing-gradient argument (σ′ ≤ ¼)."),
    ),
    (
        "train.py",
        N_("Train a network on a task from the papers and watch loss, gates and cell states as it learns."),
    ),
    (
        "bias_lab.py",
        N_(
            "Why the papers start the gates with negative, staggered biases: a sweep of many "
            "networks at once."
        ),
    ),
    ("experiments.py", N_("The papers' experiments reproduced here, next to the papers' own numbers.")),
]
CARDS_PER_ROW = 3


@st.cache_data(show_spinner=False)
def headline() -> dict:
    """Error flow of both networks on the same random sequence (loss at the last step)."""
    xs = np.random.default_rng(SEED).uniform(-1.0, 1.0, size=(T, 1, 2))
    out = {}
    for name, cfg in HEADLINE.items():
        f = lc.error_flow(lc.build(cfg), xs)
        out[name] = (f.norms[flow_state(name)], f.theory.get(flow_state(name)))
    return out


def page() -> None:
    """The page: introduction, live headline chart, guided path."""
    large = state.display_options()
    urlstate.write("")  # Home has no settings: only the display switches stay in its URL
    st.title("Gate Lab")  # i18n: kept (the app's name)
    if not state.presenting():
        st.write(
            _(
                "Gate Lab is a browser lab for teaching and exploring how recurrent cells work: why a plain "
                "RNN forgets, how the 1997 LSTM's **constant error carousel** keeps error flowing, and what the "
                "gates and their bias initialisations do. Every number on screen comes from a small NumPy core "
                "that steps the real cells one timestep at a time, with exact gradients."
            )
        )
        guided_lessons_link()
    # On a projector (large fonts) the chart gets the full width (its title was cut at 1280 × 720).
    left, right = (st.container(), st.container()) if large else st.columns([2, 1])
    try:
        data = headline()
        curves = [
            flow_figures.relative_flow(
                name, *data[name], label=f"{figures.variant_label(name)} ({flow_state(name)})"
            )
            for name in HEADLINE
        ]
        fig, alt = flow_figures.flow_chart(
            curves,
            title=_("An error injected at the last step, followed back in time"),
            large=large,
            uirevision="home-flow",
            height=380,
        )
        figures.show(fig, alt, "home.flow", left, config=saving.config("error-flow", list(HEADLINE)))
        rnn_kept = flow_figures.per_step(curves[0])
        right.markdown(
            _(
                "**The whole story in one picture.** The same {T}-step random sequence goes through an RNN and "
                "a 1997 LSTM whose input gates are shut, and an error at the last step is followed back "
                "through time by the exact backward pass.\n\n"
                "In the RNN every step back multiplies the error by about **{kept}** (a product of "
                "factors |w f′| < 1), so after a few dozen steps almost nothing is left to learn from.\n\n"
                "In the LSTM the cell state's self-connection has weight exactly 1 — the constant error "
                "carousel — so the error along it stays flat."
            ).format(T=T, kept=f"{rnn_kept:.2f}")
        )
    except (ValueError, lc.NonFiniteError) as e:  # never a traceback on the front page
        left.error(_("The headline picture could not be computed: {why}").format(why=state.user_message(e)))

    st.subheader(_("A first lesson, in six steps"))
    st.caption(
        _(
            "Follow the cards in order; each opens a page with settings chosen to show its point. "
            "Every page keeps its settings in the link, so a teacher can hand out the exact view."
        )
    )
    lesson_cards(large)


def guided_lessons_link() -> None:
    """New here: the guided lessons (predict, then reveal) are the way in without a teacher."""
    r = routes.route("lessons.py")
    if not (routes.PAGES_DIR / r.file).exists():
        return
    with st.container(border=True):
        text, button = st.columns([3, 1], vertical_alignment="center")
        text.markdown(
            _(
                "**New here? Start with the guided lessons.** Five short lessons — vanishing vs the "
                "carousel, the gates, state drift, the forget gate, peepholes — where you predict what "
                "a real network will do, then reveal what it does and why."
            )
        )
        try:
            button.page_link(
                routes.PAGES_DIR / r.file, label=_("Start the lessons"), icon=r.icon, width="stretch"
            )
        except StreamlitAPIException:  # the router does not list the page (yet): no link
            pass


def lesson_cards(large: bool) -> None:
    """One bordered card per lesson step, numbered, with a button-like link to its page."""
    steps = [(routes.route(file), text) for file, text in LESSON if (routes.PAGES_DIR / file).exists()]
    per_row = 2 if large else CARDS_PER_ROW
    for row in range(0, len(steps), per_row):
        cols = st.columns(per_row)
        for k, (r, text) in enumerate(steps[row : row + per_row]):
            with cols[k].container(border=True, height="stretch"):
                st.markdown(_("**Step {n}** · {page}").format(n=row + k + 1, page=_(r.title)))
                st.write(_(text))
                try:
                    st.page_link(
                        routes.PAGES_DIR / r.file,
                        label=_("Open {page}").format(page=_(r.title)),
                        icon=r.icon,
                        width="stretch",
                    )
                except StreamlitAPIException:  # a page file the router does not list (yet): no link
                    pass


# Streamlit runs a page as __main__; tests import the module for its settings without drawing.
if __name__ == "__main__":
    page()
