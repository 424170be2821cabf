"""The press witness for any page's buttons (``app/ui/actions.button``): each press the browser reports is
applied once, with the arguments the button was last drawn with; a trigger without a new report (Streamlit
running ``on_click`` twice) is not a press; buttons named before they are drawn are witnessed from their
first draw; a client without the script gets the button as drawn."""

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
    actions._clicked(PAGE, KEY)  # the click's run
    assert page.moved == [3]
    page.draw(3)  # the page moved on and drew the button again
    actions._clicked(PAGE, KEY)  # Streamlit runs on_click again, with no new report
    assert page.moved == [3], "a second dispatch of one click moved the page again"
    page.session.pop(actions.witness_key(PAGE))  # (even when the component's value was dropped)
    actions._clicked(PAGE, KEY)
    assert page.moved == [3]


def test_a_press_whose_message_was_lost_is_applied_once_from_the_report_sent_again(page):
    page.draw(2)
    page.press(11, sent=1)  # the click's message was lost: the re-sent report
    actions._resent(PAGE)
    assert page.moved == [3]
    page.press(12, sent=2)  # a second press; the first still listed (not answered)
    actions._clicked(PAGE, KEY)
    assert page.moved == [3, 3]  # (drawn again only by the page's run: the same question)


def test_buttons_named_before_they_are_drawn_are_in_the_witness_data(page, monkeypatch):
    seen = {}
    monkeypatch.setattr(actions, "witness", lambda p, buttons, on_press: seen.update(buttons))
    page.draw(1)
    actions.expect(PAGE, ["lessons.reveal.vanishing.1", KEY])
    actions.page_witness(PAGE)
    assert set(seen) == {KEY, "lessons.reveal.vanishing.1"}
    page.press(13, sent=1, button="lessons.other", action="lessons.other")  # not a button of the page's
    actions._resent(PAGE)
    assert page.moved == []
