"""Step's cursor in the browser: the transport and the equations as one ``st.components.v2`` script.

Why a script and not Streamlit's own buttons and slider: each of their moves is a page run — 455 ms
a notch on Step, 2.3 times a bare Streamlit slider (issue 48) — although moving the cursor changes
no number of the model. Here the run's frames (``app.step.frames``) go to the browser once; the
Back / Forward / Reset buttons, the Timestep slider, the keys, the clicker and playback move the
cursor there, the charts and the diagram apply the step's frame (``app/ui/live_chart.js``) and the
equations are filled and typeset with KaTeX (``app/static/katex``, the npm package ``katex``; MIT,
``LICENSE.txt``). The server hears the step once the cursor rests (``reported``), so the link and
the page state say what is on screen.

Streamlit's own transport is still drawn beside it: it is what a page run without a browser has
(``AppTest``), and the CSS below hides it where the script has drawn its own.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import streamlit as st

from app.i18n import _
from app.step import frames as fr
from app.step.settings import PAGE
from app.step.slowmo import OPS, SERVER_OPS
from app.ui import state

T_KEY = state.wkey(PAGE, "t")  # the cursor (a setting, not a widget: ``app.step.player.slider_key``)


def slider_key() -> str:
    """The Timestep slider's widget key. It changes at every Play/Pause switch (the *epoch*).

    Why: while the server plays (a page without the browser's transport), every timer tick carries the
    browser's slider value, and that value lags the step the server last sent — by a tick or two, and
    by 15 steps or more when ticks come late (measured: a tick carried step 2 when the page had drawn
    step 17). A lagging value cannot be told apart from the user dragging the slider, and taking it
    back made playback and Pause jump backwards. So while playing the slider only shows the step
    (disabled) and its value is never read; after Pause a new key starts a new epoch, and any value
    sent for an older key — a tick still in flight — is simply not this slider's."""
    return state.wkey(PAGE, f"t@{state.page_state(PAGE).get('epoch', 0)}")


def set_cursor(t: int, own: bool = True) -> None:
    """Put the page's cursor at ``t``. ``own``: the server moved it (a button, a link, a clamp, slow
    motion): the browser's transport takes the new step (``seq`` counts these moves)."""
    ps = state.page_state(PAGE)
    st.session_state[T_KEY] = st.session_state[slider_key()] = ps["t"] = t
    ps.pop("clock", None)  # playback carries on from the new step
    if own:
        ps["seq"] = ps.get("seq", 0) + 1


HERE = Path(__file__).resolve().parent
KATEX_DIR = HERE.parent / "static" / "katex"
KATEX_VERSION = "0.16.47"
GROUP = PAGE  # the cursor's name in the browser (window.__gatelabCursors)
SCRUB_KEY = state.wkey(PAGE, "scrub")
EQ_KEY = state.wkey(PAGE, "equations")
OP_GROUP = "step-op"  # slow motion's cursor: the operation within the timestep shown
OPS_KEY = state.wkey(PAGE, "ops")
SERVER_TRANSPORT = "step-server-transport"  # container keys: Streamlit's own copies, hidden in a browser
SERVER_EQUATIONS = "step-server-equations"

# Where the script drew its transport (scrub.js marks the page: .gatelab-scrub-on on <html> while its
# .gatelab-scrub is on it; likewise -eq-on, -ops-on), Streamlit's copies are not shown. Not
# `body:has(.gatelab-scrub)`: a :has() on the body makes every change anywhere in the page restyle it
# whole — 1.2 ms for each of the ~10 style updates of a slider notch's drawing on Step, 0.09 ms without
# (measured, issue 48).
CSS = f"""
.gatelab-scrub-on .st-key-{SERVER_TRANSPORT}, .gatelab-scrub-on .st-key-step-play,
.gatelab-eq-on .st-key-{SERVER_EQUATIONS}, .gatelab-ops-on .st-key-{SERVER_OPS},
.gatelab-scrub-on [data-testid="stColumn"]:has(> div > .st-key-step-play) {{ display: none !important; }}
.gatelab-scrub {{ display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0.5rem 1rem;
  font-family: var(--st-font); color: var(--st-text-color); }}
.gatelab-scrub .gl-buttons {{ display: flex; flex-wrap: wrap; gap: 0.5rem; }}
.gatelab-scrub button, .gatelab-ops button {{ display: inline-flex; align-items: center; gap: 0.3rem; min-height: 2.5rem;
  padding: 0.25rem 0.75rem; font: inherit; color: inherit; cursor: pointer;
  background: var(--st-secondary-background-color); border: 1px solid var(--st-border-color);
  border-radius: var(--st-button-radius, 0.5rem); }}
.gatelab-scrub button svg, .gatelab-ops button svg {{ fill: currentColor; }}
.gatelab-scrub button:hover:not(:disabled) {{ border-color: var(--st-primary-color); }}
.gatelab-scrub button:focus-visible, .gatelab-scrub input:focus-visible, .gatelab-ops button:focus-visible {{
  outline: 2px solid var(--st-primary-color); outline-offset: 2px; }}
.gatelab-scrub button:disabled, .gatelab-ops button:disabled {{ cursor: not-allowed; opacity: 0.55; }}
.gatelab-scrub button[aria-pressed="true"] {{ border-color: var(--st-primary-color); }}
.gatelab-scrub .gl-slider {{ display: flex; flex-direction: column; flex: 1 1 14rem; min-width: 10rem; }}
.gatelab-scrub input[type=range] {{ width: 100%; accent-color: var(--st-primary-color); min-height: 2rem; }}
.gatelab-scrub .gl-label {{ font-size: 0.875rem; }}
.gatelab-scrub .gl-count {{ display: flex; flex-direction: column; }}
.gatelab-scrub .gl-count output {{ font-size: 1.75rem; line-height: 1.2; font-variant-numeric: tabular-nums; }}
.gatelab-scrub.gl-compact .gl-label {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }}
.gatelab-ops {{ display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem;
  font-family: var(--st-font); color: var(--st-text-color); }}
.gatelab-eq .gl-head {{ margin: 0 0 0.25rem 0; }}
.gatelab-eq .katex-display {{ overflow-x: auto; overflow-y: hidden; margin: 0.25rem 0; }}
"""

_component = st.components.v2.component(
    "gatelab_step_scrub",
    js=(HERE / "scrub.js").read_text(encoding="utf-8").replace("__KATEX__", KATEX_VERSION),
    css=CSS,
    isolate_styles=False,
)


def _icon_free(label: str) -> str:
    """A button label without Streamlit's ``:material/…:`` icon (the script draws its own)."""
    return re.sub(r":material/[a-z_]+:\s*", "", label).strip()


def reported() -> tuple[int, float] | None:
    """The step the browser last said it shows, with the report's id (a new id = a new report)."""
    got = st.session_state.get(SCRUB_KEY)
    at = got.get("at") if hasattr(got, "get") else None
    if not isinstance(at, dict) or "t" not in at or "n" not in at:
        return None
    try:
        return int(at["t"]), float(at["n"])
    except (TypeError, ValueError):
        return None


def on_report() -> None:
    """The browser says which step it shows: that is the page's cursor now (clamped by the next run).
    Not a move of the server's own: the browser keeps its cursor (``seq`` unchanged)."""
    rep = reported()
    if rep is not None:
        set_cursor(max(rep[0], 1), own=False)


def transport(where: Any, t: int, T: int, seq: int, speed: float, browser: bool, play_words: dict) -> None:
    """The browser's transport for a run of ``T`` steps at the server's step ``t``. ``seq`` counts the
    server's own moves of the cursor (the browser takes ``t`` only when it changed); ``browser``:
    the charts and equations carry the run's frames (else every move is reported at once and the
    server draws, as for slow motion)."""
    words = {
        "back": _("Back"),
        "forward": _("Forward"),
        "reset": _("Reset"),
        "timestep": _("Timestep"),
        "step": _("Step"),
        "stepOf": _("Step {t} of {T}"),
        "play": _icon_free(_(play_words["play"])),
        "pause": _icon_free(_(play_words["pause"])),
    }
    data = dict(
        kind="transport",
        group=GROUP,
        t=t,
        T=T,
        seq=seq,
        speed=float(speed),
        browser=browser,
        words=words,
        compact=state.presenting(),
    )
    with where:
        _component(key=SCRUB_KEY, data=data, on_at_change=on_report)


def header_html(markdown: str) -> str:
    """A one-line Markdown header (``**bold** (unit)``) as HTML; ``{t}`` stays for the browser to fill."""
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html.escape(markdown, quote=False))


