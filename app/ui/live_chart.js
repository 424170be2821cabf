// One Plotly.js per browser tab: app/static's bundle (served as JavaScript) through an ordinary
// <script> tag, so the browser caches it and keeps its compiled code between visits. SRC's ?v= names
// the plotly.js version: a new one is a new URL.
const SRC = 'app/static/__FILE__?v=__VERSION__';
const plotly = () => (__LOADER__)(SRC);

// Plotly's own words in the chart's language (config.locale, app/ui/saving.py): plotly.js's locale file
// (app/static/plotly-locale-zh-tw.js …), loaded once per tab and registered on this page's Plotly. The
// file registers itself on the global Plotly, Streamlit's copy (or none) at other times, so ours stands
// there while it runs. Should the file not load, Plotly's words stay English but for those the chart's
// config.locales carries (app/ui/live.py: the ones Gate Lab says otherwise).
function locale(P, name) {
  const all = window.__gatelabLocales || (window.__gatelabLocales = {});
  return all[name] || (all[name] = new Promise((ok) => {
    const before = window.Plotly, s = document.createElement('script');
    s.src = new URL('app/static/plotly-locale-' + name.toLowerCase() + '.js?v=__VERSION__', document.baseURI).href;
    s.onload = s.onerror = () => { if (window.Plotly === P) window.Plotly = before; ok(); };
    window.Plotly = P;
    document.head.appendChild(s);
  }));
}

// The PNG button beside Plotly's own save button (an SVG): plotly.js has one image button, so the second
// is a custom button, built here from the config's gatelabPng (app/ui/saving.py: a button is a function,
// which the config sent as JSON cannot hold). Same file name, twice the on-screen resolution. The button
// is kept on the div and reused while its settings but the file name stay (the name, read on a click,
// follows the page's settings): Plotly.react compares the config, and a new click function each update
// would make it a new config — a full redraw that drops a drag-zoom under way.
function withPng(P, config, div) {
  const png = config && config.gatelabPng;
  if (!png) return config || {};
  const out = Object.assign({}, config);
  delete out.gatelabPng;
  const key = JSON.stringify(Object.assign({}, png, { filename: null }));
  if (!div.__png || div.__png.key !== key) {
    div.__png = { key, button: {
      name: 'toPng', title: png.title, icon: P.Icons['camera-retro'] || P.Icons.camera,
      click: (gd) => P.downloadImage(gd, { format: 'png', scale: png.scale, filename: div.__png.filename }),
    } };
  }
  div.__png.filename = png.filename;
  const button = div.__png.button;
  if (out.modeBarButtons) out.modeBarButtons = out.modeBarButtons.map((g, i) => (i ? g : g.concat([button])));
  else out.modeBarButtonsToAdd = (out.modeBarButtonsToAdd || []).concat([button]);
  return out;
}

// The config without the download's file names, which name the settings (every slider notch a new
// name): a chart whose config differs only in them is the same chart. Its names are written where
// Plotly and the PNG button read them on a click (``named``), so neither a quick drawing nor
// Plotly.react, which redraws everything new for any other config (measured on Theory: every notch),
// needs a new config for them.
function configKey(config) {
  const c = Object.assign({}, config || {});
  for (const k of ['toImageButtonOptions', 'gatelabPng']) if (c[k]) c[k] = Object.assign({}, c[k], { filename: null });
  return JSON.stringify(c);
}
function named(div, config) {
  const opts = config && config.toImageButtonOptions;
  if (opts && div._context && div._context.toImageButtonOptions) div._context.toImageButtonOptions = Object.assign({}, opts);
  if (div.__png && config && config.gatelabPng) div.__png.filename = config.gatelabPng.filename;
}

const TYPED = { f8: Float64Array, f4: Float32Array, i1: Int8Array, u1: Uint8Array, i2: Int16Array,
                u2: Uint16Array, i4: Int32Array, u4: Uint32Array, i8: BigInt64Array, u8: BigUint64Array };
function plain(v) {
  // A trace array as sent whole (Plotly's base64 typed array) or already decoded, as a JS array.
  if (v == null) return [];
  if (Array.isArray(v)) return v;
  if (ArrayBuffer.isView(v)) return Array.from(v);
  if (typeof v.bdata === 'string') {
    const bin = atob(v.bdata), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return Array.from(new TYPED[v.dtype](bytes.buffer), Number);
  }
  return [];
}

function apply(spec, patch) {
  // Append new points to traces, then overwrite the layout keys that changed.
  for (const [i, cols] of Object.entries(patch.extend || {})) {
    const tr = spec.data[Number(i)];
    for (const [k, v] of Object.entries(cols)) tr[k] = plain(tr[k]).concat(v);
  }
  for (const [k, v] of Object.entries(patch.layout || {})) spec.layout[k] = v;
  return spec;
}

