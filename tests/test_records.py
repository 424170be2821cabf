"""Records say what they are (issue 43): a cell declares the per-step records only its backward pass reads
(``CACHE``), and everything else is a quantity the run shows — in ``Run.to_frame()``, the traces CSV and
Train's probe charts alike. No list of names outside the cells decides it (a GRU's update gate ``z`` was
dropped by three such lists because the 1997 cell's concatenated input had the same name)."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from helpers import data, make

import lstm_core as lc
from app.train import figures as train_figures
from app.train import settings as train_settings
from app.ui import export
from lstm_core.variants import variant as variant_record


@pytest.mark.parametrize("name", list(lc.VARIANTS))
def test_every_gate_and_state_a_variant_names_is_shown_and_no_cache_is(name):
    model = make(name, {})
    xs, _, _ = data(model, T=4, B=1)
    v = variant_record(name)
    named = {g for g, _ in v.gates} | {v.state[0]}
    cache = set(model.cell.CACHE) | set(model.CACHE)
    for fast in (False, True):  # the readable steps and the whole-sequence path
        run = lc.forward(model, xs, fast=fast)
        assert cache <= set(run.internals), f"{name}: a CACHE name the cell does not record"
        frame = set(run.to_frame().quantity)
        csv = set(pd.read_csv(io.BytesIO(export.traces_csv(run.outputs, run.internals))).quantity)
        for where, shown in (("to_frame", frame), ("traces CSV", csv)):
            assert named <= shown, f"{name} ({where}, fast={fast}): missing {named - shown}"
            assert not cache & shown, f"{name} ({where}, fast={fast}): shows the cache {cache & shown}"

    values = {**train_settings.DEFAULTS, "variant": name, "algorithm": v.default_algorithm()}
    trainer = train_settings.build_trainer(values)
    probe = trainer.probe()
    recorded = set(lc.forward(trainer.model, probe.xs).internals)  # (Train's defaults may leave a gate out)
    assert named & recorded <= set(probe.internals) and not cache & set(probe.internals), name
    readout = train_figures.gate_readout(name, trainer.model.config.block_size, probe, 0)
    for gate, label in v.gates:  # Train's gate chart reads every gate the network has
        assert (label in readout) == (gate in recorded), f"{name}: the gate chart's readout and {label!r}"


def test_a_gru_run_holds_its_update_gate_and_the_memory_cell_its_concatenated_input_apart():
    gru = lc.forward(make("gru", {}), data(make("gru", {}), T=3, B=1)[0])
    assert {"z", "r"} <= set(gru.to_frame().quantity)
    cell = lc.forward(make("lstm1997", {}), data(make("lstm1997", {}), T=3, B=1)[0])
    assert "xr" in cell.internals and "z" not in cell.internals
