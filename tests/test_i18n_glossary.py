"""The translations use the notes' terms (docs/glossary.md explains its table): a message whose English
uses a term renders it with the term's one Chinese rendering; no message uses a ruled-out word
(compared without case); every citation of the notes holds the term; 啟發函數 is glossed on every page
that uses it; no space follows full-width punctuation; a translation keeps its {placeholders}.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import translated_messages

ROOT = Path(__file__).resolve().parents[1]


GLOSSARY = ROOT / "docs" / "glossary.md"
# The notes the glossary cites as "file:line" (shared/ lies beside the repository's checkout).
NOTES_DIRS = (ROOT / "shared" / "seeds", ROOT.parent / "shared" / "seeds")
NOTES = {
    "lstm2002": "lstm2002-peephole-timing-notes.md",
    "lstm1997": "lstm1997-hochreiter-schmidhuber-notes.rst",
    "local-feedback-1992": "local-feedback-networks-1992-notes.md",
    "forget-gates": "recurrent-networks-forget-gates-notes.rst",
}


@dataclass(frozen=True)
class Row:
    """One row of the glossary: English | 繁體中文 | not | where."""

    en: str
    zh: str
    nots: tuple[str, ...]
    where: str

    @property
    def also(self) -> list[str]:
        """Other renderings the row allows, each with its reason: "also: A (why); B (why)"."""
        m = re.search(r"also: (.*)$", self.where)
        return [item.split(" (")[0].strip() for item in m.group(1).split(";")] if m else []

    @property
    def citations(self) -> list[tuple[str, int]]:
        return [(f, int(n)) for f, n in re.findall(r"([a-z][a-z0-9-]*):(\d+)", self.where.split("also:")[0])]


def glossary_rows() -> list[Row]:
    """The rows of the glossary's 繁體中文 tables. A section for another language that follows them
    (a heading naming 简体中文 / zh-CN) is not read."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").split("\n"):
        if line.startswith("#") and re.search(r"简体|zh-CN|zh_CN", line):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("English", "---"):
            nots = tuple(w.strip() for w in cells[2].split(",") if w.strip())
            rows.append(Row(cells[0], cells[1], nots, cells[3]))
    return rows


def glossary() -> list[tuple[str, str, list[str]]]:
    return [(r.en, r.zh, list(r.nots)) for r in glossary_rows()]


def translations() -> list[tuple[str, str, str]]:
    return translated_messages("zh_TW")


def test_the_glossary_has_the_notes_terms():
    table = {en: zh for en, zh, _ in glossary()}
    for en, zh in [
        ("memory cell", "記憶單元"),
        ("memory cell block", "記憶單元區塊"),
        ("input gate", "輸入閘門"),
        ("output gate", "輸出閘門"),
        ("forget gate", "遺忘閘門"),
        ("bias", "偏差項"),
        ("internal state", "內部狀態"),
        ("cell state", "記憶單元內部狀態"),
        ("vanishing gradient", "梯度消失"),
        ("exploding gradient", "梯度爆炸"),
        ("time lag", "時間差"),
        ("latching / latch / information latching", "儲存正負號"),
        ("net-input feedback", "淨輸入遞迴"),
        ("activation feedback", "啟發值遞迴"),
    ]:
        assert table.get(en) == zh, (en, table.get(en))


def ruled_out(msgstr: str, rows: list[Row]) -> list[str]:
    """The words of the "not" column in ``msgstr``, compared without case (Peephole 連接 is
    peephole 連接); a ruled-out word inside one of the glossary's own terms is that term (算法 in
    演算法)."""
    text, terms = msgstr.lower(), [r.zh.lower() for r in rows]
    bad = []
    for row in rows:
        for word in (w.lower() for w in row.nots):
            left = functools.reduce(
                lambda t, term, w=word: t.replace(term, "") if w in term else t, terms, text
            )
            if word in left:
                bad.append(f"{word!r} — the glossary says {row.zh} for {row.en}")
    return bad


def test_translations_use_the_glossarys_terms():
    """No word the glossary rules out (e.g. 偏置 for 偏差項), no bare 門 for gate."""
    rows = glossary_rows()
    bad = []
    for domain, _msgid, msgstr in translations():
        bad += [f"{domain}: {why} in {msgstr[:40]!r}" for why in ruled_out(msgstr, rows)]
        if re.search(r"(?<!閘)門(?!檻)", msgstr) and not re.search(r"入門|專門|部門", msgstr):
            bad.append(f"{domain}: a bare 門 in {msgstr[:40]!r} — a gate is 閘門")
    assert not bad, "\n".join(bad[:40])


