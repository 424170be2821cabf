"""What the model says of a prediction: right, a near miss, or far off — with the model's value.

The three choices of a question are ordered ranges of one computed value, so how far a wrong
prediction is can be said honestly: the choice next to the model's range is a near miss, the one
at the other end is far off; either way the verdict quotes the value the model computed, in the
choices' own units (a percentage where they speak in percent, a step where they count steps).
"""

from __future__ import annotations

import math
from typing import Any

from app.i18n import _
from app.lessons import progress
from app.lessons.questions import Question


def value_text(q: Question, value: float) -> str | None:
    """The computed value as the choices speak of it (None if it is not a finite number)."""
    if not math.isfinite(value):
        return None
    if any("%" in ch.text for ch in q.choices):
        return f"{value:.0%}"
    edges = [e for ch in q.choices for e in (ch.lo, ch.hi) if math.isfinite(e)]
    if edges and all(float(e).is_integer() and abs(e) >= 1 for e in edges) and float(value).is_integer():
        return f"{int(value)}"
    return f"{value:.2g}"


def _gap(next_sentence: str) -> str:
    """The space between two sentences: none before a Chinese one (full-width punctuation needs none)."""
    return "" if next_sentence[:1] > "\u2e7f" else " "


def show(where: Any, q: Question, pick: int, right: int, value: float) -> None:
    """Draw the verdict on ``pick`` (``progress.NO_PICK``: the presenter revealed it) in ``where``."""
    shown = value_text(q, value)
    said = (
        _("The model says **{right}** (its value: {value}).").format(
            right=q.choices[right].shown(), value=shown
        )
        if shown is not None
        else _("The model says **{right}**.").format(right=q.choices[right].shown())
    )
    if pick == progress.NO_PICK:  # revealed by the presenter: no one's prediction to judge
        where.info(said)
    elif pick == right:
        where.success(
            _("Your prediction — *{picked}* — is right.").format(picked=q.choices[pick].shown())
            + _gap(said)
            + said
        )
    elif abs(pick - right) == 1:
        where.warning(
            _("Close: you predicted *{picked}*, the range next to the model's.").format(
                picked=q.choices[pick].shown()
            )
            + _gap(said)
            + said
        )
    else:
        where.warning(
            _(
                "Far off: you predicted *{picked}*, the other end of the scale. Read below what makes the "
                "model land where it does."
            ).format(picked=q.choices[pick].shown())
            + _gap(said)
            + said
        )
