"""Train and watch: the live part of the page — buttons, status, the fast fragment (loss and
criterion curves, redrawn every tick) and the slow one (probe gates, states, outputs and
gradient norms).

The live part is a fragment of its own (``live_part``) holding the buttons and the two timed
fragments. Why: a click on Start or Pause then reruns only it — not the sidebar's ~30 widgets and
the rest of the page — and it re-declares its two fragments with the timers the new status needs.
Measured (docs/benchmarks.md, issue 33): a class of 30 pressing Start at once queued 30 full page
runs in one interpreter (~2.1 s until the last one showed "Pause"). Streamlit (1.67) sets a nested
fragment's timer when its parent declares it, and cancels it only when the parent's rerun no longer
declares that fragment; so the ticking and the still versions are two fragments (``_curves_ticking``
/ ``_curves_still``, ``_inside_ticking`` / ``_inside_still``: a fragment's identity is its function's
name and its place), drawn at the same place.
"""

from __future__ import annotations

import streamlit as st

from app.cells import families
from app.i18n import N_, _
from app.train import feed as train_feed
from app.train import figures as train_figures
from app.train import live_run, live_state
from app.train.controls import press, witnessed
from app.train.settings import PAGE, SCHEMA
from app.train.status import status_box
from app.ui import actions, feeds, figures, form, live, saving, slots, state, words

# The fragment timer's period while training (the browser asks for a tick this often, however long
# a tick takes). At 0.02 s, shorter than a tick (~35 ms), the requests queued back to back and the
# browser, on the same two cores in benchmarks/live_speed.py, showed 4-12 loss updates/s from run to
# run; at 0.04 s 9-11 (five runs) for the same ~700-760 sequences/s; at 0.05 s 14-16 but ~520 sequences/s.
TICK_EVERY = 0.04
SLOW_EVERY = 1.0  # seconds between redraws of the probe and gradient charts while training
LOSS_NAMES = {"ce": N_("cross-entropy"), "mse": N_("squared error")}
LOSS_FORMULAS = {"ce": N_("cross-entropy of the softmax outputs"), "mse": N_("½ Σ (y − target)²")}
# how the gradient chart's gradient was computed, by training algorithm
GRADIENT_HOW = {
    "rtrl": N_("the 1997 truncated gradient: error flows back only through the cell state"),
    "bptt": N_("exact backpropagation through time"),
    "tbptt": N_("backpropagation cut after k = {k} steps"),
}


def buttons(run: live_run.LiveRun, has_a: bool) -> None:
    """The run's buttons in one row, every press witnessed (``app/ui/actions.py``)."""
    # One row of buttons each as wide as its label (fixed column widths cut "Clear run A" to
    # "Clear ru…" with large fonts at 1280 × 720); on a narrow window the row wraps.
    row = st.container(horizontal=True, gap="small")
    s = live_state.get()
    s.buttons_status = run.status  # the live part checks it (curves)
    specs = _button_specs(run, s, has_a)
    for name, (text, icon, action, disabled, help, primary) in specs.items():
        row.button(
            text,
            key=state.wkey(PAGE, name),
            type="primary" if primary else "secondary",
            icon=f":material/{icon}:",
            args=(action,),
            on_click=press,
            width="content",
            disabled=disabled,
            help=help,
        )
    actions.witness(
        PAGE,
        {
            state.wkey(PAGE, name): {"action": spec[2], "run": run.name, "label": spec[0]}
            for name, spec in specs.items()
        },
        witnessed,
    )


