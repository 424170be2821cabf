"""A page's whole configuration in the URL: one ``cfg`` query parameter.

The value is the page's settings that differ from its defaults, as compact JSON, base64url
encoded (no padding), so links stay short and survive copy-paste into chat or slides:
``?cfg=eyJ2YXJpYW50Ijoicm5uIiwic2VlZCI6M30``. A hand-written ``?cfg={"seed":3}`` (plain,
percent-encoded JSON) is accepted as well.

``decode`` never raises: it returns the settings or a list of messages, and the page shows the
messages with ``st.error`` and falls back to its defaults. Validation of each value is the
caller's (``form.Schema.check``), so the same rules apply to URLs, uploads and widgets.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any

import streamlit as st

from app import i18n
from app.classroom import seat
from app.i18n import _
from app.ui.limits import MAX_QUERY_CHARS
from app.ui.state import DISPLAY_PARAMS, display_params

PARAM = "cfg"


def encode(values: dict[str, Any], defaults: dict[str, Any]) -> str:
    """The settings that differ from ``defaults`` as base64url JSON ("" when all are default)."""
    diff = {k: v for k, v in values.items() if k not in defaults or defaults[k] != v}
    if not diff:
        return ""
    text = json.dumps(diff, separators=(",", ":"), sort_keys=True, allow_nan=False)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode(text: str, check: Callable[[dict], dict]) -> tuple[dict | None, list[str]]:
    """Parse and validate an encoded configuration; ``(settings, [])`` or ``(None, errors)``."""
    if len(text) > MAX_QUERY_CHARS:
        return None, [
            _("the link's settings are {n} characters long; at most {most} are accepted").format(
                n=len(text), most=MAX_QUERY_CHARS
            )
        ]
    text = text.strip()
    if text.startswith(("{", "[")):
        raw = text
    else:
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode("utf-8")
        except (binascii.Error, ValueError, UnicodeDecodeError):
            return None, [
                _(
                    "the '{param}' parameter is not a Gate Lab configuration "
                    "(it is neither base64url-encoded JSON nor JSON)"
                ).format(param=PARAM)
            ]
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        return None, [
            _("the '{param}' parameter is not valid JSON ({why} at character {pos})").format(
                param=PARAM, why=e.msg, pos=e.pos
            )
        ]
    except RecursionError:
        return None, [
            _("the '{param}' parameter's JSON is nested too deeply to be a configuration").format(param=PARAM)
        ]
    if not isinstance(data, dict):
        return None, [
            _("the '{param}' parameter must hold a JSON object of settings, not {kind}").format(
                param=PARAM, kind=type(data).__name__
            )
        ]
    try:
        return check(data), []
    except ValueError as e:
        return None, [str(e)]


def readable(text: str, limit: int = 300) -> str:
    """What a link's ``cfg`` held, for the message that rejects it (the URL itself is replaced
    with the defaults at once, so the user could not see it otherwise): the decoded JSON when the
    value decodes to text, else the raw value; cut at ``limit`` characters."""
    text = text.strip()
    shown = text
    if not text.startswith("{"):
        try:
            shown = base64.urlsafe_b64decode(text[: 4 * limit] + "=" * (-len(text[: 4 * limit]) % 4)).decode(
                "utf-8"
            )
        except (binascii.Error, ValueError, UnicodeDecodeError):
            shown = text
    shown = "".join(c if c.isprintable() else "?" for c in shown)
    return (
        shown
        if len(shown) <= limit
        else shown[:limit] + _("… ({n} characters in all)").format(n=f"{len(text):,}")
    )


def read() -> tuple[str | None, list[str]]:
    """The raw ``cfg`` value of the current URL (or None) and messages about other parameters."""
    errors = []
    known = (PARAM, i18n.PARAM, *DISPLAY_PARAMS, *seat.PARAMS, seat.JOIN)
    unknown = [k for k in st.query_params.keys() if k not in known]
    if unknown:
        errors.append(
            _("unknown URL parameter(s) {names}; this page keeps all of its settings in '{param}'").format(
                names=unknown, param=PARAM
            )
        )
    raw = st.query_params.get(PARAM)
    return raw, errors


def write(encoded: str) -> None:
    """Make the URL hold exactly this page's configuration (no message if it already does)."""
    current = st.query_params.to_dict()
    wanted = ({PARAM: encoded} if encoded else {}) | display_params() | i18n.url_params() | seat.url_params()
    if seat.JOIN in current and seat.current() is None:
        wanted[seat.JOIN] = current[seat.JOIN]  # a join link not yet used: keep its code
    if current != wanted:
        st.query_params.from_dict(wanted)
