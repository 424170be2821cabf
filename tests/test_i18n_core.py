"""The core's texts and errors in both languages: every registry text the app shows is read from
the registries into the ``core`` catalogue (``app/i18n/registry_texts.py``), and the core's ``ValueError`` messages come
out in Chinese in a zh-TW session through ``app/i18n/core_errors.py``, unchanged in English.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import lstm_core as lc
from app import i18n
from app.i18n import catalog, core_errors
from app.i18n.registry_texts import core_texts


def registry_texts() -> list[tuple[str, str]]:
    """(where, text) for every core text the app shows, read from the registries themselves."""
    return [(where, text) for text, where in core_texts().items()]


def test_every_registry_text_is_in_the_core_catalogue_with_no_hand_kept_copy():
    """The catalogue takes the registries' texts from the registries (a hand copy once went stale
    silently): each is a message of the core domain and has a finished translation in core.po."""
    extracted = catalog.extracted("core")
    assert all((text, None) in extracted for _, text in registry_texts())
    assert not catalog.problems("core")
    assert not (Path(catalog.ROOT) / "app/i18n/core_texts.py").exists()


def test_every_registry_text_has_a_chinese_translation():
    untranslated = [
        text[:70]
        for _, text in registry_texts()
        if i18n.translate_in("zh-TW", text) == text
        and any(
            c.isalpha() and c.isascii() for c in text.replace("Hochreiter", "").replace("Schmidhuber", "")
        )
    ]
    # names only (e.g. "Hochreiter & Schmidhuber 1997") may stay as they are; prose may not
    assert not [t for t in untranslated if " " in t and not t.startswith(("LSTM (", "GRU ("))], untranslated


def _core_errors() -> list[ValueError]:
    """Real messages the core raises for settings a student can reach through the app."""
    found = []
    for make in (
        lambda: lc.ModelConfig(variant="lstm1997", n_in=2, n_out=1, n_blocks=0),
        lambda: lc.ModelConfig(variant="nope", n_in=2, n_out=1),
        lambda: lc.ModelConfig(variant="rnn", n_in=2, n_out=1, bias={"forget": 1.0}),
        lambda: lc.ModelConfig(variant="lstm1997", n_in=2, n_out=1, bias={"input": {"uniform": [1, -1]}}),
        lambda: lc.ModelConfig.from_dict({"variant": "rnn", "n_in": 2}),
        lambda: lc.TASKS["latching"].with_settings(min_len=10, max_len=5),
        lambda: lc.TASKS["adding"].with_settings(T=3),
    ):
        with pytest.raises(ValueError) as e:
            make()
        found.append(e.value)
    return found


def _in_session(lang: str, what: str, items: list) -> list:
    """``core_errors.translate`` (``what="translate"``), ``words.description`` (``"describe"``) or
    ``words.message`` (``"message"``) run on each item inside a Streamlit session whose language is ``lang``."""

    def script():
        import streamlit as st

        from app import i18n
        from app.i18n import core_errors
        from app.ui import words

        i18n.from_url()
        call = {"translate": core_errors.translate, "describe": words.description, "message": words.message}[
            st.session_state["what"]
        ]
        st.session_state["out"] = [call(m) for m in st.session_state["items"]]

    at = AppTest.from_function(script)
    at.query_params["lang"] = lang
    at.session_state["what"] = what
    at.session_state["items"] = items
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at.session_state["out"]


def _translate_in_session(lang: str, messages: list) -> list[str]:
    return _in_session(lang, "translate", messages)


def test_core_errors_come_out_in_chinese_in_a_zh_tw_session_and_unchanged_in_english():
    errors = _core_errors()
    messages = [str(e) for e in errors]
    zh = _translate_in_session("zh-TW", errors)
    en = _translate_in_session("en", errors)
    assert en == messages
    for english, chinese in zip(messages, zh):
        assert chinese != english and any("\u4e00" <= c <= "\u9fff" for c in chinese), (english, chinese)
    assert zh[0] == "n_blocks（記憶單元區塊數） 必須介於 1 與 32 之間，目前為 0"  # values and names stay
    assert zh[1].startswith("未知的變體 'nope'")


def test_outside_a_session_and_for_unknown_messages_the_message_stays():
    assert core_errors.translate("something the core never said") == "something the core never said"
    error = _core_errors()[0]
    assert core_errors.translate(error) == str(error)  # no session: English
    assert _translate_in_session("zh-TW", ["not a core message"]) == ["not a core message"]


def test_core_errors_carry_their_template_and_the_app_parses_no_message():
    """The core's error is a ValueError whose sentence is its template filled with its values (pickled
    with both); the app translates the template, it never reads the English back with patterns."""
    import pickle

    from lstm_core.errors import CoreError

    for e in _core_errors():
        assert isinstance(e, CoreError) and str(e) == e.template.format(**e.params)
        again = pickle.loads(pickle.dumps(e))
        assert (again.template, again.params, str(again)) == (e.template, e.params, str(e))
    source = Path(core_errors.__file__).read_text(encoding="utf-8")
    assert "import re" not in source and "fullmatch" not in source


@pytest.mark.parametrize("variant", ["lstm1997", "rnn", "gru"])
def test_the_gradient_charts_groups_are_translated(variant):
    """The gradient-norm chart names the core's parameter groups ("input gate", "output layer", …):
    in a zh-TW session its legend and its alt text read them in Chinese (they once stayed English)."""
    import json
    import re
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from train_page_helpers import link, open_page, specs, start

    from app.train import figures as train_figures

    at = start(open_page({**link(variant=variant), "lang": "zh-TW"}))
    spec = specs(at)[train_figures.UIREVISIONS["grads"]]
    names = [t["name"] for t in spec["data"]]
    assert names and all(re.search(r"[\u4e00-\u9fff]", n) for n in names), names
    alt = next(
        json.loads(c.proto.json)["alt"]
        for c in at.get("bidi_component")
        if c.proto.id.endswith("train.grads")
    )
    assert all(n in alt for n in names), alt  # the text alternative names them too


def _describe_in_session(lang: str, criteria: list) -> list[str]:
    return _in_session(lang, "describe", criteria)


@pytest.mark.parametrize("lang", ["zh-TW", "zh-CN"])
def test_the_bias_labs_changed_goal_is_translated_from_its_template(lang):
    """The Bias lab's goal note ("<paper's criterion> — RELAXED here: mean abs error < 0.05 (paper:
    0.01)") is a ``CoreText`` the core composes: each part is translated from its template (it was read
    back from the English with a pattern once, and showed in English when the wording moved)."""
    import pickle

    from lstm_core.sweeps.sweep import with_goal

    task = lc.get_task("two_sequence", T=10)
    relaxed, dropped = with_goal(task, 0.05), with_goal(task, None)
    changed = with_goal(lc.get_task("adding", T=20), 0.001)
    criteria = [relaxed.criterion, dropped.criterion, changed.criterion]
    for c in criteria:
        assert str(c.wording) == c.description and pickle.loads(pickle.dumps(c.wording)) == c.wording
    assert relaxed.criterion.description == (
        f"{task.criterion.description} — RELAXED here: mean abs error < 0.05 (paper: 0.01)"
    )
    assert _describe_in_session("en", criteria) == [c.description for c in criteria]
    zh = _describe_in_session(lang, criteria)
    paper = i18n.translate_in(lang, task.criterion.description)
    assert paper != task.criterion.description
    for text in zh:
        assert not any(w in text for w in ("RELAXED", "CHANGED", "mean abs error", "paper")), text
    assert zh[0].startswith(paper) and "0.05" in zh[0] and "0.01" in zh[0], zh[0]
    assert ("放寬" if lang == "zh-TW" else "放宽") in zh[0]
    assert zh[1].startswith(paper), zh[1]
    assert "更改" in zh[2] and "0.001" in zh[2], zh[2]


@pytest.mark.parametrize("lang", ["zh-TW", "zh-CN"])
def test_a_diverged_runs_message_is_translated_from_the_cores_words(lang):
    """Train's status line for a run that stopped (stuck: saturated units, and a non-finite loss): the
    trainer composes the sentence as words with templates, shown translated part by part (it showed in
    English once: the page looked the whole sentence up, numbers and all)."""
    import re

    from lstm_core.training import Trainer

    task = lc.get_task("adding", T=20)
    stuck = Trainer(lc.build("lstm2000", n_in=task.n_in, n_out=task.n_out, seed=0), task, lr=1e6, budget=5000)
    stuck.train(5000)
    huge = lc.build("rnn", n_in=task.n_in, n_out=task.n_out, seed=0)
    for p in huge.params.values():  # weights so large the loss overflows
        p[...] = 1e308
    overflow = Trainer(huge, task, budget=50)
    overflow.train(50)
    trainers = [stuck, overflow]
    assert [t.status() for t in trainers] == ["diverged", "diverged"], [t.message() for t in trainers]
    assert _in_session("en", "message", trainers) == [t.message() for t in trainers]
    for english, shown in zip([t.message() for t in trainers], _in_session(lang, "message", trainers)):
        left = re.findall(r"[A-Za-z]{4,}", re.sub(r"'[^']*'|LSTM", "", shown))
        assert not left and re.search(r"[\u4e00-\u9fff]", shown), (english, shown)
