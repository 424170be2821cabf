"""Real browser: Step's timesteps are scrubbed in the browser (issue 48), and the link, the page state
and the server agree with the screen afterwards.

Scrub with the keys on the Timestep slider: the counter, the diagram (its title and gate values), the
four charts' cursor lines and the typeset equations move to the step without the server sending a
figure; once the cursor rests the link names the step and the server's own (hidden) copy of the
equations is the very LaTeX the browser typeset. Then reload: the page opens on that step. Then
Step ← (the Back button): the same again one step back.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from .conftest import DRAWN_AS_PLOTLY_WOULD, screenshot, step_button, step_counter, wait_for_app

pytestmark = pytest.mark.e2e

CHARTS = ["step-diagram", "step-panel0", "step-panel1", "step-panel2", "step-panel3"]
# What every chart shows: its step (app/ui/live_chart.js) and the cursor line's x on the four panels.
SHOWN = (
    "() => Object.fromEntries("
    + json.dumps(CHARTS)
    + """.map(k => { const d = document.querySelector('.st-key-' + k + ' .gatelab-live');
  return [k, d && d._fullLayout ? [d.dataset.step || null, d.dataset.fulls, d.dataset.patches,
                  k === 'step-diagram' ? d._fullLayout.title.text : d._fullLayout.shapes[0].x0] : null]; }))"""
)
# The LaTeX source of the equations typeset by the browser, and of the server's own (hidden) copy.
TEX = """(sel) => { const a = document.querySelector(sel + ' annotation[encoding="application/x-tex"]');
  return a ? a.textContent.replace(/\\s+/g, ' ').trim() : null; }"""
BROWSER_TEX, SERVER_TEX = ".gatelab-eq", ".st-key-step-server-equations"
# The step the address bar's link names (cfg: the settings that differ from the defaults, base64 JSON).
LINK_STEP = """(t) => { const c = new URL(location.href).searchParams.get('cfg');
  if (!c) return false;
  try { return JSON.parse(atob(c.replace(/-/g, '+').replace(/_/g, '/'))).t === t; } catch (e) { return false; } }"""


def everything_at(page, t: int) -> None:
    """The counter, every chart, the equations, the link and the server's copy all say step ``t``."""
    expect(step_counter(page)).to_have_text(re.compile(rf"^{t} / \d+$"))
    page.wait_for_function(
        f"() => {{ const s = ({SHOWN})(); return Object.values(s).every(v => v && v[0] === '{t}'); }}"
    )
    shown = page.evaluate(SHOWN)
    assert f"t = {t}" in shown["step-diagram"][3], shown
    assert all(shown[k][3] == t for k in CHARTS[1:]), shown
    expect(page.locator(".gatelab-eq")).to_have_attribute("data-step", str(t))
    page.wait_for_function(f"() => {{ return ({TEX})('{SERVER_TEX}') === ({TEX})('{BROWSER_TEX}'); }}")
    page.wait_for_function(LINK_STEP, arg=t)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_scrub_then_reload_then_step_back_agree(streamlit_server, page, lang):
    page.set_viewport_size({"width": 1366, "height": 1400})
    page.goto(f"{streamlit_server}/step?lang={lang}")
    wait_for_app(page)
    expect(page.locator(".gatelab-eq .katex")).to_be_visible(timeout=60_000)
    page.wait_for_function(
        f"() => {{ const s = ({SHOWN})(); return Object.values(s).every(v => v && v[0] === '1'); }}"
    )
    before = page.evaluate(SHOWN)

    slider = page.locator(".gatelab-scrub input[type=range]")
    slider.focus()
    for _ in range(8):
        slider.press("ArrowRight")
    everything_at(page, 9)
    after = page.evaluate(SHOWN)
    # no figure came from the server for the scrub (its own run afterwards sends only the frames' id)
    assert all(after[k][1:3] == before[k][1:3] for k in CHARTS), (before, after)
    # and what the browser drew into each chart is what Plotly draws from that layout itself
    for k in CHARTS:
        same, seen = page.evaluate(DRAWN_AS_PLOTLY_WOULD, f".st-key-{k} .gatelab-live")
        assert same, (k, seen)
    screenshot(page, f"step-scrub-{lang}", full_page=False)

    page.reload()
    wait_for_app(page)
    expect(page.locator(".gatelab-eq .katex")).to_be_visible(timeout=60_000)
    everything_at(page, 9)

    step_button(page, "Back" if lang == "en" else "上一步").click()
    everything_at(page, 8)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
