"""Real-browser run of the Bias lab's two 1997 demos: abuse problem and internal state drift.

Each demo trains both bias settings on the same seeds as one population in the browser and
shows the measured curves and table; screenshots: docs/screenshots/bias_abuse.png and
bias_drift.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.ui import urlstate

from .conftest import CHART, screenshot, settle, wait_for_app

pytestmark = pytest.mark.e2e

CHARTS = CHART


@pytest.mark.parametrize(
    ("view", "charts", "table_text"),
    [
        ("abuse", 1, "bias-unit cells"),
        ("drift", 4, "median sequences to criterion"),
    ],
)
def test_demo_trains_both_settings_and_shows_measured_curves(
    streamlit_server, page, view, charts, table_text
):
    page.set_viewport_size({"width": 1400, "height": 2000})
    page.goto(
        f"{streamlit_server}/bias-lab?{urlstate.PARAM}="
        + urlstate.encode({"view": view, "variant": "lstm1997"}, {})
    )
    wait_for_app(page)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    page.get_by_role("button", name="Train both settings").click()
    expect(page.get_by_text("Finished in").first).to_be_visible(timeout=300_000)
    wait_for_app(page)
    expect(page.locator(CHARTS)).to_have_count(charts, timeout=30_000)
    expect(page.get_by_text("2 settings × 4 seeds").first).to_be_visible()
    expect(page.get_by_text(table_text).first).to_be_attached()  # a data-grid header (canvas)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    settle(page)
    screenshot(page, f"bias_{view}")
