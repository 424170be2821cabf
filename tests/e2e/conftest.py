"""Fixtures for real-browser tests: a Streamlit server on a free port and Debian's Chromium.

Playwright's own browser download does not work on these machines, so Chromium comes from
Debian (``apt-get install chromium``; ``make test`` does it) and is launched through
``executable_path``. A missing Chromium is a test FAILURE, never a skip.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACT_DIR = REPO_ROOT / "tests" / "e2e" / "artifacts"
# Tests never modify tracked files: screenshots and measurements go to the ignored artifacts
# folder, unless `make screenshots` asks for the committed copies in docs/ to be refreshed.
REFRESH_DOCS = os.environ.get("GATELAB_REFRESH_DOCS") == "1"
OUTPUT_DIR = REPO_ROOT / "docs" if REFRESH_DOCS else ARTIFACT_DIR / "docs"
SCREENSHOT_DIR = OUTPUT_DIR / "screenshots"
MEASUREMENTS = OUTPUT_DIR / "measurements.json"

# Playwright's `expect` timeout is one global setting (set here once, not per file: the last file
# imported would win). 30 s, not the 5 s default: on a loaded machine a page (Theory's KaTeX above
# all) can draw for seconds after the first thing a test sees. Tests wait on state, so a long
# ceiling costs nothing when the page is fast.
expect.set_options(timeout=30_000)

SERVER_START_TIMEOUT_S = 60.0
APP_READY_TIMEOUT_MS = 30_000

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _health_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            return resp.status == 200 and resp.read().decode().strip() == "ok"
    except (urllib.error.URLError, ConnectionError, OSError):
        return False


@contextlib.contextmanager
def serving(script: str):
    """``streamlit run <script>`` on a free port, healthy; yields its base URL, stops it after."""
    port = _free_port()
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        script,
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]
    # Server output goes to files, not pipes: a full pipe would block the server.
    log_dir = Path(tempfile.mkdtemp(prefix="gatelab-streamlit-"))
    out_path, err_path = log_dir / "stdout.log", log_dir / "stderr.log"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            # class mode's store: a SQLite file of this server's own (never the user's ~/.local/share)
            env={"GATELAB_DATA_DIR": str(log_dir), **os.environ, "PYTHONUNBUFFERED": "1"},
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while not _health_ok(f"{base_url}/_stcore/health"):
            if proc.poll() is not None or time.monotonic() > deadline:
                why = (
                    f"exited with code {proc.returncode}"
                    if proc.poll() is not None
                    else f"not healthy after {SERVER_START_TIMEOUT_S:.0f} s"
                )
                pytest.fail(
                    f"Streamlit server {why}: {' '.join(cmd)}\n"
                    f"--- stderr ---\n{err_path.read_text(errors='replace')}\n"
                    f"--- stdout ---\n{out_path.read_text(errors='replace')}",
                    pytrace=False,
                )
            time.sleep(0.25)
        yield base_url
    finally:
        stop_server(proc)
        shutil.rmtree(log_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def streamlit_server():
    """``streamlit run app/serve.py`` (the app with its live feeds): its base URL."""
    with serving("app/serve.py") as url:
        yield url


@pytest.fixture(scope="module")
def plain_streamlit_server():
    """``streamlit run app/main.py``, the plain script (no live-feed route), as a host may run it."""
    with serving("app/main.py") as url:
        yield url


def stop_server(proc: subprocess.Popen, grace_s: float = 10.0) -> None:
    """Terminate a server process; kill it if it has not stopped after ``grace_s``."""
    proc.terminate()
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (sync API)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail(
            "Chromium is not installed (no `chromium` on PATH). Run `make test`, which installs "
            "Debian's chromium package (apt-get install -y chromium) before running the tests.",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


DEFAULT_VIEWPORT = {"width": 1400, "height": 900}


class Tab:
    """One browser tab a worker keeps for its tests that ask for the same context options.

    A page load in a kept tab costs Chromium about a third of one in a new context (measured: 1.0–1.5
    CPU-s against 2.5–3.9 for Step or Gradient flow, with the server): the renderer and V8's caches
    stay warm. Nothing else is carried over: after each test the tab clears the storage (local and
    session) of every origin it visited and its cookies, goes back to ``about:blank`` (its Streamlit
    session ends, as when a tab closes) and moves the pointer away; before the next, the viewport is
    set again. A tab whose reset fails is closed and the next test gets a new context."""

    def __init__(self, browser, options: dict) -> None:
        self.browser, self.options = browser, options
        self.context = self.page = None
        self.origins: set[str] = set()

    def _visited(self, frame) -> None:
        if frame.parent_frame is None and frame.url.startswith("http"):
            self.origins.add("/".join(frame.url.split("/")[:3]))

    def open(self, viewport: dict):
        if self.page is None or self.page.is_closed():
            self.close()
            self.context = self.browser.new_context(viewport=viewport, **self.options)
            self.page = self.context.new_page()
            self.page.on("framenavigated", self._visited)
        self.page.set_viewport_size(viewport)
        return self.page

    def leave(self) -> None:
        try:
            for origin in sorted(self.origins):
                self.page.goto(f"{origin}/_stcore/health", timeout=10_000)
                self.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            self.origins.clear()
            self.page.goto("about:blank")
            self.context.clear_cookies()
            self.page.mouse.move(0, 0)
        except Exception:  # a server the test stopped, a crashed tab: start the next test afresh
            self.close()

    def close(self) -> None:
        if self.context is not None:
            with contextlib.suppress(Exception):
                self.context.close()
        self.context = self.page = None
        self.origins.clear()


@pytest.fixture(scope="session")
def _tabs(browser):
    kept: dict[tuple, Tab] = {}
    yield kept
    for tab in kept.values():
        tab.close()


@pytest.fixture
def tab(_tabs, browser):
    """``tab(viewport=…, **context options)``: a kept tab (``Tab``) with those options, reset after
    the test (the same options twice in one test give the same tab: two sessions need contexts of
    their own). For tests that route the page's traffic or listen to its events, ``fresh_page``."""
    used: list[Tab] = []

    def open_tab(viewport: dict = DEFAULT_VIEWPORT, **options):
        key = tuple(sorted(options.items()))
        kept = _tabs.setdefault(key, Tab(browser, options))
        used.append(kept)
        return kept.open(viewport)

    yield open_tab
    for kept in used:
        kept.leave()


