"""The Lessons page's settings and drawing: lesson picker, one question at a time, reveal, takeaway.

Settings (all in the URL through the Schema): ``lesson``, ``seed``, ``step`` (the question shown),
``answers`` (the predictions made so far, ``app.lessons.progress``) and the class-link fields.
Buttons change them in ``on_click`` callbacks, the only moment Streamlit allows it.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from app import i18n
from app.i18n import N_, _
from app.lessons import class_vote, progress
from app.lessons.compute import Outcome
from app.lessons.content import LESSONS
from app.lessons.figures import chart
from app.lessons.questions import Lesson, Question
from app.lessons.verdict import show as verdict_of
from app.ui import actions, classlink, controls, figures, form, keys, routes, saving, state
from app.ui.form import Field
from app.ui.page_frame import PageSpec

PAGE = "lessons"
MAX_QUESTIONS = max(len(L.questions) for L in LESSONS.values())
GROUPS = {N_("Lesson"): ["lesson"], N_("Seed"): ["seed"]}  # what a teacher shares (and may lock)
SCHEMA = form.Schema(
    [
        Field(
            "lesson",
            N_("Lesson"),
            "choice",
            next(iter(LESSONS)),
            choices=tuple(LESSONS),
            widget="select",
            fmt=lambda k: LESSONS[k].title,
        ),
        controls.seed_field(),
        Field("step", N_("Question"), "int", 0, 0, MAX_QUESTIONS - 1, 1, widget="none"),
        Field("answers", N_("Predictions so far"), "text", "", hi=200, widget="none"),
        *classlink.fields(GROUPS),
    ]
)
DEFAULTS = SCHEMA.defaults()
SPEC = PageSpec(PAGE, SCHEMA, DEFAULTS, GROUPS)


@st.cache_data(max_entries=256, show_spinner=False)
def outcome(lesson: str, index: int, seed: int) -> tuple[Outcome, int]:
    """The real computation behind question ``index`` of ``lesson`` and the choice it makes right
    (cached on small arguments). ValueError if the result fits none of the choices."""
    o = LESSONS[lesson].questions[index].run(seed)
    return o, LESSONS[lesson].questions[index].answer(o)


# ----------------------------------------------------------------------------- callbacks
def _set(**values) -> None:
    SCHEMA.apply(PAGE, values)


def _reveal(lesson: str, index: int) -> None:
    pick = st.session_state.get(_pick_key(lesson, index))
    if pick is None and state.presenting():
        pick = progress.NO_PICK  # the presenter reveals: the class voted by hands
    if pick is None:
        state.flash(
            PAGE,
            _("Pick one of the three answers first: predicting before looking is the point."),
            kind="warning",
        )
        return
    answers = SCHEMA["answers"].read(PAGE)
    _set(answers=progress.record(answers, lesson, index, int(pick)))


def _restart(lesson: str) -> None:
    _set(answers=progress.forget(SCHEMA["answers"].read(PAGE), lesson), step=0)
    for i in range(MAX_QUESTIONS):
        st.session_state.pop(_pick_key(lesson, i), None)


def _record_no_pick(lesson: str, index: int) -> None:
    """The teacher revealed to the class: their own page shows the reveal too."""
    _set(answers=progress.record(SCHEMA["answers"].read(PAGE), lesson, index, progress.NO_PICK))


def _reopen(lesson: str, index: int) -> None:
    """A vote again: the question (and any after it) open again on the teacher's page."""
    answers, _bad = progress.parse(SCHEMA["answers"].read(PAGE))
    answers[lesson] = answers.get(lesson, [])[:index]
    _set(answers=progress.to_text(answers), step=index)


def _pick_key(lesson: str, index: int) -> str:
    return state.wkey(PAGE, f"pick.{lesson}.{index}")


