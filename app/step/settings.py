"""Step through a cell: the page's settings and the one computation behind it.

``compute`` turns the flat settings into a network (``netconfig.model_config``) and an input
sequence (a task with a seed, or typed text) and runs ``lc.forward`` once over the whole
sequence — the readable per-step cell, so replaying the recorded run is stepping the cell.
Both pieces are cached on small hashable arguments (``st.cache_data`` pickles the run).
"""

from __future__ import annotations

import json

import numpy as np
import streamlit as st

import lstm_core as lc
from app.i18n import N_
from app.ui import classlink, controls, export, form, limits, netconfig, task_controls
from app.ui.form import Field
from app.ui.page_frame import PageSpec

PAGE = "step"
_MODEL, _BIAS, _TASK = controls.model_fields(), controls.bias_fields(), task_controls.task_fields("adding")
# What a teacher's class link can lock, by the sidebar's groups (playback stays the student's).
CLASS_GROUPS = {
    N_("Network"): [f.name for f in _MODEL],
    N_("Input sequence"): [f.name for f in _TASK],
    N_("Gate biases"): [f.name for f in _BIAS],
    N_("Seed"): ["seed"],
}
SCHEMA = form.Schema(
    _MODEL
    + _BIAS
    + _TASK
    + classlink.fields(CLASS_GROUPS)
    + [
        controls.seed_field(),
        Field(
            "speed",
            N_("Speed (steps per second)"),
            "float",
            4.0,
            limits.MIN_SPEED,
            limits.MAX_SPEED,
            0.5,
            widget="slider",
        ),
        Field("t", N_("Timestep"), "int", 1, 1, limits.STEP_MAX_T, widget="none"),
        Field("unit", N_("Unit"), "int", 0, 0, limits.MAX_BLOCKS * limits.MAX_BLOCK_SIZE, widget="none"),
    ]
)
# Page defaults: the 1997 LSTM on a short adding-problem sequence. An UNTRAINED cell with that
# experiment's biases (input gates −3, −6) and init range ±0.1 shows nothing: input gates ≈ 0.05,
# |s| < 0.04, a flat output. So the first picture keeps the paper's idea (negative, staggered
# gate biases) but milder, with larger random weights: input gates 0.06–0.42, |s| up to ≈ 4,
# outputs 0.29–0.37 on seed 0. "Reset to paper defaults" puts the experiment's values back.
FIRST_SIGHT = {
    "b_input": -1.0,
    "b_input_step": -1.0,
    "b_output": -1.0,
    "b_output_step": -1.0,
    "init_range": 1.0,
}
DEFAULTS = SCHEMA.defaults(
    **{**controls.paper_values(SCHEMA, "lstm1997", "adding"), "adding.T": 20, **FIRST_SIGHT}
)
SPEC = PageSpec(PAGE, SCHEMA, DEFAULTS, CLASS_GROUPS)


@st.cache_data(max_entries=64, show_spinner=False)
def make_inputs(source: str, task: str, settings_json: str, typed: str, seed: int) -> dict:
    """The input sequence (and targets) from a task with a seed, or parsed from typed text."""
    if source == "typed":
        xs = export.parse_sequence(typed)
        return dict(xs=xs[:, None, :], targets=None, mask=None, n_out=1, act="sigmoid", loss="mse")
    tk = lc.get_task(task, **json.loads(settings_json))
    limits.check_task(tk, limits.STEP_MAX_T)
    b = tk.generate(np.random.default_rng(seed), batch=1)
    T = int(b.lengths[0])
    return dict(
        xs=b.xs[:T],
        targets=b.targets[:T],
        mask=b.mask[:T],
        n_out=tk.n_out,
        act=tk.output_activation,
        loss=tk.loss,
        symbols=tk.symbols,
    )


@st.cache_data(max_entries=64, show_spinner=False)
def run_model(model_json: str, source: str, task: str, settings_json: str, typed: str, seed: int) -> dict:
    data = dict(make_inputs(source, task, settings_json, typed, seed))
    model = lc.build(lc.ModelConfig.from_json(model_json))
    run = lc.forward(model, data["xs"])
    data.update(
        outputs=run.outputs,
        internals=run.internals,
        params={k: model.params[k] for k in ("u", "v") if k in model.params},
    )
    return data


def compute(values: dict) -> tuple[lc.ModelConfig, dict]:
    task = values["task"]
    args = (
        values["source"],
        task,
        json.dumps(task_controls.task_settings(values, task), sort_keys=True),
        values["typed"],
        values["seed"],
    )
    inp = make_inputs(*args)
    cfg = netconfig.model_config(values, inp["xs"].shape[-1], inp["n_out"], inp["act"], inp["loss"])
    return cfg, run_model(cfg.to_json(), *args)
