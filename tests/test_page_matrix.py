"""The page × variant × task matrix (Streamlit AppTest): every combination a page offers works.

Each page is opened once and then driven through every variant (from the registry) and every
task it offers: no exception, no ``st.error``, its charts drawn; on Step through a cell also
Forward and Play; on Train and watch one training tick (the sequence counter advances). A new
variant or task is covered here without editing this file. Every combination runs in every
language (?lang=en, ?lang=zh-TW and ?lang=zh-CN: a translation's placeholder or a label lookup that
breaks only in Chinese fails here).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

import lstm_core as lc

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"
VARIANTS = list(lc.VARIANTS)
TASKS = list(lc.TASKS)
LANGS = ["en", "zh-TW", "zh-CN"]


def open_page(page: str, lang: str) -> AppTest:
    at = AppTest.from_file(str(ENTRY), default_timeout=120)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page(f"../pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def check(at: AppTest, where: str, charts: int = 1) -> None:
    assert not at.exception, (where, [e.value for e in at.exception])
    assert not at.error, (where, [e.value for e in at.error])
    specs = chart_specs(at)
    with_data = [s for s in specs if s["data"]]  # (a cell diagram is drawn with shapes only)
    assert len(with_data) >= charts, (where, [s["layout"].get("title") for s in specs])


def choose(at: AppTest, page: str, variant: str, task: str | None = None) -> AppTest:
    at.selectbox(key=f"{page}.variant").set_value(variant)
    if task is not None:
        at.selectbox(key=f"{page}.task").set_value(task)
    return at.run()


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_step_page_every_task_then_forward_and_play(variant, lang):
    at = open_page("step", lang)
    for i, task in enumerate(TASKS):
        where = f"step × {variant} × {task} ({lang})"
        choose(at, "step", variant, task)
        check(at, where, charts=4)
        before = at.metric[0].value
        t, T = before.split(" / ")
        if t == T:  # the cursor kept from the last task is at this one's end: back to its start first
            at.button(key="step.reset").click().run()
            before = at.metric[0].value
            assert before.startswith("1 / "), where
        at.button(key="step.fwd").click().run()  # a step of this task's own sequence
        check(at, where + " (Forward)", charts=4)
        assert at.metric[0].value != before, where  # the cursor moved on
        # Play and Pause do not depend on the task (Forward, which steps the task's own sequence, does):
        # each variant plays one task, a different one for each variant, not all thirteen
        if i == VARIANTS.index(variant) % len(TASKS):
            at.segmented_control(key="step.play").set_value("play").run()
            check(at, where + " (Play)", charts=4)
            at.segmented_control(key="step.play").set_value("pause").run()
    # Reset (the cursor back to the first step) once at the end, whatever the cursor met on the way
    at.button(key="step.reset").click().run()
    check(at, f"step × {variant} × reset ({lang})", charts=4)
    # back at the first step
    assert at.metric[0].value.startswith("1 / "), (variant, lang, at.metric[0].value)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_train_page_every_task_trains_one_tick(variant, lang):
    at = open_page("train", lang)
    for task in TASKS:
        where = f"train × {variant} × {task} ({lang})"
        choose(at, "train", variant, task)
        check(at, where, charts=4)
        algo = at.segmented_control(key="train.algorithm")
        assert algo.value in lc.variant(variant).algorithms, where
        at.button(key="train.go").click().run()
        at.run()  # one more tick
        check(at, where + " (training)", charts=4)
        run = at.session_state["_page.train"]["live"].run
        assert run.trainer.model.config.variant == variant and run.sequences > 0, where
        at.button(key="train.stop").click().run()


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_gradient_flow_every_variant_alone_and_together_both_methods(lang):
    at = open_page("gradient_flow", lang)
    for method in ("bptt", "truncated"):
        at.segmented_control(key="gradient_flow.method").set_value(method).run()
        for chosen in [[v] for v in VARIANTS] + [VARIANTS]:
            at.multiselect(key="gradient_flow.variants").set_value(chosen).run()
            check(at, f"gradient flow × {chosen} × {method} ({lang})")


TINY_SWEEP = {
    "two_sequence.T": 10,
    "x_values": "0, -2",
    "y_values": "0, -2",
    "n_seeds": 1,
    "budget": 40,
    "streak": 10,
    "goal": "none",
}


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_bias_lab_every_variant_trains_a_tiny_sweep(variant, lang):
    """The default axes (input × output gate) switch to gates this variant has; a tiny sweep then
    trains to the end and draws its heat maps."""
    at = AppTest.from_file(str(ENTRY), default_timeout=120)
    at.query_params["lang"] = lang
    at.run()
    at.query_params["cfg"] = json.dumps(TINY_SWEEP)
    at.switch_page("../pages/bias_lab.py").run()
    choose(at, "bias_lab", variant)
    assert not at.exception and not at.error, [e.value for e in at.error]
    rec = lc.variant(variant)
    assert at.segmented_control(key="bias_lab.algorithm").value in rec.algorithms
    assert at.selectbox(key="bias_lab.x_gate").value in rec.gate_biases
    at.button(key="bias_lab.train").click().run()
    for _ in range(200):  # AppTest fires no timers: each run is one tick
        assert not at.exception, [e.value for e in at.exception]
        if not at.get("progress"):
            break
        at.run()
    assert not at.get("progress"), f"bias lab × {variant} ({lang}): the sweep did not finish"
    check(at, f"bias lab × {variant} ({lang})", charts=2)
