"""The Bias lab's demonstrations: abuse problem, internal state drift, forget-gate bias.

Each demo trains (or, for the forget gate, only runs) real networks from the sidebar's
network / task / training settings and plots what it measures — the same seeds for both
settings, so the only difference between the two curves is the bias being demonstrated.
Measurement code is in ``lstm_core.sweeps.bias_demos``; figures in ``app.bias_lab.figures``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from app.bias_lab import figures as lab_figures
from app.bias_lab import settings as lab_settings
from app.i18n import N_, _
from app.i18n.core_errors import translate
from app.ui import actions, figures, form, jobs, live, netconfig, saving, state, words
from lstm_core.sweeps import bias_demos as bd
from lstm_core.sweeps.sweep import Sweep
from lstm_core.training import PRESETS
from lstm_core.variants import REGISTRY

PAGE, SCHEMA = lab_settings.PAGE, lab_settings.SCHEMA
RECORD_POINTS = 40  # training-curve points per demo run
WHEN = {"before": N_("before"), "after": N_("after")}  # the abuse table's "training" column
INPUT_BIAS = {"before": N_("input bias {label} (before)"), "after": N_("input bias {label} (after)")}


def _recorder(sweep: Sweep) -> tuple[bd.Recorder, Callable]:
    rec = bd.Recorder()
    every = max(1, sweep.train_config.budget // RECORD_POINTS)
    method = bd.gradient_method(sweep)

    def hook(work: Sweep, progress) -> None:
        seen = float(np.max(progress.sequences))
        if not rec.sequences or seen - float(np.max(rec.sequences[-1])) >= every or work.done:
            rec.record(work, progress, method)

    return rec, hook


def _start(kind: str, settings: dict) -> None:
    try:
        p = lab_settings.demo_plan(settings, kind)
        sweep = Sweep(p.base, p.task, p.train, p.x, None, p.seeds)
    except state.USER_ERRORS as e:
        state.flash(PAGE, _("Cannot start the demo: {why}").format(why=translate(str(e))))
        return
    rec, hook = _recorder(sweep)
    job = jobs.Job(
        sweep,
        lab_settings.Lazy(
            N_("{k} networks ({n} settings × {seeds} seeds)"), k=sweep.K, n=len(p.x), seeds=len(p.seeds)
        ),
        settings,
        after_chunk=hook,
    )
    job.recorder = rec
    jobs.start(PAGE, kind, job)


# The 1997 experiments behind each demo, read from their paper presets (lstm_core.training.PRESETS):
# embedded Reber with staggered output biases −1 … −4 (4 blocks × 1 cell) for the abuse problem,
# the adding problem with input biases −3, −6 (2 blocks × 2 cells) for internal state drift. The
# demo swaps the preset's bias on the demo's gate for its own two settings (0 vs the paper's);
# budgets are the demo's (short enough to run in class).
DEMO = {"abuse": ("embedded_reber_4x1", "output", 1000), "drift": ("adding", "input", 300)}


def paper_setup(kind: str) -> dict:
    """The page settings of the paper experiment behind the ``kind`` demo."""
    name, gate, budget = DEMO[kind]
    p = PRESETS[name]
    m, t = p.model.to_dict(), p.train_config()
    values = {
        "variant": m["variant"],
        "task": p.task,
        **{f"{p.task}.{k}": v for k, v in p.task_settings.items()},
        **netconfig.settings_from(m, m["variant"]),
        "algorithm": t.algorithm,
        "lr": t.lr,
        "budget": budget,
    }
    first, step = values.pop(f"b_{gate}", None), values.pop(f"b_{gate}_step", 0.0)
    for g in ("input", "output"):  # the demo's gate is swept; no other fixed bias
        values.setdefault(f"b_{g}", None)
    values[f"{kind}_first"], values[f"{kind}_step"] = first, step
    return {k: v for k, v in values.items() if k in SCHEMA.fields}


def _paper(kind: str) -> None:
    SCHEMA.apply(PAGE, paper_setup(kind))


def _buttons(kind: str, values: dict, label: str) -> None:
    job = jobs.get(PAGE, kind)
    running = job is not None and job.running
    c1, c2, c3 = st.columns([1.3, 1, 3], vertical_alignment="center")
    actions.button(
        c1,
        PAGE,
        _(label),
        state.wkey(PAGE, f"run_{kind}"),
        _start,
        (kind, values),
        type="primary",
        icon=":material/play_arrow:",
        disabled=running,
    )
    actions.button(
        c2,
        PAGE,
        _("Stop"),
        state.wkey(PAGE, f"stop_{kind}"),
        jobs.stop,
        (PAGE, kind),
        icon=":material/stop:",
        disabled=not running,
    )
    actions.button(
        st,
        PAGE,
        _("Use the paper's setup for this demo"),
        state.wkey(PAGE, f"paper_{kind}"),
        _paper,
        (kind,),
        icon=":material/restart_alt:",
        help=_("The paper preset “{title}”: {settings}").format(
            title=_(PRESETS[DEMO[kind][0]].title),
            settings=", ".join(f"{k} = {v}" for k, v in paper_setup(kind).items()),
        ),
    )
    actions.page_witness(PAGE)  # presses never lost (app/ui/actions.py)
    c3.caption(
        _(
            "Both settings train together (one population) with the sidebar's network, task, seeds and "
            "training settings: {seeds} seeds, budget {budget}, {algorithm}, lr {lr}."
        ).format(
            seeds=values["n_seeds"],
            budget=f"{values['budget']:,}",
            algorithm=values["algorithm"].upper(),
            lr=f"{values['lr']:g}",
        )
    )


def _show(where, chart: tuple, key: str) -> None:
    fig, alt = chart
    live.chart(
        where, fig, state.wkey(PAGE, key), alt, config=saving.config("bias-lab-" + key.replace("_", "-"))
    )


def _success_table(sweep: Sweep) -> None:
    c = sweep.cells()
    st.dataframe(
        pd.DataFrame(
            {
                _("setting"): c.x,
                _("solved"): [f"{s}/{n}" for s, n in zip(c.solved, c.networks)],
                _("median sequences to criterion"): [lab_figures.fmt_int(v) for v in c.median_to_criterion],
                _("diverged"): c.diverged,
            }
        ),
        hide_index=True,
    )


# ----------------------------------------------------------------------------- abuse problem
ABUSE_TEXT = N_(
    "**The abuse problem** (Hochreiter & Schmidhuber 1997). Early in training the error can be reduced without "
    "storing anything: a cell whose output gate is open emits whatever its state drifts to, the same for every "
    "input sequence, and the output layer uses that as an extra **bias unit**. Such cells are 'abused' — they are "
    "not free to learn the long lag, and releasing them later costs training time. The paper's fix: start the "
    "output gates **closed** with negative biases, **staggered** (−1, −2, −3, …) so the blocks open one after "
    "another instead of all learning the same thing.\n\n"
    "*Measured here:* a cell counts as a bias unit when ≥ {share}% of its output's power "
    "is identical across {probes} probe sequences (it ignores the input) and its rms output is ≥ "
    "{rms}. The early output gate is the mean y_og over the first 10 steps."
)


def abuse(values: dict) -> None:
    st.markdown(
        _(ABUSE_TEXT).format(share=f"{100 * bd.BIAS_UNIT_SHARE:.0f}", probes=bd.PROBE_BATCH, rms=bd.MIN_RMS)
    )
    with st.expander(_("Demo settings"), expanded=False):
        form.render_fields(PAGE, SCHEMA, ["abuse_first", "abuse_step"])
    _buttons("abuse", values, N_("Train both settings"))
    jobs.settings_note(jobs.get(PAGE, "abuse"), values, _("Train both settings"))
    jobs.live(PAGE, "abuse", _draw_abuse)


def _draw_abuse(job: jobs.Job | None) -> None:
    if job is None:
        st.info(
            _(
                "Press **Train both settings**: output-gate bias 0 (gates half open from the start) against the "
                "staggered negative biases, with the same seeds."
            )
        )
        return
    sweep, large = job.work, state.large_fonts()
    frame = job.recorder.frame(sweep)
    c1, c2 = figures.pair(large)
    _show(
        c1,
        lab_figures.curves(
            frame,
            "loss",
            title=_("Training loss (same seeds)"),
            y=_("mean loss per sequence"),
            large=large,
            uirevision="abuse-loss",
            log=True,
        ),
        "abuse_loss",
    )
    with c2:
        st.markdown(
            _("**Success** (criterion: {criterion})").format(criterion=words.criterion(sweep.trainer))
        )
        _success_table(sweep)
    if job.running:
        st.caption(_("Bias-unit counts appear when training ends (or is stopped)."))
        return
    summary = getattr(job, "summary", None)
    if summary is None:
        summary = job.summary = bd.abuse_summary(sweep)
    agg = (
        summary.groupby(["setting", "when"], sort=False)
        .agg(
            bias_units=("bias_units", "mean"),
            cells=("cells", "first"),
            input_share=("input_share", "mean"),
            early_gate=("early_output_gate", "mean"),
        )
        .reset_index()
    )
    order = {v: i for i, v in enumerate(sweep.labels())}
    agg = agg.assign(_o=agg.setting.map(order) * 2 + (agg.when == "after")).sort_values("_o")
    st.dataframe(
        pd.DataFrame(
            {
                _("output-gate bias"): agg.setting,
                _("training"): [_(WHEN.get(w, w)) for w in agg.when],
                _("bias-unit cells (mean per network)"): [
                    _("{mean} of {cells}").format(mean=f"{b:.2f}", cells=c)
                    for b, c in zip(agg.bias_units, agg.cells)
                ],
                _("input-dependent share of cell output"): [f"{v:.0%}" for v in agg.input_share],
                _("early output gate (mean y_og, t ≤ 10)"): [f"{v:.2f}" for v in agg.early_gate],
            }
        ),
        hide_index=True,
    )
    job.csv = summary
    st.caption(
        _(
            "Read it as: how many cells per network behave like constant bias units, and how open the output "
            "gates are at the start of a sequence — before training and after. Numbers are measured on these "
            "networks; whether the abuse problem shows depends on the task and the seeds."
        )
    )


# ----------------------------------------------------------------------------- internal state drift
DRIFT_TEXT = N_(
    "**Internal state drift** (1997). The CEC adds y_ig·g to s at every step. With input gates open (bias 0) "
    "whatever g produces keeps piling up, |s| grows, the output squashing h saturates and h'(s) → 0. Every "
    "gradient of the input-gate and cell-input weights is multiplied by h'(s) — so they shrink towards 0. The "
    "paper's fix: negative input-gate biases (the adding problem used −3, −6) keep the gates shut until something "
    "worth storing arrives. The paper admits the fix is a *model bias*: a shut gate also scales those same "
    "gradients by y_ig ≈ σ(bias), so on short sequences the open gates can still show the larger gradients. "
    "Lengthen the sequence (e.g. the adding problem with T = 200) and watch h'(s) of the open gates fall and "
    "their gradient advantage shrink."
)


def drift(values: dict) -> None:
    st.markdown(_(DRIFT_TEXT))
    with st.expander(_("Demo settings"), expanded=False):
        form.render_fields(PAGE, SCHEMA, ["drift_first", "drift_step"])
    _buttons("drift", values, N_("Train both settings"))
    jobs.settings_note(jobs.get(PAGE, "drift"), values, _("Train both settings"))
    outcome = state.keep_good(PAGE, "drift_plan", lambda: lab_settings.demo_plan(values, "drift"))
    state.report(outcome, N_("these demo settings"))
    jobs.live(PAGE, "drift", lambda job: _draw_drift(job, outcome.value))


def _profiles(sweep_or_plan, job: jobs.Job | None):
    """|s| and h'(s) on the probe, seed = first seed, for both settings: before (and after) training."""
    sweep = (
        job.work
        if job is not None
        else Sweep(
            sweep_or_plan.base,
            sweep_or_plan.task,
            sweep_or_plan.train,
            sweep_or_plan.x,
            None,
            sweep_or_plan.seeds[:1],
        )
    )
    seed = sweep.seeds[0]
    out = {}
    for i, label in enumerate(sweep.labels()):
        k = sweep.member_index(i, 0, seed)
        tr = sweep.probe(k)
        out[label] = {w: bd.drift_profile(tr[w], sweep.configs[k]) for w in ("before", "after")}
    return out, seed, job is not None and job.work.trainer.book.seen.max() > 0


