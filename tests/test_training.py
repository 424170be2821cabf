"""The trainer: algorithms, optimiser, stop rules, resume and population equivalence, presets."""

from __future__ import annotations

import json

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.training import PRESETS, SGD, TrainConfig, Trainer, param_group
from lstm_core.training.data import MemberStream


def lag_net(p: int = 4, seed: int = 0, **kw) -> lc.Model:
    """The 1997 experiment-2a network (1 cell, no output gate) for long_lag with lag p."""
    return lc.build(
        "lstm1997",
        n_in=p + 1,
        n_out=p + 1,
        n_blocks=1,
        block_size=1,
        output_gate=False,
        cell_input="sigmoid",
        cell_output="identity",
        gates_as_sources=False,
        input_to_output=True,
        init_range=0.2,
        seed=seed,
        **kw,
    )


def small_net(variant: str = "lstm1997", seed: int = 0, n_in: int = 7, n_out: int = 7, **kw) -> lc.Model:
    return lc.build(
        variant, n_in=n_in, n_out=n_out, n_blocks=2, block_size=1, init_range=0.2, seed=seed, **kw
    )


def params_bytes(model: lc.Model) -> dict[str, bytes]:
    return {n: p.tobytes() for n, p in model.params.items()}


# --------------------------------------------------------------------------- learning and stopping
def test_loss_falls_on_a_tiny_task():
    tr = Trainer(lag_net(4), lc.get_task("long_lag", p=4), algorithm="rtrl", lr=1.0, budget=400, probe=False)
    losses = [np.asarray(p.loss) for p in tr.run(report_every=100)]
    assert len(losses) == 4
    assert losses[-1] < 0.5 * losses[0], losses


def test_stops_at_the_criterion_and_stays_stopped():
    tr = Trainer(lag_net(4), lc.get_task("long_lag", p=4), algorithm="rtrl", lr=1.0, streak=20, budget=5000)
    last = None
    for last in tr.run(report_every=50):  # noqa: B007 — the last report is the one asserted
        pass
    assert last.status == "solved" and last.done and tr.done
    assert last.solved_at[0] == last.sequences < 5000
    assert last.streak == 20 == last.required and last.reduced and "REDUCED" in last.criterion
    assert "solved" in last.message
    before = params_bytes(tr.model)
    again = tr.train(100)  # a stopped trainer does no more work
    assert again.sequences == last.sequences and params_bytes(tr.model) == before


def test_stops_at_the_budget():
    tr = Trainer(small_net(n_in=2, n_out=1), "adding", algorithm="bptt", lr=0.1, budget=30, probe=False)
    p = tr.train(1000)
    assert p.status == "budget" and p.sequences == 30 and "budget" in p.message


def test_nonfinite_stops_cleanly_with_a_message_naming_where():
    model = lc.build("rnn", n_in=2, n_out=1, n_hidden=3, output_activation="identity", seed=0)
    tr = Trainer(model, "adding", algorithm="bptt", lr=1e300, budget=100, probe=True)
    p = tr.train(100)  # must not raise
    assert p.status == "diverged" and p.done
    assert "diverged in sequence" in p.message and "'" in p.message  # names a quantity
    assert all(np.isfinite(v).all() for v in tr.model.params.values())  # last finite weights kept
    # rtrl: the message names the step
    m2 = lc.build(
        "lstm2002",
        n_in=1,
        n_out=1,
        n_blocks=1,
        block_size=1,
        cell_input="identity",
        cell_output="identity",
        output_activation="identity",
        seed=0,
    )
    tr2 = Trainer(m2, lc.get_task("periodic", F=10, length=30), algorithm="rtrl", lr=1e200, budget=50)
    p2 = tr2.train(50)
    assert p2.status == "diverged" and "step" in p2.message, p2.message


def test_one_diverging_member_is_frozen_while_the_others_train():
    members = [small_net("lstm1997", seed=s, n_in=2, n_out=1, output_activation="identity") for s in range(3)]
    pop = lc.stack(members)
    pop.params["W_out"][1] = 1e308  # member 1 overflows at once
    frozen = {n: p[1].copy() for n, p in pop.params.items()}
    start = {n: p.copy() for n, p in pop.params.items()}
    tr = Trainer(pop, lc.get_task("adding", T=12), algorithm="bptt", lr=0.1, budget=20, probe=False)
    p = tr.train(20)
    assert p.statuses == ("budget", "diverged", "budget")
    assert "member 1 (seed 1) diverged in sequence 1:" in p.message and "overflowed" in tr.book.messages[1]
    for n, v in pop.params.items():
        np.testing.assert_array_equal(v[1], frozen[n])
    assert not np.array_equal(pop.params["W_out"][0], start["W_out"][0])
    assert list(p.sequences) == [20, 0, 20]


