"""Real-browser test of Train and watch: it trains live, redraws while training, overlays run A.

Measured here (and merged into docs/measurements.json): how many times per second the loss
chart is redrawn with new data in the browser while training continues (the live chart of
app/ui/live.py updates one Plotly div in place; a redraw counts once, when the data on screen
changes).
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import quote

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from .conftest import CHART, CHARTS_DRAWN, REFRESH_DOCS, record_measurement, screenshot, wait_for_app

pytestmark = pytest.mark.e2e

MEASURE_SECONDS = 5.0
# Counts redraws of the loss chart that show new data (its traces' data changed, whether on a
# newly mounted chart or in place), sampled every 10 ms; and progress-bar text changes.
COUNT_REDRAWS = """() => {
  window.__redraws = 0; window.__updates = 0; window.__lastSig = null; window.__lastText = null;
  const sig = () => {                  // the data the visible loss chart shows: its traces' last points
    for (const p of document.querySelectorAll(".st-key-train-loss .js-plotly-plot")) {
      if (p.getBoundingClientRect().width > 0 && p.data && p._fullLayout)
        return JSON.stringify(p.data.map(t => [t.x, t.y]));      // typed arrays arrive as base64 objects
    }
    return null;
  };
  window.__lastSig = sig();
  window.__timer = setInterval(() => {
    const s = sig();
    if (s !== null && s !== window.__lastSig) { window.__lastSig = s; window.__redraws++; }
    const bar = document.querySelector("[data-testid='stProgress']");
    if (bar && bar.innerText !== window.__lastText) { window.__lastText = bar.innerText; window.__updates++; }
  }, 10);
}"""

# The progress bar's counter ("N of M sequences") has reached arg (or the run stopped first).
SEQUENCES_AT_LEAST = """(n) => { const t = document.querySelector("[data-testid='stProgress']")?.innerText || '';
  const m = /^\\s*([\\d,]+) of/.exec(t);
  return (m && Number(m[1].replace(/,/g, '')) >= n) || document.body.innerText.includes('Stopped at the criterion'); }"""

# The page's link (?cfg=, base64url JSON of the settings that differ from the defaults) holds arg[0] = arg[1].
LINK_SETTING = """([name, value]) => { const c = new URLSearchParams(location.search).get('cfg') || '';
  try { const text = atob(c.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - c.length % 4) % 4));
        return JSON.parse(text)[name] === value; } catch (e) { return false; } }"""

# The main button (key "go") says Start, Pause, Resume or Start again: one element, updated in place.
MAIN = {
    "start": "Start",
    "pause": "Pause",
    "resume": "Resume",
    "again": "Start again",
    "new": "Start a new run",
}


def button(page, key: str):
    """A page button by its Streamlit key (labels such as "Start" also occur in help texts); for the
    main button, by what it says ("start", "pause", "resume", "again")."""
    if key in MAIN:
        # (its accessible name may end in a Streamlit shortcut's "Shortcut …")
        return (
            page.locator(".st-key-train-go")
            .filter(visible=True)
            .first.get_by_role("button", name=re.compile(rf"^{MAIN[key]}( Shortcut .*)?$"))
        )
    return page.locator(f".st-key-train-{key} [data-testid^='stBaseButton']").filter(visible=True).first


def sequences(page) -> int:
    text = page.locator("[data-testid='stProgress']").first.inner_text()
    return int(re.match(r"\s*([\d,]+) of", text).group(1).replace(",", ""))


@pytest.fixture
def tall_page(tab):
    """A viewport tall enough to show every chart in one screenshot (Streamlit scrolls inside)."""
    return tab({"width": 1400, "height": 1900})


def pause_and_settle(page) -> None:
    """Pause the run; on a fast machine it may have met the criterion first, which is fine too."""
    try:
        button(page, "pause").click(timeout=5_000)
    except PlaywrightTimeout:
        expect(page.get_by_text("Stopped at the criterion")).to_be_visible(timeout=30_000)
    else:
        expect(button(page, "resume")).to_be_visible(timeout=30_000)
        expect(page.get_by_text("Paused after")).to_be_visible(timeout=30_000)
    # No timers any more: wait until every visible chart has finished drawing.
    page.wait_for_function(CHARTS_DRAWN, timeout=30_000)


def test_train_page_trains_live_and_redraws(streamlit_server, tall_page):
    page = tall_page
    # The default run meets its (reduced) criterion after ~2,000 sequences, which a quiet machine
    # trains in ~5 s: ask for 5,000 correct in a row so training lasts through the measurement.
    page.goto(f"{streamlit_server}/train?cfg=" + quote(json.dumps({"streak": 5000})))
    wait_for_app(page)
    expect(page.get_by_text("Page not found")).to_have_count(0)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    expect(page.locator(CHART)).to_have_count(6, timeout=60_000)
    assert sequences(page) == 0

    button(page, "start").click()
    expect(button(page, "pause")).to_be_visible(timeout=20_000)
    page.wait_for_function(
        "() => /^\\s*[1-9][\\d,]* of/.test("
        "document.querySelector(\"[data-testid='stProgress']\")?.innerText || '')",
        timeout=30_000,
    )
    first = sequences(page)
    page.evaluate(COUNT_REDRAWS)
    page.wait_for_timeout(
        MEASURE_SECONDS * 1000
    )  # a measurement window (a rate over time), not a wait for state
    redraws, updates = page.evaluate("() => [window.__redraws, window.__updates]")
    later = sequences(page)
    rate = round(redraws / MEASURE_SECONDS, 2)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\nTrain and watch: {rate} loss-chart redraws/s, {updates / MEASURE_SECONDS:.2f} progress updates/s, "
        f"{(later - first) / MEASURE_SECONDS:.1f} sequences/s over {MEASURE_SECONDS:g} s "
        f"(load average {load:.1f} on {os.cpu_count()} CPUs)"
    )
    record_measurement("train_redraws_per_second", rate)
    record_measurement(
        "train_redraws_context",
        {
            "what": "Train and watch, default settings: loss-chart updates per second in headless Chromium "
            f"while training continues, over {MEASURE_SECONDS:g} s (live chart updated in place: new points "
            f"over the live feed with Plotly.extendTraces, whole figures with Plotly.react)",
            "goal": 20,
            "progress_updates_per_second": round(updates / MEASURE_SECONDS, 2),
            "sequences_per_second": round((later - first) / MEASURE_SECONDS, 1),
            "machine": {"cpus": os.cpu_count(), "load_avg_1min": round(load, 2)},
        },
    )
    # The goal (≥ 20 per second, issue 33) is reported, not asserted: on a shared CI machine the browser's
    # share of the CPU decides it. Live = training goes on and the loss chart keeps redrawing — waited
    # for as state, not counted in the window: on a busy machine (5 sequences/s at load 7.5 on 2 CPUs)
    # the window can end before the next loss point exists.
    page.wait_for_function(SEQUENCES_AT_LEAST, arg=first + 1, timeout=120_000)
    page.wait_for_function("() => window.__redraws >= 3", timeout=120_000)
    page.evaluate("() => clearInterval(window.__timer)")
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    # Served by app/serve.py, the loss and criterion charts pull their points over the live feed
    # (app/ui/feeds.py), not only through the page's script runs.
    for key in ("loss", "criterion"):
        page.wait_for_function(
            f"() => Number(document.querySelector('.st-key-train-{key} .gatelab-live')"
            f"?.dataset.feeds || 0) >= 3",
            timeout=60_000,
        )

    # training goes on after the measurement (under `make screenshots`, for the README picture, to
    # twice the sequences measured so far: a longer curve)
    page.wait_for_function(SEQUENCES_AT_LEAST, arg=2 * later if REFRESH_DOCS else later + 1, timeout=120_000)
    pause_and_settle(page)
    assert sequences(page) > later
    expect(page.locator(CHART)).to_have_count(
        6, timeout=60_000
    )  # the live part's run after Pause redraws all six
    screenshot(page, "train")

    # run A vs run B: keep this run, change the learning rate, train the new run over it
    button(page, "keep_a").click()
    expect(button(page, "clear_a")).to_be_enabled(timeout=30_000)
    lr = page.get_by_role("spinbutton", name="Learning rate")
    lr.fill("0.3")
    lr.press("Enter")
    # the run shown is kept (nothing is thrown away by a setting change) until "Start a new run"
    expect(page.get_by_text("You changed the settings after this run was started")).to_be_visible(
        timeout=30_000
    )
    button(page, "new").click()
    expect(button(page, "pause")).to_be_visible(timeout=20_000)
    # run B's curve is drawn: 100 sequences; for the README picture as many as run A had at the
    # measurement (1,500 at most), so the wait scales with this machine's measured speed
    page.wait_for_function(
        SEQUENCES_AT_LEAST, arg=max(100, min(1_500, later)) if REFRESH_DOCS else 100, timeout=240_000
    )
    pause_and_settle(page)
    loss = page.locator(CHART).first
    expect(loss).to_contain_text("A: LSTM 1997 · RTRL · lr 1")
    expect(loss).to_contain_text("B: LSTM 1997 · RTRL · lr 0.3")
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    assert "cfg=" in page.url  # the new learning rate is in the link
    screenshot(page, "train-overlay")


def test_train_bad_link_gives_a_message(streamlit_server, page):
    page.goto(f"{streamlit_server}/train?cfg=%7B%22lr%22%3A%22fast%22%7D")
    wait_for_app(page)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    expect(page.locator("[data-testid='stAlertContentError']").first).to_contain_text("finite number")
    expect(page.locator(CHART)).to_have_count(6, timeout=60_000)


def test_two_tabs_never_share_a_model(streamlit_server, browser):
    """Each browser tab is its own session: training in one leaves the other's run untouched."""
    tabs = [browser.new_context(viewport={"width": 1400, "height": 1200}).new_page() for _ in range(2)]
    try:
        for tab in tabs:
            tab.goto(f"{streamlit_server}/train?cfg=" + quote(json.dumps({"streak": 5000})))
            wait_for_app(tab)
            expect(tab.locator(CHART)).to_have_count(6, timeout=60_000)
        first, second = tabs
        button(first, "start").click()
        first.wait_for_function(
            "() => /^\\s*[1-9][\\d,]* of/.test("
            "document.querySelector(\"[data-testid='stProgress']\")?.innerText || '')",
            timeout=30_000,
        )
        second.reload()  # a fresh look at the other session
        wait_for_app(second)
        expect(second.locator(CHART)).to_have_count(6, timeout=60_000)
        assert sequences(second) == 0
        expect(button(second, "start")).to_be_visible()
        assert sequences(first) > 0
        button(first, "pause").click(timeout=10_000)
    finally:
        for tab in tabs:
            tab.context.close()


