"""A class on one server: N sessions press Start on Train and watch at once and keep training.

    .venv/bin/python benchmarks/classroom_load.py --sessions 1 10 30 60 --seconds 120
    .venv/bin/python benchmarks/classroom_load.py --scenario step --sessions 30
    .venv/bin/python benchmarks/classroom_load.py --sessions 30 --seconds 60 --teacher   # + the presenter
    .venv/bin/python benchmarks/classroom_load.py --url http://127.0.0.1:8080 --sessions 60   # a proxy

Each session is a light websocket client (``benchmarks/session_client.py``: the Streamlit
protocol, fragment timers included, no browser), so the figures are the server's. Per class of
N: errors, p50/p95 seconds from a click to the page showing it (Start -> "Pause" button or the
queue message; Pause -> "Resume"), live-chart updates and sequences per second per session,
server CPU and RSS sampled every second, and RSS once the class left (``--after`` seconds). With ``--repeat``
the same class comes a second time, to see whether memory returns to where the first left it.
Scenario ``step``: N sessions open Step through a cell and press Forward once a second.
With ``--teacher`` one more session, the presenter, works the projector while the class does:
it opens Step through a cell and presses Forward every 2 s, and every 10 s opens the next of the
app's other pages and comes back to Step; each press (click -> the new step shown) and each page
(request -> the page's run finished with its title) is timed, and one that does not complete within
30 s is an error that counts as 30 s (``teacher_*`` figures in the class's line).
Without ``--url`` a server is started on a free port (and stopped at the end).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from session_client import Session, summary  # noqa: E402
from teacher_client import Teacher  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TRAIN_QUERY = "cfg=" + quote(json.dumps({"streak": 100_000, "budget": 1_000_000}))
GO = "train.go"  # Train and watch's main button: Start, Pause, Resume, Start again


# ----------------------------------------------------------------------------- the server
def start_server(env: dict | None = None) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app/serve.py",
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
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=1).read().strip() == b"ok":
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the Streamlit server did not start within 60 s")


class Sampler:
    """Server CPU (% of one core) and RSS (MB) every second, for the process and its children."""

    def __init__(self, pid: int | None) -> None:
        self.proc = psutil.Process(pid) if pid else None
        self.samples: list[tuple[float, float, float]] = []
        self._known: dict[int, psutil.Process] = {}

    def _procs(self) -> list[psutil.Process]:
        # the same Process objects every time: cpu_percent() measures since its previous call
        procs = [self.proc] + self.proc.children(recursive=True)
        return [self._known.setdefault(p.pid, p) for p in procs]

    async def run(self, stop: asyncio.Event) -> None:
        if self.proc is None:
            return
        for p in self._procs():
            p.cpu_percent(None)
        t0 = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(1.0)
            cpu = rss = 0.0
            for p in self._procs():
                try:
                    cpu += p.cpu_percent(None)
                    rss += p.memory_info().rss / 1e6
                except psutil.Error:
                    pass
            self.samples.append((round(time.perf_counter() - t0, 1), round(cpu, 1), round(rss, 1)))

    def rss(self) -> float:
        return round(sum(p.memory_info().rss for p in self._procs()) / 1e6, 1) if self.proc else float("nan")


def hold(pids: list[int], sig: int) -> None:
    """Pause (SIGSTOP) or resume (SIGCONT) other work on this machine while a class trains."""
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


# ----------------------------------------------------------------------------- one class
def _shown_after(s: Session, press: str, markers: tuple[str, ...]) -> float | None:
    """Seconds from the last ``press`` event to the first event after it that starts with a marker."""
    t_press = next((t for t, what in reversed(s.events) if what == f"press {press}"), None)
    if t_press is None:
        return None
    return next((t - t_press for t, what in s.events if t > t_press and what.startswith(markers)), None)


async def train_class(
    url: str, n: int, seconds: float, headers: dict | None = None, rss=None, teacher: bool = False
) -> dict:
    """``rss``: a callable giving the server's RSS (MB), read when the class has opened the page
    (idle sessions) and when it has trained, for the memory per idle and per training session.
    ``teacher``: the presenter (``Teacher``) works for ``seconds`` from the Start press on."""
    sessions = [Session(url, page="train", query=TRAIN_QUERY, headers=dict(headers or {})) for _ in range(n)]
    t0 = time.perf_counter()
    await asyncio.gather(*(s.open() for s in sessions))
    await asyncio.gather(
        *(s.wait_for(lambda x: x.labels.get(GO) == "Start" and not x.running, 120) for s in sessions)
    )
    opened = time.perf_counter() - t0
    rss_open = rss() if rss else float("nan")
    await asyncio.gather(*(s.press(GO) for s in sessions))  # Start: everyone at once
    presenter = Teacher(url, headers) if teacher else None
    presenting = asyncio.create_task(presenter.run(seconds)) if presenter else None
    await asyncio.gather(*(s.pump(seconds) for s in sessions))
    started = [_shown_after(s, GO, (f"button {GO} Pause",)) for s in sessions]
    counts0 = [(s.loss_updates(), s.sequences() or 0) for s in sessions]
    t1 = time.perf_counter()
    await asyncio.gather(*(s.pump(min(10.0, seconds)) for s in sessions))  # a clean window for the rates
    dt = time.perf_counter() - t1
    rss_training = rss() if rss else float("nan")
    rates = [
        ((s.loss_updates() - c) / dt, ((s.sequences() or 0) - q) / dt) for s, (c, q) in zip(sessions, counts0)
    ]
    queued = sum(1 for s in sessions if s.texts and "queued" in s.texts[-1])
    if presenting is not None:  # the presenter's last press or page, before the class pauses
        await presenting
    pausing = [s for s in sessions if s.labels.get(GO) == "Pause"]  # Pause, where there is one to press
    for s in pausing:
        await s.press(GO)
    await asyncio.gather(*(_until_resume_shown(s) for s in pausing))
    paused = [_shown_after(s, GO, (f"button {GO} Resume",)) for s in sessions]
    errors = [e for s in sessions for e in s.errors]
    await asyncio.gather(*(s.close() for s in sessions))
    training = [r for r, s in zip(rates, sessions) if r[1] > 0]
    res = {
        "sessions": n,
        "open_seconds": round(opened, 2),
        "errors": len(errors),
        "error_examples": errors[:3],
        "start_click_to_shown_s": summary([x for x in started if x is not None]),
        "start_not_shown": sum(x is None for x in started),
        "pause_click_to_shown_s": summary([x for x in paused if x is not None]),
        "loss_chart_updates_per_s": summary([r[0] for r in rates]),
        "min_updates_per_s_training": round(min((r[0] for r in training), default=float("nan")), 2),
        "sequences_per_s": summary([r[1] for r in rates]),
        "sessions_training": len(training),
        "sessions_queued": queued,
        "server_rss_mb_open": rss_open,
        "server_rss_mb_training": rss_training,
    }
    return {**res, **presenter.figures()} if presenter else res


async def _until_resume_shown(s: Session, timeout: float = 10.0) -> None:
    """Pump until the Pause press shows Resume (at most ``timeout`` s: not shown counts as such)."""
    with contextlib.suppress(TimeoutError):
        await s.wait_for(lambda x: _shown_after(x, GO, (f"button {GO} Resume",)) is not None, timeout)


async def step_class(
    url: str, n: int, seconds: float, headers: dict | None = None, teacher: bool = False
) -> dict:
    sessions = [Session(url, page="step", headers=dict(headers or {})) for _ in range(n)]
    await asyncio.gather(*(s.open() for s in sessions))
    await asyncio.gather(
        *(s.wait_for(lambda x: "step.fwd" in x.buttons and not x.running, 120) for s in sessions)
    )
    latencies: list[float] = []

    async def clicker(s: Session) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            n0 = s.finished_runs
            t = time.perf_counter()
            await s.press("step.fwd")
            try:
                await s.wait_for(lambda x, n0=n0: x.finished_runs > n0 and not x.running, 30)
                latencies.append(time.perf_counter() - t)
            except TimeoutError:
                s.errors.append("a Forward click was not answered within 30 s")
            await s.pump(max(0.0, 1.0 - (time.perf_counter() - t)))

    presenter = Teacher(url, headers) if teacher else None
    await asyncio.gather(*(clicker(s) for s in sessions), *([presenter.run(seconds)] if presenter else []))
    errors = [e for s in sessions for e in s.errors]
    await asyncio.gather(*(s.close() for s in sessions))
    res = {
        "sessions": n,
        "errors": len(errors),
        "error_examples": errors[:3],
        "clicks": len(latencies),
        "forward_click_to_redrawn_s": summary(latencies),
    }
    return {**res, **presenter.figures()} if presenter else res


async def main_async(args: argparse.Namespace) -> dict:
    proc, url = (None, args.url) if args.url else start_server()
    sampler = Sampler(proc.pid if proc else args.server_pid)
    stop = asyncio.Event()
    sampling = asyncio.create_task(sampler.run(stop))
    out: dict = {
        "url": url,
        "scenario": args.scenario,
        "seconds": args.seconds,
        "classes": [],
        "machine": {"cpus": os.cpu_count(), "load_avg_1min_start": round(os.getloadavg()[0], 2)},
        "rss_idle_mb": None,
    }
    try:
        await asyncio.sleep(2.0)
        out["rss_idle_mb"] = sampler.rss()
        for n in args.sessions:
            for repeat in range(2 if args.repeat else 1):
                mark = len(sampler.samples)
                hold(args.pause_pids, signal.SIGSTOP)
                try:
                    res = await (
                        train_class(url, n, args.seconds, rss=sampler.rss, teacher=args.teacher)
                        if args.scenario == "train"
                        else step_class(url, n, args.seconds, teacher=args.teacher)
                    )
                finally:
                    hold(args.pause_pids, signal.SIGCONT)
                res["repeat"] = repeat + 1
                during = sampler.samples[mark:]
                res["server_cpu_percent"] = summary([c for _, c, _ in during])
                res["server_rss_mb_max"] = max((r for _, _, r in during), default=float("nan"))
                if "server_rss_mb_open" in res and out["rss_idle_mb"]:
                    res["rss_mb_per_idle_session"] = round(
                        (res["server_rss_mb_open"] - out["rss_idle_mb"]) / n, 2
                    )
                    res["rss_mb_per_training_session"] = round(
                        (res["server_rss_mb_training"] - out["rss_idle_mb"]) / n, 2
                    )
                await asyncio.sleep(args.after)
                res["server_rss_mb_after"] = sampler.rss()
                res["after_seconds"] = args.after
                out["classes"].append(res)
                print(json.dumps(res), flush=True)
    finally:
        stop.set()
        await sampling
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
    out["rss_samples"] = sampler.samples
    return out


def main() -> None:
    def resume_and_exit(signum: int, frame: object) -> None:  # never leave other jobs stopped
        hold(args.pause_pids, signal.SIGCONT)
        raise SystemExit(128 + signum)

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, nargs="+", default=[1, 10, 30, 60])
    ap.add_argument("--seconds", type=float, default=120.0, help="how long each class trains (s)")
    ap.add_argument("--scenario", choices=("train", "step"), default="train")
    ap.add_argument(
        "--teacher",
        action="store_true",
        help="one more session, the presenter: Forward on Step through a cell every 2 s and another "
        "page every 10 s while the class works, timed (teacher_* figures)",
    )
    ap.add_argument("--url", help="a running server or proxy (default: start one)")
    ap.add_argument("--server-pid", type=int, help="with --url: the server's pid, to sample CPU and RSS")
    ap.add_argument("--repeat", action="store_true", help="each class twice (memory after a second class)")
    ap.add_argument(
        "--after",
        type=float,
        default=75.0,
        help="seconds to wait after a class left before reading RSS (sessions are freed "
        "60 s after they disconnect: server.disconnectedSessionTTL)",
    )
    ap.add_argument(
        "--pause-pids",
        type=int,
        nargs="*",
        default=[],
        help="processes to pause while each class trains (other long jobs on this machine; "
        "keep a class under the Dask worker TTL of 5 minutes if they are Dask workers)",
    )
    ap.add_argument("--out", help="write the results (JSON) here")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, resume_and_exit)
    signal.signal(signal.SIGINT, resume_and_exit)
    res = asyncio.run(main_async(args))
    if args.out:
        Path(args.out).write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