// A live feed (app/ui/feeds.py): the browser asks the server for the points after the last one it has
// (one WebSocket message each way) and appends them, without a Streamlit script run per update. One
// feed per token, shared by the charts that show it; it ends when the run stops, is replaced (closed
// by the server) or no chart shows it any more.
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
function open(token) {
  return new Promise((ok) => {
    // No feed on this server (app/main.py run as a script): once one socket failed to open, the tab
    // stops trying (each page run would try again), and the page's runs draw everything.
    if (window.__gatelabNoFeeds) { ok(null); return; }
    const u = new URL('__FEED__' + token, document.baseURI);
    u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(u);
    ws.onopen = () => ok(ws);
    ws.onerror = () => { if (ws.readyState !== WebSocket.OPEN) window.__gatelabNoFeeds = true; ok(null); };
  });
}
function ask(ws, after) {
  return new Promise((ok) => {
    ws.onmessage = (e) => ok(JSON.parse(e.data));
    ws.onclose = () => ok(null);             // the run was replaced, or the session ended
    ws.send(JSON.stringify({ after }));
  });
}
function join(div, token) {
  const all = window.__gatelabFeeds || (window.__gatelabFeeds = {});
  let f = all[token];
  if (!f) {
    f = all[token] = { subs: new Set([div]), after: -1 };     // before the loop: it checks at once
    (async () => {
      const ws = await open(token);
      let t0 = performance.now(), next = ws && ask(ws, f.after);
      while (ws) {
        const r = await next;
        if (!r) break;
        if (r.x.length) f.after = r.x[r.x.length - 1];
        for (const d of [...f.subs]) if (!d.isConnected || d.__token !== token) f.subs.delete(d);
        if (!r.active || !f.subs.size) { for (const d of f.subs) take(d, r); break; }
        // Ask for the next points before drawing these: the server trains while the browser draws.
        // The server's period (longer when many runs train) counts from the last request's start.
        // A hidden tab asks once a second, as the browser slows a hidden tab's timers (the fragment
        // timer this feed replaces): a forgotten tab does not train at full speed.
        const wait = Math.max(r.every * 1000 - (performance.now() - t0), r.x.length ? 0 : 100,
                              document.hidden ? 1000 : 0);
        if (wait <= 0) { t0 = performance.now(); next = ask(ws, f.after); }
        for (const d of f.subs) take(d, r);
        if (wait > 0) { await sleep(wait); t0 = performance.now(); next = ask(ws, f.after); }
      }
      if (ws) ws.close();
      delete all[token];
    })();
  }
  f.subs.add(div);
}

