"""Train and watch never throws a run away (AppTest): Stop, a setting change and "Start again" each leave
the trained run on screen or one click away ("Back to the previous run"), and a second press of a
button whose first press is still in flight changes nothing."""

from __future__ import annotations

from train_page_helpers import data, errors, open_page, run_of, start

from app.train import live_run


def charts(at) -> dict:
    return {k: v for k, v in data(at).items() if k != "progress"}


def test_stop_keeps_the_run_on_screen_with_its_curves_and_export():
    at = start(open_page(), ticks=3)
    at.button(key="train.stop").click().run()
    run = run_of(at)
    assert run.status == "stopped" and run.sequences > 0
    shown = charts(at)
    at.run()  # a later run of the page shows the same run
    assert run_of(at) is run and charts(at) == shown
    assert at.button(key="train.keep_a").disabled is False
    assert any("the run stays on screen" in i.value for i in at.info)
    assert at.button(key="train.go").label == "Start again"


def test_a_setting_change_then_back_carries_on_with_the_same_run():
    at = start(open_page(), ticks=3)
    run = run_of(at)
    at.number_input(key="train.lr").set_value(0.5).run()
    assert run_of(at) is run and run.status == "paused"
    at.number_input(key="train.lr").set_value(1.0).run()  # the run's own settings again
    assert run_of(at) is run
    assert at.button(key="train.go").label == "Resume"
    assert not any("You changed the settings" in i.value for i in at.info)
    at.button(key="train.go").click().run()
    assert run_of(at) is run and run.status == "running"


def test_start_again_keeps_the_replaced_run_one_click_away_with_its_settings():
    at = start(open_page(), ticks=3)
    first = run_of(at)
    at.button(key="train.stop").click().run()
    assert at.button(key="train.back").disabled
    at.number_input(key="train.lr").set_value(0.3).run()
    at.button(key="train.go").click().run()  # "Start a new run" with lr 0.3
    second = run_of(at)
    assert second is not first and second.trainer.config.lr == 0.3 and second.status == "running"
    at.run()
    assert second.sequences > 0
    assert not at.button(key="train.back").disabled
    at.button(key="train.back").click().run()  # the first run and its learning rate are back
    assert not at.exception and not errors(at), errors(at)
    assert run_of(at) is first and first.status == "stopped"
    assert at.number_input(key="train.lr").value == 1.0
    assert second.status == "paused" and at.session_state["_page.train"]["live"].previous is second
    at.button(key="train.back").click().run()  # and back again: nothing was lost either way
    assert run_of(at) is second and at.number_input(key="train.lr").value == 0.3


def test_a_press_the_browser_reported_is_applied_once_as_the_user_saw_it(monkeypatch):
    """The press witness (app/ui/actions.py): the button callback applies the press as the browser saw it
    ("pause the run I see running"), once; a re-sent or late copy of it changes nothing, even when the
    button was drawn again meanwhile with another action (a second "Pause" never resumes); a press for a
    run no longer shown is refused with a message; a client without the script gets the drawn action, and
    once the script has reported, a trigger without a new report (Streamlit dispatching on_click twice) is
    ignored."""
    import types

    from app.train import controls, live_state
    from app.train import settings as train_settings
    from app.ui import actions, state

    run = live_run.new_run(train_settings.build_trainer(train_settings.DEFAULTS), "key", "label", "paused")
    session: dict = {"_page.train": {"live": live_state.TrainState(run=run)}}
    fake = types.SimpleNamespace(session_state=session)
    monkeypatch.setattr(actions, "st", fake)
    monkeypatch.setattr(state, "st", fake)
    controls.press("start")  # no report from the browser: the drawn action
    assert run.status == "running"
    live_run.tick(run)  # a first point (Keep as run A keeps curves)
    pause = {"button": "train.go", "action": "pause", "run": run.name, "id": 1_000, "label": "Pause"}

    def report(*presses, sent):
        session["gatelab-witness-train"] = {"report": {"presses": list(presses), "sent": sent}}

    report(pause, sent=2)
    controls.witnessed()  # the re-sent report arrives first ...
    assert run.status == "paused"
    report(pause, sent=1)
    controls.press("start")  # ... then the first message, late, on a button drawn as
    controls.witnessed()  # "Resume" meanwhile: a copy, nothing more happens
    assert run.status == "paused", "a copy of the Pause press resumed the run"
    resume = {**pause, "action": "start", "id": 1_001, "label": "Resume"}
    keep = {**pause, "button": "train.keep_a", "action": "keep_a", "id": 1_002, "label": "Keep as run A"}
    report(pause, resume, keep, sent=3)  # two presses in one report (the first still listed)
    controls.press("start")
    assert run.status == "running" and session["_page.train"]["live"].run_a is not None
    controls.press("pause")  # a trigger without a new report, once the script has
    assert run.status == "running"  # reported: Streamlit running on_click again, not a press
    session.pop("gatelab-witness-train")  # (even when the component's value was cleared)
    controls.press("pause")
    assert run.status == "running"
    report({**pause, "run": "an-older-run", "id": 1_003}, sent=4)
    controls.press("pause")
    assert run.status == "running" and "no longer shown" in session["_page.train"]["live"].notice
