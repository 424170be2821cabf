"""Serve a class from several Streamlit replicas behind nginx, with sticky sessions.

    gatelab room --replicas 2 --port 8080            # then open http://127.0.0.1:8080
    gatelab room --replicas 4 --port 8080 --listen 0.0.0.0   # reachable from the class
    (python deploy/serve.py … from a checkout does the same)

Starts ``--replicas`` Streamlit servers (``app/serve.py``, with the class's server settings, as
``gatelab`` does) on 127.0.0.1, ports ``--first-port`` …, and nginx (Debian's ``nginx-light``) in
front of them on ``--listen``:``--port``, with the config ``nginx.conf.template`` filled in. Every replica is an ordinary Gate Lab server;
what they share is class mode's store (one SQLite file, or the PostgreSQL of
``GATELAB_DATABASE_URL``: docs/class_mode.md). Everything else lives in each browser session, so a
session only has to keep talking to the replica that holds it. nginx does that with a cookie (``gatelab_replica``) that
names a hash bucket: a new visitor gets a random one (spreading the class over the replicas),
every later request and the websocket carry it back (open-source nginx has no ``sticky``;
``ip_hash`` would send a whole class behind one school router to one replica). Each response
says which replica answered in ``X-Gatelab-Replica``. Ctrl-C stops everything.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from gatelab.server import streamlit_command

TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"


def nginx_config(listen: str, port: int, replicas: list[int], prefix: Path) -> str:
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in replicas)
    return (
        TEMPLATE.read_text()
        .replace("{{PREFIX}}", str(prefix))
        .replace("{{LISTEN}}", f"{listen}:{port}")
        .replace("{{SERVERS}}", servers)
    )


def wait_healthy(url: str, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read().strip() == b"ok":
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer /_stcore/health within {timeout:g} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="gatelab room", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--replicas", type=int, default=2)
    ap.add_argument("--port", type=int, default=8080, help="the port the class opens")
    ap.add_argument("--listen", default="127.0.0.1", help="address nginx listens on (0.0.0.0: the network)")
    ap.add_argument(
        "--first-port", type=int, default=8601, help="the replicas use this port and the next ones"
    )
    args = ap.parse_args(argv)
    if args.replicas < 1:
        ap.error("--replicas must be at least 1")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        print("nginx is not installed: sudo apt-get install -y nginx-light", file=sys.stderr)
        return 2
    ports = [args.first_port + i for i in range(args.replicas)]
    procs: list[subprocess.Popen] = []
    prefix = Path(tempfile.mkdtemp(prefix="gatelab-nginx-"))
    try:
        for p in ports:
            procs.append(
                subprocess.Popen(
                    streamlit_command(
                        p, "127.0.0.1", headless=True, extra={"server.fileWatcherType": "none"}
                    ),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env={**os.environ, "GATELAB_REPLICA": str(p)},
                )
            )
        for p in ports:
            wait_healthy(f"http://127.0.0.1:{p}")
        conf = prefix / "nginx.conf"
        conf.write_text(nginx_config(args.listen, args.port, ports, prefix))
        procs.append(subprocess.Popen([nginx, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"]))
        wait_healthy(f"http://127.0.0.1:{args.port}")
        print(
            f"Gate Lab: {args.replicas} replicas (ports {ports[0]}–{ports[-1]}) behind nginx on "
            f"http://{args.listen}:{args.port}  (Ctrl-C stops)",
            flush=True,
        )
        while True:
            signal.pause()
    except (KeyboardInterrupt, SystemExit):
        return 0
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(prefix, ignore_errors=True)


def stop(signum: int, frame: object) -> None:
    raise SystemExit(0)  # run main()'s clean-up: stop nginx and every replica


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stop)
    sys.exit(main())