// Slider previews (app/ui/previews.py): when a page slider shows a new value, ask the page's preview
// for the charts at that value (one WebSocket per page, shared by its charts) and draw the answer
// without waiting for the page's run; the run's own figure, identical, is then not drawn again. An
// answer for a value the slider no longer shows is dropped; only the newest wish is sent.
const keyClass = (k) => '.st-key-' + k.trim().replace(/[^a-zA-Z0-9_-]/g, '-');
const sliderInput = (wkey) => document.querySelector(keyClass(wkey) + ' input[type=range]');
function preview(div, p) {
  const all = window.__gatelabPreviews || (window.__gatelabPreviews = {});
  let v = all[p.token];
  if (!v) {
    v = all[p.token] = { divs: new Map(), sliders: {}, last: {}, asked: {}, want: null, ws: null, busy: false };
    open(p.token).then((ws) => {
      if (!ws) return;               // no preview on this server: the page's runs draw (v stays, unopened)
      v.ws = ws;
      ws.onclose = () => { v.ws = null; delete all[p.token]; };
      ws.onmessage = (e) => {
        const r = JSON.parse(e.data);
        if (r.ack) { v.acks = (v.acks || 0) + 1; return; }   // the server heard an answer is drawn (below)
        v.busy = false; v.answers = (v.answers || 0) + 1; shown(v, r); send(v);
      };
      send(v);
    });
  }
  v.divs.set(p.key, div);
  v.sliders = p.sliders;
  for (const [wkey, name] of Object.entries(v.sliders)) {   // the values on screen: a move is away from these
    const input = sliderInput(wkey);
    if (input && !(name in v.last)) v.last[name] = Number(input.value);
  }
  watchSliders();
}
// One listener for the whole page, not one per slider input: a slider drawn after the charts (a busy
// browser renders the charts first) or redrawn by a run is a new input that no chart render may follow
// (an unchanged figure is not sent again), so its first move went unseen and was not previewed.
function watchSliders() {
  if (window.__gatelabSliders) return;
  window.__gatelabSliders = true;
  // For each preview watching ``input``'s slider: its setting name. ``seed``: the value on screen, for
  // a slider not seen yet (a move is away from it).
  const each = (input, fn) => {
    if (!(input instanceof HTMLInputElement) || input.type !== 'range' || !input.isConnected) return;
    for (const v of Object.values(window.__gatelabPreviews || {})) {
      const wkey = Object.keys(v.sliders).find((k) => input.closest(keyClass(k)));
      if (wkey) fn(v, v.sliders[wkey], Number(input.value));
    }
  };
  const seed = (input) => each(input, (v, name, value) => { if (!(name in v.last)) v.last[name] = value; });
  // ``changed``: a key press (an input event) always moves; an attribute set on a slider not seen yet
  // is its first drawing (React Aria writes "1" then "1.00"), not a move.
  const moved = (input, changed) => each(input, (v, name, value) => {
    const seen = name in v.last;
    if (value === v.last[name]) return;
    v.last[name] = value;
    if (!seen && !changed) return;
    v.asked[name] = value;
    v.want = { field: name, value };
    send(v);
  });
  // A slider is focused before a key moves it and when a drag starts: its value then is the start.
  document.addEventListener('focusin', (e) => seed(e.target), true);
  // A key press changes the input's value (an input event); a drag changes what React Aria renders.
  document.addEventListener('input', (e) => moved(e.target, true), true);
  new MutationObserver((ms) => { for (const m of ms) moved(m.target, false); })
    .observe(document.body, { subtree: true, attributes: true, attributeFilter: ['value', 'aria-valuetext'] });
}
// A page run's figure built for slider values the page no longer shows (the user moved on while it ran,
// and the preview of what the slider shows now was asked for): not drawn — the chart would step back
// to the older value and then forward again when the newer run arrives. Only for a value the user
// moved to: a run that follows it always comes.
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
function outdated(m) {
  const p = m.preview;
  const v = p && p.at && (window.__gatelabPreviews || {})[p.token];
  if (!v || !v.ws) return false;             // no previews here: the page's runs draw everything
  for (const [wkey, name] of Object.entries(p.sliders)) {
    const input = name in p.at && name in v.asked && sliderInput(wkey);
    const now = input && Number(input.value);
    if (input && !near(now, p.at[name]) && near(now, v.asked[name])) return true;
  }
  return false;
}
function send(v) {
  if (!v.ws || v.busy || !v.want) return;
  v.busy = true;
  v.ws.send(JSON.stringify(v.want));
  v.want = null;
}
// After the browser's next paint: what was drawn is on the screen.
const painted = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
function shown(v, r) {
  const wkey = Object.keys(v.sliders).find((k) => v.sliders[k] === r.field);
  const input = wkey && sliderInput(wkey);
  if (!input || Number(input.value) !== r.value) return;   // the slider moved on: a newer answer comes
  // The charts drawn one after the other with no frame between, so they appear together. Showing the
  // first before drawing the next made the last wait a frame more (Step's last chart 2.3–2.9 × the
  // bare app's p95 with a frame after each, 1.5–1.9 × with one; Gradient flow's T 1.4 ×); with the
  // charts whose line values alone changed drawn from them (``quickLines``, 1–10 ms, not
  // Plotly.react's 10–35), together is the sooner for the last and still ≤ the bare app for the
  // first (issue 48, docs/benchmarks.md).
  (async () => {
    for (const [key, fig] of Object.entries(r.figures)) {
      const div = v.divs.get(key);
      if (!div || !div.isConnected) continue;
      div.__queue.push({ early: true, full: fig.full, alt: fig.alt });
      await draw(div);
    }
    // All shown (the last one drawn in place, too): the page's run, which waits for this word
    // (previews.settle), may now send its elements.
    await painted();
    if (v.ws) v.ws.send(JSON.stringify({ drawn: r.field, value: r.value }));
  })();
}

function take(div, r) {
  // The feed's points newer than what the chart has (or has queued): kept for the next whole figure,
  // and appended to the chart now.
  const y = r[div.__feedY], add = { x: [], y: [] };
  for (let i = 0; i < r.x.length; i++) if (r.x[i] > div.__lastX) { add.x.push(r.x[i]); add.y.push(y[i]); }
  if (!add.x.length) return;
  div.__lastX = add.x[add.x.length - 1];
  for (const k of ['x', 'y']) { div.__kept[k].push(...add[k]); div.__new[k].push(...add[k]); }
  draw(div);
}

