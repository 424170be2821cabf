"""Class links on Train and watch (Streamlit AppTest): a teacher's link locks whole control groups
(app/ui/classlink.py, as on Step and Lessons); locked widgets are drawn disabled with the teacher's
values and keep them through a rerun, a paper preset, a group's "Reset to paper defaults" and a
reopened link, the unlocked ones stay usable, and "Reset to the teacher's settings" puts the shared
settings back."""

from __future__ import annotations

import pytest
from page_helpers import open_page

from app.train.settings import CLASS_GROUPS, DEFAULTS, SCHEMA
from app.ui import classlink, urlstate

TEACHER = {**DEFAULTS, "seed": 7, "lr": 0.3, "momentum": 0.5, "long_lag.p": 12}


def query(lock: list[str]) -> dict[str, str]:
    url = classlink.link(TEACHER, DEFAULTS, lock, CLASS_GROUPS, base="")
    return {urlstate.PARAM: url.split("=", 1)[1]}


def locked_training_and_seed(at) -> None:
    lr, seed = at.number_input(key="train.lr"), at.number_input(key="train.seed")
    assert lr.disabled and lr.value == pytest.approx(0.3)
    assert at.number_input(key="train.momentum").disabled
    assert seed.disabled and seed.value == 7


def test_train_class_link_locks_groups_through_rerun_preset_reset_and_reopening():
    q = query(["Training", "Seed"])
    at = open_page("train", q)
    assert not at.exception and not at.error, [e.value for e in at.error]
    locked_training_and_seed(at)
    p = at.number_input(key="train.long_lag.p")
    assert not p.disabled and p.value == 12  # shared, not locked
    assert any("Class link from your teacher" in m.value and "Training, Seed" in m.value for m in at.markdown)
    p.set_value(20).run()  # an unlocked control works
    assert at.number_input(key="train.long_lag.p").value == 20
    locked_training_and_seed(at)
    # a paper preset fills the unlocked controls only
    at.selectbox(key="train.preset").set_value("long_lag").run()
    assert at.number_input(key="train.long_lag.p").value == 100
    locked_training_and_seed(at)
    assert any("keep the teacher's values" in s.value for s in at.success)
    at.button(key="train.reset.train").click().run()  # the group's own reset button
    locked_training_and_seed(at)
    at.button(key="train.classlink.reset").click().run()
    assert at.number_input(key="train.long_lag.p").value == 12  # the teacher's settings back
    # reload with the URL the student has now, and reopen the teacher's link
    for again in (
        open_page("train", {urlstate.PARAM: at.query_params[urlstate.PARAM]}),
        open_page("train", q),
    ):
        assert not again.exception and not again.error
        locked_training_and_seed(again)


def test_a_locked_network_greys_out_the_sidebars_network_controls():
    at = open_page("train", query(["Network"]))
    assert at.selectbox(key="train.variant").disabled
    assert not at.number_input(key="train.lr").disabled and at.number_input(
        key="train.lr"
    ).value == pytest.approx(0.3)


def test_an_ordinary_train_link_locks_nothing_and_offers_the_share_panel():
    at = open_page("train")
    assert not at.number_input(key="train.lr").disabled and not at.number_input(key="train.seed").disabled
    assert not any("Class link from your teacher" in m.value for m in at.markdown)
    assert "Share with class (teacher)" in [e.label for e in at.expander]
    at.session_state["train.classlink.open"] = True
    at.number_input(key="train.lr").set_value(0.25).run()
    url = at.code[-1].value
    values, errors = urlstate.decode(url.split(f"{urlstate.PARAM}=", 1)[1], SCHEMA.check)
    assert not errors and values[classlink.LOCK] == list(CLASS_GROUPS)  # everything locked by default
    teacher, errors = urlstate.decode(values[classlink.TEACHER], SCHEMA.check)
    assert not errors and teacher["lr"] == pytest.approx(0.25)
    student = open_page("train", {urlstate.PARAM: url.split(f"{urlstate.PARAM}=", 1)[1]})
    assert student.number_input(key="train.lr").disabled and student.number_input(
        key="train.lr"
    ).value == pytest.approx(0.25)


def test_a_link_sharing_the_page_defaults_still_locks_and_says_so():
    """The teacher's settings equal the defaults, so the link's teacher part is empty: the locked
    groups still hold (at the defaults) and the student still sees the class-link banner."""
    url = classlink.link(DEFAULTS, DEFAULTS, ["Seed"], CLASS_GROUPS, base="")
    at = open_page("train", {urlstate.PARAM: url.split("=", 1)[1]})
    assert (
        at.number_input(key="train.seed").disabled
        and at.number_input(key="train.seed").value == DEFAULTS["seed"]
    )
    assert any("Class link from your teacher" in m.value and "Seed" in m.value for m in at.markdown)
