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
state to the press as the browser saw it — ``{"button", "action", "run", "id"}``, the action and run the
server drew that button with — in the same event, so Streamlit sends the button's trigger and the
witness's state in one message. The server applies that press once (``claim``: a press id it has applied
is not applied again) and answers with the id (``answered``) when it draws the buttons again. Until the
answer has arrived the browser marks the button busy (``aria-busy``), refuses further presses of those
buttons (a second press never cancels a first still in flight), and re-sends the same press every
``RESEND_SECONDS``: a press is done, or refused with a message by the page, never silently dropped.

A client without the script (AppTest, the benchmarks' protocol client) sends only the button's trigger:
the page then applies the action the button was drawn with, as before.
"""
from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from app.ui import state

RESEND_SECONDS = 2.0      # a press not answered after this long is sent again (same id: applied once)

JS = r"""
const RESEND_MS = %RESEND_MS%;
const cls = (k) => 'st-key-' + k.replace(/[^A-Za-z0-9_-]/g, '-');
function busy(w, on) {
  for (const b of document.querySelectorAll('.' + cls(w.pending ? w.pending.button : '') + ' button'))
    on ? b.setAttribute('aria-busy', 'true') : b.removeAttribute('aria-busy');
}
function answered(w) {
  busy(w, false);
  clearInterval(w.timer);
  w.pending = null;
}
export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const w = parentElement.__witness || (parentElement.__witness = { pending: null, timer: null, last: 0 });
  w.data = data;
  w.set = setStateValue;
  parentElement.dataset.answered = data.answered;
  if (w.pending && data.answered >= w.pending.id) answered(w);
  if (w.pending) busy(w, true);                        // the button may have been drawn again
  if (w.listener) return;
  w.listener = (e) => {
    const b = e.target && e.target.closest ? e.target.closest('button') : null;
    if (!b) return;
    const name = Object.keys(w.data.buttons).find((k) => b.closest('.' + cls(k)));
    if (!name) return;
    if (w.pending) {                                   // one press at a time: the first is still in flight
      e.stopImmediatePropagation();
      e.preventDefault();
      return;
    }
    if (b.disabled || b.getAttribute('aria-disabled') === 'true') return;
    w.last = Math.max(Date.now(), w.last + 1, w.data.answered + 1);
    w.pending = { button: name, ...w.data.buttons[name], id: w.last, sent: 1 };
    w.set('press', w.pending);                         // sent with the button's own trigger
    busy(w, true);
    w.timer = setInterval(() => {
      if (!w.pending) return;
      w.pending = { ...w.pending, sent: w.pending.sent + 1 };
      w.set('press', w.pending);                       // not answered yet: the same press again
    }, RESEND_MS);
  };
  window.addEventListener('click', w.listener, true);
  return () => {
    window.removeEventListener('click', w.listener, true);
    clearInterval(w.timer);
    parentElement.__witness = null;
  };
}
""".replace("%RESEND_MS%", str(int(RESEND_SECONDS * 1000)))

CSS = """
[class*='st-key-gatelab-witness'] { display: none; }
[aria-busy='true'] { cursor: progress; opacity: 0.8; }
"""

_component = st.components.v2.component("gatelab_witness", js=JS, css=CSS, isolate_styles=False)


def witness_key(page: str) -> str:
    return f"gatelab-witness-{page}"


def witness(page: str, buttons: dict[str, dict[str, Any]], on_press: Callable[[], None],
            key: str | None = None) -> None:
    """Watch the page's ``buttons`` (widget key -> what a press of it means, e.g. ``{"action": "pause",
    "run": "…"}``): draw it in the same fragment as the buttons. ``on_press`` runs when a press arrives
    that no button callback claimed (a re-sent one)."""
    _component(key=key or witness_key(page), data={"buttons": buttons, "answered": state.page_state(page).get("_answered", 0)},
               height=0, on_press_change=on_press)


def claim(page: str, key: str | None = None) -> dict[str, Any] | bool | None:
    """The press the browser reported with this message, the first time it arrives (it is then answered).

    False for a copy of a press applied already (re-sent, or the first message arriving late: do
    nothing); None when this message brought no new report (no script: AppTest, a protocol client; or a
    press the script cannot see, e.g. a Streamlit shortcut key), so the caller applies the action its
    button was drawn with."""
    value = st.session_state.get(key or witness_key(page))
    press = value.get("press") if value is not None else None
    if not isinstance(press, dict) or not isinstance(press.get("id"), (int, float)):
        return None
    ps = state.page_state(page)
    if press == ps.get("_last_report"):
        return None
    ps["_last_report"] = dict(press)
    if press["id"] <= ps.get("_answered", 0):
        return False
    ps["_answered"] = press["id"]
    return press


# ----------------------------------------------------------------------------- any page's buttons
PRESSABLE = "_pressable"      # page state: widget key -> (callback, args) the button was last drawn with


def button(where: Any, page: str, label: str, key: str, on_press: Callable[..., None], args: tuple = (),
           **kwargs: Any) -> bool:
    """``st.button`` whose press is witnessed (draw ``page_witness(page)`` after the page's buttons):
    ``on_press(*args)`` runs once for each press the user made, even when the message carrying it was
    lost and re-sent. For buttons that are not toggles (a toggle's meaning changes with what the user saw:
    Train and watch reports the drawn action itself)."""
    state.page_state(page).setdefault(PRESSABLE, {})[key] = (on_press, args)
    return where.button(label, key=key, on_click=_clicked, args=(page, key), **kwargs)


def page_witness(page: str) -> None:
    """The witness of every ``button`` of ``page`` (one per page, after its buttons)."""
    witness(page, {k: {"action": k} for k in state.page_state(page).get(PRESSABLE, {})}, lambda: _resent(page))


def _clicked(page: str, key: str) -> None:
    seen = claim(page)
    if seen is None:                        # no witness script: the press of this button
        _run(page, key)
    elif seen:                              # the press as the browser reported it (normally this button)
        _run(page, str(seen.get("button")))


def _resent(page: str) -> None:
    seen = claim(page)
    if seen:
        _run(page, str(seen.get("button")))


def _run(page: str, key: str) -> None:
    found = state.page_state(page).get(PRESSABLE, {}).get(key)
    if found is not None:
        on_press, args = found
        on_press(*args)
