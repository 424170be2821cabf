"""A lesson in class mode: the students' predictions go to the class, the teacher paces the reveal.

Student: picking a choice sends it (a new pick replaces it in the same round); *Reveal* waits
until the teacher reveals the question to the class; when the teacher starts a vote again, the
question opens again on every student's page. Teacher: under the question, how many answered and
— only once shown, so the projector does not sway the vote — the distribution of the choices,
each round beside the last; *Reveal to the class*, *Vote again*, *Follow me*.

Everything shared is in the class store (app/classroom/store.py); this module only draws it and
turns the buttons into store updates.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from app.classroom import rules as cs
from app.classroom import seat
from app.classroom import socket as class_socket
from app.classroom import view as classroom
from app.classroom.store import ClassRefused
from app.i18n import _
from app.lessons import progress
from app.lessons.questions import Lesson, Question
from app.ui import feeds, figures, keys, state, urlstate

PAGE = "lessons"
ROUND_SEEN = "_class.lesson_rounds"  # (lesson, question) -> the class round this page last drew


def in_class() -> seat.Seat | None:
    return seat.current()


def is_teacher() -> bool:
    s = seat.current()
    return s is not None and s.teacher


def follow_here(values: dict, defaults: dict) -> None:
    """What "Follow me" hands the class from this page: the lesson and question, not the answers."""
    st.session_state[classroom.FOLLOW_HERE] = urlstate.encode(
        {"lesson": values["lesson"], "step": values["step"]}, defaults
    )


def _students_class():
    """The class of a student's session as the store has it now (None: not a student, or it ended)."""
    s = in_class()
    return None if s is None or s.teacher else classroom.store().view(s.code)


def sync(lesson: str, step: int, answers: str) -> str | None:
    """The student's progress brought in line with the class (before the question is drawn): a
    question the teacher moved the class to is reachable (earlier ones count as revealed without a
    prediction), and a question the teacher opened for a new vote is open again. Returns the new
    progress text, or None if nothing changes."""
    view = _students_class()
    if view is None:
        return None
    parsed, _bad = progress.parse(answers)
    done = list(parsed.get(lesson, []))
    changed = False
    while len(done) < step:  # followed the teacher past questions this student did not reveal
        done.append(progress.NO_PICK)
        changed = True
    seen = st.session_state.setdefault(ROUND_SEEN, {})
    rnd = cs.current_round(view.state, lesson, step)
    key = f"{lesson}/{step}"
    if seen.get(key, rnd) < rnd:  # a vote again: a fresh pick, sent again even if it is the same
        st.session_state.pop(state.wkey(PAGE, f"pick.{lesson}.{step}"), None)
        if len(done) > step and cs.revealed(view.state, lesson, step) < rnd:
            del done[step:]  # the question is open again
            changed = True
    seen[key] = rnd
    if not changed:
        return None
    parsed[lesson] = done
    return progress.to_text(parsed)


# The student's pick, sent over the class socket (app/classroom/socket.py) the moment it is made: no
# script run per pick. The radio stays Streamlit's own (its labels, keyboard, screen reader); this
# script listens to its change, sends {code, member, lesson, question, choice}, and writes the
# acknowledgement (or the refusal) beside it. An answer not acknowledged is sent again on a new
# socket (a replica that died: nginx sends the new socket to the other one).
_SEND_JS = r"""
export default function (component) {
  const { data, parentElement } = component;
  const status = parentElement.querySelector('.gatelab-sent') || parentElement.appendChild(
    Object.assign(document.createElement('div'), { className: 'gatelab-sent', role: 'status' }));
  let ws = null, pending = null, tries = 0;
  function open() {
    ws = new WebSocket(new URL(data.path, document.baseURI).href.replace(/^http/, 'ws'));
    ws.onopen = () => { if (pending) ws.send(JSON.stringify(pending)); };
    ws.onmessage = (e) => {
      const a = JSON.parse(e.data);
      if (!pending || a.id !== pending.id) return;
      status.textContent = a.ok ? data.sent : (data.refused + ' ' + (a.error || ''));
      status.dataset.acked = a.ok ? pending.choice : '';
      pending = null; tries = 0;
    };
    ws.onclose = () => { ws = null; if (pending && tries++ < 20) setTimeout(open, 250 * Math.min(tries, 8)); };
  }
  function send(choice) {
    pending = { op: 'answer', code: data.code, member: data.member, lesson: data.lesson,
                question: data.question, choice: String(choice), id: Date.now() + ':' + choice };
    status.textContent = data.sending;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(pending)); else if (!ws) open();
  }
  // Streamlit's radio (BaseWeb) sets its inputs itself: no native change event reaches the page.
  // So a click or a key in the group is followed by a look at which input is now checked.
  let last = null;
  function look(e) {
    const group = document.querySelector(data.group);
    if (!group || !group.contains(e.target)) return;
    setTimeout(() => {
      const inputs = [...group.querySelectorAll("input[type='radio']")];
      const i = inputs.findIndex((x) => x.checked);
      if (i >= 0 && i !== last) { last = i; send(i); }
    }, 0);
  }
  document.addEventListener('click', look, true);
  document.addEventListener('keyup', look, true);
  open();  // ready before the pick: a class that answers at once does not wait for handshakes
  return () => {
    document.removeEventListener('click', look, true);
    document.removeEventListener('keyup', look, true);
    if (ws) ws.close();
  };
}
"""
_sender = st.components.v2.component("gatelab_class_answer", js=_SEND_JS, isolate_styles=False)


