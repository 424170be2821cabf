"""The charts in the session's language, also where the libraries write (issue 44, item 5):

- Plotly's own words — the toolbar's button titles, its notices — come from a Plotly locale: every
  chart of a Chinese session names one (``config.locale``) and carries the words a Gate Lab chart
  shows, translated by the catalogue (``config.locales``, ``app.ui.saving.locale``); the live charts
  also register plotly.js's own locale file (``app/static``); an English session's config has none.
- No legend or hover text names a variant, a task or an algorithm by its code name (``lstm1997``,
  ``two_sequence``, ``rtrl``): the registry's titles, in the session's language, in English too.

Each check is a function run on made-up violations first (``test_the_checks_find_made_up_violations``).
The browser's side (the toolbar's titles drawn in Chinese) is tests/e2e/test_chart_locale_browser.py.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import plotly.graph_objects as go
import pytest
from helpers import chart_specs
from page_helpers import ENTRY
from streamlit.testing.v1 import AppTest
from test_bias_lab_page import TINY, run_job

import lstm_core as lc
from app import i18n
from app.ui import figures, live, saving
from lstm_core.variants import ALGORITHM_TITLES

ROOT = Path(__file__).resolve().parents[1]
CJK = re.compile(r"[\u3400-\u9fff]")

# Code names a reader must never meet in a chart: every variant and algorithm key (their titles
# are written differently: LSTM 1997, RNN, RTRL), and every task key that is not a plain English
# word (two_sequence, long_lag …; "adding", "names", "periodic" … are words of ordinary text).
CODE_NAMES = sorted(
    {*lc.VARIANTS, *ALGORITHM_TITLES} | {k for k in lc.TASKS if not k.isalpha()}, key=len, reverse=True
)
CODE = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, CODE_NAMES)) + r")(?![A-Za-z0-9_])")


# ----------------------------------------------------------------------------- the checks
def shown_texts(spec: dict) -> Iterator[tuple[str, str]]:
    """(where, text) of every text of a figure a reader can meet in its legend or hover labels: trace
    names (the legend, and the hover box of a trace without a template), hover templates, hover and
    point texts. Not ``legendgroup`` or ``uid``: identifiers Plotly never draws."""
    for i, tr in enumerate(spec.get("data", [])):
        for key in ("name", "hovertemplate", "hovertext", "text", "texttemplate"):
            value = tr.get(key)
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str) and text:
                    yield f"data[{i}].{key}", text
        group_title = (tr.get("legendgrouptitle") or {}).get("text")
        if isinstance(group_title, str):
            yield f"data[{i}].legendgrouptitle", group_title


def code_names(specs: list[dict]) -> list[str]:
    """Every legend / hover text of ``specs`` that holds a registry key (empty: none)."""
    out = []
    for spec in specs:
        chart = spec.get("layout", {}).get("uirevision", "?")
        for where, text in shown_texts(spec):
            for m in CODE.finditer(text):
                out.append(f"{chart} {where}: {m.group(1)!r} in {text[:80]!r}")
    return out


def locale_problems(config: dict, lang: str, live_chart: bool = False) -> list[str]:
    """What is wrong with a chart's Plotly config for a session in ``lang`` (empty: nothing). A live
    chart's words are plotly.js's own locale file (registered by its script) under its config's."""
    want = saving.PLOTLY_LOCALES.get(lang)
    if want is None:
        return [f"an English chart names a locale: {config['locale']!r}"] if "locale" in config else []
    if config.get("locale") != want:
        return [f"locale {config.get('locale')!r}, not {want!r}"]
    words = ((config.get("locales") or {}).get(want) or {}).get("dictionary") or {}
    if live_chart:
        words = {**live.plotly_words(want), **words}
    out = [f"Plotly's {w!r} is not in the chart's dictionary" for w in saving.PLOTLY_WORDS if w not in words]
    out += [
        f"{w!r} is shown as {words[w]!r}"
        for w in saving.PLOTLY_WORDS
        if w in words and not CJK.search(words[w])
    ]
    with in_language(lang):
        out += [
            f"{w!r} is shown as {words[w]!r}, not {i18n._(w)!r}"
            for w in saving.PLOTLY_WORDS
            if words.get(w, i18n._(w)) != i18n._(w)
        ]
    return out


