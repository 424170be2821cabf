"""The Theory page's links and files (Streamlit AppTest): the ``?cfg=`` URL and old-style links,
the JSON configuration download and upload, bad links and bad files, reset.

The demo's settings use the shared machinery (``form.Schema``, ``?cfg=``, ``export.io_panel``),
so links, uploads and messages behave as on every other page. The page's drawing and its charts
are tests/test_theory_page.py's (whose helpers open the page here too).
"""

from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np
import pytest
import streamlit.testing.v1.app_test as app_test_module
from helpers import chart_specs
from streamlit.testing.v1 import AppTest
from test_theory_page import (
    ENTRY,
    PAGE,
    cfg,
    expected_rnn_flow,
    figure,
    open_theory,
    shown_settings,
    slider,
    trace,
    url_settings,
    ys,
)

from app.theory import demo
from app.ui import export, urlstate


@pytest.fixture
def media(monkeypatch) -> list:
    """Every in-memory media store AppTest creates, so a test can read what a download button
    serves (AppTest drops its mock runtime after each run; the store object survives)."""
    stores = []
    real = app_test_module.MemoryMediaFileStorage

    def store(endpoint: str):
        stores.append(real(endpoint))
        return stores[-1]

    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", store)
    return stores


def downloaded(at: AppTest, media: list, key: str) -> bytes:
    url = next(b for b in at.get("download_button") if b.key == key).proto.url
    return media[-1].get_file(url.rsplit("/", 1)[-1]).content


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    uploader = next(u for u in at.get("file_uploader") if u.key == "theory.upload")
    uploader.set_value((name, data, "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_url_round_trip_reproduces_the_picture():
    # settings -> the page's URL -> a fresh session opening that URL -> the same settings and picture
    at = open_theory()
    for name, kind, value in (
        ("w", "slider", -2.5),
        ("T", "slider", 80),
        ("amp", "slider", 0.5),
        ("f", "segmented_control", "tanh"),
        ("seed", "number_input", 3),
    ):
        next(w for w in at.get(kind) if w.key == f"theory.{name}").set_value(value).run()
    link = dict(at.query_params)
    assert set(link) == {urlstate.PARAM}
    again = open_theory({k: v[-1] if isinstance(v, list) else v for k, v in link.items()})
    assert not again.error
    assert shown_settings(again) == shown_settings(at) == dict(w=-2.5, f="tanh", amp=0.5, T=80, seed=3)
    picture = ys(trace(figure(again, "theory-flow"), "RNN ‖"))
    np.testing.assert_array_equal(picture, ys(trace(figure(at, "theory-flow"), "RNN ‖")))
    np.testing.assert_allclose(picture, expected_rnn_flow(-2.5, "tanh", 0.5, 80, 3), rtol=1e-12)
    assert dict(again.query_params) == link


def test_a_late_request_carrying_an_older_link_of_this_session_undoes_nothing():
    # A request the browser sent before the newest URL reached it carries a cfg this session wrote
    # earlier (seen on the Step page: a request after Pause still carried the URL written at Play
    # and took the cursor from step 56 back to step 2). It is an echo, not a new link.
    at = open_theory()
    slider(at, "theory.w").set_value(-1.5).run()
    older = dict(at.query_params)
    slider(at, "theory.w").set_value(2.0).run()
    at.query_params.clear()
    at.query_params.update(older)  # the late request: the older URL …
    slider(at, "theory.amp").set_value(0.3).run()  # … with the user's next change
    assert not at.error and not at.exception
    assert shown_settings(at) == {**asdict(demo.DEFAULTS), "w": 2.0, "amp": 0.3}
    assert url_settings(at) == {**asdict(demo.DEFAULTS), "w": 2.0, "amp": 0.3}  # the URL written again
    # a link this session never wrote (pasted in this tab) is still applied
    at.query_params.clear()
    at.query_params.update(cfg(w=-3.0))
    at.run()
    assert shown_settings(at) == {**asdict(demo.DEFAULTS), "w": -3.0}


def test_old_style_links_are_still_read():
    q = {"w": "-2.5", "f": "tanh", "amp": "0.5", "T": "80", "seed": "3"}
    at = open_theory(q)
    assert not at.error
    assert shown_settings(at) == dict(w=-2.5, f="tanh", amp=0.5, T=80, seed=3)
    np.testing.assert_allclose(
        ys(trace(figure(at, "theory-flow"), "RNN ‖")), expected_rnn_flow(-2.5, "tanh", 0.5, 80, 3), rtol=1e-12
    )
    assert dict(at.query_params) == cfg(w=-2.5, f="tanh", amp=0.5, T=80, seed=3)  # rewritten as ?cfg=


@pytest.mark.parametrize(
    "query, says",
    [
        ({"cfg": "garbage"}, "not a Gate Lab configuration"),
        ({"cfg": '{"w": 99}'}, "between -8 and 8"),
        ({"cfg": '{"T": 3.5}'}, "whole number"),
        ({"cfg": '{"f": "relu"}'}, "must be one of"),
        ({"cfg": '{"colour": "red"}'}, "unknown setting"),
        ({"cfg": '{"seed": 1'}, "not valid JSON"),
        ({"w": "banana", "T": "60"}, "'w'"),  # old-style links are checked the same way
        ({"w": "nan"}, "'w'"),
        ({"T": "100000"}, "'T'"),
        ({"seed": "-1"}, "'seed'"),
        ({"amp": "inf"}, "'amp'"),
    ],
)
def test_a_bad_link_gives_an_error_and_the_defaults(query, says):
    at = open_theory(query)
    messages = [e.value for e in at.error]
    assert any("could not be used" in m and says in m for m in messages), messages
    assert shown_settings(at) == asdict(demo.DEFAULTS)
    assert dict(at.query_params) == {}  # the URL now says what is shown
    assert len(chart_specs(at)) == 2


def test_unknown_url_parameters_are_reported_and_ignored():
    at = open_theory({**cfg(w=2.0), "zoom": "1"})
    assert any("unknown url parameter" in e.value.lower() and "zoom" in e.value for e in at.error)
    assert shown_settings(at)["w"] == 2.0 and dict(at.query_params) == cfg(w=2.0)


def test_settings_survive_a_visit_to_another_page():
    at = open_theory()
    slider(at, "theory.w").set_value(6.0).run()
    at.switch_page("../pages/home.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert slider(at, "theory.w").value == 6.0
    assert dict(at.query_params) == cfg(w=6.0)


def test_reset_restores_the_defaults():
    at = open_theory(cfg(w=7.0, f="tanh"))
    assert shown_settings(at)["f"] == "tanh"
    next(b for b in at.button if b.key == "theory.reset.demo").click().run()
    assert shown_settings(at) == asdict(demo.DEFAULTS)
    assert dict(at.query_params) == {}


def test_import_configuration_json():
    at = open_theory()
    good = export.config_document("theory", None, dict(w=-4.0, f="tanh", amp=0.0, T=30, seed=5)).encode()
    upload(at, "mine.json", good)
    assert not at.error
    assert any("Loaded mine.json" in m.value for m in at.success)
    assert shown_settings(at) == dict(w=-4.0, f="tanh", amp=0.0, T=30, seed=5)
    np.testing.assert_allclose(
        ys(trace(figure(at, "theory-flow"), "RNN ‖")), 4.0 ** np.arange(30), rtol=1e-12
    )


def test_json_round_trip_download_then_upload(media):
    at = open_theory(cfg(w=-1.5, f="tanh", amp=0.2, T=20, seed=9))
    saved = downloaded(at, media, "theory.dl_json")
    assert json.loads(saved)["page"] == "theory"
    picture = ys(trace(figure(at, "theory-flow"), "RNN ‖"))
    other = open_theory()  # a fresh session with the defaults
    upload(other, "gatelab-theory.json", saved)
    assert not other.error
    assert shown_settings(other) == shown_settings(at) == dict(w=-1.5, f="tanh", amp=0.2, T=20, seed=9)
    np.testing.assert_array_equal(ys(trace(figure(other, "theory-flow"), "RNN ‖")), picture)
    assert dict(other.query_params) == dict(at.query_params)


def test_a_file_saved_on_the_step_page_is_refused_clearly(media):
    step = AppTest.from_file(str(ENTRY), default_timeout=60).run()
    step.switch_page("../pages/step.py").run()
    assert not step.exception, [e.value for e in step.exception]
    saved = downloaded(step, media, "step.dl_json")
    assert json.loads(saved)["page"] == "step"
    at = open_theory(cfg(w=2.0))
    upload(at, "gatelab-step.json", saved)
    messages = [e.value for e in at.error]
    assert any(
        "Could not load gatelab-step.json" in m
        and "saved on the 'step' page" in m
        and "loads only configurations saved on itself" in m
        for m in messages
    ), messages
    assert not any("unknown setting" in m for m in messages)
    assert shown_settings(at) == {**asdict(demo.DEFAULTS), "w": 2.0} and dict(at.query_params) == cfg(w=2.0)
    assert len(chart_specs(at)) == 2


@pytest.mark.parametrize(
    "content, says",
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"w": 99}', "neither a Gate Lab"),
        (export.config_document("theory", None, {"w": 99}).encode(), "between -8 and 8"),
        (export.config_document("theory", None, {"w": 1.0, "colour": "red"}).encode(), "unknown setting"),
        (export.config_document("theory", None, {"T": "long"}).encode(), "'T'"),
        (b"\xff\xfe\x00", "not text"),
        (b'{"w": 1, "pad": "' + b"x" * 100_000 + b'"}', "bytes"),
    ],
)
def test_bad_configuration_file_gives_an_error_and_keeps_the_settings(content, says):
    at = open_theory(cfg(w=2.0))
    upload(at, "bad.json", content)
    messages = [e.value for e in at.error]
    assert any("Could not load bad.json" in m and says in m for m in messages), messages
    assert shown_settings(at)["w"] == 2.0 and dict(at.query_params) == cfg(w=2.0)
    assert len(chart_specs(at)) == 2