function mergeKept(div, spec) {
  // A whole figure from the server may be older than the feed's newest points: keep those on top.
  const tr = spec.data[spec.data.length - 1];
  if (!tr) return;
  const X = plain(tr.x), Y = plain(tr.y), last = X.length ? X[X.length - 1] : -Infinity;
  const k = div.__kept;
  let i = 0;
  while (i < k.x.length && k.x[i] <= last) i++;
  k.x.splice(0, i); k.y.splice(0, i);
  tr.x = X.concat(k.x); tr.y = Y.concat(k.y);
  div.__lastX = tr.x.length ? tr.x[tr.x.length - 1] : -Infinity;
  div.__new = { x: [], y: [] };
}

function count(div, what) {
  // For tests and curious users: updates that came whole, as patches, and from the feed.
  div[what] = (div[what] || 0) + 1;
  div.__draws = (div.__draws || 0) + 1;
  div.dataset.draws = String(div.__draws);
  div.dataset.fulls = String(div.__fulls || 0);
  div.dataset.patches = String(div.__patches || 0);
  div.dataset.feeds = String(div.__feeds || 0);
  div.dataset.previews = String(div.__previews || 0);
  div.dataset.frames = String(div.__frameDraws || 0);
}

// Scrubbing (app/step/frames.py): a chart sent with a run's frames shows the step of its group's cursor
// (window.__gatelabCursors, kept by the page's transport, app/step/scrub.js), applying that step's
// layout values with Plotly.relayout — no message from the server per step.
function frameDue(div) {
  const f = div.__frames, c = f && (window.__gatelabCursors || {})[f.group];
  if (!c || !div.data) return null;
  const t = Math.min(Math.max(Math.round(c.t), 1), f.values.length);
  return t !== div.__frameT ? t : null;
}
// A step's frame drawn straight into Plotly's SVG where that is exact and cheap — a cursor line moved
// sideways, a gate box's fill, a printed value or a title line with the same markup — and written into
// the figure's layout (gd.layout and gd._fullLayout), so Plotly's own later redraws (a zoom, a resize)
// draw the same. Why: Plotly.relayout recomputes the whole figure, ~12 ms a chart for a cursor line and
// ~45 ms for the diagram's printed values on the 2-core machine (measured, issue 48); this is < 1 ms.
// Anything else goes to Plotly.relayout (returned).
const PATH = /^(shapes|annotations)\[(\d+)\]\.(x0|x1|fillcolor|text|line\.color|line\.width|font\.color)$/;
function direct(div, upd) {
  const rest = {}, fl = div._fullLayout, lay = div.layout;
  const put = (obj, key, v) => {                   // key: "text" or "line.color"
    const parts = key.split('.'), last = parts.pop();
    for (const p of parts) obj = obj[p] || (obj[p] = {});
    obj[last] = v;
  };
  const set = (kind, i, key, v) => { put(fl[kind][i], key, v); if (lay[kind] && lay[kind][i]) put(lay[kind][i], key, v); };
  const moved = {};
  for (const [p, v] of Object.entries(upd)) {
    const m = PATH.exec(p);
    const kind = m && m[1], i = m && Number(m[2]), key = m && m[3];
    const item = m && fl[kind] && fl[kind][i];
    if (item && kind === 'shapes' && (key === 'x0' || key === 'x1')) { (moved[i] = moved[i] || {})[key] = v; continue; }
    if (item && kind === 'shapes' && (key === 'fillcolor' || key === 'line.color' || key === 'line.width')) {
      const el = div.querySelector('.shapelayer path[data-index="' + i + '"]');
      const ok = key === 'line.width' ? typeof v === 'number' : typeof v === 'string';
      if (el && ok) {
        if (key === 'fillcolor') el.style.fill = v;
        else if (key === 'line.color') el.style.stroke = v;
        else el.style.strokeWidth = v + 'px';
        set(kind, i, key, v);
        continue;
      }
    }
    if (item && kind === 'annotations' && key === 'font.color' && typeof v === 'string') {
      const el = div.querySelector('.annotation[data-index="' + i + '"] text.annotation-text');
      if (el) { el.style.fill = v; set(kind, i, key, v); continue; }
    }
    if (item && kind === 'annotations' && key === 'text') {
      const el = div.querySelector('.annotation[data-index="' + i + '"] text.annotation-text');
      if (el && retext(el, v)) { set(kind, i, key, v); continue; }
    }
    if (p === 'title.text') {
      const el = div.querySelector('.g-gtitle text.gtitle');
      if (el && retext(el, v)) { fl.title.text = v; if (lay.title) lay.title.text = v; continue; }
    }
    rest[p] = v;
  }
  for (const [i, xs] of Object.entries(moved)) {     // a vertical line moved sideways, both ends alike
    const sh = fl.shapes[i], ax = sh && fl[(sh.xref || 'x').replace(/^x/, 'xaxis')];
    const el = div.querySelector('.shapelayer path[data-index="' + i + '"]');
    const m = el && /^M([-\d.e]+),([-\d.e]+)L([-\d.e]+),([-\d.e]+)$/.exec(el.getAttribute('d'));
    const x0 = 'x0' in xs ? xs.x0 : sh.x0, x1 = 'x1' in xs ? xs.x1 : sh.x1;
    // A line at the edge of an autoranged axis widens its range (by half the line): Plotly recomputes it.
    const edge = (x) => { const p = ax.l2p(x); return p < 4 || p > ax._length - 4; };
    if (!ax || !ax.l2p || ax.type !== 'linear' || !m || m[1] !== m[3] || x0 !== x1 || typeof x0 !== 'number' ||
        (ax.autorange && (edge(x0) || edge(sh.x0)))) {
      for (const [k, v] of Object.entries(xs)) rest['shapes[' + i + '].' + k] = v;
      continue;
    }
    const px = (ax._offset + ax.l2p(x0)).toFixed(2).replace(/\.?0+$/, '');
    el.setAttribute('d', 'M' + px + ',' + m[2] + 'L' + px + ',' + m[4]);
    set('shapes', i, 'x0', x0); set('shapes', i, 'x1', x1);
  }
  return rest;
}
// Plotly's text: lines (<br>) as tspans, markup (<b>…) as nested tspans. The new text is written into
// the same tspans when its markup is the same as the old one's (only the words and numbers differ).
function retext(el, text) {
  const old = el.getAttribute('data-unformatted');
  const tags = (s) => (s || '').match(/<[^>]*>/g) || [];
  const words = (s) => s.split(/<[^>]*>/).map((w) => w.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
  if (old == null || tags(old).join() !== tags(text).join()) return false;
  const a = words(old), b = words(text);
  const nodes = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) nodes.push(walk.currentNode);
  if (a.some((w, k) => (w === '') !== (b[k] === ''))) return false;
  // Plotly keeps a text node per piece between two tags, the empty ones too (or, elsewhere, only the others)
  const fresh = nodes.length === a.length ? b : b.filter((w) => w !== '');
  if (nodes.length !== fresh.length || (fresh !== b && a.filter((w) => w !== '').length !== fresh.length)) return false;
  nodes.forEach((n, k) => { n.nodeValue = fresh[k]; });
  el.setAttribute('data-unformatted', text);
  return true;
}

