"""The press witness for any page's buttons (``app/ui/actions.button``): each press the browser reports is
applied once, with the arguments the button was last drawn with; a trigger without a new report (Streamlit
running ``on_click`` twice) is not a press; a press of a button the witness did not know yet (reported by
its element's class) is found by its key; a client without the script gets the button as drawn."""
from __future__ import annotations

import types

import pytest

from app.ui import actions, state

PAGE = "lessons"
KEY = "lessons.next"


@pytest.fixture()
def page(monkeypatch):
    session: dict = {}
    fake = types.SimpleNamespace(session_state=session)
    monkeypatch.setattr(actions, "st", fake)
    monkeypatch.setattr(state, "st", fake)
    where = types.SimpleNamespace(button=lambda *a, **k: False)
    moved: list[int] = []

    def draw(question: int, key: str = KEY) -> None:
        """Draw "Next question" on ``question``."""
        actions.button(where, PAGE, "Next question", key, moved.append, (question + 1,))

    def press(press_id: int, sent: int, **how) -> None:
        """The browser's report: the presses not answered yet, this one (``how``: button or cls) last."""
        previous = session.get(actions.witness_key(PAGE), {}).get("report", {}).get("presses", [])
        presses = [*previous, {**(how or {"button": KEY, "action": KEY}), "id": press_id}]
        session[actions.witness_key(PAGE)] = {"report": {"presses": presses, "sent": sent}}

    return types.SimpleNamespace(session=session, draw=draw, press=press, moved=moved)


def test_no_script_applies_the_button_as_drawn(page):
    page.draw(1)
    page.draw(2)
    actions._clicked(PAGE, KEY)
    assert page.moved == [3]


def test_a_press_is_applied_once_and_a_second_dispatch_is_not_a_press(page):
    page.draw(2)
    page.press(10, sent=1)
    actions._clicked(PAGE, KEY)                  # the click's run
    assert page.moved == [3]
    page.draw(3)                                 # the page moved on and drew the button again
    actions._clicked(PAGE, KEY)                  # Streamlit runs on_click again, with no new report
    assert page.moved == [3], "a second dispatch of one click moved the page again"
    page.session.pop(actions.witness_key(PAGE))  # (even when the component's value was dropped)
    actions._clicked(PAGE, KEY)
    assert page.moved == [3]


def test_a_press_whose_message_was_lost_is_applied_once_from_the_report_sent_again(page):
    page.draw(2)
    page.press(11, sent=1)                       # the click's message was lost: the re-sent report
    actions._resent(PAGE)
    assert page.moved == [3]
    page.press(12, sent=2)                       # a second press; the first still listed (not answered)
    actions._clicked(PAGE, KEY)
    assert page.moved == [3, 3]                  # (drawn again only by the page's run: the same question)


def test_a_button_the_witness_did_not_know_yet_is_found_by_its_class(page):
    page.draw(4, key="lessons.reveal.vanishing.1")
    page.press(13, sent=1, cls="st-key-lessons-reveal-vanishing-1")
    actions._clicked(PAGE, "lessons.reveal.vanishing.1")
    assert page.moved == [5]
    page.press(14, sent=2, cls="st-key-lessons-other")       # a button of the page that is not witnessed
    actions._resent(PAGE)
    assert page.moved == [5]
    assert actions.element_class("lessons.next_lesson") == "st-key-lessons-next_lesson"
