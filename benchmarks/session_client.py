"""A light Streamlit session over the websocket protocol, for load benchmarks and the proxy test.

One ``Session`` is what one browser tab is to the server: it opens ``/_stcore/stream``, asks
for a page (a ``rerun_script`` BackMsg), keeps the elements the server sends, presses buttons
(a widget trigger in the next ``rerun_script``) and, like the browser's fragment timers, reruns
a fragment every ``auto_rerun`` interval the server asks for, and pulls a live chart's feed as the
chart's script does (``app/ui/live_chart.js``: Train and watch's loss chart, when the server has
``app/serve.py``'s feed route). It draws nothing and runs no JavaScript, so a benchmark with 60 of
them measures the server, not 60 browsers.

Used by ``benchmarks/classroom_load.py`` and ``tests/test_deploy_proxy.py``.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from app.ui.feeds import PREFIX as FEED_PREFIX

STALL_SECONDS = 2.0  # a fragment rerun with no answer for this long was dropped: the timer fires again
PROGRESS = re.compile(r"\*\*([\d,]+)\*\* of ([\d,]+) sequences")


@dataclass
class Session:
    """One simulated browser tab on ``url`` (``http://host:port``) showing ``page`` (a url path)."""

    url: str
    page: str = ""
    query: str = ""
    headers: dict[str, str] = field(default_factory=dict)  # e.g. a proxy's sticky cookie
    ws: Any = None
    page_hash: str = ""  # first "" + page_name (the router picks by url path), then the page's hash
    page_hashes: dict[str, str] = field(default_factory=dict)  # url path -> page hash (the sidebar's links)
    widgets: dict[str, Any] = field(default_factory=dict)  # widget id -> element proto (latest)
    buttons: dict[str, str] = field(default_factory=dict)  # user key -> widget id
    labels: dict[str, str] = field(default_factory=dict)  # user key -> the button's label last drawn
    button_fragments: dict[str, str] = field(default_factory=dict)  # user key -> fragment it is drawn in
    timers: dict[str, float] = field(default_factory=dict)  # fragment id -> interval (s)
    _due: dict[str, float] = field(default_factory=dict)  # fragment id -> when its timer fires next
    running: bool = False  # a script run is in progress
    finished_runs: int = 0
    texts: list[str] = field(default_factory=list)  # progress-bar texts seen, newest last
    metrics: dict[str, str] = field(default_factory=dict)  # st.metric label -> the value last drawn
    chart_updates: dict[str, int] = field(default_factory=dict)  # live chart key -> updates received
    errors: list[str] = field(default_factory=list)  # st.error / exception texts seen
    markdowns: list[tuple[float, str]] = field(default_factory=list)  # (time, st.markdown text) received
    events: list[tuple[float, str]] = field(default_factory=list)  # (time, what) for latency
    feed_updates: dict[str, int] = field(default_factory=dict)  # feed token -> answers with new points
    _feeds: dict[str, Any] = field(default_factory=dict)  # feed token -> its asyncio task
    _finished_at: float = 0.0
    _last_message: float = 0.0
    _sent_fragment: bool = False

    # ------------------------------------------------------------------ connection
    async def open(self) -> None:
        self.ws = await websockets.connect(
            self._ws_url("_stcore/stream"),
            subprotocols=["streamlit"],
            max_size=None,
            additional_headers=self.headers or None,
            open_timeout=60,
        )
        await self.rerun()

    def _ws_url(self, path: str) -> str:
        return self.url.replace("http://", "ws://").rstrip("/") + "/" + path

    async def close(self) -> None:
        for task in self._feeds.values():
            task.cancel()
        if self.ws is not None:
            await self.ws.close()

    async def _pull(self, token: str) -> None:
        """A live feed, as the browser's chart script pulls it (app/ui/live_chart.js): ask for the
        points after the newest one, count an answer with new points as one chart update, wait the
        server's period (from the request's start), stop when the run stops or the feed is gone."""
        after = -1.0
        try:
            async with websockets.connect(
                self._ws_url(FEED_PREFIX + token), additional_headers=self.headers or None, open_timeout=60
            ) as ws:
                while True:
                    t0 = time.perf_counter()
                    await ws.send(json.dumps({"after": after}))
                    r = json.loads(await ws.recv())
                    if r["x"]:
                        after = r["x"][-1]
                        self.feed_updates[token] = self.feed_updates.get(token, 0) + 1
                        self.events.append((time.perf_counter(), "feed"))
                    if not r["active"]:
                        return
                    await asyncio.sleep(max(r["every"] - (time.perf_counter() - t0), 0.0 if r["x"] else 0.1))
        except (websockets.ConnectionClosed, OSError, websockets.InvalidStatus):
            return  # replaced by a new run, the session ended, or no feed on this server
        finally:
            self._feeds.pop(token, None)

    def loss_updates(self) -> int:
        """Loss-chart updates: whole figures and patches through script runs, plus the feed's answers."""
        return self.chart_updates.get("train.loss", 0) + sum(self.feed_updates.values())

    async def rerun(self, trigger: str | None = None, fragment: str | None = None) -> None:
        """A script run (the whole page, or one fragment); ``trigger`` = a button's widget id."""
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = self.query
        cs.page_name = self.page
        cs.page_script_hash = self.page_hash
        if trigger is not None:
            w = cs.widget_states.widgets.add()
            w.id = trigger
            w.trigger_value = True
        if fragment is not None:
            cs.fragment_id = fragment
            cs.is_auto_rerun = trigger is None  # a timer's tick, not a click in the fragment
        else:
            self.timers.clear()  # as the browser does: a full run re-declares its timers
            self._due.clear()
        self.running = True
        self._sent_fragment = fragment is not None
        self._last_message = time.perf_counter()
        self.events.append((time.perf_counter(), f"rerun {'fragment' if fragment else 'page'}"))
        await self.ws.send(msg.SerializeToString())

    async def goto(self, page: str) -> None:
        """Open another page of the app (``page``: its url path), as a click on its sidebar link does:
        a full run naming the page's hash (learnt from the navigation menu; by url path until then)."""
        self.page, self.page_hash = page, self.page_hashes.get(page, "")
        self.events.append((time.perf_counter(), f"goto {page}"))
        await self.rerun()

    async def press(self, key: str) -> None:
        """Click the button whose Streamlit key is ``key`` (its id is learnt from the page)."""
        if key not in self.buttons:
            raise KeyError(f"no button with key {key!r} on the page (have {sorted(self.buttons)})")
        self.events.append((time.perf_counter(), f"press {key}"))
        # as the browser does: a button drawn in a fragment reruns that fragment only
        await self.rerun(trigger=self.buttons[key], fragment=self.button_fragments.get(key))

    # ------------------------------------------------------------------ receiving
    async def pump(self, seconds: float) -> None:
        """Receive and handle messages for ``seconds``; like the browser, rerun each timed fragment
        every ``interval`` seconds, each on its own timer, never while a script run is going on
        (sleeping until then, not polling). Before 2026-11-27 only the fastest timer fired (Train and
        watch's slow fragment never did), so classes measured before then loaded the server less."""
        end = time.perf_counter() + seconds
        while True:
            now = time.perf_counter()
            if now >= end:
                return
            wake = end
            if self.running and self._sent_fragment and now - self._last_message > STALL_SECONDS:
                # A fragment rerun asked for while the server was busy with a full run is dropped
                # without an answer; the browser's timer simply fires again, and so do we.
                self.running = False
                self._finished_at = now
            if self.running and self._sent_fragment:
                wake = min(end, self._last_message + STALL_SECONDS)
            if not self.running and self.timers:
                # each timer on its own period, as the browser's setInterval per fragment (a tick that
                # fell due during a script run is sent when the run has finished)
                frag = min(self.timers, key=lambda f: self._due.get(f, 0.0))
                due = max(
                    self._due.setdefault(frag, self._finished_at + self.timers[frag]), self._finished_at
                )
                if now >= due:
                    self._due[frag] = max(due + self.timers[frag], now)
                    await self.rerun(fragment=frag)
                    continue
                wake = min(end, due)
            try:
                raw = await asyncio.wait_for(self.ws.recv(), timeout=max(wake - now, 0.001))
            except TimeoutError:
                continue
            self._last_message = time.perf_counter()
            self.handle(raw)

    def handle(self, raw: bytes) -> None:
        msg = ForwardMsg()
        msg.ParseFromString(raw)
        kind = msg.WhichOneof("type")
        now = time.perf_counter()
        if kind == "navigation" and msg.navigation.page_script_hash:
            # the page the router chose: later runs name it (an st.rerun() from a fragment reruns
            # the page the request names, and "" would be the default page)
            self.page_hash = msg.navigation.page_script_hash
            for p in msg.navigation.app_pages:
                self.page_hashes[p.url_pathname] = p.page_script_hash
            self.events.append((now, f"page {msg.navigation.page_script_hash}"))
        elif kind == "new_session" and not msg.metadata.run.fragment_ids:
            self.timers.clear()  # a whole page run (also one the server started: st.rerun()) re-declares them
            self._due.clear()
        elif kind == "auto_rerun":
            frag, interval = msg.auto_rerun.fragment_id, msg.auto_rerun.interval
            if self.timers.get(frag) != interval:  # the browser keeps a timer re-declared unchanged
                self.timers[frag] = interval
                self._due[frag] = now + interval
        elif kind == "stop_auto_rerun":
            for frag in msg.stop_auto_rerun.fragment_ids:
                self.timers.pop(frag, None)
                self._due.pop(frag, None)
        elif kind == "session_status_changed":
            # the server's word on whether a script runs: a fragment rerun asked for while a full
            # run (e.g. an st.rerun()) was going on may never get a script_finished of its own
            running = msg.session_status_changed.script_is_running
            if self.running and not running:
                self._finished_at = now
            self.running = running
        elif kind == "script_finished":
            self.running = False
            self._finished_at = now
            self.finished_runs += 1
            self.events.append((now, "finished"))
        elif kind == "delta":
            self._delta(msg, now)

    def _delta(self, msg: ForwardMsg, now: float) -> None:
        d = msg.delta
        if d.WhichOneof("type") != "new_element":
            return
        el = d.new_element
        what = el.WhichOneof("type")
        if what == "button":
            key = _user_key(el.button.id)
            self.widgets[el.button.id] = el.button
            if key:
                self.buttons[key] = el.button.id
                if d.fragment_id:
                    self.button_fragments[key] = d.fragment_id
                else:
                    self.button_fragments.pop(key, None)
                self.labels[key] = el.button.label
                self.events.append((now, f"button {key} {el.button.label}"))
        elif what == "markdown":
            self.markdowns.append((now, el.markdown.body))
        elif what == "metric":
            self.metrics[el.metric.label] = el.metric.body
            self.events.append((now, f"metric {el.metric.label} {el.metric.body}"))
        elif what == "heading" and el.heading.tag == "h1":  # a page's title (st.title)
            self.events.append((now, f"title {el.heading.body}"))
        elif what == "progress":
            self.texts.append(el.progress.text)
            self.events.append((now, "progress"))
        elif what == "alert" and el.alert.format == 1:  # ERROR
            self.errors.append(el.alert.body)
        elif what == "exception":
            self.errors.append(f"{el.exception.type}: {el.exception.message}")
        elif what == "bidi_component" and el.bidi_component.component_name == "gatelab_live_chart":
            key = _user_key(el.bidi_component.id) or "?"
            self.chart_updates[key] = self.chart_updates.get(key, 0) + 1
            self.events.append((now, f"chart {key}"))
            feed = json.loads(el.bidi_component.json or "{}").get("feed") if key == "train.loss" else None
            if feed and feed["token"] not in self._feeds:
                self._feeds[feed["token"]] = asyncio.get_running_loop().create_task(self._pull(feed["token"]))

    # ------------------------------------------------------------------ reading the page
    def sequences(self) -> int | None:
        """The training progress counter last shown ("N of M sequences"), if any."""
        for text in reversed(self.texts):
            m = PROGRESS.search(text)
            if m:
                return int(m.group(1).replace(",", ""))
        return None

    async def wait_for(self, predicate, timeout: float) -> float:
        """Pump until ``predicate(self)`` holds; the seconds it took (TimeoutError after ``timeout``)."""
        t0 = time.perf_counter()
        while not predicate(self):
            if time.perf_counter() - t0 > timeout:
                raise TimeoutError(f"condition not met within {timeout:g} s")
            await self.pump(0.05)
        return time.perf_counter() - t0


def _user_key(element_id: str) -> str | None:
    """The user key at the end of a Streamlit element id (``$$ID-<hash>-<key>``), if it has one."""
    m = re.match(r"^\$\$ID-[0-9a-f]+-(.+)$", element_id)
    return m.group(1) if m and m.group(1) != "None" else None


def summary(values: list[float]) -> dict[str, float]:
    """p50 / p95 / max of a list of seconds (empty: all NaN)."""
    if not values:
        return {"p50": float("nan"), "p95": float("nan"), "max": float("nan")}
    v = sorted(values)
    pick = lambda q: v[min(len(v) - 1, int(round(q * (len(v) - 1))))]
    return {"p50": pick(0.5), "p95": pick(0.95), "max": v[-1]}
