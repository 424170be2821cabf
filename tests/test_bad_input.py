"""Invalid settings raise ValueError with an actionable message; numerics never warn."""

import warnings

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.activations import ACTIVATIONS, sigmoid, softmax

BAD_SETTINGS = [
    (dict(variant="lstm3000"), "unknown variant"),
    (dict(n_in=-1), "n_in"),
    (dict(n_in=2.5), "whole number"),
    (dict(n_blocks=0), "n_blocks"),
    (dict(n_blocks=1000), "between"),
    (dict(block_size=99), "block_size"),
    (dict(bias={"output": [-1, -2, -3]}), "needs 2"),
    (dict(bias={"forget": 1.0}), "no gate bias 'forget'"),
    (dict(bias={"input": float("nan")}), "finite"),
    (dict(bias={"input": "low"}), "cannot read"),
    (dict(bias={"input": {"uniform": [2, 1]}}), "smaller value first"),
    (dict(init={"W_zz": 1.0}), "no parameter"),
    (dict(init_range=-0.1), "init_range"),
    (dict(cell_input="relu"), "cell_input"),
    (dict(output_activation="softmax"), "ce"),
    (dict(output_gate="yes"), "true or false"),
    (dict(seed=-3), "seed"),
    (dict(recurrent_scale=float("inf")), "recurrent_scale"),
]


@pytest.mark.parametrize("change,message", BAD_SETTINGS, ids=[m for _, m in BAD_SETTINGS])
def test_invalid_setting_is_a_value_error_with_a_message(change, message):
    settings = dict(variant="lstm1997", n_in=2, n_out=1, n_blocks=2)
    settings.update(change)
    with pytest.raises(ValueError, match=message):
        lc.build(settings.pop("variant"), **settings)


def test_bad_inputs_and_configs():
    m = lc.build("rnn", n_in=2, n_out=1)
    with pytest.raises(ValueError, match="n_in = 2"):
        lc.forward(m, np.zeros((5, 1, 3)))
    with pytest.raises(ValueError, match="NaN"):
        lc.forward(m, np.full((5, 1, 2), np.nan))
    with pytest.raises(ValueError, match="targets"):
        lc.gradients(m, np.zeros((5, 1, 2)), np.zeros((5, 1, 4)), np.ones((5, 1)))
    with pytest.raises(ValueError, match="unknown gradient method"):
        lc.gradients(m, np.zeros((5, 1, 2)), np.zeros((5, 1, 1)), method="magic")
    with pytest.raises(ValueError, match="k"):
        lc.gradients(m, np.zeros((5, 1, 2)), np.zeros((5, 1, 1)), method="tbptt", k=0)
    with pytest.raises(ValueError, match="not valid JSON"):
        lc.ModelConfig.from_json("{nope")
    with pytest.raises(ValueError, match="unknown setting"):
        lc.ModelConfig.from_dict({"variant": "rnn", "n_in": 1, "n_out": 1, "colour": "red"})
    with pytest.raises(ValueError, match="share variant"):
        lc.stack([m, lc.build("rnn", n_in=2, n_out=1, n_hidden=3)])
    with pytest.raises(ValueError, match="batch"):
        m.initial_state(batch=0)
    with pytest.raises(ValueError, match="'at'"):
        lc.error_flow(m, np.zeros((5, 1, 2)), at=9)


def test_squashing_functions_never_warn():
    x = np.array([-1e308, -1e300, -1e3, 0.0, 1e3, 1e300, 1e308])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(sigmoid(x), [0, 0, 0, 0.5, 1, 1, 1], rtol=0, atol=1e-300)
        np.testing.assert_array_equal(np.tanh(x)[[0, -1]], [-1, 1])
        for f, fp in ACTIVATIONS.values():
            y = f(x)
            fp(x, y)
        assert np.isfinite(softmax(x)).all()


def test_huge_weights_report_where_nonfinite_values_appear_without_warnings():
    m = lc.build("rnn", n_in=1, n_out=1, n_hidden=2, output_activation="identity", seed=0)
    m.params["W"][:] = 1.0
    m.params["W_out"][:] = 1e308  # h = 1 in both units ⇒ net_out = 2e308 = inf
    xs = np.full((4, 1, 1), 1e308)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(lc.NonFiniteError) as err:
            lc.forward(m, xs)
    assert err.value.step == 0 and err.value.name == "net_out" and "step 0" in str(err.value)
    big = lc.build("lstm2002", n_in=1, n_out=1, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = lc.forward(big, np.full((3, 1, 1), 1e300))
    assert np.isfinite(run.outputs).all()
