"""The 1997 truncated gradient: online RTRL ≡ backward pass with the same cuts."""

import numpy as np
import pytest
from helpers import data, make

import lstm_core as lc

TRUNCATED_CASES = [
    ("lstm1997", dict(n_blocks=2, block_size=2)),
    (
        "lstm1997",
        dict(
            n_blocks=1,
            block_size=1,
            output_gate=False,
            cell_input="sigmoid",
            cell_output="identity",
            output_activation="identity",
        ),
    ),
    ("lstm1997", dict(n_blocks=3, block_size=2, gates_as_sources=False, input_to_output=True)),
    ("lstm2000", dict(n_blocks=2, block_size=2)),
    ("lstm2000", dict(n_blocks=2, block_size=1, output_gate=False)),
    ("lstm2002", dict(n_blocks=2, block_size=2)),  # with peepholes
    ("lstm2002", dict(n_blocks=2, block_size=2, peepholes=False)),  # without
    (
        "lstm2002",
        dict(
            n_blocks=1,
            block_size=1,
            cell_input="identity",
            cell_output="identity",
            gates_as_sources=False,
            output_activation="identity",
        ),
    ),
]


@pytest.mark.parametrize("case", TRUNCATED_CASES, ids=lambda c: c[0] + str(sorted(c[1].items()))[:50])
def test_online_rtrl_equals_truncated_backward_pass(case):
    model = make(*case)
    xs, targets, mask = data(model, T=12, B=3)
    loss_b, back = lc.gradients(model, xs, targets, mask, method="truncated")
    loss_r, online = lc.rtrl_gradients(model, xs, targets, mask)
    np.testing.assert_allclose(loss_r, loss_b, rtol=1e-12)
    assert set(online) == set(back) == set(model.params)
    for n in back:
        np.testing.assert_allclose(online[n], back[n], rtol=1e-10, atol=1e-12, err_msg=n)
    # the truncation is real: some gradient differs from the exact one
    _, exact = lc.gradients(model, xs, targets, mask)
    assert max(np.abs(exact[n] - back[n]).max() for n in back) > 1e-6


def test_rtrl_on_a_population_matches_members():
    models = [make("lstm2002", dict(n_blocks=2, block_size=2), seed=s) for s in range(3)]
    pop = lc.stack(models)
    xs, targets, mask = data(models[0], T=8)
    loss, g = lc.rtrl_gradients(pop, xs, targets, mask)
    for k, m in enumerate(models):
        lk, gk = lc.rtrl_gradients(m, xs, targets, mask)
        np.testing.assert_allclose(loss[k], lk, rtol=1e-13)
        for n in gk:
            np.testing.assert_allclose(g[n][k], gk[n], rtol=1e-12, atol=1e-15)


def test_rtrl_memory_does_not_grow_with_T():
    model = make("lstm1997", dict(n_blocks=4, block_size=2), n_in=7, n_out=7)
    r = lc.RTRL(model, batch=1)
    sizes = sum(e.size for e in r.e.values())
    rng = np.random.default_rng(0)
    for _ in range(300):
        r.step(rng.normal(size=(1, 7)), rng.uniform(size=(1, 7)))
    assert sum(e.size for e in r.e.values()) == sizes


def test_truncated_gradient_rejects_other_variants():
    model = make("rnn", {})
    xs, targets, mask = data(model)
    with pytest.raises(ValueError, match="truncated"):
        lc.gradients(model, xs, targets, mask, method="truncated")
    with pytest.raises(ValueError, match="RTRL"):
        lc.RTRL(model)
