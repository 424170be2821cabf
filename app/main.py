"""Gate Lab entry script: a router built with ``st.navigation``.

Run with ``streamlit run app/main.py`` (or ``make run``). Streamlit puts this file's folder
(``app/``) on ``sys.path``, not the repository root, so ``lstm_core`` and ``app`` are imported
through the editable install (``pip install -e .``).

To add a page: write ``pages/<file>.py`` and append one line to ``PAGES``. A page whose file does
not exist yet is left out, so the router keeps working while pages are being written.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from app.ui.zoom import keep_zoom

PAGES_DIR = Path(__file__).resolve().parent.parent / "pages"

# (file in pages/, title, icon, url_path). The first existing entry is the default page; it is
# served at the root URL "/" (its url_path only has to be unique; "/home" is "Page not found").
PAGES: list[tuple[str, str, str, str]] = [
    ("home.py", "Home", ":material/home:", "home"),
    ("step.py", "Step through a cell", ":material/step_into:", "step"),
    ("train.py", "Train and watch", ":material/monitoring:", "train"),
    ("gradient_flow.py", "Gradient flow", ":material/waterfall_chart:", "gradient-flow"),
    ("theory.py", "Theory", ":material/menu_book:", "theory"),
    ("bias_lab.py", "Bias lab", ":material/tune:", "bias-lab"),
    ("experiments.py", "Paper experiments", ":material/science:", "experiments"),
]


def build_pages() -> list:
    """``st.Page`` objects for every planned page whose file exists (home is the default)."""
    pages = []
    for file, title, icon, url_path in PAGES:
        path = PAGES_DIR / file
        if not path.is_file():
            continue
        pages.append(
            st.Page(path, title=title, icon=icon, url_path=url_path, default=not pages)
        )
    return pages


def main() -> None:
    st.set_page_config(page_title="Gate Lab", layout="wide")
    pages = build_pages()
    if not pages:
        st.error(f"No pages found in {PAGES_DIR}.")
        return
    with st.sidebar:
        keep_zoom()           # live updates re-create Plotly charts; this keeps the user's zoom
    st.navigation(pages).run()


main()
