"""The ``gatelab`` command's parts that need no server: its options, the Streamlit command line it
builds, and the server settings it carries (the same as the checkout's .streamlit/config.toml).
Starting it for real, installed from a wheel in a fresh venv, is tests/e2e/test_hosting.py."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from gatelab import cli, server

ROOT = Path(__file__).resolve().parents[1]


def test_the_packaged_server_settings_are_the_checkouts():
    """Hosts read .streamlit/config.toml, gatelab its packaged copy: one set of settings."""
    assert server.SETTINGS.read_text(encoding="utf-8") == (ROOT / ".streamlit" / "config.toml").read_text(
        encoding="utf-8"
    )
    settings = tomllib.loads(server.SETTINGS.read_text(encoding="utf-8"))
    assert settings["server"]["enableStaticServing"] is True and settings["runner"]["postScriptGC"] is False


def test_no_element_is_sent_by_reference_to_the_browsers_cached_copy():
    """Streamlit sends a large element the browser holds as a reference to its copy, trusting a list
    the browser sent with its rerun request; a request sent as a run ends names copies the browser
    then drops ("Cached ForwardMsg MISS", the tab's connection closes). Under the settings no element
    is cacheable; under Streamlit's default (10 kB) the same element is."""
    from streamlit import config
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.runtime.forward_msg_cache import populate_hash_if_needed

    settings = tomllib.loads(server.SETTINGS.read_text(encoding="utf-8"))

    def chart_message() -> ForwardMsg:  # a Plotly chart of ~1 MB, as a page run sends it
        msg = ForwardMsg()
        msg.delta.new_element.plotly_chart.spec = "[" + ",".join(["0.123456"] * 120_000) + "]"
        return msg

    cacheable, before = {}, config.get_option("global.minCachedMessageSize")
    try:
        for name, size in (("default", 10e3), ("settings", settings["global"]["minCachedMessageSize"])):
            config.set_option("global.minCachedMessageSize", size)
            msg = chart_message()
            populate_hash_if_needed(msg)
            cacheable[name] = msg.metadata.cacheable
    finally:
        config.set_option("global.minCachedMessageSize", before)
    assert cacheable == {"default": True, "settings": False}


def test_the_command_line_carries_every_setting_and_the_options():
    cmd = server.streamlit_command(8123, "0.0.0.0", headless=True)
    assert cmd[:4] == [sys.executable, "-m", "streamlit", "run"] and cmd[4].endswith(
        str(Path("app") / "serve.py")
    )
    opts = cmd[5:]
    for expected in (
        "--server.port=8123",
        "--server.address=0.0.0.0",
        "--server.headless=true",
        "--server.enableStaticServing=true",
        "--runner.postScriptGC=false",
        "--server.disconnectedSessionTTL=60",
        "--theme.light.backgroundColor=#ffffff",
        "--theme.dark.backgroundColor=#10141c",
        "--client.toolbarMode=minimal",
        "--global.minCachedMessageSize=1000000000000000.0",
    ):
        assert expected in opts, (expected, opts)
    assert not any(o.startswith("--theme.base=") for o in opts)  # light or dark, as the system says
    # no --host: Streamlit's default address; no --headless: Streamlit opens a browser where it can
    bare = server.streamlit_command(8501, None, headless=None)
    assert not any(o.startswith(("--server.address", "--server.headless")) for o in bare)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--port", "0"], "between 1 and 65535"),
        (["--port", "http"], "whole number"),
        (["room", "--port", "70000"], "between 1 and 65535"),
    ],
)
def test_bad_options_say_what_is_wrong(argv, words, capsys):
    with pytest.raises(SystemExit) as e:
        cli.parser().parse_args(argv)
    assert e.value.code == 2 and words in capsys.readouterr().err


def test_help_lists_the_options_and_the_room():
    done = subprocess.run(
        [sys.executable, "-m", "gatelab", "--help"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0
    for words in ("--port", "--host", "--headless", "room"):
        assert words in done.stdout
    room = subprocess.run(
        [sys.executable, "-m", "gatelab", "room", "--help"], capture_output=True, text=True, cwd=ROOT
    )
    assert room.returncode == 0 and "--replicas" in room.stdout and "--listen" in room.stdout


def test_a_plain_kill_of_gatelab_stops_streamlit_too(tmp_path):
    """SIGTERM to the ``gatelab`` process (a service manager's stop) ends the Streamlit server it
    started, instead of leaving it running without a parent (here a stand-in child that sleeps)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    pidfile = tmp_path / "child.pid"
    code = (
        "import sys; from gatelab import cli; "
        f"cli.streamlit_command = lambda *a, **k: [sys.executable, '-c', "
        f"\"import os, time; open({str(pidfile)!r}, 'w').write(str(os.getpid())); time.sleep(120)\"]; "
        "sys.exit(cli.main(['--port', '1']))"
    )
    parent = subprocess.Popen([sys.executable, "-c", code])
    try:
        for _ in range(600):  # waits for the child to exist (state, not time)
            if pidfile.exists() and pidfile.read_text():
                break
            time.sleep(0.05)
        child = int(pidfile.read_text())
        parent.send_signal(signal.SIGTERM)
        parent.wait(timeout=60)
        for _ in range(600):
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the child outlived gatelab")
    finally:
        parent.kill()
