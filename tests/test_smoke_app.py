"""Smoke test: the router and its default page run without an exception (Streamlit AppTest)."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

ENTRY = Path(__file__).resolve().parents[1] / "app" / "main.py"


def test_app_runs_without_exception():
    at = AppTest.from_file(str(ENTRY), default_timeout=30).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(t.value == "Gate Lab" for t in at.title)
