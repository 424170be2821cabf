"""Check my model's initialisation: a PyTorch nn.LSTM / nn.GRU's keep-gate memory times against a lag.

Read with the safe reader (``lc.load_model_file``: safetensors or .npz, never pickle). PyTorch keeps
two bias vectors and adds them; the gate sees the sum. The *two-vector pitfall* is named when both
vectors carry the same sizeable keep-gate bias — the recipe "set the forget bias to 1" applied to
``bias_ih`` and to ``bias_hh`` gives a forget bias of 2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..init_schemes import memory_times
from ..io.model_files import LoadedModel

PITFALL_MIN = 0.5  # |median| of each vector's keep-gate slice above which it was set on purpose


@dataclass(frozen=True)
class InitCheck:
    variant: str
    lag: int
    keep_bias: np.ndarray  # (H,) the keep gate's total bias (bias_ih + bias_hh)
    memory_times: np.ndarray  # (H,) 1 / (1 − σ(b)) steps
    reaching: int  # units whose memory time is at least the lag
    pitfall: tuple[float, float] | None  # (bias_ih's, bias_hh's) median keep bias when both were set


def check_loaded(loaded: LoadedModel, lag: int) -> InitCheck:
    """The keep gate of ``loaded`` (forget for an LSTM, update z for a GRU) against ``lag`` steps."""
    H = loaded.n_hidden
    rows = slice(H, 2 * H)  # PyTorch's second gate: forget (i, f, g, o) or update (r, z, n)
    if loaded.torch_biases is not None:
        ih, hh = (loaded.torch_biases[k][rows] for k in ("bias_ih_l0", "bias_hh_l0"))
    else:  # bias=False: no bias at all
        ih = hh = np.zeros(H)
    total = ih + hh
    times = memory_times(total)
    both = [float(np.median(ih)), float(np.median(hh))]
    pitfall = (
        (both[0], both[1])
        if min(abs(both[0]), abs(both[1])) >= PITFALL_MIN and np.sign(both[0]) == np.sign(both[1])
        else None
    )
    return InitCheck(loaded.variant, int(lag), total, times, int((times >= lag).sum()), pitfall)
