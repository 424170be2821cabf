"""The lessons: each a short sequence of questions (predict, then reveal) and a one-line takeaway.

Their building blocks (``Choice``, ``Question``, ``Lesson``) are ``app.lessons.questions``.
Explanations are functions of the outcome: every number they quote is computed.

Every text is English, marked with ``N_`` (the language is per session) and translated where it
is drawn (``app.lessons.view``); the explanations translate themselves when called.
"""

from __future__ import annotations

import math

from app.i18n import N_, _
from app.lessons import compute as c
from app.lessons.compute import Outcome
from app.lessons.questions import INF, Choice, Lesson, Question


def _g(x: float) -> str:
    return f"{x:.2g}"


FLOW_CHOICES = (
    Choice(N_("Most of it (more than 0.3)"), 0.3, INF),
    Choice(N_("A little (between 10⁻⁴ and 0.3)"), 1e-4, 0.3),
    Choice(N_("Almost nothing (less than 10⁻⁴)"), -INF, 1e-4),
)
DEEP_CHOICES = (
    Choice(N_("Most of it (more than 0.3)"), 0.3, INF),
    Choice(N_("Some (between 10⁻⁶ and 0.3)"), 1e-6, 0.3),
    Choice(N_("Almost nothing (less than 10⁻⁶)"), -INF, 1e-6),
)
# First opening step; "never" = not within the CLOCK_T steps of the run (first_open gives inf).
CLOCK_CHOICES = (
    Choice(N_("Right away (before step 15)"), -INF, 15),
    Choice(N_("Later, on its own (between step 15 and {T})"), 15, c.CLOCK_T + 1, (("T", c.CLOCK_T),)),
    Choice(N_("Never (not within {T} steps)"), c.CLOCK_T + 1, INF, (("T", c.CLOCK_T),)),
)
ERROR_BACK = N_("Error reaching q steps back (relative to the last step)")
STEPS_BACK, RELATIVE_ERROR = N_("steps back q"), N_("relative error")
ALONG_S = N_("Error along the cell state, by forget-gate bias")
CLOCK_TITLE = N_("The cell state as a clock (s/10) and the output gate")

VANISHING = Lesson(
    "vanishing",
    N_("1 · Vanishing vs the carousel"),
    N_(
        "An error made at the last step of a 60-step sequence is followed back in time by the exact backward "
        "pass, through a plain RNN and through a 1997 LSTM. How much of it is left to learn from, far back?"
    ),
    (
        Question(
            N_(
                "A tanh RNN with 8 hidden units; its recurrent matrix U has every singular value 0.8. A random "
                "60-step input sequence; an error at the last step."
            ),
            N_("How much of the error reaches the RNN's hidden state **50 steps back**?"),
            FLOW_CHOICES,
            lambda seed: c.vanishing(seed, "rnn"),
            lambda o: _(
                "Measured: **{value}** of the error is left 50 steps back — about **{per_step:.2f}** per "
                "step. Each step back multiplies the error by Uᵀ·diag f′(net); here ‖U‖ = {scale:.1f} and "
                "f′ ≤ 1 (tanh; the logistic σ′ ≤ ¼ is worse), so |w f′| < 1 and at most {scale:.1f}⁵⁰ = "
                "{bound} can survive."
            ).format(
                value=_g(o.value),
                per_step=o.numbers["per_step"],
                scale=o.numbers["scale"],
                bound=_g(o.numbers["bound"]),
            ),
            "flow",
            ERROR_BACK,
            STEPS_BACK,
            RELATIVE_ERROR,
        ),
        Question(
            N_(
                "The same sequence through a 1997 LSTM (2 blocks × 1 cell) whose input gates are nearly shut "
                "(bias −6): the cell state s only carries what it holds."
            ),
            N_("How much of the error reaches the LSTM's cell state **50 steps back**?"),
            FLOW_CHOICES,
            lambda seed: c.vanishing(seed, "lstm1997"),
            lambda o: _(
                "Measured: **{value:.3f}** — practically all of it. The cell state is s(t) = s(t−1) + "
                "y_in·g(net): ∂s(t)/∂s(t−1) = 1, a self-connection of weight exactly 1 (the *constant "
                "error carousel*), so error travelling along s is copied unchanged, while the RNN keeps "
                "{rnn}."
            ).format(value=o.value, rnn=_g(o.numbers["per_step"] ** 50)),
            "flow",
            ERROR_BACK,
            STEPS_BACK,
            RELATIVE_ERROR,
        ),
    ),
    N_(
        "In an RNN every step back multiplies the error by |w f′| < 1, so it vanishes; the CEC's weight 1 "
        "carries it back unchanged."
    ),
    "gradient_flow.py",
)

