"""Every reader of a file or link a user hands the app, fuzzed with Hypothesis (issue 34).

For each reader — uploaded model files (.npz and safetensors), imported configuration files, the
``cfg`` link parameter of every page, hand-typed sequences, Bias lab sweep files, the Paper
experiments page's results files — damaged versions of a valid input (tests/fuzz_inputs.py) must
either load cleanly or raise ``ValueError`` with a message; any other exception, and any warning
(turned into an error here), fails. A clean load must also be usable (a model's summary, a
sweep's heat-map cells, the experiments gallery).

Bounded time and memory: every input is capped in size by the strategies, each example has a
Hypothesis deadline (the ``gatelab`` profile in tests/conftest.py), and absurd declared sizes are
checked against an allocation cap in tests/test_fuzz_regressions.py. The normal run draws a few
hundred derandomised examples per reader; ``GATELAB_FUZZ=1`` (or ``--hypothesis-profile=fuzz``)
draws 10,000 per test — the long fuzz of docs/bad_inputs.md.
"""

from __future__ import annotations

import base64
import io
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from fuzz_inputs import anchors_of, damaged_bytes, damaged_json, damaged_text, npz_with_header
from hypothesis import event, given
from hypothesis import strategies as st

import lstm_core as lc
from app.experiments import results_file
from app.experiments.figures import gallery_table
from app.ui import export, urlstate
from lstm_core.io.tensor_files import write_safetensors
from lstm_core.sweeps.cli import load_results
from lstm_core.training import PRESETS

ROOT = Path(__file__).resolve().parents[1]


