"""The computations behind the lessons' questions: small real runs of ``lstm_core``.

No Streamlit here (the tour and the tests call these directly). Each function returns an
``Outcome``: the one number a question asks about (``value``), the other numbers its
explanation quotes, and the arrays its chart draws. Which choice is right is *computed* from
``value`` (``content.Question.answer``), never typed in. Curve names are English (the source
language, marked with ``N_``); ``Outcome.labels`` says how the chart translates them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import lstm_core as lc
from app.i18n import N_
from lstm_core import activations

Array = np.ndarray


@dataclass
class Outcome:
    value: float  # what the question asks about
    numbers: dict[str, float] = field(default_factory=dict)  # quoted by the explanation
    curves: dict[str, Array] = field(default_factory=dict)  # name -> y over the x axis
    x: Array | None = None  # the chart's x values
    dashed: tuple[str, ...] = ()  # curves drawn dashed (the contrasting setting)
    labels: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)  # name -> (template, args)


def _name(labels: dict, template: str, **args: str) -> str:
    """A curve's English name from an ``N_``-marked template; ``labels`` keeps the template and its
    arguments, so the chart can draw the name in the session's language."""
    name = template.format(**args)
    labels[name] = (template, args)
    return name


def _random_xs(T: int, n_in: int, seed: int) -> Array:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=(T, 1, n_in))


def _relative_flow(model: lc.Model, xs: Array, label: str) -> Array:
    """‖δ(T−q)‖ / ‖δ(T)‖ for q = 0 … T−1: how much of an error at the last step reaches q steps back."""
    norms = np.asarray(lc.error_flow(model, xs).norms[label], dtype=float)[::-1]
    return norms / norms[0]


# ----------------------------------------------------------------------------- 1. vanishing vs CEC
FLOW_T, FLOW_Q = 60, 50
RNN_SCALE = 0.8


def vanishing_networks(seed: int) -> dict[str, lc.ModelConfig]:
    """A tanh RNN with ‖U‖ = 0.8 (so |w f′| < 1) and a 1997 LSTM whose input gates are shut (−6)."""
    return {
        "rnn": lc.ModelConfig(
            variant="rnn", n_in=2, n_out=1, n_hidden=8, recurrent_scale=RNN_SCALE, seed=seed
        ),
        "lstm1997": lc.ModelConfig(
            variant="lstm1997", n_in=2, n_out=1, n_blocks=2, block_size=1, bias={"input": -6.0}, seed=seed
        ),
    }


def vanishing(seed: int, which: str) -> Outcome:
    """Error flow of the RNN (hidden state h) and the 1997 LSTM (cell state s) on one sequence."""
    xs = _random_xs(FLOW_T, 2, seed)
    nets = vanishing_networks(seed)
    curves = {
        "RNN (h)": _relative_flow(lc.build(nets["rnn"]), xs, "h"),
        "LSTM 1997 (s)": _relative_flow(lc.build(nets["lstm1997"]), xs, "s"),
    }
    rnn = curves["RNN (h)"]
    if which == "rnn":
        curves = {"RNN (h)": rnn}  # the LSTM's curve is the next question's answer
    value = float((rnn if which == "rnn" else curves["LSTM 1997 (s)"])[FLOW_Q])
    per_step = float(rnn[FLOW_Q] ** (1.0 / FLOW_Q)) if rnn[FLOW_Q] > 0 else 0.0
    return Outcome(
        value,
        {"q": FLOW_Q, "bound": RNN_SCALE**FLOW_Q, "per_step": per_step, "scale": RNN_SCALE},
        curves,
        np.arange(FLOW_T),
    )


# ----------------------------------------------------------------------------- 2. gates on long lag 2a
LAG_P = 10
WIRE = 8.0  # a hand-set gate weight: with bias −WIRE/2 the gate is σ(±4) = 0.98 / 0.018


def lag_sequences(p: int = LAG_P) -> dict[str, Array]:
    """The two 2a sequences (x, a₁ … a_{p−1}) and (y, a₁ … a_{p−1}) as one-hot inputs (T, 1, p+1);
    the task's layout: index 0 = x, 1 = y, 1 + i = a_i."""
    eye = np.eye(p + 1)
    middle = list(range(2, p + 1))
    return {"x": eye[[0] + middle][:, None, :], "y": eye[[1] + middle][:, None, :]}


def lag_network(gated_input: bool, output_gate: bool, seed: int, p: int = LAG_P) -> lc.Model:
    """The 2a cell (1 block × 1 cell, g = σ, h = identity), its gates hand-wired where asked:
    input gate open only at the first symbol (x or y), output gate open only at the last input
    a_{p−1} (when the memory is needed). Otherwise the input gate is wide open (bias +4)."""
    cfg = lc.ModelConfig(
        variant="lstm1997",
        n_in=p + 1,
        n_out=p + 1,
        n_blocks=1,
        block_size=1,
        output_gate=output_gate,
        cell_input="sigmoid",
        cell_output="identity",
        gates_as_sources=False,
        init_range=0.2,
        seed=seed,
    )
    m = lc.build(cfg)
    P = m.params
    P["W_ig"][:] = 0.0
    if gated_input:
        P["W_ig"][0, [0, 1]] = WIRE  # x and y open the gate
        P["b_ig"][:] = -WIRE / 2
    else:
        P["b_ig"][:] = WIRE / 2
    # g = σ ∈ (0, 1): x writes σ(3) ≈ 0.95, y writes σ(−3) ≈ 0.05, the a's σ(b_c) (random, ≈ 0.5).
    P["W_c"][:] = 0.0
    P["W_c"][0, 0], P["W_c"][0, 1] = 3.0, -3.0
    if output_gate:
        P["W_og"][:] = 0.0
        P["W_og"][0, p] = WIRE  # a_{p−1}: the step whose prediction needs the memory
        P["b_og"][:] = -WIRE / 2
    return m


