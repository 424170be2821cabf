"""The paper presets' texts the app shows (``lstm_core.training.PRESETS``: title, paper, the paper's
reported result, notes, the documented reductions, and the criterion of each preset's task), marked for
the ``experiments`` catalogue. The core stays English; the Paper experiments page and the Train page's
preset picker draw these with ``_(text)``. ``tests/test_i18n_paper_texts.py`` iterates PRESETS and fails
when a shown text is missing here: a new preset adds its texts below (run
``python -m app.i18n.catalog update experiments`` and translate them in experiments.po)."""

from __future__ import annotations

from app.i18n import N_

# preset titles (the experiment picker, the Train page's preset picker, chart titles)
TITLES = (
    N_('Embedded Reber grammar, 3 blocks × 2 cells'),
    N_('Embedded Reber grammar, 3 blocks × 2 cells, fixed 256/256 sets'),
    N_('Embedded Reber grammar, 4 blocks × 1 cell'),
    N_('Embedded Reber grammar, 3 blocks × 2 cells, lr 0.1'),
    N_("Embedded Reber grammar, 3 × 2, ASSISTED (not the paper's network)"),
    N_('Noise-free long time lag (2a), LSTM'),
    N_("Noise-free long time lag (2a), LSTM, ASSISTED (not the paper's network)"),
    N_('Noise-free long time lag (2a), RNN baseline (BPTT)'),
    N_('Long time lag, no local regularities (2b)'),
    N_("Long time lag, no local regularities (2b), ASSISTED (not the paper's network)"),
    N_('Very long time lags (2c)'),
    N_('Two-sequence problem (3a)'),
    N_('Two-sequence problem (3b)'),
    N_('Two-sequence problem (3c)'),
    N_("Two-sequence problem (3a), ASSISTED (not the paper's network)"),
    N_('Adding problem, T = 100'),
    N_('Adding problem, T = 100, lr 1.0 (the E = Σ(t − y)² reading)'),
    N_('Multiplication problem, T = 100'),
    N_('Temporal order, 4 classes (6a)'),
    N_('Temporal order, 8 classes (6b)'),
    N_('Measuring spike delays (MSD)'),
    N_('Measuring spike delays (NMSD)'),
    N_('Generating timed spikes (GTS)'),
    N_('Periodic cos, F = 10, peephole LSTM (2002)'),
    N_('Periodic cos, F = 10, LSTM 2000, no peepholes'),
    N_('Periodic cos, F = 25, peephole LSTM (2002)'),
    N_('Periodic cos, F = 25, LSTM 2000, no peepholes'),
    N_('Periodic cos, F = 10, peephole LSTM, stream protocol'),
    N_('Periodic cos, F = 25, peephole LSTM, stream protocol'),
    N_("Periodic cos, F = 25, peephole LSTM, stream protocol at the paper's lr 1e-5"),
    N_("Periodic cos, F = 25, LSTM 2000, no peepholes, stream protocol at the paper's lr 1e-5"),
    N_('Measuring spike delays (MSD), peephole LSTM, stream protocol'),
    N_('Measuring spike delays (MSD), LSTM 2000, no peepholes, stream protocol'),
    N_('Generating timed spikes (GTS), peephole LSTM, stream protocol'),
    N_("Measuring spike delays (MSD), peephole LSTM, stream protocol at the paper's lr 1e-5"),
    N_("Generating timed spikes (GTS), peephole LSTM, stream protocol at the paper's lr 1e-5"),
    N_('Information latching, 5 classes'),
    N_('Names: character-level LSTM (classroom)'),
    N_('Names: character-level GRU (classroom)'),
)

# the paper and experiment of each preset
PAPERS = (
    N_('Hochreiter & Schmidhuber 1997, experiment 1'),
    N_('Hochreiter & Schmidhuber 1997, experiment 2a'),
    N_('Hochreiter & Schmidhuber 1997, experiment 2b'),
    N_('Hochreiter & Schmidhuber 1997, experiment 2c'),
    N_('Hochreiter & Schmidhuber 1997, experiment 3a'),
    N_('Hochreiter & Schmidhuber 1997, experiment 3b'),
    N_('Hochreiter & Schmidhuber 1997, experiment 3c'),
    N_('Hochreiter & Schmidhuber 1997, experiment 4'),
    N_('Hochreiter & Schmidhuber 1997, experiment 5'),
    N_('Hochreiter & Schmidhuber 1997, experiment 6a'),
    N_('Hochreiter & Schmidhuber 1997, experiment 6b'),
    N_('Gers, Schraudolph & Schmidhuber 2002, MSD'),
    N_('Gers, Schraudolph & Schmidhuber 2002, NMSD'),
    N_('Gers, Schraudolph & Schmidhuber 2002, GTS'),
    N_('Gers, Schraudolph & Schmidhuber 2002, PFG'),
    N_('Frasconi, Gori & Soda 1992, example 1'),
    N_('classroom task'),
)

