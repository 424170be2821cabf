"""One Gate Lab server: the Streamlit command line with the class's server settings.

Streamlit reads its settings from ``.streamlit/config.toml`` in the working directory only; a server
started elsewhere (``gatelab`` from any folder, an installed wheel, the replicas of ``gatelab room``)
would lose the ones a class depends on (static serving for the live charts, ``postScriptGC =
false``, the session TTL, the theme). So the command passes this package's copy of them
(``server.toml``, kept equal to ``.streamlit/config.toml`` by a test) as Streamlit options.
"""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

SETTINGS = Path(__file__).resolve().parent / "server.toml"


def app_script() -> Path:
    """``app/serve.py`` (the app with its live feeds) of the Gate Lab that is importable here (installed, or
    this checkout)."""
    spec = importlib.util.find_spec("app")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            "gatelab: the 'app' package of Gate Lab is not installed next to this command; "
            "reinstall with `pip install gate-lab` (or `pip install .` in a checkout)"
        )
    return Path(list(spec.submodule_search_locations)[0]) / "serve.py"


def streamlit_options(overrides: dict[str, object] | None = None) -> list[str]:
    """``--section.option=value`` for every setting of server.toml, then ``overrides``."""
    flat: dict[str, object] = {}

    def walk(prefix: str, table: dict) -> None:  # [theme.light] nests in [theme]: theme.light.<key>
        for key, value in table.items():
            if isinstance(value, dict):
                walk(f"{prefix}{key}.", value)
            else:
                flat[f"{prefix}{key}"] = value

    walk("", tomllib.loads(SETTINGS.read_text(encoding="utf-8")))
    flat.update(overrides or {})
    return [f"--{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in flat.items()]


def streamlit_command(
    port: int, host: str | None, headless: bool | None, extra: dict | None = None
) -> list[str]:
    """The command line that serves Gate Lab with the class's server settings."""
    overrides: dict[str, object] = {"server.port": port, **(extra or {})}
    if host:
        overrides["server.address"] = host
    if headless is not None:  # None: Streamlit decides (opens a browser where there is a display)
        overrides["server.headless"] = headless
    return [sys.executable, "-m", "streamlit", "run", str(app_script()), *streamlit_options(overrides)]
