"""What a lesson is made of: a ``Lesson`` is a sequence of ``Question``s, each with three ``Choice``s.

A question's choices are ranges of the number its computation returns (``Choice.lo`` ≤ value
< ``Choice.hi``), so the right choice is read off the real model's result, never typed in. The
lessons themselves are ``app.lessons.content``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from app.i18n import N_, _
from app.lessons.compute import Outcome

INF = math.inf


@dataclass(frozen=True)
class Choice:
    text: str  # N_-marked; its {placeholders} are filled from ``args``
    lo: float
    hi: float
    args: tuple[tuple[str, object], ...] = ()

    @property
    def label(self) -> str:
        """The label in English (the source language)."""
        return self.text.format(**dict(self.args))

    def shown(self) -> str:
        """The label in this session's language."""
        return _(self.text).format(**dict(self.args))


@dataclass(frozen=True)
class Question:
    setup: str  # what was set up (markdown)
    ask: str  # the question
    choices: tuple[Choice, Choice, Choice]
    run: Callable[[int], Outcome]  # seed -> outcome (a real computation)
    why: Callable[[Outcome], str]  # the explanation, from the outcome's numbers
    chart: str  # "flow" (log scale, steps back) or "lines"
    chart_title: str
    x_label: str = N_("timestep t")
    y_label: str = ""

    def answer(self, outcome: Outcome) -> int:
        """Index of the choice whose range holds the computed value."""
        for i, ch in enumerate(self.choices):
            if ch.lo <= outcome.value < ch.hi or outcome.value == ch.hi == INF:
                return i
        raise ValueError(
            _(
                "the computed value {value} falls in none of the choices {choices}; the "
                "lesson's ranges need to cover it"
            ).format(value=repr(outcome.value), choices=[ch.shown() for ch in self.choices])
        )


@dataclass(frozen=True)
class Lesson:
    key: str
    title: str
    intro: str
    questions: tuple[Question, ...]
    takeaway: str
    see_also: str  # a page file (pages/<file>) to explore further
