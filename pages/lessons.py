"""Guided lessons: predict what the model will do, then reveal what it does and why.

Pipeline: settings (lesson, seed, progress; URL) -> class-link locks -> the current question ->
on "Reveal", the question's real computation (``app.lessons.compute``, cached) -> chart and
explanation -> after the last question, the lesson's takeaway.
"""

from __future__ import annotations

import streamlit as st

from app.i18n import _
from app.lessons import progress
from app.lessons.view import DEFAULTS, GROUPS, PAGE, SCHEMA, lesson_view, sidebar
from app.ui import classlink, form, state


def page() -> None:
    large = state.display_options()
    form.start_page(PAGE, SCHEMA, DEFAULTS)
    classlink.enforce(PAGE, SCHEMA, DEFAULTS, GROUPS)  # before any widget: locked values, greyed out
    st.title(_("Guided lessons"))
    state.intro(
        _(
            "Five short lessons on the 1997–2002 LSTM. Each question sets up a small real network: "
            "predict first, then reveal what the model does — every number comes from running it."
        )
    )
    classlink.banner(PAGE, SCHEMA, DEFAULTS, GROUPS)
    values = SCHEMA.read(PAGE)
    answered, bad = progress.parse(values["answers"])
    if bad:
        st.warning(
            _("Some saved answers in the link were not understood and were left out: {parts}.").format(
                parts=", ".join(bad)
            )
        )
    sidebar(values, answered)
    values = SCHEMA.read(PAGE)
    lesson_view(values, answered, large)
    if not state.presenting():
        classlink.share_panel(PAGE, SCHEMA, values, DEFAULTS, GROUPS, start={"step": 0, "answers": ""})
    form.finish_page(PAGE, SCHEMA.read(PAGE), DEFAULTS)


# Streamlit runs a page as __main__; tests import the module for its settings without drawing.
if __name__ == "__main__":
    page()