def test_a_drag_zoom_is_kept_while_training_redraws_in_place(streamlit_server, tall_page):
    """The live charts (app/ui/live.py) keep one Plotly div and update it in place (Plotly.react for a
    whole figure, Plotly.extendTraces for the live feed's new points), so a
    mouse drag-zoom made while training is kept by Plotly itself (uirevision), through every
    update, a Pause (a rerun of the live part) and until a double click."""
    page = tall_page
    page.goto(f"{streamlit_server}/train?cfg=" + quote(json.dumps({"streak": 5000})))
    wait_for_app(page)
    expect(page.locator(CHART)).to_have_count(6, timeout=60_000)
    plot = ".st-key-train-loss .gatelab-live"
    draws = f"() => Number(document.querySelector('{plot}')?.dataset.draws || 0)"
    button(page, "start").click()
    expect(button(page, "pause")).to_be_visible(timeout=20_000)
    page.wait_for_function(f"() => ({draws})() >= 3", timeout=60_000)  # updating while training
    page.evaluate(f"() => {{ window.__lossDiv = document.querySelector('{plot}'); }}")
    box = page.locator(f"{plot} .nsewdrag").first.bounding_box()
    assert box is not None
    y = box["y"] + 0.5 * box["height"]
    x0, x1 = box["x"] + 0.3 * box["width"], box["x"] + 0.6 * box["width"]
    # A slow drag, during which the chart keeps being updated (it is not remounted under the mouse).
    before = page.evaluate(draws)
    page.mouse.move(x0, y)
    page.mouse.down()
    page.mouse.move(x0 + 5, y + 1)
    page.wait_for_function(f"(n) => ({draws})() >= n + 2", arg=before, timeout=60_000)
    page.mouse.move(x1, y + 2, steps=8)
    page.mouse.up()
    xrange = f"() => {{ const l = document.querySelector('{plot}')._fullLayout.xaxis; return [l.autorange, l.range]; }}"
    auto, zoomed = page.evaluate(xrange)
    assert auto is False, "the drag did not zoom the x axis"
    after = page.evaluate(draws)
    page.wait_for_function(f"(n) => ({draws})() >= n + 3", arg=after, timeout=60_000)  # new data drawn ...
    assert page.evaluate(xrange) == [False, zoomed]  # ... in the zoomed view
    assert page.evaluate(f"() => document.querySelector('{plot}') === window.__lossDiv")  # the same div
    pause_and_settle(page)  # the live part's rerun sends the whole figure again
    assert page.evaluate(xrange) == [False, zoomed]
    # A double click (autoscale) zooms out; the next updates follow the data again.
    box = page.locator(f"{plot} .nsewdrag").first.bounding_box()
    page.mouse.dblclick(box["x"] + 0.5 * box["width"], box["y"] + 0.5 * box["height"])
    page.wait_for_function(f"() => ({xrange})()[0] === true", timeout=30_000)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)


