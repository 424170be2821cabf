"""A text that names a control uses the control's label, in Chinese as the control shows it.

A help text that tells the reader to use 「裁剪梯度範數」 when the control reads 「梯度範數的裁剪上限」,
or that keeps the English name ("sets") of a control labelled 固定集合數, sends a student looking
for a control that is not on the screen.

What a label is, read from the app's code (``ast``), never from a hand-kept list: every message
(``_("…")`` / ``N_("…")``) that the code hands to

- a ``Field`` (app/ui/form.py) as its label (second argument) or as an option's name (``fmt=``,
  ``choices=``);
- a Streamlit widget or container as its label, title or options (its positional arguments and
  ``label=``, ``title=``, ``options=``, ``format_func=``): buttons, toggles, selects, sliders,
  inputs, expanders, tabs, popovers, headers, pages;
- a module-level table of names the pages draw as labels (a name ending in LABELS, NAMES, WORDS,
  GROUPS, VIEWS, MODES, SOURCES, INPUTS or TITLES);
- plus the core's registry texts (app/i18n/registry_texts.py): variant, task and preset titles,
  which the selects offer as options.

Some labels reach their widget through a variable (the Train page's run buttons are built from a
table of (label, icon, action)); so a name may also be any *short* message, one that the interface
shows on its own: at most six words, no placeholder, not ending as a sentence does (. ? ! : ;) —
button labels, page titles, status words, markers such as REDUCED.

A control's name in a translation is its label's translation: each 「quoted」 name and each
**bold** name after 按 (press) must be the translation of a label or a short message. A quote that
holds a placeholder is filled in at run time and is not checked; a quote of a word that is no
name is listed in QUOTED_WORDS with its reason. And outside the core's messages (which name the
library's arguments), a translation may not keep a control's English label where the label reads
otherwise in Chinese.
"""

from __future__ import annotations

import ast
import functools
import re

from babel.messages.pofile import read_po
from helpers import LABELLED_WIDGETS

from app.i18n import catalog, registry_texts

# quoted words that are not controls: what the page shows them as, and why they are quoted
QUOTED_WORDS = {
    "誤差停止下降": "the core's name of its growth test ('error stopped decreasing'), not a control",
    ".": "the character that starts and ends a name",
}
WIDGETS = LABELLED_WIDGETS | {"header", "subheader", "Page"}
LABEL_KWARGS = {"label", "title", "options", "format_func", "fmt", "choices"}
TABLE = re.compile(r"(LABELS|NAMES|WORDS|GROUPS|VIEWS|MODES|SOURCES|INPUTS|TITLES)$")
QUOTED = re.compile(r"「([^」]*)」")
PRESSED = re.compile(r"按下?\s*\*\*([^*]+)\*\*")


def _messages_in(node: ast.AST) -> list[str]:
    """The texts of every ``_("…")`` / ``N_("…")`` inside ``node``."""
    out = []
    for n in ast.walk(node):
        if (
            isinstance(n, ast.Call)
            and getattr(n.func, "id", "") in ("_", "N_")
            and n.args
            and isinstance(n.args[0], ast.Constant)
            and isinstance(n.args[0].value, str)
        ):
            out.append(n.args[0].value)
    return out


def labels_in_source(src: str) -> set[str]:
    """The messages ``src`` uses as labels, options or titles of controls (see the module doc)."""
    found: set[str] = set()
    tree = ast.parse(src)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("Field", "F"):
                for arg in node.args[1:2]:
                    found.update(_messages_in(arg))
            elif name in WIDGETS:
                for arg in node.args:
                    found.update(_messages_in(arg))
            else:
                continue
            for kw in node.keywords:
                if kw.arg in LABEL_KWARGS:
                    found.update(_messages_in(kw.value))
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        if any(isinstance(t, ast.Name) and TABLE.search(t.id) for t in targets) and node.value is not None:
            found.update(_messages_in(node.value))
    return found


@functools.cache
def label_ids() -> frozenset[str]:
    found: set[str] = set()
    for domain in catalog.DOMAINS:
        for path in catalog.files(domain):
            if "lstm_core" not in path.relative_to(catalog.ROOT).parts:
                found |= labels_in_source(path.read_text(encoding="utf-8"))
    for texts in registry_texts.BY_DOMAIN.values():
        found |= set(texts())
    return frozenset(found)


