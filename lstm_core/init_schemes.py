"""Gate-bias initialisation schemes of the literature, one registry: which biases for which lag.

A scheme is data — its name, paper, what it sets on each gate, what it needs (chrono's T_max) —
and ``scheme_biases`` turns it into the literal per-unit bias values of one network (seeded), which
a ``ModelConfig`` then holds like any other bias: the config round-trips through JSON and the URL
with the scheme's values in it, and every other weight is the seed's, the same whatever the scheme.

    import lstm_core as lc
    from lstm_core.init_schemes import keep_biases, memory_times, with_scheme
    base = lc.ModelConfig.from_dict({"variant": "lstm", "n_in": 2, "n_out": 1, "n_hidden": 32})
    cfg = with_scheme(base, "chrono", t_max=150)                  # the biases, literal, in the config
    memory_times(keep_biases(lc.build(cfg).params, "lstm"))       # each unit's 1 / (1 − σ(b_f)), steps

Draws (how each gate's values are made; H = the number of bias entries, per unit or per block):
    const(v)       every entry v
    torch          PyTorch's own: bias_ih and bias_hh each uniform in ±1/√H, and a network that adds
                   the two (the LSTM, the 1997 family) gets their sum — which is why "set both to 1"
                   gives 2
    linspace(a, b) evenly from a to b over the blocks / units (the 1997 paper's staggered biases)
    chrono(±)      ±log u, u ~ U[1, T_max − 1] (Tallec & Ollivier 2018): memory times from 2 to T_max
    ugi(±)         ±σ⁻¹(u), u ~ U[1/H, 1 − 1/H] (Gu et al. 2020, "uniform gate initialisation")
    mirror         the negative of the keep gate's values, entry by entry (chrono's b_i = −b_f)
A gate a scheme does not name gets 0, except in the schemes built on PyTorch's default, where it
keeps PyTorch's draw. Random draws come from ``np.random.default_rng(seed)`` in a fixed order (the
gates as the variant stacks them for PyTorch, bias_ih before bias_hh), so the snippets of
``lstm_core.scheme_code`` reproduce them exactly.

Where a scheme has no meaning (``Scheme.variants`` leaves the variant out; ``why_not`` says why):
the 1997 cell has no forget gate, so every forget-gate scheme skips it; Keras' ``unit_forget_bias``,
the two-vector pitfall and Gers 2000 concern an LSTM's forget gate, which a GRU does not have; the
1997 staggered biases are for input and output gates, which a GRU does not have. A GRU's update gate
z keeps the old state (h' = (1 − z) ⊙ n + z ⊙ h, PyTorch's form), so chrono and uniform gate
initialisation set it as their papers say for the GRU.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from .config import ModelConfig
from .errors import CoreError
from .variants import variant as variant_record

# ------------------------------------------------------------------------------------------- draws
CONST, LINSPACE, CHRONO, UGI, MIRROR = "const", "linspace", "chrono", "ugi", "mirror"
Draw = tuple  # (kind, *arguments), e.g. ("const", 1.0), ("chrono", -1)

KEEP_GATE = {"lstm": "forget", "lstm2000": "forget", "lstm2002": "forget", "gru": "update"}
ATLAS_VARIANTS = ("lstm", "lstm2000", "gru")  # the variants the atlas trains (KEEP_GATE's, but 2002)
LSTM_LIKE = ("lstm", "lstm2000", "lstm2002")
ALL_LSTM = ("lstm1997",) + LSTM_LIKE


@dataclass(frozen=True)
class Scheme:
    """One initialisation scheme (read-only)."""

    name: str
    title: str  # display name
    paper: str  # where it comes from
    sets: str  # what it sets, in words
    gates: Mapping[str, Draw]  # gate -> draw, for every variant it applies to (the keep gate: "keep")
    variants: tuple[str, ...]  # where it has a meaning
    why_not: str  # where it has none, and why
    base: str = "zeros"  # what the gates it does not name get: "zeros" or "torch"
    needs_t_max: bool = False


def _frozen(d: dict) -> Mapping:
    return MappingProxyType(d)


_NO_FORGET = "the 1997 cell has no forget gate"
_LSTM_ONLY = "a GRU has no forget gate (and no input or output gate)"
SCHEMES: Mapping[str, Scheme] = _frozen(
    {
        s.name: s
        for s in (
            Scheme(
                "torch_default",
                "PyTorch's default",
                "PyTorch nn.LSTM / nn.GRU",
                "every bias: bias_ih and bias_hh each uniform in ±1/√H (their sum for a summed bias)",
                _frozen({}),
                ALL_LSTM + ("gru",),
                "",
                base="torch",
            ),
            Scheme(
                "zeros",
                "Zeros",
                "Keras / Flax with unit_forget_bias off; many papers' default",
                "every bias 0",
                _frozen({}),
                ALL_LSTM + ("gru",),
                "",
            ),
            Scheme(
                "forget_one",
                "Forget bias 1",
                "Gers et al. 2000; Jozefowicz, Zaremba & Sutskever 2015; Keras unit_forget_bias=True",
                "forget gate 1, every other bias 0",
                _frozen({"keep": (CONST, 1.0)}),
                LSTM_LIKE,
                f"{_NO_FORGET}; {_LSTM_ONLY}",
            ),
            Scheme(
                "forget_one_both",
                "Forget 1 on both PyTorch vectors (= 2)",
                "a common PyTorch recipe: bias_ih and bias_hh forget slices set to 1",
                "forget gate 1 + 1 = 2 (PyTorch adds its two bias vectors); the rest PyTorch's default",
                _frozen({"keep": (CONST, 2.0)}),
                LSTM_LIKE,
                f"{_NO_FORGET}; {_LSTM_ONLY}",
                base="torch",
            ),
            Scheme(
                "gers2000",
                "Gers 2000: positive forget, negative input/output",
                "Gers, Schmidhuber & Cummins 2000",
                "forget gates positive, staggered +0.5 … +2; input and output gates negative, "
                "staggered −0.5 … −2 (per block: each opens at its own time)",
                _frozen(
                    {
                        "keep": (LINSPACE, 0.5, 2.0),
                        "input": (LINSPACE, -0.5, -2.0),
                        "output": (LINSPACE, -0.5, -2.0),
                    }
                ),
                LSTM_LIKE,
                f"{_NO_FORGET}; {_LSTM_ONLY}",
            ),
            Scheme(
                "staggered1997",
                "1997: staggered negative input/output",
                "Hochreiter & Schmidhuber 1997",
                "input and output gates negative, staggered −1 … −4 over the blocks (against internal "
                "state drift and the abuse problem); every other bias 0",
                _frozen({"input": (LINSPACE, -1.0, -4.0), "output": (LINSPACE, -1.0, -4.0)}),
                ALL_LSTM,
                "a GRU has no input or output gate",
            ),
            Scheme(
                "chrono",
                "Chrono (T_max)",
                "Tallec & Ollivier 2018",
                "forget (GRU: update) gate log u, u ~ U[1, T_max − 1]; input gate its negative; every other "
                "bias 0",
                _frozen({"keep": (CHRONO,), "input": (MIRROR,)}),
                LSTM_LIKE + ("gru",),
                _NO_FORGET,
                needs_t_max=True,
            ),
            Scheme(
                "ugi",
                "Uniform gate initialisation",
                "Gu, Gulcehre, Paine, Hoffman & Pascanu 2020",
                "forget (GRU: update) gate σ⁻¹(u), u ~ U[1/H, 1 − 1/H]: gate values spread evenly over "
                "(0, 1); input gate its negative (the paper ties input to forget); every other bias 0",
                _frozen({"keep": (UGI,), "input": (MIRROR,)}),
                LSTM_LIKE + ("gru",),
                _NO_FORGET,
            ),
        )
    }
)


def scheme(name: str) -> Scheme:
    if name not in SCHEMES:
        raise CoreError(
            "unknown initialisation scheme {scheme}; choose one of {choices}",
            scheme=repr(name),
            choices=list(SCHEMES),
        )
    return SCHEMES[name]


def schemes_for(variant: str) -> tuple[str, ...]:
    """The schemes that have a meaning for ``variant``, in the registry's order."""
    return tuple(n for n, s in SCHEMES.items() if variant in s.variants)


