"""简体中文 (zh-CN): derived from 繁體中文, complete, in its own script, in the glossary's terms.

The zh_CN catalogues are made by ``python -m app.i18n.catalog derive`` (app/i18n/simplified.py:
OpenCC tw2sp plus the terms of docs/glossary.md's 简体中文 section). Checked here: every message
translated and not fuzzy; the committed catalogues are what ``derive`` writes now (it was run after
the last change of zh_TW or the glossary); no Simplified-only character in zh_TW and no
Traditional-only one in zh_CN; re-deriving keeps what a person reviewed; a browser's locale picks
the right Chinese; ``?lang=zh-CN`` reads in Simplified on every page; the glossary's terms are the
ones used. Every checker is also run on a made-up violation, which it must report.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from i18n_measure import chinese_share
from test_i18n_pages import ZH_GOAL, open_in, visible_text

from app import i18n
from app.i18n import catalog, simplified
from app.ui.routes import PAGES

ROOT = Path(__file__).resolve().parents[1]
NOTE = "rnn-lstm-forward-backward-notes.md"  # the study note written in Simplified Chinese
NOTE_PATHS = (ROOT / "shared" / "seeds" / NOTE, ROOT.parent / "shared" / "seeds" / NOTE)
# Characters a script check lets through although OpenCC's tables give them to one script only.
# None is needed: the checks count a character as one script's only when OpenCC has no use of it
# in the other (著 → 着 / 著, 台 → 臺 / 台, and Taiwan's 群 for OpenCC's 羣 stay valid in both).
ALLOWED: dict[str, str] = {}


def _read(locale: str, domain: str) -> Catalog:
    with catalog.po_path(domain, locale).open("rb") as f:
        return read_po(f, locale=locale, domain=domain)


def _text(string: str | tuple[str, ...]) -> str:
    return " ".join(string) if isinstance(string, tuple) else string


def messages(locale: str) -> list[tuple[str, str, str]]:
    """(domain, msgid, msgstr) of every translated message of ``locale``."""
    return [
        (domain, _text(m.id), _text(m.string))
        for domain in catalog.DOMAINS
        if catalog.po_path(domain, locale).is_file()
        for m in _read(locale, domain)
        if m.id and m.string
    ]


# --- complete, and what derive writes ------------------------------------------------------------


@pytest.mark.parametrize("domain", list(catalog.DOMAINS))
def test_the_zh_cn_catalogue_is_complete(domain):
    """Every message the domain's code marks has a finished (non-fuzzy) zh-CN translation."""
    found = catalog.problems(domain, "zh_CN")
    assert not found, f"{len(found)} messages of '{domain}' lack a zh-CN translation:\n" + "\n".join(
        found[:40]
    )


def stale(domain: str, tw: Catalog, cn: Catalog) -> list[str]:
    """Entries of ``cn`` that ``derive`` would change."""
    derived, _counts = simplified.derive_catalog(tw, cn)
    out = []
    for m in derived:
        old = cn.get(m.id, context=m.context) if m.id else None
        if m.id and (old is None or old.string != m.string or old.fuzzy != m.fuzzy):
            out.append(f"{domain}: {_text(m.id)[:60]!r}")
    return out


def test_zh_cn_is_what_derive_writes_from_the_current_zh_tw():
    """Nothing left to derive: a zh_TW text or a glossary term changed since would show here."""
    found = [line for d in catalog.DOMAINS for line in stale(d, _read("zh_TW", d), _read("zh_CN", d))]
    assert not found, "run `python -m app.i18n.catalog derive`:\n" + "\n".join(found[:40])


def test_the_completeness_and_staleness_checks_find_a_made_up_gap(tmp_path, monkeypatch):
    tw, cn = _read("zh_TW", "home"), _read("zh_CN", "home")
    first = next(m for m in cn if m.id)
    tw.get(first.id).string = "改過的"  # zh_TW changed, derive not run since
    assert stale("home", tw, cn) == [f"home: {first.id[:60]!r}"]
    cn.delete(first.id)
    _write(cn, tmp_path / "zh_CN" / "LC_MESSAGES" / "home.po")
    monkeypatch.setattr(catalog, "LOCALE_DIR", tmp_path)
    assert [p.split(" (")[0] for p in catalog.problems("home", "zh_CN")] == ["untranslated"]


def test_the_catalogues_say_they_are_simplified_chinese():
    for domain in catalog.DOMAINS:
        cn = _read("zh_CN", domain)
        assert str(cn.locale) == "zh_Hans_CN" and cn.num_plurals == 1, domain


# --- the script of each catalogue --------------------------------------------------------------


