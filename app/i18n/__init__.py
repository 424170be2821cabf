"""English / 繁體中文 / 简体中文: one translator per browser session, gettext catalogues (Babel).

    from app.i18n import _, N_
    st.button(_("Reset to paper defaults"))
    st.caption(_("{n} sequences per second").format(n=rate))   # placeholders, never f-strings
    LABEL = N_("Memory blocks")      # marked for extraction; translated where it is drawn: _(LABEL)

Sessions are threads of one server process, so a process-wide ``gettext.install`` would switch
every student's language at once. ``_`` therefore reads *this session's* language
(``st.session_state``; once per page run where ``pinned``) and looks the message up in that
language's catalogue; the catalogues themselves are read-only and shared (loaded once per process).

The catalogues are ``locale/<zh_TW|zh_CN>/LC_MESSAGES/<domain>.po``, one domain per part of the
app (``catalog.DOMAINS``), kept with ``python -m app.i18n.catalog`` (``pybabel extract`` / ``update``
/ ``compile``); zh_CN is derived from zh_TW (``catalog derive``, ``app/i18n/simplified.py``) and
reviewed. ``make run`` / ``make test`` compile them to ``.mo``; where nothing compiled them
(a host that only installs requirements.txt, a wheel) the ``.po`` is compiled in memory with
Babel at the first use. English is the source language: an English session gets the message
itself.

The language comes from ``?lang=`` in the link (``en`` / ``zh-TW`` / ``zh-CN``, written into every
link the app makes), else from the sidebar switch, else from the browser (``st.context.locale``,
``from_browser``: zh-Hant, zh-TW, zh-HK, zh-MO → 繁體中文; zh-Hans, zh-CN, zh-SG, zh-MY and a bare
zh → 简体中文).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import io
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

LANGUAGES = {"en": "English", "zh-TW": "繁體中文", "zh-CN": "简体中文"}
DEFAULT = "en"
PARAM = "lang"  # the URL parameter
KEY = "gatelab.lang"  # this session's language (session state)
CHOSEN = "gatelab.lang_chosen"  # True once a link or the switch chose it (not the browser)
SWITCH_KEY = "gatelab.lang_switch"  # the sidebar radio's own key (set from KEY before it is drawn)
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
# the switch's help: every language names itself, so it is the same text in all of them
SWITCH_HELP = "English / 繁體中文 / 简体中文 — also in the link (?lang=en, ?lang=zh-TW, ?lang=zh-CN)"
_GETTEXT = {"zh-TW": "zh_TW", "zh-CN": "zh_CN"}  # our language code -> gettext's
# a browser locale's script, else its region, decides between the two Chinese (zh-Hant-CN is
# Traditional, zh-Hans-HK Simplified); chs / cht: the old Windows tags
_TRADITIONAL = {"hant", "cht", "tw", "hk", "mo"}
_SIMPLIFIED = {"hans", "chs", "cn", "sg", "my"}


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (module-level constants,
    labels of ``Field`` objects: translated with ``_`` where they are drawn)."""
    return message


# The language ``pinned`` for a block of work, read once instead of from session state at each of the
# thousands of ``_`` calls a page run makes (a 100-step run's frames spent a fifth of their time
# there). A ContextVar is the running script thread's own and is reset when the block ends: it holds
# no session's state between runs.
_PINNED: contextvars.ContextVar[str | None] = contextvars.ContextVar("gatelab_language", default=None)


def current() -> str:
    """This session's language ("en" outside a running app, e.g. in the core's tests)."""
    pinned = _PINNED.get()
    if pinned is not None:
        return pinned
    if get_script_run_ctx(suppress_warning=True) is None:  # the core's tests, module import: English
        return DEFAULT
    lang = st.session_state.get(KEY)
    return lang if lang in LANGUAGES else DEFAULT


@contextlib.contextmanager
def pinned() -> Iterator[str]:
    """Within the block, this session's language as it is now, read once (``app/main.py`` pins it
    for the page's run once ``from_url`` has set it: only the switch's callback, which runs before
    a run, changes it later)."""
    token = _PINNED.set(current())
    try:
        yield _PINNED.get()
    finally:
        _PINNED.reset(token)


def _(message: str) -> str:
    """``message`` in this session's language (the message itself if it has no translation)."""
    lang = current()
    if lang == DEFAULT or not message:
        return message
    return translations(lang).gettext(message)


def labels(texts: Mapping[Any, str]) -> Callable[[Any], str]:
    """A ``format_func`` showing ``texts[option]`` (English) in this session's language.

    The language is taken now, not when an option is shown: Streamlit may call a format_func
    outside the script run (AppTest does, to find an option by its label), where the session's
    language is unknown and ``_`` would answer English."""
    lang = current()
    return lambda option: translate_in(lang, texts[option])


