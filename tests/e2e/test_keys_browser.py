"""Real browser: keyboard and presenter clicker (issue 32). Step — Right/Left a step, Space
play/pause, Home reset; Lessons — Enter reveals, PageDown / PageUp next and previous question;
Train — Space starts and pauses. Keys typed into a text field stay there."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from app.lessons.content import LESSONS

from .conftest import screenshot, settle, step_counter, wait_for_app

pytestmark = pytest.mark.e2e


def keys_ready(page) -> None:
    """The page's key bindings are listening (app/ui/keys.py marks its element once it is)."""
    expect(page.locator(".st-key-gatelab-keys [data-keys-ready]")).to_be_attached()


def step_metric(page):
    return step_counter(page)


def keys_move_the_step(page, moves: list[tuple[str, int]]) -> None:
    """Press each key in turn; the step counter then reads its step."""
    for key, step in moves:
        page.keyboard.press(key)
        expect(step_metric(page)).to_have_text(re.compile(rf"^{step} / \d+$"))


def test_step_arrows_space_and_home(streamlit_server, page):
    page.goto(f"{streamlit_server}/step")
    wait_for_app(page)
    settle(page)
    keys_ready(page)
    expect(step_metric(page)).to_have_text(re.compile(r"^1 / \d+$"))
    keys_move_the_step(page, [("ArrowRight", 2), ("ArrowRight", 3), ("ArrowLeft", 2), ("Home", 1)])
    # typed into a text field, the arrow moves the text cursor, not the step
    # (one that takes typing: under load the first one shown was a greyed-out one, and the click waited)
    seed = page.locator("[data-testid='stSidebar'] input[type='number']:visible:not([disabled])").first
    seed.click()
    page.keyboard.press("ArrowRight")
    wait_for_app(page)
    expect(step_metric(page)).to_have_text(re.compile(r"^1 / \d+$"))
    page.locator("[data-testid='stMain'] h1").first.click()  # focus back on the page
    play = page.locator(".gatelab-scrub .gl-play")
    page.keyboard.press(" ")
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(step_metric(page)).not_to_have_text(re.compile(r"^1 / \d+$"))  # it plays
    page.keyboard.press(" ")
    expect(play).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_text("Keyboard", exact=True)).to_be_visible()
    screenshot(page, "keys-step", full_page=False)


def test_lessons_enter_reveals_and_clicker_pages(streamlit_server, page):
    page.goto(f"{streamlit_server}/lessons")
    wait_for_app(page)
    keys_ready(page)
    q1 = LESSONS[next(iter(LESSONS))].questions[0]  # the first lesson opens first
    page.locator("[data-testid='stRadio']").last.get_by_text(q1.choices[0].label, exact=True).click()
    wait_for_app(page)
    expect(page.get_by_role("button", name="Reveal")).to_be_enabled()
    page.keyboard.press("Enter")  # right after picking an answer
    expect(
        page.locator("[data-testid='stAlertContentSuccess'], [data-testid='stAlertContentWarning']").first
    ).to_be_visible()
    expect(page.get_by_text(re.compile(r"Question 1 of \d+ · 1 revealed"))).to_be_visible()
    wait_for_app(page)  # each key on a page at rest
    page.keyboard.press("PageDown")  # a presenter clicker's "next"
    expect(page.get_by_text(re.compile(r"Question 2 of \d+"))).to_be_visible()
    wait_for_app(page)
    page.keyboard.press("PageUp")  # … and its "back"
    expect(page.get_by_text(re.compile(r"Question 1 of \d+"))).to_be_visible()
    wait_for_app(page)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text(re.compile(r"Question 2 of \d+"))).to_be_visible()
    wait_for_app(page)
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_text(re.compile(r"Question 1 of \d+"))).to_be_visible()
    screenshot(page, "keys-lessons", full_page=False)


def test_train_space_starts_and_pauses(streamlit_server, page):
    page.goto(f"{streamlit_server}/train?cfg=" + quote(json.dumps({"streak": 5000})))
    wait_for_app(page)
    expect(page.get_by_role("button", name=re.compile("Start"))).to_be_visible()
    keys_ready(page)  # a key pressed before the page's script listens goes to the browser
    page.keyboard.press(" ")
    expect(page.get_by_role("button", name=re.compile("Pause"))).to_be_visible()
    page.keyboard.press(" ")
    expect(page.get_by_role("button", name=re.compile("Resume"))).to_be_visible()
    screenshot(page, "keys-train", full_page=False)


