"""Slider previews (app/ui/previews.py): the figure a preview answers is the page run's own figure.

Driven through AppTest: the page's run attaches its preview (with the session's script-run context);
the test asks it as the browser would (``poll``, in this thread, outside the run), then moves the
slider and compares with what the run sends. The browser side (drawn once, ahead of the run) is
tested end to end in tests/e2e/test_pages_browser.py.
"""

from __future__ import annotations

import json
import threading

import pytest
from helpers import chart_specs
from page_helpers import open_page
from streamlit.runtime.scriptrunner import get_script_run_ctx

from app.ui import feeds, form, previews


def sent(at) -> dict[str, dict]:
    """Chart key -> the message a live chart got in the last run (whole figure and alt text)."""
    out: dict[str, dict] = {}

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            if (
                getattr(child, "type", None) == "bidi_component"
                and child.proto.component_name == "gatelab_live_chart"
            ):
                msg = json.loads(child.proto.json)
                out[msg["preview"]["key"] if "preview" in msg else f"#{len(out)}"] = msg
            walk(child)

    walk(at._tree)
    return out


def preview_of(at, page: str) -> previews.Preview:
    pv = at.session_state[previews.ALL_KEY][page]
    assert isinstance(pv, previews.Preview) and feeds.find(pv.token) is pv
    return pv


@pytest.mark.parametrize("lang", ["en", "zh-TW", "zh-CN"])
def test_a_gradient_flow_preview_is_the_figure_the_run_then_sends(lang):
    at = open_page("gradient_flow", {"lang": lang})
    at.button(key="gradient_flow.add_forget").click().run()
    pv = preview_of(at, "gradient_flow")
    before = sent(at)
    assert before["gradient_flow.main_chart"]["preview"]["token"] == pv.token
    assert "gradient_flow.forget_bias" in before["gradient_flow.main_chart"]["preview"]["sliders"]
    answer = pv.poll({"field": "forget_bias", "value": "3.5"})
    assert answer["field"] == "forget_bias" and answer["value"] == 3.5
    figs = answer["figures"]
    assert (
        figs["gradient_flow.main_chart"]["full"] != before["gradient_flow.main_chart"]["full"]
    )  # the new value
    at.slider(key="gradient_flow.forget_bias").set_value(3.5).run()
    after = sent(at)
    # the sliders' values each run's figure was built with: the browser does not draw a run's figure
    # for values its sliders no longer show (app/ui/live_chart.js, ``outdated``)
    assert before["gradient_flow.main_chart"]["preview"]["at"]["forget_bias"] != 3.5
    assert after["gradient_flow.main_chart"]["preview"]["at"]["forget_bias"] == 3.5
    assert set(after["gradient_flow.main_chart"]["preview"]["at"]) <= set(pv.sliders.values())
    for key in ("gradient_flow.main_chart", "gradient_flow.local_chart"):
        assert figs[key]["full"] == after[key]["full"], key  # the very text the run sends
        assert figs[key]["alt"] == after[key]["alt"]
    assert (
        figs["gradient_flow.local_chart"]["full"] == before["gradient_flow.local_chart"]["full"]
    )  # unaffected
    if lang != "en":  # translated in the preview's thread, through the session's language
        axis = json.loads(figs["gradient_flow.main_chart"]["full"])["layout"]["xaxis"]["title"]["text"]
        assert {"zh-TW": "時間", "zh-CN": "时间"}[lang] in axis


def test_a_step_preview_redraws_every_chart_at_the_cursor_the_page_shows():
    at = open_page("step")
    at.button(key="step.fwd").click().run()
    at.button(key="step.fwd").click().run()  # the cursor at step 3: previews keep it
    pv = preview_of(at, "step")
    before = sent(at)
    answer = pv.poll({"field": "b_output", "value": "2.0"})
    at.slider(key="step.b_output").set_value(2.0).run()
    after = sent(at)
    assert set(answer["figures"]) == {
        "step.diagram",
        "step.panel0",
        "step.panel1",
        "step.panel2",
        "step.panel3",
    }
    for key, fig in answer["figures"].items():
        assert fig["full"] == after[key]["full"], key
        assert fig["full"] != before[key]["full"] or key == "step.panel0", key  # the input does not move
    assert at.metric[0].value.startswith("3 /")  # the run drew step 3: so did the preview
    # While playing the cursor moves on: no previews (nor the sliders' list sent with every tick's charts).
    at.segmented_control(key="step.play").set_value("play").run()
    assert sent(at) and not any("preview" in m for m in sent(at).values())
    at.segmented_control(key="step.play").set_value("pause").run()
    assert all("preview" in m for m in sent(at).values())


