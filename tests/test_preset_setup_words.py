"""A paper preset's setup lines as words (``Preset.setup``): the core composes the model, training and
criterion lines as ``CoreText`` / ``CoreList`` (``lstm_core/errors.py``), ``Preset.describe`` prints
their English, and the Paper experiments page's setup table (``app/experiments/setup_table.py``)
translates them part by part — no pattern reads the English back."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app.experiments import setup_table
from app.i18n import registry_texts
from lstm_core.errors import CoreList, CoreText
from lstm_core.training import PRESETS

ROOT = Path(__file__).resolve().parents[1]
CASES = [(name, reduced) for name in PRESETS for reduced in (False, True)]
LINES = ("model", "training", "criterion")
PREFIX = {
    "model": "  model:    ",
    "training": "  training: ",
    "criterion": "  criterion: ",
    "notes": "  notes:    ",
    "reduced": "  reduced:  ",
}


def _walk(words) -> list:
    """Every CoreText and plain-string part in ``words`` (a CoreText's values and a CoreList's parts)."""
    if isinstance(words, CoreText):
        return [words] + [x for _k, v in words.items for x in _walk(v) if isinstance(v, (CoreText, CoreList))]
    if isinstance(words, CoreList):
        return [x for p in words.parts for x in _walk(p)]
    return [words] if isinstance(words, str) else []


@pytest.mark.parametrize(("name", "reduced"), CASES)
def test_describe_prints_the_setup_words_english(name, reduced):
    p = PRESETS[name]
    words = p.setup(reduced)
    assert set(words) >= set(LINES) and set(words) <= set(PREFIX)
    assert ("notes" in words) == bool(p.notes)
    assert ("reduced" in words) == bool(reduced and p.reduced.get("note"))
    lines = p.describe(reduced).splitlines()
    assert lines[2:5] == [PREFIX[k] + str(words[k]) for k in LINES]
    assert lines[6:] == [PREFIX[k] + str(words[k]) for k in ("notes", "reduced") if k in words]
    assert all(isinstance(words[k], (CoreText, CoreList)) for k in LINES)
    # a budget override shows in the training line, the words and the English alike
    assert "budget 12,345 sequences per network" in str(p.setup(reduced, budget=12345)["training"])
    assert p.describe(reduced, budget=12345).splitlines()[3] == PREFIX["training"] + str(
        p.setup(reduced, budget=12345)["training"]
    )


def test_known_setup_lines_read_as_before():
    """A few lines as the page showed them before the words (a change to the English fails here)."""
    adding = PRESETS["adding"].setup()
    assert str(adding["model"]) == (
        "lstm1997, 2 block(s) × 2 cell(s) (g=g1997, h=h1997), init ±0.1, gate biases: input [-3.0, -6.0]; "
        "93 trainable weights"
    )
    assert str(adding["training"]) == "rtrl, lr 0.5, batch 1, budget 100,000 sequences per network"
    assert str(PRESETS["multiplication"].setup()["model"]) == (
        "lstm1997, 2 block(s) × 2 cell(s) (g=g1997, h=h1997), init ±0.1, gate biases: input uniform [-6, -3]; "
        "93 trainable weights"
    )
    model = str(PRESETS["long_lag_assisted"].setup()["model"])
    assert model.endswith(
        "(g=sigmoid, h=identity, no output gate, inputs → outputs), init ±0.2, gate biases: cell -3.0, "
        "start values: b_out = -3.0; 10,609 trainable weights"
    )
    reduced = {n: p for n, p in PRESETS.items() if "REDUCED" in str(p.setup(True)["criterion"])}
    assert reduced and all(
        str(p.setup(True)["criterion"]).endswith(" — REDUCED to 1,000 in a row") for p in reduced.values()
    )
    grow = [str(p.setup()["training"]) for p in PRESETS.values() if p.train.grow_window]
    assert grow and all(
        t.endswith("; the memory cells join when the error stops decreasing (window 100 sequences)")
        for t in grow
    )
    lines = {str(p.setup()["model"]) for p in PRESETS.values()}
    assert any(
        ", without cell-input bias, input-gate bias, output-unit bias, recurrent connections;" in t
        for t in lines
    )
    assert any(" static + 0 net-feedback + 4 activation-feedback units, " in t for t in lines)
    assert "gru, 32 hidden units, init ±0.2; 6,747 trainable weights" in lines


def _core_text_literals() -> set[str]:
    """The first arguments of the core's ``CoreText("…")`` calls that are literals (what the catalogue
    extracts, ``app.i18n.catalog.KEYWORDS``)."""
    out = set()
    for path in (ROOT / "lstm_core").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "CoreText" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    out.add(first.value)
    return out


def test_every_template_of_the_setup_words_is_extracted_for_the_catalogue():
    """Each CoreText of a setup line is a literal ``CoreText("…")`` of the core (the ``core`` catalogue
    extracts it) or a preset's registry text (``experiments``); a plain string part is a name."""
    core = _core_text_literals()
    registry = set(registry_texts.preset_texts())
    missing, plain = set(), set()
    for name, reduced in CASES:
        for key in LINES:
            for part in _walk(PRESETS[name].setup(reduced)[key]):
                if isinstance(part, str):
                    plain.add(part)
                elif part.template not in core and part.template not in registry:
                    missing.add(part.template)
    assert not missing, missing
    # the plain parts are names (a variant, an algorithm, an activation function) looked up whole: no
    # catalogue has them, so they stay as the core wrote them
    assert all(re.fullmatch(r"[a-z0-9_]+|[gh]=[a-z0-9]+", p) for p in plain), plain


