"""This session's place in a class — none, the teacher, or student *n* — and its URL parameters.

A student's seat is in the address (``?class=CODE&member=TOKEN``), so a reload keeps them in
their class as the same student. The teacher's key is **not** put in the address bar: the
teacher's screen is the one projected, so the key lives in this session only, and the teacher's
private link (in a folded panel) brings them back after a reload or on another device. Opening
that link (``?class=CODE&tk=KEY``) takes the key and clears it from the address at once.

Imports nothing of the app but ``streamlit``: ``app.ui.urlstate`` writes these parameters with
every page's ``cfg`` (no circle).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

CLASS, MEMBER, TEACHER = "class", "member", "tk"
JOIN = "join"  # the join link: ?join=CODE opens the app with the code filled in
PARAMS = (CLASS, MEMBER, TEACHER)
KEY = "_class.seat"
HANDOUT_TAKEN = "_class.cell_taken"  # the hand-out (a cell of the class's sweep) this student's page applied


@dataclass(frozen=True)
class Seat:
    code: str
    role: str  # "teacher" | "student"
    secret: str  # the teacher key or the member token
    number: int = 0  # a student's number ("Student 7")

    @property
    def teacher(self) -> bool:
        return self.role == "teacher"


def current() -> Seat | None:
    seat = st.session_state.get(KEY)
    return seat if isinstance(seat, Seat) else None


def take(seat: Seat | None) -> None:
    if seat is None:
        st.session_state.pop(KEY, None)
    else:
        st.session_state[KEY] = seat


def from_url() -> Seat | None:
    """A seat the address names that this session does not hold yet (checked by the caller
    against the store), or None."""
    q = st.query_params
    code = q.get(CLASS)
    if not code:
        return None
    if q.get(TEACHER):
        wanted = Seat(code, "teacher", q.get(TEACHER, ""))
    elif q.get(MEMBER):
        wanted = Seat(code, "student", q.get(MEMBER, ""))
    else:
        return None
    held = current()
    if held is not None and (held.code, held.role, held.secret) == (wanted.code, wanted.role, wanted.secret):
        return None
    return wanted


def url_params() -> dict[str, str]:
    """The seat as URL parameters: a student's, never the teacher's key."""
    seat = current()
    if seat is None or seat.teacher:
        return {}
    return {CLASS: seat.code, MEMBER: seat.secret}
