"""Tasks: every task's shared contract, the 1997 paper's tasks one by one (generators match its
definitions, criteria pass and fail where they should), and invalid settings. The later tasks
(timing, latching, names) are tests/test_tasks_beyond_1997.py's."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lstm_core.tasks import TASKS, Batch, get_task, stack_batches
from lstm_core.tasks.reber import SYMBOLS as REBER
from lstm_core.tasks.reber import next_sets

# small but paper-shaped settings so the whole file stays fast
SMALL = {
    "long_lag": {"p": 10},
    "long_lag_random": {"p": 10},
    "very_long_lag": {"p": 10, "q": 20},
    "two_sequence": {"T": 30},
    "adding": {"T": 30},
    "multiplication": {"T": 30},
    "spike_generation": {"max_delay": 2},
}
ALL = sorted(TASKS)


def small(name: str, **kw):
    return get_task(name, **{**SMALL.get(name, {}), **kw})


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def balanced(counts: np.ndarray, p) -> bool:
    """Every count within 4 sigma of its binomial(n, p) mean (p: one value or one per bin)."""
    n, p = counts.sum(), np.asarray(p)
    return bool(np.all(np.abs(counts - n * p) < 4 * np.sqrt(n * p * (1 - p))))


def perfect(task, batch) -> np.ndarray:
    out = batch.targets.copy()
    if task.name == "two_sequence":  # 3c: the learnable target is the expected value
        out = batch.mask[..., None] * batch.info["expected"][None, :, None]
    return out


def break_one(task, batch, out: np.ndarray, b: int = 0) -> np.ndarray:
    """Push one masked step of sequence b beyond every task's tolerance."""
    out = out.copy()
    if task.name == "names":  # accuracy-based: every prediction wrong
        out[:, b] = np.roll(batch.targets[:, b], 1, axis=-1)
        return out
    t = np.flatnonzero(batch.mask[:, b])[-1]
    out[t, b, np.argmin(batch.targets[t, b])] += 2.0
    return out


# ----------------------------------------------------------------------------- every task
def test_registry_and_settings_roundtrip():
    assert set(ALL) == {
        "embedded_reber",
        "long_lag",
        "long_lag_random",
        "very_long_lag",
        "two_sequence",
        "adding",
        "adding_sum",
        "copy",
        "multiplication",
        "temporal_order",
        "spike_delay",
        "spike_generation",
        "periodic",
        "latching",
        "names",
    }
    for name, task in TASKS.items():
        s = json.loads(json.dumps(task.settings()))
        assert get_task(name, **s) == task
        assert task.output_activation in ("sigmoid", "identity", "softmax")
        assert task.loss in ("mse", "ce")
        assert task.title and task.paper and task.setup and task.reported and task.__doc__
        assert task.criterion.streak >= 1 and task.criterion.description


@pytest.mark.parametrize("name", ALL)
def test_shapes_padding_mask(name):
    task = small(name)
    b = task.generate(rng(1), batch=16)
    T = b.xs.shape[0]
    assert b.xs.shape == (T, 16, task.n_in) and b.targets.shape == (T, 16, task.n_out)
    assert b.mask.shape == (T, 16) and b.lengths.shape == (16,) and b.lengths.dtype == np.int64
    assert b.xs.dtype == b.targets.dtype == b.mask.dtype == np.float64
    assert T == b.lengths.max() <= task.max_length
    assert set(np.unique(b.mask)) <= {0.0, 1.0}
    beyond = np.arange(T)[:, None] >= b.lengths
    assert not b.xs[beyond].any() and not b.targets[beyond].any() and not b.mask[beyond].any()
    assert not b.targets[b.mask == 0].any()
    assert (b.mask.sum(0) >= 1).all()
    for v in b.info.values():
        assert v.shape[0] == 16


@pytest.mark.parametrize("name", ALL)
def test_determinism(name):
    task = small(name)
    a, b, c = (task.generate(rng(s), batch=8) for s in (3, 3, 4))
    for f in ("xs", "targets", "mask", "lengths"):
        assert np.array_equal(getattr(a, f), getattr(b, f))
    if name != "periodic":  # the only task without randomness (spike_generation
        # is deterministic too at its default max_delay = 0, hence max_delay = 2 in SMALL)
        assert any(
            getattr(a, f).shape != getattr(c, f).shape or not np.array_equal(getattr(a, f), getattr(c, f))
            for f in ("xs", "targets")
        )