def _draw_drift(job: jobs.Job | None, plan) -> None:
    if plan is None and job is None:
        return
    large = state.large_fonts()
    prof, seed, trained = _profiles(plan, job)
    whens = ("before", "after") if trained else ("before",)
    rows_s, rows_h = [], []
    for ci, (label, p) in enumerate(prof.items()):
        for w in whens:
            dash = "solid" if w == "before" else "dash"
            name = _(INPUT_BIAS[w]).format(label=label)
            rows_s.append((name, p[w]["abs_s"], ci, dash))
            rows_h.append((name, p[w]["h_prime"], ci, dash))
    t = next(iter(prof.values()))["before"]["t"]
    hmax = next(iter(prof.values()))["before"]["h_prime_max"]
    c1, c2 = figures.pair(large)
    _show(
        c1,
        lab_figures.profiles(
            t,
            rows_s,
            title=_("Mean |s(t)| on the probe sequence (seed {seed})").format(seed=seed),
            y="|s|",
            large=large,
            uirevision="drift-s",
        ),
        "drift_s",
    )
    _show(
        c2,
        lab_figures.profiles(
            t,
            rows_h,
            title=_("Mean h'(s(t)) (its maximum is {max})").format(max=f"{hmax:g}"),
            y="h'(s)",
            large=large,
            uirevision="drift-h",
            y_range=(0, hmax * 1.05),
        ),
        "drift_h",
    )
    if job is None:
        st.info(
            _(
                "These are the untrained networks. Press **Train both settings** to add the trained ones and the "
                "gradient norms over training."
            )
        )
        return
    frame = job.recorder.frame(job.work)
    job.csv = frame
    c3, c4 = figures.pair(large)
    for where, col, title in (
        (c3, "grad_input_gate", N_("‖gradient‖ of the input-gate weights (probe sequence)")),
        (c4, "grad_cell_input", N_("‖gradient‖ of the cell-input weights (probe sequence)")),
    ):
        if col in frame:
            _show(
                where,
                lab_figures.curves(
                    frame, col, title=_(title), y=_("norm"), large=large, uirevision=f"drift-{col}", log=True
                ),
                f"drift_{col}",
            )
    st.caption(
        _(
            "Gradient norms: the 1997 truncated gradient of the probe sequence's loss, measured on every network "
            "as it trains (thin: one seed, thick: median)."
        )
        if bd.gradient_method(job.work) == "truncated"
        else _(
            "Gradient norms: the exact gradient of the probe sequence's loss, measured on every network as it "
            "trains (thin: one seed, thick: median)."
        )
    )
    _success_table(job.work)


