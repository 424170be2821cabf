"""繁體中文 renders as the English does: no emphasis marker of a translation shows on screen.

Chinese has no spaces, so an emphasis marker that works in English can fail in Chinese: CommonMark
opens ``**`` only where it is "left-flanking" and closes it only where it is "right-flanking", and a
Chinese full stop or bracket next to the marker (``|u|^q**。啟發值**``, ``**CEC（…）**如何``) turns
the pair into four literal ``*`` on the page. Every message of every zh_TW catalogue and its
translation are rendered with CommonMark (markdown-it-py, the rules Streamlit's renderer follows
for emphasis and code spans) and the text the reader sees (tags stripped) is compared: a ``*``,
``_`` or backtick that the translation shows more often than the English is a stray marker.
Literal symbols the English shows too (``s_c``, ``y_in``, ``* = reduced settings``) count the same
on both sides and pass. The other way round, a translation keeps the English's emphasis: as many
bold, italic and code elements.

A placeholder (``{name}``) is rendered as a plain word, as its value is at run time; typeset
equations (``$…$``, ``$$…$$``) are left out: KaTeX draws them, not the Markdown renderer.
"""

from __future__ import annotations

import html
import re

import pytest
from helpers import translated_messages

MarkdownIt = pytest.importorskip("markdown_it").MarkdownIt  # requirements-dev.txt

MARKERS = ("*", "_", "`")
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.S)
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
TAG = re.compile(r"<[^<>]*>")
_MD = MarkdownIt("commonmark")


def rendered(text: str) -> str:
    """``text`` rendered as CommonMark (HTML), placeholders as plain words and equations left out."""
    text = MATH.sub(" X ", text.replace("{{", "(").replace("}}", ")"))
    return _MD.render(PLACEHOLDER.sub("X", text))


def shown(text: str) -> str:
    """What a reader sees of ``text`` rendered as CommonMark: the text without its markup."""
    return html.unescape(TAG.sub("", rendered(text)))


def emphasis(text: str) -> dict[str, int]:
    """How many bold, italic and code elements ``text`` renders."""
    html_text = rendered(text)
    return {tag: html_text.count(f"<{tag}>") for tag in ("strong", "em", "code")}


def stray_markers(msgid: str, msgstr: str) -> dict[str, tuple[int, int]]:
    """marker -> (times the English shows it, times the translation shows it), where the
    translation shows it more often."""
    en, zh = shown(msgid), shown(msgstr)
    return {m: (en.count(m), zh.count(m)) for m in MARKERS if zh.count(m) > en.count(m)}


def messages(locale: str) -> list[tuple[str, str, str]]:
    return translated_messages(locale)


LOCALES = ("zh_TW", "zh_CN")


@pytest.mark.parametrize("locale", LOCALES)
def test_no_translation_shows_a_stray_emphasis_marker(locale):
    bad = [
        f"{domain}: {msgstr[:70]!r} shows {found} (English, Chinese) — from {msgid[:50]!r}"
        for domain, msgid, msgstr in messages(locale)
        if (found := stray_markers(msgid, msgstr))
    ]
    assert not bad, "emphasis markers that show on screen in Chinese:\n" + "\n".join(bad)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_translation_keeps_the_englishs_emphasis(locale):
    bad = [
        f"{domain}: {msgstr[:70]!r} renders {emphasis(msgstr)}, the English {emphasis(msgid)}"
        for domain, msgid, msgstr in messages(locale)
        if emphasis(msgid) != emphasis(msgstr)
    ]
    assert not bad, "translations that lose or add bold, italics or code:\n" + "\n".join(bad)


def test_the_checker_finds_a_misplaced_marker():
    # the bold pair closes after 。 and opens before a CJK character: four literal asterisks
    en = "the curve follows |u|^q. An **activation feedback** unit computes h(t)"
    assert stray_markers(en, "所以曲線沿著 |u|^q**。啟發值遞迴**單元計算 h(t)") == {"*": (0, 4)}
    assert stray_markers(en, "所以曲線沿著 |u|^q。**啟發值遞迴單元**計算 h(t)") == {}
    # a closing ** after a full-width bracket and before a CJK character does not close
    assert stray_markers("the **constant error carousel** keeps", "的**CEC（constant error carousel）**如何")
    assert not stray_markers(
        "the **constant error carousel** keeps", "的**CEC**（constant error carousel）如何"
    )
    # italics around a placeholder, and literal symbols the English shows too
    assert not stray_markers("you predicted *{picked}*;", "你預測的是*{picked}*；")
    assert not stray_markers("s_c and y_in", "s_c 與 y_in")
    assert stray_markers("keep `{command}` here", "保留 `{command} 在此") == {"`": (0, 1)}
    assert not stray_markers(r"let $\vartheta_u(t)$ be", r"令 $\vartheta_u(t)$ 為")
    assert emphasis("An **activation feedback** unit") == {"strong": 1, "em": 0, "code": 0}
    assert emphasis("q**。啟發值遞迴**單元") == {"strong": 0, "em": 0, "code": 0}
