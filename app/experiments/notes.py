"""The Paper experiments page's generated English in this session's language: a results row's notes
(the reproduction command's sentences, a preset's texts); a preset's setup table is
``app.experiments.setup_table``'s.

A results file keeps each note as the core's words (``lstm_core.errors.words_to_json``: a template and
its values), translated here part by part by ``core_errors.text``; a plain string (a preset's text, or a
note of an older file) is looked up whole. In an English session every text stays exactly the core's.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from app.i18n import N_, current
from app.i18n.core_errors import text
from lstm_core.errors import words_from_json
from lstm_core.reproduce.results import join_notes

# Notes docs/results.json holds that no code writes any more: written by hand beside a run's own
# (its wall time on a machine that was timing the test suite), or a preset's note as an older run
# recorded it (the file keeps what the command wrote then).
RECORDED_NOTES = (
    N_(
        "wall time {wall} s includes ~{m} min stopped (SIGSTOP) while the test suite was timed on "
        "a quiet machine"
    ),
    N_("{n} s of CPU"),
    N_(
        "the paper's lr 1e-5 and momentum 0.9999; the paper's stream protocol: a stream of 100 spikes stops (the "
        "net is reset) at its first step with abs error ≥ 0.49; solved = 1,000 spikes in a row (10 whole "
        "streams); budget and 'sequences' count streams (the paper allows up to 10,000,000)."
    ),
)


def notes_line(notes: Any) -> str:
    """An outcome's notes (a list of sentences in the results file) as one line of text, each note in
    this session's language."""
    if notes is None or (isinstance(notes, float) and math.isnan(notes)):
        return ""
    if not isinstance(notes, (list, tuple, np.ndarray)):
        notes = [notes]
    words = [words_from_json(n) for n in notes]
    if current() == "en":
        return join_notes(words)
    parts = [text(w).strip() for w in words if str(w).strip()]
    return "；".join(
        n[:-1] if n.endswith(("。", ".")) and i < len(parts) - 1 else n for i, n in enumerate(parts)
    )