def script_problems(found: list[tuple[str, str, str]], locale: str) -> list[str]:
    """Messages of ``locale`` with a character of the other script only."""
    out = []
    for domain, msgid, msgstr in found:
        slips = [c for c in simplified.script_slips(msgstr, locale) if c not in ALLOWED]
        if slips:
            out.append(f"{domain}: {''.join(slips)} in {msgstr[:50]!r} ({msgid[:40]!r})")
    return out


def test_no_simplified_only_character_in_zh_tw():
    found = script_problems(messages("zh_TW"), "zh_TW")
    assert not found, "Simplified-only characters in 繁體中文:\n" + "\n".join(found[:40])


def test_no_traditional_only_character_in_zh_cn():
    found = script_problems(messages("zh_CN"), "zh_CN")
    assert not found, "Traditional-only characters in 简体中文:\n" + "\n".join(found[:40])


def test_the_script_checks_find_a_made_up_slip():
    made_up_tw = [("ui", "Forget gate", "遺忘闸門")]  # 闸: Simplified only
    made_up_cn = [("ui", "Forget gate", "遗忘閘门")]  # 閘: Traditional only
    assert script_problems(made_up_tw, "zh_TW") == ["ui: 闸 in '遺忘闸門' ('Forget gate')"]
    assert script_problems(made_up_cn, "zh_CN") == ["ui: 閘 in '遗忘閘门' ('Forget gate')"]
    # characters both scripts use are no slip: Taiwan's 台 and 群, the mainland's 著名 and 乾坤
    assert script_problems([("ui", "x", "台灣的群峰")], "zh_TW") == []
    assert script_problems([("ui", "x", "著名的乾坤")], "zh_CN") == []
    for allowed, reason in ALLOWED.items():
        assert len(allowed) == 1 and reason, allowed


# --- derivation ----------------------------------------------------------------------------------


def test_the_derivation_uses_the_glossary_and_the_rules():
    convert = simplified.convert
    assert convert("遺忘閘門的偏差項") == "遗忘门的偏置"
    assert convert("每個時間點的序列") == "每个时间步的序列"  # OpenCC alone: 时间点, 串行
    assert convert("梯度裁剪與啟發函數") == "梯度剪裁与激活函数"
    assert convert("「重設為論文預設值」") == "“重置为论文默认值”"
    assert convert("檔案、設定、程式、伺服器") == "文件、设置、程序、服务器"  # OpenCC's own
    # Taiwan's row 列 / column 欄 are the mainland's 行 / 列 (decided by the English)
    assert convert("第 {row} 列：序列", "row {row}: sequence") == "第 {row} 行：序列"
    assert convert("第 {line} 行，第 {column} 欄", "line {line}, column {column}") == (
        "第 {line} 行，第 {column} 列"
    )
    assert convert("並列比較", "side by side") == "并列比较"


def _catalogue(entries: dict[str, str], locale: str = "zh_TW") -> Catalog:
    cat = Catalog(locale=locale, domain="ui")
    for msgid, msgstr in entries.items():
        cat.add(msgid, msgstr, flags={"python-brace-format"} if "{" in msgid else ())
    return cat


def _write(cat: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, cat, no_location=True, width=76)


def _load(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale="zh_CN", domain="ui")


