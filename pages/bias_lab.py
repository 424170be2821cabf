"""Bias lab: gate-bias grids × seeds trained as one population, and the 1997 pathologies.

Pipeline: controls (network, task, swept biases, seeds, training) -> ``app.bias_lab.settings.plan``
-> on "Train", an ``lstm_core.sweeps.sweep.Sweep`` in this session's state, advanced one chunk per
fragment tick (``app.ui.jobs``) -> heat maps of success rate and median sequences-to-criterion
(``app.bias_lab.heatmap``) -> a clicked cell's network on the probe sequence before/after training
(``app.bias_lab.grid``). The demos (abuse problem, internal state drift, forget-gate bias) are reached
through ``app.bias_lab.sections``.
"""

from __future__ import annotations

import streamlit as st

from app.bias_lab import sections as lab_sections
from app.bias_lab import settings as lab_settings
from app.bias_lab.controls import sidebar
from app.bias_lab.grid import grid_section, results_csv
from app.bias_lab.settings import PAGE, SCHEMA
from app.i18n import _
from app.ui import export, state
from app.ui.page_frame import page_frame


def page() -> None:
    state.display_options()
    with page_frame(lab_settings.SPEC):
        _content()


def _content() -> None:
    st.title(_("Bias lab"))
    state.intro(
        _(
            "How gate-bias initialisation decides whether an LSTM learns: grids of bias settings × seeds "
            "trained together as one vectorised population, and the 1997 paper's two pathologies measured "
            "directly."
        )
    )
    view = SCHEMA["view"].render(PAGE)
    sidebar(view)
    values = SCHEMA.read(PAGE)
    state.show_flashes(PAGE)
    if view == "grid":
        grid_section(values)
    else:
        lab_sections.SECTIONS[view](values)
    export.io_panel(
        PAGE,
        SCHEMA,
        csv=results_csv if view == "grid" else lab_sections.csv_for(view),
        csv_name=f"gatelab-bias-{view}.csv",
        csv_label=_("Sweep results (CSV)") if view == "grid" else _("Demo measurements (CSV)"),
        doc=export.config_document(PAGE, None, values),
        doc_name="gatelab-bias-lab.json",
        from_model=None,
    )


if __name__ == "__main__":
    page()
