"""Equations of the Theory page: every variant's LaTeX (SPEC 2.2), the comparison pairs, and the
translation of the words inside equations. (The symbol table is ``app.theory.symbols``, the
vanishing-gradient argument ``app.theory.argument``.)

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

import lstm_core as lc
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
        return _(lc.variant(self.name).title)

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

# The pairs of the side-by-side view, one per consecutive pair of CHAIN: the right column is
# highlighted against the left one. (Three columns — 1997 | 2000 | 2002 — are too narrow for
# the 2002 gate equations at a readable size, so that step is two pairs.)
COMPARISONS: list[tuple[str, tuple[str, ...]]] = [
    (N_("RNN → local feedback"), ("rnn", "local_feedback")),
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