# ----------------------------------------------------------------------------- forget-gate bias
FORGET_TEXT = N_(
    "**The forget gate's bias.** With a forget gate the carousel becomes s(t) = y_fg·s(t−1) + y_ig·g, so error "
    "flowing back along s is multiplied by y_fg at every step: it decays like Π y_fg(t). Gers, Schmidhuber & "
    "Cummins (2000) therefore started forget gates **positive** (open: remember by default, the 1997 CEC); the "
    "2002 timing experiments used **−2** with peepholes, where the cell must learn to reset itself. The chart "
    "shows the exact backward pass (solid) and the product of the measured y_fg (dashed) for each bias."
)


def forget(values: dict) -> None:
    st.markdown(_(FORGET_TEXT))
    c1, c2 = st.columns([2, 1])
    c1.text_input(
        _(SCHEMA["forget_biases"].label), key=state.wkey(PAGE, "forget_biases"), persist_state=form.PERSIST
    )
    SCHEMA["forget_T"].render(PAGE, c2)
    outcome = state.keep_good(PAGE, "forget", lambda: forget_data(values))
    state.report(outcome, N_("these forget-gate settings"))
    if outcome.value is None:
        return
    d, variant = outcome.value
    large = state.large_fonts()
    curves = [
        figures.FlowCurve(f"b_fg = {b:g}", d["q"], d["relative"][k], d["theory"][k])
        for k, b in enumerate(d["biases"])
    ]
    left, right = st.columns([2, 1])
    fig, alt = figures.flow_chart(
        curves,
        title=_("Error flowing back along s ({variant})").format(variant=variant),
        large=large,
        uirevision="forget-flow",
        height=420,
    )
    live.chart(
        left,
        fig,
        state.wkey(PAGE, "forget_flow"),
        alt,
        config=saving.config("forget-flow", variant, f"t{values['forget_T']}"),
    )
    _show(
        right,
        lab_figures.forget_factor_chart(d["biases"], d["per_step"], d["y_fg"].mean(1), large=large),
        "forget_factor",
    )
    right.caption(
        _(
            "Measured: the geometric mean of ‖δ_s(t−1)‖/‖δ_s(t)‖ over the sequence. The mean "
            "forget-gate activation is what the theory multiplies by."
        )
    )
    if variant != values["variant"]:
        st.caption(
            _(
                "The sidebar's network is {chosen}, which has no forget gate: shown with {variant} and the "
                "sidebar's sizes."
            ).format(chosen=values["variant"], variant=variant)
        )
    st.button(
        _("Train a forget-bias × input-bias grid"),
        key=state.wkey(PAGE, "forget_grid"),
        on_click=_to_grid,
        args=(values,),
        icon=":material/grid_on:",
        help=_("Switch to the grid with the forget-gate biases above on the x axis and the input gate on y."),
    )
    st.session_state[state.wkey(PAGE, "_forget_csv")] = d


