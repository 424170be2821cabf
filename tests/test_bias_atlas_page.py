"""The Bias atlas page (AppTest): it answers "which biases for lag T" for every variant × task × lag it
offers, in every language; one cell trains live on the atlas's own curve; an uploaded PyTorch model's
memory times and the two-vector pitfall; the snippets; bad files get a message, never a traceback."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

from app.bias_atlas.settings import GRID, PAGE, load
from app.i18n import translate_in
from lstm_core import atlas
from lstm_core.init_schemes import schemes_for

ENTRY = str(Path(__file__).resolve().parents[1] / "app" / "main.py")


def open_page(lang: str = "en") -> AppTest:
    at = AppTest.from_file(ENTRY, default_timeout=180)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("../pages/bias_atlas.py").run()
    ok(at, "open")
    return at


def ok(at: AppTest, where: str) -> None:
    assert not at.exception, (where, [e.value for e in at.exception])
    assert not at.error, (where, [e.value for e in at.error])


def titles(at: AppTest) -> list[str]:
    return [str((s["layout"].get("title") or {}).get("text", "")) for s in chart_specs(at)]


def test_the_committed_atlas_holds_the_grid_the_issue_asks_for():
    doc = load()
    net = atlas.networks(doc)
    assert set(net.variant) >= {"lstm", "lstm2000", "gru"}
    assert len(set(net.task)) >= 2 and len(set(net.lag)) >= 4 and net.seed.nunique() >= 5
    assert net.groupby("variant").scheme.nunique()["lstm"] >= 7
    assert doc["command"].startswith("python -m lstm_core.atlas") and doc["machine"]
    # every (variant, task, lag) the page offers has every scheme × seed the variant has
    for v in GRID.variants:
        for t in GRID.tasks:
            for lag in GRID.lags:
                _at, members = atlas.curves(doc, v, t, lag)
                assert len(members) == len(schemes_for(v)) * GRID.seeds, (v, t, lag)


@pytest.mark.slow
@pytest.mark.parametrize("variant", GRID.variants)
def test_every_variant_task_and_lag_gets_an_answer(variant):
    at = open_page()
    at.segmented_control(key=f"{PAGE}.variant").set_value(variant).run()
    for task in GRID.tasks:
        at.selectbox(key=f"{PAGE}.task").set_value(task).run()
        for lag in GRID.lags:
            at.segmented_control(key=f"{PAGE}.lag").set_value(lag).run()
            where = f"{variant} × {task} × lag {lag}"
            ok(at, where)
            verdict = [m.value for m in (*at.success, *at.warning)]
            assert any(f"{lag}" in m for m in verdict), (where, verdict)
            table = at.dataframe[0].value
            assert len(table) == len(schemes_for(variant)), where  # every scheme ranked
            assert len(chart_specs(at)) >= 4, (where, titles(at))  # solved/lag, curves, memory, flow


@pytest.mark.parametrize("lang", ["zh-TW", "zh-CN"])
@pytest.mark.parametrize("variant", GRID.variants)
def test_every_variant_in_chinese(variant, lang):
    at = open_page(lang)
    at.segmented_control(key=f"{PAGE}.variant").set_value(variant).run()
    at.segmented_control(key=f"{PAGE}.lag").set_value(GRID.lags[-1]).run()
    ok(at, f"{variant} ({lang})")
    assert at.title[0].value == translate_in(lang, "Which gate biases for my time lag?")
    assert len(chart_specs(at)) >= 4


def test_before_training_is_computed_chrono_keeps_the_error_at_the_lag():
    at = open_page()
    at.segmented_control(key=f"{PAGE}.lag").set_value(100).run()
    flow = next(s for s in chart_specs(at) if "Error flow" in str(s["layout"]["title"]["text"]))
    by = {d["name"]: d["y"] for d in flow["data"]}
    assert by["Chrono (T_max)"][-1] > 1e-3 > by["Zeros"][-1]  # 99 steps back: measured, and the lesson


def test_one_cell_trains_live_on_the_atlas_curve():
    at = open_page()
    at.segmented_control(key=f"{PAGE}.lag").set_value(GRID.lags[0]).run()
    at.selectbox(key=f"{PAGE}.scheme").set_value("chrono").run()
    at.button(key=f"{PAGE}.train_cell").click().run()
    ok(at, "train")
    live = next(s for s in chart_specs(at) if s["layout"].get("uirevision") == "atlas-live")
    recorded, trained = live["data"][0]["y"], live["data"][1]["y"]
    assert len(trained) >= 1
    np.testing.assert_allclose(trained, recorded[: len(trained)], rtol=1e-3)  # the same network, retraced


def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def _lstm_state(H: int, forget_ih: float, forget_hh: float) -> dict:
    rng = np.random.default_rng(0)
    b_ih, b_hh = rng.uniform(-0.1, 0.1, 4 * H), rng.uniform(-0.1, 0.1, 4 * H)
    b_ih[H : 2 * H], b_hh[H : 2 * H] = forget_ih, forget_hh
    return {
        "weight_ih_l0": rng.uniform(-0.1, 0.1, (4 * H, 2)),
        "weight_hh_l0": rng.uniform(-0.1, 0.1, (4 * H, H)),
        "bias_ih_l0": b_ih,
        "bias_hh_l0": b_hh,
    }


def test_an_uploaded_model_shows_its_memory_times_and_the_pitfall():
    at = open_page()
    at.file_uploader(key=f"{PAGE}.model_file").upload("lstm.npz", _npz(**_lstm_state(6, 1.0, 1.0))).run()
    ok(at, "upload")
    assert any("two-vector pitfall" in w.value and "sees 2" in w.value for w in at.warning)
    assert any(s["layout"].get("uirevision") == "atlas-upload" for s in chart_specs(at))
    # one vector set: no pitfall named
    at.file_uploader(key=f"{PAGE}.model_file").upload("one.npz", _npz(**_lstm_state(6, 1.0, 0.0))).run()
    assert not any("two-vector pitfall" in w.value for w in at.warning)


def test_a_bad_file_gets_a_message_and_keeps_the_page():
    at = open_page()
    at.file_uploader(key=f"{PAGE}.model_file").upload("x.npz", b"not a model").run()
    assert not at.exception
    assert any("Could not read x.npz" in e.value for e in at.error)


@pytest.mark.parametrize("framework", ["pytorch", "keras", "flax"])
def test_the_snippet_of_the_chosen_scheme(framework):
    at = open_page()
    at.segmented_control(key=f"{PAGE}.framework").set_value(framework).run()
    code = at.code[0].value
    assert "t_max = 150.0" in code and "np.log(rng.uniform(1.0, t_max - 1.0, H))" in code
    at.segmented_control(key=f"{PAGE}.variant").set_value("gru").run()
    at.selectbox(key=f"{PAGE}.scheme").set_value("staggered1997").run()
    ok(at, "no meaning")
    assert any("has no meaning" in i.value for i in at.info) and not at.code
