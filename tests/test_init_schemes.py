"""The gate-bias initialisation schemes (lstm_core.init_schemes), Adam, and the long-lag tasks the
atlas trains on (copy, adding in its sum form) with their memoryless baselines."""

from __future__ import annotations

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.init_schemes import (
    SCHEMES,
    keep_biases,
    memory_times,
    scheme_biases,
    schemes_for,
    with_scheme,
)
from lstm_core.sequence import loss_and_output_error
from lstm_core.training import TrainConfig, Trainer
from lstm_core.training.optimizer import Adam

H = 6
SIZES = {
    "lstm": {"n_hidden": H},
    "gru": {"n_hidden": H},
    "lstm1997": {"n_blocks": H, "block_size": 1},
    "lstm2000": {"n_blocks": H, "block_size": 1},
    "lstm2002": {"n_blocks": H, "block_size": 1},
}


def base(variant: str, seed: int = 3) -> lc.ModelConfig:
    return lc.ModelConfig.from_dict(
        {"variant": variant, "n_in": 2, "n_out": 1, "seed": seed, **SIZES[variant]}
    )


@pytest.mark.parametrize("variant", list(SIZES))
@pytest.mark.parametrize("name", list(SCHEMES))
def test_every_scheme_applies_where_it_means_something_and_says_why_not_elsewhere(variant, name):
    cfg = base(variant)
    if variant not in SCHEMES[name].variants:
        with pytest.raises(ValueError, match="has no meaning for a"):
            with_scheme(cfg, name, t_max=30)
        return
    a = with_scheme(cfg, name, t_max=30)
    assert lc.ModelConfig.from_json(a.to_json()) == a  # the scheme's values travel in the config
    assert with_scheme(cfg, name, t_max=30) == a  # the seed decides every draw
    m, m0 = lc.build(a), lc.build(cfg)
    for p, v in m.params.items():  # only biases differ from the seed's own network
        if not p.startswith("b_"):
            np.testing.assert_array_equal(v, m0.params[p], err_msg=p)


def test_each_variant_has_the_schemes_the_atlas_needs():
    assert len(schemes_for("lstm")) >= 7 and len(schemes_for("lstm2000")) >= 7
    assert set(schemes_for("gru")) == {"torch_default", "zeros", "chrono", "ugi"}
    assert "chrono" not in schemes_for("lstm1997")  # no forget gate to set


@pytest.mark.parametrize("variant", ["lstm", "lstm2000", "gru"])
def test_chrono_spreads_memory_times_from_2_to_t_max_and_ties_the_input_gate(variant):
    t_max = 40.0
    cfg = with_scheme(base(variant), "chrono", t_max=t_max)
    m = lc.build(cfg)
    kb = keep_biases(m.params, variant)
    assert np.all(kb >= 0) and np.all(kb <= np.log(t_max - 1))
    times = memory_times(kb)
    assert np.all(times >= 2 - 1e-12) and np.all(times <= t_max)
    if variant != "gru":
        ig = cfg.record.gate_biases["input"]
        np.testing.assert_array_equal(m.params[ig], -kb)


def test_chrono_needs_t_max():
    with pytest.raises(ValueError, match="needs T_max"):
        with_scheme(base("lstm"), "chrono")


def test_uniform_gate_initialisation_spreads_the_gate_values_evenly():
    n = 256
    cfg = lc.ModelConfig.from_dict({"variant": "lstm", "n_in": 1, "n_out": 1, "n_hidden": n, "seed": 1})
    kb = keep_biases(lc.build(with_scheme(cfg, "ugi")).params, "lstm")
    f = 1 / (1 + np.exp(-kb))
    assert f.min() >= 1 / n - 1e-12 and f.max() <= 1 - 1 / n + 1e-12
    assert abs(np.mean(f < 0.25) - 0.25) < 0.1  # uniform in (0, 1), not bunched at ½


def test_pytorchs_default_and_the_two_vector_pitfall():
    n = 256
    cfg = lc.ModelConfig.from_dict({"variant": "lstm", "n_in": 1, "n_out": 1, "n_hidden": n, "seed": 2})
    b = lc.build(with_scheme(cfg, "torch_default")).params["b_f"]
    k = 1 / np.sqrt(n)
    assert np.abs(b).max() <= 2 * k and np.abs(b).max() > k  # a sum of two uniforms in ±k
    pit = lc.build(with_scheme(cfg, "forget_one_both")).params
    np.testing.assert_array_equal(pit["b_f"], 2.0)  # 1 on bias_ih + 1 on bias_hh
    assert np.abs(pit["b_i"]).max() <= 2 * k  # the rest keeps PyTorch's default
    gru = lc.ModelConfig.from_dict({"variant": "gru", "n_in": 1, "n_out": 1, "n_hidden": n, "seed": 2})
    p = lc.build(with_scheme(gru, "torch_default")).params
    for name in ("b_ir", "b_iz", "b_in", "b_hr", "b_hz", "b_hn"):  # the GRU keeps both vectors
        assert np.abs(p[name]).max() <= k


def test_1997_staggered_biases_per_block():
    bias, _init = scheme_biases(base("lstm1997"), "staggered1997")
    np.testing.assert_allclose(bias["output"], np.linspace(-1, -4, H))
    np.testing.assert_allclose(bias["input"], np.linspace(-1, -4, H))
    assert bias["cell"] == [0.0] * H


