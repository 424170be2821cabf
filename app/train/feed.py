"""Train and watch's live feed: each poll of the browser trains one chunk and answers the new points.

The browser's loss and criterion charts send ``{"after": <sequences>}`` over the feed's WebSocket
(``gatelab/feed/<token>``, ``app/ui/feeds.py``) in a loop (``app/ui/live_chart.js``); each request
trains one chunk (the same ``live_run.tick`` the fragment timer calls, behind the run's lock, under
the same server sharing: a training slot, a fair share of the chunk, a pause after
``limits.IDLE_PAUSE_SECONDS`` without a click) and answers the curve points recorded after ``after``,
plus when to ask again (``every``: as soon as it likes when one run trains alone, longer when many
do: ``slots.tick_every``). While polls come, the page's fragment only redraws text and layout every
``fragment_every()`` seconds and does not train (``fresh``).

A ``TrainFeed`` lives in the session's page state, next to its run; ``app/ui/feeds.py`` holds only
a weak reference to it.
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.train import live_run, live_state
from app.ui import feeds, slots

FRESH_SECONDS = 3.0  # a poll this recent means the browser is drawing from the feed
FRAGMENT_EVERY = 0.5  # the fragment's period while the feed draws: status text, axes, captions
# With a class training, the page runs (not the feed's points) were most of the server's work and what
# the lecturer's own page waited behind (py-spy, issue 45): the fragment then runs this many times
# less often than the feed asks.
FRAGMENT_FACTOR = 4


def feed_every() -> float:
    """Seconds between two requests of one feed: none when few runs train (the browser asks again as
    soon as the answer came), longer when many do (``slots.tick_every``)."""
    return slots.tick_every(0.0)


def fragment_every() -> float:
    """The page fragment's period while the feed draws: ``FRAGMENT_EVERY``, longer when many runs train
    (``FRAGMENT_FACTOR`` × the feed's own period), so a class's page runs do not crowd out the feeds and
    the lecturer's page."""
    return max(FRAGMENT_EVERY, FRAGMENT_FACTOR * feed_every())


@dataclass(eq=False)
class TrainFeed:
    run: live_run.LiveRun
    session: str  # the session's id (its training slot)
    live: live_state.TrainState  # the page's state: the last click's time (idle pause)
    last_poll: float = -math.inf  # monotonic time of the last poll
    token: str = field(init=False)

    def __post_init__(self) -> None:
        self.token = feeds.register(self)

    def fresh(self, now: float | None = None) -> bool:
        """True while the browser polls (the fragment then leaves the training to the feed)."""
        now = time.monotonic() if now is None else now
        return now - self.last_poll < FRESH_SECONDS

    def poll(self, query: Mapping[str, str]) -> dict[str, Any]:
        after = feeds.number(query, "after", -1.0)
        self.last_poll = time.monotonic()
        run = self.run
        # An idle run or one waiting for a slot is not trained here: the fragment shows the pause or
        # the queue (it still runs every fragment_every() seconds).
        if run.active and not live_state.idle_too_long(self.live) and slots.claim(self.session) == 0:
            live_run.tick(run, live_run.share(run))
        with run.lock:
            c = run.curves.data
            i = bisect.bisect_right(c["sequences"], after)
            x, loss, fraction = c["sequences"][i:], c["loss"][i:], c["fraction"][i:]
            active = run.active
        # JSON has no NaN or infinity: gaps (None), as the figures draw them; the log axis has no 0 either
        return {
            "x": x,
            "loss": [v if math.isfinite(v) and v > 1e-300 else None for v in loss],
            "fraction": [v if math.isfinite(v) else None for v in fraction],
            "active": active,
            "every": feed_every(),
        }


def pulling(feed: TrainFeed, since: float | None, now: float | None = None) -> bool:
    """True while the browser pulls the feed — or will: on a server with the feeds' route, in the first
    ``FRESH_SECONDS`` after the run started (``since``), before the charts' first request. The click's
    own script run then leaves the training to the feed instead of training a chunk itself (measured:
    a class's 30 Start clicks at once). Where the browser never pulls (no WebSocket through some
    proxy), the fragment takes the training over ``FRESH_SECONDS`` after the start."""
    now = time.monotonic() if now is None else now
    return feed.fresh(now) or (feeds.served() and since is not None and now - since < FRESH_SECONDS)


def feed_for(run: live_run.LiveRun, session: str, live: live_state.TrainState) -> TrainFeed:
    """The run's feed, kept in the page's ``live_state.TrainState`` (a new run gets a new feed and token)."""
    feed = live.feed
    if feed is None or feed.run is not run:
        feed = live.feed = TrainFeed(run, session, live)
    return feed
