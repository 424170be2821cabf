"""Guided lessons (Streamlit AppTest): every lesson predict → reveal → takeaway, the computed right
answers checked against an independent computation, progress in the URL, and the class link."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import chart_specs
from page_helpers import open_page

import lstm_core as lc
from app.lessons import compute as c
from app.lessons import progress, verdict
from app.lessons import view as lesson_view
from app.lessons.content import LESSONS
from app.lessons.view import DEFAULTS, GROUPS, SCHEMA
from app.ui import classlink, urlstate

PAGE = "lessons"


def link(**values) -> dict[str, str]:
    return {urlstate.PARAM: urlstate.encode({**DEFAULTS, **values}, DEFAULTS)}


def cfg(at) -> dict:
    raw = at.query_params.get(urlstate.PARAM)
    if not raw:
        return {}
    values, errors = urlstate.decode(raw if isinstance(raw, str) else raw[0], SCHEMA.check)
    assert not errors, errors
    return values


def sig(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


# ----------------------------------------------------------------------------- independent answers
def one_cell(m: lc.Model, xs: np.ndarray) -> dict[str, np.ndarray]:
    """A 1-block × 1-cell 1997/2002 LSTM written out by hand (gates fed by x and y_c(t−1) only;
    g and h from the config: sigmoid/identity), for the hand-wired lesson cells."""
    P, cfg_ = m.params, m.config
    g = {"sigmoid": sig, "identity": lambda a: a}[cfg_.cell_input]
    s = yc = 0.0
    out = {"s": [], "y_og": [], "y_c": []}
    peep = cfg_.variant == "lstm2002" and cfg_.peepholes
    for x in xs[:, 0, :]:
        z = np.concatenate([x, [yc]])
        u = (lambda n: float(P[n][0, 0])) if peep else (lambda n: 0.0)
        y_in = sig(P["W_ig"][0] @ z + u("u_ig") * s + P["b_ig"][0])
        y_fg = sig(P["W_fg"][0] @ z + u("u_fg") * s + P["b_fg"][0]) if "W_fg" in P else 1.0
        s = y_fg * s + y_in * g(P["W_c"][0] @ z + P["b_c"][0])
        y_og = sig(P["W_og"][0] @ z + u("u_og") * s + P["b_og"][0]) if "W_og" in P else 1.0
        yc = y_og * s  # h = identity in every hand-wired cell
        for k, v in (("s", s), ("y_og", y_og), ("y_c", yc)):
            out[k].append(float(v))
    return {k: np.array(v) for k, v in out.items()}


def independent(lesson: str, index: int, seed: int) -> float:
    """The number each question asks about, computed without app.lessons' own forward runs."""
    if lesson == "vanishing":
        xs = np.random.default_rng(seed).uniform(-1, 1, size=(c.FLOW_T, 1, 2))
        name, label = ("rnn", "h") if index == 0 else ("lstm1997", "s")
        norms = lc.error_flow(lc.build(c.vanishing_networks(seed)[name]), xs).norms[label]
        return float(norms[-1 - c.FLOW_Q] / norms[-1])
    if lesson == "gates":
        seq = c.lag_sequences()["x"]
        if index == 0:
            s = one_cell(c.lag_network(False, False, seed), seq)["s"]
            return s[0] / s[-1]
        yc = np.abs(one_cell(c.lag_network(True, True, seed), seq)["y_c"])
        return yc[1:-1].mean() / yc[-1]
    if lesson == "abuse":
        if index == 0:  # step by step with Model.step; h(s) = 2σ(s) − 1 so h′(s) = 2σ′(s), max ½
            xs = lc.TASKS["adding"].generate(np.random.default_rng(seed), batch=1, T=c.DRIFT_T).xs
            m = lc.build(
                lc.ModelConfig(
                    variant="lstm1997",
                    n_in=2,
                    n_out=1,
                    n_blocks=2,
                    block_size=1,
                    init_range=0.2,
                    bias={"input": 0.0, "cell": 1.0},
                    seed=seed,
                )
            )
            st_ = m.initial_state(batch=1)
            for x in xs:
                st_, _, rec = m.step(st_, x)
            sg = sig(rec["s"][0])
            return float((2 * sg * (1 - sg)).mean() / 0.5)
        batch = lc.TASKS["embedded_reber"].generate(np.random.default_rng(seed), batch=8)
        m = lc.build(
            lc.ModelConfig(
                variant="lstm1997",
                n_in=7,
                n_out=7,
                n_blocks=4,
                block_size=1,
                init_range=0.2,
                bias={"output": c.STAGGERED},
                seed=seed,
            )
        )
        st_, opens = m.initial_state(batch=8), []
        for x in batch.xs[: c.ABUSE_EARLY]:
            st_, _, rec = m.step(st_, x)
            opens.append(rec["y_og"])
        return float(np.mean(opens))
    if lesson == "forget":  # along s each step back multiplies the error by y_φ: Π y_φ (largest cell)
        bias, q = (-2.0, 20) if index == 0 else (5.0, 50)
        xs = np.random.default_rng(seed).uniform(-1, 1, size=(c.FORGET_T, 1, 2))
        m = lc.build(
            lc.ModelConfig(
                variant="lstm2000",
                n_in=2,
                n_out=1,
                n_blocks=2,
                block_size=1,
                init_range=0.2,
                bias={"forget": bias, "input": -6.0},
                seed=seed,
            )
        )
        y_fg = lc.forward(m, xs).internals["y_fg"][:, 0, :]
        return float(np.prod(y_fg[c.FORGET_T - q :], axis=0).max())
    if lesson == "peepholes":
        y_og = one_cell(c.clock_network(index == 0, seed), np.ones((c.CLOCK_T, 1, 1)))["y_og"]
        hit = np.flatnonzero(y_og > 0.5)
        return float(hit[0] + 1) if hit.size else math.inf
    raise AssertionError(lesson)


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("lesson", list(LESSONS))
def test_the_right_answer_is_computed_and_matches_an_independent_computation(lesson, seed):
    for i, q in enumerate(LESSONS[lesson].questions):
        o = q.run(seed)
        mine = independent(lesson, i, seed)
        if lesson == "forget":  # Π y_φ is the theory line: same choice, value within a factor
            assert q.answer(o) == q.answer(type(o)(mine)), (i, o.value, mine)
            continue
        if math.isinf(mine):
            assert math.isinf(o.value)
        else:
            assert o.value == pytest.approx(mine, rel=1e-6, abs=1e-12), (i, o.value, mine)
        assert q.answer(o) == q.answer(type(o)(mine))
        assert q.choices[q.answer(o)].lo <= o.value


