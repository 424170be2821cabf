"""Embedded Reber with the paper's fixed training and test sets (``sets``, ``set_seed``) and the
criterion judged on them (``Criterion.check_every``, ``lstm_core/training/checkset.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.sequence import forward
from lstm_core.tasks.reber import fixed_sets
from lstm_core.training import Trainer
from lstm_core.training.presets import PRESETS


def _strings(batch) -> list[str]:
    syms = np.asarray(batch.info["symbols"])
    return [
        "".join(lc.TASKS["embedded_reber"].symbols[i] for i in row[: n + 1])
        for row, n in zip(syms, batch.lengths)
    ]


def test_the_sets_are_fixed_by_their_seed_and_the_test_set_shares_no_string_with_training():
    train, test = fixed_sets(256, 0, 50)
    assert len(train) == len(test) == 256
    assert not set(train) & set(test)
    assert fixed_sets.__wrapped__(256, 0, 50) == (train, test)  # drawn again: the same
    assert fixed_sets.__wrapped__(256, 1, 50)[0] != train  # another seed: other strings
    assert all(len(s) <= 50 and s[1] == s[-2] for s in train + test)


def test_training_sequences_come_from_the_training_set_and_the_check_set_is_train_then_test():
    task = lc.get_task("embedded_reber", sets=16, set_seed=3)
    train, test = fixed_sets(16, 3, 50)
    drawn = _strings(task.generate(np.random.default_rng(0), 200))
    assert set(drawn) <= set(train) and len(set(drawn)) == len(set(train))
    assert _strings(task.check_set()) == list(train + test)
    assert task.criterion.streak == 32 and task.criterion.check_every == 16
    plain = lc.get_task("embedded_reber")
    assert plain.check_set() is None and plain.criterion.check_every is None and plain.criterion.streak == 256


@pytest.mark.parametrize(
    "settings, word",
    [
        ({"sets": -1}, "sets"),
        ({"sets": 10**6}, "sets"),
        ({"set_seed": -2}, "set_seed"),
        ({"sets": 2.5}, "sets"),
    ],
)
def test_bad_set_settings_are_named(settings, word):
    with pytest.raises(ValueError, match=word):
        lc.get_task("embedded_reber", **settings)


def _population(n: int = 3) -> lc.Model:
    base = PRESETS["embedded_reber_sets"].model
    return lc.build_population([base.replace(seed=s) for s in range(n)])


def test_each_check_counts_the_set_sequences_each_network_gets_right_with_its_current_weights():
    task = lc.get_task("embedded_reber", sets=8)
    tr = Trainer(_population(), task, algorithm="rtrl", lr=0.5, budget=1000)
    assert tr.fixed_set is not None and tr.book.by_check and tr.required == 16
    tr.train(40)  # 5 checks; the last right after the 40th sequence
    check = task.check_set()
    right = np.asarray(task.evaluate(forward(tr.model, check.xs, check=False).outputs, check).correct).sum(-1)
    np.testing.assert_array_equal(tr.book.streak, right)
    assert (tr.book.best_streak >= tr.book.streak).all()
    one = Trainer(lc.build(PRESETS["embedded_reber_sets"].model), task, algorithm="rtrl", lr=0.5, budget=16)
    assert "0 of the 16 fixed-set sequences right at the last check" in one.message()
    one.train(16)
    assert one.message().startswith("stopped: the budget") and "right at one check" in one.message()


def test_a_network_is_solved_at_the_check_where_every_set_sequence_is_right(monkeypatch):
    task = lc.get_task("embedded_reber", sets=8)
    tr = Trainer(_population(), task, algorithm="rtrl", lr=0.5, budget=1000)
    calls = []

    def right(model):  # member 1 gets all 16 right at the 2nd check
        calls.append(tr.book.seen.copy())
        return np.array([3, 16 if len(calls) == 2 else 5, 0])

    monkeypatch.setattr(tr.fixed_set, "right", right)
    tr.train(32)
    assert [c.tolist() for c in calls] == [[8, 8, 8], [16, 16, 16], [24, 16, 24], [32, 16, 32]]
    assert tr.results().status.tolist() == ["running", "solved", "running"]
    assert tr.book.solved_at.tolist() == [-1, 16, -1]
    assert tr.book.streak.tolist() == [3, 16, 0]


def test_a_streak_replaces_the_fixed_set_criterion_and_says_so():
    tr = Trainer(
        _population(2), lc.get_task("embedded_reber", sets=8), algorithm="rtrl", lr=0.5, budget=100, streak=50
    )
    assert tr.fixed_set is None and not tr.book.by_check and tr.required == 50
    assert "REPLACED" in tr.criterion and tr.progress().reduced
    plain = Trainer(
        _population(2), lc.get_task("embedded_reber", sets=8), algorithm="rtrl", lr=0.5, budget=100
    )
    assert "all 8 training and 8 test strings right" in plain.criterion and not plain.progress().reduced
