"""Keep the translation catalogues: extract, update, compile (Babel's own commands, per domain).

    python -m app.i18n.catalog update [DOMAIN …]   # pybabel extract + update: new messages into the .po
    python -m app.i18n.catalog derive     # zh_CN from zh_TW (OpenCC + the glossary), reviewed entries kept
    python -m app.i18n.catalog compile    # pybabel compile: .po -> .mo (make run / make test do it)
    python -m app.i18n.catalog check      # every message translated, not fuzzy (what the test checks)

One domain per part of the app, so that a page's messages live next to each other in one
``locale/<locale>/LC_MESSAGES/<domain>.po`` and two people translating two pages never edit one file.
繁體中文 (zh_TW) is translated by hand; 简体中文 (zh_CN) is derived from it (``app/i18n/simplified.py``:
OpenCC tw2sp, then the terms of docs/glossary.md's 简体中文 section) and reviewed entry by entry. The
order after a change of the app's texts: ``update`` (both locales), translate the new zh_TW entries,
``derive``, ``check``.
Messages are whatever ``_(...)`` and ``N_(...)`` mark in the domain's files, plus the core's own
texts that the app shows (variant and task titles, the papers' setups, the presets' texts), which
``app/i18n/registry_texts.py`` reads from the core's registries into the ``core`` and ``experiments``
domains; the core's error templates are extracted from its ``CoreError(...)`` calls.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.extract import extract_from_file
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from app.i18n import registry_texts

ROOT = Path(__file__).resolve().parents[2]
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LOCALES = ("zh_TW", "zh_CN")  # the first is translated by hand, the second derived from it
# CoreError, CoreText: the core's templates (lstm_core/errors.py), extracted from their calls
KEYWORDS = {"_": None, "N_": None, "pgettext": ((1, "c"), 2), "CoreError": None, "CoreText": None}

# domain -> the files and folders (relative to the repository) whose messages it holds
DOMAINS: dict[str, tuple[str, ...]] = {
    "ui": ("app/main.py", "app/serve.py", "app/ui", "app/i18n/__init__.py"),
    "core": ("app/i18n/core_errors.py", "lstm_core"),
    "home": ("pages/home.py",),
    # app/cells: the cells as the Step page first showed them (Train and Gradient flow use them too)
    "step": ("app/step", "app/cells", "pages/step.py"),
    "train": ("app/train", "pages/train.py"),
    "gradient_flow": ("app/gradient_flow", "pages/gradient_flow.py"),
    "theory": ("app/theory", "pages/theory.py"),
    "lessons": ("app/lessons", "pages/lessons.py"),
    "bias_lab": ("app/bias_lab", "pages/bias_lab.py"),
    "bias_atlas": ("app/bias_atlas", "pages/bias_atlas.py"),
    "experiments": ("app/experiments", "pages/experiments.py"),
    "classroom": ("app/classroom",),
}


def files(domain: str) -> list[Path]:
    out: list[Path] = []
    for rel in DOMAINS[domain]:
        path = ROOT / rel
        out += sorted(path.rglob("*.py")) if path.is_dir() else ([path] if path.is_file() else [])
    return out


def extracted(domain: str) -> dict[tuple[str, str | None], list[str]]:
    """(msgid, context) -> where it is used ("file:line"), for every message the domain's files mark."""
    out: dict[tuple[str, str | None], list[str]] = {}
    for path in files(domain):
        for lineno, message, _comments, context in extract_from_file("python", str(path), keywords=KEYWORDS):
            if isinstance(message, str) and message:
                out.setdefault((message, context), []).append(f"{path.relative_to(ROOT)}:{lineno}")
    for text, where in _registry(domain).items():
        out.setdefault((text, None), []).append(where)
    return out


def _registry(domain: str) -> dict[str, str]:
    texts = registry_texts.BY_DOMAIN.get(domain)
    return texts() if texts else {}


def _add_registry_texts(domain: str, pot: Path) -> None:
    """Put the domain's registry texts into the template pybabel extracted from its files."""
    texts = _registry(domain)
    if not texts:
        return
    with pot.open("rb") as f:
        template = read_po(f)
    for text in texts:
        if template.get(text) is None:
            template.add(text)
    with pot.open("wb") as f:
        write_po(f, template, omit_header=False, sort_output=True, no_location=True)