def configs(at: AppTest) -> list[tuple[bool, str, dict]]:
    """(live chart?, title, Plotly config) of every chart an AppTest run drew."""
    out = []
    for node in _walk(at._tree):
        kind = getattr(node, "type", None)
        if kind == "plotly_chart":
            spec, config = json.loads(node.proto.spec), json.loads(node.proto.config or "{}")
            out.append((False, str(spec.get("layout", {}).get("title", "")), config))
        elif kind == "bidi_component" and node.proto.component_name == "gatelab_live_chart":
            spec = json.loads(json.loads(node.proto.json)["full"])
            out.append((True, str(spec.get("layout", {}).get("title", "")), spec.get("config", {})))
    return out


def locale_file_format(path: Path) -> set[str]:
    """The keys of a plotly.js locale file's ``format`` (what it changes in numbers and dates)."""
    src = path.read_text(encoding="utf-8")
    fmt = src[src.index("format:{") + len("format:{") :]
    return set(re.findall(r"(?:^|[,{])([A-Za-z]+):", re.sub(r"\[[^\]]*\]", "[]", fmt.split("}}")[0])))


def plotly_chart_calls_without_config(src: str) -> list[int]:
    """Lines of ``….plotly_chart(…)`` calls with no ``config=`` (a chart Plotly's words bypass)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(src))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "plotly_chart"
        and not any(kw.arg == "config" for kw in node.keywords)
    ]


def in_language(lang: str):
    """``app.i18n.current`` answering ``lang``, as in a session of that language."""
    return mock.patch.object(i18n, "current", return_value=lang)


def test_the_checks_find_made_up_violations():
    bad = {
        "layout": {"uirevision": "made-up"},
        "data": [
            {"name": "A: lstm1997 · rtrl · lr 1", "legendgroup": "lstm1997"},
            {"name": "B", "hovertemplate": "q=%{x}<extra>rnn</extra>"},
            {"name": "C", "text": ["network 1", "two_sequence"]},
        ],
    }
    found = code_names([bad])
    assert [f.split(":")[1].split()[0] for f in found] == ["'lstm1997'", "'rtrl'", "'rnn'", "'two_sequence'"]
    good = {
        "data": [
            {"name": "A: LSTM 1997 · RTRL · lr 1", "legendgroup": "lstm1997", "hovertemplate": "lstm_core"}
        ]
    }
    assert code_names([good]) == []

    assert locale_problems({}, "zh-TW") == ["locale None, not 'zh-TW'"]
    with in_language("zh-TW"):
        ours = {w: i18n._(w) for w in saving.PLOTLY_WORDS}
    made_up = {"locale": "zh-TW", "locales": {"zh-TW": {"dictionary": {**ours, "Zoom": "Zoom"}}}}
    assert locale_problems(made_up, "zh-TW") == [
        "'Zoom' is shown as 'Zoom'",
        "'Zoom' is shown as 'Zoom', not '縮放'",
    ]
    plotlys = {"locale": "zh-TW", "locales": {"zh-TW": {"dictionary": {**ours, "Reset axes": "重置軸"}}}}
    assert locale_problems(plotlys, "zh-TW") == ["'Reset axes' is shown as '重置軸', not '重設座標軸'"]
    # a live chart's words: plotly.js's file under its own; a Streamlit chart has no file to fall back on
    own = {w: t for w, t in ours.items() if live.plotly_words("zh-TW")[w] != t}
    trimmed = {"locale": "zh-TW", "locales": {"zh-TW": {"dictionary": own}}}
    assert locale_problems(trimmed, "zh-TW", live_chart=True) == []
    assert len(locale_problems(trimmed, "zh-TW")) == len(saving.PLOTLY_WORDS) - len(own)
    del own["Reset axes"]  # Plotly's 重置軸 would show
    assert locale_problems(trimmed, "zh-TW", live_chart=True) == [
        "'Reset axes' is shown as '重置軸', not '重設座標軸'"
    ]
    assert locale_problems({"locale": "zh-CN"}, "en") and locale_problems({}, "en") == []

    assert plotly_chart_calls_without_config(
        "st.plotly_chart(fig, config=c)\nwhere.plotly_chart(fig, key='k')"
    ) == [2]
    assert "Download Plot" not in live.plotly_words("zh-TW")  # a typo would stay English


# ----------------------------------------------------------------------------- Plotly's words
@pytest.mark.parametrize("name", sorted(set(saving.PLOTLY_LOCALES.values())))
def test_plotly_js_own_locale_files_lie_beside_the_bundle(name):
    """app/static holds plotly.js's locale file for each Chinese locale, from the npm package plotly.js
    at the version of the bundle beside it (README), served by Streamlit like the bundle, where the
    live charts' script loads it; it sets day and month names and the date format only, so no number
    on a chart changes (no Gate Lab axis is a date)."""
    path = live.locale_file(name)
    assert path.parent == live.PLOTLY_JS.parent and path.is_file(), path
    src = path.read_text(encoding="utf-8")
    assert f'moduleType:"locale",name:"{name}"' in src and "Plotly.register(locale)" in src
    assert f"plotly.js@{live.PLOTLY_VERSION}" in (path.parent / "README.md").read_text(encoding="utf-8")
    assert "enableStaticServing = true" in (ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    assert "'app/static/plotly-locale-' + name.toLowerCase() + '.js" in live.JS
    assert locale_file_format(path) <= {"days", "shortDays", "months", "shortMonths", "date"}
    # every word Gate Lab translates is one plotly.js looks up (spelt as plotly.js spells it)
    assert set(saving.PLOTLY_WORDS) <= set(live.plotly_words(name)), set(saving.PLOTLY_WORDS) - set(
        live.plotly_words(name)
    )


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_every_chart_config_names_the_sessions_plotly_locale(lang):
    """``saving.config`` (every chart's, ``st.plotly_chart`` too: all of Gate Lab's words) and a live
    chart's, also one drawn without a ``saving.config`` (only the words said otherwise than
    plotly.js's own file, which its script registers)."""
    with in_language(lang):
        streamlit_configs = [
            saving.config("cell-diagram", "lstm1997", only_save=True),
            saving.config("gradient-flow", ["rnn", "lstm1997"], "t100"),
        ]
        live_configs = [
            live.raw(go.Figure(), None)["config"],
            live.raw(go.Figure(), streamlit_configs[1])["config"],
        ]
    for config in streamlit_configs:
        assert locale_problems(config, lang) == [], config
    for config in live_configs:
        assert locale_problems(config, lang, live_chart=True) == [], config
    if lang == "en":
        return
    words = streamlit_configs[0]["locales"][lang]["dictionary"]
    assert words["Reset axes"] == {"zh-TW": "重設座標軸", "zh-CN": "重置轴"}[lang]  # the glossary's reset
    assert words["Double-click to zoom back out"].startswith({"zh-TW": "按兩下", "zh-CN": "双击"}[lang])
    # what a live chart carries: only the glossary's words (zh-CN: plotly.js's own are the glossary's)
    carried = (live_configs[0].get("locales") or {}).get(lang, {}).get("dictionary", {})
    assert (
        set(carried)
        == {
            "zh-TW": {
                "Reset axes",
                "Double-click to zoom back out",
                "Double-click on legend to isolate one trace",
                "Sorry, there was a problem downloading your image!",
            },
            "zh-CN": set(),
        }[lang]
    )


