"""Train and watch: the live part of the page — buttons, status, the fast fragment (loss and
criterion curves, redrawn every tick) and the slow one (probe gates, states, outputs and
gradient norms)."""
from __future__ import annotations

import time

import streamlit as st

from app.step import equations
from app.ui import figures, form, limits, live, slots, state
from app.train import figures as train_figures
from app.train import settings as train_settings
from app.train import run as train_run
from lstm_core.training.checkset import streak_words

PAGE, SCHEMA, DEFAULTS = train_settings.PAGE, train_settings.SCHEMA, train_settings.DEFAULTS
from app.train.controls import press

TICK_EVERY = 0.02         # pause between the end of one tick and the next while training
QUEUED_EVERY = 1.0        # a queued run only checks its place in the queue, once a second
SLOW_EVERY = 1.0          # seconds between redraws of the probe and gradient charts while training


def buttons(run: train_run.LiveRun, has_a: bool) -> None:
    # One row of buttons each as wide as its label (fixed column widths cut "Clear run A" to
    # "Clear ru…" with large fonts at 1280 × 720); on a narrow window the row wraps.
    row = st.container(horizontal=True, gap="small")
    cols = [row] * 4
    state.page_state(PAGE)["buttons_status"] = run.status    # the live part checks it (curves)
    b = dict(on_click=press, width="content")
    if run.status == "idle":
        cols[0].button("Start", key=state.wkey(PAGE, "start"), type="primary", icon=":material/play_arrow:",
                       args=("start",), **b)
    elif run.status == "paused":
        cols[0].button("Resume", key=state.wkey(PAGE, "resume"), type="primary", icon=":material/play_arrow:",
                       args=("start",), **b)
    elif run.status == "running":
        cols[0].button("Pause", key=state.wkey(PAGE, "pause"), icon=":material/pause:", args=("pause",), **b)
    else:
        cols[0].button("Start again", key=state.wkey(PAGE, "again"), type="primary", icon=":material/replay:",
                       args=("again",), help="A new run from scratch with the current settings.", **b)
    cols[1].button("Stop", key=state.wkey(PAGE, "stop"), icon=":material/stop:", args=("stop",),
                   disabled=run.finished or run.status == "idle", **b)
    cols[2].button("Keep as run A", key=state.wkey(PAGE, "keep_a"), icon=":material/compare_arrows:",
                   args=("keep_a",), disabled=not len(run.curves),
                   help="Keep this run's curves; the next run is drawn over them.", **b)
    cols[3].button("Clear run A", key=state.wkey(PAGE, "clear_a"), icon=":material/delete:", args=("clear_a",),
                   disabled=not has_a, **b)


# ----------------------------------------------------------------------------- the live part
def share_the_server(run: train_run.LiveRun, ps: dict) -> int:
    """0 if this run may train this tick, else its place in the server's queue (app/ui/slots.py).
    A run left alone (no click, no setting changed) for ``limits.IDLE_PAUSE_SECONDS`` is paused,
    so a forgotten tab does not keep a share of the server."""
    sid = state.session_id()
    if not run.active:
        slots.release(sid)
        return 0
    idle = time.monotonic() - ps.get("last_interaction", time.monotonic())
    if idle > limits.IDLE_PAUSE_SECONDS:
        train_run.pause(run)
        slots.release(sid)
        state.flash(PAGE, f"Paused after {idle / 60:.0f} minutes without a click, to leave the server to others. "
                          "“Resume” carries on exactly where it stopped.", kind="info")
        st.rerun()
    place = slots.claim(sid)
    if place:
        run.last_tick = None        # waiting in the queue is not training time
    return place


