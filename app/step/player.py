"""Step through a cell: the player (cursor, Play/Pause, Back/Forward/Reset) and the panels.

The player is a fragment that, while playing, moves the cursor on a timer and redraws the
diagram, the equations and the four charts below them. Playback follows the clock, not the
number of timer ticks: each tick moves at least one step, and as many as ``speed`` steps per
second since Play say are due, so late ticks (a busy server) catch up instead of slowing down.
The page owns the cursor; the Timestep slider is only read when paused (``slider_key`` says
why). The charts are live charts (``app.ui.live``): a tick sends only the moved cursor, and the
user's zoom stays.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

import streamlit as st

import lstm_core as lc
from app import i18n
from app.cells import common, families
from app.i18n import N_, _
from app.step import diagram, frames, scrub, slowmo
from app.step.settings import DEFAULTS, PAGE, SCHEMA, compute
from app.ui import actions, figures, form, live, previews, run_panels, saving, state, theme
from lstm_core.variants import variant as variant_record

PLAY_KEY = state.wkey(PAGE, "play")
T_KEY = scrub.T_KEY
slider_key = scrub.slider_key
PANEL_NAMES = ("input", "gates", "states", "outputs")  # the four charts' file names (app.ui.saving)
DIAGRAM_KEY = state.wkey(PAGE, "diagram")
PLAY_LABELS = {"play": N_(":material/play_arrow: Play"), "pause": N_(":material/pause: Pause")}


def is_playing() -> bool:
    """The user's intent (the Play/Pause switch). Only the user changes it: a value the server
    rewrote could be undone by a timer tick still carrying the old one."""
    return st.session_state.get(PLAY_KEY) == "play"


def _set_cursor(t: int) -> None:
    scrub.set_cursor(t)


def on_play_change(T: int) -> None:
    """Play or Pause pressed: a new slider epoch (see ``slider_key``); Pause stops on the step the
    page last drew. Play pressed at the end of the sequence plays again from the start."""
    ps = state.page_state(PAGE)
    ps["epoch"] = ps.get("epoch", 0) + 1
    t = int(ps.get("t", st.session_state.get(T_KEY, 1)))
    _set_cursor(1 if is_playing() and t >= T else t)


def move(delta: int | None, T: int) -> None:
    """Back / Forward (delta) or Reset (None) callback: moves the cursor (playing or not)."""
    t = state.page_state(PAGE).get("t", st.session_state[T_KEY])
    _set_cursor(1 if delta is None else min(max(t + delta, 1), T))


def cursor(T: int) -> int:
    """This run's cursor. The page keeps its own (``page_state["t"]``, mirrored in the ``t``
    setting); a different ``t`` setting was written from outside (a shared link, a reset) and
    wins; otherwise the slider's value counts only when paused and only as sent for this epoch's
    slider (``slider_key``): then it is the user's choice."""
    ps = state.page_state(PAGE)
    t, setting, widget = ps.get("t"), st.session_state.get(T_KEY, 1), st.session_state.get(slider_key())
    if t is None or setting != t:  # the setting was written elsewhere (a link, a reset, a clamp)
        t = setting
        ps.pop("clock", None)
        ps["seq"] = ps.get("seq", 0) + 1  # the browser's transport takes it
    elif (
        not is_playing()
        and widget is not None
        and widget != t
        and widget != ps.get("slider_drawn")
        and scrub.reported() is None
    ):
        # a value the slider was not drawn with: the user moved it. Where the browser's transport runs
        # (it has reported a step), Streamlit's slider is hidden and only sends back values it was drawn
        # with — not always the last one: a request sent before a run's new value reached the browser
        # carries an older one — so there its value is never a move. (The likely way, under load, a file
        # upload after three Back clicks took the cursor from step 4 back to 6: not reproduced alone.)
        t = widget
        ps.pop("clock", None)
    return min(max(int(t), 1), T)


