"""Real-browser test of the Home page."""

import pytest
from playwright.sync_api import expect

from .conftest import screenshot, wait_for_app

pytestmark = pytest.mark.e2e


def test_home_page_renders(streamlit_server, page):
    # The default page is served at the root URL (not at its url_path).
    page.goto(f"{streamlit_server}/")
    wait_for_app(page)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    expect(page.get_by_text("Page not found")).to_have_count(0)
    expect(page.get_by_role("heading", name="Gate Lab").first).to_be_visible()
    screenshot(page, "home")