@pytest.fixture
def page(tab):
    """A page (1400x900) in a kept tab: see ``Tab``."""
    return tab()


@pytest.fixture
def fresh_page(browser):
    """A page (1400x900) in a context of its own, for a test that changes the page itself (routes
    its WebSocket, listens to its events)."""
    context = browser.new_context(viewport=DEFAULT_VIEWPORT)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


@dataclass
class StreamWatch:
    """What Streamlit's stream sent a page: its messages, and those sent by reference (``ref_hash``)
    to the browser's cached copy of an element."""

    messages: int = 0
    refs: list[str] = field(default_factory=list)


def watch_stream(page) -> StreamWatch:
    """Count the messages of Streamlit's stream on ``page`` (attach before ``goto``; a
    ``fresh_page``: the listener stays with the page)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    seen = StreamWatch()

    def on_frame(payload) -> None:
        if isinstance(payload, (bytes, bytearray)):
            msg = ForwardMsg()
            msg.ParseFromString(bytes(payload))
            seen.messages += 1
            if msg.WhichOneof("type") == "ref_hash":
                seen.refs.append(msg.ref_hash)

    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", on_frame) if ws.url.endswith("/_stcore/stream") else None,
    )
    return seen


def wait_for_app(page, timeout_ms: int = APP_READY_TIMEOUT_MS) -> None:
    """Wait until the Streamlit app is mounted and its script has finished running.

    Right after load the script state may still read ``notRunning`` before the first run has
    started, so "idle" also needs something drawn in the main area (``APP_IDLE``).
    """
    page.wait_for_selector("[data-testid='stApp']", state="attached", timeout=timeout_ms)
    page.wait_for_function(APP_IDLE, timeout=timeout_ms)


# The app is idle: its script has run (something is drawn in the main area), is not running now,
# and no "Running…" status widget shows.
APP_IDLE = """() => { const app = document.querySelector("[data-testid='stApp']");
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector("[data-testid='stStatusWidget']")
    && document.querySelectorAll("[data-testid='stMain'] [data-testid='stElementContainer']").length > 0; }"""

# Charts on a page: Streamlit's Plotly elements and the live charts of app/ui/live.py (a div that
# is itself the Plotly plot once drawn). CHART finds either; PLOT finds their drawn plots.
CHART = "[data-testid='stPlotlyChart'], .gatelab-live"
PLOT = "[data-testid='stPlotlyChart'] .js-plotly-plot, .gatelab-live.js-plotly-plot"

# Streamlit draws a grey skeleton while a widget's code loads (lazily, seconds on a busy machine):
# audit and screenshot only once every widget is there.
LOADED = "() => !document.querySelector(\"[data-testid='stSkeleton'], [data-testid='stSkeletonElement']\")"

# Idle, and every visible chart has its plot drawn (Streamlit loads Plotly lazily: the element
# shows a grey placeholder until its .js-plotly-plot exists and has a layout; a live chart's div
# is empty until its first Plotly.react) — a state to wait on before a screenshot, instead of a
# fixed sleep.
# One chart's drawing (a Streamlit Plotly element or a live chart): its plot, whether laid out or
# moving, whether its traces hold points, and how many it has painted.
CHART_STATE = """(c) => { const p = c.classList.contains('gatelab-live') ? c : c.querySelector('.js-plotly-plot');
  return {width: c.getBoundingClientRect().width, plot: !!p, layout: !!(p && p._fullLayout),
    transitioning: !!(p && p._transitioning),
    points: !!(p && (p._fullData || []).some(t => t.visible !== false &&
      ['x', 'y', 'z'].some(k => t[k] && t[k].length))),
    painted: p ? p.querySelectorAll('.main-svg g.trace, .main-svg image').length : 0}; }"""
CHARTS_DRAWN = (
    """() => { if (!("""
    + APP_IDLE
    + """)()) return false;
  return [...document.querySelectorAll("""
    + json.dumps(CHART)
    + """)].map("""
    + CHART_STATE
    + """).filter(s => s.width > 0)
    // a chart whose traces hold points has painted them (a resize can leave a laid-out but empty
    // plot for a moment); a chart of empty traces (nothing trained yet) has nothing to paint
    .every(s => s.plot && s.layout && !s.transitioning && (!s.points || s.painted > 0)); }"""
)


# What holds CHARTS_DRAWN back, for the message of a settle that timed out.
WHY_NOT_DRAWN = (
    """() => { const app = document.querySelector("[data-testid='stApp']");
  return JSON.stringify({script: app && app.getAttribute('data-test-script-state'),
    status: !!document.querySelector("[data-testid='stStatusWidget']"),
    elements: document.querySelectorAll("[data-testid='stMain'] [data-testid='stElementContainer']").length,
    charts: [...document.querySelectorAll("""
    + json.dumps(CHART)
    + """)].map("""
    + CHART_STATE
    + """)}); }"""
)


def settle(page, timeout_ms: int = 30_000) -> None:
    """Wait until the app is idle and every visible chart is drawn, then for two animation frames
    (the browser has painted what it drew). On a timeout the error says what was not yet so."""
    try:
        page.wait_for_function(CHARTS_DRAWN, timeout=timeout_ms)
    except PlaywrightTimeoutError as e:
        raise AssertionError(f"not settled after {timeout_ms} ms: {page.evaluate(WHY_NOT_DRAWN)}") from e
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def record_measurement(key: str, value) -> None:
    """Merge one measurement into MEASUREMENTS (read-modify-write: other tests keep their keys).

    `make test` runs the suite on two xdist workers, so two tests may merge at once: the
    read-modify-write holds an exclusive lock on a side file, and the new JSON replaces the old
    in one rename (a reader never sees half a file)."""
    MEASUREMENTS.parent.mkdir(parents=True, exist_ok=True)
    with open(MEASUREMENTS.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = json.loads(MEASUREMENTS.read_text()) if MEASUREMENTS.exists() else {}
        data[key] = value
        tmp = MEASUREMENTS.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        os.replace(tmp, MEASUREMENTS)


def screenshot(page, name: str, full_page: bool = True) -> Path:
    """Save a screenshot (the whole page, or what the viewport shows) to SCREENSHOT_DIR/<name>.png
    (docs/screenshots only under `make screenshots`) and return its path. Waits for every visible
    chart to be drawn first."""
    settle(page)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


# Step's transport as the browser draws it (app/step/scrub.js): its buttons, its Timestep slider and
# its step counter ("7 / 22").
STEP_COUNTER = ".gatelab-scrub output"


def step_counter(page):
    return page.locator(STEP_COUNTER)


def step_shown(page) -> int:
    return int(step_counter(page).inner_text().split("/")[0])


def step_button(page, name: str):
    """Back, Forward, Reset or Play / Pause of the browser's transport."""
    return page.locator(".gatelab-scrub").get_by_role("button", name=name, exact=True)


# A chart a frame was drawn into (app/ui/live_chart.js's ``direct``: the SVG edited in place) looks as
# Plotly draws the same layout itself: every shape's outline, fill and stroke, every annotation's and
# the title's words and colour, before and after ``Plotly.redraw``. [same?, what was compared]
DRAWN_AS_PLOTLY_WOULD = """async (sel) => { const d = document.querySelector(sel);
  const sig = () => JSON.stringify([...d.querySelectorAll('.shapelayer path')].map(p => {
      const s = getComputedStyle(p); return [p.getAttribute('d'), s.fill, s.stroke, s.strokeWidth]; })
    .concat([...d.querySelectorAll('text.annotation-text, text.gtitle')].map(t => [t.textContent, getComputedStyle(t).fill])));
  const a = sig(); await d.__plotly.redraw(d); const b = sig(); return [a === b, a + ' / ' + b]; }"""
