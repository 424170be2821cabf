"""The 1997 paper's experiments 2–6 (Hochreiter & Schmidhuber 1997): long time lags, the
two-sequence problem, adding, multiplication and temporal order — faithful presets and, where our
runs needed help, their ``_assisted`` recipes. Experiment 1 (embedded Reber) is ``presets_reber``."""

from __future__ import annotations

from .config import TrainConfig
from .preset import _NO_BIAS_ASSISTED, H97, Preset, _mc, _preset

# 1997 experiment 2a, Table 2: 10,504 weights for p = 100 = 101 × 101 (input → output) + 101
# (input → cell) + 101 (input → input gate) + 101 (cell → output): no recurrent connections and no
# biases at all; 1 block × 1 cell, no output gate, g = σ, h = identity, init ±0.2, lr 1.
_LAG_NET = _mc(
    "lstm1997",
    n_blocks=1,
    block_size=1,
    output_gate=False,
    cell_input="sigmoid",
    cell_output="identity",
    gates_as_sources=False,
    input_to_output=True,
    init_range=0.2,
    absent=("b_c", "b_ig", "b_out", "recurrent"),
)
# The assisted recipe (our earlier long_lag): recurrent cell → cell/gate connections and trained
# biases everywhere, output biases and the cell-input bias started at −3 (outputs "off", g ≈ 0.05).
# With ±0.2 everywhere, 3 of 3 trial runs at p = 100 abused the cell as a bias unit: its state
# drifted to s ≈ 100 (input gate and g saturated at 1) and pinned every output — stuck for good.
_LAG_ASSISTED = _mc(
    "lstm1997",
    n_blocks=1,
    block_size=1,
    output_gate=False,
    cell_input="sigmoid",
    cell_output="identity",
    gates_as_sources=False,
    input_to_output=True,
    init_range=0.2,
    bias={"cell": -3.0},
    init={"b_out": -3.0},
)
_LAG_NOTE = (
    "ASSISTED: trained biases and recurrent connections the paper's 10,504-weight net does not have; "
    "output biases and the cell-input bias start at −3 (with ±0.2 the cell state drifted to ≈ 100 and "
    "saturated every output in 3 of 3 test runs)"
)
_LAG_FAITHFUL = (
    "the paper's 10,504-weight net (p = 100): no biases, no recurrent connections, input → output "
    "connections; sequential construction (§5.2): the memory cell joins when the error stops "
    "decreasing (the paper gives no rule: here a 100-sequence window's mean loss not 1 % below the "
    "previous window's); the streak is counted on training sequences (outputs produced while "
    "learning them)"
)
# §5.2 / the notes' 2a table ("increase n_blk when the error stops decreasing"): the paper gives no
# number for "stops decreasing"; 100 sequences is 10,100 online updates at p = 100.
_GROW_2A = 100
_LAG_REDUCED = {
    "train": {"streak": 1000},
    "note": "criterion reduced to 1,000 correct sequences in a row (paper: 10,000) — the noise-free task "
    "has only two distinct sequences",
}

