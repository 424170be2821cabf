"""English / 繁體中文 / 简体中文: the catalogues are complete, nothing a user reads bypasses the
translator, and the language is per session (the glossary's checks: tests/test_i18n_glossary.py).

The source check reads the app's code (``ast``): a text handed to a Streamlit call (labels, help,
captions, messages), to a figure (titles, axis titles, trace names, hover and annotation texts), a
``Field``'s label and help, or a ``ValueError`` raised in the app must be a call of ``_`` / ``N_``
(or ``_("…").format(…)``), not an English literal. A literal with no English word in it (numbers,
symbols such as ``y_in``, names such as LSTM or RTRL) needs nothing. A line that must stay as it is
says why with ``# i18n: kept``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from helpers import LABELLED_WIDGETS

from app import i18n
from app.i18n import catalog

ROOT = Path(__file__).resolve().parents[1]

from i18n_measure import NAMES  # noqa: E402 — names that stay as they are in both languages

UI_CALLS = LABELLED_WIDGETS | {
    "title",
    "header",
    "subheader",
    "caption",
    "markdown",
    "write",
    "text",
    "info",
    "warning",
    "error",
    "success",
    "toast",
    "metric",
    "status",
    "spinner",
    "progress",
    "dialog",
    "html",
    "flash",
    "intro",
    "Page",
}
TEXT_KWARGS = {
    "label",
    "help",
    "placeholder",
    "caption",
    "title",
    "title_text",
    "xaxis_title",
    "yaxis_title",
    "legend_title_text",
    "name",
    "text",
    "hovertemplate",
    "hovertext",
    "annotation_text",
    "alt",
    "body",
    "what",
    "why",
}
WORD = re.compile(r"[^\s.,;:!?()\[\]{}'\"“”‘’«»—–\-/|=<>+*×·…%#@&~`^$\\]+")


def prose(text: str) -> bool:
    """Does ``text`` hold an English word (not a name, symbol, number or placeholder)?"""
    if text.lstrip().startswith(("<style", "<script", ":material/")):
        return False
    text = re.sub(r"\{[^{}]*\}", " ", text)  # format placeholders
    text = re.sub(r"\$[^$]*\$", " ", text)  # inline LaTeX
    for token in WORD.findall(text):
        if re.fullmatch(r"[A-Za-z]{2,}", token) and token.lower() not in NAMES:
            return True
    return False


def _literal_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else " {} " for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        parts = [_literal_text(node.left), _literal_text(node.right)]
        return " ".join(p for p in parts if p) or None
    if isinstance(node, ast.IfExp):
        parts = [_literal_text(node.body), _literal_text(node.orelse)]
        return " ".join(p for p in parts if p) or None
    return None


def untranslated(path: Path) -> list[str]:
    """English literals in ``path`` that reach the user without the translator."""
    src = path.read_text(encoding="utf-8")
    lines = src.split("\n")
    out: list[str] = []

    def flag(node: ast.AST, what: str) -> None:
        text = _literal_text(node)
        # the marker may sit on any line of the literal or the line after it (where the formatter
        # leaves a trailing comment when it splits a call)
        near = "\n".join(lines[node.lineno - 1 : (node.end_lineno or node.lineno) + 1])
        if text is not None and prose(text) and "i18n: kept" not in near:
            out.append(f"{path.relative_to(ROOT)}:{node.lineno} {what}: {text.strip()[:70]!r}")

    for node in ast.walk(ast.parse(src)):
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and node.exc.args
            and getattr(node.exc.func, "id", "") == "ValueError"
        ):
            flag(node.exc.args[0], "ValueError")
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in ("_", "N_", "pgettext", "format"):
            continue
        if name in UI_CALLS and node.args:
            first = node.args[0]
            for item in (
                first.elts if isinstance(first, (ast.List, ast.Tuple)) and name == "tabs" else [first]
            ):
                flag(item, f"{name}()")
        if name in ("Field", "F") and len(node.args) > 1:
            flag(node.args[1], "Field label")
        for kw in node.keywords:
            if kw.arg in TEXT_KWARGS:
                flag(kw.value, f"{name}({kw.arg}=)")
            elif kw.arg == "subplot_titles" and isinstance(kw.value, (ast.List, ast.Tuple)):
                for item in kw.value.elts:
                    flag(item, f"{name}(subplot_titles=)")
    return sorted(out, key=lambda x: int(x.split(" ", 1)[0].rsplit(":", 1)[1]))


def test_the_source_check_finds_what_it_should(tmp_path):
    f = tmp_path / "page.py"
    f.write_text(
        'import streamlit as st\nst.button("Start")\nst.button(_("Start"))\nst.caption(f"{n} sequences")\n'
        'st.metric("y_in", 3)\nfig.update_layout(title="Loss")\nField("seed", N_("Seed"), help="Same seed")\n'
        'raise ValueError("bad value")\nst.markdown("<style>p { padding: 0 }</style>")\n'
        'st.caption("LSTM vs RNN")\nst.info("kept")  # i18n: kept\n',
        encoding="utf-8",
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = untranslated(f)
    finally:
        ROOT = saved
    assert [x.split(" ", 1)[1].split(":")[0] for x in found] == [
        "button()",
        "caption()",
        "update_layout(title=)",
        "Field(help=)",
        "ValueError",
    ], found


@pytest.mark.parametrize("domain", list(catalog.DOMAINS))
def test_no_user_facing_literal_bypasses_the_translator(domain):
    # The app's files. The core (whose error templates the core domain extracts) speaks English by design:
    # what it raises reaches a page through app/i18n/core_errors.py, which translates CoreError templates.
    app_files = [p for p in catalog.files(domain) if "lstm_core" not in p.relative_to(ROOT).parts]
    found = [line for path in app_files for line in untranslated(path)]
    assert not found, f"{len(found)} English literals reach the user untranslated:\n" + "\n".join(found)


@pytest.mark.parametrize("domain", list(catalog.DOMAINS))
def test_the_catalogue_is_complete(domain):
    """Every message the domain's code marks has a finished (non-fuzzy) zh-TW translation."""
    found = catalog.problems(domain)
    assert not found, f"{len(found)} messages of '{domain}' lack a zh-TW translation:\n" + "\n".join(
        found[:40]
    )


