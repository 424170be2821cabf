"""A class's shared state in a database (SQLAlchemy Core): SQLite by default, PostgreSQL by URL.

Every replica of ``gatelab room`` and every worker thread reads and writes the same store, so
nothing about a class lives in process memory. ``GATELAB_DATABASE_URL`` names the database
(``postgresql+psycopg://user@host/db``); unset, it is one SQLite file (WAL, so readers never wait
for the one writer) in ``GATELAB_DATA_DIR`` or ``~/.local/share/gatelab``.

Who may do what (each rule has a test in tests/test_class_store.py that tries to break it):

- A **teacher key** is 192 random bits, handed out once and stored only as its SHA-256 (a random
  key needs no slow hash); every teacher action takes it and compares in constant time.
- A **join code** (6 characters, no look-alikes: 31^6 ≈ 890 million) only lets a session join;
  failed codes count against the client (``JOIN_FAILS`` per ``JOIN_WINDOW_S``), in the store so
  that replicas share the count.
- A **member token** (128 random bits, stored hashed) lets its session post its own answers and
  runs to its own class only: one answer per question per round (a re-vote replaces it), none
  after that round's reveal.
- Every posted field is capped and validated here, before SQL sees it; SQL only with bound
  parameters (SQLAlchemy Core statements). Text is stored as typed: the pages escape it.
- A class expires (``LIFETIME_S``, 7 days) and is then unreadable and purged; the teacher can end
  it at any time (every row of it deleted). Nothing personal is asked for: a nickname is optional.

This file is over 400 lines: every read and write of the class database is here, each beside the access check
it starts with, so that no query can be reached without one (the state's rules and the checks of
posted fields are in rules.py).
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import math
import os
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from app.classroom import schema as sc
from app.classroom.rules import (
    ALPHABET,
    ClassRefused,
    _csv_text,
    check_int,
    check_key,
    clean_nickname,
    current_round,
    initial_state,
    normalise_code,
    revealed,
)
from app.i18n import N_

LIFETIME_S = 7 * 24 * 3600.0
JOIN_FAILS, JOIN_WINDOW_S = 10, 60.0
MAX_MEMBERS = 1000


_shared: dict[str, ClassStore] = {}  # one pool per database URL and process: a server fact, no user state
_shared_lock = threading.Lock()


def shared() -> ClassStore:
    """The process's store for ``database_url()`` (the pages and the class socket share its pool)."""
    url = database_url()
    with _shared_lock:
        if url not in _shared:
            _shared[url] = ClassStore(url)
        return _shared[url]


def database_url() -> str:
    url = os.environ.get("GATELAB_DATABASE_URL", "").strip()
    if url:
        return url
    folder = Path(os.environ.get("GATELAB_DATA_DIR") or Path.home() / ".local" / "share" / "gatelab")
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'classes.db'}"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class NewClass:
    code: str
    teacher_key: str  # shown once, to the teacher; only its hash is stored


@dataclass(frozen=True)
class Membership:
    code: str
    token: str  # the student's session keeps it; only its hash is stored
    number: int


@dataclass(frozen=True)
class ClassView:
    """What a student's page may read: the teacher-set state, never the class's answers."""

    code: str
    rev: int
    state: dict[str, Any]
    expires: float


@dataclass(frozen=True)
class RunRow:
    number: int
    cell: int
    seed: int
    settings: dict[str, Any]
    solved: bool
    sequences: int
    loss: float | None
    at: float


def _engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record) -> None:  # WAL: readers never wait for the writer
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)


