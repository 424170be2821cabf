"""A press is never lost (app/ui/actions.py), proven by losing it on purpose: the browser's message that
carries the press is dropped on its way to the server (Playwright routes the page's Streamlit WebSocket
and drops it), as the page's connection does on a busy server. Without the press witness the run kept
training with "Pause" on screen for good; with it the browser sends the press again and it is applied,
once. Also the short form of the click torture (benchmarks/click_torture.py) that ``make test`` runs."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import expect
from streamlit.proto.BackMsg_pb2 import BackMsg

from .conftest import CHART, wait_for_app

pytestmark = pytest.mark.e2e

GO = ".st-key-train-go button"


class Dropper:
    """Routes the page's Streamlit WebSocket, forwarding every message except the next ``drop`` ones that
    carry a press of the main button (a BackMsg rerun whose widget states hold its trigger)."""

    def __init__(self, page) -> None:
        self.drop, self.dropped, self.presses = 0, 0, 0
        page.route_web_socket(re.compile(r".*/_stcore/stream$"), self.route)

    def route(self, ws) -> None:
        server = ws.connect_to_server()
        server.on_message(ws.send)
        ws.on_message(lambda message: self.forward(server, message))

    def forward(self, server, message) -> None:
        if isinstance(message, bytes) and self.is_press(message):
            self.presses += 1
            if self.drop:
                self.drop -= 1
                self.dropped += 1
                return
        server.send(message)

    @staticmethod
    def is_press(message: bytes) -> bool:
        msg = BackMsg()
        try:
            msg.ParseFromString(message)
        except Exception:  # (not a BackMsg: forward it)
            return False
        if msg.WhichOneof("type") != "rerun_script":
            return False
        return any(
            w.id.endswith("train.go") and w.WhichOneof("value") == "trigger_value" and w.trigger_value
            for w in msg.rerun_script.widget_states.widgets
        )


def test_a_press_dropped_on_its_way_is_sent_again_and_applied_once(streamlit_server, fresh_page):
    page = fresh_page  # its WebSocket is routed: a context of its own
    dropper = Dropper(page)
    page.goto(f"{streamlit_server}/train?cfg=" + quote(json.dumps({"streak": 5000})))
    wait_for_app(page)
    expect(page.locator(CHART)).to_have_count(6, timeout=60_000)
    go = page.locator(GO).filter(visible=True).first
    go.click()
    expect(go).to_have_accessible_name(re.compile("^Pause"))
    page.wait_for_function(
        "() => /running\\s*$/.test(document.querySelector(\"[data-testid='stProgress']\")?.innerText || '')",
        timeout=60_000,
    )
    # what each click landed on, as the user saw it (the button's label at the click, before any redraw)
    page.evaluate(
        "() => { window.__clicked = []; window.addEventListener('click', (e) => { const b = e.target.closest"
        " && e.target.closest('button'); if (b) window.__clicked.push(b.innerText.trim()); }, true); }"
    )
    dropper.drop = 1
    go.click()  # Pause: the message carrying it is lost ...
    expect(go).to_have_attribute("aria-busy", "true")  # ... the button says the press is in flight
    go.click(force=True)  # a second press of the "Pause" still shown pauses, not resumes
    first, second = page.evaluate("window.__clicked")[-2:]
    assert "Pause" in first, (first, second)
    # On a busy machine the re-sent first press can be answered before the second click lands: that click
    # then fell on "Resume", and resuming is what the user asked. Either way each press is applied once,
    # as the button read when it was pressed — never "pause, then resume" from two presses of "Pause".
    after = "paused" if "Pause" in second else "running"
    bar = page.locator("[data-testid='stProgress']").first  # the progress bar says so (waited for as state)
    expect(go).to_have_accessible_name(
        re.compile("^Resume" if after == "paused" else "^Pause"), timeout=60_000
    )
    expect(go).not_to_have_attribute("aria-busy", "true", timeout=60_000)  # ... re-sent and answered
    expect(bar).to_have_text(re.compile(after + r"\s*$"), timeout=60_000)
    assert dropper.dropped == 1 and dropper.presses >= 2, vars(dropper)  # (re-sent copies carry no trigger)
    expect(bar).to_have_text(re.compile(after + r"\s*$"))  # and it stays so: no copy of a press toggled it
    expect(page.locator("[data-testid='stException']")).to_have_count(0)


def test_the_click_torture_short_form_loses_nothing(streamlit_server, browser):
    """benchmarks/click_torture.py, 16 actions on this (loaded) machine: every action answered and the
    final state the actions applied in order. No timing is asserted here (the benchmark reports it)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import click_torture

    out = click_torture.torture(browser, streamlit_server, actions=16, seed=7, answer_seconds=60.0)
    assert out["lost"] == 0, out
    assert out["answered"] == 16, out


class LateWitness:
    """Routes the page's Streamlit WebSocket and, once armed, holds back the server's messages from the
    first one that draws the press witness on (order kept) until ``release``: the button's new label is
    on screen while the witness still has its previous data, as on a busy server."""

    def __init__(self, page) -> None:
        self.armed, self.held, self.ws = False, None, None
        page.route_web_socket(re.compile(r".*/_stcore/stream$"), self.route)

    def route(self, ws) -> None:
        self.ws = ws
        server = ws.connect_to_server()
        server.on_message(self.down)
        ws.on_message(server.send)

    def down(self, message) -> None:
        if (
            self.held is None
            and self.armed
            and isinstance(message, bytes)
            and b"gatelab-witness-train" in message
        ):
            self.held = []
        if self.held is not None:
            self.held.append(message)
        else:
            self.ws.send(message)

    def release(self) -> None:
        held, self.held, self.armed = self.held or [], None, False
        for message in held:
            self.ws.send(message)


def test_a_press_on_a_label_newer_than_the_witness_data_does_what_the_label_says(
    streamlit_server, fresh_page
):
    page = fresh_page  # its WebSocket is routed: a context of its own
    """The witness is drawn after the buttons, and on a busy server its new data arrived up to half a
    second after the button showed its new label: Space pressed on a fresh "Pause" went out as "Start"
    and the run went on (about one time in ten under load). Made certain here: the witness's new data is
    held back while the button reads "Pause". The press must pause."""
    late = LateWitness(page)
    page.goto(f"{streamlit_server}/train?cfg=" + quote(json.dumps({"streak": 5000})))
    wait_for_app(page)
    go = page.locator(GO).filter(visible=True).first
    expect(go).to_have_accessible_name(re.compile("^Start"))
    late.armed = True
    go.click()
    # drawn; the witness's new data is held back from here on, whether or not it has come yet (under load
    # it can come after this point — asserting it had was a race the test lost once beside busy loops)
    expect(go).to_have_accessible_name(re.compile("^Pause"))
    go.click()
    late.release()
    expect(go).to_have_accessible_name(re.compile("^Resume"), timeout=60_000)
    bar = page.locator("[data-testid='stProgress']").first
    expect(bar).to_have_text(re.compile(r"paused\s*$"), timeout=60_000)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
