"""The cell diagram's canvas: boxes (gates shaded from white, closed, to blue, open), operators,
arrows and self-loops on a Plotly figure, and the two drawings several families share.

Layout coordinates: x in [0, 10], y in [0, 6]; data flows left to right. A family module
(``app/cells/<family>.py``) draws its cell on a ``Canvas``; ``app/step/diagram.py`` titles it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.i18n import _
from app.ui.figures import font_size

OPEN = (0x00, 0x72, 0xB2)  # Okabe–Ito blue = fully open
STATE_FILL, EDGE = "#F2F2F2", "#333333"
FOCUS = "#D55E00"  # slow motion: the boxes the current operation works on
# Gate boxes above the data path: names on two lines ("input / gate") so they fit the box.
GATE_Y, GATE_H = 4.75, 1.35


def shade(openness: float) -> str:
    """White (closed) to blue (open)."""
    a = min(max(openness, 0.0), 1.0)
    r, g, b = (round(255 + (c - 255) * a) for c in OPEN)
    return f"rgb({r},{g},{b})"


@dataclass
class Box:
    x: float
    y: float
    label: str
    value: float | None = None
    gate: bool = False
    w: float = 1.5
    h: float = 1.0
    key: str = ""  # what slow motion calls it (``slowmo.HIGHLIGHT``)

    def __post_init__(self) -> None:
        if self.gate and self.h == 1.0:  # gate boxes hold a two-line name and a value
            self.h = GATE_H


def value_text(v: float | None) -> str:
    """A value in the diagram; NaN = not computed yet in this step (slow motion): "?"."""
    return "?" if v is None or math.isnan(v) else f"{v:.3g}"


class Canvas:
    def __init__(self, large: bool, highlight: frozenset[str] = frozenset()) -> None:
        self.shapes: list[dict] = []
        self.notes: list[dict] = []
        self.f = font_size(large)
        self.highlight = highlight

    def box(self, b: Box) -> None:
        known = b.value is not None and not math.isnan(b.value)
        fill = shade(b.value) if b.gate and known else STATE_FILL
        focus = b.key in self.highlight
        self.shapes.append(
            dict(
                type="rect",
                x0=b.x - b.w / 2,
                x1=b.x + b.w / 2,
                y0=b.y - b.h / 2,
                y1=b.y + b.h / 2,
                fillcolor=fill,
                line=dict(color=FOCUS if focus else EDGE, width=4 if focus else 1.5),
                layer="below",
            )
        )
        dark = b.gate and known and b.value > 0.55
        text = b.label if b.value is None else f"{b.label}<br><b>{value_text(b.value)}</b>"
        self.text(b.x, b.y, text, colour="white" if dark else "black")

    def op(self, x: float, y: float, symbol: str) -> None:
        r = 0.28
        self.shapes.append(
            dict(
                type="circle",
                x0=x - r,
                x1=x + r,
                y0=y - r,
                y1=y + r,
                fillcolor="white",
                line=dict(color=EDGE, width=1.5),
            )
        )
        self.text(x, y, symbol)

    def text(self, x: float, y: float, text: str, colour: str = "black", size: int = 0) -> None:
        self.notes.append(
            dict(x=x, y=y, text=text, showarrow=False, font=dict(size=size or self.f, color=colour))
        )

    def arrow(self, x0: float, y0: float, x1: float, y1: float, dash: bool = False) -> None:
        if dash:
            # Plotly cannot dash an annotation's arrow: draw the dashed line as a shape and put
            # only the head (the last tenth of the way) on an arrow annotation
            self.shapes.append(
                dict(
                    type="line",
                    x0=x0,
                    y0=y0,
                    x1=x1,
                    y1=y1,
                    line=dict(color="#777777", width=1.6, dash="dash"),
                )
            )
            x0, y0 = x1 - 0.1 * (x1 - x0), y1 - 0.1 * (y1 - y0)
        self.notes.append(
            dict(
                x=x1,
                y=y1,
                ax=x0,
                ay=y0,
                xref="x",
                yref="y",
                axref="x",
                ayref="y",
                text="",
                showarrow=True,
                arrowhead=2,
                arrowsize=1.2,
                arrowwidth=1.6,
                arrowcolor="#777777" if dash else EDGE,
            )
        )

    def loop(self, x: float, y: float, label: str, below: bool = False) -> None:
        """A self-loop on the box at (x, y) (the recurrent connection), labelled."""
        d = -1 if below else 1
        y0, y1 = y + d * 0.5, y + d * 1.25
        self.shapes.append(
            dict(
                type="path",
                path=f"M {x - 0.45} {y0} C {x - 0.6} {y1}, {x + 0.6} {y1}, {x + 0.45} {y0}",
                line=dict(color=EDGE, width=1.8),
            )
        )
        self.text(x, y1 + d * 0.15, label, size=self.f - 1)

    def spec(self, title: str, large: bool) -> dict:
        """The figure as a plain dict (``figures.make_figure`` makes it a figure): a run's frames read
        the diagram at every step, and a ``go.Figure`` built and copied for each cost most of them."""
        hidden = dict(visible=False, fixedrange=True)
        return dict(
            data=[],
            layout=dict(
                shapes=self.shapes,
                annotations=self.notes,
                template="none",
                paper_bgcolor="white",
                plot_bgcolor="white",
                height=350 + (70 if large else 0),
                margin=dict(l=5, r=5, t=60, b=5),
                title=dict(text=title, font=dict(size=self.f + 2), x=0, xanchor="left"),
                font=dict(size=self.f, color="#222222"),
                uirevision="diagram",
                showlegend=False,
                xaxis=dict(range=[-0.2, 10.2], **hidden),
                yaxis=dict(range=[-0.4, 6.0], **hidden),
            ),
        )


def gated_cell(
    c: Canvas, s: dict, labels: dict, forget: float | None, out_gate: float | None, peep: bool
) -> None:
    """The drawing the 1997-family memory cell and the modern LSTM cell share: input squashing,
    input gate, the state with its self-loop (× 1, or scaled by the forget gate), output squashing,
    output gate; ``labels`` names the boxes and the snapshot keys they show."""
    y = 2.3
    c.text(0.6, y + 0.75, labels["in"], size=c.f - 1, colour=FOCUS if "net" in c.highlight else "black")
    c.arrow(0.0, y, 0.85, y)
    c.box(Box(1.6, y, labels["g"], s[labels["g_key"]], key="cell input"))
    c.arrow(2.35, y, 3.02, y)
    c.op(3.3, y, "×")
    c.box(Box(3.3, GATE_Y, _("input<br>gate"), s[labels["ig"]], gate=True, key="input gate"))
    c.arrow(3.3, GATE_Y - GATE_H / 2, 3.3, y + 0.3)
    c.arrow(3.58, y, 4.6, y)
    c.box(Box(5.4, y, labels["state"], s[labels["state_key"]], key="state"))
    if forget is None:
        c.loop(5.4, y, "× 1 (CEC)", below=True)
    else:
        c.loop(5.4, y, "", below=True)
        c.box(Box(7.0, 0.45, _("forget gate"), forget, gate=True, w=1.9, h=0.8, key="forget gate"))
        c.arrow(6.25, 0.45, 5.75, y - 1.05)  # the forget gate scales the self-loop
        c.text(4.35, y - 1.2, _("× forget"), size=c.f - 1)
    c.arrow(6.2, y, 6.7, y)
    c.box(Box(7.45, y, labels["h"], s[labels["h_key"]], w=1.3, key="squash"))
    if out_gate is None:
        c.arrow(8.1, y, 9.3, y)
    else:
        c.arrow(8.1, y, 8.62, y)
        c.op(8.9, y, "×")
        c.box(Box(8.9, GATE_Y, _("output<br>gate"), out_gate, gate=True, key="output gate"))
        c.arrow(8.9, GATE_Y - GATE_H / 2, 8.9, y + 0.3)
        c.arrow(9.18, y, 9.7, y)
    c.text(
        9.6,
        y - 0.7,
        f"{labels['out']}<br><b>{value_text(s[labels['out_key']])}</b>",
        colour=FOCUS if "output" in c.highlight else "black",
    )
    if peep:
        for gx, gy in ((3.3, GATE_Y - GATE_H / 2), (8.9, GATE_Y - GATE_H / 2)):
            c.arrow(5.4, y + 0.5, gx + (0.4 if gx < 5 else -0.4), gy, dash=True)
        c.text(5.4, 3.55, _("peepholes (dashed)"), size=c.f - 2, colour="#555555")


def ungated_unit(c: Canvas, s: dict, kind: str, note: str) -> None:
    """One unit without gates (an RNN unit, or a local-feedback unit of ``kind``): its net input
    with the formula, its self-loop if it has one, the squashing f and h(t); ``note`` under it."""
    y = 2.3
    c.text(0.7, y + 0.6, "x(t)")
    c.arrow(0.2, y, 3.7, y)
    label, formula = {
        "rnn": ("net(t)", "W x(t) + U h(t−1) + b"),
        "static": ("a(t)", "w·x(t) + b"),
        "net_fb": ("â(t)", "u â(t−1) + w·x(t) + b"),
        "act_fb": ("ā(t)", "v h(t−1) + w·x(t) + b"),
    }[kind]
    c.box(Box(5.0, y, label, s["net"], w=2.0, h=1.0))
    c.text(5.0, y - 0.8, formula, size=c.f - 1)
    if kind == "rnn":
        c.loop(5.0, y, "U h(t−1)")
    elif kind in ("net_fb", "act_fb"):
        c.loop(5.0, y, f"{'u' if kind == 'net_fb' else 'v'} = {s['w']:.3g}")
    c.arrow(6.0, y, 7.8, y)
    c.text(6.9, y + 0.35, "f", size=c.f)
    c.box(Box(8.8, y, "h(t)", s["h"], w=1.4))
    c.text(5.0, 0.4, note, size=c.f - 1, colour="#555555")
