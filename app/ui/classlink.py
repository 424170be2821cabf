"""A class link: a teacher hands out a page with their settings and chosen controls locked.

The link is the page's ordinary ``?cfg=`` with two extra settings (both in the page's Schema,
added with ``fields``): ``lock`` — the locked control *groups* (e.g. "Network", "Seed") — and
``teacher`` — the teacher's settings, encoded like ``cfg`` itself. Because both stay in the URL
while the student works, a reload or a reopened link keeps the same controls locked, and a locked
control's value always comes from ``teacher`` (``enforce``), whatever else the URL, an import or
a "Reset to paper defaults" button says.

Locked controls are drawn disabled by ``form.Field.render`` itself (it reads the page's
``LOCKED`` entry that ``enforce`` writes), so every control group of a page respects the lock
without being told. A page using it::

    form.start_page(PAGE, SCHEMA, DEFAULTS)
    classlink.enforce(PAGE, SCHEMA, DEFAULTS)          # before any widget is drawn
    classlink.banner(PAGE, SCHEMA, DEFAULTS, GROUPS)
    ... draw the controls as usual ...
    classlink.share_panel(PAGE, SCHEMA, values, DEFAULTS, GROUPS)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from app import i18n
from app.i18n import N_, _
from app.ui import state, urlstate
from app.ui.form import Field, Schema

LOCK, TEACHER = "lock", "teacher"
LOCKED = "_locked"  # page_state entry: the field names drawn disabled this run
MAX_TEACHER_CHARS = 8000
Groups = Mapping[
    str, Sequence[str]
]  # group label (English, N_-marked; drawn with _) -> the page's field names


def fields(groups: Groups) -> list[Field]:
    """The two settings a page adds to its Schema to accept class links."""
    return [
        Field(LOCK, N_("Controls locked by the teacher"), "multi", [], choices=tuple(groups), widget="none"),
        Field(TEACHER, N_("The teacher's settings"), "text", "", hi=MAX_TEACHER_CHARS, widget="none"),
    ]


def shared_names(groups: Groups) -> list[str]:
    return list(dict.fromkeys(n for names in groups.values() for n in names))


def teacher_values(page: str, schema: Schema) -> dict[str, Any]:
    """The settings the teacher shared (decoded from ``teacher``; {} for an ordinary link).

    Raises ValueError with a message for the student if the link's teacher part is damaged."""
    raw = schema[TEACHER].read(page)
    if not raw:
        return {}
    values, errors = urlstate.decode(raw, schema.check)
    if errors:
        raise ValueError(
            _(
                "the teacher's settings in it could not be read ({why}); ask your teacher for the link again"
            ).format(why="; ".join(errors))
        )
    return {k: v for k, v in values.items() if k not in (LOCK, TEACHER)}


def enforce(page: str, schema: Schema, defaults: dict, groups: Groups) -> set[str]:
    """Force every locked control to the teacher's value; return the locked field names.

    Call after ``start_page`` and before the widgets are drawn (Streamlit allows changing a
    widget's value only then). A damaged link is reported with ``st.error`` and locks nothing."""
    ps = state.page_state(page)
    ps[LOCKED] = set()
    chosen = schema[LOCK].read(page)
    if not chosen:
        return set()
    try:
        teacher = teacher_values(page, schema)
    except ValueError as e:
        st.error(_("This class link is damaged: {why}").format(why=e))
        return set()
    locked = {n for g in chosen for n in groups.get(g, ()) if n in schema.fields}
    forced = {n: teacher.get(n, defaults[n]) for n in locked}
    if any(schema[n].read(page) != v for n, v in forced.items()):
        schema.apply(page, forced)
    ps[LOCKED] = locked
    return locked


def is_locked(page: str, name: str) -> bool:
    """Whether ``name`` on ``page`` is locked by a class link this run (read by Field.render)."""
    return name in state.page_state(page).get(LOCKED, ())


def reset_to_teacher(page: str, schema: Schema, defaults: dict, names: Iterable[str]) -> None:
    """Button callback: every shared setting back to the teacher's value (or the default)."""
    teacher = teacher_values(page, schema)
    schema.apply(page, {n: teacher.get(n, defaults[n]) for n in names})