def test_train_keeps_the_keyboard_focus_on_start_pause_resume(streamlit_server, page):
    """Enter on the focused Start button starts; the focus stays on that button, now "Pause", so the next
    Enter pauses and the next resumes. With one button per status the pressed one was replaced and the
    focus fell to the page (or, on a busy machine, stayed on a hidden leftover "Pause" that pushed the
    row aside until the next click, which then hit the wrong button)."""
    page.goto(f"{streamlit_server}/train?cfg=" + quote(json.dumps({"streak": 5000})))
    wait_for_app(page)
    go = page.locator(".st-key-train-go button").filter(visible=True)  # (a help text adds a hidden copy)
    expect(go).to_have_accessible_name(re.compile("^Start"))
    go.focus()
    for now in ("Pause", "Resume", "Pause", "Resume"):
        page.keyboard.press("Enter")
        expect(go).to_have_accessible_name(re.compile(f"^{now}"))
        expect(go).to_be_focused()
        # one button in the row's first place: no leftover of the status before
        expect(
            page.locator(".st-key-train-keep_a")
            .locator("xpath=..")
            .locator("[data-testid^='stBaseButton']")
            .filter(visible=True)
        ).to_have_count(5)
        wait_for_app(page)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_clicker_steps_step_and_runs_train_in_presenter_mode(streamlit_server, page, lang):
    """A presenter clicker sends PageDown / PageUp (issue 45: Step ignored them, Train answered only
    Space): in presenter mode they step Step forward and back, and start, pause and resume Train."""
    page.goto(f"{streamlit_server}/step?present=1&lang={lang}")
    wait_for_app(page)
    settle(page)
    keys_ready(page)
    expect(step_metric(page)).to_have_text(re.compile(r"^1 / \d+$"))
    keys_move_the_step(page, [("PageDown", 2), ("PageDown", 3), ("PageUp", 2)])
    page.goto(f"{streamlit_server}/train?present=1&lang={lang}&cfg=" + quote(json.dumps({"streak": 5000})))
    wait_for_app(page)
    go = page.locator(".st-key-train-go button")
    start = go.inner_text()
    keys_ready(page)
    page.keyboard.press("PageDown")
    expect(go).not_to_have_text(start)  # Start -> Pause
    pause = go.inner_text()
    page.keyboard.press("PageUp")
    expect(go).not_to_have_text(pause)  # Pause -> Resume
    resume = go.inner_text()
    page.keyboard.press("ArrowRight")  # a clicker that sends the arrows
    expect(go).not_to_have_text(resume)  # Resume -> Pause
    screenshot(page, f"keys-clicker-train-{lang}", full_page=False)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_clicker_runs_a_lesson_in_presenter_mode(streamlit_server, page, lang):
    """Issue 45: on a question nobody picked (the class voted by hands), PageDown reveals it, the next
    PageDown moves to the next question, PageUp back. The first key goes as soon as the page has settled:
    on a busy server the title was sometimes drawn before the buttons, and the key was lost (a clicker
    pressed as the page appears) until app/ui/keys.py waited for the button to be drawn."""
    page.goto(f"{streamlit_server}/lessons?present=1&lang={lang}")
    wait_for_app(page)
    settle(page)
    keys_ready(page)
    title = page.locator("[data-testid='stMainBlockContainer'] h1").first  # "… · question i of n"
    expect(title).to_contain_text(re.compile(r"1\D+\d+\s*\D*$"))
    answer = page.locator("[data-testid='stMainBlockContainer'] [data-testid='stAlertContentInfo']")
    expect(answer).to_have_count(0)
    page.keyboard.press("PageDown")  # reveals, with no pick: the model's answer is shown
    expect(answer.first).to_be_visible()
    expect(title).to_contain_text(re.compile(r"1\D+\d+\s*\D*$"))  # still question 1
    wait_for_app(page)
    page.keyboard.press("PageDown")  # the next question
    expect(title).to_contain_text(re.compile(r"2\D+\d+\s*\D*$"))
    expect(answer).to_have_count(0)
    wait_for_app(page)
    page.keyboard.press("PageUp")
    expect(title).to_contain_text(re.compile(r"1\D+\d+\s*\D*$"))
    expect(answer.first).to_be_visible()  # revealed, as left
    screenshot(page, f"keys-clicker-lessons-{lang}", full_page=False)
