"""The Theory page's live demo: how a product of q factors |w f'(net)| shrinks or grows.

Two one-unit networks see the same input sequence: an ``rnn`` with one hidden unit whose
self-weight U is the slider's w, and an ``lstm1997`` network with one memory cell. Every number
comes from ``lstm_core``: the error-flow norms, the per-step factors and the activation curves.
This module holds the demo's settings (validated, URL / JSON round trip) and the computation;
it never imports streamlit, so the tests can call it directly.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Any, Mapping

import numpy as np
import pandas as pd

import lstm_core as lc
from lstm_core import activations

# Slider limits. T is capped so that the steepest explosion (tanh, no input, |w| = 8) stays
# finite inside the core's norm, which squares δ: 8^149 ≈ 3e134 and its square < 1e308.
W_RANGE = (-8.0, 8.0)
AMP_RANGE = (0.0, 3.0)
T_RANGE = (5, 150)
SEED_RANGE = (0, 99_999)
ACTIVATIONS = ("sigmoid", "tanh")
MAX_JSON_BYTES = 10_000

# The functions drawn in the activation figure: core activation name -> label.
CURVES = {"sigmoid": "σ (logistic)", "tanh": "tanh", "g1997": "g = 4σ − 2 (1997 cell input)",
          "h1997": "h = 2σ − 1 (1997 cell output)"}


def _number(name: str, value: Any, lo: float, hi: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not lo <= value <= hi:
        raise ValueError(f"{name} must be a number between {lo:g} and {hi:g}, got {value!r}")


@dataclass(frozen=True)
class DemoSettings:
    """Everything that determines the demo's picture (the URL carries all of it)."""

    w: float = 3.0            # self-weight of the rnn's single unit (the 1997 argument: |w| < 4)
    f: str = "sigmoid"        # hidden activation: the 1997 argument is made for the logistic σ
    amp: float = 1.0          # input x(t) = amp · N(0, 1) noise, drawn from `seed`
    T: int = 50               # sequence length; the loss sits at the last step
    seed: int = 0

    def __post_init__(self) -> None:
        _number("w", self.w, *W_RANGE)
        _number("amp", self.amp, *AMP_RANGE)
        if self.f not in ACTIVATIONS:
            raise ValueError(f"f must be one of {list(ACTIVATIONS)}, got {self.f!r}")
        for name, (lo, hi) in (("T", T_RANGE), ("seed", SEED_RANGE)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
                raise ValueError(f"{name} must be a whole number between {lo} and {hi}, got {value!r}")

    def to_query(self) -> dict[str, str]:
        return {"w": f"{self.w:g}", "f": self.f, "amp": f"{self.amp:g}", "T": str(self.T),
                "seed": str(self.seed)}

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)


DEFAULTS = DemoSettings()


def _parse(name: str, text: str) -> Any:
    """One query-string value -> the typed value DemoSettings expects (ValueError if unreadable)."""
    if name == "f":
        return text
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={text!r} is not a number") from None
    if name in ("T", "seed"):
        if not math.isfinite(value) or value != int(value):
            raise ValueError(f"{name}={text!r} is not a whole number")
        return int(value)
    return value


def from_query(params: Mapping[str, Any]) -> tuple[DemoSettings, list[str]]:
    """Settings from URL query parameters; each bad value falls back to its default.

    Returns the settings and one message per rejected parameter (unknown keys are ignored:
    the router or another page may add its own).
    """
    values, errors = asdict(DEFAULTS), []
    for name, default in asdict(DEFAULTS).items():
        if name not in params:
            continue
        raw = params[name]
        raw = raw[-1] if isinstance(raw, list) else raw
        try:
            candidate = {**values, name: _parse(name, raw)}
            DemoSettings(**candidate)               # validates this value in context
            values = candidate
        except ValueError as e:
            errors.append(f"URL parameter {e}; using the default {name}={default!r}.")
    return DemoSettings(**values), errors


