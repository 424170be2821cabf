"""The 2002 timing protocol (TrainConfig.reset_on_error): a training stream stops at its first
step with too large an error and the next one starts from the zero state."""

from __future__ import annotations

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.training import PRESETS, Trainer


def net(K: int | None = None) -> lc.Model:
    cfg = PRESETS["periodic_cos_f10"].model_config(seed=4)
    return lc.build_population([cfg.replace(seed=4 + k) for k in range(K)]) if K else lc.build(cfg)


def trained(model: lc.Model, reset: bool, **task) -> dict:
    tr = Trainer(
        model,
        lc.get_task("periodic", **task),
        algorithm="rtrl",
        lr=1e-2,
        momentum=0.9,
        budget=1,
        probe=False,
        reset_on_error=reset,
    )
    tr.train(1)
    return tr.model.params


@pytest.mark.parametrize("K", [None, 2])
def test_a_stream_stops_at_its_first_too_large_error(K):
    # tolerance 1e-9: the first step already misses, so only step 0 is trained — exactly as on
    # a one-step sequence (momentum included: no update at all after the stop)
    stopped = trained(net(K), True, length=50, tolerance=1e-9)
    one_step = trained(net(K), False, length=1, tolerance=1e-9)
    full = trained(net(K), False, length=50, tolerance=1e-9)
    assert all(np.array_equal(stopped[n], one_step[n]) for n in stopped)
    assert not all(np.array_equal(stopped[n], full[n]) for n in stopped)


def test_a_stream_without_a_large_error_is_trained_to_its_end():
    kept = trained(net(), True, length=30, tolerance=10.0)
    plain = trained(net(), False, length=30, tolerance=10.0)
    assert all(np.array_equal(kept[n], plain[n]) for n in kept)


def test_the_stopped_stream_counts_as_wrong_and_the_spike_task_stops_at_a_spike():
    model = lc.build(PRESETS["spike_delay_nmsd"].model_config(seed=1))
    tr = Trainer(
        model,
        lc.get_task("spike_delay", mode="msd", n_spikes=20),
        algorithm="rtrl",
        lr=1e-3,
        momentum=0.9,
        budget=3,
        probe=False,
        reset_on_error=True,
    )
    tr.train(3)
    assert tr.results()["best_streak"].iloc[0] == 0


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"algorithm": "bptt"}, "needs algorithm='rtrl' with batch=1"),
        ({"algorithm": "rtrl", "batch": 2}, "needs algorithm='rtrl' with batch=1"),
        ({"algorithm": "rtrl", "reset_on_error": "yes"}, "true or false"),
    ],
)
def test_bad_reset_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        lc.training.TrainConfig(**{"reset_on_error": True, **settings})


def test_reset_needs_a_task_with_a_step_tolerance():
    model = lc.build("lstm1997", n_in=2, n_out=1)
    with pytest.raises(ValueError, match="per-step tolerance"):
        Trainer(model, "adding", algorithm="rtrl", reset_on_error=True)
