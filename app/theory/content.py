"""Text of the Theory page: every variant's equations (SPEC 2.2), the symbol table, the argument.

The equations are LaTeX for ``st.latex`` (KaTeX). Terms that are new compared with the
previous variant in the chain rnn → local_feedback → lstm1997 → lstm2000 → lstm2002 → lstm →
gru are wrapped in ``\\NEW{…}``; ``equations(variant, highlight=True)`` draws them in a
vermillion frame (shape *and* colour, so the highlight survives colour-blindness and grey-scale
projectors), ``highlight=False`` prints them plainly. Each highlight is also said in words
(``VARIANTS[v].new``) for screen readers.

Every text is English here, marked with ``N_`` and translated where it is drawn (the page calls
``_``); the words inside the equations (``\\text{…}``) are translated by ``equations`` and
``text_in_latex``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

import lstm_core as lc
from app import i18n
from app.i18n import N_, _

HIGHLIGHT_FG, HIGHLIGHT_BG = "#D55E00", "#FDEBDD"  # Okabe–Ito vermillion on a pale tint


@dataclass(frozen=True)
class Variant:
    """The Theory page's text for one variant; its title and paper are the registry's."""

    name: str
    latex: str  # an aligned block with \NEW{…} marks
    new: str  # what the marks highlight, in words
    note: str = ""  # how Gate Lab's implementation reads or extends the equations

    @property
    def title(self) -> str:
        """The registry's title in this session's language (the core's texts are in the ``core`` domain)."""
        return f"{self.name} — {_(lc.variant(self.name).title)}"

    @property
    def paper(self) -> str:
        return _(lc.variant(self.name).paper)


_R = r"\mathrm"  # roman subscripts: ig, og, fg, c, out
IG, OG, FG = rf"{_R}{{ig}}", rf"{_R}{{og}}", rf"{_R}{{fg}}"
OUT = rf"{_R}{{out}}"

_MEMORY_TAIL = rf"""
y_{{c,kj}}(t) &= y_{{{OG},k}}(t)\cdot h\big(s_{{kj}}(t)\big) \\
y(t) &= f_{{{OUT}}}\big(W_{{{OUT}}}\cdot[\,y_c(t)\,] + b_{{{OUT}}}\big)"""

# Lines are kept short enough for a column half the page wide (long ones wrap after a "+", the
# equation itself unchanged); the rows of the 1997 family line up across 1997 / 2000 / 2002.
VARIANTS: dict[str, Variant] = {
    "rnn": Variant(
        "rnn",
        rf"""\begin{{aligned}}
h(t) &= f\big(W\,x(t) + U\,h(t-1) + b\big) \\
y(t) &= f_{{{OUT}}}\big(W_{{{OUT}}}\,h(t) + b_{{{OUT}}}\big) \\
f &= \tanh\ \ (\text{{option: }}\sigma)
\end{{aligned}}""",
        "—",
        N_("Error flowing back q steps is scaled by a product of q factors U·f'(net)."),
    ),
    "local_feedback": Variant(
        "local_feedback",
        rf"""\begin{{aligned}}
&\textsf{{static units}} \\
h_j(t) &= f\big(w_j\cdot x(t)\big) \\
&\textsf{{net-input feedback units}} \\
\hat h_j(t) &= \NEW{{u_j\,\hat h_j(t-1)}} + w_j\cdot x(t) \\
h_j(t) &= f\big(\hat h_j(t)\big) \\
&\textsf{{activation feedback units}} \\
\bar h_j(t) &= \NEW{{v_j\,h_j(t-1)}} + w_j\cdot x(t) \\
h_j(t) &= f\big(\bar h_j(t)\big) \\
y(t) &= f\big(W_{{{OUT}}}\,h(t)\big) \\
f(a) &= \tanh(a/2), \qquad M = \max f' = \tfrac12
\end{{aligned}}""",
        N_(
            "the full recurrent matrix U h(t−1) is replaced by one self-loop per unit: u_j on the net "
            "input (net-input feedback) or v_j on the activation (activation feedback); the hidden "
            "units see only the current input x(t)."
        ),
        N_(
            "Gate Lab adds a bias b_j to every hidden net input and b_out to the output, and lets you "
            "choose the output squashing f_out."
        ),
    ),
    "lstm1997": Variant(
        "lstm1997",
        rf"""\begin{{aligned}}
z(t) &= [\,x(t),\ r(t-1)\,] \\
r(t-1) &= [\,y_{{{IG}}},\ y_{{{OG}}},\ y_c\,](t-1) \\
y_{{{IG},k}}(t) &= \NEW{{\sigma\big(W_{{{IG},k}}\cdot z(t) + b_{{{IG},k}}\big)}} \\
&\phantom{{=}}\ \textsf{{(no forget gate)}} \\
s_{{kj}}(t) &= \NEW{{s_{{kj}}(t-1)}} \\
&\quad + \NEW{{y_{{{IG},k}}(t)}}\cdot g\big(W_{{c,kj}}\cdot z(t) + b_{{c,kj}}\big) \\
y_{{{OG},k}}(t) &= \NEW{{\sigma\big(W_{{{OG},k}}\cdot z(t) + b_{{{OG},k}}\big)}} \\
y_{{c,kj}}(t) &= \NEW{{y_{{{OG},k}}(t)}}\cdot h\big(s_{{kj}}(t)\big) \\
y(t) &= f_{{{OUT}}}\big(W_{{{OUT}}}\cdot[\,y_c(t)\,] + b_{{{OUT}}}\big) \\
g(x) &= 4\sigma(x) - 2, \qquad h(x) = 2\sigma(x) - 1
\end{{aligned}}""",
        N_(
            "the constant error carousel: the cell state s keeps its own past with self-weight 1 and a "
            "linear unit (a net-input feedback unit with u = 1 and no squashing), and two "
            "multiplicative gates, y_ig (write) and y_og (read), one pair per block of cells."
        ),
        N_(
            "Options used by the paper's experiments: no output gate (y_og ≡ 1), g = σ and h = identity, "
            "f_out = σ or identity, and the output layer may also see x(t)."
        ),
    ),
    "lstm2000": Variant(
        "lstm2000",
        rf"""\begin{{aligned}}
z(t) &= [\,x(t),\ r(t-1)\,] \\
r(t-1) &= [\,y_{{{IG}}},\ y_{{{OG}}},\ \NEW{{y_{{{FG}}}}},\ y_c\,](t-1) \\
y_{{{IG},k}}(t) &= \sigma\big(W_{{{IG},k}}\cdot z(t) + b_{{{IG},k}}\big) \\
y_{{{FG},k}}(t) &= \NEW{{\sigma\big(W_{{{FG},k}}\cdot z(t) + b_{{{FG},k}}\big)}} \\
s_{{kj}}(t) &= \NEW{{y_{{{FG},k}}(t)}}\,s_{{kj}}(t-1) \\
&\quad + y_{{{IG},k}}(t)\,g\big(W_{{c,kj}}\cdot z(t) + b_{{c,kj}}\big) \\
y_{{{OG},k}}(t) &= \sigma\big(W_{{{OG},k}}\cdot z(t) + b_{{{OG},k}}\big) \\"""
        + _MEMORY_TAIL
        + r"""
\end{aligned}""",
        N_(
            "a forget gate y_fg per block multiplies the carried state: the CEC's self-weight 1 becomes "
            "a learned y_fg(t) ∈ (0, 1), and y_fg(t−1) joins the recurrent sources."
        ),
        N_(
            "The 2000 paper starts forget-gate biases positive (remember by default); the 2002 "
            "experiments use −2."
        ),
    ),
    "lstm2002": Variant(
        "lstm2002",
        rf"""\begin{{aligned}}
z(t) &= [\,x(t),\ r(t-1)\,] \\
r(t-1) &= [\,y_{{{IG}}},\ y_{{{OG}}},\ y_{{{FG}}},\ y_c\,](t-1) \\
y_{{{IG},k}}(t) &= \sigma\big(W_{{{IG},k}}\cdot z(t) + \NEW{{u_{{{IG},k}}\odot s_k(t-1)}} + b_{{{IG},k}}\big) \\
y_{{{FG},k}}(t) &= \sigma\big(W_{{{FG},k}}\cdot z(t) + \NEW{{u_{{{FG},k}}\odot s_k(t-1)}} + b_{{{FG},k}}\big) \\
s_k(t) &= y_{{{FG},k}}(t)\,s_k(t-1) \\
&\quad + y_{{{IG},k}}(t)\,g\big(W_{{c,k}}\cdot z(t) + b_{{c,k}}\big) \\
y_{{{OG},k}}(t) &= \sigma\big(W_{{{OG},k}}\cdot z(t) + \NEW{{u_{{{OG},k}}\odot s_k(t)}} + b_{{{OG},k}}\big) \\
y_{{c,k}}(t) &= y_{{{OG},k}}(t)\cdot h\big(s_k(t)\big) \\
y(t) &= f_{{{OUT}}}\big(W_{{{OUT}}}\cdot[\,y_c(t)\,] + b_{{{OUT}}}\big)
\end{{aligned}}""",
        N_(
            "peephole weights u from each cell state to its own block's gates: the input and forget "
            "gates see s_k(t−1), the output gate sees the new s_k(t) (so it is computed after s)."
        ),
        N_(
            "A gate is one unit per block, so u ⊙ s is summed over the block's cells (Σ_j u_kj s_kj). "
            "The 2002 experiments use g = h = identity and connect gates and cell inputs to x(t) and "
            "the cell outputs only (the option “gates as recurrent sources” off). No error flows back "
            "through the peepholes in the truncated gradient."
        ),
    ),
    "lstm": Variant(
        "lstm",
        rf"""\begin{{aligned}}
i(t) &= \sigma\big(W_i\,x(t) + \NEW{{U_i\,h(t-1)}} + b_i\big) \\
f(t) &= \sigma\big(W_f\,x(t) + \NEW{{U_f\,h(t-1)}} + b_f\big) \\
g(t) &= \NEW{{\tanh}}\big(W_g\,x(t) + \NEW{{U_g\,h(t-1)}} + b_g\big) \\
c(t) &= f(t)\odot c(t-1) + i(t)\odot g(t) \\
o(t) &= \sigma\big(W_o\,x(t) + \NEW{{U_o\,h(t-1)}} + b_o\big) \\
h(t) &= o(t)\odot \NEW{{\tanh}}\big(c(t)\big) \\
y(t) &= f_{{{OUT}}}\big(W_{{{OUT}}}\,h(t) + b_{{{OUT}}}\big)
\end{{aligned}}""",
        N_(
            "only the cell outputs h(t−1) recur (through separate matrices U_*; the gate activations are "
            "no longer recurrent sources), tanh replaces g and h, every cell has its own gates, and the "
            "peepholes are gone."
        ),
        N_("b_* is PyTorch's bias_ih + bias_hh; from_torch / to_torch convert a state_dict."),
    ),
    "gru": Variant(
        "gru",
        rf"""\begin{{aligned}}
r(t) &= \sigma\big(W_r\,x(t) + b_{{ir}} + U_r\,h(t-1) + b_{{hr}}\big) \\
z(t) &= \sigma\big(W_z\,x(t) + b_{{iz}} + U_z\,h(t-1) + b_{{hz}}\big) \\
n(t) &= \tanh\big(W_n\,x(t) + b_{{in}} \\
&\qquad + \NEW{{r(t)\odot\big(U_n\,h(t-1) + b_{{hn}}\big)}}\big) \\
h(t) &= \NEW{{\big(1 - z(t)\big)\odot n(t) + z(t)\odot h(t-1)}} \\
y(t) &= f_{{{OUT}}}\big(W_{{{OUT}}}\,h(t) + b_{{{OUT}}}\big)
\end{{aligned}}""",
        N_(
            "no separate cell state and no output gate: the update gate z mixes the old h(t−1) with the "
            "candidate n(t) (one gate plays forget (z) and input (1 − z)), and the reset gate r scales "
            "the recurrent part of the candidate."
        ),
    ),
}

# The tabs of the side-by-side view, one per consecutive pair of CHAIN: the right column is
# highlighted against the left one. (Three columns — 1997 | 2000 | 2002 — are too narrow for
# the 2002 gate equations at a readable size, so that step is two tabs.)
COMPARISONS: list[tuple[str, tuple[str, ...]]] = [
    (N_("rnn → local feedback"), ("rnn", "local_feedback")),
    (N_("local feedback → LSTM 1997 (the CEC)"), ("local_feedback", "lstm1997")),
    (N_("LSTM 1997 → 2000 (forget gate)"), ("lstm1997", "lstm2000")),
    (N_("LSTM 2000 → 2002 (peepholes)"), ("lstm2000", "lstm2002")),
    (N_("LSTM 2002 → modern LSTM"), ("lstm2002", "lstm")),
    (N_("LSTM vs GRU"), ("lstm", "gru")),
]
CHAIN = ("rnn", "local_feedback", "lstm1997", "lstm2000", "lstm2002", "lstm", "gru")


def _replace_marks(tex: str, wrap) -> str:
    """Replace every \\NEW{…} (balanced braces) by wrap(inner)."""
    out, i, mark = [], 0, r"\NEW{"
    while (j := tex.find(mark, i)) >= 0:
        out.append(tex[i:j])
        depth, k = 1, j + len(mark)
        while depth:
            if k >= len(tex):
                raise ValueError(
                    f"unbalanced \\NEW{{ in {tex[j : j + 40]!r}"
                )  # i18n: kept (a bug in this file)
            depth += {"{": 1, "}": -1}.get(tex[k], 0)
            k += 1
        out.append(wrap(tex[j + len(mark) : k - 1]))
        i = k
    out.append(tex[i:])
    return "".join(out)


def equations(variant: str, highlight: bool = False, size: str = "") -> str:
    """LaTeX of one variant; with ``highlight`` the terms new vs its predecessor are framed.

    ``size`` is a KaTeX sizing command ("small", "large", …) put in front of the block.
    """
    tex = VARIANTS[variant].latex
    if highlight:
        # \fcolorbox holds text: the math goes back in with $…$; \displaystyle keeps its size.
        tex = _replace_marks(
            tex,
            lambda m: (
                rf"\fcolorbox{{{HIGHLIGHT_FG}}}{{{HIGHLIGHT_BG}}}"
                rf"{{$\displaystyle\textcolor{{{HIGHLIGHT_FG}}}{{{m}}}$}}"
            ),
        )
    else:
        tex = _replace_marks(tex, lambda m: m)
    return (f"\\{size} " if size else "") + text_in_latex(tex)


# The words inside the equations (\text{…}, \textsf{…}), translated where drawn by text_in_latex.
LATEX_TEXTS = frozenset(
    (
        N_("option: "),
        N_("static units"),
        N_("net-input feedback units"),
        N_("activation feedback units"),
        N_("(no forget gate)"),
        N_("explodes"),
        N_("vanishes"),
        N_("forgetting"),
        N_("latching"),
    )
)
_LATEX_TEXT = re.compile(r"(\\text(?:sf)?\{)([^{}]*)(\})")


def text_in_latex(tex: str) -> str:
    """``tex`` with the words of its ``\\text{…}`` / ``\\textsf{…}`` in this session's language."""
    return _LATEX_TEXT.sub(lambda m: m[1] + (_(m[2]) if m[2] in LATEX_TEXTS else m[2]) + m[3], tex)


def predecessor(variant: str) -> str | None:
    i = CHAIN.index(variant)
    return CHAIN[i - 1] if i else None


# --- symbol table -------------------------------------------------------------------------------
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


# --- the vanishing-gradient argument ----------------------------------------------------------
# (markdown, latex or "") pairs, in reading order: VANISHING (the page draws σ' after it), then
# CEC_AND_FIXES. Equation numbers refer to the 1997 paper
# (Hochreiter & Schmidhuber, Neural Computation 9(8)); w_uv is the weight from unit v to unit u.
VANISHING: list[tuple[str, str]] = [
    (
        N_(
            r"**1. Error flowing back q steps (1997, eqs. 3.1–3.2).** Let $\vartheta_u(t)$ be the error at "
            r"unit $u$'s net input at time $t$. One step back it is scaled by $f'\cdot w$; $q$ steps back by "
            r"a sum, over all paths $l_0 = u, l_1, \dots, l_q = v$, of products of $q$ such factors:"
        ),
        r"""\frac{\partial \vartheta_v(t-q)}{\partial \vartheta_u(t)} =
\begin{cases} f'_v\big(\mathrm{net}_v(t-1)\big)\, w_{uv} & q = 1 \\[4pt]
\displaystyle\sum_{l_1=1}^{n}\cdots\sum_{l_{q-1}=1}^{n}\ \prod_{m=1}^{q} f'_{l_m}\big(\mathrm{net}_{l_m}(t-m)\big)\,
w_{l_{m-1} l_m} & q > 1 \end{cases}""",
    ),
    (
        N_(
            r"**2. Explode or vanish.** If every factor has $|f'\cdot w| > 1$ the product grows "
            r"exponentially in $q$ (the weights oscillate; learning is unstable). If every factor has "
            r"$|f'\cdot w| < 1$ it decays exponentially: error from $q$ steps ago is lost in the gradient."
        ),
        r"""\big|f'_{l_m}(\mathrm{net}_{l_m})\,w_{l_{m-1}l_m}\big| > 1\ \forall m \Rightarrow \text{explodes},
\qquad \big|f'_{l_m}(\mathrm{net}_{l_m})\,w_{l_{m-1}l_m}\big| < 1\ \forall m \Rightarrow \text{vanishes}""",
    ),
    (
        N_(
            r"**3. With the logistic σ it vanishes whenever |w| < 4.** $\sigma'$ peaks at $x = 0$ with "
            r"value $\tfrac14$ (figure below), so small weights always give factors below 1. Large weights "
            r"do not rescue it: $|w| \to \infty$ drives $|\mathrm{net}| \to \infty$ and "
            r"$\sigma'(\mathrm{net}) \to 0$ faster than $w$ grows."
        ),
        r"""\sigma'(x) = \sigma(x)\big(1-\sigma(x)\big) \le \tfrac14
\quad\Longrightarrow\quad |w| < 4 \ \Rightarrow\ \big|w\,\sigma'(\mathrm{net})\big| < 4\cdot\tfrac14 = 1""",
    ),
    (
        N_(
            r"The same bound for the other squashing functions (their maxima are computed by lstm_core "
            r"in the figure): $\tanh' \le 1$, so $|w| < 1$ decays; the 1997 $g' \le 1$ and $h' \le \tfrac12$."
        ),
        "",
    ),
]
CEC_AND_FIXES: list[tuple[str, str]] = [
    (
        N_(
            r"**4. The constant error carousel.** A single unit $j$ with only a self-connection $w_{jj}$ "
            r"keeps its error constant only if the factor is exactly 1. Integrating shows $f_j$ must be "
            r"linear, and its activation then stays constant too: take $f_j$ = identity and $w_{jj} = 1$. "
            r"In the cell this is $s(t) = s(t-1) + \dots$, so $\partial s(t)/\partial s(t-1) = 1$."
        ),
        r"""\begin{aligned}
\vartheta_j(t) &= f'_j\big(\mathrm{net}_j(t)\big)\,\vartheta_j(t+1)\,w_{jj} \\
f'_j\big(\mathrm{net}_j(t)\big)\,w_{jj} = 1 \ &\Rightarrow\ y_j(t+1) = f_j\big(w_{jj}\,y_j(t)\big) = y_j(t)
\end{aligned}""",
    ),
    (
        N_(
            r"**5. The 1997 truncation.** The paper cuts every error path except the carousel: the "
            r"derivatives of the gates' and cell inputs' net inputs with respect to the recurrent sources "
            r"$r(t-1)$ are set to 0. Error reaching a cell then flows back only along $s$ and is carried "
            r"unchanged; the gradient becomes local in space and time (RTRL with eligibility traces). "
            r"With a forget gate (2000) the carousel factor becomes $y_{\mathrm{fg}}(t)$: a learned decay."
        ),
        r"""\begin{aligned}
\frac{\partial\,\mathrm{net}_{\mathrm{ig},k}(t)}{\partial r(t-1)} \approx_{tr}
\frac{\partial\,\mathrm{net}_{\mathrm{og},k}(t)}{\partial r(t-1)} \approx_{tr}
\frac{\partial\,\mathrm{net}_{c,kj}(t)}{\partial r(t-1)} &\approx_{tr} 0 \\
\Longrightarrow\quad \frac{\partial s_{kj}(t)}{\partial s_{kj}(t-q)} &\approx_{tr} 1
\qquad \Big(\text{2000: } \prod_{m=0}^{q-1} y_{\mathrm{fg},k}(t-m)\Big)
\end{aligned}""",
    ),
    (
        N_(
            r"**6. Local feedback (Frasconi et al. 1992).** With $f(a) = \tanh(a/2)$, $M = \max f' = \tfrac12$. "
            r"A net-input feedback unit carries error back by exactly $u_j$ per step, an activation "
            r"feedback unit by $v_j f'(\cdot)$, at most $|v_j| M$. So the network *forgets* "
            r"($\partial y(t)/\partial x(t-q) \to 0$) when $|u_j| < 1$ and $|v_j| < 1/M = 2$. To *latch* "
            r"information (keep the sign of a net input for ever) the self-loop weights need $|w| > 2$."
        ),
        r"""\begin{aligned}
\left|\frac{\partial \hat h_j(t)}{\partial \hat h_j(t-q)}\right| = |u_j|^{q},\qquad
\left|\frac{\partial \bar h_j(t)}{\partial \bar h_j(t-q)}\right| &\le \big(|v_j|\,M\big)^{q} \\
|u_j| < 1,\ |v_j| < \tfrac1M = 2 \ &\Rightarrow\ \text{forgetting} \\
|w| > 2 \ &\Rightarrow\ \text{latching}
\end{aligned}""",
    ),
]
