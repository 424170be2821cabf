"""Real-browser test of the Theory page: it renders, KaTeX typesets, the demo chart reacts."""

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from app.theory import content as tc
from app.ui import urlstate

from .conftest import CHART, screenshot, settle, wait_for_app

pytestmark = pytest.mark.e2e


def url_settings(url: str) -> dict:
    """The settings the page's URL carries in ``?cfg=`` (only those that differ from the defaults)."""
    raw = parse_qs(urlparse(url).query).get(urlstate.PARAM)
    if not raw:
        return {}
    values, errors = urlstate.decode(raw[-1], lambda d: d)
    assert not errors, errors
    return values


def test_theory_page_renders(streamlit_server, page):
    page.goto(f"{streamlit_server}/theory")
    wait_for_app(page)
    expect(page.get_by_text("Page not found")).to_have_count(0)
    expect(page.get_by_role("heading", name="Theory").first).to_be_visible()
    expect(page.locator(CHART)).to_have_count(2, timeout=30_000)
    # KaTeX has typeset the equations (no raw TeX left) and the highlight boxes exist.
    expect(page.locator(".katex").first).to_be_visible()
    assert page.locator(".katex").count() >= 7
    assert page.locator(".katex-error").count() == 0
    assert page.locator(".katex .fcolorbox").count() >= 1
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    # the URL carries the demo's configuration in ?cfg= (nothing while every setting is the default)
    assert url_settings(page.url) == {} and "w=" not in page.url
    # One pair of variants per expander, the first open; a title opens and closes its pair, with the
    # mouse or from the keyboard.
    details = page.locator("[data-testid='stExpander'] details")
    pairs = [details.filter(has=page.locator("summary", has_text=label)) for label, _chain in tc.COMPARISONS]
    assert [p.count() for p in pairs] == [1] * len(pairs)
    assert [p.evaluate("d => d.open") for p in pairs] == [True] + [False] * (len(pairs) - 1)
    first, peepholes = pairs[0], pairs[3]
    expect(peepholes.locator("summary")).to_contain_text("peepholes")
    expect(first.locator(".katex-display").first).to_be_visible()
    expect(peepholes.locator(".katex-display").first).to_be_hidden()
    first.locator("summary").click()
    peepholes.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(peepholes.locator(".katex .fcolorbox").first).to_be_visible()  # its new terms framed
    expect(first.locator(".katex-display").first).to_be_hidden()
    # README pictures: the top of the page with the peephole pair open (highlighted terms), then the demo
    page.get_by_role("heading", name="Equations, side by side").scroll_into_view_if_needed()
    settle(page)
    screenshot(page, "theory")
    page.locator(CHART).nth(1).scroll_into_view_if_needed()
    settle(page)
    screenshot(page, "theory-demo")


# One link per kind in the browser (a page load of Theory is the dearest of all, KaTeX): an old-style
# link, converted to ?cfg= in the address bar, and a garbage one. Every kind of good and bad link is
# checked without a browser in tests/test_theory_page.py (the same code reads them), and a ?cfg=
# link opened in a new browser tab in test_pages_browser.py.
def test_theory_url_reproduces_the_demo(streamlit_server, page):
    page.goto(f"{streamlit_server}/theory?w=-2.5&f=tanh&amp=0.5&T=80&seed=3")
    wait_for_app(page)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    expect(page.locator("[data-testid='stError']")).to_have_count(0)
    slider = page.get_by_role("slider", name="recurrent weight w")
    expect(slider).to_have_value("-2.5")
    expect(page.get_by_role("slider", name="sequence length T")).to_have_value("80")
    assert url_settings(page.url) == dict(w=-2.5, f="tanh", amp=0.5, T=80, seed=3)


def test_theory_bad_url_gives_a_message(streamlit_server, page):
    page.goto(f"{streamlit_server}/theory?cfg=garbage")
    wait_for_app(page)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    error = page.locator("[data-testid='stAlertContentError']").first
    expect(error).to_contain_text("could not be used")
    expect(error).to_contain_text("not a Gate Lab configuration")
    expect(page.get_by_role("slider", name="recurrent weight w")).to_have_value("3")
    expect(page.locator(CHART)).to_have_count(2, timeout=30_000)


def test_theory_slider_changes_the_chart(streamlit_server, page):
    page.goto(f"{streamlit_server}/theory")
    wait_for_app(page)
    slider = page.get_by_role("slider", name="recurrent weight w")
    slider.scroll_into_view_if_needed()
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")  # 3.0 → 3.5 in steps of 0.1
    expect(slider).to_have_value("3.5")
    expect(page.locator(CHART).nth(1)).to_contain_text("w = 3.5", timeout=15_000)
    wait_for_app(page)
    assert url_settings(page.url) == {"w": 3.5}
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