def _button_specs(run: live_run.LiveRun, s: live_state.TrainState, has_a: bool) -> dict[str, tuple]:
    """Button name -> (label, icon, action, disabled, help, primary) for the run's status."""
    # One button (one key: Streamlit's button identity is its key) that turns from Start to Pause, Resume
    # and Start again. Why not one button per status: a click's fragment run replaces the clicked button by
    # another element, and when a chart fragment's timer run lands right behind it (a busy machine) the
    # browser kept the clicked "Pause" beside the new "Resume" while it had the focus; the next click
    # elsewhere removed it, the row slid left under the pointer and the click fell on the next button
    # (seen in CI). One element is updated in place, and the keyboard focus stays on it.
    # Space starts, pauses and resumes: bound in pages/train.py by app/ui/keys.py, which clicks the button
    # (Streamlit's own shortcut calls the button's handler without a click, which the witness cannot see).
    # Primary in every status: a change of type draws another HTML button, which loses the focus. (So
    # does the help text, kept for "Start again" only: shown while the button has the focus, a tooltip
    # on Pause and Resume would cover the page above them for as long as one trains.)
    label, icon, action = {
        "idle": (N_("Start"), "play_arrow", "start"),
        "paused": (N_("Resume"), "play_arrow", "start"),
        "running": (N_("Pause"), "pause", "pause"),
    }.get(run.status, (N_("Start again"), "replay", "again"))
    if s.superseded and run.status != "running":
        label, icon, action = N_("Start a new run"), "replay", "again"  # the settings changed since this run
    return {
        "go": (
            _(label),
            icon,
            action,
            False,
            _("A new run from scratch with the current settings.") if action == "again" else None,
            True,
        ),
        "stop": (_("Stop"), "stop", "stop", run.finished or run.status == "idle", None, False),
        # enabled while running though no curve exists yet: these buttons are drawn at the click that
        # started the run and not again until the next click
        "keep_a": (
            _("Keep as run A"),
            "compare_arrows",
            "keep_a",
            not (len(run.curves) or run.active),
            _("Keep this run's curves; the next run is drawn over them."),
            False,
        ),
        "clear_a": (_("Clear run A"), "delete", "clear_a", not has_a, None, False),
        "back": (
            _("Back to the previous run"),
            "undo",
            "back",
            s.previous is None,
            _(
                "The run “Start again” replaced comes back, with its settings; this one becomes the "
                "previous run."
            ),
            False,
        ),
    }


# ----------------------------------------------------------------------------- the live part
def live_part(large: bool) -> None:
    """The buttons and the two charts' fragments (a fragment itself: see above). Nothing else: every
    element here is sent again with each click."""
    s = live_state.get()
    if s.restart or s.full_run:
        s.full_run = False
        st.rerun()  # "Start again" (a new run is built from the settings) or "Back …": the whole page
    run = s.run
    buttons(run, s.run_a is not None)
    if run.active:
        if s.every is None:  # just started: the period the fast fragment will want (``curves``)
            s.started_ticking(
                train_feed.fragment_every() if feeds.served() else slots.tick_every(TICK_EVERY),
                slow=slots.slow_every(SLOW_EVERY),
            )
        st.fragment(_curves_ticking, run_every=s.every)(True, large)
        # waiting for a training slot (app/ui/slots.py): the slow charts wait too
        st.fragment(_inside_ticking, run_every=None if s.queued else s.slow or SLOW_EVERY)(large)
    else:
        s.stopped_ticking()
        st.fragment(_curves_still)(False, large)
        st.fragment(_inside_still)(large)


def _curves_ticking(was_running: bool, large: bool) -> None:
    curves(was_running, large)


def _curves_still(was_running: bool, large: bool) -> None:
    curves(was_running, large)


def _inside_ticking(large: bool) -> None:
    inside(large)


def _inside_still(large: bool) -> None:
    inside(large)


def share_the_server(run: live_run.LiveRun, s: live_state.TrainState) -> int:
    """0 if this run may train this tick, else its place in the server's queue (app/ui/slots.py).
    A run left alone (no click, no setting changed) for ``limits.IDLE_PAUSE_SECONDS`` is paused,
    so a forgotten tab does not keep a share of the server."""
    sid = state.session_id()
    if not run.active:
        slots.release(sid)
        return 0
    if live_state.idle_too_long(s):
        live_run.pause(run)
        slots.release(sid)
        state.flash(
            PAGE,
            _(
                "Paused after {minutes} minutes without a click, to leave the server to others. "
                "“Resume” carries on exactly where it stopped."
            ).format(minutes=f"{s.idle() / 60:.0f}"),
            kind="info",
        )
        st.rerun()
    place = slots.claim(sid)
    if place:
        run.last_tick = None  # waiting in the queue is not training time
    return place


