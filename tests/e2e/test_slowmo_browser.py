"""Real browser (Debian Chromium, 1366×768): slow motion through one timestep on Step through a cell —
each Next operation moves the label on by one, the diagram updates, Back goes back; screenshots."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.step import slowmo

from .conftest import screenshot, wait_for_app

pytestmark = pytest.mark.e2e


def test_slow_motion_steps_through_the_operations(streamlit_server, page):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{streamlit_server}/step")
    wait_for_app(page)
    page.get_by_text("Slow motion", exact=True).click()
    wait_for_app(page)
    expect(page.get_by_text("Operation 1 of 7: net inputs")).to_be_visible()
    diagram = page.locator(".gatelab-live").first
    expect(diagram).to_contain_text("?")  # nothing computed yet but net inputs
    screenshot(page, "step-slowmo-1", full_page=False)
    for k in range(1, 4):
        page.get_by_role("button", name="Next operation").click()
        expect(page.get_by_text(f"Operation {k + 1} of 7: {slowmo.OPS[k]}")).to_be_visible()
        wait_for_app(page)
    diagram.scroll_into_view_if_needed()
    screenshot(page, "step-slowmo-4", full_page=False)  # the CEC update
    page.get_by_role("button", name="Previous").click()
    expect(page.get_by_text("Operation 3 of 7: cell input")).to_be_visible()
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
