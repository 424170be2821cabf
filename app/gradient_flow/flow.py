"""Gradient flow, the computing side: the page's settings, the networks it builds from them, their
error flows (``lc.error_flow``, cached per network) as curves for ``app.ui.figures``, and the page's
two charts built from them (one function, used by the page and by its slider previews).

Every network reads the same random input sequence (seeded); an error is injected at the last
step and followed back by the exact backward pass or the 1997 truncation.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import lstm_core as lc
from app.cells import families
from app.i18n import N_, _
from app.ui import controls, flow_figures, form, limits, saving, state
from app.ui.form import Field
from app.ui.page_frame import PageSpec
from lstm_core.variants import variant as variant_record

PAGE = "gradient_flow"
N_IN = 2
SCHEMA = form.Schema(
    [
        Field(
            "T",
            N_("Sequence length T"),
            "int",
            100,
            5,
            limits.FLOW_MAX_T,
            5,
            widget="slider",
            help=N_("The error is injected at the last step and followed back (at most {most})."),
        ),
        controls.seed_field(),
        # The CEC story first: the 1997 cell against the RNN. The forget-gate LSTMs are one click away
        # (FORGET_VARIANTS, the button beside the chart), so their decay is a discovery, not the default.
        Field(
            "variants",
            N_("Networks"),
            "multi",
            ["rnn", "lstm1997"],
            choices=tuple(lc.VARIANTS),
            widget="multiselect",
            fmt=lambda v: lc.variant(v).title,  # shown by title (translated), kept in links by key
        ),
        Field(
            "n_hidden",
            N_("Hidden units (RNN, LSTM, GRU)"),
            "int",
            8,
            1,
            limits.MAX_HIDDEN,
            1,
            widget="slider",
        ),
        Field(
            "n_blocks", N_("Memory blocks (1997 family)"), "int", 2, 1, limits.MAX_BLOCKS, 1, widget="slider"
        ),
        # 0.8 (as on Home): ‖U‖·max f′ = 0.8 < 1 guarantees the RNN's error shrinks at least as 0.8^q,
        # whatever the data; at 1.0 the decay depends on the sequence (measured 43× to 5·10³× at q = 50).
        Field(
            "rnn_scale",
            N_("RNN recurrent weight scale"),
            "float",
            0.8,
            0.0,
            limits.RECURRENT_SCALE_MAX,
            0.05,
            widget="slider",
            help=N_("U = scale × a random orthogonal matrix: every singular value equals the scale."),
        ),
        Field(
            "activation",
            N_("RNN activation f"),
            "choice",
            "tanh",
            choices=("tanh", "sigmoid"),
            widget="segmented",
        ),
        Field(
            "input_bias",
            N_("Input-gate bias"),
            "float",
            -3.0,
            -10.0,
            5.0,
            0.25,
            widget="slider",
            help=N_("Very negative = input gates shut: nothing new enters the cell."),
        ),
        Field(
            "forget_bias",
            N_("Forget-gate bias"),
            "float",
            1.0,
            -5.0,
            10.0,
            0.25,
            widget="slider",
            help=N_("Large = forget gate open (≈ 1): the carousel keeps its contents."),
        ),
        Field(
            "method",
            N_("Gradient"),
            "choice",
            "bptt",
            choices=("bptt", "truncated"),
            widget="segmented",
            fmt={"bptt": N_("full BPTT"), "truncated": N_("1997 truncation")}.get,
            help=N_("The 1997 truncation lets error flow back only along the cell state (1997 family)."),
        ),
        Field("u", N_("u (net-input self-weight)"), "float", 0.9, -1.5, 1.5, 0.05, widget="slider"),
        Field("v", N_("v (activation self-weight)"), "float", 1.5, -4.0, 4.0, 0.1, widget="slider"),
    ]
)
DEFAULTS = SCHEMA.defaults()
SPEC = PageSpec(PAGE, SCHEMA, DEFAULTS)
FORGET_VARIANTS = ("lstm2000", "lstm")  # added by the "forget gate" button
GROUPS = {
    N_("Sequence"): ["T", "seed"],
    N_("Networks"): ["variants", "n_hidden", "n_blocks"],
    "RNN": ["rnn_scale", "activation"],
    N_("Gates (LSTM family)"): ["input_bias", "forget_bias", "method"],
    N_("Local feedback (Frasconi et al. 1992)"): ["u", "v"],
}
# the dotted line of an RNN or GRU (app.ui.flow_figures.flow_chart knows it by its English start, "upper bound")
UPPER_BOUND = N_("upper bound Π‖J‖")


@st.cache_data(max_entries=256, show_spinner=False)
def flow(model_json: str, T: int, seed: int, method: str) -> dict:
    """Relative error-flow norms of one network on the page's input sequence (cached per network)."""
    limits.check_length(T, limits.FLOW_MAX_T)
    xs = np.random.default_rng(seed).uniform(-1.0, 1.0, size=(T, 1, N_IN))  # the shared sequence
    model = lc.build(lc.ModelConfig.from_json(model_json))
    f = lc.error_flow(model, xs, method=method)
    return {label: (f.norms[label], f.theory.get(label)) for label in f.norms}


