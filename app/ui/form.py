"""Declarative page settings: ``Field`` (one setting: validation and widget), ``Schema`` (a
page's fields) and the page lifecycle that moves a configuration between link and widgets.

A page describes its settings as ``Field`` objects collected in a ``Schema``. The same field
validates a value from a widget, a URL (``urlstate``) or an uploaded file (``export``), and
draws its own widget under the key ``"<page>.<name>"`` (``state.wkey``). A page's
configuration is therefore one flat dict ``{name: value}`` — what goes into the URL — and a
page run is::

    start_page(page, schema, defaults)      # link / first visit -> widget values
    ... groups draw widgets; values = schema.read(page) ...
    finish_page(page, values, defaults)     # values -> URL

The control groups built from fields are in ``app.ui.controls``; turning the flat settings into
an ``lc.ModelConfig`` (and back) is ``app.ui.netconfig``'s job.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from app import i18n
from app.i18n import _
from app.ui import state, urlstate
from lstm_core.numerics import finite_number

PERSIST = "session"  # widget values survive a visit to another page
# How many of its own recent links a page remembers, to tell a late echo from a new link
# (start_page). An echo is at most a few full runs old; the list stays small.
URL_ECHOES = 32


class _Where:
    """ "'name' (label)" in this session's language, made only when a message needs it (a check
    that passes costs no translation)."""

    def __init__(self, field: Field) -> None:
        self.field = field

    def __format__(self, spec: str) -> str:
        return _("'{name}' ({label})").format(name=self.field.name, label=_(self.field.label))

    __str__ = lambda self: format(self)


@dataclass(frozen=True)
class Field:
    """One setting: its type and range (validation) and its widget (drawing)."""

    name: str
    label: str
    kind: str  # int | float | optfloat | choice | bool | text | multi
    default: Any
    lo: float | None = None
    hi: float | None = None
    step: float | None = None
    choices: tuple = ()
    widget: str = "number"  # slider | number | select | segmented | toggle | text_area | multiselect | none
    help: str | None = None
    fmt: Callable[[Any], str] | None = None
    fallback: float = 0.0  # optfloat: the number shown while the setting is off

    # -- validation -------------------------------------------------------------------
    def check(self, value: Any) -> Any:
        """The value in canonical type, or ValueError naming the setting and the valid range."""
        k, where = self.kind, _Where(self)
        if k == "optfloat" and value is None:
            return None
        if k in ("float", "optfloat", "int"):
            return self._check_number(value, where)
        if k == "bool":
            if not isinstance(value, bool):
                raise ValueError(
                    _("{where} must be true or false, got {value}").format(where=where, value=repr(value))
                )
            return value
        if k == "choice":
            if value not in self.choices or isinstance(value, bool) != isinstance(self.choices[0], bool):
                raise ValueError(
                    _("{where} must be one of {choices}, got {value}").format(
                        where=where, choices=list(self.choices), value=repr(value)
                    )
                )
            return value
        if k == "text":
            return self._check_text(value, where)
        if k == "multi":
            return self._check_multi(value, where)
        raise ValueError(f"{where}: unknown kind {k!r}")  # pragma: no cover  # i18n: kept (programming error)

    def _check_number(self, value: Any, where: _Where) -> int | float:
        """A finite number (whole for ``int``) within [lo, hi]."""
        if not finite_number(value):
            raise ValueError(
                _("{where} must be a finite number, got {value}").format(where=where, value=repr(value))
            )
        if self.kind == "int":
            if value != int(value):
                raise ValueError(
                    _("{where} must be a whole number, got {value}").format(where=where, value=repr(value))
                )
            value = int(value)
        else:
            value = float(value)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise ValueError(
                _("{where} must be between {lo} and {hi}, got {value}").format(
                    where=where, lo=f"{self.lo:g}", hi=f"{self.hi:g}", value=f"{value:g}"
                )
            )
        return value

    def _check_text(self, value: Any, where: _Where) -> str:
        """A string of at most ``hi`` characters."""
        if not isinstance(value, str):
            raise ValueError(
                _("{where} must be text, got {kind}").format(where=where, kind=type(value).__name__)
            )
        if self.hi is not None and len(value) > self.hi:
            raise ValueError(
                _("{where} is {n} characters long; at most {most} are allowed").format(
                    where=where, n=len(value), most=f"{self.hi:g}"
                )
            )
        return value

    def _check_multi(self, value: Any, where: _Where) -> list:
        """A list of distinct values, each one of the choices."""
        if (
            not isinstance(value, list)
            or any(v not in self.choices for v in value)
            or len(set(value)) != len(value)
        ):
            raise ValueError(
                _("{where} must be a list of distinct values from {choices}, got {value}").format(
                    where=where, choices=list(self.choices), value=repr(value)
                )
            )
        return list(value)

    # -- widgets ----------------------------------------------------------------------
    def shown(self, value: Any) -> str:
        """How a choice reads on screen, in this session's language (``fmt``'s English, translated)."""
        return _((self.fmt or str)(value))

    def option_labels(self, values: Iterable[Any]) -> Callable[[Any], str]:
        """A ``format_func`` for ``values`` (``i18n.labels``: the language taken now)."""
        return i18n.labels({v: (self.fmt or str)(v) for v in values})

    def widget_values(self, value: Any) -> dict[str, Any]:
        """Widget-key names and values that display ``value``."""
        if self.kind == "optfloat":
            # While off, the (disabled) slider shows the fallback, the value it gets when switched on.
            return {
                f"{self.name}.on": value is not None,
                self.name: float(value) if value is not None else self.fallback,
            }
        return {self.name: value}

    def read(self, page: str, snapshot: dict | None = None) -> Any:
        """The current value (from ``snapshot``, a plain copy of session state, if given)."""
        ss = st.session_state if snapshot is None else snapshot
        key = state.wkey(page, self.name)
        if self.kind == "optfloat":
            on = ss.get(f"{key}.on", self.default is not None)
            return ss.get(key, self.fallback) if on else None
        return ss.get(key, self.default)

    def render(
        self,
        page: str,
        where: Any = st,
        label: str | None = None,
        disabled: bool = False,
        label_visibility: str = "visible",
    ) -> Any:
        """Draw the widget (its value comes from session state, set by ``start_page``); a label hidden
        with ``label_visibility="collapsed"`` still names the widget for a screen reader."""
        key, label = state.wkey(page, self.name), _(label or self.label)
        disabled = disabled or self.name in state.page_state(page).get("_locked", ())  # app.ui.classlink
        helptext = _(self.help) if self.help else None
        common = dict(
            key=key,
            help=helptext,
            disabled=disabled,
            persist_state=PERSIST,
            label_visibility=label_visibility,
        )
        shown = self.option_labels(self.choices)
        w = self.widget
        if self.kind == "optfloat":
            on = where.checkbox(
                _("set {label}").format(label=label),
                key=f"{key}.on",
                help=helptext,
                disabled=disabled,
                persist_state=PERSIST,
            )
            where.slider(
                label,
                self.lo,
                self.hi,
                step=self.step,
                key=key,
                disabled=disabled or not on,
                persist_state=PERSIST,
                label_visibility="collapsed",
            )
            return self.read(page)
        if w == "slider":
            return where.slider(label, self.lo, self.hi, step=self.step, **common)
        if w == "number":
            return where.number_input(label, self.lo, self.hi, step=self.step, **common)
        if w == "select":
            return where.selectbox(label, self.choices, format_func=shown, **common)
        if w == "segmented":
            return where.segmented_control(label, self.choices, format_func=shown, required=True, **common)
        if w == "toggle":
            return where.toggle(label, **common)
        if w == "text_area":
            return where.text_area(label, height=140, **common)
        if w == "multiselect":
            return where.multiselect(label, self.choices, format_func=shown, **common)
        raise ValueError(
            f"field {self.name!r} has no widget"
        )  # pragma: no cover  # i18n: kept (programming error)


class Schema:
    """All the settings of a page (the union over variants and tasks, so any link validates)."""

    def __init__(self, fields: Iterable[Field]) -> None:
        self.fields: dict[str, Field] = {}
        for f in fields:
            if f.name in self.fields:
                raise ValueError(
                    f"duplicate field {f.name!r}"
                )  # pragma: no cover  # i18n: kept (programming error)
            self.fields[f.name] = f

    def __getitem__(self, name: str) -> Field:
        return self.fields[name]

    def defaults(self, **overrides: Any) -> dict[str, Any]:
        d = {n: f.default for n, f in self.fields.items()}
        d.update(self.check(overrides))
        return d

    def check(self, data: dict) -> dict:
        """Validate a (partial) settings dict; one ValueError listing every problem."""
        errors, out = [], {}
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            errors.append(_("unknown setting(s) {names}").format(names=unknown))
        for name, value in data.items():
            if name in self.fields:
                try:
                    out[name] = self.fields[name].check(value)
                except ValueError as e:
                    errors.append(str(e))
        if errors:
            raise ValueError("; ".join(errors))
        return out

    def widget_values(self, values: dict) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in values.items():
            out.update(self.fields[name].widget_values(value))
        return out

    def read(self, page: str) -> dict[str, Any]:
        # One copy of session state instead of one proxied lookup per field (≈ 0.15 ms each).
        snapshot = st.session_state.to_dict()
        return {n: f.read(page, snapshot) for n, f in self.fields.items()}

    def apply(self, page: str, values: dict) -> None:
        """Show ``values`` in the widgets (call before they are drawn, or from a callback)."""
        state.set_widget_values(page, self.widget_values(values), overwrite=True)


# ----------------------------------------------------------------------------- page lifecycle
def start_page(page: str, schema: Schema, defaults: dict) -> None:
    """Bring the widgets to the page's configuration before anything is drawn.

    A ``cfg`` in the URL that this session did not write itself (a shared link) replaces the
    settings; an invalid one is reported and the defaults are used. A ``cfg`` this session wrote
    earlier is a late echo, not a link: a request the browser sent before the newer URL reached it
    carries the older one (seen on the Step page: a request sent after Pause still carried the URL
    written at Play, and took the cursor from step 56 back to step 2). It changes nothing, and
    ``finish_page`` writes the current URL again. Otherwise the widgets keep their values (first
    visit: the defaults).
    """
    ps = state.page_state(page)
    raw, errors = urlstate.read()
    if raw is not None and raw != ps.get("_url") and raw not in ps.get("_written", ()):
        values, bad = urlstate.decode(raw, schema.check)
        if bad:
            state.flash(
                page,
                _(
                    "The link's settings could not be used: {why}. Showing the default "
                    "settings instead. The link held:"
                ).format(why="; ".join(bad)),
            )
            state.flash(page, urlstate.readable(raw), kind="code")
            values = {}
        schema.apply(page, {**defaults, **values})
        ps["_url"] = raw
    if errors:
        msg = "; ".join(errors)
        state.flash(page, _("{problem}. They were ignored.").format(problem=msg[:1].upper() + msg[1:]))
    state.set_widget_values(page, schema.widget_values(defaults), overwrite=False)
    state.show_flashes(page)


def finish_page(page: str, values: dict, defaults: dict) -> None:
    """Write the page's configuration into the URL (shareable link, seed included)."""
    encoded = urlstate.encode(values, defaults)
    urlstate.write(encoded)
    ps = state.page_state(page)
    ps["_url"] = encoded or None
    written = ps.setdefault("_written", [])  # what a late request may still carry (start_page)
    if encoded and encoded not in written[-1:]:
        written.append(encoded)
        del written[:-URL_ECHOES]


def reset_button(
    page: str,
    schema: Schema,
    group: str,
    names: Callable[[], Iterable[str]],
    paper: Callable[[], dict],
    where: Any = st,
) -> None:
    """ "Reset to paper defaults" for one group: its fields get ``paper()``'s values."""

    def reset() -> None:
        values = paper()
        schema.apply(page, {n: values[n] for n in names() if n in values})

    where.button(
        _("Reset to paper defaults"),
        key=state.wkey(page, f"reset.{group}"),
        on_click=reset,
        icon=":material/restart_alt:",
        help=_("Put this group back to the values the papers used."),
    )


def render_fields(
    page: str, schema: Schema, names: Iterable[str], where: Any = st, disabled: Iterable[str] = ()
) -> dict[str, Any]:
    """Draw the fields ``names``; those in ``disabled`` are drawn greyed out (they would change nothing)."""
    off = set(disabled)
    return {n: schema[n].render(page, where, disabled=n in off) for n in names}
