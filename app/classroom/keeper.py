"""The teacher's seat kept in the browser tab, so a reload does not lose the class.

The teacher key is never in the address bar (the projected screen, ``seat.py``), so a reload — a
new Streamlit session — used to leave the teacher outside their class until they opened their
private link. This tiny script keeps the class's code and key in the tab's ``sessionStorage``
(this tab only, never drawn, gone when the tab closes) while the session holds the teacher's seat;
in a new session without a seat it hands them back once, and the server checks them against the
store like the private link. Leaving or ending the class forgets them. Streamlit keeps no state
per tab across a reload, hence the script (one ``st.components.v2`` component, no iframe).
"""

from __future__ import annotations

import streamlit as st

from app.classroom import seat
from app.classroom.seat import Seat

KEY = "gatelab-class-keeper"
FORGET = "_class.forget"  # the seat was left this session: the tab forgets it too

JS = r"""
export default function (component) {
  const { data, setStateValue } = component;
  const NAME = 'gatelab.teacher';
  if (data.seat) {
    sessionStorage.setItem(NAME, JSON.stringify(data.seat));
  } else if (data.forget) {
    sessionStorage.removeItem(NAME);
  } else if (!window.__gatelabSeatOffered) {
    const kept = sessionStorage.getItem(NAME);
    if (kept) { window.__gatelabSeatOffered = true; setStateValue('restore', JSON.parse(kept)); }
  }
}
"""
_keeper = st.components.v2.component("gatelab_class_keeper", js=JS, isolate_styles=False)


def keep() -> None:
    """Draw the keeper (every page, in the sidebar): it stores, forgets or offers the seat."""
    s = seat.current()
    data = {
        "seat": {"code": s.code, "tk": s.secret} if s is not None and s.teacher else None,
        "forget": bool(st.session_state.get(FORGET)) and s is None,
    }
    with st.sidebar:
        _keeper(key=KEY, data=data, height=0)


def offered() -> Seat | None:
    """The teacher's seat the tab handed back (unchecked), once; None if none was offered."""
    if seat.current() is not None:
        return None
    try:
        kept = (st.session_state[KEY] or {}).get("restore")
    except (KeyError, AttributeError):
        return None
    if (
        not isinstance(kept, dict)
        or not isinstance(kept.get("code"), str)
        or not isinstance(kept.get("tk"), str)
    ):
        return None
    st.session_state[FORGET] = True  # offered once: if it does not check out, the tab forgets it
    return Seat(kept["code"][:8], "teacher", kept["tk"][:64])
