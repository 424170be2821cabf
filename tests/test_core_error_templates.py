"""The core's user errors are ``CoreError``s whose templates the zh-TW catalogue translates.

``lstm_core`` reports a setting or an input it refuses with ``CoreError(template, **params)`` (a
``ValueError``); the app translates the template (``app/i18n/core_errors.py``), so a student in a
繁體中文 session reads the reason in Chinese. A bare ``raise ValueError(...)`` would reach them in
English: only the command-line code below may still raise one.
"""

from __future__ import annotations

import ast
import io
import pickle
import re
import string
from pathlib import Path

import numpy as np
import pytest
from babel.messages.pofile import read_po
from test_i18n_core import _translate_in_session

import lstm_core as lc
from app.i18n import catalog, core_errors
from lstm_core.errors import CoreError

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "lstm_core"

# Where a ValueError may stay (English only): code that only the command lines reach, never a page.
# module -> the functions that may raise it (None: the whole module), with the reason.
CLI_ONLY: dict[str, tuple[frozenset[str] | None, str]] = {
    "lstm_core/reproduce/cli.py": (
        None,
        "the reproduction command's arguments (python -m lstm_core.experiments)",
    ),
    "lstm_core/reproduce/distributed.py": (None, "the commands' runner: --state files, Dask, --workers"),
    "lstm_core/reproduce/experiments.py": (
        frozenset({"units_for", "summarise"}),
        "a table row's units and summary, called by reproduce/cli.py only (the app imports a constant)",
    ),
    "lstm_core/sweeps/cli.py": (
        frozenset({"_pairs", "_axis"}),
        "the sweep command's --set/--model and --x-values arguments; load_results (the Bias lab's "
        "upload) raises CoreError",
    ),
}


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _functions(tree: ast.AST) -> dict[ast.AST, str]:
    """Every node -> the name of the innermost function holding it ("" at module level)."""
    owner: dict[ast.AST, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else name
            owner[child] = inner
            visit(child, inner)

    visit(tree, "")
    return owner


def _calls(name: str):
    """(file, line, function, call) for every raise of ``name(...)`` in lstm_core."""
    for path in sorted(CORE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owner = _functions(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    yield _rel(path), node.lineno, owner.get(node, ""), node.exc


def _core_error_calls():
    """(where, call) for every ``CoreError(...)`` call in lstm_core, raised or not."""
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                if (func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)) == "CoreError":
                    yield f"{_rel(path)}:{node.lineno}", node


def _fields(template: str) -> set[tuple[str, str, str | None]]:
    return {(f, spec or "", conv) for _, f, spec, conv in string.Formatter().parse(template) if f is not None}


def test_no_bare_value_error_outside_the_command_lines():
    """A user error raised where a page reaches it is a CoreError (translatable), not a ValueError."""
    bare = [
        f"{where}:{line} in {func or 'the module'}"
        for where, line, func, _ in _calls("ValueError")
        if where not in CLI_ONLY or (CLI_ONLY[where][0] is not None and func not in CLI_ONLY[where][0])
    ]
    assert not bare, "raise CoreError(template, **values) instead (lstm_core/errors.py):\n" + "\n".join(bare)


def test_the_command_line_code_is_not_reached_by_the_app():
    """The allow-list holds: no page or app module imports the command-line code left in English."""
    modules = {w.removesuffix(".py").replace("/", "."): funcs for w, (funcs, _) in CLI_ONLY.items()}
    found = []
    for path in sorted([*(ROOT / "app").rglob("*.py"), *(ROOT / "pages").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [f"{_rel(path)}: {a.name}" for a in node.names if modules.get(a.name, 0) is None]
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    if (
                        modules.get(f"{node.module}.{a.name}", 0) is None
                    ):  # from lstm_core.reproduce import cli
                        found.append(f"{_rel(path)}: {node.module}.{a.name}")
                    funcs = modules.get(node.module, 0)
                    if funcs is None or (funcs and a.name in funcs):
                        found.append(f"{_rel(path)}: {node.module}.{a.name}")
    assert not found, found
    assert all((ROOT / where).is_file() for where in CLI_ONLY)


def test_every_template_is_a_literal_with_its_values_and_a_chinese_translation():
    """The catalogue extracts a template only from a literal; each placeholder gets a value at the
    call (else the raise itself fails); core.po translates it with the same placeholders."""
    with catalog.po_path("core").open("rb") as f:
        po = read_po(f, locale="zh_TW")
    problems, n = [], 0
    for where, call in _core_error_calls():
        if where.startswith("lstm_core/errors.py"):  # the class's own rebuild from a pickle
            continue
        n += 1
        first = call.args[0] if call.args else None
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            problems.append(f"{where}: the template is not a string literal")
            continue
        template = first.value
        names = {k.arg for k in call.keywords}
        if None not in names and {f for f, _, _ in _fields(template)} != names:  # no **values to check
            problems.append(f"{where}: placeholders {sorted(_fields(template))} but values {sorted(names)}")
        message = po.get(template)
        if message is None or not message.string or message.fuzzy:
            problems.append(f"{where}: no zh-TW translation of {template[:70]!r}")
        elif _fields(message.string) != _fields(template):
            problems.append(f"{where}: the translation's placeholders differ: {message.string[:70]!r}")
        elif not re.search(r"[\u4e00-\u9fff]", message.string):
            problems.append(f"{where}: the translation has no Chinese: {message.string[:70]!r}")
    assert n > 150, n  # the walk found the calls
    assert not problems, "\n".join(problems)


def test_the_core_texts_core_errors_translates_are_the_cores_own():
    """The setting names and reasons app/i18n/core_errors.py marks are words the core still says."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in CORE.rglob("*.py"))
    stale = [t for t in (*core_errors.SETTING_NAMES, *core_errors.VALUE_TEXTS) if repr(t)[1:-1] not in source]
    assert not stale, stale


def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def _errors() -> list[tuple[ValueError, list[str]]]:
    """Real errors the core raises the way the pages reach it, each with values its text must keep."""
    from lstm_core.sweeps.cli import load_results
    from lstm_core.training import TrainConfig, Trainer

    cases = [
        (
            lambda: lc.load_model_file(b"not a model at all", "notes.txt"),
            ["notes.txt", "safetensors", ".npz"],
        ),
        (lambda: lc.load_model_file(_npz(weight_ih_l0=np.zeros((8, 3))), "m.npz"), ["weight_hh_l0"]),
        (
            lambda: lc.load_model_file(
                _npz(weight_ih_l0=np.zeros((8, 3)), weight_hh_l0=np.full((8, 2), np.nan)), "m.npz"
            ),
            ["weight_hh_l0", "nan", "(0, 0)"],
        ),
        (
            lambda: lc.load_model_file(
                _npz(weight_ih_l0=np.zeros((8, 3), dtype=np.int64), weight_hh_l0=np.zeros((8, 2))), "m.npz"
            ),
            ["'weight_ih_l0'", "int64"],
        ),
        (
            lambda: lc.ModelConfig(variant="rnn", n_in=2, n_out=1, absent=["b_c"]),
            ["rnn", "['b_c']", "['b_out']"],
        ),
        (lambda: TrainConfig(lr=-1), ["lr", "> 0", "-1", "0.01 – 1"]),
        (lambda: TrainConfig(momentum=1.5), ["momentum", "≥ 0", "< 1", "1.5"]),
        (lambda: Trainer(lc.build("lstm1997", n_in=3, n_out=1), "adding"), ["3", "adding", "n_in=2"]),
        (lambda: load_results(b'{"kind": "gatelab-sweep-results", "version": 7}'), ["7", "1"]),
    ]
    found = []
    for make, values in cases:
        with pytest.raises(ValueError) as e:
            make()
        found.append((e.value, values))
    return found


def test_real_core_errors_read_in_chinese_with_their_values():
    errors = _errors()
    zh = _translate_in_session("zh-TW", [e for e, _ in errors])
    for (error, values), chinese in zip(errors, zh):
        english = str(error)
        assert isinstance(error, CoreError)
        assert re.search(r"[\u4e00-\u9fff]", chinese) and chinese != english, (english, chinese)
        assert all(v in english and v in chinese for v in values), (values, chinese)
        again = pickle.loads(pickle.dumps(error))  # a Dask worker's error comes back with its template
        assert (str(again), again.template) == (english, error.template)
    by_template = dict(zip((e.template for e, _ in errors), zh))
    assert (
        "學習率" in by_template["{name} must be a finite number {op} {lo:g}, got {value}{why}"]
    )  # name, why
    assert "這個檔案" not in by_template["{name} is neither safetensors nor .npz; {how}"]  # a name was given