@functools.cache
def catalogues() -> dict[str, dict[str, str]]:
    out = {}
    for po in sorted((catalog.LOCALE_DIR / "zh_TW" / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as f:
            out[po.stem] = {
                m.id: m.string for m in read_po(f, locale="zh_TW") if m.id and isinstance(m.id, str)
            }
    return out


def short(msgid: str) -> bool:
    """A message the interface shows on its own: a name, not a sentence (see the module doc)."""
    return (
        "{" not in msgid
        and "\n" not in msgid
        and len(msgid.split()) <= 6
        and not msgid.rstrip().endswith((".", "?", "!", ":", ";"))
    )


def label_table() -> dict[str, str]:
    """English label -> its Chinese, over every catalogue (a label shows the same everywhere)."""
    return {i: s for cat in catalogues().values() for i, s in cat.items() if i in label_ids() and s}


def name_table() -> dict[str, str]:
    """English name -> its Chinese: the labels and the short messages."""
    return {
        i: s for cat in catalogues().values() for i, s in cat.items() if s and (i in label_ids() or short(i))
    }


def named_controls(msgstr: str) -> list[str]:
    """The names of controls ``msgstr`` gives: 「quoted」 and **bold** after 按, placeholders out."""
    names = QUOTED.findall(msgstr) + PRESSED.findall(msgstr)
    return [n for n in names if "{" not in n]


CODE = re.compile(r"\{[^{}]*\}|`[^`]*`|'[^']*'|\"[^\"]*\"|\w+[=.(\[]\S*")


def wrong_names(
    domain: str, msgstr: str, labels: dict[str, str], names: dict[str, str] | None = None
) -> list[str]:
    """What in ``msgstr`` names a control otherwise than its label does."""
    chinese = set((names or labels).values()) | set(QUOTED_WORDS)
    bad = [f"「{n}」 is no label's translation" for n in named_controls(msgstr) if n not in chinese]
    if domain != "core":  # the core's messages name the library's arguments (batch, seed), in English
        prose = CODE.sub(" ", msgstr)
        for en, zh in labels.items():
            if (
                en.lower() not in zh.lower()  # a name both languages keep (peephole connections)
                and re.fullmatch(r"[a-z][a-z -]+", en)
                and re.search(rf"(?<![\w-]){en}(?![\w-])", prose)
            ):
                bad.append(f"the English label {en!r} for 「{zh}」")
    return bad


def test_a_text_names_a_control_by_its_label():
    labels, names = label_table(), name_table()
    bad = [
        f"{domain}: {why} — {msgstr[:70]!r}"
        for domain, cat in catalogues().items()
        for msgid, msgstr in cat.items()
        if msgid not in names
        for why in wrong_names(domain, msgstr, labels, names)
    ]
    assert not bad, "texts that name a control otherwise than its label:\n" + "\n".join(bad)


def test_the_labels_are_read_from_the_code():
    labels = label_table()
    # a Field's label, a widget's label, a format dict's option, a table of labels, a registry title
    assert labels["clip the gradient norm at"] == "梯度範數的裁剪上限"
    assert labels["sets"] == "固定集合數"
    assert "From a task" in labels and "Output gate" in labels and "Learning rate" in labels
    # a button drawn from a variable is a short message; a help text is neither
    assert "Start again" in name_table() and "Train both settings" in name_table()
    help_text = "Rescale the whole gradient so its global norm is at most this value."
    assert help_text not in labels and help_text not in name_table()


def test_the_label_check_finds_what_it_should():
    src = (
        'Field("clip", N_("clip the gradient norm at"), "optfloat", None, help=N_("Rescale it."))\n'
        'st.button(_("Start again"))\n'
        'GATE_LABELS = {"input": N_("input gate bias")}\n'
        'st.caption(_("Press Start again."))\n'
    )
    assert labels_in_source(src) == {"clip the gradient norm at", "Start again", "input gate bias"}
    labels = {
        "clip the gradient norm at": "梯度範數的裁剪上限",
        "sets": "固定集合數",
        "Start again": "重新開始",
    }
    assert wrong_names("train", "「裁剪梯度範數」（訓練）可限制每一步。", labels)
    assert not wrong_names("train", "「梯度範數的裁剪上限」（訓練）可限制每一步。", labels)
    assert wrong_names("ui", "sets 大於 0 時抽出哪一組", labels)
    assert not wrong_names("ui", "「固定集合數」大於 0 時抽出哪一組", labels)
    assert wrong_names("train", "請按**重新訓練**。", labels)
    assert not wrong_names("train", "請按**重新開始**，或「{page}」頁面。", labels)
    assert not wrong_names("core", "set_seed 與 sets（固定集合數）", labels)  # the core names arguments
    assert not wrong_names("ui", "這個 {sets} 與 'sets' 與 sets=1", labels)  # placeholders and code
    assert not wrong_names("ui", "有 peephole connections", {"peephole": "peephole connections"})
