"""Read a trained one-layer PyTorch ``nn.LSTM`` / ``nn.GRU`` from a safetensors or ``.npz`` file.

Never pickle: a user's file is untrusted, and unpickling runs code. So no ``torch.load`` and no
``np.load(allow_pickle=True)``; safetensors is parsed here by hand (no ``safetensors`` package at run time;
tests/test_safetensors_reference.py checks reader and writer against it, a dev-only dependency):

    8 bytes   little-endian uint64 N, the length of the JSON header
    N bytes   JSON: {"<name>": {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, ...,
                     "__metadata__": {"<key>": "<string>", ...}}   (offsets into the data part)
    rest      the tensors' raw little-endian bytes

Accepted names (a ``state_dict`` of a module holding the recurrent layer and a linear head):

* the recurrent layer: ``weight_ih_l0``, ``weight_hh_l0``, ``bias_ih_l0``, ``bias_hh_l0``, either
  bare (``nn.LSTM(...).state_dict()``) or under one prefix (``lstm.weight_ih_l0``, ``rnn.…``);
  ``weight_ih_l0`` with 4H rows is an LSTM, with 3H rows a GRU (H = columns of ``weight_hh_l0``);
  biases may both be absent (``bias=False``);
* an optional output layer ``nn.Linear(H, n_out)``: ``fc``, ``out``, ``linear``, ``head``,
  ``decoder`` or ``output`` + ``.weight`` (and optionally ``.bias``);
* an optional ``nn.Embedding(V, D)`` in front, ``embedding.weight`` or ``embed.weight``: it is
  folded into the input weights (one-hot x → E^T x, so W_ih E^T takes V one-hot inputs), exact;
* the character vocabulary (for typed text): safetensors ``__metadata__`` ``{"vocab": "abc…"}``,
  or in an npz a uint32 array ``vocab_codepoints`` (a string array would need pickle);
  ``__metadata__`` may also say ``"output_activation"``: identity (default), softmax, sigmoid, tanh.

``batch_first`` is not stored in a state_dict and changes nothing here. Every problem raises
``ValueError`` with a message that says what to change.
"""

from __future__ import annotations

import io
import json
import lzma
import math
import struct
import zipfile
import zlib
from dataclasses import dataclass

import numpy as np

from ..config import LIMITS
from ..model import Model
from .torch_io import LAYOUT, from_torch

DTYPES = {"F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2"), "BF16": np.dtype("<u2")}
RNN_KEYS = ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0")
HEAD_NAMES = ("fc", "out", "linear", "head", "decoder", "output")
EMBED_NAMES = ("embedding", "embed")
ACTIVATIONS = ("identity", "softmax", "sigmoid", "tanh")
PICKLE_SUFFIXES = (".pt", ".pth", ".pkl", ".pickle", ".ckpt", ".bin", ".tar")
MAX_BYTES = 64_000_000  # the core's own cap; the app passes its smaller one
HOW_TO_EXPORT = (
    "save the state_dict as safetensors (`safetensors.torch.save_file(net.state_dict(), "
    "'model.safetensors')`) or NumPy (`np.savez('model.npz', **{k: v.numpy() for k, v in "
    "net.state_dict().items()})`)"
)


@dataclass(frozen=True)
class LoadedModel:
    """A model read from a file, with what the page needs to feed and describe it."""

    model: Model
    variant: str
    n_in: int
    n_hidden: int
    n_out: int
    output_layer: str | None  # the head's name in the file (None: outputs are h(t))
    vocab: str | None  # one character per input unit, if the file says
    output_activation: str
    file_format: str
    embedding: str | None = None

    def summary(self) -> str:
        head = (
            f"output layer `{self.output_layer}` ({self.n_hidden} → {self.n_out}, {self.output_activation})"
            if self.output_layer
            else "no output layer (the outputs shown are h(t))"
        )
        vocab = (
            f"vocabulary of {len(self.vocab)} characters"
            if self.vocab
            else "no vocabulary (inputs come from a task)"
        )
        emb = f", embedding `{self.embedding}` folded into the input weights" if self.embedding else ""
        return (
            f"{self.file_format}: one-layer {self.variant.upper()}, {self.n_in} inputs, "
            f"{self.n_hidden} hidden units, {head}{emb}; {vocab}"
        )

    def encode(self, text: str) -> np.ndarray:
        """Typed characters -> one-hot inputs (T, 1, n_in) in the file's vocabulary."""
        if not self.vocab:
            raise ValueError(
                "this model file has no vocabulary, so text cannot be encoded; pick a task "
                "(or save the model with __metadata__ {\"vocab\": \"…\"})"
            )
        if not text:
            raise ValueError("type at least one character")
        index = {c: i for i, c in enumerate(self.vocab)}
        bad = sorted({c for c in text if c not in index})
        if bad:
            raise ValueError(
                f"the model's vocabulary has no {', '.join(map(repr, bad))}; it knows {self.vocab!r}"
            )
        return np.eye(self.n_in)[[index[c] for c in text]][:, None, :]


