"""Real browser (Debian Chromium, 1366×768): "Bring your own model" on Step through a cell —
upload the shipped names LSTM, type a name, step a few timesteps; a pickle file is refused
under the uploader while the model stays. Screenshots of both.

No element reaches the page by reference to the browser's cached copy (.streamlit/config.toml,
[global]): here, under load, an upload and two scrub syncs sent within 130 ms once made Streamlit
send a reference to a copy the browser had just dropped — "Cached ForwardMsg MISS", the connection
closed, the page stuck in "running"."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import screenshot, step_button, step_counter, wait_for_app, watch_stream

pytestmark = pytest.mark.e2e
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "names_lstm.safetensors"


def test_upload_the_example_type_a_name_and_step(streamlit_server, fresh_page, tmp_path):
    page = fresh_page
    page.set_viewport_size({"width": 1366, "height": 768})
    stream = watch_stream(page)
    page.goto(f"{streamlit_server}/step")
    wait_for_app(page)
    sidebar = page.locator("[data-testid='stSidebar']")
    sidebar.get_by_text("Uploaded PyTorch model", exact=True).click()
    wait_for_app(page)
    sidebar.locator("input[type='file']").set_input_files(str(EXAMPLE))
    expect(sidebar.get_by_text("Loaded names_lstm.safetensors.")).to_be_visible()
    expect(sidebar.get_by_text("one-layer LSTM, 27 inputs, 24 hidden units", exact=False)).to_be_visible()
    wait_for_app(page)
    box = sidebar.get_by_label("Characters, one per timestep", exact=True)
    box.fill(".olivia.")
    box.press("Enter")
    expect(step_counter(page)).to_have_text("1 / 7")
    for k in range(3):
        step_button(page, "Forward").click()
        expect(step_counter(page)).to_have_text(f"{k + 2} / 7")
    wait_for_app(page)
    equations = page.locator(".gatelab-eq")
    expect(equations.get_by_text("LSTM (PyTorch) equations at step t = 4", exact=False)).to_be_visible()
    expect(page.get_by_text("Error flow of the uploaded network")).to_have_count(1)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    screenshot(page, "step-upload-names", full_page=False)
    page.get_by_text("Error flow of the uploaded network").scroll_into_view_if_needed()
    screenshot(page, "step-upload-flow", full_page=False)
    step_button(page, "Play").click()  # plays on to the end of ".olivia", and stops there
    expect(step_counter(page)).to_have_text("7 / 7", timeout=30_000)
    expect(equations.get_by_text("LSTM (PyTorch) equations at step t = 7", exact=False)).to_be_visible()
    expect(step_button(page, "Play")).to_be_visible()
    for shown in ("6 / 7", "5 / 7", "4 / 7"):
        step_button(page, "Back").click()
        expect(step_counter(page)).to_have_text(shown)

    bad = tmp_path / "model.pt"
    bad.write_bytes(b"\x80\x04\x95" + b"\x00" * 40)
    sidebar.locator("input[type='file']").set_input_files(str(bad))
    expect(sidebar.get_by_text("never unpickles", exact=False)).to_be_visible()
    expect(sidebar.get_by_text("previous model is still loaded", exact=False)).to_be_visible()
    expect(step_counter(page)).to_have_text("4 / 7")
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    screenshot(page, "step-upload-refused", full_page=False)
    assert stream.messages > 100 and stream.refs == [], (stream.messages, stream.refs)
