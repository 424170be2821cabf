"""The rules of a class's state and of what a request may post: pure functions, no database.

A class's state is one JSON object the teacher changes (``store.ClassStore.update``): per question
(``"lesson/index"``) its current round, the last round revealed and whether its tally is shown on
the projector; the last *Follow me*; the hand-out of a sweep's cells. Every field a request
posts is checked here before SQL sees it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from app.classroom import schema as sc
from app.i18n import N_

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # join codes: no 0/O, 1/I/L
MAX_ROUNDS = 5
_KEY_RE = re.compile(rf"^[A-Za-z0-9_.:-]{{1,{sc.KEY_MAX}}}$")


class ClassRefused(ValueError):
    """A request the store refuses; ``str()`` is an English sentence marked for translation (N_),
    which the page shows through ``_``."""


def _qkey(lesson: str, question: int) -> str:
    return f"{lesson}/{question}"


def initial_state() -> dict[str, Any]:
    return {"rounds": {}, "revealed": {}, "show": {}, "follow": None, "handout": None, "shown_run": None}


def current_round(state: dict, lesson: str, question: int) -> int:
    return int(state.get("rounds", {}).get(_qkey(lesson, question), 1))


def revealed(state: dict, lesson: str, question: int) -> int:
    """The last round revealed to the class (0: none yet)."""
    return int(state.get("revealed", {}).get(_qkey(lesson, question), 0))


def reveal(state: dict, lesson: str, question: int) -> None:
    state.setdefault("revealed", {})[_qkey(lesson, question)] = current_round(state, lesson, question)


def vote_again(state: dict, lesson: str, question: int) -> None:
    rnd = current_round(state, lesson, question)
    if rnd >= MAX_ROUNDS:
        raise ClassRefused(N_("A question can be voted on at most five times."))
    state.setdefault("rounds", {})[_qkey(lesson, question)] = rnd + 1


def set_shown(state: dict, lesson: str, question: int, shown: bool) -> None:
    state.setdefault("show", {})[_qkey(lesson, question)] = bool(shown)


def is_shown(state: dict, lesson: str, question: int) -> bool:
    return bool(state.get("show", {}).get(_qkey(lesson, question), False))


# ---------------------------------------------------------------------- validation
def normalise_code(code: Any) -> str | None:
    """A typed code as stored (upper case, spaces and dashes dropped), or None if it cannot be one."""
    if not isinstance(code, str):
        return None
    code = re.sub(r"[\s-]", "", code).upper()[: sc.CODE_LEN + 1]
    return code if len(code) == sc.CODE_LEN and all(c in ALPHABET for c in code) else None


def clean_nickname(nickname: Any) -> str:
    """At most NICK_MAX printable characters, spaces collapsed; never refused (it is optional)."""
    text = "".join(ch for ch in str(nickname or "") if ch.isprintable())
    return " ".join(text.split())[: sc.NICK_MAX]


def check_key(value: Any) -> str:
    if not isinstance(value, str) or not _KEY_RE.match(value):
        raise ClassRefused(N_("That answer could not be sent (it is not one of the question's choices)."))
    return value


def check_int(value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ClassRefused(N_("A posted number is not a number."))
    if int(value) != value or not lo <= value <= hi:
        raise ClassRefused(N_("A posted number is out of range."))
    return int(value)


def _csv_text(text: str) -> str:
    """A nickname in a CSV cell that a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
