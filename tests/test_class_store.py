"""The class store (app/classroom/store.py): the same tests on SQLite and on a real PostgreSQL.

The PostgreSQL server is a throwaway one started for this module (tests/pg_server.py: initdb +
pg_ctl in a temporary folder); each test gets a fresh database on it, as each SQLite test gets a
fresh file. The security rules of docs/class_mode.md each have a test here that tries to break it.
"""

from __future__ import annotations

import csv
import io
import itertools
import threading

import pytest
import sqlalchemy as sa
from pg_server import postgres

from app.classroom import rules as cr
from app.classroom import schema as sc
from app.classroom import store as cs
from app.classroom.store import ClassRefused, ClassStore

_counter = itertools.count()


@pytest.fixture(scope="module")
def pg_url():
    with postgres() as url:
        yield url


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classes.db'}"
    base = request.getfixturevalue("pg_url")
    name = f"t{next(_counter)}_{threading.get_ident() % 10_000}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.replace("@/postgres", f"@/{name}")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(url, clock):
    s = ClassStore(url, clock=clock)
    yield s
    s.engine.dispose()


def test_a_class_votes_revotes_and_votes_again(store):
    c = store.create_class()
    a, b = store.join(c.code, "a"), store.join(c.code.lower(), "b", "Bea")  # a typed code in lower case
    assert (a.number, b.number) == (1, 2)
    assert store.answer(c.code, a.token, "vanishing", 0, "a") == 1
    store.answer(c.code, b.token, "vanishing", 0, "a")
    store.answer(c.code, b.token, "vanishing", 0, "b")  # a re-vote replaces
    assert store.tally(c.code, c.teacher_key, "vanishing", 0) == {1: {"a": 1, "b": 1}}
    assert store.my_answer(c.code, b.token, "vanishing", 0) == "b"
    store.update(c.code, c.teacher_key, lambda s: cr.reveal(s, "vanishing", 0))
    with pytest.raises(ClassRefused, match="revealed"):
        store.answer(c.code, a.token, "vanishing", 0, "b")
    view = store.update(c.code, c.teacher_key, lambda s: cr.vote_again(s, "vanishing", 0))
    assert cr.current_round(view.state, "vanishing", 0) == 2 and store.view(c.code).rev == view.rev
    assert store.my_answer(c.code, a.token, "vanishing", 0) is None  # round 2 starts empty
    store.answer(c.code, a.token, "vanishing", 0, "b")
    assert store.tally(c.code, c.teacher_key, "vanishing", 0) == {1: {"a": 1, "b": 1}, 2: {"b": 1}}
    assert store.tally(c.code, c.teacher_key, "vanishing", 1) == {}


def test_every_teacher_action_needs_the_classes_own_teacher_key(store):
    c, other = store.create_class(), store.create_class()
    assert len(c.teacher_key) >= 32 and len(c.teacher_key) * 6 >= 128  # urlsafe base64: 6 bits a character
    for key in ("", "x" * 32, other.teacher_key, c.teacher_key[:-1], None):
        with pytest.raises(ClassRefused):
            store.tally(c.code, key, "vanishing", 0)
        with pytest.raises(ClassRefused):
            store.update(c.code, key, lambda s: cr.reveal(s, "vanishing", 0))
        with pytest.raises(ClassRefused):
            store.export_csv(c.code, key)
        with pytest.raises(ClassRefused):
            store.members(c.code, key)
        with pytest.raises(ClassRefused):
            store.end(c.code, key)
        assert not store.is_teacher(c.code, key)
    assert store.is_teacher(c.code, c.teacher_key)
    assert store.view(c.code).rev == 0  # nothing changed


def test_no_key_or_token_is_stored_in_the_clear(store, url):
    c = store.create_class()
    m = store.join(c.code, "a")
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        dump = repr([conn.execute(sa.select(t)).all() for t in (sc.CLASSES, sc.MEMBERS)])
    engine.dispose()
    assert c.teacher_key not in dump and m.token not in dump
    assert cs._hash(c.teacher_key) in dump


