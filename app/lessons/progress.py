"""A student's progress as one short text (kept in the URL with the page's settings).

``"vanishing:20,gates:1"`` = in lesson *vanishing* the first two questions were revealed after
predicting choices 2 and 0; in *gates* the first after choice 1. A question is revealed when
its prediction is recorded; questions are answered in order. ``x`` is a question revealed with no
prediction recorded (``NO_PICK``): a presenter's clicker revealed it after the class voted by hands.
"""

from __future__ import annotations

from app.i18n import _
from app.lessons.content import LESSONS

NO_PICK = -1  # revealed without a recorded prediction (written "x")


def parse(text: str) -> tuple[dict[str, list[int]], list[str]]:
    """``{lesson: [choice, …]}`` and messages about the parts that were ignored (never raises)."""
    out: dict[str, list[int]] = {}
    bad: list[str] = []
    for part in filter(None, (p.strip() for p in (text or "").split(","))):
        key, _sep, digits = part.partition(":")
        lesson = LESSONS.get(key)
        if (
            lesson is None
            or not digits
            or any(d not in "012x" for d in digits)
            or len(digits) > len(lesson.questions)
        ):
            bad.append(part)
            continue
        out[key] = [NO_PICK if d == "x" else int(d) for d in digits]
    return out, bad


def to_text(answers: dict[str, list[int]]) -> str:
    """The inverse of ``parse`` (lessons in the page's order, empty ones left out)."""
    return ",".join(
        f"{k}:{''.join('x' if a == NO_PICK else str(a) for a in answers[k])}"
        for k in LESSONS
        if answers.get(k)
    )


def record(text: str, lesson: str, step: int, choice: int) -> str:
    """``text`` with the prediction ``choice`` (or ``NO_PICK``) for question ``step`` of ``lesson`` recorded."""
    answers, _ignored = parse(text)
    done = answers.setdefault(lesson, [])
    if step < len(done):
        done[step] = choice
    elif step == len(done):
        done.append(choice)
    else:
        raise ValueError(
            _(
                "question {n} of lesson {lesson} cannot be answered before question {first}; answer "
                "the questions in order"
            ).format(n=step + 1, lesson=repr(lesson), first=len(done) + 1)
        )
    return to_text(answers)


def forget(text: str, lesson: str) -> str:
    """``text`` without ``lesson``'s answers (start the lesson again)."""
    answers, _ignored = parse(text)
    answers.pop(lesson, None)
    return to_text(answers)
