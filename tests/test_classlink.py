"""Class links on Step through a cell (Streamlit AppTest): the shared helper app/ui/classlink.py
locks whole control groups; locked widgets are drawn disabled with the teacher's values, keep them
after a rerun, a "Reset to paper defaults" click and a reopened link, and the rest stays usable."""

from __future__ import annotations

import pytest
from page_helpers import open_page

from app.step.settings import CLASS_GROUPS, DEFAULTS, SCHEMA
from app.ui import classlink, urlstate

TEACHER = {**DEFAULTS, "seed": 5, "b_input": -2.0, "variant": "lstm2000"}


def query(lock: list[str]) -> dict[str, str]:
    url = classlink.link(TEACHER, DEFAULTS, lock, CLASS_GROUPS, base="")
    return {urlstate.PARAM: url.split("=", 1)[1]}


def test_step_class_link_locks_groups_through_rerun_reset_and_reopening():
    q = query(["Gate biases", "Seed"])
    at = open_page("step", q)
    assert not at.exception and not at.error, [e.value for e in at.error]
    seed, variant = at.number_input(key="step.seed"), at.selectbox(key="step.variant")
    assert seed.disabled and seed.value == 5
    assert not variant.disabled and variant.value == "lstm2000"  # shared, not locked
    bias = at.slider(key="step.b_input")
    assert bias.disabled and bias.value == pytest.approx(-2.0)
    assert any("Class link from your teacher" in m.value for m in at.markdown)
    variant.set_value("lstm1997").run()  # an unlocked control works
    assert at.selectbox(key="step.variant").value == "lstm1997"
    reset = next(b for b in at.button if b.key == "step.reset.seed")  # the group's own reset button
    reset.click().run()
    assert at.number_input(key="step.seed").value == 5 and at.number_input(key="step.seed").disabled
    at.button(key="step.classlink.reset").click().run()
    assert at.selectbox(key="step.variant").value == "lstm2000"  # the teacher's settings back
    # reload with the URL the student has now, and reopen the teacher's link
    for again in (open_page("step", {urlstate.PARAM: at.query_params[urlstate.PARAM]}), open_page("step", q)):
        assert again.number_input(key="step.seed").disabled and again.number_input(key="step.seed").value == 5
        assert again.slider(key="step.b_input").disabled


def test_an_ordinary_step_link_locks_nothing_and_offers_the_share_panel():
    at = open_page("step")
    assert not at.number_input(key="step.seed").disabled
    assert "Share with class (teacher)" in [e.label for e in at.expander]
    # closed, the panel draws no link box (Streamlit's code element loads a 1.5 MB highlighter)
    assert not at.code and not [m for m in at.multiselect if m.key == "step.classlink.choose.en"]
    at.session_state["step.classlink.open"] = True  # the teacher opens it
    at.run()
    url = at.code[-1].value if at.code else ""
    values, errors = urlstate.decode(url.split(f"{urlstate.PARAM}=", 1)[1], SCHEMA.check)
    assert not errors and values[classlink.LOCK] == list(CLASS_GROUPS)  # everything locked by default
