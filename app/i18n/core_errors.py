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
from lstm_core.errors import CoreError, CoreList, CoreText

# The core's names of settings that carry words (lstm_core/config.py), translated inside a message.
SETTING_NAMES = (
    N_("n_in (number of inputs)"),
    N_("n_out (number of outputs)"),
    N_("n_blocks (memory blocks)"),
    N_("block_size (cells per block)"),
    # lstm_core/training/config.py
    N_("lr (learning rate)"),
    N_("k (tbptt chunk length)"),
    N_("batch (sequences per update)"),
    N_("budget (training sequences per network)"),
    N_("seed (data seed)"),
    N_("report_every (sequences between progress reports)"),
    N_("streak (correct sequences in a row to stop)"),
    N_("grow_window (sequences per window of the 'error stopped decreasing' test)"),
)
# The core's reasons and other words passed as a message's {why} or {name} (lstm_core/training/config.py,
# lstm_core/io/model_files.py), translated inside a message.
VALUE_TEXTS = (
    N_("; typical values are 0.01 – 1 (the 2002 timing tasks: 1e-5 – 1e-3)"),
    N_("; 0 = plain SGD, 0.9 – 0.9999 in the 2002 paper"),
    N_("; or None to switch clipping off"),
    N_("; or None for no sequential construction"),
    N_("the file"),
    N_("embedding"),
    N_("output layer"),
)
TRANSLATED_PARAMS = ("why", "name")  # values that may be core texts themselves (a reason, a setting's name)


# the separators of a CoreList (lstm_core/errors.py), translated: a Chinese list is joined by 、
LIST_SEPARATORS = (N_(", "), N_("; "))


def text(wording: CoreText | CoreList | str) -> str:
    """Words the core composed (``CoreText``, ``CoreList``) in this session's language: a template
    translated, then its values filled in, each value that is words itself translated the same way; a
    list's parts each translated and joined by the translated separator; a plain string looked up whole."""
    if current() == DEFAULT:
        return str(wording)
    if isinstance(wording, CoreList):
        return _(wording.sep).join(
            text(p) if isinstance(p, (CoreText, CoreList, str)) else str(p) for p in wording.parts
        )
    if isinstance(wording, str):
        return _(wording) if wording else wording
    params = {k: (text(v) if isinstance(v, (CoreText, CoreList)) else v) for k, v in wording.items}
    return _(wording.template).format(**params) if params else _(wording.template)


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
