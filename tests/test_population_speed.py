"""The population-throughput shortcuts give exactly the numbers of the plain code."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.tasks import reber, stack_batches
from lstm_core.tasks.long_lag import LongLag
from lstm_core.training.data import MemberStream, population_batch, take
from lstm_core.training.optimizer import SGD


@pytest.mark.parametrize("max_len", [9, 12, 50])
@pytest.mark.parametrize("batch", [1, 5, 32])
def test_reber_strings_from_one_block_of_draws_equal_one_at_a_time(max_len, batch):
    for seed in range(5):
        fast, slow = np.random.default_rng([seed, batch]), np.random.default_rng([seed, batch])
        for _ in range(3):
            assert reber._strings(fast, batch, max_len) == reber._strings_slow(slow, batch, max_len)
            assert fast.bit_generator.state == slow.bit_generator.state


def test_reber_generate_is_unchanged_for_other_bit_generators():
    a = reber.EmbeddedReber().generate(np.random.Generator(np.random.Philox(3)), 8)
    rng = np.random.Generator(np.random.Philox(3))
    assert [s for s in reber._strings_slow(rng, 8, 50)] == [
        "".join(reber.SYMBOLS[i] for i in row[row >= 0]) for row in a.info["symbols"]
    ]


@dataclass(frozen=True)
class _PlainLongLag(LongLag):
    """LongLag through the generic per-sequence path (the overridden hook is the same)."""

    def _targets(self, seq):
        return super()._targets(seq)


@pytest.mark.parametrize("p", [2, 5, 20])
def test_long_lag_vectorised_generate_equals_the_per_sequence_path(p):
    fast, plain = LongLag(p=p), _PlainLongLag(p=p)
    r1, r2 = np.random.default_rng(p), np.random.default_rng(p)
    for batch in (1, 7, 32):
        a, b = fast.generate(r1, batch), plain.generate(r2, batch)
        for name in ("xs", "targets", "mask", "lengths"):
            x, y = getattr(a, name), getattr(b, name)
            assert x.dtype == y.dtype
            np.testing.assert_array_equal(x, y, err_msg=name)
        assert set(a.info) == set(b.info)
        for key in b.info:
            assert a.info[key].dtype == b.info[key].dtype
            np.testing.assert_array_equal(a.info[key], b.info[key], err_msg=key)


def test_population_batch_of_equal_length_sequences_is_the_stack_of_every_members_batch():
    task = lc.get_task("long_lag", p=5)
    for B in (1, 3):
        fast = [MemberStream(task, np.random.default_rng([5, s]), B) for s in range(6)]
        ref = [MemberStream(task, np.random.default_rng([5, s]), B) for s in range(6)]
        for active in ([True] * 6, [False, True, True, False, True, False], [True] * 6):
            active = np.array(active)
            got, steps = population_batch(fast, active, True)
            mine = [s.next() if a else None for s, a in zip(ref, active)]
            first = next(b for b in mine if b is not None)
            blank = type(first)(first.xs, first.targets, np.zeros_like(first.mask), first.lengths, first.info)
            want = stack_batches([blank if b is None else b for b in mine])
            for name in ("xs", "targets", "mask", "lengths"):
                assert getattr(got, name).dtype == getattr(want, name).dtype
                np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)
            for key in want.info:
                np.testing.assert_array_equal(got.info[key], want.info[key], err_msg=key)
            assert steps.tolist() == [b.xs.shape[0] if b is not None else 0 for b in mine]
        assert take(*fast[0].claim()).xs.shape[1] == B


@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_masked_update_moves_only_the_active_members_exactly(momentum):
    rng = np.random.default_rng(0)
    K = 5
    params = {"W": rng.normal(size=(K, 3, 4)), "b": rng.normal(size=(K, 3))}
    ref = {n: p.copy() for n, p in params.items()}
    opt = SGD(0.3, momentum, K=K)
    vel = {n: np.zeros_like(p) for n, p in params.items()}
    for step in range(4):
        grads = {n: rng.normal(size=p.shape) for n, p in params.items()}
        grads["W"][1] = np.nan  # a frozen member's gradient is never used
        active = np.array([True, False, True, step % 2 == 0, True])
        opt.apply(params, grads, active)
        for k in np.flatnonzero(active):  # member k alone
            for n in ref:
                if momentum:
                    vel[n][k] = momentum * vel[n][k] - 0.3 * grads[n][k]
                    ref[n][k] = ref[n][k] + vel[n][k]
                else:
                    ref[n][k] = ref[n][k] - 0.3 * grads[n][k]
        for n in ref:
            np.testing.assert_array_equal(params[n], ref[n], err_msg=n)


def test_masked_update_with_one_flag_for_every_member():
    for momentum in (0.0, 0.9):
        for flag, want in ((False, 1.0), (True, 0.9)):
            p = {"a": np.ones((3, 2))}
            SGD(0.1, momentum, K=3).apply(p, {"a": np.ones((3, 2))}, flag)
            np.testing.assert_array_equal(p["a"], np.full((3, 2), want))


@pytest.mark.parametrize("batch", [1, 3])
def test_rtrl_step_on_checked_inputs_equals_the_checked_step(batch):
    cfg = lc.ModelConfig(variant="lstm1997", n_in=3, n_out=2, n_blocks=2, block_size=2, init_range=0.5)
    pop = lc.build_population([cfg.replace(seed=s) for s in range(3)])
    rng = np.random.default_rng(batch)
    xs = rng.normal(size=(5, 3, batch, 3))
    tg, mk = rng.random(size=(5, 3, batch, 2)), (rng.random(size=(5, 3, batch)) < 0.7).astype(float)
    a, b = lc.RTRL(pop, batch=batch), lc.RTRL(pop, batch=batch)
    P = pop.cell.prepare(pop.params)
    xc = pop.check_inputs(xs)
    for t in range(5):
        ya, la, ga = a.step(xc[t], tg[t], mk[t], prepared=P, checked=True)
        yb, lb, gb = b.step(xs[t], tg[t], mk[t], prepared=P)
        np.testing.assert_array_equal(ya, yb)
        np.testing.assert_array_equal(la, lb)
        for n in gb:
            assert ga[n].shape == gb[n].shape
            np.testing.assert_array_equal(ga[n], gb[n], err_msg=n)