def test_the_ruled_out_check_ignores_case():
    rows = [Row("peephole connections", "peephole connections", ("peephole 連接",), "—")]
    assert ruled_out("Peephole 連接", rows)
    assert not ruled_out("peephole connections", rows)


# -- one rendering per term ----------------------------------------------------------------------
# A row's English (its parenthesis is a note on the sense) may list forms that share the rendering
# ("latching / latch"), or pairs that the Chinese lists in the same order ("download / upload" |
# "下載 / 上傳"). A form in double quotes is a whole message (a button: "Forward"), matched exactly.
# In a message, where two rows' English overlap the longer wins ("forget gate" over "gate").
# Code is not prose: inline code, equations, placeholders, quoted names ('seeds', "variant") and
# identifiers (np.random.default_rng, networks[{n}].status, algorithm='bptt', .weight).
CODE = re.compile(
    r"`[^`]*`|\$[^$]*\$|%?\{[^{}]*\}|:material/\w+:|'[\w.\[\]=-]+'|\"\w+\"|"
    r"\w*(?:\.\w+|\[[^\]]*\]|=\S*)+"
)


def _forms(cell: str) -> list[str]:
    cell = re.sub(r"\s*\([^()]*\)", "", cell)  # a note on the sense: (a gate), (short for …)
    return [p.strip() for p in re.split(r"\s+/\s+|,\s*", cell) if p.strip() not in ("", "…")]


def glossary_terms(rows: list[Row]) -> list[tuple[str, list[str], Row]]:
    """(English form, the renderings it accepts, row) for every form of every row."""
    out = []
    for row in rows:
        en, zh = _forms(row.en), _forms(row.zh)
        for i, form in enumerate(en):
            accepted = [zh[i]] if len(zh) == len(en) else zh
            out.append((form, accepted + row.also, row))
    return out


def _english(form: str) -> re.Pattern[str]:
    words = [re.escape(w).replace("isation", "i[sz]ation") for w in re.split(r"[\s-]+", form.lower())]
    return re.compile(r"(?<!\w)" + r"[\s-]+".join(words) + r"(?:s|es)?(?!\w)", re.I)


def terms_used(msgid: str, terms: list[tuple[str, list[str], Row]]) -> list[tuple[str, list[str], Row]]:
    """The glossary's English forms in ``msgid``, the longer where two overlap."""
    text = CODE.sub(" ", msgid)
    whole = text.strip()
    spans, exact = [], []
    for k, (form, _accepted, _row) in enumerate(terms):
        if form.startswith('"'):
            if whole == form.strip('"'):
                exact.append(terms[k])
            continue
        spans += [(m.start(), m.end(), k) for m in _english(form).finditer(text)]
    taken: list[tuple[int, int, int]] = []
    for s in sorted(spans, key=lambda s: s[0] - s[1]):
        if all(s[1] <= t[0] or s[0] >= t[1] for t in taken):
            taken.append(s)
    return exact + [terms[k] for k in sorted({k for _a, _b, k in taken})]


def renders(msgstr: str, accepted: list[str]) -> bool:
    text = msgstr.replace("*", "").lower()
    return any(a.lower() in text for a in accepted)


def keeps_the_name(domain: str, form: str, msgstr: str) -> bool:
    """The core's messages name the library's arguments and keys (batch, budget, seed, targets),
    which stay English in both languages: a core message that keeps the word as it is names it."""
    return domain == "core" and _english(form).search(msgstr) is not None


def test_every_term_has_one_rendering():
    """A message whose English uses a glossary term renders it with the row's Chinese (or with a
    rendering the row allows, listed in its "where" after "also:", each with its reason)."""
    terms = glossary_terms(glossary_rows())
    bad = [
        f"{domain}: {form!r} is {accepted[0]} (glossary) — {msgstr[:60]!r} ({msgid[:50]!r})"
        for domain, msgid, msgstr in translations()
        for form, accepted, _row in terms_used(msgid, terms)
        if not renders(msgstr, accepted) and not keeps_the_name(domain, form, msgstr)
    ]
    assert not bad, f"{len(bad)} messages render a glossary term otherwise:\n" + "\n".join(bad)


