"""Class mode in the sidebar of every page: start a class (teacher) or join one (student).

The teacher gets the join code, the join link (an address students can reach: address.py), its QR
code (segno), the class's size (redrawn every ``POLL_S`` while students join), *Follow me*, the private teacher link, a CSV of everything posted,
and *End the class*. A student sees which class they are in and may leave it. A student's page
follows the class: every ``POLL_S`` a fragment reads the class's revision from the store; a change
(the teacher revealed, started a vote again, asked the class to follow) reruns the page.
"""

from __future__ import annotations

from typing import Any

import segno
import streamlit as st

from app import i18n
from app.classroom import address, keeper, seat
from app.classroom.seat import Seat
from app.classroom.store import ClassRefused, ClassStore, shared
from app.i18n import N_, _
from app.ui import urlstate
from app.ui.routes import PAGES, PAGES_DIR

POLL_S = 2.0  # a student's page looks for a change of the class this often
TEACHER_POLL_S = 0.5  # the teacher's count of answers: one session, a few small queries a tick
SEEN = "_class.rev"  # the class revision this session has drawn
FOLLOWED = "_class.followed"  # the last "Follow me" this session obeyed
FOLLOW_HERE = "_class.follow_here"  # a page's own choice of what "Follow me" hands the class (its cfg)


def store() -> ClassStore:
    """The process's store (one connection pool, shared by every session; nothing of a user in it)."""
    return shared()


def client_id() -> str:
    """Who is asking, for the join rate limit: the address nginx forwarded, else the peer's."""
    headers = getattr(st.context, "headers", None) or {}
    forwarded = (headers.get("X-Forwarded-For") or "").split(",")[0].strip()
    return forwarded or str(getattr(st.context, "ip_address", None) or "unknown")


def adopt_from_url() -> None:
    """Take the seat a link names (a student's reload, the teacher's private link) or the teacher's
    tab kept (a reload: ``keeper``), once checked against the store."""
    kept = keeper.offered()
    if kept is not None and store().is_teacher(kept.code, kept.secret):
        seat.take(kept)
        st.session_state.pop(keeper.FORGET, None)
    wanted = seat.from_url()
    if wanted is None:
        return
    try:
        if wanted.teacher:
            if not store().is_teacher(wanted.code, wanted.secret):
                raise ClassRefused(N_("This link does not carry the class's teacher key."))
            seat.take(wanted)
            # the key leaves the address bar at once: the teacher's screen is the one projected
            st.query_params.pop(seat.TEACHER, None)
        else:
            seat.take(
                Seat(wanted.code, "student", wanted.secret, store().member_number(wanted.code, wanted.secret))
            )
    except ClassRefused as e:
        for p in seat.PARAMS:
            st.query_params.pop(p, None)
        st.error(_("The class in this link could not be joined: {why}").format(why=_(str(e))))


def class_view() -> Any:
    """This session's class as the store has it now (None outside a class or when it ended)."""
    s = seat.current()
    if s is None:
        return None
    view = store().view(s.code)
    if view is None:
        seat.take(None)
        st.warning(_("Your class has ended."))
    return view


# ---------------------------------------------------------------------------- callbacks
def _start() -> None:
    new = store().create_class()
    seat.take(Seat(new.code, "teacher", new.teacher_key))


def _join(code: str | None = None, nick_key: str = "_class.nick_in") -> None:
    code = code if code is not None else st.session_state.get("_class.code_in", "")
    nick = st.session_state.get(nick_key, "")
    try:
        m = store().join(code, client_id(), nick)
    except ClassRefused as e:
        st.session_state["_class.join_error"] = str(e)
        return
    st.session_state.pop("_class.join_error", None)
    seat.take(Seat(m.code, "student", m.token, m.number))
    st.query_params.pop(seat.JOIN, None)


def _leave() -> None:
    seat.take(None)
    st.session_state[keeper.FORGET] = True  # the tab forgets the teacher's seat too
    for key in (SEEN, FOLLOWED):
        st.session_state.pop(key, None)