def test_a_member_posts_only_to_its_own_class(store):
    c1, c2 = store.create_class(), store.create_class()
    m1 = store.join(c1.code, "a")
    for call in (
        lambda: store.answer(c2.code, m1.token, "vanishing", 0, "a"),
        lambda: store.post_run(c2.code, m1.token, 0, 0, {}, True, 10, 0.1),
        lambda: store.my_answer(c2.code, m1.token, "vanishing", 0),
        lambda: store.answer(c1.code, "forged-token", "vanishing", 0, "a"),
        lambda: store.answer(c1.code, None, "vanishing", 0, "a"),
    ):
        with pytest.raises(ClassRefused):
            call()
    assert store.tally(c2.code, c2.teacher_key, "vanishing", 0) == {}
    assert store.runs(c2.code, c2.teacher_key) == []
    # what a student can read of a class is its teacher-set state: no answers, no keys
    assert set(store.view(c1.code).state) == set(cr.initial_state())


def test_guessing_codes_is_rate_limited_per_client_and_shared_by_replicas(url, clock):
    one, two = ClassStore(url, clock=clock), ClassStore(url, clock=clock)  # two replicas, one database
    c = one.create_class()
    wrong = "".join(ch for ch in cr.ALPHABET if ch not in c.code)[:6]
    for i in range(cs.JOIN_FAILS):
        with pytest.raises(ClassRefused, match="No class"):
            (one if i % 2 else two).join(wrong, "guesser")
    with pytest.raises(ClassRefused, match="Too many"):
        one.join(c.code, "guesser")  # even the right code, until the window has passed
    assert two.join(c.code, "someone else").number == 1  # other clients are not held up
    clock.t += cs.JOIN_WINDOW_S + 1
    assert one.join(c.code, "guesser").number == 2
    for bad in ("", "ABC", "ABCDEFG", "ABCD0O", None, 123456, "'; DROP TABLE classes; --"):
        with pytest.raises(ClassRefused):
            one.join(bad, f"client-{bad!r}")
    one.engine.dispose(), two.engine.dispose()


def test_posted_fields_are_capped_and_validated_and_stored_as_text(store):
    c = store.create_class()
    m = store.join(c.code, "a", "<script>x()</script>\x00\x1b[31m" + "x" * 100)
    nick = dict(store.members(c.code, c.teacher_key))[m.number]
    assert nick.startswith("<script>x()</script>") and len(nick) == sc.NICK_MAX and "\x00" not in nick
    for lesson, question, choice in [
        ("vanishing'; DROP TABLE answers; --", 0, "a"),
        ("vanishing", 0, "a" * (sc.KEY_MAX + 1)),
        ("vanishing", 0, ""),
        ("vanishing", -1, "a"),
        ("vanishing", 1.5, "a"),
        ("vanishing", True, "a"),
        ("vanishing", float("nan"), "a"),
        (None, 0, "a"),
    ]:
        with pytest.raises(ClassRefused):
            store.answer(c.code, m.token, lesson, question, choice)
    for cell, seed, settings, seqs in [
        (-1, 0, {}, 1),
        (0, 0, {"x": "y" * sc.SETTINGS_MAX}, 1),
        (0, 0, {}, -5),
        (True, 0, {}, 1),
        (0, 2**40, {}, 1),
    ]:
        with pytest.raises(ClassRefused):
            store.post_run(c.code, m.token, cell, seed, settings, True, seqs, 0.1)
    store.post_run(c.code, m.token, 3, 7, {"b_in": -2.0}, False, 400, float("nan"))  # NaN loss: unknown
    (run,) = store.runs(c.code, c.teacher_key)
    assert (run.number, run.cell, run.seed, run.settings, run.solved, run.loss) == (
        1,
        3,
        7,
        {"b_in": -2.0},
        False,
        None,
    )