def forget_variant(values: dict) -> str:
    """The chosen variant if it has a forget gate, else the first that has one (lstm2000)."""
    with_forget = [n for n, v in REGISTRY.items() if "forget_gate" in v.options]
    return values["variant"] if values["variant"] in with_forget else with_forget[0]


def forget_data(values: dict):
    variant = forget_variant(values)
    v = {**values, "variant": variant, "forget_gate": True}
    base = netconfig.model_config(v, 2, 1)
    xs = np.random.default_rng(values["seed"]).uniform(-1.0, 1.0, size=(values["forget_T"], 1, 2))
    return bd.forget_flow(base, lab_settings.forget_biases(values), xs), variant


def _to_grid(values: dict) -> None:
    variant = forget_variant(values)
    SCHEMA.apply(
        PAGE,
        {
            "view": "grid",
            "variant": variant,
            "x_gate": "forget",
            "x_mode": "values",
            "x_values": values["forget_biases"],
            "x_step": 0.0,
            "y_gate": "input",
        },
    )


# ----------------------------------------------------------------------------- CSV
SECTIONS: dict[str, Callable[[dict], None]] = {"abuse": abuse, "drift": drift, "forget": forget}


def csv_for(view: str) -> Callable[[], bytes]:
    def make() -> bytes:
        if view == "forget":
            d = st.session_state.get(state.wkey(PAGE, "_forget_csv"))
            if d is None:
                return b""
            rows = [
                {
                    "forget_bias": b,
                    "steps_back": int(q),
                    "relative_flow": d["relative"][k][q],
                    "theory": d["theory"][k][q],
                }
                for k, b in enumerate(d["biases"])
                for q in d["q"]
            ]
            return pd.DataFrame(rows).to_csv(index=False).encode()
        job = jobs.get(PAGE, view)
        frame = getattr(job, "csv", None) if job is not None else None
        return frame.to_csv(index=False).encode() if frame is not None else b""

    return make
