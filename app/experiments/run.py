"""Paper experiments, the run side: the page's settings, what a run changes against the paper
(REDUCED), the caps check, the population trainer a "Run" starts and its result as numbers.

The page (``pages/experiments.py``) draws; this module decides. A run is ``trials`` networks of
one paper preset trained together as one population (``app.ui.jobs``), never re-run on page load.
"""

from __future__ import annotations

import numpy as np

from app.i18n import N_, _
from app.ui import controls, form, jobs, limits, state
from app.ui.form import Field
from app.ui.page_frame import PageSpec
from lstm_core.reproduce.diagnostics import diagnose
from lstm_core.reproduce.experiments import DIAGNOSTIC_STREAM
from lstm_core.training import PRESETS, Preset

PAGE = "experiments"
EXP_MAX_BUDGET, EXP_MAX_TRIALS = limits.EXPERIMENT_MAX_BUDGET, limits.EXPERIMENT_MAX_TRIALS
SCHEMA = form.Schema(
    [
        # Default: an experiment a first "Run" wins here in under a minute (1997 exp. 2b, reduced to 1,000
        # correct in a row; measured 3 of 4 networks solved at 1,758–3,420 sequences, the budget of 3,500
        # just above the last of them: 49 s of CPU on a quiet 2-core VM, against 58 s for a 5,000 budget
        # that solves no more). Its paper-size settings are one click away ("Paper-size settings").
        Field(
            "experiment",
            N_("Experiment"),
            "choice",
            "long_lag_random_assisted",
            choices=tuple(PRESETS),
            widget="select",
            fmt=lambda n: _("{title} — {paper}").format(title=_(PRESETS[n].title), paper=_(PRESETS[n].paper)),
        ),
        Field(
            "trials", N_("Trials (networks, seeds 0 … n−1)"), "int", 4, 1, EXP_MAX_TRIALS, 1, widget="slider"
        ),
        Field(
            "reduced",
            N_("Use the preset's documented reductions"),
            "bool",
            True,
            widget="toggle",
            help=N_(
                "E.g. T = 50 instead of 100, or a shorter criterion streak; the result is labelled REDUCED."
            ),
        ),
        Field(
            "budget",
            N_("Budget (sequences per network)"),
            "int",
            3500,
            10,
            EXP_MAX_BUDGET,
            500,
            widget="number",
            help=N_("Fewer sequences than the preset's budget also make the run REDUCED."),
        ),
        controls.seed_field(),
    ]
)
DEFAULTS = SCHEMA.defaults()
SPEC = PageSpec(PAGE, SCHEMA, DEFAULTS)


def reductions(p: Preset, values: dict) -> list[str]:
    """What this page's run changes with respect to the paper preset, in words."""
    out = []
    if values["reduced"] and p.reduced:
        out.append(_(p.reduced.get("note", N_("the preset's reductions"))))
    if values["budget"] < p.train.budget:
        out.append(
            _("budget {budget} sequences per network (preset: {preset})").format(
                budget=f"{values['budget']:,}", preset=f"{p.train.budget:,}"
            )
        )
    return out