class ClassStore:
    """The class database. Thread-safe (SQLAlchemy's pool); one per process is enough (``shared``)."""

    def __init__(self, url: str | None = None, clock: Callable[[], float] = time.time) -> None:
        self.url = url or database_url()
        self.engine = _engine(self.url)
        self.clock = clock
        self.version = sc.migrate(self.engine)

    # ------------------------------------------------------------------ teacher
    def create_class(self) -> NewClass:
        now = self.clock()
        self.purge_expired()
        key = secrets.token_urlsafe(24)
        for _ in range(20):  # a clash of random codes is rare; try another
            code = "".join(secrets.choice(ALPHABET) for _ in range(sc.CODE_LEN))
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        sc.CLASSES.insert().values(
                            code=code,
                            teacher_hash=_hash(key),
                            created=now,
                            expires=now + LIFETIME_S,
                            state=json.dumps(initial_state()),
                            rev=0,
                            members=0,
                        )
                    )
                return NewClass(code, key)
            except sa.exc.IntegrityError:
                continue
        raise RuntimeError("no free class code after 20 tries")  # pragma: no cover  # i18n: kept (impossible)

    def _class_row(self, conn: sa.Connection, code: str) -> sa.Row | None:
        code = normalise_code(code)
        if code is None:
            return None
        row = conn.execute(sa.select(sc.CLASSES).where(sc.CLASSES.c.code == code)).first()
        if row is None or row.expires <= self.clock():
            return None
        return row

    def _teacher_row(self, conn: sa.Connection, code: str, teacher_key: str) -> sa.Row:
        row = self._class_row(conn, code)
        if row is None or not isinstance(teacher_key, str):
            raise ClassRefused(N_("This class has ended or its link is wrong."))
        if not hmac.compare_digest(row.teacher_hash, _hash(teacher_key)):
            raise ClassRefused(N_("This link does not carry the class's teacher key."))
        return row

    def is_teacher(self, code: str, teacher_key: str) -> bool:
        try:
            with self.engine.connect() as conn:
                self._teacher_row(conn, code, teacher_key)
            return True
        except ClassRefused:
            return False

    def update(self, code: str, teacher_key: str, change: Callable[[dict], None]) -> ClassView:
        """Apply ``change`` to the class's state (teacher only); bump its revision."""
        with self.engine.begin() as conn:
            row = self._teacher_row(conn, code, teacher_key)
            state = json.loads(row.state)
            change(state)
            text = json.dumps(state, sort_keys=True)
            if len(text) > sc.STATE_MAX:
                raise ClassRefused(
                    N_("That is more than a class can hold; end the class and start a new one.")
                )
            conn.execute(
                sc.CLASSES.update()
                .where(sc.CLASSES.c.id == row.id)
                .values(state=text, rev=sc.CLASSES.c.rev + 1)
            )
            return ClassView(row.code, row.rev + 1, state, row.expires)

    def tally(self, code: str, teacher_key: str, lesson: str, question: int) -> dict[int, Counter]:
        """round -> choice -> how many answered it (teacher only)."""
        with self.engine.connect() as conn:
            row = self._teacher_row(conn, code, teacher_key)
            rows = conn.execute(
                sa.select(sc.ANSWERS.c.round, sc.ANSWERS.c.choice, sa.func.count())
                .where(
                    sc.ANSWERS.c.class_id == row.id,
                    sc.ANSWERS.c.lesson == str(lesson)[: sc.KEY_MAX],
                    sc.ANSWERS.c.question == int(question),
                )
                .group_by(sc.ANSWERS.c.round, sc.ANSWERS.c.choice)
            ).all()
        out: dict[int, Counter] = {}
        for rnd, choice, n in rows:
            out.setdefault(int(rnd), Counter())[choice] = int(n)
        return out

    def members(self, code: str, teacher_key: str) -> list[tuple[int, str]]:
        """(number, nickname) of everyone who joined (teacher only)."""
        with self.engine.connect() as conn:
            row = self._teacher_row(conn, code, teacher_key)
            rows = conn.execute(
                sa.select(sc.MEMBERS.c.number, sc.MEMBERS.c.nickname)
                .where(sc.MEMBERS.c.class_id == row.id)
                .order_by(sc.MEMBERS.c.number)
            ).all()
        return [(int(n), nick) for n, nick in rows]

    def runs(self, code: str, teacher_key: str) -> list[RunRow]:
        with self.engine.connect() as conn:
            row = self._teacher_row(conn, code, teacher_key)
            rows = conn.execute(
                sa.select(sc.RUNS, sc.MEMBERS.c.number)
                .join(sc.MEMBERS, sc.MEMBERS.c.id == sc.RUNS.c.member_id)
                .where(sc.RUNS.c.class_id == row.id)
                .order_by(sc.RUNS.c.id)
            ).all()
        return [
            RunRow(
                r.number, r.cell, r.seed, json.loads(r.settings), bool(r.solved), r.sequences, r.loss, r.at
            )
            for r in rows
        ]

    def export_csv(self, code: str, teacher_key: str) -> str:
        """Every answer and run of the class as one CSV (students by number; nicknames beside)."""
        with self.engine.connect() as conn:
            row = self._teacher_row(conn, code, teacher_key)
            answers = conn.execute(
                sa.select(sc.MEMBERS.c.number, sc.MEMBERS.c.nickname, sc.ANSWERS)
                .join(sc.MEMBERS, sc.MEMBERS.c.id == sc.ANSWERS.c.member_id)
                .where(sc.ANSWERS.c.class_id == row.id)
                .order_by(sc.ANSWERS.c.lesson, sc.ANSWERS.c.question, sc.ANSWERS.c.round, sc.MEMBERS.c.number)
            ).all()
        buf = io.StringIO()
        out = csv.writer(buf)
        out.writerow(["kind", "student", "nickname", "lesson", "question", "round", "choice", "cell", "seed",
                      "solved", "sequences", "loss", "settings", "at"])  # fmt: skip
        for a in answers:
            out.writerow(["answer", a.number, _csv_text(a.nickname), a.lesson, a.question + 1, a.round, a.choice,
                          "", "", "", "", "", "", round(a.at, 3)])  # fmt: skip
        nick = dict(self.members(code, teacher_key))
        for r in self.runs(code, teacher_key):
            out.writerow(["run", r.number, _csv_text(nick.get(r.number, "")), "", "", "", "", r.cell, r.seed,
                          r.solved, r.sequences, "" if r.loss is None else r.loss,
                          json.dumps(r.settings, sort_keys=True), round(r.at, 3)])  # fmt: skip
        return buf.getvalue()

    def end(self, code: str, teacher_key: str) -> None:
        """Delete the class and everything posted to it (teacher only)."""
        with self.engine.begin() as conn:
            row = self._teacher_row(conn, code, teacher_key)
            _delete_classes(conn, [row.id])

    # ------------------------------------------------------------------ students
    def join(self, code: str, client: str, nickname: str = "") -> Membership:
        """A new member of the class ``code``; ``client`` names who is asking (for the rate limit)."""
        client = str(client)[:64]
        nickname = clean_nickname(nickname)
        now = self.clock()
        with self.engine.begin() as conn:
            fails = conn.execute(
                sa.select(sa.func.count())
                .select_from(sc.ATTEMPTS)
                .where(sc.ATTEMPTS.c.client == client, sc.ATTEMPTS.c.at > now - JOIN_WINDOW_S)
            ).scalar_one()
            if fails >= JOIN_FAILS:
                raise ClassRefused(N_("Too many wrong class codes from here; wait a minute and try again."))
            row = self._class_row(conn, code)
            if row is not None:
                if row.members >= MAX_MEMBERS:
                    raise ClassRefused(N_("This class is full."))
                # the number is taken by bumping the class's counter in the same transaction: two
                # students joining at once on two replicas get two numbers
                number = conn.execute(
                    sc.CLASSES.update()
                    .where(sc.CLASSES.c.id == row.id)
                    .values(members=sc.CLASSES.c.members + 1)
                    .returning(sc.CLASSES.c.members)
                ).scalar_one()
                token = secrets.token_urlsafe(16)
                conn.execute(
                    sc.MEMBERS.insert().values(
                        class_id=row.id, token_hash=_hash(token), number=number, nickname=nickname, joined=now
                    )
                )
                return Membership(row.code, token, int(number))
        with self.engine.begin() as conn:  # its own transaction: the refusal below must not undo it
            conn.execute(sc.ATTEMPTS.insert().values(client=client, at=now))
        raise ClassRefused(N_("No class has this code (or it has ended). Check the code with your teacher."))

    def _member(self, conn: sa.Connection, code: str, token: str) -> tuple[sa.Row, sa.Row]:
        row = self._class_row(conn, code)
        if row is None or not isinstance(token, str):
            raise ClassRefused(N_("This class has ended or its link is wrong."))
        member = conn.execute(
            sa.select(sc.MEMBERS).where(
                sc.MEMBERS.c.token_hash == _hash(token), sc.MEMBERS.c.class_id == row.id
            )
        ).first()
        if member is None:
            raise ClassRefused(N_("You are not a member of this class; join it again with its code."))
        return row, member

    def view(self, code: str) -> ClassView | None:
        """The class's teacher-set state (anyone with the code may read it), or None if it ended."""
        with self.engine.connect() as conn:
            row = self._class_row(conn, code)
        return None if row is None else ClassView(row.code, row.rev, json.loads(row.state), row.expires)

    def member_number(self, code: str, token: str) -> int:
        with self.engine.connect() as conn:
            return int(self._member(conn, code, token)[1].number)

    def answer(self, code: str, token: str, lesson: str, question: int, choice: str) -> int:
        """Store a member's answer for the question's current round (a second one replaces it);
        return the round. Refused once that round is revealed."""
        lesson, choice = check_key(lesson), check_key(choice)
        question = check_int(question, 0, 100)
        with self.engine.begin() as conn:
            row, member = self._member(conn, code, token)
            state = json.loads(row.state)
            rnd = current_round(state, lesson, question)
            if revealed(state, lesson, question) >= rnd:
                raise ClassRefused(N_("The teacher has revealed this question; wait for the next vote."))
            values = dict(class_id=row.id, member_id=member.id, lesson=lesson, question=question, round=rnd)
            done = conn.execute(
                sc.ANSWERS.update()
                .where(*(getattr(sc.ANSWERS.c, k) == v for k, v in values.items()))
                .values(choice=choice, at=self.clock())
            )
            if done.rowcount == 0:
                try:
                    with conn.begin_nested():
                        conn.execute(sc.ANSWERS.insert().values(**values, choice=choice, at=self.clock()))
                except sa.exc.IntegrityError:  # the same student's other tab won the race: replace
                    conn.execute(
                        sc.ANSWERS.update()
                        .where(*(getattr(sc.ANSWERS.c, k) == v for k, v in values.items()))
                        .values(choice=choice, at=self.clock())
                    )
        return rnd

    def my_answer(self, code: str, token: str, lesson: str, question: int) -> str | None:
        """The member's own answer in the question's current round."""
        with self.engine.connect() as conn:
            row, member = self._member(conn, code, token)
            rnd = current_round(json.loads(row.state), lesson, question)
            return conn.execute(
                sa.select(sc.ANSWERS.c.choice).where(
                    sc.ANSWERS.c.class_id == row.id,
                    sc.ANSWERS.c.member_id == member.id,
                    sc.ANSWERS.c.lesson == str(lesson)[: sc.KEY_MAX],
                    sc.ANSWERS.c.question == int(question),
                    sc.ANSWERS.c.round == rnd,
                )
            ).scalar_one_or_none()

    def post_run(
        self,
        code: str,
        token: str,
        cell: int,
        seed: int,
        settings: dict,
        solved: bool,
        sequences: int,
        loss: float | None,
    ) -> None:
        """A member's finished run of their handed-out cell."""
        text = json.dumps(settings, sort_keys=True, allow_nan=False)
        if not isinstance(settings, dict) or len(text) > sc.SETTINGS_MAX:
            raise ClassRefused(N_("A run's settings are too long to post."))
        if loss is not None and not math.isfinite(float(loss)):
            loss = None
        with self.engine.begin() as conn:
            row, member = self._member(conn, code, token)
            conn.execute(
                sc.RUNS.insert().values(
                    class_id=row.id,
                    member_id=member.id,
                    cell=check_int(cell, 0, 10_000),
                    seed=check_int(seed, 0, 2**31 - 1),
                    settings=text,
                    solved=bool(solved),
                    sequences=check_int(sequences, 0, 10**9),
                    loss=None if loss is None else float(loss),
                    at=self.clock(),
                )
            )

    # ------------------------------------------------------------------ upkeep
    def purge_expired(self) -> int:
        now = self.clock()
        with self.engine.begin() as conn:
            ids = [r.id for r in conn.execute(sa.select(sc.CLASSES.c.id).where(sc.CLASSES.c.expires <= now))]
            _delete_classes(conn, ids)
            conn.execute(sc.ATTEMPTS.delete().where(sc.ATTEMPTS.c.at <= now - JOIN_WINDOW_S))
        return len(ids)


def _delete_classes(conn: sa.Connection, ids: list[int]) -> None:
    if not ids:
        return
    # explicit, children first: SQLite enforces ON DELETE CASCADE only with its pragma on
    for table in (sc.ANSWERS, sc.RUNS, sc.MEMBERS):
        conn.execute(table.delete().where(table.c.class_id.in_(ids)))
    conn.execute(sc.CLASSES.delete().where(sc.CLASSES.c.id.in_(ids)))
