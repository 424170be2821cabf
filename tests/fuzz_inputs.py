"""Hypothesis strategies that damage a valid input, for tests/test_fuzz_readers.py.

Each strategy starts from one good file or link and breaks it the ways real uploads break: cut
short, bytes flipped, inserted, deleted or repeated, a header field overwritten with an absurd
size, a JSON value swapped for the wrong type, nested thousands deep, a number too big for a
float or an int, NaN and the infinities. Hypothesis draws the damage (and shrinks a failure to
the smallest one), so no random generator of our own is involved.
"""

from __future__ import annotations

import copy
import io
import json
import zipfile
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

# Sizes a damaged header field may claim: zero, the edges of 16/32/64-bit fields, "minus one".
ABSURD_INTS = [0, 1, 255, 2**15 - 1, 2**16 - 1, 2**31 - 1, 2**31, 2**32 - 1, 2**63 - 1, 2**64 - 1]

# Placeholders swapped, after json.dumps, for text json.dumps cannot write: deep nesting, an
# integer of 5,000 digits (beyond Python's int-parsing limit), and floats that overflow to ±inf.
SENTINELS = {
    "\x00deep\x00": lambda n: "[" * n + "0" + "]" * n,
    "\x00bigint\x00": lambda n: "9" * 5000,
    "\x00bigfloat\x00": lambda n: "1e999",
    "\x00negfloat\x00": lambda n: "-1e999",
}

EXTREMES = [
    10**400,
    -(10**400),
    2**64,
    1.7e308,
    -1.7e308,
    5e-324,
    float("nan"),
    float("inf"),
    float("-inf"),
    "\x00bigint\x00",
    "\x00bigfloat\x00",
    "\x00deep\x00",
    -1,
    0,
    True,
    "",
    [],
    {},
]
json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([10**30, -(10**30), 2**63, 10**400, -1, 0]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(list(SENTINELS)),
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


def _paths(doc: Any, at: tuple = ()) -> Iterator[tuple]:
    yield at
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, at + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:8]):  # the first rows stand for all of them
            yield from _paths(v, at + (i,))


def _get(doc: Any, path: tuple) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _set(doc: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    parent[path[-1]] = value
    return doc


@st.composite
def damaged_json(draw: st.DrawFn, doc: Any, max_edits: int = 3, extremes_only: bool = False) -> str:
    """The JSON text of ``doc`` with 1..max_edits values replaced, removed, added or wrapped
    (``extremes_only``: only numbers swapped for EXTREMES, a search focused on arithmetic)."""
    doc = copy.deepcopy(doc)
    ops = ["extreme"] if extremes_only else ["replace", "replace", "extreme", "delete", "add", "wrap"]
    for _ in range(draw(st.integers(1, max_edits))):
        path = draw(st.sampled_from(list(_paths(doc))))
        op = draw(st.sampled_from(ops))
        if op == "replace" or not path and op == "delete":
            doc = _set(doc, path, draw(json_values))
        elif op == "extreme":  # where a number is, the numbers that break arithmetic
            numbers = [p for p in _paths(doc) if _is_number(_get(doc, p))] or [path]
            doc = _set(doc, draw(st.sampled_from(numbers)), copy.deepcopy(draw(st.sampled_from(EXTREMES))))
        elif op == "delete":
            parent = doc
            for k in path[:-1]:
                parent = parent[k]
            del parent[path[-1]]
        elif op == "add":
            target = doc
            for k in path:
                target = target[k]
            if isinstance(target, dict):
                target[draw(st.text(max_size=8))] = draw(json_values)
            elif isinstance(target, list):
                target.append(draw(json_values))
            else:
                doc = _set(doc, path, [target, draw(json_values)])
        else:
            target = doc
            for k in path:
                target = target[k]
            doc = _set(doc, path, draw(st.sampled_from([[target], {"value": target}])))
    text = json.dumps(doc, allow_nan=True)
    for mark, make in SENTINELS.items():
        encoded = json.dumps(mark)
        if encoded in text:
            text = text.replace(encoded, make(draw(st.sampled_from([3, 900, 5000, 100_000]))))
    return text


@st.composite
def damaged_bytes(draw: st.DrawFn, valid: bytes, anchors: tuple[int, ...] = (), max_edits: int = 4) -> bytes:
    """``valid`` with 1..max_edits edits; ``anchors`` are offsets worth aiming at (the start of a
    zip record, a header), so that header fields get hit far more often than by chance."""
    data = bytearray(valid)
    for _ in range(draw(st.integers(1, max_edits))):
        if anchors and draw(st.booleans()):
            pos = draw(st.sampled_from(anchors)) + draw(st.integers(0, 47))
        else:
            pos = draw(st.integers(0, len(data)))
        pos = min(pos, len(data))
        kind = draw(st.sampled_from(["truncate", "flip", "flip", "insert", "delete", "absurd", "repeat"]))
        if kind == "truncate":
            del data[pos:]
        elif kind == "flip" and pos < len(data):
            data[pos] ^= draw(st.integers(1, 255))
        elif kind == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=16))
        elif kind == "delete":
            del data[pos : pos + draw(st.integers(1, 64))]
        elif kind == "absurd":
            width = draw(st.sampled_from([1, 2, 4, 8]))
            value = draw(st.sampled_from(ABSURD_INTS) | st.integers(0, 2**64 - 1)) % 2 ** (8 * width)
            data[pos : pos + width] = value.to_bytes(width, "little")
        elif kind == "repeat":
            data[pos:pos] = data[pos : pos + draw(st.integers(1, 256))]
    return bytes(data)


