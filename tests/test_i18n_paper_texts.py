"""The paper presets' texts (``lstm_core.training.PRESETS``) stay English in the core and are
translated where the app shows them: every shown text is read from PRESETS into the ``experiments``
catalogue (``app/i18n/registry_texts.py``), has a zh-TW translation, and the Paper experiments
page's generated texts (setup table, results notes) come out in Chinese in a zh-TW session."""

from __future__ import annotations

import pytest

from app import i18n
from app.experiments import notes as experiment_notes
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
    monkeypatch.setattr(experiment_notes, "current", lambda: "zh-TW")
    monkeypatch.setattr(experiment_notes, "_", lambda m: i18n.translate_in("zh-TW", m))


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_setup_table_reads_in_chinese(zh, name):
    from i18n_measure import chinese_share

    p = PRESETS[name]
    for reduced in (False, True) if p.reduced else (False,):
        text = experiment_notes.setup_markdown(p, reduced).split("\n", 3)[3]
        # the task row names the task and its settings as the code does (long_lag_random: p = 100, …)
        text = "\n".join(line for line in text.split("\n") if not line.startswith("| 任務 |"))
        share, _zh, en = chinese_share(text)
        assert share >= 0.9, f"{name}: {share:.0%} Chinese in\n{text}"


def test_the_results_notes_recurring_phrases_are_translated(zh):
    notes = [
        "unsolved networks: best streak median 3, max 6 of 1,000",
        "diagnostics of the unsolved networks: state drift in 2, output sits at the target mean in 2",
        "reduced: " + PRESETS["long_lag"].reduced["note"],
        PRESETS["long_lag_random_assisted"].notes,
    ]
    for note in notes:
        out = experiment_notes.note_text(note)
        assert out != note and "unsolved" not in out and "drift" not in out, out
    assert experiment_notes.note_text("a sentence nobody wrote") == "a sentence nobody wrote"


def test_english_notes_and_setup_are_the_cores_own():
    note = "unsolved networks: best streak median 3, max 6 of 1,000"
    assert experiment_notes.note_text(note) == note
    assert "budget 20,000 sequences per network" in experiment_notes.setup_markdown(PRESETS["long_lag"])


def test_every_note_of_the_committed_results_reads_in_chinese(zh):
    """docs/results.json's notes are recorded English: the presets' texts and the command's recurring
    phrases among them are shown in Chinese (a new kind of note fails here: add a rule or a text)."""
    from app.experiments import results_file

    results, _source = results_file.load()
    notes = {str(n) for ns in results.notes if isinstance(ns, list) for n in ns}
    left = sorted(n for n in notes if experiment_notes.note_text(n) == n)
    assert notes and not left, left[:5]
