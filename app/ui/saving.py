"""Figures that save: every chart's Plotly toolbar has a save button that downloads an SVG named
after the chart and its settings (``gatelab-gradient-flow-rnn-lstm1997-t100.svg``).

The button is Plotly's own (``toImageButtonOptions`` in the chart's config): it draws the whole
figure — title and legend included — into the file, in the browser, with no server round trip.
SVG keeps lines and text sharp on a slide or in a paper (a heat map's cells are embedded in it as
an image); ``scale`` 2 makes a PNG chosen instead (Plotly's API: ``format="png"``) twice the
on-screen resolution.

Charts whose toolbar was hidden (the heat maps one clicks, the cell diagram) keep a toolbar with
the save button only (``only_save``), so no zoom or pan tool gets in the way of a click; like
every chart's toolbar it shows while the pointer is over the chart (it would cover a long title).
"""

from __future__ import annotations

import re
from typing import Any

PREFIX = "gatelab"
FORMAT = "svg"  # "svg" or "png" (then at SCALE × the chart's size on screen)
SCALE = 2


def slug(part: Any) -> str:
    """One part of a file name: lower case, ASCII letters, digits, dots and hyphens only."""
    if isinstance(part, (list, tuple)):
        return "-".join(slug(p) for p in part)
    if isinstance(part, float):
        part = f"{part:g}"
    text = re.sub(r"[^a-z0-9.]+", "-", str(part).lower().replace("−", "-"))
    return text.strip("-.")


def filename(chart: str, *settings: Any) -> str:
    """``gatelab-<chart>-<setting>-…`` (no extension: Plotly adds it); empty settings are left out."""
    parts = [slug(p) for p in (PREFIX, chart, *settings)]
    return "-".join(p for p in parts if p)[:150]


def config(chart: str, *settings: Any, only_save: bool = False, **extra: Any) -> dict:
    """Plotly config for a chart with a save button (see the module docstring); ``extra`` is more
    Plotly config. ``only_save``: the toolbar shows the save button and nothing else."""
    out: dict[str, Any] = {
        "displaylogo": False,
        "toImageButtonOptions": {"format": FORMAT, "filename": filename(chart, *settings), "scale": SCALE},
    }
    if only_save:
        out.update(modeBarButtons=[["toImage"]])  # shown on hover, like every chart's toolbar
    out.update(extra)
    return out
