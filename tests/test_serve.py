"""The server's entry (app/serve.py): what it does once at its start."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from app.ui import collector

ROOT = Path(__file__).resolve().parents[1]


def test_the_server_freezes_what_lives_as_long_as_it_after_importing_every_page():
    """At its start the server imports every page's modules and freezes the objects then alive, so a
    full garbage collection no longer walks them (docs/benchmarks.md, issue 48: 60–120 ms → 9–15 ms).
    In a process of its own: the freeze is the process's."""
    code = (
        "import gc, json, sys; import app.serve; from app.ui.routes import PAGES; "
        "print(json.dumps([gc.get_freeze_count(), "
        "[('pages.' + r.file[:-3]) in sys.modules for r in PAGES], len(gc.get_objects()), gc.get_threshold()]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True
    )
    frozen, imported, tracked, threshold = json.loads(out.stdout.strip().splitlines()[-1])
    assert all(imported)
    assert frozen > 50_000 and tracked < frozen / 10  # nearly everything alive then is frozen
    # full collections at the end of page runs (app/ui/collector.py), the automatic one a backstop
    assert threshold[2] == collector.BACKSTOP > collector.DUE


def test_a_page_run_that_ends_with_a_full_collection_due_runs_it_then(monkeypatch):
    """``after_run`` collects once Python's own count would (younger collections since the last full
    one ≥ ``DUE``), not before; with the collector switched off, never."""
    calls = []
    monkeypatch.setattr(collector.gc, "collect", lambda *a: calls.append(a) or 0)
    for count, enabled, collects in (
        (collector.DUE - 1, True, False),
        (collector.DUE, True, True),
        (99, False, False),
    ):
        monkeypatch.setattr(collector.gc, "get_count", lambda c=count: (0, 0, c))
        monkeypatch.setattr(collector.gc, "isenabled", lambda e=enabled: e)
        calls.clear()
        assert collector.after_run() is collects and len(calls) == int(collects)


def test_the_router_calls_it_after_the_page(monkeypatch):
    """The entry script ends each completed run with ``after_run``."""
    from streamlit.testing.v1 import AppTest

    runs = []
    monkeypatch.setattr(collector, "after_run", lambda: runs.append(1) or False)
    at = AppTest.from_file(str(ROOT / "app" / "main.py"), default_timeout=60).run()
    assert not at.exception and runs == [1]
    at.run()
    assert runs == [1, 1]
