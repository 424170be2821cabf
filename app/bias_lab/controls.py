"""Bias lab: the sidebar (network, task, fixed biases, swept axes, seeds and training).

Choices a variant cannot use are not offered: the swept gates are the variant's own gates and
the training algorithm one it supports (``controls.restricted_choice``)."""

from __future__ import annotations

import streamlit as st

from app.bias_lab.settings import DEFAULTS, PAGE, SCHEMA, SPEC
from app.i18n import _
from app.ui import controls, form, state, task_controls
from lstm_core.variants import variant as variant_record


# ----------------------------------------------------------------------------- controls
def text_box(name: str, where=st) -> None:
    f = SCHEMA[name]
    where.text_input(
        _(f.label), key=state.wkey(PAGE, name), persist_state=form.PERSIST, help=_(f.help) if f.help else None
    )


def axis_gate_control(ax: str, variant: str) -> str:
    """The gate swept along an axis: only gates this variant has (and "none" for y)."""
    rec = variant_record(variant)
    offered = (("none",) if ax == "y" else ()) + tuple(
        g for g in SCHEMA[f"{ax}_gate"].choices if g in rec.gate_biases
    )
    why = _("{variant} has {gates}").format(
        variant=_(rec.title), gates=", ".join(_(controls.GATE_LABELS[g]) for g in rec.gate_biases)
    )
    return controls.restricted_choice(SPEC, f"{ax}_gate", offered, why)


def sweep_group(values_view: str, variant: str) -> None:
    """The swept axes (grid view) and the seeds / training settings every view uses."""
    if values_view == "grid":
        with st.expander(_("Swept biases"), expanded=True):
            st.caption(
                _(
                    "x values: the first block's bias; block k gets value + k × change (change 0 = the same "
                    "bias everywhere). 'Staggering off / on' compares 0 with the staggered list."
                )
            )
            for ax in ("x", "y"):
                gate = axis_gate_control(ax, variant)
                if gate != "none":
                    SCHEMA[f"{ax}_mode"].render(PAGE)
                    text_box(f"{ax}_values")
                    SCHEMA[f"{ax}_step"].render(PAGE)
            form.reset_button(
                PAGE,
                SCHEMA,
                "axes",
                lambda: [n for n in SCHEMA.fields if n[:2] in ("x_", "y_")],
                lambda: DEFAULTS,
            )
    with st.expander(_("Seeds and training"), expanded=values_view != "forget"):
        names = ["n_seeds", "first_seed", "algorithm", "lr", "budget", "streak", "goal", "seed"]
        form.render_fields(PAGE, SCHEMA, names[:2])
        controls.algorithm_control(SPEC, variant)
        form.render_fields(PAGE, SCHEMA, names[3:])
        form.reset_button(PAGE, SCHEMA, "training", lambda: names, lambda: DEFAULTS)


def sidebar(view: str) -> str:
    with st.sidebar:
        with st.expander(_("Network"), expanded=view == "grid"):
            variant = controls.model_group(SPEC)
        if view != "forget":
            with st.expander(_("Task"), expanded=False):
                task_controls.task_group(PAGE, SCHEMA, allow_typed=False)
            with st.expander(_("Fixed gate biases (not swept)")):
                controls.bias_group(SPEC, variant)
        sweep_group(view, variant)
    return variant
