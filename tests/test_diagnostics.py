"""Failure diagnostics (lstm_core.reproduce.diagnostics) and absent connections (ModelConfig.absent):
a drifted network is flagged and a fresh one is not; absent connections stay exactly 0 while
training; the faithful presets have the papers' weight counts."""

from __future__ import annotations

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.reproduce.diagnostics import diagnose, flags, relevant_steps, summary
from lstm_core.training import PRESETS, Trainer


def adding_net(**kw) -> lc.Model:
    return lc.build("lstm1997", n_in=2, n_out=1, n_blocks=2, block_size=2, init_range=0.1, seed=3, **kw)


def test_a_drifted_state_is_flagged_and_a_fresh_network_is_not():
    task = lc.get_task("adding", T=40)
    fresh = diagnose(adding_net(bias={"input": [-3, -6]}), task, np.random.default_rng(0))[0]
    assert not any("drift" in f for f in fresh["flags"]) and fresh["s_max"] < 1.0
    assert fresh["hprime"] > 0.9
    # input gates open and cell inputs pushed to g ≈ 2 at every step: s grows by ~2 per step
    drifted = diagnose(adding_net(bias={"input": [6, 6], "cell": 6.0}), task, np.random.default_rng(0))[0]
    assert drifted["s_max"] > 50 and drifted["hprime"] < 0.1
    assert any(f.startswith("state drift") for f in drifted["flags"])
    assert "state drift" in summary(drifted)


def test_open_output_gate_and_mean_output_are_flagged():
    task = lc.get_task("adding", T=40)
    d = diagnose(adding_net(bias={"output": [8, 8]}), task, np.random.default_rng(0))[0]
    assert d["og_mean"] > 0.99 and any("output gate always open" in f for f in d["flags"])
    # an untrained net answers (almost) the same for every sequence: it sits at the target mean
    assert d["out_std_ratio"] < 0.2 and any("target mean" in f for f in d["flags"])
    assert (
        flags({"out_std_ratio": 0.9, "og_mean": 0.5, "s_max": 1.0, "hprime": 1.0, "ig_relevant": 0.5}) == []
    )


def test_input_gate_openness_is_measured_at_the_relevant_steps():
    task = lc.get_task("adding", T=40)
    batch = task.generate(np.random.default_rng(1), 4)
    rel = relevant_steps(task, batch)
    assert rel.sum() == 8 and rel[batch.info["positions"][:, 0], np.arange(4)].all()
    # an input gate driven by the marker input opens at the markers (+1) and nowhere else
    net = adding_net(bias={"input": [-8, -8]})
    net.params["W_ig"][:, 1] = 16.0  # marker column: +1 → net input +8
    d = diagnose(net, task, np.random.default_rng(1))[0]
    assert d["ig_relevant"] > 0.4 and d["ig_other"] < 0.05


def test_diagnostics_are_per_member_of_a_population():
    task = lc.get_task("adding", T=40)
    pop = lc.build_population(
        [adding_net(bias={"input": [-3, -6]}).config, adding_net(bias={"input": [6, 6], "cell": 6.0}).config]
    )
    d = diagnose(pop, task, np.random.default_rng(0))
    assert (
        len(d) == 2
        and not any("drift" in f for f in d[0]["flags"])
        and any("drift" in f for f in d[1]["flags"])
    )
    with pytest.raises(ValueError, match="batch must be"):
        diagnose(pop, task, np.random.default_rng(0), batch=0)


@pytest.mark.parametrize(
    "name, weights",
    [("embedded_reber", 276), ("embedded_reber_4x1", 264), ("long_lag", 10_504), ("two_sequence_3a", 102)],
)
def test_faithful_presets_have_the_papers_weight_counts(name, weights):
    assert PRESETS[name].build_model(0).n_trainable() == weights
    assert (
        PRESETS[name + "_assisted" if name + "_assisted" in PRESETS else name].build_model(0).n_trainable()
        >= weights
    )


