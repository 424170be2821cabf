"""The model files' two formats, read and written by hand with NumPy: safetensors and ``.npz``.

Never pickle: a user's file is untrusted, and unpickling runs code. So no
``np.load(allow_pickle=True)``; safetensors is parsed here by hand (no ``safetensors`` package at
run time; tests/test_safetensors_reference.py checks reader and writer against it, a dev-only
dependency):

    8 bytes   little-endian uint64 N, the length of the JSON header
    N bytes   JSON: {"<name>": {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, ...,
                     "__metadata__": {"<key>": "<string>", ...}}   (offsets into the data part)
    rest      the tensors' raw little-endian bytes

Each reader returns (tensors as float64, metadata strings); what the tensors must be to make a
network is ``model_files.parse_state``'s business. Every problem raises ``ValueError``.
"""

from __future__ import annotations

import io
import json
import lzma
import math
import struct
import zipfile
import zlib

import numpy as np

from lstm_core.errors import CoreError

DTYPES = {"F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2"), "BF16": np.dtype("<u2")}
MAX_BYTES = 64_000_000  # the core's own cap; the app passes its smaller one
HOW_TO_EXPORT = (
    "save the state_dict as safetensors (`safetensors.torch.save_file(net.state_dict(), "
    "'model.safetensors')`) or NumPy (`np.savez('model.npz', **{k: v.numpy() for k, v in "
    "net.state_dict().items()})`)"
)


def looks_like_safetensors(data: bytes) -> bool:
    """Whether the bytes start like a safetensors file (a header length that fits, then a JSON object)."""
    return len(data) >= 9 and int.from_bytes(data[:8], "little") <= len(data) - 8 and data[8:9] == b"{"


def _float64(raw: np.ndarray) -> np.ndarray:
    """Raw file floats as float64. A signalling-NaN bit pattern raises the CPU's "invalid" flag when
    converted (NumPy's RuntimeWarning "invalid value encountered in cast"); it stays a NaN, which
    ``model_files.parse_state`` refuses with a message naming the tensor and index, so the flag is
    not news."""
    with np.errstate(invalid="ignore"):
        return raw.astype(np.float64)


def read_safetensors(data: bytes) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Tensors (float64) and ``__metadata__`` of a safetensors file's bytes."""
    if len(data) < 8:
        raise CoreError(
            "the file is {n} bytes, shorter than a safetensors header (8 bytes "
            "of header length); it is truncated or not a safetensors file",
            n=len(data),
        )
    n = int.from_bytes(data[:8], "little")
    if n > len(data) - 8:
        raise CoreError(
            "the safetensors header says it is {n} bytes long but the file has only "
            "{have} bytes after the length; the file is truncated or not safetensors",
            n=format(n, ","),
            have=format(len(data) - 8, ","),
        )
    try:
        header = json.loads(data[8 : 8 + n].decode("utf-8"))
    except (ValueError, RecursionError):  # bad UTF-8 or JSON, an integer of over 4,300 digits
        raise CoreError(
            "the safetensors header is not valid JSON; the file is damaged or not safetensors"
        ) from None
    if not isinstance(header, dict):
        raise CoreError("the safetensors header must be a JSON object of tensor names")
    meta = header.pop("__metadata__", None) or {}
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise CoreError('the safetensors __metadata__ must map names to strings, e.g. {{"vocab": "abc"}}')
    body = memoryview(data)[8 + n :]
    return {key: _tensor(key, info, body) for key, info in header.items()}, meta


