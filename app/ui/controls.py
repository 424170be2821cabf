"""Reusable control groups: the network, gate-bias, training-algorithm and seed settings every page
offers (the task group is ``app.ui.task_controls``).

Groups (``model_group``, ``bias_group``, ``seed_group``) draw ``app.ui.form``
fields and each end with a "Reset to paper defaults" button whose callback rewrites the group's
widget values before the next run (the only moment Streamlit allows it). The paper defaults come
from the core's registries, turned into page settings by ``app.ui.netconfig``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import streamlit as st

import lstm_core as lc
from app.i18n import N_, _
from app.ui import classlink, limits, netconfig, state
from app.ui.form import PERSIST, Field, Schema, render_fields, reset_button
from app.ui.netconfig import SELF_WEIGHT_FIELDS, active_gates
from app.ui.page_frame import PageSpec
from lstm_core.config import CELL_INPUT, CELL_OUTPUT
from lstm_core.variants import GATE_BIASES, REGISTRY
from lstm_core.variants import variant as variant_record

# ----------------------------------------------------------------------------- network settings
# English, marked for the catalogue: drawn with _(GATE_LABELS[g]) (a Field's fmt is translated by form).
GATE_LABELS = {
    "hidden": N_("hidden-unit bias"),
    "input": N_("input gate bias"),
    "output": N_("output gate bias"),
    "forget": N_("forget gate bias"),
    "cell": N_("cell input bias"),
    "reset": N_("reset gate bias"),
    "update": N_("update gate bias"),
    "candidate": N_("candidate bias"),
}
ALL_GATES = tuple(dict.fromkeys(g for gates in GATE_BIASES.values() for g in gates))


def variant_title(name: str) -> str:
    return REGISTRY[name].title


SQUASHING_LABELS = {"identity": N_("identity")}  # the other squashing functions are names (g1997, tanh, …)


def squashing_label(name: str) -> str:
    return SQUASHING_LABELS.get(name, name)


def model_fields() -> list[Field]:
    """Variant, sizes and cell options (the union over all variants)."""
    return _size_fields() + _weight_fields() + _cell_option_fields() + _self_weight_fields()


def _size_fields() -> list[Field]:
    """The variant, the layer sizes and the activation function."""
    F, sl = Field, "slider"
    return [
        F(
            "variant",
            N_("Cell variant"),
            "choice",
            "lstm1997",
            choices=tuple(lc.VARIANTS),
            widget="select",
            fmt=variant_title,
            help=N_("Which recurrent cell to build; see the Theory page for equations."),
        ),
        F("n_hidden", N_("Hidden units"), "int", 8, 1, limits.MAX_HIDDEN, 1, widget=sl),
        F("n_blocks", N_("Memory blocks"), "int", 2, 1, limits.MAX_BLOCKS, 1, widget=sl),
        F(
            "block_size",
            N_("Cells per block"),
            "int",
            2,
            1,
            limits.MAX_BLOCK_SIZE,
            1,
            widget=sl,
            help=N_("Cells in one block share the block's gates."),
        ),
        F("n_static", N_("Static units"), "int", 0, 0, limits.MAX_FB_UNITS, 1, widget=sl),
        F("n_net_fb", N_("Net-input feedback units"), "int", 2, 0, limits.MAX_FB_UNITS, 1, widget=sl),
        F("n_act_fb", N_("Activation feedback units"), "int", 2, 0, limits.MAX_FB_UNITS, 1, widget=sl),
        F(
            "activation",
            N_("Activation f"),
            "choice",
            "tanh",
            choices=("tanh", "sigmoid"),
            widget="segmented",
        ),
    ]


def _weight_fields() -> list[Field]:
    """How the initial weights are drawn."""
    F, sl = Field, "slider"
    return [
        F(
            "recurrent_scale",
            N_("recurrent weight scale"),
            "optfloat",
            None,
            0.0,
            limits.RECURRENT_SCALE_MAX,
            0.05,
            fallback=1.0,
            help=N_(
                "If set, every recurrent matrix is this number times a random "
                "orthogonal matrix (all its singular values equal the scale)."
            ),
        ),
        F(
            "init_range",
            N_("Initial weights ±"),
            "float",
            0.1,
            0.0,
            limits.INIT_RANGE_MAX,
            0.05,
            widget=sl,
            help=N_("Weights start uniform in [−r, r] (biases too, unless set below)."),
        ),
    ]


def _cell_option_fields() -> list[Field]:
    """The memory cell's switches and squashing functions."""
    F = Field
    return [
        F("output_gate", N_("Output gate"), "bool", True, widget="toggle"),
        F("forget_gate", N_("Forget gate"), "bool", True, widget="toggle"),
        F("peepholes", N_("Peephole connections"), "bool", True, widget="toggle"),
        F(
            "cell_input",
            N_("Cell input squashing g"),
            "choice",
            "g1997",
            choices=CELL_INPUT,
            widget="select",
            fmt=squashing_label,
        ),
        F(
            "cell_output",
            N_("Cell output squashing h"),
            "choice",
            "h1997",
            choices=CELL_OUTPUT,
            widget="select",
            fmt=squashing_label,
        ),
        F("gates_as_sources", N_("Gates feed back as recurrent inputs"), "bool", True, widget="toggle"),
    ]


