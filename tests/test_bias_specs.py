"""Initialisation specs are values (issue 43): each form parses to its class, round-trips through JSON and
the config, and answers what the model and the pages ask of it."""

from __future__ import annotations

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.config import Constant, Linspace, PerUnit, Uniform, parse_spec


@pytest.mark.parametrize(
    "raw, cls",
    [
        (-1, Constant),
        ([-1, -2.5], PerUnit),
        ({"uniform": [-6, -3]}, Uniform),
        ({"linspace": [-1, -4]}, Linspace),
    ],
)
def test_each_form_parses_round_trips_and_survives_the_config(raw, cls):
    spec = parse_spec("bias['output']", raw)
    assert isinstance(spec, cls) and parse_spec("again", spec) is spec
    assert parse_spec("json", spec.to_json()) == spec
    cfg = lc.ModelConfig(variant="lstm1997", n_in=2, n_out=1, n_blocks=2, bias={"output": raw})
    assert lc.ModelConfig.from_json(cfg.to_json()) == cfg and hash(cfg.replace(seed=1)) != hash(cfg)
    assert dict(cfg.replace(seed=3).bias)["output"] == spec  # replace keeps a spec (uniform too)


def test_what_the_pages_and_the_model_ask():
    assert Constant(-2.0).evenly(4) == (-2.0, 0.0)
    assert PerUnit((-1.0, -2.0, -3.0)).evenly(3) == (-1.0, -1.0)
    assert Linspace(-1.0, -4.0).evenly(4) == (-1.0, -1.0)
    with pytest.raises(ValueError, match="not evenly spaced"):
        PerUnit((-1.0, -2.0, -4.0)).evenly(3)
    with pytest.raises(ValueError, match="random"):
        Uniform(-6.0, -3.0).evenly(2)
    assert Uniform(-6.0, -3.0).staggered() == Linspace(-3.0, -6.0) and Uniform(0, 1).random
    assert not any(s.random for s in (Constant(0.0), PerUnit((1.0,)), Linspace(0.0, 1.0)))
    m = lc.build(
        "lstm1997",
        n_in=2,
        n_out=1,
        n_blocks=3,
        block_size=2,
        bias={"output": {"linspace": [-1, -3]}, "input": {"uniform": [-6, -3]}},
    )
    np.testing.assert_allclose(m.params["b_og"], [-1.0, -2.0, -3.0])
    assert ((m.params["b_ig"] >= -6) & (m.params["b_ig"] <= -3)).all() and len(set(m.params["b_ig"])) == 3


@pytest.mark.parametrize(
    "bad, why",
    [
        (True, "expected a number"),
        ([], "empty"),
        (["a"], "expected a number"),
        ({"uniform": [1, 0]}, "smaller value first"),
        ({"normal": [0, 1]}, "cannot read"),
        (float("nan"), "finite"),
    ],
)
def test_bad_specs_say_what_to_write(bad, why):
    with pytest.raises(ValueError, match=why):
        parse_spec("bias['input']", bad)
