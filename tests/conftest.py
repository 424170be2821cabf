"""Suite-wide guards: tests never modify tracked files; each test starts with the interpreter's own
``__main__``.

The tracked tree's state (``git diff HEAD`` plus the list of deleted files) is fingerprinted when
the session starts and compared when it ends; any difference fails the run and names the files.
Measurements and screenshots go to the ignored ``tests/e2e/artifacts`` folder unless
``make screenshots`` (GATELAB_REFRESH_DOCS=1) asks for the committed copies to be refreshed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis (tests/test_fuzz_readers.py): the normal run draws a fixed, derandomised set of
# examples (deterministic CI, well under a minute); GATELAB_FUZZ=1 or --hypothesis-profile=fuzz is
# the long fuzz of docs/bad_inputs.md, 10,000 fresh random examples per test. The deadline bounds
# each example's time without a wall-clock assertion of ours: one slow example shows as a
# DeadlineExceeded with its input; 10 s leaves room for a loaded 2-core machine. No example
# database: it would write a folder into the work tree.
settings.register_profile(
    "gatelab",
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=10_000,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz",
    parent=settings.get_profile("gatelab"),
    derandomize=False,
    max_examples=int(os.environ.get("GATELAB_FUZZ_EXAMPLES", "10000")),
)
settings.load_profile("fuzz" if os.environ.get("GATELAB_FUZZ") == "1" else "gatelab")  # the CLI's option wins

ROOT = Path(__file__).resolve().parents[1]


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def _changed() -> dict[str, str]:
    """Tracked files that differ from HEAD -> their diff (so a change made before the run is kept apart)."""
    names = _git("diff", "HEAD", "--name-only")
    if names is None:
        return {}
    return {n: _git("diff", "HEAD", "--", n) or "" for n in names.split()}


def pytest_sessionstart(session: pytest.Session) -> None:
    if getattr(session.config, "workerinput", None) is None:  # the controller only (xdist)
        session.config._tracked_before = _changed()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = getattr(session.config, "_tracked_before", None)
    if before is None or os.environ.get("GATELAB_REFRESH_DOCS") == "1":
        return
    after = _changed()
    touched = sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))
    if touched:
        session.config._tracked_touched = touched
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# Marker -> (why a plain run leaves it out, an environment variable set to "1" that also asks for
# it). Each is deselected, never skipped, unless asked for with -m or by that variable; the terminal
# summary names what was left out (under xdist the summary line does not count deselections).
ON_REQUEST = {
    "torch_live": ("needs live PyTorch: make test-torch installs it", None),
    "browser_benchmark": (
        "a timing measurement, not a check: make screenshots records it in docs/measurements.json",
        "GATELAB_REFRESH_DOCS",
    ),
}


def _left_out(config: pytest.Config) -> list[str]:
    """The ON_REQUEST markers this run leaves out."""
    asked = config.getoption("markexpr") or ""
    return [
        m for m, (_, env) in ON_REQUEST.items() if m not in asked and not (env and os.environ.get(env) == "1")
    ]


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    for marker in _left_out(config):
        terminalreporter.write_line(f"not run (deselected): tests marked {marker} -- {ON_REQUEST[marker][0]}")
    profile = settings.default
    if profile.max_examples < 10_000:
        terminalreporter.write_line(
            f"Hypothesis: {profile.max_examples} examples "
            "per property test -- the long fuzz (10,000 each) is GATELAB_FUZZ=1, see "
            "docs/bad_inputs.md"
        )
    touched = getattr(config, "_tracked_touched", None)
    if touched:
        terminalreporter.write_line(
            "FAILED: the test run modified tracked files (tests must write to an ignored folder): "
            + ", ".join(touched),
            red=True,
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Live-PyTorch checks (``-m torch_live``, as ``make test-torch`` does) and the browser
    benchmark (``-m browser_benchmark`` or ``make screenshots``) run only when asked for."""
    for marker in _left_out(config):
        left_out = [i for i in items if i.get_closest_marker(marker)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [i for i in items if not i.get_closest_marker(marker)]


# The interpreter's own __main__, taken when pytest loads this file. An AppTest run leaves its temporary
# script as sys.modules["__main__"]; a later test in the same worker that starts processes with
# multiprocessing's spawn (Dask's LocalCluster in the reproduction and sweep commands) then re-runs that
# script in every new process: "name '__args' is not defined", "Nanny failed to start" (seen in
# test_distributed and test_experiments_cli, each once in a full run). The commands never run a
# Streamlit script first, so this is the suite's state, set back before every test.
_MAIN = sys.modules["__main__"]


@pytest.fixture(autouse=True)
def _interpreters_main():
    sys.modules["__main__"] = _MAIN
    yield
