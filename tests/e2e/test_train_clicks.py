"""Issue 33: a click on Start or Pause reruns Train and watch's live part only, on the real server.

The buttons and the two timed fragments live in a fragment of their own (``app.train.view.live_part``),
so a click is not a whole page run (the sidebar's ~30 widgets and the rest of the page): measured with
a class of 30 pressing Start at once (benchmarks/classroom_load.py), 2.1 s until the last one showed
"Pause" with whole page runs. Checked here through Streamlit's own protocol
(``benchmarks/session_client.py``), as a browser tab speaks it: what the server sends after each click,
the fragment timers it sets and cancels, and that the feed trains from the first click on.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import sys
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from session_client import Session  # noqa: E402

QUERY = "cfg=" + quote(json.dumps({"streak": 100_000, "budget": 1_000_000}))
SIDEBAR_BUTTON = "button train.reset."  # the sidebar's reset buttons: sent only by a whole page run
GO = "train.go"  # Start / Pause / Resume / Start again: one button


def shows(label: str):
    """The main button says ``label`` and no run is in progress."""
    return lambda x: x.labels.get(GO) == label and not x.running


def since(s: Session, mark: int) -> list[str]:
    return [what for _, what in s.events[mark:]]


async def clicks(url: str) -> dict:
    s = Session(url, page="train", query=QUERY)
    await s.open()
    await s.wait_for(shows("Start"), 120)
    out: dict = {"opened": since(s, 0), "fragment": s.button_fragments.get(GO), "timers_idle": dict(s.timers)}
    mark = len(s.events)
    await s.press(GO)
    await s.wait_for(shows("Pause"), 120)
    out["start"] = since(s, mark)
    out["timers_running"] = sorted(s.timers.values())
    out["keep_enabled_running"] = not s.widgets[s.buttons["train.keep_a"]].disabled
    await s.wait_for(lambda x: sum(x.feed_updates.values()) >= 3 and not x.running, 120)  # the feed trains
    await s.wait_for(lambda x: (x.sequences() or 0) > 0 and not x.running, 120)  # the text follows
    mark = len(s.events)
    await s.press(GO)
    await s.wait_for(shows("Resume"), 120)
    out["pause"] = since(s, mark)
    out["timers_paused"] = dict(s.timers)
    out["errors"] = list(s.errors)
    await s.close()
    return out


def test_start_and_pause_rerun_the_live_part_only_and_set_and_cancel_its_timers(streamlit_server):
    # in a thread of its own: Playwright keeps an event loop in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        r = pool.submit(asyncio.run, asyncio.wait_for(clicks(streamlit_server), timeout=300)).result()
    assert not r["errors"], r["errors"]
    assert any(e.startswith(SIDEBAR_BUTTON) for e in r["opened"])  # the page's own run draws the sidebar
    assert r["fragment"], "Start is not drawn in a fragment: a click reruns the whole page"
    assert r["timers_idle"] == {}  # nothing ticks before Start
    # Start: the live part's run only (no sidebar), "Pause" drawn, both charts' timers set by it
    assert "rerun fragment" in r["start"] and "rerun page" not in r["start"], r["start"]
    assert not any(e.startswith(SIDEBAR_BUTTON) for e in r["start"]), r["start"]
    assert f"button {GO} Pause" in r["start"]
    assert len(r["timers_running"]) == 2, r["timers_running"]  # the fast and the slow fragment
    # drawn at this click, before any curve, and not again while training: "Keep as run A" must not be
    # left greyed out for the whole run
    assert r["keep_enabled_running"]
    # Pause: again the live part only; "Resume" drawn, both timers cancelled (nothing ticks while paused)
    assert "rerun page" not in r["pause"] and not any(e.startswith(SIDEBAR_BUTTON) for e in r["pause"]), r[
        "pause"
    ]
    assert f"button {GO} Resume" in r["pause"]
    assert r["timers_paused"] == {}, r["timers_paused"]


async def queue(url: str) -> dict:
    first, second = (Session(url, page="train", query=QUERY) for _ in range(2))
    for s in (first, second):
        await s.open()
        await s.wait_for(shows("Start"), 120)
    await first.press(GO)
    await first.wait_for(lambda x: sum(x.feed_updates.values()) >= 2 and not x.running, 120)  # it trains
    await second.press(GO)
    await second.wait_for(lambda x: bool(x.texts) and "queued" in x.texts[-1] and not x.running, 120)
    out = {"queued_timers": len(second.timers)}
    await first.press(GO)  # the slot frees ...
    await second.wait_for(lambda x: (x.sequences() or 0) > 0 and len(x.timers) == 2 and not x.running, 120)
    out["let_in_timers"] = len(second.timers)  # ... and both charts tick again
    out["errors"] = first.errors + second.errors
    for s in (first, second):
        await s.close()
    return out


def test_a_queued_run_let_in_gets_both_timers_back():
    """With one training slot: the second run waits in the queue (its probe charts' timer off), and when
    the first pauses it trains and both of its charts' timers are set again (a full run re-declares them)."""
    from classroom_load import start_server

    proc, url = start_server({"GATELAB_MAX_TRAINING": "1"})
    try:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            r = pool.submit(asyncio.run, asyncio.wait_for(queue(url), timeout=300)).result()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert not r["errors"], r["errors"]
    assert r["queued_timers"] == 1 and r["let_in_timers"] == 2, r
