"""Real browser (Debian Chromium, 1366×768): slow motion through one timestep on Step through a cell —
each Next operation moves the label on by one, the diagram updates, Back goes back; screenshots.
Within the timestep the operations move in the browser (issue 48): no figure comes from the server,
and the diagram drawn that way is what Plotly draws from the same layout."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.step import slowmo

from .conftest import DRAWN_AS_PLOTLY_WOULD, screenshot, wait_for_app

pytestmark = pytest.mark.e2e


def test_slow_motion_steps_through_the_operations(streamlit_server, page):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{streamlit_server}/step")
    wait_for_app(page)
    page.get_by_text("Slow motion", exact=True).click()
    wait_for_app(page)
    ops = page.locator(".gatelab-ops")  # the browser's own buttons (Streamlit's copies are hidden)
    expect(ops.get_by_text("Operation 1 of 7: net inputs")).to_be_visible()
    for server_copy in (
        ".st-key-step-server-ops",
        ".st-key-step-server-transport",
        ".st-key-step-server-equations",
    ):
        expect(page.locator(server_copy)).to_be_hidden()
    diagram = page.locator(".gatelab-live").first
    expect(diagram).to_contain_text("?")  # nothing computed yet but net inputs
    expect(diagram).to_have_attribute("data-step", "1")  # drawn at the first operation
    sent = diagram.evaluate("d => [d.dataset.fulls, d.dataset.patches]")
    screenshot(page, "step-slowmo-1", full_page=False)
    for k in range(1, 4):
        ops.get_by_role("button", name="Next operation").click()
        expect(ops.get_by_text(f"Operation {k + 1} of 7: {slowmo.OPS[k]}")).to_be_visible()
        expect(diagram).to_have_attribute("data-step", str(k + 1))
        expect(page.locator(".gatelab-eq")).to_have_attribute("data-step", str(k + 1))
    assert diagram.evaluate("d => [d.dataset.fulls, d.dataset.patches]") == sent  # none from the server
    same, seen = page.evaluate(DRAWN_AS_PLOTLY_WOULD, ".st-key-step-diagram .gatelab-live")
    assert same, seen
    diagram.scroll_into_view_if_needed()
    screenshot(page, "step-slowmo-4", full_page=False)  # the CEC update
    ops.get_by_role("button", name="Previous").click()
    expect(ops.get_by_text("Operation 3 of 7: cell input")).to_be_visible()
    # past the last operation: the next timestep's first (the server's move), the counter follows
    for _ in range(5):
        ops.get_by_role("button", name="Next operation").click()
    expect(ops.get_by_text("Operation 1 of 7: net inputs")).to_be_visible()
    expect(page.locator(".gatelab-scrub output")).to_have_text("2 / 22")
    # slow motion off: the browser's buttons go, and so does the mark that hid Streamlit's copies
    page.get_by_text("Slow motion", exact=True).click()
    wait_for_app(page)
    expect(ops).to_have_count(0)
    page.wait_for_function("() => !document.documentElement.classList.contains('gatelab-ops-on')")
    assert page.evaluate("() => document.documentElement.classList.contains('gatelab-scrub-on')")
    expect(page.locator(".st-key-step-server-transport")).to_be_hidden()
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
