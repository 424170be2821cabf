"""What the family modules share in writing: numbers and symbols in LaTeX, the equation row, the
output layer's row, and plain unit names."""

from __future__ import annotations

import math
import re
from typing import Any

import lstm_core as lc
from app.i18n import _

G_TEX = {"g1997": r"g", "sigmoid": r"\sigma", "tanh": r"\tanh", "identity": r"\mathrm{id}"}
H_TEX = {"h1997": r"h", "tanh": r"\tanh", "identity": r"\mathrm{id}"}
OUT_TEX = {"sigmoid": r"\sigma", "identity": r"\mathrm{id}", "tanh": r"\tanh", "softmax": r"\mathrm{softmax}"}

Row = tuple[str, str, str]  # (left-hand side, formula, "numbers = result")


def num(x: float, paren: bool = False) -> str:
    """A number for LaTeX: 3 significant digits, powers of ten written out."""
    if not math.isfinite(x):
        return r"\mathrm{nan}" if math.isnan(x) else (r"\infty" if x > 0 else r"-\infty")
    s = f"{x:.3g}"
    if "e" in s:
        m, e = s.split("e")
        s = rf"{m}\times 10^{{{int(e)}}}"
    return f"({s})" if paren and x < 0 else s


def output_row(cfg: lc.ModelConfig, s: dict[str, Any]) -> Row:
    """The output layer's first unit, y_1(t), with this step's numbers (every family has one)."""
    fo = OUT_TEX[cfg.output_activation]
    if cfg.output_activation == "softmax":
        return (r"y_1(t)", r"\mathrm{softmax}(W_{out}\,\mathrm{hidden}(t) + b_{out})_1", num(s["y"]))
    return (
        r"y_1(t)",
        rf"{fo}(W_{{out}}\,\mathrm{{hidden}}(t) + b_{{out}})_1",
        rf"{fo}({num(s['net_y'])}) = {num(s['y'])}",
    )


def plain_unit_labels(cfg: lc.ModelConfig) -> list[str]:
    """ "unit 1", "unit 2", … for a cell whose hidden units are all alike."""
    return [_("unit {unit}").format(unit=j + 1) for j in range(cfg.n_hidden)]


def values(at: dict[str, Any], unit: int, names: tuple[str, ...]) -> dict[str, float]:
    """``names``' values of one unit out of one step's records (``at[name][unit]``)."""
    return {name: float(at[name][unit]) for name in names}


def latex(rows: list[Row]) -> str:
    """One aligned block: the formula on one line, this step's numbers under it (long
    substitutions get their result on a third line so narrow columns do not cut them off)."""
    parts = []
    for lhs, formula, numbers in rows:
        head, sep, result = numbers.rpartition(" = ")
        if sep and len(re.sub(r"\\[a-zA-Z]+", "x", numbers)) > 36:  # visible characters, roughly
            numbers = rf"{head} \\ &= {result}"
        parts.append(rf"{lhs} &= {formula} \\ &= {numbers}")
    return r"\small\begin{aligned} " + r" \\[6pt] ".join(parts) + r" \end{aligned}"
