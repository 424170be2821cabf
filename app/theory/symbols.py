"""The Theory page's symbol table: every symbol of the equations, its shape in lstm_core, its
core name and the variants that use it.

Names are English, marked with ``N_``; ``symbol_table`` translates them (symbols, shapes and
core names stay as they are).
"""

from __future__ import annotations

import pandas as pd

from app import i18n
from app.i18n import N_, _

# Shapes are those of one network in lstm_core (a population adds a leading axis K; states and
# internals add the batch axis B). Z = n_in + |r| is the length of z(t); H = n_static + n_net_fb +
# n_act_fb; n_cells = n_blocks · block_size. "core" names the params / rec entry to look at.
_ALL = N_("all")
_F97 = "lstm1997, lstm2000, lstm2002"
_F00 = "lstm2000, lstm2002"
SYMBOLS: list[tuple[str, str, str, str, str]] = [
    # symbol, name, shape, core name, variants
    ("x(t)", N_("input at step t"), "(n_in,)", "xs[t]", _ALL),
    ("y(t)", N_("network output"), "(n_out,)", "rec y", _ALL),
    (
        "W_out, b_out",
        N_("output layer weights, bias"),
        "(n_out, n_hidden_out), (n_out,)",
        "W_out, b_out",
        _ALL,
    ),
    ("f_out", N_("output squashing: σ, identity, tanh or softmax"), "—", "output_activation", _ALL),
    ("σ", N_("logistic sigmoid 1/(1+e^(−x)); σ' ≤ ¼"), "—", "activations.sigmoid", _ALL),
    ("h(t)", N_("hidden state"), "(n_hidden,)", "rec h", "rnn, lstm, gru"),
    (
        "W, U, b",
        N_("input weights, recurrent weights, bias"),
        "(n_hidden, n_in), (n_hidden, n_hidden), (n_hidden,)",
        "W, U, b",
        "rnn",
    ),
    ("f", N_("hidden activation tanh (or σ)"), "—", "activation", "rnn"),
    (
        "w_j (rows of W), b_j",
        N_("input weights and bias of hidden unit j"),
        "(H, n_in), (H,)",
        "W, b",
        "local_feedback",
    ),
    ("u_j", N_("self-weight of a net-input feedback unit"), "(n_net_fb,)", "u", "local_feedback"),
    ("v_j", N_("self-weight of an activation feedback unit"), "(n_act_fb,)", "v", "local_feedback"),
    (
        "ĥ_j(t), h̄_j(t)",
        N_("net input of a net-input / activation feedback unit"),
        "(H,)",
        "rec net",
        "local_feedback",
    ),
    ("f, M", N_("f(a) = tanh(a/2); M = max f' = ½"), "—", "activations 'half_tanh'", "local_feedback"),
    ("z(t) = [x(t), r(t−1)]", N_("inputs of every gate and cell input"), "(Z,)", "rec z", _F97),
    (
        "r(t−1)",
        N_("recurrent sources: gate activations and cell outputs of step t−1"),
        "(Z − n_in,)",
        "state r",
        _F97,
    ),
    (
        "W_ig,k, b_ig,k",
        N_("input gate weights, bias (one gate per block k)"),
        "(n_blocks, Z), (n_blocks,)",
        "W_ig, b_ig",
        _F97,
    ),
    ("W_og,k, b_og,k", N_("output gate weights, bias"), "(n_blocks, Z), (n_blocks,)", "W_og, b_og", _F97),
    ("W_fg,k, b_fg,k", N_("forget gate weights, bias"), "(n_blocks, Z), (n_blocks,)", "W_fg, b_fg", _F00),
    (
        "W_c,kj, b_c,kj",
        N_("cell input weights, bias (cell j of block k)"),
        "(n_cells, Z), (n_cells,)",
        "W_c, b_c",
        _F97,
    ),
    (
        "u_ig,k, u_fg,k, u_og,k",
        N_("peephole weights from the block's cell states to its gates"),
        "(n_blocks, block_size) each",
        "u_ig, u_fg, u_og",
        "lstm2002",
    ),
    ("y_ig,k(t), y_og,k(t)", N_("input / output gate activation"), "(n_blocks,)", "rec y_ig, y_og", _F97),
    ("y_fg,k(t)", N_("forget gate activation"), "(n_blocks,)", "rec y_fg", _F00),
    ("s_kj(t)", N_("cell state: the constant error carousel"), "(n_cells,)", "rec s", _F97),
    (
        "g, h",
        N_("cell input / output squashing: g = 4σ − 2 ∈ (−2, 2), h = 2σ − 1 ∈ (−1, 1)"),
        "—",
        "cell_input, cell_output",
        _F97,
    ),
    ("y_c,kj(t)", N_("cell output y_og · h(s)"), "(n_cells,)", "rec y_c", _F97),
    (
        "W_i, W_f, W_g, W_o",
        N_("input weights of the gates i, f, o and the candidate g"),
        "(n_hidden, n_in) each",
        "W_i, W_f, W_g, W_o",
        "lstm",
    ),
    (
        "U_i, U_f, U_g, U_o",
        N_("recurrent weights"),
        "(n_hidden, n_hidden) each",
        "U_i, U_f, U_g, U_o",
        "lstm",
    ),
    (
        "b_i, b_f, b_g, b_o",
        N_("biases (PyTorch bias_ih + bias_hh)"),
        "(n_hidden,) each",
        "b_i, b_f, b_g, b_o",
        "lstm",
    ),
    ("i, f, o (t)", N_("input, forget, output gates"), "(n_hidden,) each", "rec i, f, o", "lstm"),
    ("g(t), c(t)", N_("candidate, cell state"), "(n_hidden,) each", "rec g, c", "lstm"),
    (
        "W_r, W_z, W_n",
        N_("input weights of reset gate, update gate, candidate"),
        "(n_hidden, n_in) each",
        "W_r, W_z, W_n",
        "gru",
    ),
    ("U_r, U_z, U_n", N_("recurrent weights"), "(n_hidden, n_hidden) each", "U_r, U_z, U_n", "gru"),
    (
        "b_ir, b_iz, b_in, b_hr, b_hz, b_hn",
        N_("input-side and hidden-side biases"),
        "(n_hidden,) each",
        "b_ir … b_hn",
        "gru",
    ),
    ("r(t), z(t), n(t)", N_("reset gate, update gate, candidate"), "(n_hidden,) each", "rec r, z, n", "gru"),
    ("⊙", N_("element-wise product"), "—", "—", "lstm2002, lstm, gru"),
]


def symbol_columns() -> list[str]:
    """The symbol table's headers ("shape" of an array: the same English is a wave's shape elsewhere)."""
    return [_("symbol"), _("name"), i18n.pgettext("array", "shape"), _("lstm_core name"), _("variants")]


def _shape(shape: str) -> str:
    return _("{shapes} each").format(shapes=shape.removesuffix(" each")) if shape.endswith(" each") else shape


def symbol_table() -> pd.DataFrame:
    """The symbol table in this session's language (symbols, shapes and core names stay)."""
    rows = [
        (symbol, _(name), _shape(shape), core, _(variants) if variants == _ALL else variants)
        for symbol, name, shape, core, variants in SYMBOLS
    ]
    return pd.DataFrame(rows, columns=symbol_columns())
