"""The dark recolouring of finished figures (app/ui/theme.py): backgrounds dark, text light, the
Okabe–Ito colours kept, white text on an open gate kept, the cell diagram's gates dark to blue."""

from __future__ import annotations

import numpy as np

from app.cells.canvas import shade
from app.ui import figures, theme


def luminance(colour: str) -> float:
    if colour.startswith("rgb("):
        r, g, b = (int(c) for c in colour[4:-1].split(","))
    else:
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    lin = lambda v: v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(r / 255) + 0.7152 * lin(g / 255) + 0.0722 * lin(b / 255)


def test_a_line_chart_recoloured_for_the_dark_page():
    t = np.arange(5.0)
    fig, _alt = figures.lines(
        t,
        [figures.Series("a", t, colour_index=0), figures.Series("b", t, colour_index=6)],
        title="T",
        y="y",
        cursor=2.0,
        large=False,
        uirevision="u",
    )
    raw = theme.recolour(fig.to_plotly_json())
    lay = raw["layout"]
    assert luminance(lay["paper_bgcolor"]) < 0.05 and luminance(lay["plot_bgcolor"]) < 0.05
    assert luminance(lay["font"]["color"]) > 0.5
    colours = [t["line"]["color"] for t in raw["data"]]
    assert colours[0] == figures.PALETTE[0]  # Okabe–Ito kept
    assert luminance(colours[1]) > 0.5  # its black is light on the dark page
    assert lay["xaxis"]["gridcolor"] == theme.GRID


def test_the_cell_diagrams_gates_go_from_dark_to_blue_and_keep_white_text():
    raw = theme.recolour(
        {
            "shapes": [{"fillcolor": shade(0.0)}, {"fillcolor": shade(1.0)}, {"fillcolor": "#F2F2F2"}],
            "annotations": [{"font": {"color": "white"}}, {"font": {"color": "black"}}],
        }
    )
    closed, opened, state = (s["fillcolor"] for s in raw["shapes"])
    assert luminance(closed) < 0.05 and opened == "rgb(0,114,178)" and state == theme.BG2
    assert raw["annotations"][0]["font"]["color"] == "white"
    assert luminance(raw["annotations"][1]["font"]["color"]) > 0.5


def test_outside_a_streamlit_run_the_light_figure_is_kept():
    fig = figures.make_figure({"layout": {"paper_bgcolor": "white"}})
    assert theme.dark() is False and theme.for_theme(fig) is fig


def _reported(seen):
    import streamlit as st

    from app.ui import theme as th

    if seen is not None:
        st.session_state[th.SEEN_KEY] = seen
    st.write(f"dark={th.dark()}")


def test_the_watchers_last_report_decides_and_without_one_streamlits_theme_does():
    """``dark()`` reads the watcher's report as its callback kept it (a plain value: reading the
    component's own state would define a class per read, issue 48); no report: Streamlit's theme."""
    from streamlit.testing.v1 import AppTest

    for seen, want in ((True, "dark=True"), (False, "dark=False"), (None, "dark=False")):
        at = AppTest.from_function(_reported, args=(seen,)).run()
        assert not at.exception and at.markdown[0].value == want


def _watcher_reported():
    import streamlit as st

    from app.ui import theme as th

    st.session_state[th.WATCH_KEY] = {"dark": True}  # the watcher's state as its report leaves it
    before = th.dark()
    th._seen()  # the callback its report runs
    st.write(f"{before} -> {th.dark()}")


def test_the_watchers_callback_keeps_its_report_for_dark():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_watcher_reported).run()
    assert not at.exception and at.markdown[0].value == "False -> True"
