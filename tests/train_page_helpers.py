"""Helpers of the Train-and-watch page tests (AppTest): open the page, read what its charts show."""

import base64
from pathlib import Path

import numpy as np
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

from app.train import figures as train_figures
from app.train import live_run
from app.train import settings as train_settings
from app.ui import urlstate

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"
CHARTS = tuple(train_figures.UIREVISIONS.values())


def open_page(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ENTRY), default_timeout=60)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.switch_page("../pages/train.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def link(**values) -> dict[str, str]:
    """A query string holding these settings (the page's own encoding)."""
    return {urlstate.PARAM: urlstate.encode({**train_settings.DEFAULTS, **values}, train_settings.DEFAULTS)}


def specs(at: AppTest) -> dict[str, dict]:
    out = {}
    for spec in chart_specs(at):
        out[spec["layout"]["uirevision"]] = spec
    return out


def data(at: AppTest) -> dict:
    """What the charts show (every trace's name, x, y, z) plus the progress text."""
    shown = {
        k: [(t.get("name"), t.get("x"), t.get("y"), t.get("z")) for t in s["data"]]
        for k, s in specs(at).items()
    }
    shown["progress"] = progress_text(at)
    return shown


def values(spec: dict, name: str, axis: str = "y") -> np.ndarray:
    tr = next(t for t in spec["data"] if t.get("name") == name)
    v = tr[axis]
    if isinstance(v, dict):  # plotly ships arrays as typed buffers
        v = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
    return np.array([np.nan if x is None else x for x in v], dtype=float)


def progress_text(at: AppTest) -> str:
    return at.get("progress")[0].proto.text


def run_of(at: AppTest) -> live_run.LiveRun:
    return at.session_state["_page.train"]["live"].run


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def start(at: AppTest, ticks: int = 1) -> AppTest:
    at.button(key="train.go").click().run()
    for _ in range(ticks - 1):
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at