# --------------------------------------------------------------------------- equivalences
@pytest.mark.parametrize(
    "algorithm,extra",
    [
        ("rtrl", {}),
        ("bptt", {"batch": 2}),
        ("tbptt", {"k": 5}),
        ("rtrl", {"momentum": 0.9, "clip_norm": 0.5}),
    ],
)
def test_train_n_then_n_equals_train_2n(algorithm, extra):
    def fresh():
        pop = lc.stack([small_net(seed=s) for s in range(2)])
        return Trainer(pop, "embedded_reber", algorithm=algorithm, lr=0.3, budget=10_000, **extra)

    a, b = fresh(), fresh()
    a.train(12)
    a.train(12)
    b.train(24)
    assert params_bytes(a.model) == params_bytes(b.model)
    np.testing.assert_array_equal(a.book.streak, b.book.streak)
    np.testing.assert_array_equal(a.book.seen, b.book.seen)
    if a.opt.velocity is not None:
        assert all(a.opt.velocity[n].tobytes() == b.opt.velocity[n].tobytes() for n in a.opt.velocity)


@pytest.mark.parametrize(
    "algorithm,task,extra",
    [
        ("rtrl", "embedded_reber", {"momentum": 0.5}),  # variable lengths: padded steps must not update
        ("bptt", lc.get_task("two_sequence", T=10), {"clip_norm": 0.05}),
        ("tbptt", "embedded_reber", {"k": 4}),
    ],
)
def test_population_equals_members_trained_alone(algorithm, task, extra):
    tk = lc.get_task(task) if isinstance(task, str) else task
    make = lambda s: small_net(seed=s, n_in=tk.n_in, n_out=tk.n_out)
    pop = lc.stack([make(s) for s in (0, 1, 2)])
    cfg = dict(algorithm=algorithm, lr=0.5, budget=40, streak=3, **extra)
    tp = Trainer(pop, tk, **cfg)
    tp.train(40)
    for k in range(3):
        alone = Trainer(make(k), tk, **cfg)
        alone.train(40)
        assert tp.book.solved_at[k] == alone.book.solved_at[0]
        assert tp.book.seen[k] == alone.book.seen[0]
        for n, v in alone.model.params.items():
            np.testing.assert_array_equal(pop.params[n][k], v, err_msg=n)  # bit for bit


def test_rtrl_updates_the_weights_after_every_timestep():
    task = lc.get_task("long_lag", p=5)
    model = lag_net(5)
    hand = model.copy()
    tr = Trainer(model, task, algorithm="rtrl", lr=0.7, budget=10)
    tr.train(1)
    seq = MemberStream(task, np.random.default_rng([0, 0]), 1).next()  # the trainer's first sequence
    r = lc.RTRL(hand, batch=1)
    for t in range(seq.xs.shape[0]):
        _, _, g = r.step(seq.xs[t], seq.targets[t], seq.mask[t])
        for n in g:
            hand.params[n] -= 0.7 * g[n]
    for n in hand.params:
        np.testing.assert_array_equal(model.params[n], hand.params[n], err_msg=n)
    # ... which is not the same as one update with the whole sequence's gradient
    once = lag_net(5)
    _, g = lc.rtrl_gradients(once, seq.xs, seq.targets, seq.mask)
    assert not np.allclose(once.params["W_c"] - 0.7 * g["W_c"], model.params["W_c"])


def test_tbptt_with_k_longer_than_the_sequence_is_bptt():
    a = Trainer(
        small_net(n_in=1, n_out=1), lc.get_task("two_sequence", T=10), algorithm="bptt", lr=0.5, budget=20
    )
    b = Trainer(
        small_net(n_in=1, n_out=1),
        lc.get_task("two_sequence", T=10),
        algorithm="tbptt",
        k=50,
        lr=0.5,
        budget=20,
    )
    a.train(20)
    b.train(20)
    for n in a.model.params:
        np.testing.assert_allclose(a.model.params[n], b.model.params[n], rtol=1e-12, atol=1e-14)


# --------------------------------------------------------------------------- optimiser
def test_momentum_math():
    p = {"w": np.array([1.0, -2.0])}
    opt = SGD(lr=0.1, momentum=0.9)
    g1, g2 = np.array([1.0, 2.0]), np.array([-1.0, 0.5])
    opt.step(p, {"w": g1})
    np.testing.assert_allclose(p["w"], [1.0 - 0.1, -2.0 - 0.2])
    opt.step(p, {"w": g2})
    v2 = 0.9 * (-0.1 * g1) - 0.1 * g2
    np.testing.assert_allclose(p["w"], np.array([1.0, -2.0]) - 0.1 * g1 + v2)