# ----------------------------------------------------------------------------- file formats
def _looks_like_safetensors(data: bytes) -> bool:
    return len(data) >= 9 and int.from_bytes(data[:8], "little") <= len(data) - 8 and data[8:9] == b"{"


def _check_not_pickle(data: bytes, name: str) -> None:
    # A pickle starts with PROTO (0x80) and a protocol number; a safetensors header length can
    # start with 0x80 too (a 384-byte header), so a plausible safetensors file is not mistaken.
    pickled = data[:1] == b"\x80" and data[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05")
    if name.lower().endswith(PICKLE_SUFFIXES) or (pickled and not _looks_like_safetensors(data)):
        raise ValueError(
            f"{name or 'the file'} is a PyTorch/pickle file (torch.save); Gate Lab never "
            f"unpickles uploads because loading a pickle can run any code on the server — {HOW_TO_EXPORT}"
        )


def _float64(raw: np.ndarray) -> np.ndarray:
    """Raw file floats as float64. A signalling-NaN bit pattern raises the CPU's "invalid" flag when
    converted (NumPy's RuntimeWarning "invalid value encountered in cast"); it stays a NaN, which
    ``parse_state`` refuses with a message naming the tensor and index, so the flag is not news."""
    with np.errstate(invalid="ignore"):
        return raw.astype(np.float64)


def read_safetensors(data: bytes) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Tensors (float64) and ``__metadata__`` of a safetensors file's bytes."""
    if len(data) < 8:
        raise ValueError(
            f"the file is {len(data)} bytes, shorter than a safetensors header (8 bytes "
            "of header length); it is truncated or not a safetensors file"
        )
    n = int.from_bytes(data[:8], "little")
    if n > len(data) - 8:
        raise ValueError(
            f"the safetensors header says it is {n:,} bytes long but the file has only "
            f"{len(data) - 8:,} bytes after the length; the file is truncated or not safetensors"
        )
    try:
        header = json.loads(data[8 : 8 + n].decode("utf-8"))
    except (ValueError, RecursionError):  # bad UTF-8 or JSON, an integer of over 4,300 digits
        raise ValueError(
            "the safetensors header is not valid JSON; the file is damaged or not safetensors"
        ) from None
    if not isinstance(header, dict):
        raise ValueError("the safetensors header must be a JSON object of tensor names")
    meta = header.pop("__metadata__", None) or {}
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise ValueError("the safetensors __metadata__ must map names to strings, e.g. {\"vocab\": \"abc\"}")
    body = memoryview(data)[8 + n :]
    out = {}
    for key, info in header.items():
        if not isinstance(info, dict) or not {"dtype", "shape", "data_offsets"} <= set(info):
            raise ValueError(f"tensor {key!r}: the header entry needs dtype, shape and data_offsets")
        dt = DTYPES.get(info["dtype"]) if isinstance(info["dtype"], str) else None
        if dt is None:
            raise ValueError(
                f"tensor {key!r} has dtype {info['dtype']!r}; Gate Lab reads float weights "
                f"({', '.join(DTYPES)}) — convert with .float() before saving"
            )
        shape, offs = info["shape"], info["data_offsets"]
        if (
            not isinstance(shape, list)
            or len(shape) > 4
            or not all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= 10**8 for d in shape)
        ):
            raise ValueError(f"tensor {key!r}: shape {shape!r} is not a list of sizes")
        if (
            not isinstance(offs, list)
            or len(offs) != 2
            or not all(isinstance(o, int) and not isinstance(o, bool) for o in offs)
            or not 0 <= offs[0] <= offs[1]
        ):
            raise ValueError(f"tensor {key!r}: data_offsets {offs!r} must be [begin, end] with begin ≤ end")
        size = math.prod(shape) * dt.itemsize
        if offs[1] - offs[0] != size or offs[1] > len(body):
            raise ValueError(
                f"tensor {key!r}: {info['dtype']} {shape} needs {size:,} bytes but its data_offsets "
                f"{offs} give {offs[1] - offs[0]:,} (the data part has {len(body):,}); the file is "
                "truncated or damaged"
            )
        raw = np.frombuffer(body[offs[0] : offs[1]], dtype=dt)
        if info["dtype"] == "BF16":  # bfloat16 = the top 16 bits of a float32
            raw = (raw.astype(np.uint32) << 16).view("<f4")
        out[key] = _float64(raw).reshape(shape)
    return out, meta