def network(variant: str, v: dict) -> lc.ModelConfig:
    """The page's network of ``variant``: the sizes it reads from the sliders, gate biases it has."""
    rec = variant_record(variant)
    sizes = dict(
        n_hidden=v["n_hidden"],
        activation=v["activation"],
        n_blocks=v["n_blocks"],
        block_size=1,
        n_static=0,
        n_net_fb=1,
        n_act_fb=1,
    )
    kw: dict = dict(variant=variant, n_in=N_IN, n_out=1, seed=v["seed"], init_range=0.2)
    kw.update({k: sizes[k] for k in rec.settings if k in sizes})
    if rec.family == "rnn":  # the RNN slider: U = scale × orthogonal
        kw["recurrent_scale"] = v["rnn_scale"]
    if rec.local_feedback:
        kw["init"] = {"u": v["u"], "v": v["v"]}
    bias = {g: v[f"{g}_bias"] for g in ("input", "forget") if g in rec.gate_biases}
    if bias:
        kw["bias"] = bias
    return lc.ModelConfig(**kw)


def curves(v: dict) -> list[flow_figures.FlowCurve]:
    out = []
    for variant in v["variants"]:
        rec = variant_record(variant)
        method = v["method"] if v["method"] in rec.gradient_methods else "bptt"
        norms, theory = flow(network(variant, v).to_json(), v["T"], v["seed"], method)[rec.flow_state]
        c = flow_figures.relative_flow(variant, norms, theory)
        if families.FAMILIES[rec.family].THEORY_IS_BOUND and c.theory is not None:
            # Π‖J‖ is only an upper bound (loose for many units): drawn dotted as a bound and hidden
            # until asked for, so it is never read as a prediction beside the LSTMs' exact lines.
            c = flow_figures.FlowCurve(c.name, c.back, c.measured, None, c.theory, UPPER_BOUND)
        out.append(c)
    return out


def idle_fields(chosen: list[str]) -> dict[str, str]:
    """Controls no chosen network reads -> why, so they are greyed out instead of silently doing nothing."""
    recs = [variant_record(n) for n in chosen]
    idle = {}
    if not any("forget" in r.gate_biases for r in recs):
        idle["forget_bias"] = _("no chosen network has a forget gate (add lstm2000 or lstm)")
    if not any("input" in r.gate_biases for r in recs):
        idle["input_bias"] = _("no chosen network has an input gate")
    if not any("truncated" in r.gradient_methods for r in recs):
        idle["method"] = _(
            "the 1997 truncation exists only for the 1997 family (lstm1997, lstm2000, lstm2002)"
        )
    if not any(r.family == "rnn" for r in recs):
        idle.update(rnn_scale=_("no RNN chosen"), activation=_("no RNN chosen"))
    return idle


def add_forget_variants() -> None:
    """Button callback: add the forget-gate LSTMs to the chosen networks (runs before the script)."""
    chosen = list(SCHEMA.read(PAGE)["variants"])
    SCHEMA.apply(PAGE, {"variants": chosen + [n for n in FORGET_VARIANTS if n not in chosen]})


def local_curves(v: dict) -> list[flow_figures.FlowCurve]:
    f = flow(network("local_feedback", v).to_json(), v["T"], v["seed"], "bptt")
    q = np.arange(v["T"])
    return [
        flow_figures.relative_flow(
            _("net-input unit (u)"), *f["net_fb"], bound=np.abs(v["u"]) ** q, bound_name="|u|^q"
        ),
        flow_figures.relative_flow(
            _("activation unit (v)"), *f["act_fb"], bound=(np.abs(v["v"]) / 2) ** q, bound_name="(|v|·½)^q"
        ),
    ]


# ----------------------------------------------------------------------------- the page's two charts
MAIN_CHART, LOCAL_CHART = state.wkey(PAGE, "main_chart"), state.wkey(PAGE, "local_chart")


def main_figure(flows: list, values: dict, large: bool) -> tuple:
    """The error-flow chart of ``flows`` (``curves(values)``): figure, alt text, Plotly config."""
    fig, alt = flow_figures.flow_chart(
        flows,
        title=_("Error flowing back from the last step"),
        large=large,
        uirevision="flow-main",
        height=430,
    )
    return fig, alt, saving.config("gradient-flow", values["variants"], f"t{values['T']}", values["method"])


def local_figure(flows: list, values: dict, large: bool) -> tuple:
    """The local-feedback chart of ``flows`` (``local_curves(values)``): figure, alt text, Plotly config."""
    fig, alt = flow_figures.flow_chart(
        flows,
        title=_("Local-feedback units: error through the self-loops"),
        large=large,
        uirevision="flow-local",
        height=340,
    )
    return fig, alt, saving.config("local-feedback", f"u{values['u']:g}", f"v{values['v']:g}")


def chart_figures(values: dict, large: bool) -> dict:
    """Both charts for ``values`` (a slider preview: the same figures the page draws)."""
    out = {}
    if flows := curves(values):
        out[MAIN_CHART] = main_figure(flows, values, large)
    if flows := local_curves(values):
        out[LOCAL_CHART] = local_figure(flows, values, large)
    return out
