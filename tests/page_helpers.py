"""Helpers of the page tests (AppTest): open a page, read its charts, errors and metrics."""

from __future__ import annotations

import base64
import importlib
from pathlib import Path

import numpy as np
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"
PAGES_DIR = ENTRY.parents[1] / "pages"


def page_module(name: str):
    """A page's module (``pages`` is a package) for its settings and builders; its drawing only
    runs when Streamlit executes it as __main__."""
    return importlib.import_module(f"pages.{name}")


def open_page(page: str, query: dict[str, str] | None = None) -> AppTest:
    # Run once first: before that, switch_page finds pages by file name, not by url_path.
    at = AppTest.from_file(str(ENTRY), default_timeout=60).run()
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.switch_page(f"../pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def fig(at: AppTest, uirevision: str) -> dict:
    for spec in chart_specs(at):
        if spec["layout"].get("uirevision") == uirevision:
            return spec
    raise AssertionError(f"no chart with uirevision {uirevision!r}")


def ys(spec: dict) -> list:
    """Every trace's (name, y) -- what the user sees, as comparable data."""
    return [(tr.get("name"), tr.get("y"), tr.get("z")) for tr in spec["data"]]


def trace(spec: dict, name: str) -> np.ndarray:
    tr = next(t for t in spec["data"] if t.get("name") == name)
    y = tr["y"]
    if isinstance(y, dict):  # plotly may ship arrays as typed buffers
        y = np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"])
    return np.array([np.nan if v is None else v for v in y], dtype=float)


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def step_charts(at: AppTest) -> dict:
    return {k: ys(fig(at, k)) for k in ("step-input", "step-gates", "step-states", "step-outputs")}


def metric(at: AppTest) -> str:
    return at.metric[0].value