# the paper's reported result, in words
REPORTED = (
    N_(
        'LSTM (RTRL), 3 blocks × 2 cells, lr 0.5: 100% of 30 trials solved, mean 8,440 sequences '
        '(3,800–24,100) (Table 1, line LSTM 3 blocks of size 2, 276 weights, lr 0.5); faster than RTRL, '
        'ELM, RCC or Elman nets.'
    ),
    N_(
        'LSTM (RTRL), 4 blocks × 1 cell: Table 1 has no line at lr 0.5; at lr 0.2, the nearest: 97% of 30 '
        'trials solved, mean 9,500 sequences (Table 1, line LSTM 4 blocks of size 1, 264 weights, lr 0.2); '
        'at lr 0.1: 100% of 30 trials solved, mean 39,740 sequences (Table 1, line LSTM 4 blocks of size 1, '
        '264 weights, lr 0.1); faster than RTRL, ELM, RCC or Elman nets.'
    ),
    N_(
        'LSTM (RTRL), 3 blocks × 2 cells, lr 0.1: 100% of 30 trials solved, mean 21,730 sequences (Table 1, '
        'line LSTM 3 blocks of size 2, 276 weights, lr 0.1); faster than RTRL, ELM, RCC or Elman nets.'
    ),
    N_(
        'p = 100: LSTM solved 18 of 18 trials after ~5,040 sequences on average (Table 2); RTRL and BPTT '
        'solved none (p ≥ 10) within 5,000,000 sequences.'
    ),
    N_(
        'RTRL partly solves p = 4 but fails for p ≥ 10; BPTT fails for p = 100 (0 trials solved within '
        '5,000,000 sequences).'
    ),
    N_('Only LSTM solves it; p = 100 after 5,680 sequence presentations.'),
    N_(
        'LSTM solved every (p, q) tried, up to q = 1,000 (sequences > 1,000 steps); training time grows '
        'only slowly with (p, q) (Table 3).'
    ),
    N_('LSTM solves it quickly (random weight guessing is faster still).'),
    N_('Solved despite the noisy class inputs, more slowly than 3a.'),
    N_('Solved; needs precise weights (guessing fails), takes longer than 3a/3b.'),
    N_(
        'T = 100 solved in all trials (~74,000 sequences, Table 7), at most 3 of 2,560 test sequences '
        'wrong; also T = 500 and 1,000.'
    ),
    N_('Solved: at most 170 (n_seq = 140) or 15 (n_seq = 13) of 2,560 test sequences wrong.'),
    N_(
        'Solved (mean error < 0.1, at most 3 of 2,560 test sequences wrong) after ~31,390 sequences (Table 9).'
    ),
    N_('Solved (mean error < 0.1, at most 3 of 2,560 wrong) after ~571,100 sequences (Table 9).'),
    N_('Solved for I(n) ∈ {0, 1}; longer periods F are harder; peepholes not needed here.'),
    N_('Solved for I(n) ∈ {0, 1}; longer periods F are harder.'),
    N_('Only the peephole LSTM learns it; the output gate opens only at the spike.'),
    N_(
        'The peephole LSTM learns cos for F = 10 and 25 (its cell state is a clock); LSTM 2000 managed only '
        'F = 10, slowly. Cos, F = 25, tolerance 0.15: RMSE 0.086 ± 0.002 after (2,704 ± 49) × 10³ steps.'
    ),
    N_(
        'The peephole LSTM learns cos for F = 10 and 25 (its cell state is a clock); LSTM 2000 managed only '
        'F = 10, slowly.'
    ),
    N_(
        'The peephole LSTM learns cos for F = 10 and 25 (its cell state is a clock); LSTM 2000 managed only '
        'F = 10, slowly (Fig. 11: training streams given only in the figure).'
    ),
    N_(
        'Solved for I(n) ∈ {0, 1}; longer periods F are harder; peepholes not needed here (Fig. 3: success '
        'rates and training streams are given only in the figure).'
    ),
    N_(
        'Only the peephole LSTM learns it; the output gate opens only at the spike (Figs. 8–9: results '
        'given only in the figures).'
    ),
    N_(
        'Activation-feedback units with self-weight |w| > 2 latch (keep the sign of their state); 5 classes '
        'needed at least 3 latching units.'
    ),
    N_('No paper result: well above chance (1/27) per character; samples plausible new names.'),
)

