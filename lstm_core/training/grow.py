"""Sequential network construction (1997 paper, §5.2 / experiment 2a): the memory cells join
the network only once the error stops decreasing.

The 2a network starts as input → output connections only; "the memory cell and its input gate are
added once the error stops decreasing" (notes: "increase n_blk when error stops decreasing"). Here
the cells exist from the start with their initial weights, but the output layer's columns that
read them, W_out[:, n_in:], are held at exactly 0 (masked like an absent connection). With those
columns at 0 no error reaches a cell (δ_yc = δ_out · W_out[:, n_in:] = 0), so the cells' own
weights stay at their initial values, exactly as if the cells were not there yet. When a
network's error stops decreasing its columns get their initial values back (drawn from its model
seed, so the result does not depend on the population or the chunking) and train from then on.

"Stops decreasing", per network: the mean loss per sequence over a window of ``window`` sequences
is not at least ``IMPROVEMENT`` (1 %) below the previous window's. The paper gives no number; the
window is a preset setting and is printed with the results.
"""

from __future__ import annotations

import numpy as np

from ..errors import CoreError

Array = np.ndarray
IMPROVEMENT = 0.01


class Grower:
    """Per network: cells not yet added (their W_out columns 0 and masked) until a plateau."""

    def __init__(self, model, window: int) -> None:
        cfg = model.config
        if cfg.record.family != "memory_cell":
            raise CoreError(
                "sequential construction (grow_window) adds memory cells: it needs an LSTM 1997, 2000 or "
                "2002 network, not {variant}; set grow_window=None",
                variant=cfg.variant,
            )
        if not cfg.input_to_output:
            raise CoreError(
                "sequential construction (grow_window) adds the memory cells to a network that starts "
                "with input → output connections only: build it with input_to_output=True (the 1997 "
                "experiment 2a net), or set grow_window=None"
            )
        self.model, self.window, self.K = model, int(window), model.K
        self.n = model.K or 1
        self.cols = slice(cfg.n_in, None)  # the columns of W_out that read y_c
        w = model.params["W_out"]
        self.initial = w[..., self.cols].copy()  # restored when the cells are added
        w[..., self.cols] = 0.0
        self.added = np.zeros(self.n, dtype=bool)
        self.added_at = np.full(self.n, -1, dtype=np.int64)  # sequences seen when the cells joined
        self._sum, self._count = np.zeros(self.n), np.zeros(self.n, dtype=np.int64)
        self._previous = np.full(self.n, np.nan)

    def mask(self, absent: Array | None) -> Array:
        """The 0/1 mask of W_out: the absent connections' mask times 'cells not added yet'."""
        shape = self.model.params["W_out"].shape
        m = np.ones(shape) if absent is None else np.broadcast_to(absent, shape).copy()
        for k in np.flatnonzero(~self.added):
            (m[k] if self.K is not None else m)[..., self.cols] = 0.0
        return m

    def update(self, loss: Array, alive: Array, seen: Array) -> list[int]:
        """Add each running network's sequence loss; returns the networks whose cells join now."""
        waiting = alive & ~self.added
        self._sum += np.where(waiting, np.nan_to_num(loss), 0.0)
        self._count += waiting
        grow = []
        for k in np.flatnonzero(waiting & (self._count >= self.window)):
            mean = self._sum[k] / self._count[k]
            prev = self._previous[k]
            if np.isfinite(prev) and mean > (1.0 - IMPROVEMENT) * prev:
                grow.append(int(k))
            self._previous[k], self._sum[k], self._count[k] = mean, 0.0, 0
        for k in grow:
            w = self.model.params["W_out"]
            if self.K is not None:
                w[k][..., self.cols] = self.initial[k]
            else:
                w[..., self.cols] = self.initial
            self.added[k] = True
            self.added_at[k] = int(seen[k])
        return grow
