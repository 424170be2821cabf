"""Session-state helpers: per-page namespaces, widget values, messages and "last good result".

Everything a user owns lives in ``st.session_state`` (one per browser tab), never in module
globals or ``st.cache_resource``, so two tabs never see each other's model or settings.

Naming: a page's widgets have keys ``"<page>.<name>"``; a page's own bookkeeping (cursor,
last good result, pending messages) lives in the dict ``st.session_state["_page.<page>"]``.
Widgets are created with ``persist_state="session"`` (see ``controls``), so their values
survive a visit to another page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import streamlit as st

import lstm_core as lc
from app import i18n
from app.i18n import N_, _, core_errors
from app.ui.figures import LARGE_SCALE

T = TypeVar("T")

LARGE_FONTS_KEY = "gatelab.large_fonts"  # shared by every page (sidebar toggle)
PRESENT_KEY = "gatelab.presenter"  # presenter mode (projector), shared by every page
# Display switches kept in the URL next to ``cfg`` (a link opens with large fonts / presenting):
# URL parameter -> session-state key.
DISPLAY_PARAMS = {"large": LARGE_FONTS_KEY, "present": PRESENT_KEY}
# Errors a user can cause with bad input: the core raises ValueError (invalid settings) or
# NonFiniteError (a NaN/inf in a forward pass); both are shown, never raised.
USER_ERRORS = (ValueError, lc.NonFiniteError)


def session_id() -> str:
    """This browser tab's Streamlit session id ("" outside a running script)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else ""


def wkey(page: str, name: str) -> str:
    """Widget key of setting ``name`` on ``page``."""
    return f"{page}.{name}"


def page_state(page: str) -> dict:
    """The page's private dict in this session (created on first use)."""
    return st.session_state.setdefault(f"_page.{page}", {})


def set_widget_values(page: str, values: dict[str, Any], overwrite: bool = True) -> None:
    """Put values into the page's widget keys (before the widgets are drawn, or in a callback).

    Streamlit refuses to change a widget's value after the widget was drawn in the same run;
    ``form.start_page`` calls this first thing, and reset/import buttons call it from their
    ``on_click``/``on_change`` callbacks, which run before the script.
    """
    ss = st.session_state
    for name, value in values.items():
        key = wkey(page, name)
        if not overwrite and key in ss:
            continue
        ss[key] = value


# ----------------------------------------------------------------------------- messages
def flash(page: str, message: str, kind: str = "error", where: str = "page") -> None:
    """Queue a message for the page's next run (callbacks cannot draw elements themselves).

    ``where`` is the place it is drawn: "page" (the top, ``show_flashes``) or "io" (next to the
    uploader that caused it, ``export.io_panel``). ``kind="code"`` shows the text verbatim."""
    page_state(page).setdefault(f"_flash.{where}", []).append((kind, message))


def has_flashes(page: str, where: str = "page") -> bool:
    return bool(page_state(page).get(f"_flash.{where}"))


def show_flashes(page: str, where: str = "page") -> None:
    """Draw and forget the queued messages."""
    for kind, message in page_state(page).pop(f"_flash.{where}", []):
        if kind == "code":
            st.code(message, language=None, wrap_lines=True)
        else:
            {"error": st.error, "warning": st.warning, "success": st.success}.get(kind, st.info)(message)


# ----------------------------------------------------------------------------- last good result
@dataclass
class Kept(Generic[T]):
    """A computation's value (the new one, or the last good one) and the error, if any."""

    value: T | None
    error: str | None
    fresh: bool  # True when ``value`` was computed from the current settings


def keep_good(page: str, slot: str, compute: Callable[[], T]) -> Kept[T]:
    """Run ``compute``; on a user error return the last good value of ``slot`` with the message.

    This is the one place the pages catch errors: the message goes to ``st.error`` and the
    page keeps showing the previous good picture instead of a traceback.
    """
    ps = page_state(page)
    try:
        value = compute()
    except USER_ERRORS as e:
        return Kept(ps.get(f"_good.{slot}"), user_message(e), False)
    ps[f"_good.{slot}"] = value
    return Kept(value, None, True)


