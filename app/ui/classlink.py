"""A class link: a teacher hands out a page with their settings and chosen controls locked.

The link is the page's ordinary ``?cfg=`` with two extra settings (both in the page's Schema,
added with ``fields``): ``lock`` — the names of the locked controls — and ``teacher`` — the
teacher's settings, encoded like ``cfg`` itself. Because both stay in the URL while the student
works, a reload or a reopened link keeps the same controls locked, and a locked control's value
always comes from ``teacher`` (``enforce``), whatever else the URL says.

A page using it::

    controls.start_page(PAGE, SCHEMA, DEFAULTS)
    locked = classlink.enforce(PAGE, SCHEMA, DEFAULTS)     # before any widget is drawn
    classlink.banner(PAGE, SCHEMA, DEFAULTS, locked)
    controls.render_fields(PAGE, SCHEMA, names, disabled=locked)
    ...
    classlink.share_panel(PAGE, SCHEMA, values, DEFAULTS, lockable=[...], keep={...})
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

import streamlit as st

from app.ui import state, urlstate
from app.ui.controls import Field, Schema

LOCK, TEACHER = "lock", "teacher"
MAX_TEACHER_CHARS = 4000


def fields(lockable: Sequence[str]) -> list[Field]:
    """The two settings a page adds to its Schema to accept class links."""
    return [Field(LOCK, "Controls locked by the teacher", "multi", [], choices=tuple(lockable), widget="none"),
            Field(TEACHER, "The teacher's settings", "text", "", hi=MAX_TEACHER_CHARS, widget="none")]


def teacher_values(page: str, schema: Schema, defaults: dict) -> dict[str, Any]:
    """The settings the teacher shared (decoded from ``teacher``; {} for an ordinary link).

    Raises ValueError with a message for the student if the link's teacher part is damaged."""
    raw = schema[TEACHER].read(page)
    if not raw:
        return {}
    values, errors = urlstate.decode(raw, schema.check)
    if errors:
        raise ValueError(f"the class link's teacher settings could not be read ({'; '.join(errors)}); "
                         "ask your teacher for the link again")
    return {k: v for k, v in values.items() if k not in (LOCK, TEACHER)}


def enforce(page: str, schema: Schema, defaults: dict) -> set[str]:
    """Force every locked control to the teacher's value; the locked names (draw them disabled).

    Call after ``start_page`` and before the widgets are drawn (Streamlit allows changing a
    widget's value only then). A damaged link is reported with ``st.error`` and unlocks nothing."""
    locked = set(schema[LOCK].read(page))
    if not locked:
        return set()
    try:
        teacher = teacher_values(page, schema, defaults)
    except ValueError as e:
        st.error(f"This class link is damaged: {e}")
        return set()
    forced = {n: teacher.get(n, defaults[n]) for n in locked if n in schema.fields}
    if any(schema[n].read(page) != v for n, v in forced.items()):
        schema.apply(page, forced)
    return locked


def reset_to_teacher(page: str, schema: Schema, defaults: dict, names: Iterable[str]) -> None:
    """Button callback: every shareable setting back to the teacher's value (or the default)."""
    teacher = teacher_values(page, schema, defaults)
    schema.apply(page, {n: teacher.get(n, defaults[n]) for n in names})


def banner(page: str, schema: Schema, defaults: dict, locked: set[str], shared: Sequence[str]) -> None:
    """For a student who opened a class link: which controls are locked, and a reset button."""
    if not schema[TEACHER].read(page):
        return
    names = ", ".join(schema[n].label for n in shared if n in locked) or "none"
    box = st.container(border=True)
    box.markdown(f"**Class link from your teacher.** Locked: {names}.")
    try:
        teacher_values(page, schema, defaults)
    except ValueError:
        return                                  # enforce() already said why
    box.button("Reset to the teacher's settings", key=state.wkey(page, "classlink.reset"),
               icon=":material/restart_alt:", on_click=reset_to_teacher, args=(page, schema, defaults, shared),
               help="Put every setting back to what the teacher shared (your answers stay).")


def link(values: dict, defaults: dict, lock: Iterable[str], shared: Sequence[str], start: dict | None = None,
         base: str | None = None) -> str:
    """The class link: the shared settings, ``start`` (e.g. progress reset), the lock list and the
    teacher's settings; ``base`` is the page's address (default: the current one, without query)."""
    teacher = {n: values[n] for n in shared}
    cfg = {**values, **(start or {}), LOCK: [n for n in shared if n in set(lock)],
           TEACHER: urlstate.encode(teacher, {n: defaults[n] for n in shared})}
    if base is None:
        base = (st.context.url or "").split("?", 1)[0]
    encoded = urlstate.encode(cfg, defaults)
    return f"{base}?{urlstate.PARAM}={encoded}" if encoded else base


def share_panel(page: str, schema: Schema, values: dict, defaults: dict, shared: Sequence[str],
                start: dict | None = None, where: Any = None) -> str | None:
    """Teacher's "Share with class": choose the controls to lock and get the link (copy button)."""
    where = where or st.sidebar
    with where.expander("Share with class (teacher)", icon=":material/groups:"):
        st.caption("Students who open the link get your settings; the controls you lock are drawn greyed "
                   "out and keep your values, even after a reload. They can still answer and move on.")
        lock = st.multiselect("Controls to lock", list(shared), default=list(shared),
                              format_func=lambda n: schema[n].label, key=state.wkey(page, "classlink.choose"))
        url = link(values, defaults, lock, shared, start)
        st.code(url, language=None, wrap_lines=True)
        return url
