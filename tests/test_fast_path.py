"""The opt-in whole-sequence accelerators of lstm and gru (``cells/lstm_fused.py``,
``gru_fused.py``, ``lc.forward(..., fast=True)``) against the readable per-step cell
(``cell.step`` / ``backward_step`` / ``param_grads``, what ``Model.step`` and ``lc.forward``
run): the two share no code, so a bug in either fails here. Outputs, internals, states,
gradients and per-step errors agree to 1e-12 (relative to each array's scale).
"""

import numpy as np
import pytest
from helpers import data, make

import lstm_core as lc
from lstm_core import buffers
from lstm_core.gradients import backward
from lstm_core.sequence import forward, loss_and_output_error

SETTINGS = [
    dict(n_hidden=4),
    dict(n_hidden=3, output_activation="softmax", loss="ce"),
    dict(n_hidden=5, output_activation="identity", recurrent_scale=1.5),
]
CASES = [(v, s) for v in ("lstm", "gru") for s in SETTINGS]


def both_paths(model, xs, targets, mask, method="bptt", k=None, state=None):
    """(fast run, generic run, fast (grads, deltas), generic (grads, deltas))."""
    out = []
    for fast in (True, False):
        run = forward(model, xs, state=state, fast=fast)
        _, dnet = loss_and_output_error(model, run.outputs, run.internals["net_out"], targets, mask)
        out.append((run, backward(model, run, dnet, method, k, fast=fast)))
    (rf, gf), (rg, gg) = out
    assert rf.fused is not None and rg.fused is None
    return rf, rg, gf, gg


def assert_close(a, b, what):
    scale = max(np.max(np.abs(b)), 1e-300)
    assert np.max(np.abs(a - b)) <= 1e-12 * scale, (
        f"{what}: max diff {np.max(np.abs(a - b)):.2e} (scale {scale:.2e})"
    )


def check(model, xs, targets, mask, **kw):
    rf, rg, (gf, df), (gg, dg) = both_paths(model, xs, targets, mask, **kw)
    assert_close(rf.outputs, rg.outputs, "outputs")
    missing = set(rg.internals) - set(rf.internals)
    assert missing <= {"net"}, f"the fast path lacks {missing}"  # net: only the readable path records it
    for name in rf.internals:
        assert type(rf.internals[name]) is np.ndarray, f"{name} is not a plain array"
        assert_close(rf.internals[name], rg.internals[name], name)
    for name in rg.state:
        assert_close(rf.state[name], rg.state[name], name)
    assert set(gf) == set(gg) == set(model.params)
    for name in gg:
        assert gf[name].shape == model.params[name].shape
        assert_close(gf[name], gg[name], name)
    assert len(df) == len(dg) == xs.shape[0]
    for t in range(xs.shape[0]):
        assert set(df[t]) == set(dg[t])
        for name in dg[t]:
            assert_close(df[t][name], dg[t][name], f"{name}[{t}]")


@pytest.mark.parametrize("variant,settings", CASES, ids=str)
def test_fast_path_equals_generic_path(variant, settings):
    model = make(variant, settings)
    xs, targets, mask = data(model, T=11, B=3)
    mask[2:6] = 0.0  # a gap with no targets
    mask[7, 1] = 0.0
    check(model, xs, targets, mask)


@pytest.mark.parametrize("variant", ["lstm", "gru"])
def test_fast_path_equals_generic_path_for_a_population_of_three(variant):
    members = [make(variant, dict(n_hidden=4), seed=s) for s in (0, 1, 2)]
    pop = lc.stack(members)
    xs, targets, mask = data(members[0], T=9, B=2, K=3)
    mask[1:4, 0] = 0.0  # member 0: a gap
    mask[:, 2, 1] = 0.0  # member 2, sequence 1: no target at all
    mask[-1] = 1.0
    check(pop, xs, targets, mask)
    check(pop, xs[:, 0], targets[:, 0], mask[:, 0])  # inputs shared by the members
    loss, g = lc.gradients(pop, xs, targets, mask, fast=True)
    for k, m in enumerate(members):  # and each member alone: bit for bit,
        lk, gk = lc.gradients(
            m, xs[:, k], targets[:, k], mask[:, k], fast=True
        )  # as training a population needs
        assert loss[k] == lk
        for n in gk:
            np.testing.assert_array_equal(g[n][k], gk[n], err_msg=n)