# --------------------------------------------------------------------------------- resolving
def _torch_layout(cfg: ModelConfig) -> list[tuple[str, str]]:
    """(gate, parameter) in the order PyTorch stacks the gates; the 1997 family's own order."""
    v = variant_record(cfg)
    names = dict(v.gate_biases)
    if v.family == "gru":
        return [("reset", "r"), ("update", "z"), ("candidate", "n")]
    order = ("input", "forget", "cell", "output")
    return [(g, names[g]) for g in order if g in names]


def _draw(draw: Draw, n: int, rng: np.random.Generator, t_max: float | None) -> np.ndarray:
    kind = draw[0]
    if kind == CONST:
        return np.full(n, float(draw[1]))
    if kind == LINSPACE:
        return np.linspace(draw[1], draw[2], n)
    if kind == CHRONO:
        return np.log(rng.uniform(1.0, t_max - 1.0, n))
    if kind == UGI:
        u = rng.uniform(1.0 / n, 1.0 - 1.0 / n, n) if n > 2 else np.full(n, 0.5)
        return np.log(u / (1.0 - u))
    raise CoreError("unknown draw {kind}", kind=repr(kind))  # a registry mistake, not a user's


def scheme_biases(
    cfg: ModelConfig, name: str, t_max: float | None = None
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """(bias, init) of ``cfg``'s network under scheme ``name``, drawn from ``cfg.seed``: ``bias`` maps
    each gate to its values (per block / unit), ``init`` the GRU's hidden-side biases b_h*."""
    s = scheme(name)
    v = variant_record(cfg)
    if cfg.variant not in s.variants:
        raise CoreError(
            "{scheme} has no meaning for a {variant} network: {why}; it applies to {variants}",
            scheme=s.title,
            variant=cfg.variant,
            why=s.why_not,
            variants=", ".join(s.variants),
        )
    if s.needs_t_max and not (t_max is not None and np.isfinite(t_max) and t_max > 2):
        raise CoreError(
            "{scheme} needs T_max, the longest dependency to remember in steps (> 2), e.g. 1.5 × "
            "the lag; got {value}",
            scheme=s.title,
            value=repr(t_max),
        )
    n = cfg.n_bias_units
    rng = np.random.default_rng(cfg.seed)
    layout = _torch_layout(cfg)
    gru = v.family == "gru"
    keep = KEEP_GATE.get(cfg.variant)
    named = {(keep if g == "keep" else g): d for g, d in s.gates.items()}
    bias: dict[str, list[float]] = {}
    init: dict[str, list[float]] = {}
    if s.base == "torch":  # PyTorch's two vectors, drawn as nn.LSTM / nn.GRU lays them out
        k = 1.0 / np.sqrt(n)
        b_ih = rng.uniform(-k, k, (len(layout), n))
        b_hh = rng.uniform(-k, k, (len(layout), n))
        for row, (gate, p) in enumerate(layout):
            if gru:
                bias[gate], init[f"b_h{p}"] = list(b_ih[row]), list(b_hh[row])
            else:
                bias[gate] = list(b_ih[row] + b_hh[row])
    else:
        for gate, p in layout:
            bias[gate] = [0.0] * n
            if gru:
                init[f"b_h{p}"] = [0.0] * n
    for gate, p in layout:  # the scheme's own gates, in PyTorch's order (the draws' order)
        if gate in named and named[gate][0] != MIRROR:
            bias[gate] = list(_draw(named[gate], n, rng, t_max))
        if gate in named and gru:  # the GRU's second vector of that gate: 0, so the sum is the scheme's
            init[f"b_h{p}"] = [0.0] * n
    for gate, _p in layout:
        if gate in named and named[gate][0] == MIRROR:
            bias[gate] = [-b for b in bias[keep]]
    return bias, init


def with_scheme(cfg: ModelConfig, name: str, t_max: float | None = None) -> ModelConfig:
    """``cfg`` with its biases set by scheme ``name`` (its other settings and weights unchanged)."""
    bias, init = scheme_biases(cfg, name, t_max)
    d = cfg.to_dict()
    keep_init = {p: spec for p, spec in (d.get("init") or {}).items() if p not in init}
    return ModelConfig.from_dict({**d, "bias": bias, "init": {**keep_init, **init}})


def keep_biases(params: Mapping[str, np.ndarray], variant: str) -> np.ndarray | None:
    """The total bias of each unit's keep gate (forget; a GRU's update gate: b_iz + b_hz), per unit
    or block, from a network's parameters; None for a cell without one."""
    if variant == "gru":
        return np.asarray(params["b_iz"], dtype=float) + np.asarray(params["b_hz"], dtype=float)
    gate = KEEP_GATE.get(variant)
    if gate is None:
        return None
    return np.asarray(params[variant_record(variant).gate_biases[gate]], dtype=float)


def memory_times(bias: np.ndarray) -> np.ndarray:
    """Each keep-gate bias's memory time at initialisation, 1 / (1 − σ(b)) steps: how long a stored
    value takes to shrink to 1/e of itself with the gate at σ(b) and nothing else acting."""
    b = np.asarray(bias, dtype=float)
    return 1.0 + np.exp(b)  # 1 / (1 − σ(b)) = 1 + e^b, without the cancellation for large b
