"""A Plotly chart that updates in place: one ``st.components.v2`` component per chart.

Why: Streamlit 1.67 hashes a figure into an ``st.plotly_chart`` element's id, so every live
update (a training tick, the Step cursor) mounts a *new* chart — a full redraw that drops the
user's zoom, a drag in progress and the hover. A keyed v2 component keeps its identity while
its data changes (``key_as_main_identity``): the browser keeps one Plotly ``div`` per chart and
this module's script applies each update with ``Plotly.react``. ``layout.uirevision`` (constant
per chart in ``app.ui.figures``) then keeps zoom, pan and hidden traces natively.

Only what changed is sent. The server remembers, per session and chart key, the last whole
figure it sent (the *anchor*); each later message is a *patch* against the anchor when the
figure only grew (points appended to traces) or only some layout keys changed (the Step cursor
moved), and a new whole figure otherwise — or when the patch would be larger than the figure.
Patches are relative to the anchor, not to the previous message, because the browser may skip
intermediate updates (it renders the newest data only); if it does not hold the anchor a patch
names (a reconnect), it asks for the whole figure once (``need_full``).

Plotly.js is plotly's own *cartesian* partial bundle (``app/static/plotly-cartesian.min.js``, the npm
package ``plotly.js-cartesian-dist-min`` at the version the installed plotly package writes figures
for: every trace type Gate Lab draws, scatter and heatmap, is in it), served by Streamlit's static
file serving. Why not the full ``plotly.min.js`` the Python package carries: the browser spends most
of a page's first second evaluating a Plotly bundle, and the full one is 3.2 times larger (4.8 MB
vs 1.5 MB; measured in ``docs/benchmarks.md``). A chart never depends on whether another
``st.plotly_chart`` happened to load Streamlit's own copy first.

Plotly's own words (toolbar buttons, notices) are in the session's language: a Chinese session's
config names the locale (``app.ui.saving.locale``), the script registers plotly.js's own locale file
for it (``locale_file``: ``app/static/plotly-locale-zh-tw.js`` / ``-zh-cn.js``, from the npm package
``plotly.js`` at the bundle's version) before the chart's first draw in that language, and the
config's ``locales`` carries only the words Gate Lab says otherwise (``_own_words``).
"""

from __future__ import annotations

import base64
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.offline import get_plotlyjs_version
from plotly.utils import PlotlyJSONEncoder

from app.i18n import _
from app.ui import feeds, saving, theme

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
PLOTLY_JS = STATIC_DIR / "plotly-cartesian.min.js"
SENT_KEY = "_live.sent"  # session state: chart key -> (revision, figure) last sent
REV_KEY = "_live.rev"  # session state: the last revision number handed out

# One Plotly.js per browser tab, loaded once: by the page's preload (``preload``) or by the first
# chart, whichever comes first; both run this (a chart finds the promise the preload left).
LOADER = r"""(src) => {
  if (!window.__gatelabPlotly) {
    window.__gatelabPlotly = new Promise((ok, bad) => {
      performance.mark('gatelab:plotly-start');
      const before = window.Plotly;
      const s = document.createElement('script');
      s.src = new URL(src, document.baseURI).href;
      s.onload = () => {
        performance.mark('gatelab:plotly-loaded');
        const mine = window.Plotly;
        if (before) window.Plotly = before;        // leave Streamlit's own copy where it was
        ok(mine);
      };
      s.onerror = () => { window.__gatelabPlotly = null; bad(new Error('Plotly.js did not load')); };
      document.head.appendChild(s);
    });
    window.__gatelabPlotly.catch(() => {});          // a failure is shown by the chart waiting on it
  }
  return window.__gatelabPlotly;
}"""

# The component's script (a file of its own: JavaScript, not Python): the placeholders __LOADER__,
# __FILE__, __VERSION__ and __FEED__ are filled in below.
JS = (Path(__file__).resolve().parent / "live_chart.js").read_text(encoding="utf-8")
CSS = ".gatelab-live { width: 100%; }"


def _compact(js: str) -> str:
    """The script without comments and indentation: Streamlit sends a component's inline script
    with every update, so each byte here is paid on every tick of every live chart."""
    out = []
    for line in js.splitlines():
        line = line.strip()
        if " // " in line:  # a trailing comment (the script has no "//" in strings)
            line = line[: line.index(" // ")].rstrip()
        if line and not line.startswith("//"):
            out.append(line)
    return "\n".join(out)


# ?v= is the plotly.js version: the browser may keep the file as long as the URL names it.
PLOTLY_VERSION = get_plotlyjs_version()
_component = st.components.v2.component(
    "gatelab_live_chart",
    js=_compact(
        JS.replace("__LOADER__", LOADER)
        .replace("__FILE__", PLOTLY_JS.name)
        .replace("__VERSION__", PLOTLY_VERSION)
        .replace("__FEED__", feeds.PREFIX)
    ),
    css=CSS,
    isolate_styles=False,
)


def locale_file(name: str) -> Path:
    """plotly.js's locale file for the Plotly locale ``name`` ("zh-TW"), where the script loads it from."""
    return STATIC_DIR / f"plotly-locale-{name.lower()}.js"


