"""A class votes at once: N students answer the same question within 2 s, through nginx and K replicas.

    .venv/bin/python benchmarks/class_poll.py --students 300 --replicas 2
    .venv/bin/python benchmarks/class_poll.py --students 300 --replicas 2 --kill-replica

Starts ``gatelab room`` (K replicas of app/serve.py behind nginx, sharing one SQLite class store in
a temporary GATELAB_DATA_DIR), starts a class and joins N students to it (through the store, as the
page's Join button does: the join is not what is timed). Then:

- the **teacher** is a Streamlit session (benchmarks/session_client.py, the websocket protocol, no
  browser) on Guided lessons with the class's teacher link, as the projector shows it: its
  dashboard's count of answers is redrawn by its own fragment timer;
- every **student** opens the class socket (``/gatelab/class`` through nginx, as the page's script
  does) at a random moment of the 2 s window and sends their answer; the answer is timed from send
  to acknowledgement (the store has committed it). A socket that breaks before the acknowledgement
  is opened again (nginx sends it to a live replica) and the answer sent again, as the page's
  script does.

With ``--kill-replica`` one replica is killed (SIGKILL) 1 s into the vote. At the end the store is
read: ``stored`` answers, ``lost`` = acknowledged but not stored (must be 0). ``dashboard_lag`` of an
answer: from its acknowledgement to the first teacher's dashboard count that includes it (counts
are cumulative: the count reaching the answer's rank). One JSON line:
``{"students", "sent", "acknowledged", "stored", "lost", "answer_p95_s", "dashboard_lag_p95_s", "errors", …}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import psutil
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from session_client import Session, summary  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from app.classroom.store import ClassStore  # noqa: E402
from benchmarks.ports import free_ports  # noqa: E402

LESSON, QUESTION = "vanishing", 0
COUNT = re.compile(r"(\d+)\D+(\d+)\D*answered")  # "**The class · round 1:** n of m answered."


def healthy(url: str) -> bool:
    try:
        return urllib.request.urlopen(url + "/_stcore/health", timeout=2).read().strip() == b"ok"
    except OSError:
        return False


def start_room(replicas: int, data_dir: str) -> tuple[subprocess.Popen, str, list[int]]:
    (port,), first = free_ports(1), free_ports(replicas)[0]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gatelab.room",
            "--replicas",
            str(replicas),
            "--port",
            str(port),
            "--first-port",
            str(first),
        ],
        cwd=ROOT,
        env={**os.environ, "GATELAB_DATA_DIR": data_dir, "GATELAB_TRAINING_WORKERS": "0"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 180
    while not healthy(url):
        if proc.poll() is not None or time.monotonic() > end:
            raise RuntimeError("gatelab room did not start")
        time.sleep(0.3)
    return proc, url, [first + i for i in range(replicas)]


def replica_pid(room: subprocess.Popen, port: int) -> int:
    for child in psutil.Process(room.pid).children(recursive=True):
        if f"--server.port={port}" in " ".join(child.cmdline()) or str(port) in child.cmdline():
            return child.pid
    raise RuntimeError(f"no replica on port {port}")


async def student(url: str, code: str, token: str, choice: str, delay: float, out: dict) -> None:
    """One student's page: its socket opened when the question is drawn, the answer sent at the
    student's moment; a socket that broke (its replica died) is opened again and the answer resent."""
    msg = {"op": "answer", "code": code, "member": token, "lesson": LESSON, "question": QUESTION,
           "choice": choice, "id": token}  # fmt: skip
    ws_url = url.replace("http://", "ws://") + "/gatelab/class"
    ws = await websockets.connect(ws_url, open_timeout=60)
    await asyncio.sleep(delay)
    out["sent"] = time.perf_counter()
    for attempt in range(40):
        try:
            if ws is None:
                ws = await websockets.connect(ws_url, open_timeout=30)
            await ws.send(json.dumps(msg))
            answer = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            await ws.close()
            if answer.get("ok"):
                out["acked"] = time.perf_counter()
                out["attempts"] = attempt + 1
            else:
                out["error"] = answer.get("error", "?")
            return
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as e:
            out["retry"] = repr(e)[:200]
            ws = None
            await asyncio.sleep(0.2)
    out["error"] = out.get("retry", "gave up")


