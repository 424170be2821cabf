"""A paper preset's setup table (the Paper experiments page) in this session's language.

The core gives the table's lines as words (``Preset.setup``: ``CoreText`` / ``CoreList`` for the
model, training and criterion lines, the preset's own texts for its notes); each is translated part by
part with ``core_errors.text``, never read back from the English. In an English session every line is
exactly the core's (``Preset.describe`` prints the same).
"""

from __future__ import annotations

from typing import Any

from app.i18n import N_, _
from app.i18n.core_errors import text

SETUP_KEYS = {
    "task": N_("task"),
    "model": N_("model"),
    "training": N_("training"),
    "criterion": N_("criterion"),
    "notes": N_("notes"),
    "reduced": N_("reduced"),
}


def setup_markdown(preset: Any, reduced: bool = False) -> str:
    """The preset's setup as a small two-column table (task settings as "name = value", not a dict)."""
    task = preset.build_task(reduced)
    rows = {"task": f"{task.name}: " + ", ".join(f"{k} = {_value(v)}" for k, v in task.settings().items())}
    rows.update({key: text(words) for key, words in preset.setup(reduced).items()})
    body = "\n".join(f"| {_(SETUP_KEYS[k])} | {v.replace('|', '/')} |" for k, v in rows.items())
    return _("| part | setup |") + "\n|---|---|\n" + body  # a named header: an empty one draws a blank row


def _value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(x) for x in v)
    return str(v)