LIST_1997: list[Preset] = [
    _preset(
        "long_lag",
        "Noise-free long time lag (2a), LSTM",
        f"{H97}, experiment 2a",
        "long_lag",
        {"p": 100},
        _LAG_NET,
        TrainConfig(algorithm="rtrl", lr=1.0, budget=20_000, grow_window=_GROW_2A),
        "p = 100: LSTM solved 18 of 18 trials after ~5,040 sequences on average (Table 2); RTRL and BPTT "
        "solved none (p ≥ 10) within 5,000,000 sequences.",
        paper_sequences=5040,
        notes=_LAG_FAITHFUL,
        reduced=_LAG_REDUCED,
    ),
    _preset(
        "long_lag_assisted",
        f"Noise-free long time lag (2a), LSTM, {_NO_BIAS_ASSISTED}",
        f"{H97}, experiment 2a",
        "long_lag",
        {"p": 100},
        _LAG_ASSISTED,
        TrainConfig(algorithm="rtrl", lr=1.0, budget=20_000),
        "p = 100: LSTM solved 18 of 18 trials after ~5,040 sequences on average (Table 2); RTRL and BPTT "
        "solved none (p ≥ 10) within 5,000,000 sequences.",
        paper_sequences=5040,
        notes=f"{_LAG_NOTE}; the streak is counted on training sequences.",
        reduced=_LAG_REDUCED,
    ),
    _preset(
        "long_lag_rnn",
        "Noise-free long time lag (2a), RNN baseline (BPTT)",
        f"{H97}, experiment 2a",
        "long_lag",
        {"p": 10},
        _mc("rnn", n_hidden=8, activation="tanh", init_range=0.2),
        TrainConfig(algorithm="bptt", lr=0.5, budget=20_000),
        "RTRL partly solves p = 4 but fails for p ≥ 10; BPTT fails for p = 100 (0 trials solved within "
        "5,000,000 sequences).",
        notes="a tanh RNN with 8 hidden units (lr 0.5 was the best of 0.1 / 0.5 / 1.0 on p = 4), exact BPTT "
        "per sequence, the same budget as the LSTM run. (No direct input → output connections: the "
        "core's rnn ignores input_to_output.)",
        reduced={"train": {"streak": 1000}, "note": "criterion reduced to 1,000 in a row, as for LSTM"},
    ),
    # 1997 experiment 2b: "the same design and architecture as 2a" (notes), middle symbols random;
    # every step keeps the 2a target (targets='expected': the least-squares next-symbol target).
    _preset(
        "long_lag_random",
        "Long time lag, no local regularities (2b)",
        f"{H97}, experiment 2b",
        "long_lag_random",
        {"p": 100, "targets": "expected"},
        _LAG_NET,
        TrainConfig(algorithm="rtrl", lr=1.0, budget=20_000, grow_window=_GROW_2A),
        "Only LSTM solves it; p = 100 after 5,680 sequence presentations.",
        paper_sequences=5680,
        notes=f"{_LAG_FAITHFUL}; every step is trained on the expected next symbol (1/(p−1) on each a_i, then "
        "x|y); the paper draws a fixed training set and tests on it, we draw fresh sequences.",
        reduced=_LAG_REDUCED,
    ),
    _preset(
        "long_lag_random_assisted",
        f"Long time lag, no local regularities (2b), {_NO_BIAS_ASSISTED}",
        f"{H97}, experiment 2b",
        "long_lag_random",
        {"p": 100, "targets": "last"},
        _LAG_ASSISTED,
        TrainConfig(algorithm="rtrl", lr=1.0, budget=20_000),
        "Only LSTM solves it; p = 100 after 5,680 sequence presentations.",
        paper_sequences=5680,
        notes=f"{_LAG_NOTE}; ASSISTED also in the task: only the final prediction is trained and tested "
        "(targets='last'), so the cell need not count to p.",
        reduced=_LAG_REDUCED,
    ),
    # 1997 experiment 2c (notes' table): 2 blocks × 1 cell, gates as sources, no biases anywhere
    # (W_blk, W_ig, W_og and W_out without "+1"), g = 4σ − 2, h = 2σ − 1, init ±0.2, lr 0.01.
    _preset(
        "very_long_lag",
        "Very long time lags (2c)",
        f"{H97}, experiment 2c",
        "very_long_lag",
        {"p": 50, "q": 50},
        _mc("lstm1997", n_blocks=2, block_size=1, init_range=0.2, absent=("b_c", "b_ig", "b_og", "b_out")),
        TrainConfig(algorithm="rtrl", lr=0.01, budget=100_000),
        "LSTM solved every (p, q) tried, up to q = 1,000 (sequences > 1,000 steps); training time grows "
        "only slowly with (p, q) (Table 3).",
        notes="the paper's net has no biases (notes' table for 2c)",
        reduced={
            "task": {"p": 20, "q": 20},
            "train": {"streak": 1000},
            "note": "p = q = 20 and 1,000 correct in a row (paper: up to q = 1,000, 10,000 in a row)",
        },
    ),
]
# 1997 experiments 3a–3c (notes' table, Tables 4–6): 3 blocks × 1 cell, gates as sources,
# biases on cell inputs and both gates but NOT on the output unit (W_out = d_out × cells),
# g = 4σ − 2, h = 2σ − 1, input gate biases −1, −3, −5, output gate biases −2, −4, −6,
# init ±0.1, lr 1 (3c: 0.1). The _assisted 3a keeps the trained output bias of our earlier runs.
_TWO_SEQ_NOTE = (
    "criterion: 2,560 correct in a row with mean abs error below the goal (one streak instead of the "
    "paper's 256 + 2,560 test sets)"
)
for _v, _n, _lr, _help in (
    ("3a", 3, 1.0, False),
    ("3b", 3, 1.0, False),
    ("3c", 3, 0.1, False),
    ("3a", 3, 1.0, True),
):
    LIST_1997.append(
        _preset(
            f"two_sequence_{_v}" + ("_assisted" if _help else ""),
            f"Two-sequence problem ({_v})" + (f", {_NO_BIAS_ASSISTED}" if _help else ""),
            f"{H97}, experiment {_v}",
            "two_sequence",
            {"variant": _v, "T": 100, "N": _n},
            _mc(
                "lstm1997",
                n_blocks=3,
                block_size=1,
                init_range=0.1,
                bias={"input": [-1, -3, -5], "output": [-2, -4, -6]},
                absent=() if _help else ("b_out",),
            ),
            TrainConfig(algorithm="rtrl", lr=_lr, budget=50_000),
            {
                "3a": "LSTM solves it quickly (random weight guessing is faster still).",
                "3b": "Solved despite the noisy class inputs, more slowly than 3a.",
                "3c": "Solved; needs precise weights (guessing fails), takes longer than 3a/3b.",
            }[_v],
            notes=_TWO_SEQ_NOTE
            + (
                "; ASSISTED: the output unit has a trained bias (the paper's has none)."
                if _help
                else "; the paper's net: no output-unit bias."
            ),
            reduced={"task": {"T": 50}, "note": "T = 50 instead of 100"},
        )
    )