def from_json(text: str | bytes) -> DemoSettings:
    """Settings from an uploaded JSON file; ValueError with a readable message if malformed."""
    if len(text) > MAX_JSON_BYTES:         # five settings fit in ~100 bytes; refuse to parse a huge file
        raise ValueError(f"the file is {len(text)} bytes; a settings file is at most {MAX_JSON_BYTES}")
    try:
        d = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError) as e:
        raise ValueError(f"the file is not valid JSON ({e})") from None
    if not isinstance(d, dict):
        raise ValueError("the file must hold a JSON object such as " + DEFAULTS.to_json().replace("\n", ""))
    unknown = set(d) - set(asdict(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown setting(s) {sorted(unknown)}; valid settings are {sorted(asdict(DEFAULTS))}")
    if isinstance(d.get("T"), float) and d["T"].is_integer():
        d["T"] = int(d["T"])
    if isinstance(d.get("seed"), float) and d["seed"].is_integer():
        d["seed"] = int(d["seed"])
    return DemoSettings(**{**asdict(DEFAULTS), **d})


def max_derivative(name: str) -> float:
    """max f'(x) of a core activation, evaluated by the core on a grid through 0 (where it peaks)."""
    f, fp = activations.get(name)
    x = np.linspace(-10.0, 10.0, 4001)       # includes x = 0 exactly
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
    frame: pd.DataFrame           # one row per distance q back in time (see compute_demo)
    bound_factor: float           # |w| · max f'
    fmax: float                   # max f' of the chosen activation (σ: ¼, tanh: 1)
    underflow: int                # how many rnn norms underflowed to exactly 0 (not drawn on a log axis)


def compute_demo(s: DemoSettings) -> DemoResult:
    """Run both networks on the same input and measure the error flowing back from the last step.

    The loss is y(T−1) alone (error_flow without targets); the output layer is the identity with
    weight 1, so δ at the last step is the same for every w and only the recurrence differs.
    """
    xs = s.amp * np.random.default_rng(s.seed).standard_normal((s.T, 1, 1))
    out = {"W_out": 1.0, "b_out": 0.0}
    rnn = lc.build("rnn", n_in=1, n_out=1, n_hidden=1, activation=s.f, output_activation="identity",
                   init={"U": s.w, "W": 1.0, "b": 0.0, **out}, seed=s.seed)
    cell = lc.build("lstm1997", n_in=1, n_out=1, n_blocks=1, block_size=1, output_activation="identity",
                    init=out, seed=s.seed)
    flow = lc.error_flow(rnn, xs)
    cec = lc.error_flow(cell, xs, method="truncated")
    cec_full = lc.error_flow(cell, xs, method="bptt")

    def back(a: np.ndarray) -> np.ndarray:      # index t -> index q = (T−1) − t, normalised at q = 0
        a = np.asarray(a, dtype=float).reshape(s.T)[::-1]
        return a / a[0]

    q = np.arange(s.T)
    fmax = max_derivative(s.f)
    bound_factor = abs(s.w) * fmax
    # Row q holds the q-th factor, the one that takes δ from distance q−1 to q: the local
    # factor |w f'(net)| of step T−q (row 0 has none), so rnn_norm(q) = Π of rows 1..q.
    def nth_factor(f: np.ndarray) -> np.ndarray:
        f = np.asarray(f, dtype=float).reshape(s.T)[::-1]
        return np.concatenate([[np.nan], f[:-1]])

    frame = pd.DataFrame({
        "q": q,
        "t": s.T - 1 - q,
        "x": xs[::-1, 0, 0],
        "rnn_norm": back(flow.norms["h"]),          # ‖∂L/∂h(t−q)‖ / ‖∂L/∂h(t)‖, measured (exact BPTT)
        "rnn_product": back(flow.theory["h"]),      # product of the q local factors (core's theory line)
        "bound": bound_factor ** q,                 # (|w| max f')^q: the 1997 bound
        "rnn_factor": nth_factor(flow.factors["h"]),   # |w f'(net)| of step T−q
        "cec_truncated": back(cec.norms["s"]),      # ‖∂L/∂s(t−q)‖, 1997 truncated gradient
        "cec_bptt": back(cec_full.norms["s"]),      # same cell, exact BPTT (extra paths via r(t−1))
        "cec_factor": nth_factor(cec.factors["s"]),    # ∂s(t)/∂s(t−1) = 1 along the CEC
    })
    for col in ("rnn_norm", "rnn_product", "cec_truncated", "cec_bptt"):
        if not np.isfinite(frame[col]).all():
            raise ArithmeticError(f"the {col} curve is not finite; lower |w| or the sequence length")
    underflow = int((frame["rnn_norm"] == 0).sum())
    return DemoResult(s, frame, bound_factor, fmax, underflow)
