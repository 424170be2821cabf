"""Class mode in the pages (AppTest): a teacher and students in one class, in every language.

Each AppTest is one browser tab (its own session); they share the class only through the store
(a SQLite file per test, GATELAB_DATABASE_URL), as tabs on different replicas would.
"""

from __future__ import annotations

import json

import pytest
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

from app.classroom import address
from app.i18n import translate_in
from tests.test_page_matrix import ENTRY

LANGS = ["en", "zh-TW", "zh-CN"]


@pytest.fixture(autouse=True)
def _database(tmp_path, monkeypatch):
    monkeypatch.setenv("GATELAB_DATABASE_URL", f"sqlite:///{tmp_path / 'classes.db'}")


def tab(lang: str = "en", page: str = "lessons", **query: str) -> AppTest:
    at = AppTest.from_file(str(ENTRY), default_timeout=120)
    at.query_params["lang"] = lang
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    if page != "home":
        at.switch_page(f"../pages/{page}.py").run()
    ok(at)
    return at


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def texts(at: AppTest) -> str:
    return " ".join(
        str(e.value)
        for kind in ("markdown", "caption", "info", "warning", "success")
        for e in getattr(at, kind)
    )


def picks(at: AppTest) -> list:
    return [r for r in at.radio if r.key and r.key.startswith("lessons.pick")]


def reveal_button(at: AppTest):
    (b,) = [b for b in at.button if b.key and b.key.startswith("lessons.reveal.")]
    return b


def start_class(lang: str) -> tuple[AppTest, object]:
    teacher = tab(lang)
    teacher.button(key="_class.start").click().run()
    ok(teacher)
    return teacher, teacher.session_state["_class.seat"]


def join(lang: str, code: str, nickname: str = "") -> AppTest:
    s = tab(lang, "home", join=code)
    if nickname:
        s.text_input(key="_class.nick_top").input(nickname)
    s.button(key="_class.join_top").click().run()
    ok(s)
    s.switch_page("../pages/lessons.py").run()
    ok(s)
    return s


def tally_chart(at: AppTest) -> dict:
    (spec,) = [s for s in chart_specs(at) if str(s["layout"].get("uirevision", "")).startswith("class-")]
    return spec


@pytest.mark.parametrize("lang", LANGS)
def test_a_class_predicts_is_revealed_to_and_votes_again(lang):
    teacher, seat = start_class(lang)
    assert translate_in(lang, "Join code: **{code}**").format(code=seat.code) in texts(teacher)
    students = [join(lang, seat.code, nick) for nick in ("Ann", "<script>x()</script>", "")]
    assert [s.session_state["_class.seat"].number for s in students] == [1, 2, 3]
    for s, pick in zip(students, (0, 1, 1), strict=True):
        picks(s)[0].set_value(pick).run()
        ok(s)
        assert reveal_button(s).disabled  # the teacher reveals to the class
        assert translate_in(
            lang, "Your prediction is sent to the class. Your teacher reveals the answer to everyone."
        ) in texts(s)
    teacher.run()
    assert "3" in texts(teacher) and not any(
        str(s["layout"].get("uirevision", "")).startswith("class-") for s in chart_specs(teacher)
    )  # counted, but the distribution stays hidden until shown
    teacher.button(key="_class.show").click().run()
    ok(teacher)
    bars = tally_chart(teacher)["data"]
    assert [b["y"] for b in bars] == [[1, 2, 0]]
    teacher.button(key="_class.reveal").click().run()
    ok(teacher)
    for s in students:
        s.run()
        ok(s)
        assert not reveal_button(s).disabled
    reveal_button(students[0]).click().run()  # a student looks at the answer now it is revealed
    ok(students[0])
    teacher.button(key="_class.again").click().run()
    ok(teacher)
    for s in students:
        s.run()
        ok(s)
        assert not picks(s)[0].disabled  # the question is open again, also for one who had revealed it
    picks(students[0])[0].set_value(1).run()
    picks(students[1])[0].set_value(1).run()
    teacher.run()
    bars = tally_chart(teacher)["data"]
    assert [b["y"] for b in bars] == [[1, 2, 0], [0, 2, 0]]  # the two rounds side by side
    assert len({b["name"] for b in bars}) == 2
    # the nickname is shown to the teacher as text, in a table cell (never as markup)
    df = teacher.dataframe[0].value
    assert "<script>x()</script>" in list(df.iloc[:, 1])
    # the teacher key is in no student's page, nor in the teacher's own address bar
    for at in (*students, teacher):
        assert "tk" not in at.query_params
    for s in students:
        assert seat.secret not in texts(s) + json.dumps(dict(s.query_params))


