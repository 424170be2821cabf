"""Take a scheme home: the code that applies an initialisation scheme in PyTorch, Keras and Flax.

Each snippet is generated from the scheme's registry entry (``init_schemes.SCHEMES``), not written per
scheme, and draws its random values with ``np.random.default_rng(seed)`` in the core's order, so the
biases it sets are exactly ``init_schemes.scheme_biases`` for the same seed and size (the tests run the
PyTorch, Keras and Flax snippets and compare, in ``make test-torch``). Schemes built on PyTorch's
default keep PyTorch's own draw in the PyTorch snippet (nothing to re-draw there) and re-draw it the
core's way in Keras and Flax, which do not have it.

The 1997 family (lstm1997, lstm2000, lstm2002) has no counterpart in these frameworks: its snippets
are the modern LSTM's, whose forget, input and output gates take the same scheme.
"""

from __future__ import annotations

from .errors import CoreError
from .init_schemes import CHRONO, CONST, LINSPACE, MIRROR, UGI, scheme

FRAMEWORKS = ("pytorch", "keras", "flax")

# each framework's gate order, by the core's gate names (the LSTM's keep gate is "forget", the GRU's "update")
_ORDER = {
    ("pytorch", "lstm"): ("input", "forget", "cell", "output"),
    ("pytorch", "gru"): ("reset", "update", "candidate"),
    ("keras", "lstm"): ("input", "forget", "cell", "output"),
    ("keras", "gru"): ("update", "reset", "candidate"),
    ("flax", "lstm"): ("input", "forget", "cell", "output"),
    ("flax", "gru"): ("reset", "update", "candidate"),
}
_TORCH_ORDER = {"lstm": ("input", "forget", "cell", "output"), "gru": ("reset", "update", "candidate")}
_NAMES = {"input": "input", "forget": "forget", "cell": "cell", "output": "output", "reset": "reset",
          "update": "update", "candidate": "candidate"}  # fmt: skip


def _family(variant: str) -> str:
    return "gru" if variant == "gru" else "lstm"


def _draw_lines(name: str, fam: str, order: tuple[str, ...]) -> list[str]:
    """``b[row] = …`` lines for the scheme's named gates, in the core's draw order (PyTorch's gate
    order, mirrors last), writing into rows of ``order``."""
    s = scheme(name)
    keep = "update" if fam == "gru" else "forget"
    named = {(keep if g == "keep" else g): d for g, d in s.gates.items()}
    lines = []
    row = {g: i for i, g in enumerate(order)}
    for gate in _TORCH_ORDER[fam]:
        d = named.get(gate)
        if d is None or d[0] == MIRROR:
            continue
        r = row[gate]
        if d[0] == CONST:
            lines.append(f"b[{r}] = {d[1]!r}  # {_NAMES[gate]} gate")
        elif d[0] == LINSPACE:
            lines.append(f"b[{r}] = np.linspace({d[1]!r}, {d[2]!r}, H)  # {_NAMES[gate]} gate, staggered")
        elif d[0] == CHRONO:
            lines.append(f"b[{r}] = np.log(rng.uniform(1.0, t_max - 1.0, H))  # {_NAMES[gate]} gate: chrono")
        elif d[0] == UGI:
            lines.append(
                "u = rng.uniform(1.0 / H, 1.0 - 1.0 / H, H)  # gate values spread evenly over (0, 1)"
            )
            lines.append(f"b[{r}] = np.log(u / (1.0 - u))  # {_NAMES[gate]} gate: σ⁻¹(u)")
    for gate, d in named.items():
        if d[0] == MIRROR and gate in row:  # (a GRU has no input gate to mirror into)
            lines.append(f"b[{row[gate]}] = -b[{row[keep]}]  # {_NAMES[gate]} gate: the negative")
    return lines


def _header(name: str, hidden: int, seed: int, t_max: float | None) -> list[str]:
    s = scheme(name)
    out = [f"H, seed = {hidden}, {seed}  # hidden units; the seed of the scheme's random draws"]
    if s.needs_t_max:
        if t_max is None:
            raise CoreError(
                "{scheme} needs T_max, the longest dependency to remember in steps", scheme=s.title
            )
        out.append(f"t_max = {float(t_max)!r}  # the longest dependency to remember, in steps")
    return out


def snippet(framework: str, name: str, variant: str, hidden: int, seed: int = 0, t_max: float | None = None,
            n_in: int = 2) -> str:  # fmt: skip
    """The code that sets scheme ``name``'s biases on a one-layer LSTM / GRU of ``hidden`` units."""
    if framework not in FRAMEWORKS:
        raise CoreError(
            "unknown framework {framework}; choose one of {choices}",
            framework=repr(framework),
            choices=list(FRAMEWORKS),
        )
    s = scheme(name)
    if variant not in s.variants:
        raise CoreError("{scheme} has no meaning for a {variant} network: {why}", scheme=s.title, variant=variant,
                        why=s.why_not)  # fmt: skip
    fam = _family(variant)
    return "\n".join(_BUILDERS[framework](name, fam, hidden, seed, t_max, n_in)) + "\n"