def test_a_preview_only_reads_and_refuses_what_no_slider_sends():
    at = open_page("gradient_flow")
    pv = preview_of(at, "gradient_flow")
    keys = [f"gradient_flow.{n}" for n in pv.schema.fields if f"gradient_flow.{n}" in at.session_state]
    snapshot = lambda: ({k: at.session_state[k] for k in keys}, set(at.session_state["_page.gradient_flow"]))
    state = snapshot()
    assert pv.poll({"field": "T", "value": "1e9"})["figures"] == {}  # out of range: no preview, no error
    assert pv.poll({"field": "T", "value": "40"})["figures"]  # a whole number of an int slider
    assert snapshot() == state and keys  # nothing written
    for bad in (
        {"field": "variants", "value": "1"},
        {"field": "nope", "value": "1"},
        {"field": "T", "value": "many"},
        {"field": "T", "value": "nan"},
    ):
        with pytest.raises(feeds.BadRequest):
            pv.poll(bad)
    at.run()
    assert not at.exception and chart_specs(at)


def test_a_preview_leaves_no_session_on_the_server_thread_that_asked():
    """The server answers previews from pooled threads that serve every session: the session's
    context must not stay on them (it would follow the thread into another session's request)."""
    at = open_page("gradient_flow")
    pv = preview_of(at, "gradient_flow")
    seen: dict = {}

    def server_thread() -> None:
        seen["figures"] = pv.poll({"field": "T", "value": "40"})["figures"]
        seen["ctx"] = get_script_run_ctx(suppress_warning=True)

    worker = threading.Thread(target=server_thread)
    worker.start()
    worker.join()
    assert seen["figures"] and seen["ctx"] is None


def test_a_preview_is_marked_as_computing_until_answered_so_the_pages_run_can_wait_for_it():
    """``settle`` (a page run's start) waits on ``answered``: clear while the figure is being built,
    set once the answer is ready — also when the builder fails."""
    at = open_page("gradient_flow")
    pv = preview_of(at, "gradient_flow")
    assert at.session_state[previews.ALL_KEY]["gradient_flow"] is pv and pv.answered.is_set()
    during: list[bool] = []
    build = pv.build

    def watched(values):
        during.append(pv.answered.is_set())
        return build(values)

    pv.build = watched
    assert pv.poll({"field": "T", "value": "40"})["figures"] and during == [False] and pv.answered.is_set()

    def broken(values):
        raise RuntimeError("a bug in a builder")

    pv.build = broken
    with pytest.raises(RuntimeError):
        pv.poll({"field": "T", "value": "41"})  # not 40: its answer is kept
    assert pv.answered.is_set()


def test_a_theory_demo_preview_is_the_figure_the_run_then_sends():
    at = open_page("theory")
    pv = preview_of(at, "theory")
    before = sent(at)["theory_flow"]
    answer = pv.poll({"field": "w", "value": "2.5"})["figures"]["theory_flow"]
    assert answer["full"] != before["full"]
    at.slider(key="theory.w").set_value(2.5).run()
    after = sent(at)["theory_flow"]
    assert answer["full"] == after["full"] and answer["alt"] == after["alt"]


def test_a_preview_is_marked_undrawn_until_the_browser_says_it_drew_that_answer():
    """``settle`` waits on ``drawn`` too: clear from the ask until the browser's word for that very
    value (an older answer's word does not count); an answer with nothing to draw needs no word."""
    at = open_page("gradient_flow")
    pv = preview_of(at, "gradient_flow")
    assert pv.drawn.is_set()  # nothing asked yet: a page run waits for nothing
    assert pv.poll({"field": "T", "value": "40"})["figures"]
    assert not pv.drawn.is_set()
    assert (
        pv.poll({"drawn": "T", "value": "41"}) == {"ack": True} and not pv.drawn.is_set()
    )  # another value's
    assert pv.poll({"drawn": "T", "value": "40"}) == {"ack": True} and pv.drawn.is_set()
    pv.build = lambda values: {}  # nothing to draw (as for a setting the core refuses)
    pv.poll({"field": "T", "value": "42"})
    assert pv.drawn.is_set()
    with pytest.raises(feeds.BadRequest):
        pv.poll({"drawn": "T", "value": "nan"})