def gates_input(seed: int) -> Outcome:
    """Share of the final cell state written by the first symbol: input gate open vs gated."""
    seqs = lag_sequences()
    out, nums, labels = {}, {}, {}
    for gated in (False, True):
        name = N_("gated input") if gated else N_("open input gate")
        m = lag_network(gated, False, seed)
        for sym, xs in seqs.items():
            s = lc.forward(m, xs).internals["s"][:, 0, 0]
            out[_name(labels, N_("{setting}, starts with {symbol}"), setting=name, symbol=sym)] = s
            if sym == "x":
                nums["share_gated" if gated else "share_open"] = float(s[0] / s[-1])
                nums["s_end_gated" if gated else "s_end_open"] = float(s[-1])
    return Outcome(
        nums["share_open"],
        nums,
        out,
        np.arange(1, LAG_P + 1),
        tuple(k for k in out if k.startswith("gated")),
        labels,
    )


def gates_output(seed: int) -> Outcome:
    """How much of the held memory the cell shows while holding it (middle) vs when needed (last)."""
    m = lag_network(True, True, seed)
    ins = lc.forward(m, lag_sequences()["x"]).internals
    y_c, y_og = np.abs(ins["y_c"][:, 0, 0]), ins["y_og"][:, 0, 0]
    middle, last = float(y_c[1:-1].mean()), float(y_c[-1])
    return Outcome(
        middle / last,
        {"middle": middle, "last": last, "og_middle": float(y_og[1:-1].mean()), "og_last": float(y_og[-1])},
        {N_("output gate y_out"): y_og, N_("cell output |y_c|"): y_c, N_("cell state s"): ins["s"][:, 0, 0]},
        np.arange(1, LAG_P + 1),
    )


# ----------------------------------------------------------------------------- 3. drift and abuse
DRIFT_T = 100
DRIFT_BIASES = (0.0, -6.0)


def drift(seed: int) -> Outcome:
    """|s(t)| and h′(s(t)) (relative to its maximum) with input-gate bias 0 and −6."""
    xs = lc.TASKS["adding"].generate(np.random.default_rng(seed), batch=1, T=DRIFT_T).xs
    h, dh = activations.get("h1997")
    hmax = float(dh(np.zeros(1), h(np.zeros(1)))[0])
    curves, nums, labels = {}, {"hmax": hmax}, {}
    for b in DRIFT_BIASES:
        cfg = lc.ModelConfig(
            variant="lstm1997",
            n_in=2,
            n_out=1,
            n_blocks=2,
            block_size=1,
            init_range=0.2,
            bias={"input": b, "cell": 1.0},
            seed=seed,
        )
        s = lc.forward(lc.build(cfg), xs).internals["s"][:, 0, :]
        rel = dh(s, h(s)).mean(axis=1) / hmax
        curves[_name(labels, N_("input bias {bias}"), bias=f"{b:g}")] = rel
        nums[f"s_end_{b:g}"], nums[f"h_end_{b:g}"] = float(np.abs(s[-1]).mean()), float(rel[-1])
    return Outcome(
        nums["h_end_0"],
        nums,
        curves,
        np.arange(1, xs.shape[0] + 1),
        tuple(k for k in curves if k.endswith(f"{DRIFT_BIASES[1]:g}")),
        labels,
    )


ABUSE_EARLY = 10
STAGGERED = [-1.0, -2.0, -3.0, -4.0]


def abuse(seed: int) -> Outcome:
    """Untrained embedded-Reber network (4 blocks × 1 cell): how open are the output gates over the
    first steps with output biases 0 vs the paper's staggered −1 … −4?"""
    batch = lc.TASKS["embedded_reber"].generate(np.random.default_rng(seed), batch=8)
    curves, nums, labels = {}, {}, {}
    for label, bias in (("0", 0.0), ("staggered", STAGGERED)):
        cfg = lc.ModelConfig(
            variant="lstm1997",
            n_in=7,
            n_out=7,
            n_blocks=4,
            block_size=1,
            init_range=0.2,
            bias={"output": bias},
            seed=seed,
        )
        y_og = lc.forward(lc.build(cfg), batch.xs).internals["y_og"][:ABUSE_EARLY]  # (t, B, blocks)
        for k in range(y_og.shape[-1]):
            name = _name(
                labels,
                N_("block {k}, bias {bias}"),
                k=str(k + 1),
                bias=label if label == "0" else f"{STAGGERED[k]:g}",
            )
            curves[name] = y_og[:, :, k].mean(1)
        nums[f"early_{label}"] = float(y_og.mean())
    return Outcome(
        nums["early_staggered"],
        nums,
        curves,
        np.arange(1, ABUSE_EARLY + 1),
        tuple(k for k in curves if not k.endswith("bias 0")),
        labels,
    )


