"""Gate Lab's server entry: ``streamlit run app/serve.py`` (``make run``, ``gatelab``, ``gatelab room``).

The same app as ``app/main.py`` (the router, which stays the script every session runs) plus one
WebSocket route, the live feeds (``app/ui/feeds.py``): Train and watch's loss and criterion charts pull
their new points over it instead of through a Streamlit script run per update, and the charts of
Gradient flow, Step and Theory ask it for their figure at a slider's new value (``app/ui/previews.py``;
measured in docs/benchmarks.md). A second route, ``gatelab/class`` (``app/classroom/socket.py``), takes
a class's answers in class mode and acknowledges each once stored, without a script run per pick. ``streamlit run`` sees ``st.App`` here and serves it with its
Starlette server. Hosts that run ``app/main.py`` directly get everything but the feeds (the charts then
update through the fragment timer and the page's runs).

At its start the server imports every page's modules and freezes the objects then alive out of the
garbage collector's sight (``gc.freeze``): they live as long as the process, yet each full collection
walked them all — measured in the server during slider notches, a full (generation 2) collection took
60–120 ms, a pause for whatever the server was doing then (a slider's preview, a page run); after the
freeze 9–15 ms (docs/benchmarks.md, issue 48). Objects made later are collected as before, their full
collections at the end of a page's run when due (``app/ui/collector.py``).
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("app") is None:  # run from a checkout that is not installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import streamlit as st  # noqa: E402

from app.classroom import socket as class_socket  # noqa: E402
from app.ui import collector, feeds  # noqa: E402
from app.ui.routes import PAGES, PAGES_DIR  # noqa: E402


def freeze_what_lasts() -> None:
    """Import what every page uses (a page's module only defines; Streamlit runs its file as the
    script), collect, and freeze what is alive: the modules and what they hold (see the docstring)."""
    for r in PAGES:
        if (PAGES_DIR / r.file).is_file():  # as the router: a planned page not written yet is left out
            importlib.import_module("pages." + Path(r.file).stem)
    gc.collect()
    gc.freeze()
    collector.at_runs_end()


app = st.App("main.py", routes=feeds.routes() + class_socket.routes())
feeds.mark_served()
freeze_what_lasts()