@pytest.mark.parametrize(
    ("kind", "lo", "hi", "step", "before", "now", "then"),
    [
        ("float", -5.0, 10.0, 0.25, 1.0, 1.25, 1.5),  # a notch after a notch (the keys)
        ("float", -5.0, 10.0, 0.25, 1.25, 1.0, 0.75),  # the other way
        ("float", -5.0, 10.0, 0.25, 1.0, 1.75, 2.5),  # a drag: as far again
        ("float", -5.0, 10.0, 0.25, 9.0, 9.75, 10.0),  # not past the end
        ("float", -5.0, 10.0, 0.25, 9.75, 10.0, None),  # at the end: nowhere further
        (
            "float",
            0.0,
            2.0,
            0.05,
            0.8,
            0.85,
            0.9,
        ),  # on the slider's own notches (0.9, not 0.9000000000000001)
        ("float", -1.5, 1.5, 0.05, 0.95, 0.9, 0.85),
        ("int", 5, 400, 5, 100, 105, 110),
        ("int", 5, 400, 5, 10, 5, None),
        ("float", -5.0, 10.0, 0.25, 1.0, 1.0, None),  # did not move
    ],
)
def test_a_preview_builds_ahead_where_the_slider_goes_on_to(kind, lo, hi, step, before, now, then):
    fld = form.Field("x", "x", kind, lo, lo, hi, step, widget="slider")
    got = previews.onward(fld, before, now)
    assert got == (None if then is None else ("x", then))
    if then is not None:
        assert type(got[1]) is type(then) and repr(got[1]) == repr(then)


def test_the_next_notch_is_built_once_the_answer_is_drawn_and_its_ask_is_answered_with_it(monkeypatch):
    """Once the browser says it has drawn an answer, the answer for the next notch the same way is
    built in the background and kept: that ask is answered with it (no build, no error flow), the
    very text a fresh build gives; an ask nobody built ahead builds (and computes both forget-gate
    networks' error flows)."""
    import lstm_core as lc

    at = open_page("gradient_flow")
    at.button(key="gradient_flow.add_forget").click().run()
    at.number_input(key="gradient_flow.seed").set_value(917_331).run()  # no other test's cache entries
    pv = preview_of(at, "gradient_flow")
    start = pv.at["forget_bias"]
    flows, builds = [], []
    real, build = lc.error_flow, pv.build
    monkeypatch.setattr(lc, "error_flow", lambda *a, **k: flows.append(1) or real(*a, **k))
    pv.build = lambda values: builds.append(values["forget_bias"]) or build(values)

    one, two = start + 0.25, start + 0.5
    assert pv.poll({"field": "forget_bias", "value": str(one)})["figures"] and len(flows) == 2  # on ask
    assert pv.ahead == ("forget_bias", two) and pv.warming is None
    pv.poll({"drawn": "forget_bias", "value": str(start)})  # another value's word: nothing yet
    assert pv.warming is None
    pv.poll({"drawn": "forget_bias", "value": str(one)})  # as the browser says once it has drawn it
    pv.warming.join(timeout=60)
    assert not pv.warming.is_alive() and len(flows) == 4 and builds == [one, two]  # built ahead
    answer = pv.poll({"field": "forget_bias", "value": str(two)})["figures"]
    assert len(flows) == 4 and builds == [one, two]  # answered with what was built ahead
    # Back a notch (a key the other way): the answer for where the slider was is kept, not built again
    back = pv.poll({"field": "forget_bias", "value": str(one)})["figures"]
    assert len(flows) == 4 and builds == [one, two]
    pv.kept.clear()  # what was kept is what a fresh build gives
    assert pv.poll({"field": "forget_bias", "value": str(two)})["figures"] == answer
    assert pv.poll({"field": "forget_bias", "value": str(one)})["figures"] == back
    assert builds == [one, two, two, one]  # (their error flows from the builder's cache)

    # A jump (a click on the track) is built on ask, and a newer ask stops work not started yet.
    jump = start + 3.0
    assert pv.poll({"field": "forget_bias", "value": str(jump)})["figures"] and len(flows) == 6
    assert pv.ahead == ("forget_bias", start + 3.0 + 3.0 - 0.25)
    held = []  # the warm-up's thread, started by the test once a newer ask has come
    monkeypatch.setattr(threading.Thread, "start", lambda self: held.append(self))
    pv.poll({"drawn": "forget_bias", "value": str(jump)})
    monkeypatch.undo()  # the real start again (and the real lc.error_flow: counted below by hand)
    monkeypatch.setattr(lc, "error_flow", lambda *a, **k: flows.append(1) or real(*a, **k))
    pv.asked = ("forget_bias", start + 4.0)  # the newer ask (its own answer is what counts)
    assert held == [pv.warming]
    pv.warming.start()
    pv.warming.join(timeout=60)
    assert not pv.warming.is_alive() and len(flows) == 6
    at.run()
    assert not at.exception


