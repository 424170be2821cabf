"""Sequential network construction (TrainConfig.grow_window, 1997 §5.2): the memory cells join a
2a network once its error stops decreasing."""

from __future__ import annotations

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.training import PRESETS, TrainConfig, Trainer

P = 10  # a short 2a task keeps these runs small


def lag_net(seeds: list[int] | int) -> lc.Model:
    preset = PRESETS["long_lag"].with_task(p=P)
    if isinstance(seeds, int):
        return lc.build(preset.model_config(seed=seeds))
    return lc.build_population([preset.model_config(seed=s) for s in seeds])


def trainer(model: lc.Model, window: int, budget: int) -> Trainer:
    return Trainer(
        model,
        lc.get_task("long_lag", p=P),
        algorithm="rtrl",
        lr=1.0,
        budget=budget,
        probe=False,
        grow_window=window,
    )


def test_before_the_plateau_the_cells_do_not_exist_and_after_it_they_train():
    model = lag_net(3)
    initial = {n: p.copy() for n, p in model.params.items()}
    tr = trainer(model, window=20, budget=2000)
    cols = slice(model.config.n_in, None)
    seen_before = False
    while not tr.done and not tr.grower.added[0]:
        tr.train(1)
        if tr.grower.added[0]:
            break
        seen_before = True
        # the output columns reading the cell are exactly 0, so no error reached the cell:
        # its weights are still the initial ones, bit for bit
        assert not model.params["W_out"][:, cols].any()
        for name in ("W_c", "W_ig"):
            assert np.array_equal(model.params[name], initial[name])
    assert seen_before and tr.grower.added[0], "the error never stopped decreasing within the budget"
    at = int(tr.grower.added_at[0])
    assert at >= 2 * 20  # two windows are needed to see no progress
    assert np.array_equal(
        model.params["W_out"][:, cols], initial["W_out"][:, cols]
    )  # its initial weights back
    tr.train(50)
    assert model.params["W_out"][:, cols].any()
    assert not np.array_equal(model.params["W_c"], initial["W_c"])  # the cell learns now


def test_a_member_of_a_population_grows_exactly_as_it_would_alone():
    seeds = [1, 2, 3]
    pop = trainer(lag_net(seeds), window=20, budget=300)
    pop.train(300)
    for k, s in enumerate(seeds):
        alone = trainer(lag_net(s), window=20, budget=300)
        alone.train(300)
        assert alone.grower.added_at[0] == pop.grower.added_at[k]
        for name, p in alone.model.params.items():
            assert np.array_equal(p, pop.model.params[name][k]), (s, name)
    assert (pop.grower.added_at > 0).any()  # the comparison covered a network that grew


def test_without_grow_window_nothing_changes():
    a = Trainer(lag_net(5), lc.get_task("long_lag", p=P), algorithm="rtrl", lr=1.0, budget=5, probe=False)
    assert a.grower is None
    a.train(5)
    assert a.model.params["W_out"][:, P + 1 :].any()


@pytest.mark.parametrize(
    "model, message",
    [
        (lambda: lc.build("rnn", n_in=P + 1, n_out=P + 1), "needs an LSTM 1997, 2000 or 2002 network"),
        (lambda: lc.build("lstm1997", n_in=P + 1, n_out=P + 1), "input_to_output=True"),
    ],
)
def test_a_network_that_cannot_grow_is_refused(model, message):
    with pytest.raises(ValueError, match=message):
        Trainer(model(), lc.get_task("long_lag", p=P), algorithm="bptt", lr=1.0, budget=5, grow_window=10)


@pytest.mark.parametrize("window", [0, -3, 2.5, float("nan"), "10", True])
def test_a_bad_window_is_refused(window):
    with pytest.raises(ValueError, match="grow_window"):
        TrainConfig(grow_window=window)


def test_the_setting_round_trips_through_json():
    cfg = TrainConfig(algorithm="rtrl", lr=1.0, grow_window=250)
    assert TrainConfig.from_json(cfg.to_json()) == cfg
