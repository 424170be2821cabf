"""Live feeds (app/ui/feeds.py) and Train and watch's feed (app/train/feed.py).

The WebSocket route is driven in-process through its ASGI interface (no server, no sleeps); the
browser side is tested end to end in tests/e2e/test_train_browser.py.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import json
import time

import pytest
from starlette.applications import Starlette

from app.train import feed as train_feed
from app.train import live_run, live_state
from app.train import settings as train_settings
from app.ui import feeds, limits, slots


class Echo:
    """A feed answering what it was asked, counting the polls."""

    def __init__(self) -> None:
        self.asked: list[dict] = []

    def poll(self, query):
        self.asked.append(dict(query))
        return {"after": feeds.number(query, "after", -1.0), "n": len(self.asked)}


def converse(path: str, messages: list) -> list[dict]:
    """Open the WebSocket at ``path`` on the feeds' routes, send ``messages`` one at a time (each after
    the answer to the previous one) and return what the server sent, closes included."""
    app = Starlette(routes=feeds.routes())
    incoming: asyncio.Queue = asyncio.Queue()
    sent: list[dict] = []

    async def main() -> None:
        await incoming.put({"type": "websocket.connect"})
        todo = list(messages)

        async def receive():
            return await incoming.get()

        async def send(msg):
            sent.append(msg)
            if msg["type"] == "websocket.accept" or msg["type"] == "websocket.send":
                if todo:
                    await incoming.put({"type": "websocket.receive", "text": json.dumps(todo.pop(0))})
                else:
                    await incoming.put({"type": "websocket.disconnect", "code": 1000})

        scope = {
            "type": "websocket",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [],
            "scheme": "ws",
            "server": ("test", 80),
            "client": ("test", 1),
            "subprotocols": [],
            "root_path": "",
            "asgi": {"version": "3.0"},
        }
        await app(scope, receive, send)

    # in a thread of its own: the browser tests' Playwright may hold this thread's event loop
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()
    return sent


def test_a_feed_answers_each_message_over_its_websocket():
    echo = Echo()
    token = feeds.register(echo)
    sent = converse("/" + feeds.PREFIX + token, [{"after": 5}, {"after": 12.5}])
    answers = [json.loads(m["text"]) for m in sent if m["type"] == "websocket.send"]
    assert answers == [{"after": 5.0, "n": 1}, {"after": 12.5, "n": 2}]
    assert echo.asked == [{"after": "5"}, {"after": "12.5"}]


def test_an_unknown_token_and_a_bad_request_close_the_socket_with_a_reason():
    sent = converse("/" + feeds.PREFIX + "no-such-token", [{"after": 1}])
    closes = [m for m in sent if m["type"] == "websocket.close"]
    assert closes and closes[0]["code"] == feeds.CLOSE_GONE
    token = feeds.register(keep := Echo())
    for bad in ({"after": "soon"}, {"after": "nan"}, [1, 2]):
        closes = [m for m in converse("/" + feeds.PREFIX + token, [bad]) if m["type"] == "websocket.close"]
        assert closes and closes[0]["code"] == feeds.CLOSE_BAD, bad
    assert keep.asked == [{"after": "soon"}, {"after": "nan"}]  # the list never reached the feed


def test_the_table_keeps_no_feed_alive():
    token = feeds.register(Echo())  # nothing else holds it
    gc.collect()
    assert feeds.find(token) is None
    assert feeds.answer(token, {})[0] == 404


# ----------------------------------------------------------------------------- Train and watch
def new_feed(**values) -> train_feed.TrainFeed:
    settings = {**train_settings.DEFAULTS, **values}
    run = live_run.new_run(train_settings.build_trainer(settings), "key", "label")
    return train_feed.TrainFeed(run, "session-under-test", live_state.TrainState())


@pytest.fixture(autouse=True)
def _no_slots_left_behind():
    slots.reset()
    yield
    slots.reset()


def test_each_poll_trains_a_chunk_and_answers_only_the_newer_points():
    f = new_feed()
    first = f.poll({})
    assert first["x"] == [] and first["active"] is False  # idle: nothing trained
    live_run.start(f.run)
    a = f.poll({})
    assert a["active"] and len(a["x"]) == 1 and a["x"][0] == f.run.sequences > 0
    b = f.poll({"after": str(a["x"][-1])})
    assert len(b["x"]) == 1 and b["x"][0] > a["x"][-1]  # only what is new
    allx = f.poll({"after": "-1"})["x"]
    assert allx == f.run.curves.data["sequences"] and len(allx) == 3
    json.dumps(f.poll({}), allow_nan=False)  # valid JSON: no NaN or infinity
    assert f.fresh() and not f.fresh(time.monotonic() + train_feed.FRESH_SECONDS + 1)


def test_the_answer_is_what_the_charts_draw():
    f = new_feed()
    live_run.start(f.run)
    for _ in range(3):
        r = f.poll({})
    c = f.run.curves.data
    assert r["x"] == c["sequences"] and r["fraction"] == c["fraction"]
    assert r["loss"] == [v if v > 1e-300 else None for v in c["loss"]]


def test_a_forgotten_run_or_one_without_a_slot_is_not_trained_by_its_feed(monkeypatch):
    f = new_feed()
    live_run.start(f.run)
    f.live.last_interaction = time.monotonic() - limits.IDLE_PAUSE_SECONDS - 1
    assert f.poll({})["x"] == [] and f.run.sequences == 0
    f.live.touched()
    monkeypatch.setenv("GATELAB_MAX_TRAINING", "1")
    assert slots.claim("another session") == 0  # the only slot is taken
    assert f.poll({})["x"] == [] and f.run.sequences == 0
    slots.release("another session")
    assert len(f.poll({})["x"]) == 1


def test_a_new_run_gets_a_new_feed_and_the_old_token_goes():
    ps = live_state.TrainState()
    run = live_run.new_run(train_settings.build_trainer(train_settings.DEFAULTS), "k", "l")
    f = train_feed.feed_for(run, "s", ps)
    assert train_feed.feed_for(run, "s", ps) is f
    other = live_run.new_run(train_settings.build_trainer(train_settings.DEFAULTS), "k", "l")
    g = train_feed.feed_for(other, "s", ps)
    assert g is not f and g.token != f.token
    old = f.token
    del f
    gc.collect()
    assert feeds.find(old) is None and feeds.find(g.token) is g


def test_while_the_browser_pulls_the_feed_the_page_does_not_train_and_redraws_slowly():
    from train_page_helpers import open_page, run_of, start

    at = start(open_page())
    run = run_of(at)
    ps = at.session_state["_page.train"]["live"]
    feed = ps.feed
    assert feed.run is run and run.active
    before = run.sequences
    at.run()  # no poll yet: the page trains, as on a plain host
    assert run.sequences > before and ps.every != train_feed.fragment_every()
    feed.poll({})  # the browser pulls: the feed trains ...
    pulled = run.sequences
    at.run()  # ... and the page's runs only redraw
    assert run.sequences == pulled and ps.every == train_feed.fragment_every()
    assert not at.exception


def test_on_a_server_with_the_feed_a_click_leaves_the_training_to_the_feed(monkeypatch):
    """Issue 33: Start's own run does not train a chunk where the browser's charts will pull (30 Start
    clicks at once each trained one); where no poll comes within FRESH_SECONDS the page takes over."""
    from train_page_helpers import open_page, run_of, start

    f = new_feed()
    now = time.monotonic()
    assert not train_feed.pulling(f, now, now)  # the plain script: nobody will pull
    monkeypatch.setattr(feeds, "_served", True)
    assert feeds.served()
    assert train_feed.pulling(f, now, now) and not train_feed.pulling(f, None, now)
    assert not train_feed.pulling(f, now, now + train_feed.FRESH_SECONDS + 0.1)

    at = start(open_page())
    run, ps = run_of(at), at.session_state["_page.train"]["live"]
    assert run.active and run.sequences == 0  # the click's run trained nothing
    assert ps.every == train_feed.fragment_every()  # its timer is the feed's redraw period
    ps.since -= train_feed.FRESH_SECONDS + 1  # no poll came: the page trains
    at.run()
    assert run.sequences > 0 and not at.exception
