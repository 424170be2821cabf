"""PyTorch parity for the lstm and gru variants (float64, 1e-10), through from_torch.

torch is a test dependency installed by `make test` (the local CPU wheel torch==2.13.0);
these tests fail — never skip — when it is missing.
"""
import numpy as np
import pytest
import torch

import lstm_core as lc

torch.set_default_dtype(torch.float64)


def run_torch(kind, n_in, H, T, B, seed):
    torch.manual_seed(seed)
    net = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU}[kind](n_in, H)
    rng = np.random.default_rng(seed)
    xs = rng.normal(size=(T, B, n_in))
    targets = rng.normal(size=(T, B, H))
    mask = (rng.uniform(size=(T, B)) < 0.7).astype(float)
    out, final = net(torch.from_numpy(xs))
    loss = 0.5 * (torch.from_numpy(mask)[..., None] * (out - torch.from_numpy(targets)) ** 2).sum() / B
    loss.backward()
    sd = {k: v.detach().numpy().copy() for k, v in net.state_dict().items()}
    grads = {k: p.grad.numpy().copy() for k, p in net.named_parameters()}
    return net, sd, xs, targets, mask, out.detach().numpy(), final, loss.item(), grads


@pytest.mark.parametrize("kind", ["lstm", "gru"])
@pytest.mark.parametrize("seed", range(4))
def test_parity_with_pytorch(kind, seed):
    rng = np.random.default_rng(100 + seed)
    n_in, H, T, B = (int(v) for v in rng.integers(1, 9, size=4))
    net, sd, xs, targets, mask, out, final, loss_t, grads_t = run_torch(kind, n_in, H, T, B, seed)
    model = lc.from_torch(sd)
    assert model.config.variant == kind
    run = lc.forward(model, xs)
    np.testing.assert_allclose(run.outputs, out, rtol=0, atol=1e-10)
    if kind == "lstm":
        h_n, c_n = final
        np.testing.assert_allclose(run.state["c"], c_n[0].detach().numpy(), atol=1e-10, rtol=0)
    else:
        h_n = final
    np.testing.assert_allclose(run.state["h"], h_n[0].detach().numpy(), atol=1e-10, rtol=0)
    loss, g = lc.gradients(model, xs, targets, mask)
    assert abs(loss - loss_t) < 1e-10
    ours = lc.to_torch(model, g)
    for name in ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0"):
        np.testing.assert_allclose(ours[name], grads_t[name], atol=1e-10, rtol=0, err_msg=name)
    if kind == "lstm":   # PyTorch's two LSTM biases get the same gradient as our single b
        np.testing.assert_allclose(ours["bias_ih_l0"], grads_t["bias_hh_l0"], atol=1e-10, rtol=0)
    else:
        np.testing.assert_allclose(ours["bias_hh_l0"], grads_t["bias_hh_l0"], atol=1e-10, rtol=0)


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_to_torch_round_trip_loads_into_pytorch(kind):
    model = lc.build(kind, n_in=3, n_out=5, n_hidden=5, seed=3, init_range=0.5, output_activation="identity")
    sd = lc.to_torch(model)
    net = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU}[kind](3, 5)
    net.load_state_dict({k: torch.from_numpy(v) for k, v in sd.items()})
    back = lc.from_torch(net.state_dict())
    xs = np.random.default_rng(0).normal(size=(6, 2, 3))
    out, _ = net(torch.from_numpy(xs))
    np.testing.assert_allclose(lc.forward(back, xs).outputs, out.detach().numpy(), atol=1e-12)
    for n in model.params:
        if n not in ("W_out", "b_out"):
            np.testing.assert_array_equal(back.params[n], model.params[n])


def test_from_torch_rejects_a_wrong_state_dict():
    with pytest.raises(ValueError, match="weight_ih_l0"):
        lc.from_torch({"weight": np.zeros((4, 4))})
    with pytest.raises(ValueError, match="LSTM from a GRU"):
        lc.from_torch({"weight_ih_l0": np.zeros((5, 2)), "weight_hh_l0": np.zeros((5, 2))})
