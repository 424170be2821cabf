"""Take a scheme home: the PyTorch, Keras and Flax snippets set exactly the core's biases.

The syntax of every snippet is checked in ``make test``; running them needs the frameworks, which
``make test-torch`` installs (torch, and Keras on its torch backend, Flax on JAX): those tests are
marked ``torch_live`` and FAIL, never skip, when a framework is missing.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.init_schemes import SCHEMES, with_scheme
from lstm_core.scheme_code import FRAMEWORKS, snippet

H, SEED, T_MAX, N_IN = 5, 7, 40.0, 3
CASES = [(v, s) for v in ("lstm", "gru") for s in SCHEMES if v in SCHEMES[s].variants]


def core_params(variant: str, name: str) -> dict[str, np.ndarray]:
    cfg = lc.ModelConfig.from_dict(
        {"variant": variant, "n_in": N_IN, "n_out": 1, "n_hidden": H, "seed": SEED}
    )
    return lc.build(with_scheme(cfg, name, T_MAX)).params


def run(code: str) -> dict:
    ns: dict = {}
    exec(compile(code, "<snippet>", "exec"), ns)  # the snippet exactly as the page shows it
    return ns


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("variant,name", CASES + [("lstm2000", "gers2000")])
def test_every_snippet_is_valid_python(framework, variant, name):
    code = snippet(framework, name, variant, H, SEED, T_MAX, N_IN)
    compile(code, "<snippet>", "exec")
    assert f"H, seed = {H}, {SEED}" in code


def test_a_scheme_without_meaning_has_no_snippet():
    with pytest.raises(ValueError, match="no meaning"):
        snippet("pytorch", "staggered1997", "gru", H)


# ----------------------------------------------------------------------------------- live
GRU_ROWS = ("r", "z", "n")


@pytest.mark.torch_live
@pytest.mark.parametrize("variant,name", CASES)
def test_pytorch_snippet_sets_the_core_biases(variant, name):
    net = run(snippet("pytorch", name, variant, H, SEED, T_MAX, N_IN))["net"]
    got = lc.from_torch(net.state_dict(), variant=variant).params
    want = core_params(variant, name)
    k = 1 / np.sqrt(H)
    if SCHEMES[name].base == "torch":  # PyTorch draws these itself: its own bounds, and the keep gate exact
        sd = net.state_dict()
        for key in ("bias_ih_l0", "bias_hh_l0"):
            assert np.abs(sd[key].numpy()).max() <= k + 1e-7 or name != "torch_default"
        if SCHEMES[name].gates:
            keep = "b_f" if variant == "lstm" else None
            if keep:
                np.testing.assert_array_equal(got[keep], want[keep])
            else:
                np.testing.assert_array_equal(got["b_iz"] + got["b_hz"], want["b_iz"] + want["b_hz"])
        return
    for p in want:
        if p.startswith("b_") and p != "b_out":
            np.testing.assert_allclose(got[p], want[p], rtol=0, atol=1e-6, err_msg=p)  # float32 in torch


@pytest.mark.torch_live
@pytest.mark.parametrize("variant,name", CASES)
def test_keras_snippet_sets_the_core_biases(variant, name):
    os.environ.setdefault("KERAS_BACKEND", "torch")
    layer = run(snippet("keras", name, variant, H, SEED, T_MAX, N_IN))["layer"]
    bias = np.asarray(layer.cell.bias.numpy() if hasattr(layer.cell.bias, "numpy") else layer.cell.bias)
    want = core_params(variant, name)
    if variant == "lstm":
        got = dict(zip(("b_i", "b_f", "b_g", "b_o"), bias.reshape(4, H)))
    else:
        ih, hh = bias[0].reshape(3, H), bias[1].reshape(3, H)
        got = {f"b_i{g}": ih[r] for r, g in enumerate(("z", "r", "n"))}
        got.update({f"b_h{g}": hh[r] for r, g in enumerate(("z", "r", "n"))})
    for p, v in got.items():
        np.testing.assert_allclose(v, want[p], rtol=0, atol=1e-6, err_msg=p)


@pytest.mark.torch_live
@pytest.mark.parametrize("variant,name", CASES)
def test_flax_snippet_sets_the_core_biases(variant, name):
    p = run(snippet("flax", name, variant, H, SEED, T_MAX, N_IN))["params"]["params"]
    want = core_params(variant, name)
    if variant == "lstm":
        got = {c: np.asarray(p[f"h{g}"]["bias"]) for c, g in zip(("b_i", "b_f", "b_g", "b_o"), "ifgo")}
        for c, v in got.items():
            np.testing.assert_allclose(v, want[c], rtol=0, atol=1e-6, err_msg=c)
    else:
        np.testing.assert_allclose(np.asarray(p["ir"]["bias"]), want["b_ir"] + want["b_hr"], atol=1e-6)
        np.testing.assert_allclose(np.asarray(p["iz"]["bias"]), want["b_iz"] + want["b_hz"], atol=1e-6)
        np.testing.assert_allclose(np.asarray(p["in"]["bias"]), want["b_in"], atol=1e-6)
        np.testing.assert_allclose(np.asarray(p["hn"]["bias"]), want["b_hn"], atol=1e-6)
