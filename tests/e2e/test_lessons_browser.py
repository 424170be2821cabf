"""Real browser (Debian Chromium, 1366×768): walk the first guided lesson end to end — predict,
reveal, next, predict, reveal, takeaway — then reload and find the progress kept in the link.

Screenshots of every step go to the e2e artifacts (``screenshot``); the time the walk took (a
scripted walker, no reading time) is recorded in measurements.json, reported, never asserted.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from app.lessons.content import LESSONS

from .conftest import CHART, record_measurement, screenshot, wait_for_app

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1366, "height": 768}


def predict_and_reveal(page, label: str) -> None:
    # the current question's choices (an earlier question with the same wording may still be shown)
    page.locator("[data-testid='stRadio']").last.get_by_text(label, exact=True).click()
    reveal = page.get_by_role("button", name="Reveal")
    expect(reveal).to_be_enabled()
    reveal.click()
    wait_for_app(page)
    expect(
        page.locator("[data-testid='stAlertContentSuccess'], [data-testid='stAlertContentWarning']").first
    ).to_be_visible()
    expect(page.locator(CHART).first).to_be_visible()


def test_walk_the_vanishing_lesson_end_to_end(streamlit_server, page):
    L = LESSONS["vanishing"]
    q1, q2 = L.questions
    right1, right2 = q1.answer(q1.run(0)), q2.answer(q2.run(0))
    page.set_viewport_size(LAPTOP)
    t0 = time.perf_counter()
    page.goto(f"{streamlit_server}/lessons")
    wait_for_app(page)
    expect(page.get_by_role("heading", name="Guided lessons").first).to_be_visible()
    expect(page.get_by_text(q1.ask.replace("**", "")[:40])).to_be_visible()
    expect(page.get_by_role("button", name="Reveal")).to_be_disabled()  # predict first
    screenshot(page, "lesson-1-predict", full_page=False)

    predict_and_reveal(page, q1.choices[right1].label)
    expect(page.get_by_text("is right")).to_be_visible()
    screenshot(page, "lesson-1-revealed", full_page=False)

    page.get_by_role("button", name="Next question").click()
    wait_for_app(page)
    wrong = (right2 + 1) % 3
    predict_and_reveal(page, q2.choices[wrong].label)
    expect(page.get_by_text(re.compile("^(Close|Far off):")).first).to_be_visible()
    takeaway = page.get_by_text(L.takeaway)
    expect(takeaway).to_be_visible()
    walked = time.perf_counter() - t0
    takeaway.scroll_into_view_if_needed()
    screenshot(page, "lesson-1-takeaway", full_page=False)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)

    # the progress is in the link: a reload shows the finished lesson again
    assert "cfg=" in page.url
    page.reload()
    wait_for_app(page)
    expect(page.get_by_text(L.takeaway)).to_be_visible()
    record_measurement(
        "lesson_walk_vanishing",
        {
            "seconds": round(walked, 1),
            "viewport": LAPTOP,
            "questions": len(L.questions),
            "what": "scripted walk of lesson 1 (load, predict, reveal, next, predict, reveal, takeaway); "
            "no reading time",
        },
    )
    print(f"\nlesson 1 walked in {walked:.1f} s (scripted, no reading time)")


def test_every_lesson_step_revealed_from_a_link(streamlit_server, page):
    """Each question of each lesson, revealed (every lesson's progress given in one link), drawn
    without an error; one screenshot per step to look at. The link is opened once and the walk goes
    on with the page's own buttons (Next question, Next lesson), as a student who comes back does."""
    from app.lessons import progress
    from app.lessons.view import DEFAULTS
    from app.ui import urlstate

    page.set_viewport_size(LAPTOP)
    rights = {key: [q.answer(q.run(0)) for q in L.questions] for key, L in LESSONS.items()}
    first = next(iter(LESSONS))
    cfg = urlstate.encode(
        {**DEFAULTS, "lesson": first, "step": 0, "answers": progress.to_text(rights)}, DEFAULTS
    )
    page.goto(f"{streamlit_server}/lessons?cfg={cfg}")
    keys = list(LESSONS)
    for n, (key, L) in enumerate(LESSONS.items()):
        for i, q in enumerate(L.questions):
            expect(page.get_by_text(f"Question {i + 1} of {len(L.questions)}")).to_be_visible()
            expect(page.get_by_role("heading", name=L.title)).to_be_visible()
            wait_for_app(page)
            verdict = page.locator("[data-testid='stAlertContentSuccess']")
            expect(verdict).to_contain_text("is right")
            expect(verdict).to_contain_text(q.choices[rights[key][i]].label)
            expect(page.locator(CHART).first).to_be_visible()
            expect(page.locator("[data-testid='stException']")).to_have_count(0)
            page.locator(CHART).first.scroll_into_view_if_needed()
            screenshot(page, f"lesson-{key}-{i + 1}", full_page=False)
            if i + 1 < len(L.questions):
                page.get_by_role("button", name="Next question").click()
            elif n + 1 < len(keys):
                expect(page.get_by_text(L.takeaway)).to_be_visible()
                page.get_by_role("button", name=f"Next lesson: {LESSONS[keys[n + 1]].title}").click()


def test_class_link_opens_locked_and_stays_locked_after_a_reload(streamlit_server, page):
    from app.lessons.view import DEFAULTS, GROUPS
    from app.ui import classlink

    page.set_viewport_size(LAPTOP)
    url = classlink.link(
        {**DEFAULTS, "lesson": "peepholes", "seed": 3},
        DEFAULTS,
        ["Lesson"],
        GROUPS,
        start={"step": 0, "answers": ""},
        base=f"{streamlit_server}/lessons",
    )
    for _ in range(2):  # open, then reload
        page.goto(url) if _ == 0 else page.reload()
        wait_for_app(page)
        expect(page.get_by_text("Class link from your teacher")).to_be_visible()
        expect(page.get_by_role("heading", name=LESSONS["peepholes"].title)).to_be_visible()
        picker = page.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").first
        expect(picker.locator("input")).to_be_disabled()
    screenshot(page, "lesson-class-link", full_page=False)