@pytest.mark.parametrize("name", ALL)
def test_criterion_pass_and_fail(name):
    task = small(name)
    b = task.generate(rng(2), batch=8)
    good = task.evaluate(perfect(task, b), b)
    assert good.correct.shape == (8,) and good.correct.all()
    assert np.allclose(good.metrics["max_abs_error"], 0.0)
    bad = task.evaluate(break_one(task, b, perfect(task, b)), b)
    assert not bad.correct[0] and bad.correct[1:].all()
    assert bad.metrics["seq_abs_error"][0] > 0 and set(bad.summary()) >= {"fraction_correct", "seq_abs_error"}


@pytest.mark.parametrize("name", ALL)
def test_population_axes(name):
    task = small(name)
    b = task.generate(rng(5), batch=4)
    out = np.stack([perfect(task, b), break_one(task, b, perfect(task, b), b=2)], axis=1)
    rep = task.evaluate(out, b)  # shared batch, K = 2
    assert rep.correct.shape == (2, 4)
    assert rep.correct[0].all() and not rep.correct[1, 2] and rep.correct[1, [0, 1, 3]].all()
    bs = [task.generate(rng(s), batch=4) for s in (6, 7, 8)]
    sb = stack_batches(bs)  # one batch per member, K = 3
    out = np.stack(
        [np.pad(perfect(task, x), [(0, sb.xs.shape[0] - x.xs.shape[0]), (0, 0), (0, 0)]) for x in bs], axis=1
    )
    member = Batch(sb.xs[:, 1], sb.targets[:, 1], sb.mask[:, 1], sb.lengths[1], {})
    out[:, 1] = break_one(task, member, out[:, 1], b=0)
    rep = task.evaluate(out, sb)
    assert rep.correct.shape == (3, 4) and rep.correct.sum() == 11 and not rep.correct[1, 0]


def test_bad_output_shape():
    task, b = small("adding"), small("adding").generate(rng(), batch=3)
    for shape in [
        (b.xs.shape[0], 3),
        (b.xs.shape[0] + 1, 3, 1),
        (b.xs.shape[0], 4, 1),
        (b.xs.shape[0], 3, 2),
    ]:
        with pytest.raises(ValueError, match="outputs must have shape"):
            task.evaluate(np.zeros(shape), b)


# ----------------------------------------------------------------------------- task by task (1997)
def test_reber_strings_and_targets():
    task = TASKS["embedded_reber"]
    assert [set(REBER[i] for i in np.flatnonzero(r)) for r in next_sets("BTBTXSETE")] == [
        {"T", "P"},
        {"B"},
        {"T", "P"},
        {"S", "X"},
        {"S", "X"},
        {"E"},
        {"T"},
        {"E"},
    ]
    b = task.generate(rng(), batch=400)
    sym, L = b.info["symbols"], b.lengths
    for i in range(400):
        s = "".join(REBER[j] for j in sym[i, : L[i] + 1])
        assert s[0] == "B" and s[1] in "TP" and s[-2] == s[1] and s[-1] == "E" and len(s) >= 9
        assert (b.targets[np.arange(L[i]), i, sym[i, 1 : L[i] + 1]] == 1).all()  # next symbol allowed
        assert b.targets[L[i] - 2, i].sum() == 1  # the long-lag step: one choice
    assert balanced(np.bincount(b.info["embedded"] == 1, minlength=2), 0.5)


def test_reber_top_k_rule():
    task = TASKS["embedded_reber"]
    b = task.generate(rng(), batch=2)
    out = 0.4 * b.targets + 0.1  # allowed 0.5 > forbidden 0.1: right
    assert task.evaluate(out, b).correct.all()
    t = np.flatnonzero(b.targets[0, 0])  # step 0 allows T and P
    out[0, 0, t[0]] = 0.05  # one allowed unit below the forbidden
    assert not task.evaluate(out, b).correct[0]


def test_long_lag_sequences():
    task = get_task("long_lag", p=6)
    b = task.generate(rng(), batch=300)
    s = b.info["symbols"]
    assert (s[:, 1:-1] == np.arange(2, 7)).all() and (s[:, 0] == s[:, -1]).all()
    assert (b.targets.argmax(-1).T == s[:, 1:]).all() and (b.mask == 1).all()
    assert balanced(np.bincount(b.info["label"], minlength=2), 0.5)
    assert task.criterion.streak == 10_000 and get_task("long_lag", streak=100).criterion.streak == 100


