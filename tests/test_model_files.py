"""Bring your own model: reading a one-layer PyTorch LSTM/GRU from safetensors / .npz (no torch here).

Every bad file is one case of the catalogue (docs/bad_inputs.md, "The core, model files"): a
ValueError whose message says what is wrong and what to do, never a numpy / json / zip message.
"""

from __future__ import annotations

import io
import json
import pickle
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

import lstm_core as lc
from lstm_core.io.tensor_files import read_safetensors, write_safetensors
from lstm_core.tasks.names import ALPHABET

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "names_lstm.safetensors"


def state(kind: str = "lstm", n_in: int = 3, H: int = 4, n_out: int | None = 2, seed: int = 0) -> dict:
    """A torch-layout state_dict (NumPy) of a built model, with an ``fc`` head when n_out is given."""
    m = lc.build(
        kind, n_in=n_in, n_out=n_out or H, n_hidden=H, seed=seed, init_range=0.5, output_activation="identity"
    )
    sd = lc.to_torch(m)
    if n_out:
        sd.update({"fc.weight": m.params["W_out"], "fc.bias": m.params["b_out"]})
    return sd


def st_bytes(sd: dict, meta: dict | None = None, dtype: str = "F64") -> bytes:
    return write_safetensors(sd, meta, dtype=dtype)


def npz_bytes(arrays: dict, **kw) -> bytes:
    b = io.BytesIO()
    np.savez(b, **arrays, **kw)
    return b.getvalue()


def with_header(header: dict, body: bytes = b"") -> bytes:
    text = json.dumps(header).encode()
    return len(text).to_bytes(8, "little") + text + body


def changed(**kw) -> dict:
    sd = state()
    for k, v in kw.items():
        if v is None:
            sd.pop(k)
        else:
            sd[k] = v
    return sd


def nan_state() -> dict:
    sd = state()
    sd["weight_hh_l0"] = sd["weight_hh_l0"].copy()
    sd["weight_hh_l0"][2, 1] = np.nan
    return sd


def renamed(sd: dict, f) -> dict:
    return {f(k): v for k, v in sd.items()}


def torch_zip() -> bytes:
    """What torch.save writes since 1.6: a zip with a pickle inside (made without torch)."""
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        z.writestr("archive/data.pkl", pickle.dumps({"weight_ih_l0": [1.0]}))
        z.writestr("archive/version", "3\n")
    return b.getvalue()


SD = state()
GOOD = st_bytes(SD)
CASES = [
    # id, file name, bytes, words in the message
    ("model-file-pickle", "model.safetensors", pickle.dumps(SD), "pickle"),
    ("model-file-pt-suffix", "model.pt", GOOD, "never unpickles"),
    ("model-file-torch-zip", "model.npz", torch_zip(), "never unpickles"),
    (
        "model-file-npz-object-array",
        "m.npz",
        npz_bytes(SD, vocab=np.array(["a", {"b": 1}], dtype=object)),
        "object array",
    ),
    (
        "model-file-npz-string-vocab",
        "m.npz",
        npz_bytes(SD, vocab_codepoints=np.array(["a", "b"])),
        "integer array",
    ),
    ("model-file-too-short", "m.safetensors", b"\x10\x00\x00", "truncated"),
    ("model-file-truncated-data", "m.safetensors", GOOD[:-10], "truncated"),
    ("model-file-header-beyond-file", "m.safetensors", (10**6).to_bytes(8, "little") + b"{}", "only 2 bytes"),
    ("model-file-header-not-json", "m.safetensors", (5).to_bytes(8, "little") + b"{abc}", "not valid JSON"),
    (
        "model-file-wrong-dtype",
        "m.safetensors",
        with_header({"weight_ih_l0": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]}}, bytes(8)),
        "I64",
    ),
    ("model-file-not-a-model", "notes.txt", b"hello, this is text", "neither safetensors nor .npz"),
    ("model-file-too-big", "m.safetensors", bytes(1_000_001), "at most"),
    ("model-file-missing-key", "m.safetensors", st_bytes(changed(weight_ih_l0=None)), "no 'weight_ih_l0'"),
    (
        "model-file-missing-hh",
        "m.safetensors",
        st_bytes(changed(weight_hh_l0=None)),
        "weight_hh_l0 is missing",
    ),
    ("model-file-one-bias", "m.safetensors", st_bytes(changed(bias_hh_l0=None)), "only one of"),
    (
        "model-file-unknown-name",
        "m.safetensors",
        st_bytes(changed(**{"classifier.weight": np.ones((2, 4))})),
        "does not know",
    ),
    (
        "model-file-shape-mismatch",
        "m.safetensors",
        st_bytes(changed(weight_ih_l0=np.ones((12, 3)))),
        "do not fit together",
    ),
    (
        "model-file-head-mismatch",
        "m.safetensors",
        st_bytes(changed(**{"fc.weight": np.ones((2, 5))})),
        "do not fit together",
    ),
    (
        "model-file-not-lstm-or-gru",
        "m.safetensors",
        st_bytes(changed(weight_hh_l0=np.ones((8, 4)))),
        "an LSTM needs (4H, H)",
    ),
    ("model-file-nan", "m.safetensors", st_bytes(nan_state()), "non-finite value (nan) at index (2, 1)"),
    ("model-file-npz-nan", "m.npz", npz_bytes(nan_state()), "non-finite"),
    ("model-file-too-many-hidden", "m.safetensors", st_bytes(state(H=40, n_out=None)), "40 hidden units"),
    (
        "model-file-two-layers",
        "m.safetensors",
        st_bytes({**SD, **renamed(state(n_in=4, n_out=None), lambda k: k.replace("_l0", "_l1"))}),
        "num_layers=1",
    ),
    (
        "model-file-bidirectional",
        "m.safetensors",
        st_bytes({**SD, **renamed(state(n_out=None), lambda k: k + "_reverse")}),
        "bidirectional=False",
    ),
    (
        "model-file-proj-size",
        "m.safetensors",
        st_bytes({**SD, "weight_hr_l0": np.ones((2, 4))}),
        "proj_size=0",
    ),
    (
        "model-file-vocab-length",
        "m.safetensors",
        st_bytes(SD, {"vocab": "ab"}),
        "one different character per input",
    ),
    ("model-file-bad-activation", "m.safetensors", st_bytes(SD, {"output_activation": "relu"}), "relu"),
]