def live_answers() -> bool:
    """A student's pick goes over the class socket (served by app/serve.py), not a script run."""
    s = in_class()
    return s is not None and not s.teacher and feeds.served()


def answer_sender(lesson: str, index: int, radio_key: str) -> None:
    """Draw the (invisible but for its status line) script that sends this question's pick."""
    s = in_class()
    if s is None:
        return
    _sender(
        key=f"class-answer-{lesson}-{index}",
        data={
            "path": class_socket.PATH,
            "code": s.code,
            "member": s.secret,
            "lesson": lesson,
            "question": index,
            "group": f".st-key-{keys.widget_class(radio_key)}",
            "sending": _("Sending your prediction…"),
            "sent": _("Your prediction is sent. ✓"),
            "refused": _("Not sent:"),
        },
        height="content",
    )


def catch_up(lesson: str, index: int, pick: int | None) -> None:
    """Before the Reveal is drawn: the pick the page holds is the one stored (a socket that never
    opened — a host without app/serve.py's routes — or a pick made just before a rerun)."""
    s = in_class()
    if s is None or s.teacher or pick is None:
        return
    try:
        store = classroom.store()
        if store.my_answer(s.code, s.secret, lesson, index) != str(int(pick)):
            view = store.view(s.code)
            if view is not None and cs.revealed(view.state, lesson, index) < cs.current_round(
                view.state, lesson, index
            ):
                store.answer(s.code, s.secret, lesson, index, str(int(pick)))
    except ClassRefused:
        pass  # the class ended or the round is revealed: reveal_gate says what to do


def on_pick(lesson: str, index: int, key: str) -> None:
    """Radio callback: send the pick to the class."""
    s = in_class()
    pick = st.session_state.get(key)
    if s is None or s.teacher or pick is None:
        return
    try:
        classroom.store().answer(s.code, s.secret, lesson, index, str(int(pick)))
    except ClassRefused as e:
        state.flash(PAGE, _(str(e)), kind="warning")


def reveal_gate(lesson: str, index: int, picked: bool) -> bool:
    """A student's Reveal: True if it may be pressed now; else says why (the teacher reveals)."""
    view = _students_class()
    if view is None:
        return True
    if cs.revealed(view.state, lesson, index) >= cs.current_round(view.state, lesson, index):
        return True
    st.caption(
        _("Your prediction is sent to the class. Your teacher reveals the answer to everyone.")
        if picked
        else _("Pick your prediction: it goes to your teacher, without your name.")
    )
    return False


# ---------------------------------------------------------------------------- the teacher
def _update(change) -> None:
    s = in_class()
    if s is None or not s.teacher:
        return
    try:
        classroom.store().update(s.code, s.secret, change)
    except ClassRefused as e:
        state.flash(PAGE, _(str(e)))


def _reveal_to_class(lesson: str, index: int, record) -> None:
    _update(lambda st_: cs.reveal(st_, lesson, index))
    record(lesson, index)  # the teacher's own page reveals it too