def test_memory_time_is_one_over_one_minus_the_gate():
    b = np.array([-3.0, 0.0, 1.0, 30.0])
    f = 1 / (1 + np.exp(-b))
    np.testing.assert_allclose(memory_times(b)[:3], 1 / (1 - f[:3]))
    assert np.isfinite(memory_times(b)[3])  # no 1 − 1 cancellation


# ------------------------------------------------------------------------------------------ Adam
def test_adam_math_and_frozen_members():
    p = {"w": np.array([[1.0, -2.0], [0.5, 0.5]])}
    opt = Adam(lr=0.1, K=2)
    g1 = np.array([[1.0, 2.0], [3.0, 4.0]])
    opt.step(p, {"w": g1}, active=np.array([True, False]))
    # first step: m̂ = g, v̂ = g², so θ moves by lr · g / (|g| + ε) ≈ lr · sign(g)
    np.testing.assert_allclose(p["w"][0], [1.0 - 0.1, -2.0 - 0.1], atol=1e-7)
    np.testing.assert_array_equal(p["w"][1], [0.5, 0.5])  # frozen: not moved
    g2 = np.array([[-1.0, 0.5], [1.0, 1.0]])
    opt.step(p, {"w": g2})
    m = 0.9 * 0.1 * g1[0] + 0.1 * g2[0]
    v = 0.999 * 0.001 * g1[0] ** 2 + 0.001 * g2[0] ** 2
    step = 0.1 * (m / (1 - 0.9**2)) / (np.sqrt(v / (1 - 0.999**2)) + 1e-8)
    np.testing.assert_allclose(p["w"][0], np.array([0.9, -2.1]) - step)
    np.testing.assert_allclose(
        p["w"][1], np.array([0.5, 0.5]) - 0.1 * np.sign(g2[1]), atol=1e-7
    )  # its step 1


def test_adam_population_equals_members_trained_alone():
    task = lc.get_task("adding_sum", T=8)
    make = lambda s: lc.build("lstm", n_in=2, n_out=1, n_hidden=3, output_activation="identity", seed=s)
    cfg = dict(algorithm="bptt", optimizer="adam", lr=0.01, clip_norm=1.0, batch=2, budget=20)
    pop = lc.stack([make(s) for s in (0, 1)])
    Trainer(pop, task, **cfg).train(20)
    for k in (0, 1):
        alone = make(k)
        Trainer(alone, task, **cfg).train(20)
        for n, v in alone.params.items():
            np.testing.assert_array_equal(pop.params[n][k], v, err_msg=n)


@pytest.mark.parametrize(
    "settings,fragment",
    [
        ({"optimizer": "rmsprop"}, "unknown optimizer"),
        ({"optimizer": "adam", "momentum": 0.9}, "momentum is SGD's"),
    ],
)
def test_bad_optimizer_settings_say_what_to_do(settings, fragment):
    with pytest.raises(ValueError, match=fragment):
        TrainConfig(**settings)


def test_train_config_round_trips_the_optimizer():
    c = TrainConfig(optimizer="adam", lr=0.001)
    assert TrainConfig.from_json(c.to_json()) == c
    assert TrainConfig.from_dict({"lr": 0.1}).optimizer == "sgd"  # older files: the papers' SGD


# ------------------------------------------------------------------------------ long-lag tasks
def test_copy_task_layout_and_its_memoryless_baseline():
    task = lc.get_task("copy", T=5, length=3, n_symbols=4)
    b = task.generate(np.random.default_rng(0), 2)
    assert b.xs.shape == (11, 2, 6) and b.targets.shape == (11, 2, 5)
    sym = b.info["symbols"]
    np.testing.assert_array_equal(b.xs[:3].argmax(-1).T, sym)  # the symbols first
    assert (b.xs[3:7].argmax(-1) == 0).all() and (b.xs[7].argmax(-1) == 5).all()  # blanks, delimiter
    np.testing.assert_array_equal(b.targets[-3:].argmax(-1).T, sym)  # recalled at the end
    # the memoryless network: blanks with certainty, then a uniform guess over the symbols
    y = np.zeros_like(b.targets)
    y[:-3, :, 0] = 1.0
    y[-3:, :, 1:] = 1 / 4
    model = lc.build("lstm", n_in=6, n_out=5, n_hidden=2, output_activation="softmax", loss="ce")
    loss, _ = loss_and_output_error(model, y, np.log(np.maximum(y, 1e-300)), b.targets, b.mask)
    assert loss == pytest.approx(task.memoryless_loss) == pytest.approx(3 * np.log(4))
    assert task.evaluate(b.targets, b).correct.all()  # the right answer is judged right


def test_adding_sum_baseline_is_answering_one():
    task = lc.get_task("adding_sum", T=20)
    b = task.generate(np.random.default_rng(0), 20_000)
    first, second = b.info["positions"].T
    assert (first < 10).all() and (second >= 10).all()
    assert (b.xs[..., 1].sum(0) == 2).all()
    y = np.where(b.mask[..., None] > 0, 1.0, 0.0)
    model = lc.build("lstm", n_in=2, n_out=1, n_hidden=2, output_activation="identity")
    loss, _ = loss_and_output_error(model, y, y, b.targets, b.mask)
    assert loss == pytest.approx(task.memoryless_loss, rel=0.03)  # ½ · E[(X1 + X2 − 1)²] = 1/12