def _end(s: Seat) -> None:
    try:
        store().end(s.code, s.secret)
    except ClassRefused:
        pass  # already gone
    _leave()


def _follow_me(s: Seat, path: str) -> None:
    """Ask every student to open this page with the teacher's settings (the page's own link)."""
    cfg = st.session_state.get("_class.cfg_here")

    def change(state_: dict) -> None:
        n = int((state_.get("follow") or {}).get("n", 0)) + 1
        state_["follow"] = {"n": n, "path": path, "cfg": cfg}

    store().update(s.code, s.secret, change)


# ---------------------------------------------------------------------------- drawing
def sidebar(path: str) -> None:
    """The class panel at the bottom of the sidebar (``path``: this page's url path)."""
    s = seat.current()
    # The keeper first: the tab holds the teacher's seat before the panel shows the class (drawn after
    # it, a reload as soon as the class code showed could come before the tab had kept the seat: seen
    # under load, 4 reloads in 8).
    keeper.keep()
    # what "Follow me" hands the class: the settings the page offered (FOLLOW_HERE: Lessons hands
    # its lesson and question, not the teacher's own answers), else the page's link as this run wrote it
    offered = st.session_state.pop(FOLLOW_HERE, None)
    st.session_state["_class.cfg_here"] = (
        offered if offered is not None else st.query_params.get(urlstate.PARAM)
    )
    with st.sidebar.expander(
        _("Class mode") if s is None else _("Class {code}").format(code=s.code),
        icon=":material/co_present:",
        expanded=s is not None and s.teacher,
    ):
        if s is None:
            _not_in_class()
        elif s.teacher:
            _teacher(s, path)
        else:
            st.markdown(
                _(
                    "You are **Student {n}** in class **{code}**. Your answers go to your teacher, without your name."
                ).format(n=s.number, code=s.code)
            )
            st.button(_("Leave the class"), key="_class.leave", on_click=_leave, icon=":material/logout:")
    if s is not None:
        with st.sidebar:
            _poll()


def _not_in_class() -> None:
    st.caption(
        _(
            "Teach with the class's screens: the class's predictions live, a vote again, everyone on your page."
        )
    )
    st.button(
        _("Start a class (teacher)"),
        key="_class.start",
        on_click=_start,
        icon=":material/school:",
        width="stretch",
    )
    st.divider()
    st.text_input(_("Class code"), key="_class.code_in", max_chars=8, placeholder="ABC123")
    st.text_input(_("Nickname (optional, only your teacher sees it)"), key="_class.nick_in", max_chars=24)
    st.button(
        _("Join the class"), key="_class.join", on_click=_join, icon=":material/login:", width="stretch"
    )
    err = st.session_state.get("_class.join_error")
    if err:
        st.error(_(err))


def join_prompt() -> None:
    """A join link (``?join=CODE``) opened outside a class: a box at the top to join with that code."""
    code = st.query_params.get(seat.JOIN)
    if not code or seat.current() is not None:
        return
    with st.container(border=True, key="class-join"):
        st.markdown(
            _("**Join class {code}.** Your answers go to your teacher; no name needed.").format(code=code)
        )
        left, right = st.columns([2, 1], vertical_alignment="bottom")
        left.text_input(
            _("Nickname (optional, only your teacher sees it)"), key="_class.nick_top", max_chars=24
        )
        right.button(
            _("Join the class"),
            key="_class.join_top",
            on_click=_join,
            args=(code, "_class.nick_top"),
            type="primary",
            width="stretch",
        )
        err = st.session_state.get("_class.join_error")
        if err:
            st.error(_(err))


def join_link(code: str) -> tuple[str, bool]:
    """The link students open (the home page with the class code), and whether they can reach it."""
    base, reachable = address.base_url(st.context.url or "")
    prefix = (st.get_option("server.baseUrlPath") or "").strip("/")
    root = f"{base}/{prefix}" if prefix and not base.endswith("/" + prefix) else base
    return f"{root}/?join={code}", reachable