@pytest.mark.parametrize("name,data,words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_model_file_is_refused_with_a_clear_message(name, data, words):
    with pytest.raises(ValueError) as e:
        lc.load_model_file(data, name, max_hidden=32, max_bytes=1_000_000)
    assert words in str(e.value), str(e.value)


def test_the_catalogue_lists_every_model_file_case():
    text = (ROOT / "docs" / "bad_inputs.md").read_text(encoding="utf-8", errors="replace")
    listed = set(re.findall(r"`([A-Za-z0-9][A-Za-z0-9_-]*)`", text))
    assert not sorted({c[0] for c in CASES} - listed)


@pytest.mark.parametrize("kind", ["lstm", "gru"])
@pytest.mark.parametrize("fmt", ["safetensors", "npz"])
@pytest.mark.parametrize("prefix", ["", "rnn."])
def test_round_trip_of_a_built_model_gives_the_same_outputs(kind, fmt, prefix):
    m = lc.build(kind, n_in=3, n_out=2, n_hidden=4, seed=1, init_range=0.5, output_activation="identity")
    sd = {prefix + k: v for k, v in lc.to_torch(m).items()}
    sd.update({"out.weight": m.params["W_out"], "out.bias": m.params["b_out"]})
    data = st_bytes(sd) if fmt == "safetensors" else npz_bytes(sd)
    got = lc.load_model_file(data, f"model.{fmt}")
    assert (got.variant, got.n_in, got.n_hidden, got.n_out, got.output_layer) == (kind, 3, 4, 2, "out")
    xs = np.random.default_rng(0).normal(size=(7, 2, 3))
    np.testing.assert_allclose(
        lc.forward(got.model, xs).outputs, lc.forward(m, xs).outputs, rtol=0, atol=1e-12
    )


def test_without_a_head_the_outputs_are_the_hidden_states():
    m = lc.build("gru", n_in=2, n_out=3, n_hidden=3, seed=0, output_activation="identity")
    got = lc.load_model_file(npz_bytes(lc.to_torch(m)), "bare.npz")
    run = lc.forward(got.model, np.ones((4, 1, 2)))
    assert got.output_layer is None and "no output layer" in got.summary()
    np.testing.assert_allclose(run.outputs, run.internals["h"], atol=1e-15)


def test_half_precision_and_bfloat16_are_read_exactly():
    x = np.array([[1.5, -2.25], [0.0, 3.0e-3]])
    for dt in ("F32", "F16"):
        t, _ = read_safetensors(write_safetensors({"a": x}, dtype=dt))
        np.testing.assert_array_equal(
            t["a"], x.astype({"F32": np.float32, "F16": np.float16}[dt]).astype(float)
        )
    bf = (np.array([1.5, -2.25], np.float32).view(np.uint32) >> 16).astype("<u2")
    t, _ = read_safetensors(
        with_header({"b": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]}}, bf.tobytes())
    )
    np.testing.assert_array_equal(t["b"], [1.5, -2.25])


