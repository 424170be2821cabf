"""The core's ``ValueError`` messages as the app shows them, in this session's language.

``lstm_core`` raises in English (its Python API stays English); the app translates a message it
shows with ``translate``. Filled in by the translation of the core texts."""
from __future__ import annotations

from app.i18n import _


def translate(message: str) -> str:
    """A core error message in this session's language (unchanged when no rule matches)."""
    return _(message)
