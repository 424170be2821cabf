"""Probe for issue 13 (not a preset, not in the app): embedded Reber trained on the ACTUAL next symbol
(a one-hot target) instead of the set of possible next symbols (our task's multi-hot target), and judged
as always (the possible next symbols' outputs are the most active). The paper does not say which target
its nets learnt; the study notes only give the criterion.

The faithful 276-weight net of the ``embedded_reber`` preset, lr 0.5, model seeds 10..19, fresh strings,
50,000 sequences each, criterion 256 in a row. Run: ``python examples/reber_next_symbol_probe.py``
(~500 s of CPU). Result on 2026-11-25: 1 of 10 solved (seed 13, after 40,534 sequences); best streaks of
the others 0-189 (median 15). With the set target the same seeds give 1 of 10 (seed 18, docs/results.md).
"""

import time

import numpy as np

from lstm_core.tasks.base import Report, one_hot, pack, pad_rows
from lstm_core.tasks.reber import _IX, EmbeddedReber, _encoded, _strings
from lstm_core.training import Trainer
from lstm_core.training.presets import PRESETS


class NextSymbolReber(EmbeddedReber):
    def _generate(self, rng, batch):
        strings = _strings(rng, batch, self.max_len)
        enc = [_encoded(s) for s in strings]
        b = pack(
            [e[1] for e in enc],
            [one_hot(e[0][1:], 7) for e in enc],
            [e[3] for e in enc],
            {"symbols": pad_rows([e[0] for e in enc]), "embedded": np.array([_IX[s[1]] for s in strings])},
        )
        return b

    def _evaluate(self, a):
        syms, lens = np.asarray(a.info["symbols"]), np.asarray(a.lengths)
        allowed = np.zeros(a.out.shape, dtype=bool)  # (T, ..., B, 7)
        for ix in np.ndindex(lens.shape):
            n = int(lens[ix])
            string = "".join("BTSXPVE"[i] for i in syms[ix][: n + 1])
            allowed[(slice(0, n),) + ix] = _encoded(string)[2] > 0.5
        m = a.mask > 0
        lo = np.where(allowed, a.out, np.inf).min(-1)
        hi = np.where(allowed, -np.inf, a.out).max(-1)
        correct = np.where(m, lo > hi, True).all(0)
        mean, mx = self.errors(a)
        return Report(correct, {"seq_abs_error": mean, "max_abs_error": mx})


p = PRESETS["embedded_reber"]
model = p.build_population(10, 10)
tr = Trainer(model, NextSymbolReber(), p.train_config())
t0 = time.process_time()
for _ in tr.run(report_every=5000):
    print(
        int(tr.book.seen.max()),
        tr.book.best_streak.tolist(),
        tr.message(),
        f"{time.process_time() - t0:.0f} s CPU",
        flush=True,
    )
print(tr.results().to_string())
