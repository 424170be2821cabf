"""The class benchmark's presenter (``benchmarks/classroom_load.py --teacher``, issue 45).

A class of two trains on a server the script starts while the presenter presses Forward on Step
through a cell every 2 s and opens another page every 10 s; the class's JSON line carries the
presenter's figures. Only that they are there and sane is checked, no time limit: the suite must
pass on a busy machine."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEACHER_KEYS = (
    "teacher_step_p95_s",
    "teacher_step_p50_s",
    "teacher_page_p95_s",
    "teacher_page_p50_s",
    "teacher_presses",
    "teacher_pages",
    "teacher_errors",
)


@pytest.mark.slow
def test_the_presenter_is_timed_beside_the_class():
    done = subprocess.run(
        [
            sys.executable,
            "benchmarks/classroom_load.py",
            "--sessions",
            "2",
            "--seconds",
            "12",
            "--after",
            "0",
            "--teacher",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout
    res = json.loads(lines[0])
    assert res["sessions"] == 2
    for key in TEACHER_KEYS:
        assert key in res, key
    assert res["teacher_errors"] == 0, res.get("teacher_error_examples")
    assert res["teacher_presses"] >= 3, res
    assert res["teacher_pages"] >= 1, res
    for key in ("teacher_step_p95_s", "teacher_step_p50_s", "teacher_page_p95_s", "teacher_page_p50_s"):
        assert isinstance(res[key], float) and math.isfinite(res[key]) and res[key] > 0, (key, res[key])
    # the students' figures are still there beside the presenter's
    assert res["errors"] == 0, res["error_examples"]
    assert "start_click_to_shown_s" in res and "server_cpu_percent" in res