def refused_or_loaded(read, *args):
    """``read(*args)`` with warnings as errors: its result, or None when it raised ValueError."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            got = read(*args)
        except ValueError as e:
            assert len(str(e)) > 15, f"a message a student can act on, not {str(e)!r}"
            event("refused")
            return None
    event("loaded")
    return got


# ----------------------------------------------------------------------------- model files
def state_dict(H: int = 3, n_in: int = 4, gates: int = 4, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "lstm.weight_ih_l0": rng.normal(size=(gates * H, n_in)),
        "lstm.weight_hh_l0": rng.normal(size=(gates * H, H)),
        "lstm.bias_ih_l0": rng.normal(size=gates * H),
        "lstm.bias_hh_l0": rng.normal(size=gates * H),
        "fc.weight": rng.normal(size=(n_in, H)),
        "fc.bias": rng.normal(size=n_in),
    }


def npz_bytes(arrays: dict, compressed: bool) -> bytes:
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **arrays)
    return buf.getvalue()


VOCAB = np.array([ord(c) for c in "abcd"], dtype=np.uint32)
GRU = {
    **{k.replace("lstm.", "rnn."): v for k, v in state_dict(gates=3).items()},
    "embedding.weight": np.eye(4),
}
NPZ_SEEDS = [
    npz_bytes({**state_dict(), "vocab_codepoints": VOCAB}, compressed=True),
    npz_bytes({k: v.astype(np.float32) for k, v in GRU.items()}, compressed=False),
]
ZIP_MARKS = (b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06", b"\x93NUMPY")
META = {"vocab": "abcd", "output_activation": "softmax"}
BF16 = {k: (v.astype("<f4").view("<u4") >> 16).astype("<u2") for k, v in state_dict().items()}  # top 16 bits
SAFE_SEEDS = [write_safetensors(state_dict(), META, dtype=d) for d in ("F32", "F16", "F64")] + [
    write_safetensors(BF16, META, dtype="BF16")
]


def check_model_file(data: bytes, name: str) -> None:
    got = refused_or_loaded(lc.load_model_file, data, name)
    if got is not None:
        assert got.summary() and all(np.isfinite(v).all() for v in got.model.params.values())


@given(st.data())
def test_damaged_npz_files_are_refused_with_a_message_or_load(data):
    seed = data.draw(st.sampled_from(NPZ_SEEDS))
    check_model_file(data.draw(damaged_bytes(seed, anchors_of(seed, *ZIP_MARKS))), "model.npz")


@given(
    shape=st.lists(st.sampled_from([0, 1, 3, 4, 12, -1, 10**6, 10**12, 2**62]) | st.integers(), max_size=5),
    descr=st.sampled_from(
        ["<f8", "<f4", ">f8", "<f2", "|O", "<i8", "<U3", "|V8", "<c16", "[('a', '<f8')]", "bogus"]
    ),
    fortran=st.booleans(),
    payload=st.binary(max_size=512),
    method=st.sampled_from([0, 8, 12, 14, 99]),
    flags=st.sampled_from([0, 0, 1, 0x40, 0x20]),
)
def test_npz_with_absurd_headers_is_refused_without_allocating(shape, descr, fortran, payload, method, flags):
    check_model_file(npz_with_header(shape, descr, fortran, payload, method, flags), "model.npz")


@given(st.data())
def test_damaged_safetensors_files_are_refused_with_a_message_or_load(data):
    seed = data.draw(st.sampled_from(SAFE_SEEDS))
    n = int.from_bytes(seed[:8], "little")
    check_model_file(data.draw(damaged_bytes(seed, (0, 8, 8 + n // 2, 8 + n))), "model.safetensors")


@given(st.data())
def test_safetensors_with_damaged_headers_or_random_weights(data):
    seed = data.draw(st.sampled_from(SAFE_SEEDS))
    n = int.from_bytes(seed[:8], "little")
    header, body = json.loads(seed[8 : 8 + n]), seed[8 + n :]
    if data.draw(st.booleans()):
        text = data.draw(damaged_json(header)).encode("utf-8", "surrogatepass")
    else:  # every bit pattern as weights: signalling NaNs, infinities, huge values
        text, body = seed[8 : 8 + n], data.draw(st.binary(min_size=len(body), max_size=len(body)))
    size = (
        len(text) if data.draw(st.integers(0, 4)) else data.draw(st.sampled_from([0, len(text) - 1, 2**63]))
    )
    check_model_file(size.to_bytes(8, "little") + text + body, "model.safetensors")


# ----------------------------------------------------------------------------- configuration files
# page -> (settings module, from_model as its io_panel passes it)
PAGES = {
    "step": "app.step.settings",
    "train": "app.train.settings",
    "gradient_flow": "app.gradient_flow.flow",
    "bias_lab": "app.bias_lab.settings",
    "experiments": "app.experiments.run",
    "theory": "pages.theory",
    "lessons": "app.lessons.view",
}
FROM_MODEL = {"step", "train"}  # the pages that map a bare network onto their settings


def schema_of(page: str):
    mod = __import__(PAGES[page], fromlist=["SCHEMA"])
    return mod.SCHEMA, mod.DEFAULTS


def valid_document(page: str) -> dict:
    schema, defaults = schema_of(page)
    model = lc.ModelConfig(variant="lstm1997", n_in=2, n_out=1).to_dict() if page in FROM_MODEL else None
    return json.loads(
        export.config_document(page, None if model is None else lc.ModelConfig.from_dict(model), defaults)
    )


def import_config(page: str, data: bytes):
    schema, _ = schema_of(page)
    from_model = export.values_from_model if page in FROM_MODEL else None
    return export.parse_config_upload(data, page, schema, from_model)


@given(st.data())
def test_damaged_configuration_files_are_refused_with_a_message_or_load(data):
    page = data.draw(st.sampled_from(sorted(PAGES)))
    doc = valid_document(page)
    if data.draw(st.booleans()):
        raw = data.draw(damaged_json(doc)).encode("utf-8", "surrogatepass")
    else:
        raw = data.draw(damaged_bytes(json.dumps(doc).encode()))
    got = refused_or_loaded(import_config, page, raw)
    if got is not None:
        values, notes = got
        assert isinstance(values, dict) and all(isinstance(n, str) for n in notes)


# ----------------------------------------------------------------------------- cfg links
@given(st.data())
def test_damaged_cfg_links_give_messages_on_every_page(data):
    page = data.draw(st.sampled_from(sorted(PAGES)))
    schema, defaults = schema_of(page)
    good = urlstate.encode(defaults, {})
    how = data.draw(st.sampled_from(["json", "plain-json", "text"]))
    if how == "text":
        raw = data.draw(damaged_text(good))
    else:
        text = data.draw(damaged_json(defaults))
        raw = (
            text
            if how == "plain-json"
            else base64.urlsafe_b64encode(text.encode("utf-8", "surrogatepass")).decode().rstrip("=")
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values, errors = urlstate.decode(raw, schema.check)  # never raises, by its contract
        shown = urlstate.readable(raw)
    assert (values is None) == bool(errors) and all(isinstance(e, str) and e for e in errors)
    assert isinstance(shown, str) and len(shown) <= 400


# ----------------------------------------------------------------------------- typed sequences
tokens = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers().map(str),
    st.sampled_from(["1e400", "-1e400", "nan", "inf", "−3", "1_000", "0x10", "9" * 5000, "", "☃"]),
    st.text(max_size=4),
)
separators = st.sampled_from([" ", ",", ";", "\t", "\n", "\r\n", ", ", "\u2028", "\x00"])


@given(st.lists(st.tuples(tokens, separators), max_size=60), st.integers(1, 600))
def test_typed_sequences_are_numbers_or_a_message(parts, repeat):
    text = "".join(t + s for t, s in parts)
    if repeat > 500:
        text = text * (repeat - 500)  # long pastes, up to 100 copies
    got = refused_or_loaded(export.parse_sequence, text)
    if got is not None:
        assert got.ndim == 2 and got.size and np.isfinite(got).all()


# ----------------------------------------------------------------------------- Bias lab sweep files
def small_sweep() -> dict:
    doc = json.loads((ROOT / "docs" / "bias_baseline.json").read_text())
    keep = doc["sweep"]["seeds"][:2]
    return {
        **doc,
        "sweep": {**doc["sweep"], "seeds": keep},
        "networks": [r for r in doc["networks"] if r["seed"] in keep],
    }


SWEEP = small_sweep()


@given(st.data())
def test_damaged_sweep_files_are_refused_with_a_message_or_load(data):
    if data.draw(st.booleans()):
        raw = data.draw(damaged_json(SWEEP)).encode("utf-8", "surrogatepass")
    else:
        raw = data.draw(damaged_bytes(json.dumps(SWEEP).encode()))
    got = refused_or_loaded(load_results, raw)
    if got is not None:  # what the Bias lab draws from it
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert len(got.cells()) and got.labels("x") and got.budget >= 0
            got.labels("y")


# ----------------------------------------------------------------------------- results files
RESULTS_JSON = json.loads((ROOT / "docs" / "results.json").read_text())[:3]
RESULTS_MD = (ROOT / "docs" / "results.md").read_text()
MD_TABLE = "\n".join(l for l in RESULTS_MD.splitlines() if "lstm_core.experiments" in l and l.startswith("|"))


def usable(frame: pd.DataFrame) -> pd.DataFrame:
    """What the Paper experiments page does with a loaded results table."""
    assert list(frame.columns) == results_file.COLUMNS
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gallery_table(PRESETS, frame)
        for name in PRESETS:
            results_file.for_preset(frame, name)
    return frame


@given(st.data())
def test_damaged_results_json_is_refused_with_a_message_or_loads(data):
    if data.draw(st.booleans()):
        text = data.draw(damaged_json(RESULTS_JSON))
    else:
        text = data.draw(damaged_bytes(json.dumps(RESULTS_JSON).encode())).decode("utf-8", "replace")
    got = refused_or_loaded(results_file.parse_json, text)
    if got is not None:
        usable(got)


@given(st.data())
def test_damaged_results_markdown_is_refused_with_a_message_or_loads(data):
    got = refused_or_loaded(results_file.parse_markdown, data.draw(damaged_text(MD_TABLE)))
    if got is not None:
        usable(got)


# ----------------------------------------------------------------------------- numbers that break arithmetic
# Every JSON reader with only its numbers damaged: 400-digit integers (math.isfinite and float()
# overflow on them), ±1.7e308, the smallest subnormal, NaN, ±inf, 5,000-digit integers, non-numbers.
def _cfg_link(text: str):
    values, errors = urlstate.decode(text, schema_of("train")[0].check)
    if errors:
        raise ValueError("; ".join(errors))
    return values


JSON_READERS = {
    "config-step": (valid_document("step"), lambda b: import_config("step", b)),
    "config-train-bare-network": (
        lc.ModelConfig(variant="lstm2000", n_in=2, n_out=1).to_dict(),
        lambda b: import_config("train", b),
    ),
    "cfg-link-train": (schema_of("train")[1], lambda b: _cfg_link(b.decode("utf-8", "surrogatepass"))),
    "sweep": (SWEEP, load_results),
    "results-json": (
        RESULTS_JSON,
        lambda b: usable(results_file.parse_json(b.decode("utf-8", "surrogatepass"))),
    ),
}


@pytest.mark.parametrize("reader", sorted(JSON_READERS))
@given(data=st.data())
def test_extreme_numbers_in_every_json_reader_are_refused_or_load(reader, data):
    doc, read = JSON_READERS[reader]
    refused_or_loaded(read, data.draw(damaged_json(doc, extremes_only=True)).encode("utf-8", "surrogatepass"))


def test_the_seeds_themselves_load():
    """The fuzz starts from valid inputs: each loads cleanly (else every example is a refusal)."""
    for seed in NPZ_SEEDS:
        assert lc.load_model_file(seed, "m.npz").n_hidden == 3
    for seed in SAFE_SEEDS:
        assert lc.load_model_file(seed, "m.safetensors").vocab == "abcd"
    for page in PAGES:
        assert import_config(page, json.dumps(valid_document(page)).encode())[0]
        schema, defaults = schema_of(page)
        assert urlstate.decode(urlstate.encode(defaults, {}), schema.check)[1] == []
    assert len(load_results(json.dumps(SWEEP)).results) == len(SWEEP["networks"])
    assert len(results_file.parse_json(json.dumps(RESULTS_JSON))) == 3
    assert len(results_file.parse_markdown(MD_TABLE)) >= 3
    assert export.parse_sequence("1 2 3").shape == (3, 1)