def po_path(domain: str, locale: str = "zh_TW") -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po"


def problems(domain: str, locale: str = "zh_TW") -> list[str]:
    """Messages of ``domain`` without a finished translation in ``locale`` (empty: complete)."""
    po = po_path(domain, locale)
    if not po.is_file():
        return [f"{po.relative_to(ROOT)} is missing"]
    with po.open("rb") as f:
        catalogue = read_po(f, locale=locale)
    out = []
    for (msgid, context), where in extracted(domain).items():
        m = catalogue.get(msgid, context=context)
        if m is None or not m.string:
            out.append(f"untranslated ({where[0]}): {msgid[:80]!r}")
        elif m.fuzzy:
            out.append(f"fuzzy ({where[0]}): {msgid[:80]!r}")
    return out


def _pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def update(only: list[str] | None = None) -> None:
    """New messages into every locale's .po (empty; ``derive`` then fills zh_CN from zh_TW). pybabel
    update keeps translator comments, so zh_CN's derived / reviewed marks survive it."""
    for locale in LOCALES:
        (LOCALE_DIR / locale / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    for domain in only or DOMAINS:
        pot = LOCALE_DIR / f"{domain}.pot"
        paths = [str(p) for p in files(domain)]
        if not paths:
            continue
        _pybabel(
            "extract",
            "--no-default-keywords",
            "-k",
            "_",
            "-k",
            "N_",
            "-k",
            "pgettext:1c,2",
            "-k",
            "CoreError",
            "-k",
            "CoreText",
            "--no-location",
            "--sort-output",
            "--project",
            "Gate Lab",
            "--copyright-holder",
            "Gate Lab",
            "-o",
            str(pot),
            *paths,
        )
        _add_registry_texts(domain, pot)
        for locale in LOCALES:
            po = po_path(domain, locale)
            if po.is_file():
                _pybabel(
                    "update",
                    "-D",
                    domain,
                    "-i",
                    str(pot),
                    "-d",
                    str(LOCALE_DIR),
                    "-l",
                    locale,
                    "--no-fuzzy-matching",
                    "--ignore-obsolete",
                )
            else:
                _pybabel("init", "-D", domain, "-i", str(pot), "-d", str(LOCALE_DIR), "-l", locale)
        pot.unlink()


def derive(only: list[str] | None = None) -> dict[str, dict[str, int]]:
    """zh_CN/<domain>.po from zh_TW/<domain>.po for every domain (``simplified.derive_file``)."""
    from app.i18n import simplified  # needs OpenCC, a development dependency

    out = {}
    for domain in only or DOMAINS:
        source = po_path(domain, simplified.SOURCE)
        if source.is_file():
            out[domain] = simplified.derive_file(source, po_path(domain, simplified.TARGET))
    return out


def compile_all() -> None:
    for domain in DOMAINS:
        for locale in LOCALES:
            if po_path(domain, locale).is_file():
                _pybabel("compile", "-D", domain, "-d", str(LOCALE_DIR), "-l", locale)


def main(argv: list[str] | None = None) -> int:
    cmd = (argv if argv is not None else sys.argv[1:]) or ["check"]
    if cmd[0] in ("update", "derive"):
        unknown = [d for d in cmd[1:] if d not in DOMAINS]
        if unknown:
            print(f"unknown domain(s) {unknown}; the domains are {list(DOMAINS)}", file=sys.stderr)
            return 2
        if cmd[0] == "update":
            update(cmd[1:])
        else:
            for domain, counts in derive(cmd[1:]).items():
                print(f"zh_CN/{domain}: " + ", ".join(f"{n} {what}" for what, n in counts.items() if n))
    elif cmd[0] == "compile":
        compile_all()
    elif cmd[0] == "check":
        missing = {(loc, d): problems(d, loc) for loc in LOCALES for d in DOMAINS}
        for (locale, domain), found in missing.items():
            for line in found:
                print(f"{locale}/{domain}: {line}")
        return 1 if any(missing.values()) else 0
    else:
        print(
            "usage: python -m app.i18n.catalog update [DOMAIN ...] | derive [DOMAIN ...] | compile | check",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
