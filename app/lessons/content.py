"""The lessons: each a short sequence of questions (predict, then reveal) and a one-line takeaway.

A question's choices are ranges of the number its computation returns (``Choice.lo`` ≤ value
< ``Choice.hi``), so the right choice is read off the real model's result, never typed in.
Explanations are functions of the outcome: every number they quote is computed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from app.lessons import compute as c
from app.lessons.compute import Outcome

INF = math.inf


@dataclass(frozen=True)
class Choice:
    label: str
    lo: float
    hi: float


@dataclass(frozen=True)
class Question:
    setup: str                                  # what was set up (markdown)
    ask: str                                    # the question
    choices: tuple[Choice, Choice, Choice]
    run: Callable[[int], Outcome]               # seed -> outcome (a real computation)
    why: Callable[[Outcome], str]               # the explanation, from the outcome's numbers
    chart: str                                  # "flow" (log scale, steps back) or "lines"
    chart_title: str
    x_label: str = "timestep t"
    y_label: str = ""

    def answer(self, outcome: Outcome) -> int:
        """Index of the choice whose range holds the computed value."""
        for i, ch in enumerate(self.choices):
            if ch.lo <= outcome.value < ch.hi or outcome.value == ch.hi == INF:
                return i
        raise ValueError(f"the computed value {outcome.value!r} falls in none of the choices "
                         f"{[ch.label for ch in self.choices]}; the lesson's ranges need to cover it")


@dataclass(frozen=True)
class Lesson:
    key: str
    title: str
    intro: str
    questions: tuple[Question, ...]
    takeaway: str
    see_also: str                               # a page file (pages/<file>) to explore further


def _g(x: float) -> str:
    return f"{x:.2g}"


FLOW_CHOICES = (Choice("Most of it (more than 0.3)", 0.3, INF),
                Choice("A little (between 10⁻⁴ and 0.3)", 1e-4, 0.3),
                Choice("Almost nothing (less than 10⁻⁴)", -INF, 1e-4))
DEEP_CHOICES = (Choice("Most of it (more than 0.3)", 0.3, INF),
                Choice("Some (between 10⁻⁶ and 0.3)", 1e-6, 0.3),
                Choice("Almost nothing (less than 10⁻⁶)", -INF, 1e-6))
# First opening step; "never" = not within the CLOCK_T steps of the run (first_open gives inf).
CLOCK_CHOICES = (Choice("Right away (before step 15)", -INF, 15),
                 Choice(f"Later, on its own (between step 15 and {c.CLOCK_T})", 15, c.CLOCK_T + 1),
                 Choice(f"Never (not within {c.CLOCK_T} steps)", c.CLOCK_T + 1, INF))

VANISHING = Lesson(
    "vanishing", "1 · Vanishing vs the carousel",
    "An error made at the last step of a 60-step sequence is followed back in time by the exact backward "
    "pass, through a plain RNN and through a 1997 LSTM. How much of it is left to learn from, far back?",
    (Question(
        "A tanh RNN with 8 hidden units; its recurrent matrix U has every singular value 0.8. A random "
        "60-step input sequence; an error at the last step.",
        "How much of the error reaches the RNN's hidden state **50 steps back**?",
        FLOW_CHOICES, lambda seed: c.vanishing(seed, "rnn"),
        lambda o: (f"Measured: **{_g(o.value)}** of the error is left 50 steps back — about "
                   f"**{o.numbers['per_step']:.2f}** per step. Each step back multiplies the error by "
                   f"Uᵀ·diag f′(net); here ‖U‖ = {o.numbers['scale']:.1f} and f′ ≤ 1 (tanh; the logistic "
                   f"σ′ ≤ ¼ is worse), so |w f′| < 1 and at most {o.numbers['scale']:.1f}⁵⁰ = "
                   f"{_g(o.numbers['bound'])} can survive."),
        "flow", "Error reaching q steps back (relative to the last step)", "steps back q", "relative error"),
     Question(
         "The same sequence through a 1997 LSTM (2 blocks × 1 cell) whose input gates are nearly shut "
         "(bias −6): the cell state s only carries what it holds.",
         "How much of the error reaches the LSTM's cell state **50 steps back**?",
         FLOW_CHOICES, lambda seed: c.vanishing(seed, "lstm1997"),
         lambda o: (f"Measured: **{o.value:.3f}** — practically all of it. The cell state is "
                    "s(t) = s(t−1) + y_in·g(net): ∂s(t)/∂s(t−1) = 1, a self-connection of weight exactly 1 "
                    "(the *constant error carousel*), so error travelling along s is copied unchanged, "
                    f"while the RNN keeps {_g(o.numbers['per_step'] ** 50)}."),
         "flow", "Error reaching q steps back (relative to the last step)", "steps back q", "relative error")),
    "In an RNN every step back multiplies the error by |w f′| < 1, so it vanishes; the CEC's weight 1 "
    "carries it back unchanged.",
    "gradient_flow.py")

GATES = Lesson(
    "gates", "2 · Input and output gates",
    "The 1997 paper's long-lag task 2a with p = 10: the sequences (x, a₁, …, a₉, x) and (y, a₁, …, a₉, y). "
    "To predict the last symbol the cell must remember the first one across 9 irrelevant symbols. "
    "One cell (g = σ, h = identity), its gates set by hand to show the idea.",
    (Question(
        "First with the input gate **wide open** (bias +4): every symbol is written into the cell state. "
        "x writes about 0.95, y about 0.05, each a about 0.5.",
        "At the end of the x-sequence, how much of the cell state was written by the **first symbol** "
        "(the one that matters)?",
        (Choice("Most of it (more than 60%)", 0.6, INF), Choice("A good part (30–60%)", 0.3, 0.6),
         Choice("A small part (less than 30%)", -INF, 0.3)),
        c.gates_input,
        lambda o: (f"Measured: **{o.value:.0%}** (the state ends at {o.numbers['s_end_open']:.2f}). The carousel "
                   "never forgets, so every irrelevant symbol piles up on top of the memory. With an input gate "
                   "that opens only for x and y (weight +8 from them, bias −4), the first symbol's share is "
                   f"**{o.numbers['share_gated']:.0%}**: the input gate *protects the memory from irrelevant "
                   "input* (dashed lines)."),
        "lines", "Cell state s(t): open input gate vs gated input", y_label="s(t)"),
     Question(
         "Now the gated cell with an **output gate** that opens only at the last input a₉ (weight +8 from a₉, "
         "bias −4), the step whose prediction needs the memory.",
         "While the memory is held (steps 2–9), how large is the cell's output y_c = y_out·h(s) compared "
         "with the last step?",
         (Choice("About the same (more than 50%)", 0.5, INF), Choice("A fraction (5–50%)", 0.05, 0.5),
          Choice("Almost nothing (less than 5%)", -INF, 0.05)),
         c.gates_output,
         lambda o: (f"Measured: **{o.value:.1%}** ({o.numbers['middle']:.3f} against {o.numbers['last']:.2f}). "
                    f"The output gate stays at {o.numbers['og_middle']:.3f} in the middle and opens to "
                    f"{o.numbers['og_last']:.2f} at the end: the output gate *protects the other units from "
                    "irrelevant memory* until it is needed, while s keeps it all along."),
         "lines", "Output gate, cell output and cell state (x-sequence)", y_label="value")),
    "The input gate decides when the carousel is written, the output gate when it is read: memory is "
    "protected from irrelevant input and the network from irrelevant memory.",
    "step.py")

ABUSE = Lesson(
    "abuse", "3 · State drift and abuse",
    "Two problems of the 1997 LSTM at the start of training, and the negative gate biases the paper used "
    "against them. Untrained networks, real sequences from the papers' tasks.",
    (Question(
        "A 1997 LSTM (2 blocks × 1 cell) reads a 100-step adding-problem sequence. Its cell input is pushed "
        "one way (bias +1) and its **input gates are half open** (bias 0). The cell output is h(s) = 2σ(s) − 1; "
        "every gradient into the input gate and cell input passes through its slope h′(s) (at most ½).",
        "At the end of the sequence, how large is h′(s) compared with its maximum?",
        (Choice("Still near its maximum (more than 50%)", 0.5, INF), Choice("Reduced (5–50%)", 0.05, 0.5),
         Choice("Almost zero (less than 5%)", -INF, 0.05)),
        c.drift,
        lambda o: (f"Measured: **{o.value:.1%}** of the maximum. The state drifted to |s| ≈ "
                   f"{o.numbers['s_end_0']:.1f}: h saturates and the gradient through h′(s) is gone — "
                   "*internal state drift*. With input-gate bias −6 the gate lets in σ(−6) ≈ 0.0025 per step: "
                   f"|s| ≈ {o.numbers['s_end_-6']:.2f} and h′ stays at {o.numbers['h_end_-6']:.0%} (dashed)."),
        "lines", "Internal state drift: the slope h′(s(t)) relative to its maximum ½", y_label="h′(s) / max"),
     Question(
         "An untrained network for embedded Reber (4 blocks × 1 cell). With output-gate biases 0 the gates "
         "are about half open from the first step, so each cell emits its content whatever the input, and "
         "the output layer can use it as a constant — a *bias unit*: the cell is 'abused' before it learns "
         "to store anything. The paper used staggered output biases −1, −2, −3, −4.",
         "Over the first 10 steps, how open are the output gates with the staggered biases (mean)?",
         (Choice("Half open, like bias 0 (more than 0.35)", 0.35, INF),
          Choice("Mostly shut (0.05–0.35)", 0.05, 0.35), Choice("Shut (less than 0.05)", -INF, 0.05)),
         c.abuse,
         lambda o: (f"Measured: **{o.value:.2f}** on average (bias 0: {o.numbers['early_0']:.2f}). Each block "
                    "opens less than the one before (σ(−1) ≈ 0.27 … σ(−4) ≈ 0.02), so the cells are not "
                    "offered as constants at once; training opens a gate when the cell has something worth "
                    "reading, and the later blocks stay free for later memories."),
         "lines", "Output-gate openness over the first steps (mean over sequences)", y_label="y_out")),
    "Negative input-gate biases prevent internal state drift; negative, staggered output-gate biases "
    "prevent the abuse problem.",
    "bias_lab.py")

FORGET = Lesson(
    "forget", "4 · The forget gate (2000)",
    "Gers, Schmidhuber & Cummins (2000) multiplied the carousel by a forget gate: s(t) = y_φ·s(t−1) + y_in·g. "
    "A cell can now *reset* its memory — but error along s is multiplied by y_φ at every step back.",
    (Question(
        "An LSTM with forget gates (2 blocks × 1 cell, input gates nearly shut) with **forget-gate bias −2** "
        "(the 2002 experiments' choice), on a random 60-step sequence.",
        "How much of an error at the last step reaches the cell state **20 steps back**?",
        DEEP_CHOICES, lambda seed: c.forget(seed, -2.0, 20),
        lambda o: (f"Measured: **{_g(o.value)}**. The forget gate is about σ(−2) = {o.numbers['y_fg']:.2f}, and "
                   f"{o.numbers['y_fg']:.2f}²⁰ ≈ {_g(o.numbers['theory'])}: such a cell forgets within a few "
                   "steps unless training raises its forget gate — forgetting is the default."),
        "flow", "Error along the cell state, by forget-gate bias", "steps back q", "relative error"),
     Question(
         "The same network with **forget-gate bias +5** (σ(5) ≈ 0.993).",
         "How much of the error reaches the cell state **50 steps back**?",
         DEEP_CHOICES, lambda seed: c.forget(seed, 5.0, 50),
         lambda o: (f"Measured: **{o.value:.2f}** (σ(5)⁵⁰ ≈ {o.numbers['theory']:.2f}). A large positive "
                    "forget bias keeps the gate open: the carousel is almost as flat as in 1997, and the "
                    "network can still learn to close the gate when forgetting helps."),
         "flow", "Error along the cell state, by forget-gate bias", "steps back q", "relative error")),
    "Forgetting is a feature the network can learn; a positive forget-gate bias keeps memory by default.",
    "gradient_flow.py")

PEEPHOLES = Lesson(
    "peepholes", "5 · Peepholes and timing (2002)",
    "Gers, Schraudolph & Schmidhuber (2002) let the gates look at the cell state (peephole connections). "
    "A cell set by hand as a counter: a constant input adds 0.1 to s at every step (input and forget gates "
    "wide open, g = h = identity), so s(t) ≈ 0.1·t — the cell state is a clock.",
    (Question(
        "The output gate has bias −5 and a **peephole** from s with weight 1: y_out = σ(s(t) − 5).",
        "When does the output gate first open (y_out > 0.5)?",
        CLOCK_CHOICES,
        lambda seed: c.clock(seed, True),
        lambda o: (f"Measured: at step **{o.value:.0f}**, when s passes 5. The gate reads the clock through the "
                   "peephole and fires after a set interval — what the 2002 timing tasks need (spike delays, "
                   "periodic outputs)."),
        "lines", "The cell state as a clock (s/10) and the output gate", y_label="value"),
     Question(
         "The same cell **without peephole connections**: the output gate sees only the input x(t) (constant) "
         "and its bias.",
         "When does the output gate first open now?",
         CLOCK_CHOICES,
         lambda seed: c.clock(seed, False),
         lambda o: ("Measured: **never** within 80 steps" if math.isinf(o.value) else
                    f"Measured: at step **{o.value:.0f}**") + (
             f". The clock runs the same (s reaches {o.numbers['s_end_no peepholes']:.1f}), but the gate cannot "
             "see it: its input is the same at every step. (Even wired to the cell output y_c it would see "
             "little: y_c stays tiny while the gate is shut, σ(−5) ≈ 0.007 times s.)"),
         "lines", "The cell state as a clock (s/10) and the output gate", y_label="value")),
    "Peepholes let the gates see the cell state, so a cell can time its actions: the cell state is a clock.",
    "theory.py")

LESSONS: dict[str, Lesson] = {L.key: L for L in (VANISHING, GATES, ABUSE, FORGET, PEEPHOLES)}
