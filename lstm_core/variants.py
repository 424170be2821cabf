"""The variant registry: everything the core and the app ask about a recurrent cell variant.

One ``Variant`` record per variant holds its facts — family, display name, paper, the settings
it reads, its gate biases and the units they count over, which internals are its gates and its
state, the state its error flows through, the training algorithms it supports and its paper
defaults. Nothing else in the code base restates these facts: code asks the registry
(``VARIANTS[name].algorithms``, ``is_memory_cell(cfg)``, …) instead of comparing variant names.

    import lstm_core as lc
    v = lc.variant("lstm2000")
    v.title, v.family, v.gate_biases["forget"], v.algorithms      # 'LSTM 2000 (forget gate)', ...
    lc.VARIANTS                                                    # name -> one-line description

The cell class of a family is looked up in ``lstm_core.cells.CELLS`` (by family), and the
equations of each cell live in its module's docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import CoreError

# Families: cells that share one implementation (the LSTM-1997 family is one MemoryCell class
# whose forget gate and peepholes are switched by the variant's options).
FAMILIES = ("rnn", "local_feedback", "memory_cell", "lstm", "gru")
# Algorithms a trainer knows (long descriptions: lstm_core.training.config.ALGORITHMS).
ALGORITHM_TITLES = {
    "rtrl": "RTRL (the 1997 online truncated gradient)",
    "bptt": "BPTT (exact gradient)",
    "tbptt": "truncated BPTT(k)",
}
# Gradient methods (lc.gradients): "truncated" is the 1997 cut, only for the memory-cell family.
EXACT_METHODS = ("bptt", "tbptt")


def _frozen(d: Mapping) -> Mapping:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class Variant:
    """The facts about one variant (read-only)."""

    name: str
    title: str  # display name, e.g. "LSTM 2000 (forget gate)"
    description: str  # one line: what it is
    paper: str  # where it comes from
    family: str  # one of FAMILIES: which cell class runs it
    settings: tuple[str, ...]  # ModelConfig settings that size / shape it (main controls)
    options: tuple[str, ...]  # ModelConfig cell options it reads (advanced controls)
    gate_biases: Mapping[str, str]  # friendly gate name -> bias parameter
    bias_unit: str  # what a per-entry bias list counts: "block" | "unit"
    gates: tuple[tuple[str, str], ...]  # (step-record name, label) of its gate activations
    state: tuple[str, str]  # (step-record name, chart title) of the state it keeps
    flow_state: str  # the state whose error flow is the lesson (ErrorFlow label)
    algorithms: tuple[str, ...]  # training algorithms it supports, the first is the default
    defaults: Mapping[str, Any]  # paper defaults: ModelConfig settings (sizes, options, biases)
    gate_text: str  # what its gate chart shows, for captions
    state_text: str  # what its state chart shows, for captions
    torch_gates: tuple[str, ...] = ()  # PyTorch's gate order (from_torch / to_torch), if any
    recurrent_scale: bool = False  # recurrent matrices can be set to scale × orthogonal
    no_gates_note: str = ""  # for a cell without gates: what the gate chart shows instead
    param_groups: Mapping[str, str] = field(default_factory=dict)  # parameter -> group name, where the
    # gate-name rules of training.progress don't apply

    @property
    def memory_cell(self) -> bool:
        """The LSTM-1997 family: CEC, gates per block, the 1997 truncated gradient and RTRL."""
        return self.family == "memory_cell"

    @property
    def local_feedback(self) -> bool:
        """Frasconi et al.'s units: three kinds, self-weights u and v."""
        return self.family == "local_feedback"

    def hidden_units(self, sizes: Mapping[str, Any]) -> int:
        """Size of the vector the output layer reads, from a ModelConfig or a dict of its sizes."""
        get = sizes.get if isinstance(sizes, Mapping) else lambda k: getattr(sizes, k)
        if self.memory_cell:
            return get("n_blocks") * get("block_size")
        if self.local_feedback:
            return get("n_static") + get("n_net_fb") + get("n_act_fb")
        return get("n_hidden")

    def bias_units(self, sizes: Mapping[str, Any]) -> int:
        """How many entries a per-block / per-unit bias list has."""
        get = sizes.get if isinstance(sizes, Mapping) else lambda k: getattr(sizes, k)
        return get("n_blocks") if self.bias_unit == "block" else self.hidden_units(sizes)

    @property
    def truncated_gradient(self) -> bool:
        return "rtrl" in self.algorithms

    @property
    def gradient_methods(self) -> tuple[str, ...]:
        return EXACT_METHODS + (("truncated",) if self.truncated_gradient else ())

    def default_algorithm(self, wanted: str | None = None) -> str:
        """``wanted`` if this variant supports it, else its first (paper) algorithm."""
        return wanted if wanted in self.algorithms else self.algorithms[0]