# What the standard library raises on a damaged zip besides BadZipFile: a header that points past
# the end or holds absurd numbers (struct.error, OverflowError, OSError on a bad seek), a member
# compressed with a method or encryption it cannot read (NotImplementedError), a member marked
# encrypted (RuntimeError: "password required"), broken deflate / bzip2 / LZMA data (zlib.error,
# OSError, EOFError, lzma.LZMAError). Each means "this file is damaged", never a bug of ours.
ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    struct.error,
    OverflowError,
    OSError,
    EOFError,
    NotImplementedError,
    RuntimeError,
    zlib.error,
    lzma.LZMAError,
)
ZIP_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}


def _npy(key: str, raw: bytes) -> np.ndarray:
    """One ``.npy`` member's array, its header checked against its size before anything is
    allocated (a damaged header may claim a shape of 10^18 elements); never pickle."""
    f = io.BytesIO(raw)
    try:
        version = np.lib.format.read_magic(f)
        if version not in ((1, 0), (2, 0)):
            raise ValueError(f"format version {version}")
        read_header = (
            np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        )
        shape, fortran, dtype = read_header(f)
    except (ValueError, SyntaxError, RecursionError, MemoryError) as e:
        raise ValueError(
            f"array {key!r} in the .npz has a damaged NumPy header ({e}); save it again with np.savez"
        ) from None
    if dtype.hasobject:
        raise ValueError(
            "the .npz holds an object array (e.g. strings or a dict), which needs pickle to "
            "read; Gate Lab refuses pickle — save only float arrays, and a vocabulary as "
            "uint32 code points `vocab_codepoints`"
        )
    if dtype.fields is not None or dtype.subdtype is not None or min(shape, default=0) < 0:
        raise ValueError(
            f"array {key!r} has dtype {dtype} and shape {shape}; weights must be plain floating point arrays"
        )
    data = raw[f.tell() :]
    need = math.prod(shape) * dtype.itemsize
    if need != len(data):
        raise ValueError(
            f"array {key!r} says it holds {dtype} {shape} ({need:,} bytes) but has {len(data):,} "
            "bytes of data; the .npz is truncated or damaged"
        )
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")


