"""Class mode in a real browser: a teacher and three students, each in their own browser context
(as on four devices), in English and in 繁體中文.

The teacher starts a class; the students open the join link (its path and code, on this test's
server), join, and predict; the teacher sees how many answered, shows the distribution, reveals to
the class (the students' Reveal unlocks), and starts a vote again (the rounds side by side).
Screenshots of the dashboard go to the artifacts.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from app.i18n import translate_in

from .conftest import CHART, screenshot, wait_for_app

pytestmark = pytest.mark.e2e

MAIN = "[data-testid='stMain']"
CHOICES = f"{MAIN} [data-testid='stRadio'] label:has(input[type='radio'])"


def charts_in(scope: str) -> str:
    """The charts inside ``scope`` (CHART is a selector list: each part scoped)."""
    return ", ".join(f"{scope} {part.strip()}" for part in CHART.split(","))


def t(lang: str, text: str) -> str:
    return translate_in(lang, text)


def button(page, lang: str, text: str):
    return page.get_by_role("button", name=re.compile("^" + re.escape(t(lang, text))))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_teacher_and_three_students_vote_reveal_and_vote_again(browser, streamlit_server, lang):
    contexts = [browser.new_context(viewport={"width": 1366, "height": 900}) for _ in range(4)]
    try:
        teacher = contexts[0].new_page()
        teacher.goto(f"{streamlit_server}/lessons?lang={lang}")
        wait_for_app(teacher)
        teacher.locator("[data-testid='stSidebar'] summary", has_text=t(lang, "Class mode")).click()
        button(teacher, lang, "Start a class (teacher)").click()
        wait_for_app(teacher)
        code_shown = teacher.locator(
            "[data-testid='stSidebar'] summary",
            has_text=re.compile(re.escape(t(lang, "Class {code}").format(code="")) + "[A-Z0-9]{6}"),
        )
        expect(code_shown).to_be_attached()
        # a reload is a new session: the tab hands the teacher's seat back (never in the address bar)
        teacher.reload()
        wait_for_app(teacher)
        expect(code_shown).to_be_attached()
        expect(teacher.locator("[data-testid='stSidebar'] img[alt*='QR']")).to_be_visible()
        assert "tk=" not in teacher.url
        link = (
            teacher.locator("[data-testid='stSidebar'] [data-testid='stCode'] code")
            .first.inner_text()
            .strip()
        )
        parts = urlsplit(link)
        code = parts.query.split("join=")[1]
        expect(teacher.locator("[data-testid='stSidebar'] img[alt*='QR']")).to_be_visible()
        warned = teacher.get_by_text(t(lang, "Only this computer's own address is known")[:20]).count() > 0
        assert parts.hostname not in ("localhost", "127.0.0.1") or warned, link
        students = []
        for i, ctx in enumerate(contexts[1:]):
            s = ctx.new_page()
            s.goto(
                f"{streamlit_server}/{parts.path.lstrip('/')}?{parts.query}&lang={lang}"
            )  # as the link says
            wait_for_app(s)
            expect(s.get_by_text(code, exact=False).first).to_be_visible()
            button(s, lang, "Join the class").click()
            wait_for_app(s)
            expect(s.locator("[data-testid='stSidebar'] summary", has_text=code)).to_be_attached()
            s.get_by_role("link", name=t(lang, "Guided lessons")).first.click()
            wait_for_app(s)
            s.locator(CHOICES).nth([0, 1, 1][i]).click()
            # sent over the class socket and acknowledged once stored: no page run per pick
            expect(s.get_by_role("status")).to_have_text(t(lang, "Your prediction is sent. ✓"))
            expect(button(s, lang, "Reveal")).to_be_disabled()
            students.append(s)
        # the class's size in the teacher's sidebar follows the joins by itself too
        expect(
            teacher.locator(
                "[data-testid='stSidebar'] summary", has_text=t(lang, "{n} students joined").format(n=3)
            )
        ).to_be_attached()
        # the teacher's count arrives by itself (the dashboard's 2 s fragment): no reload
        expect(teacher.locator(".st-key-class-dashboard")).to_contain_text(re.compile(r"3\D+3|3 人中已有 3"))
        expect(teacher.locator(charts_in(".st-key-class-dashboard"))).to_have_count(0)  # hidden until shown
        button(teacher, lang, "Show the answers").click()
        wait_for_app(teacher)
        expect(teacher.locator(charts_in(".st-key-class-dashboard"))).to_have_count(1)
        screenshot(teacher, f"class-dashboard-vote-{lang}", full_page=False)
        button(teacher, lang, "Reveal to the class").click()
        wait_for_app(teacher)
        for s in students:  # each student's page follows the class by itself
            expect(button(s, lang, "Reveal")).to_be_enabled(timeout=30_000)
        button(students[0], lang, "Reveal").click()
        wait_for_app(students[0])
        screenshot(students[0], f"class-student-revealed-{lang}", full_page=False)
        button(teacher, lang, "Vote again").click()
        wait_for_app(teacher)
        for s in students:
            expect(s.locator(CHOICES).first).to_be_enabled(timeout=30_000)
            expect(button(s, lang, "Reveal")).to_be_disabled()
        students[0].locator(CHOICES).nth(1).click()
        expect(students[0].get_by_role("status")).to_have_text(t(lang, "Your prediction is sent. ✓"))
        expect(teacher.locator(".st-key-class-dashboard")).to_contain_text(
            t(lang, "Round {round}").format(round=2)
        )
        legend = teacher.locator(".st-key-class-dashboard .legend")
        expect(legend).to_contain_text(t(lang, "Round {round}").format(round=1))
        screenshot(teacher, f"class-dashboard-vote-again-{lang}", full_page=False)
        # the class as a sweep: the teacher hands out cells of the output gate bias from Train and
        # watch (30-sequence budget: the runs end fast), every student is moved to their cell, trains it,
        # and each finished run lands on the teacher's map
        teacher.get_by_role("link", name=t(lang, "Train and watch")).first.click()  # the same session
        wait_for_app(teacher)
        budget = teacher.get_by_role("spinbutton", name=t(lang, "Budget (training sequences)"))
        budget.fill("30")
        budget.press("Enter")
        wait_for_app(teacher)
        teacher.get_by_role("textbox", name=t(lang, "Bias values, one cell each")).fill("0, -2")
        teacher.get_by_role("textbox", name=t(lang, "Bias values, one cell each")).press("Enter")
        wait_for_app(teacher)
        button(teacher, lang, "Hand out cells").click()
        wait_for_app(teacher)
        for s in students:
            expect(s).to_have_url(re.compile(r"/train\?"), timeout=30_000)  # followed by itself
            wait_for_app(s)
            start = s.locator(".st-key-train-go").filter(visible=True).first.get_by_role("button")
            expect(start).to_be_enabled()
            start.click()
        heat = teacher.locator(charts_in(".st-key-class-sweep"))
        expect(heat).to_have_count(2)  # the Bias lab's two maps: solved share, median sequences
        expect(teacher.locator(".st-key-class-sweep")).to_contain_text("0/2", timeout=60_000)
        expect(teacher.locator(".st-key-class-sweep")).to_contain_text("0/1", timeout=60_000)
        teacher.locator(".st-key-class-sweep").scroll_into_view_if_needed()
        screenshot(teacher, f"class-sweep-map-{lang}", full_page=False)
        for p in (teacher, *students):
            expect(p.locator("[data-testid='stException']")).to_have_count(0)
            assert "tk=" not in p.url
    finally:
        for ctx in contexts:
            ctx.close()
