"""The core's texts and errors in both languages: every registry text the app shows is in
``app/i18n/core_texts.py`` (so the catalogue has it), and the core's ``ValueError`` messages come
out in Chinese in a zh-TW session through ``app/i18n/core_errors.py``, unchanged in English.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import lstm_core as lc
from app import i18n
from app.i18n import core_errors
from app.i18n.core_texts import TEXTS
from lstm_core.training.config import ALGORITHMS
from lstm_core.training.progress import RULE_GROUPS
from lstm_core.variants import ALGORITHM_TITLES, REGISTRY


def registry_texts() -> list[tuple[str, str]]:
    """(where, text) for every core text the app shows, read from the registries themselves."""
    out = []
    for v in REGISTRY.values():
        for attr in ("title", "description", "paper", "gate_text", "state_text", "no_gates_note"):
            out.append((f"variant {v.name}.{attr}", getattr(v, attr)))
        out.append((f"variant {v.name}.state", v.state[1]))
        out += [(f"variant {v.name}.gates", label) for _, label in v.gates]
        out += [(f"variant {v.name}.param_groups", g) for g in v.param_groups.values()]
    out += [("gradient-chart group", g) for g in RULE_GROUPS]
    out += [(f"algorithm title {k}", t) for k, t in ALGORITHM_TITLES.items()]
    out += [(f"algorithm {k}", t) for k, t in ALGORITHMS.items()]
    for name, task in lc.TASKS.items():
        for attr in ("title", "paper", "setup", "reported"):
            out.append((f"task {name}.{attr}", getattr(task, attr)))
        out.append((f"task {name}.criterion", task.criterion.description))
    # (the paper presets' texts: app/experiments/paper_texts.py, checked by tests/test_i18n_paper_texts.py)
    return [(where, text) for where, text in out if text]


def test_every_registry_text_the_app_shows_is_marked_for_the_catalogue():
    listed = set(TEXTS)
    missing = [f"{where}: {text[:70]!r}" for where, text in registry_texts() if text not in listed]
    assert not missing, (
        f"{len(missing)} core texts are not in app/i18n/core_texts.py (add them as N_(...) "
        "entries and translate them in core.po):\n" + "\n".join(missing)
    )


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


def _translate_in_session(lang: str, messages: list) -> list[str]:
    """``core_errors.translate`` run inside a Streamlit session whose language is ``lang``."""

    def script():
        import streamlit as st

        from app import i18n
        from app.i18n import core_errors

        i18n.from_url()
        st.session_state["out"] = [core_errors.translate(m) for m in st.session_state["messages"]]

    at = AppTest.from_function(script)
    at.query_params["lang"] = lang
    at.session_state["messages"] = messages
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at.session_state["out"]


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
