"""First sight: every page opened at its defaults tells the story it exists to tell (issue 12).

One test per page. Each opens the page in Chromium exactly as a student would (no settings
changed), checks the page's lesson from what is on screen, and saves screenshots to the ignored
folder tests/e2e/artifacts/first-sight/ — for a person to look at, not committed:
``<page>-1366x768-view.png``, what fits in a laptop's window (the first sight). Under
``make screenshots`` also the same page at 1280×720 with the *Large fonts (projector)* toggle on,
and each size as ``<page>-<size>-full.png``, the whole page (the window stretched to the page's
height, so Streamlit's inner scrolling shows everything). A plain test run leaves those out: they
check nothing (the presenter-mode tests open every page with large fonts) and cost a redraw each.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from app.ui import urlstate

from . import test_train_browser as train
from .conftest import ARTIFACT_DIR, PLOT, REFRESH_DOCS, settle, wait_for_app

pytestmark = pytest.mark.e2e

OUT = ARTIFACT_DIR / "first-sight"
SIZES = {"1366x768": (1366, 768, False), "1280x720-large": (1280, 720, True)}
if not REFRESH_DOCS:
    SIZES = {"1366x768": SIZES["1366x768"]}
FULL_PAGE = REFRESH_DOCS
MAX_FULL_HEIGHT = 7000


def large_toggle(page):
    return (
        page.locator("[data-testid='stSidebar'] label")
        .filter(has_text="Large fonts (projector)")
        .locator("input")
    )


def open_page(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    expect(page.get_by_text("Page not found")).to_have_count(0)


def shoot(page, url: str, name: str, ready=None) -> None:
    """Screenshots of ``url`` (at both sizes under `make screenshots`); ``ready(page)`` waits for
    what must be drawn.

    The page is loaded once (a load is the dearest thing a browser test does, ~4 s of Chromium CPU):
    the second size is the same page resized with *Large fonts* switched on (a rerun, as a teacher
    does it), then switched off again for whatever the test checks next."""
    OUT.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 768})
    open_page(page, url)
    for size, (w, h, large) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        set_large_fonts(page, large)
        if ready is not None:
            ready(page)
        settle(page)
        page.screenshot(path=str(OUT / f"{name}-{size}-view.png"))
        if not FULL_PAGE:
            continue
        full = page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollHeight")
        page.set_viewport_size({"width": w, "height": min(int(full) + 40, MAX_FULL_HEIGHT)})
        wait_for_app(page)
        if ready is not None:
            ready(page)
        settle(page)
        page.screenshot(path=str(OUT / f"{name}-{size}-full.png"))
    # Back to normal fonts for whatever the test checks next (the toggle is shared by every page).
    page.set_viewport_size({"width": 1366, "height": 768})
    set_large_fonts(page, False)
    if ready is not None:
        ready(page)
    settle(page)


def set_large_fonts(page, on: bool) -> None:
    """Switch *Large fonts* on or off and wait for the rerun it starts to have finished: every
    page writes the switch into its link (``?large=1``) when its script runs."""
    toggle = large_toggle(page)
    if toggle.is_checked() != on:
        page.get_by_text("Large fonts (projector)").click()
        expect(toggle).to_be_checked(checked=on)
    page.wait_for_function(LARGE_IN_LINK, arg=on)
    wait_for_app(page)


LARGE_IN_LINK = "(on) => new URLSearchParams(window.location.search).has('large') === on"


def charts_drawn(n: int):
    def ready(page) -> None:
        expect(page.locator(PLOT).nth(n - 1)).to_be_visible()

    return ready


def number(text: str) -> float:
    """A number as the page prints it: '2.3e+06', '0.73', '1,234'."""
    return float(text.replace(",", ""))


def test_gradient_flow_tells_the_cec_story_first(streamlit_server, page):
    url = f"{streamlit_server}/gradient-flow"
    shoot(page, url, "gradient-flow", charts_drawn(2))
    main = page.locator("[data-testid='stMain']")
    claim = main.get_by_text(
        re.compile(r"50 steps back the 1997 cell keeps .* times more error than the RNN")
    )
    expect(claim).to_be_visible()
    ratio = number(re.search(r"keeps ([\d.e+,]+) times", claim.inner_text()).group(1))
    assert ratio >= 1e4, ratio
    # The table's two numbers agree with the claim (kept 50 steps back: 1997 cell / RNN).
    cells = {
        r.locator("td").nth(0).inner_text(): number(r.locator("td").nth(1).inner_text())
        for r in main.locator("table tbody tr").all()
    }
    assert set(cells) == {"RNN", "LSTM 1997"} and cells["LSTM 1997"] / cells["RNN"] >= 1e4, cells
    expect(main.get_by_text("σ(1) = 0.73")).to_be_visible()  # the forget gate, from the bias
    # The forget-gate LSTMs are one click away, and then their measured decay is in the text.
    main.get_by_role("button", name=re.compile("Add the forget-gate LSTMs")).click()
    wait_for_app(page)
    expect(
        main.get_by_text(re.compile(r"Measured per step: LSTM 2000 0\.7\d, LSTM \(PyTorch\) 0\.7\d"))
    ).to_be_visible()
    rows = [r.locator("td").nth(0).inner_text() for r in main.locator("table tbody tr").all()]
    assert rows == ["RNN", "LSTM 1997", "LSTM 2000", "LSTM (PyTorch)"], rows  # the variants' titles
    expect(page.locator("[data-testid='stException']")).to_have_count(0)


# The traces a chart has drawn, found by (part of) its title: Plotly's own full data, i.e. what
# is on screen, not what the server meant to send.
DRAWN = """(title) => { for (const p of document.querySelectorAll('.js-plotly-plot')) {
    const t = (p._fullLayout && p._fullLayout.title && p._fullLayout.title.text) || '';
    if (t.includes(title)) return p._fullData.map(d => ({name: d.name,
        x: d.x ? Array.from(d.x) : [], y: d.y ? Array.from(d.y) : [], z: d.z ? Array.from(d.z, r => Array.from(r)) : []}));
  } return null; }"""


def drawn(page, title: str) -> dict[str, dict]:
    traces = page.evaluate(DRAWN, title)
    assert traces is not None, f"no chart titled {title!r}"
    return {t["name"]: t for t in traces}


def test_home_shows_vanishing_vs_the_carousel_and_a_path_through_the_lessons(streamlit_server, page):
    url = f"{streamlit_server}/"
    shoot(page, url, "home", charts_drawn(1))
    lines = drawn(page, "An error injected at the last step")
    rnn, cec = lines["RNN (h)"]["y"], lines["LSTM 1997 (s)"]["y"]
    assert rnn[0] == pytest.approx(1) and min(rnn) < 1e-3  # the RNN's error fades …
    assert min(cec) > 0.99  # … the carousel keeps it
    cards = page.locator("[data-testid='stMain'] [data-testid='stPageLink']")
    expect(cards).to_have_count(7)  # the guided lessons + six cards
    expect(page.get_by_text("Start the lessons")).to_be_visible()
    expect(page.get_by_text("Step 1 · Step through a cell")).to_be_visible()
    cards.nth(1).click()  # the path starts on Step
    wait_for_app(page)
    expect(page.get_by_role("heading", name="Step through a cell").first).to_be_visible()


def test_step_shows_an_untrained_cell_that_visibly_moves(streamlit_server, page):
    url = f"{streamlit_server}/step"
    shoot(page, url, "step", charts_drawn(5))
    gates = drawn(page, "Gate activations")
    for name in ("input gate", "output gate"):
        ys = gates[name]["y"]
        assert max(ys) - min(ys) > 0.1, (name, min(ys), max(ys))  # not a flat 0.005
    diagram = page.locator(".js-plotly-plot").first
    expect(diagram).to_contain_text("LSTM 1997")  # the variant by its name
    expect(diagram).to_contain_text("input")
    # the inputs are named by the task's symbols where it has them (embedded Reber: B T S X P V E)
    page.goto(f"{url}?{urlstate.PARAM}={urlstate.encode({'task': 'embedded_reber'}, {})}")
    wait_for_app(page)
    charts_drawn(5)(page)
    inputs = drawn(page, "Input x(t)")  # lines named by symbol, or a heat map's rows
    labels = set(inputs) | {str(y) for t in inputs.values() for y in t["y"]}
    assert {f"x {c}" for c in "BTSXPVE"} <= labels, labels


def test_train_shows_the_untrained_net_then_learns_live(streamlit_server, page):
    url = f"{streamlit_server}/train"
    shoot(page, url, "train", charts_drawn(3))
    main = page.locator("[data-testid='stMain']")
    expect(
        main.get_by_text(re.compile(r"input gate [\d.]+ – [\d.]+"))
    ).to_be_visible()  # caption from the run
    train.button(page, "start").click()
    page.wait_for_function(train.SEQUENCES_AT_LEAST, arg=200, timeout=120_000)
    train.pause_and_settle(page)
    loss = [y for t in drawn(page, "Training loss").values() for y in t["y"] if y is not None]
    assert len(loss) >= 2  # the loss curve grows as it trains
    expect(page.locator("[data-testid='stException']")).to_have_count(0)


def test_theory_shows_the_rnn_vanishing_and_the_truncated_cec_exactly_flat(streamlit_server, page):
    url = f"{streamlit_server}/theory"
    shoot(page, url, "theory", charts_drawn(2))
    main = page.locator("[data-testid='stMain']")
    expect(main.get_by_text(re.compile(r"with the 1997 truncation: 1 \(constant"))).to_be_attached()
    assert page.locator(".katex").count() >= 7 and page.locator(".katex-error").count() == 0


def test_bias_lab_default_sweep_shows_the_biases_decide(streamlit_server, page):
    url = f"{streamlit_server}/bias-lab"
    shoot(page, url, "bias-lab")
    page.set_viewport_size({"width": 1400, "height": 1100})
    page.get_by_role("button", name="Train the sweep").click()
    expect(page.get_by_text("Finished in").first).to_be_visible(timeout=600_000)
    wait_for_app(page)
    charts_drawn(2)(page)
    z = [v for row in next(iter(drawn(page, "Success rate").values()))["z"] for v in row if v is not None]
    assert max(z) > min(z), z  # the bias settings make the difference
    settle(page)
    page.screenshot(path=str(OUT / "bias-lab-trained.png"), full_page=True)


def test_experiments_default_run_meets_its_labelled_criterion(streamlit_server, page):
    url = f"{streamlit_server}/experiments"
    shoot(page, url, "experiments", charts_drawn(1))
    page.set_viewport_size({"width": 1400, "height": 1700})
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.get_by_text("Finished in").first).to_be_visible(timeout=600_000)
    wait_for_app(page)
    said = page.get_by_text(re.compile(r"this page median .* solved\)")).first.inner_text()
    solved = int(re.search(r"this page median .*?\((\d+)/\d+ solved\)", said).group(1))
    assert solved >= 1 and len(drawn(page, "")["this page's trials"]["x"]) == solved, said
    settle(page)
    page.screenshot(path=str(OUT / "experiments-run.png"), full_page=True)