H97 = "Hochreiter & Schmidhuber 1997"
_MEMORY_SETTINGS = ("n_blocks", "block_size", "init_range")
_MEMORY_OPTIONS = ("output_gate", "cell_input", "cell_output", "gates_as_sources", "input_to_output")
_MEMORY_GATES_1997 = (("y_ig", "input gate"), ("y_og", "output gate"))
_MEMORY_GATES_2000 = (("y_ig", "input gate"), ("y_fg", "forget gate"), ("y_og", "output gate"))
_CEC_TEXT = (
    "Cell states s(t): the constant error carousel adds to s and never multiplies it down, so a "
    "value written early is still there at the end."
)
_FORGET_STATE_TEXT = (
    "Cell states s(t): the carousel keeps s from step to step, scaled each step by the "
    "forget gate; a forget gate near 1 keeps the contents, near 0 resets them."
)
_2002 = {
    "n_blocks": 1,
    "block_size": 1,
    "cell_input": "identity",
    "cell_output": "identity",
    "gates_as_sources": False,
    "init_range": 0.1,
    "bias": {"forget": -2.0, "input": 0.0, "output": 2.0},
}

_RECORDS = [
    Variant(
        "rnn",
        "RNN (simple recurrent)",
        "simple recurrent network h(t) = f(W x + U h(t−1) + b): the vanishing-gradient baseline",
        "Elman 1990; the baseline of every paper",
        "rnn",
        settings=("n_hidden", "init_range", "activation"),
        options=("recurrent_scale",),
        gate_biases=_frozen({"hidden": "b"}),
        bias_unit="unit",
        gates=(),
        state=("h", "Hidden state h(t)"),
        flow_state="h",
        algorithms=("bptt", "tbptt"),
        defaults=_frozen({"n_hidden": 8, "activation": "tanh", "init_range": 0.1}),
        gate_text="",
        state_text=(
            "Hidden state h(t): overwritten at every step through the recurrent weights, which is why "
            "an RNN forgets what it saw long ago."
        ),
        recurrent_scale=True,
        no_gates_note="This cell has no gates: the chart shows the net inputs of its hidden units instead.",
        param_groups=_frozen({"W": "input", "U": "recurrent", "b": "hidden bias"}),
    ),
    Variant(
        "local_feedback",
        "Local feedback (1992)",
        "Frasconi, Gori & Soda 1992: units with only a self-loop (net-input or activation feedback)",
        "Frasconi, Gori & Soda 1992",
        "local_feedback",
        settings=("n_static", "n_net_fb", "n_act_fb", "init_range"),
        options=(),
        gate_biases=_frozen({"hidden": "b"}),
        bias_unit="unit",
        gates=(),
        state=("h", "Hidden activations h(t)"),
        flow_state="act_fb",
        algorithms=("bptt", "tbptt"),
        defaults=_frozen({"n_static": 0, "n_net_fb": 2, "n_act_fb": 2, "init_range": 0.1}),
        gate_text="",
        state_text=(
            "Hidden activations h(t): each unit only feeds back to itself; self-weights |w| > 2 latch "
            "a sign for ever, |u| < 1 and |v| < 2 forget."
        ),
        no_gates_note="This cell has no gates: the chart shows the net inputs of its hidden units instead.",
        param_groups=_frozen(
            {"W": "input", "b": "hidden bias", "u": "net-input feedback", "v": "activation feedback"}
        ),
    ),
    Variant(
        "lstm1997",
        "LSTM 1997 (CEC, no forget gate)",
        "Hochreiter & Schmidhuber 1997: constant error carousel, input and output gates",
        H97,
        "memory_cell",
        settings=_MEMORY_SETTINGS,
        options=_MEMORY_OPTIONS,
        gate_biases=_frozen({"input": "b_ig", "output": "b_og", "cell": "b_c"}),
        bias_unit="block",
        gates=_MEMORY_GATES_1997,
        state=("s", "Cell states s(t) — the CEC"),
        flow_state="s",
        algorithms=("rtrl", "bptt", "tbptt"),
        defaults=_frozen(
            {"n_blocks": 2, "block_size": 2, "init_range": 0.1, "bias": {"output": [-1.0, -2.0]}}
        ),
        gate_text=(
            "Gate openness: 0 = shut, 1 = open. A trained 1997 cell opens its input gate when "
            "something worth storing arrives and its output gate when the answer is due."
        ),
        state_text=_CEC_TEXT,
    ),
    Variant(
        "lstm2000",
        "LSTM 2000 (forget gate)",
        "Gers, Schmidhuber & Cummins 2000: LSTM-1997 plus a forget gate",
        "Gers, Schmidhuber & Cummins 2000",
        "memory_cell",
        settings=_MEMORY_SETTINGS,
        options=_MEMORY_OPTIONS + ("forget_gate",),
        gate_biases=_frozen({"input": "b_ig", "output": "b_og", "forget": "b_fg", "cell": "b_c"}),
        bias_unit="block",
        gates=_MEMORY_GATES_2000,
        state=("s", "Cell states s(t) — the CEC"),
        flow_state="s",
        algorithms=("rtrl", "bptt", "tbptt"),
        # Gers et al. 2000 initialised forget-gate biases positive: "remember by default".
        defaults=_frozen(
            {
                "n_blocks": 2,
                "block_size": 2,
                "init_range": 0.1,
                "bias": {"output": [-1.0, -2.0], "forget": 1.0},
            }
        ),
        gate_text=(
            "Gate openness: 0 = shut, 1 = open. The forget gate near 1 keeps the cell's contents; it "
            "drops towards 0 when the cell should be reset."
        ),
        state_text=_FORGET_STATE_TEXT,
    ),
    Variant(
        "lstm2002",
        "LSTM 2002 (peepholes)",
        "Gers, Schraudolph & Schmidhuber 2002: forget gate plus peephole connections",
        "Gers, Schraudolph & Schmidhuber 2002",
        "memory_cell",
        settings=_MEMORY_SETTINGS,
        options=_MEMORY_OPTIONS + ("forget_gate", "peepholes"),
        gate_biases=_frozen({"input": "b_ig", "output": "b_og", "forget": "b_fg", "cell": "b_c"}),
        bias_unit="block",
        gates=_MEMORY_GATES_2000,
        state=("s", "Cell states s(t) — the CEC"),
        flow_state="s",
        algorithms=("rtrl", "bptt", "tbptt"),
        defaults=_frozen(_2002),
        gate_text=(
            "Gate openness: 0 = shut, 1 = open. The peepholes let each gate see its own cell state, "
            "so the gates can time their opening from the state itself."
        ),
        state_text=_FORGET_STATE_TEXT,
    ),
    Variant(
        "lstm",
        "LSTM (PyTorch)",
        "the modern LSTM, exactly PyTorch's nn.LSTM (one layer)",
        "Hochreiter & Schmidhuber 1997; Gers et al. 2000; PyTorch nn.LSTM",
        "lstm",
        settings=("n_hidden", "init_range"),
        options=("recurrent_scale",),
        gate_biases=_frozen({"input": "b_i", "forget": "b_f", "cell": "b_g", "output": "b_o"}),
        bias_unit="unit",
        gates=(("i", "input i"), ("f", "forget f"), ("o", "output o")),
        state=("c", "Cell states c(t)"),
        flow_state="c",
        algorithms=("bptt", "tbptt"),
        defaults=_frozen({"n_hidden": 8, "init_range": 0.35}),  # PyTorch: ±1/√H
        gate_text=(
            "Gate openness (PyTorch LSTM): i lets new content in, f keeps the old cell state, o exposes it."
        ),
        state_text="Cell states c(t): kept from step to step as long as the forget gate f stays near 1.",
        torch_gates=("i", "f", "g", "o"),
        recurrent_scale=True,
    ),
    Variant(
        "gru",
        "GRU (PyTorch)",
        "the gated recurrent unit, exactly PyTorch's nn.GRU (one layer)",
        "Cho et al. 2014; PyTorch nn.GRU",
        "gru",
        settings=("n_hidden", "init_range"),
        options=("recurrent_scale",),
        gate_biases=_frozen({"reset": "b_ir", "update": "b_iz", "candidate": "b_in"}),
        bias_unit="unit",
        gates=(("r", "reset r"), ("z", "update z")),
        state=("h", "Hidden state h(t)"),
        flow_state="h",
        algorithms=("bptt", "tbptt"),
        defaults=_frozen({"n_hidden": 8, "init_range": 0.35}),
        gate_text=(
            "Gate openness (GRU): z near 1 keeps the old hidden state, r decides how much of it the "
            "candidate sees."
        ),
        state_text="Hidden state h(t): a mix of the old state and the candidate, weighted by the update gate.",
        torch_gates=("r", "z", "n"),
        recurrent_scale=True,
    ),
]
REGISTRY: Mapping[str, Variant] = _frozen({v.name: v for v in _RECORDS})
VARIANTS: Mapping[str, str] = _frozen({v.name: v.description for v in _RECORDS})
MEMORY_CELL_VARIANTS: tuple[str, ...] = tuple(v.name for v in _RECORDS if v.memory_cell)
TORCH_VARIANTS: tuple[str, ...] = tuple(v.name for v in _RECORDS if v.torch_gates)
GATE_BIASES: Mapping[str, Mapping[str, str]] = _frozen({v.name: v.gate_biases for v in _RECORDS})


