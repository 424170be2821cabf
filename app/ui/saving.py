"""Figures that save: every chart's Plotly toolbar has a save button that downloads an SVG named
after the chart and its settings (``gatelab-gradient-flow-rnn-lstm1997-t100.svg``), and beside it one
that downloads the same picture as a PNG of the same name at twice the on-screen resolution.

The SVG button is Plotly's own (``toImageButtonOptions`` in the chart's config): it draws the whole
figure — title and legend included — into the file, in the browser, with no server round trip.
SVG keeps lines and text sharp on a slide or in a paper (a heat map's cells are embedded in it as
an image). Slides that take no SVG (Google Slides) take the PNG: plotly.js has one image button, so
the second is a custom toolbar button (``PNG_KEY`` in the config: its name, scale and title), which
the live charts' script builds (``app/ui/live_chart.js``: a button is a JavaScript function, which a
config sent as JSON cannot hold). ``st.plotly_chart`` runs no script of ours, so its charts — the Bias
lab's finished heat maps, which take clicks — keep the SVG button only (``for_streamlit``).

Charts whose toolbar was hidden (the heat maps one clicks, the cell diagram) keep a toolbar with
the save button only (``only_save``), so no zoom or pan tool gets in the way of a click; like
every chart's toolbar it shows while the pointer is over the chart (it would cover a long title).

Plotly's own words — the toolbar's button titles ("Download plot", "Zoom", "Autoscale" …) and its
notices ("Double-click to zoom back out") — are in the session's language too (``locale``): a
Chinese session's config names a Plotly locale (``zh-TW`` / ``zh-CN``) and carries, in
``config.locales``, the words a Gate Lab chart can show (``PLOTLY_WORDS``), translated by the
catalogue: plotly.js's own translations where docs/glossary.md agrees, the glossary's words where it
does not (重設, 按兩下; plotly.js says 重置, 雙擊). ``config.locales`` is Plotly's per-chart
dictionary, looked up before the locales registered with ``Plotly.register``, so it works in
Streamlit's own plotly.js (``st.plotly_chart``: Streamlit passes the config through and offers no
way to register a locale; docs/i18n.md). The live charts (``app.ui.live``) register plotly.js's own
zh-TW / zh-CN locale file from ``app/static`` and keep in their config only the words Gate Lab says
otherwise. The locale changes no number on a chart: plotly.js's zh-TW and zh-CN locales set day and
month names and the date format only, and no Gate Lab axis is a date (docs/i18n.md).
"""

from __future__ import annotations

import re
from typing import Any

from app import i18n
from app.i18n import N_, _

PREFIX = "gatelab"
FORMAT = "svg"  # Plotly's own button: "svg" or "png" (then at SCALE × the chart's size on screen)
SCALE = 2
PNG_KEY = "gatelabPng"  # the PNG button's settings in a live chart's config (app/ui/live_chart.js)
# this session's language -> the plotly.js locale (its name in plotly.js's own locale files)
PLOTLY_LOCALES = {"zh-TW": "zh-TW", "zh-CN": "zh-CN"}
# What plotly.js itself writes on a Gate Lab chart (plotly.js 4, a cartesian chart's toolbar and its
# notices), exactly as plotly.js spells it: the key of Plotly's dictionary.
PLOTLY_WORDS = (
    N_("Download plot"),
    N_("Download plot as a PNG"),
    N_("Zoom"),
    N_("Pan"),
    N_("Box Select"),
    N_("Lasso Select"),
    N_("Zoom in"),
    N_("Zoom out"),
    N_("Autoscale"),
    N_("Reset axes"),
    N_("Preparing image - this may take a few seconds"),
    N_("Image download succeeded"),
    N_("Sorry, there was a problem downloading your image!"),
    N_("Double-click to zoom back out"),
    N_("Double-click on legend to isolate one trace"),
)


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
        # plotly.js 4 shows "Share chart..." by default; with no Plotly server configured it does nothing
        "showSendToCloud": False,
        "toImageButtonOptions": {"format": FORMAT, "filename": filename(chart, *settings), "scale": SCALE},
        PNG_KEY: {
            "filename": filename(chart, *settings),
            "scale": SCALE,
            "title": _("Download plot as a PNG"),
        },
        **locale(),
    }
    if only_save:
        out.update(modeBarButtons=[["toImage"]])  # shown on hover, like every chart's toolbar
    out.update(extra)
    return out


def for_streamlit(config: dict) -> dict:
    """``config`` for ``st.plotly_chart``, which draws with no script of ours: no PNG button."""
    return {k: v for k, v in config.items() if k != PNG_KEY}


def locale() -> dict[str, Any]:
    """The Plotly config that puts Plotly's own words in this session's language: nothing in English;
    ``locale`` and ``locales`` (``PLOTLY_WORDS`` through the catalogue) in Chinese."""
    name = PLOTLY_LOCALES.get(i18n.current())
    if name is None:
        return {}
    return {"locale": name, "locales": {name: {"dictionary": {w: _(w) for w in PLOTLY_WORDS}}}}
