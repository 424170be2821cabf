"""简体中文 (zh_CN) derived from 繁體中文 (zh_TW): OpenCC, then the terms the glossary sets.

    python -m app.i18n.catalog derive      # every domain: zh_TW/<domain>.po -> zh_CN/<domain>.po

A message is converted in three steps (``convert``):

1. the Traditional terms of the glossary's 简体中文 table (docs/glossary.md, section
   ``## 简体中文 (zh-CN)``) are set aside, so OpenCC never sees them: the table decides them
   (遺忘閘門 → 遗忘门, 偏差項 → 偏置, 時間點 → 时间步, and 序列 stays 序列 where OpenCC's Taiwan
   phrase list would make it 串行);
2. OpenCC ``tw2sp`` converts the rest: Traditional (Taiwan) to Simplified with mainland phrases
   (檔案 → 文件, 設定 → 设置, 程式 → 程序, 滑鼠 → 鼠标, 伺服器 → 服务器, …);
3. the table's terms go back in, then the rules OpenCC cannot know (``RULES``): Taiwan's 列 is a
   row and 欄 a column, the mainland's 行 and 列; the mainland's quotation marks “ ” for 「 」.

Derived and reviewed entries. Every zh_CN entry carries the zh_TW text it was made from as a
translator comment ``zh_TW: <digest>``; a derived entry also ``derived: <digest of the msgstr
derivation wrote>``. ``derive`` re-derives an entry only while it is derived (that comment there
and its msgstr still what derivation wrote), so a rule added to the glossary reaches every derived
entry. A person who reviews an entry deletes its ``derived`` line (or just edits the msgstr: the
digest then no longer matches); from then on ``derive`` keeps the entry as it is, and if its zh_TW
text changes it flags it fuzzy (``catalog check`` reports it) and records the new zh_TW digest, so
removing the fuzzy flag after a look is the whole review.
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
SECTION = "## 简体中文 (zh-CN)"
SOURCE, TARGET = "zh_TW", "zh_CN"
LOCALE = "zh_Hans_CN"  # the catalogue's Language header (as Babel spells zh_CN)
SRC = "zh_TW: "  # translator comment: digest of the zh_TW msgstr the entry was made from
DERIVED = "derived: "  # translator comment: digest of the msgstr derivation wrote (delete = reviewed)
_PRIVATE = 0xE000  # placeholders for the table's terms while OpenCC runs (Unicode private use area)


@dataclass(frozen=True)
class Term:
    english: str
    simplified: str
    traditional: tuple[str, ...]  # the zh_TW words it replaces ("" for none: OpenCC's own result)
    nots: tuple[str, ...]  # words a zh_CN message must not use for it
    source: str  # where the term comes from; "also: A (why); B (why)": other renderings it allows
    table: str = ""  # the ### heading of its table

    @property
    def also(self) -> tuple[str, ...]:
        m = re.search(r"also: (.*)$", self.source)
        return tuple(item.split(" (")[0].strip() for item in m.group(1).split(";")) if m else ()

    @property
    def checked(self) -> bool:
        """Does every message whose English has the term have to use it? (the tables of terms;
        the interface words' table only rules words out)"""
        return not self.table.startswith("Interface")


def _split(cell: str) -> tuple[str, ...]:
    return tuple(w.strip() for w in cell.split(",") if w.strip() and w.strip() not in ("—", "-"))


def terms(text: str | None = None) -> list[Term]:
    """The rows of the glossary's 简体中文 table (English | 简体中文 | 繁體中文 | not | source)."""
    text = GLOSSARY.read_text(encoding="utf-8") if text is None else text
    _, found, section = text.partition(SECTION)
    if not found:
        raise ValueError(f"{GLOSSARY} has no section {SECTION!r}")
    out, table = [], ""
    for line in section.split("\n"):
        if line.startswith("## "):
            break
        if line.startswith("### "):
            table = line[4:].strip()
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in ("English", "---") and not cells[0].startswith("-"):
            out.append(Term(cells[0], cells[1], _split(cells[2]), _split(cells[3]), cells[4], table))
    return out


@functools.cache
def _opencc(config: str):
    import opencc  # a development dependency (requirements-dev.txt), not the app's

    return opencc.OpenCC(config)


def _quotes(text: str, msgid: str) -> str:
    return text.translate(str.maketrans("「」『』", "“”‘’"))


# Taiwan writes a row 列 and a column 行 or 欄; the mainland a row 行 and a column 列. Which one a
# message means is in its English: where it speaks of rows (or a table's lines), its 列 is a row.
_ROW = re.compile(r"\b(rows?|lines?)\b", re.I)
_COLUMN = re.compile(r"\bcolumns?\b", re.I)
_LIE = re.compile(r"(?<![序排并下系阵队数行])列(?![表出印举])")  # 列 alone, not 序列, 列表, …
_LAN = re.compile(r"(?<![边左右])栏")  # 欄 alone, not 侧边栏 / 左栏 / 右栏 (a page's columns)


def _rows_and_columns(text: str, msgid: str) -> str:
    if _ROW.search(msgid):
        text = _LIE.sub("行", text)
    if _COLUMN.search(msgid):
        text = _LAN.sub("列", text)
    return text


# (name, function(text, msgid) -> text): applied after OpenCC, in this order
RULES = (("rows and columns", _rows_and_columns), ("quotation marks", _quotes))


@functools.cache
def _pattern(table: tuple[Term, ...]) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    replace: dict[str, str] = {}
    for term in table:
        for word in term.traditional:
            replace.setdefault(word, term.simplified)
    if not replace:
        return None, replace
    words = sorted(replace, key=len, reverse=True)  # longest first: 遺忘閘門 before 閘門
    return re.compile("|".join(map(re.escape, words))), replace


def convert(text: str, msgid: str = "", table: Iterable[Term] | None = None) -> str:
    """``text`` (a zh_TW msgstr) in 简体中文; ``msgid`` is its English (for the rules that need it)."""
    if not text:
        return text
    pattern, replace = _pattern(tuple(terms() if table is None else table))
    kept: list[str] = []

    def park(m: re.Match[str]) -> str:
        kept.append(replace[m.group()])
        return chr(_PRIVATE + len(kept) - 1)

    parked = pattern.sub(park, text) if pattern else text
    out = _opencc("tw2sp").convert(parked)
    out = re.sub("[\ue000-\uf8ff]", lambda m: kept[ord(m.group()) - _PRIVATE], out)
    for _name, rule in RULES:
        out = rule(out, msgid)
    return out


def digest(string: str | tuple[str, ...]) -> str:
    joined = "\0".join(string) if isinstance(string, tuple) else string
    return hashlib.sha1(joined.encode("utf-8")).hexdigest()[:12]


def _comment(message: Message, prefix: str) -> str | None:
    return next((c[len(prefix) :].strip() for c in message.user_comments if c.startswith(prefix)), None)


def _others(message: Message | None) -> list[str]:
    """A message's translator comments other than the two this module keeps."""
    if message is None:
        return []
    return [c for c in message.user_comments if not c.startswith((SRC, DERIVED))]


def is_derived(message: Message) -> bool:
    """Still what derivation wrote: the ``derived`` comment there and matching the msgstr."""
    mark = _comment(message, DERIVED)
    return mark is not None and bool(message.string) and mark == digest(message.string)


def _derived_string(source: Message, table: tuple[Term, ...]) -> str | tuple[str, ...]:
    msgid = source.id if isinstance(source.id, str) else " ".join(source.id)
    if isinstance(source.string, tuple):
        return tuple(convert(s, msgid, table) for s in source.string)
    return convert(source.string, msgid, table)


def derive_catalog(
    source: Catalog, target: Catalog | None, table: Iterable[Term] | None = None
) -> tuple[Catalog, dict[str, int]]:
    """The zh_CN catalogue for zh_TW ``source``, keeping what a person reviewed in ``target``.

    Returns it and counts: derived (new or re-derived), reviewed (kept), fuzzy (reviewed entries
    whose zh_TW text changed since), empty (no zh_TW text to derive from)."""
    table = tuple(terms() if table is None else table)
    out = Catalog(
        locale=Locale.parse(LOCALE),
        domain=source.domain,
        header_comment=(target or source).header_comment.replace(
            "Chinese (Traditional, Taiwan)", "Chinese (Simplified, China)"
        ),
        project=source.project,
        version=source.version,
        copyright_holder=source.copyright_holder,
        msgid_bugs_address=source.msgid_bugs_address,
        creation_date=source.creation_date,
        revision_date=(target.revision_date if target is not None else datetime.now(UTC)),
        last_translator=source.last_translator,
        language_team=f"{LOCALE} <LL@li.org>",
        fuzzy=False,
    )
    counts = dict.fromkeys(("derived", "reviewed", "fuzzy", "empty"), 0)
    for m in source:
        if not m.id:
            continue
        old = target.get(m.id, context=m.context) if target is not None else None
        flags = {f for f in m.flags if f != "fuzzy"}
        src = digest(m.string) if m.string else None
        reviewed = old is not None and bool(old.string) and not is_derived(old)
        if reviewed:
            string = old.string
            seen = _comment(old, SRC)
            fuzzy = "fuzzy" in old.flags or (seen is not None and src is not None and seen != src)
            comments = _others(old) + ([SRC + (src or seen or "")] if (src or seen) else [])
            counts["fuzzy" if fuzzy else "reviewed"] += 1
        elif m.string:
            string = _derived_string(m, table)
            fuzzy = m.fuzzy  # a zh_TW draft stays a draft
            comments = [*_others(old), SRC + src, DERIVED + digest(string)]
            counts["derived"] += 1
        else:
            string = tuple("" for _ in m.id) if isinstance(m.id, tuple) else ""
            fuzzy, comments = False, _others(old)
            counts["empty"] += 1
        out.add(
            m.id,
            string,
            flags=flags | ({"fuzzy"} if fuzzy else set()),
            auto_comments=m.auto_comments,
            user_comments=comments,
            context=m.context,
        )
    return out, counts


def derive_file(source_po: Path, target_po: Path, table: Iterable[Term] | None = None) -> dict[str, int]:
    """Derive ``target_po`` (zh_CN) from ``source_po`` (zh_TW); rewritten only if it changes."""
    with source_po.open("rb") as f:
        source = read_po(f, locale=SOURCE, domain=source_po.stem)
    target = None
    if target_po.is_file():
        with target_po.open("rb") as f:
            target = read_po(f, locale=TARGET, domain=target_po.stem)
    catalogue, counts = derive_catalog(source, target, table)
    buf = io.BytesIO()
    write_po(buf, catalogue, omit_header=False, no_location=True, ignore_obsolete=True, width=76)
    new = buf.getvalue()
    if not target_po.is_file() or target_po.read_bytes() != new:
        target_po.parent.mkdir(parents=True, exist_ok=True)
        target_po.write_bytes(new)
    return counts


# --- which characters belong to one script only (the catalogues' script checks) ---------------


def _dictionary(name: str) -> dict[str, list[str]]:
    """One of OpenCC's dictionaries (``STCharacters``: Simplified -> Traditional candidates, …),
    dumped to text with the opencc_dict tool its wheel ships."""
    import opencc

    base = Path(opencc.__file__).resolve().parent / "clib"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{name}.txt"
        subprocess.run(
            [str(base / "bin" / "opencc_dict"), "-i", str(base / "share" / "opencc" / f"{name}.ocd2")]
            + ["-o", str(out), "-f", "ocd2", "-t", "text"],
            check=True,
            capture_output=True,
        )
        pairs = (line.split("\t") for line in out.read_text(encoding="utf-8").splitlines() if line)
        return {key: value.split(" ") for key, value in pairs}


@functools.cache
def traditional_only() -> frozenset[str]:
    """Characters OpenCC always simplifies: a key of its Traditional -> Simplified character table
    that is not among its own Simplified forms (體 -> 体; but 著 -> 着 / 著, 乾 -> 干 / 乾 stay valid)."""
    table = _dictionary("TSCharacters")
    return frozenset(k for k, forms in table.items() if len(k) == 1 and k not in forms)


@functools.cache
def simplified_only() -> frozenset[str]:
    """Characters with no Taiwan Traditional use: a key of OpenCC's Simplified -> Traditional table
    none of whose Traditional forms, written the Taiwan way (TWVariants: 羣 -> 群), is itself
    (体 -> 體; but 台 -> 臺 / 台, 群 -> 羣 = 群 in Taiwan stay valid)."""
    table, taiwan = _dictionary("STCharacters"), _dictionary("TWVariants")
    return frozenset(
        k for k, forms in table.items() if len(k) == 1 and k not in {taiwan.get(f, [f])[0] for f in forms}
    )


def script_slips(text: str, script: str) -> list[str]:
    """The characters of ``text`` that belong to the other script only ("zh_TW": Simplified-only
    characters; "zh_CN": Traditional-only ones)."""
    other = simplified_only() if script == SOURCE else traditional_only()
    return sorted({c for c in text if c in other})