def test_a_preview_keeps_its_last_answers_only():
    """The answers kept are the last ``KEEP`` built (a session's memory stays bounded); the oldest goes
    first, and one asked for again counts as new."""
    import plotly.graph_objects as go

    at = open_page("theory")
    pv = preview_of(at, "theory")
    builds = []
    pv.build = lambda values: builds.append(values["amp"]) or {"flow": (go.Figure(), "alt", None)}
    values = [round(0.5 + 0.1 * k, 2) for k in range(previews.KEEP + 2)]
    for v in values:
        assert pv.poll({"field": "amp", "value": str(v)})["figures"]
    assert len(pv.kept) == previews.KEEP and builds == values
    pv.poll({"field": "amp", "value": str(values[2])})  # kept: used, and now the newest
    pv.poll({"field": "amp", "value": str(values[-1] + 0.1)})  # a new one: the oldest (values[3]) goes
    pv.poll({"field": "amp", "value": str(values[2])})
    pv.poll({"field": "amp", "value": str(values[3])})
    assert builds == [*values, values[-1] + 0.1, values[3]]


@pytest.mark.parametrize("change", ["cursor", "language", "setting"])
def test_an_answer_built_ahead_is_used_only_where_it_was_built_from_the_same(change):
    """Step's preview builder reads the cursor besides the settings, and every page's reads the
    language: an answer kept (built ahead) at another cursor, in another language or for other
    settings is not the answer — the ask builds its own, the same text as the page's run then sends."""
    at = open_page("step")
    pv = preview_of(at, "step")
    start = pv.at["b_output"]
    assert pv.poll({"field": "b_output", "value": str(start + 0.25)})["figures"]
    pv.poll({"drawn": "b_output", "value": str(start + 0.25)})
    pv.warming.join(timeout=60)
    assert len(pv.kept) == 2  # the answer asked for and the one built ahead
    ahead = next(reversed(pv.kept.values()))
    if change == "cursor":
        at.button(key="step.fwd").click().run()
    elif change == "language":
        at.query_params["lang"] = "zh-TW"
        at.run()
    else:
        at.number_input(key="step.seed").set_value(4_242).run()
    pv = preview_of(at, "step")
    at.slider(key="step.b_output").set_value(start + 0.25).run()
    answer = pv.poll({"field": "b_output", "value": str(start + 0.5)})["figures"]
    assert answer != ahead
    at.slider(key="step.b_output").set_value(start + 0.5).run()
    after = sent(at)
    for key, fig in answer.items():
        assert fig["full"] == after[key]["full"], key


@pytest.mark.parametrize("page", ["gradient_flow", "step", "theory"])
def test_a_pages_preview_outlives_its_runs(page):
    """One preview per page for the session, kept across runs (its socket stays open and what it
    built ahead stays usable): a page whose settings were defined in its own file (re-run at every
    run) made a new one at every run — Theory's, each notch a page run's time."""
    at = open_page(page)
    pv = preview_of(at, page)
    at.run()
    at.run()
    assert preview_of(at, page) is pv
    assert sent(at) and all(m["preview"]["token"] == pv.token for m in sent(at).values() if "preview" in m)