@functools.cache
def plotly_words(name: str) -> dict[str, str]:
    """The dictionary of plotly.js's own locale file for ``name`` (``var locale={…dictionary:{…},
    format:{…}}``: keys bare or quoted, values quoted with JavaScript escapes); {} without a file."""
    path = locale_file(name)
    if not path.is_file():
        return {}
    src = path.read_text(encoding="utf-8")
    body = src[src.index("dictionary:{") + len("dictionary:{") : src.index("},format:")]

    def text(s: str) -> str:  # a JavaScript string's body: \xNN is \u00NN in JSON
        return json.loads('"' + re.sub(r"\\x([0-9a-fA-F]{2})", r"\\u00\1", s) + '"')

    pairs = re.finditer(r'(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_$][\w$]*)):"((?:[^"\\]|\\.)*)"', body)
    return {text(m[1]) if m[1] is not None else m[2]: text(m[3]) for m in pairs}


def _own_words(config: dict) -> dict:
    """``config`` less the words plotly.js's own locale file says the same way: the script registers
    that file, so a live chart carries only what Gate Lab says differently (the glossary's 重設,
    按兩下 …), not all of ``saving.PLOTLY_WORDS`` with every whole figure (~1 kB each; a Step page
    run sends five). ``st.plotly_chart`` keeps the whole dictionary: Streamlit's plotly.js has none."""
    name = config.get("locale")
    words = ((config.get("locales") or {}).get(name) or {}).get("dictionary")
    if not words:
        return config
    known = plotly_words(name)
    own = {w: t for w, t in words.items() if known.get(w) != t}
    out = {k: v for k, v in config.items() if k != "locales"}
    if own:
        out["locales"] = {name: {"dictionary": own}}
    return out


def raw(fig: go.Figure, config: dict | None) -> dict:
    """The figure as a dict whose arrays are private NumPy copies (what the next diff compares), in
    the session's theme and language: what ``chart`` sends."""
    return raw_spec(fig.to_plotly_json(), config)


def raw_spec(spec: dict, config: dict | None) -> dict:
    """``raw`` of the figure a plain dict ``spec`` makes (``figures.make_figure(spec)``), without
    building that figure (a run's frames read a figure at every step); ``spec`` is taken, not copied.
    The same dict as ``raw`` for every figure Gate Lab builds from plain values (tests/test_step_frames.py)."""
    raw = spec
    raw["data"] = [_copy_arrays(t) for t in raw.get("data", [])]
    raw["layout"] = raw.get("layout", {})
    # every live chart speaks the session's language, also one drawn without a saving.config
    raw["config"] = _own_words(
        {
            "displaylogo": False,
            "showSendToCloud": False,
            "responsive": True,
            **saving.locale(),
            **(config or {}),
        }
    )
    return theme.recolour(raw) if theme.dark() else raw