def test_vocabulary_from_npz_code_points_and_typed_text_encoding():
    sd = state(n_in=3)
    got = lc.load_model_file(
        npz_bytes(sd, vocab_codepoints=np.array([ord(c) for c in "aβ."], np.uint32)), "v.npz"
    )
    assert got.vocab == "aβ."
    xs = got.encode("β.a")
    assert xs.shape == (3, 1, 3) and xs[:, 0].argmax(-1).tolist() == [1, 2, 0]
    with pytest.raises(ValueError, match="has no 'z'"):
        got.encode("az")


def test_an_embedding_is_folded_into_the_input_weights():
    """nn.Embedding(V, D) -> nn.LSTM(D, H): one-hot inputs through W_ih E^T give the same run."""
    rng = np.random.default_rng(0)
    E = rng.normal(size=(5, 3))
    sd = {**state(n_in=3), "embedding.weight": E}
    got = lc.load_model_file(st_bytes(sd), "e.safetensors")
    plain = lc.load_model_file(st_bytes(state(n_in=3)), "p.safetensors")
    ids = [4, 0, 2, 2]
    a = lc.forward(got.model, np.eye(5)[ids][:, None]).outputs
    b = lc.forward(plain.model, E[ids][:, None]).outputs
    assert got.n_in == 5 and got.embedding == "embedding"
    np.testing.assert_allclose(a, b, atol=1e-12)


def example_run(text: str = ".emma.") -> tuple[lc.LoadedModel, np.ndarray, np.ndarray]:
    data = EXAMPLE.read_bytes()
    got = lc.load_model_file(data, EXAMPLE.name, max_hidden=32)
    tensors, _ = read_safetensors(data)
    ref = lc.from_torch(
        {k.removeprefix("lstm."): v for k, v in tensors.items() if k.startswith("lstm.")},
        output_weight=tensors["fc.weight"],
        output_bias=tensors["fc.bias"],
        output_activation="softmax",
    )
    xs = got.encode(text)
    return got, lc.forward(got.model, xs).outputs, lc.forward(ref, xs).outputs


def test_the_committed_example_loads_and_equals_from_torch_on_its_numbers():
    got, out, ref = example_run()
    assert (got.variant, got.n_in, got.n_out, got.vocab, got.output_activation) == (
        "lstm",
        27,
        27,
        ALPHABET,
        "softmax",
    )
    assert got.n_hidden <= 32 and EXAMPLE.stat().st_size < 100_000
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-15)
    # it learned something: after ".emm" the most likely next letter is a vowel
    assert ALPHABET[int(out[3, 0].argmax())] in "aeiouy"


@pytest.mark.torch_live
def test_the_committed_example_equals_torchs_own_forward():
    import torch  # (torch_live: run by make test-torch, which installs it; a missing torch fails)

    tensors, _ = read_safetensors(EXAMPLE.read_bytes())
    lstm, fc = (
        torch.nn.LSTM(27, tensors["lstm.weight_hh_l0"].shape[1]).double(),
        torch.nn.Linear(1, 1).double(),
    )
    lstm.load_state_dict({k[5:]: torch.from_numpy(v) for k, v in tensors.items() if k.startswith("lstm.")})
    fc.weight = torch.nn.Parameter(torch.from_numpy(tensors["fc.weight"]))
    fc.bias = torch.nn.Parameter(torch.from_numpy(tensors["fc.bias"]))
    got, out, _ = example_run(".olivia.")
    with torch.no_grad():
        want = torch.softmax(fc(lstm(torch.from_numpy(got.encode(".olivia.")))[0]), -1).numpy()
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-12)


@pytest.mark.torch_live
@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_a_batch_first_torch_net_with_embedding_and_head_loads_exactly(kind):
    """batch_first is not in a state_dict: the same file whatever it was; embedding folded exactly."""
    import torch  # (torch_live: run by make test-torch, which installs it; a missing torch fails)

    torch.manual_seed(0)
    emb, rnn, head = (
        torch.nn.Embedding(6, 3).double(),
        getattr(torch.nn, kind)(3, 5, batch_first=True).double(),
        torch.nn.Linear(5, 2).double(),
    )
    sd = {f"embedding.{k}": v for k, v in emb.state_dict().items()}
    sd.update({f"rnn.{k}": v for k, v in rnn.state_dict().items()})
    sd.update({f"head.{k}": v for k, v in head.state_dict().items()})
    got = lc.load_model_file(st_bytes({k: v.numpy() for k, v in sd.items()}), "net.safetensors")
    ids = torch.tensor([[5, 0, 3, 3, 1]])
    with torch.no_grad():
        want = head(rnn(emb(ids))[0])[0].numpy()
    out = lc.forward(got.model, np.eye(6)[ids[0].numpy()][:, None]).outputs[:, 0]
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-12)
