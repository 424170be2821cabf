"""Page settings <-> ``lc.ModelConfig``: the flat ``{name: value}`` a page's widgets edit, turned
into the network they describe (``model_config``) and back (``values_from_model`` for an imported
file, ``settings_from`` for the papers' defaults in the core's registries).

Gate biases are shown as a value plus a per-block change (the papers' −1, −2, −3 …); local
feedback's self-weights are init overrides of its parameters u and v. Invalid combinations raise
``ValueError`` with a message a student can act on.
"""

from __future__ import annotations

import json
from typing import Any

import lstm_core as lc
from app.i18n import _
from app.ui.form import Schema
from lstm_core.config import Spec, parse_spec
from lstm_core.variants import variant as variant_record

# Settings a variant reads that the app shows under other names (local feedback's self-weights
# are init overrides of its parameters u and v).
SELF_WEIGHT_FIELDS = ("fb_u", "fb_v")


def active_gates(values: dict) -> list[str]:
    """The gate biases the configured network has (a switched-off gate has none)."""
    v = variant_record(values["variant"])
    gates = list(v.gate_biases)
    for gate, switch in (("output", "output_gate"), ("forget", "forget_gate")):
        if gate in gates and switch in v.options and not values.get(switch, True):
            gates.remove(gate)
    return gates


# ----------------------------------------------------------------------------- settings -> model
def bias_units(values: dict) -> int:
    """How many values a per-block/per-unit bias list needs for the configured network."""
    return variant_record(values["variant"]).bias_units(values)


def bias_spec(value: float | None, step: float, n: int) -> Any:
    """value (all blocks) or the staggered list value + k·step, k = 0 … n−1."""
    if value is None:
        return None
    if step == 0 or n == 1:
        return float(value)
    return [round(value + k * step, 10) for k in range(n)]


def model_config(
    values: dict, n_in: int, n_out: int, output_activation: str = "sigmoid", loss: str = "mse"
) -> lc.ModelConfig:
    """The network the page's settings describe (ValueError if the core refuses it)."""
    v = variant_record(values["variant"])
    kw: dict[str, Any] = dict(
        variant=v.name,
        n_in=n_in,
        n_out=n_out,
        output_activation=output_activation,
        loss=loss,
        init_range=values["init_range"],
        seed=values["seed"],
    )
    # the settings and cell options this variant reads (the registry says which)
    kw.update({k: values[k] for k in v.settings + v.options if k in values and k != "init_range"})
    if v.local_feedback:  # local feedback: self-weights u, v as init overrides
        kw["init"] = {f[3:]: values[f] for f in SELF_WEIGHT_FIELDS if values.get(f) is not None}
    n = bias_units(values)
    bias = {g: bias_spec(values[f"b_{g}"], values[f"b_{g}_step"], n) for g in active_gates(values)}
    kw["bias"] = {g: s for g, s in bias.items() if s is not None}
    return lc.ModelConfig(**kw)


# ----------------------------------------------------------------------------- model -> settings
def _bias_values(gate: str, spec: Spec | None, n: int) -> tuple[float | None, float]:
    """(value, per-block change) of a bias spec for a network with ``n`` blocks/units."""
    if spec is None:
        return None, 0.0
    if spec.random:
        raise ValueError(
            _(
                "bias['{gate}'] is drawn at random ({spec}); this page "
                "sets biases as a value plus a per-block change — use a number or a list"
            ).format(gate=gate, spec=_json(spec.to_json()))
        )
    try:
        return spec.evenly(n)
    except ValueError:
        raise ValueError(
            _(
                "bias['{gate}'] = {values} is not evenly spaced; this page sets biases as a "
                "value plus a per-block change (e.g. −1, −2, −3)"
            ).format(gate=gate, values=spec.to_json())
        ) from None


def values_from_model(cfg: lc.ModelConfig, schema: Schema) -> tuple[dict, list[str]]:
    """Page settings equivalent to ``cfg`` (validated by ``schema``) and notes on what is not used."""
    d = cfg.to_dict()
    keys = [
        "variant",
        "n_hidden",
        "n_blocks",
        "block_size",
        "n_static",
        "n_net_fb",
        "n_act_fb",
        "activation",
        "recurrent_scale",
        "init_range",
        "output_gate",
        "forget_gate",
        "peepholes",
        "cell_input",
        "cell_output",
        "gates_as_sources",
        "seed",
    ]
    out = {k: d[k] for k in keys if k in schema.fields}
    notes = []
    init = {k: v.to_json() for k, v in cfg.init}  # (JSON form: a number is a float)
    for p in ("u", "v"):
        spec = init.pop(p, None)
        if spec is not None and not isinstance(spec, float):
            raise ValueError(
                _("init['{name}'] must be a single number on this page, got {value}").format(
                    name=p, value=_json(spec)
                )
            )
        out[f"fb_{p}"] = spec
    if init:
        raise ValueError(
            _("this page cannot set init for {names}; only local_feedback's u and v").format(
                names=sorted(init)
            )
        )
    biases = dict(cfg.bias)
    n = bias_units(out)
    for g in cfg.record.gate_biases:
        out[f"b_{g}"], out[f"b_{g}_step"] = _bias_values(g, biases.get(g), n)
    notes.append(
        _(
            "Inputs, outputs and the output layer (n_in, n_out, output activation, loss) "
            "come from this page's input sequence, not from the file."
        )
    )
    return schema.check({k: v for k, v in out.items() if k in schema.fields}), notes


def settings_from(d: dict, variant: str) -> dict:
    """Page settings for ModelConfig-style settings ``d`` (a variant's paper defaults from the
    registry, or a paper preset's network) applied to ``variant``: the sizes and options that
    variant reads, its gate biases (a list becomes value + per-block change), local feedback's
    self-weights. Settings of other variants in ``d`` are left out."""
    v = variant_record(variant)
    out = {k: d[k] for k in v.settings + v.options if k in d}
    for gate, spec in (d.get("bias") or {}).items():
        if gate not in v.gate_biases:
            continue
        spec = parse_spec(f"bias[{gate!r}]", spec)
        if spec.random:  # random in a range: staggered evenly
            spec = spec.staggered()
        out[f"b_{gate}"], out[f"b_{gate}_step"] = _bias_values(gate, spec, d.get("n_blocks", 2))
    init = d.get("init") or {}
    for f in SELF_WEIGHT_FIELDS if v.local_feedback else ():
        if isinstance(init.get(f[3:]), (int, float)):
            out[f] = float(init[f[3:]])
    return out


def _json(spec: Any) -> str:
    return json.dumps(spec if not isinstance(spec, tuple) else list(spec))


# ----------------------------------------------------------------------------- JSON documents
