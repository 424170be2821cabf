"""The address students type or scan to join: reachable from their devices, not ``localhost``.

A teacher who opened ``http://localhost:8501`` on the machine that serves would otherwise hand out
a link that points every student at their own laptop. In order of preference: the address the
operator configured (``GATELAB_PUBLIC_URL``, e.g. the school's name for the server, or what
``gatelab room`` sits behind), the address the teacher's browser used if it is not a loopback
one, else this machine's LAN address (the interface its default route leaves by) with the same
port — and a warning when nothing but loopback is known.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from urllib.parse import urlsplit, urlunsplit

ENV = "GATELAB_PUBLIC_URL"


def _is_loopback(host: str) -> bool:
    if host in ("localhost", "") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on its network (no packet is sent: a UDP socket's route), or None."""
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                ip = s.getsockname()[0]
        except OSError:
            continue
        if ip and not ipaddress.ip_address(ip).is_loopback and ip != "0.0.0.0":
            return ip
    return None


def base_url(page_url: str, lan: str | None = None) -> tuple[str, bool]:
    """The join link's base (scheme, host, port, path prefix; no page, no query) and whether
    students can reach it (False: only a loopback address is known — the page warns)."""
    configured = os.environ.get(ENV, "").strip().rstrip("/")
    if configured:
        return configured, True
    parts = urlsplit(page_url or "http://localhost:8501/")
    host = parts.hostname or "localhost"
    if not _is_loopback(host):
        return urlunsplit((parts.scheme, parts.netloc, "", "", "")), True
    lan = lan if lan is not None else lan_address()
    if lan is None:
        return urlunsplit((parts.scheme, parts.netloc, "", "", "")), False
    netloc = lan + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme or "http", netloc, "", "", "")), True
