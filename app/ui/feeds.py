"""Live feeds: the browser asks a session's running job for news over a WebSocket, not a script run.

Why: every Streamlit script run (a fragment's timer tick included) makes the browser re-render the
whole app — measured on Train and watch, 34 % of the browser's main thread at ~10 updates/s, plus
a thread started on the server per run (docs/benchmarks.md, issue 33). A chart that only grows
(the loss curve) needs neither: its component opens a WebSocket to ``gatelab/feed/<token>``, sends
``{"after": x}`` and gets the points after ``x``, which it appends with ``Plotly.extendTraces``; the
job advances in the request (the request *is* the timer tick, so training still stops when the tab
stops asking). A WebSocket, not plain HTTP polling: each answer is one write on one connection, where
an HTTP response on a kept-alive connection here waited 44 ms for its body (headers and body are two
writes; Nagle's algorithm holds the second until the browser's delayed ACK; measured with
http.client against the server).

Streamlit's own pieces cannot do this: components send values to the server only as widget state
(each change a script run), and the server speaks to the browser only through script runs. So this
module keeps, per server process, a table from an unguessable token (128 random bits) to the
session's feed object. Not user state in a module global: the table holds *weak* references only;
the feed itself lives in the session's ``st.session_state``, and when the session (or the run) is
gone the entry disappears and the token is refused (the socket closes with ``CLOSE_GONE``). The
route is served by ``app/serve.py`` (``st.App``); where Gate Lab runs as the plain script
(``streamlit run app/main.py``) nothing answers, the WebSocket does not open and the fragment timer
keeps drawing, as before.
"""

from __future__ import annotations

import math
import secrets
import threading
import weakref
from collections.abc import Mapping
from typing import Any, Protocol

PREFIX = "gatelab/feed/"  # relative to the app's base URL (the page's own path prefix)


class Feed(Protocol):
    def poll(self, query: Mapping[str, str]) -> dict[str, Any]:
        """The answer to one request (JSON-ready); may advance the job. Called in a server thread."""


_lock = threading.Lock()
_feeds: weakref.WeakValueDictionary[str, Feed] = weakref.WeakValueDictionary()
_served = False  # this process serves the route (app/serve.py built it): a server fact, not user state


def served() -> bool:
    """True where the feeds' route is served (``app/serve.py`` said so: ``mark_served``), so a browser's
    charts will pull: a page can then leave the work to the feed from the first click on."""
    return _served


def mark_served() -> None:
    global _served
    _served = True


def register(feed: Feed) -> str:
    """A new token for ``feed`` (kept only as long as something else keeps ``feed``)."""
    token = secrets.token_urlsafe(16)
    with _lock:
        _feeds[token] = feed
    return token


def find(token: str) -> Feed | None:
    with _lock:
        return _feeds.get(token)


class BadRequest(Exception):
    """A request no browser of ours sends (the WebSocket is closed with ``CLOSE_BAD`` and this text:
    for a developer reading the browser's network panel, never shown on a page)."""


def number(query: Mapping[str, str], name: str, default: float) -> float:
    """``query[name]`` as a finite number (``default`` when absent)."""
    try:
        value = float(query.get(name, default))
    except (TypeError, ValueError):
        raise BadRequest(f"{name!r} must be a number") from None
    if not math.isfinite(value):
        raise BadRequest(f"{name!r} must be finite")
    return value


def answer(token: str, query: Mapping[str, str]) -> tuple[int, dict[str, Any]]:
    """(HTTP status, JSON body) for one poll: 404 for a token nobody holds, 400 for a bad query."""
    feed = find(token)
    if feed is None:
        return 404, {"error": "no such feed (the run was replaced or the session ended)"}
    try:
        return 200, feed.poll(query)
    except BadRequest as e:
        return 400, {"error": str(e)}


CLOSE_GONE, CLOSE_BAD = 4404, 4400  # WebSocket close codes: no such feed; a request the feed refuses


def routes() -> list:
    """The Starlette route ``app/serve.py`` mounts (imported there only: a script run never needs it)."""
    import anyio
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        token = ws.path_params["token"]
        try:
            while True:
                try:
                    query = await ws.receive_json()
                    query = {str(k): str(v) for k, v in query.items()}
                except (ValueError, AttributeError):
                    await ws.close(CLOSE_BAD, "send one JSON object per message")
                    return
                # the job's work (training a chunk) runs in a worker thread, never on the event loop
                status, body = await anyio.to_thread.run_sync(answer, token, query)
                if status != 200:
                    await ws.close(CLOSE_GONE if status == 404 else CLOSE_BAD, body["error"][:120])
                    return
                await ws.send_json(body)
        except WebSocketDisconnect:
            return

    return [WebSocketRoute("/" + PREFIX + "{token}", endpoint)]