def advance(t: int, T: int, speed: float, now: float, clock: tuple | None) -> tuple[int, tuple]:
    """The playback cursor at a timer tick at time ``now``: one step on, or further if the clock
    says more are due (``speed`` steps per second since the clock's start) — a tick that comes
    late (a busy server) catches up instead of slowing the playback down.

    ``clock`` is (start step, start time, speed, last step shown); it restarts at ``t`` when
    there is none, the speed changed or the cursor was moved by hand (``t`` is not the step it
    last showed). Returns the new step (at most ``T``) and the clock to keep."""
    if clock is None or clock[2] != speed or clock[3] != t:
        clock = (t, now, speed, t)
    t0, since, _, _ = clock
    new = min(T, max(t + 1, t0 + math.floor((now - since) * speed + 1e-9)))
    return new, (t0, since, speed, new)


def player(
    cfg: lc.ModelConfig, data: dict, labels: list[str], large: bool, speed: float, preview: bool = False
) -> None:
    """Everything that depends on the cursor; run as a fragment (the cursor follows the clock).
    ``preview``: the charts redraw for a sidebar slider's new value ahead of the page's run
    (``app.ui.previews``; the network built from the settings, not an uploaded one)."""
    ps = state.page_state(PAGE)
    T = data["xs"].shape[0]
    t = cursor(T)
    if is_playing() and t < T:  # the server's playback (a page without the browser's transport)
        t, ps["clock"] = advance(t, T, speed, time.monotonic(), ps.get("clock"))
        ps["seq"] = ps.get("seq", 0) + 1
    else:
        ps.pop("clock", None)
    if t != ps.get("t"):
        ps["seq"] = ps.get("seq", 0) + 1  # clamped to a shorter run
    st.session_state[T_KEY] = st.session_state[slider_key()] = ps["t"] = t
    # The timer runs only while playing and not at the end; when that changes, a full rerun
    # re-arms or stops it (the user's Play/Pause switch itself is never rewritten).
    if ps.get("armed") != (is_playing() and t < T):
        st.rerun()
    browser_slot = st.container()  # the browser's transport, drawn once slow motion's state is known
    with st.container(key=scrub.SERVER_TRANSPORT):
        _transport(t, T)
        if is_playing() and t >= T:
            st.caption(_("End of the sequence: press Reset or Back to play again from there."))
    presenting = state.presenting()  # the block picker and slow motion's switch are in the page's row
    unit = int(st.session_state.get(state.wkey(PAGE, "unit"), 0)) if presenting else unit_picker(labels, st)
    snap = families.snapshot(cfg, data["internals"], t - 1, unit, data["params"])
    names = [_(n) for n in slowmo.OPS]
    op = slowmo.controls_row(
        cfg,
        t,
        T,
        is_playing(),
        _set_cursor,
        with_switch=not presenting,
        browser=lambda where, op: scrub.ops(where, op, names, t, T, ps.get("op_seq", 0)),
    )
    actions.page_witness(PAGE)  # after the page's buttons (this fragment holds all of them)
    # Timesteps move in the browser, except in slow motion: there its operations do, within the step.
    run = run_frames(cfg, data, large, unit) if op is None else op_frames(cfg, data, large, unit, t)
    scrub.transport(browser_slot, t, T, ps.get("seq", 0), speed, op is None, PLAY_LABELS)
    figs = cursor_figures(cfg, data, large, t, unit, op, snap)
    # Not while playing: the cursor moves on, and each tick would re-send the sliders' list with every chart.
    build = lambda v: cursor_figures(*compute(v), large, t, unit, op)  # noqa: E731  (reads: what it closes over)
    pv = (
        previews.attach(PAGE, SCHEMA, build, reads=(large, t, unit, op))
        if preview and not is_playing()
        else None
    )
    _diagram_and_equations(cfg, figs, pv, labels[unit], snap, t, op, large, run)
    if op is not None:
        run = None  # the charts below do not change with the operation: the server draws them
    st.caption(_("The dotted line in each chart marks the current step."))
    grid = figures.pair(large) + figures.pair(large)
    for i, key in enumerate(k for k in figs if k != DIAGRAM_KEY):
        fig, alt, config = figs[key]
        figures.show(
            fig,
            alt,
            key,
            grid[i],
            config=config,
            preview=previews.chart_data(pv, key),
            **_framed(run, key, t),
        )
    if not ps.get("armed"):  # while playing, the URL is written by full runs only (no history spam)
        form.finish_page(PAGE, SCHEMA.read(PAGE), DEFAULTS)