def test_long_lag_random():
    task = get_task("long_lag_random", p=8)
    b = task.generate(rng(), batch=200)
    mid = b.info["symbols"][:, 1:-1]
    assert mid.min() == 2 and mid.max() == 8 and len(np.unique(mid[:, 0])) > 1
    assert np.allclose(b.targets[:-1, :, 2:], 1 / 7) and not b.targets[:-1, :, :2].any()
    assert (b.targets[-1].argmax(-1) == b.info["label"]).all()
    last = task.with_settings(targets="last").generate(rng(), batch=5)
    assert (last.mask[:-1] == 0).all() and (last.mask[-1] == 1).all()


def test_very_long_lag():
    task = get_task("very_long_lag", p=10, q=20)
    b = task.generate(rng(), batch=2000)
    assert task.n_in == 13 and task.n_out == 2
    for i in range(50):
        s = b.info["symbols"][i, : b.lengths[i] + 1]
        assert s[0] == 10 and s[1] in (11, 12) and s[-1] == s[1] and s[-2] == 9
        assert len(s) == 20 + b.info["extra"][i] + 4 and (s[2:-2] < 9).all()
    assert abs(b.info["extra"].mean() - 9.0) < 0.6  # geometric: 0.9 / 0.1 extra a_i on average
    assert (b.mask.sum(0) == 1).all() and (b.mask[b.lengths - 1, np.arange(2000)] == 1).all()
    assert (perfect(task, b).sum(0).argmax(-1) == b.info["label"]).all()


@pytest.mark.parametrize("variant", ["3a", "3b", "3c"])
def test_two_sequence(variant):
    task = get_task("two_sequence", variant=variant, T=100, N=3)
    b = task.generate(rng(), batch=1000)
    assert b.lengths.min() >= 100 and b.lengths.max() <= 110
    sign = np.where(b.info["label"] == 0, 1.0, -1.0)
    head = b.xs[:3, :, 0]
    if variant == "3a":
        assert (head == sign).all()
    else:
        assert abs(np.var(head - sign) - 0.2) < 0.03
    tail = b.xs[3:100, :, 0]
    assert abs(tail.mean()) < 0.01 and abs(tail.var() - 0.2) < 0.01
    final = (b.mask * b.targets[..., 0]).sum(0)
    want = {"3a": (1.0, 0.0), "3b": (1.0, 0.0), "3c": (0.2, 0.8)}[variant]
    assert np.allclose(b.info["expected"], np.where(b.info["label"] == 0, *want))
    if variant == "3c":
        assert abs(np.var(final - b.info["expected"]) - 0.1) < 0.02
        noisy = task.evaluate(b.targets, b)  # the noisy targets are NOT the goal
        assert noisy.correct.mean() < 0.4
    else:
        assert np.array_equal(final, b.info["expected"])
    assert balanced(np.bincount(b.info["label"], minlength=2), 0.5)


@pytest.mark.parametrize("name", ["adding", "multiplication"])
def test_adding_markers_and_targets(name):
    T = 100
    task = get_task(name, T=T)
    b = task.generate(rng(), batch=3000)
    idx = np.arange(3000)
    val, mark = b.xs[..., 0], b.xs[..., 1]
    t1, t2 = b.info["positions"].T
    assert b.lengths.min() >= T and b.lengths.max() <= T + T // 10
    assert t1.min() == 0 and t1.max() == 9 and t2.min() == 1 and t2.max() == T // 2 - 2
    assert (t1 != t2).all()
    n_ones = (mark == 1).sum(0)
    assert (n_ones == np.where(t1 == 0, 1, 2)).all()
    assert (mark[t2, idx] == 1).all() and (mark[b.lengths - 1, idx] == -1).all()
    assert (mark[0] == np.where(t1 == 0, 0, -1)).all()
    assert balanced(np.bincount(t1 == 0, minlength=2), [0.9, 0.1])
    lo = -1.0 if name == "adding" else 0.0
    assert val.min() >= lo and val.max() <= 1.0
    x1 = np.where(t1 == 0, 0.0 if name == "adding" else 1.0, val[t1, idx])
    x2 = val[t2, idx]
    want = 0.5 + (x1 + x2) / 4 if name == "adding" else x1 * x2
    assert np.allclose((b.mask * b.targets[..., 0]).sum(0), want)
    assert (b.mask.sum(0) == 1).all() and (b.mask[b.lengths - 1, idx] == 1).all()
    crit = task.criterion
    assert crit.streak == 2000 and crit.mean_abs_error_below == (0.01 if name == "adding" else None)
    out = perfect(task, b)
    out[b.lengths[0] - 1, 0, 0] += 0.039  # inside the 0.04 tolerance
    out[b.lengths[1] - 1, 1, 0] += 0.041
    assert task.evaluate(out, b).correct[:2].tolist() == [True, False]


