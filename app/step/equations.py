"""The equations of each variant in LaTeX, with one step's recorded numbers substituted.

``snapshot`` picks one block/unit's values at one timestep out of a run's recorded internals
(no recomputation: every number is what the core recorded); ``lines`` turns them into
``symbol = formula = numbers = result`` rows for ``st.latex``. The arithmetic shown (e.g.
s(t−1) + y_in·g) uses the recorded factors, so it can be checked by hand.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

import lstm_core as lc
from app.i18n import N_, _

G_TEX = {"g1997": r"g", "sigmoid": r"\sigma", "tanh": r"\tanh", "identity": r"\mathrm{id}"}
H_TEX = {"h1997": r"h", "tanh": r"\tanh", "identity": r"\mathrm{id}"}
OUT_TEX = {"sigmoid": r"\sigma", "identity": r"\mathrm{id}", "tanh": r"\tanh", "softmax": r"\mathrm{softmax}"}


def unit_labels(cfg: lc.ModelConfig) -> list[str]:
    """Names of the units a page can pick (cells for the LSTM-1997 family)."""
    if cfg.record.memory_cell:
        return [
            _("block {block}, cell {cell}").format(block=c // cfg.block_size + 1, cell=c % cfg.block_size + 1)
            for c in range(cfg.n_cells)
        ]
    if cfg.record.local_feedback:
        kinds = (
            [N_("static")] * cfg.n_static
            + [N_("net-input feedback")] * cfg.n_net_fb
            + [N_("activation feedback")] * cfg.n_act_fb
        )
        return [_("unit {unit} ({kind})").format(unit=j + 1, kind=_(k)) for j, k in enumerate(kinds)]
    return [_("unit {unit}").format(unit=j + 1) for j in range(cfg.n_hidden)]


def snapshot(
    cfg: lc.ModelConfig,
    internals: dict[str, np.ndarray],
    t: int,
    unit: int,
    params: dict[str, np.ndarray] | None = None,
) -> dict[str, Any]:
    """Values of one unit (cell) at step ``t`` (0-based), batch element 0."""
    at = {k: v[t, 0] for k, v in internals.items()}
    v = cfg.record.family
    out: dict[str, Any] = {"y": float(at["y"][0]), "net_y": float(at["net_out"][0])}
    if v == "memory_cell":
        k = unit // cfg.block_size
        for name in ("net_ig", "y_ig", "net_og", "y_og", "net_fg", "y_fg"):
            if name in at:
                out[name] = float(at[name][k])
        for name in ("net_c", "g", "s_prev", "s", "h", "y_c"):
            out[name] = float(at[name][unit])
        out["block"] = k
    elif v == "lstm":
        H = cfg.n_hidden
        for i, gate in enumerate("ifgo"):
            out[f"net_{gate}"] = float(at["net"][i * H + unit])
        for name in ("i", "f", "g", "o", "c_prev", "c", "tanh_c", "h"):
            out[name] = float(at[name][unit])
    elif v == "gru":
        for name in ("r", "z", "n", "hn", "h_prev", "h"):
            out[name] = float(at[name][unit])
    elif v == "rnn":
        for name in ("net", "h_prev", "h"):
            out[name] = float(at[name][unit])
    else:
        ns, nn = cfg.n_static, cfg.n_net_fb
        out.update(net=float(at["net"][unit]), h=float(at["h"][unit]))
        if ns <= unit < ns + nn:
            out.update(
                kind="net_fb",
                prev=float(at["a_net_prev"][unit - ns]),
                w=float(params["u"][unit - ns]) if params else math.nan,
            )
        elif unit >= ns + nn:
            out.update(
                kind="act_fb",
                prev=float(at["h_act_prev"][unit - ns - nn]),
                w=float(params["v"][unit - ns - nn]) if params else math.nan,
            )
        else:
            out["kind"] = "static"
    return out


def num(x: float, paren: bool = False) -> str:
    """A number for LaTeX: 3 significant digits, powers of ten written out."""
    if not math.isfinite(x):
        return r"\mathrm{nan}" if math.isnan(x) else (r"\infty" if x > 0 else r"-\infty")
    s = f"{x:.3g}"
    if "e" in s:
        m, e = s.split("e")
        s = rf"{m}\times 10^{{{int(e)}}}"
    return f"({s})" if paren and x < 0 else s


Row = tuple[str, str, str]  # (left-hand side, formula, "numbers = result")


def lines(cfg: lc.ModelConfig, s: dict[str, Any]) -> list[Row]:
    """The variant's step equations, each with this step's numbers substituted."""
    v, n = cfg.record.family, num  # the equations differ by family (the cell class that runs them)
    rows: list[Row] = []
    if v == "memory_cell":
        g, h = G_TEX[cfg.cell_input], H_TEX[cfg.cell_output]
        peep = r" + u^{in} s_c(t-1)" if cfg.has_peepholes else ""
        rows.append(
            (
                r"y^{in}(t)",
                rf"\sigma(W^{{in}} z(t) + b^{{in}}{peep})",
                rf"\sigma({n(s['net_ig'])}) = {n(s['y_ig'])}",
            )
        )
        if "y_fg" in s:
            peep_f = r" + u^{\varphi} s_c(t-1)" if cfg.has_peepholes else ""
            rows.append(
                (
                    r"y^{\varphi}(t)",
                    rf"\sigma(W^{{\varphi}} z(t) + b^{{\varphi}}{peep_f})",
                    rf"\sigma({n(s['net_fg'])}) = {n(s['y_fg'])}",
                )
            )
        rows.append((rf"{g}(net_c(t))", rf"{g}(W_c\, z(t) + b_c)", rf"{g}({n(s['net_c'])}) = {n(s['g'])}"))
        if "y_fg" in s:
            rows.append(
                (
                    r"s_c(t)",
                    rf"y^{{\varphi}} s_c(t-1) + y^{{in}} {g}",
                    rf"{n(s['y_fg'])}\times{n(s['s_prev'], True)} + {n(s['y_ig'])}\times{n(s['g'], True)}"
                    rf" = {n(s['s'])}",
                )
            )
        else:
            rows.append(
                (
                    r"s_c(t)",
                    rf"1\cdot s_c(t-1) + y^{{in}} {g}",
                    rf"{n(s['s_prev'])} + {n(s['y_ig'])}\times{n(s['g'], True)} = {n(s['s'])}",
                )
            )
        if "y_og" in s:
            peep_o = r" + u^{out} s_c(t)" if cfg.has_peepholes else ""
            rows.append(
                (
                    r"y^{out}(t)",
                    rf"\sigma(W^{{out}} z(t) + b^{{out}}{peep_o})",
                    rf"\sigma({n(s['net_og'])}) = {n(s['y_og'])}",
                )
            )
            rows.append(
                (
                    r"y^c(t)",
                    rf"y^{{out}} {h}(s_c(t))",
                    rf"{n(s['y_og'])}\times {n(s['h'], True)} = {n(s['y_c'])}",
                )
            )
        else:
            rows.append((r"y^c(t)", rf"{h}(s_c(t))", rf"{h}({n(s['s'])}) = {n(s['y_c'])}"))
    elif v == "lstm":
        for gate, fn in (("i", r"\sigma"), ("f", r"\sigma"), ("g", r"\tanh"), ("o", r"\sigma")):
            rows.append(
                (
                    f"{gate}(t)",
                    rf"{fn}(W_{gate} x + U_{gate} h(t-1) + b_{gate})",
                    rf"{fn}({n(s['net_' + gate])}) = {n(s[gate])}",
                )
            )
        rows.append(
            (
                r"c(t)",
                r"f\,c(t-1) + i\,g",
                rf"{n(s['f'])}\times{n(s['c_prev'], True)} + {n(s['i'])}"
                rf"\times{n(s['g'], True)} = {n(s['c'])}",
            )
        )
        rows.append((r"h(t)", r"o \tanh(c(t))", rf"{n(s['o'])}\times{n(s['tanh_c'], True)} = {n(s['h'])}"))
    elif v == "gru":
        rows += [
            (r"r(t)", r"\sigma(W_r x + b_{ir} + U_r h(t-1) + b_{hr})", n(s["r"])),
            (r"z(t)", r"\sigma(W_z x + b_{iz} + U_z h(t-1) + b_{hz})", n(s["z"])),
            (
                r"n(t)",
                r"\tanh(W_n x + b_{in} + r\,(U_n h(t-1) + b_{hn}))",
                rf"\tanh(\ldots + {n(s['r'])}\times{n(s['hn'], True)}) = {n(s['n'])}",
            ),
            (
                r"h(t)",
                r"(1-z)\,n + z\,h(t-1)",
                rf"{n(1 - s['z'])}\times{n(s['n'], True)} + {n(s['z'])}"
                rf"\times{n(s['h_prev'], True)} = {n(s['h'])}",
            ),
        ]
    elif v == "rnn":
        f = r"\tanh" if cfg.activation == "tanh" else r"\sigma"
        rows += [
            (r"net(t)", r"W x(t) + U h(t-1) + b", n(s["net"])),
            (r"h(t)", rf"{f}(net(t))", rf"{f}({n(s['net'])}) = {n(s['h'])}"),
        ]
    else:
        kind = s["kind"]
        rest = s["net"] - s["w"] * s["prev"] if kind != "static" else s["net"]
        if kind == "static":
            rows.append((r"a(t)", r"w\cdot x(t) + b", n(s["net"])))
        elif kind == "net_fb":
            rows.append(
                (
                    r"\hat a(t)",
                    r"u\,\hat a(t-1) + w\cdot x(t) + b",
                    rf"{n(s['w'])}\times{n(s['prev'], True)} + {n(rest, True)} = {n(s['net'])}",
                )
            )
        else:
            rows.append(
                (
                    r"\bar a(t)",
                    r"v\,h(t-1) + w\cdot x(t) + b",
                    rf"{n(s['w'])}\times{n(s['prev'], True)} + {n(rest, True)} = {n(s['net'])}",
                )
            )
        rows.append((r"h(t)", r"f(a) = \tanh(a/2)", rf"\tanh({n(s['net'] / 2)}) = {n(s['h'])}"))
    fo = OUT_TEX[cfg.output_activation]
    if cfg.output_activation == "softmax":
        rows.append((r"y_1(t)", r"\mathrm{softmax}(W_{out}\,\mathrm{hidden}(t) + b_{out})_1", n(s["y"])))
    else:
        rows.append(
            (
                r"y_1(t)",
                rf"{fo}(W_{{out}}\,\mathrm{{hidden}}(t) + b_{{out}})_1",
                rf"{fo}({n(s['net_y'])}) = {n(s['y'])}",
            )
        )
    return rows


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


def note(cfg: lc.ModelConfig) -> str:
    """One sentence on what to look for in this variant's equations."""
    v = cfg.record.family
    # Whole messages (a sentence glued to another reads wrong in Chinese), English unchanged.
    if v == "memory_cell" and not cfg.has_forget_gate:
        if not cfg.output_gate:
            return _(
                "The constant error carousel (CEC): s_c(t−1) enters with weight 1, so error flowing "
                "back along the cell state is never shrunk. Without an output gate, y^c = h(s)."
            )
        return _(
            "The constant error carousel (CEC): s_c(t−1) enters with weight 1, so error flowing "
            "back along the cell state is never shrunk."
        )
    if v == "memory_cell":
        if cfg.has_peepholes:
            return _(
                "The forget gate scales the carousel: each step back along s, the error is multiplied by "
                "y^φ(t). Peepholes let the gates see the cell state."
            )
        return _(
            "The forget gate scales the carousel: each step back along s, the error is multiplied by y^φ(t)."
        )
    notes = {
        "lstm": N_("c(t) is the carousel, scaled by the forget gate f(t) each step."),
        "gru": N_("The update gate z mixes the old state h(t−1) with the candidate n(t)."),
        "rnn": N_("No gates: h(t−1) is squashed through f again every step, so information and error fade."),
        "local_feedback": N_("Only self-loops: u (net-input units) or v (activation units) carry the past."),
    }
    return _(notes[v])