def test_every_st_plotly_chart_call_passes_a_config():
    """Streamlit's own charts take the locale from ``config`` only (``saving.config``)."""
    for path in sorted([*(ROOT / "app").rglob("*.py"), *(ROOT / "pages").rglob("*.py")]):
        lines = plotly_chart_calls_without_config(path.read_text(encoding="utf-8"))
        assert lines == [], f"{path.relative_to(ROOT)}:{lines}"


# ----------------------------------------------------------------------------- the pages
def open_in(page: str, lang: str, cfg: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(ENTRY), default_timeout=120)
    at.query_params["lang"] = lang
    if cfg is not None:
        at.query_params["cfg"] = json.dumps(cfg)
    at.run()
    if page != "home":
        at.switch_page(f"../pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def assert_charts_speak(at: AppTest, lang: str) -> list[dict]:
    specs = chart_specs(at)
    assert specs, "no chart drawn"
    assert code_names(specs) == []
    drawn = configs(at)
    assert len(drawn) == len(specs)
    for live_chart, title, config in drawn:
        assert locale_problems(config, lang, live_chart) == [], title
    for spec in specs:  # the locale would change a date axis (day and month names): there is none
        axes = [v for k, v in spec.get("layout", {}).items() if k.startswith(("xaxis", "yaxis"))]
        assert all(a.get("type") != "date" for a in axes if isinstance(a, dict))
    return specs


def legend(specs: list[dict]) -> set[str]:
    return {tr.get("name") for spec in specs for tr in spec["data"] if tr.get("name")}


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
@pytest.mark.parametrize("page", ["home", "gradient_flow", "theory", "train", "bias_lab"])
def test_the_pages_charts_name_no_code_and_speak_the_sessions_language(page, lang):
    at = open_in(page, lang)
    if page == "gradient_flow":  # every variant of the page's forget-gate button too
        at.button(key="gradient_flow.add_forget").click().run()
        assert not at.exception
    specs = assert_charts_speak(at, lang)
    with in_language(lang):
        lstm, rnn = figures.variant_label("lstm1997"), figures.variant_label("rnn")
        expected = {
            "home": {f"{lstm} (s)", f"{rnn} (h)"},
            "gradient_flow": {lstm, rnn, figures.variant_label("lstm2000")},
            "theory": {i18n._("{lstm} ‖∂L/∂s(t−q)‖, full BPTT").format(lstm=lstm)},
            "train": set(),
            "bias_lab": set(),
        }[page]
    assert expected <= legend(specs), legend(specs)
    assert (lstm, rnn) == (("LSTM 1997", "RNN"))  # the titles, in both languages


def test_a_chinese_trains_run_and_run_a_are_labelled_by_their_titles():
    from train_page_helpers import run_of, start

    at = open_in("train", "zh-TW")
    start(at, ticks=2)
    at.button(key="train.keep_a").click().run()
    at.number_input(key="train.lr").set_value(0.5).run()
    at.button(key="train.go").click().run()
    at.run()
    specs = assert_charts_speak(at, "zh-TW")
    loss = next(s for s in specs if s["layout"]["uirevision"] == "train-loss")
    names = [t["name"] for t in loss["data"]]
    assert names == ["A: LSTM 1997 · RTRL · 學習率 1", "B: LSTM 1997 · RTRL · 學習率 0.5"], names
    assert run_of(at).label == "LSTM 1997 · RTRL · 學習率 0.5"


def test_the_bias_labs_streamlit_charts_speak_chinese_too():
    """The trained grid's heat maps are ``st.plotly_chart`` elements (Streamlit's own plotly.js, in
    which nothing can be registered): the config alone carries the words."""
    at = run_job(open_in("bias_lab", "zh-CN", TINY), "train")
    streamlit_charts = [
        json.loads(n.proto.config) for n in _walk(at._tree) if getattr(n, "type", None) == "plotly_chart"
    ]
    assert streamlit_charts, "no st.plotly_chart drawn"
    for config in streamlit_charts:
        assert locale_problems(config, "zh-CN") == []
        assert config["locales"]["zh-CN"]["dictionary"]["Download plot"] == "下载图表"
    assert_charts_speak(at, "zh-CN")


def _walk(node) -> Iterator:
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)
