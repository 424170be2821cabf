"""README.zh-TW.md is README.md in Traditional Chinese (Taiwan), kept in step with it.

Checked against README.md: (1) the same headings, level by level, in the same order; (2) the same
fenced code blocks, byte for byte, in the same order; (3) the same link targets (markdown links,
images, autolinks and bare URLs), except the two READMEs' links to each other and the screenshot the
Chinese README shows in place of the English one (LOCALISED). In README.zh-TW.md itself: (4) no
Simplified character (OpenCC, skipped without it); (5) no word the glossary rules out
(docs/glossary.md's "not" column) and no mainland word (MAINLAND); (6) full-width punctuation
next to Chinese text. Each checker is also run on a made-up violation, so a check that stops
seeing anything fails too.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_ZH = ROOT / "README.zh-TW.md"

# the language cross-links between the two READMEs: not part of the comparison
CROSS_LINKS = {"README.md", "README.zh-TW.md"}
# English target -> the Chinese README's own (the same page with the Chinese interface; the e2e run
# tests/e2e/test_i18n_browser.py refreshes it)
LOCALISED = {"docs/screenshots/home-headline.png": "docs/screenshots/zh-home.png"}
# mainland words with a different Taiwanese word (the glossary's "not" column adds its own)
MAINLAND = {
    "設置": "設定",
    "點擊": "按 / 點選",
    "當前": "目前",
    "查找": "尋找 / 搜尋",
    "列表": "清單",
    "默認": "預設",
    "支持": "支援",
    "服務器": "伺服器",
    "軟件": "軟體",
    "硬件": "硬體",
    "屏幕": "螢幕",
    "鼠標": "滑鼠",
    "內存": "記憶體",
    "緩存": "快取",
    "進程": "行程",
    "線程": "執行緒",
    "代碼": "程式碼",
    "運行": "執行",
    "菜單": "選單",
    "窗口": "視窗",
    "用戶": "使用者",
    "視頻": "影片",
    "文檔": "說明",
    "接口": "介面",
    "端口": "連接埠",
    "創建": "建立",
    "激活": "啟用",
    "兼容": "相容",
    "調試": "除錯",
}
# everyday Taiwanese forms OpenCC writes otherwise (it writes 臺 for 台灣, 一台)
TAIWAN_FORMS = {"台"}

HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# ---- parsing -------------------------------------------------------------------------------------


def split_fences(text: str) -> tuple[list[str], list[str]]:
    """(prose lines, fenced code blocks): each block is its lines, fences included, as written."""
    prose: list[str] = []
    blocks: list[str] = []
    block: list[str] | None = None
    opener = ""
    for line in text.split("\n"):
        if block is None:
            m = FENCE.match(line)
            if m:
                block, opener = [line], m.group(1)
            else:
                prose.append(line)
            continue
        block.append(line)
        m = FENCE.match(line)
        if (
            m
            and m.group(1)[0] == opener[0]
            and len(m.group(1)) >= len(opener)
            and not line[m.end() :].strip()
        ):
            blocks.append("\n".join(block))
            block = None
    if block is not None:  # an unclosed fence runs to the end of the document
        blocks.append("\n".join(block))
    return prose, blocks


def headings(text: str) -> list[tuple[int, str]]:
    """(level, text) of every ATX (``## x``) and setext (``x`` over ``===`` / ``---``) heading."""
    out: list[tuple[int, str]] = []
    prose, _ = split_fences(text)
    previous = ""
    for line in prose:
        atx = re.match(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$", line)
        setext = re.match(r"^ {0,3}(=+|-+)[ \t]*$", line)
        if atx:
            out.append((len(atx.group(1)), (atx.group(2) or "").strip()))
        elif setext and previous.strip() and not re.match(r"^ {0,3}([-*+]\s|\d+[.)]\s|#|\||>)", previous):
            out.append((1 if setext.group(1)[0] == "=" else 2, previous.strip()))
        previous = line
    return out


def strip_inline_code(line: str) -> str:
    return re.sub(r"(`+)(.+?)\1", "", line)


MD_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?")
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
BARE_URL = re.compile(r"(?:https?|ftp)://[!-~]+")


def link_targets(text: str) -> set[str]:
    """Every target: markdown links and images, reference definitions, autolinks, bare URLs (not in code)."""
    targets: set[str] = set()
    prose, _ = split_fences(text)
    for line in prose:
        line = strip_inline_code(line)
        for pattern in (MD_LINK, REF_DEF, AUTOLINK):
            targets.update(m.group(1) for m in pattern.finditer(line))
            line = pattern.sub(" ", line)
        for m in BARE_URL.finditer(line):
            url = m.group(0)
            while url and (url[-1] in ".,;:!?'\"*_" or (url[-1] == ")" and url.count("(") < url.count(")"))):
                url = url[:-1]
            targets.add(url)
    return targets


def compared_targets(text: str, *, chinese: bool) -> set[str]:
    back = {zh: en for en, zh in LOCALISED.items()}
    out = set()
    for target in link_targets(text):
        if target.split("#")[0] in CROSS_LINKS:
            continue
        out.add(back.get(target, target) if chinese else target)
    return out


# ---- the checkers: each returns what is wrong, or "" -------------------------------------------


def heading_problem(en: str, zh: str) -> str:
    a, b = headings(en), headings(zh)
    if [lvl for lvl, _ in a] == [lvl for lvl, _ in b]:
        return ""
    pairs = [
        f"{'#' * la if la else '-'} {ta!r:30} | {'#' * lb if lb else '-'} {tb!r}"
        for (la, ta), (lb, tb) in _zip_longest(a, b)
    ]
    return "the headings differ (README.md | README.zh-TW.md):\n" + "\n".join(pairs)


def _zip_longest(a: list[tuple[int, str]], b: list[tuple[int, str]]):
    n = max(len(a), len(b))
    pad: tuple[int, str] = (0, "")
    return zip(a + [pad] * (n - len(a)), b + [pad] * (n - len(b)), strict=True)


def code_problem(en: str, zh: str) -> str:
    a, b = split_fences(en)[1], split_fences(zh)[1]
    if a == b:
        return ""
    if len(a) != len(b):
        return f"README.md has {len(a)} code blocks, README.zh-TW.md {len(b)}"
    i = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
    return f"code block {i + 1} differs:\n--- README.md\n{a[i]}\n--- README.zh-TW.md\n{b[i]}"


def link_problem(en: str, zh: str) -> str:
    a, b = compared_targets(en, chinese=False), compared_targets(zh, chinese=True)
    if a == b:
        return ""
    return f"only in README.md: {sorted(a - b)}; only in README.zh-TW.md: {sorted(b - a)}"


def simplified_characters(text: str, opencc) -> list[str]:
    """Simplified characters in text, with the Traditional one OpenCC gives.

    A character is a Simplified form when OpenCC (Taiwan standard: s2tw / tw2s) changes it going
    Simplified -> Traditional and leaves it going Traditional -> Simplified. Some such characters
    are also Traditional characters (里 in 公里, 干 in 干擾, 只, 于): those are in Big5, Taiwan's
    character set, and are wrong only where they stand for another character (里面 for 裡面), so a
    Big5 one is flagged only where the whole text, read as Simplified and converted back (OpenCC
    uses the words around it), gets another character there. One outside Big5 is always flagged.
    """
    s2t, t2s = opencc.OpenCC("s2tw"), opencc.OpenCC("tw2s")
    han = sorted({c for c in text if re.match(f"[{HAN}]", c)})
    to_t = s2t.convert("\n".join(han)).split("\n")
    to_s = t2s.convert("\n".join(han)).split("\n")
    assert len(to_t) == len(to_s) == len(han)
    simplified = {c: t for c, t, s in zip(han, to_t, to_s, strict=True) if t != c and s == c}
    simplified = {c: t for c, t in simplified.items() if c not in TAIWAN_FORMS}
    if not simplified:
        return []
    back = s2t.convert(t2s.convert(text))
    aligned = len(back) == len(text)
    hits = []
    for i, c in enumerate(text):
        if c not in simplified:
            continue
        try:
            c.encode("big5")
            in_big5 = True
        except UnicodeEncodeError:
            in_big5 = False
        if not in_big5 or not aligned or back[i] != c:
            line = text.count("\n", 0, i) + 1
            context = text[max(0, i - 4) : i + 5].replace("\n", " ")
            hits.append(f"line {line}: {c} (→ {back[i] if aligned else simplified[c]}) in {context!r}")
    return hits


def glossary_rules() -> list[tuple[str, str, list[str]]]:
    """(English, 繁體中文, ruled-out words) of docs/glossary.md's tables."""
    rows = []
    for line in read(ROOT / "docs" / "glossary.md").split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("English", "---"):
            rows.append((cells[0], cells[1], [w.strip() for w in cells[2].split(",") if w.strip()]))
    return rows


def ruled_out_words(text: str, rules: list[tuple[str, str, list[str]]]) -> list[str]:
    """Words the glossary rules out or mainland words, in the prose (not code) of text."""
    prose = "\n".join(strip_inline_code(line) for line in split_fences(text)[0])
    terms = [zh for _en, zh, _nots in rules]
    banned = {w: f"the glossary says {zh} for {en}" for en, zh, nots in rules for w in nots}
    banned.update({w: f"Taiwan says {tw}" for w, tw in MAINLAND.items()})
    bad = []
    for word, why in banned.items():
        # a ruled-out word inside one of the glossary's own terms is that term (算法 in 演算法)
        left = functools.reduce(lambda t, term, w=word: t.replace(term, "") if w in term else t, terms, prose)
        if word in left:
            bad.append(f"{word!r}: {why}")
    if re.search(r"(?<!閘)門(?!檻)", prose) and not re.search(r"入門|專門|部門", prose):
        bad.append("a bare 門: a gate is 閘門")
    return bad


def half_width_punctuation(text: str) -> list[str]:
    """ASCII , ; : ! ? ( ) touching a Chinese character outside code and link targets."""
    bad = []
    for line in split_fences(text)[0]:
        line = MD_LINK.sub(lambda m: m.group(0)[: m.group(0).rfind("](") + 1], strip_inline_code(line))
        for m in re.finditer(f"[{HAN}][,;:!?()]|[,;:!?()][{HAN}]", line):
            bad.append(f"{m.group(0)!r} in {line.strip()[:60]!r}")
    return bad


def opencc_module():
    return pytest.importorskip(
        "opencc",
        reason="OpenCC (pip install opencc, in requirements-dev.txt) is needed to tell Simplified characters",
    )


# ---- the two READMEs ------------------------------------------------------------------------------


def test_the_readmes_link_to_each_other_at_the_top():
    assert "](README.zh-TW.md)" in "\n".join(read(README).split("\n")[:5])
    assert "](README.md)" in "\n".join(read(README_ZH).split("\n")[:5])


def test_the_readmes_have_the_same_headings():
    assert not (p := heading_problem(read(README), read(README_ZH))), p


def test_the_readmes_have_the_same_code_blocks():
    assert split_fences(read(README))[1], "README.md should show its commands"
    assert not (p := code_problem(read(README), read(README_ZH))), p


def test_the_readmes_link_to_the_same_places():
    assert not (p := link_problem(read(README), read(README_ZH))), p


def test_the_chinese_readme_shows_its_own_screenshot_where_the_english_one_is():
    en, zh = link_targets(read(README)), link_targets(read(README_ZH))
    for en_target, zh_target in LOCALISED.items():
        assert (ROOT / zh_target).is_file(), zh_target
        assert en_target in en and zh_target in zh, (en_target, zh_target)


def test_the_chinese_readme_has_no_simplified_character():
    hits = simplified_characters(read(README_ZH), opencc_module())
    assert not hits, "Simplified characters in README.zh-TW.md:\n" + "\n".join(hits)


def test_the_chinese_readme_uses_the_glossarys_and_taiwans_words():
    bad = ruled_out_words(read(README_ZH), glossary_rules())
    assert not bad, bad


def test_the_chinese_readme_uses_full_width_punctuation():
    bad = half_width_punctuation(read(README_ZH))
    assert not bad, bad


# ---- each checker finds a made-up violation -------------------------------------------------------


def _once(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


def test_the_heading_check_sees_a_missing_moved_or_relevelled_heading():
    en, zh = read(README), read(README_ZH)
    second = headings(zh)[1][1]
    assert heading_problem(en, _once(zh, f"## {second}\n", f"{second}\n"))  # missing
    assert heading_problem(en, _once(zh, f"## {second}\n", f"### {second}\n"))  # another level
    assert heading_problem(en, zh + "\n## 附錄\n")  # one more
    assert heading_problem(en, zh.replace("\n## ", "\n# ", 1))
    # a `# comment` inside a code block is no heading; a setext heading is one
    assert not heading_problem("# A\n```\n# x\n```\n", "# A\n")
    assert heading_problem("# A\n\nB\n---\n", "# A\n")


def test_the_code_check_sees_a_changed_byte_a_translated_comment_and_the_order():
    en, zh = read(README), read(README_ZH)
    assert code_problem(en, _once(zh, "--port 8502", "--port 8503"))
    assert code_problem(en, _once(zh, "# another port", "# 另一個埠"))
    assert code_problem(en, _once(zh, "make run     #", "make run    #"))  # one space
    assert code_problem(en, _once(zh, "```bash\nmake run", "```sh\nmake run"))  # the info string
    blocks = split_fences(zh)[1]
    swapped = zh.replace(blocks[0], "\0").replace(blocks[1], blocks[0]).replace("\0", blocks[1])
    assert code_problem(en, swapped)
    assert code_problem(en, zh + "\n```bash\nmake dist\n```\n")


def test_the_link_check_sees_a_changed_dropped_or_added_target():
    en, zh = read(README), read(README_ZH)
    assert link_problem(en, _once(zh, "(docs/teaching.md)", "(docs/teach.md)"))
    assert link_problem(en, _once(zh, "[docs/architecture.md](docs/architecture.md)", "docs/architecture.md"))
    assert link_problem(en, zh + "\n見 https://example.org/gate-lab。\n")  # a bare URL
    assert link_problem(en, zh + "\n<https://example.org>\n")  # an autolink
    assert link_problem(en, _once(zh, "(docs/screenshots/zh-home.png)", "(docs/screenshots/home.png)"))
    # the cross-link and the localised screenshot are allowed to differ
    assert not link_problem(en, _once(zh, "](README.md)", "](README.md#gate-lab)"))
    assert not link_problem(
        en, _once(zh, "docs/screenshots/zh-home.png", "docs/screenshots/home-headline.png")
    )
    assert link_targets("see https://a.example/x_(y). and `http://in.code`") == {"https://a.example/x_(y)"}


def test_the_simplified_check_sees_a_simplified_character():
    opencc = opencc_module()
    assert simplified_characters("設定、檔案、伺服器、公里、干擾、只有、台灣、吃飯、週期", opencc) == []
    for simplified in ("设定", "点击", "当前", "默认", "这个", "里面", "机器", "准确", "采用"):
        assert simplified_characters(f"請看{simplified}。", opencc), simplified
    zh = read(README_ZH)
    assert simplified_characters(_once(zh, "設定", "设定"), opencc)


def test_the_word_check_sees_a_ruled_out_or_mainland_word():
    rules = glossary_rules()
    assert ruled_out_words("演算法、偏差項、閘門、入門", rules) == []
    for word in ("偏置", "記憶細胞", "算法", "輸入門", "支持", "設置", "服務器", "默認"):
        assert ruled_out_words(f"這是{word}。", rules), word
    assert not ruled_out_words("```\n默認\n```\n`支持`", rules)  # code is not prose


def test_the_punctuation_check_sees_ascii_punctuation_in_a_chinese_sentence():
    assert half_width_punctuation("核心(NumPy)執行, 然後停止: 好!") != []
    assert (
        half_width_punctuation("核心（`lstm_core`）：見 [docs/api.md](docs/api.md)。Python 3.11, ok.") == []
    )
    assert half_width_punctuation("```\n核心(x)\n```\n`執行, 吧`") == []
