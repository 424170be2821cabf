"""The Bias lab demos' shared plumbing: a demo's population job (started from the sidebar's settings,
its training curves recorded as it runs), its buttons, the paper setup behind it, and the chart and
success-table helpers every demo draws with.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from app.bias_lab import figures as lab_figures
from app.bias_lab import settings as lab_settings
from app.bias_lab.settings import PAGE, SCHEMA
from app.i18n import N_, _
from app.i18n.core_errors import translate
from app.ui import actions, jobs, live, netconfig, saving, state
from lstm_core.sweeps import bias_demos as bd
from lstm_core.sweeps.sweep import Sweep
from lstm_core.training import PRESETS

RECORD_POINTS = 40  # training-curve points per demo run


def _recorder(sweep: Sweep) -> tuple[bd.Recorder, Callable]:
    rec = bd.Recorder()
    every = max(1, sweep.train_config.budget // RECORD_POINTS)
    method = bd.gradient_method(sweep)

    def hook(work: Sweep, progress) -> None:
        seen = float(np.max(progress.sequences))
        if not rec.sequences or seen - float(np.max(rec.sequences[-1])) >= every or work.done:
            rec.record(work, progress, method)

    return rec, hook


def start_demo(kind: str, settings: dict) -> None:
    try:
        p = lab_settings.demo_plan(settings, kind)
        sweep = Sweep(p.base, p.task, p.train, p.x, None, p.seeds)
    except state.USER_ERRORS as e:
        state.flash(PAGE, _("Cannot start the demo: {why}").format(why=translate(e)))
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


def demo_buttons(kind: str, values: dict, label: str) -> None:
    job = jobs.get(PAGE, kind)
    running = job is not None and job.running
    c1, c2, c3 = st.columns([1.3, 1, 3], vertical_alignment="center")
    actions.button(
        c1,
        PAGE,
        _(label),
        state.wkey(PAGE, f"run_{kind}"),
        start_demo,
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


def show_chart(where, chart: tuple, key: str) -> None:
    fig, alt = chart
    live.chart(
        where, fig, state.wkey(PAGE, key), alt, config=saving.config("bias-lab-" + key.replace("_", "-"))
    )


def success_table(sweep: Sweep) -> None:
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