def _tensor(key: str, info: object, body: memoryview) -> np.ndarray:
    """One tensor of a safetensors file, its header entry checked against the data part."""
    if not isinstance(info, dict) or not {"dtype", "shape", "data_offsets"} <= set(info):
        raise CoreError("tensor {key}: the header entry needs dtype, shape and data_offsets", key=repr(key))
    dt = DTYPES.get(info["dtype"]) if isinstance(info["dtype"], str) else None
    if dt is None:
        raise CoreError(
            "tensor {key} has dtype {dtype}; Gate Lab reads float weights ({choices}) — convert with "
            ".float() before saving",
            key=repr(key),
            dtype=repr(info["dtype"]),
            choices=", ".join(DTYPES),
        )
    shape, offs = info["shape"], info["data_offsets"]
    if (
        not isinstance(shape, list)
        or len(shape) > 4
        or not all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= 10**8 for d in shape)
    ):
        raise CoreError(
            "tensor {key}: shape {shape} is not a list of sizes", key=repr(key), shape=repr(shape)
        )
    if (
        not isinstance(offs, list)
        or len(offs) != 2
        or not all(isinstance(o, int) and not isinstance(o, bool) for o in offs)
        or not 0 <= offs[0] <= offs[1]
    ):
        raise CoreError(
            "tensor {key}: data_offsets {offs} must be [begin, end] with begin ≤ end",
            key=repr(key),
            offs=repr(offs),
        )
    size = math.prod(shape) * dt.itemsize
    if offs[1] - offs[0] != size or offs[1] > len(body):
        raise CoreError(
            "tensor {key}: {dtype} {shape} needs {size:,} bytes but its data_offsets {offs} give "
            "{given:,} (the data part has {data:,}); the file is truncated or damaged",
            key=repr(key),
            dtype=info["dtype"],
            shape=shape,
            size=size,
            offs=offs,
            given=offs[1] - offs[0],
            data=len(body),
        )
    raw = np.frombuffer(body[offs[0] : offs[1]], dtype=dt)
    if info["dtype"] == "BF16":  # bfloat16 = the top 16 bits of a float32
        raw = (raw.astype(np.uint32) << 16).view("<f4")
    return _float64(raw).reshape(shape)


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
            raise CoreError("format version {version}", version=version)
        read_header = (
            np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        )
        shape, fortran, dtype = read_header(f)
    except (ValueError, SyntaxError, RecursionError, MemoryError) as e:
        raise CoreError(
            "array {key} in the .npz has a damaged NumPy header ({why}); save it again with np.savez",
            key=repr(key),
            why=str(e),
        ) from None
    if dtype.hasobject:
        raise CoreError(
            "the .npz holds an object array (e.g. strings or a dict), which needs pickle to read; "
            "Gate Lab refuses pickle — save only float arrays, and a vocabulary as uint32 code "
            "points `vocab_codepoints`"
        )
    if dtype.fields is not None or dtype.subdtype is not None or min(shape, default=0) < 0:
        raise CoreError(
            "array {key} has dtype {dtype} and shape {shape}; weights must be plain floating point arrays",
            key=repr(key),
            dtype=dtype,
            shape=shape,
        )
    data = raw[f.tell() :]
    need = math.prod(shape) * dtype.itemsize
    if need != len(data):
        raise CoreError(
            "array {key} says it holds {dtype} {shape} ({need:,} bytes) but has {size:,} bytes of "
            "data; the .npz is truncated or damaged",
            key=repr(key),
            dtype=dtype,
            shape=shape,
            need=need,
            size=len(data),
        )
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")


def read_npz(data: bytes, max_bytes: int = MAX_BYTES) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Arrays of an ``.npz`` (never pickle); ``vocab_codepoints`` becomes metadata ``vocab``."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except ZIP_ERRORS:
        raise CoreError("the .npz file is not a valid zip archive (truncated or damaged)") from None
    out, meta = {}, {}
    with zf:
        infos = zf.infolist()
        names = [i.filename for i in infos]
        if any(n.endswith(".pkl") for n in names):
            raise CoreError(
                "this zip holds pickled data ({pkl}): it is a torch.save file, which Gate Lab never "
                "unpickles — {how}",
                pkl=[n for n in names if n.endswith(".pkl")][0],
                how=HOW_TO_EXPORT,
            )
        # A zip bomb would expand far past the upload size: check before decompressing.
        total = sum(i.file_size for i in infos)
        if total > max_bytes:
            raise CoreError(
                "the .npz expands to {n} bytes; at most {most} are accepted here",
                n=format(total, ","),
                most=format(max_bytes, ","),
            )
        bad = [n for n in names if not n.endswith(".npy")]
        if bad:
            raise CoreError(
                "the .npz holds {bad}, which is not a NumPy array (.npy); save with np.savez",
                bad=repr(bad[0]),
            )
        for info in infos:
            # Checked here, not left to zipfile: its NotImplementedError / RuntimeError say less.
            if info.flag_bits & 0x61 or info.compress_type not in ZIP_METHODS:
                raise CoreError(
                    "{filename} in the .npz is encrypted or compressed in a way NumPy never writes (zip "
                    "method {compress_type}); save it again with np.savez",
                    filename=repr(info.filename),
                    compress_type=info.compress_type,
                )
            try:
                raw = zf.read(info)
            except ZIP_ERRORS as e:
                raise CoreError(
                    "{filename} in the .npz could not be read ({why}); the file is truncated or damaged",
                    filename=repr(info.filename),
                    why=str(e or type(e).__name__),
                ) from None
            out[info.filename[:-4]] = _npy(info.filename[:-4], raw)
    cps = out.pop("vocab_codepoints", None)
    if cps is not None:
        if cps.ndim != 1 or cps.dtype.kind not in "ui" or cps.size == 0:
            raise CoreError(
                "vocab_codepoints must be a 1-D integer array of Unicode code points (np.array([ord(c) "
                "for c in vocab], dtype=np.uint32))"
            )
        if cps.min() < 0 or cps.max() > 0x10FFFF or ((cps >= 0xD800) & (cps <= 0xDFFF)).any():
            raise CoreError("vocab_codepoints holds a number that is not a Unicode character")
        meta["vocab"] = "".join(map(chr, cps.tolist()))
    for key, v in list(out.items()):
        if v.dtype.kind != "f":
            raise CoreError(
                "array {key} has dtype {dtype}; weights must be floating point", key=repr(key), dtype=v.dtype
            )
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
