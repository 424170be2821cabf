"""The cell diagram: a Plotly figure (shapes + annotations) of one block/unit of the chosen
variant, with every gate shaded by how open it is at the current step (0 = white, 1 = full
blue) and its value printed, and the states showing their current values.

Input: the variant's config and a ``families.snapshot`` (the recorded values of one unit at one
step). The drawing of each cell is its family module's ``draw`` (``app/cells``); this titles it and
says what it shows in words.
"""

from __future__ import annotations

import lstm_core as lc
from app.cells import families
from app.cells.canvas import Canvas
from app.i18n import _


def cell_diagram(
    cfg: lc.ModelConfig,
    s: dict,
    unit_label: str,
    t: int,
    large: bool = False,
    highlight: frozenset[str] = frozenset(),
) -> tuple[dict, str]:
    """Diagram of one unit of ``cfg``'s cell at (1-based) step ``t``: (the plain figure dict,
    ``figures.make_figure`` makes the figure of it; alt text). A plain dict because a run's frames
    read it at every step (``app.step.player``). ``highlight``: keys of the boxes to outline (slow
    motion's current operation)."""
    c = Canvas(large, highlight)
    families.of(cfg).draw(c, cfg, s)  # one drawing per family (the cell class that runs it)
    name = _(cfg.record.title)  # a core text (the registry's title), translated where shown
    # two lines: a variant's name is long (LSTM 1997 (CEC, no forget gate)) and a Plotly title
    # does not wrap, so one line was cut off at the diagram's width (in Chinese too)
    title = name + "<br>" + _("{unit}, step t = {t}").format(unit=unit_label, t=t)
    spec = c.spec(title, large)
    alt = _(
        "Diagram of the {name} cell ({unit}). Gate boxes are shaded from white (closed) to blue "
        "(open) by their activation at the current step, with the value printed; state boxes show "
        "their current values."
    ).format(name=name, unit=unit_label)
    return spec, alt
