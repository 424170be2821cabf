"""The core's error messages as the app shows them, in this session's language.

The core raises ``lstm_core.errors.CoreError`` (a ``ValueError``) with its sentence's template and
values. The templates are in the ``core`` catalogue, extracted from the ``raise CoreError(...)`` calls
themselves (``python -m app.i18n.catalog update core``), so ``translate`` translates the template and
fills in the values; a value that is a reason or a setting's name is a core text itself, translated
where catalogued. Any other error, and a message kept as text (a trainer's message, a results file's),
is looked up as a whole message, else shown as the core wrote it. ``tests/test_i18n_core.py`` raises
real core errors through it.
"""

from __future__ import annotations

from app.i18n import DEFAULT, N_, _, current
from lstm_core.errors import CoreError

# The core's names of settings that carry words (lstm_core/config.py), translated inside a message.
SETTING_NAMES = (
    N_("n_in (number of inputs)"),
    N_("n_out (number of outputs)"),
    N_("n_blocks (memory blocks)"),
    N_("block_size (cells per block)"),
)
TRANSLATED_PARAMS = ("why", "name")  # values that may be core texts themselves (a reason, a setting's name)


def translate(error: BaseException | str) -> str:
    """A core error (or a core message) in this session's language."""
    if current() == DEFAULT:
        return str(error)
    if isinstance(error, CoreError):
        params = {
            k: (_(v) if k in TRANSLATED_PARAMS and isinstance(v, str) else v) for k, v in error.params.items()
        }
        return _(error.template).format(**params)
    message = str(error)
    return _(message) if message else message
