"""Gate Lab entry script: a router built with ``st.navigation``.

Run with ``streamlit run app/main.py`` from the repository (``make run``, or the way Streamlit
Community Cloud and Hugging Face Spaces run it: ``pip install -r requirements.txt`` and no install
of the repository), or with the ``gatelab`` command of an installed Gate Lab. Streamlit puts this
file's folder (``app/``) on ``sys.path``, not the repository root: without an install of the
repository ``import app`` would fail, so the root is added when the packages are not importable.

To add a page: write ``pages/<file>.py`` and append one line to ``PAGES`` in ``app/ui/routes.py``.
A page whose file does not exist yet is left out, so the router keeps working while pages are
being written.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("app") is None:  # run from a checkout that is not installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import streamlit as st  # noqa: E402

from app import i18n  # noqa: E402
from app.classroom import view as classroom  # noqa: E402
from app.i18n import _  # noqa: E402
from app.ui import collector, live, previews, state, theme  # noqa: E402
from app.ui.routes import PAGES, PAGES_DIR  # noqa: E402


def build_pages() -> list:
    """``st.Page`` objects for every planned page whose file exists (home is the default)."""
    pages = []
    for r in PAGES:
        path = PAGES_DIR / r.file
        if not path.is_file():
            continue
        pages.append(st.Page(path, title=_(r.title), icon=r.icon, url_path=r.url_path, default=not pages))
    return pages


def main() -> None:
    previews.settle()  # a slider's preview goes out before this run's elements (app/ui/previews.py)
    i18n.from_url()  # ?lang=zh-TW / zh-CN, else this session's choice, else the browser's language
    with i18n.pinned():
        _page_run()
    collector.after_run()  # a full garbage collection due: now, not in a slider's next preview


def _page_run() -> None:
    state.display_from_url()  # ?present=1 folds the sidebar away from the first view on
    st.set_page_config(
        page_title="Gate Lab",
        layout="wide",
        initial_sidebar_state="collapsed" if state.presenting() else "auto",
    )
    pages = build_pages()
    if not pages:
        st.error(_("No pages found in {folder}.").format(folder=PAGES_DIR))
        return
    theme.style()  # page-wide CSS (equations that a keyboard can reach)
    live.reset()  # a full run re-creates every live chart: send whole figures
    page = st.navigation(pages)
    shown = page.url_path or PAGES[0].url_path  # the default page's path reads ""
    classroom.adopt_from_url()  # a student's reload, the teacher's private link
    classroom.pending_follow(shown)  # the teacher asked the class to follow: go there first
    classroom.join_prompt()  # a join link (?join=CODE): join before the page
    if any(r.charts and r.url_path == shown for r in PAGES):
        live.preload()  # the browser fetches Plotly.js while the page's script still runs
    page.run()
    classroom.sidebar(shown)  # after the page's own controls


main()
