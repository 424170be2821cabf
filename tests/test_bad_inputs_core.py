"""The core's half of the bad-input catalogue (docs/bad_inputs.md): every case raises a
ValueError or lc.NonFiniteError whose message names the quantity and what to change — never an
IndexError / OverflowError / numpy message, never a RuntimeWarning (they are errors here).
"""

from __future__ import annotations

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.training import TrainConfig

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


def identity_2002() -> lc.Model:
    return lc.build(
        "lstm2002",
        n_in=1,
        n_out=1,
        cell_input="identity",
        cell_output="identity",
        output_activation="identity",
        seed=0,
    )


def nan_weights() -> lc.Model:
    m = lc.build("lstm1997", n_in=1, n_out=1, seed=0)
    m.params["W_c"][:] = np.nan
    return m


M97 = dict(n_in=1, n_out=1, seed=0)
ONES = np.ones((5, 1, 1))
ZEROS = np.zeros((5, 1, 1))
MASK = np.ones((5, 1))
HUGE4 = np.full((4, 1, 4), 1.7e308)


def rnn(**kw) -> lc.Model:
    return lc.build("rnn", n_in=1, n_out=1, seed=0, **kw)


CASES = [
    # id, call, error type, words in the message
    (
        "core-gradients-loss-overflow",
        lambda: lc.gradients(identity_2002(), np.full((5, 1, 1), 1e300), ZEROS, MASK),
        lc.NonFiniteError,
        "loss overflowed",
    ),
    (
        "core-rtrl-nan-weights",
        lambda: lc.rtrl_gradients(nan_weights(), ONES, ZEROS, MASK),
        lc.NonFiniteError,
        "W_c",
    ),
    (
        "core-rtrl-overflow",
        lambda: lc.rtrl_gradients(
            lc.build(
                "lstm1997", cell_input="identity", cell_output="identity", output_activation="identity", **M97
            ),
            np.full((5, 1, 1), 1e300),
            ZEROS,
            MASK,
        ),
        lc.NonFiniteError,
        "step 0",
    ),
    (
        "core-rtrl-short-mask",
        lambda: lc.rtrl_gradients(lc.build("lstm1997", **M97), ONES, ZEROS, np.ones((3, 1))),
        ValueError,
        "mask must have shape (T, B) with T = 5",
    ),
    (
        "core-rtrl-short-targets",
        lambda: lc.rtrl_gradients(lc.build("lstm1997", **M97), ONES, np.zeros((3, 1, 1)), MASK),
        ValueError,
        "targets must have shape (T, B, n_out) with T = 5",
    ),
    (
        "core-rtrl-empty-sequence",
        lambda: lc.rtrl_gradients(
            lc.build("lstm1997", **M97), np.ones((0, 1, 1)), np.zeros((0, 1, 1)), np.ones((0, 1))
        ),
        ValueError,
        "T = 0",
    ),
    (
        "core-forward-rnn-net-inf",
        lambda: lc.forward(lc.build("rnn", n_in=4, n_out=1, init_range=2.0), HUGE4),
        lc.NonFiniteError,
        "'net' at step 0",
    ),
    (
        "core-forward-lstm2000-net-ig-inf",
        lambda: lc.forward(lc.build("lstm2000", n_in=4, n_out=1, init_range=2.0), HUGE4),
        lc.NonFiniteError,
        "'net_ig' at step 0",
    ),
    (
        "core-forward-local-feedback-inf",
        lambda: lc.forward(lc.build("local_feedback", n_in=4, n_out=1, init_range=2.0), HUGE4),
        lc.NonFiniteError,
        "at step 0",
    ),
    (
        "core-gradients-local-feedback-inf",
        lambda: lc.gradients(
            lc.build("local_feedback", n_in=4, n_out=1, init_range=2.0),
            HUGE4,
            np.zeros((4, 1, 1)),
            np.ones((4, 1)),
        ),
        lc.NonFiniteError,
        "at step 0",
    ),
    (
        "core-error-flow-overflow",
        lambda: lc.error_flow(
            lc.build("lstm", n_in=1, n_out=1, init_range=10, seed=0), np.full((4, 1, 1), 1.7e308)
        ),
        lc.NonFiniteError,
        "'net'",
    ),
    ("core-n-in-infinite", lambda: lc.build("rnn", n_in=float("inf"), n_out=1), ValueError, "n_in"),
    ("core-n-in-nan", lambda: lc.build("rnn", n_in=float("nan"), n_out=1), ValueError, "n_in"),
    (
        "core-n-blocks-minus-infinity",
        lambda: lc.build("lstm1997", n_in=1, n_out=1, n_blocks=float("-inf")),
        ValueError,
        "n_blocks",
    ),
    (
        "core-json-infinity",
        lambda: lc.ModelConfig.from_json('{"variant": "rnn", "n_in": Infinity, "n_out": 1}'),
        ValueError,
        "n_in",
    ),
    (
        "core-json-nan-seed",
        lambda: lc.ModelConfig.from_json('{"variant": "rnn", "n_in": 1, "n_out": 1, "seed": NaN}'),
        ValueError,
        "seed",
    ),
    ("core-input-to-output-rnn", lambda: rnn(input_to_output=True), ValueError, "exists only for"),
    (
        "core-input-to-output-local-feedback",
        lambda: lc.build("local_feedback", n_in=1, n_out=1, input_to_output=True),
        ValueError,
        "exists only for",
    ),
    (
        "core-input-to-output-lstm",
        lambda: lc.build("lstm", n_in=1, n_out=1, input_to_output=True),
        ValueError,
        "exists only for",
    ),
    (
        "core-input-to-output-gru",
        lambda: lc.build("gru", n_in=1, n_out=1, input_to_output=True),
        ValueError,
        "exists only for",
    ),
    (
        "core-targets-wrong-batch",
        lambda: lc.gradients(rnn(), np.ones((3, 2, 1)), np.zeros((3, 3, 1)), np.ones((3, 2))),
        ValueError,
        "one row per sequence of the batch (B = 2)",
    ),
    (
        "core-mask-wrong-batch",
        lambda: lc.gradients(rnn(), np.ones((3, 2, 1)), np.zeros((3, 2, 1)), np.ones((3, 3))),
        ValueError,
        "one value per sequence of the batch (B = 2)",
    ),
    ("core-forward-empty-sequence", lambda: lc.forward(rnn(), np.ones((0, 1, 1))), ValueError, "T = 0"),
    (
        "core-gradients-empty-sequence",
        lambda: lc.gradients(rnn(), np.ones((0, 1, 1)), np.zeros((0, 1, 1)), np.ones((0, 1))),
        ValueError,
        "T = 0",
    ),
    ("core-forward-empty-batch", lambda: lc.forward(rnn(), np.ones((3, 0, 1))), ValueError, "B = 0"),
    ("core-forward-nan-input", lambda: lc.forward(rnn(), np.full((3, 1, 1), np.nan)), ValueError, "NaN"),
    ("core-forward-wrong-n-in", lambda: lc.forward(rnn(), np.ones((3, 1, 2))), ValueError, "n_in = 1"),
    ("core-train-lr-nan", lambda: TrainConfig(lr=float("nan")), ValueError, "lr"),
    ("core-train-lr-infinite", lambda: TrainConfig(lr=float("inf")), ValueError, "lr"),
    ("core-train-momentum-nan", lambda: TrainConfig(momentum=float("nan")), ValueError, "momentum"),
    ("core-train-clip-infinite", lambda: TrainConfig(clip_norm=float("inf")), ValueError, "clip_norm"),
    ("core-train-budget-infinite", lambda: TrainConfig(budget=float("inf")), ValueError, "budget"),
    ("core-train-batch-nan", lambda: TrainConfig(batch=float("nan")), ValueError, "batch"),
    ("core-unknown-task", lambda: lc.get_task("sorting"), ValueError, "sorting"),
]


@pytest.mark.parametrize("call,error,words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_raises_a_named_error(call, error, words):
    with pytest.raises(error) as e:
        call()
    assert type(e.value) is error or isinstance(e.value, error)
    assert words in str(e.value), str(e.value)


def test_lazy_and_fused_internals_never_warn_on_overflow():
    m = lc.build("lstm", n_in=1, n_out=1, init_range=10, seed=0)
    run = lc.forward(m, np.full((4, 1, 1), 1.7e308), fast=True, check=False)
    for name in run.internals:
        run.internals[name]  # computed under errstate: inf, no warning
    run.to_frame()


def test_finite_gradients_still_pass_every_new_check():
    m = lc.build("local_feedback", n_in=2, n_out=1, seed=0)
    loss, g = lc.gradients(m, np.ones((5, 1, 2)), np.zeros((5, 1, 1)), np.ones((5, 1)))
    assert np.isfinite(loss) and all(np.isfinite(v).all() for v in g.values())
