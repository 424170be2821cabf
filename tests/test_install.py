"""Installs do not drift: constraints.txt pins every package the README commands install.

Walks the dependency closure of requirements.txt and requirements-dev.txt through the installed
metadata (extras the requirements ask for included) and checks that each distribution is pinned
in constraints.txt at the version installed here — the one the suite was run against.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def lines(name: str) -> list[str]:
    out = []
    for line in (ROOT / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            out.append(line)
    return out


def pins() -> dict[str, str]:
    result = {}
    for line in lines("constraints.txt"):
        name, _, version = line.partition("==")
        assert version, f"constraints.txt: '{line}' is not pinned with =="
        result[canonicalize_name(name)] = version
    return result


def closure(roots: list[Requirement]) -> set[str]:
    seen: set[str] = set()
    todo = [(r, frozenset(r.extras)) for r in roots]
    while todo:
        req, extras = todo.pop()
        env = default_environment()
        if req.marker and not any(req.marker.evaluate({**env, "extra": e}) for e in (extras or {""})):
            continue
        name = canonicalize_name(req.name)
        key = f"{name}[{','.join(sorted(extras))}]"
        if key in seen:
            continue
        seen.add(key)
        for dep in metadata.requires(req.name) or []:
            todo.append(
                (
                    Requirement(dep),
                    frozenset(Requirement(dep).extras)
                    | frozenset(e for e in extras if re.search(rf"extra\s*==\s*['\"]{e}['\"]", dep)),
                )
            )
    return {k.split("[")[0] for k in seen}


def test_every_installed_dependency_is_pinned_at_its_installed_version():
    roots = [Requirement(r) for r in lines("requirements.txt") + lines("requirements-dev.txt")]
    needed, pinned = closure(roots), pins()
    missing = sorted(n for n in needed if n not in pinned)
    assert not missing, f"add these to constraints.txt (make constraints): {missing}"
    wrong = {n: (pinned[n], metadata.version(n)) for n in needed if pinned[n] != metadata.version(n)}
    assert not wrong, f"constraints.txt pins differ from the installed, tested versions: {wrong}"


def test_torch_is_not_part_of_the_user_install():
    assert "torch" not in pins()
    assert not any(
        canonicalize_name(Requirement(r).name) == "torch"
        for r in lines("requirements.txt") + lines("requirements-dev.txt")
    )


def test_every_pip_install_in_the_makefile_is_constrained():
    installs = [
        l
        for l in (ROOT / "Makefile").read_text().splitlines()
        if "$(PIP) install" in l and "--no-deps" not in l
    ]
    assert installs and all("-c constraints.txt" in l for l in installs), installs
