"""Where the app finds the files it shows that are not code: the results of the reproduction
command (``docs/results.json`` / ``.md``), the Bias lab's precomputed baseline, the example model.

In a checkout (``make run``, or a host running ``streamlit run app/main.py``) they are the
repository's ``docs/``. Installed from a wheel (``pip install``, then ``gatelab``) there is no
checkout: the wheel carries them as ``gatelab/docs/`` (a link to ``docs/`` in the checkout).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout, or site-packages when installed


def docs_dir() -> Path:
    """The checkout's ``docs/`` if there is one, else the installed package's copy."""
    if (ROOT / "docs").is_dir():
        return ROOT / "docs"
    spec = importlib.util.find_spec("gatelab")
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0]) / "docs"
    return ROOT / "docs"


DOCS = docs_dir()
