"""Exact BPTT against centred finite differences, every variant, option and parameter."""

import numpy as np
import pytest
from helpers import CASES, case_id, data, make

import lstm_core as lc

H = 1e-5


def numeric_grad(model, xs, targets, mask, name):
    p = model.params[name]
    num = np.zeros_like(p)
    for i in np.ndindex(p.shape):
        old = p[i]
        p[i] = old + H
        lp, _ = lc.gradients(model, xs, targets, mask)
        p[i] = old - H
        lm, _ = lc.gradients(model, xs, targets, mask)
        p[i] = old
        num[i] = (lp - lm) / (2 * H)
    return num


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_bptt_matches_finite_differences(case):
    model = make(*case)
    xs, targets, mask = data(model, T=6, B=2)
    assert mask.sum() >= 4  # loss on several timesteps
    loss, grads = lc.gradients(model, xs, targets, mask, method="bptt")
    assert set(grads) == set(model.params)
    for name in model.params:
        num = numeric_grad(model, xs, targets, mask, name)
        scale = np.max(np.abs(num))
        assert scale > 1e-9, f"{name}: gradient is zero, the check would be vacuous"
        rel = np.max(np.abs(grads[name] - num)) / scale
        assert rel < 1e-6, f"{case[0]} {name}: max relative error {rel:.2e}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_tbptt_with_k_at_least_T_is_bptt(case):
    model = make(*case)
    xs, targets, mask = data(model, T=7)
    _, exact = lc.gradients(model, xs, targets, mask)
    for k in (7, 50):
        _, g = lc.gradients(model, xs, targets, mask, method="tbptt", k=k)
        for n in exact:
            np.testing.assert_array_equal(g[n], exact[n])


@pytest.mark.parametrize("variant", ["rnn", "lstm1997", "lstm", "gru"])
def test_tbptt_equals_bptt_per_chunk_with_carried_state(variant):
    model = make(variant, {})
    xs, targets, mask = data(model, T=10)
    _, g = lc.gradients(model, xs, targets, mask, method="tbptt", k=4)
    total, state = None, None
    for start in range(0, 10, 4):
        sl = slice(start, start + 4)
        _, gc, run = lc.gradients(model, xs[sl], targets[sl], mask[sl], state=state, return_run=True)
        state = run.state
        total = gc if total is None else {n: total[n] + gc[n] for n in gc}
    _, exact = lc.gradients(model, xs, targets, mask)
    for n in g:
        np.testing.assert_allclose(g[n], total[n], rtol=1e-12, atol=1e-14)
    assert any(np.abs(g[n] - exact[n]).max() > 1e-8 for n in g), "tbptt(4) should differ from full BPTT"