def pgettext(context: str, message: str) -> str:
    """``message`` in this session's language where the same English means different things on
    different pages ("Back" a step or a question; "shape" of an array or of a wave): the catalogue
    holds it under ``context``."""
    lang = current()
    if lang == DEFAULT or not message:
        return message
    return translations(lang).pgettext(context, message)


def translate_in(lang: str, message: str) -> str:
    """``message`` in ``lang`` whatever this session's language is (tests, links' previews)."""
    return message if lang == DEFAULT else translations(lang).gettext(message)


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """Every domain's catalogue of ``lang`` chained into one translator (loaded once)."""
    folder = LOCALE_DIR / _GETTEXT.get(lang, lang) / "LC_MESSAGES"
    chain: gettext.NullTranslations = gettext.NullTranslations()
    for po in sorted(folder.glob("*.po")):
        catalogue = _load(po)
        catalogue.add_fallback(chain)
        chain = catalogue
    return chain


def _load(po: Path) -> gettext.GNUTranslations:
    mo = po.with_suffix(".mo")
    if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    from babel.messages.mofile import write_mo  # only when nothing compiled it
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalogue = read_po(f)
    buf = io.BytesIO()
    write_mo(buf, catalogue, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def from_browser(locale: str | None) -> str:
    """The language for a browser locale such as "zh-TW", "zh-Hant-HK", "zh-CN", "en-GB" (None:
    English).

    A bare "zh" (a browser set to just "Chinese") reads 简体中文: the script Unicode's CLDR gives
    "zh" when nothing else is said (its likely subtags: zh → zh-Hans-CN), and the one most readers
    of such a browser use; a Taiwan, Hong Kong or Macau browser says its region (zh-TW, zh-HK,
    zh-MO), so it gets 繁體中文. The switch and the link correct either."""
    parts = (locale or "").strip().lower().replace("_", "-").split("-")
    if parts[0] != "zh":
        return DEFAULT
    for part in parts[1:3]:  # the script (zh-Hant-…) first, then the region (zh-TW)
        if part in _TRADITIONAL:
            return "zh-TW"
        if part in _SIMPLIFIED:
            return "zh-CN"
    return "zh-CN"


def from_url() -> None:
    """Set this session's language before anything is drawn: ``?lang=`` of a link this session did
    not write itself wins; a session's first run with no ``lang`` asks the browser."""
    raw = st.query_params.get(PARAM)
    seen = st.session_state.setdefault("_i18n.seen", {})
    if raw is not None and raw != seen.get("url"):
        wanted = next((code for code in LANGUAGES if code.lower() == raw.strip().lower()), None)
        if wanted is None and raw.strip().lower().replace("_", "-").split("-")[0] == "zh":
            wanted = from_browser(raw)  # ?lang=zh-Hans, zh_CN, zh-HK, zh: as a browser's locale
        if wanted is not None:
            st.session_state[KEY] = wanted
            st.session_state[CHOSEN] = True
    elif KEY not in st.session_state:
        st.session_state[KEY] = from_browser(getattr(st.context, "locale", None))
    seen["url"] = raw


def url_params() -> dict[str, str]:
    """The language as a URL parameter, written into every link the app makes once a link or the
    switch chose it (or it is not English): a link then opens in the language it was made in. A
    language only the browser chose stays out of the link, so the receiver's browser decides."""
    lang = current()
    if not st.session_state.get(CHOSEN) and lang == DEFAULT:
        return {}
    st.session_state.setdefault("_i18n.seen", {})["url"] = lang
    return {PARAM: lang}


def _chosen() -> None:
    st.session_state[KEY] = st.session_state[SWITCH_KEY]
    st.session_state[CHOSEN] = True


def switch(where=None) -> None:
    """The language switch (English / 繁體中文 / 简体中文), in the sidebar of every page.

    The language itself lives in ``KEY``, plain session state; the radio has a key of its own and is
    set from ``KEY`` before it is drawn. A widget on a page it was not drawn on before starts anew
    (Streamlit gives a page's widgets their own identity), so a radio owning ``KEY`` answered English
    for the first run after a page change."""
    where = where if where is not None else st.sidebar
    st.session_state[SWITCH_KEY] = current()
    # English and Chinese in the label: whoever opened the page in the wrong language can read it.
    where.radio(
        "Language · 語言",  # i18n: kept (both languages)
        list(LANGUAGES),
        format_func=LANGUAGES.__getitem__,
        key=SWITCH_KEY,
        horizontal=True,
        on_change=_chosen,
        help=SWITCH_HELP,
    )
