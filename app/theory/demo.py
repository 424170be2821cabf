"""The Theory page's live demo: how a product of q factors |w f'(net)| shrinks or grows.

Two one-unit networks see the same input sequence: an ``rnn`` with one hidden unit whose
self-weight U is the slider's w, and an ``lstm1997`` network with one memory cell. Every number
comes from ``lstm_core``: the error-flow norms, the per-step factors and the activation curves.
This module holds the demo's settings (validated) and the computation; it draws nothing, so the
tests can call it directly (its messages go through ``app.i18n._``: English outside a running
app). The page's widgets, URL and JSON files use the shared ``form.Schema`` machinery
(``pages/theory.py``); this module only checks values again before computing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

import lstm_core as lc
from app.i18n import N_, _
from lstm_core import activations

# Slider limits. T is capped so that the steepest explosion (tanh, no input, |w| = 8) stays
# finite inside the core's norm, which squares δ: 8^149 ≈ 3e134 and its square < 1e308.
W_RANGE = (-8.0, 8.0)
AMP_RANGE = (0.0, 3.0)
T_RANGE = (5, 150)
SEED_RANGE = (0, 99_999)
ACTIVATIONS = ("sigmoid", "tanh")

# The functions drawn in the activation figure: core activation name -> label.
# The labels are English (marked with N_); the figure translates them where it draws them.
CURVES = {
    "sigmoid": N_("σ (logistic)"),
    "tanh": "tanh",
    "g1997": N_("g = 4σ − 2 (1997 cell input)"),
    "h1997": N_("h = 2σ − 1 (1997 cell output)"),
}


def _number(name: str, value: Any, lo: float, hi: float) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not lo <= value <= hi
    ):
        raise ValueError(
            _("{name} must be a number between {lo} and {hi}, got {value}").format(
                name=name, lo=f"{lo:g}", hi=f"{hi:g}", value=repr(value)
            )
        )


@dataclass(frozen=True)
class DemoSettings:
    """Everything that determines the demo's picture (the URL carries all of it)."""

    w: float = 3.0  # self-weight of the rnn's single unit (the 1997 argument: |w| < 4)
    f: str = "sigmoid"  # hidden activation: the 1997 argument is made for the logistic σ
    amp: float = 1.0  # input x(t) = amp · N(0, 1) noise, drawn from `seed`
    T: int = 50  # sequence length; the loss sits at the last step
    seed: int = 0

    def __post_init__(self) -> None:
        _number("w", self.w, *W_RANGE)
        _number("amp", self.amp, *AMP_RANGE)
        if self.f not in ACTIVATIONS:
            raise ValueError(
                _("{name} must be one of {choices}, got {value}").format(
                    name="f", choices=list(ACTIVATIONS), value=repr(self.f)
                )
            )
        for name, (lo, hi) in (("T", T_RANGE), ("seed", SEED_RANGE)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
                raise ValueError(
                    _("{name} must be a whole number between {lo} and {hi}, got {value}").format(
                        name=name, lo=lo, hi=hi, value=repr(value)
                    )
                )


DEFAULTS = DemoSettings()


# Links made before the page kept its settings in ``?cfg=`` carried one parameter per setting
# (``?w=3&f=sigmoid&amp=1&T=50&seed=0``). ``legacy_query`` turns such a link into the shared form.
LEGACY_PARAMS = ("w", "f", "amp", "T", "seed")


def _legacy_value(name: str, text: str) -> Any:
    """A number where the text is one (the page's schema then checks its range and type); any
    other text is kept as it is, so the schema reports it by name instead of it being dropped."""
    if name == "f":
        return text
    try:
        value = float(text)
    except (TypeError, ValueError):
        return text
    if not math.isfinite(value):
        return text
    return int(value) if name in ("T", "seed") and value == int(value) else value


def legacy_query(params: Mapping[str, Any]) -> dict[str, Any] | None:
    """The settings an old-style link asks for (typed where readable), or None if it is not one.

    A link that already has ``cfg`` is left alone: its ``cfg`` wins and the other parameters
    are reported as unknown by the shared URL machinery.
    """
    if "cfg" in params or not any(name in params for name in LEGACY_PARAMS):
        return None
    values = {}
    for name in LEGACY_PARAMS:
        if name in params:
            raw = params[name]
            values[name] = _legacy_value(name, raw[-1] if isinstance(raw, list) else raw)
    return values


def max_derivative(name: str) -> float:
    """max f'(x) of a core activation, evaluated by the core on a grid through 0 (where it peaks)."""
    f, fp = activations.get(name)
    x = np.linspace(-10.0, 10.0, 4001)  # includes x = 0 exactly
    return float(fp(x, f(x)).max())


def activation_curves(x: np.ndarray | None = None) -> pd.DataFrame:
    """Tidy frame (x, function, kind: 'f' | "f'", value) of the core's squashing functions."""
    x = np.linspace(-6.0, 6.0, 241) if x is None else np.asarray(x, dtype=float)
    rows = []
    for name, label in CURVES.items():
        f, fp = activations.get(name)
        y = f(x)
        rows.append(pd.DataFrame({"x": x, "function": label, "name": name, "kind": "f", "value": y}))
        rows.append(pd.DataFrame({"x": x, "function": label, "name": name, "kind": "f'", "value": fp(x, y)}))
    return pd.concat(rows, ignore_index=True)


@dataclass
class DemoResult:
    settings: DemoSettings
    frame: pd.DataFrame  # one row per distance q back in time (see compute_demo)
    bound_factor: float  # |w| · max f'
    fmax: float  # max f' of the chosen activation (σ: ¼, tanh: 1)
    underflow: int  # how many rnn norms underflowed to exactly 0 (not drawn on a log axis)


def _networks(s: DemoSettings) -> tuple[lc.Model, lc.Model]:
    """The demo's rnn (self-weight w, input weight 1, bias 0) and its one-cell lstm1997; both
    read out through an identity output of weight 1."""
    out = {"W_out": 1.0, "b_out": 0.0}
    rnn = lc.build(
        "rnn",
        n_in=1,
        n_out=1,
        n_hidden=1,
        activation=s.f,
        output_activation="identity",
        init={"U": s.w, "W": 1.0, "b": 0.0, **out},
        seed=s.seed,
    )
    cell = lc.build(
        "lstm1997",
        n_in=1,
        n_out=1,
        n_blocks=1,
        block_size=1,
        output_activation="identity",
        init=out,
        seed=s.seed,
    )
    return rnn, cell


def _back(a: np.ndarray, T: int) -> np.ndarray:
    """Index t -> index q = (T−1) − t, normalised at q = 0."""
    a = np.asarray(a, dtype=float).reshape(T)[::-1]
    return a / a[0]


def _nth_factor(f: np.ndarray, T: int) -> np.ndarray:
    """Row q holds the q-th factor, the one that takes δ from distance q−1 to q: the local factor
    |w f'(net)| of step T−q (row 0 has none), so rnn_norm(q) = Π of rows 1..q."""
    f = np.asarray(f, dtype=float).reshape(T)[::-1]
    return np.concatenate([[np.nan], f[:-1]])


def compute_demo(s: DemoSettings) -> DemoResult:
    """Run both networks on the same input and measure the error flowing back from the last step.

    The loss is y(T−1) alone (error_flow without targets); the output layer is the identity with
    weight 1, so δ at the last step is the same for every w and only the recurrence differs.
    """
    xs = s.amp * np.random.default_rng(s.seed).standard_normal((s.T, 1, 1))
    rnn, cell = _networks(s)
    flow = lc.error_flow(rnn, xs)
    cec = lc.error_flow(cell, xs, method="truncated")
    cec_full = lc.error_flow(cell, xs, method="bptt")

    q = np.arange(s.T)
    fmax = max_derivative(s.f)
    bound_factor = abs(s.w) * fmax
    frame = pd.DataFrame(
        {
            "q": q,
            "t": s.T - 1 - q,
            "x": xs[::-1, 0, 0],
            "rnn_norm": _back(flow.norms["h"], s.T),  # ‖∂L/∂h(t−q)‖ / ‖∂L/∂h(t)‖, measured (exact BPTT)
            "rnn_product": _back(flow.theory["h"], s.T),  # Π of the q local factors (core's theory line)
            "bound": bound_factor**q,  # (|w| max f')^q: the 1997 bound
            "rnn_factor": _nth_factor(flow.factors["h"], s.T),  # |w f'(net)| of step T−q
            "cec_truncated": _back(cec.norms["s"], s.T),  # ‖∂L/∂s(t−q)‖, 1997 truncated gradient
            "cec_bptt": _back(cec_full.norms["s"], s.T),  # same cell, exact BPTT (extra paths via r(t−1))
            "cec_factor": _nth_factor(cec.factors["s"], s.T),  # ∂s(t)/∂s(t−1) = 1 along the CEC
        }
    )
    for col in ("rnn_norm", "rnn_product", "cec_truncated", "cec_bptt"):
        if not np.isfinite(frame[col]).all():
            raise lc.NonFiniteError(
                _("the {curve} curve is not finite; lower |w| or the sequence length").format(curve=col)
            )
    underflow = int((frame["rnn_norm"] == 0).sum())
    return DemoResult(s, frame, bound_factor, fmax, underflow)
