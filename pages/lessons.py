"""Guided lessons: predict what the model will do, then reveal what it does and why.

Pipeline: settings (lesson, seed, progress; URL) -> class-link locks -> the current question ->
on "Reveal", the question's real computation (``app.lessons.compute``, cached) -> chart and
explanation -> after the last question, the lesson's takeaway.
"""

from __future__ import annotations

import streamlit as st

from app.i18n import _
from app.lessons import progress
from app.lessons.view import PAGE, SCHEMA, SPEC, lesson_view, sidebar
from app.ui import state
from app.ui.page_frame import Frame, page_frame


def page() -> None:
    large = state.display_options()
    with page_frame(SPEC) as frame:  # a class link's locks before any widget: locked values, greyed out
        _content(frame, large)


def _content(frame: Frame, large: bool) -> None:
    if not state.presenting():  # presenting, the lesson's own title is the page's (lesson_view)
        st.title(_("Guided lessons"))
    state.intro(
        _(
            "Five short lessons on the 1997–2002 LSTM. Each question sets up a small real network: "
            "predict first, then reveal what the model does — every number comes from running it."
        )
    )
    frame.banner()
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
        frame.share_panel(values, start={"step": 0, "answers": ""})


# Streamlit runs a page as __main__; tests import the module for its settings without drawing.
if __name__ == "__main__":
    page()
