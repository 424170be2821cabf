"""Bias lab: the grid view — start a sweep, its live heat maps, a clicked cell's networks."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.bias_lab import figures as lab_figures
from app.bias_lab import heatmap, precomputed
from app.bias_lab import settings as lab_settings
from app.bias_lab.settings import PAGE
from app.i18n import N_, _
from app.i18n.core_errors import translate
from app.ui import actions, figures, jobs, live, saving, state, theme, words
from lstm_core.sweeps.sweep import Sweep

CELL_KEY, SEED_KEY = state.wkey(PAGE, "cell"), state.wkey(PAGE, "cell_seed")


# ----------------------------------------------------------------------------- the grid
def start_grid(settings: dict) -> None:
    """ "Train the sweep" callback: a fresh population from the current settings."""
    try:
        p = lab_settings.plan(settings)
        sweep = Sweep(p.base, p.task, p.train, p.x, p.y, p.seeds)
    except state.USER_ERRORS as e:
        state.flash(PAGE, _("Cannot start this sweep: {why}").format(why=translate(e)))
        return
    label = lab_settings.Lazy(
        N_("{k} networks ({nx} × {ny} settings × {seeds} seeds), one population"),
        k=sweep.K,
        nx=len(p.x),
        ny=len(p.y) if p.y else 1,
        seeds=len(p.seeds),
    )
    jobs.start(PAGE, "grid", jobs.Job(sweep, label, settings))
    st.session_state.pop(CELL_KEY, None)


def pick_cell(chart_key: str, nx: int, ny: int) -> None:
    """Heat-map click callback: the clicked cell becomes the selected network's cell."""
    cell = heatmap.selected_cell(st.session_state.get(chart_key), nx, ny)
    if cell is not None:
        st.session_state[CELL_KEY] = cell


def draw_grid(job: jobs.Job | None) -> None:
    large = state.large_fonts()
    if job is None:
        if not state.presenting():  # on a projector the baseline's picture comes first
            st.info(
                _(
                    "Press **Train the sweep**: every grid cell × seed becomes one network, and all of them "
                    "train together as one population."
                )
            )
        precomputed.baseline()
        return
    sweep: Sweep = job.work
    x_labels, y_labels = sweep.labels("x"), sweep.labels("y")
    nx, ny = len(x_labels), max(len(y_labels), 1)
    options = [(i, j) for j in range(ny) for i in range(nx)]
    if st.session_state.get(CELL_KEY) not in options:
        st.session_state.pop(CELL_KEY, None)
    _heatmaps(job, x_labels, y_labels, large)
    st.caption(
        _(
            "Criterion: {criterion}. Budget {budget} sequences per network, {algorithm}, lr {lr}, data seed "
            "{seed}. Hover a cell for its numbers; ✗ = no network of that cell met the criterion (grey: no "
            "median exists)."
        ).format(
            criterion=words.criterion(sweep.trainer),
            budget=f"{sweep.train_config.budget:,}",
            algorithm=sweep.train_config.algorithm.upper(),
            lr=f"{sweep.train_config.lr:g}",
            seed=sweep.train_config.seed,
        )
    )
    detail(sweep, options, x_labels, y_labels, large)


def _heatmaps(job: jobs.Job, x_labels: list[str], y_labels: list[str], large: bool) -> None:
    """Success and median maps side by side: live while training, clickable once finished."""
    sweep: Sweep = job.work
    cells = sweep.cells()
    nx, ny = len(x_labels), max(len(y_labels), 1)
    kw = dict(
        x_title=_(sweep.x.title),
        y_title=_(sweep.y.title) if sweep.y is not None else "",
        large=large,
        selected=st.session_state.get(CELL_KEY),
        budget=sweep.train_config.budget,
    )
    left, right = figures.pair(large)
    for where, metric in ((left, "success"), (right, "median")):
        fig, alt = heatmap.sweep_heatmap(
            cells,
            x_labels,
            y_labels,
            metric=metric,
            uirevision=f"bias-{metric}",
            clickable=not job.running,
            **kw,
        )  # clicks wait for the end
        save = saving.config(f"bias-sweep-{metric}", sweep.base.variant, only_save=True)
        key = state.wkey(PAGE, f"heat_{metric}")
        if job.running:  # filled in place while the population trains (clicks wait for the end)
            live.chart(where, fig, state.wkey(PAGE, f"live_heat_{metric}"), alt, config=save)
        else:
            where.plotly_chart(
                theme.for_theme(fig),
                key=key,
                width="stretch",
                alt=alt,
                on_select=lambda k=key: pick_cell(k, nx, ny),
                selection_mode="points",
                config=saving.for_streamlit(save),
            )
        where.caption(alt)


