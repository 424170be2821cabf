"""PyTorch parity for the lstm and gru variants (float64, 1e-10), through from_torch / to_torch.

The PyTorch side is the committed fixture tests/fixtures/torch_parity.npz, made by
tests/torch_fixtures.py with torch==2.13.0 — so this file needs no torch. ``make test-torch``
installs torch and checks the fixture against live PyTorch (tests/test_torch_live.py).
"""

import numpy as np
import pytest
from torch_fixtures import KINDS, SEEDS, load

import lstm_core as lc

CASES = load()


def state_dict(case: dict) -> dict[str, np.ndarray]:
    return {k[3:]: v for k, v in case.items() if k.startswith("sd.")}


def test_fixture_has_every_case():
    assert {f"parity.{k}.{s}" for k in KINDS for s in SEEDS} | {f"round_trip.{k}" for k in KINDS} == set(
        CASES
    )


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_parity_with_pytorch(kind, seed):
    c = CASES[f"parity.{kind}.{seed}"]
    model = lc.from_torch(state_dict(c))
    assert model.config.variant == kind
    run = lc.forward(model, c["xs"])
    np.testing.assert_allclose(run.outputs, c["out"], rtol=0, atol=1e-10)
    if kind == "lstm":
        np.testing.assert_allclose(run.state["c"], c["c_n"], atol=1e-10, rtol=0)
    np.testing.assert_allclose(run.state["h"], c["h_n"], atol=1e-10, rtol=0)
    loss, g = lc.gradients(model, c["xs"], c["targets"], c["mask"])
    assert abs(loss - float(c["loss"])) < 1e-10
    ours = lc.to_torch(model, g)
    for name in ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0"):
        np.testing.assert_allclose(ours[name], c[f"grad.{name}"], atol=1e-10, rtol=0, err_msg=name)
    if kind == "lstm":  # PyTorch's two LSTM biases get the same gradient as our single b
        np.testing.assert_allclose(ours["bias_ih_l0"], c["grad.bias_hh_l0"], atol=1e-10, rtol=0)
    else:
        np.testing.assert_allclose(ours["bias_hh_l0"], c["grad.bias_hh_l0"], atol=1e-10, rtol=0)


@pytest.mark.parametrize("kind", KINDS)
def test_to_torch_round_trip_loads_into_pytorch(kind):
    c = CASES[f"round_trip.{kind}"]
    model = lc.build(kind, n_in=3, n_out=5, n_hidden=5, seed=3, init_range=0.5, output_activation="identity")
    sd = lc.to_torch(model)
    # what PyTorch held after load_state_dict is exactly what we exported
    assert set(sd) == set(state_dict(c))
    for k, v in state_dict(c).items():
        np.testing.assert_array_equal(sd[k], v, err_msg=k)
    back = lc.from_torch(state_dict(c))
    np.testing.assert_allclose(lc.forward(back, c["xs"]).outputs, c["out"], atol=1e-12)
    for n in model.params:
        if n not in ("W_out", "b_out"):
            np.testing.assert_array_equal(back.params[n], model.params[n])


def test_from_torch_rejects_a_wrong_state_dict():
    with pytest.raises(ValueError, match="weight_ih_l0"):
        lc.from_torch({"weight": np.zeros((4, 4))})
    with pytest.raises(ValueError, match="LSTM from a GRU"):
        lc.from_torch({"weight_ih_l0": np.zeros((5, 2)), "weight_hh_l0": np.zeros((5, 2))})