# ----------------------------------------------------------------------------- 4. forget gate
FORGET_T = 60
FORGET_BIASES = (-2.0, 1.0, 5.0)


def forget(seed: int, bias: float, q: int) -> Outcome:
    """Error along s, q steps back, in lstm2000 with forget-gate bias ``bias`` (others for the chart)."""
    xs = _random_xs(FORGET_T, 2, seed)
    curves, labels = {}, {}
    for b in sorted(set(FORGET_BIASES) | {bias}):
        cfg = lc.ModelConfig(
            variant="lstm2000",
            n_in=2,
            n_out=1,
            n_blocks=2,
            block_size=1,
            init_range=0.2,
            bias={"forget": b, "input": -6.0},
            seed=seed,
        )
        curves[_name(labels, N_("forget bias {bias}"), bias=f"{b:+g}")] = _relative_flow(
            lc.build(cfg), xs, "s"
        )
    curves[N_("1997 (no forget gate)")] = _relative_flow(
        lc.build(
            lc.ModelConfig(
                variant="lstm1997",
                n_in=2,
                n_out=1,
                n_blocks=2,
                block_size=1,
                init_range=0.2,
                bias={"input": -6.0},
                seed=seed,
            )
        ),
        xs,
        "s",
    )
    value = float(curves[f"forget bias {bias:+g}"][q])
    if bias == min(FORGET_BIASES):  # the first question: the other biases are the next one's answer
        curves = {k: v for k, v in curves.items() if k in (f"forget bias {bias:+g}", "1997 (no forget gate)")}
    y_fg = 1.0 / (1.0 + np.exp(-bias))
    return Outcome(
        value,
        {"q": q, "bias": bias, "y_fg": y_fg, "theory": y_fg**q},
        curves,
        np.arange(FORGET_T),
        labels=labels,
    )


# ----------------------------------------------------------------------------- 5. peepholes and timing
CLOCK_T = 80
CLOCK_RATE = 0.1  # what the cell adds to s per step: s(t) ≈ 0.1 t
CLOCK_OG_BIAS = -5.0  # with peephole weight 1 the output gate opens when s > 5, near t = 50


def clock_network(peepholes: bool, seed: int) -> lc.Model:
    """lstm2002, 1 block × 1 cell, g = h = identity, hand-set so the cell counts: input and forget
    gates wide open, a constant input adds CLOCK_RATE to s every step; the output gate has bias −5
    and (with peepholes) sees s with weight 1."""
    cfg = lc.ModelConfig(
        variant="lstm2002",
        n_in=1,
        n_out=1,
        n_blocks=1,
        block_size=1,
        peepholes=peepholes,
        cell_input="identity",
        cell_output="identity",
        gates_as_sources=False,
        init_range=0.1,
        seed=seed,
    )
    m = lc.build(cfg)
    P = m.params
    for name in ("W_ig", "W_fg", "W_og", "W_c"):
        P[name][:] = 0.0
    P["b_ig"][:], P["b_fg"][:], P["b_og"][:] = 10.0, 10.0, CLOCK_OG_BIAS
    P["W_c"][0, 0], P["b_c"][:] = CLOCK_RATE, 0.0
    if peepholes:
        P["u_ig"][:], P["u_fg"][:], P["u_og"][:] = 0.0, 0.0, 1.0
    return m


def first_open(y_og: Array) -> float:
    """First step (1-based) with y_og > 0.5, or inf if it never opens."""
    idx = np.flatnonzero(y_og > 0.5)
    return float(idx[0] + 1) if idx.size else float("inf")


def clock(seed: int, peepholes: bool) -> Outcome:
    xs = np.ones((CLOCK_T, 1, 1))
    curves, nums, labels = {}, {}, {}
    for pp in (True, False):
        ins = lc.forward(clock_network(pp, seed), xs).internals
        tag = N_("with peepholes") if pp else N_("no peepholes")
        curves[_name(labels, N_("output gate, {setting}"), setting=tag)] = ins["y_og"][:, 0, 0]
        curves[_name(labels, N_("cell state s / 10, {setting}"), setting=tag)] = ins["s"][:, 0, 0] / 10
        nums[f"open_{tag}"] = first_open(ins["y_og"][:, 0, 0])
        nums[f"s_end_{tag}"] = float(ins["s"][-1, 0, 0])
    if peepholes:  # first question: the no-peephole cell is the next one's answer
        curves = {k: v for k, v in curves.items() if "with peepholes" in k}
    value = nums["open_with peepholes" if peepholes else "open_no peepholes"]
    return Outcome(
        value, nums, curves, np.arange(1, CLOCK_T + 1), tuple(k for k in curves if "no peep" in k), labels
    )
