"""Paper experiments: every experiment of the three papers, the paper's setup and reported
result, the reproduction command's results (the baseline, read from the results file — not
re-run here) and a "reproduce here" run next to them.

Pipeline: controls -> a paper preset (``lstm_core.training.PRESETS``) -> on "Run", a population
of ``trials`` networks in this session's state, advanced one chunk per fragment tick
(``app.ui.jobs``) -> table and chart of paper vs reproduction command vs this run
(``app.experiments.figures``; the generated texts in this session's language by
``app.experiments.notes``, the setup table by ``app.experiments.setup_table``) -> "Why networks
failed": the failure diagnostics the command stored for its unsolved networks, and those of this
page's finished run (``app.experiments.diagnostics``). Every run made here with fewer sequences or
the preset's documented reductions is labelled REDUCED.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app.experiments import diagnostics as why
from app.experiments import figures as experiment_figures
from app.experiments import results_file, setup_table
from app.experiments.run import (
    DEFAULTS,
    PAGE,
    SCHEMA,
    SPEC,
    check,
    fit_budget_to_experiment,
    here_diagnostics,
    here_result,
    paper_size,
    reductions,
    start,
    use_paper_size,
)
from app.i18n import N_, _
from app.ui import actions, export, form, jobs, live, saving, state
from app.ui.page_frame import page_frame
from lstm_core.training import PRESETS, Preset


def draw(job: jobs.Job | None, values: dict, baseline, large: bool) -> None:
    p = PRESETS[values["experiment"]]
    here = here_result(job, values)
    # The chart is live (updated in place while a run trains); presenting, it comes first.
    chart, table = (st.container(), st.container()) if state.presenting() else (None, None)
    with table or st.container():
        st.dataframe(
            experiment_figures.comparison_table(preset=p, baseline=baseline, here=here), hide_index=True
        )
        st.markdown(experiment_figures.comparison_notes(preset=p, baseline=baseline, here=here))
    fig, alt = experiment_figures.comparison_chart(
        paper=p.paper_sequences,
        baseline=baseline,
        here=here,
        large=large,
        title=_("{title}: training sequences to criterion").format(title=_(p.title)),
    )
    with chart or st.container():
        live.chart(
            None,
            fig,
            state.wkey(PAGE, "compare"),
            alt,
            config=saving.config("experiment", values["experiment"]),
        )
        st.caption(
            _(
                "{alt} ◆ paper, ● reproduction command (bar: range), ○ this page's trials, ✗ not solved "
                "within the budget (drawn at the budget); * = reduced settings."
            ).format(alt=alt)
        )
    if job is not None and here is None:
        st.caption(
            _("Your last run here was of another experiment ({title}).").format(
                title=_(PRESETS[job.settings['experiment']].title)
            )
        )


def why_failed(baseline, source: str, here: list[dict] | None, job: jobs.Job | None) -> None:
    """The diagnostics of the networks that did not meet the criterion (baseline rows, this run)."""
    rows = [(r, why.members(r.get("diagnostics"))) for _i, r in baseline.iterrows()]
    if not any(d for _r, d in rows) and not here:
        for r, _d in rows:  # an older results file: unsolved networks, no diagnostics
            if r.solved is not None and r.trials is not None and r.solved < r.trials:
                st.caption(why.missing_note(r.command, source))
        return
    # presenting, the section folds away (the picture comes first); otherwise it is open below the chart.
    # st.table, not st.dataframe: ten columns fit the page with wrapped headers, no sideways scrolling
    with st.expander(_("Why networks failed"), expanded=False) if state.presenting() else st.container():
        if not state.presenting():
            st.subheader(_("Why networks failed"))
        for r, diags in (x for x in rows if x[1]):
            st.markdown(why.heading(diags, r.trials, r.command))
            st.table(why.table(diags), hide_index=True)
            st.markdown(why.explanation(diags))
        if any(d for _r, d in rows):
            st.caption(why.caption(source))
        if here:
            st.markdown(why.heading(here, job.settings["trials"]))
            st.table(why.table(here), hide_index=True)
            st.markdown(why.explanation(here))
            st.caption(why.here_caption(job.settings["seed"], columns=not any(d for _r, d in rows)))


def page() -> None:
    large = state.display_options()
    with page_frame(SPEC):
        _content(large)


def _content(large: bool) -> None:
    fit_budget_to_experiment()
    st.title(_("Paper experiments"))
    state.intro(
        _(
            "The experiments of Hochreiter & Schmidhuber 1997, Gers, Schraudolph & Schmidhuber 2002 and "
            "Frasconi, Gori & Soda 1992 with the papers' settings and reported results, the results of the "
            "reproduction command, and a run you can start here."
        )
    )
    results, source = results_file.load()
    if not state.presenting():
        _gallery(results, source)
    _sidebar()
    SCHEMA["experiment"].render(PAGE)
    values = SCHEMA.read(PAGE)
    state.show_flashes(PAGE)
    p = PRESETS[values["experiment"]]
    live_part = st.container() if state.presenting() else None  # presenting: the picture first
    left, right = st.columns([1.1, 1])
    with left:
        _setup_column(p)
    with right:
        _run_column(p, values)
    baseline = results_file.for_preset(results, values["experiment"])
    if baseline.empty:
        st.caption(
            _("No reproduction-command result for this experiment yet ({source}).").format(source=source)
        )
    with live_part or st.container():
        jobs.live(PAGE, "run", lambda j: draw(j, values, baseline, large))
    job = jobs.get(PAGE, "run")
    # outside the live fragment: a run's end triggers a full rerun, which draws its diagnostics here
    why_failed(baseline, source, here_diagnostics(job, values), job)
    export.io_panel(
        PAGE,
        SCHEMA,
        csv=lambda: job.work.trainer.results().to_csv(index=False).encode() if job is not None else b"",
        csv_name=f"gatelab-experiment-{values['experiment']}.csv",
        csv_label=_("This run's trials (CSV)"),
        doc=export.config_document(PAGE, None, values),
        doc_name="gatelab-experiment.json",
        from_model=None,
    )


def _gallery(results: pd.DataFrame, source: str) -> None:
    """Every experiment and the reproduction command's result, folded away."""
    with st.expander(_("Gallery: every experiment and the reproduction command's result"), expanded=False):
        st.dataframe(experiment_figures.gallery_table(PRESETS, results), hide_index=True)
        st.caption(
            _(
                "Baseline source: {source}. The baseline is read from the file, never re-run on page load."
            ).format(source=source)
        )