def test_class_link_locks_training_and_seed_and_keeps_them_after_a_reload(streamlit_server, tall_page):
    """A teacher's class link (app/ui/classlink.py): the locked groups' widgets are greyed out with the
    teacher's values, still after a reload; an unlocked one works, and "Reset to the teacher's
    settings" puts it back."""
    from app.train.settings import CLASS_GROUPS, DEFAULTS
    from app.ui import classlink

    page = tall_page
    teacher = {**DEFAULTS, "lr": 0.3, "seed": 7, "long_lag.p": 12}
    url = classlink.link(
        teacher, DEFAULTS, ["Training", "Seed"], CLASS_GROUPS, base=f"{streamlit_server}/train"
    )
    lr = page.get_by_role("spinbutton", name="Learning rate")
    p = page.get_by_role("spinbutton", name="p", exact=True)
    for reload in (False, True):
        page.reload() if reload else page.goto(url)
        wait_for_app(page)
        expect(page.locator("[data-testid='stException']")).to_have_count(0)
        expect(page.get_by_text("Class link from your teacher")).to_be_visible()
        expect(page.get_by_text("Locked (greyed out): Training, Seed")).to_be_visible()
        expect(lr).to_be_disabled()
        expect(lr).to_have_value("0.3")
        expect(p).to_be_enabled()
        expect(p).to_have_value("12")
    p.fill("20")
    p.press("Enter")
    page.wait_for_function(LINK_SETTING, arg=["long_lag.p", 20], timeout=30_000)  # the rerun wrote the link
    expect(p).to_have_value("20")
    page.get_by_role("button", name="Reset to the teacher's settings").click()
    expect(p).to_have_value("12")
    expect(lr).to_be_disabled()
    expect(page.locator(CHART)).to_have_count(6, timeout=60_000)
    lr.scroll_into_view_if_needed()  # the locked Training group in the picture
    screenshot(page, "train-class-link", full_page=False)


def test_served_as_the_plain_script_the_charts_train_live_without_the_feed(plain_streamlit_server, tall_page):
    """``streamlit run app/main.py`` (no feed route, as a host may run it): the charts find no feed
    and the fragment timer trains and redraws them, as before the feed."""
    page = tall_page
    page.goto(f"{plain_streamlit_server}/train?cfg=" + quote(json.dumps({"streak": 5000})))
    wait_for_app(page)
    expect(page.locator(CHART)).to_have_count(6, timeout=60_000)
    button(page, "start").click()
    expect(button(page, "pause")).to_be_visible(timeout=20_000)
    loss = ".st-key-train-loss .gatelab-live"
    page.wait_for_function(
        f"() => Number(document.querySelector('{loss}')?.dataset.patches || 0) >= 5", timeout=120_000
    )  # redrawn in place by the fragment's runs
    first = sequences(page)
    page.wait_for_function(SEQUENCES_AT_LEAST, arg=first + 1, timeout=120_000)
    assert page.evaluate(f"() => document.querySelector('{loss}').dataset.feeds") == "0"
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
