"""The atlas command and its readers: --quick runs, writes its results and resumes; the page's live
cell retraces a unit's member bit for bit; the ranking, the pictures before training, the model check."""

from __future__ import annotations

import io
import json

import numpy as np

import lstm_core as lc
from app.bias_atlas.live_cell import CellWork, same_as_atlas
from lstm_core import atlas
from lstm_core.atlas.before import before_training
from lstm_core.atlas.check import check_loaded
from lstm_core.atlas.cli import main
from lstm_core.atlas.grid import QUICK, run_unit
from lstm_core.init_schemes import schemes_for


def test_quick_atlas_runs_writes_and_resumes(tmp_path, capsys):
    out, state = tmp_path / "atlas.json", tmp_path / "units.jsonl"
    args = [
        "--quick",
        "--out",
        str(out),
        "--table",
        str(tmp_path / "t.md"),
        "--workers",
        "1",
        "--no-progress",
    ]
    assert main([*args, "--state", str(state)]) == 0
    doc = json.loads(out.read_text())
    assert doc["command"] == f"python -m lstm_core.atlas --quick --out {out} --table {tmp_path / 't.md'}"
    n_units = len(QUICK.variants) * len(QUICK.tasks) * len(QUICK.lags)
    assert len(doc["units"]) == n_units and doc["machine"]
    for u in doc["units"]:
        assert len(u["members"]) == len(schemes_for(u["variant"])) * QUICK.seeds
        for m in u["members"]:
            assert len(m["curve"]) == len(u["at"])
            hit = next((a for a, r in zip(u["at"], m["curve"]) if r is not None and r <= QUICK.margin), None)
            assert m["solved_at"] == hit  # solved exactly when the curve first crosses the margin
    table = (tmp_path / "t.md").read_text()
    assert table.count("\n| ") == len(atlas.cells(doc)) + 2  # a row per cell (and the header, its rule)
    capsys.readouterr()
    assert main([*args, "--state", str(state)]) == 0  # again: every unit from the state file
    assert f"{n_units} units ({n_units} reused)" in capsys.readouterr().out


def test_the_live_cell_retraces_the_atlas_member():
    unit = run_unit({"grid": QUICK.to_dict(), "variant": "gru", "task": "copy", "lag": 6})
    rec = next(m for m in unit["members"] if m["scheme"] == "chrono" and m["seed"] == 1)
    work = CellWork(QUICK, "gru", "copy", 6, "chrono", 1)
    while not work.done:
        work.advance(1)
    assert work.at == unit["at"]
    assert work.curve == rec["curve"]  # a population member trains bit for bit as alone
    assert same_as_atlas(work, rec["curve"]) and not same_as_atlas(work, [r * 1.01 for r in rec["curve"]])


def _doc(rows: dict[str, list]) -> dict:
    """A results document with one unit: scheme -> [(solved_at, final_ratio) per seed]."""
    members = [
        {
            "scheme": s,
            "seed": k,
            "solved_at": a,
            "final_ratio": r,
            "best_ratio": r,
            "diverged": False,
            "curve": [r],
        }
        for s, seeds in rows.items()
        for k, (a, r) in enumerate(seeds)
    ]
    unit = {"variant": "lstm", "task": "adding_sum", "lag": 50, "at": [100], "members": members, "wall": 0}
    return {"grid": QUICK.to_dict(), "units": [unit]}


def test_ranking_most_solved_then_fastest_then_lowest_loss():
    doc = _doc(
        {
            "zeros": [(None, 0.9), (None, 0.8)],
            "chrono": [(400, 0.01), (200, 0.02)],
            "ugi": [(100, 0.01), (None, 0.5)],
            "forget_one": [(200, 0.05), (200, 0.05)],
            "torch_default": [(None, 1.2), (None, 1.1)],
        }
    )
    r = atlas.ranking(doc, "lstm", "adding_sum", 50)
    assert list(r.scheme) == ["forget_one", "chrono", "ugi", "zeros", "torch_default"]
    assert r.solved.tolist() == [2, 2, 1, 0, 0] and r.median_to_solved.iloc[1] == 300


def test_before_training_chrono_carries_the_error_across_the_lag():
    b = {x.scheme: x for x in before_training("lstm", "adding_sum", 40, seed=0, grid=QUICK)}
    assert set(b) == set(schemes_for("lstm"))
    assert b["chrono"].reach > 100 * b["zeros"].reach  # computed by the exact backward pass
    assert np.median(b["chrono"].memory_times) > np.median(b["forget_one"].memory_times) > 2.0
    np.testing.assert_allclose(b["zeros"].memory_times, 2.0)  # σ(0) = ½: a memory of two steps


def _upload(forget_ih: float, forget_hh: float, H: int = 4, variant: str = "lstm") -> lc.LoadedModel:
    G = 4 if variant == "lstm" else 3
    b_ih, b_hh = np.zeros(G * H), np.zeros(G * H)
    b_ih[H : 2 * H], b_hh[H : 2 * H] = forget_ih, forget_hh
    buf = io.BytesIO()
    np.savez(
        buf,
        weight_ih_l0=np.zeros((G * H, 2)),
        weight_hh_l0=np.zeros((G * H, H)),
        bias_ih_l0=b_ih,
        bias_hh_l0=b_hh,
    )
    return lc.load_model_file(buf.getvalue(), "m.npz")


def test_model_check_names_the_two_vector_pitfall_only_when_both_are_set():
    both = check_loaded(_upload(1.0, 1.0), lag=5)
    assert both.pitfall == (1.0, 1.0)
    np.testing.assert_allclose(both.memory_times, 1 + np.exp(2.0))  # the gate sees 2
    assert both.reaching == 4  # 8.4 steps ≥ 5
    assert check_loaded(_upload(1.0, 0.0), lag=5).pitfall is None
    gru = check_loaded(_upload(3.0, 0.0, variant="gru"), lag=30)  # a GRU's update gate is its second too
    assert gru.variant == "gru" and gru.reaching == 0 and gru.pitfall is None
