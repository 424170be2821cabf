"""The Bias atlas page's sections: the answer at a lag, before training, one cell live, your model,
take it home. Each is a short pipeline: settings -> the atlas's results or a core measurement ->
a builder in ``app.bias_atlas.figures`` -> a chart with its text alternative.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import streamlit as st

import lstm_core as lc
from app.bias_atlas import figures as af
from app.bias_atlas.live_cell import CellWork, same_as_atlas
from app.bias_atlas.settings import GRID, PAGE, SCHEMA, before, keep_gate, summary
from app.i18n import _, core_errors
from app.ui import actions, export, figures, jobs, limits, saving, state
from lstm_core import atlas
from lstm_core.atlas.check import check_loaded
from lstm_core.init_schemes import SCHEMES, schemes_for
from lstm_core.scheme_code import snippet

FILE_KEY = f"{PAGE}.model_file"


def show(where, chart: tuple, key: str, *parts) -> None:
    fig, alt = chart
    figures.show(fig, alt, key, where, config=saving.config(key, *parts))


def answer(doc: dict, v: dict, large: bool) -> None:
    """The atlas at this variant, task and lag: the verdict, solved against lag, the curves, the ranking."""
    variant, task, lag = v["variant"], v["task"], v["lag"]
    g = doc["grid"]
    st.subheader(_("What the atlas measured at lag {lag}").format(lag=lag))
    every = summary()
    rank = atlas.rank_at(every, variant, task, lag)
    top = rank.iloc[0]
    if top.solved:
        st.success(
            _(
                "At lag {lag} the best here is **{scheme}**: {solved} of {networks} solved, median {median} sequences."
            ).format(
                lag=lag,
                scheme=af.scheme_label(top.scheme),
                solved=int(top.solved),
                networks=int(top.networks),
                median=f"{top.median_to_solved:,.0f}",
            )
        )
    else:
        st.warning(
            _(
                "At lag {lag} no scheme solved it within {budget:,} sequences; closest to it: **{scheme}** (median loss "
                "{ratio:.2f} × the baseline)."
            ).format(
                lag=lag, budget=g["budget"], scheme=af.scheme_label(top.scheme), ratio=top.median_final_ratio
            )
        )
    cells = every[(every.variant == variant) & (every.task == task)]
    schemes = [s for s in schemes_for(variant) if s in set(cells.scheme)]
    # the pictures first (on a projector, presenter mode: each at full width, the first above the fold),
    # then how they were made and the table
    c1, c2 = figures.pair(large or state.presenting())
    show(c1, af.solved_against_lag(cells, schemes, lag, large), "atlas-solved", variant, task)
    at, members = atlas.curves(doc, variant, task, lag)
    show(
        c2, af.ratio_curves(at, members, schemes, g["margin"], lag, large), "atlas-ratio", variant, task, lag
    )
    st.caption(
        _(
            "{networks} networks per scheme ({hidden} units, seeds 0–{last}), {budget:,} training sequences each "
            "({optimizer}, learning rate {lr:g}, batch {batch}). Solved: the loss on {eval} held-out sequences falls "
            "below {margin:g} × the memoryless baseline (the best a network that remembers nothing can do)."
        ).format(
            networks=g["seeds"],
            hidden=g["hidden"],
            last=g["seeds"] - 1,
            budget=g["budget"],
            optimizer="Adam" if g["optimizer"] == "adam" else "SGD",
            lr=g["lr"],
            batch=g["batch"],
            eval=g["eval_size"],
            margin=g["margin"],
        )
    )
    st.dataframe(ranking_table(rank), hide_index=True, width="stretch", key=f"{PAGE}.ranking")


def _no_meaning(variant: str, scheme: str) -> bool:
    """Say so when the scheme has no meaning for the variant (the 1997 cell has no forget gate, …)."""
    if variant in SCHEMES[scheme].variants:
        return False
    st.info(
        _("{scheme} has no meaning for {variant}: {why}.").format(
            scheme=af.scheme_label(scheme),
            variant=_(lc.variant(variant).title),
            why=_(SCHEMES[scheme].why_not),
        )
    )
    return True


def ranking_table(rank: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            _("Rank"): range(1, len(rank) + 1),
            _("Scheme"): [af.scheme_label(s) for s in rank.scheme],
            _("Solved"): [f"{int(a)}/{int(b)}" for a, b in zip(rank.solved, rank.networks)],
            _("Median sequences to solved"): [
                "—" if not np.isfinite(m) else f"{m:,.0f}" for m in rank.median_to_solved
            ],
            _("Median final loss / baseline"): [f"{r:.3f}" for r in rank.median_final_ratio],
            _("Paper"): [_(SCHEMES[s].paper) for s in rank.scheme],
        }
    )


def before_training(v: dict, large: bool) -> None:
    variant, task, lag = v["variant"], v["task"], v["lag"]
    st.subheader(_("Before any training: what each scheme does at lag {lag}").format(lag=lag))
    st.markdown(
        _(
            "A {gate} at σ(b) keeps σ(b) of the cell's contents a step: after {lag} steps σ(b)^{lag} is left. Its memory "
            "time 1 / (1 − σ(b)) says how many steps a unit remembers. The error flow is the same story told by the "
            "gradient: the exact backward pass of one of the task's sequences, at initialisation."
        ).format(gate=_(keep_gate(variant)), lag=lag)
    )
    got = state.keep_good(PAGE, "before", lambda: before(variant, task, lag, v["seed"]))
    state.report(got)
    if not got.value:
        return
    # one above the other at full width: the memory chart's scheme names take a third of its width
    show(st, af.memory_times(got.value, lag, _(keep_gate(variant)), large), "atlas-memory", variant, lag)
    show(st, af.error_flow(got.value, lag, large), "atlas-flow", variant, task, lag)


def _start_cell(values: dict) -> None:
    try:
        work = CellWork(
            GRID, values["variant"], values["task"], values["lag"], values["scheme"], values["seed"]
        )
    except state.USER_ERRORS as e:
        state.flash(PAGE, _("Cannot train this cell: {why}").format(why=core_errors.translate(e)))
        return
    label = _("{scheme}, seed {seed}").format(scheme=af.scheme_label(values["scheme"]), seed=values["seed"])
    jobs.start(PAGE, "cell", jobs.Job(work, label, _cell_settings(values)))


def _cell_settings(v: dict) -> dict:
    """What a live cell depends on (the framework shown below it does not)."""
    return {k: v[k] for k in ("variant", "task", "lag", "scheme", "seed")}


def live_cell(doc: dict, v: dict, large: bool) -> None:
    st.subheader(_("Train one cell live"))
    variant, scheme = v["variant"], v["scheme"]
    if _no_meaning(variant, scheme):
        return
    st.caption(
        _(
            "The network the atlas trained for **{scheme}**, seed {seed}, trained here the same way: its curve should "
            "retrace the atlas's."
        ).format(scheme=af.scheme_label(scheme), seed=v["seed"])
    )
    job = jobs.get(PAGE, "cell")
    running = job is not None and job.running
    b1, b2, _rest = st.columns([1.4, 1, 2], vertical_alignment="center")
    actions.button(
        b1, PAGE, _("Train this cell"), state.wkey(PAGE, "train_cell"), _start_cell, (dict(v),),
        type="primary", icon=":material/play_arrow:", disabled=running,
    )  # fmt: skip
    actions.button(
        b2, PAGE, _("Stop"), state.wkey(PAGE, "stop_cell"), jobs.stop, (PAGE, "cell"),
        icon=":material/stop:", disabled=not running,
    )  # fmt: skip
    actions.page_witness(PAGE)  # presses never lost (app/ui/actions.py)
    jobs.settings_note(job, _cell_settings(v), _("Train this cell"))

    def draw(job: jobs.Job | None) -> None:
        if job is None:
            return
        w: CellWork = job.work
        at, members = atlas.curves(doc, w.variant, w.task, w.lag)
        row = members[(members.scheme == w.scheme) & (members.seed == w.seed)]
        rec = list(row.curve.iloc[0]) if len(row) else []
        show(st, af.live_cell(at, rec, w.at, w.curve, doc["grid"]["margin"], large), "atlas-live")
        if w.curve:
            st.caption(
                _("So far the same as the atlas's record, to the 5 digits it keeps.")
                if same_as_atlas(w, rec)
                else _("This run differs from the atlas's record (another machine's last bits can do that).")
            )

    jobs.live(PAGE, "cell", draw)


def _on_upload() -> None:
    up = st.session_state.get(FILE_KEY)
    if up is None:
        return
    data = up.getvalue()
    try:
        got = export.read_model_file(data, up.name)
    except ValueError as e:
        state.flash(
            PAGE,
            _("Could not read {name}: {why}.").format(name=up.name, why=core_errors.translate(e)),
            where="check",
        )
        return
    state.page_state(PAGE)["uploaded"] = {
        "name": up.name,
        "digest": hashlib.sha256(data).hexdigest()[:16],
        "model": got,
    }


def your_model(v: dict, large: bool) -> None:
    st.subheader(_("Check my model's initialisation"))
    st.file_uploader(
        _("A PyTorch nn.LSTM or nn.GRU state_dict (.safetensors or .npz)"),
        type=["safetensors", "npz"],
        key=FILE_KEY,
        on_change=_on_upload,
        max_upload_size=max(1, limits.MAX_MODEL_BYTES // 1_000_000),
        help=_("Saved with safetensors or np.savez, before training: its biases are read, never pickle."),
    )
    state.show_flashes(PAGE, "check")
    up = state.page_state(PAGE).get("uploaded")
    if up is None:
        return
    c = check_loaded(up["model"], v["lag"])
    gate = _(keep_gate(c.variant))
    st.markdown(
        _(
            "**{name}** ({variant}, {H} units): {reaching} of {H} units remember at least {lag} steps (memory time "
            "≥ the lag); the median memory time is {median:.3g} steps."
        ).format(
            name=up["name"],
            variant=_(lc.variant(c.variant).title),
            H=len(c.memory_times),
            reaching=c.reaching,
            lag=c.lag,
            median=float(np.median(c.memory_times)),
        )
    )
    if c.pitfall is not None:
        st.warning(
            _(
                "The two-vector pitfall: bias_ih and bias_hh both carry a {gate} bias ({a:.3g} and {b:.3g}). PyTorch adds "
                "them, so the gate sees {total:.3g} — not the {a:.3g} a recipe meant."
            ).format(gate=gate, a=c.pitfall[0], b=c.pitfall[1], total=c.pitfall[0] + c.pitfall[1])
        )
    show(st, af.uploaded(c.memory_times, c.lag, gate, large), "atlas-upload", up["digest"])


def take_home(v: dict) -> None:
    st.subheader(_("Take it home"))
    variant, scheme = v["variant"], v["scheme"]
    SCHEMA["framework"].render(PAGE)
    if _no_meaning(variant, scheme):
        return
    st.caption(_("{scheme}: {sets} ({paper}).").format(scheme=af.scheme_label(scheme), sets=_(SCHEMES[scheme].sets),
                                                     paper=_(SCHEMES[scheme].paper)))  # fmt: skip
    if lc.variant(variant).memory_cell:
        st.caption(
            _(
                "The 1997 family has no counterpart in these frameworks: this is the modern LSTM's code, whose gates take the same scheme."
            )
        )
    t_max = atlas.t_max(v["lag"]) if SCHEMES[scheme].needs_t_max else None
    code = snippet(v["framework"], scheme, variant, GRID.hidden, v["seed"], t_max)
    st.code(code, language="python")