def test_every_file_of_the_app_belongs_to_a_domain():
    owned = {p for d in catalog.DOMAINS for p in catalog.files(d)}
    app_files = {p for base in ("app", "pages") for p in (ROOT / base).rglob("*.py")}
    missing = sorted(
        str(p.relative_to(ROOT))
        for p in app_files - owned
        if p.name != "__init__.py" and "i18n" not in p.parts
    )
    assert not missing, f"files no translation domain extracts: {missing}"


@pytest.mark.parametrize(
    "locale, lang",
    [
        ("zh-TW", "zh-TW"),
        ("zh-Hant", "zh-TW"),
        ("zh-HK", "zh-TW"),
        ("zh-Hant-HK", "zh-TW"),
        ("zh_TW", "zh-TW"),
        ("zh-CN", "zh-CN"),  # 简体中文: tests/test_i18n_zh_cn.py
        ("zh", "zh-CN"),
        ("en-GB", "en"),
        ("", "en"),
        (None, "en"),
        ("de", "en"),
    ],
)
def test_the_browsers_language_decides_without_a_link(locale, lang):
    assert i18n.from_browser(locale) == lang


def test_english_is_the_source_and_chinese_comes_from_the_catalogue():
    assert i18n.translate_in("en", "Presenter mode") == "Presenter mode"
    assert i18n.translate_in("zh-TW", "Presenter mode") != "Presenter mode"
    assert i18n.translate_in("zh-TW", "a message nobody wrote") == "a message nobody wrote"


def _pinned_script() -> None:
    import streamlit as st

    from app import i18n
    from app.i18n import _

    st.session_state[i18n.KEY] = "zh-TW"
    with i18n.pinned() as lang:
        st.session_state["inside"] = [lang, _("Presenter mode")]
        st.session_state[i18n.KEY] = "zh-CN"  # nothing does this in a run; the pin must hold anyway
        st.session_state["inside"].append(_("Presenter mode"))
    st.session_state["after"] = [i18n.current(), _("Presenter mode")]


def test_a_pinned_language_is_read_once_and_released_after_its_block():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_pinned_script).run()
    assert not at.exception, at.exception
    tw, cn = i18n.translate_in("zh-TW", "Presenter mode"), i18n.translate_in("zh-CN", "Presenter mode")
    assert tw != cn  # the two scripts write it differently, so the check below can tell them apart
    assert at.session_state["inside"] == ["zh-TW", tw, tw]
    assert at.session_state["after"] == ["zh-CN", cn]
    assert i18n.current() == "en"  # and nothing is left pinned outside a run
