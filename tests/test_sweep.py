"""Bias sweeps (lstm_core.sweeps.sweep) and the bias-lab measurements (lstm_core.sweeps.bias_demos).

The central test is the issue's equivalence: a 3 × 3 bias grid × 2 seeds trained as ONE
population gives exactly the results (and the weights) of the same 18 networks trained one by
one. The grid is chosen so that some networks solve and some do not — a sweep that trained
nothing, or everything identically, would fail the assertions on the mix of outcomes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import lstm_core as lc
from lstm_core.sweeps import bias_demos as bd
from lstm_core.sweeps.separately import run_separately
from lstm_core.sweeps.sweep import (
    MAX_MEMBERS,
    Axis,
    Sweep,
    aggregate,
    grid_configs,
    with_goal,
)
from lstm_core.training import TrainConfig, Trainer

BASE = lc.ModelConfig(variant="lstm1997", n_in=1, n_out=1, n_blocks=2, block_size=1, init_range=0.1)
X = Axis.values("input", [0.0, -1.0, -2.0])
Y = Axis.values("output", [0.0, -1.0, -2.0], step=-1.0)
RESULT_COLS = ["status", "sequences", "solved_at", "best_streak", "message"]


def small_task():
    return with_goal(lc.get_task("two_sequence", T=10), None)


@pytest.mark.parametrize("algorithm,lr", [("rtrl", 1.0), ("bptt", 1.0)])
def test_population_sweep_equals_the_same_18_networks_trained_one_by_one(algorithm, lr):
    train = TrainConfig(algorithm=algorithm, lr=lr, budget=120, streak=15, seed=3)
    sweep = Sweep(BASE, small_task(), train, X, Y, seeds=[0, 1])
    assert sweep.K == 18
    while not sweep.done:  # uneven chunks: chunking must not change anything
        sweep.advance(7)
    pop = sweep.results()
    for k, cfg in enumerate(sweep.configs):
        alone = lc.build(cfg)
        tr = Trainer(alone, sweep.task, sweep.train_config)
        tr.train(train.budget)
        r = tr.results().iloc[0]
        row = pop.iloc[k]
        for col in RESULT_COLS:
            a, b = row[col], r[col]
            assert (a == b) or (pd.isna(a) and pd.isna(b)), (k, col, a, b)
        for name, p in alone.params.items():
            np.testing.assert_array_equal(sweep.trainer.model.params[name][k], p, err_msg=f"{k} {name}")
    # a meaningful grid: some networks solve, some do not, and the outcome depends on the biases
    assert 0 < (pop.status == "solved").sum() < 18
    assert pop.groupby(["i", "j"]).solved_at.apply(lambda s: tuple(s.fillna(-1))).nunique() > 1


def test_run_separately_matches_the_population():
    sweep = Sweep(
        BASE, small_task(), TrainConfig(algorithm="rtrl", lr=1.0, budget=60, streak=10), X, None, seeds=[0, 2]
    )
    for _ in sweep.run(25):
        pass
    pop, sep = sweep.results(), run_separately(sweep, chunk=13)
    pd.testing.assert_frame_equal(
        pop[["member", "i", "j", "seed"] + RESULT_COLS],
        sep[["member", "i", "j", "seed"] + RESULT_COLS],
        check_dtype=False,
    )


def test_grid_members_differ_only_in_the_swept_biases():
    base = BASE.replace(n_blocks=3, bias=(("cell", 0.5),))
    configs, coords = grid_configs(base, X, Y, seeds=[4, 9])
    assert len(configs) == 18 and list(coords.columns) == ["member", "i", "j", "x", "y", "seed"]
    assert (
        list(coords.seed[:2]) == [4, 9]
        and list(coords.i[:6]) == [0] * 6
        and list(coords.j[:6]) == [0, 0, 1, 1, 2, 2]
    )
    assert coords.y[2] == "−1, −2, −3" and coords.x[6] == "−1"  # per-block values spelled out
    m = [lc.build(c) for c in configs]
    assert (coords.i[10], coords.j[10], coords.seed[10]) == (1, 2, 4)
    np.testing.assert_array_equal(m[10].params["b_ig"], np.full(3, -1.0))  # i=1
    np.testing.assert_array_equal(m[10].params["b_og"], [-2.0, -3.0, -4.0])  # j=2: −2, −3, −4
    np.testing.assert_array_equal(m[10].params["b_c"], np.full(3, 0.5))  # fixed bias kept
    for name in m[0].params:  # same seed ⇒ same weights
        if name not in ("b_ig", "b_og"):
            np.testing.assert_array_equal(m[0].params[name], m[16].params[name])
    assert not np.array_equal(m[0].params["W_ig"], m[1].params["W_ig"])  # other seed


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(x=Axis.values("forget", [1.0])), "no 'forget' bias"),
        (dict(y=Axis.values("input", [1.0])), "two different gates"),
        (dict(seeds=[0, 0]), "distinct seeds"),
        (
            dict(
                x=Axis.values("input", list(range(10))),
                y=Axis.values("output", list(range(10))),
                seeds=range(5),
            ),
            f"at most {MAX_MEMBERS}",
        ),
    ],
)
def test_bad_grids_raise_actionable_errors(kw, match):
    args = dict(x=X, y=Y, seeds=[0])
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        grid_configs(BASE, args["x"], args["y"], args["seeds"])


def test_axis_validation_and_round_trip():
    with pytest.raises(ValueError, match="repeat"):
        Axis.values("input", [0, 0])
    with pytest.raises(ValueError, match="finite"):
        Axis.values("input", [float("nan")])
    a = Axis.stagger("output", -1, -1)
    assert (
        a.labels(4) == ["0", "−1, −2, −3, −4"]
        and a.spec(1, 4) == [-1.0, -2.0, -3.0, -4.0]
        and a.spec(0, 4) == 0.0
    )
    assert Axis.from_dict(a.to_dict()) == a


def test_aggregate_success_rate_and_median_over_solved_networks_only():
    res = pd.DataFrame(
        {
            "i": [0, 0, 0, 1, 1, 1],
            "j": [0] * 6,
            "x": ["a"] * 3 + ["b"] * 3,
            "y": [""] * 6,
            "status": ["solved", "solved", "budget", "budget", "diverged", "running"],
            "solved_at": [100, 300, None, None, None, None],
            "best_streak": [5, 5, 2, 1, 0, 3],
        }
    )
    cells = aggregate(res)
    a, b = cells.iloc[0], cells.iloc[1]
    assert (a.networks, a.solved, a.success_rate, a.median_to_criterion) == (3, 2, 2 / 3, 200.0)
    assert (b.solved, b.success_rate, b.diverged, b.running) == (0, 0.0, 1, 1)
    assert np.isnan(b.median_to_criterion)


def test_with_goal_changes_only_the_error_goal_and_says_so():
    task = lc.get_task("two_sequence", T=10)
    relaxed = with_goal(task, 0.05)
    assert (
        relaxed.criterion.mean_abs_error_below == 0.05 and relaxed.criterion.streak == task.criterion.streak
    )
    assert "RELAXED" in relaxed.criterion.description
    assert with_goal(task, None).criterion.mean_abs_error_below is None
    b = task.generate(np.random.default_rng(0), 4)
    assert relaxed.generate(np.random.default_rng(0), 4).xs.tolist() == b.xs.tolist()
    with pytest.raises(ValueError):
        with_goal(task, -1.0)


def test_probe_shows_the_initial_and_the_trained_network():
    sweep = Sweep(
        BASE, small_task(), TrainConfig(algorithm="rtrl", lr=1.0, budget=30, streak=10), X, None, [0]
    )
    sweep.advance(30)
    tr = sweep.probe(2)
    b = lc.get_task("two_sequence", T=10).generate(np.random.default_rng([0, 2**32 - 1]), 1)
    before = lc.forward(lc.build(sweep.configs[2]), b.xs)
    after = lc.forward(sweep.trainer.model.member(2), b.xs)
    np.testing.assert_array_equal(tr["before"].internals["y_ig"], before.internals["y_ig"])
    np.testing.assert_array_equal(tr["after"].internals["s"], after.internals["s"])
    assert not np.array_equal(tr["before"].internals["s"], tr["after"].internals["s"])


# ============================================================================= demos
def test_input_dependence_finds_constant_cells():
    rng = np.random.default_rng(0)
    T, B = 20, 64  # the mean over B sequences removes 1/B of a random cell's power
    y = np.stack([np.full((T, B), 0.5), rng.normal(size=(T, B)), np.full((T, B), 1e-4)], -1)
    valid = np.ones((T, B), dtype=bool)
    d = bd.input_dependence(y, valid)
    assert d.bias_unit.tolist() == [True, False, False]  # constant; input-driven; negligible
    assert d.input_share[0] == 0.0 and d.input_share[1] > 0.9
    np.testing.assert_allclose(d.rms[0], 0.5)


def test_abuse_summary_measures_open_output_gates_early():
    sweep = Sweep(
        BASE.replace(n_blocks=3),
        small_task(),
        TrainConfig(algorithm="rtrl", lr=1.0, budget=20, streak=10),
        Axis.stagger("output", -2, -2),
        None,
        [0, 1],
    )
    sweep.advance(20)
    s = bd.abuse_summary(sweep)
    assert len(s) == 8 and set(s.when) == {"before", "after"}
    before = s[s.when == "before"].groupby("setting").early_output_gate.mean()
    # bias 0 → σ(≈0) ≈ 0.5; staggered −2, −4, −6 → mostly shut, as measured on the networks
    assert before["0"] == pytest.approx(0.5, abs=0.05) and before["−2, −4, −6"] < 0.1


def test_drift_profile_uses_the_cell_output_derivative():
    model = lc.build("lstm1997", n_in=2, n_out=1, n_blocks=2, block_size=2, seed=1, init_range=0.5)
    b = lc.get_task("adding", T=30).generate(np.random.default_rng(0), 1)
    run = lc.forward(model, b.xs)
    tr = bd.Trace(b.xs, b.targets, b.mask, run.outputs, dict(run.internals))
    p = bd.drift_profile(tr, model.config)
    s = run.internals["s"][:, 0]
    h = np.tanh(s / 2)
    np.testing.assert_allclose(p["h_prime"], (0.5 * (1 - h * h)).mean(1))
    np.testing.assert_allclose(p["abs_s"], np.abs(s).mean(1))
    assert p["h_prime_max"] == 0.5


def test_probe_grad_norms_equal_the_core_gradients_per_member():
    configs = [BASE.replace(seed=s, bias=(("input", b),)) for s, b in ((0, 0.0), (1, -3.0))]
    pop = lc.build_population(configs)
    b = small_task().generate(np.random.default_rng(0), 1)
    norms = bd.probe_grad_norms(pop, b, "truncated")
    for k, cfg in enumerate(configs):
        _, g = lc.gradients(lc.build(cfg), b.xs, b.targets, b.mask, method="truncated")
        want = np.sqrt(sum((g[n] ** 2).sum() for n in ("W_ig", "b_ig")))
        np.testing.assert_allclose(norms["input gate"][k], want, rtol=1e-12)


def test_forget_flow_decays_like_the_forget_gate():
    base = lc.ModelConfig(
        variant="lstm2000", n_in=2, n_out=1, n_blocks=2, block_size=1, seed=0, bias={"input": -10.0}
    )  # input gates shut: only the CEC path is left
    xs = np.random.default_rng(0).uniform(-1, 1, size=(40, 1, 2))
    f = bd.forget_flow(base, [-2.0, 0.0, 2.0, 6.0], xs, method="truncated")
    assert f["relative"].shape == (4, 40)
    np.testing.assert_allclose(f["relative"][:, 0], 1.0)
    np.testing.assert_allclose(f["relative"], f["theory"], rtol=1e-6)  # truncated: exactly the product
    assert np.all(np.diff(f["per_step"]) > 0)  # higher bias ⇒ more error kept
    np.testing.assert_allclose(f["per_step"], f["y_fg"].mean(1), atol=0.03)
    with pytest.raises(ValueError, match="lstm2000 or lstm2002"):
        bd.forget_flow(BASE, [0.0], xs)


# ============================================================================= benchmark comparison
def test_result_differences_counts_missing_as_equal_and_finds_real_differences():
    from lstm_core.sweeps.separately import result_differences

    a = pd.DataFrame(
        {
            "status": ["solved", "budget"],
            "sequences": [40, 60],
            "solved_at": [40, None],
            "best_streak": [10, 3],
            "message": ["", ""],
        }
    )
    b = pd.DataFrame([a.iloc[0].to_dict(), a.iloc[1].to_dict()])  # built row by row: other dtypes
    assert result_differences(a, b) == []
    c = b.assign(solved_at=[41, None])
    assert result_differences(a, c) == [(0, "solved_at", 40, 41)]
    d = b.assign(solved_at=[40, 60])  # missing vs a number: different
    assert [(r, col) for r, col, *_ in result_differences(a, d)] == [(1, "solved_at")]
    assert result_differences(a, a.iloc[:1])[0][:2] == (1, "status")


def test_benchmark_compare_says_identical_for_a_sweep_with_unsolved_networks():
    """benchmarks/bias_sweep.py reported identical_results: false for every sweep in which some
    network never met the criterion: it compared astype(str) arrays, where pandas 3 keeps
    solved_at = NaN as NaN, and NaN != NaN. The comparison must say identical when results
    and final weights are identical, and must catch a real difference in either."""
    from benchmarks.bias_sweep import COLS, compare

    train = TrainConfig(algorithm="rtrl", lr=1.0, budget=120, streak=15, seed=3)
    sweep = Sweep(BASE, small_task(), train, X, Y, seeds=[0, 1])
    for _ in sweep.run(40):
        pass
    alone: dict = {}
    sep = run_separately(sweep, params=alone)
    pop = sweep.results()
    assert pop.solved_at.isna().any() and pop.solved_at.notna().any()  # the case that broke it
    old = (sep[COLS[1:]].astype(str).to_numpy() == pop[COLS[1:]].astype(str).to_numpy()).all()
    assert not old  # the old check: a false alarm
    picks = np.arange(sweep.K)
    assert compare(sweep, picks, sep, alone) == ([], 0.0)
    sub = [2, 7, 11]
    diffs, worst = compare(sweep, sub, sep.iloc[sub], {m: alone[k] for m, k in enumerate(sub)})
    assert (diffs, worst) == ([], 0.0)
    # a real difference in a result or in a weight is reported
    solved = int(np.flatnonzero(pop.status == "solved")[0])
    wrong = sep.copy()
    wrong.loc[solved, "solved_at"] = wrong.loc[solved, "solved_at"] + 1
    assert [(r, c) for r, c, *_ in compare(sweep, picks, wrong, alone)[0]] == [(solved, "solved_at")]
    alone[5] = {n: p.copy() for n, p in alone[5].items()}
    alone[5]["W_og"][0, 0] += 1e-12
    assert compare(sweep, picks, sep, alone)[1] == pytest.approx(1e-12, rel=1e-3)


# ============================================================================= population fast paths
def test_population_batch_is_the_stack_of_every_members_own_batch():
    """population_batch copies straight from each member's buffer: it must give exactly what
    stacking every member's own batch gives — with frozen members (mask 0, stream not advanced),
    members of different sequence lengths and ragged info (embedded Reber's symbol strings)."""
    from lstm_core.tasks import stack_batches
    from lstm_core.training.data import MemberStream, population_batch, take

    for task in (lc.get_task("embedded_reber"), lc.get_task("two_sequence", T=12)):
        for B in (1, 3):

            def streams(task=task, B=B):
                return [MemberStream(task, np.random.default_rng([5, s]), B) for s in range(6)]

            fast, ref = streams(), streams()
            for active in ([True] * 6, [False, True, True, False, True, False], [True] * 6):
                active = np.array(active)
                got, steps = population_batch(fast, active, True)
                mine = [s.next() if a else None for s, a in zip(ref, active)]
                first = next(b for b in mine if b is not None)
                blank = type(first)(
                    first.xs, first.targets, np.zeros_like(first.mask), first.lengths, first.info
                )
                want = stack_batches([blank if b is None else b for b in mine])
                for name in ("xs", "targets", "mask", "lengths"):
                    np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)
                assert set(got.info) == set(want.info)
                for key in want.info:
                    np.testing.assert_array_equal(got.info[key], want.info[key], err_msg=key)
                assert steps.tolist() == [b.xs.shape[0] if b is not None else 0 for b in mine]
            assert [s.pos for s in fast] == [s.pos for s in ref]
            b0 = MemberStream(task, np.random.default_rng([5, 0]), B)
            assert take(*b0.claim()).xs.shape[1] == B


def test_rtrl_advance_is_step_without_a_target():
    cfg = lc.ModelConfig(variant="lstm2002", n_in=1, n_out=1, n_blocks=2, block_size=2, init_range=0.5)
    pop = lc.build_population([cfg.replace(seed=s) for s in range(3)])
    xs = np.random.default_rng(0).normal(size=(7, 3, 2, 1))
    a, b = lc.RTRL(pop, batch=2), lc.RTRL(pop, batch=2)
    P = pop.cell.prepare(pop.params)
    for t in range(7):
        np.testing.assert_array_equal(a.advance(xs[t], P), b.step(xs[t])[0])
    for n in a.e:
        np.testing.assert_array_equal(a.e[n], b.e[n], err_msg=n)
    for n in a.state:
        np.testing.assert_array_equal(a.state[n], b.state[n], err_msg=n)