def variant(name: Any) -> Variant:
    """The record of ``name`` (a variant name or anything with ``.variant``, e.g. a ModelConfig)."""
    key = getattr(name, "variant", name)
    try:
        return REGISTRY[key]
    except (KeyError, TypeError):
        raise CoreError(
            "unknown variant {variant}; choose one of {choices}", variant=repr(key), choices=list(REGISTRY)
        ) from None


def is_memory_cell(cfg_or_name: Any) -> bool:
    """True for the LSTM-1997 family (lstm1997, lstm2000, lstm2002)."""
    return variant(cfg_or_name).memory_cell


def supporting(what: str) -> tuple[str, ...]:
    """Variants that support an algorithm or gradient method, e.g. ``supporting("rtrl")``."""
    return tuple(v.name for v in _RECORDS if what in v.algorithms or what in v.gradient_methods)


def check_algorithm(name: Any, algorithm: str) -> None:
    """ValueError unless the variant supports the training algorithm (says which do)."""
    v = variant(name)
    if algorithm not in v.algorithms:
        title = ALGORITHM_TITLES.get(algorithm, algorithm)
        raise CoreError(
            "{name} exists only for {variants}; a {variant} network trains with {algorithms} — use "
            "algorithm={first}",
            name=title,  # the algorithm's title, a core text itself (translated with the message)
            variants=", ".join(supporting(algorithm)),
            variant=v.name,
            algorithms=" or ".join(v.algorithms),
            first=repr(v.algorithms[0]),
        )
