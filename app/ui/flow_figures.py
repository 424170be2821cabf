"""Error-flow charts: measured curves of ‖δ(T−q)‖ / ‖δ(T)‖ against the steps back q (log scale),
their theory and bound lines, and the text that explains the numbers (Gradient flow and Home pages,
lessons, bias lab, Step page uploads).

Same conventions as ``app.ui.figures`` (whose generic builders this uses): arrays in,
``(go.Figure, alt text)`` out, no model math here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from app.i18n import N_, _
from app.ui.figures import SYMBOLS, Chart, colour, font_size, layout, make_figure, variant_label
from lstm_core.variants import REGISTRY


@dataclass(frozen=True)
class FlowCurve:
    """One measured error-flow curve, its theory line and an optional reference bound. ``name`` is
    the curve's identity (a variant's code name on the Gradient flow page, or an English text marked
    for the catalogue); ``label``, if given, is what the legend and the text call it (``shown``)."""

    name: str
    back: np.ndarray  # steps back in time, q = at − t
    measured: np.ndarray  # ‖δ(t)‖ / ‖δ(at)‖
    theory: np.ndarray | None = None
    bound: np.ndarray | None = None
    bound_name: str = N_("bound")
    label: str = ""


def shown(c: FlowCurve) -> str:
    """What the legend and the text call a curve: its ``label``; a variant by its title (never its code
    name); any other name through the catalogue."""
    if c.label:
        return c.label
    return variant_label(c.name) if c.name in REGISTRY else _(c.name)


def _positive(a: np.ndarray) -> np.ndarray:
    """Log axes cannot show 0 or underflow: those points become gaps, not fake values."""
    a = np.asarray(a, dtype=float).copy()
    a[~(a > 1e-300)] = np.nan
    return a


def _curve_traces(i: int, c: FlowCurve, w: float, large: bool) -> list[dict]:
    """The measured line of one network plus its theory and bound lines, in the network's colour."""
    col = colour(i)
    # A few markers of a distinct shape per network: lines that coincide (e.g. LSTMs whose forget
    # gates are ≈ 1) stay tellable apart, and not by colour alone.
    data = [
        dict(
            type="scatter",
            x=c.back,
            y=_positive(c.measured),
            name=shown(c),
            legendgroup=c.name,
            mode="lines+markers",
            line=dict(color=col, width=w),
            marker=dict(symbol=SYMBOLS[i % len(SYMBOLS)], size=9 if large else 7, color=col, maxdisplayed=12),
        )
    ]
    # Theory and bound lines share the network's legend entry; their dash is explained once.
    for extra, dash, label in ((c.theory, "dash", N_("theory")), (c.bound, "dot", c.bound_name)):
        if extra is None:
            continue
        # A loose upper bound (no exact theory line) is hidden until asked for, with its own
        # legend entry, so it is never read as a prediction beside exact lines.
        loose = dash == "dot" and c.theory is None and label.startswith(("upper bound", _("upper bound")))
        data.append(
            dict(
                type="scatter",
                x=c.back,
                y=_positive(extra),
                name=_("{curve} ({line})").format(curve=shown(c), line=_(label)),
                legendgroup=f"{c.name}-bound" if loose else c.name,
                showlegend=loose,
                visible="legendonly" if loose else True,
                mode="lines",
                line=dict(color=col, width=w if dash == "dash" else w - 0.8, dash=dash),
            )
        )
    return data


def _dash_legend(curves: list[FlowCurve], w: float) -> list[dict]:
    """Grey legend-only entries saying what the dashed and dotted lines are (when any is drawn)."""
    data = []
    for dash, label in (("dash", N_("theory")), ("dot", N_("bound"))):
        if any((c.theory if dash == "dash" else c.bound) is not None for c in curves):
            data.append(
                dict(
                    type="scatter",
                    x=[None],
                    y=[None],
                    mode="lines",
                    name=_(label),
                    line=dict(color="#777777", width=w, dash=dash),
                )
            )
    return data