def test_a_student_reload_keeps_their_seat_and_a_forged_one_is_refused():
    teacher, seat = start_class("en")
    s = join("en", seat.code)
    me = s.session_state["_class.seat"]
    assert s.query_params["class"] == [me.code] or s.query_params["class"] == me.code
    again = tab("en", **{"class": me.code, "member": me.secret})
    assert again.session_state["_class.seat"].number == me.number
    forged = AppTest.from_file(str(ENTRY), default_timeout=120)
    forged.query_params["class"], forged.query_params["member"] = me.code, "forged"
    forged.run()
    assert not forged.exception
    assert any("could not be joined" in e.value for e in forged.error)
    assert "_class.seat" not in forged.session_state


def test_the_teachers_private_link_restores_the_teacher_and_leaves_the_address_bar():
    teacher, seat = start_class("en")
    back = AppTest.from_file(str(ENTRY), default_timeout=120)
    back.query_params["class"], back.query_params["tk"] = seat.code, seat.secret
    back.run()
    ok(back)
    assert back.session_state["_class.seat"].teacher
    assert "tk" not in back.query_params
    wrong = AppTest.from_file(str(ENTRY), default_timeout=120)
    wrong.query_params["class"], wrong.query_params["tk"] = seat.code, "x" * 32
    wrong.run()
    assert any("teacher key" in e.value for e in wrong.error) and "_class.seat" not in wrong.session_state


@pytest.mark.parametrize("lang", ["zh-TW", "zh-CN"])
def test_a_wrong_code_says_so_in_the_students_language(lang):
    s = tab(lang, "home")
    s.text_input(key="_class.code_in").input("ZZZZZZ")
    s.button(key="_class.join").click().run()
    assert not s.exception
    msg = translate_in(lang, "No class has this code (or it has ended). Check the code with your teacher.")
    assert msg != "No class has this code (or it has ended). Check the code with your teacher."
    assert [e.value for e in s.error] == [msg]


def test_follow_me_brings_a_student_to_the_teachers_question():
    teacher, seat = start_class("en")
    s = join("en", seat.code)
    s.switch_page("../pages/home.py").run()
    teacher.button(key="_class.reveal").click().run()
    teacher.button(key="lessons.next").click().run()
    ok(teacher)
    teacher.button(key="_class.follow").click().run()
    ok(teacher)
    s.run()
    s.run()  # the switch to the teacher's page, then its run
    ok(s)
    assert s.session_state["lessons.step"] == 1  # question 2, as the teacher's
    assert "(x)" not in texts(s)


def test_the_join_link_names_an_address_students_can_reach(monkeypatch):
    monkeypatch.delenv(address.ENV, raising=False)
    assert address.base_url("http://10.1.2.3:8501/lessons?x=1") == ("http://10.1.2.3:8501", True)
    assert address.base_url("http://gatelab.school.example/lessons") == (
        "http://gatelab.school.example",
        True,
    )
    assert address.base_url("http://localhost:8599/train?cfg=1", lan="192.168.1.20") == (
        "http://192.168.1.20:8599",
        True,
    )
    assert address.base_url("http://127.0.0.1:8599/", lan="10.0.0.5") == ("http://10.0.0.5:8599", True)
    assert address.base_url("http://[::1]:8599/", lan="10.0.0.5") == ("http://10.0.0.5:8599", True)
    assert address.base_url("http://localhost:8599/", lan=None)[1] in (True, False)  # this machine's own
    monkeypatch.setattr(address, "lan_address", lambda: None)
    assert address.base_url("http://localhost:8599/") == ("http://localhost:8599", False)  # the page warns
    monkeypatch.setenv(address.ENV, "https://gatelab.example.edu/lab/")
    assert address.base_url("http://localhost:8599/") == ("https://gatelab.example.edu/lab", True)