def test_the_lessons_teach_what_they_say():
    """With the default seed the model agrees with each lesson's story (guards the set-ups)."""
    expected = {"vanishing": [2, 0], "gates": [2, 2], "abuse": [2, 1], "forget": [2, 0], "peepholes": [1, 2]}
    for key, L in LESSONS.items():
        assert [q.answer(q.run(0)) for q in L.questions] == expected[key], key
    assert len(LESSONS) >= 5 and all(len(L.questions) >= 2 and L.takeaway for L in LESSONS.values())


# ----------------------------------------------------------------------------- the page
@pytest.mark.parametrize("lesson", list(LESSONS))
def test_every_lesson_predict_reveal_takeaway(lesson):
    at = open_page(PAGE, link(lesson=lesson))
    L = LESSONS[lesson]
    assert at.selectbox(key="lessons.lesson").value == lesson
    picks: list[int] = []
    for i, q in enumerate(L.questions):
        assert not at.info or L.takeaway not in at.info[0].value  # no takeaway before the end
        right = q.answer(q.run(0))
        pick = right if i == 0 else (right + 1) % 3  # one right, one wrong
        picks.append(pick)
        assert at.button(key=f"lessons.reveal.{lesson}.{i}").disabled  # predict first
        at.radio(key=f"lessons.pick.{lesson}.{i}").set_value(pick).run()
        at.button(key=f"lessons.reveal.{lesson}.{i}").click().run()
        assert not at.exception and not at.error, [e.value for e in at.error]
        verdicts = [s.value for s in at.success] + [w.value for w in at.warning]
        assert len(verdicts) == 1
        assert ("is right" in verdicts[0]) == (pick == right)
        # a wrong prediction is told how wrong: the range next to the model's, or the other end
        assert verdicts[0].startswith("Close:") == (abs(pick - right) == 1)
        assert verdicts[0].startswith("Far off:") == (abs(pick - right) == 2)
        assert q.choices[right].label in verdicts[0]
        shown = verdict.value_text(q, q.run(0).value)
        assert shown is None or f"(its value: {shown})" in verdicts[0]  # the model's own number
        specs = chart_specs(at)
        drawn = {tr["name"] for tr in specs[0]["data"] if tr.get("name")}
        assert set(q.run(0).curves) <= drawn  # the outcome's curves
        assert at.radio(key=f"lessons.pick.{lesson}.{i}").disabled  # the prediction is kept
        assert cfg(at)["answers"] == progress.to_text({lesson: picks})
        if i + 1 < len(L.questions):
            at.button(key="lessons.next").click().run()
            assert cfg(at)["step"] == i + 1
    assert any(L.takeaway in x.value for x in at.info)