// A figure whose traces and config are those on screen and whose layout differs only in values (a
// preview of the diagram for a new bias: its gate fills and printed values) is drawn like a frame —
// the changed values into the SVG where exact (``direct``), the rest by Plotly.relayout — not by a
// whole Plotly.react (~40 ms for the diagram on the 2-core machine).
function leaves(node, path, out) {
  out = out || {};
  if (Array.isArray(node)) node.forEach((v, i) => leaves(v, path + '[' + i + ']', out));
  else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) leaves(v, path ? path + '.' + k : k, out);
  else out[path] = node;
  return out;
}
// The values of a new layout (``flat``: its leaves) that differ from the figure drawn last (``d``), if
// the two have the same leaves; else null. ``quickLines`` and ``quick`` both start from it.
function changedLayout(d, flat) {
  const keys = Object.keys(flat);
  if (!d || keys.length !== Object.keys(d.flat).length || keys.some((k) => !(k in d.flat))) return null;
  const changed = {};
  for (const k of keys) if (flat[k] !== d.flat[k]) changed[k] = flat[k];
  return changed;
}
async function quick(P, div, spec, flat, changed) {
  const d = div.__drawn;
  if (!changed || div.__token || configKey(spec.config) !== d.config || JSON.stringify(spec.data) !== d.data) return false;
  const rest = direct(div, changed);
  if (Object.keys(rest).length) await P.relayout(div, rest);
  d.flat = flat;
  return true;
}