def run_frames(cfg: lc.ModelConfig, data: dict, large: bool, unit: int) -> dict:
    """This run's frames for the browser (``app.step.frames``): chart key -> Frames (or None: drawn
    by the server), and "equations" -> each step's LaTeX. Built once per run, unit, size, theme and
    language (kept in the page's state: a cursor move does not build them again)."""
    return _kept("frames", _ident(cfg, data, large, unit), lambda: _run_frames(cfg, data, large, unit))


def _ident(cfg: lc.ModelConfig, data: dict, large: bool, unit: int) -> tuple:
    """What a run's frames depend on: the network, its sequence and outputs, the unit, size, theme
    and language."""
    digest = hashlib.sha1(data["xs"].tobytes() + data["outputs"].tobytes()).hexdigest()
    return (cfg.to_json(), digest, unit, large, theme.dark(), i18n.current())


def _kept(name: str, ident: tuple, build: Any) -> Any:
    """``build()``, kept in the page's state under ``name`` while ``ident`` stays the same (a cursor
    move's page run does not build the frames again)."""
    ps = state.page_state(PAGE)
    kept = ps.get(name)
    if kept is None or kept[0] != ident:
        kept = ps[name] = (ident, build())
    return kept[1]


def _run_frames(cfg: lc.ModelConfig, data: dict, large: bool, unit: int) -> dict:
    T = data["xs"].shape[0]

    def raws(t: int) -> dict:
        figs = cursor_figures(cfg, data, large, t, unit, None)
        return {key: live.raw(fig, config) for key, (fig, _alt, config) in figs.items()}

    # the diagram at every step (its values are the step's own); the charts, whose cursor only moves,
    # from steps 1, 2 and T (frames.linear_frames; read off every step should that not hold)
    some = {t: raws(t) for t in sorted({1, min(2, T), T})}
    out: dict[str, Any] = {}
    for key in some[1]:
        if key == DIAGRAM_KEY:
            steps = [
                some[t][key] if t in some else _diagram_raw(cfg, data, large, t, unit)
                for t in range(1, T + 1)
            ]
            out[key] = frames.figure_frames(steps, live.same)
            continue
        out[key] = frames.linear_frames({t: r[key] for t, r in some.items()}, T, live.same)
        if out[key] is None:
            out[key] = frames.figure_frames([raws(t)[key] for t in range(1, T + 1)], live.same)
    texts = [
        common.latex(families.lines(cfg, families.snapshot(cfg, data["internals"], t, unit, data["params"])))
        for t in range(T)
    ]
    out["equations"] = texts
    out["id"] = hashlib.sha1(
        "".join(f.id for f in out.values() if isinstance(f, frames.Frames)).encode()
    ).hexdigest()[:16]
    return out


def op_frames(cfg: lc.ModelConfig, data: dict, large: bool, unit: int, t: int) -> dict:
    """Slow motion's frames at step ``t``: the diagram and the equations after each operation (the
    cursor of ``scrub.OP_GROUP`` is the operation, 1-based), as ``run_frames`` for the timesteps;
    kept while the step is shown (an operation's page run does not build them again)."""
    ident = (*_ident(cfg, data, large, unit), t)
    return _kept("op_frames", ident, lambda: _op_frames(cfg, data, large, unit, t))


