"""The app's side of issue 34 (Streamlit AppTest): the damaged files the fuzzing found, handed to
the real pages. Each upload or import is refused with ``st.error`` saying what is wrong, no
exception box, and what was loaded before — model, settings, sweep — stays on screen.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from page_helpers import open_page
from test_fuzz_readers import SWEEP
from test_step_upload import FILE, heat, sidebar_errors, uploaded

from app.experiments import results_file

FOUND = json.loads((Path(__file__).parent / "fixtures" / "fuzz_found.json").read_text())


def test_every_damaged_model_file_found_by_fuzzing_gives_a_message_and_keeps_the_model():
    at = uploaded()
    before = heat(at, "step-states")
    for case in FOUND:
        at.file_uploader(key=FILE).set_value(
            (f"{case['case']}-{case['name']}", base64.b64decode(case["base64"]), "application/octet-stream")
        ).run()
        assert not at.exception, (case["case"], [e.value for e in at.exception])
        msg = sidebar_errors(at)
        assert msg and case["message_contains"] in msg[0] and "previous model is still loaded" in msg[0], (
            case,
            msg,
        )
        np.testing.assert_array_equal(heat(at, "step-states"), before)
        assert "names_lstm.safetensors" in " ".join(m.value for m in at.sidebar.markdown)


@pytest.mark.parametrize(
    "data,words",
    [
        (b'{"kind": "gatelab-config", "page": "step", "settings": {"seed": 1' + b"0" * 400 + b"}}", "'seed'"),
        (
            b'{"kind": "gatelab-config", "page": "step", "settings": {"seed": ' + b"9" * 5000 + b"}}",
            "thousands of digits",
        ),
        (b'{"variant": "lstm1997", "n_in": 1, "n_out": 1, "init_range": 1' + b"0" * 400 + b"}", "init_range"),
    ],
    ids=["400-digit-seed", "5000-digit-seed", "400-digit-init-range"],
)
def test_configuration_files_with_absurd_numbers_are_refused_and_settings_kept(data, words):
    at = open_page("step")
    before = {k: at.session_state[k] for k in ("step.variant", "step.n_blocks", "step.seed")}
    at.file_uploader[0].set_value(("bad.json", data, "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    box = next(e for e in at.expander if e.label == "Export and import")
    inside = [e.value for e in box.error]
    assert inside and words in inside[0] and "unchanged" in inside[0], inside
    assert {k: at.session_state[k] for k in before} == before


def test_a_link_with_a_400_digit_number_shows_the_error_and_the_defaults():
    at = open_page("step", {"cfg": '{"seed": 1' + "0" * 400 + "}"})
    assert not at.exception, [e.value for e in at.exception]
    assert any("could not be used" in e.value and "'seed'" in e.value for e in at.error)


def test_damaged_sweep_files_are_refused_and_the_loaded_sweep_stays():
    at = open_page("bias_lab")
    up = at.file_uploader(key="bias_lab.precomputed_upload")
    up.set_value(("good.json", json.dumps(SWEEP).encode(), "application/json")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    shown = [m.value for m in at.markdown if "good.json" in m.value]
    assert shown
    damaged = json.dumps(SWEEP).replace('"budget": 3000', '"budget": ' + "9" * 5000).encode()
    for name, data, words in (
        ("digits.json", damaged, "thousands of digits"),
        ("cut.json", json.dumps(SWEEP).encode()[:-40], "not valid JSON"),
    ):
        at.file_uploader(key="bias_lab.precomputed_upload").set_value((name, data, "application/json")).run()
        assert not at.exception, [e.value for e in at.exception]
        errs = [e.value for e in at.error]
        assert any(words in e and "kept" in e for e in errs), errs
        assert [m.value for m in at.markdown if "good.json" in m.value] == shown


def test_a_damaged_results_file_gives_the_experiments_page_a_note_not_a_traceback(tmp_path, monkeypatch):
    (tmp_path / "results.json").write_text('[{"name": "adding", "trials": {"ten": 10}}]')
    monkeypatch.setattr(results_file, "DOCS", tmp_path)
    at = open_page("experiments")
    assert not at.exception, [e.value for e in at.exception]
    notes = " ".join(c.value for c in at.caption)
    assert "results.json could not be read" in notes and "results[0].trials" in notes, notes
