"""The Bias atlas in a real browser (Debian Chromium), in English and in 繁體中文: the answer at a lag,
its four charts drawn, one cell trained live on top of the atlas's own curve. Screenshots go to the
artifacts (docs/screenshots with ``make screenshots``)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from app.i18n import translate_in

from .conftest import CHART, screenshot, settle, wait_for_app

pytestmark = pytest.mark.e2e
MAIN = "[data-testid='stMain']"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_atlas_answers_and_trains_one_cell_live(page, streamlit_server, lang):
    t = lambda s: translate_in(lang, s)  # noqa: E731
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{streamlit_server}/bias-atlas?lang={lang}")
    wait_for_app(page)
    settle(page)
    expect(page.get_by_role("heading", name=t("Which gate biases for my time lag?"))).to_be_visible()
    expect(page.locator(f"{MAIN} {CHART.split(',')[0]}, {MAIN} {CHART.split(',')[1].strip()}")).to_have_count(
        4, timeout=60_000
    )  # solved against lag, the curves at the lag, memory times, error flow
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    screenshot(page, f"bias-atlas-{lang}", full_page=False)
    page.get_by_role("button", name=re.compile("^" + re.escape(t("Train this cell")))).click()
    live = page.locator(".st-key-atlas-live, [data-testid='stMain'] .gatelab-live").last
    expect(
        page.get_by_text(t("So far the same as the atlas's record, to the 5 digits it keeps."))
    ).to_be_visible(timeout=120_000)
    live.scroll_into_view_if_needed()
    screenshot(page, f"bias-atlas-live-{lang}", full_page=False)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
