"""The core's user errors: a ``ValueError`` that also carries its sentence's template and values.

``str(error)`` is the English sentence (the public API is unchanged: ``except ValueError`` still catches
it and its text reads as before); ``error.template`` and ``error.params`` let an interface show the same
sentence in another language — translate the template, then fill in the values. The templates are
``str.format`` strings written once, at the ``raise``; a catalogue extracts them from the calls
(``python -m app.i18n.catalog update core``), so rewording a message rewords its translation's key too.
"""

from __future__ import annotations

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