def read_npz(data: bytes, max_bytes: int = MAX_BYTES) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Arrays of an ``.npz`` (never pickle); ``vocab_codepoints`` becomes metadata ``vocab``."""
    damaged = "the .npz file is not a valid zip archive (truncated or damaged)"
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except ZIP_ERRORS:
        raise ValueError(damaged) from None
    out, meta = {}, {}
    with zf:
        infos = zf.infolist()
        names = [i.filename for i in infos]
        if any(n.endswith(".pkl") for n in names):
            raise ValueError(
                f"this zip holds pickled data ({[n for n in names if n.endswith('.pkl')][0]}): it is a "
                f"torch.save file, which Gate Lab never unpickles — {HOW_TO_EXPORT}"
            )
        # A zip bomb would expand far past the upload size: check before decompressing.
        total = sum(i.file_size for i in infos)
        if total > max_bytes:
            raise ValueError(f"the .npz expands to {total:,} bytes; at most {max_bytes:,} are accepted here")
        bad = [n for n in names if not n.endswith(".npy")]
        if bad:
            raise ValueError(
                f"the .npz holds {bad[0]!r}, which is not a NumPy array (.npy); save with np.savez"
            )
        for info in infos:
            # Checked here, not left to zipfile: its NotImplementedError / RuntimeError say less.
            if info.flag_bits & 0x61 or info.compress_type not in ZIP_METHODS:
                raise ValueError(
                    f"{info.filename!r} in the .npz is encrypted or compressed in a way NumPy never "
                    f"writes (zip method {info.compress_type}); save it again with np.savez"
                )
            try:
                raw = zf.read(info)
            except ZIP_ERRORS as e:
                raise ValueError(
                    f"{info.filename!r} in the .npz could not be read ({e or type(e).__name__}); "
                    "the file is truncated or damaged"
                ) from None
            out[info.filename[:-4]] = _npy(info.filename[:-4], raw)
    cps = out.pop("vocab_codepoints", None)
    if cps is not None:
        if cps.ndim != 1 or cps.dtype.kind not in "ui" or cps.size == 0:
            raise ValueError(
                "vocab_codepoints must be a 1-D integer array of Unicode code points "
                "(np.array([ord(c) for c in vocab], dtype=np.uint32))"
            )
        if cps.min() < 0 or cps.max() > 0x10FFFF or ((cps >= 0xD800) & (cps <= 0xDFFF)).any():
            raise ValueError("vocab_codepoints holds a number that is not a Unicode character")
        meta["vocab"] = "".join(map(chr, cps.tolist()))
    for key, v in list(out.items()):
        if v.dtype.kind != "f":
            raise ValueError(f"array {key!r} has dtype {v.dtype}; weights must be floating point")
        out[key] = _float64(v)
    return out, meta


def write_safetensors(
    tensors: dict[str, np.ndarray], metadata: dict[str, str] | None = None, dtype: str = "F32"
) -> bytes:
    """Bytes of a safetensors file (for the example script and tests; the format above)."""
    header: dict = {"__metadata__": dict(metadata)} if metadata else {}
    chunks, offset = [], 0
    for key in sorted(tensors):
        raw = np.ascontiguousarray(tensors[key], dtype=DTYPES[dtype]).tobytes()
        header[key] = {
            "dtype": dtype,
            "shape": list(np.shape(tensors[key])),
            "data_offsets": [offset, offset + len(raw)],
        }
        chunks.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)  # the format pads the header to 8 bytes with spaces
    return len(text).to_bytes(8, "little") + text + b"".join(chunks)


# ----------------------------------------------------------------------------- names and shapes
def _rnn_prefix(keys: list[str]) -> str:
    if any(k.endswith("_reverse") for k in keys):
        raise ValueError(
            "the recurrent layer is bidirectional (keys ending in _reverse); Gate Lab steps one "
            "direction through time — export an nn.LSTM/nn.GRU with bidirectional=False"
        )
    if any("weight_hr_l0" in k for k in keys):
        raise ValueError(
            "the LSTM has proj_size > 0 (weight_hr_l0); Gate Lab shows the standard LSTM — "
            "export one with proj_size=0"
        )
    deep = sorted({k.rsplit("_l", 1)[1] for k in keys if "_ih_l" in k or "_hh_l" in k} - {"0"})
    if deep:
        raise ValueError(
            f"the file has {len(deep) + 1} recurrent layers (keys …_l{deep[0]}); Gate Lab shows "
            "one layer — export an nn.LSTM/nn.GRU with num_layers=1"
        )
    prefixes = sorted({k[: -len("weight_ih_l0")] for k in keys if k.endswith("weight_ih_l0")})
    if not prefixes:
        raise ValueError(
            f"no 'weight_ih_l0' in the file (it holds {sorted(keys)[:8]}); expected the state_dict "
            "names of a one-layer nn.LSTM / nn.GRU: weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0 "
            "(bare or under one prefix such as lstm.)"
        )
    if len(prefixes) > 1:
        raise ValueError(
            f"the file holds {len(prefixes)} recurrent layers ({', '.join(p + 'weight_ih_l0' for p in prefixes)}); "
            "upload a file with one"
        )
    p = prefixes[0]
    if p and not p.endswith("."):
        raise ValueError(
            f"cannot read the key {p}weight_ih_l0: a prefix must end with a dot (lstm.weight_ih_l0)"
        )
    return p


def _pick(
    tensors: dict, names: tuple[str, ...], suffix: str, what: str
) -> tuple[str | None, np.ndarray | None]:
    found = [n for n in names if f"{n}.{suffix}" in tensors]
    if len(found) > 1:
        raise ValueError(f"the file has more than one {what} ({', '.join(found)}); keep one")
    return (found[0], tensors[f"{found[0]}.{suffix}"]) if found else (None, None)


def _check_finite(arrays: dict, keys: list[str], what: str = "") -> None:
    for k in keys:
        v = arrays[k]
        if not np.isfinite(v).all():
            bad = np.argwhere(~np.isfinite(v))[0]
            raise ValueError(
                f"{k}{what} holds a non-finite value ({v[tuple(bad)]}) at index "
                f"{tuple(int(i) for i in bad)}; the network diverged in training — export a "
                "checkpoint from before"
            )


def _shape(key: str, v: np.ndarray, want: tuple, why: str) -> None:
    if v.shape != want:
        raise ValueError(
            f"{key} has shape {tuple(v.shape)} but {why} needs {want}; the shapes do not fit together"
        )


def parse_state(
    tensors: dict[str, np.ndarray],
    meta: dict[str, str],
    file_format: str,
    *,
    max_hidden: int = LIMITS["n_hidden"],
    max_inputs: int = LIMITS["n_in"],
    max_outputs: int = LIMITS["n_out"],
) -> LoadedModel:
    """Check names, shapes and values of a state_dict-like dict and build the model."""
    keys = list(tensors)
    p = _rnn_prefix(keys)
    rnn = {k: tensors[p + k] for k in RNN_KEYS if p + k in tensors}
    if "weight_hh_l0" not in rnn:
        raise ValueError(f"{p}weight_ih_l0 is there but {p}weight_hh_l0 is missing; both are needed")
    w_ih, w_hh = rnn["weight_ih_l0"], rnn["weight_hh_l0"]
    if w_hh.ndim != 2 or w_ih.ndim != 2:
        raise ValueError(
            f"{p}weight_ih_l0 and {p}weight_hh_l0 must be matrices; got shapes {w_ih.shape} and {w_hh.shape}"
        )
    H = w_hh.shape[1]
    gates = {len(g): v for v, g in LAYOUT.items()}
    if H == 0 or w_hh.shape[0] % H or w_hh.shape[0] // H not in gates:
        raise ValueError(f"{p}weight_hh_l0 has shape {w_hh.shape}: an LSTM needs (4H, H), a GRU (3H, H)")
    G = w_hh.shape[0] // H
    variant = gates[G]
    _shape(p + "weight_ih_l0", w_ih, (G * H, w_ih.shape[1]), f"an {variant.upper()} with hidden size {H}")
    if ("bias_ih_l0" in rnn) != ("bias_hh_l0" in rnn):
        raise ValueError(
            f"only one of {p}bias_ih_l0 / {p}bias_hh_l0 is in the file; PyTorch saves both (or none with bias=False)"
        )
    for k in ("bias_ih_l0", "bias_hh_l0"):
        if k in rnn:
            _shape(p + k, rnn[k], (G * H,), f"an {variant.upper()} with hidden size {H}")
    if H > max_hidden:
        raise ValueError(
            f"the {variant.upper()} has {H} hidden units; here at most {max_hidden} are allowed — "
            "train a smaller one"
        )
    used = {p + k for k in rnn}
    emb_name, emb = _pick(tensors, EMBED_NAMES, "weight", "embedding")
    if emb is not None:
        used.add(f"{emb_name}.weight")
        if emb.ndim != 2 or emb.shape[1] != w_ih.shape[1]:
            raise ValueError(
                f"{emb_name}.weight has shape {emb.shape}; it must be (vocabulary, {w_ih.shape[1]}) to "
                f"feed {p}weight_ih_l0 ({w_ih.shape[1]} inputs)"
            )
        _check_finite(tensors, [f"{emb_name}.weight", p + "weight_ih_l0"])
        with np.errstate(over="ignore", invalid="ignore"):  # checked just below, with a message
            rnn["weight_ih_l0"] = w_ih @ emb.T  # one-hot x: W_ih (E^T x) = (W_ih E^T) x, exactly
        if not np.isfinite(rnn["weight_ih_l0"]).all():
            raise ValueError(
                f"folding {emb_name}.weight into {p}weight_ih_l0 overflows (weights near 1e308); "
                "the network diverged in training — export a checkpoint from before"
            )
    n_in = rnn["weight_ih_l0"].shape[1]
    if not 1 <= n_in <= max_inputs:
        raise ValueError(f"the network has {n_in} inputs; here 1 to {max_inputs} are allowed")
    head_name, w_out = _pick(tensors, HEAD_NAMES, "weight", "output layer")
    b_out = None
    if w_out is not None:
        used.add(f"{head_name}.weight")
        if w_out.ndim != 2 or w_out.shape[1] != H:
            raise ValueError(
                f"{head_name}.weight has shape {w_out.shape}; an output layer after {H} hidden units "
                f"needs (n_out, {H}) — the shapes do not fit together"
            )
        if not 1 <= w_out.shape[0] <= max_outputs:
            raise ValueError(
                f"{head_name}.weight has {w_out.shape[0]} outputs; here 1 to {max_outputs} are allowed"
            )
        b_out = tensors.get(f"{head_name}.bias")
        if b_out is not None:
            used.add(f"{head_name}.bias")
            _shape(f"{head_name}.bias", b_out, (w_out.shape[0],), f"{head_name}.weight {w_out.shape}")
    extra = sorted(set(keys) - used)
    if extra:
        raise ValueError(
            f"the file has names Gate Lab does not know: {extra[:6]}; it accepts a one-layer "
            f"nn.LSTM/nn.GRU ({', '.join(RNN_KEYS)}, optionally under one prefix), an output layer "
            f"{'/'.join(HEAD_NAMES)}.weight/.bias and an embedding {'/'.join(EMBED_NAMES)}.weight"
        )
    _check_finite(tensors, sorted(used))
    act = meta.get("output_activation", "identity")
    if act not in ACTIVATIONS:
        raise ValueError(f"__metadata__ output_activation is {act!r}; use one of {', '.join(ACTIVATIONS)}")
    if act != "identity" and w_out is None:
        raise ValueError(f"output_activation {act!r} needs an output layer ({'/'.join(HEAD_NAMES)}.weight)")
    vocab = meta.get("vocab")
    if vocab is not None and (len(vocab) != n_in or len(set(vocab)) != len(vocab)):
        raise ValueError(
            f"the vocabulary has {len(vocab)} characters ({len(set(vocab))} different) but the network "
            f"has {n_in} inputs; it needs one different character per input"
        )
    with np.errstate(over="ignore"):  # bias_ih + bias_hh of two weights near 1e308: checked below
        model = from_torch(rnn, variant, output_weight=w_out, output_bias=b_out, output_activation=act)
    _check_finite(
        model.params,
        [k for k in model.params if k.startswith("b_")],
        " (the sum of bias_ih_l0 and bias_hh_l0)",
    )
    return LoadedModel(
        model, variant, n_in, H, model.config.n_out, head_name, vocab or None, act, file_format, emb_name
    )


def load_model_file(
    data: bytes,
    name: str = "",
    *,
    max_bytes: int = MAX_BYTES,
    max_hidden: int = LIMITS["n_hidden"],
    max_inputs: int = LIMITS["n_in"],
    max_outputs: int = LIMITS["n_out"],
) -> LoadedModel:
    """A model from the bytes of an uploaded ``.safetensors`` or ``.npz`` file (``name`` for messages)."""
    if len(data) > max_bytes:
        raise ValueError(
            f"the file is {len(data):,} bytes; at most {max_bytes:,} are accepted here — a small "
            "one-layer network is a few hundred kilobytes"
        )
    _check_not_pickle(data, name)
    if data[:4] == b"PK\x03\x04" or name.lower().endswith(".npz"):
        tensors, meta = read_npz(data, max_bytes)
        fmt = "npz"
    elif name.lower().endswith(".safetensors") or _looks_like_safetensors(data):
        tensors, meta = read_safetensors(data)
        fmt = "safetensors"
    else:
        raise ValueError(f"{name or 'the file'} is neither safetensors nor .npz; {HOW_TO_EXPORT}")
    return parse_state(
        tensors, meta, fmt, max_hidden=max_hidden, max_inputs=max_inputs, max_outputs=max_outputs
    )
