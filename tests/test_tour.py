"""docs/tour.md runs as written: every Python code block, in order, in one namespace (as a notebook
would), with a few of its printed and computed values checked."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import numpy as np

TOUR = Path(__file__).resolve().parents[1] / "docs" / "tour.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", TOUR.read_text(encoding="utf-8"), re.S)


def test_the_tour_runs_in_order_and_shows_the_real_numbers():
    code = blocks()
    assert len(code) >= 6, "build, step, forward, gradients, error flow, sweep"
    ns: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for i, block in enumerate(code):
            exec(compile(block, f"{TOUR.name} block {i + 1}", "exec"), ns)
    printed = out.getvalue()
    assert "forward == step by step: True" in printed
    np.testing.assert_allclose(ns["run"].outputs, np.stack(ns["stepped"]), rtol=1e-12)
    assert abs(ns["grads"]["W_out"][0, 0] - ns["numeric"]) <= 1e-6 * max(1e-3, abs(ns["numeric"]))
    assert ns["rnn_left"] < 1e-4 and ns["cec_left"] > 0.99  # vanishing vs the carousel
    assert f"RNN keeps {ns['rnn_left']:.2g}" in printed
    table = ns["table"]
    assert len(table) == 2 and set(table["networks"]) == {2}
    assert {"success_rate", "median_to_criterion"} <= set(table.columns)
    assert ns["sweep"].done  # every network stopped
