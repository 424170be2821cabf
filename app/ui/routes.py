"""The app's pages, in sidebar order: read by the router (``app/main.py``) and by Home's lesson cards."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from app.i18n import N_

PAGES_DIR = Path(__file__).resolve().parent.parent.parent / "pages"


class Route(NamedTuple):
    file: str  # in pages/
    title: str  # English, marked for the catalogue; drawn with _(title)
    icon: str
    url_path: str
    charts: bool = False  # draws a chart as it opens: the router starts loading Plotly.js at once


# The first existing entry is the default page; it is served at the root URL "/" (its url_path
# only has to be unique; "/home" is "Page not found").
PAGES: tuple[Route, ...] = (
    Route("home.py", N_("Home"), ":material/home:", "home", charts=True),
    Route("lessons.py", N_("Guided lessons"), ":material/school:", "lessons"),
    Route("step.py", N_("Step through a cell"), ":material/step_into:", "step", charts=True),
    Route("train.py", N_("Train and watch"), ":material/monitoring:", "train", charts=True),
    Route(
        "gradient_flow.py", N_("Gradient flow"), ":material/waterfall_chart:", "gradient-flow", charts=True
    ),
    Route("theory.py", N_("Theory"), ":material/menu_book:", "theory", charts=True),
    Route("bias_lab.py", N_("Bias lab"), ":material/tune:", "bias-lab", charts=True),
    Route("bias_atlas.py", N_("Bias atlas"), ":material/explore:", "bias-atlas", charts=True),
    Route("experiments.py", N_("Paper experiments"), ":material/science:", "experiments"),
)


def route(file: str) -> Route:
    return next(r for r in PAGES if r.file == file)