// A figure whose config (but the file names) is the one on screen, whose layout has the same keys
// (values may change: a log axis' dtick) and whose traces differ only in their values — y, and x
// (Gradient flow's T) — and names is drawn by Plotly from the new values put where it keeps them: the
// figure's data, its calcdata (a point each: what it draws and hovers) and the extremes its autorange
// reads; then one relayout of those axes as they are (autorange, or the range shown: a zoom stays) with
// the layout's changed values, the new names (Theory's legend carries w) written likewise. The
// same picture as Plotly.react (tested: lines, markers, shapes, annotations, legend, ranges, ticks,
// hovered values) without react's defaults and calc. A hidden trace (from the legend) takes its values
// only: Plotly computes it when it is shown. Why: Plotly.react redraws the whole chart, 10–25 ms each on
// the 2-core machine, one chart after another (Step's last panel 1.6–2.2 × the bare app's p95, issue
// 48); this is 1.5–10 ms. Anything else (markers of several sizes, a fill, a changed style, a gap in
// time, a new axis type) goes to Plotly.react.
// ``layout``: the layout's changed values (``changedLayout``: a log axis' dtick), or null.
function newLines(div, spec, layout) {     // what ``quickLines`` would change (read only), or null
  const d = div.__drawn, fl = div._fullLayout, fd = div._fullData, cds = div.calcdata;
  if (!layout || div.__token || !fl || !fd || !cds || configKey(spec.config) !== d.config) return null;
  const old = JSON.parse(d.data);
  if (old.length !== spec.data.length || fd.length !== old.length || div.data.length !== old.length) return null;
  const todo = [], axes = {};
  const names = {};                          // traces renamed (Theory's legend names carry w)
  for (let i = 0; i < old.length; i++) {
    const { x: newX, y: newY, name, ...rest } = spec.data[i], { x: oldX, y: oldY, name: was_, ...was } = old[i];
    if (JSON.stringify(rest) !== JSON.stringify(was)) return null;
    if (name !== was_) {
      if (typeof name !== 'string') return null;
      names[i] = name;
    }
    const moved = { x: JSON.stringify(newX) !== JSON.stringify(oldX), y: JSON.stringify(newY) !== JSON.stringify(oldY) };
    if (!moved.x && !moved.y) continue;
    const tr = fd[i], cd = cds[i], x = plain(moved.x ? newX : oldX), y = plain(moved.y ? newY : oldY);
    if (tr.visible !== true) {               // hidden (e.g. from the legend): Plotly computes it when shown
      todo.push({ i, tr, x, y, moved, hidden: true });
      continue;
    }
    // lines and markers of one size (each point then pads the axis alike: one extreme each way)
    const marks = tr.mode === 'lines' || ((tr.mode === 'markers' || tr.mode === 'lines+markers') &&
                                          tr.marker && typeof tr.marker.size === 'number');
    const shown = tr.type === 'scatter' && marks && (!tr.fill || tr.fill === 'none');
    if (!shown || !cd || x.length !== y.length || (!moved.x && cd.length !== y.length)) return null;
    const job = { i, tr, cd, x, y, moved, ext: [] };
    for (const c of ['x', 'y']) {
      if (!moved[c]) continue;
      const ax = fl[(tr[c + 'axis'] || c).replace(c, c + 'axis')], log = ax && ax.type === 'log';
      const e = ax && tr._extremes && tr._extremes[ax._id];
      // a value that is no number is a gap, as Plotly's calc makes it (BADNUM, undefined) — not in
      // time (x); a log axis takes only positive numbers
      const vals = (c === 'x' ? x : y).filter(Number.isFinite);
      if (!ax || (ax.type !== 'linear' && !log) || !vals.length || (c === 'x' && vals.length !== x.length) ||
          (log && vals.some((v) => v <= 0)) || !e || e.min.length !== 1 || e.max.length !== 1) return null;
      job.ext.push({ ax, e, vals });
      axes[ax._name] = ax;
    }
    todo.push(job);
  }
  return todo.some((t) => !t.hidden) ? { todo, axes, names } : null;
}
const ITEM = /^(annotations|shapes)\[(\d+)\]\.(text|x|y|x0|x1|y0|y1)$/;
// The axes an annotation or a shape is placed on in data units, if each of them is linear and keeps
// its range (neither autoranged nor made so by the layout's changes ``layout``); else null. Paper and
// an axis' domain are fixed places.
function placedOn(fl, o, layout) {
  const out = [];
  for (const c of ['x', 'y']) {
    const ref = String(o[c + 'ref'] || c);
    if (ref === 'paper' || / domain$/.test(ref)) continue;
    const ax = fl[ref.replace(/^([xy])/, '$1axis')];
    if (!ax || ax.type !== 'linear' || ax.autorange || Object.keys(layout).some((k) => k.startsWith(ax._name + '.autorange'))) return null;
    out.push(ax);
  }
  return out;
}
async function quickLines(P, div, spec, flat, layout) {
  const d = div.__drawn, found = newLines(div, spec, layout);
  if (!found) return false;
  const { todo, axes, names } = found;
  const fl = div._fullLayout;
  for (const { i, tr, cd, x, y, moved, ext, hidden } of todo) {
    if (moved.x) { div.data[i].x = x; tr.x = x; }
    if (moved.y) { div.data[i].y = y; tr.y = y; }
    if ('_length' in tr) tr._length = y.length;
    if (hidden) continue;
    cd.length = Math.min(cd.length, y.length);   // a point each, as Plotly's calc makes them
    for (let j = 0; j < y.length; j++) {
      const p = cd[j] || (cd[j] = { i: j }), ok = Number.isFinite(x[j]) && Number.isFinite(y[j]);
      p.x = ok ? x[j] : undefined;
      p.y = ok ? y[j] : undefined;
    }
    for (const { ax, e, vals } of ext) {     // kept as the axis counts (a log axis: log10)
      e.min[0].val = ax.c2l(Math.min(...vals));
      e.max[0].val = ax.c2l(Math.max(...vals));
    }
  }
  // An annotation's or a shape's text or place on axes that do not follow the data (Theory's bound line
  // and its label at a new w) is written into the layout Plotly keeps, and the relayout below draws it
  // (drawing the data draws them): given to relayout, any such change is a whole recalculation (their
  // editType is calc, as they may widen an autoranged axis), ~20 ms for Theory's figure.
  const changed = { ...layout };
  for (const [k, v] of Object.entries(layout)) {
    const m = ITEM.exec(k), kind = m && m[1], i = m && Number(m[2]);
    const o = m && fl[kind] && fl[kind][i], src = m && div.layout[kind] && div.layout[kind][i];
    const refs = o && placedOn(fl, o, layout);
    if (!refs || !src || (typeof v !== 'number' && typeof v !== 'string') ||
        (typeof v === 'number' && !Number.isFinite(v))) continue;
    o[m[3]] = v;
    src[m[3]] = v;
    delete changed[k];
    for (const ax of refs) axes[ax._name] = ax;
  }
  // The axes as they are, but where the layout sets their range itself (Theory's bound panel: a new
  // upper end): Plotly refuses an attribute and a part of it in one call.
  const upd = {}, own = Object.keys(changed);
  for (const [name, ax] of Object.entries(axes)) {
    if (own.some((k) => k.startsWith(name + '.range') || k.startsWith(name + '.autorange'))) continue;
    if (ax.autorange) upd[name + '.autorange'] = ax.autorange;
    else upd[name + '.range'] = ax.range.slice();
  }
  Object.assign(upd, changed);
  if (!Object.keys(upd).length) return false;    // nothing would draw what was written: drawn whole
  // Renamed traces (a name is read only by the legend and the hover label): the names written where
  // Plotly keeps them and the legend laid out anew, as it is, by the same relayout. (Plotly.update with
  // the names took ~20 ms for Theory's figure, and kept the legend's measured size: its box stayed 783 px
  // wide for names that make it 790.)
  const renamed = Object.keys(names).map(Number);
  for (const i of renamed) { div.data[i].name = names[i]; div._fullData[i].name = names[i]; }
  if (renamed.length && !('showlegend' in upd)) upd.showlegend = fl.showlegend;
  try {
    await P.relayout(div, upd);
  } catch (e) {                            // drawn whole instead (the figure's data is the new one)
    return false;
  }
  d.data = JSON.stringify(spec.data);
  d.flat = flat;
  return true;
}

