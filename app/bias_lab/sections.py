"""The Bias lab's demonstrations: abuse problem and internal state drift (the forget-gate demo is
in ``app.bias_lab.forget_demo``), and the table of every demo by view with its CSV download.

Each demo trains real networks from the sidebar's network / task / training settings and plots what
it measures — the same seeds for both settings, so the only difference between the two curves is
the bias being demonstrated. Measurement code is in ``lstm_core.sweeps.bias_demos``; figures in
``app.bias_lab.figures``; the job plumbing shared by the demos in ``app.bias_lab.demo_jobs``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from app.bias_lab import figures as lab_figures
from app.bias_lab import settings as lab_settings
from app.bias_lab.demo_jobs import demo_buttons, show_chart, success_table
from app.bias_lab.forget_demo import forget
from app.bias_lab.settings import PAGE, SCHEMA
from app.i18n import N_, _
from app.ui import figures, form, jobs, state, words
from lstm_core.sweeps import bias_demos as bd
from lstm_core.sweeps.sweep import Sweep

WHEN = {"before": N_("before"), "after": N_("after")}  # the abuse table's "training" column
INPUT_BIAS = {"before": N_("input bias {label} (before)"), "after": N_("input bias {label} (after)")}


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
    demo_buttons("abuse", values, N_("Train both settings"))
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
    show_chart(
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
        success_table(sweep)
    if job.running:
        st.caption(_("Bias-unit counts appear when training ends (or is stopped)."))
        return
    _abuse_table(job)


def _abuse_table(job: jobs.Job) -> None:
    """Bias-unit cells and early output gates per setting, before and after training (measured once)."""
    sweep = job.work
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
    demo_buttons("drift", values, N_("Train both settings"))
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


def _draw_drift(job: jobs.Job | None, plan: Any) -> None:
    if plan is None and job is None:
        return
    large = state.large_fonts()
    _drift_profile_charts(plan, job, large)
    if job is None:
        st.info(
            _(
                "These are the untrained networks. Press **Train both settings** to add the trained ones and the "
                "gradient norms over training."
            )
        )
        return
    _drift_gradients(job, large)
    success_table(job.work)


def _drift_profile_charts(plan: Any, job: jobs.Job | None, large: bool) -> None:
    """|s| and h'(s) over the probe sequence for both settings, before (and after) training."""
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
    show_chart(
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
    show_chart(
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


def _drift_gradients(job: jobs.Job, large: bool) -> None:
    """The gradient norms of the input-gate and cell-input weights over training (kept as the CSV)."""
    frame = job.recorder.frame(job.work)
    job.csv = frame
    c3, c4 = figures.pair(large)
    for where, col, title in (
        (c3, "grad_input_gate", N_("‖gradient‖ of the input-gate weights (probe sequence)")),
        (c4, "grad_cell_input", N_("‖gradient‖ of the cell-input weights (probe sequence)")),
    ):
        if col in frame:
            show_chart(
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