def qr_svg(text: str) -> str:
    return segno.make(text, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff")


def _teacher(s: Seat, path: str) -> None:
    view = class_view()
    if view is None:
        return
    link, reachable = join_link(s.code)
    st.markdown(_("Join code: **{code}**").format(code=s.code))
    st.image(qr_svg(link), alt=_("QR code of the join link {link}").format(link=link), width=180)
    st.code(link, language=None, wrap_lines=True)
    if not reachable:
        st.warning(
            _(
                "Only this computer's own address is known, which students' devices cannot open. Set "
                "GATELAB_PUBLIC_URL to the server's address on the school network."
            )
        )
    _members(s)
    st.button(
        _("Follow me: bring every student to this page"),
        key="_class.follow",
        on_click=_follow_me,
        args=(s, path),
        icon=":material/move_down:",
        width="stretch",
    )
    st.download_button(
        _("Download answers and runs (CSV)"),
        data=store().export_csv(s.code, s.secret),
        file_name=f"gatelab-class-{s.code}.csv",
        mime="text/csv",
        key="_class.csv",
        icon=":material/download:",
        width="stretch",
    )
    with st.expander(_("Your teacher link (keep it private)")):
        st.caption(
            _(
                "Open it to get back to your class after a reload or on another device. Never show it to the class."
            )
        )
        st.code(
            f"{join_link(s.code)[0].split('/?')[0]}/?class={s.code}&tk={s.secret}",
            language=None,
            wrap_lines=True,
        )
    sure = st.checkbox(_("I have downloaded what I need"), key="_class.sure")
    st.button(
        _("End the class (deletes its answers and runs)"),
        key="_class.end",
        on_click=_end,
        args=(s,),
        disabled=not sure,
        icon=":material/delete:",
        width="stretch",
    )


@st.fragment(run_every=POLL_S)
def _members(s: Seat) -> None:
    """The class's size and nicknames, kept current while students join (the page itself does not rerun)."""
    members = store().members(s.code, s.secret)
    # a key: the open state survives the label changing as students join
    with st.expander(_("{n} students joined").format(n=len(members)), key="_class.members_open"):
        # nicknames are the students' own text: a table cell shows it as text, never as markup
        st.dataframe(
            {_("Student"): [n for n, _nick in members], _("Nickname"): [nick for _n, nick in members]},
            hide_index=True,
            key="_class.members",
        )


@st.fragment(run_every=POLL_S)
def _poll() -> None:
    """Rerun the page when the class changed (a reveal, a new vote, "Follow me")."""
    s = seat.current()
    if s is None:
        return
    view = store().view(s.code)
    rev = None if view is None else view.rev
    if st.session_state.get(SEEN) != rev:
        first = SEEN not in st.session_state
        st.session_state[SEEN] = rev
        if not first:
            st.rerun(scope="app")


def pending_follow(path: str) -> None:
    """A student: open the page the teacher asked the class to follow (with the teacher's settings)."""
    s = seat.current()
    if s is None or s.teacher:
        return
    view = store().view(s.code)
    follow = (view.state.get("follow") if view else None) or {}
    n = int(follow.get("n", 0))
    seen = st.session_state.setdefault(FOLLOWED, n)  # a student who joins later starts where they are
    handout = (view.state.get("handout") if view else None) or {}
    if (
        handout.get("id")
        and st.session_state.get(seat.HANDOUT_TAKEN) != handout["id"]
        and path != handout.get("page")
    ):
        # cells are handed out: a student who has not taken theirs (joined later) is sent to it;
        # the last "Follow me" seen stays as it was (the teacher's next one is still obeyed)
        follow = {"path": handout.get("page"), "cfg": None}
    elif n <= seen:
        return
    else:
        st.session_state[FOLLOWED] = n
    target = next((r for r in PAGES if r.url_path == follow.get("path")), None)
    if target is None or not (PAGES_DIR / target.file).is_file():
        return
    params = {urlstate.PARAM: follow["cfg"]} if follow.get("cfg") else {}
    st.switch_page(PAGES_DIR / target.file, query_params=params | i18n.url_params() | seat.url_params())
