"""Presses that are never lost: a page's buttons report what the user saw, and a press is re-sent until
the server has answered it.

Why not Streamlit's buttons alone (measured on a busy server, docs/benchmarks.md "Found on a busy
machine"): a ``st.button`` click carries no payload, so the server applies the action the button had at
the server's *last* run, which the browser may not have drawn yet. A second press of "Pause" that the
browser still shows after the first one paused the run arrives as "Resume": the two presses cancel out.
And Streamlit's browser drops a click it cannot send (``sendRerunBackMsg`` while the WebSocket
reconnects: "Cannot send rerun backMessage when disconnected from server") and the server drops a
fragment rerun whose fragment it no longer holds; neither tells the user.

So one tiny ``st.components.v2`` component (no iframe) per page part, the *witness*, drawn in the same
fragment as the buttons and sent with them, watches clicks on those buttons (one capture-phase listener
on the window: mouse, Enter, and the keys ``app/ui/keys.py`` binds, which click). On a click it sets its
state to a report of the presses not answered yet, this one included, each as the browser saw it —
``{"button", "action", "run", "id"}``: the action and run the server drew that button with — in
the same event, so Streamlit sends the button's trigger and the report in one message. A button whose
meaning changes with its label (Train's Start / Pause / Resume) is named with its ``label`` too: when the
button on screen already shows a newer label than the witness's data (drawn after the buttons, that data
can arrive half a second later on a busy server), the press waits for the data of the label the user saw
(seen: a Space pressed on a fresh "Pause" reported as "Start", and the run went on). The server applies
each press once (``claim``: an id it has applied is not applied again) and answers with the ids
(``answered``) when it draws the buttons again. Until then the browser marks the button busy
(``aria-busy``) and re-sends the report once the page has been idle for ``RESEND_SECONDS`` (no run in
flight, whose widget values would be stale), or after ``LONG_SECONDS``: a press is done, or refused with a
message by the page, never silently dropped. A second press while the first is in flight is a press of its own, as
the user saw it: on Train and watch, "pause the run I see running" twice pauses once (the page's actions
are idempotent by what the user saw), never "pause, then resume".

A client without the script (AppTest, the benchmarks' protocol client) sends only the button's trigger:
the page then applies the action the button was drawn with, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import streamlit as st

from app.ui import state

RESEND_SECONDS = 2.0  # a press not answered after the page was idle this long is sent again (same id)
LONG_SECONDS = 10.0  # ... and after this long in any case

JS = r"""
const RESEND_MS = %RESEND_MS%, LONG_MS = %LONG_MS%;
const cls = (k) => 'st-key-' + k.replace(/[^A-Za-z0-9_-]/g, '-');
function mark(w) {                                     // aria-busy on the buttons with a press in flight
  const busy = new Set(Object.values(w.pending).map((p) => p.button));
  for (const name of Object.keys(w.data.buttons))
    for (const b of document.querySelectorAll('.' + cls(name) + ' button'))
      busy.has(name) ? b.setAttribute('aria-busy', 'true') : b.removeAttribute('aria-busy');
}
function send(w) {                                     // every press not answered yet, in one report
  const ready = Object.values(w.pending).filter((p) => !p.waiting);
  if (!ready.length) return;
  w.sent += 1;
  w.sentAt = Date.now();
  const presses = ready.map(({ sent, waiting, seen, at, ...press }) => press);
  for (const p of ready) p.sent = true;
  w.set('report', { presses, sent: w.sent });
}
const shown = (b) => ((b.querySelector('p') || b).innerText || '').trim();  // the label the user saw
// A press of a button that already shows a newer draw than this witness's data (the witness is drawn after
// the buttons, and its data can arrive half a second later on a busy server): what that press means is
// known once the data naming that label arrives (or, failing that, after LONG_MS, as last drawn).
function resolve(w) {
  for (const p of Object.values(w.pending)) {
    const meant = p.waiting && w.data.buttons[p.button];
    if (meant && (meant.label === p.seen || Date.now() - p.at >= LONG_MS)) {
      Object.assign(p, meant);
      p.waiting = false;
      p.sent = false;
    }
  }
}
export default function (component) {
  const { data, parentElement, setStateValue } = component;
  // Kept per page in the window, not on the element: Streamlit may mount the component anew (a reconnect,
  // an element drawn above it), and a press in flight must survive that.
  const all = window.__gatelabWitness || (window.__gatelabWitness = {});
  const w = all[data.key] || (all[data.key] = { pending: {}, timer: null, last: 0, sent: 0, sentAt: 0, busy: 0 });
  w.data = data;
  w.set = setStateValue;
  w.element = parentElement;
  const answered = new Set(data.answered);
  for (const id of Object.keys(w.pending)) if (answered.has(Number(id))) delete w.pending[id];
  resolve(w);
  mark(w);
  // A press seen while the witness was being drawn again (not sent then): sent now that it is back.
  if (Object.values(w.pending).some((p) => !p.sent) && w.element.isConnected) send(w);
  // Sent again only after the page has been idle for RESEND_MS (no script run, none requested): a message
  // the browser sends while a run is in flight carries the widget values from before that run, and
  // Streamlit takes them as the user's — a "Next lesson" then undone by the old lesson picker value (seen
  // under load). Idle, the values are the ones last drawn. After LONG_MS it is sent anyway (a state stuck).
  if (!w.timer) w.timer = setInterval(() => {
    const now = Date.now();
    const app = document.querySelector("[data-testid='stApp']");
    if (app && ['running', 'rerunRequested', 'stopRequested'].includes(app.getAttribute('data-test-script-state')))
      w.busy = now;
    if (!w.element.isConnected || !Object.keys(w.pending).length) return;
    resolve(w);
    if (now - Math.max(w.busy, w.sentAt) >= RESEND_MS || now - w.sentAt >= LONG_MS) send(w);
  }, 250);
  // One listener per page and window, never removed: the server ignores a button's trigger that comes
  // without a report once this script has reported (a trigger Streamlit dispatched twice), so a press
  // this script missed — between one mount's cleanup and the next — would be lost.
  if (w.listener) return;
  w.listener = (e) => {
    const b = e.target && e.target.closest ? e.target.closest('button') : null;
    if (!b) return;
    if (b.disabled || b.getAttribute('aria-disabled') === 'true') return;
    // Only the buttons the page named: a report sent with any other click (a segmented control's option is
    // a button too) would carry that click's rerun into this fragment's scope, and the page outside it
    // would not run (seen: Step's network source switched, the page did not).
    const name = Object.keys(w.data.buttons).find((k) => b.closest('.' + cls(k)));
    if (!name) return;
    w.last = Math.max(Date.now(), w.last + 1);
    const meant = w.data.buttons[name];
    const press = { button: name, ...meant, id: w.last };
    if (meant.label !== undefined && shown(b) !== meant.label)
      Object.assign(press, { waiting: true, seen: shown(b), at: Date.now() });
    w.pending[w.last] = press;
    // In the same event as the button's own trigger; while the witness is being drawn again, it is sent
    // when the witness is back (mounted again).
    if (w.element.isConnected) send(w);
    mark(w);
  };
  window.addEventListener('click', w.listener, true);
}
""".replace("%RESEND_MS%", str(int(RESEND_SECONDS * 1000))).replace(
    "%LONG_MS%", str(int(LONG_SECONDS * 1000))
)

CSS = """
[class*='st-key-gatelab-witness'] { display: none; }
[data-testid='stButton'] button[aria-busy='true'] { cursor: progress; opacity: 0.8; }
"""

_component = st.components.v2.component("gatelab_witness", js=JS, css=CSS, isolate_styles=False)


def witness_key(page: str) -> str:
    return f"gatelab-witness-{page}"


def witness(page: str, buttons: dict[str, dict[str, Any]], on_press: Callable[[], None]) -> None:
    """Watch the page's ``buttons`` (widget key -> what a press of it means, e.g. ``{"action": "pause",
    "run": "…", "label": "Pause"}``; with ``label``, a press is reported once the data of the label the
    user pressed is here): draw it in the same fragment as the buttons. ``on_press`` runs when a report arrives
    without a button's trigger (presses sent again)."""
    key = witness_key(page)
    _component(
        key=key,
        data={"key": key, "buttons": buttons, "answered": state.page_state(page).get(APPLIED, [])[-KEEP:]},
        height=0,
        on_report_change=on_press,
    )