def show(where, chart: tuple, key: str, caption: str, feed: dict | None = None) -> None:
    fig, alt = chart
    # two fields, not SCHEMA.read: that copies the whole session state (Streamlit presents every widget
    # of it), ~0.3 ms, six times in a click's run
    live.chart(
        where,
        fig,
        state.wkey(PAGE, key),
        alt,
        config=saving.config(f"train-{key}", SCHEMA["variant"].read(PAGE), SCHEMA["task"].read(PAGE)),
        feed=feed,
    )
    where.caption(caption)


def curves(was_running: bool, large: bool) -> None:
    """The fast fragment: train one chunk (if running), then the progress bar, loss and criterion.

    It runs every ``TICK_EVERY`` seconds while training: a short chunk of training (about
    ``live_run.TICK_SECONDS``), then the two curves that matter most, as live charts that receive
    only the new points. The probe and gradient charts follow in their own, slower fragment. When
    many runs train on this server at once, each ticks less often and trains less per tick
    (``slots.tick_every`` / ``slots.tick_seconds``), so all of them keep moving.

    Where the server has the live feed (``app/serve.py``) the two charts pull their new points
    themselves and each pull trains a chunk (``app/train/feed.py``); while they do, this fragment
    only redraws every ``train_feed.fragment_every()`` seconds (text, axes) and does not train.
    """
    s = live_state.get()
    run = s.run
    feed = train_feed.feed_for(run, state.session_id(), s)
    place = _tick(run, s, feed, was_running)
    status_box(run, place)
    # the charts' feed, while running: the browser then asks for new points itself
    _curve_charts(run, s.run_a, {"token": feed.token} if run.active else None, large)


def _tick(
    run: live_run.LiveRun, s: live_state.TrainState, feed: train_feed.TrainFeed, was_running: bool
) -> int:
    """This tick's training (unless queued or the feed trains) and the reruns the timing calls for;
    the run's place in the server's queue (0: not queued)."""
    pulled = run.active and train_feed.pulling(feed, s.since)
    place = share_the_server(run, s)
    every = live_state.fast_every(place, pulled, train_feed.fragment_every(), slots.tick_every(TICK_EVERY))
    slow = slots.slow_every(SLOW_EVERY)
    stale = live_state.timers_stale(s, place, every, slow)
    s.queued = place
    if run.active:
        s.every = every
        if stale:
            s.slow = slow
            st.rerun()  # a whole live-part run re-sets both timers
    if place == 0 and not pulled:
        live_run.tick(run, live_run.share(run))
    if was_running and not run.active:
        slots.release(state.session_id())
        st.rerun()  # finished: a full run swaps the buttons and stops both timers
    if live_state.buttons_stale(s, run.status):
        st.rerun()  # redraw them
    return place