def test_a_chart_shows_the_numbers_of_the_real_model():
    at = open_page(PAGE, link(lesson="vanishing", answers="vanishing:2"))
    spec = chart_specs(at)[0]
    rnn = next(t for t in spec["data"] if t.get("name") == "RNN (h)")["y"]
    if isinstance(rnn, dict):
        import base64

        rnn = np.frombuffer(base64.b64decode(rnn["bdata"]), dtype=rnn["dtype"])
    np.testing.assert_allclose(
        np.asarray(rnn, dtype=float)[c.FLOW_Q], independent("vanishing", 0, 0), rtol=1e-9
    )


def test_progress_comes_back_from_the_link_and_back_and_restart_work():
    at = open_page(PAGE, link(lesson="forget", step=1, answers="forget:2"))
    assert not at.exception and not at.warning
    assert at.radio(key="lessons.pick.forget.1").value is None  # question 2, not yet answered
    at.button(key="lessons.back").click().run()
    assert at.radio(key="lessons.pick.forget.0").value == 2  # question 1 as answered
    assert at.radio(key="lessons.pick.forget.0").disabled and at.success
    at.button(key="lessons.restart").click().run()
    assert "answers" not in cfg(at) and at.radio(key="lessons.pick.forget.0").value is None


def test_a_link_cannot_skip_unrevealed_questions_and_bad_answers_are_reported():
    at = open_page(PAGE, link(lesson="gates", step=1))
    assert cfg(at).get("step", 0) == 0  # back to question 1
    at = open_page(PAGE, link(lesson="gates", answers="gates:9,nope:1"))
    assert not at.exception and "were left out" in at.warning[0].value


def test_presenter_and_large_fonts_keep_working_with_progress():
    at = open_page(PAGE, {**link(lesson="peepholes", answers="peepholes:1"), "present": "1", "large": "1"})
    assert not at.exception and not at.error
    assert at.query_params.get("present") == "1" and at.query_params.get("large") == "1"
    assert cfg(at)["answers"] == "peepholes:1"
    from app.ui.figures import font_size

    assert chart_specs(at)[0]["layout"]["font"]["size"] == font_size(True) > font_size(False)  # large fonts


def test_the_presenter_reveals_without_a_pick_the_class_voted_by_hands():
    at = open_page(PAGE, {**link(lesson="forget"), "present": "1"})
    reveal = at.button(key="lessons.reveal.forget.0")
    assert not reveal.disabled and at.radio(key="lessons.pick.forget.0").value is None
    reveal.click().run()
    assert not at.exception and not at.warning
    assert cfg(at)["answers"] == "forget:x"  # revealed, no prediction recorded
    o, right = lesson_view.outcome("forget", 0, 0)
    shown = LESSONS["forget"].questions[0].choices[right].shown()
    assert any(i.value.startswith(f"The model says **{shown}**") for i in at.info)
    assert not at.success  # nobody's prediction judged
    assert (
        at.radio(key="lessons.pick.forget.0").value is None and at.radio(key="lessons.pick.forget.0").disabled
    )
    assert not at.button(key="lessons.next").disabled  # PageDown now moves on
    # the sidebar counts it revealed, not predicted
    assert any("1/2 revealed" in c.value and "predicted right" not in c.value for c in at.sidebar.caption)


def test_outside_presenter_mode_reveal_still_needs_a_pick_and_x_links_read_back():
    at = open_page(PAGE, link(lesson="forget"))
    assert at.button(key="lessons.reveal.forget.0").disabled
    at = open_page(PAGE, link(lesson="forget", answers="forget:x"))  # question 1, revealed by a presenter
    assert not at.exception and not at.warning and at.info
    assert progress.parse("forget:x1") == ({"forget": [progress.NO_PICK, 1]}, [])
    assert progress.to_text({"forget": [progress.NO_PICK, 1]}) == "forget:x1"
    assert progress.parse("forget:y") == ({}, ["forget:y"])


# ----------------------------------------------------------------------------- class link
def class_link(lock: list[str], **teacher) -> dict[str, str]:
    url = classlink.link(
        {**DEFAULTS, **teacher}, DEFAULTS, lock, GROUPS, start={"step": 0, "answers": ""}, base=""
    )
    return {urlstate.PARAM: url.split("=", 1)[1]}


