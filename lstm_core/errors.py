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
    interface translate it (a value that is a ``CoreText`` is a sentence in its own right)."""

    template: str
    items: tuple[
        tuple[str, Any], ...
    ]  # the values, as pairs: the text stays hashable (it sits in frozen configs)

    def __init__(self, template: str, **params: Any) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "items", tuple(params.items()))

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.items)

    def __str__(self) -> str:
        if not self.items:  # a fixed text (e.g. a registry text): not a format string
            return self.template
        return self.template.format(**{k: str(v) if isinstance(v, CoreText) else v for k, v in self.items})

    def __reduce__(self) -> tuple:
        return (_rebuild_text, (self.template, self.params))


def _rebuild_text(template: str, params: dict[str, Any]) -> CoreText:
    return CoreText(template, **params)