def user_message(e: BaseException) -> str:
    """A user error's message in this session's language (the core's English messages translated)."""
    if isinstance(e, lc.NonFiniteError):
        return _("The network produced a non-finite number (NaN or infinity): {why}").format(
            why=core_errors.translate(e)
        )
    return core_errors.translate(e) or type(e).__name__


def report(outcome: Kept, what: str = N_("these settings")) -> None:
    """Show an outcome's error with a note on what is displayed instead."""
    if outcome.error is None:
        return
    if outcome.value is None:
        st.error(_("Cannot use {what}: {why}").format(what=_(what), why=outcome.error))
    else:
        st.error(
            _("Cannot use {what}: {why}  \nShowing the last good result instead.").format(
                what=_(what), why=outcome.error
            )
        )


# ----------------------------------------------------------------------------- display options
def presenting() -> bool:
    """Presenter mode: large fonts, the main picture first, no export or developer details."""
    return bool(st.session_state.get(PRESENT_KEY, False))


def large_fonts() -> bool:
    """The shared large-font (projector) setting (always on while presenting)."""
    return bool(st.session_state.get(LARGE_FONTS_KEY, False)) or presenting()


def display_from_url() -> None:
    """Apply ``?large=1`` / ``?present=1`` from a link this session did not write itself."""
    seen = page_state("_display")
    for param, key in DISPLAY_PARAMS.items():
        raw = st.query_params.get(param)
        if raw is not None and raw != seen.get(param):
            st.session_state[key] = raw.strip().lower() in ("1", "true", "on", "yes")
        seen[param] = raw


def display_params() -> dict[str, str]:
    """The display switches that are on, as URL parameters (written with the page's ``cfg``)."""
    on = {param: "1" for param, key in DISPLAY_PARAMS.items() if st.session_state.get(key)}
    page_state("_display").update({param: on.get(param) for param in DISPLAY_PARAMS})
    return on


def display_options() -> bool:
    """Sidebar switches shared by every page: the language, presenter mode and projector-size fonts;
    returns whether charts use large fonts."""
    display_from_url()
    i18n.switch(st.sidebar)
    st.sidebar.toggle(
        _("Presenter mode"),
        key=PRESENT_KEY,
        persist_state="session",
        help=_(
            "For a projector at 1280 × 720: large fonts, the sidebar folded away, the main picture first "
            "and full width, no export or developer details. Also in the link (?present=1)."
        ),
    )
    st.sidebar.toggle(
        _("Large fonts (projector)"),
        key=LARGE_FONTS_KEY,
        persist_state="session",
        disabled=presenting(),
        help=_(
            "Bigger text in every chart, for a classroom projector (always on in presenter mode). "
            "Also in the link (?large=1)."
        ),
    )
    if large_fonts():
        _large_text()
    if presenting():
        _presenter_chrome()
    return large_fonts()


def intro(text: str) -> None:
    """A page's introduction under its title (left out while presenting: the picture comes first)."""
    if not presenting():
        st.caption(text)


def _base_font() -> float:
    """The theme's text size in px (``theme.baseFontSize``; Streamlit's own default is 16)."""
    return float(st.get_option("theme.baseFontSize") or 16)


def _large_text() -> None:
    """Every text of the page ``LARGE_SCALE`` × larger: Streamlit sizes its text in rem, so the root
    size scales body, captions, labels, buttons and titles at once (the theme's baseFontSize is the 1);
    captions lose their faded look, which a projector washes out."""
    st.html(
        f"<style>html {{ font-size: {_base_font() * LARGE_SCALE:.2f}px; }}"
        "[data-testid='stCaptionContainer'] { opacity: 1; }</style>"
    )


def _presenter_chrome() -> None:
    """Less chrome above the fold: a smaller top padding (3.75rem: Streamlit's header, which holds the »
    that unfolds the sidebar, is as tall and covers anything higher) and a title no larger than it needs — never
    smaller than without presenter mode (2.75rem of the normal root, 46.75 px) — (the sidebar, with
    the switch to leave presenter mode, is folded away behind the » at the top left)."""
    st.html(
        "<style>[data-testid='stMainBlockContainer'] { padding-top: 3.75rem; }"
        f"[data-testid='stMainBlockContainer'] h1 {{ font-size: {2.75 * _base_font():.2f}px; "
        "padding: 0 0 0.25rem 0; }</style>"
    )
