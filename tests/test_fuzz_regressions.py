"""What the fuzzing of issue 34 found, kept as plain tests (tests/test_fuzz_readers.py finds them
again only by chance). Each failing example is here with its bytes — the model files in
tests/fixtures/fuzz_found.json, with what the reader raised before the fix — and each must now give
a ``ValueError`` whose message says what is wrong, with warnings turned into errors.

Also here: absurd declared sizes are refused without allocating them (checked with tracemalloc,
which sees NumPy's allocations), and the Paper experiments page's results loader turns a damaged
file into a note instead of an exception.
"""

from __future__ import annotations

import base64
import json
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
from fuzz_inputs import npz_with_header

import lstm_core as lc
from app.experiments import results_file
from app.step.settings import SCHEMA as STEP_SCHEMA
from app.ui import export, urlstate
from lstm_core.io.tensor_files import write_safetensors
from lstm_core.sweeps.cli import load_results
from lstm_core.training import TrainConfig

FOUND = json.loads((Path(__file__).parent / "fixtures" / "fuzz_found.json").read_text())


def refused(read, *args) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError) as e:
            read(*args)
    return str(e.value)


@pytest.mark.parametrize("case", FOUND, ids=[c["case"] for c in FOUND])
def test_model_files_the_fuzz_found(case):
    """Before the fix: ``case["found"]`` (a traceback in the app, or a leaked RuntimeWarning)."""
    msg = refused(lc.load_model_file, base64.b64decode(case["base64"]), case["name"])
    assert case["message_contains"] in msg, msg


ABSURD_SHAPES = [[10**12], [2**62], [10**6, 10**6, 10**6], [2**31, 2**31], [-1], [3, -4]]


@pytest.mark.parametrize("shape", ABSURD_SHAPES, ids=str)
def test_absurd_npy_shapes_are_refused_without_allocating_them(shape):
    data = npz_with_header(shape, "<f8", False, b"\0" * 64, 0, 0)
    tracemalloc.start()
    try:
        msg = refused(lc.load_model_file, data, "model.npz")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000 and ("shape" in msg or "bytes of data" in msg), (peak, msg)


