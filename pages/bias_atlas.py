"""Bias atlas: which gate biases for my time lag? The literature's initialisation schemes, measured.

Pipeline: controls (network, task, lag, scheme, seed) -> the committed atlas results
(``docs/bias_atlas.json``, made by ``python -m lstm_core.atlas``) ranked at that lag -> the schemes'
networks at initialisation (``lstm_core.atlas.before``: memory times, exact error flow) -> one cell
trained live (``app.bias_atlas.live_cell``) -> an uploaded PyTorch model's check -> the scheme as code.
"""

from __future__ import annotations

import io

import pandas as pd
import streamlit as st

from app.bias_atlas import view
from app.bias_atlas.settings import PAGE, SCHEMA, SPEC, load
from app.i18n import _, core_errors
from app.ui import export, form, state
from app.ui.page_frame import page_frame
from lstm_core import atlas


def page() -> None:
    large = state.display_options()
    with page_frame(SPEC):
        _content(large)


def _content(large: bool) -> None:
    st.title(_("Which gate biases for my time lag?"))
    state.intro(
        _(
            "The initialisation schemes of the literature — PyTorch's default, forget bias 1, chrono, … — trained side "
            "by side on long-lag tasks as the lag grows, and what each does before any training. Every number comes "
            "from networks trained here."
        )
    )
    with st.sidebar:
        with st.expander(_("Your question"), expanded=True):
            form.render_fields(PAGE, SCHEMA, ["variant", "task", "lag", "scheme", "seed"])
            form.reset_button(
                PAGE, SCHEMA, "question", lambda: list(SCHEMA.fields), lambda: SCHEMA.defaults()
            )
    values = SCHEMA.read(PAGE)
    state.show_flashes(PAGE)
    got = state.keep_good(PAGE, "results", load)
    state.report(got, _("the atlas's results"))
    doc = got.value
    if doc is None:
        return
    try:
        view.answer(doc, values, large)
    except ValueError as e:  # a results file without this combination (an older or partial atlas)
        st.error(core_errors.translate(e))
    view.before_training(values, large)
    view.live_cell(doc, values, large)
    view.your_model(values, large)
    view.take_home(values)
    export.io_panel(
        PAGE,
        SCHEMA,
        csv=lambda: _csv(doc),
        csv_name="gatelab-bias-atlas.csv",
        csv_label=_("Atlas results (CSV)"),
        doc=export.config_document(PAGE, None, values),
        doc_name="gatelab-bias-atlas.json",
        from_model=None,
    )
    st.caption(_("Made by `{command}` on {machine}.").format(command=doc["command"], machine=doc["machine"]))


def _csv(doc: dict) -> bytes:
    buf = io.StringIO()
    pd.DataFrame(atlas.networks(doc)).to_csv(buf, index=False)
    return buf.getvalue().encode("utf-8")


if __name__ == "__main__":
    page()
