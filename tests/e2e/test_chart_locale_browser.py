"""Real browser: Plotly's own words on a chart are in the session's language (issue 44, item 5). A
live chart's toolbar buttons carry Chinese titles in a 繁體中文 and a 简体中文 session (the glossary's
words: 重設, not plotly.js's 重置), plotly.js's own locale file is served and registered, and the
locale changes no number on the chart (the tick labels read as in English). The server's side is
tests/test_chart_locale.py; what Streamlit itself writes in English is listed in docs/i18n.md."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.ui import live, saving

from .conftest import settle, wait_for_app

pytestmark = pytest.mark.e2e

LIVE = ".gatelab-live.js-plotly-plot"
# what each session's toolbar says: (download, reset axes, zoom, autoscale)
TITLES = {
    "zh-TW": ("下載圖表", "重設座標軸", "縮放", "自動縮放"),
    "zh-CN": ("下载图表", "重置轴", "缩放", "自动缩放"),
    "en": ("Download plot", "Reset axes", "Zoom", "Autoscale"),
}


def open_chart(page, base: str, lang: str):
    """Gradient flow in ``lang``, drawn; its first live chart, hovered (the toolbar shows on hover)."""
    page.goto(f"{base}/gradient-flow?lang={lang}")
    wait_for_app(page, timeout_ms=60_000)
    settle(page, timeout_ms=60_000)
    plot = page.locator(LIVE).first
    plot.scroll_into_view_if_needed()
    plot.hover()
    return plot


def ticks(plot) -> list[str]:
    return plot.locator(".xtick text, .ytick text").all_inner_texts()


@pytest.mark.parametrize("lang", ["zh-TW", "zh-CN"])
def test_the_toolbar_speaks_the_sessions_language(streamlit_server, page, lang):
    plot = open_chart(page, streamlit_server, lang)
    for title in TITLES[lang]:
        expect(plot.locator(f".modebar-btn[data-title='{title}']")).to_have_count(1)
    for title in TITLES["en"]:
        expect(plot.locator(f".modebar-btn[data-title='{title}']")).to_have_count(0)
    name = saving.PLOTLY_LOCALES[lang]
    assert plot.evaluate("(p) => p._context.locale") == name
    # plotly.js's own locale file: served as JavaScript and registered once in this tab
    page.wait_for_function("(n) => !!(window.__gatelabLocales && window.__gatelabLocales[n])", arg=name)
    file = live.locale_file(name).name
    got = page.request.get(f"{streamlit_server}/app/static/{file}?v={live.PLOTLY_VERSION}")
    assert got.status == 200 and "javascript" in got.headers.get("content-type", ""), got.headers


def test_the_locale_changes_no_number_on_the_chart(streamlit_server, page):
    english = ticks(open_chart(page, streamlit_server, "en"))
    chinese = ticks(open_chart(page, streamlit_server, "zh-TW"))
    assert english and chinese == english