def equations(where: Any, header: str, texts: list[str], t: int, run_id: str, group: str = GROUP) -> None:
    """The equations at the browser's cursor of ``group``: ``texts[k]`` is position k + 1's LaTeX (a
    timestep's, or in slow motion an operation's; ``header`` may have a ``{t}``); sent once per run as
    templates and numbers (``frames.equation_frames``)."""
    eq = fr.equation_frames(texts)
    data = dict(kind="equations", group=group, id=run_id, at=t, header=header_html(header), **eq)
    with where.container():
        _component(key=EQ_KEY, data=data)


def ops(where: Any, op: int, names: list[str], t: int, T: int, seq: int) -> None:
    """Slow motion's Previous / Next operation in the browser: the operation cursor (group ``OP_GROUP``)
    moves there through the timestep's operations (the diagram and equations carry their frames); past
    the first or last one the server moves to the neighbouring timestep (``on_op``)."""
    data = dict(
        kind="ops",
        group=OP_GROUP,
        t=op + 1,
        T=len(names),
        seq=f"{t}:{seq}",  # a new timestep, or an operation the server chose, restarts the browser's
        back=t > 1,
        forward=t < T,
        names=names,
        words={
            "previous": _("Previous"),
            "previousHelp": _("Back one operation (from the first, to the previous timestep's last)."),
            "next": _("Next operation"),
            "label": header_html(_("**Operation {k} of {n}: {name}**")),
        },
    )
    with where:
        _component(key=OPS_KEY, data=data, on_op_change=on_op)


def on_op() -> None:
    """The browser's operation: kept as the page's (``op``), or past the timestep's first or last one,
    the neighbouring timestep (its last or first operation)."""
    got = st.session_state.get(OPS_KEY)
    rep = got.get("op") if hasattr(got, "get") else None
    if not isinstance(rep, dict):
        return
    ps = state.page_state(PAGE)
    t = int(ps.get("t", 1))
    try:
        cross, k = int(rep.get("cross", 0)), int(rep.get("op", 0))
    except (TypeError, ValueError):
        return
    if cross:
        t = max(t + cross, 1)
        set_cursor(t)
        k = 0 if cross > 0 else len(OPS) - 1
    ps["op"], ps["op_t"] = k, t
