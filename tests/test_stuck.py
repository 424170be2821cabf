"""Stuck training (saturated units, flat loss) stops and says which units and what to change."""

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.training import Trainer
from lstm_core.training.stuck import groups, saturated_fractions


@pytest.mark.parametrize(
    "variant,task,algorithm",
    [
        ("lstm1997", "adding", "rtrl"),
        ("rnn", "embedded_reber", "bptt"),
        ("lstm2000", "embedded_reber", "bptt"),
        ("gru", "embedded_reber", "tbptt"),
        ("local_feedback", "embedded_reber", "bptt"),
    ],
)
def test_a_huge_learning_rate_stops_with_a_message_naming_the_saturated_units(variant, task, algorithm):
    t = lc.get_task(task)
    m = lc.build(variant, n_in=t.n_in, n_out=t.n_out, seed=0)
    tr = Trainer(m, task, algorithm=algorithm, lr=1e6, budget=5000, k=10 if algorithm == "tbptt" else None)
    p = tr.train(5000)
    assert p.status == "diverged" and p.sequences < 2000, (p.status, p.sequences)
    assert "stuck" in p.message and "saturated" in p.message and "output units" in p.message
    assert "learning rate 1e+06 is far too large" in p.message
    assert np.isfinite(np.concatenate([a.ravel() for a in m.params.values()])).all()


def test_only_the_saturated_member_of_a_population_stops():
    t = lc.get_task("embedded_reber")
    members = [lc.build("lstm2000", n_in=t.n_in, n_out=t.n_out, seed=s, init_range=0.1) for s in range(3)]
    for p in members[1].params.values():  # member 1 starts with |net| in the thousands
        p *= 10_000.0
    tr = Trainer(lc.stack(members), "embedded_reber", algorithm="bptt", lr=0.1, budget=1500)
    p = tr.train(1500)
    assert p.statuses == ("budget", "diverged", "budget"), p.statuses
    assert tr.book.messages[1].startswith("member 1 (seed 1) stopped in sequence")
    assert "try a smaller learning rate or init range" in tr.book.messages[1]


def test_healthy_training_is_never_called_stuck():
    task = lc.get_task("long_lag", p=4)
    m = lc.build("lstm1997", n_in=task.n_in, n_out=task.n_out, n_blocks=2, seed=0)
    tr = Trainer(m, task, algorithm="rtrl", lr=0.5, budget=3000)
    p = tr.train(3000)
    assert p.status in ("solved", "budget") and "stuck" not in p.message


def test_saturated_fractions_measure_the_real_activations():
    m = lc.build("rnn", n_in=1, n_out=1, n_hidden=3, seed=0)
    xs = np.ones((5, 1, 1))
    calm = saturated_fractions(lc.forward(m, xs).internals, m.config, population=False)
    assert calm["hidden units"][0] == 0.0
    m.params["W"][:] = 100.0  # |net| = 100: tanh' = 0 to float precision
    hot = saturated_fractions(lc.forward(m, xs).internals, m.config, population=False)
    assert hot["hidden units"][0] == 1.0
    labels = [label for _, label, _ in groups(lc.build("lstm1997", n_in=1, n_out=1).config)]
    assert labels == ["input gate", "output gate", "cell input g", "cell output squash h", "output units"]