def _op_frames(cfg: lc.ModelConfig, data: dict, large: bool, unit: int, t: int) -> dict:
    snap = families.snapshot(cfg, data["internals"], t - 1, unit, data["params"])
    raws = [_diagram_raw(cfg, data, large, t, unit, op, snap) for op in range(len(slowmo.OPS))]
    diagram = frames.figure_frames(raws, live.same)
    texts = [slowmo.latex(slowmo.stages(cfg, snap), op) for op in range(len(slowmo.OPS))]
    digest = hashlib.sha1(("".join(texts) + (diagram.id if diagram else "")).encode()).hexdigest()[:16]
    return {DIAGRAM_KEY: diagram, "equations": texts, "id": digest, "group": scrub.OP_GROUP}


def _framed(run: dict | None, key: str, at: int) -> dict:
    """``figures.show``'s frames arguments for chart ``key`` at cursor position ``at`` (none: the
    server draws each step)."""
    f = run.get(key) if run else None
    return {"frames": (run.get("group", scrub.GROUP), f), "at": at} if f is not None else {}


def unit_picker(labels: list[str], where: Any, label_visibility: str = "visible") -> int:
    """The block / unit the diagram and the equations show (one widget, drawn by the player, or by
    the page's row of controls when presenting)."""
    return where.selectbox(
        _("Block / unit shown in the diagram and equations"),
        range(len(labels)),
        format_func=labels.__getitem__,
        key=state.wkey(PAGE, "unit"),
        persist_state=form.PERSIST,
        label_visibility=label_visibility,
    )


def _transport(t: int, T: int) -> None:
    """Back / Forward / Reset (witnessed), the timestep slider and the step counter."""
    # The three buttons in one row, each as wide as its label and key hint (← → Home): in fixed
    # columns "Reset" was cut to "R…" with large fonts at 1280 × 720. On a narrow window the row wraps.
    buttons, b4, b5 = st.columns([3.4, 2.9, 1.3], vertical_alignment="bottom")
    row = buttons.container(horizontal=True, gap="small")
    # Witnessed (app/ui/actions.py): a press is applied once, never lost, never run twice by Streamlit.
    actions.expect(PAGE, [state.wkey(PAGE, n) for n in ("back", "fwd", "reset", "op_back", "op_next")])
    # Keys (bound in pages/step.py through app.ui.keys, which clicks): Left / Right a step, Home back to
    # the start; Space is Play/Pause.
    actions.button(
        row, PAGE, _("Back"), state.wkey(PAGE, "back"), move, (-1, T), icon=":material/skip_previous:"
    )
    actions.button(
        row, PAGE, _("Forward"), state.wkey(PAGE, "fwd"), move, (1, T), icon=":material/skip_next:"
    )
    actions.button(
        row, PAGE, _("Reset"), state.wkey(PAGE, "reset"), move, (None, T), icon=":material/replay:"
    )
    if T > 1:
        state.page_state(PAGE)["slider_drawn"] = t
        b4.slider(
            _("Timestep"),
            1,
            T,
            key=slider_key(),
            disabled=is_playing(),
            help=_("Pause to choose a step here; Back and Forward also work while playing."),
            label_visibility="collapsed" if state.presenting() else "visible",
        )
    b5.metric(_("Step"), f"{t} / {T}", label_visibility="collapsed" if state.presenting() else "visible")