def test_class_link_locks_controls_which_stay_locked_after_a_rerun_and_reopening():
    query = class_link(["Lesson"], lesson="forget", seed=7)
    at = open_page(PAGE, query)
    lesson, seed = at.selectbox(key="lessons.lesson"), at.number_input(key="lessons.seed")
    assert lesson.value == "forget" and lesson.disabled
    assert seed.value == 7 and not seed.disabled  # not locked: the student may change it
    assert any("Class link from your teacher" in m.value for m in at.markdown)
    seed.set_value(8).run()
    at.run()  # a rerun
    assert (
        at.selectbox(key="lessons.lesson").disabled and at.selectbox(key="lessons.lesson").value == "forget"
    )
    assert cfg(at)[classlink.LOCK] == ["Lesson"] and cfg(at)["seed"] == 8  # the lock list stays in the URL
    # a student who edits the link's lesson still gets the teacher's
    at.session_state["lessons.lesson"] = "vanishing"
    at.run()
    assert at.selectbox(key="lessons.lesson").value == "forget"
    at.button(key="lessons.classlink.reset").click().run()
    assert at.number_input(key="lessons.seed").value == 7  # the teacher's seed back
    # reload: the URL the student now has, opened in a fresh session
    again = open_page(PAGE, {urlstate.PARAM: at.query_params[urlstate.PARAM]})
    assert (
        again.selectbox(key="lessons.lesson").disabled
        and again.selectbox(key="lessons.lesson").value == "forget"
    )
    # reopening the teacher's link itself
    fresh = open_page(PAGE, query)
    assert (
        fresh.selectbox(key="lessons.lesson").disabled and fresh.number_input(key="lessons.seed").value == 7
    )


def test_class_link_with_everything_locked_and_a_damaged_link():
    at = open_page(PAGE, class_link(["Lesson", "Seed"], lesson="gates", seed=2))
    assert at.number_input(key="lessons.seed").disabled and at.selectbox(key="lessons.lesson").disabled
    bad = {**DEFAULTS, classlink.LOCK: ["Lesson"], classlink.TEACHER: "not-a-config"}
    at = open_page(PAGE, {urlstate.PARAM: urlstate.encode(bad, DEFAULTS)})
    assert not at.exception and "class link is damaged" in at.error[0].value
    assert not at.selectbox(key="lessons.lesson").disabled


def test_share_panel_makes_a_link_with_the_lock_list():
    at = open_page(PAGE, link(lesson="abuse", seed=4, answers="abuse:2"))
    at.session_state["lessons.classlink.open"] = True  # the teacher opens the panel
    at.run()
    at.multiselect(key="lessons.classlink.choose.en").set_value(["Lesson"]).run()
    url = at.code[-1].value
    at.session_state["lessons.classlink.open"] = False  # closed and opened again: the choice is kept
    at.run()
    assert not at.code
    at.session_state["lessons.classlink.open"] = True
    at.run()
    assert at.multiselect(key="lessons.classlink.choose.en").value == ["Lesson"] and at.code[-1].value == url
    values, errors = urlstate.decode(url.split(f"{urlstate.PARAM}=", 1)[1], SCHEMA.check)
    assert not errors
    assert values[classlink.LOCK] == ["Lesson"] and values["lesson"] == "abuse" and values["seed"] == 4
    assert "answers" not in values  # students start afresh


def test_a_failing_computation_is_an_error_message_not_a_traceback(monkeypatch):
    def boom(seed, which):
        raise ValueError("the sequence is too short for this question; choose T ≥ 51")

    monkeypatch.setattr(c, "vanishing", boom)
    at = open_page(PAGE, link(lesson="vanishing", seed=99, answers="vanishing:2"))
    assert not at.exception and any("too short" in e.value for e in at.error)


def test_answering_out_of_order_is_refused_with_a_message():
    """``record``'s message goes through the translator (a local ``_`` once shadowed it: TypeError)."""
    from app.lessons import progress
    from app.lessons.content import LESSONS

    first = next(iter(LESSONS))
    with pytest.raises(ValueError, match="answer the questions in order"):
        progress.record("", first, 2, 0)


@pytest.mark.parametrize("lang", ["en", "zh-TW", "zh-CN"])
def test_a_near_miss_and_a_far_off_prediction_read_differently(lang):
    """Each wrong choice's reveal speaks to that choice: the one next to the model's range and the one
    at the other end get different words (not one "Not quite" for both), in every language."""
    seen = set()
    lessons = LESSONS if lang == "en" else dict(list(LESSONS.items())[:1])  # the words, in each language
    for lesson, L in lessons.items():
        for i, q in enumerate(L.questions):
            right = q.answer(q.run(0))
            for pick in range(3):
                if pick == right:
                    continue
                at = open_page(
                    PAGE,
                    {
                        **link(
                            lesson=lesson, step=i, answers=progress.to_text({lesson: [right] * i + [pick]})
                        ),
                        "lang": lang,
                    },
                )
                assert not at.exception and not at.error
                (text,) = [w.value for w in at.warning]
                kind = "near" if abs(pick - right) == 1 else "far"
                seen.add((kind, text.split(q.choices[pick].shown())[0]))
    openings = {}
    for kind, opening in seen:
        openings.setdefault(kind, set()).add(opening)
    assert set(openings) == {"near", "far"} and not openings["near"] & openings["far"], openings
