"""The hand-written safetensors reader and writer (lstm_core/io/tensor_files.py) against the reference
implementation, the ``safetensors`` package (a dev-only dependency, requirements-dev.txt).

Both directions: files the reference writes (F32, F64, F16 through ``safetensors.numpy``, BF16
through its low-level ``serialize``, each with ``__metadata__``) read to the same numbers and
metadata through ``read_safetensors`` and ``lc.load_model_file``; files the project writes
(``write_safetensors``, the committed example) load in ``safetensors`` to the same numbers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import safetensors
import safetensors.numpy as st_numpy

import lstm_core as lc
from lstm_core.io.model_files import LoadedModel
from lstm_core.io.tensor_files import read_safetensors, write_safetensors

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "names_lstm.safetensors"
META = {"vocab": "abc", "output_activation": "softmax", "note": "written by the reference"}
NUMPY_TYPES = {"F32": np.float32, "F64": np.float64, "F16": np.float16}


def torch_state(kind: str = "lstm", n_in: int = 3, H: int = 4, n_out: int = 2, seed: int = 0) -> dict:
    """A torch-layout state_dict (NumPy, float64) of a built model with an ``fc`` head."""
    m = lc.build(
        kind, n_in=n_in, n_out=n_out, n_hidden=H, seed=seed, init_range=0.5, output_activation="identity"
    )
    return {**lc.to_torch(m), "fc.weight": m.params["W_out"], "fc.bias": m.params["b_out"]}


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float values -> bfloat16 bit patterns (the top 16 bits of the float32, truncated)."""
    return (np.ascontiguousarray(x, dtype="<f4").view("<u4") >> 16).astype("<u2")


def reference_bf16(tensors: dict[str, np.ndarray], metadata: dict[str, str]) -> bytes:
    """A BF16 file written by the reference (safetensors.numpy has no bfloat16: numpy has none)."""
    bits = {k: bf16_bits(v) for k, v in tensors.items()}  # kept alive while serialize reads them
    specs = {
        k: safetensors.TensorSpec(
            dtype="bfloat16", shape=list(b.shape), data_ptr=b.ctypes.data, data_len=b.nbytes
        )
        for k, b in bits.items()
    }
    return bytes(safetensors.serialize(specs, metadata=metadata))


def params_equal(a: LoadedModel, b: LoadedModel) -> None:
    pa, pb = a.model.params, b.model.params
    assert pa.keys() == pb.keys()
    for k in pa:
        np.testing.assert_array_equal(pa[k], pb[k], err_msg=k)


@pytest.mark.parametrize("dtype", sorted(NUMPY_TYPES))
@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_files_the_reference_writes_read_the_same(kind, dtype):
    sd = {k: v.astype(NUMPY_TYPES[dtype]) for k, v in torch_state(kind).items()}
    data = st_numpy.save(sd, metadata=META)
    tensors, meta = read_safetensors(data)
    assert meta == META
    assert tensors.keys() == sd.keys()
    for k, v in sd.items():
        assert tensors[k].dtype == np.float64 and tensors[k].shape == v.shape
        np.testing.assert_array_equal(tensors[k], v.astype(np.float64), err_msg=k)
    loaded = lc.load_model_file(data, f"model-{dtype}.safetensors")
    assert (loaded.variant, loaded.vocab, loaded.output_activation) == (kind, "abc", "softmax")
    # the same network as the project's own file of the same numbers
    params_equal(loaded, lc.load_model_file(write_safetensors(sd, META, dtype=dtype), "own.safetensors"))


def test_bfloat16_files_the_reference_writes_read_the_same():
    sd = torch_state("lstm")
    data = reference_bf16(sd, META)
    tensors, meta = read_safetensors(data)
    assert meta == META
    for k, v in sd.items():
        want = (bf16_bits(v).astype("<u4") << 16).view("<f4").astype(np.float64)
        np.testing.assert_array_equal(tensors[k], want, err_msg=k)
        assert np.allclose(tensors[k], v, rtol=2**-7, atol=0)  # bfloat16: 8 bits of mantissa
    exact = reference_bf16({"w": np.array([1.0, -2.0, 0.5, 3.0, -0.15625])}, {})
    np.testing.assert_array_equal(read_safetensors(exact)[0]["w"], [1.0, -2.0, 0.5, 3.0, -0.15625])
    assert lc.load_model_file(data, "model-bf16.safetensors").vocab == "abc"


@pytest.mark.parametrize("dtype", sorted(NUMPY_TYPES))
def test_files_the_project_writes_load_in_safetensors(dtype, tmp_path):
    sd = torch_state("gru")
    data = write_safetensors(sd, META, dtype=dtype)
    back = st_numpy.load(data)
    assert back.keys() == sd.keys()
    for k, v in sd.items():
        assert back[k].dtype == NUMPY_TYPES[dtype]
        np.testing.assert_array_equal(back[k], v.astype(NUMPY_TYPES[dtype]), err_msg=k)
    path = tmp_path / "model.safetensors"
    path.write_bytes(data)
    with safetensors.safe_open(str(path), framework="numpy") as f:
        assert f.metadata() == META
        assert sorted(f.keys()) == sorted(sd)


def test_the_committed_example_loads_in_safetensors_to_the_same_numbers(tmp_path):
    data = EXAMPLE.read_bytes()
    ours, meta = read_safetensors(data)
    theirs = st_numpy.load(data)
    assert theirs.keys() == ours.keys()
    for k in ours:
        np.testing.assert_array_equal(theirs[k].astype(np.float64), ours[k], err_msg=k)
    path = tmp_path / EXAMPLE.name
    path.write_bytes(data)
    with safetensors.safe_open(str(path), framework="numpy") as f:
        assert f.metadata() == meta