def _flow_layout(
    curves: list[FlowCurve], *, title: str, large: bool, uirevision: str, height: int
) -> dict[str, Any]:
    """The shared layout with a log y axis in whole decades and the legend beside the plot."""
    lay = layout(
        title=title,
        x=_("steps back in time q"),
        y=_("relative error ‖δ(T−q)‖ / ‖δ(T)‖"),
        large=large,
        uirevision=uirevision,
        height=height,
    )
    # Whole decades only (Plotly's automatic minor labels 2, 3, 4 … crowd short ranges), and at
    # most ~7 labels however many decades the curves span.
    finite = np.concatenate([_positive(c.measured) for c in curves]) if curves else np.array([1.0])
    finite = finite[np.isfinite(finite)]
    span = np.log10(finite.max() / finite.min()) if finite.size else 1.0
    lay["yaxis"].update(type="log", exponentformat="power", dtick=max(1, int(np.ceil(span / 7))))
    lay.update(
        hovermode="closest",
        legend=dict(
            orientation="v", yanchor="top", y=1, x=1.02, xanchor="left", font=dict(size=font_size(large) - 1)
        ),
    )
    lay["margin"].update(
        t=48 + (24 if large else 0),  # the legend sits at the side here
        l=110 if large else 84,
    )  # room for 10⁻¹⁵ tick labels + title
    return lay


def flow_chart(
    curves: list[FlowCurve], *, title: str, large: bool, uirevision: str, height: int = 380
) -> Chart:
    """Log-scale relative error-flow norm against the distance back in time."""
    w, data = (3 if large else 2.2), []
    for i, c in enumerate(curves):
        data += _curve_traces(i, c, w, large)
    data += _dash_legend(curves, w)
    lay = _flow_layout(curves, title=title, large=large, uirevision=uirevision, height=height)
    ends = _("; ").join(
        _("{curve} keeps {kept} of the error after {q} steps").format(
            curve=shown(c), kept=f"{_last(c.measured):.2g}", q=int(c.back[-1])
        )
        for c in curves
    )
    alt = _("Log-scale line chart: {title}. {ends}.").format(title=title, ends=ends)
    return make_figure(dict(data=data, layout=lay)), alt


def _last(a: np.ndarray) -> float:
    finite = np.asarray(a)[np.isfinite(a)]
    return float(finite[-1]) if finite.size else float("nan")


# ----------------------------------------------------------------------------- Gradient-flow page
def relative_flow(
    name: str,
    norms: np.ndarray,
    theory: np.ndarray | None = None,
    bound: np.ndarray | None = None,
    bound_name: str = "bound",
    label: str = "",
) -> FlowCurve:
    """Norms over t (loss at the last step) -> a curve over q = steps back, relative to q = 0."""
    n = np.asarray(norms, dtype=float)[::-1]
    scale = 1.0 / n[0] if n[0] > 0 else np.nan
    th = None if theory is None else np.asarray(theory, dtype=float)[::-1] * scale
    return FlowCurve(name, np.arange(len(n)), n * scale, th, bound, bound_name, label)


def per_step(c: FlowCurve) -> float:
    """Geometric-mean factor by which one step back scales the error (from the measured curve)."""
    q, kept = int(c.back[-1]), _last(c.measured)
    return kept ** (1.0 / q) if q > 0 and kept > 0 else float("nan")


def kept_at(c: FlowCurve, q: int) -> float:
    """The measured relative error ``q`` steps back (NaN beyond the curve)."""
    return float(c.measured[q]) if 0 <= q < len(c.measured) else float("nan")


def _flow_table(curves: list[FlowCurve], q: int, last: int) -> str:
    """Markdown table of what each curve keeps ``q`` steps back, at the end, and per step."""
    rows = "\n".join(
        f"| {shown(c)} | {kept_at(c, q):.2g} | {_last(c.measured):.2g} | {per_step(c):.3f} |" for c in curves
    )
    return (
        _("| network | kept {q} steps back | after {last} | per step |").format(q=q, last=last)
        + f"\n|---|---|---|---|\n{rows}\n\n"
        if curves
        else ""
    )


def _lstm_against_rnn(curves: list[FlowCurve], q: int) -> str:
    """The headline ratio of the 1997 cell to the RNN (empty unless both are drawn)."""
    by = {c.name: c for c in curves}
    if not ("rnn" in by and "lstm1997" in by and kept_at(by["rnn"], q) > 0):
        return ""
    ratio = kept_at(by["lstm1997"], q) / kept_at(by["rnn"], q)
    return (
        _(
            "**{q} steps back the 1997 cell keeps {ratio} times more error than the RNN** "
            "({lstm} against {rnn})."
        ).format(
            q=q,
            ratio=f"{ratio:.2g}",
            lstm=f"{kept_at(by['lstm1997'], q):.2g}",
            rnn=f"{kept_at(by['rnn'], q):.2g}",
        )
        + "\n\n"
    )


