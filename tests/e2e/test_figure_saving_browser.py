"""Real browser: a chart's save button downloads a named SVG holding the chart's title and legend
(issue 32) — a live chart (Gradient flow), a Streamlit chart (Home) and the cell diagram (Step),
whose toolbar shows the save buttons only — and the button beside it the same picture as a PNG of
the same name at twice the size on screen (issue 45), in English and in Chinese."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import screenshot, settle, wait_for_app

pytestmark = pytest.mark.e2e

SAVE = ".modebar-btn[data-title='Download plot']"
PNG = ".modebar-btn[data-title='Download plot as a PNG']"


def download(page, plot, selector: str, expected_name: str, tmp_path) -> bytes:
    """Hover ``plot``, click its button ``selector``; the downloaded file's bytes (checked: its name)."""
    plot.scroll_into_view_if_needed()
    plot.hover()
    button = plot.locator(selector)
    expect(button).to_have_count(1)
    with page.expect_download() as info:
        button.click()
    file = info.value
    assert file.suggested_filename == expected_name
    path = tmp_path / file.suggested_filename
    file.save_as(path)
    return path.read_bytes()


def save(page, plot, expected_name: str, tmp_path) -> str:
    """Hover ``plot``, click its SVG save button; the downloaded file's text (checked: its name)."""
    return download(page, plot, SAVE, expected_name, tmp_path).decode()


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height (its IHDR chunk), after checking it is a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def first_plot(page, url: str, plot: str):
    """Open ``url``, wait until its charts are drawn; the first drawn plot matching ``plot``."""
    page.goto(url)
    wait_for_app(page)
    settle(page)
    return page.locator(plot).first


LIVE = ".gatelab-live.js-plotly-plot"


def test_live_chart_saves_a_named_svg_with_title_and_legend(streamlit_server, page, tmp_path):
    plot = first_plot(page, f"{streamlit_server}/gradient-flow", LIVE)
    svg = save(page, plot, "gatelab-gradient-flow-rnn-lstm1997-t100-bptt.svg", tmp_path)
    assert svg.lstrip().startswith("<svg")
    assert "Error flowing back from the last step" in svg  # the title
    assert "LSTM 1997" in svg and "RNN" in svg  # the legend's entries (the variants' titles)
    assert "legend" in svg
    screenshot(page, "figure-save-gradient-flow", full_page=False)


def test_home_chart_saves_a_named_svg(streamlit_server, page, tmp_path):
    # Home's chart is a live chart since issue 33 (one Plotly per page); the Bias lab's heat maps
    # below are the Streamlit charts that remain
    plot = first_plot(page, f"{streamlit_server}/", LIVE)
    svg = save(page, plot, "gatelab-error-flow-rnn-lstm1997.svg", tmp_path)
    assert "An error injected at the last step, followed back in time" in svg


def test_live_chart_saves_a_2x_png_of_the_same_name(streamlit_server, page, tmp_path):
    plot = first_plot(page, f"{streamlit_server}/gradient-flow", LIVE)
    data = download(page, plot, PNG, "gatelab-gradient-flow-rnn-lstm1997-t100-bptt.png", tmp_path)
    box = plot.bounding_box()
    width, height = png_size(data)
    assert (width, height) == (round(2 * box["width"]), round(2 * box["height"])), (width, height, box)
    screenshot(page, "figure-save-png-gradient-flow", full_page=False)


def test_chinese_page_saves_png_and_svg_with_chinese_words(streamlit_server, page, tmp_path):
    plot = first_plot(page, f"{streamlit_server}/gradient-flow?lang=zh-TW", LIVE)
    plot.hover()
    png = plot.locator(".modebar-btn[data-title='下載圖表為 PNG 圖檔']")
    expect(png).to_have_count(1)
    data = download(
        page,
        plot,
        ".modebar-btn[data-title='下載圖表為 PNG 圖檔']",
        "gatelab-gradient-flow-rnn-lstm1997-t100-bptt.png",
        tmp_path,
    )
    assert png_size(data)[0] > 0
    svg = download(
        page,
        plot,
        ".modebar-btn[data-title='下載圖表']",
        "gatelab-gradient-flow-rnn-lstm1997-t100-bptt.svg",
        tmp_path,
    ).decode()
    assert "LSTM 1997" in svg and any(
        "\u4e00" <= ch <= "\u9fff" for ch in svg
    )  # the title and legend in Chinese


def test_cell_diagram_toolbar_is_the_save_buttons_only(streamlit_server, page, tmp_path):
    diagram = first_plot(page, f"{streamlit_server}/step", LIVE)
    diagram.hover()
    expect(diagram.locator(".modebar-btn")).to_have_count(2)  # SVG and PNG
    svg = save(page, diagram, "gatelab-cell-diagram-lstm1997-block-1-cell-1.svg", tmp_path)
    assert svg.lstrip().startswith("<svg") and "LSTM 1997" in svg and "step t = 1" in svg  # the title


def test_bias_lab_heat_map_saves_and_its_toolbar_is_the_save_button_only(streamlit_server, page, tmp_path):
    heat = first_plot(page, f"{streamlit_server}/bias-lab", LIVE)  # the baseline heat map
    heat.scroll_into_view_if_needed()
    heat.hover()
    expect(heat.locator(".modebar-btn")).to_have_count(2)  # SVG and PNG
    svg = save(page, heat, "gatelab-bias-baseline-success-lstm1997-two-sequence.svg", tmp_path)
    assert "Success rate" in svg and "solved" in svg  # the title and the colour bar's title
    assert "<image" in svg  # the heat map's cells (Plotly embeds them as an image)
    screenshot(page, "figure-save-bias-lab", full_page=False)


def test_a_chart_drawn_from_new_line_values_saves_under_the_new_settings(streamlit_server, page, tmp_path):
    """A slider notch that only changes line values is drawn without a new Plotly config
    (``quickLines`` and ``named`` in app/ui/live_chart.js): the file names, which name the settings,
    still follow it, in both buttons."""
    plot = first_plot(page, f"{streamlit_server}/theory", ".st-key-theory_flow " + LIVE)
    save(page, plot, "gatelab-theory-error-flow-w3-fsigmoid-amp1-t50-seed0.svg", tmp_path)
    quick = int(plot.get_attribute("data-quick-lines") or 0)
    page.locator("[data-testid='stSlider']").filter(has_text="input amplitude").get_by_role("slider").press(
        "ArrowRight"
    )
    page.wait_for_function(
        "([el, n]) => Number(el.dataset.quickLines || 0) > n",
        arg=[plot.element_handle(), quick],
        timeout=30_000,
    )
    wait_for_app(page)
    name = "gatelab-theory-error-flow-w3-fsigmoid-amp1.1-t50-seed0"
    save(page, plot, name + ".svg", tmp_path)
    download(page, plot, PNG, name + ".png", tmp_path)