def _self_weight_fields() -> list[Field]:
    """The self-weights u and v of the local-feedback units (Frasconi et al. 1992)."""
    F = Field
    return [
        F(
            "fb_u",
            N_("net-input self-weight u"),
            "optfloat",
            None,
            -3.0,
            3.0,
            0.05,
            fallback=0.9,
            help=N_("Forgetting needs |u| < 1 (Frasconi et al. 1992)."),
        ),
        F(
            "fb_v",
            N_("activation self-weight v"),
            "optfloat",
            None,
            -5.0,
            5.0,
            0.1,
            fallback=1.5,
            help=N_("Forgetting needs |v| < 2; latching needs |v| > 2."),
        ),
    ]


def size_names(variant: str) -> tuple[list[str], list[str]]:
    """(main fields, cell-option fields) that apply to ``variant`` (from the registry)."""
    v = variant_record(variant)
    opts = [o for o in v.options if o != "input_to_output"]
    if v.local_feedback:  # its self-weights are its options
        opts += list(SELF_WEIGHT_FIELDS)
    return list(v.settings), opts


def bias_fields() -> list[Field]:
    out = []
    for g in ALL_GATES:
        out.append(Field(f"b_{g}", GATE_LABELS[g], "optfloat", None, *limits.BIAS_RANGE, 0.25))
        out.append(
            Field(
                f"b_{g}_step",
                N_("change per block / unit"),
                "float",
                0.0,
                *limits.BIAS_STEP_RANGE,
                0.25,
                help=N_("Stagger: block k gets value + k × change (the papers' −1, −2, −3 …)."),
            )
        )
    return out


def seed_field(default: int = 0) -> Field:
    return Field(
        "seed",
        N_("Seed"),
        "int",
        default,
        0,
        2**31 - 1,
        1,
        help=N_("Same seed, same weights and sequence: a shared link reproduces the picture."),
    )


# Paper defaults come from the core: the variant's record (``lstm_core.variants``), then — for
# the LSTM-1997 family — the network of the paper preset of the chosen task
# (``lstm_core.training.PRESETS``), translated into this page's settings by ``app.ui.netconfig``.
def paper_values(schema: Schema, variant: str, task: str | None = None) -> dict:
    """Every model and bias setting as the papers used it for this variant (and task)."""
    out = {n: f.default for n, f in schema.fields.items() if n in _MODEL_OR_BIAS}
    out.update(netconfig.settings_from(variant_record(variant).defaults, variant))
    preset = task_preset(task) if variant_record(variant).memory_cell else None
    if preset is not None:
        out.update(netconfig.settings_from(preset.model.to_dict(), variant))
    return {k: v for k, v in out.items() if k in schema.fields}


def task_preset(task: str | None):
    """The paper preset whose experiment uses ``task`` with a 1997-family network, if any."""
    from lstm_core.training import PRESETS

    for preset in PRESETS.values():
        if preset.task == task and variant_record(preset.model.variant).memory_cell:
            return preset
    return None


