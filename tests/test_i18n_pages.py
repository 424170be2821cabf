"""Every page in both languages (Streamlit AppTest): no exception, zh-TW reads in Chinese, English
stays English, the switch keeps the settings and the link, and the language is per session.

What is read: every text element, widget label, option and help, the page's navigation titles, and
the charts' titles, axis titles and trace names (from the figure JSON sent to the browser). The
browser measures the same on the drawn page (tests/e2e/test_i18n_browser.py).
"""

from __future__ import annotations

import json

import pytest
from google.protobuf.json_format import MessageToDict
from i18n_measure import chinese_share
from page_helpers import ENTRY
from streamlit.testing.v1 import AppTest

from app.ui.routes import PAGES

TEXT_KEYS = {
    "body",
    "label",
    "text",
    "options",
    "placeholder",
    "help",
    "title",
    "caption",
    "value",
    "default",
}
ZH_GOAL = 0.9


SKIP_KEYS = {"labelVisibility", "type", "format", "id", "formId", "icon"}  # settings, not text


def _strings(d, keep: bool = False):
    if isinstance(d, dict):
        for k, v in d.items():
            if k not in SKIP_KEYS:
                yield from _strings(v, keep or k in TEXT_KEYS)
    elif isinstance(d, list):
        for v in d:
            yield from _strings(v, keep)
    elif isinstance(d, str) and keep:
        yield d


def _chart_texts(spec: dict):
    layout = spec.get("layout", {})
    for axis in layout.values():
        if isinstance(axis, dict):
            title = axis.get("title")
            yield title.get("text", "") if isinstance(title, dict) else (title or "")
    for ann in layout.get("annotations", []) or []:
        yield ann.get("text", "")
    for trace in spec.get("data", []):
        if trace.get("showlegend", True) is not False:
            yield trace.get("name", "") or ""


def visible_text(at: AppTest) -> str:
    """The words a user reads on the page (main area and sidebar)."""
    out: list[str] = []

    def walk(node):
        proto = getattr(node, "proto", None)
        if proto is not None:
            d = MessageToDict(proto)
            if "spec" in d and isinstance(d["spec"], str):  # a Plotly chart
                try:
                    out.extend(_chart_texts(json.loads(d["spec"])))
                except ValueError:
                    pass
            elif "data" in d and "componentName" in json.dumps(d)[:200]:
                pass
            else:
                out.extend(_strings(d))
        for child in (
            getattr(node, "children", {}).values()
            if isinstance(getattr(node, "children", None), dict)
            else []
        ):
            walk(child)

    walk(at._tree)
    return "\n".join(s for s in out if s)


def chinese_words_in_english(at: AppTest) -> int:
    """Chinese words on an English page, less the language switch (its label and help say
    "繁體中文", "简体中文" and "語言" in every language, so a reader of any can find it)."""
    text = visible_text(at).replace("繁體中文", "").replace("简体中文", "").replace("語言", "")
    return chinese_share(text)[1]


def open_in(route, lang: str | None, locale: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ENTRY), default_timeout=120)
    if lang:
        at.query_params["lang"] = lang
    at.run()  # first run (Home); switch_page then finds pages by file name
    if route is not PAGES[0]:
        at.switch_page(f"../pages/{route.file}").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("route", PAGES, ids=[r.url_path for r in PAGES])
def test_every_page_reads_in_chinese_with_lang_zh_tw(route):
    at = open_in(route, "zh-TW")
    assert at.session_state["gatelab.lang"] == "zh-TW"
    assert at.query_params.get("lang") == ["zh-TW"] or at.query_params.get("lang") == "zh-TW"
    share, zh, en = chinese_share(visible_text(at))
    assert share >= ZH_GOAL, f"{route.url_path}: {share:.0%} Chinese ({zh} Chinese words, {en} English)"


@pytest.mark.parametrize("route", PAGES, ids=[r.url_path for r in PAGES])
def test_every_page_stays_english_with_lang_en(route):
    at = open_in(route, "en")
    zh, en = chinese_words_in_english(at), chinese_share(visible_text(at))[2]
    assert zh == 0 and en > 20, f"{route.url_path}: {zh} Chinese words in English"


def test_switching_language_keeps_the_settings_the_link_and_the_model():
    step = next(r for r in PAGES if r.url_path == "step")
    at = open_in(step, "en")
    at.number_input(key="step.seed").set_value(7).run()
    cfg = at.query_params["cfg"]
    internals = at.session_state["_page.step"]
    before = {k: v for k, v in internals.items() if k.startswith("_url")}
    at.radio(key="gatelab.lang_switch").set_value("zh-TW").run()
    assert not at.exception
    assert at.number_input(key="step.seed").value == 7
    assert at.query_params["cfg"] == cfg and at.query_params["lang"] in ("zh-TW", ["zh-TW"])
    assert {k: v for k, v in at.session_state["_page.step"].items() if k.startswith("_url")} == before
    assert chinese_share(visible_text(at))[0] >= ZH_GOAL
    at.radio(key="gatelab.lang_switch").set_value("en").run()
    assert at.number_input(key="step.seed").value == 7 and chinese_words_in_english(at) == 0


def test_the_language_is_per_session():
    """Sessions are threads of one process: one student's Chinese never reaches another's page."""
    home = PAGES[0]
    zh = open_in(home, "zh-TW")
    en = open_in(home, "en")
    zh.run()
    en.run()
    assert chinese_share(visible_text(zh))[0] >= ZH_GOAL
    assert chinese_words_in_english(en) == 0


def test_without_a_link_the_browsers_language_decides(monkeypatch):
    import streamlit as st

    monkeypatch.setattr(type(st.context), "locale", property(lambda self: "zh-Hant-TW"), raising=False)
    at = open_in(PAGES[0], None)
    assert at.session_state["gatelab.lang"] == "zh-TW"