def test_absent_connections_stay_zero_while_training():
    preset = PRESETS["long_lag"].with_task(p=5)
    tr = preset.trainer(trials=2, budget=30, probe=False)
    tr.train(30)
    p, n_in = tr.model.params, 6
    assert not p["b_c"].any() and not p["b_ig"].any() and not p["b_out"].any()
    assert not p["W_c"][..., n_in:].any() and not p["W_ig"][..., n_in:].any()
    assert p["W_c"][..., :n_in].any()  # the present weights did learn
    tr2 = Trainer(
        lc.build("lstm1997", n_in=2, n_out=1, absent=["b_c"], seed=1),
        "adding",
        algorithm="bptt",
        lr=0.5,
        momentum=0.9,
        budget=5,
        probe=False,
    )
    tr2.train(5)
    assert not tr2.model.params["b_c"].any()


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"variant": "rnn", "absent": ["recurrent"]}, "cannot leave out"),
        ({"variant": "lstm1997", "absent": ["b_x"]}, "cannot leave out"),
        ({"variant": "lstm1997", "absent": "b_c"}, "list of connection names"),
        ({"variant": "lstm1997", "output_gate": False, "absent": ["b_og"]}, "needs an output gate"),
    ],
)
def test_bad_absent_settings_are_refused(kw, message):
    with pytest.raises(ValueError, match=message):
        lc.ModelConfig(n_in=2, n_out=1, **kw)


def test_absent_round_trips_through_json():
    cfg = lc.ModelConfig("lstm1997", n_in=2, n_out=1, absent=["b_out", "b_c"])
    assert lc.ModelConfig.from_json(cfg.to_json()) == cfg and cfg.absent == ("b_c", "b_out")


def test_a_network_with_huge_outputs_is_diagnosed_without_a_runtime_warning():
    # a periodic-cos net (identity output) whose weights blew up: the outputs' spread overflows
    # (seen in a reproduction run of periodic_cos_f10, whose networks diverged)
    model = lc.build(PRESETS["periodic_cos_f10"].model_config(seed=1))
    model.params["W_out"] *= 1e170  # outputs ~1e169: their square overflows in the spread
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = diagnose(model, PRESETS["periodic_cos_f10"].build_task(), np.random.default_rng(0))[0]
    assert "flags" in d


def test_wrong_answers_at_saturated_output_units_are_flagged():
    # outputs driven far below 0 (as the x/y units of the failed 2a nets): every target-1 output is wrong
    # and sits where σ'(net) ≈ 0, so no error can come back from it
    task = lc.get_task("long_lag", p=5)
    net = lc.build("lstm1997", n_in=6, n_out=6, n_blocks=1, block_size=1, seed=3)
    fresh = diagnose(net, task, np.random.default_rng(0))[0]
    assert fresh["pinned_wrong"] is None or fresh["pinned_wrong"] < 0.5  # y ≈ 0.5: nothing clearly wrong
    assert not any(f.startswith("wrong answers pinned") for f in fresh["flags"])
    net.params["b_out"][...] = -30.0
    d = diagnose(net, task, np.random.default_rng(0))[0]
    assert d["pinned_wrong"] == 1.0
    assert any(f.startswith("wrong answers pinned: 100%") for f in d["flags"])
    assert "wrong answers pinned 100%" in summary(d)
    # merely wrong (y = 0.1 where the target is 1: σ' = 0.09) is not pinned
    net.params["b_out"][...] = -2.2
    assert diagnose(net, task, np.random.default_rng(0))[0]["pinned_wrong"] < 0.5
    # identity outputs (the 2002 waves) have no such saturation: not measured
    wave = lc.build(PRESETS["periodic_cos_f10"].model_config(seed=1))
    assert diagnose(wave, lc.get_task("periodic", F=10), np.random.default_rng(0))[0]["pinned_wrong"] is None
