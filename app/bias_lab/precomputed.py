"""Bias lab: show a sweep precomputed on a cluster (``python -m lstm_core.sweep --out FILE``).

A teacher trains a grid larger than the page's caps ahead of class and loads the results file
here; the heat maps are the same figures a sweep trained in the browser gets. The file is
validated by ``lstm_core.sweeps.cli.load_results``; a rejected file gets its message next to the
uploader and whatever was shown before stays.
"""

from __future__ import annotations

import json

import streamlit as st

from app.bias_lab import heatmap
from app.bias_lab.settings import Lazy
from app.i18n import N_, _
from app.i18n.core_errors import translate
from app.ui import figures, live, paths, saving, state
from lstm_core.sweeps.cli import MAX_FILE_BYTES, SweepResults, load_results

PAGE = "bias_lab"
ROOT = paths.DOCS.parent
# Made by `make bias-baseline` (python -m lstm_core.sweep … --out docs/bias_baseline.json).
BASELINE = paths.DOCS / "bias_baseline.json"
UPLOAD_KEY = state.wkey(PAGE, "precomputed_upload")


def _load() -> None:
    """Uploader callback: validate, then keep (or keep the previous file and say why)."""
    ps, up = state.page_state(PAGE), st.session_state.get(UPLOAD_KEY)
    if up is None:
        return
    try:
        ps["precomputed"] = (up.name, load_results(up.getvalue()))
        ps.pop("precomputed_error", None)
    except ValueError as e:
        ps["precomputed_error"] = Lazy(
            N_("Could not load {name}: {why}. The sweep shown before is kept.")
            if "precomputed" in ps
            else N_("Could not load {name}: {why}. Nothing was changed."),
            name=up.name,
            why=Lazy(str(e), lambda _english, e=e: translate(e)),  # the error's template, translated
        )


def draw_results(res: SweepResults, title: str, key: str) -> None:
    """A results file's heat maps (success rate, median sequences to criterion) and what it holds."""
    s = res.settings
    x, y = res.axis("x"), res.axis("y")
    st.markdown(
        _(
            "{title}: {n} networks — {variant} on {task}, {algorithm}, lr {lr}, budget {budget} sequences, "
            "{seeds} seeds per setting."
        ).format(
            title=title,
            n=f"{len(res.results):,}",
            variant=figures.variant_label(s["base"]["variant"]),  # the titles, not the code names
            task=figures.task_label(s["task"]),
            algorithm=s["train"]["algorithm"].upper(),
            lr=f"{s['train']['lr']:g}",
            budget=f"{res.budget:,}",
            seeds=len(s["seeds"]),
        )
    )
    large = state.large_fonts()
    kw = dict(x_title=_(x.title), y_title=_(y.title) if y is not None else "", large=large, budget=res.budget)
    left, right = figures.pair(large)
    for where, metric in ((left, "success"), (right, "median")):
        fig, alt = heatmap.sweep_heatmap(
            res.cells(),
            res.labels("x"),
            res.labels("y"),
            metric=metric,
            uirevision=f"bias-{key}-{metric}",
            clickable=False,
            **kw,
        )
        live.chart(
            where,
            fig,
            state.wkey(PAGE, f"{key}_heat_{metric}"),
            alt,
            config=saving.config(f"bias-{key}-{metric}", s["base"]["variant"], s["task"], only_save=True),
        )
        where.caption(alt)


@st.cache_data(max_entries=2, show_spinner=False)
def _baseline(mtime: float) -> SweepResults:
    return load_results(BASELINE.read_bytes())


def baseline() -> None:
    """Until the user trains a grid: the committed baseline sweep, labelled as precomputed."""
    try:
        res = _baseline(BASELINE.stat().st_mtime)
    except (OSError, ValueError) as e:
        st.info(_("No baseline sweep to show ({name}: {why}).").format(name=BASELINE.name, why=translate(e)))
        return
    doc = json.loads(BASELINE.read_text())
    if state.presenting():
        st.caption(
            _("**Precomputed baseline, not trained now** ({path}).").format(path=BASELINE.relative_to(ROOT))
        )
    else:
        st.caption(
            _(
                "**Precomputed baseline, not trained now.** Until you train your own grid, this is the committed "
                "result of `{command}` ({path}, {wall} s of training): the same network and task as this page's "
                "defaults, with more seeds and a longer budget."
            ).format(command=doc["command"], path=BASELINE.relative_to(ROOT), wall=f"{doc['wall']:.0f}")
        )
    draw_results(res, _("**Baseline sweep**"), "baseline")


def _clear() -> None:
    for k in ("precomputed", "precomputed_error"):
        state.page_state(PAGE).pop(k, None)


def section() -> None:
    """The uploader (in an expander, open while a file is shown or an error is pending) and the heat maps."""
    ps = state.page_state(PAGE)
    loaded, error = ps.get("precomputed"), ps.get("precomputed_error")
    with st.expander(
        _("Load a precomputed sweep (python -m lstm_core.sweep)"), expanded=bool(loaded or error)
    ):
        st.caption(
            _(
                "A results file written by `python -m lstm_core.sweep … --out sweep.json` (any size, e.g. "
                "trained overnight on a Dask cluster) is drawn here like a sweep trained on this page."
            )
        )
        st.file_uploader(
            _("Sweep results (JSON)"),
            type=["json"],
            key=UPLOAD_KEY,
            on_change=_load,
            max_upload_size=max(1, MAX_FILE_BYTES // 1_000_000),
        )
        if error:
            st.error(str(error))
        if loaded is None:
            return
        name, res = loaded
        draw_results(res, f"**{name}**", "file")
        st.button(
            _("Clear the loaded sweep"),
            key=state.wkey(PAGE, "precomputed_clear"),
            on_click=_clear,
            icon=":material/delete:",
        )
