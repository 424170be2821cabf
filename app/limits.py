"""Caps on what one user can ask of the server.

The core has its own, looser caps (``lc.LIMITS``); these are the app's: small enough that every
page answers a slider change quickly and one visitor cannot tie up the process that serves the
whole classroom. Every control and every decoder (URL, uploaded JSON, typed text) checks against
these numbers, so a hand-edited link cannot get past them either.
"""
from __future__ import annotations

# Sizes of the networks the pages build.
MAX_HIDDEN = 32          # rnn / lstm / gru units
MAX_BLOCKS = 8           # LSTM-1997 family memory blocks
MAX_BLOCK_SIZE = 4       # cells per block
MAX_FB_UNITS = 8         # each kind of local-feedback unit
MAX_INPUTS = 128         # n_in of a typed sequence or a task (long_lag p = 100 needs 101)

# Sequence lengths (timesteps).
STEP_MAX_T = 500         # Step through a cell: one forward pass, replayed step by step
FLOW_MAX_T = 400         # Gradient flow: one exact backward pass per variant
TASK_MAX_SETTING = 100_000   # any integer task setting (checked again via task.max_length)

# Untrusted text.
MAX_TYPED_CHARS = 20_000     # the hand-typed input sequence
MAX_UPLOAD_BYTES = 64_000    # an uploaded configuration JSON
MAX_QUERY_CHARS = 4_000      # the encoded configuration in the URL

# Playback.
MIN_SPEED, MAX_SPEED = 0.5, 20.0   # timesteps per second while playing

# Bias and weight ranges offered by sliders.
BIAS_RANGE = (-10.0, 10.0)
BIAS_STEP_RANGE = (-5.0, 5.0)
INIT_RANGE_MAX = 2.0
RECURRENT_SCALE_MAX = 3.0


def check_length(T: int, cap: int, what: str = "sequence") -> int:
    """Refuse sequences longer than ``cap`` with a message that says what to change."""
    if T > cap:
        raise ValueError(
            f"the {what} has {T} timesteps; this page shows at most {cap}. "
            "Choose a shorter length in the settings."
        )
    if T < 1:
        raise ValueError(f"the {what} is empty; it needs at least one timestep")
    return T
