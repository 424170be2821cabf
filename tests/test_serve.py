"""The server's entry (app/serve.py): what it does once at its start."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_server_freezes_what_lives_as_long_as_it_after_importing_every_page():
    """At its start the server imports every page's modules and freezes the objects then alive, so a
    full garbage collection no longer walks them (docs/benchmarks.md, issue 48: 60–120 ms → 9–15 ms).
    In a process of its own: the freeze is the process's."""
    code = (
        "import gc, json, sys; import app.serve; from app.ui.routes import PAGES; "
        "print(json.dumps([gc.get_freeze_count(), "
        "[('pages.' + r.file[:-3]) in sys.modules for r in PAGES], len(gc.get_objects())]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True
    )
    frozen, imported, tracked = json.loads(out.stdout.strip().splitlines()[-1])
    assert all(imported)
    assert frozen > 50_000 and tracked < frozen / 10  # nearly everything alive then is frozen
