"""Convert the ``lstm`` and ``gru`` variants to and from PyTorch's parameter layout.

PyTorch (``nn.LSTM`` / ``nn.GRU``, one layer) stores ``weight_ih_l0`` (G·H, n_in),
``weight_hh_l0`` (G·H, H), ``bias_ih_l0`` and ``bias_hh_l0`` (G·H,) with the gates stacked
in the order i, f, g, o (LSTM, G = 4) or r, z, n (GRU, G = 3). Values may be NumPy arrays or
torch tensors; nothing here imports torch.

The LSTM only ever uses bias_ih + bias_hh, so Gate Lab keeps their sum as ``b_*`` and
``to_torch`` writes it to ``bias_ih_l0`` with ``bias_hh_l0`` = 0 (same function). The GRU
needs both (b_hn sits inside r ⊙ (…)) and keeps them separately.
"""

from __future__ import annotations

import numpy as np

from ..errors import CoreError
from ..model import Model, build
from ..variants import REGISTRY, TORCH_VARIANTS

LAYOUT = {name: REGISTRY[name].torch_gates for name in TORCH_VARIANTS}  # gate order, as PyTorch stacks them


def _np(v) -> np.ndarray:
    if hasattr(v, "detach"):
        v = v.detach().cpu().numpy()
    return np.array(v, dtype=np.float64)


def _recurrent_weights(state_dict: dict, variant: str | None) -> tuple[np.ndarray, np.ndarray, str]:
    """The state_dict's weight_ih_l0 and weight_hh_l0, checked, and the variant (if None: their shapes')."""
    try:
        w_ih, w_hh = _np(state_dict["weight_ih_l0"]), _np(state_dict["weight_hh_l0"])
    except KeyError as e:
        raise CoreError(
            "state_dict is missing {key}; expected the keys of a one-layer nn.LSTM / nn.GRU "
            "(weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0)",
            key=repr(e.args[0]),
        ) from None
    H = w_hh.shape[1]
    if variant is None:
        variant = {len(g) * H: name for name, g in LAYOUT.items()}.get(w_ih.shape[0])
    if variant not in LAYOUT:
        raise CoreError(
            "cannot tell an LSTM from a GRU: weight_ih_l0 has {rows} rows for hidden size {H}; pass "
            "variant= one of {choices}",
            rows=w_ih.shape[0],
            H=H,
            choices=list(LAYOUT),
        )
    G = len(LAYOUT[variant])
    if w_ih.shape[0] != G * H or w_hh.shape != (G * H, H):
        raise CoreError(
            "{variant}: expected weight_ih_l0 ({rows}, n_in) and weight_hh_l0 ({rows}, {H}); got {ih} "
            "and {hh}",
            variant=variant,
            rows=G * H,
            H=H,
            ih=w_ih.shape,
            hh=w_hh.shape,
        )
    return w_ih, w_hh, variant


def from_torch(
    state_dict: dict,
    variant: str | None = None,
    output_weight=None,
    output_bias=None,
    output_activation: str = "identity",
    seed: int = 0,
    loss: str | None = None,
) -> Model:
    """Build an ``lstm``/``gru`` model from a PyTorch state_dict (layer 0).

    Without an output layer given, W_out = I and b_out = 0 with an identity output, so the
    model's outputs are exactly the hidden states h(t) PyTorch returns. ``loss`` defaults to
    cross-entropy with a softmax output and to squared error otherwise (the core pairs them).
    """
    w_ih, w_hh, variant = _recurrent_weights(state_dict, variant)
    H = w_hh.shape[1]
    gates = LAYOUT[variant]
    G = len(gates)
    b_ih = _np(state_dict.get("bias_ih_l0", np.zeros(G * H)))
    b_hh = _np(state_dict.get("bias_hh_l0", np.zeros(G * H)))
    n_out = H if output_weight is None else _np(output_weight).shape[0]
    model = build(
        variant,
        n_in=w_ih.shape[1],
        n_out=n_out,
        n_hidden=H,
        output_activation=output_activation,
        seed=seed,
        loss=loss or ("ce" if output_activation == "softmax" else "mse"),
    )
    p = model.params
    for n, k in enumerate(gates):
        rows = slice(n * H, (n + 1) * H)
        p[f"W_{k}"], p[f"U_{k}"] = w_ih[rows].copy(), w_hh[rows].copy()
        if f"b_{k}" in p:  # one summed bias per gate (the LSTM)
            p[f"b_{k}"] = b_ih[rows] + b_hh[rows]
        else:
            p[f"b_i{k}"], p[f"b_h{k}"] = b_ih[rows].copy(), b_hh[rows].copy()
    if output_weight is None:
        p["W_out"], p["b_out"] = np.eye(H), np.zeros(H)
    else:
        p["W_out"] = _np(output_weight)
        p["b_out"] = np.zeros(n_out) if output_bias is None else _np(output_bias)
    return model


def to_torch(model: Model, params: dict | None = None) -> dict[str, np.ndarray]:
    """PyTorch state_dict layout (NumPy arrays) of an ``lstm``/``gru`` model's parameters.

    ``params`` may be another dict with the model's names (e.g. gradients) to convert.
    Load with ``net.load_state_dict({k: torch.from_numpy(v) for k, v in d.items()})``.
    """
    variant = model.config.variant
    if variant not in LAYOUT:
        raise CoreError(
            "to_torch converts the {variants} variants, not {variant}",
            variants=" and ".join(LAYOUT),
            variant=repr(variant),
        )
    p = model.params if params is None else params
    gates = LAYOUT[variant]
    out = {
        "weight_ih_l0": np.concatenate([p[f"W_{k}"] for k in gates], axis=-2),
        "weight_hh_l0": np.concatenate([p[f"U_{k}"] for k in gates], axis=-2),
    }
    if f"b_{gates[0]}" in p:  # summed bias: all of it in bias_ih
        out["bias_ih_l0"] = np.concatenate([p[f"b_{k}"] for k in gates], axis=-1)
        out["bias_hh_l0"] = np.zeros_like(out["bias_ih_l0"])
    else:
        out["bias_ih_l0"] = np.concatenate([p[f"b_i{k}"] for k in gates], axis=-1)
        out["bias_hh_l0"] = np.concatenate([p[f"b_h{k}"] for k in gates], axis=-1)
    return out