def _copy_arrays(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return v.copy()
    if isinstance(v, dict) and isinstance(v.get("bdata"), str) and "dtype" in v:
        # Plotly 7 hands arrays out as base64 typed arrays; decode them so a diff can compare.
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"])).copy()
        shape = v.get("shape")
        if shape is not None:
            a = a.reshape([int(n) for n in str(shape).split(",")] if isinstance(shape, str) else shape)
        return a
    if isinstance(v, dict):
        return {k: _copy_arrays(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)) and any(isinstance(x, (np.ndarray, dict)) for x in v):
        return [_copy_arrays(x) for x in v]
    return v


def same(a: Any, b: Any) -> bool:
    """Deep equality for figure dicts holding NumPy arrays (NaN equals NaN)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        if a.dtype.kind in "fc" and b.dtype.kind in "fc":
            return bool(np.array_equal(a, b, equal_nan=True))
        return bool(np.array_equal(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _tail(old: Any, new: Any) -> np.ndarray | None:
    """The points ``new`` adds at the end of ``old`` (1-D arrays only), else None."""
    if not isinstance(new, np.ndarray) or new.ndim != 1:
        return None
    old = np.asarray(old) if isinstance(old, (np.ndarray, list, tuple)) else None
    if old is None or old.ndim != 1 or len(new) <= len(old) or not same(old, new[: len(old)]):
        return None
    return new[len(old) :]


def _plain(a: np.ndarray) -> list:
    """A 1-D array as a JSON list; NaN/inf become null (a gap in a Plotly line)."""
    if a.dtype.kind in "fc":
        a = a.astype(float)
        out = a.tolist()
        for i in np.flatnonzero(~np.isfinite(a)):
            out[i] = None
        return out
    return a.tolist()


def diff(old: dict, new: dict) -> dict | None:
    """A patch turning ``old`` into ``new`` (points appended to 1-D trace arrays, top-level layout
    keys replaced), or None when ``new`` is not such a change (then the whole figure is sent)."""
    if len(old["data"]) != len(new["data"]) or not same(old["config"], new["config"]):
        return None
    if old["layout"].keys() - new["layout"].keys():
        return None
    extend: dict[str, dict] = {}
    for i, (a, b) in enumerate(zip(old["data"], new["data"])):
        if a.keys() != b.keys():
            return None
        cols = {}
        for k in b:
            if same(a[k], b[k]):
                continue
            tail = _tail(a[k], b[k])
            if tail is None:
                return None
            cols[k] = tail
        if cols:
            if len({len(v) for v in cols.values()}) != 1:
                return None
            extend[str(i)] = {k: _plain(v) for k, v in cols.items()}
    layout = {
        k: v for k, v in new["layout"].items() if k not in old["layout"] or not same(old["layout"][k], v)
    }
    return {"extend": extend, "layout": json.loads(json.dumps(layout, cls=PlotlyJSONEncoder))}


@dataclass(frozen=True)
class Anchor:
    """The last whole figure sent for a chart: every patch is relative to it (not to the previous
    message), so a browser that skipped some updates can still apply the newest one."""

    rev: int
    raw: dict
    size: int  # characters of its JSON: a patch larger than this is not worth it
    frames: str | None = None  # the id of the run's frames sent with it (``app.step.frames``)


def _forget(key: str) -> None:
    st.session_state.get(SENT_KEY, {}).pop(key, None)


def _text(raw: dict) -> str:
    """A whole figure as sent: Plotly's own encoding (arrays as base64 typed arrays), compact."""
    return json.dumps(raw, cls=PlotlyJSONEncoder, separators=(",", ":"))


def full_text(fig: go.Figure, config: dict | None = None) -> str:
    """The text ``chart`` sends for ``fig`` whole (a slider preview sends the same: ``app/ui/previews.py``)."""
    return _text(raw(fig, config))


def chart(
    where: Any,
    fig: go.Figure,
    key: str,
    alt: str,
    config: dict | None = None,
    feed: dict | None = None,
    preview: dict | None = None,
    frames: tuple[str, Any] | None = None,
    at: int | None = None,
) -> None:
    """Draw ``fig`` under ``key`` in ``where`` (a container or ``st``), updating in place;
    ``config`` is Plotly's (e.g. ``{"displayModeBar": False}``). ``feed`` (``{"token": …, "y": …}``,
    see ``app/ui/feeds.py``): the browser also appends the feed's points (its ``x`` and column ``y``)
    to the figure's last trace as they come, between two figures from here. ``preview``
    (``previews.chart_data``): the browser redraws the chart for a page slider's new value before
    the page's run (``app/ui/previews.py``). ``frames`` (group, ``app.step.frames.Frames``) with ``at``,
    the step ``fig`` shows: the browser shows the step of the group's cursor itself; while the run's
    frames stay the same, a page run sends only their id, not the figure again."""
    anchors = st.session_state.setdefault(SENT_KEY, {})
    anchor = anchors.get(key)
    # Revisions count up for the whole session (never reset), so a browser never mistakes a new
    # figure for one it already holds.
    rev = st.session_state[REV_KEY] = st.session_state.get(REV_KEY, 0) + 1
    msg: dict[str, Any] = {"rev": rev, "alt": alt, "failed": _("This chart could not be drawn: {why}")}
    if feed:
        msg["feed"] = feed
    if preview:
        msg["preview"] = preview
    if frames is not None and anchor is not None and anchor.frames == frames[1].id:
        # the same run at another step: the browser's cursor shows it; nothing to build or send
        msg.update(base=anchor.rev, frame=anchor.frames)
        raw_fig = anchor.raw
    else:
        raw_fig = raw(fig, config)
        patch = diff(anchor.raw, raw_fig) if anchor is not None and frames is None else None
        if patch is not None:
            text = json.dumps(patch, separators=(",", ":"))
            if len(text) <= anchor.size:  # else the whole figure is smaller: send it, re-anchor
                msg.update(base=anchor.rev, patch=text)
        if "patch" not in msg:
            msg["full"] = _text(raw_fig)
            anchors[key] = Anchor(rev, raw_fig, len(msg["full"]), frames[1].id if frames else None)
            if frames is not None:
                msg.update(frames={**frames[1].message(), "group": frames[0]}, at=at)
    height = int(raw_fig["layout"].get("height") or 300)
    mount = dict(key=key, data=msg, height=height, on_need_full_change=lambda: _forget(key))
    if where is None or where is st:
        _component(**mount)
    else:
        with where:
            _component(**mount)


def preload() -> None:
    """Start loading Plotly.js now, before the page's first chart is built. Not through the chart
    component: a component's script is imported only once the browser has rendered the page's
    widgets (measured: ~0.6 s later on Step); an ``st.html`` script runs as it is inserted."""
    src = f"app/static/{PLOTLY_JS.name}?v={PLOTLY_VERSION}"
    with st.sidebar.container(key="gatelab-plotly-preload"):  # hidden (app.ui.theme's CSS)
        st.html(f"<script>({LOADER})('{src}')</script>", unsafe_allow_javascript=True)


def reset() -> None:
    """Forget what was sent: a full page run re-creates the charts, so send whole specs."""
    st.session_state[SENT_KEY] = {}