function framed(div) {
  const all = window.__gatelabFramed || (window.__gatelabFramed = new Set());
  if (!window.__gatelabFrameListener) {
    window.__gatelabFrameListener = true;
    window.addEventListener('gatelab:cursor', () => {
      for (const d of [...window.__gatelabFramed]) { if (!d.isConnected) window.__gatelabFramed.delete(d); else draw(d); }
    });
  }
  all.add(div);
}

function draw(div) {
  if (div.__busy) return div.__drawing;         // the loop under way draws what was queued
  div.__busy = true;
  div.__drawing = (async () => {
    try {
      const P = div.__plotly || (div.__plotly = await plotly());
      while (div.__queue.length || (div.__new.x.length && div.data) || frameDue(div) !== null) {
        const msgs = div.__queue.splice(0);
        if (!msgs.length && frameDue(div) !== null && !div.__new.x.length) {   // the cursor moved: its step's values
          const t = frameDue(div), f = div.__frames, upd = {};
          f.paths.forEach((p, i) => { upd[p] = f.values[t - 1][i]; });
          const rest = direct(div, upd);
          if (Object.keys(rest).length) await P.relayout(div, rest);
          if (div.__drawn) Object.assign(div.__drawn.flat, upd);
          div.__frameT = t;
          div.dataset.step = String(t);
          count(div, '__frameDraws');
          continue;
        }
        if (!msgs.length) {                      // only feed points: append them to the current run's trace
          const n = div.__new;
          div.__new = { x: [], y: [] };
          await P.extendTraces(div, { x: [n.x], y: [n.y] }, [div.data.length - 1]);
          div.__shown = null;
          count(div, '__feeds');
          continue;
        }
        // Only the newest message matters: a patch is relative to the last whole figure (the
        // anchor), never to the previous message, so skipped updates lose nothing.
        const m = msgs[msgs.length - 1];
        for (const f of msgs) if (f.full && !f.early) div.__anchor = { rev: f.rev, text: f.full };
        if (m.frame && !m.full && !m.patch) {    // the same run at another step: the browser's cursor shows
          if (!(div.__anchor && div.__anchor.rev === m.base && div.__frames && div.__frames.id === m.frame)) {
            div.__set('need_full', m.rev);
          }
          continue;
        }
        // The same figure as the one on screen (a page run re-sends every chart whole): nothing to
        // draw. Measured on Step: Plotly.react on the unchanged charts was ~20 ms a slider notch.
        const same = m.full ? 'F' + m.full : 'P' + m.base + ':' + m.patch;
        const had = div.__frames;
        if (!m.early) {                          // a run's figure: its frames (or none) come with it
          div.__frames = m.frames || null;
          if (m.frames) framed(div);
        }
        if (same === div.__shown && !div.__token) {
          // on screen already: at the step drawn last (these frames), or at the figure's own step
          if (m.frames && !(had && had.id === m.frames.id)) div.__frameT = m.at;
          continue;
        }
        if (!m.early && outdated(m)) continue;
        let spec = null, what = m.early ? '__previews' : '__fulls';
        if (m.full) spec = JSON.parse(m.full);
        else if (div.__anchor && div.__anchor.rev === m.base) {
          spec = apply(JSON.parse(div.__anchor.text), JSON.parse(m.patch));
          what = '__patches';
        } else { div.__set('need_full', m.rev); continue; }   // e.g. after a reconnect
        if (div.__token) mergeKept(div, spec);
        if (spec.layout.height) div.style.minHeight = spec.layout.height + 'px';   // no jump while drawing
        if (spec.config && spec.config.locale) await locale(P, spec.config.locale);
        named(div, spec.config);
        // as sent: Plotly.react writes into the figure it draws (an axis' range, its type …)
        const flat = leaves(spec.layout, ''), changed = changedLayout(div.__drawn, flat);
        if (await quickLines(P, div, spec, flat, changed)) div.dataset.quickLines = String((div.__quickLines = (div.__quickLines || 0) + 1));
        else if (!(await quick(P, div, spec, flat, changed))) {
          const drawn = { data: JSON.stringify(spec.data), config: configKey(spec.config), flat };
          await P.react(div, spec.data, spec.layout, withPng(P, spec.config, div));
          div.__drawn = drawn;
          div.__reacts = (div.__reacts || 0) + 1;
        }
        div.__shown = same;
        div.__frameT = m.early ? null : m.at;    // the step drawn (a preview's frames are not known yet)
        if (m.early) div.__frames = null;
        if (div.__frames) div.dataset.step = String(m.at); else delete div.dataset.step;
        count(div, what);
        if (m.early) div.setAttribute('aria-label', m.alt);
        else div.dataset.rev = String(m.rev);
      }
    } catch (e) {
      div.textContent = (div.__failed || 'This chart could not be drawn: {why}').replace('{why}', e.message);
    } finally {
      div.__busy = false;
    }
  })();
  return div.__drawing;
}

