"""Light and dark: the figures follow the app's theme.

The app's theme follows the system's light/dark setting, and a user can choose System, Light or
Dark in the app menu (⋮): ``.streamlit/config.toml`` has a ``[theme.light]`` and a
``[theme.dark]`` section and no forced ``base``. Streamlit tells the script which one the browser
shows (``st.context.theme.type``).

The figure builders (``app.ui.figures`` and each page's ``figures.py``) draw for a white page.
:func:`for_theme` recolours a finished figure for the dark page at draw time — backgrounds,
text, grid lines, edges, the palette's black — so the builders stay theme-free and cached
figures serve both themes. The Okabe–Ito colours themselves are kept: they are distinguishable
on the dark background too (its black becomes a light grey, ``FG``).
"""

from __future__ import annotations

import re
from typing import Any

import plotly.graph_objects as go

# The dark theme's colours (also in .streamlit/config.toml's [theme.dark]).
BG = "#10141c"  # the page's (and a chart's paper) background
BG2 = "#1d2430"  # boxes, the cell diagram's closed gates and states
FG = "#e8eaed"  # text and the palette's black
GRID = "#323a47"
# Light colour (upper case, as written in the builders) -> dark colour.
INK = {
    "#000000": FG,
    "BLACK": FG,
    "#222222": FG,
    "#1A1A1A": FG,
    "#2A3F5F": FG,
    "#333333": "#C8CCD2",
    "#444444": "#B8BDC5",
    "#777777": "#9AA0A8",
    "#BBBBBB": "#59616D",
    "#E5E5E5": GRID,
    "#EBF0F8": GRID,
    "#E5ECF6": BG,
    "#C8D4E3": GRID,
    "#F2F2F2": BG2,
    "#F2F4F7": BG2,
    "#D9D9D9": "#4A515C",  # the Bias lab's cells where no network solved
}
PAPER = {"WHITE": BG, "#FFFFFF": BG, "#FFF": BG, "RGBA(255,255,255,0.9)": "rgba(16,20,28,0.9)"}
OPEN = (0x00, 0x72, 0xB2)  # the cell diagram's fully open gate (app.cells.canvas.OPEN)
_RGB = re.compile(r"rgb\((\d+),\s*(\d+),\s*(\d+)\)$")


WATCH_KEY = "gatelab-theme-watch"
# What the watcher last reported, kept as a plain value by its callback (``_seen``): ``dark()`` is
# read by every chart of every run, and reading a keyed ``st.components.v2`` component's state goes
# through Streamlit's presenter, which defines a new class each time (Streamlit 1.67's
# ``make_bidi_component_presenter``) — garbage for the collector's full collections, which paused
# the server 6–37 ms every few seconds during slider notches (issue 48, docs/benchmarks.md).
SEEN_KEY = "_gatelab_theme_seen"
# Streamlit does not rerun when the theme changes (the ⋮ menu, the system at dusk): this script,
# run in the page, looks at the app's background twice a second and, when it has not been what
# the server drew for (data.dark) for 1.5 s, reports it: a rerun, and the charts follow.
WATCH_JS = """
export default function (component) {
  const { data, setStateValue } = component;
  const looksDark = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    const c = (getComputedStyle(app || document.body).backgroundColor.match(/[\\d.]+/g) || [255, 255, 255]).map(Number);
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] < 128;
  };
  // reported once it has differed for 1.5 s: not while the page is still putting its theme on
  let sent = null, ticks = 0;
  const timer = setInterval(() => {
    const d = looksDark();
    ticks = d !== data.dark && d !== sent ? ticks + 1 : 0;
    if (ticks >= 3) { sent = d; ticks = 0; setStateValue('dark', d); }
  }, 500);
  return () => clearInterval(timer);
}
"""
_watch = None


def dark() -> bool:
    """Does this session's browser show the dark theme? What the page reported after a theme
    change (``watch``), else what Streamlit says."""
    import streamlit as st  # here: this module's recolouring is importable without Streamlit

    try:
        seen = st.session_state.get(SEEN_KEY)
    except Exception:  # no script run context
        seen = None
    if seen is not None:
        return bool(seen)
    try:
        return st.context.theme.type == "dark"
    except Exception:  # no script run context (a bare import, a unit test)
        return False


