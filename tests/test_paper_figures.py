"""Every row of an experiment the paper reports shows the paper's figure: the embedded-Reber presets
take theirs from Table 1 of the 1997 paper (``presets_reber.REBER_TABLE_1``, by net and learning rate), and
the committed results (docs/results.json, hence docs/results.md and the summary in docs/reproducing.md, which other
tests keep equal to it) and the Paper experiments page carry the preset's figure."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from app.experiments import figures as experiment_figures
from app.experiments import results_file
from lstm_core.reproduce.results import Outcome
from lstm_core.training import PRESETS
from lstm_core.training.presets_reber import REBER_TABLE_1, reber_reported

ROWS = json.loads((results_file.DOCS / "results.json").read_text(encoding="utf-8"))
REBER = {n: p for n, p in PRESETS.items() if p.task == "embedded_reber"}
ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"


def net(p) -> tuple[int, int, float]:
    return p.model.n_blocks, p.model.block_size, p.train.lr


def test_table_1_covers_both_nets_of_the_paper():
    assert {(b, c) for b, c, _ in REBER_TABLE_1} == {(3, 2), (4, 1)}
    assert REBER_TABLE_1[(3, 2, 0.5)] == (100, 8_440)


@pytest.mark.parametrize("name", sorted(REBER))
def test_every_reber_preset_shows_its_table_1_line(name):
    p = REBER[name]
    blocks, cells, lr = net(p)
    assert p.paper_sequences is not None, (
        f"{name}: the paper reports this net (Table 1) but the preset has no figure"
    )
    same_net = {r: m for (b, c, r), (_, m) in REBER_TABLE_1.items() if (b, c) == (blocks, cells)}
    nearest = min(same_net, key=lambda r: (abs(r - lr), r))
    assert p.paper_sequences == same_net[nearest]
    assert f"{same_net[nearest]:,} sequences" in p.reported and "Table 1, line LSTM" in p.reported
    if nearest != lr:  # never passed off as the row's own lr
        assert f"Table 1 has no line at lr {lr:g}" in p.reported


def test_the_two_rows_of_issue_35_get_their_figures():
    assert PRESETS["embedded_reber_lr01"].paper_sequences == 21_730  # 3 × 2, lr 0.1
    assert PRESETS["embedded_reber_4x1"].paper_sequences == 9_500  # 4 × 1, nearest lr 0.2
    words, seqs = reber_reported(4, 1, 0.1)
    assert seqs == 39_740 and words.startswith("LSTM (RTRL), 4 blocks × 1 cell, lr 0.1: 100% of 30 trials")
    with pytest.raises(ValueError, match="no line"):
        reber_reported(2, 2, 0.5)


@pytest.mark.parametrize("row", ROWS, ids=[r["command"] for r in ROWS])
def test_every_committed_row_carries_its_presets_paper_figure(row):
    p = PRESETS[row["name"]]
    assert (row["paper"], row["paper_sequences"]) == (p.reported, p.paper_sequences), (
        f"{row['command']}: re-derive the row's paper figure from its preset"
    )
    if p.task == "embedded_reber":  # the paper reports every Reber net it ran
        assert row["paper_sequences"] is not None
        assert f"| {row['paper_sequences']:,.0f} |" in Outcome.from_dict(row).summary()


def test_the_paper_experiments_page_shows_the_table_1_figures():
    table = experiment_figures.gallery_table(PRESETS, pd.DataFrame(columns=results_file.COLUMNS))
    shown = dict(zip(table.experiment, table["paper: sequences"]))
    for p in REBER.values():
        assert shown[p.title] == f"{p.paper_sequences:,}", p.title
    at = AppTest.from_file(str(ENTRY), default_timeout=120)
    at.run()
    at.switch_page("../pages/experiments.py").run()
    at.selectbox(key="experiments.experiment").set_value("embedded_reber_4x1").run()
    assert not at.exception and not at.error
    comparison = at.dataframe[1].value
    assert (
        comparison.iloc[0]["source"] == "paper" and comparison.iloc[0]["median sequences (range)"] == "9,500"
    )
    assert any("Table 1 has no line at lr 0.5" in m.value for m in at.markdown)