APPLIED = "_applied"  # page state: the ids of the presses applied (the last KEEP are sent back as answers)
KEEP = 50


def claim(page: str) -> list[dict[str, Any]] | None:
    """The presses the browser reported with this message that were not applied yet, oldest first (each
    is then applied by the caller and answered); [] when there is nothing new to apply.

    None only when this page's witness never reported (no script: AppTest, a protocol client): the caller
    then applies the action its button was drawn with. Once the script has reported, every press comes
    with its report, and a button's trigger without a new one is not a press: Streamlit 1.67 on a busy
    server sometimes runs a button's ``on_click`` a second time, in the run after the click's (seen 5 times
    in 270 presses of the click torture), with the arguments the button was drawn with *since* — a
    "Pause" then applied as "Resume". So it is ignored ([]).
    """
    ps = state.page_state(page)
    value = st.session_state.get(witness_key(page))
    report = value.get("report") if value is not None else None
    if not isinstance(report, dict) or not isinstance(report.get("presses"), list):
        return [] if "_last_report" in ps else None
    if report == ps.get("_last_report"):
        return []
    ps["_last_report"] = report
    applied = ps.setdefault(APPLIED, [])
    fresh = sorted(
        (
            p
            for p in report["presses"]
            if isinstance(p, dict) and isinstance(p.get("id"), (int, float)) and p["id"] not in applied
        ),
        key=lambda p: p["id"],
    )
    applied.extend(p["id"] for p in fresh)
    del applied[:-KEEP]
    return fresh


