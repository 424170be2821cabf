"""Step through a cell, "Bring your own model" (Streamlit AppTest): upload a trained PyTorch
LSTM/GRU file, step through it, and see a refused file explained under the uploader.

Charts are compared with ``lc.forward`` of the same file read by the core, so a page that drew
the built network (or made-up numbers) instead of the uploaded one would fail.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

import numpy as np
import pytest
from helpers import chart_specs
from page_helpers import errors, fig, open_page

import lstm_core as lc

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "names_lstm.safetensors"
SOURCE, FILE = "step.net_source", "step.byo_file"


def values(v) -> np.ndarray:
    """A Plotly data array (a list, or a typed buffer) as floats."""
    if isinstance(v, dict):
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).reshape(v.get("shape", -1))
    return np.array(
        [
            [np.nan if x is None else x for x in row]
            if isinstance(row, list)
            else (np.nan if row is None else row)
            for row in v
        ],
        dtype=float,
    )


def heat(at, uirevision: str) -> np.ndarray:
    return values(fig(at, uirevision)["data"][0]["z"])


def uploaded(name: str = EXAMPLE.name, data: bytes | None = None):
    at = open_page("step")
    at.segmented_control(key=SOURCE).set_value("uploaded").run()
    at.file_uploader(key=FILE).set_value(
        (name, EXAMPLE.read_bytes() if data is None else data, "application/octet-stream")
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def sidebar_errors(at) -> list[str]:
    return [e.value for e in at.sidebar.error]


def test_uploaded_example_is_what_the_charts_show():
    at = uploaded()
    model = lc.load_model_file(EXAMPLE.read_bytes(), EXAMPLE.name)
    text = at.text_input(key="step.byo_text").value
    assert text == ".emma." and at.metric[0].value == "1 / 5"  # inputs ".emma", targets "emma."
    run = lc.forward(model.model, model.encode(text[:-1]))
    np.testing.assert_allclose(heat(at, "step-states"), run.internals["c"][:, 0, :].T, atol=1e-9)
    np.testing.assert_allclose(heat(at, "step-outputs"), run.outputs[:, 0, :].T, atol=1e-9)
    summary = " ".join(m.value for m in at.sidebar.markdown)
    assert "one-layer LSTM, 27 inputs, 24 hidden units" in summary
    assert any("does not carry an uploaded model" in c.value for c in at.caption)
    assert fig(at, "step-byo-flow")["data"], "the error flow of the uploaded network is drawn"
    assert "equations" in " ".join(m.value for m in at.markdown) and not errors(at)


def test_typed_text_moves_the_charts_and_a_character_outside_the_vocabulary_keeps_the_last_run():
    at = uploaded()
    before = heat(at, "step-states")
    at.text_input(key="step.byo_text").set_value(".olivia.").run()
    assert at.metric[0].value == "1 / 7" and heat(at, "step-states").shape != before.shape
    good = heat(at, "step-states")
    at.text_input(key="step.byo_text").set_value(".Zoë!").run()
    assert not at.exception
    assert any("has no" in e and "'Z'" in e for e in errors(at)), errors(at)
    np.testing.assert_array_equal(heat(at, "step-states"), good)


def test_stepping_forward_moves_the_cursor_on_the_uploaded_network():
    at = uploaded()
    at.button(key="step.fwd").click().run()
    at.button(key="step.fwd").click().run()
    assert at.metric[0].value == "3 / 5"
    assert fig(at, "step-input")["layout"]["shapes"][0]["x0"] == 3


def test_a_task_with_the_models_input_size_can_be_the_input():
    at = uploaded()
    at.segmented_control(key="step.byo_input").set_value("task").run()
    assert at.selectbox(key="step.byo_task").options == ["Names: character-level language model (classroom)"]
    assert not errors(at) and fig(at, "step-outputs")["data"]


@pytest.mark.parametrize(
    "name,data,words",
    [
        ("model.pt", b"\x80\x04\x95junk", "never unpickles"),
        ("broken.safetensors", EXAMPLE.read_bytes()[:-100], "truncated"),
        ("wide.npz", None, "40 hidden units"),
    ],
)
def test_a_bad_file_is_refused_under_the_uploader_and_the_previous_model_is_kept(name, data, words):
    if data is None:
        m = lc.build("gru", n_in=3, n_out=3, n_hidden=40)
        b = io.BytesIO()
        np.savez(b, **lc.to_torch(m))
        data = b.getvalue()
    at = uploaded()
    before = heat(at, "step-states")
    at.file_uploader(key=FILE).set_value((name, data, "application/octet-stream")).run()
    assert not at.exception
    msg = sidebar_errors(at)
    assert msg and words in msg[0] and "previous model is still loaded" in msg[0], msg
    np.testing.assert_array_equal(heat(at, "step-states"), before)
    assert "names_lstm.safetensors" in " ".join(m.value for m in at.sidebar.markdown)


def test_a_bad_first_file_leaves_no_model_and_no_traceback():
    at = open_page("step")
    at.segmented_control(key=SOURCE).set_value("uploaded").run()
    at.file_uploader(key=FILE).set_value(("x.npz", b"PK\x03\x04 not a zip", "application/zip")).run()
    assert not at.exception and "not a valid zip" in sidebar_errors(at)[0]
    assert not chart_specs(at) and any("No model loaded" in i.value for i in at.sidebar.info)


def test_an_uploaded_gru_in_npz_shows_its_own_gates_and_back_to_built_restores_the_page():
    m = lc.build("gru", n_in=2, n_out=1, n_hidden=3, seed=4, init_range=1.0, output_activation="identity")
    b = io.BytesIO()
    np.savez(b, **lc.to_torch(m), **{"head.weight": m.params["W_out"], "head.bias": m.params["b_out"]})
    at = uploaded("gru.npz", b.getvalue())
    assert at.segmented_control(key="step.byo_input").value == "task"  # no vocabulary: a 2-input task
    task = lc.get_task(at.selectbox(key="step.byo_task").value)
    assert task.n_in == 2
    gates = fig(at, "step-gates")
    assert [t["name"] for t in gates["data"]] == ["reset r", "update z"]
    run = lc.forward(m, task.generate(np.random.default_rng(0), batch=1).xs)  # seed 0: the page's default
    np.testing.assert_allclose(
        values(gates["data"][0]["y"])[: run.outputs.shape[0]], run.internals["r"][:, 0, 0], atol=1e-9
    )
    assert "unit 1" in gates["layout"]["title"]["text"] and "step" not in at.query_params.get("cfg", "")
    at.segmented_control(key=SOURCE).set_value("built").run()
    assert not at.exception and at.selectbox(key="step.variant").value == "lstm1997"
    assert fig(at, "step-gates")["data"] and not any("does not carry" in c.value for c in at.caption)


def test_the_traces_download_and_a_class_link_that_locks_the_network_keeps_it_built():
    at = uploaded()
    assert any(b.label == "Traces (CSV)" for b in at.get("download_button"))
    from test_classlink import query

    at = open_page("step", query(["Network"]))
    switch = at.segmented_control(key=SOURCE)
    assert switch.disabled and switch.value == "built"
    assert not any(u.key == FILE for u in at.file_uploader)
