"""The paper presets' texts (``lstm_core.training.PRESETS``) stay English in the core and are
translated where the app shows them: every shown text is read from PRESETS into the ``experiments``
catalogue (``app/i18n/registry_texts.py``), has a zh-TW translation, and the Paper experiments
page's generated texts (setup table, results notes) come out in Chinese in a zh-TW session."""

from __future__ import annotations

import re

import pytest

from app import i18n
from app.experiments import notes as experiment_notes
from app.experiments import setup_table
from app.i18n import catalog, registry_texts
from lstm_core.training import PRESETS


def shown(p) -> list[str]:
    """The texts of a preset that the Paper experiments page or the Train page's preset picker show."""
    out = [
        p.title,
        p.paper,
        p.reported,
        p.notes,
        p.reduced.get("note", ""),
        p.build_task().criterion.description,
    ]
    if p.reduced:
        out.append(p.build_task(True).criterion.description)
    return [t for t in out if t]


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_shown_preset_text_is_read_into_the_experiments_catalogue(name):
    extracted = catalog.extracted("experiments")
    missing = [t for t in shown(PRESETS[name]) if (t, None) not in extracted]
    assert not missing, f"preset {name!r}: registry_texts.preset_texts misses {missing}"


def test_preset_texts_are_taken_from_the_registry_not_copied():
    texts = registry_texts.preset_texts()
    assert set(texts) == {t for p in PRESETS.values() for t in shown(p)}
    assert all(where.startswith("lstm_core.training.PRESETS ") for where in texts.values())


def test_every_preset_text_has_a_chinese_translation():
    missing = [t for p in PRESETS.values() for t in shown(p) if i18n.translate_in("zh-TW", t) == t]
    assert not missing, missing[:10]


@pytest.fixture
def zh(monkeypatch):
    from app.i18n import core_errors

    for module in (experiment_notes, core_errors):  # core_errors.text translates the core's words
        monkeypatch.setattr(module, "current", lambda: "zh-TW")
    # as app.i18n._ does, "" stays "" (a CoreList joined without a separator; gettext's "" is the header)
    monkeypatch.setattr(core_errors, "_", lambda m: i18n.translate_in("zh-TW", m) if m else m)


# test_the_setup_table_reads_in_chinese: in tests/test_preset_setup_words.py, with the setup table
# (app/experiments/setup_table.py), run in a zh-TW session


def english_left(text: str) -> str:
    """``text`` without the names a Chinese note keeps as they are: the cell (LSTM), a signal
    (SIGSTOP), code names and settings (input_to_output, `adding`, targets='last') and the glossary's term (peephole)."""
    return re.sub(r"LSTM|SIGSTOP|peephole|`[^`]*`|\w*=?'[^']*'|\w*_\w*", "", text)


def _summary_notes() -> list:
    """The notes the reproduction command writes for a row, from made-up unit results: unsolved,
    diverged (stuck), diagnostics, sequential construction and a preset's reduction note."""
    from lstm_core.errors import CoreList, CoreText, words_to_json
    from lstm_core.reproduce import experiments

    stuck = CoreText(
        "{who}stopped in sequence {at}: stuck — saturated {groups} on a check sequence (f′ ≈ 0, so almost no "
        "error flows back); {why}; {advice}",
        who=CoreText("member {k} (seed {seed}) ", k=1, seed=11),
        at="3,800",
        groups=CoreList(
            (CoreText("{group} ({pct} of unit-steps)", group=CoreText("input gate"), pct="100%"),)
        ),
        why=CoreText(
            "the loss has not improved by 1 % for {n} sequences (best {best})", n="2,500", best="0.524"
        ),
        advice=experiments_advice(),
    )
    member = dict(seed=0, status="diverged", sequences=10, solved_at=None, best_streak=3, cells_added_at=40)
    members = [
        {**member, "message": words_to_json(stuck), "diagnostics": {"flags": ["state drift: max |s| = 97"]}},
        {**member, "seed": 1, "status": "budget", "message": "", "diagnostics": {"flags": []}},
    ]
    unit = {"members": members, "wall": 1.0, "machine": ""}
    out = experiments.summarise("long_lag_random", 2, None, True, None, 0, [unit])
    return [words_to_json(n) for n in out.notes]


def experiments_advice():
    from lstm_core.training.stuck import advice

    return advice(0.1)


def test_the_results_notes_are_translated_part_by_part(zh):
    notes = _summary_notes()
    assert len(notes) >= 4 and any(isinstance(n, dict) for n in notes)
    for note in notes:
        out = experiment_notes.notes_line([note])
        assert out and not re.search(r"[A-Za-z]{4,}", english_left(out)), out
    assert experiment_notes.notes_line(["a sentence nobody wrote"]) == "a sentence nobody wrote"


def test_english_notes_and_setup_are_the_cores_own():
    from lstm_core.errors import words_from_json
    from lstm_core.reproduce.results import join_notes

    notes = _summary_notes()
    assert experiment_notes.notes_line(notes) == join_notes([str(words_from_json(n)) for n in notes])
    assert "unsolved networks: best streak median 3, max 3 of 1,000" in experiment_notes.notes_line(notes)
    assert "budget 20,000 sequences per network" in setup_table.setup_markdown(PRESETS["long_lag"])


def test_every_note_of_the_committed_results_reads_in_chinese(zh):
    """docs/results.json's notes are recorded English: the presets' texts and the command's recurring
    phrases among them are shown in Chinese (a new kind of note fails here: add a rule or a text)."""
    from app.experiments import results_file

    results, _source = results_file.load()
    notes = [n for ns in results.notes if isinstance(ns, list) for n in ns]
    left = [n for n in notes if re.search(r"[A-Za-z]{5,}", english_left(experiment_notes.notes_line([n])))]
    assert notes and not left, [experiment_notes.notes_line([n]) for n in left[:3]]
    # the command's notes are kept as the core's words (translated from their templates), not sentences
    assert sum(isinstance(n, dict) for n in notes) >= 60
