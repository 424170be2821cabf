"""Presenter mode and large fonts: switches in the sidebar and in the link (?present=1, ?large=1).

Presenting means large fonts, no page introduction, no export/import box and no developer captions;
both switches survive the page writing its own settings into the URL."""

from __future__ import annotations

import pytest
from page_helpers import open_page
from streamlit.testing.v1 import AppTest

from app.ui import state

PAGES = ["step", "train", "gradient_flow", "bias_lab", "experiments", "theory", "home", "lessons"]


def expander_labels(at: AppTest) -> list[str]:
    return [e.label for e in at.expander]


@pytest.mark.parametrize("page", PAGES)
def test_present_in_the_link_turns_presenter_mode_on_and_stays_in_the_link(page):
    at = open_page(page, {"present": "1"})
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state[state.PRESENT_KEY] is True
    assert "Export and import" not in expander_labels(at)
    assert at.query_params.get("present") == "1"
    at.run()  # a second run keeps it (the URL is ours now)
    assert at.session_state[state.PRESENT_KEY] is True


def test_large_fonts_in_the_link_and_the_switch_write_the_link():
    at = open_page("gradient_flow", {"large": "1"})
    assert at.session_state[state.LARGE_FONTS_KEY] is True and not at.error
    assert at.query_params.get("large") == "1"
    at.toggle(key=state.LARGE_FONTS_KEY).set_value(False).run()
    assert "large" not in at.query_params
    at.toggle(key=state.PRESENT_KEY).set_value(True).run()
    assert "present" in at.query_params
    assert "Export and import" not in expander_labels(at)
    at.toggle(key=state.PRESENT_KEY).set_value(False).run()
    assert "present" not in at.query_params and "Export and import" in expander_labels(at)


def test_presenting_turns_large_fonts_on_in_every_chart():
    at = open_page("gradient_flow", {"present": "1"})
    plain = open_page("gradient_flow")
    from helpers import chart_specs

    size = lambda a: chart_specs(a)[0]["layout"]["font"]["size"]
    assert size(at) > size(plain)


def test_an_unknown_parameter_is_still_reported_next_to_the_display_ones():
    at = open_page("train", {"present": "1", "zoom": "2"})
    assert any("unknown url parameter" in e.lower() and "zoom" in e for e in [x.value for x in at.error])
    assert at.session_state[state.PRESENT_KEY] is True