def _gate(value: str) -> str | None:
    """The cell diagram's gate shade, white (closed) to blue (open), as dark grey to blue."""
    m = _RGB.match(value.replace(" ", ""))
    if not m:
        return None
    r, g, b = (int(c) for c in m.groups())
    a = (255 - r) / 255
    if abs(g - (255 + (OPEN[1] - 255) * a)) > 2 or abs(b - (255 + (OPEN[2] - 255) * a)) > 2:
        return None  # not a gate shade: a data colour, kept
    base = tuple(int(BG2[i : i + 2], 16) for i in (1, 3, 5))
    return "rgb({},{},{})".format(*(round(c0 + (c1 - c0) * a) for c0, c1 in zip(base, OPEN)))


def _recolour(v: Any, key: str = "") -> Any:
    if isinstance(v, dict):
        return {k: _recolour(x, k) for k, x in v.items()}
    if isinstance(v, list):
        return [_recolour(x, key) for x in v]
    if isinstance(v, str) and "color" in key.lower():
        up = v.upper().replace(" ", "")
        if up in PAPER:
            # white is a background (paper, plot, a box, an operation's circle); white TEXT (on a
            # dark-blue open gate) stays white
            return v if key == "color" and up in ("WHITE", "#FFFFFF", "#FFF") else PAPER[up]
        if up in INK:
            return INK[up]
        if key == "fillcolor":
            return _gate(v) or v
    return v


def recolour(raw: dict) -> dict:
    """A figure's dict (``fig.to_plotly_json()`` or its parts) recoloured for the dark page."""
    return _recolour(raw)


def for_theme(fig: go.Figure) -> go.Figure:
    """``fig`` as it is for the light theme, recoloured for the dark one."""
    if not dark():
        return fig
    return go.Figure(recolour(fig.to_plotly_json()), _validate=False)


# Page-wide CSS. A displayed equation (KaTeX) scrolls sideways when it is wider than the page (a
# phone), and Chromium also made tall fractions scroll by a pixel or two up and down: a scrolling
# region a keyboard cannot reach (axe-core's scrollable-region-focusable). No vertical scrolling,
# a little room instead (KaTeX's boxes overhang theirs by ~2 px); sideways scrolling stays.
# Captions: Streamlit draws them at 60 % opacity, 4.4:1 on the grey sidebar and 3:1 for code in
# them (its green); at 78 % and in the caption's own colour they keep 4.5:1 (WCAG AA) in both themes.
CSS = (
    ".katex-display { overflow-y: hidden !important; padding: 0.15em 6px 0.25em !important; }"
    '[data-testid="stCaptionContainer"] { opacity: 0.78; }'
    '[data-testid="stCaptionContainer"] code { color: inherit !important; }'
    # A button's keyboard-shortcut hint (Streamlit draws it as a faded <kbd>) was 3.2:1 on the
    # primary button and 4.4:1 on the others (axe-core); in the label's own colour it passes.
    '[data-testid^="stBaseButton"] kbd { color: inherit !important; opacity: 1 !important; }'
)
# The dark theme's primary colour is light (readable as text on the dark page, 7.6:1), so a
# primary button's label is dark on it, not Streamlit's white (2.4:1).
DARK_CSS = (
    '[data-testid="stBaseButton-primary"], [data-testid="stBaseButton-primary"] * '
    "{ color: " + BG + " !important; }"
)


def _seen() -> None:
    """The watcher's report, kept where ``dark()`` reads it (see ``SEEN_KEY``)."""
    import streamlit as st

    st.session_state[SEEN_KEY] = st.session_state[WATCH_KEY].get("dark")


def style() -> None:
    """Add the page-wide CSS (every run, from the entry script: it follows the theme).

    Not a style-only ``st.html``: Streamlit sends that to its event container, from which it was
    gone after the second session's theme rerun (measured: no style element, captions at 60 %).
    A hidden keyed container in the sidebar holds it instead; a ``<style>`` applies wherever it is.
    """
    import streamlit as st

    global _watch
    if _watch is None:
        _watch = st.components.v2.component("gatelab_theme_watch", js=WATCH_JS, isolate_styles=False)
    is_dark = dark()
    with st.sidebar.container(key="gatelab-style"):
        _watch(key=WATCH_KEY, data={"dark": is_dark}, height=0, on_dark_change=_seen)
        st.html(
            "<style>.st-key-gatelab-style, .st-key-gatelab-plotly-preload { display: none; }"
            + CSS
            + (DARK_CSS if is_dark else "")
            + "</style><span></span>"
        )
