"""benchmarks/class_poll.py, small: a class votes through nginx and two replicas, one of which is killed
mid-vote; every acknowledged answer is stored and the teacher's dashboard counts them all."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_a_vote_survives_a_killed_replica_and_loses_no_acknowledged_answer():
    done = subprocess.run(
        [sys.executable, "benchmarks/class_poll.py", "--students", "24", "--replicas", "2", "--kill-replica"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("{")]
    res = json.loads(line)
    assert res["killed_replica"] and res["errors"] == 0, res
    assert res["sent"] == res["acknowledged"] == res["stored"] == 24 and res["lost"] == 0, res
    assert res["resent"] > 0, res  # some students were on the killed replica and sent again
    assert res["dashboard_lag_p95_s"] < 30, res  # the teacher's count showed every answer