@pytest.mark.parametrize("variant", ["lstm", "gru"])
def test_fast_path_tbptt_and_a_given_initial_state(variant):
    model = make(variant, dict(n_hidden=4))
    xs, targets, mask = data(model, T=10, B=2)
    state = {"h": np.full((2, 4), 0.3), "c": np.linspace(-1, 1, 8).reshape(2, 4)}
    state = {n: state[n] for n in model.initial_state(2)}
    check(model, xs, targets, mask, state=state)
    check(model, xs, targets, mask, method="tbptt", k=3)
    check(model, xs, targets, mask, method="tbptt", k=3, state=state)


def test_readable_step_records_net_in_pytorch_order_and_fast_records_are_views():
    model = make("lstm", dict(n_hidden=3))
    xs, _, _ = data(model, T=5, B=2)
    run = lc.forward(model, xs)
    p, H = model.params, 3
    x, hp = xs[2], run.internals["h_prev"][2]
    for n, gate in enumerate("ifgo"):  # net = W x + U h(t−1) + b, gate by gate
        want = x @ p[f"W_{gate}"].T + hp @ p[f"U_{gate}"].T + p[f"b_{gate}"]
        np.testing.assert_allclose(
            run.internals["net"][2][:, n * H : (n + 1) * H], want, rtol=1e-13, atol=1e-15
        )
    np.testing.assert_allclose(
        run.internals["i"], 1 / (1 + np.exp(-run.internals["net"][..., :H])), rtol=1e-14
    )
    rec = run.recs[4]
    assert len(run.recs) == 5 and set(rec) >= {"i", "f", "g", "o", "c", "h", "net"}
    np.testing.assert_array_equal(rec["c"], run.state["c"])
    assert [r["h"][0, 0] for r in run.recs] == list(run.internals["h"][:, 0, 0])
    fast = lc.forward(model, xs, fast=True)
    assert len(fast.recs) == 5 and np.shares_memory(fast.recs[4]["c"], fast.internals["c"])


@pytest.mark.parametrize("variant", ["lstm", "gru"])
def test_pooled_buffers_are_never_shared_by_two_live_runs(variant):
    model = make(variant, dict(n_hidden=40), n_in=30)  # buffers big enough to be pooled
    xs, targets, mask = data(model, T=60, B=8)
    a = lc.forward(model, xs, fast=True)
    names = ("c", "i") if variant == "lstm" else ("h", "r")
    keep = [a.internals[n].copy() for n in names]
    b = lc.forward(model, xs[::-1].copy(), fast=True)  # must not write into a's buffers
    lc.gradients(model, xs * 2, targets, mask, fast=True)
    for n, v in zip(names, keep):
        np.testing.assert_array_equal(a.internals[n], v)
    assert not np.shares_memory(a.internals[names[0]], b.internals[names[0]])
    del b
    loss, g = lc.gradients(model, xs, targets, mask, fast=True)  # a free buffer is reused: same numbers
    loss2, g2 = lc.gradients(model, xs, targets, mask, fast=True)
    assert loss == loss2 and all(np.array_equal(g[n], g2[n]) for n in g)
    buffers.clear()


def test_buffer_pool_reuses_only_free_arrays_and_evicts_within_its_cap(monkeypatch):
    buffers.clear()
    monkeypatch.setattr(buffers, "MAX_POOLED_BYTES", 3 * 80_000)
    a, b = buffers.empty((100, 100)), buffers.empty((100, 100))
    assert a is not b
    view = a[3]
    del a
    c = buffers.empty((100, 100))  # a's memory is still seen through view
    assert not np.shares_memory(c, view) and not np.shares_memory(c, b)
    del view, c
    d = buffers.empty((50, 200))  # over the cap: a free (100, 100) goes
    assert buffers._pooled_bytes <= buffers.MAX_POOLED_BYTES
    assert not np.shares_memory(d, b)
    buffers.clear()


@pytest.mark.parametrize("variant", list(lc.VARIANTS))
def test_runs_of_every_variant_pickle_round_trip(variant):
    """Pages cache runs (st.cache_data pickles them): readable and fast runs must pickle."""
    import pickle

    model = make(variant, {})
    xs, _, _ = data(model, T=4, B=2)
    for fast in (False, True):
        run = lc.forward(model, xs, fast=fast)
        back = pickle.loads(pickle.dumps(run))
        for name in run.internals:
            np.testing.assert_array_equal(back.internals[name], run.internals[name], err_msg=name)