@pytest.mark.parametrize("shape", [[10**8, 10**8, 10**8, 10**8], [10**8, 10**8]], ids=str)
def test_absurd_safetensors_shapes_are_refused_without_allocating_them(shape):
    good = write_safetensors({"lstm.weight_hh_l0": np.zeros((4, 1))})
    n = int.from_bytes(good[:8], "little")
    header = json.loads(good[8 : 8 + n])
    header["lstm.weight_hh_l0"]["shape"] = shape
    text = json.dumps(header).encode()
    tracemalloc.start()
    try:
        msg = refused(
            lc.load_model_file, len(text).to_bytes(8, "little") + text + good[8 + n :], "m.safetensors"
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000 and "needs" in msg, (peak, msg)


def test_weights_near_the_float_limit_whose_bias_sum_overflows_are_refused():
    rng = np.random.default_rng(0)
    sd = {
        "weight_ih_l0": rng.normal(size=(8, 1)),
        "weight_hh_l0": rng.normal(size=(8, 2)),
        "bias_ih_l0": np.full(8, 1.7e308),
        "bias_hh_l0": np.full(8, 1.7e308),
    }
    assert "sum of bias_ih_l0 and bias_hh_l0" in refused(
        lc.load_model_file, write_safetensors(sd, dtype="F64"), "m.safetensors"
    )


def test_an_embedding_fold_that_overflows_is_refused():
    sd = {
        "weight_ih_l0": np.full((8, 2), 1e200),
        "weight_hh_l0": np.zeros((8, 2)),
        "embedding.weight": np.full((3, 2), 1e200),
    }
    assert "overflows" in refused(lc.load_model_file, write_safetensors(sd, dtype="F64"), "m.safetensors")


# An integer of 400 digits is valid JSON and passes Python's 4,300-digit limit, but math.isfinite
# raised OverflowError on it: a link or file with one crashed the page instead of naming the setting.
HUGE = 10**400


def test_a_400_digit_integer_in_a_link_names_the_setting():
    values, errors = urlstate.decode(json.dumps({"seed": HUGE}), STEP_SCHEMA.check)
    assert values is None and "'seed'" in errors[0] and "finite number" in errors[0]


@pytest.mark.parametrize("setting", ["n_in", "n_blocks", "init_range", "recurrent_scale", "seed"])
def test_a_400_digit_integer_in_a_network_configuration_names_the_setting(setting):
    assert setting in refused(
        lc.ModelConfig.from_dict, {"variant": "lstm1997", "n_in": 1, "n_out": 1, setting: HUGE}
    )


def test_a_400_digit_bias_and_learning_rate_are_refused():
    assert "bias['input']" in refused(
        lc.ModelConfig.from_dict, {"variant": "lstm1997", "n_in": 1, "n_out": 1, "bias": {"input": HUGE}}
    )
    assert "lr" in refused(lambda: TrainConfig(lr=HUGE))
    assert "budget" in refused(lambda: TrainConfig(budget=HUGE))


def test_numbers_past_pythons_digit_limit_get_a_plain_message():
    big = b'{"seed": ' + b"9" * 5000 + b"}"
    assert "thousands of digits" in refused(export.parse_config_upload, big, "step", STEP_SCHEMA)
    assert "thousands of digits" in refused(load_results, big)
    assert "not valid JSON" in refused(results_file.parse_json, big.decode())


@pytest.mark.parametrize(
    "text,words",
    [
        ("null", "JSON list of runs"),
        ("[1]", "results[0] is int"),
        ('[{"trials": "ten"}]', "results[0].trials"),
        ('[{"median": Infinity}]', "finite number"),
        ('[{"notes": [1]}]', "notes"),
        ('[{"diagnostics": 3}]', "diagnostics"),
        ('[{"reduced": "yes"}]', "reduced"),
        ('[{"name": 3}]', "name"),
        ('{"results": {}}', "JSON list of runs"),
    ],
)
def test_damaged_results_json_says_which_row_and_field(text, words):
    assert words in refused(results_file.parse_json, text)


def test_the_experiments_page_loader_turns_a_damaged_file_into_a_note(tmp_path):
    (tmp_path / "results.json").write_text('[{"trials": "ten"}]')
    frame, note = results_file.load(tmp_path)
    assert frame.empty and "results.json could not be read" in note and "trials" in note
    (tmp_path / "results.json").write_bytes(b"\xff\xfe")
    assert "could not be read" in results_file.load(tmp_path)[1]


def _sweep_with(path: tuple, value) -> bytes:
    from test_fuzz_readers import SWEEP

    doc = json.loads(json.dumps(SWEEP))
    target = doc
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    "path,words",
    [
        (("networks", 0, "sequences"), "networks[0].sequences"),
        (("networks", 0, "solved_at"), "solved_at"),
        (("sweep", "x", "settings", 0, 0), "finite number"),
    ],
    ids=["row-field", "solved-at", "axis-bias"],
)
def test_a_400_digit_integer_in_a_sweep_file_is_named(path, words):
    """Found by the long fuzz (GATELAB_FUZZ=1): was OverflowError from math.isfinite / float()."""
    assert words in refused(load_results, _sweep_with(path, HUGE))


def test_a_sweep_file_whose_train_settings_leave_out_the_budget_loads_with_the_default():
    """Found by the long fuzz: TrainConfig filled the default in, the page's ``budget`` read the
    file's dict and raised KeyError."""
    from test_fuzz_readers import SWEEP

    doc = json.loads(json.dumps(SWEEP))
    del doc["sweep"]["train"]["budget"]
    res = load_results(json.dumps(doc))
    assert res.budget == TrainConfig().budget and len(res.cells())


@pytest.mark.parametrize("seeds", [[float("inf")], [float("nan")], "ab", [1.5], [-1], [1, 1.0], []])
def test_bad_sweep_seeds_are_named(seeds):
    assert "'seeds'" in refused(load_results, _sweep_with(("sweep", "seeds"), seeds))


def test_a_400_digit_task_setting_in_a_sweep_file_is_named():
    """Found by the long fuzz: check_float's float() overflowed on it (two_sequence noise_var)."""
    assert "noise_var" in refused(load_results, _sweep_with(("sweep", "task_settings", "noise_var"), HUGE))


def test_a_400_digit_median_in_a_results_file_is_refused():
    """Found by the long fuzz: it loaded, and the gallery's f"{v:,.0f}" overflowed."""
    assert "results[0].median" in refused(results_file.parse_json, '[{"median": 1' + "0" * 400 + "}]")