def test_the_class_socket_stores_an_answer_before_it_acknowledges_and_refuses_the_rest():
    from app.classroom import socket as class_socket

    s = class_socket.store()
    c = s.create_class()
    m = s.join(c.code, "a")
    msg = {
        "op": "answer",
        "code": c.code,
        "member": m.token,
        "lesson": "vanishing",
        "question": 0,
        "choice": "2",
        "id": 7,
    }
    assert class_socket.handle(msg) == {"ok": True, "round": 1, "id": 7}
    assert s.tally(c.code, c.teacher_key, "vanishing", 0) == {1: {"2": 1}}  # stored when acknowledged
    tally = {"op": "tally", "code": c.code, "tk": c.teacher_key, "lesson": "vanishing", "question": 0}
    assert class_socket.handle(tally) == {"rounds": {"1": {"2": 1}}, "joined": 1, "id": None}
    for bad in (
        {**tally, "tk": m.token},  # a student's token is not the teacher's key
        {**msg, "member": "forged"},
        {**msg, "choice": "<script>"},
        {**msg, "question": "zero"},
        {**msg, "op": "drop"},
        {"op": "answer"},
    ):
        assert "error" in class_socket.handle(bad), bad
    assert "error" in class_socket.handle(["not", "an", "object"])
    assert s.tally(c.code, c.teacher_key, "vanishing", 0) == {1: {"2": 1}}  # nothing else stored


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_cells_are_handed_out_round_robin_and_finished_runs_fill_the_teachers_map(lang):
    from app.train.settings import DEFAULTS as TRAIN_DEFAULTS
    from app.ui import urlstate

    cfg = urlstate.encode({**TRAIN_DEFAULTS, "budget": 30, "variant": "lstm1997"}, TRAIN_DEFAULTS)
    teacher, seat = start_class(lang)
    teacher.query_params["cfg"] = cfg
    teacher.switch_page("../pages/train.py").run()
    ok(teacher)
    teacher.text_input(key="_class.hand_values").input("0, -2")
    teacher.selectbox(key="_class.hand_gate").set_value("output")
    teacher.button(key="_class.hand_out").click().run()
    ok(teacher)
    cells = []
    for _i in range(3):
        s = tab(lang, "home", join=seat.code)
        s.button(key="_class.join_top").click().run()
        s.run()  # a student is sent to their cell on Train and watch
        ok(s)
        mine = s.session_state["_class.cell"]
        assert s.session_state["train.b_output"] == mine["biases"]["output"]
        assert s.session_state["train.seed"] == mine["seed"]
        assert s.selectbox(key="train.variant").disabled  # the cell is locked, as a class link locks
        cells.append((mine["cell"], mine["seed"], mine["biases"]["output"]))
        s.button(key="train.go").click().run()
        for _tick in range(200):  # AppTest fires no timers: each run trains a chunk
            if s.session_state["_page.train"]["live"].run.finished:
                break
            s.run()
        assert s.session_state["_page.train"]["live"].run.status == "budget"
    # student n gets cell (n - 1) mod 2, and a second seed once the cells are taken
    assert cells == [(0, 0, 0.0), (1, 0, -2.0), (0, 1, 0.0)]
    teacher.run()
    ok(teacher)
    # the Bias lab's own maps of a sweep: solved share and median sequences to criterion, per value
    specs = {str(x["layout"].get("uirevision")): x for x in chart_specs(teacher)}
    heat = specs["class-sweep-1-success"]["data"][0]
    assert heat["z"] == [[0.0, 0.0]]  # every run ran out of its 30 sequences: none solved
    assert heat["text"] == [["✗ 0/2", "✗ 0/1"]]  # cell 0: students 1 and 3; cell 1: student 2
    assert "class-sweep-1-median" in specs
    runs = classroom_runs(seat)
    assert sorted((r.number, r.cell, r.seed, r.solved, r.sequences) for r in runs) == [
        (1, 0, 0, False, 30),
        (2, 1, 0, False, 30),
        (3, 0, 1, False, 30),
    ]
    teacher.selectbox(key="_class.show_run").set_value(1).run()
    ok(teacher)
    assert translate_in(lang, "Student {n}").format(n=2) in " ".join(i.value for i in teacher.info)
    (run_chart,) = [
        x for x in chart_specs(teacher) if str(x["layout"].get("uirevision")).startswith("class-run")
    ]
    assert run_chart["data"][0]["x"][-1] == 30  # the student's own loss curve, to its last sequence


def classroom_runs(seat):
    from app.classroom import socket as class_socket

    return class_socket.store().runs(seat.code, seat.secret)


def test_a_grid_of_two_gates_is_handed_out_cell_by_cell():
    teacher, seat = start_class("en")
    teacher.switch_page("../pages/train.py").run()
    teacher.selectbox(key="train.variant").set_value("lstm1997").run()
    teacher.selectbox(key="_class.hand_gate").set_value("input")
    teacher.text_input(key="_class.hand_values").input("0, -2")
    teacher.selectbox(key="_class.hand_gate_y").set_value("output").run()
    teacher.text_input(key="_class.hand_values_y").input("-1, -3")
    teacher.button(key="_class.hand_out").click().run()
    ok(teacher)
    got = []
    for _i in range(5):
        s = tab("en", "home", join=seat.code)
        s.button(key="_class.join_top").click().run()
        s.run()
        ok(s)
        got.append(
            (
                s.session_state["train.b_input"],
                s.session_state["train.b_output"],
                s.session_state["train.seed"],
            )
        )
    seed = teacher.session_state["train.seed"]
    # x first, then y; the fifth student starts the cells again with the next seed
    assert got == [
        (0.0, -1.0, seed),
        (-2.0, -1.0, seed),
        (0.0, -3.0, seed),
        (-2.0, -3.0, seed),
        (0.0, -1.0, seed + 1),
    ]
    teacher.run()
    specs = {str(x["layout"].get("uirevision")): x for x in chart_specs(teacher)}
    heat = specs["class-sweep-1-success"]["data"][0]
    assert heat["text"] == [["0/2…", "0/1…"], ["0/1…", "0/1…"]]  # every cell still training
    teacher.selectbox(key="_class.hand_gate_y").set_value("input")
    teacher.button(key="_class.hand_out").click().run()
    assert "two different gates" in " ".join(e.value for e in teacher.error)
