"""Where a person waits on an open page: live training, sliders and playback, in headless Chromium.

    .venv/bin/python benchmarks/live_speed.py                       # everything, once
    .venv/bin/python benchmarks/live_speed.py --only train --seconds 20
    .venv/bin/python benchmarks/live_speed.py --url http://127.0.0.1:8080   # a running server / proxy

* **bare** — the floor Streamlit sets: a bare app (``bare_slider_app.py``: one slider, one Plotly line
  with a cursor) on its own server, its slider timed the same way; the sliders below are also given as
  their p95 over this one's (``ratio_to_bare_p95``), measured in the same run.

Every slider is timed by the page's own clock (``performance.now``): from the key press arriving (a
capture-phase listener) to the first animation frame in which the chart shows something new (looked
at by the page every frame) — not by the round trips of the browser automation around it (~30 ms a
press here, the same for every slider).
* **timestep** — Step's Timestep slider (the browser's own, issue 48): a notch to the diagram redrawn.
* **train** — Train and watch, default settings (a streak of 100,000 asked for so it keeps training):
  loss-chart redraws with new data per second over ``--seconds``, and the sequences trained per second
  meanwhile (the progress bar's counter, so the training the page really did).
* **gradient_flow**, **step** — ``--notches`` key presses on a slider (Gradient flow: forget-gate bias;
  Step: output-gate bias), each timed from the key to the chart drawing new lines; median and p95.
* **playback** — Step playback set to 20 steps/s: distinct steps the diagram drew per second of wall time.
* **sliders** (not in the default set) — every slider of the pages whose charts follow their sliders
  (Gradient flow with the forget-gate LSTMs added, Step, Theory), ``--notches`` presses each: the time
  to the first chart showing the change and to the last chart that changed, each p95 also over the
  bare slider's, and its three slowest notches (ms to the last chart, ms to the preview's answer, the
  slider's value): a late answer is the server's, a late drawing the browser's. A slider no chart
  follows (Step's playback speed) is listed without figures.

Without ``--url`` a Streamlit server is started on a free port (the app's own settings) and stopped
at the end. A benchmark, not a test; issue 33's goals: ≥ 20 loss-chart updates/s while training,
slider → chart p95 ≤ 150 ms, playback at 20 steps/s shows ≥ 19; issue 48's: the Timestep slider's
p95 ≤ 50 ms and ≤ 0.3 × the bare slider's, every model-changing slider ≤ 1.0 × it.

A p95 is ``statistics.quantiles(…, n=20)[-1]`` (the exclusive method), the same for the floor and every
slider: of 30 notches it lies between the two slowest (a single slow notch moves it nearly half the way), of 60
between the fourth and third slowest — ``--notches 60`` for a p95 no single notch decides (issue 48's
figures in docs/benchmarks.md; each slider's slowest notches are listed either way).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from first_load import ARGS, CHROMIUM, ROOT, free_port, wait_ok  # noqa: E402

from tests.e2e.conftest import APP_IDLE as IDLE  # noqa: E402  (first_load put the checkout on the path)
from tests.e2e.conftest import CHART

# The lines chart i draws (Plotly's SVG path data): changes exactly when the picture does.
SIGNATURE = (
    """(i) => { const c = document.querySelectorAll("""
    + json.dumps(CHART)
    + """)[i];
  if (!c) return null;
  return Array.from(c.querySelectorAll("path.js-line, .heatmaplayer image, .shapelayer path, .annotation-text"))
    .map(p => p.getAttribute("d") || p.getAttribute("href") || p.textContent || "").join("|"); }"""
)
# The chart has drawn something new (polled from outside: benchmarks/click_torture.py).
CHANGED = f"([i, old]) => {{ const s = ({SIGNATURE})(i); return s !== null && s !== '' && s !== old; }}"
# Watch chart i from the page itself, every animation frame: the first frame that shows something new
# keeps the page's clock (window.__t1), beside the key's (__t0).
WATCH = (
    f"([i, old]) => {{ window.__t1 = null; const look = () => {{ const s = ({SIGNATURE})(i);"
    " if (s !== null && s !== '' && s !== old) { window.__t1 = performance.now(); return; }"
    " requestAnimationFrame(look); }; requestAnimationFrame(look); }"
)
# A slider's value and range (Streamlit's own: aria attributes; a native range input: its properties).
VALUE = (
    "(e) => [e.getAttribute('aria-valuenow') ?? e.value, e.getAttribute('aria-valuemin') ?? e.min, "
    "e.getAttribute('aria-valuemax') ?? e.max].map(Number)"
)
# The moment the page received the key press (capture phase, before any script of the page's own).
# And whether the page has started a script run since (Streamlit's own mark on its app element).
KEY_CLOCK = """() => { if (!window.__keyClock) { window.__keyClock = true;
  window.addEventListener('keydown', () => { window.__t0 = performance.now(); window.__ran = false; }, true);
  const app = document.querySelector("[data-testid='stApp']");
  new MutationObserver(() => { if (app.getAttribute('data-test-script-state') === 'running') window.__ran = true; })
    .observe(app, { attributes: true, attributeFilter: ['data-test-script-state'] }); } }"""
# When each message of the page's preview socket (app/ui/previews.py, /gatelab/…) arrived: a slow notch
# is then told apart — a late answer (the server) from a late drawing (the browser).
ANSWERS = """(() => { const W = window.WebSocket; window.__answers = [];
  window.WebSocket = function (u, p) { const ws = p ? new W(u, p) : new W(u);
    if (String(u).includes('/gatelab/')) ws.addEventListener('message', () => window.__answers.push(performance.now()));
    return ws; };
  window.WebSocket.prototype = W.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 }); })()"""
# Loss-chart redraws with new data, sampled every 5 ms (the chart's own data, not the DOM).
COUNT = """() => { window.__n = 0; window.__last = null;
  const sig = () => { for (const p of document.querySelectorAll(".st-key-train-loss .js-plotly-plot"))
      if (p.getBoundingClientRect().width > 0 && p.data && p._fullLayout)
        return JSON.stringify(p.data.map(t => [t.x && t.x.length, t.y && t.y.length, t.y && t.y[t.y.length - 1]]));
    return null; };
  window.__last = sig();
  window.__timer = setInterval(() => { const s = sig(); if (s !== null && s !== window.__last) { window.__last = s; window.__n++; } }, 5);
}"""
PROGRESS = (
    "() => { const t = document.querySelector(\"[data-testid='stProgress']\")?.innerText || ''; "
    "const m = /([\\d,]+) of/.exec(t); return m ? Number(m[1].replace(/,/g, '')) : -1; }"
)


def start_server(bare: bool = False) -> tuple[subprocess.Popen, str]:
    """Gate Lab (as ``gatelab`` starts it), or the bare one-slider app (``bare_slider_app.py``)."""
    port = free_port()
    cmd = (
        [sys.executable, "-m", "streamlit", "run", str(Path(__file__).with_name("bare_slider_app.py"))]
        + ["--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false"]
        if bare
        else [sys.executable, "-m", "gatelab", "--port", str(port), "--headless"]
    )
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_ok(url)
    return proc, url


def ready(page) -> None:
    page.wait_for_function(IDLE, timeout=60_000)


def open_page(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(
        ".gatelab-live[data-draws], [data-testid='stPlotlyChart'] .main-svg", timeout=60_000
    )
    ready(page)


def onward_key(thumb, key: str) -> str:
    """The arrow key that moves the slider ``thumb`` on: ``key``, or the other way at its end (a press
    there changes nothing)."""
    now, lo, hi = thumb.evaluate(VALUE)
    if (key == "ArrowRight" and now >= hi) or (key == "ArrowLeft" and now <= lo):
        return {"ArrowRight": "ArrowLeft", "ArrowLeft": "ArrowRight"}[key]
    return key


def add_forget_gate_lstms(page) -> None:
    """Gradient flow's "Add the forget-gate LSTMs", waited for until its run has drawn the forget-gate
    bias slider enabled (the button is gone with it): pressing before, on the greyed-out slider that
    run replaces, lost the focus."""
    add = page.get_by_role("button", name=re.compile("Add the forget-gate LSTMs"))
    add.click()
    add.wait_for(state="detached", timeout=60_000)
    ready(page)


def slider(
    page, label: str, chart: int, notches: int, key: str = "ArrowRight", thumb=None, runs: bool = True
) -> list[float]:
    """Milliseconds from each key press on the slider ``label`` (or the control ``thumb``) to chart
    ``chart`` drawing something new (lines, a heat map, the cursor, a printed value). ``runs``: each
    press makes a script run (a Streamlit slider), waited for before the next press — one notch at a
    time, as the bare app's are: the page may still show "not running" when the chart has drawn (a
    previewed chart draws before the run starts), and a press during the last one's run is another
    measurement."""
    if thumb is None:
        thumb = page.locator("[data-testid='stSlider']").filter(has_text=label).get_by_role("slider")
    out = []
    page.evaluate(KEY_CLOCK)
    thumb.focus()
    for _ in range(notches):
        key = onward_key(thumb, key)
        before = page.evaluate(SIGNATURE, chart)
        page.evaluate(WATCH, [chart, before])
        page.keyboard.press(key)  # to the focused slider (no actionability waits: the same for every slider)
        page.wait_for_function("() => window.__t1 !== null", timeout=30_000)
        # timed by the page's own clock, from the key's arrival to the frame that shows the change
        out.append(page.evaluate("() => window.__t1 - window.__t0"))
        if runs:  # a run too short for Streamlit to mark it running is over by then
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function("() => window.__ran", timeout=1_000)
        ready(page)
    return out


# Every chart watched from the page, every animation frame, from the key on: the first frame in which
# each chart shows something new (window.__first, chart index -> the page's clock), until the next
# watch starts (each watch its own generation: a last watch's frame still due must not compare the
# charts with that watch's older pictures).
WATCH_ALL = (
    f"(old) => {{ const gen = window.__watchGen = (window.__watchGen || 0) + 1; const first = {{}};"
    f" window.__first = first; const sig = {SIGNATURE};"
    f" const look = () => {{ if (window.__watchGen !== gen) return; const now = performance.now();"
    f" document.querySelectorAll({json.dumps(CHART)}).forEach((c, i) => {{ if (!(i in first)) {{"
    " const s = sig(i); if (s !== null && s !== '' && s !== old[i]) first[i] = now; } });"
    " requestAnimationFrame(look); }; requestAnimationFrame(look); }"
)
ALL_SIGNATURES = (
    f"() => Array.from(document.querySelectorAll({json.dumps(CHART)})).map((c, i) => ({SIGNATURE})(i))"
)
# A page's sliders on screen (Step keeps its server-side transport, a Timestep slider, hidden while the
# browser's moves the cursor): their labels, and whether they can be moved (Streamlit greys out a
# control no chosen network reads: Gradient flow's).
SLIDERS = """() => Array.from(document.querySelectorAll("[data-testid='stSlider']"))
  .filter((s) => s.checkVisibility()).map((s) => [
  (s.querySelector("[data-testid='stWidgetLabel']")?.innerText || '').trim(),
  !!s.querySelector("[role='slider'][aria-disabled='true'], input[disabled]")])"""


SWEPT = ("/gradient-flow", "/step", "/theory")  # the pages whose charts follow their sliders (previews)


def every_slider(page, base: str, path: str, notches: int) -> dict:
    """Each slider of the page at ``path``: per key press, the time to the first chart showing the
    change and to the last chart that changed (after the page's run, every chart has drawn what it
    will), as median and p95; a slider no chart follows (e.g. playback speed) is listed without.
    Each slider from the page as it opens (its defaults; the page loaded anew): not from wherever the
    sliders before it left the page (Step with more memory blocks draws its cell states as a heat map)."""

    def fresh() -> None:
        open_page(page, base + path)
        if path == "/gradient-flow":  # the forget-gate bias is greyed out until a forget-gate LSTM is drawn
            add_forget_gate_lstms(page)
        page.evaluate(KEY_CLOCK)
        page.wait_for_selector("[data-testid='stSlider'] input", state="attached", timeout=60_000)

    out = {}
    fresh()
    for i, (label, disabled) in enumerate(page.evaluate(SLIDERS)):
        if disabled or not label:
            continue
        if i:
            fresh()
        thumb = page.locator("[data-testid='stSlider']").filter(has_text=label).get_by_role("slider").first
        thumb.focus()
        key, first, last, notes = "ArrowRight", [], [], []
        for n in range(notches + 2):  # the first two not counted: a warm-up, as for every slider here
            key = onward_key(thumb, key)
            page.evaluate(WATCH_ALL, page.evaluate(ALL_SIGNATURES))
            page.keyboard.press(key)
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function("() => window.__ran", timeout=1_000)
            ready(page)
            page.evaluate("() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
            seen = page.evaluate(
                "() => [window.__t0, Object.values(window.__first), (window.__answers || []).find((a) => a >= window.__t0)]"
            )
            if seen[1] and n >= 2:
                first.append(min(seen[1]) - seen[0])
                last.append(max(seen[1]) - seen[0])
                answered = None if seen[2] is None else round(seen[2] - seen[0], 1)
                notes.append((round(last[-1], 1), answered, thumb.evaluate(VALUE)[0]))
        out[label] = {"first_chart": stats(first), "last_chart": stats(last)} if len(first) >= 2 else None
        if out[label]:  # the three slowest notches: (ms to the last chart, ms to the answer, the value)
            out[label]["slowest"] = sorted(notes, reverse=True)[:3]
        page.evaluate("() => { window.__watchGen = (window.__watchGen || 0) + 1; }")  # the last watch stops
        thumb.blur()
    return out


def stats(samples: list[float]) -> dict:
    return {
        "median_ms": round(statistics.median(samples), 1),
        "p95_ms": round(statistics.quantiles(samples, n=20)[-1], 1),
        "worst_ms": round(max(samples), 1),
        "n": len(samples),
    }


def train(page, base: str, seconds: float) -> dict:
    page.goto(f"{base}/train?cfg=" + quote(json.dumps({"streak": 100_000, "budget": 1_000_000})))
    page.wait_for_selector(".st-key-train-loss .gatelab-live[data-draws]", timeout=60_000)
    ready(page)
    page.locator(".st-key-train-go button").click()  # Start
    page.wait_for_function(f"() => ({PROGRESS})() > 0", timeout=30_000)
    page.wait_for_timeout(1000)  # past the first chunks (their size adapts)
    page.evaluate(COUNT)
    s0, t0 = page.evaluate(PROGRESS), time.perf_counter()
    page.wait_for_timeout(seconds * 1000)  # a measurement window
    n, s1, t1 = page.evaluate("() => window.__n"), page.evaluate(PROGRESS), time.perf_counter()
    page.locator(".st-key-train-go button").click()  # Pause
    return {
        "updates_per_s": round(n / (t1 - t0), 2),
        "sequences_per_s": round((s1 - s0) / (t1 - t0), 1),
        "seconds": round(t1 - t0, 1),
    }


# Distinct steps the diagram has drawn (its frame's step, set after Plotly drew it), sampled each frame.
DRAWN = """() => { window.__seen = new Set(); window.__stop = false;
  const d = document.querySelector(".st-key-step-diagram .gatelab-live");
  const look = () => { if (d.dataset.step) window.__seen.add(d.dataset.step); if (!window.__stop) requestAnimationFrame(look); };
  look(); }"""


def playback(page, base: str, seconds: float, speed: float) -> dict:
    """Step's playback at ``speed`` steps/s: the steps the diagram drew per second of wall time."""
    open_page(page, f"{base}/step?cfg=" + quote(json.dumps({"adding.T": 400, "speed": speed})))
    page.wait_for_selector(".gatelab-scrub .gl-play", timeout=60_000)
    page.locator(".gatelab-scrub .gl-play").click()
    page.wait_for_timeout(1000)
    page.evaluate(DRAWN)
    t0 = time.perf_counter()
    page.wait_for_timeout(seconds * 1000)  # a measurement window
    n, t1 = page.evaluate("() => { window.__stop = true; return window.__seen.size; }"), time.perf_counter()
    page.locator(".gatelab-scrub .gl-play").click()  # Pause
    return {"setting_steps_per_s": speed, "shown_steps_per_s": round(n / (t1 - t0), 2)}