def _diagram_and_equations(
    cfg, figs, pv, unit_label: str, snap: dict, t: int, op: int | None, large: bool, run: dict | None
) -> None:
    """The cell diagram beside this step's equations (slow motion: up to operation ``op``)."""
    # On a projector (large fonts) the diagram gets the full width and the equations go below it.
    left, right = (st.container(), st.container()) if large else st.columns([1, 1.1])
    fig, alt, config = figs[DIAGRAM_KEY]
    figures.show(
        fig,
        alt,
        DIAGRAM_KEY,
        left,
        config=config,
        preview=previews.chart_data(pv, DIAGRAM_KEY),
        **_framed(run, DIAGRAM_KEY, t if op is None else op + 1),
    )
    header = _("**{variant} equations at step t = {t}** ({unit})")
    name = _(variant_record(cfg.variant).title)
    with right:
        with st.container(key=scrub.SERVER_EQUATIONS):  # the browser's own below, when it has one
            st.markdown(header.format(variant=name, t=t, unit=unit_label))
            if op is None:
                st.latex(common.latex(families.lines(cfg, snap)))
            else:
                st.latex(slowmo.latex(slowmo.stages(cfg, snap), op))
        if run is not None and op is None:
            scrub.equations(
                st, header.format(variant=name, t="{t}", unit=unit_label), run["equations"], t, run["id"]
            )
        elif run is not None:  # slow motion: the operations of step t
            scrub.equations(
                st,
                header.format(variant=name, t=t, unit=unit_label),
                run["equations"],
                op + 1,
                run["id"],
                group=scrub.OP_GROUP,
            )
        st.caption(families.note(cfg))


def cursor_figures(
    cfg: lc.ModelConfig,
    data: dict,
    large: bool,
    t: int,
    unit: int,
    op: int | None,
    snap: dict | None = None,
) -> previews.Figures:
    """The diagram and the four charts (input, gates, cell states, outputs) at step ``t``: chart key ->
    (figure, alt text, Plotly config). ``op``: slow motion's operation (None: the whole step). The
    player draws these; a slider preview (``app.ui.previews``) builds them for a new setting."""
    labels = families.unit_labels(cfg)
    T = data["xs"].shape[0]
    if not (1 <= t <= T and 0 <= unit < len(labels)):
        raise ValueError(
            f"step {t} or unit {unit} is not in this run"
        )  # i18n: kept (a preview's own check, never shown)
    spec, alt, config = _diagram(cfg, data, large, t, unit, op, snap)
    out = {DIAGRAM_KEY: (figures.make_figure(spec), alt, config)}
    charts = run_panels.step_panels(cfg.variant, cfg.block_size, data, unit, labels[unit], t, large)
    names = PANEL_NAMES if len(charts) == len(PANEL_NAMES) else [f"panel{i + 1}" for i in range(len(charts))]
    for i, (fig, alt) in enumerate(charts):
        out[state.wkey(PAGE, f"panel{i}")] = (
            fig,
            alt,
            saving.config(f"step-{names[i]}", cfg.variant, labels[unit]),
        )
    return out


def _diagram(
    cfg: lc.ModelConfig, data: dict, large: bool, t: int, unit: int, op: int | None, snap: dict | None = None
) -> tuple[dict, str, dict]:
    """The diagram at step ``t`` (slow motion's operation ``op``) as its plain figure dict, alt text and
    Plotly config."""
    label = families.unit_labels(cfg)[unit]
    if snap is None:
        snap = families.snapshot(cfg, data["internals"], t - 1, unit, data["params"])
    if op is None:
        spec, alt = diagram.cell_diagram(cfg, snap, label, t, large)
    else:  # slow motion: only what this step has computed so far, the current operation outlined
        spec, alt = diagram.cell_diagram(
            cfg, slowmo.hidden(cfg, snap, op), label, t, large, highlight=frozenset(slowmo.HIGHLIGHT[op])
        )
    return spec, alt, saving.config("cell-diagram", cfg.variant, label, only_save=True)


def _diagram_raw(
    cfg: lc.ModelConfig,
    data: dict,
    large: bool,
    t: int,
    unit: int,
    op: int | None = None,
    snap: dict | None = None,
) -> dict:
    """The diagram's ``live.raw`` at step ``t`` made from its plain dict (``live.raw_spec``): a run's
    frames read it at every step, and a ``go.Figure`` built and copied at each was most of their cost."""
    spec, _alt, config = _diagram(cfg, data, large, t, unit, op, snap)
    return live.raw_spec(spec, config)