def budget_cap(p: Preset, reduced: bool) -> int:
    """The most sequences per network a run here may train (``limits.STEP_CAP`` timesteps)."""
    return max(10, limits.STEP_CAP // p.build_task(reduced).max_length)


def paper_size(values: dict) -> dict:
    """The chosen experiment's paper settings: no reductions, the preset's budget as far as a run
    here may go (``limits.STEP_CAP``; beyond it the reproduction command runs the rest)."""
    p = PRESETS[values["experiment"]]
    return {"reduced": False, "budget": max(10, min(p.train.budget, EXP_MAX_BUDGET, budget_cap(p, False)))}


def use_paper_size(values: dict) -> None:
    """Button callback (runs before the script): show the paper-size settings in the widgets."""
    SCHEMA.apply(PAGE, paper_size(values))


def fit_budget_to_experiment() -> None:
    """Before the widgets are drawn: when the experiment has just changed and the budget is more
    than this experiment allows here (its sequences may be much longer), lower the budget and say
    so — choosing an experiment must not greet the user with an error. A budget the user types
    over the cap is still refused with a message (``check``)."""
    values, ps = SCHEMA.read(PAGE), state.page_state(PAGE)
    name, last = values["experiment"], ps.get("_last_experiment")
    ps["_last_experiment"] = name
    if last is None or name == last or name not in PRESETS:
        return
    p = PRESETS[name]
    cap = budget_cap(p, values["reduced"] and bool(p.reduced))
    if values["budget"] > cap:
        SCHEMA.apply(PAGE, {"budget": cap})
        state.flash(
            PAGE,
            _(
                "Budget lowered from {old} to {new} sequences per network: “{title}” has sequences of "
                "up to {length} steps, and a run here may train at most {cap} steps per network (the "
                "reproduction command has no such cap)."
            ).format(
                old=f"{values['budget']:,}",
                new=f"{cap:,}",
                title=_(p.title),
                length=f"{limits.STEP_CAP // cap:,}",
                cap=f"{limits.STEP_CAP:,}",
            ),
            kind="info",
        )


def check(values: dict) -> bool:
    """ValueError if the run would be too big for a shared server (nothing is built)."""
    p = PRESETS[values["experiment"]]
    task = p.build_task(values["reduced"] and bool(p.reduced))
    limits.check_steps(values["budget"], task.max_length, _("a run here"), _("use the reductions"))
    return True


def make_trainer(values: dict):
    check(values)
    p = PRESETS[values["experiment"]]
    reduced = values["reduced"] and bool(p.reduced)
    return p.trainer(
        trials=values["trials"], reduced=reduced, budget=values["budget"], seed=values["seed"], probe=False
    )


def start(values: dict) -> None:
    try:
        trainer = make_trainer(values)
    except state.USER_ERRORS as e:
        state.flash(PAGE, _("Cannot start this run: {why}").format(why=e))
        return
    p = PRESETS[values["experiment"]]
    label = _("{n} networks of “{title}”, one population").format(n=values['trials'], title=_(p.title))
    jobs.start(PAGE, "run", jobs.Job(jobs.TrainerWork(trainer), label, dict(values)))


def here_result(job: jobs.Job | None, values: dict) -> dict | None:
    """This page's run as numbers (only if it is of the chosen experiment)."""
    if job is None or job.settings["experiment"] != values["experiment"]:
        return None
    tr = job.work.trainer
    res = tr.results()
    p = PRESETS[job.settings["experiment"]]
    red = reductions(p, job.settings)
    return {
        "trials": len(res),
        "solved": int((res.status == "solved").sum()),
        "running": int((res.status == "running").sum()),
        "solved_at": [None if v is None or v != v else int(v) for v in res.solved_at],
        "budget": tr.config.budget,
        "wall": job.elapsed,
        "reduced": bool(red),
        "label": (
            _("{algorithm}, lr {lr}; criterion: {criterion}; REDUCED: {reductions}")
            if red
            else _("{algorithm}, lr {lr}; criterion: {criterion}")
        ).format(
            algorithm=tr.config.algorithm,
            lr=f"{tr.config.lr:g}",
            criterion=_(str(tr.criterion)),
            reductions="; ".join(red),
        ),
    }


def here_diagnostics(job: jobs.Job | None, values: dict) -> list[dict] | None:
    """The failure diagnostics of this page's finished run (its networks that did not meet the
    criterion), measured once when it ended, the way the reproduction command measures them
    (same sequences: ``default_rng([data seed, DIAGNOSTIC_STREAM])``). None while it runs, for
    another experiment, or if the measurement failed; [] if every network solved the task."""
    if job is None or job.running or job.settings["experiment"] != values["experiment"]:
        return None
    if job.summary is None:  # once per run: the page reruns often, the trained weights do not change
        job.summary = {"diagnostics": _measure(job)}
    return job.summary["diagnostics"]


def _measure(job: jobs.Job) -> list[dict] | None:
    tr = job.work.trainer
    res = tr.results()
    try:
        # (a diverged member's huge numbers are shown as they are: diagnose silences overflow itself)
        diags = diagnose(tr.model, tr.task, np.random.default_rng([job.settings["seed"], DIAGNOSTIC_STREAM]))
    except state.USER_ERRORS:
        return None
    return [
        {"seed": int(r.seed), "status": str(r.status), "best_streak": int(r.best_streak), **d}
        for r, d in zip(res.itertuples(), diags)
        if r.status != "solved"
    ]