def status_box(run: train_run.LiveRun, place: int = 0) -> None:
    tr = run.trainer
    budget = tr.config.budget
    streak = int(run.last.streak) if run.last is not None else 0
    # What the user gets, by the wall clock (drawing and other users included): the recent speed
    # while running, the average over the run's running time otherwise.
    if run.active:
        speed = f"{train_run.wall_rate(run):,.1f} sequences/s"
    else:
        speed = f"{train_run.average_rate(run):,.1f} sequences/s on average"
    st.progress(min(run.sequences / budget, 1.0),
                text=f"**{run.sequences:,}** of {budget:,} sequences · {speed} · "
                     f"{streak_words(streak, tr.required, tr.fixed_set is not None)} · "
                     f"{'queued' if place else run.status}")
    msg = tr.message()
    # One slot for the message, drawn whether or not there is one: an element appearing above the
    # charts would shift them in the page and the browser would re-create them (losing the zoom).
    box = st.container()
    if run.status == "solved":
        box.success(f"Stopped at the criterion — {msg}.")
    elif run.status == "budget":
        box.warning(f"Stopped at the budget — {msg}. Raise the budget, or try the paper's settings "
                   "(a preset) or another seed.")
    elif run.status == "diverged":
        box.error(f"Training diverged and was stopped cleanly — {msg}. The learning rate is {tr.config.lr:g}: "
                 "a step that large throws the weights so far that the outputs or gradients overflow. The "
                 "papers use 0.01 – 1; “clip the gradient norm” (Training) caps every step.")
    elif run.status == "stopped":
        box.info(f"Stopped by you after {run.sequences:,} sequences. “Start again” trains a new network from "
                "scratch with the current settings; “Keep as run A” first to compare the two.")
    elif run.status == "paused":
        box.info(f"Paused after {run.sequences:,} sequences — “Resume” carries on exactly where it stopped.")
    elif run.active and place:
        training, _ = slots.load()
        box.info(f"The server is busy: {training} runs are training right now (at most {slots.capacity()} at a "
                 f"time). Your run is queued — position {place} — and starts by itself when a place frees up.")
    elif run.status == "idle" and not state.presenting():
        box.info("Press **Start**. Until then the probe charts show the untrained network.")


def show(where, chart: tuple, key: str, caption: str) -> None:
    fig, alt = chart
    live.chart(where, fig, state.wkey(PAGE, key), alt)
    where.caption(caption)


def curves(was_running: bool, large: bool) -> None:
    """The fast fragment: train one chunk (if running), then the progress bar, loss and criterion.

    It runs every ``TICK_EVERY`` seconds while training: a short chunk of training (about
    ``train_run.TICK_SECONDS``), then the two curves that matter most, as live charts that receive
    only the new points. The probe and gradient charts follow in their own, slower fragment. When
    many runs train on this server at once, each ticks less often and trains less per tick
    (``slots.tick_every`` / ``slots.tick_seconds``), so all of them keep moving.
    """
    ps = state.page_state(PAGE)
    run = ps["run"]
    place = share_the_server(run, ps)
    every = QUEUED_EVERY if place else slots.tick_every(TICK_EVERY)
    ps["queued"] = place
    if run.active and not 0.5 <= every / ps.get("every", every) <= 2.0:   # not for every small change
        ps["every"] = every
        st.rerun()          # queued, or many more / fewer runs training: a full run re-sets the timer
    ps["every"] = every
    if place == 0:
        train_run.tick(run, slots.tick_seconds(train_run.TICK_SECONDS))
    if was_running and not run.active:
        slots.release(state.session_id())
        st.rerun()          # finished: a full run swaps the buttons and stops both timers
    if ps.get("buttons_status", run.status) != run.status:
        # the buttons on screen were drawn for another status: a click's full rerun was lost (seen
        # once in a busy suite run: paused, but "Pause" still showing for 30 s) — redraw them
        st.rerun()
    status_box(run, place)
    tr, a = run.trainer, ps.get("run_a")
    task = tr.task
    mask = run.probe.mask[:, 0]
    if not state.presenting():
        st.subheader("Training curves")
    c1, c2 = figures.pair(large)
    show(c1, train_figures.loss_chart(run.curves, a, loss_name="cross-entropy" if task.loss == "ce" else "squared error",
                           large=large), "loss",
         f"Mean loss per training sequence since the previous point: "
         f"{'cross-entropy of the softmax outputs' if task.loss == 'ce' else '½ Σ (y − target)²'} summed over "
         f"the steps that carry a target (on the probe sequence {int(mask.sum())} of {len(mask)} steps do). "
         "It falls as the network learns; flat stretches are where it has not yet found the long time lag.")
    fixed = tr.fixed_set is not None
    show(c2, train_figures.criterion_chart(run.curves, a, required=tr.required, reduced=tr.reduced, large=large,
                                           fixed_set=fixed), "criterion",
         f"Pass criterion: {tr.criterion}. " + (
             f"The curve is the fraction of the fixed set's {tr.required:,} sequences the network gets right, "
             f"measured after every {tr.fixed_set.every:,} training sequences. Training stops when it reaches 1."
             if fixed else
             "The curve is the current run of correct training sequences divided by the run the criterion asks "
             "for; it drops to 0 at every mistake. Training stops when it reaches 1."))