# ----------------------------------------------------------------------------- drawing
def sidebar(values: dict, answered: dict[str, list[int]]) -> None:
    """Lesson picker, progress per lesson, seed (a class link's locks grey them out: Field.render)."""
    with st.sidebar:
        form.render_fields(PAGE, SCHEMA, ["lesson"])
        for key, L in LESSONS.items():
            n, done = len(L.questions), len(answered.get(key, []))
            parts = dict(mark="✓" if done == n else "○", title=_(L.title), done=done, n=n)
            right = _score(key, answered.get(key, []), values["seed"])
            st.caption(
                _("{mark} {title} · {done}/{n} revealed").format(**parts)
                if right is None
                else _("{mark} {title} · {done}/{n} revealed, {right} predicted right").format(
                    **parts, right=right
                )
            )
        with st.expander(_("Random sequences and weights")):
            form.render_fields(PAGE, SCHEMA, ["seed"])
            st.caption(
                _(
                    "Another seed gives other random sequences and initial weights; the answers are "
                    "computed again, so they may change."
                )
            )


def _score(lesson: str, done: list[int], seed: int) -> int | None:
    """How many of the revealed questions were predicted right (computed again: the seed may have
    changed); None if none is revealed or the computation fails."""
    if not any(pick != progress.NO_PICK for pick in done):
        return None
    try:
        return sum(
            pick == outcome(lesson, i, seed)[1] for i, pick in enumerate(done) if pick != progress.NO_PICK
        )
    except state.USER_ERRORS:
        return None  # the question itself reports it with st.error


def lesson_view(values: dict, answered: dict[str, list[int]], large: bool) -> None:
    """The current lesson: its introduction, the current question, and at the end the takeaway."""
    key, seed = values["lesson"], values["seed"]
    L = LESSONS[key]
    synced = class_vote.sync(key, values["step"], values["answers"])  # class mode: follow the class
    if synced is not None:
        _set(answers=synced)  # no widget draws it: safe to change during the run
        answered = progress.parse(synced)[0]
    class_vote.follow_here(values, DEFAULTS)
    done = answered.get(key, [])
    step = min(values["step"], len(done), len(L.questions) - 1)  # no skipping past unrevealed questions
    if step != values["step"]:
        _set(step=step)  # no widget draws it: safe to change during the run
    presenting = state.presenting()
    # Presenting, the projector (1366 × 768) shows the question with its choices, then its reveal —
    # chart and explanation — whole (tests/e2e/test_presenter_browser.py): the lesson's title is the
    # page's, the progress is said in the title, the introduction folds away below.
    if presenting:
        st.title(_("{title} · question {i} of {n}").format(title=_(L.title), i=step + 1, n=len(L.questions)))
    else:
        st.subheader(_(L.title))
        # The lesson's introduction in full before its first question, folded away afterwards.
        if step == 0:
            st.markdown(_(L.intro))
        else:
            with st.expander(_("About this lesson")):
                st.markdown(_(L.intro))
        st.progress(
            (len(done)) / len(L.questions),
            text=_("Question {i} of {n} · {done} revealed").format(
                i=step + 1, n=len(L.questions), done=len(done)
            ),
        )
    question(L, step, done, seed, large)
    actions.expect(
        PAGE,
        [state.wkey(PAGE, n) for n in ("back", "next", "restart", "next_lesson")]
        + [
            state.wkey(PAGE, f"reveal.{k}.{i}")
            for k, les in LESSONS.items()
            for i in range(len(les.questions))
        ],
    )
    _navigation(L, step, done)
    if presenting:
        with st.expander(_("About this lesson")):
            st.markdown(_(L.intro))
    _keyboard()
    if len(done) == len(L.questions):
        takeaway(L, values)
    actions.page_witness(PAGE)  # after every button of the page (presses never lost)


