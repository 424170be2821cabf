"""Keep the user's zoom on Plotly charts across live updates.

Streamlit 1.67 hashes a Plotly figure into the chart's element id, so every update that changes
the figure (a training tick, a slider, the step cursor) mounts a *new* chart and Plotly's own
``layout.uirevision`` never gets a chance to keep the zoom. This module mounts, once per page,
a tiny script-only ``st.components.v2`` component that does what ``uirevision`` would:

- it listens to ``plotly_relayout`` on every chart that has a Streamlit ``key`` (its container
  carries the class ``st-key-<key>``) and remembers the axis ranges the user zoomed or panned to,
  together with the figure's ``layout.uirevision``;
- when a chart with the same key is mounted again with the same ``uirevision``, it applies the
  remembered ranges; a double click (autoscale) forgets them.

Figure builders therefore keep setting a constant ``uirevision`` per chart (change it to reset
the zoom on purpose). The state lives in the browser tab only, so sessions never share it.
"""
from __future__ import annotations

import streamlit as st

KEY = "gatelab-zoom-keeper"

JS = r"""
export default function () {
  if (window.__gatelabZoom) return;            // one keeper per browser tab
  const saved = {};                            // chart key -> {rev, ranges}
  window.__gatelabZoom = saved;
  const keyOf = (plot) => {
    const box = plot.closest('[class*="st-key-"]');
    const m = box && box.className.match(/(?:^|\s)st-key-(\S+)/);
    return m ? m[1] : null;
  };
  const revOf = (plot) => String((plot.layout && plot.layout.uirevision) ?? '');
  const restore = (plot, key, tries) => {
    const z = saved[key];
    if (!z || z.rev !== revOf(plot)) return;
    if (!plot._fullLayout || !window.Plotly) {          // not drawn yet: try on the next frames
      if (tries < 60) requestAnimationFrame(() => restore(plot, key, tries + 1));
      return;
    }
    // No "restoring" flag: the relayout this causes reports exactly the saved ranges, which the
    // listener stores again (a no-op). A flag cleared when relayout's promise settles stayed set
    // for ever when a rerun replaced the chart mid-relayout, and every later zoom was ignored.
    Promise.resolve(window.Plotly.relayout(plot, z.ranges)).catch(() => {});   // a replaced chart may reject
  };
  const watch = (plot) => {
    if (plot.__gatelabWatched || typeof plot.on !== 'function') return;
    const key = keyOf(plot);
    if (!key) return;
    plot.__gatelabWatched = true;
    plot.on('plotly_relayout', (ev) => {
      if (!ev) return;
      const keys = Object.keys(ev);
      if (keys.some((k) => /axis\d*\.autorange$/.test(k) && ev[k])) { delete saved[key]; return; }
      const ranges = keys.filter((k) => /^[xy]axis\d*\.range(\[[01]\])?$/.test(k));
      if (!ranges.length) return;
      const z = saved[key] && saved[key].rev === revOf(plot) ? saved[key] : { rev: revOf(plot), ranges: {} };
      ranges.forEach((k) => { z.ranges[k] = ev[k]; });
      saved[key] = z;
    });
    restore(plot, key, 0);
  };
  const scan = () => document.querySelectorAll('.js-plotly-plot').forEach(watch);
  new MutationObserver(scan).observe(document.body, { childList: true, subtree: true, attributes: true,
                                                      attributeFilter: ['class'] });
  scan();
}
"""
# The keeper draws nothing: hide its (empty) element so it takes no room in the sidebar.
CSS = f".st-key-{KEY} {{ display: none; }}"

_keeper = st.components.v2.component("gatelab_zoom_keeper", js=JS, css=CSS, isolate_styles=False)


def keep_zoom() -> None:
    """Mount the zoom keeper (call once per script run, outside any fragment)."""
    _keeper(key=KEY)
