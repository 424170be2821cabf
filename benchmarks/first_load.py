"""How long a page takes to show its first chart, and how many bytes it pulls, cold and warm.

    .venv/bin/python benchmarks/first_load.py                     # every page, direct and proxied, 3 rounds
    .venv/bin/python benchmarks/first_load.py --pages step train --rounds 5
    .venv/bin/python benchmarks/first_load.py --trace step        # where the time goes (below)

Starts ``gatelab room --replicas 1`` (one Streamlit server behind nginx, the class set-up) and
opens each page in headless Chromium (Debian's, through Playwright) twice per round:

* **cold**: a new browser profile (empty cache) navigates to the page;
* **warm**: the same profile opens the page again (the browser's cache holds what it may keep);
* **link** (through the proxy only): from another page of the app, a click on the page's sidebar
  link — how a person opens the next page: no page load, Streamlit's router swaps the page in the
  open tab (timed from the click to the new page's first chart, or title).

Each load is timed from navigation start (``performance.timeOrigin``) to the first chart drawn: a
Plotly chart that has drawn its SVG (``st.plotly_chart``) or a live chart that finished its first
``Plotly.react`` (``app/ui/live.py``). Pages without a chart (Guided lessons, Theory, Paper experiments
before a run) are timed to the first paint of their title. Bytes are what crossed the network
(compressed size, headers included, websocket frames included) until that moment, from Chrome's
DevTools protocol. ``direct`` is the replica itself, ``proxy`` is nginx in front of it.
The server's own caches are warmed by one unmeasured visit per page first.

``--trace PAGE`` prints, for one cold load of PAGE through the proxy, every request with its size and
time, the longest main-thread tasks and the moment each milestone was reached (the profile).
A benchmark, not a test: it prints figures; goals (issue 33): first chart ≤ 2 s cold and ≤ 0.5 s
warm through the proxy, ≤ 3 MB over the wire cold.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gatelab.room import wait_healthy as wait_ok  # noqa: E402
from tests.e2e.conftest import CHROMIUM_ARGS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["home", "lessons", "step", "train", "gradient_flow", "theory", "bias_lab", "experiments"]


def path(name: str) -> str:
    """The page's URL path (the router's url_path: home is the default page)."""
    return "" if name == "home" else name.replace("_", "-")


NO_CHART = {"lessons", "experiments"}  # no chart until the user does something
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = CHROMIUM_ARGS  # the browser tests' Chromium flags (tests/e2e/conftest.py)

# Recorded in the page from the first script on: when the first chart was drawn and the title painted.
MARKS = r"""
(() => {
  const t = () => performance.now();
  window.__marks = {};
  const check = () => {
    const m = window.__marks;
    if (!m.title && document.querySelector('h1')) m.title = t();
    if (!m.chart) {
      if (document.querySelector('.gatelab-live[data-draws]')) { m.chart = t(); m.kind = 'live'; }
      else if (document.querySelector('.js-plotly-plot .main-svg')) { m.chart = t(); m.kind = 'plotly'; }
    }
    if (!m.settled && !document.querySelector('[data-testid="stSkeleton"]') && m.title
        && !document.querySelector('[data-testid="stStatusWidget"]')) m.settled = t();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
})();
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_room() -> tuple[subprocess.Popen, str, str]:
    port, first = free_port(), free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gatelab",
            "room",
            "--replicas",
            "1",
            "--port",
            str(port),
            "--first-port",
            str(first),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    direct, proxy = f"http://127.0.0.1:{first}", f"http://127.0.0.1:{port}"
    wait_ok(direct)
    wait_ok(proxy)
    return proc, direct, proxy


class Load:
    """One navigation: the milestones (ms from navigation start) and the bytes received by then."""

    def __init__(self, context, url: str, chart: bool, trace: bool = False) -> None:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        self.requests: dict[str, dict] = {}
        self.frames = 0
        t0 = time.monotonic()

        def sent(e):
            self.requests[e["requestId"]] = {
                "url": e["request"]["url"],
                "start": (time.monotonic() - t0) * 1e3,
            }

        def finished(e):
            r = self.requests.setdefault(e["requestId"], {"url": "?", "start": 0})
            r["bytes"] = e["encodedDataLength"]
            r["end"] = (time.monotonic() - t0) * 1e3

        def frame(e):
            self.frames += len(e["response"]["payloadData"]) * (3 / 4 if e["response"]["opcode"] == 2 else 1)

        cdp.on("Network.requestWillBeSent", sent)
        cdp.on("Network.loadingFinished", finished)
        cdp.on("Network.loadingFailed", lambda e: self.requests.get(e["requestId"], {}).update(end=-1))
        cdp.on("Network.webSocketFrameReceived", frame)
        page.goto(url, wait_until="commit")
        page.wait_for_function(
            f"() => window.__marks && window.__marks.{'chart' if chart else 'settled'}",
            timeout=120_000,
            polling=50,
        )
        self.marks = page.evaluate("() => window.__marks")
        self.ms = self.marks["chart" if chart else "settled"]
        self.kind = self.marks.get("kind", "no chart")
        self.bytes = sum(r.get("bytes", 0) for r in self.requests.values()) + self.frames
        self.marks.update(
            page.evaluate(
                "() => Object.fromEntries(performance.getEntriesByType('mark')"
                ".filter(m => m.name.startsWith('gatelab:')).map(m => [m.name, m.startTime]))"
            )
        )
        # let what is still loading (Plotly.js behind a Streamlit chart) finish, so it is cached
        # for the warm visit as it would be for a person who stays on the page
        end = time.monotonic() + 15
        while time.monotonic() < end and any(
            "end" not in r for r in self.requests.values() if r["url"].split("?")[0].endswith(".js")
        ):
            page.wait_for_timeout(100)
        if trace:
            self.print_trace()
        page.close()

    def print_trace(self) -> None:
        print(
            f"  milestones (ms): {json.dumps({k: round(v) if isinstance(v, float) else v for k, v in self.marks.items()})}"
        )
        for r in sorted(self.requests.values(), key=lambda r: r["start"]):
            name = r["url"].split("?")[0].rsplit("/", 2)
            print(
                f"  {r['start']:7.0f} → {r.get('end', float('nan')):7.0f} ms  {r.get('bytes', 0) / 1e3:9.1f} kB  "
                f"{'/'.join(name[-2:])}"
            )
        print(f"  websocket frames: {self.frames / 1e3:.1f} kB")


# Before a sidebar link is clicked: mark every chart and title on screen as old, then record when the next
# page's first chart (or, without one, its title) is drawn.
NAV_WATCH = r"""(chart) => {
  for (const e of document.querySelectorAll('.gatelab-live, .js-plotly-plot')) e.dataset.old = '1';
  const title = () => (document.querySelector('h1') || {}).innerText;
  window.__nav = { t0: performance.now(), title: title() };
  const check = () => {
    const fresh = chart ? document.querySelector('.gatelab-live[data-draws]:not([data-old]), '
                                                 + '.js-plotly-plot:not([data-old]) .main-svg')
                        : title() && title() !== window.__nav.title;
    if (!window.__nav.ms && fresh) window.__nav.ms = performance.now() - window.__nav.t0;
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
}"""


def in_app(base: str, page_name: str, browser, rounds: int) -> dict:
    """Opening the page from another one with its sidebar link (no page load: Streamlit's router swaps
    the page; the browser keeps everything it loaded): ms from the click to its first chart drawn."""
    times = []
    for _ in range(rounds):
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        ctx.add_init_script(MARKS)
        start = "step" if page_name == "home" else "home"
        page = ctx.new_page()
        page.goto(f"{base}/{path(start)}")
        page.wait_for_function(
            "() => window.__marks && window.__marks.chart && window.__marks.settled",
            timeout=120_000,
            polling=50,
        )
        page.wait_for_timeout(500)  # what the first page still loads (Plotly.js) has arrived
        page.evaluate(NAV_WATCH, page_name not in NO_CHART)
        page.locator(f"[data-testid='stSidebarNav'] a[href$='/{path(page_name)}']").first.click()
        page.wait_for_function("() => window.__nav.ms", timeout=120_000, polling=50)
        times.append(page.evaluate("() => window.__nav.ms"))
        ctx.close()
    return {"in_app_ms": statistics.median(times), "in_app_max_ms": max(times)}


def measure(base: str, page_name: str, browser, rounds: int) -> dict:
    cold, warm, cold_bytes, warm_bytes, kind = [], [], [], [], ""
    url = f"{base}/{path(page_name)}"
    for _ in range(rounds):
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        ctx.add_init_script(MARKS)
        a = Load(ctx, url, page_name not in NO_CHART)
        b = Load(ctx, url, page_name not in NO_CHART)
        ctx.close()
        cold.append(a.ms), warm.append(b.ms), cold_bytes.append(a.bytes), warm_bytes.append(b.bytes)
        kind = a.kind
    return {
        "cold_ms": statistics.median(cold),
        "warm_ms": statistics.median(warm),
        "cold_max_ms": max(cold),
        "warm_max_ms": max(warm),
        "cold_MB": statistics.median(cold_bytes) / 1e6,
        "warm_MB": statistics.median(warm_bytes) / 1e6,
        "first": kind,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", nargs="+", default=PAGES, choices=PAGES)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trace", choices=PAGES, help="print one cold load's requests and milestones")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()
    proc, direct, proxy = start_room()
    out: dict = {"machine": {"cpus": os.cpu_count(), "load_avg_1min_start": round(os.getloadavg()[0], 2)}}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            warmup = browser.new_context()
            warmup.add_init_script(MARKS)
            for name in args.pages:  # the server's caches and imports, not measured
                Load(warmup, f"{proxy}/{path(name)}", name not in NO_CHART)
            warmup.close()
            if args.trace:
                ctx = browser.new_context(viewport={"width": 1366, "height": 768})
                ctx.add_init_script(MARKS)
                print(f"cold load of {args.trace} through the proxy:")
                Load(ctx, f"{proxy}/{path(args.trace)}", args.trace not in NO_CHART, trace=True)
                print("warm load:")
                Load(ctx, f"{proxy}/{path(args.trace)}", args.trace not in NO_CHART, trace=True)
                ctx.close()
                return 0
            print(
                f"{'page':14} {'via':6} {'first':8} {'cold ms':>8} {'(max)':>7} {'warm ms':>8} {'(max)':>7} "
                f"{'cold MB':>8} {'warm MB':>8} {'link ms':>8} {'(max)':>7}"
            )
            for name in args.pages:
                for via, base in (("direct", direct), ("proxy", proxy)):
                    r = measure(base, name, browser, args.rounds)
                    if via == "proxy":
                        r.update(in_app(base, name, browser, args.rounds))
                    out[f"{name}/{via}"] = r
                    print(
                        f"{name:14} {via:6} {r['first']:8} {r['cold_ms']:8.0f} {r['cold_max_ms']:7.0f} "
                        f"{r['warm_ms']:8.0f} {r['warm_max_ms']:7.0f} {r['cold_MB']:8.2f} {r['warm_MB']:8.2f}"
                        + (f" {r['in_app_ms']:8.0f} {r['in_app_max_ms']:7.0f}" if "in_app_ms" in r else ""),
                        flush=True,
                    )
            browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    out["machine"]["load_avg_1min_end"] = round(os.getloadavg()[0], 2)
    print(f"machine: {out['machine']}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
