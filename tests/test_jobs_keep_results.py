"""The pages that train long jobs (Bias lab sweeps and demos, Paper experiments) never throw a run away
(AppTest): Stop keeps the results so far on screen, and a changed setting leaves the trained results
shown, saying that the next press trains with the new settings."""

from __future__ import annotations

import test_bias_lab_page as lab
import test_experiments_page as exp


def infos(at) -> list[str]:
    return [i.value for i in at.info]


def test_bias_lab_a_stopped_sweep_keeps_its_results_and_a_setting_change_keeps_them_too():
    # long sequences, more seeds: 3,000 sequences of 10 steps for 12 networks finished within the
    # first run on a fast machine (1.8 s), so Stop found nothing to stop
    at = lab.open_lab({**lab.TINY, "two_sequence.T": 100, "n_seeds": 4, "budget": 4500})
    at.button(key="bias_lab.train").click().run()  # one tick of training (AppTest: one run, one tick)
    assert at.get("progress"), "the sweep should still be training"
    at.button(key="bias_lab.stop").click().run()
    assert not at.get("progress") and any(w.value.startswith("Stopped by you") for w in at.warning)
    shown = lab.charts(at)["bias-success"]["data"][0]["z"]
    at.slider(key="bias_lab.n_seeds").set_value(3).run()  # another setting: nothing is erased
    assert not at.exception
    assert lab.charts(at)["bias-success"]["data"][0]["z"] == shown
    assert any("The results below are from the settings you trained with" in i for i in infos(at))


def test_bias_lab_a_demo_keeps_its_results_when_a_setting_changes():
    at = lab.open_lab({**lab.TINY, "view": "abuse", "budget": 40})
    at = lab.run_job(at, "run_abuse")
    before = {k: v["data"] for k, v in lab.charts(at).items() if k and "abuse" in k}
    assert before
    at.number_input(key="bias_lab.budget").set_value(60).run()
    after = {k: v["data"] for k, v in lab.charts(at).items() if k and "abuse" in k}
    assert after == before
    assert any("press **Train both settings**" in i for i in infos(at))


def test_experiments_a_finished_run_stays_after_a_setting_change_and_says_the_next_run_uses_it():
    # the page's largest budget: 5,000 sequences finished within the first run on a fast machine
    at = exp.open_exp({"experiment": "long_lag_rnn", "trials": 3, "budget": 20_000, "seed": 2})
    at.button(key="experiments.run").click().run()
    at.button(key="experiments.stop").click().run()  # stopped after one tick: kept
    assert any(w.value.startswith("Stopped by you") for w in at.warning)
    table = at.dataframe[1].value
    here = table[table.source.str.startswith("this page")]
    assert len(here) == 1
    at.slider(key="experiments.trials").set_value(4).run()
    table = at.dataframe[1].value
    assert table[table.source.str.startswith("this page")].equals(here)
    assert any("press **Run** to train with the new ones" in i for i in infos(at))
