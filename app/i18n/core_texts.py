"""The core's own texts that the app shows, marked for the catalogue (the core stays English and
never imports the app): the variants' titles and captions, the tasks' titles and descriptions, the
training algorithms' names, the paper presets' texts. A page shows one with ``_(text)`` (e.g.
``_(lc.TASKS[name].title)``); ``tests/test_i18n_core.py`` iterates the registries and checks that
every such text is here, so a new variant, task or preset fails until its texts are listed.

Every entry is the core's text byte for byte (each listed once, under the first registry using it).
"""

from __future__ import annotations

from app.i18n import N_

TEXTS: tuple[str, ...] = (
    # Variants (lstm_core.variants.REGISTRY): title, description, paper, gate labels, state chart title, captions
    N_("RNN (simple recurrent)"),
    N_("simple recurrent network h(t) = f(W x + U h(t−1) + b): the vanishing-gradient baseline"),
    N_("Elman 1990; the baseline of every paper"),
    N_("Hidden state h(t)"),
    N_(
        "Hidden state h(t): overwritten at every step through the recurrent weights, which is why an "
        "RNN forgets what it saw long ago."
    ),
    N_("This cell has no gates: the chart shows the net inputs of its hidden units instead."),
    N_("Local feedback (1992)"),
    N_("Frasconi, Gori & Soda 1992: units with only a self-loop (net-input or activation feedback)"),
    N_("Frasconi, Gori & Soda 1992"),
    N_("Hidden activations h(t)"),
    N_(
        "Hidden activations h(t): each unit only feeds back to itself; self-weights |w| > 2 latch a "
        "sign for ever, |u| < 1 and |v| < 2 forget."
    ),
    N_("LSTM 1997 (CEC, no forget gate)"),
    N_("Hochreiter & Schmidhuber 1997: constant error carousel, input and output gates"),
    N_("Hochreiter & Schmidhuber 1997"),
    N_("Cell states s(t) — the CEC"),
    N_(
        "Gate openness: 0 = shut, 1 = open. A trained 1997 cell opens its input gate when something "
        "worth storing arrives and its output gate when the answer is due."
    ),
    N_(
        "Cell states s(t): the constant error carousel adds to s and never multiplies it down, so a "
        "value written early is still there at the end."
    ),
    N_("input gate"),
    N_("output gate"),
    N_("LSTM 2000 (forget gate)"),
    N_("Gers, Schmidhuber & Cummins 2000: LSTM-1997 plus a forget gate"),
    N_("Gers, Schmidhuber & Cummins 2000"),
    N_(
        "Gate openness: 0 = shut, 1 = open. The forget gate near 1 keeps the cell's contents; it drops "
        "towards 0 when the cell should be reset."
    ),
    N_(
        "Cell states s(t): the carousel keeps s from step to step, scaled each step by the forget "
        "gate; a forget gate near 1 keeps the contents, near 0 resets them."
    ),
    N_("forget gate"),
    N_("LSTM 2002 (peepholes)"),
    N_("Gers, Schraudolph & Schmidhuber 2002: forget gate plus peephole connections"),
    N_("Gers, Schraudolph & Schmidhuber 2002"),
    N_(
        "Gate openness: 0 = shut, 1 = open. The peepholes let each gate see its own cell state, so the "
        "gates can time their opening from the state itself."
    ),
    N_("LSTM (PyTorch)"),
    N_("the modern LSTM, exactly PyTorch's nn.LSTM (one layer)"),
    N_("Hochreiter & Schmidhuber 1997; Gers et al. 2000; PyTorch nn.LSTM"),
    N_("Cell states c(t)"),
    N_("Gate openness (PyTorch LSTM): i lets new content in, f keeps the old cell state, o exposes it."),
    N_("Cell states c(t): kept from step to step as long as the forget gate f stays near 1."),
    N_("input i"),
    N_("forget f"),
    N_("output o"),
    N_("GRU (PyTorch)"),
    N_("the gated recurrent unit, exactly PyTorch's nn.GRU (one layer)"),
    N_("Cho et al. 2014; PyTorch nn.GRU"),
    N_(
        "Gate openness (GRU): z near 1 keeps the old hidden state, r decides how much of it the "
        "candidate sees."
    ),
    N_("Hidden state h(t): a mix of the old state and the candidate, weighted by the update gate."),
    N_("reset r"),
    N_("update z"),
    # Training algorithms (lstm_core.variants.ALGORITHM_TITLES, lstm_core.training.config.ALGORITHMS)
    N_("RTRL (the 1997 online truncated gradient)"),
    N_("BPTT (exact gradient)"),
    N_("truncated BPTT(k)"),
    N_("the 1997 online method: truncated gradient by RTRL, weights updated after every timestep"),
    N_("exact gradient by backpropagation through time, one update per sequence / mini-batch"),
    N_("truncated BPTT(k): chunks of k steps, state carried over, one update per chunk"),
    # Tasks (lc.TASKS): title, paper, setup, reported result, criterion
    N_("Embedded Reber grammar (1997 exp. 1)"),
    N_("Hochreiter & Schmidhuber 1997, experiment 1"),
    N_(
        "7 one-hot inputs/outputs (BTSXPVE), no hidden units; (blocks, cells) = (3, 2) or (4, 1); "
        "output gate biases -1, -2, -3, -4; init [-0.2, 0.2]; lr 0.1, 0.2 or 0.5. 256 training and 256 "
        "disjoint test strings; a trial succeeds when every string of both sets is predicted right."
    ),
    N_(
        "LSTM (RTRL, truncated gradient) solved the task in nearly all trials, faster than every other "
        "method; RTRL and Elman nets mostly failed."
    ),
    N_(
        "256 strings in a row right as they are learnt (at every step the outputs of the possible next "
        "symbols are the most active)"
    ),
    N_("Noise-free long time lag (1997 exp. 2a)"),
    N_("Hochreiter & Schmidhuber 1997, experiment 2a"),
    N_(
        "p + 1 one-hot inputs and outputs, no hidden units; 1 block x 1 cell, no output gate; g = "
        "sigmoid, h = identity; init [-0.2, 0.2]; lr 1. A run succeeds when the max abs output error "
        "stays < 0.25 on every symbol for 10,000 test sequences in a row."
    ),
    N_(
        "RTRL partly solves p = 4 and fails for p >= 10; LSTM is the only method that solves p = 100, "
        "and it converges fastest."
    ),
    N_("max abs error < 0.25 on every symbol, 10,000 sequences in a row (paper: 10,000)"),
    N_("Long time lag, no local regularities (1997 exp. 2b)"),
    N_("Hochreiter & Schmidhuber 1997, experiment 2b"),
    N_(
        "Only LSTM solves it; p = 100 was solved after 5,680 sequence presentations, about as fast as "
        "the noise-free 2a."
    ),
    N_("Very long time lags (1997 exp. 2c)"),
    N_("Hochreiter & Schmidhuber 1997, experiment 2c"),
    N_(
        "p + 3 one-hot inputs, 2 outputs (x, y), no hidden units; 2 blocks x 1 cell; init [-0.2, 0.2]; "
        "lr 0.01. Only the final prediction is trained. Success: error < 0.2 on 10,000 test sequences "
        "in a row."
    ),
    N_(
        "LSTM solved every (p, q) tried, up to q = 1,000 (no other method could); training time grows "
        "only slowly with (p, q)."
    ),
    N_("abs error < 0.2 on the final prediction, 10,000 sequences in a row (paper: 10,000)"),
    N_("Two-sequence problem (1997 exp. 3a-3c)"),
    N_("Hochreiter & Schmidhuber 1997, experiments 3a, 3b, 3c"),
    N_(
        "1 real input, 1 output; 3 blocks x 1 cell; input gate biases -1, -3, -5, output gate biases "
        "-2, -4, -6; init [-0.1, 0.1]; lr 1 (3c: 0.1). Answer only at the last step. Paper values: (T, "
        "N) = (100, 3), (1000, 3), (1000, 1)."
    ),
    N_(
        "LSTM solves 3a and 3b quickly (but random weight guessing is faster on 3a); noise slows it "
        "down; 3c, which guessing cannot solve, takes longer but is solved too."
    ),
    N_("every sequence within |error| < 0.5 and mean abs error < 0.01 over 2,560 sequences (paper 3a)"),
    N_("Adding problem (1997 exp. 4)"),
    N_("Hochreiter & Schmidhuber 1997, experiment 4"),
    N_(
        "2 inputs (value, marker), 1 output; 2 blocks x 2 cells; input gate biases -3, -6; init [-0.1, "
        "0.1]; lr 0.5. Error only at the last step. Stop when 2,000 sequences in a row have abs error "
        "< 0.04 and mean abs error < 0.01; 2,560 test sequences."
    ),
    N_(
        "LSTM solved T = 100, 500 and 1,000 with no more than 3 of 2,560 test sequences wrong; it "
        "bridges lags > T/2 despite internal state drift."
    ),
    N_("abs error < 0.04 on 2,000 sequences in a row, whose mean abs error is < 0.01"),
    N_("Multiplication problem (1997 exp. 5)"),
    N_("Hochreiter & Schmidhuber 1997, experiment 5"),
    N_(
        "As adding: 2 inputs, 1 output, 2 blocks x 2 cells, init [-0.1, 0.1]; input gate biases "
        "random; lr 0.1. Stop when fewer than n_seq (140 or 13) of the last 2,000 sequences have abs "
        "error >= 0.04."
    ),
    N_(
        "LSTM solved it: at most 170 (n_seq = 140) or 15 (n_seq = 13) of 2,560 test sequences wrong; "
        "hidden units made learning faster."
    ),
    N_(
        "abs error < 0.04 on 2,000 sequences in a row (paper: fewer than n_seq = 140 or 13 of the last "
        "2,000 with error >= 0.04)"
    ),
    N_("Temporal order (1997 exp. 6a / 6b)"),
    N_("Hochreiter & Schmidhuber 1997, experiments 6a (4 classes) and 6b (8 classes)"),
    N_(
        "8 one-hot inputs, 4 (6b: 8) outputs; 2 blocks x 2 cells (6b: 3 blocks); input gate biases -2, "
        "-4 (6b: -2, -4, -6); init [-0.1, 0.1]; lr 0.5 (6b: 0.1). Error only at the end; correct when "
        "every output's abs error < 0.3; stop at 2,000 correct in a row with mean error < 0.1."
    ),
    N_("LSTM solved 6a and 6b (mean error < 0.1, no more than 3 of 2,560 test sequences wrong)."),
    N_("every output's abs error < 0.3 on 2,000 sequences in a row, mean abs error < 0.1"),
    N_("Measuring spike delays (2002 MSD / NMSD)"),
    N_("Gers, Schraudolph & Schmidhuber 2002, MSD and NMSD"),
    N_(
        "1 block x 1 cell, forget gate + peepholes, g = h = identity; forget / input / output gate "
        "biases -2 / 0 / +2; init [-0.1, 0.1]; SGD with momentum, lr 1e-5. Momentum 0.9999 (MSD) / "
        "0.99 (NMSD). Target I(n) only at spikes; pass: abs error < 0.49 at every spike, 1,000 test "
        "spikes in a row."
    ),
    N_(
        "Solved for I(n) in {0, 1} at several periods F, more slowly for larger F; with wider delay "
        "ranges (F = 10) learning slows beyond a maximum delay of 5."
    ),
    N_("abs error < 0.49 at every spike; 1,000 spikes in a row (= 100 sequences of 10)"),
    N_("Generating timed spikes (2002 GTS)"),
    N_("Gers, Schraudolph & Schmidhuber 2002, GTS"),
    N_(
        "1 block x 1 cell, forget gate + peepholes, g = h = identity; forget / input / output gate "
        "biases -2 / 0 / +2; init [-0.1, 0.1]; SGD with momentum, lr 1e-5. Momentum 0.999. Target 1 at "
        "each spike, 0 elsewhere; pass: abs error < 0.49 at every step."
    ),
    N_(
        "The peephole LSTM learns to generate precisely timed spikes (longer periods take longer); "
        "LSTM without peepholes or without forget gate does not."
    ),
    N_("abs error < 0.49 at every step; 1,000 spikes in a row (= 200 sequences of 5)"),
    N_("Periodic function generation (2002 PFG)"),
    N_("Gers, Schraudolph & Schmidhuber 2002, PFG"),
    N_(
        "1 block x 1 cell, forget gate + peepholes, g = h = identity; forget / input / output gate "
        "biases -2 / 0 / +2; init [-0.1, 0.1]; SGD with momentum, lr 1e-5. Output identity, momentum "
        "0.99, no input. Pass: abs error < 0.3 (harder 0.15) at every step."
    ),
    N_(
        "The peephole LSTM learns the waves (its cell state acts as a clock); LSTM 2000 managed only "
        "cos with F = 10; without forget gate it fails. Cos, F = 25, tolerance 0.15: RMSE 0.086 ± "
        "0.002."
    ),
    N_("abs error < 0.3 at every step for 1,000 steps (= 10 sequences of 100)"),
    N_("Information latching (1992 example)"),
    N_("Frasconi, Gori & Soda 1992, Local feedback multilayered networks, example 1"),
    N_(
        "Local-feedback network (activation-feedback hidden units, self-weights), k one-hot inputs and "
        "k outputs; the class depends only on the first input; sequences of arbitrary length; error "
        "only at the end."
    ),
    N_(
        "Solved by latching: units with self-weight |w| > 2 keep the sign of their state; 5 classes "
        "needed at least 3 latching units."
    ),
    N_(
        "classroom criterion: the most active output is the class, 100 sequences in a row (the paper "
        "states none)"
    ),
    N_("Names: character-level language model (classroom)"),
    N_("Classroom task (not from a paper), in the spirit of char-level RNN demos"),
    N_(
        "27 one-hot inputs (a-z + boundary), softmax output, cross-entropy loss; any variant; e.g. 1 "
        "layer of 32 units, lr 0.1, BPTT per name."
    ),
    N_(
        "No paper result: a trained net reaches well above the ~1/27 chance accuracy and samples "
        "plausible new names."
    ),
    N_("classroom criterion: >= 50% of each name's next characters predicted (top-1), 20 names in a row"),
    # The paper presets' texts are app/experiments/paper_texts.py's (the Paper experiments page owns them)
    # Parameter groups of the gradient-norm chart (lstm_core.training.progress.RULE_GROUPS and each
    # variant's param_groups); "input gate", "output gate", "forget gate" are listed above
    N_("output layer"),
    N_("peephole"),
    N_("cell input"),
    N_("reset gate"),
    N_("update gate"),
    N_("candidate"),
    N_("input"),
    N_("recurrent"),
    N_("hidden bias"),
    N_("net-input feedback"),
    N_("activation feedback"),
)