def test_rederiving_keeps_a_reviewed_entry(tmp_path):
    """On a temporary zh_TW / zh_CN pair (the tracked catalogues are never written by a test)."""
    tw_po, cn_po = tmp_path / "zh_TW" / "ui.po", tmp_path / "zh_CN" / "ui.po"
    _write(
        _catalogue(
            {
                "Forget gate": "遺忘閘門",
                "Input gate": "輸入閘門",
                "Output gate": "輸出閘門",
                "Gone": "消失",
                "Seed {n}": "隨機種子 {n}",
            }
        ),
        tw_po,
    )
    assert simplified.derive_file(tw_po, cn_po)["derived"] == 5
    cn = _load(cn_po)
    assert cn.get("Forget gate").string == "遗忘门" and all(simplified.is_derived(m) for m in cn if m.id)

    # a person reviews two entries: one deletes the derived line, one only edits the msgstr
    text = cn_po.read_text(encoding="utf-8")
    blocks = text.split("\n\n")
    for i, block in enumerate(blocks):
        if 'msgid "Input gate"' in block:
            blocks[i] = "\n".join(line for line in block.split("\n") if not line.startswith("# derived:"))
            blocks[i] = blocks[i].replace('msgstr "输入门"', 'msgstr "输入门（审校）"')
        if 'msgid "Output gate"' in block:
            blocks[i] = block.replace('msgstr "输出门"', 'msgstr "输出门（审校）"')
    cn_po.write_text("\n\n".join(blocks), encoding="utf-8")

    # pybabel update (Catalog.update) in between keeps the marks
    template = _catalogue(dict.fromkeys(["Forget gate", "Input gate", "Output gate", "Seed {n}", "New"], ""))
    cn = _load(cn_po)
    cn.update(template, no_fuzzy_matching=True)
    _write(cn, cn_po)

    # zh_TW changes: a derived entry's text, both reviewed entries' texts; one message is new
    _write(
        _catalogue(
            {
                "Forget gate": "遺忘閘門（新）",
                "Input gate": "輸入閘門（新）",
                "Output gate": "輸出閘門（新）",
                "Seed {n}": "隨機種子 {n}",
                "New": "新的網路",
            }
        ),
        tw_po,
    )
    counts = simplified.derive_file(tw_po, cn_po)
    cn = _load(cn_po)
    assert cn.get("Forget gate").string == "遗忘门（新）" and simplified.is_derived(cn.get("Forget gate"))
    assert cn.get("New").string == "新的网络" and simplified.is_derived(cn.get("New"))
    for msgid, kept in (("Input gate", "输入门（审校）"), ("Output gate", "输出门（审校）")):
        m = cn.get(msgid)
        assert m.string == kept and not simplified.is_derived(m) and m.fuzzy, msgid
    assert cn.get("Gone") is None and counts == {"derived": 3, "reviewed": 0, "fuzzy": 2, "empty": 0}

    # the reviewer looks again and removes the flags: the next derivation keeps them as they are
    _write(cn, cn_po)
    text = cn_po.read_text(encoding="utf-8").replace("#, fuzzy\n", "")
    cn_po.write_text(text, encoding="utf-8")
    assert simplified.derive_file(tw_po, cn_po) == {"derived": 3, "reviewed": 2, "fuzzy": 0, "empty": 0}
    assert not any(m.fuzzy for m in _load(cn_po))
    before = cn_po.read_bytes()
    simplified.derive_file(tw_po, cn_po)
    assert cn_po.read_bytes() == before  # nothing to do: the file is left as it is

    # a term changed in the glossary reaches the derived entries, not the reviewed ones
    table = [simplified.Term("gate", "闸", ("閘門",), (), "test")]
    simplified.derive_file(tw_po, cn_po, table)
    cn = _load(cn_po)
    assert cn.get("Forget gate").string == "遗忘闸（新）"
    assert cn.get("Input gate").string == "输入门（审校）"


def test_catalog_update_and_check_cover_both_locales():
    assert catalog.LOCALES == ("zh_TW", "zh_CN")
    assert i18n._GETTEXT["zh-CN"] == "zh_CN"


# --- choosing the language -------------------------------------------------------------------


