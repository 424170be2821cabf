"""Bias lab: show a sweep precomputed on a cluster (``python -m lstm_core.sweep --out FILE``).

A teacher trains a grid larger than the page's caps ahead of class and loads the results file
here; the heat maps are the same figures a sweep trained in the browser gets. The file is
validated by ``lstm_core.sweep_cli.load_results``; a rejected file gets its message next to the
uploader and whatever was shown before stays.
"""
from __future__ import annotations

import streamlit as st

from app.bias_lab import figures as lab_figures
from app.ui import figures, state
from lstm_core.sweep_cli import MAX_FILE_BYTES, load_results

PAGE = "bias_lab"
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
        ps["precomputed_error"] = f"Could not load {up.name}: {e}. " + (
            "The sweep shown before is kept." if "precomputed" in ps else "Nothing was changed.")


def _clear() -> None:
    for k in ("precomputed", "precomputed_error"):
        state.page_state(PAGE).pop(k, None)


def section() -> None:
    """The uploader (in an expander, open while a file is shown or an error is pending) and the heat maps."""
    ps = state.page_state(PAGE)
    loaded, error = ps.get("precomputed"), ps.get("precomputed_error")
    with st.expander("Load a precomputed sweep (python -m lstm_core.sweep)", expanded=bool(loaded or error)):
        st.caption("A results file written by `python -m lstm_core.sweep … --out sweep.json` (any size, e.g. "
                   "trained overnight on a Dask cluster) is drawn here like a sweep trained on this page.")
        st.file_uploader("Sweep results (JSON)", type=["json"], key=UPLOAD_KEY, on_change=_load,
                         max_upload_size=max(1, MAX_FILE_BYTES // 1_000_000))
        if error:
            st.error(error)
        if loaded is None:
            return
        name, res = loaded
        s = res.settings
        x, y = res.axis("x"), res.axis("y")
        x_labels, y_labels = res.labels("x"), res.labels("y")
        cells = res.cells()
        st.markdown(f"**{name}**: {len(res.results):,} networks — {s['base']['variant']} on {s['task']}, "
                    f"{s['train']['algorithm'].upper()}, lr {s['train']['lr']:g}, budget {res.budget:,} sequences, "
                    f"{len(s['seeds'])} seeds per setting.")
        large = state.large_fonts()
        kw = dict(x_title=x.title, y_title=y.title if y is not None else "", large=large, budget=res.budget)
        left, right = figures.pair(large)
        for where, metric in ((left, "success"), (right, "median")):
            fig, alt = lab_figures.sweep_heatmap(cells, x_labels, y_labels, metric=metric,
                                                 uirevision=f"bias-file-{metric}", **kw)
            where.plotly_chart(fig, key=state.wkey(PAGE, f"file_heat_{metric}"), width="stretch", alt=alt,
                               config={"displayModeBar": False})
            where.caption(alt)
        st.button("Clear the loaded sweep", key=state.wkey(PAGE, "precomputed_clear"), on_click=_clear,
                  icon=":material/delete:")