def _why_rnn_forgets(v: dict, q: int) -> str:
    """The RNN's per-step shrink factor ‖U‖·max f′ from the settings, and what it leaves after q."""
    fmax = 1.0 if v["activation"] == "tanh" else 0.25
    gain = v["rnn_scale"] * fmax
    rnn = _(
        "**Why the RNN forgets.** One step back multiplies the error by Jᵀ = Uᵀ·diag f′(net). "
        "Here ‖U‖ = {scale} and max f′ = {fmax}, so each step shrinks it by at least ‖U‖·max f′ = {gain}"
    ).format(
        scale=f"{v['rnn_scale']:.2f}",
        fmax="1 (tanh)" if fmax == 1 else _("¼ (logistic sigmoid)"),
        gain=f"{gain:.2f}",
    )
    return rnn + (
        _(
            ": after {q} steps at most {left} is left (the dotted upper bound Π‖J‖, hidden until you "
            "click its legend entry, is tighter still). "
        ).format(q=q, left=f"{gain**q:.2g}")
        if gain < 1
        else _(
            " — not below 1, so the shrinking is no longer guaranteed (and above 1 the error can explode). "
        )
    )


def _forget_gate_text(curves: list[FlowCurve], v: dict, q: int, forget_names: tuple[str, ...]) -> str:
    """The forget gate's per-step factor σ(bias), with the measured factors of the drawn LSTMs."""
    fb = float(v["forget_bias"])
    y_fg = 1.0 / (1.0 + np.exp(-fb))
    drawn = [c for c in curves if c.name in forget_names]
    measured = (
        _(" Measured per step: {values}.").format(
            values=", ".join(f"{shown(c)} {per_step(c):.2f}" for c in drawn)
        )
        if drawn
        else _(" Add the forget-gate LSTMs (the button under the chart) to see it.")
    )
    return _(
        "**What a forget gate does.** With a forget gate the carousel is s(t) = y_φ·s(t−1) + y_in·g, so each "
        "step back multiplies the error by y_φ ≈ σ({bias}) = {y}: after {q} steps "
        "{y}^{q} ≈ {left} is left.{measured} The gate lets a cell *reset* its memory; "
        "a forget bias of 5 (σ = 0.99) keeps the carousel almost as flat as in 1997."
    ).format(bias=f"{fb:g}", y=f"{y_fg:.2f}", q=q, left=f"{y_fg**q:.2g}", measured=measured)


def flow_explanation(curves: list[FlowCurve], v: dict, forget_names: tuple[str, ...] = ()) -> str:
    """Markdown next to the main chart: the measured numbers and why they come out that way.

    Every number is read from the drawn curves or computed from the settings (σ of the actual
    forget bias), so the text stays true whatever the sliders say.
    """
    q = min(50, v["T"] - 1)
    return (
        _flow_table(curves, q, v["T"] - 1)
        + _lstm_against_rnn(curves, q)
        + _why_rnn_forgets(v, q)
        + "\n\n"
        + (
            _(
                "**Why the CEC is flat.** In lstm1997 the cell state is s(t) = s(t−1) + y_in·g: "
                "∂s(t)/∂s(t−1) = 1, so error travelling along s is copied unchanged (dashed theory line = 1)."
            )
            + "\n\n"
            + _forget_gate_text(curves, v, q, forget_names)
            + "\n\n"
            + _(
                "**Full BPTT vs the 1997 truncation.** The truncation keeps only the path along s, so the "
                "measured curve equals the theory line exactly; full BPTT adds the (small) paths through "
                "the gates and recurrent connections — shut input gates make them smaller still."
            )
        )
    )


# English, marked for the catalogue: the page draws it with _(LOCAL_FEEDBACK_TEXT).
LOCAL_FEEDBACK_TEXT = N_(
    "A **net-input feedback** unit keeps â(t) = u·â(t−1) + w·x(t) + b: one step back multiplies its "
    "error by exactly u, so the curve follows |u|^q. An **activation feedback** unit computes "
    "h(t) = f(v·h(t−1) + w·x(t) + b) with f(a) = tanh(a/2), whose slope is at most M = ½: each "
    "step back multiplies the error by v·f′(ā) ≤ |v|/2 (dotted bound).\n\n"
    "Frasconi, Gori & Soda (1992): with |u| < 1 and |v| < 1/M = 2 the network **forgets** — the "
    "influence of x(t−q) vanishes like these bounds. **Latching** a bit for ever needs |v| > 2, "
    "which gives up this guarantee."
)