# ----------------------------------------------------------------------------- any page's buttons
PRESSABLE = "_pressable"  # page state: widget key -> (callback, args) the button was last drawn with
EXPECTED = "_expected"  # page state: keys of buttons named before they are drawn (``expect``)


def button(
    where: Any,
    page: str,
    label: str,
    key: str,
    on_press: Callable[..., None],
    args: tuple = (),
    **kwargs: Any,
) -> bool:
    """``st.button`` whose press is witnessed (draw ``page_witness(page)`` after the page's buttons):
    ``on_press(*args)`` runs once for each press the user made — never lost, never run twice by Streamlit
    — with the arguments the button was last drawn with: what the page shows unless another press is
    still in flight (two quick presses of "Next question" move two questions). Not for toggles, whose
    meaning changes with what the user saw (Train and watch reports the drawn action itself).

    Why not the arguments of the draw the user pressed (a draw number reported with the press): the
    witness is drawn after the buttons, so the browser can show a button's new draw before the witness's
    new data, and a press would then report the *previous* draw ("Next lesson: 5" applied as the previous
    lesson's "Next lesson: 4")."""
    state.page_state(page).setdefault(PRESSABLE, {})[key] = (on_press, args)
    return where.button(label, key=key, on_click=_clicked, args=(page, key), **kwargs)


def expect(page: str, keys: Iterable[str]) -> None:
    """Name buttons of ``page`` before they are drawn (e.g. each question's *Reveal*): the witness is drawn
    after the buttons, so a button drawn for the first time is on screen before the witness's data names
    it, and a press of it then would not be reported — once the page has reported, not applied either."""
    state.page_state(page).setdefault(EXPECTED, set()).update(keys)


def page_witness(page: str) -> None:
    """The witness of every ``button`` of ``page`` and of those it ``expect``s (one per page part, after its
    buttons)."""
    ps = state.page_state(page)
    known = [*ps.get(PRESSABLE, {}), *sorted(ps.get(EXPECTED, set()) - set(ps.get(PRESSABLE, {})))]
    witness(page, {k: {"action": k} for k in known}, lambda: _resent(page))


def _clicked(page: str, key: str) -> None:
    fresh = claim(page)
    if fresh is None:  # a client without the script: the press of this button
        _run(page, key)
    for press in fresh or ():  # the presses as the browser reported them (normally this one)
        _run(page, str(press.get("button")))


def _resent(page: str) -> None:
    for press in claim(page) or ():
        _run(page, str(press.get("button")))


def _run(page: str, key: str) -> None:
    found = state.page_state(page).get(PRESSABLE, {}).get(key)
    if found is not None:
        on_press, args = found
        on_press(*args)