# how a preset differs from the paper
NOTES = (
    N_(
        'criterion: 256 correct training strings in a row (the paper: all 256 strings of a fixed training '
        "set and all 256 of a fixed test set right); the paper's 276-weight net: no cell-input or "
        'output-unit biases.'
    ),
    N_(
        "the paper's protocol: each training sequence is one of a fixed set of 256 strings (picked at "
        'random), and after every 256 all 256 training strings and 256 test strings (none in the training '
        "set) are run; solved when all 512 are right. The paper's 276-weight net. Its three pairs of sets: "
        '--set set_seed=0, 1, 2.'
    ),
    N_(
        'criterion: 256 correct training strings in a row (the paper: all 256 strings of a fixed training '
        "set and all 256 of a fixed test set right); the paper's 264-weight net: no cell-input or "
        'output-unit biases.'
    ),
    N_(
        'criterion: 256 correct training strings in a row (the paper: all 256 strings of a fixed training '
        "set and all 256 of a fixed test set right); the paper's 276-weight net at lr 0.1, the low end of "
        "Table 1's rates."
    ),
    N_(
        'criterion: 256 correct training strings in a row (the paper: all 256 strings of a fixed training '
        'set and all 256 of a fixed test set right); ASSISTED: cell inputs and output units have trained '
        "biases (289 weights, the paper's net has 276)."
    ),
    N_(
        "the paper's 10,504-weight net (p = 100): no biases, no recurrent connections, input → output "
        'connections; sequential construction (§5.2): the memory cell joins when the error stops decreasing '
        "(the paper gives no rule: here a 100-sequence window's mean loss not 1 % below the previous "
        "window's); the streak is counted on training sequences (outputs produced while learning them)"
    ),
    N_(
        "ASSISTED: trained biases and recurrent connections the paper's 10,504-weight net does not have; "
        'output biases and the cell-input bias start at −3 (with ±0.2 the cell state drifted to ≈ 100 and '
        'saturated every output in 3 of 3 test runs); the streak is counted on training sequences.'
    ),
    N_(
        'a tanh RNN with 8 hidden units (lr 0.5 was the best of 0.1 / 0.5 / 1.0 on p = 4), exact BPTT per '
        "sequence, the same budget as the LSTM run. (No direct input → output connections: the core's rnn "
        'ignores input_to_output.)'
    ),
    N_(
        "the paper's 10,504-weight net (p = 100): no biases, no recurrent connections, input → output "
        'connections; sequential construction (§5.2): the memory cell joins when the error stops decreasing '
        "(the paper gives no rule: here a 100-sequence window's mean loss not 1 % below the previous "
        "window's); the streak is counted on training sequences (outputs produced while learning them); "
        'every step is trained on the expected next symbol (1/(p−1) on each a_i, then x|y); the paper draws '
        'a fixed training set and tests on it, we draw fresh sequences.'
    ),
    N_(
        "ASSISTED: trained biases and recurrent connections the paper's 10,504-weight net does not have; "
        'output biases and the cell-input bias start at −3 (with ±0.2 the cell state drifted to ≈ 100 and '
        'saturated every output in 3 of 3 test runs); ASSISTED also in the task: only the final prediction '
        "is trained and tested (targets='last'), so the cell need not count to p."
    ),
    N_("the paper's net has no biases (notes' table for 2c)"),
    N_(
        'criterion: 2,560 correct in a row with mean abs error below the goal (one streak instead of the '
        "paper's 256 + 2,560 test sets); the paper's net: no output-unit bias."
    ),
    N_(
        'criterion: 2,560 correct in a row with mean abs error below the goal (one streak instead of the '
        "paper's 256 + 2,560 test sets); ASSISTED: the output unit has a trained bias (the paper's has "
        'none).'
    ),
    N_(
        "as `adding` but lr 1.0: the paper's lr 0.5 if its error were E = Σ(t − y)² without the ½ (the "
        'study notes write ½Σ, which is what `adding` uses)'
    ),
    N_(
        "'random input gate biases' taken as uniform in [−6, −3]; criterion 2,000 correct in a row "
        "(stricter than the paper's n_seq)."
    ),
    N_(
        "the paper's lr 1e-5 needs millions of steps; 1e-3 keeps a run to minutes; a stream of 10 spikes "
        'per sequence, restarted from the zero state.'
    ),
    N_("the paper's lr 1e-5 needs millions of steps; 1e-3 keeps a run to minutes"),
    N_(
        "the paper's lr 1e-5 needs millions of steps; 1e-3 keeps a run to minutes; each sequence (100 "
        'steps) restarts from the zero state.'
    ),
    N_(
        "the paper's lr 1e-5 needs millions of steps; 1e-3 keeps a run to minutes; the paper's stream "
        'protocol: a stream stops (the net is reset) at its first step with abs error ≥ 0.3; solved = one '
        "stream of 1,000 correct steps; budget and 'sequences' count streams."
    ),
    N_(
        "the paper's lr 1e-5 and momentum 0.99; the paper's stream protocol: a stream stops (the net is "
        'reset) at its first step with abs error ≥ 0.3; solved = one stream of 1,000 correct steps; budget '
        "and 'sequences' count streams (the paper allows up to 10,000,000)."
    ),
    N_(
        "the paper's lr 1e-5 needs millions of steps; 1e-3 keeps a run to minutes; the paper's stream "
        'protocol: a stream of 100 spikes stops (the net is reset) at its first step with abs error ≥ 0.49; '
        "solved = 1,000 spikes in a row (10 whole streams); budget and 'sequences' count streams."
    ),
    N_(
        "the paper's lr 1e-5 and momentum 0.9999; the paper's stream protocol: a stream of 100 spikes stops "
        '(the net is reset) at its first step with abs error ≥ 0.49; solved = 1,000 spikes in a row (10 '
        "whole streams); budget and 'sequences' count streams (the paper allows up to 100,000,000 for MSD)."
    ),
    N_(
        "the paper's lr 1e-5 and momentum 0.999; the paper's stream protocol: a stream of 100 spikes stops "
        '(the net is reset) at its first step with abs error ≥ 0.49; solved = 1,000 spikes in a row (10 '
        "whole streams); budget and 'sequences' count streams (the paper allows up to 10,000,000)."
    ),
    N_('4 activation-feedback units, self-weights started at 2.5 (> 2, latching); classroom criterion.'),
)

