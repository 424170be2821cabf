"""error_flow: the vanishing-gradient curve and the CEC's constant error flow."""

import numpy as np

import lstm_core as lc


def test_single_unit_rnn_flow_is_the_product_of_local_factors():
    m = lc.build("rnn", n_in=2, n_out=1, n_hidden=1, init_range=1.0, seed=0)
    xs = np.random.default_rng(0).normal(size=(30, 1, 2))
    flow = lc.error_flow(m, xs)
    np.testing.assert_allclose(flow.norms["h"], flow.theory["h"], rtol=1e-10)
    assert flow.norms["h"][0] < 1e-3 * flow.norms["h"][-1]  # it vanishes


def test_rnn_flow_stays_below_the_product_of_jacobian_norms():
    m = lc.build("rnn", n_in=3, n_out=2, n_hidden=8, recurrent_scale=0.9, seed=1)
    xs = np.random.default_rng(1).normal(size=(40, 2, 3))
    flow = lc.error_flow(m, xs)
    assert np.all(flow.norms["h"] <= flow.theory["h"] * (1 + 1e-12))
    assert flow.norms["h"][0] < 0.05 * flow.norms["h"][-1]


def test_lstm1997_with_shut_input_gates_has_constant_error_flow():
    m = lc.build("lstm1997", n_in=3, n_out=2, n_blocks=2, block_size=2, bias={"input": -40.0}, seed=0)
    xs = np.random.default_rng(2).normal(size=(200, 1, 3))
    flow = lc.error_flow(m, xs)
    s = flow.norms["s"]
    assert s[-1] > 0
    np.testing.assert_allclose(s, s[-1], rtol=1e-12, atol=0)
    np.testing.assert_array_equal(flow.factors["s"], 1.0)


def test_lstm2000_flow_decays_by_the_product_of_forget_gates():
    m = lc.build(
        "lstm2000", n_in=3, n_out=2, n_blocks=1, block_size=2, bias={"input": -40.0, "forget": 2.0}, seed=0
    )
    xs = np.random.default_rng(3).normal(size=(60, 1, 3))
    flow = lc.error_flow(m, xs)
    yfg = lc.forward(m, xs).internals["y_fg"][:, 0, 0]
    s = flow.norms["s"]
    expected = s[-1] * np.concatenate([np.cumprod(yfg[::-1][:-1])[::-1], [1.0]])
    np.testing.assert_allclose(s, expected, rtol=1e-10)
    np.testing.assert_allclose(flow.theory["s"], s, rtol=1e-10)
    assert s[0] < 0.2 * s[-1]


def test_truncated_flow_is_exactly_the_cec():
    m = lc.build("lstm2002", n_in=3, n_out=2, n_blocks=2, block_size=2, init_range=0.5, seed=4)
    xs = np.random.default_rng(4).normal(size=(25, 2, 3))
    flow = lc.error_flow(m, xs, method="truncated")
    np.testing.assert_allclose(flow.norms["s"], flow.theory["s"], rtol=1e-10)
    full = lc.error_flow(m, xs)
    assert np.abs(full.norms["s"][:-1] - flow.norms["s"][:-1]).max() > 1e-8


def test_local_feedback_forgetting_condition():
    forget = lc.build(
        "local_feedback",
        n_in=1,
        n_out=1,
        n_static=0,
        n_net_fb=1,
        n_act_fb=1,
        init={"u": 0.8, "v": 1.5},
        seed=0,
    )
    xs = np.random.default_rng(5).normal(size=(40, 1, 1))
    flow = lc.error_flow(forget, xs)
    np.testing.assert_allclose(flow.norms["net_fb"], flow.theory["net_fb"], rtol=1e-10)
    np.testing.assert_allclose(flow.norms["act_fb"], flow.theory["act_fb"], rtol=1e-10)
    ratios = flow.ratios("net_fb")
    np.testing.assert_allclose(ratios, 0.8, rtol=1e-12)  # |u| < 1 ⇒ geometric decay
    assert np.all(flow.ratios("act_fb") < 1.5 * 0.5 + 1e-12)  # |v| M < 1 ⇒ decay
    latch = lc.build(
        "local_feedback", n_in=1, n_out=1, n_static=0, n_net_fb=1, n_act_fb=0, init={"u": 1.0}, seed=0
    )
    np.testing.assert_allclose(lc.error_flow(latch, xs).ratios("net_fb"), 1.0, rtol=1e-12)


def test_error_flow_on_a_population_and_at_an_earlier_step():
    ms = [lc.build("rnn", n_in=2, n_out=1, n_hidden=4, seed=s) for s in range(3)]
    xs = np.random.default_rng(0).normal(size=(20, 1, 2))
    flow = lc.error_flow(lc.stack(ms), xs, at=10)
    assert flow.norms["h"].shape == (20, 3)
    assert np.isnan(flow.norms["h"][11:]).all()
    for k, m in enumerate(ms):
        np.testing.assert_allclose(
            flow.norms["h"][:11, k], lc.error_flow(m, xs, at=10).norms["h"][:11], rtol=1e-12
        )


def test_exploding_flow_is_measured_without_overflow():
    m = lc.build("rnn", n_in=1, n_out=1, n_hidden=1, init={"U": 8.0, "W": 0.0, "b": 0.0}, seed=0)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        flow = lc.error_flow(m, np.zeros((200, 1, 1)))
    h = flow.norms["h"]
    assert np.isfinite(h).all() and h[0] > 1e170  # (8 · ½)^199 ≈ 1e180 (tanh' = 1 at 0)
    np.testing.assert_allclose(h, flow.theory["h"], rtol=1e-9)
