"""Read a trained one-layer PyTorch ``nn.LSTM`` / ``nn.GRU`` from a safetensors or ``.npz`` file.

Never pickle: a user's file is untrusted, and unpickling runs code. So no ``torch.load``; a
pickle is refused here with a message, and the two formats are read by hand in ``tensor_files``.
This module checks what the file holds and builds the network from it.

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

from dataclasses import dataclass

import numpy as np

from lstm_core.errors import CoreError

from ..config import LIMITS
from ..model import Model
from .tensor_files import HOW_TO_EXPORT, MAX_BYTES, looks_like_safetensors, read_npz, read_safetensors
from .torch_io import LAYOUT, from_torch

RNN_KEYS = ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0")
HEAD_NAMES = ("fc", "out", "linear", "head", "decoder", "output")
EMBED_NAMES = ("embedding", "embed")
ACTIVATIONS = ("identity", "softmax", "sigmoid", "tanh")
PICKLE_SUFFIXES = (".pt", ".pth", ".pkl", ".pickle", ".ckpt", ".bin", ".tar")


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
    # the file's two bias vectors as PyTorch keeps them (the LSTM's are summed in ``model``): what the
    # bias atlas's check reads to name the two-vector pitfall; None when the file has no biases
    torch_biases: dict[str, np.ndarray] | None = None

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
            raise CoreError(
                "this model file has no vocabulary, so text cannot be encoded; pick a task (or save the "
                "model with __metadata__ {{\"vocab\": \"…\"}})"
            )
        if not text:
            raise CoreError("type at least one character")
        index = {c: i for i, c in enumerate(self.vocab)}
        bad = sorted({c for c in text if c not in index})
        if bad:
            raise CoreError(
                "the model's vocabulary has no {bad}; it knows {vocab}",
                bad=", ".join(map(repr, bad)),
                vocab=repr(self.vocab),
            )
        return np.eye(self.n_in)[[index[c] for c in text]][:, None, :]


def _check_not_pickle(data: bytes, name: str) -> None:
    # A pickle starts with PROTO (0x80) and a protocol number; a safetensors header length can
    # start with 0x80 too (a 384-byte header), so a plausible safetensors file is not mistaken.
    pickled = data[:1] == b"\x80" and data[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05")
    if name.lower().endswith(PICKLE_SUFFIXES) or (pickled and not looks_like_safetensors(data)):
        raise CoreError(
            "{name} is a PyTorch/pickle file (torch.save); Gate Lab never "
            "unpickles uploads because loading a pickle can run any code on the server — {how}",
            name=name or "the file",
            how=HOW_TO_EXPORT,
        )


# ----------------------------------------------------------------------------- names and shapes
def _rnn_prefix(keys: list[str]) -> str:
    if any(k.endswith("_reverse") for k in keys):
        raise CoreError(
            "the recurrent layer is bidirectional (keys ending in _reverse); Gate Lab steps one "
            "direction through time — export an nn.LSTM/nn.GRU with bidirectional=False"
        )
    if any("weight_hr_l0" in k for k in keys):
        raise CoreError(
            "the LSTM has proj_size > 0 (weight_hr_l0); Gate Lab shows the standard LSTM — export "
            "one with proj_size=0"
        )
    deep = sorted({k.rsplit("_l", 1)[1] for k in keys if "_ih_l" in k or "_hh_l" in k} - {"0"})
    if deep:
        raise CoreError(
            "the file has {n} recurrent layers (keys …_l{layer}); Gate Lab shows "
            "one layer — export an nn.LSTM/nn.GRU with num_layers=1",
            n=len(deep) + 1,
            layer=deep[0],
        )
    prefixes = sorted({k[: -len("weight_ih_l0")] for k in keys if k.endswith("weight_ih_l0")})
    if not prefixes:
        raise CoreError(
            "no 'weight_ih_l0' in the file (it holds {keys}); expected the state_dict names of a "
            "one-layer nn.LSTM / nn.GRU: weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0 (bare or "
            "under one prefix such as lstm.)",
            keys=sorted(keys)[:8],
        )
    if len(prefixes) > 1:
        raise CoreError(
            "the file holds {n} recurrent layers ({keys}); upload a file with one",
            n=len(prefixes),
            keys=", ".join(p + "weight_ih_l0" for p in prefixes),
        )
    p = prefixes[0]
    if p and not p.endswith("."):
        raise CoreError(
            "cannot read the key {p}weight_ih_l0: a prefix must end with a dot (lstm.weight_ih_l0)", p=p
        )
    return p


def _pick(
    tensors: dict, names: tuple[str, ...], suffix: str, what: str
) -> tuple[str | None, np.ndarray | None]:
    found = [n for n in names if f"{n}.{suffix}" in tensors]
    if len(found) > 1:
        # name: "embedding" or "output layer", a core text itself (translated in app/i18n/core_errors.py)
        raise CoreError(
            "the file has more than one {name} ({found}); keep one", name=what, found=", ".join(found)
        )
    return (found[0], tensors[f"{found[0]}.{suffix}"]) if found else (None, None)


def _check_finite(arrays: dict, keys: list[str], summed: bool = False) -> None:
    """Every value finite; ``summed``: the arrays are the sums of bias_ih_l0 and bias_hh_l0."""
    for k in keys:
        v = arrays[k]
        if not np.isfinite(v).all():
            bad = np.argwhere(~np.isfinite(v))[0]
            where = {"key": k, "value": v[tuple(bad)], "index": tuple(int(i) for i in bad)}
            if summed:
                raise CoreError(
                    "{key} (the sum of bias_ih_l0 and bias_hh_l0) holds a non-finite value ({value}) at "
                    "index {index}; the network diverged in training — export a checkpoint from before",
                    **where,
                )
            raise CoreError(
                "{key} holds a non-finite value ({value}) at index {index}; the network diverged in "
                "training — export a checkpoint from before",
                **where,
            )


def _shape(key: str, v: np.ndarray, want: tuple, why: str) -> None:
    if v.shape != want:
        raise CoreError(
            "{key} has shape {shape} but {why} needs {want}; the shapes do not fit together",
            key=key,
            shape=tuple(v.shape),
            why=why,
            want=want,
        )


def _recurrent_layer(tensors: dict, p: str, max_hidden: int) -> tuple[dict, str, int]:
    """The recurrent layer's tensors under prefix ``p`` (names without it), checked: them, the
    variant their shapes say and the hidden size."""
    rnn = {k: tensors[p + k] for k in RNN_KEYS if p + k in tensors}
    if "weight_hh_l0" not in rnn:
        raise CoreError("{p}weight_ih_l0 is there but {p}weight_hh_l0 is missing; both are needed", p=p)
    w_ih, w_hh = rnn["weight_ih_l0"], rnn["weight_hh_l0"]
    if w_hh.ndim != 2 or w_ih.ndim != 2:
        raise CoreError(
            "{p}weight_ih_l0 and {p}weight_hh_l0 must be matrices; got shapes {ih} and {hh}",
            p=p,
            ih=w_ih.shape,
            hh=w_hh.shape,
        )
    H = w_hh.shape[1]
    gates = {len(g): v for v, g in LAYOUT.items()}
    if H == 0 or w_hh.shape[0] % H or w_hh.shape[0] // H not in gates:
        raise CoreError(
            "{p}weight_hh_l0 has shape {shape}: an LSTM needs (4H, H), a GRU (3H, H)", p=p, shape=w_hh.shape
        )
    G = w_hh.shape[0] // H
    variant = gates[G]
    _shape(p + "weight_ih_l0", w_ih, (G * H, w_ih.shape[1]), f"an {variant.upper()} with hidden size {H}")
    if ("bias_ih_l0" in rnn) != ("bias_hh_l0" in rnn):
        raise CoreError(
            "only one of {p}bias_ih_l0 / {p}bias_hh_l0 is in the file; PyTorch saves both (or none "
            "with bias=False)",
            p=p,
        )
    for k in ("bias_ih_l0", "bias_hh_l0"):
        if k in rnn:
            _shape(p + k, rnn[k], (G * H,), f"an {variant.upper()} with hidden size {H}")
    if H > max_hidden:
        raise CoreError(
            "the {variant} has {H} hidden units; here at most {max_hidden} are allowed — train a smaller one",
            variant=variant.upper(),
            H=H,
            max_hidden=max_hidden,
        )
    return rnn, variant, H


def _fold_embedding(tensors: dict, rnn: dict, p: str) -> str | None:
    """An embedding in front, folded into ``rnn["weight_ih_l0"]`` (changed in place); its name, if any."""
    w_ih = rnn["weight_ih_l0"]
    emb_name, emb = _pick(tensors, EMBED_NAMES, "weight", "embedding")
    if emb is None:
        return None
    if emb.ndim != 2 or emb.shape[1] != w_ih.shape[1]:
        raise CoreError(
            "{emb_name}.weight has shape {shape}; it must be (vocabulary, {n_in}) to feed "
            "{p}weight_ih_l0 ({n_in} inputs)",
            emb_name=emb_name,
            shape=emb.shape,
            n_in=w_ih.shape[1],
            p=p,
        )
    _check_finite(tensors, [f"{emb_name}.weight", p + "weight_ih_l0"])
    with np.errstate(over="ignore", invalid="ignore"):  # checked just below, with a message
        rnn["weight_ih_l0"] = w_ih @ emb.T  # one-hot x: W_ih (E^T x) = (W_ih E^T) x, exactly
    if not np.isfinite(rnn["weight_ih_l0"]).all():
        raise CoreError(
            "folding {emb_name}.weight into {p}weight_ih_l0 overflows (weights near 1e308); the "
            "network diverged in training — export a checkpoint from before",
            emb_name=emb_name,
            p=p,
        )
    return emb_name


def _output_layer(
    tensors: dict, H: int, max_outputs: int
) -> tuple[str | None, np.ndarray | None, np.ndarray | None]:
    """The output layer after H hidden units, if the file has one: its name, weight and bias."""
    head_name, w_out = _pick(tensors, HEAD_NAMES, "weight", "output layer")
    if w_out is None:
        return None, None, None
    if w_out.ndim != 2 or w_out.shape[1] != H:
        raise CoreError(
            "{head_name}.weight has shape {shape}; an output layer after {H} hidden units needs "
            "(n_out, {H}) — the shapes do not fit together",
            head_name=head_name,
            shape=w_out.shape,
            H=H,
        )
    if not 1 <= w_out.shape[0] <= max_outputs:
        raise CoreError(
            "{head_name}.weight has {n_out} outputs; here 1 to {max_outputs} are allowed",
            head_name=head_name,
            n_out=w_out.shape[0],
            max_outputs=max_outputs,
        )
    b_out = tensors.get(f"{head_name}.bias")
    if b_out is not None:
        _shape(f"{head_name}.bias", b_out, (w_out.shape[0],), f"{head_name}.weight {w_out.shape}")
    return head_name, w_out, b_out


def _read_meta(meta: dict[str, str], has_head: bool, n_in: int) -> tuple[str, str | None]:
    """The metadata's output activation and vocabulary, checked against the network."""
    act = meta.get("output_activation", "identity")
    if act not in ACTIVATIONS:
        raise CoreError(
            "__metadata__ output_activation is {act}; use one of {choices}",
            act=repr(act),
            choices=", ".join(ACTIVATIONS),
        )
    if act != "identity" and not has_head:
        raise CoreError(
            "output_activation {act} needs an output layer ({heads}.weight)",
            act=repr(act),
            heads="/".join(HEAD_NAMES),
        )
    vocab = meta.get("vocab")
    if vocab is not None and (len(vocab) != n_in or len(set(vocab)) != len(vocab)):
        raise CoreError(
            "the vocabulary has {n} characters ({distinct} different) but the network has "
            "{n_in} inputs; it needs one different character per input",
            n=len(vocab),
            distinct=len(set(vocab)),
            n_in=n_in,
        )
    return act, vocab


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
    rnn, variant, H = _recurrent_layer(tensors, p, max_hidden)
    used = {p + k for k in rnn}
    emb_name = _fold_embedding(tensors, rnn, p)
    if emb_name is not None:
        used.add(f"{emb_name}.weight")
    n_in = rnn["weight_ih_l0"].shape[1]
    if not 1 <= n_in <= max_inputs:
        raise CoreError(
            "the network has {n_in} inputs; here 1 to {max_inputs} are allowed",
            n_in=n_in,
            max_inputs=max_inputs,
        )
    head_name, w_out, b_out = _output_layer(tensors, H, max_outputs)
    if head_name is not None:
        used |= {f"{head_name}.weight"} | ({f"{head_name}.bias"} if b_out is not None else set())
    extra = sorted(set(keys) - used)
    if extra:
        raise CoreError(
            "the file has names Gate Lab does not know: {extra}; it accepts a one-layer "
            "nn.LSTM/nn.GRU ({keys}, optionally under one prefix), an output layer {heads}.weight/.bias "
            "and an embedding {embeddings}.weight",
            extra=extra[:6],
            keys=", ".join(RNN_KEYS),
            heads="/".join(HEAD_NAMES),
            embeddings="/".join(EMBED_NAMES),
        )
    _check_finite(tensors, sorted(used))
    act, vocab = _read_meta(meta, w_out is not None, n_in)
    with np.errstate(over="ignore"):  # bias_ih + bias_hh of two weights near 1e308: checked below
        model = from_torch(rnn, variant, output_weight=w_out, output_bias=b_out, output_activation=act)
    _check_finite(model.params, [k for k in model.params if k.startswith("b_")], summed=True)
    biases = {k: np.asarray(rnn[k], dtype=float) for k in ("bias_ih_l0", "bias_hh_l0") if k in rnn}
    return LoadedModel(
        model,
        variant,
        n_in,
        H,
        model.config.n_out,
        head_name,
        vocab or None,
        act,
        file_format,
        emb_name,
        biases if len(biases) == 2 else None,
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
        raise CoreError(
            "the file is {size:,} bytes; at most {max_bytes:,} are accepted here — a small "
            "one-layer network is a few hundred kilobytes",
            size=len(data),
            max_bytes=max_bytes,
        )
    _check_not_pickle(data, name)
    if data[:4] == b"PK\x03\x04" or name.lower().endswith(".npz"):
        tensors, meta = read_npz(data, max_bytes)
        fmt = "npz"
    elif name.lower().endswith(".safetensors") or looks_like_safetensors(data):
        tensors, meta = read_safetensors(data)
        fmt = "safetensors"
    else:
        raise CoreError(
            "{name} is neither safetensors nor .npz; {how}",
            name=name or "the file",
            how=HOW_TO_EXPORT,
        )
    return parse_state(
        tensors, meta, fmt, max_hidden=max_hidden, max_inputs=max_inputs, max_outputs=max_outputs
    )
