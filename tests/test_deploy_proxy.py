"""Scale-out: two Gate Lab replicas behind nginx (deploy/serve.py) with sticky sessions.

A class's visitors spread over the replicas (a random bucket cookie each), and every later
request of a visitor — page loads and the websocket that carries its Streamlit session, reruns
and fragment timers included — reaches the replica that holds its session. Needs Debian's
nginx (``make test`` installs nginx-light); without it this FAILS, it does not skip."""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.cookiejar
import json
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from ports import free_ports  # noqa: E402
from session_client import Session  # noqa: E402


@pytest.fixture(scope="module")
def proxy():
    assert shutil.which("nginx") or Path("/usr/sbin/nginx").exists(), (
        "nginx is not installed: `make test` installs it (apt-get install nginx-light)"
    )
    (port,) = free_ports(1)
    replicas = free_ports(2)
    proc = subprocess.Popen(
        [
            sys.executable,
            "deploy/serve.py",
            "--replicas",
            "2",
            "--port",
            str(port),
            "--first-port",
            str(replicas[0]),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = proc.stdout.readline()  # printed once nginx and both replicas answer
    assert "behind nginx" in line, line + (proc.stdout.read() if proc.poll() is not None else "")
    try:
        yield f"http://127.0.0.1:{port}", {f"127.0.0.1:{p}" for p in replicas}
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def visit(url: str, jar: http.cookiejar.CookieJar) -> str:
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(url + "/", timeout=30) as r:
        return r.headers["X-Gatelab-Replica"]


def test_visitors_spread_over_the_replicas_and_each_stays_on_its_own(proxy):
    url, replicas = proxy
    seen = {}
    for i in range(20):
        jar = http.cookiejar.CookieJar()
        first = visit(url, jar)
        assert first in replicas
        assert all(visit(url, jar) == first for _ in range(3)), "a visitor moved to another replica"
        seen[i] = first
    assert set(seen.values()) == replicas, f"all 20 visitors went to {set(seen.values())}"


async def session_on(url: str, cookie: str) -> tuple[Session, str]:
    s = Session(
        url,
        page="train",
        query="cfg=" + quote(json.dumps({"streak": 5000})),
        headers={"Cookie": f"gatelab_replica={cookie}"},
    )
    await s.open()
    return s, s.ws.response.headers["X-Gatelab-Replica"]


def test_streamlit_sessions_run_through_the_proxy_on_the_replica_their_cookie_names(proxy):
    url, replicas = proxy
    # find a bucket for each replica (new visitors get random buckets)
    buckets: dict[str, str] = {}
    while len(buckets) < 2:
        jar = http.cookiejar.CookieJar()
        replica = visit(url, jar)
        buckets.setdefault(replica, next(c.value for c in jar if c.name == "gatelab_replica"))

    async def run() -> dict:
        out = {}
        for replica, cookie in buckets.items():
            s, served_by = await session_on(url, cookie)
            assert served_by == replica  # the websocket went where the pages went
            await s.wait_for(lambda x: x.labels.get("train.go") == "Start" and not x.running, 120)
            await s.press("train.go")  # Start: a rerun through the proxy ...
            await s.wait_for(lambda x: (x.sequences() or 0) > 0, 120)  # ... and it trains
            n = s.sequences()
            await s.wait_for(lambda x, n=n: (x.sequences() or 0) > n, 120)
            # the live feed's WebSocket went through nginx to the session's replica (on another one
            # the token is unknown and the socket closes without an answer)
            await s.wait_for(lambda x: sum(x.feed_updates.values()) >= 2, 120)
            assert not s.errors, s.errors
            await s.press("train.go")  # Pause
            await s.wait_for(lambda x: x.labels.get("train.go") == "Resume", 120)
            out[replica] = s.sequences()
            await s.close()
        return out

    # in a thread of its own: the browser tests' Playwright keeps an event loop in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        trained = pool.submit(asyncio.run, asyncio.wait_for(run(), timeout=300)).result()
    assert set(trained) == replicas and all(n > 0 for n in trained.values())


def test_the_proxy_compresses_text_and_lets_browsers_keep_plotly(proxy):
    """Issue 33: Streamlit serves its bundles uncompressed (leaving that to a proxy); through
    ``gatelab room`` they arrive gzipped, and the live charts' Plotly.js (named by its version) may be
    kept by the browser for a year."""
    import gzip
    import re

    from app.ui import live

    url, _ = proxy
    with urllib.request.urlopen(url + "/", timeout=30) as r:
        html = r.read().decode()
    bundle = re.search(r'src="\.?/?(static/js/index\.[^"]+\.js)"', html)
    assert bundle, html[:500]
    req = urllib.request.Request(f"{url}/{bundle.group(1)}", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=30) as r:
        body = r.read()
        assert r.headers["Content-Encoding"] == "gzip"
        assert len(gzip.decompress(body)) > 2 * len(body)  # JavaScript shrinks well
    src = f"{url}/app/static/{live.PLOTLY_JS.name}?v={live.PLOTLY_VERSION}"
    req = urllib.request.Request(src, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=30) as r:
        assert "immutable" in r.headers["Cache-Control"] and r.headers["Content-Encoding"] == "gzip"
        assert r.headers["X-Gatelab-Replica"]  # still sticky (the cookie's replica)
        assert gzip.decompress(r.read()).startswith(b"/**\n* plotly.js (cartesian")
