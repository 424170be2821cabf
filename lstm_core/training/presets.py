"""Paper presets: every experiment of SPEC 2.5 with the papers' network and training settings.

    preset = PRESETS["adding"]
    trainer = preset.trainer(trials=10)            # a population of 10 networks (seeds 0..9)
    for progress in trainer.run(report_every=1000): ...

A ``Preset`` holds the variant and sizes (``ModelConfig``; n_in/n_out follow the task), the
training settings (``TrainConfig``), the task and its settings, the paper's reported result,
and notes on what differs from the paper. ``reduced`` lists the overrides of a quicker run
(used by ``python -m lstm_core.experiments NAME --reduced``); results obtained with them are
labelled as reduced wherever they are shown.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..config import ModelConfig
from ..model import Model, build, build_population
from ..tasks import Task, get_task
from .config import TrainConfig
from .trainer import Trainer


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    paper: str                      # paper and experiment
    task: str
    task_settings: dict
    model: ModelConfig              # n_in / n_out / output activation are set from the task
    train: TrainConfig
    reported: str                   # the paper's reported result, in words
    paper_sequences: float | None = None   # the paper's training sequences to criterion, if stated
    notes: str = ""                 # how this preset differs from the paper
    reduced: dict = field(default_factory=dict)   # {"task": {...}, "train": {...}, "note": "..."}

    # -- building blocks -----------------------------------------------------------------
    def build_task(self, reduced: bool = False) -> Task:
        settings = dict(self.task_settings)
        if reduced:
            settings.update(self.reduced.get("task", {}))
        return get_task(self.task, **settings)

    def model_config(self, seed: int = 0, reduced: bool = False) -> ModelConfig:
        task = self.build_task(reduced)
        return _with(self.model, n_in=task.n_in, n_out=task.n_out, output_activation=task.output_activation,
                     loss=task.loss, seed=seed)

    def train_config(self, reduced: bool = False, **overrides: Any) -> TrainConfig:
        cfg = self.train
        if reduced:
            cfg = cfg.replace(**self.reduced.get("train", {}))
        return cfg.replace(**overrides) if overrides else cfg

    def build_model(self, seed: int = 0, reduced: bool = False) -> Model:
        return build(self.model_config(seed, reduced))

    def build_population(self, trials: int, first_seed: int = 0, reduced: bool = False) -> Model:
        """``trials`` networks with model seeds first_seed, first_seed + 1, ..."""
        if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
            raise ValueError(f"trials must be a whole number ≥ 1, got {trials!r}")
        return build_population([self.model_config(first_seed + i, reduced) for i in range(trials)])

    def trainer(self, trials: int | None = None, first_seed: int = 0, reduced: bool = False,
                **train_overrides: Any) -> Trainer:
        """A Trainer on one network (trials=None) or a population of ``trials`` networks."""
        model = self.build_model(first_seed, reduced) if trials is None else \
            self.build_population(trials, first_seed, reduced)
        return Trainer(model, self.build_task(reduced), self.train_config(reduced, **train_overrides))

    def with_task(self, **settings: Any) -> "Preset":
        """The same preset on other task settings (e.g. ``with_task(p=50)``); sizes follow."""
        merged = {**self.task_settings, **settings}
        get_task(self.task, **merged)                       # validate now, with the task's message
        return dataclasses.replace(self, task_settings=merged)

    def describe(self, reduced: bool = False, budget: int | None = None) -> str:
        m = self.model_config(reduced=reduced)
        t = self.train_config(reduced, **({"budget": budget} if budget is not None else {}))
        task = self.build_task(reduced)
        lines = [f"{self.title} — {self.paper}",
                 f"  task:     {task.name} {task.settings()}",
                 f"  model:    {m.variant}" + _model_summary(m),
                 f"  training: {t.algorithm}, lr {t.lr:g}" + (f", momentum {t.momentum:g}" if t.momentum else "")
                 + f", batch {t.batch}, budget {t.budget:,} sequences per network"
                 + (f"; the memory cells join when the error stops decreasing (window {t.grow_window:,} sequences)"
                    if t.grow_window else ""),
                 f"  criterion: {task.criterion.description}"
                 + (f" — REDUCED to {t.streak:,} in a row" if t.streak and t.streak != task.criterion.streak else ""),
                 f"  paper:    {self.reported}"]
        if self.notes:
            lines.append(f"  notes:    {self.notes}")
        if reduced and self.reduced.get("note"):
            lines.append(f"  reduced:  {self.reduced['note']}")
        return "\n".join(lines)


def _with(cfg: ModelConfig, **changes: Any) -> ModelConfig:
    # via the JSON form: ModelConfig.replace cannot re-read a {"uniform": ...} bias spec
    return ModelConfig.from_dict({**cfg.to_dict(), **changes})


def _model_summary(m: ModelConfig) -> str:
    if m.record.memory_cell:
        s = f", {m.n_blocks} block(s) × {m.block_size} cell(s)"
        opts = [f"g={m.cell_input}", f"h={m.cell_output}"]
        if not m.output_gate:
            opts.append("no output gate")
        if "peepholes" in m.record.options and not m.peepholes:
            opts.append("no peepholes")
        if m.input_to_output:
            opts.append("inputs → outputs")
        s += " (" + ", ".join(opts) + ")"
    elif m.record.local_feedback:
        s = f", {m.n_static} static + {m.n_net_fb} net-feedback + {m.n_act_fb} activation-feedback units"
    else:
        s = f", {m.n_hidden} hidden units"
    def spec(v):
        if isinstance(v, tuple) and v and isinstance(v[0], str):        # ("uniform", lo, hi)
            return f"{v[0]} [{v[1]:g}, {v[2]:g}]"
        return [float(x) for x in v] if isinstance(v, tuple) else v
    bias = ", ".join(f"{g} {spec(v)}" for g, v in m.bias)
    init = ", ".join(f"{n} = {spec(v)}" for n, v in m.init)
    absent = (", without " + ", ".join(_ABSENT_WORDS.get(a, a) for a in m.absent)) if m.absent else ""
    return (s + f", init ±{m.init_range:g}" + (f", gate biases: {bias}" if bias else "")
            + (f", start values: {init}" if init else "") + absent
            + f"; {build(m).n_trainable():,} trainable weights")


_ABSENT_WORDS = {"b_c": "cell-input bias", "b_ig": "input-gate bias", "b_og": "output-gate bias",
                 "b_fg": "forget-gate bias", "b_out": "output-unit bias", "recurrent": "recurrent connections"}


def _preset(name, title, paper, task, task_settings, model, train, reported, **kw) -> Preset:
    t = get_task(task, **task_settings)
    model = _with(model, n_in=t.n_in, n_out=t.n_out, output_activation=t.output_activation, loss=t.loss)
    return Preset(name, title, paper, task, dict(task_settings), model, train, reported, **kw)


def _mc(variant: str, **kw) -> ModelConfig:
    return ModelConfig(variant=variant, n_in=1, n_out=1, **kw)     # sizes are replaced from the task


H97 = "Hochreiter & Schmidhuber 1997"
G02 = "Gers, Schraudolph & Schmidhuber 2002"
# Paper setups are checked against the study notes in /work/shared/seeds (the notes render the
# papers' hyperparameter tables). A preset named after an experiment follows the paper; where
# our runs needed help, the helped recipe is a separate preset whose name ends in "_assisted"
# (title "… ASSISTED"), never mixed into the faithful one. Loss: ½Σ(y − d)² in both papers and
# here (the notes' eqs. for ϑ and the 2002 objective), so our lr is the paper's lr unchanged.
# Update order within a step: y(t) reads y_c(t) of the same step (the notes argue the paper's
# eq. A.7 "y(t − 1)" is a typo; the 2002 paper has the same-step form) — as the core does.
_NO_BIAS_ASSISTED = "ASSISTED (not the paper's network)"

# 1997 experiment 1 (embedded Reber), the notes' hyperparameter table and Table 1: no
# conventional hidden units, gate activations feed back (n_blk·(2 + d_blk) recurrent sources),
# biases only on input and output gates, none on cell inputs or output units, no input →
# output connections: 276 weights for (3, 2), 264 for (4, 1) — Model.n_trainable() gives these.
_REBER_ABSENT = ("b_c", "b_out")
# 1997 experiment 2a, Table 2: 10,504 weights for p = 100 = 101 × 101 (input → output) + 101
# (input → cell) + 101 (input → input gate) + 101 (cell → output): no recurrent connections and no
# biases at all; 1 block × 1 cell, no output gate, g = σ, h = identity, init ±0.2, lr 1.
_LAG_NET = _mc("lstm1997", n_blocks=1, block_size=1, output_gate=False, cell_input="sigmoid",
               cell_output="identity", gates_as_sources=False, input_to_output=True, init_range=0.2,
               absent=("b_c", "b_ig", "b_out", "recurrent"))
# The assisted recipe (our earlier long_lag): recurrent cell → cell/gate connections and trained
# biases everywhere, output biases and the cell-input bias started at −3 (outputs "off", g ≈ 0.05).
# With ±0.2 everywhere, 3 of 3 trial runs at p = 100 abused the cell as a bias unit: its state
# drifted to s ≈ 100 (input gate and g saturated at 1) and pinned every output — stuck for good.
_LAG_ASSISTED = _mc("lstm1997", n_blocks=1, block_size=1, output_gate=False, cell_input="sigmoid",
                    cell_output="identity", gates_as_sources=False, input_to_output=True, init_range=0.2,
                    bias={"cell": -3.0}, init={"b_out": -3.0})
_LAG_NOTE = ("ASSISTED: trained biases and recurrent connections the paper's 10,504-weight net does not have; "
             "output biases and the cell-input bias start at −3 (with ±0.2 the cell state drifted to ≈ 100 and "
             "saturated every output in 3 of 3 test runs)")
_LAG_FAITHFUL = ("the paper's 10,504-weight net (p = 100): no biases, no recurrent connections, input → output "
                 "connections; sequential construction (§5.2): the memory cell joins when the error stops "
                 "decreasing (the paper gives no rule: here a 100-sequence window's mean loss not 1 % below the "
                 "previous window's); the streak is counted on training sequences (outputs produced while "
                 "learning them)")
# §5.2 / the notes' 2a table ("increase n_blk when the error stops decreasing"): the paper gives no
# number for "stops decreasing"; 100 sequences is 10,100 online updates at p = 100.
_GROW_2A = 100
_LAG_REDUCED = {"train": {"streak": 1000},
                "note": "criterion reduced to 1,000 correct sequences in a row (paper: 10,000) — the noise-free task "
                        "has only two distinct sequences"}
# 2002 (notes, "實驗設計" table; MSD/NMSD Fig. 3, GTS, PFG Figs. 11–12): 1 block × 1 cell, forget gate + peepholes, g = h = identity,
# biases everywhere (17 weights), fg −2 / ig 0 / og +2, init ±0.1, lr 1e-5 with momentum.
_NET_2002 = dict(n_blocks=1, block_size=1, cell_input="identity", cell_output="identity",
                 gates_as_sources=False, init_range=0.1)
_BIAS_2002 = {"forget": -2.0, "input": 0.0, "output": 2.0}
_LR_2002 = ("the paper's lr 1e-5 needs millions of steps; 1e-3 keeps a run to minutes")

_REBER_REPORTED = ("LSTM (RTRL) solved it in (nearly) all trials and faster than RTRL, ELM, RCC or Elman nets; "
                   "(blocks, cells) = (3, 2) or (4, 1), lr 0.1–0.5 (Table 1).")
# Table 1, (3, 2) at lr 0.5: 30 of 30 trials, mean 8,440 sequences (range 3,800–24,100) — as quoted
# in issue 13 (the notes show Table 1 only as an image).
_REBER_32_REPORTED = ("LSTM (RTRL), 3 blocks × 2 cells, lr 0.5: 30 of 30 trials solved, mean 8,440 sequences "
                      "(3,800–24,100) (Table 1); faster than RTRL, ELM, RCC or Elman nets.")
_REBER_NOTE = ("criterion: 256 correct training strings in a row (the paper: all 256 strings of a fixed training "
               "set and all 256 of a fixed test set right)")
_LIST = [
    _preset("embedded_reber", "Embedded Reber grammar, 3 blocks × 2 cells", f"{H97}, experiment 1",
            "embedded_reber", {},
            _mc("lstm1997", n_blocks=3, block_size=2, init_range=0.2, bias={"output": [-1, -2, -3]},
                absent=_REBER_ABSENT),
            TrainConfig(algorithm="rtrl", lr=0.5, budget=50_000), _REBER_32_REPORTED, paper_sequences=8440,
            notes=_REBER_NOTE + "; the paper's 276-weight net: no cell-input or output-unit biases."),
    _preset("embedded_reber_4x1", "Embedded Reber grammar, 4 blocks × 1 cell", f"{H97}, experiment 1",
            "embedded_reber", {},
            _mc("lstm1997", n_blocks=4, block_size=1, init_range=0.2, bias={"output": [-1, -2, -3, -4]},
                absent=_REBER_ABSENT),
            TrainConfig(algorithm="rtrl", lr=0.5, budget=50_000), _REBER_REPORTED,
            notes=_REBER_NOTE + "; the paper's 264-weight net: no cell-input or output-unit biases."),
    # Table 1 also has lr 0.1 rows for the same nets: slower, but the other point of the paper's grid
    _preset("embedded_reber_lr01", "Embedded Reber grammar, 3 blocks × 2 cells, lr 0.1", f"{H97}, experiment 1",
            "embedded_reber", {},
            _mc("lstm1997", n_blocks=3, block_size=2, init_range=0.2, bias={"output": [-1, -2, -3]},
                absent=_REBER_ABSENT),
            TrainConfig(algorithm="rtrl", lr=0.1, budget=100_000), _REBER_REPORTED,
            notes=_REBER_NOTE + "; the paper's 276-weight net at lr 0.1, the low end of Table 1's rates."),
    _preset("embedded_reber_assisted", f"Embedded Reber grammar, 3 × 2, {_NO_BIAS_ASSISTED}", f"{H97}, experiment 1",
            "embedded_reber", {},
            _mc("lstm1997", n_blocks=3, block_size=2, init_range=0.2, bias={"output": [-1, -2, -3]}),
            TrainConfig(algorithm="rtrl", lr=0.5, budget=50_000), _REBER_32_REPORTED, paper_sequences=8440,
            notes=_REBER_NOTE + "; ASSISTED: cell inputs and output units have trained biases (289 weights, "
                                "the paper's net has 276)."),
    _preset("long_lag", "Noise-free long time lag (2a), LSTM", f"{H97}, experiment 2a",
            "long_lag", {"p": 100}, _LAG_NET, TrainConfig(algorithm="rtrl", lr=1.0, budget=20_000, grow_window=_GROW_2A),
            "p = 100: LSTM solved 18 of 18 trials after ~5,040 sequences on average (Table 2); RTRL and BPTT "
            "solved none (p ≥ 10) within 5,000,000 sequences.",
            paper_sequences=5040, notes=_LAG_FAITHFUL, reduced=_LAG_REDUCED),
    _preset("long_lag_assisted", f"Noise-free long time lag (2a), LSTM, {_NO_BIAS_ASSISTED}", f"{H97}, experiment 2a",
            "long_lag", {"p": 100}, _LAG_ASSISTED, TrainConfig(algorithm="rtrl", lr=1.0, budget=20_000),
            "p = 100: LSTM solved 18 of 18 trials after ~5,040 sequences on average (Table 2); RTRL and BPTT "
            "solved none (p ≥ 10) within 5,000,000 sequences.",
            paper_sequences=5040, notes=f"{_LAG_NOTE}; the streak is counted on training sequences.",
            reduced=_LAG_REDUCED),
    _preset("long_lag_rnn", "Noise-free long time lag (2a), RNN baseline (BPTT)", f"{H97}, experiment 2a",
            "long_lag", {"p": 10},
            _mc("rnn", n_hidden=8, activation="tanh", init_range=0.2),
            TrainConfig(algorithm="bptt", lr=0.5, budget=20_000),
            "RTRL partly solves p = 4 but fails for p ≥ 10; BPTT fails for p = 100 (0 trials solved within "
            "5,000,000 sequences).",
            notes="a tanh RNN with 8 hidden units (lr 0.5 was the best of 0.1 / 0.5 / 1.0 on p = 4), exact BPTT "
                  "per sequence, the same budget as the LSTM run. (No direct input → output connections: the "
                  "core's rnn ignores input_to_output.)",
            reduced={"train": {"streak": 1000}, "note": "criterion reduced to 1,000 in a row, as for LSTM"}),
    # 1997 experiment 2b: "the same design and architecture as 2a" (notes), middle symbols random;
    # every step keeps the 2a target (targets='expected': the least-squares next-symbol target).
    _preset("long_lag_random", "Long time lag, no local regularities (2b)", f"{H97}, experiment 2b",
            "long_lag_random", {"p": 100, "targets": "expected"}, _LAG_NET,
            TrainConfig(algorithm="rtrl", lr=1.0, budget=20_000, grow_window=_GROW_2A),
            "Only LSTM solves it; p = 100 after 5,680 sequence presentations.", paper_sequences=5680,
            notes=f"{_LAG_FAITHFUL}; every step is trained on the expected next symbol (1/(p−1) on each a_i, then "
                  "x|y); the paper draws a fixed training set and tests on it, we draw fresh sequences.",
            reduced=_LAG_REDUCED),
    _preset("long_lag_random_assisted", f"Long time lag, no local regularities (2b), {_NO_BIAS_ASSISTED}",
            f"{H97}, experiment 2b", "long_lag_random", {"p": 100, "targets": "last"}, _LAG_ASSISTED,
            TrainConfig(algorithm="rtrl", lr=1.0, budget=20_000),
            "Only LSTM solves it; p = 100 after 5,680 sequence presentations.", paper_sequences=5680,
            notes=f"{_LAG_NOTE}; ASSISTED also in the task: only the final prediction is trained and tested "
                  "(targets='last'), so the cell need not count to p.",
            reduced=_LAG_REDUCED),
    # 1997 experiment 2c (notes' table): 2 blocks × 1 cell, gates as sources, no biases anywhere
    # (W_blk, W_ig, W_og and W_out without "+1"), g = 4σ − 2, h = 2σ − 1, init ±0.2, lr 0.01.
    _preset("very_long_lag", "Very long time lags (2c)", f"{H97}, experiment 2c",
            "very_long_lag", {"p": 50, "q": 50},
            _mc("lstm1997", n_blocks=2, block_size=1, init_range=0.2, absent=("b_c", "b_ig", "b_og", "b_out")),
            TrainConfig(algorithm="rtrl", lr=0.01, budget=100_000),
            "LSTM solved every (p, q) tried, up to q = 1,000 (sequences > 1,000 steps); training time grows "
            "only slowly with (p, q) (Table 3).",
            notes="the paper's net has no biases (notes' table for 2c)",
            reduced={"task": {"p": 20, "q": 20}, "train": {"streak": 1000},
                     "note": "p = q = 20 and 1,000 correct in a row (paper: up to q = 1,000, 10,000 in a row)"}),
]
# 1997 experiments 3a–3c (notes' table, Tables 4–6): 3 blocks × 1 cell, gates as sources,
# biases on cell inputs and both gates but NOT on the output unit (W_out = d_out × cells),
# g = 4σ − 2, h = 2σ − 1, input gate biases −1, −3, −5, output gate biases −2, −4, −6,
# init ±0.1, lr 1 (3c: 0.1). The _assisted 3a keeps the trained output bias of our earlier runs.
_TWO_SEQ_NOTE = ("criterion: 2,560 correct in a row with mean abs error below the goal (one streak instead of the "
                 "paper's 256 + 2,560 test sets)")
for _v, _n, _lr, _help in (("3a", 3, 1.0, False), ("3b", 3, 1.0, False), ("3c", 3, 0.1, False), ("3a", 3, 1.0, True)):
    _LIST.append(_preset(
        f"two_sequence_{_v}" + ("_assisted" if _help else ""),
        f"Two-sequence problem ({_v})" + (f", {_NO_BIAS_ASSISTED}" if _help else ""), f"{H97}, experiment {_v}",
        "two_sequence", {"variant": _v, "T": 100, "N": _n},
        _mc("lstm1997", n_blocks=3, block_size=1, init_range=0.1,
            bias={"input": [-1, -3, -5], "output": [-2, -4, -6]}, absent=() if _help else ("b_out",)),
        TrainConfig(algorithm="rtrl", lr=_lr, budget=50_000),
        {"3a": "LSTM solves it quickly (random weight guessing is faster still).",
         "3b": "Solved despite the noisy class inputs, more slowly than 3a.",
         "3c": "Solved; needs precise weights (guessing fails), takes longer than 3a/3b."}[_v],
        notes=_TWO_SEQ_NOTE + ("; ASSISTED: the output unit has a trained bias (the paper's has none)." if _help
                               else "; the paper's net: no output-unit bias."),
        reduced={"task": {"T": 50}, "note": "T = 50 instead of 100"}))
# 1997 experiments 4–6 (notes' tables, Tables 7–9): here the paper gives every non-input unit a
# bias ("W_blk, W_ig, W_og, W_out with +1" — on purpose, to provoke internal state drift), so
# the presets keep all biases; 2 blocks × 2 cells (6b: 3 × 2), gates as sources, init ±0.1.
_LIST += [
    _preset("adding", "Adding problem, T = 100", f"{H97}, experiment 4", "adding", {"T": 100},
            _mc("lstm1997", n_blocks=2, block_size=2, init_range=0.1, bias={"input": [-3, -6]}),
            TrainConfig(algorithm="rtrl", lr=0.5, budget=100_000),
            "T = 100 solved in all trials (~74,000 sequences, Table 7), at most 3 of 2,560 test sequences wrong; "
            "also T = 500 and 1,000.", paper_sequences=74000,
            reduced={"task": {"T": 50}, "note": "T = 50 instead of 100"}),
    # Issue 13 asked whether the paper's error is E = Σ(t − y)² (no ½): its gradient is twice ours,
    # i.e. our update at lr 1.0. The notes write ½Σ; this row tests the other reading, nothing else changed.
    _preset("adding_lr1", "Adding problem, T = 100, lr 1.0 (the E = Σ(t − y)² reading)", f"{H97}, experiment 4",
            "adding", {"T": 100},
            _mc("lstm1997", n_blocks=2, block_size=2, init_range=0.1, bias={"input": [-3, -6]}),
            TrainConfig(algorithm="rtrl", lr=1.0, budget=100_000),
            "T = 100 solved in all trials (~74,000 sequences, Table 7), at most 3 of 2,560 test sequences wrong; "
            "also T = 500 and 1,000.", paper_sequences=74000,
            notes="as `adding` but lr 1.0: the paper's lr 0.5 if its error were E = Σ(t − y)² without the ½ "
                  "(the study notes write ½Σ, which is what `adding` uses)"),
    _preset("multiplication", "Multiplication problem, T = 100", f"{H97}, experiment 5", "multiplication",
            {"T": 100},
            _mc("lstm1997", n_blocks=2, block_size=2, init_range=0.1, bias={"input": {"uniform": [-6.0, -3.0]}}),
            TrainConfig(algorithm="rtrl", lr=0.1, budget=200_000),
            "Solved: at most 170 (n_seq = 140) or 15 (n_seq = 13) of 2,560 test sequences wrong.",
            notes="'random input gate biases' taken as uniform in [−6, −3]; criterion 2,000 correct in a row "
                  "(stricter than the paper's n_seq).",
            reduced={"task": {"T": 50}, "note": "T = 50 instead of 100"}),
    _preset("temporal_order_4", "Temporal order, 4 classes (6a)", f"{H97}, experiment 6a", "temporal_order",
            {"classes": 4},
            _mc("lstm1997", n_blocks=2, block_size=2, init_range=0.1, bias={"input": [-2, -4]}),
            TrainConfig(algorithm="rtrl", lr=0.5, budget=100_000),
            "Solved (mean error < 0.1, at most 3 of 2,560 test sequences wrong) after ~31,390 sequences "
            "(Table 9).", paper_sequences=31390),
    _preset("temporal_order_8", "Temporal order, 8 classes (6b)", f"{H97}, experiment 6b", "temporal_order",
            {"classes": 8},
            _mc("lstm1997", n_blocks=3, block_size=2, init_range=0.1, bias={"input": [-2, -4, -6]}),
            TrainConfig(algorithm="rtrl", lr=0.1, budget=600_000),
            "Solved (mean error < 0.1, at most 3 of 2,560 wrong) after ~571,100 sequences (Table 9).",
            paper_sequences=571100),
    _preset("spike_delay_msd", "Measuring spike delays (MSD)", f"{G02}, MSD", "spike_delay",
            {"mode": "msd", "F": 10, "max_delay": 1},
            _mc("lstm2002", bias=_BIAS_2002, **_NET_2002),
            TrainConfig(algorithm="rtrl", lr=1e-3, momentum=0.9999, budget=20_000),
            "Solved for I(n) ∈ {0, 1}; longer periods F are harder; peepholes not needed here.",
            notes=f"{_LR_2002}; a stream of 10 spikes per sequence, restarted from the zero state."),
    _preset("spike_delay_nmsd", "Measuring spike delays (NMSD)", f"{G02}, NMSD", "spike_delay",
            {"mode": "nmsd", "F": 10, "max_delay": 1},
            _mc("lstm2002", bias=_BIAS_2002, **_NET_2002),
            TrainConfig(algorithm="rtrl", lr=1e-3, momentum=0.99, budget=50_000),
            "Solved for I(n) ∈ {0, 1}; longer periods F are harder.", notes=_LR_2002),
    _preset("spike_generation", "Generating timed spikes (GTS)", f"{G02}, GTS", "spike_generation",
            {"F": 10},
            _mc("lstm2002", bias=_BIAS_2002, **_NET_2002),
            TrainConfig(algorithm="rtrl", lr=1e-3, momentum=0.999, budget=20_000),
            "Only the peephole LSTM learns it; the output gate opens only at the spike.", notes=_LR_2002),
]
for _F in (10, 25):
    for _variant, _label in (("lstm2002", "peephole LSTM (2002)"), ("lstm2000", "LSTM 2000, no peepholes")):
        _LIST.append(_preset(
            f"periodic_cos_f{_F}" + ("" if _variant == "lstm2002" else "_lstm2000"),
            f"Periodic cos, F = {_F}, {_label}", f"{G02}, PFG", "periodic", {"shape": "cos", "F": _F},
            _mc(_variant, bias=_BIAS_2002, **_NET_2002),
            TrainConfig(algorithm="rtrl", lr=1e-3, momentum=0.99, budget=20_000),
            "The peephole LSTM learns cos for F = 10 and 25 (its cell state is a clock); LSTM 2000 managed "
            "only F = 10, slowly. Cos, F = 25, tolerance 0.15: RMSE 0.086 ± 0.002 after (2,704 ± 49) × 10³ steps.",
            notes=f"{_LR_2002}; each sequence (100 steps) restarts from the zero state."))
# The 2002 stream protocol (notes, "實驗細節"): one continuous stream per trial that stops — the
# net is reset — at the first step with abs error ≥ the tolerance, or after enough correct steps;
# here a stream is a sequence of up to 1,000 steps (= the criterion: 1,000 correct steps in a
# row), trained online (RTRL, batch 1) with reset_on_error. The budget counts streams.
for _F in (10, 25):
    _LIST.append(_preset(
        f"periodic_cos_f{_F}_stream", f"Periodic cos, F = {_F}, peephole LSTM, stream protocol", f"{G02}, PFG",
        "periodic", {"shape": "cos", "F": _F, "length": 1000},
        _mc("lstm2002", bias=_BIAS_2002, **_NET_2002),
        TrainConfig(algorithm="rtrl", lr=1e-3, momentum=0.99, budget=5_000, reset_on_error=True),
        "The peephole LSTM learns cos for F = 10 and 25 (its cell state is a clock); LSTM 2000 managed "
        "only F = 10, slowly.",
        notes=f"{_LR_2002}; the paper's stream protocol: a stream stops (the net is reset) at its first step "
              "with abs error ≥ 0.3; solved = one stream of 1,000 correct steps; budget and 'sequences' count "
              "streams."))
_MSD_REPORTED = ("Solved for I(n) ∈ {0, 1}; longer periods F are harder; peepholes not needed here (Fig. 3: "
                 "success rates and training streams are given only in the figure).")
# MSD and GTS with the stream protocol (notes, "實驗細節"): a training stream of n = 100 spikes
# (MSD: "n = 100 spikes concatenated") stops at its first step with abs error ≥ 0.49; solved =
# 1,000 spikes in a row (the paper's test streak) = 10 whole streams in a row. Momentum as the
# paper's (MSD 0.9999, GTS 0.999); lr 1e-3 instead of 1e-5 as in every 2002 row.
for _name, _title, _task, _settings, _mom, _reported, _variant in (
        ("spike_delay_msd_stream", "Measuring spike delays (MSD), peephole LSTM, stream protocol", "spike_delay",
         {"mode": "msd", "F": 10, "max_delay": 1, "n_spikes": 100}, 0.9999,
         _MSD_REPORTED, "lstm2002"),
        ("spike_delay_msd_stream_lstm2000", "Measuring spike delays (MSD), LSTM 2000, no peepholes, stream protocol",
         "spike_delay",
         {"mode": "msd", "F": 10, "max_delay": 1, "n_spikes": 100}, 0.9999,
         _MSD_REPORTED, "lstm2000"),
        ("spike_generation_stream", "Generating timed spikes (GTS), peephole LSTM, stream protocol",
         "spike_generation", {"F": 10, "n_spikes": 100}, 0.999,
         "Only the peephole LSTM learns it; the output gate opens only at the spike (Figs. 8–9: results given "
         "only in the figures).", "lstm2002")):
    _LIST.append(_preset(
        _name, _title, f"{G02}, {'MSD' if _task == 'spike_delay' else 'GTS'}", _task, _settings,
        _mc(_variant, bias=_BIAS_2002, **_NET_2002),
        TrainConfig(algorithm="rtrl", lr=1e-3, momentum=_mom, budget=50_000, reset_on_error=True),
        _reported,
        notes=f"{_LR_2002}; the paper's stream protocol: a stream of 100 spikes stops (the net is reset) at its "
              "first step with abs error ≥ 0.49; solved = 1,000 spikes in a row (10 whole streams); budget and "
              "'sequences' count streams."))
_LIST += [
    _preset("latching", "Information latching, 5 classes", "Frasconi, Gori & Soda 1992, example 1", "latching",
            {"k": 5},
            _mc("local_feedback", n_static=0, n_net_fb=0, n_act_fb=4, init_range=0.5, init={"v": 2.5}),
            TrainConfig(algorithm="bptt", lr=0.5, budget=20_000),
            "Activation-feedback units with self-weight |w| > 2 latch (keep the sign of their state); 5 classes "
            "needed at least 3 latching units.",
            notes="4 activation-feedback units, self-weights started at 2.5 (> 2, latching); classroom criterion."),
    _preset("names", "Names: character-level LSTM (classroom)", "classroom task", "names", {},
            _mc("lstm", n_hidden=32, init_range=0.2),
            TrainConfig(algorithm="bptt", lr=0.1, batch=8, clip_norm=5.0, budget=20_000),
            "No paper result: well above chance (1/27) per character; samples plausible new names."),
    _preset("names_gru", "Names: character-level GRU (classroom)", "classroom task", "names", {},
            _mc("gru", n_hidden=32, init_range=0.2),
            TrainConfig(algorithm="bptt", lr=0.1, batch=8, clip_norm=5.0, budget=20_000),
            "No paper result: well above chance (1/27) per character; samples plausible new names."),
]

PRESETS: dict[str, Preset] = {p.name: p for p in _LIST}


def get_preset(name: str) -> Preset:
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; valid presets are {sorted(PRESETS)}")
    return PRESETS[name]