GATES = Lesson(
    "gates",
    N_("2 · Input and output gates"),
    N_(
        "The 1997 paper's long-lag task 2a with p = 10: the sequences (x, a₁, …, a₉, x) and (y, a₁, …, a₉, y). "
        "To predict the last symbol the cell must remember the first one across 9 irrelevant symbols. "
        "One cell (g = σ, h = identity), its gates set by hand to show the idea."
    ),
    (
        Question(
            N_(
                "First with the input gate **wide open** (bias +4): every symbol is written into the cell state. "
                "x writes about 0.95, y about 0.05, each a about 0.5."
            ),
            N_(
                "At the end of the x-sequence, how much of the cell state was written by the **first symbol** "
                "(the one that matters)?"
            ),
            (
                Choice(N_("Most of it (more than 60%)"), 0.6, INF),
                Choice(N_("A good part (30–60%)"), 0.3, 0.6),
                Choice(N_("A small part (less than 30%)"), -INF, 0.3),
            ),
            c.gates_input,
            lambda o: _(
                "Measured: **{value:.0%}** (the state ends at {s_end:.2f}). The carousel never forgets, so "
                "every irrelevant symbol piles up on top of the memory. With an input gate that opens only "
                "for x and y (weight +8 from them, bias −4), the first symbol's share is **{gated:.0%}**: "
                "the input gate *protects the memory from irrelevant input* (dashed lines)."
            ).format(value=o.value, s_end=o.numbers["s_end_open"], gated=o.numbers["share_gated"]),
            "lines",
            N_("Cell state s(t): open input gate vs gated input"),
            y_label="s(t)",
        ),
        Question(
            N_(
                "Now the gated cell with an **output gate** that opens only at the last input a₉ (weight +8 from "
                "a₉, bias −4), the step whose prediction needs the memory."
            ),
            N_(
                "While the memory is held (steps 2–9), how large is the cell's output y_c = y_out·h(s) compared "
                "with the last step?"
            ),
            (
                Choice(N_("About the same (more than 50%)"), 0.5, INF),
                Choice(N_("A fraction (5–50%)"), 0.05, 0.5),
                Choice(N_("Almost nothing (less than 5%)"), -INF, 0.05),
            ),
            c.gates_output,
            lambda o: _(
                "Measured: **{value:.1%}** ({middle:.3f} against {last:.2f}). The output gate stays at "
                "{og_middle:.3f} in the middle and opens to {og_last:.2f} at the end: the output gate "
                "*protects the other units from irrelevant memory* until it is needed, while s keeps it "
                "all along."
            ).format(value=o.value, **o.numbers),
            "lines",
            N_("Output gate, cell output and cell state (x-sequence)"),
            y_label=N_("value"),
        ),
    ),
    N_(
        "The input gate decides when the carousel is written, the output gate when it is read: memory is "
        "protected from irrelevant input and the network from irrelevant memory."
    ),
    "step.py",
)

