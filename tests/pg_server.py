"""A throwaway PostgreSQL server for the store tests: ``initdb`` + ``pg_ctl`` in a temporary folder,
listening on a Unix socket there only (no TCP port), stopped and deleted afterwards.

Debian's ``postgresql`` package (``make test`` installs it) puts ``initdb`` and ``pg_ctl`` in
``/usr/lib/postgresql/<version>/bin``. PostgreSQL refuses to run as root, so as root the server
runs as the package's ``postgres`` user (``runuser``). A missing PostgreSQL is a test failure,
never a skip.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _bin(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))[::-1]), None
    )
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} not found: make test installs Debian's postgresql")
    return found


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """Start a server; yield its SQLAlchemy URL (``postgresql+psycopg://…``)."""
    root = os.geteuid() == 0
    run_as = ["runuser", "-u", "postgres", "--"] if root else []
    folder = Path(tempfile.mkdtemp(prefix="gatelab-pg-"))
    data, sock = folder / "data", folder / "sock"
    sock.mkdir()
    if root:
        shutil.chown(folder, "postgres")
        shutil.chown(sock, "postgres")
    user = "postgres" if root else os.environ.get("USER", "gatelab")
    try:
        subprocess.run(
            [*run_as, _bin("initdb"), "-D", str(data), "-U", user, "-A", "trust", "--no-sync", "-E", "UTF8"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        opts = f"-c listen_addresses='' -c unix_socket_directories={sock} -c fsync=off -c max_connections=200"
        subprocess.run(
            [
                *run_as,
                _bin("pg_ctl"),
                "-D",
                str(data),
                "-o",
                opts,
                "-l",
                str(folder / "log"),
                "-w",
                "-t",
                "60",
                "start",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        try:
            yield f"postgresql+psycopg://{user}@/postgres?host={sock}"
        finally:
            subprocess.run(
                [*run_as, _bin("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                capture_output=True,
                timeout=60,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