def timestep(page, base: str, notches: int) -> list[float]:
    """Step's Timestep slider (the browser's own, ``app/step/scrub.js``): a notch to the diagram redrawn."""
    open_page(page, f"{base}/step?cfg=" + quote(json.dumps({"adding.T": 100})))
    page.wait_for_selector(".gatelab-scrub input[type=range]", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.st-key-step-diagram .gatelab-live')?.dataset.step")
    thumb = page.locator(".gatelab-scrub input[type=range]")
    slider(page, "", 0, 2, thumb=thumb, runs=False)  # warm-up, not counted
    return slider(page, "", 0, notches, thumb=thumb, runs=False)  # the browser's own: no run a notch


def bare(page, notches: int) -> list[float]:
    """The bare Streamlit app's slider (``bare_slider_app.py``, its own server): the floor."""
    proc, url = start_server(bare=True)
    try:
        page.goto(url)
        page.wait_for_selector("[data-testid='stPlotlyChart'] .main-svg", timeout=60_000)
        ready(page)
        # runs=False: its chart is drawn by the run itself (too short for Streamlit to mark it running)
        slider(page, "Timestep", 0, 2, runs=False)  # warm-up
        return slider(page, "Timestep", 0, notches, runs=False)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url")
    ap.add_argument(
        "--only",
        nargs="+",
        default=["bare", "timestep", "train", "gradient_flow", "step", "playback"],
        choices=["bare", "timestep", "train", "gradient_flow", "step", "playback", "sliders"],
    )
    ap.add_argument("--pages", nargs="+", default=list(SWEPT), help="the pages --only sliders times")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--notches", type=int, default=20)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    proc, base = (None, args.url) if args.url else start_server()
    out: dict = {"machine": {"cpus": os.cpu_count(), "load_avg_1min_start": round(os.getloadavg()[0], 2)}}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 2000})
            page.add_init_script(ANSWERS)
            if "bare" in args.only:
                out["bare_slider"] = stats(bare(page, args.notches))
                print("Bare Streamlit slider → chart (the floor):", out["bare_slider"], flush=True)
            if "timestep" in args.only:
                out["step_timestep"] = stats(timestep(page, base, args.notches))
                print("Step Timestep → diagram:", out["step_timestep"], flush=True)
            if "train" in args.only:
                out["train"] = train(page, base, args.seconds)
                print("Train and watch:", out["train"], flush=True)
            if "gradient_flow" in args.only:
                open_page(page, f"{base}/gradient-flow")
                add_forget_gate_lstms(page)
                slider(page, "Forget-gate bias", 0, 2)  # warm-up, not counted
                out["gradient_flow_slider"] = stats(slider(page, "Forget-gate bias", 0, args.notches))
                print("Gradient flow slider → chart:", out["gradient_flow_slider"], flush=True)
            if "step" in args.only:
                open_page(page, f"{base}/step")
                slider(page, "output gate bias", 2, 2)
                out["step_slider"] = stats(slider(page, "output gate bias", 2, args.notches))
                print("Step slider → chart:", out["step_slider"], flush=True)
            if "playback" in args.only:
                out["playback"] = playback(page, base, min(args.seconds, 10.0), 20.0)
                print("Step playback:", out["playback"], flush=True)
            if "sliders" in args.only:
                out["sliders"] = {p: every_slider(page, base, p, args.notches) for p in args.pages}
                for p, found in out["sliders"].items():
                    for label, st in found.items():
                        print(f"{p} · {label}:", st, flush=True)
            browser.close()
        if "sliders" in out and "bare_slider" in out:
            floor = out["bare_slider"]["p95_ms"]
            out["sliders_ratio_to_bare_p95"] = {
                f"{p} · {label}": [round(st[k]["p95_ms"] / floor, 2) for k in ("first_chart", "last_chart")]
                for p, found in out["sliders"].items()
                for label, st in found.items()
                if st
            }
            print("every slider, p95 / the bare slider's p95 (first chart, last chart):", flush=True)
            for k, v in out["sliders_ratio_to_bare_p95"].items():
                print(f"  {k}: {v[0]} / {v[1]}", flush=True)
        if "bare_slider" in out:  # each slider's p95 as a ratio to the bare app's, measured in this run
            floor = out["bare_slider"]["p95_ms"]
            out["ratio_to_bare_p95"] = {
                k: round(out[k]["p95_ms"] / floor, 2)
                for k in ("step_timestep", "gradient_flow_slider", "step_slider")
                if k in out
            }
            print("p95 / the bare slider's p95:", out["ratio_to_bare_p95"], flush=True)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
    out["machine"]["load_avg_1min_end"] = round(os.getloadavg()[0], 2)
    print("machine:", out["machine"])
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
