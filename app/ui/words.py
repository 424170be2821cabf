"""The trainer's words as this page shows them, in this session's language.

``lstm_core``'s ``Trainer`` says where a run stands in English sentences it composes itself
(``message()``, ``criterion``, ``streak_words``); the core stays English, so this page composes
the same sentences from the trainer's numbers through the translator (in English they read
exactly as the core's). A diverged run's message names what went wrong in the core's words: it
goes through ``core_errors.translate``.
"""

from __future__ import annotations

from app.i18n import N_, _
from app.i18n.core_errors import text, translate
from lstm_core.tasks import Criterion
from lstm_core.training import Trainer
from lstm_core.training.bookkeeping import BUDGET, DIVERGED, SOLVED

# a run's status as the progress line says it (app/train/live_run.py: idle → running ⇄ paused → …)
STATUS = {
    "idle": N_("idle"),
    "running": N_("running"),
    "paused": N_("paused"),
    "stopped": N_("stopped"),
    "solved": N_("solved"),
    "budget": N_("budget"),
    "diverged": N_("diverged"),
    "queued": N_("queued"),
}


def status_word(name: str) -> str:
    return _(STATUS.get(name, name))


def streak(n: int, required: int, fixed_set: bool, best: bool = False) -> str:
    """``checkset.streak_words`` in this session's language."""
    values = dict(n=f"{n:,}", required=f"{required:,}")
    if fixed_set:
        if best:
            return _("at best {n} of the {required} fixed-set sequences right at one check").format(**values)
        return _("{n} of the {required} fixed-set sequences right at the last check").format(**values)
    return (_("best streak {n} of {required}") if best else _("streak {n} of {required}")).format(**values)


def description(crit: Criterion) -> str:
    """A task criterion's description in this session's language: a registry text, or the sentence the
    core composed around it (the Bias lab's changed goal, ``lstm_core.sweeps.sweep.with_goal``),
    translated part by part from its template."""
    return text(crit.wording) if crit.wording is not None else _(crit.description)


def criterion(tr: Trainer) -> str:
    """``Trainer.criterion`` (``checkset.criterion_text``) in this session's language."""
    crit, n = tr.task.criterion, tr.config.streak
    out = description(crit)
    if n and crit.check_every:
        return out + _(" — REPLACED here (REDUCED) by {n} training sequences in a row right").format(
            n=f"{n:,}"
        )
    if n and n != crit.streak:
        return out + _(" — REDUCED here to {n} in a row").format(n=f"{n:,}")
    return out


def message(tr: Trainer) -> str:
    """``Trainer.message()`` of a single network in this session's language."""
    if tr.K is not None:  # a population (not on this page): the core's words
        return translate(tr.message())
    b, fixed = tr.book, tr.fixed_set is not None
    s = b.status[0]
    if s == SOLVED:
        return _("solved: the criterion was met after {n} sequences ({criterion})").format(
            n=f"{b.solved_at[0]:,}", criterion=criterion(tr)
        )
    if s == BUDGET:
        return _(
            "stopped: the budget of {budget} sequences is used up without meeting the criterion ({streak})"
        ).format(
            budget=f"{tr.config.budget:,}", streak=streak(b.best_streak[0], tr.required, fixed, best=True)
        )
    if s == DIVERGED:
        return text(b.words[0])
    return _("running: {n} sequences, {streak}").format(
        n=f"{b.seen[0]:,}", streak=streak(b.streak[0], tr.required, fixed)
    )