def _curve_charts(run: live_run.LiveRun, a, pull: dict | None, large: bool) -> None:
    """The loss and criterion charts (run A's curves under the run's), fed by ``pull`` while running."""
    tr, now = run.trainer, live_run.snapshot(run)
    task = tr.task
    mask = run.probe.mask[:, 0]
    if state.presenting():
        # the projector says what is training (the sidebar is folded away), and both curves sit side
        # by side so they are on screen together at 1366 × 768 (tests/e2e/test_presenter_browser.py)
        st.container(key=state.wkey(PAGE, "what")).markdown(
            _("**{task}** · {network} · {training}").format(
                task=_(task.title or task.name), network=network_words(tr.model.config), training=run.label
            )
        )
        c1, c2 = st.columns(2)
    else:
        st.subheader(_("Training curves"))
        c1, c2 = figures.pair(large)
    loss = "ce" if task.loss == "ce" else "mse"
    show(
        c1,
        train_figures.loss_chart(now, a, loss_name=_(LOSS_NAMES[loss]), large=large),
        "loss",
        _(
            "Mean loss per training sequence since the previous point: {formula} summed over the steps that carry a "
            "target (on the probe sequence {n} of {steps} steps do). It falls as the network learns; flat stretches "
            "are where it has not yet found the long time lag."
        ).format(formula=_(LOSS_FORMULAS[loss]), n=int(mask.sum()), steps=len(mask)),
        feed=pull and {**pull, "y": "loss"},
    )
    fixed = tr.fixed_set is not None
    show(
        c2,
        train_figures.criterion_chart(
            now, a, required=tr.required, reduced=tr.reduced, large=large, fixed_set=fixed
        ),
        "criterion",
        _("Pass criterion: {criterion}.").format(criterion=words.criterion(tr))
        + " "
        + (
            _(
                "The curve is the fraction of the fixed set's {n} sequences the network gets right, measured after "
                "every {every} training sequences. Training stops when it reaches 1."
            ).format(n=f"{tr.required:,}", every=f"{tr.fixed_set.every:,}")
            if fixed
            else _(
                "The curve is the current run of correct training sequences divided by the run the criterion asks "
                "for; it drops to 0 at every mistake. Training stops when it reaches 1."
            )
        ),
        feed=pull and {**pull, "y": "fraction"},
    )


def network_words(cfg) -> str:
    """The network's size in words: blocks × cells for a memory-cell variant, else its units."""
    if "n_blocks" in cfg.record.settings:
        return _("blocks × cells: {blocks} × {cells}").format(blocks=cfg.n_blocks, cells=cfg.block_size)
    return _("units: {n}").format(n=len(families.unit_labels(cfg)))


def inside(large: bool) -> None:
    """The slow fragment (every ``SLOW_EVERY`` s while training, longer when many runs train:
    ``slots.slow_every``): the probe and gradient charts."""
    run = live_state.get().run
    cfg, tr = run.trainer.model.config, run.trainer
    labels = families.unit_labels(cfg)
    unit_key = state.wkey(PAGE, "unit")
    st.session_state[unit_key] = min(int(st.session_state.get(unit_key, 0)), len(labels) - 1)
    head, pick = st.columns([2, 1], vertical_alignment="bottom")
    head.subheader(_("Inside the network: the probe sequence"))
    unit = pick.selectbox(
        _("Block / unit in the gate chart"),
        range(len(labels)),
        format_func=labels.__getitem__,
        key=unit_key,
        persist_state=form.PERSIST,
    )
    probe = run.probe
    gates, states, outputs = train_figures.probe_panels(
        cfg.variant, cfg.block_size, probe, unit, labels[unit], large, tr.task.symbols
    )
    every = (
        " "
        + _("While training, these charts are redrawn every {s} s.").format(
            s=f"{live_state.get().slow or SLOW_EVERY:.2g}"
        )
        if run.active
        else ""
    )
    c3, c4 = figures.pair(large)
    show(
        c3,
        gates,
        "gates",
        _(
            "The network as it is now reads a fixed probe sequence (generated once from the "
            "seed), so the change you see is learning, not new data."
        )
        + " "
        + _(cfg.record.gate_text or cfg.record.no_gates_note)
        + " "
        + train_figures.gate_readout(cfg.variant, cfg.block_size, probe, unit)
        + every,
    )
    show(c4, states, "states", _(cfg.record.state_text))
    c5, c6 = figures.pair(large)
    show(c5, outputs, "outputs", train_figures.outputs_caption(cfg.n_out, tr.task.symbols))
    how = _(GRADIENT_HOW[tr.config.algorithm]).format(k=tr.config.k)
    show(
        c6,
        train_figures.grad_chart(live_run.snapshot(run), large=large),
        "grads",
        _(
            "Norm of the last update's gradient in each parameter group, before clipping ({how}). A group whose "
            "norm collapses gets no learning signal (vanishing); spikes are exploding gradients — clipping caps "
            "them."
        ).format(how=how),
    )
    if run.active:
        st.caption(
            _(
                "Drag over a chart to zoom in: the zoom is kept while training redraws it; double-click to "
                "zoom out again."
            )
        )