def detail(sweep: Sweep, options: list, x_labels: list[str], y_labels: list[str], large: bool) -> None:
    """The selected cell's network on the probe sequence, before and after training."""
    name = lambda c: x_labels[c[0]] + (f"  |  {y_labels[c[1]]}" if y_labels else "")
    c1, c2 = st.columns([3, 1])
    cell = c1.selectbox(
        _("Network shown below — grid cell (click a heat-map cell to choose)"),
        options,
        format_func=name,
        index=None,
        key=CELL_KEY,
        placeholder=_("Click a cell in a heat map"),
    )
    seed = c2.selectbox(_("Seed"), sweep.seeds, key=SEED_KEY)
    if cell is None:
        return
    k = sweep.member_index(cell[0], cell[1], seed)
    who = (
        _("{x_title} {x}, {y_title} {y}, seed {seed}") if y_labels else _("{x_title} {x}, seed {seed}")
    ).format(
        x_title=_(sweep.x.title),
        x=x_labels[cell[0]],
        y_title=_(sweep.y.title) if y_labels else "",
        y=y_labels[cell[1]] if y_labels else "",
        seed=seed,
    )
    status = _member_status(sweep, sweep.results().iloc[k])
    st.markdown(_("**Network {k}** ({who}) {status}.").format(k=k, who=who, status=status))
    _probe_charts(sweep, k, large)
    st.caption(
        _(
            "The probe sequence is generated once from the data seed. Before training the gates sit where "
            "their biases put them; after training a solving network opens its input gate when the "
            "information arrives and its output gate when the answer is due."
        )
    )


def _member_status(sweep: Sweep, row: Any) -> str:
    """How one network of the sweep ended (or stands): solved, out of budget, training or diverged."""
    if row.status == "solved":
        return _("met the criterion after {n} sequences").format(n=f"{int(row.solved_at):,}")
    if row.status == "budget":
        req = sweep.trainer.required
        return (
            _(
                "did not meet it within {n} sequences (best streak {best} of {required}, but not with the "
                "mean-abs-error goal)"
            )
            if row.best_streak >= req
            else _("did not meet it within {n} sequences (best streak {best} of {required})")
        ).format(n=f"{row.sequences:,}", best=f"{row.best_streak:,}", required=f"{req:,}")
    if row.status == "running":
        return _("is still training ({n} sequences so far)").format(n=f"{row.sequences:,}")
    return _("diverged: {why}").format(why=translate(str(row.message)))


def _probe_charts(sweep: Sweep, k: int, large: bool) -> None:
    traces = sweep.probe(k)
    for i, (before, after) in enumerate(
        lab_figures.probe_panels(traces["before"], traces["after"], variant=sweep.base.variant, large=large)
    ):
        cols = figures.pair(large)
        for c, (fig, alt), when in ((cols[0], before, "before"), (cols[1], after, "after")):
            live.chart(
                c,
                fig,
                state.wkey(PAGE, f"probe{i}_{when}"),
                alt,
                config=saving.config(f"bias-probe{i + 1}-{when}", sweep.base.variant, f"network{k}"),
            )


def grid_section(values: dict) -> None:
    outcome = state.keep_good(PAGE, "plan", lambda: lab_settings.plan(values))
    state.report(outcome, N_("these sweep settings"))
    job = jobs.get(PAGE, "grid")
    c1, c2, c3 = st.columns([1.2, 1, 3], vertical_alignment="center")
    running = job is not None and job.running
    actions.button(
        c1,
        PAGE,
        _("Train the sweep"),
        state.wkey(PAGE, "train"),
        start_grid,
        (values,),
        type="primary",
        icon=":material/play_arrow:",
        disabled=running or outcome.error is not None,
    )
    actions.button(
        c2,
        PAGE,
        _("Stop"),
        state.wkey(PAGE, "stop"),
        jobs.stop,
        (PAGE, "grid"),
        icon=":material/stop:",
        disabled=not running,
    )
    actions.page_witness(PAGE)  # presses never lost (app/ui/actions.py)
    if outcome.value is not None and not state.presenting():  # presenting: the picture first
        p = outcome.value
        reduced = p.train.streak != p.task.criterion.streak
        c3.caption(
            (
                _(
                    "{n} networks = {nx} × {ny} bias settings × {seeds} seeds; budget {budget} sequences each. "
                    "Criterion: {criterion} — REDUCED to {streak} in a row"
                )
                if reduced
                else _(
                    "{n} networks = {nx} × {ny} bias settings × {seeds} seeds; budget {budget} sequences each. "
                    "Criterion: {criterion}"
                )
            ).format(
                n=p.networks,
                nx=len(p.x),
                ny=len(p.y) if p.y else 1,
                seeds=len(p.seeds),
                budget=f"{p.train.budget:,}",
                criterion=words.description(p.task.criterion),
                streak=f"{p.train.streak:,}",
            )
        )
    jobs.settings_note(job, values, _("Train the sweep"))
    jobs.live(PAGE, "grid", draw_grid)
    precomputed.section()


def results_csv() -> bytes:
    job = jobs.get(PAGE, "grid")
    if job is None:
        return b"member,i,j,x,y,seed,status,sequences,solved_at,best_streak,message\n"
    sweep: Sweep = job.work
    res = sweep.results()
    cells = sweep.cells()[["i", "j", "success_rate", "median_to_criterion"]]
    return res.merge(cells, on=["i", "j"]).to_csv(index=False).encode()