def inside(large: bool) -> None:
    """The slow fragment (every ``SLOW_EVERY`` s while training): the probe and gradient charts."""
    run = state.page_state(PAGE)["run"]
    cfg, tr = run.trainer.model.config, run.trainer
    labels = equations.unit_labels(cfg)
    unit_key = state.wkey(PAGE, "unit")
    st.session_state[unit_key] = min(int(st.session_state.get(unit_key, 0)), len(labels) - 1)
    head, pick = st.columns([2, 1], vertical_alignment="bottom")
    head.subheader("Inside the network: the probe sequence")
    unit = pick.selectbox("Block / unit in the gate chart", range(len(labels)), format_func=labels.__getitem__,
                          key=unit_key, persist_state=form.PERSIST)
    probe = train_run.probe_view(run)
    gates, states, outputs = train_figures.probe_panels(cfg.variant, cfg.block_size, probe, unit, labels[unit],
                                                        large, tr.task.symbols)
    every = f" While training, these charts are redrawn every {SLOW_EVERY:g} s." if run.active else ""
    c3, c4 = figures.pair(large)
    show(c3, gates, "gates", "The network as it is now reads a fixed probe sequence (generated once from the "
         "seed), so the change you see is learning, not new data. " + (cfg.record.gate_text or cfg.record.no_gates_note)
         + " " + train_figures.gate_readout(cfg.variant, cfg.block_size, probe, unit) + every)
    show(c4, states, "states", cfg.record.state_text)
    c5, c6 = figures.pair(large)
    show(c5, outputs, "outputs", train_figures.outputs_caption(cfg.n_out, tr.task.symbols))
    how = {"rtrl": "the 1997 truncated gradient: error flows back only through the cell state",
           "bptt": "exact backpropagation through time",
           "tbptt": f"backpropagation cut after k = {tr.config.k} steps"}[tr.config.algorithm]
    show(c6, train_figures.grad_chart(run.curves, large=large), "grads",
         f"Norm of the last update's gradient in each parameter group, before clipping ({how}). A group whose "
         "norm collapses gets no learning signal (vanishing); spikes are exploding gradients — clipping caps them.")
    if run.active:
        st.caption("Drag over a chart to zoom in: the zoom is kept while training redraws it; double-click to "
                   "zoom out again.")


def task_notes(run: train_run.LiveRun) -> None:
    task = run.trainer.task
    with st.expander(f"The task: {task.title or task.name} — {task.paper}"):
        st.markdown(f"**Paper setup.** {task.setup}\n\n**Reported result.** {task.reported}\n\n"
                    f"**Criterion here.** {run.trainer.criterion}.")
        p = train_settings.paper_preset(task.name, run.trainer.model.config.variant)
        if p is not None:
            st.caption(f"The preset “{p.title}” loads the paper's settings. {p.notes}")
