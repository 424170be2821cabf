"""The house's rules, read from the code's own imports (``ast``, nothing is run):

- no import circle anywhere (modules that import each other, directly or round a loop — also
  through imports inside functions, which only hide a circle until the function runs);
- three floors: ``pages`` (and the ``gatelab`` command) → ``app`` → ``lstm_core``; nothing imports upwards;
- the core is pure NumPy: no streamlit, plotly or app anywhere in ``lstm_core``;
- the engine a student reads (``lstm_core`` less ``reproduce/``, ``sweeps/``, ``io/``) never
  imports the command-line parts; the package's face (``lstm_core/__init__.py``) may hand on
  ``io``'s names (``lc.load_model_file``, ``lc.from_torch``);
- no file over ~400 lines without a reason in its docstring.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("lstm_core", "app", "pages", "gatelab")
SERVING = ("lstm_core.reproduce", "lstm_core.sweeps", "lstm_core.io", "lstm_core.atlas")
MAX_LINES = 440  # "~400": a file may run a tenth over before it must say why


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _type_checking_only(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports (a name taken from a package's face counts as the
    package; ``from pkg import mod`` counts as the module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {c: p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if _type_checking_only(node, parents):
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:  # `import a.b.c` of a package: its nearest module
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def graph() -> dict[str, set[str]]:
    src = sources()
    known = set(src)
    return {n: imports(n, p, known) for n, p in src.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_the_checker_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_checker_reads_relative_and_function_level_imports(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text(
        "from ..model import Model\nfrom . import sibling\n"
        "def f():\n    from .other import x\n"
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .hidden import y\n"
    )
    known = {"pkg.sub.m", "pkg.model", "pkg.sub.sibling", "pkg.sub.other", "pkg.sub.hidden"}
    assert imports("pkg.sub.m", f, known) == {"pkg.model", "pkg.sub.sibling", "pkg.sub.other"}


def test_no_import_circle() -> None:
    found = circles(graph())
    assert not found, "import circles (each a set of modules that import each other): " + "; ".join(
        " <-> ".join(c) for c in found
    )


def test_floors_pages_app_core() -> None:
    floor = {"gatelab": 3, "pages": 3, "app": 2, "lstm_core": 1}  # gatelab starts app/main.py as a script
    bad = [
        f"{a} -> {b}"
        for a, deps in graph().items()
        for b in deps
        if floor[b.split(".")[0]] > floor[a.split(".")[0]]
    ]
    assert not bad, "imports from a lower floor to a higher one: " + ", ".join(sorted(bad))


def test_core_is_pure_numpy() -> None:
    bad = []
    for name, path in sources().items():
        if not name.startswith("lstm_core"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            mods = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            bad += [
                f"{name}: {m}" for m in mods if m.split(".")[0] in ("streamlit", "plotly", "app", "pages")
            ]
    assert not bad, bad


def test_engine_does_not_import_the_command_line_parts() -> None:
    bad = [
        f"{a} -> {b}"
        for a, deps in graph().items()
        for b in deps
        if a.startswith("lstm_core")
        and not a.startswith(SERVING)
        and a != "lstm_core"
        and b.startswith(SERVING)
        and a not in ("lstm_core.experiments", "lstm_core.sweep")
    ]  # the commands' entry points
    assert not bad, "the engine imports reproduce/sweeps/io: " + ", ".join(sorted(bad))


@pytest.mark.parametrize(
    "folder", ["lstm_core/reproduce", "lstm_core/sweeps", "lstm_core/io", "lstm_core/atlas"]
)
def test_the_core_tree_shows_its_parts(folder: str) -> None:
    assert (ROOT / folder / "__init__.py").is_file()
    assert ast.get_docstring(ast.parse((ROOT / folder / "__init__.py").read_text(encoding="utf-8")))


def test_long_files_say_why() -> None:
    """Source files (and tests) over ~400 lines carry the reason in their docstring."""
    paths = [
        p
        for pkg in (*PACKAGES, "tests", "benchmarks", "deploy", "examples")
        for p in (ROOT / pkg).rglob("*.py")
    ]
    long = []
    for p in paths:
        text = p.read_text(encoding="utf-8")
        if text.count("\n") > MAX_LINES:
            doc = ast.get_docstring(ast.parse(text)) or ""
            if "over 400 lines" not in doc:
                long.append(f"{p.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    assert not long, "files over 400 lines without 'over 400 lines: <why>' in their docstring: " + ", ".join(
        long
    )


def test_the_layout_page_matches_the_tree() -> None:
    """docs/architecture.md names every folder of the core and the app, and every module of the
    core's top floor and of app/ui — a file moved or added without redrawing the layout fails."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawn = text.split("```")[1]
    names = [
        f"{p.name}/"
        for base in ("lstm_core", "app")
        for p in (ROOT / base).iterdir()
        if p.is_dir() and p.name != "__pycache__"
    ]
    names += [
        p.name
        for base in ("lstm_core", "app/ui")
        for p in (ROOT / base).glob("*.py")
        if p.name != "__init__.py" or base == "lstm_core"
    ]
    missing = [n for n in names if n not in drawn]
    assert not missing, f"docs/architecture.md's layout does not name: {missing}"