def anchors_of(data: bytes, *markers: bytes) -> tuple[int, ...]:
    """Offsets of every occurrence of the markers (zip record signatures, the .npy magic)."""
    out = []
    for m in markers:
        i = data.find(m)
        while i >= 0:
            out.append(i)
            i = data.find(m, i + 1)
    return tuple(sorted(out)) or (0,)


@st.composite
def damaged_text(draw: st.DrawFn, valid: str, max_edits: int = 4) -> str:
    """``valid`` with characters cut, inserted (any Unicode) or repeated."""
    text = valid
    for _ in range(draw(st.integers(1, max_edits))):
        pos = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["truncate", "insert", "delete", "repeat"]))
        if kind == "truncate":
            text = text[:pos]
        elif kind == "insert":
            text = text[:pos] + draw(st.text(min_size=1, max_size=8)) + text[pos:]
        elif kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 16)) :]
        else:
            text = (
                text[:pos]
                + text[pos : pos + draw(st.integers(1, 64))] * draw(st.integers(2, 50))
                + text[pos:]
            )
    return text


def npz_with_header(
    shape: list[int], descr: str, fortran: bool, payload: bytes, method: int, flags: int
) -> bytes:
    """An .npz of one member whose .npy header claims ``descr`` and ``shape`` (any numbers) over
    ``payload``, with the zip's compression method and flag bits (encryption, …) overwritten."""
    descr_text = descr if descr.startswith("[") else repr(descr)
    header = f"{{'descr': {descr_text}, 'fortran_order': {fortran!r}, 'shape': {tuple(shape)!r}, }}"
    header += " " * (-(len(header) + 11) % 64) + "\n"
    npy = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + payload
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("lstm.weight_hh_l0.npy", npy)
    raw = bytearray(buf.getvalue())
    for sig, method_at, flags_at in (
        (b"PK\x03\x04", 8, 6),
        (b"PK\x01\x02", 10, 8),
    ):  # local and central record
        i = raw.find(sig)
        raw[i + method_at : i + method_at + 2] = method.to_bytes(2, "little")
        raw[i + flags_at : i + flags_at + 2] = flags.to_bytes(2, "little")
    return bytes(raw)
