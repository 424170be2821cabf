"""Free TCP ports on 127.0.0.1 for a server a benchmark or test starts (one place, so no caller guesses).

A replica set needs *consecutive* ports (``gatelab room --first-port P`` takes P, P+1, …): "a free port
plus 100" was a guess, and on a busy test machine, with many servers on random ports, it once landed
on a taken one — the room exited and the class benchmark read "did not start".
"""

from __future__ import annotations

import socket


def free_ports(n: int) -> list[int]:
    """n consecutive free ports, tried from a few random starts."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        if base + n > 65000:
            continue
        ok = True
        for p in range(base, base + n):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", p))
                except OSError:
                    ok = False
                    break
        if ok:
            return list(range(base, base + n))
    raise RuntimeError("no free ports")
