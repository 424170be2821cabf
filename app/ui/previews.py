"""Slider previews: a chart redraws for a slider's new value before the page's script run does.

Why: a Streamlit slider change is one full script run, and the browser re-renders every element the
run re-sends before the chart can draw (measured on Gradient flow: ~140 ms median, p95 170–220 ms a
key press, of which the browser's React and layout ~110 ms; a bare Streamlit app with one slider and
one chart: p95 124–132 ms; docs/benchmarks.md, issue 33). Streamlit sends a widget's value to the
server only as a script run, so no Streamlit piece can answer sooner. Here the page's live charts
also listen to the page's sliders (``app/ui/live_chart.js``): on a new value they ask the page's
preview over the live-feed WebSocket (``app/ui/feeds.py``), ``{"field": name, "value": v}``, and
draw the answer — the *same* figure the page's run will send (built by the same function, from the
session's other settings), so when the run's figure arrives it is identical and is not drawn again.
The run still happens as before and stays the authority: text, captions, alt text and every other
element come from it, and a preview answer for a value the slider no longer shows is dropped.

The page's figure builder runs outside the script run, in a thread given the session's script-run
context (``add_script_run_ctx``: how Streamlit lets a thread read the session's ``st.session_state``,
which the translator and the display options read). It only reads: it computes
the figures and touches no widget and no page state. A user error (a setting the core refuses) gives
no preview; the page's run then shows the message, as before.

Ahead of the slider: once the browser says it has drawn an answer, the answer for where the slider
goes next if it goes on as it moved (one notch further with the keys; as far again in a drag) is
built in the background and kept, with what it was built from: the page's settings, the run's
``reads`` (what the page's builder reads besides them — large fonts, Step's cursor), the language
and the theme; so are the answers built on ask, the last ``KEEP`` of them. An ask with exactly those
is answered with the one kept — the next notch, or a notch back where the slider was; any other is
built on ask, as before (its builder's ``st.cache_data`` warmed all the same). Why: on Gradient flow the forget-gate
bias changes two networks, whose error flows (forward and back over T = 100 steps) were two thirds of
a preview's ~24 ms on the server, and an ask built on the server while the page's run starts shares
the interpreter with that run (measured: 8–14 ms for Step's figures that take 5 ms alone; issue 48).
Not as soon as the answer is sent: that work then shared the 2 cores with the browser's drawing of
the answer (measured: the chart drawn 3–4 ms later at the median). A newer ask stops work not
started yet; an ask for the value being built waits for it instead of building it twice.

A ``Preview`` lives in the session's state (``attach``, one per page); ``feeds`` holds only a weak
reference.
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import plotly.graph_objects as go
import streamlit as st
from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

from app import i18n
from app.ui import feeds, form, live, state, theme

# chart key -> (figure, alt text, Plotly config): what the page draws with ``live.chart`` for ``values``
Figures = dict[str, tuple[go.Figure, str, dict | None]]
Builder = Callable[[dict], Figures]
T = TypeVar("T")
ALL_KEY = "_previews"  # session state: page -> its Preview (what ``settle`` waits for)


def _in_session(ctx: Any, work: Callable[[], T]) -> T:
    """``work()`` run as part of the session whose script-run context is ``ctx``: in a thread of its
    own, given ``ctx`` before it starts (Streamlit's documented use of ``add_script_run_ctx``). Not in
    the calling thread: a context attached to a pooled server thread cannot be taken off again (and
    would follow that thread into another session's request)."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = work()
        except BaseException as e:  # handed to the caller's thread below
            out["error"] = e

    thread = threading.Thread(
        target=run, name="gatelab-preview", daemon=True
    )  # i18n: kept (a thread name, for py-spy)
    add_script_run_ctx(thread, ctx)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


@dataclass(eq=False)
class Preview:
    page: str
    schema: form.Schema
    build: Builder
    ctx: Any = None  # the session's script-run context (refreshed by every page run)
    token: str = field(init=False)
    answered: threading.Event = field(init=False, default_factory=threading.Event)  # clear while computing
    # clear from a preview asked for until the browser says it has drawn the answer (``settle``)
    drawn: threading.Event = field(init=False, default_factory=threading.Event)
    asked_at: float = field(init=False, default=-math.inf)  # time.monotonic() of the last preview asked
    asked: tuple[str, float] | None = field(init=False, default=None)  # (setting, value) last asked
    ahead: tuple[str, float] | None = field(init=False, default=None)  # to build once the answer is drawn
    warming: threading.Thread | None = field(init=False, default=None)  # building it (``_build_ahead``)
    warming_for: tuple[str, float] | None = field(init=False, default=None)  # (setting, value) it builds
    # what an answer was built from -> the answer: the last ``KEEP`` built (ahead or on ask), newest last
    kept: OrderedDict[tuple, dict] = field(init=False, default_factory=OrderedDict)
    kept_lock: threading.Lock = field(init=False, default_factory=threading.Lock)
    reads: tuple = field(init=False, default=())  # the run's ``reads``, language and theme (``attach``)
    sliders: dict[str, str] = field(init=False)  # widget key -> setting name: what the browser watches
    at: dict[str, float] = field(init=False, default_factory=dict)  # the sliders' values in this run

    def __post_init__(self) -> None:
        self.answered.set()
        self.drawn.set()
        self.sliders = {
            state.wkey(self.page, n): n
            for n, f in self.schema.fields.items()
            if f.kind == "optfloat" or (f.widget == "slider" and f.kind in ("int", "float"))
        }
        self.token = feeds.register(self)

    def poll(self, query: Mapping[str, str]) -> dict[str, Any]:
        """A preview asked for (``{"field", "value"}``: the figures), or the browser's word that it has
        drawn the answer for a value (``{"drawn": field, "value"}``: an acknowledgement)."""
        if "drawn" in query:
            if self.asked == (query["drawn"], feeds.number(query, "value", math.nan)):
                self.drawn.set()
                self._build_ahead()
            return {"ack": True}
        name = query.get("field", "")
        if name not in self.sliders.values():
            raise feeds.BadRequest(f"{name!r} is not a slider of this page")
        value = feeds.number(query, "value", math.nan)
        # where the slider moved from: the last ask of this setting, else the value of the page's run
        before = self.asked[1] if self.asked and self.asked[0] == name else self.at.get(name)
        self.asked, self.asked_at, self.ahead = (name, value), time.monotonic(), None
        self.drawn.clear()
        self.answered.clear()
        warming = self.warming
        if warming is not None and self.warming_for == (name, value):
            warming.join(WARMING_SECONDS)  # its answer is on the way: not built a second time beside it
        figures: dict = {}
        try:
            figures = _in_session(self.ctx, lambda: self.figures(name, value))
            if figures and before is not None:
                self.ahead = onward(self.schema[name], before, value)
            return {"field": name, "value": value, "figures": figures}
        finally:
            if not figures:  # nothing for the browser to draw: no word to wait for
                self.drawn.set()
            self.answered.set()

    def _build_ahead(self) -> None:
        """Build the answer for where the slider goes next (``ahead``) in a thread of the session, and
        keep it (``kept``) with what it was built from."""
        if self.ahead is None:
            return
        name, value = self.ahead
        self.ahead = None
        asked = self.asked

        def warm() -> None:
            if self.asked != asked:  # a newer ask came first: its own answer is what counts
                return
            with contextlib.suppress(*state.USER_ERRORS):  # the ask shows nothing there either
                values = self._values(name, value)
                build, key = self._source(values)
                if self._kept(key) is None:  # e.g. back to where the slider was a notch ago: kept already
                    self._keep(key, self._texts(build(values)))

        thread = threading.Thread(
            target=warm, name="gatelab-preview-ahead", daemon=True
        )  # i18n: kept (a thread name)
        add_script_run_ctx(thread, self.ctx)
        self.warming, self.warming_for = thread, (name, value)
        thread.start()

    def _values(self, name: str, value: float) -> dict:
        """The page's settings as they are now, with ``name`` at ``value`` (ValueError if refused)."""
        fld = self.schema[name]
        return {
            **self.schema.read(self.page),
            name: fld.check(int(value) if fld.kind == "int" and value == int(value) else value),
        }

    def _kept(self, key: tuple) -> dict | None:
        with self.kept_lock:
            answer = self.kept.get(key)
            if answer is not None:
                self.kept.move_to_end(key)
            return answer

    def _keep(self, key: tuple, answer: dict) -> None:
        with self.kept_lock:
            self.kept[key] = answer
            self.kept.move_to_end(key)
            while len(self.kept) > KEEP:
                self.kept.popitem(last=False)

    def _source(self, values: dict) -> tuple[Builder, tuple]:
        """The builder, and what an answer for ``values`` is built from: they, and what else the builder
        reads — taken together (``attach`` sets both under the lock), so an answer kept under one run's
        reads is never built by the next run's builder."""
        with self.kept_lock:
            return self.build, (self.reads, json.dumps(values, sort_keys=True, default=repr))

    @staticmethod
    def _texts(figs: Figures) -> dict[str, dict[str, str]]:
        return {
            key: {"full": live.full_text(fig, config), "alt": alt} for key, (fig, alt, config) in figs.items()
        }

    def figures(self, name: str, value: float) -> dict[str, dict[str, str]]:
        """The page's figures with setting ``name`` at ``value`` (the others as they are now), as the
        text ``live.chart`` sends for them — the one built ahead if it was built from the same; none
        when the value or the result is not usable."""
        try:
            values = self._values(name, value)
            build, key = self._source(values)
            answer = self._kept(key)
            if answer is None:
                answer = self._texts(build(values))
                self._keep(key, answer)
            return answer
        except state.USER_ERRORS:
            return {}


def onward(fld: form.Field, before: float, now: float) -> tuple[str, float] | None:
    """Where a slider that moved from ``before`` to ``now`` is next if it goes on the same way: as far
    again (a notch after a notch), within its range and on its notches (rounded as the slider's own
    value is, so the builder's caches see the same number); None when it did not move or is at an end."""
    if fld.step is None or fld.lo is None or fld.hi is None or now == before:
        return None
    notches = round((now - before) / fld.step) or (1 if now > before else -1)
    n = round((now - fld.lo) / fld.step) + notches
    n = min(max(n, 0), math.floor((fld.hi - fld.lo) / fld.step + 1e-9))
    nxt = fld.lo + n * fld.step
    decimals = max(0, -math.floor(math.log10(fld.step))) + 2 if fld.kind != "int" else 0
    nxt = int(round(nxt)) if fld.kind == "int" else round(nxt, decimals)
    return None if nxt == now else (fld.name, nxt)


def attach(page: str, schema: form.Schema, build: Builder, *, reads: tuple) -> Preview:
    """The page's preview (kept in session state under ``ALL_KEY``; its token lives as long as the
    session), bound to this run's session context and ``build``, with the sliders' values this run's
    figures are built with (``at``, sent with each chart: ``chart_data``). ``reads``: what ``build``
    reads besides the settings (e.g. large fonts, a cursor; comparable values) — an answer built
    ahead is used only where these, the language and the theme are the same."""
    kept = st.session_state.setdefault(ALL_KEY, {})
    pv = kept.get(page)
    if not isinstance(pv, Preview) or pv.schema is not schema:
        pv = kept[page] = Preview(page, schema, build)
    with pv.kept_lock:  # the builder and what it reads, together (``Preview._source``)
        pv.build, pv.ctx = build, get_script_run_ctx()
        pv.reads = (reads, i18n.current(), theme.dark())
    pv.at = {
        name: v
        for wkey, name in pv.sliders.items()
        if isinstance(v := st.session_state.get(wkey), (int, float)) and not isinstance(v, bool)
    }
    return pv


def chart_data(pv: Preview | None, key: str) -> dict | None:
    """What a live chart needs to ask ``pv`` for its own figure (``live.chart(..., preview=...)``), and
    ``at``: the sliders' values this run's figure was built with (the browser does not draw a run's
    figure for values its sliders no longer show: a newer run follows, and the preview of what they
    show is on screen already — no step back to an older value while a slider moves)."""
    return None if pv is None else {"token": pv.token, "key": key, "sliders": pv.sliders, "at": pv.at}


# Answers kept per page: a slider that turns back (a key the other way, a wiggle, a turn at its end)
# finds the values it passed kept (measured on Theory: a turn built on ask took ~100 ms on the server
# before the chart could draw, the notches either side ~10 ms; issue 48). Theory's answer is ~19 kB.
KEEP = 6
WARMING_SECONDS = 1.0  # the longest an ask waits for the same value being built ahead
SETTLE_SECONDS = 0.1  # the longest a page run waits for the preview its slider asked for
DRAWN_SECONDS = 0.15  # the longest, from the ask, it waits for the browser to have drawn the answer


def settle() -> None:
    """Called as a page run starts: while a preview of this session is computing the figure this run
    was asked for (a slider moved), wait for it to be sent, at most ``SETTLE_SECONDS``; then until the
    browser says it has drawn it, at most ``DRAWN_SECONDS`` after the ask. The browser then draws and
    shows the charts before it starts rendering the run's elements, instead of after: measured
    (docs/benchmarks.md, issue 48), a run's messages arriving mid-drawing held a drawn chart off the
    screen for 60+ ms (Step's p95 2× the bare app's). A browser that never says (a closed tab) costs
    a run at most ``DRAWN_SECONDS`` after a slider's move, and nothing later."""
    for pv in st.session_state.get(ALL_KEY, {}).values():
        pv.answered.wait(SETTLE_SECONDS)
        left = pv.asked_at + DRAWN_SECONDS - time.monotonic()
        if left > 0:
            pv.drawn.wait(left)