# 1997 experiments 4–6 (notes' tables, Tables 7–9): here the paper gives every non-input unit a
# bias ("W_blk, W_ig, W_og, W_out with +1" — on purpose, to provoke internal state drift), so
# the presets keep all biases; 2 blocks × 2 cells (6b: 3 × 2), gates as sources, init ±0.1.
LIST_1997 += [
    _preset(
        "adding",
        "Adding problem, T = 100",
        f"{H97}, experiment 4",
        "adding",
        {"T": 100},
        _mc("lstm1997", n_blocks=2, block_size=2, init_range=0.1, bias={"input": [-3, -6]}),
        TrainConfig(algorithm="rtrl", lr=0.5, budget=100_000),
        "T = 100 solved in all trials (~74,000 sequences, Table 7), at most 3 of 2,560 test sequences wrong; "
        "also T = 500 and 1,000.",
        paper_sequences=74000,
        reduced={"task": {"T": 50}, "note": "T = 50 instead of 100"},
    ),
    # Issue 13 asked whether the paper's error is E = Σ(t − y)² (no ½): its gradient is twice ours,
    # i.e. our update at lr 1.0. The notes write ½Σ; this row tests the other reading, nothing else changed.
    _preset(
        "adding_lr1",
        "Adding problem, T = 100, lr 1.0 (the E = Σ(t − y)² reading)",
        f"{H97}, experiment 4",
        "adding",
        {"T": 100},
        _mc("lstm1997", n_blocks=2, block_size=2, init_range=0.1, bias={"input": [-3, -6]}),
        TrainConfig(algorithm="rtrl", lr=1.0, budget=100_000),
        "T = 100 solved in all trials (~74,000 sequences, Table 7), at most 3 of 2,560 test sequences wrong; "
        "also T = 500 and 1,000.",
        paper_sequences=74000,
        notes="as `adding` but lr 1.0: the paper's lr 0.5 if its error were E = Σ(t − y)² without the ½ "
        "(the study notes write ½Σ, which is what `adding` uses)",
    ),
    _preset(
        "multiplication",
        "Multiplication problem, T = 100",
        f"{H97}, experiment 5",
        "multiplication",
        {"T": 100},
        _mc("lstm1997", n_blocks=2, block_size=2, init_range=0.1, bias={"input": {"uniform": [-6.0, -3.0]}}),
        TrainConfig(algorithm="rtrl", lr=0.1, budget=200_000),
        "Solved: at most 170 (n_seq = 140) or 15 (n_seq = 13) of 2,560 test sequences wrong.",
        notes="'random input gate biases' taken as uniform in [−6, −3]; criterion 2,000 correct in a row "
        "(stricter than the paper's n_seq).",
        reduced={"task": {"T": 50}, "note": "T = 50 instead of 100"},
    ),
    _preset(
        "temporal_order_4",
        "Temporal order, 4 classes (6a)",
        f"{H97}, experiment 6a",
        "temporal_order",
        {"classes": 4},
        _mc("lstm1997", n_blocks=2, block_size=2, init_range=0.1, bias={"input": [-2, -4]}),
        TrainConfig(algorithm="rtrl", lr=0.5, budget=100_000),
        "Solved (mean error < 0.1, at most 3 of 2,560 test sequences wrong) after ~31,390 sequences "
        "(Table 9).",
        paper_sequences=31390,
    ),
    _preset(
        "temporal_order_8",
        "Temporal order, 8 classes (6b)",
        f"{H97}, experiment 6b",
        "temporal_order",
        {"classes": 8},
        _mc("lstm1997", n_blocks=3, block_size=2, init_range=0.1, bias={"input": [-2, -4, -6]}),
        TrainConfig(algorithm="rtrl", lr=0.1, budget=600_000),
        "Solved (mean error < 0.1, at most 3 of 2,560 wrong) after ~571,100 sequences (Table 9).",
        paper_sequences=571100,
    ),
]