def banner(page: str, schema: Schema, defaults: dict, groups: Groups) -> None:
    """For a student who opened a class link: what is locked, and "Reset to the teacher's settings"."""
    if not schema[TEACHER].read(page) and not schema[LOCK].read(page):
        return  # an ordinary link (a teacher's own defaults leave TEACHER empty)
    try:
        teacher_values(page, schema)
    except ValueError:
        return  # enforce() already said why
    chosen = [g for g in groups if g in set(schema[LOCK].read(page))]
    text, button = st.container(border=True).columns([2.3, 1.5], vertical_alignment="center")  # one short row
    text.markdown(
        _(
            "**Class link from your teacher.** Locked (greyed out): {locked}; everything else you may change."
        ).format(locked=_(", ").join(_(g) for g in chosen) or _("nothing"))
    )
    button.button(
        _("Reset to the teacher's settings"),
        width="stretch",
        key=state.wkey(page, "classlink.reset"),
        icon=":material/restart_alt:",
        on_click=reset_to_teacher,
        args=(page, schema, defaults, shared_names(groups)),
        help=_("Put every setting back to what the teacher shared."),
    )


def link(
    values: dict,
    defaults: dict,
    lock: Iterable[str],
    groups: Groups,
    start: dict | None = None,
    base: str | None = None,
) -> str:
    """The class link: the shared settings, ``start`` (e.g. progress reset), the locked groups and
    the teacher's settings; ``base`` is the page's address (default: the current one, no query)."""
    names = shared_names(groups)
    teacher = {n: values[n] for n in names}
    cfg = {
        **values,
        **(start or {}),
        LOCK: [g for g in groups if g in set(lock)],
        TEACHER: urlstate.encode(teacher, {n: defaults[n] for n in names}),
    }
    if base is None:
        base = (st.context.url or "").split("?", 1)[0]
    encoded = urlstate.encode(cfg, defaults)
    # the language first (the link opens in the teacher's language), the configuration last
    query = i18n.url_params() | ({urlstate.PARAM: encoded} if encoded else {})
    return f"{base}?{urlencode(query, safe='-_.~')}" if query else base


def share_panel(
    page: str,
    schema: Schema,
    values: dict,
    defaults: dict,
    groups: Groups,
    start: dict | None = None,
    where: Any = None,
) -> str:
    """Teacher's "Share with class" (a sidebar expander): choose what to lock, get the link to copy."""
    where = where or st.sidebar
    # Drawn only while open (the expander reruns the page when it opens or closes): its link box is
    # Streamlit's code element, whose 1.5 MB syntax highlighter a page otherwise loads and runs on
    # every first visit (~160 ms of the browser's time on Step; docs/benchmarks.md).
    with where.expander(
        _("Share with class (teacher)"),
        icon=":material/groups:",
        key=state.wkey(page, "classlink.open"),
        on_change="rerun",
    ) as panel:
        # Streamlit keeps a multiselect's chosen chips as the labels they were drawn with: one key
        # per language (the choice carried over), so after a switch the chips read in the new one.
        # The choice is also kept under a plain key: Streamlit forgets a widget's value in a run that
        # does not draw it (the panel closed), and the other language's widget starts from it.
        key, kept = state.wkey(page, f"classlink.choose.{i18n.current()}"), state.wkey(page, "classlink.kept")
        if not panel.open or key not in st.session_state:
            st.session_state[key] = list(st.session_state.get(kept, groups))
        if not panel.open:
            return link(values, defaults, st.session_state[key], groups, start)
        st.caption(
            _(
                "Students who open the link get your settings; the controls you lock are greyed out "
                "and keep your values, even after a reload. Everything else still works for them."
            )
        )
        lock = st.multiselect(
            _("Controls to lock"), list(groups), format_func=i18n.labels({g: g for g in groups}), key=key
        )
        st.session_state[kept] = list(lock)
        url = link(values, defaults, lock, groups, start)
        st.code(url, language=None, wrap_lines=True)
        return url
