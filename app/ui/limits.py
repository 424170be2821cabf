"""Caps on what one user can ask of the server.

The core has its own, looser caps (``lc.LIMITS``); these are the app's: small enough that every
page answers a slider change quickly and one visitor cannot tie up the process that serves the
whole classroom. Every control and every decoder (URL, uploaded JSON, typed text) checks against
these numbers, so a hand-edited link cannot get past them either.
"""

from __future__ import annotations

from app.i18n import N_, _

# Sizes of the networks the pages build.
MAX_HIDDEN = 32  # rnn / lstm / gru units
MAX_BLOCKS = 8  # LSTM-1997 family memory blocks
MAX_BLOCK_SIZE = 4  # cells per block
MAX_FB_UNITS = 8  # each kind of local-feedback unit
MAX_INPUTS = 128  # n_in of a typed sequence or a task (long_lag p = 100 needs 101)

# Sequence lengths (timesteps).
STEP_MAX_T = 500  # Step through a cell: one forward pass, replayed step by step
FLOW_MAX_T = 400  # Gradient flow: one exact backward pass per variant
TASK_MAX_SETTING = 100_000  # any integer task setting (checked again via task.max_length)

# Untrusted text.
MAX_TYPED_CHARS = 20_000  # the hand-typed input sequence
MAX_UPLOAD_BYTES = 64_000  # an uploaded configuration JSON
MAX_QUERY_CHARS = 4_000  # the encoded configuration in the URL
MAX_MODEL_BYTES = 2_000_000  # an uploaded PyTorch model (a 32-unit LSTM with 128 inputs in F64 is ~0.2 MB)

# Train and watch. A tick trains ~0.03 s whatever these are; the caps bound how long one run
# can keep a share of the server busy and its memory.
TRAIN_MAX_T = 1_100  # adding / multiplication at the paper's T = 1,000 still fit
TRAIN_MAX_BUDGET = 1_000_000  # temporal order 6b needs ~571,000 sequences in the paper
TRAIN_MAX_BATCH = 32
TRAIN_MAX_LR = 1e6  # absurd on purpose: students may try what divergence looks like
TRAIN_MAX_STREAK = 100_000

# Bias lab and Paper experiments: populations trained on the server.
LAB_MAX_T = 200  # longest training sequence a sweep may use
LAB_MAX_BUDGET = 20_000  # training sequences per network
EXPERIMENT_MAX_BUDGET = 20_000
EXPERIMENT_MAX_TRIALS = 16
# budget × longest sequence: the timesteps every network steps through one after another. The
# whole population shares each step, so this (not the number of networks) bounds a run's wall
# time: the 5 × 5 × 8 bias-lab benchmark (3,000 × 55 steps) trains in about 30 s on one core.
STEP_CAP = 500_000

# Playback.
MIN_SPEED, MAX_SPEED = 0.5, 20.0  # timesteps per second while playing

# Sharing one server between a class (app/ui/slots.py). Measured with benchmarks/classroom_load.py:
# the script threads of one server process share one interpreter lock, so beyond about this many
# runs training at once every page slows down; later runs wait in a queue and say so.
MAX_TRAINING_SESSIONS = 30
IDLE_PAUSE_SECONDS = 600.0  # a run with no click or setting change for this long is paused

# Bias and weight ranges offered by sliders.
BIAS_RANGE = (-10.0, 10.0)
BIAS_STEP_RANGE = (-5.0, 5.0)
INIT_RANGE_MAX = 2.0
RECURRENT_SCALE_MAX = 3.0


def check_task(task, max_T: int, where: str = N_("this page")) -> None:
    """Refuse a task whose sequences are longer, or whose inputs are more, than ``where`` allows
    (``where``, ``what`` and ``hint`` below: English, N_-marked by the caller; translated here)."""
    check_length(task.max_length, max_T, _("{task} sequence").format(task=task.name))
    if task.n_in > MAX_INPUTS:
        raise ValueError(
            _(
                "{task} with these settings has {n} inputs; {where} allows at most "
                "{most} (choose a smaller p)"
            ).format(task=task.name, n=task.n_in, where=_(where), most=MAX_INPUTS)
        )


def check_steps(
    budget: int, max_length: int, what: str = N_("a run here"), hint: str = N_("shorten the sequences")
) -> None:
    """Refuse budget × sequence length above ``STEP_CAP`` (the timesteps one network trains)."""
    steps = budget * max_length
    if steps > STEP_CAP:
        raise ValueError(
            _(
                "{budget} sequences × up to {length} steps = {steps} timesteps per network; "
                "{what} may take at most {cap} — lower the budget to {lower} or {hint}"
            ).format(
                budget=f"{budget:,}",
                length=max_length,
                steps=f"{steps:,}",
                what=_(what),
                cap=f"{STEP_CAP:,}",
                lower=f"{STEP_CAP // max_length:,}",
                hint=_(hint),
            )
        )


def check_length(T: int, cap: int, what: str = N_("sequence")) -> int:
    """Refuse sequences longer than ``cap`` with a message that says what to change."""
    if T > cap:
        raise ValueError(
            _(
                "the {what} has {T} timesteps; this page shows at most {cap}. "
                "Choose a shorter length in the settings."
            ).format(what=_(what), T=T, cap=cap)
        )
    if T < 1:
        raise ValueError(_("the {what} is empty; it needs at least one timestep").format(what=_(what)))
    return T