def _setup_in_session(lang: str) -> dict:
    """Every preset's setup lines as ``setup_table`` shows them in a session whose language is ``lang``."""

    def script():
        import streamlit as st

        from app import i18n
        from app.experiments import setup_table
        from app.i18n.core_errors import text
        from lstm_core.training import PRESETS

        i18n.from_url()
        st.session_state["lines"] = {
            f"{n} {r}": {k: text(w) for k, w in p.setup(r).items()}
            for n, p in PRESETS.items()
            for r in (0, 1)
        }
        st.session_state["tables"] = {
            f"{n} {r}": setup_table.setup_markdown(p, bool(r)) for n, p in PRESETS.items() for r in (0, 1)
        }

    at = AppTest.from_function(script, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return {"lines": at.session_state["lines"], "tables": at.session_state["tables"]}


@pytest.fixture(scope="module")
def zh_tw() -> dict:
    return _setup_in_session("zh-TW")


def test_the_english_session_shows_the_cores_lines():
    en = _setup_in_session("en")
    for name, reduced in CASES:
        words = PRESETS[name].setup(reduced)
        assert en["lines"][f"{name} {int(reduced)}"] == {k: str(w) for k, w in words.items()}
        table = en["tables"][f"{name} {int(reduced)}"]
        assert table == setup_table.setup_markdown(PRESETS[name], reduced)  # outside a session: English too
        for key in LINES:
            assert f"| {key} | {str(words[key]).replace('|', '/')} |" in table


# The ASCII words a Chinese setup line keeps: names (variants, algorithms, activation functions, the
# 1997 squashing functions, parameter names), as docs/glossary.md keeps them, and the criterion's symbols.
KEPT = {"lstm1997", "lstm2000", "lstm2002", "lstm", "gru", "rnn", "local_feedback", "rtrl", "bptt"}
KEPT |= {"g", "h", "sigmoid", "tanh", "g1997", "h1997", "v", "b_out", "peephole", "connections"}
KEPT |= {"n_seq", "top"}


# needs the new templates' translations in the catalogue (the report of this change lists them)
def test_the_setup_lines_read_in_chinese(zh_tw):
    left = {}
    for name, reduced in CASES:
        lines = zh_tw["lines"][f"{name} {int(reduced)}"]
        for key in LINES:
            # a token starting with a digit is a number or a label (the paper's "3a")
            words = {w for w in re.findall(r"\w+", lines[key], re.A) if not w[0].isdigit() and w not in KEPT}
            if words:
                left[f"{name} {key}"] = (sorted(words), lines[key])
    assert not left, left


# needs the new templates' translations in the catalogue
def test_known_lines_in_chinese(zh_tw):
    lines = zh_tw["lines"]
    assert lines["adding 0"]["model"] == (
        "lstm1997、2 個區塊 × 每區塊 2 個記憶單元（g=g1997、h=h1997）、初始化 ±0.1、閘門偏差項：輸入閘門 [-3.0, -6.0]；"
        "93 個可訓練權重"
    )
    assert lines["adding 0"]["training"] == "rtrl、學習率 0.5、批次 1、訓練預算每個網路 100,000 個序列"
    assert "閘門偏差項：輸入閘門 均勻分佈 [-6, -3]；" in lines["multiplication 0"]["model"]
    assert "閘門偏差項：記憶單元輸入 -3.0、初始值：b_out = -3.0；" in lines["long_lag_assisted 0"]["model"]


# moved from test_i18n_paper_texts.py with the setup table (needs the new templates' translations)
@pytest.mark.parametrize("name", list(PRESETS))
def test_the_setup_table_reads_in_chinese(zh_tw, name):
    from i18n_measure import chinese_share

    for reduced in (False, True) if PRESETS[name].reduced else (False,):
        text = zh_tw["tables"][f"{name} {int(reduced)}"].split("\n", 3)[3]
        # the task row names the task and its settings as the code does (long_lag_random: p = 100, …)
        text = "\n".join(line for line in text.split("\n") if not line.startswith("| 任務 |"))
        share, _zh, en = chinese_share(text)
        assert share >= 0.9, f"{name}: {share:.0%} Chinese in\n{text}"


def test_the_app_reads_no_core_message_back():
    source = (ROOT / "app" / "experiments" / "setup_table.py").read_text(encoding="utf-8")
    assert "import re" not in source and "describe(" not in source
