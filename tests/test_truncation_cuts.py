"""The 1997 truncation cuts only the paths through r(t−1) and the peepholes.

An independent check of the truncated gradient (the RTRL tests compare two implementations
of the same cut with each other): when every recurrent-source weight and every peephole weight
is zero, the cut paths carry nothing, so the truncated gradient must equal exact BPTT on every
parameter whose gradient does not itself run through a cut path.
"""

from __future__ import annotations

import numpy as np
import pytest

import lstm_core as lc


@pytest.mark.parametrize("variant", ["lstm1997", "lstm2000", "lstm2002"])
def test_truncated_equals_bptt_when_the_cut_paths_are_zero(variant):
    m = lc.build(variant, n_in=7, n_out=5, n_blocks=3, block_size=2, init_range=0.5, seed=1)
    n_in = 7
    for name, w in m.params.items():
        if name.startswith("W_") and name != "W_out" and w.shape[-1] > n_in:
            w[..., n_in:] = 0.0  # no connections from r(t−1)
        if name.startswith("u_"):
            w[...] = 0.0  # no peepholes
    rng = np.random.default_rng(0)
    xs, targets = rng.normal(size=(15, 2, n_in)), rng.uniform(size=(15, 2, 5))
    mask = (rng.uniform(size=(15, 2)) < 0.6).astype(float)
    _, exact = lc.gradients(m, xs, targets, mask, method="bptt")
    _, cut = lc.gradients(m, xs, targets, mask, method="truncated")
    checked = 0
    for name, g in exact.items():
        if name.startswith("u_"):
            continue  # the peephole gradient itself is cut
        if name.startswith("W_") and name != "W_out":
            np.testing.assert_allclose(cut[name][..., :n_in], g[..., :n_in], rtol=1e-12, atol=1e-15)
        else:
            np.testing.assert_allclose(cut[name], g, rtol=1e-12, atol=1e-15)
        checked += 1
    assert checked >= 6
    # ... and with recurrent weights the cut does change the gradient (the test could fail)
    m2 = lc.build(variant, n_in=7, n_out=5, n_blocks=3, block_size=2, init_range=0.5, seed=1)
    _, e2 = lc.gradients(m2, xs, targets, mask, method="bptt")
    _, c2 = lc.gradients(m2, xs, targets, mask, method="truncated")
    assert not np.allclose(e2["W_c"], c2["W_c"])
