"""Stepping ≡ whole-sequence forward; populations ≡ separate runs; seeds ⇒ bit-identical."""

import json

import numpy as np
import pytest
from helpers import CASES, case_id, data, make

import lstm_core as lc


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_step_by_step_equals_forward(case):
    model = make(*case)
    xs, _, _ = data(model, T=9, B=3)
    run = lc.forward(model, xs)
    state = model.initial_state(batch=3)
    for t in range(9):
        state, y, rec = model.step(state, xs[t])
        np.testing.assert_array_equal(y, run.outputs[t])
        for name, value in rec.items():
            np.testing.assert_array_equal(value, run.internals[name][t], err_msg=name)
    for name in state:
        np.testing.assert_array_equal(state[name], run.state[name])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_population_of_three_equals_three_single_runs(case):
    variant, settings = case
    members = [make(variant, settings, seed=s) for s in (0, 1, 2)]
    pop = lc.stack(members)
    assert pop.K == 3
    xs, targets, mask = data(members[0], T=5, B=2, K=3)  # each member its own data
    run = lc.forward(pop, xs)
    loss, grads = lc.gradients(pop, xs, targets, mask)
    for k, m in enumerate(members):
        rk = lc.forward(m, xs[:, k])
        np.testing.assert_allclose(run.outputs[:, k], rk.outputs, rtol=1e-13, atol=1e-15)
        lk, gk = lc.gradients(m, xs[:, k], targets[:, k], mask[:, k])
        np.testing.assert_allclose(loss[k], lk, rtol=1e-13)
        for n in gk:
            np.testing.assert_allclose(grads[n][k], gk[n], rtol=1e-12, atol=1e-15, err_msg=n)
    shared = lc.forward(pop, xs[:, 0])  # inputs shared by all members
    np.testing.assert_allclose(shared.outputs[:, 1], lc.forward(members[1], xs[:, 0]).outputs, rtol=1e-13)
    np.testing.assert_array_equal(pop.member(2).params["W_out"], members[2].params["W_out"])


def test_same_seed_bit_identical_and_different_seed_differs():
    a = lc.build("lstm2002", n_in=3, n_out=2, n_blocks=2, block_size=2, seed=7)
    b = lc.build("lstm2002", n_in=3, n_out=2, n_blocks=2, block_size=2, seed=7)
    c = lc.build("lstm2002", n_in=3, n_out=2, n_blocks=2, block_size=2, seed=8)
    xs, targets, mask = data(a)
    for n in a.params:
        assert a.params[n].tobytes() == b.params[n].tobytes()
    ga, gb = lc.gradients(a, xs, targets, mask)[1], lc.gradients(b, xs, targets, mask)[1]
    assert all(ga[n].tobytes() == gb[n].tobytes() for n in ga)
    assert not np.array_equal(a.params["W_c"], c.params["W_c"])


def test_biases_only_change_the_biases():
    base = lc.build("lstm1997", n_in=7, n_out=7, n_blocks=4, block_size=2, seed=0)
    m = lc.build(
        "lstm1997",
        n_in=7,
        n_out=7,
        n_blocks=4,
        block_size=2,
        seed=0,
        bias={"output": [-1, -2, -3, -4], "input": {"linspace": [-1, -4]}},
    )
    np.testing.assert_array_equal(m.params["b_og"], [-1, -2, -3, -4])
    np.testing.assert_array_equal(m.params["b_ig"], [-1, -2, -3, -4])
    for n in m.params:
        if n not in ("b_og", "b_ig"):
            np.testing.assert_array_equal(m.params[n], base.params[n])
    r = lc.build("lstm2000", n_in=2, n_out=1, n_blocks=3, bias={"forget": {"uniform": [1, 2]}}, seed=0)
    assert np.all((r.params["b_fg"] >= 1) & (r.params["b_fg"] <= 2))


def test_config_round_trips_through_json():
    m = lc.build(
        "lstm1997",
        n_in=7,
        n_out=7,
        n_blocks=4,
        block_size=2,
        init_range=0.2,
        bias={"output": [-1, -2, -3, -4]},
        init={"b_c": 0.5},
        seed=3,
    )
    text = m.config.to_json()
    cfg = lc.ModelConfig.from_json(text)
    assert cfg == m.config
    assert json.loads(text)["bias"] == {"output": [-1.0, -2.0, -3.0, -4.0]}
    again = lc.build(cfg)
    for n in m.params:
        np.testing.assert_array_equal(again.params[n], m.params[n])


def test_to_frame_is_tidy():
    model = make("lstm1997", dict(n_blocks=2, block_size=1))
    xs, _, _ = data(model, T=4, B=1)
    df = lc.forward(model, xs).to_frame(["y_ig", "s"])
    assert list(df.columns) == ["t", "batch", "quantity", "unit", "value"]
    assert len(df) == 4 * 2 + 4 * 2
    s = df[df.quantity == "s"].sort_values(["t", "unit"]).value.to_numpy()
    np.testing.assert_array_equal(s, lc.forward(model, xs).internals["s"][:, 0].reshape(-1))


def test_every_step_record_names_its_internals():
    names = {
        "rnn": {"net", "h"},
        "lstm1997": {"y_ig", "y_og", "net_ig", "net_og", "net_c", "g", "s", "h", "y_c"},
        "lstm2000": {"y_fg", "net_fg", "s"},
        "lstm2002": {"y_fg", "y_ig", "y_og", "s"},
        "lstm": {"i", "f", "g", "o", "c", "h"},
        "gru": {"r", "z", "n", "h"},
        "local_feedback": {"net", "h"},
    }
    for variant, want in names.items():
        m = make(variant, {})
        _, y, rec = m.step(m.initial_state(2), np.zeros((2, 3)))
        assert want | {"y", "net_out"} <= set(rec), variant