def test_clip_by_value_and_by_global_norm_per_member():
    opt = SGD(lr=1.0, clip_value=0.5)
    p = {"a": np.zeros(3)}
    opt.step(p, {"a": np.array([2.0, -0.2, -9.0])})
    np.testing.assert_allclose(p["a"], [-0.5, 0.2, 0.5])
    opt = SGD(lr=1.0, clip_norm=1.0, K=2)
    p = {"a": np.zeros((2, 2)), "b": np.zeros((2, 1))}
    g = {"a": np.array([[3.0, 0.0], [0.3, 0.0]]), "b": np.array([[4.0], [0.4]])}  # norms 5 and 0.5
    info = opt.step(p, g)
    np.testing.assert_allclose(info.norm, [5.0, 0.5])
    np.testing.assert_array_equal(info.clipped, [True, False])
    np.testing.assert_allclose(p["a"], [[-0.6, 0.0], [-0.3, 0.0]])  # member 0 scaled to norm 1
    np.testing.assert_allclose(p["b"], [[-0.8], [-0.4]])  # member 1 untouched
    opt.step(p, g, active=np.array([False, True]))  # frozen member does not move
    np.testing.assert_allclose(p["a"][0], [-0.6, 0.0])


# --------------------------------------------------------------------------- configuration
def test_train_config_json_round_trip():
    cfg = TrainConfig(
        algorithm="tbptt",
        k=7,
        lr=0.25,
        momentum=0.9,
        batch=4,
        clip_value=1.0,
        clip_norm=5.0,
        budget=1234,
        seed=3,
        report_every=10,
        streak=50,
        probe=False,
    )
    assert TrainConfig.from_json(cfg.to_json()) == cfg
    assert TrainConfig.from_dict(json.loads(json.dumps(cfg.to_dict()))) == cfg


@pytest.mark.parametrize(
    "settings,fragment",
    [
        ({"lr": 0}, "lr"),
        ({"lr": -1}, "lr"),
        ({"lr": float("nan")}, "lr"),
        ({"algorithm": "adam"}, "algorithm"),
        ({"algorithm": "tbptt"}, "needs k"),
        ({"k": 5}, "only used by algorithm='tbptt'"),
        ({"momentum": 1.0}, "momentum"),
        ({"batch": 0}, "batch"),
        ({"clip_norm": 0}, "clip_norm"),
        ({"budget": 2.5}, "budget"),
        ({"streak": 0}, "streak"),
    ],
)
def test_invalid_train_settings_raise_value_error(settings, fragment):
    with pytest.raises(ValueError, match=fragment):
        TrainConfig(**settings)


def test_invalid_trainer_combinations_raise_value_error():
    with pytest.raises(ValueError, match="use algorithm='bptt'"):
        Trainer(lc.build("rnn", n_in=2, n_out=1), "adding", algorithm="rtrl")
    with pytest.raises(ValueError, match="n_in=2"):
        Trainer(small_net(n_in=3, n_out=1), "adding")
    with pytest.raises(ValueError, match="valid training settings"):
        Trainer(small_net(n_in=2, n_out=1), "adding", learning_rate=0.1)
    with pytest.raises(ValueError, match="unknown task"):
        Trainer(small_net(n_in=2, n_out=1), "addition")
    with pytest.raises(ValueError, match="unknown training setting"):
        TrainConfig.from_dict({"lr": 0.1, "epochs": 3})
    with pytest.raises(ValueError, match="not valid JSON"):
        TrainConfig.from_json("{lr: 1")


# --------------------------------------------------------------------------- progress reports
def test_progress_reports_norms_probe_and_history():
    pop = lc.stack([lc.build("lstm2002", n_in=1, n_out=1, n_blocks=1, block_size=1, seed=s) for s in (0, 1)])
    tr = Trainer(pop, lc.get_task("periodic", F=10, length=20), algorithm="rtrl", lr=0.01, budget=30)
    reports = list(tr.run(report_every=10))
    p = reports[-1]
    assert len(reports) == 3 and len(tr.history["loss"]) == 3
    assert set(p.grad_norms) == {
        "input gate",
        "output gate",
        "forget gate",
        "cell input",
        "peephole",
        "output layer",
    }
    assert all(np.shape(v) == (2,) and np.isfinite(v).all() for v in p.grad_norms.values())
    assert p.probe.outputs.shape == (20, 2, 1, 1) and {"y_ig", "y_fg", "y_og", "s"} <= set(p.probe.internals)
    assert p.seq_per_second > 0 and p.status == "budget" and list(p.sequences) == [30, 30]
    frame = tr.history_frame()
    assert len(frame) == 6 and set(frame.member) == {0, 1}
    assert param_group("U", "rnn") == "recurrent" and param_group("W_f", "lstm") == "forget gate"


# --------------------------------------------------------------------------- presets
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_builds_a_fitting_model_and_trains(name):
    preset = PRESETS[name]
    task = preset.build_task()
    model = preset.build_model()
    assert (model.config.n_in, model.config.n_out) == (task.n_in, task.n_out)
    tr = preset.trainer(trials=2, budget=3)
    p = tr.train(3)
    whole_batches = -(-3 // tr.config.batch) * tr.config.batch
    assert p.status in ("budget", "solved") and list(p.sequences) == [whole_batches] * 2
    assert preset.reported and preset.describe()