async def vote(
    args: argparse.Namespace, url: str, room: subprocess.Popen, replicas: list[int], store: ClassStore
) -> dict:
    new = store.create_class()
    members = [store.join(new.code, f"bench-{i}", f"s{i}") for i in range(args.students)]
    teacher = Session(url, page="lessons", query=f"class={new.code}&tk={quote(new.teacher_key)}")
    await teacher.open()
    await teacher.pump(3.0)  # the page drawn, its dashboard's timer declared
    rng = random.Random(0)
    outs = [{} for _ in members]
    t0 = time.perf_counter()
    tasks = [
        asyncio.create_task(
            student(url, new.code, m.token, str(rng.randrange(3)), rng.uniform(0, args.window), o)
        )
        for m, o in zip(members, outs, strict=True)
    ]
    killed = None
    if args.kill_replica:
        # a replica that holds students' sockets but not the teacher's page (a teacher's page on a
        # dead replica reconnects as a new session and needs their private link: see the docs)
        held = teacher.ws.response.headers.get("X-Gatelab-Replica", "")
        victim = next(p for p in replicas if not held.endswith(f":{p}"))
        await teacher.pump(1.0)
        killed = replica_pid(room, victim)
        os.kill(killed, signal.SIGKILL)
    pump = asyncio.create_task(teacher.pump(args.window + 20.0))
    await asyncio.gather(*tasks)
    deadline = time.perf_counter() + 15.0
    acked = sorted(o["acked"] for o in outs if "acked" in o)
    while time.perf_counter() < deadline:  # until the dashboard shows every acknowledged answer
        counts = [int(m.group(1)) for _t, text in teacher.markdowns if (m := COUNT.search(text))]
        if counts and max(counts) >= len(acked):
            break
        await asyncio.sleep(0.1)
    pump.cancel()
    seen = [(t, int(m.group(1))) for t, text in teacher.markdowns if (m := COUNT.search(text))]
    lags = []
    for rank, t_ack in enumerate(acked, start=1):
        shown = next((t for t, n in seen if n >= rank and t >= t_ack), None)
        lags.append((shown - t_ack) if shown is not None else float("inf"))
    await teacher.close()
    stored = sum(store.tally(new.code, new.teacher_key, LESSON, QUESTION).get(1, {}).values())
    acked_tokens = {m.token for m, o in zip(members, outs, strict=True) if "acked" in o}
    stored_ok = len(acked_tokens) if stored >= len(acked_tokens) else stored
    answer_times = [o["acked"] - o["sent"] for o in outs if "acked" in o]
    errors = [o["error"] for o in outs if "error" in o] + teacher.errors
    return {
        "students": args.students,
        "replicas": args.replicas,
        "killed_replica": killed is not None,
        "sent": sum("sent" in o for o in outs),
        "acknowledged": len(acked),
        "stored": stored,
        "lost": len(acked) - stored_ok,
        "answer_p50_s": summary(answer_times)["p50"],
        "answer_p95_s": summary(answer_times)["p95"],
        "dashboard_lag_p50_s": summary(lags)["p50"],
        "dashboard_lag_p95_s": summary(lags)["p95"],
        "resent": sum(o.get("attempts", 1) > 1 for o in outs),
        "vote_s": round(max((o.get("acked", t0) for o in outs), default=t0) - t0, 3),
        "errors": len(errors),
        "error_examples": errors[:5],
        "joined": "through the store (not timed)",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--students", type=int, default=300)
    ap.add_argument("--replicas", type=int, default=2)
    ap.add_argument("--window", type=float, default=2.0, help="the students answer within this many seconds")
    ap.add_argument(
        "--kill-replica", action="store_true", help="kill one replica (SIGKILL) 1 s into the vote"
    )
    ap.add_argument("--out", help="also write the JSON here")
    args = ap.parse_args()
    data_dir = tempfile.mkdtemp(prefix="gatelab-class-poll-")
    room, url, replicas = start_room(args.replicas, data_dir)
    try:
        store = ClassStore(f"sqlite:///{data_dir}/classes.db")
        res = asyncio.run(vote(args, url, room, replicas, store))
    finally:
        room.send_signal(signal.SIGTERM)
        try:
            room.wait(timeout=30)
        except subprocess.TimeoutExpired:
            room.kill()
    res["machine_cpus"] = os.cpu_count()
    line = json.dumps(res)
    print(line, flush=True)
    if args.out:
        Path(args.out).write_text(line + "\n")


if __name__ == "__main__":
    main()