def _sidebar() -> None:
    with st.sidebar:
        with st.expander(_("Reproduce here"), expanded=True):
            form.render_fields(PAGE, SCHEMA, ["trials", "reduced", "budget", "seed"])
            form.reset_button(
                PAGE, SCHEMA, "run", lambda: ["trials", "reduced", "budget", "seed"], lambda: DEFAULTS
            )


def _setup_column(p: Preset) -> None:
    """The paper's setup and task, as the preset states them."""
    st.markdown(_("**The paper's setup** ({paper})").format(paper=_(p.paper)))
    st.markdown(setup_table.setup_markdown(p))
    task = p.build_task()
    st.markdown(_("**Task.** {setup}").format(setup=_(task.setup)))


def _run_column(p: Preset, values: dict) -> None:
    """The "Reproduce here" column: what a run will be (and what it leaves out), its buttons and the server's cap."""
    st.markdown(_("**Reproduce here**"))
    red = reductions(p, values)
    ok = state.keep_good(PAGE, "plan", lambda: check(values))
    state.report(ok, N_("these run settings"))
    st.caption(
        _("{n} networks trained together as one population, budget {budget} sequences each.").format(
            n=values['trials'], budget=f"{values['budget']:,}"
        )
        + " "
        + (
            _("**REDUCED:** {reductions}.").format(reductions="; ".join(red))
            if red
            else _("Full preset settings.")
        )
    )
    job = jobs.get(PAGE, "run")
    running = job is not None and job.running
    _run_buttons(values, running, blocked=ok.error is not None)
    if job is not None and job.settings["experiment"] == values["experiment"]:
        jobs.settings_note(job, values, _("Run"))  # another experiment's run has its own caption
    full = paper_size(values)
    if red:
        actions.button(
            st,
            PAGE,
            _("Paper-size settings"),
            state.wkey(PAGE, "paper_size"),
            use_paper_size,
            (values,),
            icon=":material/open_in_full:",
            disabled=running,
            help=_("No reductions and the preset's budget (as far as a run here may go)."),
        )
    actions.page_witness(PAGE)  # presses never lost (app/ui/actions.py)
    if full["budget"] < p.train.budget:
        st.caption(
            _(
                "A run here stops at {cap} sequences of this length (the server's cap); the paper's budget "
                "of {budget} runs with `{command}`."
            ).format(
                cap=f"{full['budget']:,}",
                budget=f"{p.train.budget:,}",
                command=f"python -m lstm_core.experiments {p.name} --trials 10",
            )
        )


def _run_buttons(values: dict, running: bool, blocked: bool) -> None:
    c1, c2 = st.columns(2)
    actions.button(
        c1,
        PAGE,
        _("Run"),
        state.wkey(PAGE, "run"),
        start,
        (values,),
        type="primary",
        icon=":material/play_arrow:",
        disabled=running or blocked,
    )
    actions.button(
        c2,
        PAGE,
        _("Stop"),
        state.wkey(PAGE, "stop"),
        jobs.stop,
        (PAGE, "run"),
        icon=":material/stop:",
        disabled=not running,
    )


if __name__ == "__main__":
    page()
