"""The class as a bias sweep: the teacher hands out one cell of a bias axis to each student's Train
and watch; each finished run lands on the teacher's map, the class's own sweep.

Teacher (class mode, on Train and watch): pick a gate and its bias values, *Hand out cells*. The
cells are the teacher's own settings with that gate's bias at each value. Student *n* gets cell
(n − 1) mod K and, when students outnumber cells, the seed teacher's seed + ⌊(n − 1) / K⌋; their
page opens Train and watch with that cell as a class link (every control group locked, as a link
from ``app.ui.classlink`` does). When their run is solved, runs out of budget or diverges, it is
reported to the class (settings, outcome, sequences, final loss), and the teacher's map fills in:
per cell, how many runs solved the task and their median sequences to criterion. *Show this
run* puts one student's run on the projector, anonymised ("Student 7").
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from app import i18n
from app.bias_lab.heatmap import sweep_heatmap
from app.bias_lab.settings import parse_values
from app.classroom import seat
from app.classroom import view as classroom
from app.classroom.store import ClassRefused
from app.i18n import N_, _
from app.train import live_run
from app.train.settings import CLASS_GROUPS, DEFAULTS, PAGE
from app.ui import classlink, controls, figures, state, urlstate

TAKEN = seat.HANDOUT_TAKEN
NO_AXIS = "none"
CELL = "_class.cell"  # this student's cell: {"id", "cell", "seed", "gate", "value"}


def _handout(view: Any) -> dict | None:
    h = (view.state.get("handout") if view else None) or None
    return h if isinstance(h, dict) and h.get("page") == "train" else None


def axes(handout: dict) -> list[tuple[str, list[float]]]:
    """The hand-out's axes: (gate, values) for x, and for y when two gates are swept (a grid)."""
    out = [(handout["gate"], [float(v) for v in handout["values"]])]
    if handout.get("gate_y"):
        out.append((handout["gate_y"], [float(v) for v in handout["values_y"]]))
    return out