@pytest.mark.parametrize("classes", [4, 8])
def test_temporal_order(classes):
    task = get_task("temporal_order", classes=classes)
    b = task.generate(rng(), batch=2000)
    s, L, pos = b.info["symbols"], b.lengths, b.info["positions"]
    assert L.min() >= 100 and L.max() <= 110
    wins = [(10, 20), (50, 60)] if classes == 4 else [(10, 20), (33, 43), (66, 76)]
    for j, (lo, hi) in enumerate(wins):
        assert pos[:, j].min() == lo and pos[:, j].max() == hi
    for i in range(100):
        row = s[i, : L[i]]
        assert row[0] == 4 and row[-1] == 5 and (np.flatnonzero(row >= 6) == pos[i]).all()
        bits = row[pos[i]] - 6
        assert int("".join(map(str, bits)), 2) == b.info["label"][i]
    assert (b.targets[L - 1, np.arange(2000)].argmax(-1) == b.info["label"]).all()
    assert balanced(np.bincount(b.info["label"], minlength=classes), 1 / classes)
    out = perfect(task, b)
    out[L[0] - 1, 0] += 0.29  # every unit within 0.3: still correct
    out[L[1] - 1, 1, 0] += 0.31
    rep = task.evaluate(out, b)
    assert rep.correct[:2].tolist() == [True, False] and rep.metrics["accuracy"][:2].all()


# ----------------------------------------------------------------------------- invalid settings
@pytest.mark.parametrize(
    "name, settings, word",
    [
        ("long_lag", {"p": 1}, "p must be an integer >= 2"),
        ("long_lag", {"p": 2.5}, "p must be an integer"),
        ("long_lag", {"p": True}, "p must be an integer"),
        ("long_lag", {"streak": 0}, "streak"),
        ("very_long_lag", {"q": -1}, "q must be"),
        ("adding", {"T": 10}, "T must be an integer >= 12"),
        ("temporal_order", {"min_len": 50}, "min_len"),
        ("temporal_order", {"classes": 5}, "classes must be one of"),
        ("temporal_order", {"min_len": 105, "max_len": 100}, "max_len"),
        ("two_sequence", {"noise_var": -0.1}, "noise_var"),
        ("two_sequence", {"noise_var": float("nan")}, "noise_var"),
        ("two_sequence", {"T": 10, "N": 10}, "N must be"),
        ("two_sequence", {"variant": "3d"}, "variant"),
        ("periodic", {"shape": "square"}, "shape must be one of"),
        ("periodic", {"tolerance": 0}, "tolerance"),
        ("spike_delay", {"mode": "fast"}, "mode"),
        ("spike_delay", {"max_delay": -1}, "max_delay"),
        ("spike_generation", {"F": 1}, "F must be"),
        ("latching", {"k": 1}, "k must be"),
        ("names", {"accuracy_threshold": 1.5}, "accuracy_threshold"),
        ("names", {"n_names": 10_000}, "n_names"),
        ("embedded_reber", {"max_len": 5}, "max_len"),
    ],
)
def test_invalid_settings(name, settings, word):
    with pytest.raises(ValueError, match=word):
        get_task(name, **settings)


def test_invalid_names_keys_and_generate_args():
    with pytest.raises(ValueError, match="valid tasks are"):
        get_task("copy_task")
    with pytest.raises(ValueError, match="valid settings are"):
        get_task("adding", length=100)
    with pytest.raises(ValueError, match="batch"):
        TASKS["adding"].generate(rng(), batch=0)
    with pytest.raises(ValueError, match="Generator"):
        TASKS["adding"].generate(np.random.RandomState(0))
    with pytest.raises(ValueError, match="p must be"):
        TASKS["long_lag"].generate(rng(), p=1)
    assert TASKS["long_lag"].generate(rng(), batch=2, p=5).xs.shape == (5, 2, 6)