def _navigation(L: Lesson, step: int, done: list[int]) -> None:
    """Back / Next question / Start again, under the question."""
    nav = st.columns(3)
    # Every button here is witnessed (app/ui/actions.py): a press is applied once, with the question it was
    # drawn on, even when its message is lost or Streamlit runs its callback twice. So the keys go through
    # app.ui.keys, which clicks (Streamlit's own shortcut calls the handler without a click, unseen):
    # the arrows, a presenter clicker's PageDown / PageUp, and Enter (Reveal, also right after picking).
    actions.button(
        nav[0],
        PAGE,
        i18n.pgettext("question", "Back"),
        state.wkey(PAGE, "back"),
        partial(_set, step=step - 1),
        icon=":material/arrow_back:",
        disabled=step == 0,
        width="stretch",
    )
    last = step == len(L.questions) - 1
    if not last:
        actions.button(
            nav[1],
            PAGE,
            _("Next question"),
            state.wkey(PAGE, "next"),
            partial(_set, step=step + 1),
            icon=":material/arrow_forward:",
            type="primary",
            disabled=step >= len(done),
            width="stretch",
            help=_("Reveal this question's answer first."),
        )
    actions.button(
        nav[2],
        PAGE,
        _("Start this lesson again"),
        state.wkey(PAGE, "restart"),
        _restart,
        (L.key,),
        icon=":material/replay:",
        width="stretch",
    )


def _keyboard() -> None:
    """The page's keys (arrows, a presenter clicker's PageDown / PageUp, Enter) and their help."""
    keys.bind(
        {
            "ArrowRight": keys.button(state.wkey(PAGE, "next")),
            "ArrowLeft": keys.button(state.wkey(PAGE, "back")),
            # PageDown reveals an unrevealed question (its Reveal button comes first on the page; in
            # presenter mode it needs no pick: the class voted by hands), then moves to the next one
            "PageDown": f"{_reveal_buttons()}, {keys.button(state.wkey(PAGE, 'next'))}",
            "PageUp": keys.button(state.wkey(PAGE, "back")),
            "Enter": _reveal_buttons(),
        }
    )
    keys.help_panel(
        [
            _("**Enter** — reveal the answer"),
            _("**→ / PageDown** (a presenter clicker) — next question"),
            _("**← / PageUp** — previous question"),
        ]
        + (
            [_("**PageDown** on a question not yet revealed reveals it (the class voted by hands)")]
            if state.presenting()
            else []
        )
    )


def _reveal_buttons() -> str:
    """The CSS selector of the Reveal buttons (one per question; one is drawn at a time)."""
    return f"[class*='st-key-{keys.widget_class(state.wkey(PAGE, 'reveal.'))}'] button"


def question(L: Lesson, index: int, done: list[int], seed: int, large: bool) -> None:
    q: Question = L.questions[index]
    revealed = index < len(done)
    teacher = class_vote.is_teacher()
    if revealed and state.presenting():  # the projector: what was asked, then its reveal whole
        st.markdown(f"**{index + 1}.** " + _("**Predict:** {ask}").format(ask=_(q.ask)))
        with st.expander(_("The question and its choices")):
            _question_and_choices(L, q, index, done)
        _revealed(L, q, index, done[index], seed, large)
        if teacher:
            class_vote.dashboard(L, q, index, _record_no_pick, _reopen)
        return
    picked = _question_and_choices(L, q, index, done)
    if teacher:  # class mode: the teacher reveals to the class from the dashboard
        class_vote.dashboard(L, q, index, _record_no_pick, _reopen)
    if not revealed and teacher:
        return
    if not revealed:
        class_vote.catch_up(L.key, index, picked)
        gate = class_vote.reveal_gate(L.key, index, picked is not None)
        actions.button(
            st,
            PAGE,
            _("Reveal"),
            state.wkey(PAGE, f"reveal.{L.key}.{index}"),
            _reveal,
            (L.key, index),
            type="primary",
            icon=":material/visibility:",
            # presenting: the class voted by hands; in a class, the teacher reveals to everyone
            disabled=(picked is None and not state.presenting()) or not gate,
            help=_("Run the model and show what it does.")
            if picked is not None or state.presenting()
            else _("Pick an answer first."),
        )
        return
    _revealed(L, q, index, done[index], seed, large)


