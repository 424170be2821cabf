"""The core's own texts that the app shows, marked for the catalogue (the core stays English and
never imports the app): variant titles, task titles, … Filled in by the translation of the core
texts; ``tests/test_i18n.py`` checks that every registry text shown is here."""
from __future__ import annotations

from app.i18n import N_

TEXTS: tuple[str, ...] = ()
