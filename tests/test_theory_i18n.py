"""The Theory page in 繁體中文: the words inside its equations are translated too, and the page's
other paths (other activation, underflow, explosion, a bad link, large fonts) draw in Chinese
without a ``.format`` slip. The page's English behaviour is tests/test_theory_page.py's."""

from __future__ import annotations

import re

import pytest
from helpers import chart_specs
from streamlit.testing.v1 import AppTest
from test_theory_page import cfg, open_theory

from app.i18n import translate_in
from app.theory import argument
from app.theory import content as tc

CJK = re.compile(r"[\u4e00-\u9fff]")


def _all_latex() -> list[str]:
    return [v.latex for v in tc.VARIANTS.values()] + [
        tex for _text, tex in argument.VANISHING + argument.CEC_AND_FIXES if tex
    ]


def test_every_word_inside_the_equations_is_a_message():
    """A word in \\text{…} / \\textsf{…} is translated only if LATEX_TEXTS lists it; an equation
    edited without updating the list would silently stay English."""
    words = {
        m[1]
        for tex in _all_latex()
        for m in re.finditer(r"\\text(?:sf)?\{([^{}]*)\}", tex)
        if re.search(r"[A-Za-z]{2,}", m[1])
    }
    assert words == set(tc.LATEX_TEXTS)
    for word in words:
        assert CJK.search(translate_in("zh-TW", word)), word


def open_zh(query: dict[str, str] | None = None, state: dict | None = None) -> AppTest:
    return open_theory({"lang": "zh-TW", **(query or {})}, state)


def _flow(at: AppTest) -> dict:
    return next(s for s in chart_specs(at) if s["layout"].get("uirevision") == "theory-flow")


@pytest.mark.parametrize(
    "query, verdict",
    [
        (cfg(w=0.0, amp=0.0, T=5), "必然消失"),  # underflow: the extra sentence
        (cfg(w=8.0, f="tanh", amp=0.0, T=150), "誤差變大了"),  # explosion
        (cfg(w=5.0, f="tanh", amp=3.0), "單元飽和"),
    ],
)  # the bound allows growth, saturation
def test_the_demo_reads_in_chinese_whatever_its_settings(query, verdict):
    at = open_zh(query)
    assert not at.error
    alt = next(c.value for c in at.caption if "對數刻度" in c.value)
    assert verdict in alt
    assert ("不畫在對數軸上" in alt) == (query == cfg(w=0.0, amp=0.0, T=5))
    names = [t.get("name", "") for t in _flow(at)["data"]]
    assert any("截斷梯度" in n for n in names) and any(n.startswith("上界") for n in names)
    assert any("靜態單元" in el.value for el in at.latex)
    assert at.title[0].value == "理論"


def test_a_bad_link_and_large_fonts_in_chinese():
    at = open_zh({"cfg": '{"w": 99}'}, state={"large_font": True})
    assert at.error and len(chart_specs(at)) == 2
    assert any(r"\large" in el.value and "選項" in el.value for el in at.latex)
