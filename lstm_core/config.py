"""The frozen configuration of one network: every setting, seed included.

``ModelConfig`` round-trips through JSON (``to_dict`` / ``from_dict`` / ``to_json`` /
``from_json``) so a page can put it in the URL and a user can save and load it. All
validation lives in ``__post_init__``: an invalid setting raises ``ValueError`` with a
message a student can act on, never later inside the math.

Initialisation specs (``bias`` values and ``init`` values) are one of
    a number                 -> every entry of the vector gets it
    a list of numbers        -> one value per block (LSTM-1997 family) or per unit
    {"uniform": [lo, hi]}    -> drawn uniformly from [lo, hi] with the config's seed
    {"linspace": [a, b]}     -> evenly spaced from a to b over the blocks / units
so the papers' staggered output-gate biases −1, −2, −3, −4 are ``[-1, -2, -3, -4]`` or
``{"linspace": [-1, -4]}``. A config holds each as a value of one of four small classes
(``Constant``, ``PerUnit``, ``Uniform``, ``Linspace``: ``parse_spec``), each with what its callers
need: ``values`` / ``draw`` (the model), ``to_json``, ``evenly`` (a page's "value plus a per-block
change"), ``staggered`` (a random range shown evenly), ``words`` (str(): its English); no caller tests a tag.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import CoreError, CoreText
from .numerics import finite_number
from .variants import GATE_BIASES, MEMORY_CELL_VARIANTS, VARIANTS  # noqa: F401 — re-exported
from .variants import variant as variant_record

# Caps that keep one user from exhausting the server; the core enforces them so every client does.
LIMITS = {"n_in": 256, "n_out": 256, "n_hidden": 256, "n_blocks": 32, "block_size": 8, "units": 256}

OUTPUT_ACTIVATIONS = ("sigmoid", "identity", "tanh", "softmax")
CELL_INPUT = ("g1997", "sigmoid", "tanh", "identity")
CELL_OUTPUT = ("h1997", "tanh", "identity")
LOSSES = ("mse", "ce")


# What ``absent`` may name: the memory-cell family's biases and its recurrent connections
# (the columns of W_ig / W_og / W_fg / W_c that read r(t−1)); every network's output bias.
ABSENT_MEMORY_CELL = ("b_c", "b_ig", "b_og", "b_fg", "b_out", "recurrent")


# ----------------------------------------------------------------------------- initialisation specs
@dataclass(frozen=True)
class Constant:
    """Every entry of the vector gets ``value``."""

    value: float
    random = False  # (a class attribute) True: ``draw(shape, rng)`` per entry, else ``values(rows)``

    def values(self, rows: int) -> list[float]:
        return [self.value] * rows

    def to_json(self) -> Any:
        return self.value

    def evenly(self, n: int) -> tuple[float, float]:
        """(first value, per-block change): how a page that sets "a value plus a change" shows it."""
        return self.value, 0.0

    def words(self) -> str | CoreText:
        return f"{self.value}"


@dataclass(frozen=True)
class PerUnit:
    """One value per block (the memory-cell family's gates) or per unit."""

    items: tuple[float, ...]
    random = False

    def values(self, rows: int) -> list[float]:
        return list(self.items)

    def to_json(self) -> Any:
        return list(self.items)

    def evenly(self, n: int) -> tuple[float, float]:
        step = self.items[1] - self.items[0] if len(self.items) > 1 else 0.0
        if any(abs(self.items[0] + k * step - v) > 1e-9 for k, v in enumerate(self.items)):
            raise CoreError("{items} is not evenly spaced", items=list(self.items))
        return self.items[0], step

    def words(self) -> str | CoreText:
        return str(list(self.items))


@dataclass(frozen=True)
class Linspace:
    """Evenly spaced from ``first`` to ``last`` over the blocks / units."""

    first: float
    last: float
    random = False

    def values(self, rows: int) -> list[float]:
        return list(np.linspace(self.first, self.last, rows))

    def to_json(self) -> Any:
        return {"linspace": [self.first, self.last]}

    def evenly(self, n: int) -> tuple[float, float]:
        return self.first, (self.last - self.first) / (n - 1) if n > 1 else 0.0

    def words(self) -> str | CoreText:
        return f"linspace [{self.first:g}, {self.last:g}]"  # numpy's name, shown as it is


@dataclass(frozen=True)
class Uniform:
    """Drawn uniformly from [``lo``, ``hi``] with the config's seed (one draw per entry)."""

    lo: float
    hi: float
    random = True

    def draw(self, shape: tuple, rng: Any) -> Any:
        return rng.uniform(self.lo, self.hi, size=shape)

    def to_json(self) -> Any:
        return {"uniform": [self.lo, self.hi]}

    def evenly(self, n: int) -> tuple[float, float]:
        raise CoreError("drawn at random ({{'uniform': [{lo:g}, {hi:g}]}})", lo=self.lo, hi=self.hi)

    def staggered(self) -> Linspace:
        """The same range staggered evenly, highest first (a page without random biases)."""
        return Linspace(self.hi, self.lo)

    def words(self) -> str | CoreText:
        return CoreText("uniform [{lo}, {hi}]", lo=format(self.lo, "g"), hi=format(self.hi, "g"))


Spec = Constant | PerUnit | Linspace | Uniform


def parse_spec(name: str, spec: Any) -> Spec:
    """An initialisation spec (a number, a list, ``{"uniform": [lo, hi]}``, ``{"linspace": [a, b]}`` or a
    spec already) as one of the spec classes; ValueError with a message a student can act on."""
    if isinstance(spec, (Constant, PerUnit, Linspace, Uniform)):
        return spec
    if isinstance(spec, bool):
        raise CoreError(
            "{name}: expected a number, a list of numbers or a range, got {value}",
            name=name,
            value=repr(spec),
        )
    if isinstance(spec, (int, float)):
        return Constant(_number(name, spec))
    if isinstance(spec, (list, tuple)):
        if len(spec) == 0:
            raise CoreError("{name}: the list of values is empty; give one value per block/unit", name=name)
        return PerUnit(tuple(_number(name, v) for v in spec))
    if isinstance(spec, dict) and len(spec) == 1:
        ((kind, rng),) = spec.items()
        if kind in ("uniform", "linspace") and isinstance(rng, (list, tuple)) and len(rng) == 2:
            lo, hi = (_number(name, v) for v in rng)
            if kind == "uniform" and lo > hi:
                raise CoreError(
                    "{name}: uniform range [{lo}, {hi}] is empty; put the smaller value first",
                    name=name,
                    lo=lo,
                    hi=hi,
                )
            return Uniform(lo, hi) if kind == "uniform" else Linspace(lo, hi)
    raise CoreError(
        "{name}: cannot read initial value {value}; use a number, a list with one value per "
        'block/unit, {{"uniform": [lo, hi]}} or {{"linspace": [first, last]}}',
        name=name,
        value=repr(spec),
    )


def _number(name: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise CoreError(
            "{name}: expected a number, a list of numbers or a range, got {value}", name=name, value=repr(v)
        )
    if not finite_number(v):
        raise CoreError(
            "{name}: initial value must be a finite number, got {value}", name=name, value=repr(v)
        )
    return float(v)


def _int_setting(name: str, value: Any, lo: int, hi: int) -> int:
    if not finite_number(value) or value != int(value):
        raise CoreError(
            "{name} must be a whole number between {lo} and {hi}, got {value}",
            name=name,
            lo=lo,
            hi=hi,
            value=repr(value),
        )
    value = int(value)
    if not lo <= value <= hi:
        raise CoreError(
            "{name} must be between {lo} and {hi}, got {value}", name=name, lo=lo, hi=hi, value=value
        )
    return value


@dataclass(frozen=True)
class ModelConfig:
    """Every setting of one network. Sizes that a variant does not use are ignored by it."""

    variant: str
    n_in: int
    n_out: int
    n_hidden: int = 8  # rnn, lstm, gru
    n_blocks: int = 2  # LSTM-1997 family: memory-cell blocks
    block_size: int = 1  # LSTM-1997 family: cells per block (sharing the block's gates)
    n_static: int = 0  # local_feedback: static units
    n_net_fb: int = 2  # local_feedback: net-input feedback units
    n_act_fb: int = 2  # local_feedback: activation feedback units
    activation: str = "tanh"  # rnn hidden activation: tanh | sigmoid
    output_gate: bool = True  # LSTM-1997 family: False ⇒ y_og ≡ 1 (1997 experiment 2a)
    forget_gate: bool = True  # LSTM-2000/2002 (lstm1997 never has one)
    peepholes: bool = True  # lstm2002 only
    cell_input: str = "g1997"  # g: g1997 | sigmoid | tanh | identity
    cell_output: str = "h1997"  # h: h1997 | tanh | identity
    gates_as_sources: bool = True  # gate activations feed back as recurrent inputs (1997 yes, 2002 no)
    input_to_output: bool = False  # output layer also sees x(t) directly
    output_activation: str = "sigmoid"
    loss: str = "mse"  # mse (½Σ(y−d)², the papers') | ce (softmax cross-entropy)
    init_range: float = 0.1  # weights uniform in [−init_range, init_range]
    recurrent_scale: float | None = None  # if set: recurrent matrices = scale × random orthogonal
    bias: tuple = field(default=())  # ((gate name, spec), …) — see module docstring
    init: tuple = field(default=())  # ((parameter name, spec), …) overrides by parameter name
    seed: int = 0
    # connections the network does not have: held at 0 and never trained (see ABSENT). The 1997
    # paper's weight counts leave out e.g. the cell-input and output-unit biases (experiment 1)
    # or every recurrent connection (experiment 2a); a bias that merely starts at 0 would learn.
    absent: tuple = field(default=())

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise CoreError(
                "unknown variant {variant}; choose one of {choices}",
                variant=repr(self.variant),
                choices=list(VARIANTS),
            )
        self._check_sizes()
        self._check_choices()
        self._check_scales()
        self._set("seed", _int_setting("seed", self.seed, 0, 2**32 - 1))
        self._set("bias", self._check_specs(self.bias, "bias"))
        self._set("init", self._check_specs(self.init, "init"))
        self._check_absent_and_biases()

    def _set(self, k: str, v: Any) -> None:
        object.__setattr__(self, k, v)  # a frozen dataclass's normalisation, in __post_init__ only

    def _check_sizes(self) -> None:
        """The network's sizes, as whole numbers within LIMITS."""
        self._set("n_in", _int_setting("n_in (number of inputs)", self.n_in, 1, LIMITS["n_in"]))
        self._set("n_out", _int_setting("n_out (number of outputs)", self.n_out, 1, LIMITS["n_out"]))
        self._set("n_hidden", _int_setting("n_hidden", self.n_hidden, 1, LIMITS["n_hidden"]))
        self._set("n_blocks", _int_setting("n_blocks (memory blocks)", self.n_blocks, 1, LIMITS["n_blocks"]))
        self._set(
            "block_size",
            _int_setting("block_size (cells per block)", self.block_size, 1, LIMITS["block_size"]),
        )
        for k in ("n_static", "n_net_fb", "n_act_fb"):
            self._set(k, _int_setting(k, getattr(self, k), 0, LIMITS["units"]))
        if self.record.local_feedback:  # the three kinds of unit
            if self.n_static + self.n_net_fb + self.n_act_fb == 0:
                raise CoreError(
                    "{variant} needs at least one hidden unit (n_static + n_net_fb + n_act_fb ≥ 1)",
                    variant=self.variant,
                )
            if self.n_static + self.n_net_fb + self.n_act_fb > LIMITS["units"]:
                raise CoreError(
                    "{variant}: at most {n} hidden units in total", variant=self.variant, n=LIMITS["units"]
                )

    def _check_choices(self) -> None:
        """Squashing functions, loss and on/off options: each one of its allowed values."""
        if self.activation not in ("tanh", "sigmoid"):
            raise CoreError(
                "activation must be 'tanh' or 'sigmoid', got {value}", value=repr(self.activation)
            )
        for name, value, allowed in (
            ("cell_input (g)", self.cell_input, CELL_INPUT),
            ("cell_output (h)", self.cell_output, CELL_OUTPUT),
            ("output_activation", self.output_activation, OUTPUT_ACTIVATIONS),
            ("loss", self.loss, LOSSES),
        ):
            if value not in allowed:
                raise CoreError(
                    "{name} must be one of {choices}, got {value}",
                    name=name,
                    choices=list(allowed),
                    value=repr(value),
                )
        if (self.loss == "ce") != (self.output_activation == "softmax"):
            raise CoreError(
                "use loss 'ce' together with output_activation 'softmax' (and only then); "
                "squared error ('mse') goes with sigmoid, tanh or identity outputs"
            )
        for k in ("output_gate", "forget_gate", "peepholes", "gates_as_sources", "input_to_output"):
            if not isinstance(getattr(self, k), bool):
                raise CoreError(
                    "{name} must be true or false, got {value}", name=k, value=repr(getattr(self, k))
                )
        if self.input_to_output and "input_to_output" not in self.record.options:
            raise CoreError(
                "input_to_output (the output layer also sees x(t)) exists only for {with_it}; {variant} "
                "has no such connection — set input_to_output=False",
                with_it=[v for v in VARIANTS if "input_to_output" in variant_record(v).options],
                variant=self.variant,
            )

    def _check_scales(self) -> None:
        """The initial weights' range and the recurrent weights' scale, as floats."""
        if not finite_number(self.init_range) or not 0 <= self.init_range <= 10:
            raise CoreError(
                "init_range must be a number between 0 and 10, got {value}", value=repr(self.init_range)
            )
        self._set("init_range", float(self.init_range))
        if self.recurrent_scale is not None:
            if not finite_number(self.recurrent_scale) or not 0 <= self.recurrent_scale <= 100:
                raise CoreError(
                    "recurrent_scale must be a number between 0 and 100 (or None), got {value}",
                    value=repr(self.recurrent_scale),
                )
            self._set("recurrent_scale", float(self.recurrent_scale))

    def _check_absent_and_biases(self) -> None:
        """The connections left out exist in this variant; the gate biases name its gates."""
        if isinstance(self.absent, str) or not isinstance(self.absent, (tuple, list)):
            raise CoreError(
                "absent must be a list of connection names (e.g. ['b_c', 'b_out']), got {value}",
                value=repr(self.absent),
            )
        allowed = ABSENT_MEMORY_CELL if self.record.memory_cell else ("b_out",)
        if bad := [a for a in self.absent if a not in allowed]:
            raise CoreError(
                "absent: {variant} cannot leave out {bad}; it can leave out {allowed} (b_* = a bias, "
                "'recurrent' = every connection from r(t−1))",
                variant=self.variant,
                bad=bad,
                allowed=list(allowed),
            )
        if not self.output_gate and "b_og" in self.absent:
            raise CoreError("absent: 'b_og' needs an output gate (output_gate=True)")
        self._set("absent", tuple(sorted(set(self.absent))))
        valid = GATE_BIASES[self.variant]
        for gate, _ in self.bias:
            if gate not in valid:
                raise CoreError(
                    "{variant} has no gate bias {gate}; its gate biases are {valid}",
                    variant=self.variant,
                    gate=repr(gate),
                    valid=list(valid),
                )

    @staticmethod
    def _check_specs(specs: Any, what: str) -> tuple:
        items = specs.items() if isinstance(specs, dict) else specs
        try:
            pairs = [(str(k), v) for k, v in items]
        except (TypeError, ValueError):
            raise CoreError(
                "{what} must map names to initial values, e.g. {{'output': [-1, -2]}}", what=what
            ) from None
        return tuple(sorted(((k, parse_spec(f"{what}[{k!r}]", v)) for k, v in pairs), key=lambda kv: kv[0]))

    # -- derived sizes -----------------------------------------------------------------
    @property
    def record(self):
        """This variant's entry in the registry (``lstm_core.variants``)."""
        return variant_record(self.variant)

    @property
    def has_forget_gate(self) -> bool:
        return "forget_gate" in self.record.options and self.forget_gate

    @property
    def has_peepholes(self) -> bool:
        return "peepholes" in self.record.options and self.peepholes

    @property
    def n_cells(self) -> int:
        return self.n_blocks * self.block_size

    @property
    def hidden_size(self) -> int:
        """Size of the vector the output layer reads (without the optional direct input)."""
        return self.record.hidden_units(self)

    @property
    def n_bias_units(self) -> int:
        """How many entries a per-block / per-unit bias list has for this network."""
        return self.record.bias_units(self)

    # -- JSON round trip ---------------------------------------------------------------
    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["absent"] = list(self.absent)
        d["bias"] = {k: v.to_json() for k, v in self.bias}
        d["init"] = {k: v.to_json() for k, v in self.init}
        return d

    @classmethod
    def from_dict(cls, d: dict) -> ModelConfig:
        if not isinstance(d, dict):
            raise CoreError("a model configuration must be a JSON object (a dict of settings)")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise CoreError(
                "unknown setting(s) {names}; valid settings are {valid}",
                names=sorted(unknown),
                valid=sorted(names),
            )
        missing = {"variant", "n_in", "n_out"} - set(d)
        if missing:
            raise CoreError("configuration is missing {names}", names=sorted(missing))
        return cls(**d)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ModelConfig:
        try:
            d = json.loads(text)
        except (json.JSONDecodeError, TypeError) as e:
            raise CoreError("configuration is not valid JSON: {why}", why=str(e)) from None
        return cls.from_dict(d)

    def replace(self, **changes: Any) -> ModelConfig:
        """A validated copy with some settings changed."""
        return dataclasses.replace(self, **changes)
