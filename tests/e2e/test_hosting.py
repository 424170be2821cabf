"""Gate Lab started the ways a teacher starts it without make, each in a fresh virtualenv:

- **the hosts' way** (Streamlit Community Cloud, Hugging Face Spaces): ``pip install -r
  requirements.txt`` and nothing else, then the ``streamlit run app/serve.py`` console script with
  the repository root as working directory and nothing on ``PYTHONPATH`` (``app/serve.py``: the app
  as an ``st.App`` with its live feeds; ``app/main.py``, the plain script, is what AppTest and the
  other browser tests' fallbacks run);
- **the ``gatelab`` command**: the repository built into a wheel and installed non-editable, the
  checkout out of reach (the copy it was built from is deleted), started from another directory.

Each serves every page in Chromium without an exception, the class's server settings are in force
(static serving: the live charts' Plotly is served), and Step draws its live charts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import websockets
import websockets.sync.client
from playwright.sync_api import expect

from app.ui import feeds
from app.ui.routes import PAGES

from .conftest import PLOT, REPO_ROOT, _free_port, _health_ok, stop_server, wait_for_app

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
START_TIMEOUT_S = 90.0


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PYTHONUNBUFFERED": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, env=_env(), **kw)
    assert done.returncode == 0, (
        f"{' '.join(map(str, cmd))} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory) -> Path:
    """A new virtualenv holding requirements.txt alone (pinned by constraints.txt), as a host installs it."""
    venv = tmp_path_factory.mktemp("hosting") / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    _run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "-r",
            str(REPO_ROOT / "requirements.txt"),
            "-c",
            str(REPO_ROOT / "constraints.txt"),
        ]
    )
    return venv


def _serve(cmd: list[str], cwd: Path, port: int, log: Path):
    out = open(log, "wb")
    proc = subprocess.Popen(
        cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=_env()
    )
    deadline = time.monotonic() + START_TIMEOUT_S
    while not _health_ok(f"http://127.0.0.1:{port}/_stcore/health"):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(
                f"{' '.join(cmd)} did not serve:\n{log.read_text(errors='replace')[-4000:]}", pytrace=False
            )
        time.sleep(0.25)
    return proc, out


def _stop(proc, out) -> None:
    stop_server(proc, grace_s=15)
    out.close()


def _every_page_serves(page, base: str) -> None:
    for route in PAGES:
        page.goto(f"{base}/" if route is PAGES[0] else f"{base}/{route.url_path}")
        wait_for_app(page, timeout_ms=60_000)
        expect(page.locator("[data-testid='stException']")).to_have_count(0)
        expect(page.get_by_text("Page not found")).to_have_count(0)
        expect(page.get_by_text("ModuleNotFoundError")).to_have_count(0)
        if route.url_path == "step":
            expect(page.locator(".gatelab-live.js-plotly-plot").first).to_be_visible(timeout=60_000)
        elif route.url_path == "home":
            expect(page.locator(PLOT).first).to_be_visible(timeout=60_000)
    # the class's server settings are in force: static serving hands out the live charts' Plotly
    with urllib.request.urlopen(f"{base}/app/static/plotly-cartesian.min.js", timeout=10) as r:
        assert r.status == 200 and len(r.read()) > 1_000_000
    # app/serve.py's live feeds are served: an unknown token is answered "no such feed" (close 4404)
    with websockets.sync.client.connect(
        base.replace("http", "ws") + "/" + feeds.PREFIX + "no-such-token", open_timeout=30
    ) as ws:
        ws.send('{"after": -1}')
        with pytest.raises(websockets.ConnectionClosed) as closed:
            ws.recv(timeout=30)
    assert closed.value.rcvd.code == feeds.CLOSE_GONE


def test_the_hosts_way_serves_every_page(fresh_venv, page, tmp_path):
    port = _free_port()
    cmd = [
        str(fresh_venv / "bin" / "streamlit"),
        "run",
        "app/serve.py",
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--server.address",
        "127.0.0.1",
    ]
    assert "gate-lab" not in _run([str(fresh_venv / "bin" / "python"), "-m", "pip", "list"]).stdout
    proc, out = _serve(cmd, REPO_ROOT, port, tmp_path / "host.log")
    try:
        _every_page_serves(page, f"http://127.0.0.1:{port}")
    finally:
        _stop(proc, out)


def test_gatelab_installed_from_a_wheel_serves_every_page_from_anywhere(fresh_venv, page, tmp_path):
    src = tmp_path / "checkout"
    tracked = _run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO_ROOT
    ).stdout.split("\0")
    for rel in filter(None, tracked):
        target = src / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if (REPO_ROOT / rel).is_symlink():
            target.symlink_to(os.readlink(REPO_ROOT / rel))
        elif (REPO_ROOT / rel).is_file():
            shutil.copy2(REPO_ROOT / rel, target)
    py = str(fresh_venv / "bin" / "python")
    _run([py, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(src)])
    wheel = next((tmp_path / "dist").glob("gate_lab-*.whl"))
    _run([py, "-m", "pip", "install", "-q", "--no-deps", str(wheel)])
    shutil.rmtree(src)  # the checkout is out of reach
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(
        [py, "-c", "import app, lstm_core; print(app.__file__); print(lstm_core.__file__)"], cwd=elsewhere
    ).stdout
    assert str(REPO_ROOT) not in where and "site-packages" in where, where

    gatelab = str(fresh_venv / "bin" / "gatelab")
    helped = _run([gatelab, "--help"], cwd=elsewhere).stdout
    assert "--port" in helped and "--host" in helped and "room" in helped
    port = _free_port()
    proc, out = _serve(
        [gatelab, "--port", str(port), "--host", "127.0.0.1", "--headless"],
        elsewhere,
        port,
        tmp_path / "gatelab.log",
    )
    try:
        _every_page_serves(page, f"http://127.0.0.1:{port}")
        # the Paper experiments page reads the results the wheel carries, not an empty table
        page.goto(f"http://127.0.0.1:{port}/experiments")
        wait_for_app(page, timeout_ms=60_000)
        expect(page.get_by_text("no results file yet")).to_have_count(0)
    finally:
        _stop(proc, out)