def test_the_term_check_finds_what_it_should():
    rows = [
        Row("gate", "閘門", (), "—"),
        Row("forget gate", "遺忘閘門", (), "—"),
        Row("cell state", "記憶單元內部狀態", (), "—; also: 內部狀態 (once the cell is named)"),
        Row("download / upload", "下載 / 上傳", (), "—"),
        Row('"Forward" / "Back" (the step buttons)', "下一步 / 上一步", (), "—"),
    ]
    terms = glossary_terms(rows)

    def used(msgid: str) -> list[str]:
        return [form for form, _a, _r in terms_used(msgid, terms)]

    assert used("the forget-gate bias of every gate") == ["gate", "forget gate"]
    assert used("Cell states c(t)") == ["cell state"]
    assert used("Upload a model, then download its traces") == ["download", "upload"]
    assert used("Back") == ['"Back"'] and used("Back to the run") == []
    assert used("the `gate` of {gate}") == []  # code and placeholders are not prose
    assert used("'gate' in networks[{n}].gate, gate=1 and {heads}.gate") == []  # nor names of code
    accepted = dict((f, a) for f, a, _r in terms)
    assert renders("記憶單元的**內部狀態**", accepted["cell state"])
    assert not renders("單元狀態 c(t)", accepted["cell state"])
    assert not renders("上傳", accepted["download"])


def citation_problems(rows: list[Row], lines: dict[str, list[str]]) -> list[str]:
    """The rows' "file:line" citations whose line of the notes does not use the term: its Chinese,
    or its English where the row says the notes keep it in English (markup such as ** and RST's
    "\\ " left out). A line that merely shares a word is the reader's business: 目標 as the paper's
    goal is not 目標 as a target."""
    bad = []
    for row in rows:
        for file, n in row.citations:
            if file not in lines or not 0 < n <= len(lines[file]):
                bad.append(f"{row.en}: no line {file}:{n} (notes: {list(NOTES)})")
                continue
            line = lines[file][n - 1].replace("\\ ", "").replace("**", "").lower()
            forms = _forms(row.zh) + row.also + (_forms(row.en) if "in English" in row.where else [])
            if not any(form.strip('"').lower() in line for form in forms):
                bad.append(f"{row.en} ({row.zh}): {file}:{n} reads {line.strip()[:80]!r}")
    return bad


def test_the_glossarys_citations_hold_the_term():
    notes = next((d for d in NOTES_DIRS if d.is_dir()), None)
    if notes is None:
        pytest.skip("the study notes (shared/seeds/) are not beside this checkout")
    lines = {k: (notes / f).read_text(encoding="utf-8").split("\n") for k, f in NOTES.items()}
    bad = citation_problems(glossary_rows(), lines)
    assert not bad, "glossary citations whose line does not use the term:\n" + "\n".join(bad)
    # the checker on citations this table once had: lines that do not hold the term
    assert citation_problems([Row("abuse problem", "濫用問題", (), "lstm1997:195")], lines)
    assert citation_problems([Row("long time lag", "長時間差", (), "lstm1997:208")], lines)
    assert citation_problems([Row("long time lag", "長時間差", (), "lstm1997:99999")], lines)
    assert not citation_problems([Row("long time lag", "長時間差", (), "lstm1997:2773")], lines)


def test_activation_function_is_glossed_on_every_page():
    """啟發函數 (the notes' word for activation function) reads as "heuristic function" to a
    Taiwanese student: every domain that uses it glosses it once as 啟發函數（activation function）."""
    used = {d for d, _i, s in translations() if "啟發函數" in s}
    glossed = {d for d, _i, s in translations() if "啟發函數（activation function）" in s}
    assert used and used <= glossed, f"domains without the gloss: {sorted(used - glossed)}"


def test_no_space_follows_full_width_punctuation():
    """Full-width punctuation carries its own space: 「。 」 shows a gap in the middle of a line."""
    assert (
        SPACED.search("**全班連結**。 已鎖定")
        and not SPACED.search("已鎖定。下一句 ")
        and not SPACED.search(" 或 ")
    )
    bad = [f"{d}: {m.group(0)!r} in {s[:50]!r}" for d, _i, s in translations() for m in SPACED.finditer(s)]
    assert not bad, "\n".join(bad)


SPACED = re.compile(r"[。：，；、！？] +\S")


def test_translations_keep_their_placeholders():
    bad = [
        f"{d}: {i[:50]!r}"
        for d, i, s in translations()
        if sorted(re.findall(r"\{[^{}]*\}", i)) != sorted(re.findall(r"\{[^{}]*\}", s))
    ]
    assert not bad, "translations that lose or add a {placeholder}:\n" + "\n".join(bad[:40])