ABUSE = Lesson(
    "abuse",
    N_("3 · State drift and abuse"),
    N_(
        "Two problems of the 1997 LSTM at the start of training, and the negative gate biases the paper used "
        "against them. Untrained networks, real sequences from the papers' tasks."
    ),
    (
        Question(
            N_(
                "A 1997 LSTM (2 blocks × 1 cell) reads a 100-step adding-problem sequence. Its cell input is pushed "
                "one way (bias +1) and its **input gates are half open** (bias 0). The cell output is h(s) = "
                "2σ(s) − 1; every gradient into the input gate and cell input passes through its slope h′(s) (at "
                "most ½)."
            ),
            N_("At the end of the sequence, how large is h′(s) compared with its maximum?"),
            (
                Choice(N_("Still near its maximum (more than 50%)"), 0.5, INF),
                Choice(N_("Reduced (5–50%)"), 0.05, 0.5),
                Choice(N_("Almost zero (less than 5%)"), -INF, 0.05),
            ),
            c.drift,
            lambda o: _(
                "Measured: **{value:.1%}** of the maximum. The state drifted to |s| ≈ {s_end:.1f}: h "
                "saturates and the gradient through h′(s) is gone — *internal state drift*. With input-gate "
                "bias −6 the gate lets in σ(−6) ≈ 0.0025 per step: |s| ≈ {s_end_gated:.2f} and h′ stays at "
                "{h_end_gated:.0%} (dashed)."
            ).format(
                value=o.value,
                s_end=o.numbers["s_end_0"],
                s_end_gated=o.numbers["s_end_-6"],
                h_end_gated=o.numbers["h_end_-6"],
            ),
            "lines",
            N_("Internal state drift: the slope h′(s(t)) relative to its maximum ½"),
            y_label="h′(s) / max",
        ),
        Question(
            N_(
                "An untrained network for embedded Reber (4 blocks × 1 cell). With output-gate biases 0 the gates "
                "are about half open from the first step, so each cell emits its content whatever the input, and "
                "the output layer can use it as a constant — a *bias unit*: the cell is 'abused' before it learns "
                "to store anything. The paper used staggered output biases −1, −2, −3, −4."
            ),
            N_("Over the first 10 steps, how open are the output gates with the staggered biases (mean)?"),
            (
                Choice(N_("Half open, like bias 0 (more than 0.35)"), 0.35, INF),
                Choice(N_("Mostly shut (0.05–0.35)"), 0.05, 0.35),
                Choice(N_("Shut (less than 0.05)"), -INF, 0.05),
            ),
            c.abuse,
            lambda o: _(
                "Measured: **{value:.2f}** on average (bias 0: {early_0:.2f}). Each block opens less than "
                "the one before (σ(−1) ≈ 0.27 … σ(−4) ≈ 0.02), so the cells are not offered as constants "
                "at once; training opens a gate when the cell has something worth reading, and the later "
                "blocks stay free for later memories."
            ).format(value=o.value, **o.numbers),
            "lines",
            N_("Output-gate openness over the first steps (mean over sequences)"),
            y_label="y_out",
        ),
    ),
    N_(
        "Negative input-gate biases prevent internal state drift; negative, staggered output-gate biases "
        "prevent the abuse problem."
    ),
    "bias_lab.py",
)