_MODEL_OR_BIAS = {f.name for f in model_fields() + bias_fields()} - {"variant"}


# ----------------------------------------------------------------------------- groups
def _current(page: str, name: str, schema: Schema) -> Any:
    return schema[name].read(page)


def model_group(spec: PageSpec, where: Any = st, variants: Iterable[str] | None = None) -> str:
    """Variant + sizes + cell options; returns the variant."""
    page, schema = spec.name, spec.schema
    variant = schema["variant"].render(page, where)
    if variants is not None and variant not in variants:
        where.warning(_("{variant} is not available here.").format(variant=variant))
    main, opts = size_names(variant)
    render_fields(page, schema, main, where)
    if opts:
        with where.expander(_("Cell options")):
            render_fields(page, schema, opts, st)
    task = _current(page, "task", schema) if "task" in schema.fields else None
    names = [n for n in _MODEL_OR_BIAS if not n.startswith("b_")]
    reset_button(
        page,
        schema,
        "model",
        lambda: names,
        lambda: paper_values(schema, _current(page, "variant", schema), task),
        where,
    )
    return variant


def bias_group(spec: PageSpec, variant: str, where: Any = st) -> None:
    """One optional bias per gate of ``variant`` plus its per-block stagger."""
    page, schema = spec.name, spec.schema
    where.caption(_("Unset = random like the other weights. Staggered: block k gets value + k × change."))
    current = {n: _current(page, n, schema) for n in ("output_gate", "forget_gate")}
    for gate in active_gates({"variant": variant, **current}):
        value = schema[f"b_{gate}"].render(page, where)
        schema[f"b_{gate}_step"].render(page, where, disabled=value is None)
    task = _current(page, "task", schema) if "task" in schema.fields else None
    names = [n for n in _MODEL_OR_BIAS if n.startswith("b_")]
    reset_button(
        page,
        schema,
        "bias",
        lambda: names,
        lambda: paper_values(schema, _current(page, "variant", schema), task),
        where,
    )


def restricted_choice(
    spec: PageSpec, name: str, offered: tuple, why: str, where: Any = st, fallback: Any = None
) -> Any:
    """A choice field drawn with only the ``offered`` values. A current value that is not offered
    (another control just changed, or a link asks for it) is switched to ``fallback`` (default:
    the first offered) before the widget is drawn, with a note: "<why>, not X: switched to Y". ``why`` is
    in this session's language already (the caller translates it)."""
    page = spec.name
    f, key = spec.schema[name], state.wkey(page, name)
    current = st.session_state.get(key, f.default)
    if current not in offered:
        new = fallback if fallback in offered else offered[0]
        st.session_state[key] = new
        label = _(f.label)
        where.info(
            _("{why}, not {old}: the {setting} was switched to {new}.").format(
                why=why, old=f.shown(current), setting=label.lower(), new=f.shown(new)
            ),
            icon=":material/swap_horiz:",
        )
    common = dict(
        format_func=f.option_labels(offered),
        key=key,
        help=_(f.help) if f.help else None,
        persist_state=PERSIST,
        disabled=classlink.is_locked(page, name),
    )
    if f.widget == "segmented":
        return where.segmented_control(_(f.label), offered, required=True, **common)
    return where.selectbox(_(f.label), offered, **common)


def algorithm_control(spec: PageSpec, variant: str, where: Any = st) -> str:
    """The training algorithm, offering only those ``variant`` supports (the registry says which)."""
    rec, f = variant_record(variant), spec.schema["algorithm"]
    offered = tuple(a for a in f.choices if a in rec.algorithms)
    why = _("{variant} trains with {algorithms}").format(
        variant=_(rec.title), algorithms=_(" or ").join(f.shown(a) for a in offered)
    )
    return restricted_choice(spec, "algorithm", offered, why, where, fallback=rec.default_algorithm())


def seed_group(spec: PageSpec, where: Any = st) -> int:
    page, schema = spec.name, spec.schema
    seed = schema["seed"].render(page, where)
    reset_button(page, schema, "seed", lambda: ["seed"], lambda: {"seed": schema["seed"].default}, where)
    return seed