def _question_and_choices(L: Lesson, q: Question, index: int, done: list[int]) -> int | None:
    """The question's setup, what to predict and the three choices; the choice picked (or None)."""
    revealed = index < len(done)
    st.markdown(f"**{index + 1}.** {_(q.setup)}")
    st.markdown(_("**Predict:** {ask}").format(ask=_(q.ask)))
    key = _pick_key(L.key, index)
    if revealed:
        # the recorded prediction (e.g. from a link); none when the presenter revealed it
        st.session_state[key] = None if done[index] == progress.NO_PICK else done[index]
    labels = [ch.shown() for ch in q.choices]  # translated now, in this session (not when format_func runs)
    # class mode: a pick is sent over the class socket (no page run per pick), else in the callback
    live = class_vote.live_answers() and not revealed
    picked = st.radio(
        _("Your prediction"),
        range(len(q.choices)),
        format_func=labels.__getitem__,
        index=None,
        key=key,
        disabled=revealed,
        label_visibility="collapsed",
        on_change="ignore" if live else class_vote.on_pick,  # class mode: the pick goes to the class
        args=None if live else (L.key, index, key),
    )
    if live:
        class_vote.answer_sender(L.key, index, key)
    return picked


def _revealed(L: Lesson, q: Question, index: int, pick: int, seed: int, large: bool) -> None:
    """A revealed question: the verdict on the prediction ``pick``, the model's chart, the explanation."""
    result = state.keep_good(PAGE, f"{L.key}.{index}", lambda: outcome(L.key, index, seed))
    state.report(result, N_("this question's computation"))
    if result.value is None:
        return
    o, right = result.value
    # Chart and explanation side by side, so a laptop (1366 × 768) shows both after one scroll; with
    # large fonts the chart gets the full width and the text goes below it — but presenting, side by
    # side again with the verdict above the explanation, so the projector shows the reveal whole
    # (1366 × 768: tests/e2e/test_presenter_browser.py).
    presenting = state.presenting()
    side = not large or presenting
    verdict = st.container()
    where, text = st.columns([3, 2]) if side else (st.container(), st.container())
    verdict_of(text if presenting else verdict, q, pick, right, o.value)
    fig, alt = chart(q, o, large, uirevision=f"lesson-{L.key}-{index}")
    figures.show(
        fig,
        alt,
        state.wkey(PAGE, "chart"),
        where,
        caption=False,
        config=saving.config("lesson", L.key, f"q{index + 1}"),
    )
    with text.container(key=state.wkey(PAGE, "why")):
        st.markdown(q.why(o))
        st.caption(alt)


def takeaway(L: Lesson, values: dict) -> None:
    st.info(_("**Takeaway.** {takeaway}").format(takeaway=_(L.takeaway)), icon=":material/lightbulb:")
    keys = list(LESSONS)
    cols = st.columns(2)
    i = keys.index(L.key)
    if i + 1 < len(keys) and not classlink.is_locked(PAGE, "lesson"):
        nxt = keys[i + 1]
        actions.button(
            cols[0],
            PAGE,
            _("Next lesson: {title}").format(title=_(LESSONS[nxt].title)),
            state.wkey(PAGE, "next_lesson"),
            partial(_set, lesson=nxt, step=0),
            icon=":material/skip_next:",
            type="primary",
            width="stretch",
        )
    r = routes.route(L.see_also)
    if (routes.PAGES_DIR / r.file).exists():
        cols[1].page_link(
            routes.PAGES_DIR / r.file,
            label=_("Explore further: {title}").format(title=_(r.title)),
            icon=r.icon,
            width="stretch",
            query_params=i18n.url_params(),
        )