def _pytorch(name: str, fam: str, hidden: int, seed: int, t_max: float | None, n_in: int) -> list[str]:
    s = scheme(name)
    cls = "nn.GRU" if fam == "gru" else "nn.LSTM"
    order = _ORDER[("pytorch", fam)]
    out = ["import numpy as np", "import torch", "from torch import nn", ""]
    out += _header(name, hidden, seed, t_max)
    out.append(f"net = {cls}(input_size={n_in}, hidden_size=H)  # PyTorch's default biases: ±1/√H, twice")
    if s.base == "torch":
        keep_row = order.index("update" if fam == "gru" else "forget")
        sl = f"{keep_row} * H:{keep_row + 1} * H"
        if not s.gates:
            out.append("# nothing to change: this is PyTorch's default")
        else:
            out += [
                "with torch.no_grad():",
                f"    net.bias_ih_l0[{sl}] = {s.gates['keep'][1] / 2!r}  # the forget gate, in bias_ih",
                f"    net.bias_hh_l0[{sl}] = {s.gates['keep'][1] / 2!r}  # and in bias_hh: PyTorch adds them",
            ]
        return out
    out += [
        "rng = np.random.default_rng(seed)",
        f"b = np.zeros(({len(order)}, H))  # rows in PyTorch's gate order: {', '.join(order)}",
        *_draw_lines(name, fam, order),
        "with torch.no_grad():",
        "    # PyTorch adds bias_ih and bias_hh: the whole bias goes in one, the other is 0",
        "    net.bias_ih_l0.copy_(torch.from_numpy(b.reshape(-1)))",
        "    net.bias_hh_l0.zero_()",
    ]
    return out


def _torch_redraw(fam: str, order: tuple[str, ...]) -> list[str]:
    """PyTorch's default drawn the core's way (bias_ih, then bias_hh, in PyTorch's order), as rows of ``order``."""
    rows = [_TORCH_ORDER[fam].index(g) for g in order]
    return [
        "k = 1.0 / np.sqrt(H)  # PyTorch's default, drawn as Gate Lab draws it: bias_ih, then bias_hh",
        f"b_ih = rng.uniform(-k, k, ({len(order)}, H))[{rows}]",
        f"b_hh = rng.uniform(-k, k, ({len(order)}, H))[{rows}]",
    ]


def _bias_rows(name: str, fam: str, order: tuple[str, ...], whose: str) -> list[str]:
    """Keras and Flax: the scheme's values as rows of ``order`` — ``b_ih`` and ``b_hh`` for a scheme built on
    PyTorch's default (re-drawn the core's way), else one ``b``."""
    s = scheme(name)
    if s.base != "torch":
        rows = f"b = np.zeros(({len(order)}, H))  # rows in {whose} gate order: {', '.join(order)}"
        return [rows, *_draw_lines(name, fam, order)]
    out = _torch_redraw(fam, order)
    if s.gates:
        r = order.index("update" if fam == "gru" else "forget")
        out += [f"b_ih[{r}] = {s.gates['keep'][1] / 2!r}", f"b_hh[{r}] = {s.gates['keep'][1] / 2!r}"]
    return out


def _keras(name: str, fam: str, hidden: int, seed: int, t_max: float | None, n_in: int) -> list[str]:
    s = scheme(name)
    order = _ORDER[("keras", fam)]
    cls = "GRU" if fam == "gru" else "LSTM"
    out = ["import numpy as np", "import keras", ""]
    out += _header(name, hidden, seed, t_max)
    out += [
        f"layer = keras.layers.{cls}(H)",
        f"layer.build((None, None, {n_in}))",
        "rng = np.random.default_rng(seed)",
    ]
    out += _bias_rows(name, fam, order, "Keras's")
    if fam == "gru":  # Keras's GRU (reset_after) keeps an input and a recurrent bias, like PyTorch
        both = "np.stack([b_ih.reshape(-1), b_hh.reshape(-1)])" if s.base == "torch" else (
            "np.stack([b.reshape(-1), np.zeros(3 * H)])"
        )  # fmt: skip
        out.append(f"layer.cell.bias.assign({both})")
    else:
        total = "(b_ih + b_hh).reshape(-1)" if s.base == "torch" else "b.reshape(-1)"
        out.append(f"layer.cell.bias.assign({total})  # one bias vector (Keras adds nothing to it)")
    return out


def _flax(name: str, fam: str, hidden: int, seed: int, t_max: float | None, n_in: int) -> list[str]:
    s = scheme(name)
    order = _ORDER[("flax", fam)]
    cls = "GRUCell" if fam == "gru" else "LSTMCell"
    out = [
        "import flax",
        "import flax.linen as nn",
        "import jax",
        "import jax.numpy as jnp",
        "import numpy as np",
        "",
    ]
    out += _header(name, hidden, seed, t_max)
    out += [
        f"cell = nn.{cls}(features=H)",
        f"x = jnp.zeros((1, {n_in}))",
        "params = flax.core.unfreeze(cell.init(jax.random.PRNGKey(0), cell.initialize_carry(jax.random.PRNGKey(0), x.shape), x))",
        "rng = np.random.default_rng(seed)",
    ]
    out += _bias_rows(name, fam, order, "Flax's")
    total, hidden_n = ("b_ih + b_hh", "b_hh[2]") if s.base == "torch" else ("b", "np.zeros(H)")
    out.append("p = params['params']")
    if fam == "gru":  # Flax's GRU: biases on ir, iz, in and hn (its r and z read one summed bias)
        first = "b_ih[2]" if s.base == "torch" else "b[2]"
        out += [
            f"bias = {total}",
            "p['ir']['bias'], p['iz']['bias'] = jnp.asarray(bias[0]), jnp.asarray(bias[1])",
            f"p['in']['bias'], p['hn']['bias'] = jnp.asarray({first}), jnp.asarray({hidden_n})",
        ]
    else:  # Flax's LSTMCell keeps its biases on the hidden-side layers hi, hf, hg, ho
        out += [
            f"bias = {total}",
            "for row, name in enumerate(('hi', 'hf', 'hg', 'ho')):",
            "    p[name]['bias'] = jnp.asarray(bias[row])",
        ]
    return out


_BUILDERS = {"pytorch": _pytorch, "keras": _keras, "flax": _flax}
