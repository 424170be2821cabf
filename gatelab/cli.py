"""The ``gatelab`` command: start Gate Lab from anywhere, for one laptop or a whole room.

    gatelab                          start the app at http://localhost:8501 (opens the browser)
    gatelab --port 8080 --host 0.0.0.0   reachable from the class's network
    gatelab room --replicas 4 --port 8080 --listen 0.0.0.0
                                     K replicas behind nginx with sticky sessions (gatelab/room.py)

Pure Python (no make, no bash), so it runs on Windows and macOS too. The server it starts has the
class's settings wherever it is started from (``gatelab/server.py``).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys

from gatelab.server import streamlit_command


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a whole number, got {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is between 1 and 65535, got {port}")
    return port


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="gatelab",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Gate Lab: an interactive lab for how recurrent cells (RNN, LSTM 1997/2000/2002, GRU) work.",
        epilog="Examples:\n  gatelab                      this computer, http://localhost:8501\n"
        "  gatelab --host 0.0.0.0       students open http://<this computer's address>:8501\n"
        "  gatelab room --replicas 4 --listen 0.0.0.0 --port 8080   a class of 60+ (needs nginx)",
    )
    ap.add_argument("--port", type=_port, default=8501, help="the port to serve on (default 8501)")
    ap.add_argument(
        "--host",
        default=None,
        help="the address to listen on: 0.0.0.0 makes the lab reachable from the network "
        "(default: Streamlit's, every address)",
    )
    ap.add_argument("--headless", action="store_true", help="do not open a browser")
    sub = ap.add_subparsers(dest="command", title="to serve a whole room", metavar="room")
    room = sub.add_parser(
        "room",
        help="serve a class from several replicas behind nginx (sticky sessions)",
        description="Serve a class from several Gate Lab replicas behind nginx, with sticky "
        "sessions. Needs nginx (Debian: apt-get install nginx-light).",
    )
    room.add_argument("--replicas", type=int, default=2, help="how many Gate Lab servers (one per core)")
    room.add_argument("--port", type=_port, default=8080, dest="room_port", help="the port the class opens")
    room.add_argument("--listen", default="127.0.0.1", help="address nginx listens on (0.0.0.0: the network)")
    room.add_argument(
        "--first-port", type=_port, default=8601, help="the replicas use this port and the next ones"
    )
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "room":
        from gatelab import room  # only a room needs nginx's helpers

        signal.signal(signal.SIGTERM, room.stop)  # a plain kill stops nginx and the replicas too
        return room.main(
            [
                "--replicas",
                str(args.replicas),
                "--port",
                str(args.room_port),
                "--listen",
                args.listen,
                "--first-port",
                str(args.first_port),
            ]
        )
    cmd = streamlit_command(args.port, args.host, True if args.headless else None)
    proc = subprocess.Popen(cmd, env={**os.environ})
    # A plain kill (a host's service manager, a benchmark) stops Streamlit too, not only this parent.
    signal.signal(signal.SIGTERM, lambda signum, frame: proc.terminate())
    try:
        return proc.wait()
    except KeyboardInterrupt:  # Ctrl-C reaches Streamlit too; it stops cleanly
        return proc.wait()


if __name__ == "__main__":
    sys.exit(main())
