"""Tasks beyond the 1997 paper's experiments: the 2002 timing tasks (spike delay, spike generation,
periodic waves), information latching (Frasconi et al. 1992) and the classroom names task with
its sampler. Every task's shared contract and the 1997 tasks are tests/test_tasks.py's.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_tasks import balanced, rng

from lstm_core.sampling import sample_names
from lstm_core.tasks import ALPHABET, TASKS, decode, encode, get_task, load_names
from lstm_core.tasks.timing import wave


def test_spike_delay():
    task = TASKS["spike_delay"]
    b = task.generate(rng(), batch=200)
    I, Ts = b.info["delays"], b.info["spike_times"]
    assert set(np.unique(I)) == {0, 1} and task.output_activation == "sigmoid"
    assert (np.diff(Ts, axis=1) == 10 + I[:, 1:]).all() and (Ts[:, 0] == 10 + I[:, 0]).all()
    for i in range(20):
        on = np.flatnonzero(b.xs[:, i, 0])
        assert (on == Ts[i] - 1).all() and (np.flatnonzero(b.mask[:, i]) == on).all()
        assert (b.targets[on, i, 0] == I[i]).all()
    wide = get_task("spike_delay", max_delay=4, delay_set="pair", mode="nmsd")
    w = wide.generate(rng(), batch=300)
    assert set(np.unique(w.info["delays"])) == {0, 4} and w.info["delays"].shape == (300, 1)
    assert wide.output_activation == "identity" and wide.criterion.streak == 1000
    assert balanced(np.bincount(w.info["delays"][:, 0] > 0, minlength=2), 0.5)


def test_spike_generation():
    task = get_task("spike_generation", max_delay=3)
    b = task.generate(rng(), batch=50)
    for i in range(50):
        L, Ts, I = b.lengths[i], b.info["spike_times"][i], b.info["delays"][i]
        assert (np.flatnonzero(b.targets[:, i, 0]) == Ts).all() and L == Ts[-1] + 1
        assert b.xs[0, i, 0] == 1 and b.xs[1:, i, 0].sum() == 0 and (b.mask[:L, i] == 1).all()
        assert (np.diff(np.concatenate([[0], Ts])) == 10 + I).all()
        assert (b.xs[np.concatenate([[0], Ts[:-1]]), i, 1] == I).all()


def test_periodic_waves():
    t = np.arange(50)
    assert np.allclose(wave("cos", t, 10), 0.5 * (1 - np.cos(2 * np.pi * t / 10)))
    tri = wave("triangle", t, 10)
    assert tri.min() == 0 and tri.max() == 1 and tri[5] == 1 and tri[0] == 0 and tri[2] == 0.4
    assert wave("rectangle", t, 10)[:10].tolist() == [0] * 6 + [1] * 4
    task = get_task("periodic", shape="triangle", F=25)
    b = task.generate(rng(), batch=2)
    assert np.allclose(b.targets[:, 0, 0], wave("triangle", np.arange(100), 25)) and not b.xs.any()
    assert get_task("periodic", start_pulse=True).generate(rng()).xs[:, 0, 0].tolist() == [1] + [0] * 99
    assert task.criterion.streak == 10 and task.output_activation == "identity"
    out = b.targets + 0.2
    assert task.evaluate(out, b).correct.all()
    assert not task.with_settings(tolerance=0.15).evaluate(out, b).correct.any()


def test_latching():
    task = TASKS["latching"]
    b = task.generate(rng(), batch=1000)
    assert (b.xs[0].argmax(-1) == b.info["label"]).all() and (b.xs[0].sum(-1) == 1).all()
    assert b.lengths.min() >= 5 and b.lengths.max() <= 30
    assert (b.targets[b.lengths - 1, np.arange(1000)].argmax(-1) == b.info["label"]).all()
    assert balanced(np.bincount(b.info["label"], minlength=5), 0.2)
    assert b.xs[1:].sum() > 0
    quiet = task.with_settings(distractors="none").generate(rng(), batch=10)
    assert not quiet.xs[1:].any()


def test_names_encoding_and_metrics():
    names = load_names()
    assert 250 <= len(names) <= 400 and all(n.isalpha() and n.islower() for n in names)
    assert encode("ada").tolist() == [0, 1, 4, 1, 0] and decode(encode("zoe")) == "zoe"
    with pytest.raises(ValueError, match="a-z"):
        encode("jean-luc")
    task = get_task("names", n_names=20)
    b = task.generate(rng(), batch=50)
    for i in range(50):
        assert decode(b.info["symbols"][i]) == names[b.info["index"][i]]
    assert b.info["index"].max() < 20 and task.loss == "ce" and task.output_activation == "softmax"
    uniform = np.where(b.mask[..., None] > 0, 1 / 27, 0.0) * np.ones(27)
    rep = task.evaluate(uniform, b)
    assert np.allclose(rep.metrics["cross_entropy"], np.log(27))
    assert np.allclose(task.evaluate(b.targets, b).metrics["accuracy"], 1.0)


class FakeModel:
    """Stands in for lstm_core models: fixed output probabilities, ignores its input."""

    def __init__(self, probs):
        self.probs = np.asarray(probs, dtype=float)

    def initial_state(self, batch=1):
        return {"batch": batch}

    def step(self, state, x):
        assert x.shape == (state["batch"], 27) and np.allclose(x.sum(-1), 1)
        return state, np.tile(self.probs, (state["batch"], 1)), {}


def test_sample_names():
    task = TASKS["names"]
    uniform = FakeModel(np.full(27, 1 / 27))
    a = sample_names(uniform, task, rng(1), n=30, max_len=8)
    assert len(a) == 30 and a == sample_names(uniform, task, rng(1), n=30, max_len=8)
    assert a != sample_names(uniform, task, rng(2), n=30, max_len=8)
    assert all(set(s) <= set(ALPHABET[1:]) and len(s) <= 8 for s in a)
    assert sample_names(FakeModel(np.eye(27)[0]), task, rng(), n=3) == ["", "", ""]
    assert sample_names(FakeModel(np.eye(27)[1]), task, rng(), n=2, max_len=5) == ["aaaaa"] * 2
    skew = np.full(27, 0.5 / 26)
    skew[2] = 0.5  # 'b' most likely
    cold = sample_names(FakeModel(skew), task, rng(), n=5, temperature=0.05, max_len=4)
    assert cold == ["bbbb"] * 5
    for bad in ({"temperature": 0.0}, {"n": 0}, {"max_len": 0}):
        with pytest.raises(ValueError):
            sample_names(uniform, task, rng(), **bad)