def _vote_again(lesson: str, index: int, reopen) -> None:
    _update(lambda st_: cs.vote_again(st_, lesson, index))
    reopen(lesson, index)


def _show(lesson: str, index: int, shown: bool) -> None:
    _update(lambda st_: cs.set_shown(st_, lesson, index, shown))


def dashboard(L: Lesson, q: Question, index: int, record, reopen) -> None:
    """The teacher's view of the class's answers to question ``index`` (live: a 2 s fragment)."""
    s = in_class()
    if s is None or not s.teacher:
        return
    with st.container(border=True, key="class-dashboard"):
        link, _reachable = classroom.join_link(s.code)
        # normal text, the link as code (no faded caption, no autolink): read from the back of the room
        st.markdown(_("Join at {link} with the code **{code}**").format(link=f"`{link}`", code=s.code))
        view = classroom.store().view(s.code)
        if view is None:
            return
        buttons = st.container()  # above the count and the chart: a projector (1366 × 768) shows them
        _tally(L.key, index, q)
        rnd = cs.current_round(view.state, L.key, index)
        done_round = cs.revealed(view.state, L.key, index) >= rnd
        shown = cs.is_shown(view.state, L.key, index)
        cols = buttons.columns(3)
        cols[0].button(
            _("Hide the answers") if shown else _("Show the answers"),
            key="_class.show",
            on_click=_show,
            args=(L.key, index, not shown),
            icon=":material/visibility_off:" if shown else ":material/bar_chart:",
            width="stretch",
            help=_("Hidden until you show them, so the projector does not sway the vote."),
        )
        cols[1].button(
            _("Reveal to the class"),
            key="_class.reveal",
            on_click=_reveal_to_class,
            args=(L.key, index, record),
            type="primary",
            disabled=done_round,
            icon=":material/visibility:",
            width="stretch",
        )
        cols[2].button(
            _("Vote again"),
            key="_class.again",
            on_click=_vote_again,
            args=(L.key, index, reopen),
            disabled=not done_round or rnd >= cs.MAX_ROUNDS,
            icon=":material/how_to_vote:",
            width="stretch",
            help=_(
                "A second round after the class has discussed: the shift between rounds is drawn side by side."
            ),
        )


@st.fragment(run_every=classroom.TEACHER_POLL_S)
def _tally(lesson: str, index: int, q: Question) -> None:
    s = in_class()
    if s is None:
        return
    store = classroom.store()
    view = store.view(s.code)
    if view is None:
        return
    counts = store.tally(s.code, s.secret, lesson, index)
    rnd = cs.current_round(view.state, lesson, index)
    n_now = sum(counts.get(rnd, {}).values())
    joined = len(store.members(s.code, s.secret))
    st.markdown(
        _("**The class · round {round}:** {n} of {joined} answered.").format(
            round=rnd, n=n_now, joined=joined
        )
    )
    if not cs.is_shown(view.state, lesson, index):
        return
    labels = [ch.shown() for ch in q.choices]
    fig = go.Figure(
        layout=figures.layout(
            title=_("The class's predictions"),
            x="",
            y=_("students"),
            large=state.large_fonts(),
            uirevision=f"class-{lesson}-{index}",
            height=240,
        )
    )
    for j, r in enumerate(sorted(counts) or [rnd]):
        c = counts.get(r, {})
        ys = [c.get(str(i), 0) for i in range(len(labels))]
        fig.add_bar(
            name=_("Round {round}").format(round=r),
            x=labels,
            y=ys,
            text=ys,
            textposition="outside",
            marker=dict(color=figures.colour(j), pattern=dict(shape=["", "/", "x", ".", "-"][j % 5])),
        )
    fig.update_layout(
        barmode="group", hovermode="closest", yaxis=dict(rangemode="tozero", dtick=1 if n_now < 10 else None)
    )
    alt = _("The class's predictions: {parts}.").format(
        parts=_("; ").join(
            _("round {round}: {counts}").format(
                round=r,
                counts=_(", ").join(f"{labels[i]} {counts[r].get(str(i), 0)}" for i in range(len(labels))),
            )
            for r in sorted(counts)
        )
        or _("none yet")
    )
    figures.show(fig, alt, "class-tally", st, caption=True)
