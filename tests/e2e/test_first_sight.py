"""First sight: every page opened at its defaults tells the story it exists to tell (issue 12).

One test per page. Each opens the page in Chromium exactly as a student would (no settings
changed), checks the page's lesson from what is on screen, and saves screenshots at 1366×768
(normal fonts) and 1280×720 with the *Large fonts (projector)* toggle on, to the ignored folder
tests/e2e/artifacts/first-sight/ — for a person to look at, not committed.

Each screenshot is taken twice: ``<page>-<size>-view.png`` is what fits in the window (the first
sight), ``<page>-<size>-full.png`` the whole page (the window stretched to the page's height, so
Streamlit's inner scrolling shows everything).
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACT_DIR, settle, wait_for_app

expect.set_options(timeout=30_000)
pytestmark = pytest.mark.e2e

OUT = ARTIFACT_DIR / "first-sight"
SIZES = {"1366x768": (1366, 768, False), "1280x720-large": (1280, 720, True)}
MAX_FULL_HEIGHT = 7000


def large_toggle(page):
    return page.locator("[data-testid='stSidebar'] label").filter(has_text="Large fonts (projector)").locator("input")


def open_page(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    expect(page.get_by_text("Page not found")).to_have_count(0)


def shoot(page, url: str, name: str, ready=None) -> None:
    """Screenshots of ``url`` at both sizes; ``ready(page)`` waits for what must be drawn."""
    OUT.mkdir(parents=True, exist_ok=True)
    for size, (w, h, large) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        open_page(page, url)
        toggle = large_toggle(page)
        if toggle.is_checked() != large:
            page.get_by_text("Large fonts (projector)").click()
            expect(toggle).to_be_checked(checked=large)
            wait_for_app(page)
        if ready is not None:
            ready(page)
        settle(page)
        page.screenshot(path=str(OUT / f"{name}-{size}-view.png"))
        full = page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollHeight")
        page.set_viewport_size({"width": w, "height": min(int(full) + 40, MAX_FULL_HEIGHT)})
        wait_for_app(page)
        if ready is not None:
            ready(page)
        settle(page)
        page.screenshot(path=str(OUT / f"{name}-{size}-full.png"))
    # Back to normal fonts for whatever the test checks next (the toggle is shared by every page).
    page.set_viewport_size({"width": 1366, "height": 768})
    open_page(page, url)
    if large_toggle(page).is_checked():
        page.get_by_text("Large fonts (projector)").click()
        wait_for_app(page)


def charts_drawn(n: int):
    def ready(page) -> None:
        expect(page.locator("[data-testid='stPlotlyChart'] .js-plotly-plot").nth(n - 1)).to_be_visible()
    return ready


def number(text: str) -> float:
    """A number as the page prints it: '2.3e+06', '0.73', '1,234'."""
    return float(text.replace(",", ""))


def test_gradient_flow_tells_the_cec_story_first(streamlit_server, page):
    url = f"{streamlit_server}/gradient-flow"
    shoot(page, url, "gradient-flow", charts_drawn(2))
    main = page.locator("[data-testid='stMain']")
    claim = main.get_by_text(re.compile(r"50 steps back the 1997 cell keeps .* times more error than the RNN"))
    expect(claim).to_be_visible()
    ratio = number(re.search(r"keeps ([\d.e+,]+) times", claim.inner_text()).group(1))
    assert ratio >= 1e4, ratio
    # The table's two numbers agree with the claim (kept 50 steps back: 1997 cell / RNN).
    cells = {r.locator("td").nth(0).inner_text(): number(r.locator("td").nth(1).inner_text())
             for r in main.locator("table tbody tr").all()}
    assert set(cells) == {"rnn", "lstm1997"} and cells["lstm1997"] / cells["rnn"] >= 1e4, cells
    expect(main.get_by_text("σ(1) = 0.73")).to_be_visible()          # the forget gate, from the bias
    # The forget-gate LSTMs are one click away, and then their measured decay is in the text.
    main.get_by_role("button", name=re.compile("Add the forget-gate LSTMs")).click()
    wait_for_app(page)
    expect(main.get_by_text(re.compile(r"Measured per step: lstm2000 0\.7\d, lstm 0\.7\d"))).to_be_visible()
    rows = [r.locator("td").nth(0).inner_text() for r in main.locator("table tbody tr").all()]
    assert rows == ["rnn", "lstm1997", "lstm2000", "lstm"], rows
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
