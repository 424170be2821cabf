"""The core's user errors: a ``ValueError`` that also carries its sentence's template and values.

``str(error)`` is the English sentence (the public API is unchanged: ``except ValueError`` still catches
it and its text reads as before); ``error.template`` and ``error.params`` let an interface show the same
sentence in another language — translate the template, then fill in the values. The templates are
``str.format`` strings written once, at the ``raise``; a catalogue extracts them from the calls
(``python -m app.i18n.catalog update core``), so rewording a message rewords its translation's key too.

``CoreText`` is the same pair for a sentence the core composes that is not an error (the Bias lab's
note on a changed goal, ``lstm_core.sweeps.sweep.with_goal``): its values may be ``CoreText`` too, each
translated on its own; the catalogue extracts its templates from the ``CoreText(...)`` calls likewise.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any


class CoreError(ValueError):
    """A setting or an input the core refuses, with a reason a user can act on."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params))

    def __reduce__(self) -> tuple:
        # pickled (a Dask worker's error, a session copied) with its template, not only its sentence
        return (_rebuild, (self.template, self.params))


def _rebuild(template: str, params: dict[str, Any]) -> CoreError:
    return CoreError(template, **params)


@dataclass(frozen=True, init=False)
class CoreText:
    """A sentence the core composed: ``str(text)`` is the English; ``template`` and ``params`` let an
    interface translate it. A value that is a ``CoreText`` or a ``CoreList`` is words in its own right,
    translated on its own; a ``CoreText`` without values is a fixed text (a registry text)."""

    template: str
    items: tuple[tuple[str, Any], ...]  # the values as pairs: hashable (a text sits in frozen configs)

    def __init__(self, template: str, **params: Any) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "items", tuple(params.items()))

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.items)

    def __str__(self) -> str:
        if not self.items:  # a fixed text: not a format string
            return self.template
        return self.template.format(**{k: _english(v) for k, v in self.items})

    def __reduce__(self) -> tuple:
        return (_rebuild_text, (self.template, self.params))


@dataclass(frozen=True)
class CoreList:
    """Parts said one after another ("input gate (99% of unit-steps), forget gate (…)"): English joins
    them with ``sep``; an interface translates each part and the separator (", " is 、 in Chinese)."""

    parts: tuple[Any, ...]
    sep: str = ", "

    def __str__(self) -> str:
        return self.sep.join(_english(p) for p in self.parts)


Words = str | CoreText | CoreList


def _english(value: Any) -> Any:
    return str(value) if isinstance(value, (CoreText, CoreList)) else value


def _rebuild_text(template: str, params: dict[str, Any]) -> CoreText:
    return CoreText(template, **params)


def words_to_json(value: Any) -> Any:
    """A text (or a value inside one) as JSON: a ``CoreText`` is {"template", "params"}, a ``CoreList``
    {"parts", "sep"}; strings and numbers stay. A results file keeps its notes so, to be translated."""
    if isinstance(value, CoreText):
        return {"template": value.template, "params": {k: words_to_json(v) for k, v in value.items}}
    if isinstance(value, CoreList):
        return {"parts": [words_to_json(p) for p in value.parts], "sep": value.sep}
    return value


def words_from_json(value: Any) -> Any:
    """``words_to_json`` read back (a plain string, as older files hold, stays a string; a number stays).

    A file may come from anywhere (a results file a user loads): a template may name only its own
    values, plainly ("{name}" or "{name:,}" / "{name:.3g}" …: no attribute, index or conversion, which
    would let a file read the program's objects), and must fill in; else ``CoreError``."""
    if isinstance(value, dict) and set(value) == {"template", "params"}:
        template, params = value["template"], value["params"]
        if not isinstance(template, str) or not isinstance(params, dict):
            raise CoreError("words in a file: a template is text and its params an object")
        words = CoreText(template, **{str(k): words_from_json(v) for k, v in params.items()})
        _check_template(words)
        return words
    if isinstance(value, dict) and set(value) == {"parts", "sep"}:
        if not isinstance(value["parts"], list) or not isinstance(value["sep"], str):
            raise CoreError("words in a file: a list's parts are a list and its separator text")
        return CoreList(tuple(words_from_json(p) for p in value["parts"]), value["sep"])
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise CoreError(
        "words in a file are text, a number or a template with its values, got {value}",
        value=repr(value)[:80],
    )


_PLAIN_SPEC = re.compile(r"[<>^]?[,_]?(\.\d{1,2})?[gfde%]?")


def _check_template(words: CoreText) -> None:
    if words.items:
        try:
            fields = list(string.Formatter().parse(words.template))
        except ValueError:
            fields = None
        bad = fields is None or any(
            name is not None
            and (name not in words.params or conversion is not None or not _PLAIN_SPEC.fullmatch(spec or ""))
            for _text, name, spec, conversion in fields
        )
        if not bad:
            try:
                str(words)
            except (ValueError, TypeError, KeyError, IndexError):
                bad = True
        if bad:
            raise CoreError(
                "words in a file: the template {text} names a value it does not have, or not plainly",
                text=repr(words.template)[:80],
            )