FORGET = Lesson(
    "forget",
    N_("4 · The forget gate (2000)"),
    N_(
        "Gers, Schmidhuber & Cummins (2000) multiplied the carousel by a forget gate: s(t) = y_φ·s(t−1) + "
        "y_in·g. A cell can now *reset* its memory — but error along s is multiplied by y_φ at every step back."
    ),
    (
        Question(
            N_(
                "An LSTM with forget gates (2 blocks × 1 cell, input gates nearly shut) with **forget-gate bias −2** "
                "(the 2002 experiments' choice), on a random 60-step sequence."
            ),
            N_("How much of an error at the last step reaches the cell state **20 steps back**?"),
            DEEP_CHOICES,
            lambda seed: c.forget(seed, -2.0, 20),
            lambda o: _(
                "Measured: **{value}**. The forget gate is about σ(−2) = {y_fg:.2f}, and {y_fg:.2f}²⁰ ≈ "
                "{theory}: such a cell forgets within a few steps unless training raises its forget gate — "
                "forgetting is the default."
            ).format(value=_g(o.value), y_fg=o.numbers["y_fg"], theory=_g(o.numbers["theory"])),
            "flow",
            ALONG_S,
            STEPS_BACK,
            RELATIVE_ERROR,
        ),
        Question(
            N_("The same network with **forget-gate bias +5** (σ(5) ≈ 0.993)."),
            N_("How much of the error reaches the cell state **50 steps back**?"),
            DEEP_CHOICES,
            lambda seed: c.forget(seed, 5.0, 50),
            lambda o: _(
                "Measured: **{value:.2f}** (σ(5)⁵⁰ ≈ {theory:.2f}). A large positive forget bias keeps the "
                "gate open: the carousel is almost as flat as in 1997, and the network can still learn to "
                "close the gate when forgetting helps."
            ).format(value=o.value, theory=o.numbers["theory"]),
            "flow",
            ALONG_S,
            STEPS_BACK,
            RELATIVE_ERROR,
        ),
    ),
    N_("Forgetting is a feature the network can learn; a positive forget-gate bias keeps memory by default."),
    "gradient_flow.py",
)


def _clock_without_peepholes(o: Outcome) -> str:
    clock = o.numbers["s_end_no peepholes"]
    if math.isinf(o.value):
        return _(
            "Measured: **never** within {T} steps. The clock runs the same (s reaches {s_end:.1f}), but the "
            "gate cannot see it: its input is the same at every step. (Even wired to the cell output y_c it "
            "would see little: y_c stays tiny while the gate is shut, σ(−5) ≈ 0.007 times s.)"
        ).format(T=c.CLOCK_T, s_end=clock)
    return _(
        "Measured: at step **{step:.0f}**. The clock runs the same (s reaches {s_end:.1f}), but the gate "
        "cannot see it: its input is the same at every step. (Even wired to the cell output y_c it would "
        "see little: y_c stays tiny while the gate is shut, σ(−5) ≈ 0.007 times s.)"
    ).format(step=o.value, s_end=clock)


PEEPHOLES = Lesson(
    "peepholes",
    N_("5 · Peepholes and timing (2002)"),
    N_(
        "Gers, Schraudolph & Schmidhuber (2002) let the gates look at the cell state (peephole connections). "
        "A cell set by hand as a counter: a constant input adds 0.1 to s at every step (input and forget gates "
        "wide open, g = h = identity), so s(t) ≈ 0.1·t — the cell state is a clock."
    ),
    (
        Question(
            N_("The output gate has bias −5 and a **peephole** from s with weight 1: y_out = σ(s(t) − 5)."),
            N_("When does the output gate first open (y_out > 0.5)?"),
            CLOCK_CHOICES,
            lambda seed: c.clock(seed, True),
            lambda o: _(
                "Measured: at step **{step:.0f}**, when s passes 5. The gate reads the clock through the "
                "peephole and fires after a set interval — what the 2002 timing tasks need (spike delays, "
                "periodic outputs)."
            ).format(step=o.value),
            "lines",
            CLOCK_TITLE,
            y_label=N_("value"),
        ),
        Question(
            N_(
                "The same cell **without peephole connections**: the output gate sees only the input x(t) (constant) "
                "and its bias."
            ),
            N_("When does the output gate first open now?"),
            CLOCK_CHOICES,
            lambda seed: c.clock(seed, False),
            _clock_without_peepholes,
            "lines",
            CLOCK_TITLE,
            y_label=N_("value"),
        ),
    ),
    N_(
        "Peepholes let the gates see the cell state, so a cell can time its actions: the cell state is a clock."
    ),
    "theory.py",
)

LESSONS: dict[str, Lesson] = {L.key: L for L in (VANISHING, GATES, ABUSE, FORGET, PEEPHOLES)}
