"""The variant registry (``lstm_core.variants``) says true things about every variant.

Each fact the app and the core read from a record is checked against the real model here, so
a registry entry that drifts from its cell fails: gate and state names are step records, bias
groups are parameters, the flow state is what ``error_flow`` reports, every listed algorithm
trains (and no other does), the paper defaults build.
"""

from __future__ import annotations

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.training import TrainConfig, Trainer
from lstm_core.variants import ALGORITHM_TITLES, FAMILIES, MEMORY_CELL_VARIANTS, REGISTRY


def small(name: str, **kw) -> lc.Model:
    return lc.build(name, n_in=2, n_out=1, **{**REGISTRY[name].defaults, **kw})


@pytest.mark.parametrize("name", list(REGISTRY))
def test_record_matches_the_model(name):
    v = lc.variant(name)
    assert v.name == name and v.family in FAMILIES and v.title and v.description == lc.VARIANTS[name]
    model = small(name)
    assert model.config.record is v
    _, _, rec = model.step(model.initial_state(1), np.ones((1, 2)))
    for gate, _ in v.gates:
        assert gate in rec, gate
    assert v.state[0] in rec
    for group, param in v.gate_biases.items():
        assert param in model.params, (group, param)
    for setting in v.settings + v.options:
        assert hasattr(model.config, setting), setting
    flow = lc.error_flow(model, np.ones((5, 1, 2)))
    assert v.flow_state in flow.norms
    assert (name in MEMORY_CELL_VARIANTS) == v.memory_cell
    assert v.bias_units(model.config) == model.config.n_bias_units


@pytest.mark.parametrize("name", list(REGISTRY))
@pytest.mark.parametrize("algorithm", list(ALGORITHM_TITLES))
def test_listed_algorithms_train_and_others_are_refused_with_the_alternative(name, algorithm):
    model, task = small(name), lc.get_task("adding", T=12)
    model = lc.build(model.config.replace(n_in=task.n_in, n_out=task.n_out))
    cfg = TrainConfig(
        algorithm=algorithm, lr=0.1, k=3 if algorithm == "tbptt" else None, budget=2, probe=False
    )
    if algorithm in lc.variant(name).algorithms:
        progress = Trainer(model, task, cfg).train(2)
        assert progress.sequences == 2
    else:
        with pytest.raises(ValueError, match=f"use algorithm='{lc.variant(name).algorithms[0]}'"):
            Trainer(model, task, cfg)


def test_registry_is_the_only_list_of_variants():
    from lstm_core.cells import CELLS

    assert set(lc.VARIANTS) == set(REGISTRY)
    assert {v.family for v in REGISTRY.values()} == set(CELLS)
    assert lc.variant(lc.build("gru", n_in=1, n_out=1).config).name == "gru"
    with pytest.raises(ValueError, match="unknown variant"):
        lc.variant("lstm1999")