def test_a_class_expires_after_seven_days_and_is_purged(store, clock):
    c = store.create_class()
    m = store.join(c.code, "a")
    store.answer(c.code, m.token, "vanishing", 0, "a")
    clock.t += cs.LIFETIME_S - 1
    assert store.view(c.code) is not None
    clock.t += 2
    assert store.view(c.code) is None
    for call in (
        lambda: store.join(c.code, "b"),
        lambda: store.tally(c.code, c.teacher_key, "vanishing", 0),
        lambda: store.answer(c.code, m.token, "vanishing", 0, "b"),
    ):
        with pytest.raises(ClassRefused):
            call()
    assert store.purge_expired() == 1
    with store.engine.connect() as conn:
        assert [conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one()
                for t in (sc.CLASSES, sc.MEMBERS, sc.ANSWERS)] == [0, 0, 0]  # fmt: skip


def test_the_teacher_exports_then_ends_a_class_and_nothing_of_it_is_left(store):
    c, other = store.create_class(), store.create_class()
    a = store.join(c.code, "a", "=HYPERLINK(1)")
    b = store.join(other.code, "b")
    store.answer(c.code, a.token, "vanishing", 0, "a")
    store.answer(other.code, b.token, "vanishing", 0, "b")
    store.post_run(c.code, a.token, 0, 1, {"b_in": 0.0}, True, 123, 0.01)
    rows = list(csv.DictReader(io.StringIO(store.export_csv(c.code, c.teacher_key))))
    assert [(r["kind"], r["student"]) for r in rows] == [("answer", "1"), ("run", "1")]
    assert (
        rows[0]["nickname"] == "'=HYPERLINK(1)" and rows[0]["choice"] == "a" and rows[1]["sequences"] == "123"
    )
    store.end(c.code, c.teacher_key)
    assert store.view(c.code) is None
    with pytest.raises(ClassRefused):
        store.export_csv(c.code, c.teacher_key)
    assert store.tally(other.code, other.teacher_key, "vanishing", 0) == {
        1: {"b": 1}
    }  # the other class is intact


def test_students_joining_at_once_get_distinct_numbers(url):
    stores = [ClassStore(url) for _ in range(2)]  # as two replicas
    c = stores[0].create_class()
    numbers, errors = [], []

    def join(i: int) -> None:
        try:
            m = stores[i % 2].join(c.code, f"client-{i}")
            stores[i % 2].answer(c.code, m.token, "vanishing", 0, "ab"[i % 2])
            numbers.append(m.number)
        except Exception as e:  # noqa: BLE001 -- collected and asserted below
            errors.append(repr(e))

    threads = [threading.Thread(target=join, args=(i,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(numbers) == list(range(1, 25))
    assert sum(stores[1].tally(c.code, c.teacher_key, "vanishing", 0)[1].values()) == 24
    for s in stores:
        s.engine.dispose()


def test_migrations_are_versioned_and_a_newer_database_is_refused(url):
    s = ClassStore(url)
    assert s.version == sc.LATEST == len(sc.MIGRATIONS)
    assert ClassStore(url).version == sc.LATEST  # opening again migrates nothing
    with s.engine.begin() as conn:
        conn.execute(sc.VERSION.update().values(version=sc.LATEST + 1))
    with pytest.raises(RuntimeError, match="newer than this Gate Lab"):
        ClassStore(url)
    s.engine.dispose()


def test_a_vote_has_at_most_five_rounds(store):
    c = store.create_class()
    for _ in range(cr.MAX_ROUNDS - 1):
        store.update(c.code, c.teacher_key, lambda s: cr.vote_again(s, "vanishing", 0))
    with pytest.raises(ClassRefused, match="five"):
        store.update(c.code, c.teacher_key, lambda s: cr.vote_again(s, "vanishing", 0))


def test_codes_are_typed_forgivingly():
    assert cr.normalise_code(" ab-c d2 3 ") == "ABCD23"
    assert cr.normalise_code("ABCD0O") is None  # 0 and O are not in the alphabet
    assert cr.clean_nickname("  Ann \n  Lee ") == "Ann Lee"