# what a preset's documented reductions change
REDUCTIONS = (
    N_(
        'criterion reduced to 1,000 correct sequences in a row (paper: 10,000) — the noise-free task has '
        'only two distinct sequences'
    ),
    N_('criterion reduced to 1,000 in a row, as for LSTM'),
    N_('p = q = 20 and 1,000 correct in a row (paper: up to q = 1,000, 10,000 in a row)'),
    N_('T = 50 instead of 100'),
)

# the criterion of each preset's task (full and reduced settings), as the setup table shows it
CRITERIA = (
    N_(
        '256 strings in a row right as they are learnt (at every step the outputs of the possible next '
        'symbols are the most active)'
    ),
    N_(
        'all 256 training and 256 test strings right (at every step the outputs of the possible next '
        'symbols are the most active), checked after every 256 training sequences'
    ),
    N_('max abs error < 0.25 on every symbol, 10,000 sequences in a row (paper: 10,000)'),
    N_('abs error < 0.2 on the final prediction, 10,000 sequences in a row (paper: 10,000)'),
    N_('every sequence within |error| < 0.5 and mean abs error < 0.01 over 2,560 sequences (paper 3a)'),
    N_('every sequence within |error| < 0.5 and mean abs error < 0.04 over 2,560 sequences (paper 3b)'),
    N_('every sequence within |error| < 0.1 and mean abs error < 0.015 over 2,560 sequences (paper 3c)'),
    N_('abs error < 0.04 on 2,000 sequences in a row, whose mean abs error is < 0.01'),
    N_(
        'abs error < 0.04 on 2,000 sequences in a row (paper: fewer than n_seq = 140 or 13 of the last '
        '2,000 with error >= 0.04)'
    ),
    N_("every output's abs error < 0.3 on 2,000 sequences in a row, mean abs error < 0.1"),
    N_('abs error < 0.49 at every spike; 1,000 spikes in a row (= 100 sequences of 10)'),
    N_('abs error < 0.49 at every spike; 1,000 spikes in a row (= 1,000 sequences of 1)'),
    N_('abs error < 0.49 at every step; 1,000 spikes in a row (= 200 sequences of 5)'),
    N_('abs error < 0.3 at every step for 1,000 steps (= 10 sequences of 100)'),
    N_('abs error < 0.3 at every step for 1,000 steps (= 1 sequences of 1000)'),
    N_('abs error < 0.49 at every spike; 1,000 spikes in a row (= 10 sequences of 100)'),
    N_('abs error < 0.49 at every step; 1,000 spikes in a row (= 10 sequences of 100)'),
    N_(
        'classroom criterion: the most active output is the class, 100 sequences in a row (the paper states none)'
    ),
    N_("classroom criterion: >= 50% of each name's next characters predicted (top-1), 20 names in a row"),
)

TEXTS: tuple[str, ...] = TITLES + PAPERS + REPORTED + NOTES + REDUCTIONS + CRITERIA