def cell_of(handout: dict, number: int) -> tuple[int, int, dict[str, float]]:
    """Student ``number``'s (cell index, seed, {gate: bias}): round-robin over the cells (x first,
    then y), seeds spread once every cell is taken."""
    ax = axes(handout)
    nx, ny = len(ax[0][1]), len(ax[1][1]) if len(ax) > 1 else 1
    cell = (number - 1) % (nx * ny)
    biases = {ax[0][0]: ax[0][1][cell % nx]}
    if len(ax) > 1:
        biases[ax[1][0]] = ax[1][1][cell // nx]
    return cell, int(handout["seed"]) + (number - 1) // (nx * ny), biases


def cell_values(handout: dict, number: int) -> dict:
    _cell, seed, biases = cell_of(handout, number)
    return {**handout["values_base"], **{f"b_{g}": v for g, v in biases.items()}, "seed": seed}


def take_cell() -> None:
    """A student's Train page, before its frame: a new hand-out becomes this page's class link."""
    s = seat.current()
    if s is None or s.teacher:
        return
    handout = _handout(classroom.store().view(s.code))
    if handout is None or st.session_state.get(TAKEN) == handout["id"]:
        return
    values = {**DEFAULTS, **cell_values(handout, s.number)}
    names = classlink.shared_names(CLASS_GROUPS)
    cfg = {
        **values,
        classlink.LOCK: list(CLASS_GROUPS),
        classlink.TEACHER: urlstate.encode({n: values[n] for n in names}, {n: DEFAULTS[n] for n in names}),
    }
    st.query_params[urlstate.PARAM] = urlstate.encode(cfg, DEFAULTS)  # read as a shared link by the frame
    cell, seed, biases = cell_of(handout, s.number)
    st.session_state[TAKEN] = handout["id"]
    st.session_state[CELL] = {"id": handout["id"], "cell": cell, "seed": seed, "biases": biases}


def attach(run: live_run.LiveRun) -> None:
    """A student's run of their handed-out cell reports itself to the class when it finishes."""
    s, mine = seat.current(), st.session_state.get(CELL)
    if s is None or s.teacher or not mine or run.on_finish is not None:
        return
    v = run.settings
    if v.get("seed") != mine["seed"] or any(v.get(f"b_{g}") != b for g, b in mine["biases"].items()):
        return  # another run (the student changed what the lock allows): not the class's cell
    run.on_finish = partial(
        _report, classroom.store(), s.code, s.secret, dict(mine), v.get("variant"), v.get("task")
    )


CURVE_POINTS = (
    40  # a reported run's loss curve, thinned (the store caps a run's settings at 4,000 characters)
)


def _curve(run: live_run.LiveRun) -> dict[str, list]:
    """The run's loss over sequences, at most CURVE_POINTS points (the last one always kept)."""
    c = live_run.snapshot(run)
    seq, loss = c.data["sequences"], c.data["loss"]
    step = max(1, -(-len(seq) // CURVE_POINTS))
    keep = [i for i in sorted(set(range(len(seq) - 1, -1, -step))) if np.isfinite(loss[i])]
    return {"sequences": [int(seq[i]) for i in keep], "loss": [float(f"{loss[i]:.4g}") for i in keep]}


def _report(store, code: str, token: str, mine: dict, variant: Any, task: Any, run: live_run.LiveRun) -> None:
    last = run.last
    loss = float(last.loss) if last is not None and getattr(last, "loss", None) is not None else None
    try:
        store.post_run(
            code,
            token,
            mine["cell"],
            mine["seed"],
            {
                "handout": mine["id"],
                "biases": mine["biases"],
                "variant": variant,
                "task": task,
                "status": run.status,
                "curve": _curve(run),
            },
            run.status == "solved",
            run.sequences,
            loss,
        )
    except ClassRefused:
        pass  # the class ended meanwhile: nothing to report to


# ---------------------------------------------------------------------------- the teacher
def class_cells_frame(runs: list, handout: dict, numbers: list[int]) -> pd.DataFrame:
    """The class's runs as the Bias lab's per-cell table (``lstm_core.sweeps.aggregate``'s columns):
    a cell's networks are its students; those not reported yet are still training."""
    ax = axes(handout)
    nx, ny = len(ax[0][1]), len(ax[1][1]) if len(ax) > 1 else 1
    k = nx * ny
    rows = []
    for c in range(k):
        done = [r for r in runs if r.cell == c]
        solved = [r.sequences for r in done if r.solved]
        mine = [n for n in numbers if (n - 1) % k == c]
        reported = {r.number for r in done}
        rows.append(
            {
                "i": c % nx,
                "j": c // nx,
                "x": f"{ax[0][1][c % nx]:g}",
                "y": f"{ax[1][1][c // nx]:g}" if len(ax) > 1 else "",
                "networks": max(len(mine), len(done)),
                "solved": len(solved),
                "diverged": sum(1 for r in done if r.settings.get("status") == "diverged"),
                "running": sum(1 for n in mine if n not in reported),
                "success_rate": len(solved) / len(done) if done else np.nan,
                "median_to_criterion": float(np.median(solved)) if solved else np.nan,
                "best_streak": 0,
            }
        )
    return pd.DataFrame(rows)


def cell_label(handout: dict, cell: int) -> str:
    """A cell as its biases: "−2" (one gate) or "−2, 0" (x, y)."""
    ax = axes(handout)
    nx = len(ax[0][1])
    parts = [f"{ax[0][1][cell % nx]:g}"] + ([f"{ax[1][1][cell // nx]:g}"] if len(ax) > 1 else [])
    return ", ".join(parts)


def _hand_out(values: dict) -> None:
    s = seat.current()
    if s is None or not s.teacher:
        return
    gate, text = st.session_state.get("_class.hand_gate"), st.session_state.get("_class.hand_values", "")
    gate_y = st.session_state.get("_class.hand_gate_y") or NO_AXIS
    try:
        biases = parse_values(text, _("the biases to hand out"))
        biases_y = (
            parse_values(st.session_state.get("_class.hand_values_y", ""), _("the second gate's biases"))
            if gate_y != NO_AXIS
            else []
        )
        if gate_y == gate:
            raise ValueError(_("pick two different gates for a grid, or one gate"))
    except ValueError as e:
        state.flash(PAGE, str(e))
        return
    base = {k: v for k, v in values.items() if k not in (classlink.LOCK, classlink.TEACHER)}

    def change(st_: dict) -> None:
        n = int((st_.get("handout") or {}).get("id", 0)) + 1
        st_["handout"] = {
            "id": n,
            "page": "train",
            "gate": gate,
            "values": biases,
            "gate_y": None if gate_y == NO_AXIS else gate_y,
            "values_y": biases_y,
            "seed": int(values["seed"]),
            "values_base": base,
        }
        follow = int((st_.get("follow") or {}).get("n", 0)) + 1
        st_["follow"] = {"n": follow, "path": "train", "cfg": None}  # every student to Train and watch

    try:
        classroom.store().update(s.code, s.secret, change)
    except ClassRefused as e:
        state.flash(PAGE, _(str(e)))


def panel(values: dict, gates: tuple[str, ...]) -> None:
    """The teacher's hand-out controls and the class's map (class mode only)."""
    s = seat.current()
    if s is None or not s.teacher:
        return
    with st.container(border=True, key="class-sweep"):
        st.markdown(
            _(
                "**The class as a bias sweep.** Each student trains one cell: your settings with one gate's bias changed, or two (a grid)."
            )
        )
        left, mid, right = st.columns([1, 2, 1], vertical_alignment="bottom")
        left.selectbox(
            _("Gate"),
            gates,
            format_func=i18n.labels({g: controls.GATE_LABELS[g] for g in gates}),
            key="_class.hand_gate",
        )
        mid.text_input(
            _("Bias values, one cell each"), "0, -1, -2, -3", key="_class.hand_values", max_chars=200
        )
        left.selectbox(
            _("Second gate (a grid)"),
            (NO_AXIS, *gates),
            format_func=i18n.labels(
                {NO_AXIS: N_("— (one axis only)"), **{g: controls.GATE_LABELS[g] for g in gates}}
            ),
            key="_class.hand_gate_y",
        )
        mid.text_input(
            _("Its bias values"),
            "0, -2",
            key="_class.hand_values_y",
            max_chars=200,
            disabled=st.session_state.get("_class.hand_gate_y", NO_AXIS) == NO_AXIS,
        )
        right.button(
            _("Hand out cells"),
            key="_class.hand_out",
            on_click=_hand_out,
            args=(dict(values),),
            type="primary",
            icon=":material/grid_view:",
            width="stretch",
        )
        _class_map()


@st.fragment(run_every=classroom.POLL_S)
def _class_map() -> None:
    s = seat.current()
    if s is None or not s.teacher:
        return
    store = classroom.store()
    handout = _handout(store.view(s.code))
    if handout is None:
        st.caption(_("No cells handed out yet."))
        return
    runs = [r for r in store.runs(s.code, s.secret) if r.settings.get("handout") == handout["id"]]
    ax = axes(handout)
    cells = class_cells_frame(runs, handout, [n for n, _nick in store.members(s.code, s.secret)])
    titles = [_(controls.GATE_LABELS[g]) for g, _v in ax]
    gate_label = " × ".join(titles)
    # the same maps the Bias lab draws for a sweep on the server: solved share and median sequences
    for where, metric in zip(st.columns(2), ("success", "median"), strict=True):
        fig, alt = sweep_heatmap(
            cells,
            [f"{v:g}" for v in ax[0][1]],
            [f"{v:g}" for v in ax[1][1]] if len(ax) > 1 else [],
            x_title=titles[0],
            y_title=titles[1] if len(ax) > 1 else "",
            metric=metric,
            large=state.large_fonts(),
            uirevision=f"class-sweep-{handout['id']}-{metric}",
            clickable=False,
        )
        figures.show(fig, alt, f"class-sweep-{metric}", where, caption=True)
    if runs:
        names = {
            i: _("Student {n}").format(n=r.number) + f" · {cell_label(handout, r.cell)}"
            for i, r in enumerate(runs)
        }
        pick = st.selectbox(
            _("Show this run"),
            list(names),
            format_func=names.get,
            key="_class.show_run",
            index=None,
            placeholder=_("Pick a student's run"),
        )
        if pick is not None:
            r = runs[pick]
            curve = r.settings.get("curve") or {}
            if curve.get("sequences"):
                fig, alt = figures.lines(
                    np.asarray(curve["sequences"], dtype=float),
                    [
                        figures.Series(
                            _("Student {n}").format(n=r.number), np.asarray(curve["loss"], dtype=float)
                        )
                    ],
                    title=_("Student {n}'s loss").format(n=r.number),
                    y=_("loss"),
                    x=_("training sequences"),
                    cursor=None,
                    large=state.large_fonts(),
                    uirevision=f"class-run-{pick}",
                    height=260,
                )
                figures.show(fig, alt, "class-run", st, caption=True)
            st.info(
                _(
                    "**Student {n}** trained the cell {gate} = {bias} (seed {seed}): {outcome} after {seq:,} sequences."
                ).format(
                    n=r.number,
                    gate=gate_label,
                    bias=cell_label(handout, r.cell),
                    seed=r.seed,
                    outcome=_("solved") if r.solved else _("not solved"),
                    seq=r.sequences,
                )
            )