@pytest.mark.parametrize(
    "locale, lang",
    [
        ("zh-CN", "zh-CN"),
        ("zh-SG", "zh-CN"),
        ("zh-MY", "zh-CN"),
        ("zh-Hans", "zh-CN"),
        ("zh-Hans-CN", "zh-CN"),
        ("zh-Hans-HK", "zh-CN"),  # the script decides before the region
        ("zh_CN", "zh-CN"),
        ("zh", "zh-CN"),  # a bare "zh": CLDR's likely script (from_browser's docstring)
        ("zh-TW", "zh-TW"),
        ("zh-HK", "zh-TW"),
        ("zh-MO", "zh-TW"),
        ("zh-Hant", "zh-TW"),
        ("zh-Hant-CN", "zh-TW"),
        ("zh-hant-tw", "zh-TW"),
        ("en-GB", "en"),
        ("ja", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_the_browsers_locale_picks_the_chinese(locale, lang):
    assert i18n.from_browser(locale) == lang


def test_a_zh_cn_link_reads_in_simplified():
    home = PAGES[0]
    at = open_in(home, "zh-CN")
    assert at.session_state["gatelab.lang"] == "zh-CN"
    assert at.query_params.get("lang") in ("zh-CN", ["zh-CN"])
    expected = i18n.translate_in("zh-CN", "A first lesson, in six steps")
    assert expected == "第一堂课，分成六步" != i18n.translate_in("zh-TW", "A first lesson, in six steps")
    assert expected in [s.value for s in at.subheader]


def test_the_switch_offers_three_languages_and_the_link_keeps_the_choice():
    step = next(r for r in PAGES if r.url_path == "step")
    at = open_in(step, "en")
    radio = at.radio(key=i18n.SWITCH_KEY)
    assert radio.options == ["English", "繁體中文", "简体中文"]
    assert "?lang=zh-CN" in radio.help
    radio.set_value("zh-CN").run()
    assert not at.exception
    assert at.session_state["gatelab.lang"] == "zh-CN"
    assert at.query_params["lang"] in ("zh-CN", ["zh-CN"])
    assert chinese_share(visible_text(at))[0] >= ZH_GOAL


def _traditional_slips(text: str) -> list[str]:
    # the switch names every language in its own script (its label: "Language · 語言")
    for own in ("繁體中文", "語言"):
        text = text.replace(own, "")
    return simplified.script_slips(text, "zh_CN")


def test_the_page_check_finds_a_made_up_traditional_character():
    assert _traditional_slips("Language · 語言 English 繁體中文 简体中文 遗忘閘门") == ["閘"]


@pytest.mark.parametrize("route", PAGES, ids=[r.url_path for r in PAGES])
def test_every_page_reads_in_simplified_with_lang_zh_cn(route):
    at = open_in(route, "zh-CN")
    text = visible_text(at)
    share, zh, en = chinese_share(text)
    assert share >= ZH_GOAL, f"{route.url_path}: {share:.0%} Chinese ({zh} Chinese words, {en} English)"
    assert not _traditional_slips(text), (
        f"{route.url_path}: Traditional characters {_traditional_slips(text)}"
    )


# --- the glossary's terms --------------------------------------------------------------------------


def _prose(msgid: str) -> str:
    """The English a reader reads: placeholders, code, quoted identifiers and the app's name left out."""
    return re.sub(r"\{[^{}]*\}|`[^`]*`|'[^']*'|\"[^\"]*\"|\bGate Lab\b", " ", msgid)


def glossary_problems(found: list[tuple[str, str, str]], table: list[simplified.Term]) -> list[str]:
    """A word a row rules out, anywhere; and for the tables of terms, a message whose English has
    the term without its 简体中文 rendering (or one the row allows, "also: …")."""
    out = []
    for term in table:
        english = re.sub(r"\s*\(.*?\)", "", term.english)  # "cell (…)": the word, not the note
        # the word, not part of an identifier (bias_ih, networks[0], Two-sequence)
        pattern = re.compile(rf"(?<![\w\-.\[]){re.escape(english)}(?:s|es)?(?![\w\-.\[=(])", re.I)
        for domain, msgid, msgstr in found:
            out += [
                f"{domain}: {w!r} in {msgstr[:40]!r} — {term.simplified} for {term.english}"
                for w in term.nots
                if w in msgstr
            ]
            rendered = any(word in msgstr for word in (term.simplified, *term.also))
            # a title kept in English keeps its English words ("Local feedback multilayered networks")
            kept = pattern.search(msgstr)
            if term.checked and pattern.search(_prose(msgid)) and not (rendered or kept):
                out.append(
                    f"{domain}: {msgid[:40]!r} has {term.english!r}, {msgstr[:40]!r} not {term.simplified}"
                )
    return out


def test_zh_cn_uses_the_glossarys_terms():
    table = simplified.terms()
    assert {(t.english, t.simplified) for t in table if t.checked} >= {
        "forget gate": "遗忘门",
        "input gate": "输入门",
        "output gate": "输出门",
        "gradient clipping": "梯度剪裁",
        "vanishing gradient": "梯度消失",
        "bias": "偏置",
        "memory cell": "记忆单元",
        "activation function": "激活函数",
        "network": "网络",
    }.items()
    found = glossary_problems(messages("zh_CN"), table)
    assert not found, "\n".join(found[:40])


def test_the_glossary_check_finds_a_made_up_violation():
    table = simplified.terms()
    made_up = [("ui", "Forget gate bias", "遗忘闸门偏置"), ("ui", "the {gate} of bias_ih", "{gate}")]
    found = glossary_problems(made_up, table)
    assert any("'遗忘闸门'" in f for f in found)  # a ruled-out word
    assert any("has 'forget gate'" in f for f in found)  # the term missing
    assert not [f for f in found if "bias_ih" in f]  # an identifier is no use of the term


def test_the_glossary_cites_the_simplified_note():
    """Each "rnn-lstm:N" of the 简体中文 table is a line of the note with the term (or the word the
    row names in parentheses)."""
    note = next((p for p in NOTE_PATHS if p.is_file()), None)
    if note is None:
        pytest.skip(f"{NOTE} is not beside the checkout")
    lines = note.read_text(encoding="utf-8").split("\n")
    cited = 0
    for term in simplified.terms():
        words = {term.simplified, *re.findall(r"[\u4e00-\u9fff]+", term.source.split("also:")[0])}
        for n in re.findall(r"rnn-lstm:(\d+)", term.source):
            cited += 1
            assert any(w in lines[int(n) - 1] for w in words), (
                f"{term.english}: rnn-lstm:{n} {lines[int(n) - 1]!r}"
            )
    assert cited >= 20