export default function (component) {
  const { data, parentElement } = component;
  if (!window.__gatelabMounted) { window.__gatelabMounted = 1; performance.mark('gatelab:first-mount'); }
  let div = parentElement.querySelector('.gatelab-live');
  if (!div) {
    div = document.createElement('div');
    div.className = 'gatelab-live';
    // a figure (not an img: an img's children are presentational, and Plotly's toolbar inside
    // is focusable), named by the alt text
    div.setAttribute('role', 'figure');
    parentElement.appendChild(div);
    div.__queue = [];
    div.__new = { x: [], y: [] };
  }
  div.__set = component.setStateValue;
  if (data.alt) div.setAttribute('aria-label', data.alt);
  if (data.failed) div.__failed = data.failed;  // in the session's language
  const token = data.feed ? data.feed.token : null;
  if (token !== div.__token) {                 // another run (or none): forget the last one's points
    div.__token = token;
    div.__kept = { x: [], y: [] };
    div.__new = { x: [], y: [] };
    div.__lastX = -Infinity;
  }
  div.__queue.push(data);
  if (token) { div.__feedY = data.feed.y; join(div, token); }
  draw(div);
  if (data.preview) preview(div, data.preview);
  else for (const v of Object.values(window.__gatelabPreviews || {})) {   // no longer previewed (Step playing)
    for (const [key, d] of v.divs) if (d === div) v.divs.delete(key);
  }
}
