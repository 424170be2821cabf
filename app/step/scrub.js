// Step through a cell, in the browser: the transport (Back, Forward, Reset, Play/Pause, the Timestep
// slider, the step counter) and the equations at the cursor. Moving the cursor redraws nothing on the
// server: the charts apply the step's frames themselves (app/ui/live_chart.js, on 'gatelab:cursor'), the
// equations are filled and typeset here; the server is told the step afterwards (when the cursor has
// rested, at Pause or at the end of playback) so that the link and the page state say what is shown.
//
// One cursor per group (the page) in window.__gatelabCursors: {t, T, seq, playing}. The server's step
// is taken only when the server moved it itself (a link, Reset under slow motion, a new shorter run):
// it says so with a new ``seq``.

const KATEX = 'app/static/katex/katex.min.js?v=__KATEX__';
const KATEX_CSS = 'app/static/katex/katex.min.css?v=__KATEX__';
function katex() {
  if (!window.__gatelabKatex) {
    window.__gatelabKatex = new Promise((ok, bad) => {
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = new URL(KATEX_CSS, document.baseURI).href;
      document.head.appendChild(css);
      const s = document.createElement('script');
      s.src = new URL(KATEX, document.baseURI).href;
      s.onload = () => ok(window.katex);
      s.onerror = () => { window.__gatelabKatex = null; bad(new Error('KaTeX did not load')); };
      document.head.appendChild(s);
    });
    window.__gatelabKatex.catch(() => {});
  }
  return window.__gatelabKatex;
}

const cursors = () => window.__gatelabCursors || (window.__gatelabCursors = {});
const ICON = {
  back: 'M6 6h2v12H6zm3.5 6 8.5 6V6z', fwd: 'M6 18l8.5-6L6 6v12zM16 6v12h2V6h-2z',
  reset: 'M12 5V1L7 6l5 5V7c3.31 0 6 2.69 6 6s-2.69 6-6 6-6-2.69-6-6H4c0 4.42 3.58 8 8 8s8-3.58 8-8-3.58-8-8-8z',
  play: 'M8 5v14l11-7z', pause: 'M6 19h4V5H6v14zm8-14v14h4V5h-4z',
};
const svg = (d) => '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d="' + d + '"/></svg>';
const button = (cls, icon) => '<button type="button" class="' + cls + '">' + svg(icon) + '<span></span></button>';
// Words from the server (in the session's language) into the elements ``texts`` names: selector -> words.
function say(root, texts) { for (const [sel, w] of Object.entries(texts)) root.querySelector(sel).textContent = w; }
// The element a component draws into, made once (a page run redraws the component with new data);
// <html> says it is on the page (cls-on: the CSS hides Streamlit's copies) until ``gone`` finds none.
function own(parentElement, cls, html) {
  if (!document.documentElement.classList.contains(cls + '-on')) document.documentElement.classList.add(cls + '-on');
  let root = parentElement.querySelector('.' + cls);
  if (!root) {
    root = document.createElement('div');
    root.className = cls;
    root.innerHTML = html;
    parentElement.appendChild(root);
    root.__new = true;
  } else root.__new = false;
  return root;
}

function broadcast(group) {
  const c = cursors()[group];
  for (const f of c.views) f();
  window.dispatchEvent(new CustomEvent('gatelab:cursor', { detail: { group } }));
}

// ----------------------------------------------------------------------------- the transport
function transport(component) {
  const { data, parentElement } = component;
  const g = data.group, all = cursors();
  let c = all[g];
  if (!c || c.seq !== data.seq || !c.browser) {        // the server moved the cursor (or first sight)
    const playing = c ? c.playing : false;
    c = all[g] = Object.assign(c || { views: new Set() }, { t: data.t, seq: data.seq, playing: playing && data.browser });
  }
  c.T = data.T;
  c.browser = data.browser;                            // the charts and equations follow the cursor here
  if (c.t > c.T) c.t = c.T;
  if (c.speed !== data.speed && c.playing) c.clock = null;   // the new speed counts from the step shown
  c.speed = data.speed;
  c.set = component.setStateValue;
  const root = own(parentElement, 'gatelab-scrub',
    '<div class="gl-buttons" role="group">' + button('gl-back', ICON.back) + button('gl-fwd', ICON.fwd) +
    button('gl-reset', ICON.reset) +
    '<button type="button" class="gl-play" aria-pressed="false"><span class="gl-icon"></span><span></span></button>' +
    '</div><label class="gl-slider"><span class="gl-label"></span><input type="range" min="1" step="1"></label>' +
    '<div class="gl-count"><span class="gl-label"></span><output aria-live="off"></output></div>');
  if (root.__new) {
    const q = (s) => root.querySelector(s);
    q('.gl-back').addEventListener('click', () => root.__move(-1));
    q('.gl-fwd').addEventListener('click', () => root.__move(1));
    q('.gl-reset').addEventListener('click', () => root.__move(null));
    q('.gl-play').addEventListener('click', () => root.__toggle());
    q('input').addEventListener('input', (e) => root.__to(Number(e.target.value)));
    root.__draw = () => {
      const cur = cursors()[root.__group];
      const input = q('input');
      input.max = String(cur.T);
      if (Number(input.value) !== cur.t) input.value = String(cur.t);
      input.setAttribute('aria-valuetext', root.__words.stepOf.replace('{t}', cur.t).replace('{T}', cur.T));
      q('output').textContent = cur.t + ' / ' + cur.T;
      const play = q('.gl-play');
      play.setAttribute('aria-pressed', String(!!cur.playing));
      play.querySelector('.gl-icon').innerHTML = svg(cur.playing ? ICON.pause : ICON.play);
      play.lastChild.textContent = cur.playing ? root.__words.pause : root.__words.play;
      q('.gl-back').disabled = cur.t <= 1;
      q('.gl-fwd').disabled = cur.t >= cur.T;
    };
  }
  root.__group = g;
  root.__words = data.words;
  const w = data.words;
  say(root, { '.gl-back span': w.back, '.gl-fwd span': w.forward, '.gl-reset span': w.reset,
              '.gl-slider .gl-label': w.timestep, '.gl-count .gl-label': w.step });
  root.classList.toggle('gl-compact', !!data.compact);
  c.views.add(root.__draw);
  // Tell the server the step shown, once it rests: at once when the server draws the steps itself
  // (slow motion), else 0.3 s after the last move, never while playing (Pause and the end tell it).
  root.__report = (now) => {
    const cur = cursors()[g];
    clearTimeout(root.__timer);
    if (cur.playing) return;
    const send = () => { cur.set('at', { t: cur.t, n: Date.now() + Math.random() }); };
    if (now || !cur.browser) send(); else root.__timer = setTimeout(send, 300);
  };
  root.__to = (t) => {
    const cur = cursors()[g];
    cur.t = Math.min(Math.max(Math.round(t), 1), cur.T);
    cur.clock = null;                                  // playback carries on from here
    broadcast(g);
    root.__report(false);
  };
  root.__move = (d) => { const cur = cursors()[g]; root.__to(d === null ? 1 : cur.t + d); };
  root.__toggle = () => {
    const cur = cursors()[g];
    if (cur.playing) { cur.playing = false; broadcast(g); root.__report(true); return; }
    if (cur.t >= cur.T) cur.t = 1;                     // Play at the end plays again from the start
    cur.playing = true;
    cur.clock = null;
    broadcast(g);
    const tick = (now) => {
      const k = cursors()[g];
      if (!k.playing) return;
      if (!root.isConnected) { k.playing = false; return; }   // the page was left
      if (!k.clock) k.clock = { t0: k.t, since: now };
      const t = Math.min(k.T, k.clock.t0 + Math.floor(((now - k.clock.since) / 1000) * k.speed + 1e-9));
      if (t !== k.t) { k.t = t; broadcast(g); }
      if (k.t >= k.T) { k.playing = false; broadcast(g); root.__report(true); return; }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  parentElement.setAttribute('data-step', String(c.t));
  broadcast(g);
  // A page run that drew another step than the one shown, though the server did not move the cursor
  // itself (a report overtaken by another run): say the step shown again, so link and page agree.
  if (c.browser && !c.playing && data.t !== c.t) root.__report(false);
}

// ----------------------------------------------------------------------------- the equations
function equations(component) {
  const { data, parentElement } = component;
  const root = own(parentElement, 'gatelab-eq', '<p class="gl-head"></p><div class="gl-tex"></div>');
  root.__data = data;
  const draw = () => {
    const d = root.__data, c = cursors()[d.group];
    const t = Math.min(Math.max(c ? c.t : d.at, 1), d.steps.length);
    if (root.__shown === d.id + ':' + t) return;
    const [k, nums] = d.steps[t - 1];
    const tex = d.templates[k].map((p) => (typeof p === 'number' ? nums[p] : p)).join('');
    root.querySelector('.gl-head').innerHTML = d.header.replace('{t}', String(t));
    katex().then((K) => {
      if (root.__data !== d) return;
      K.render(tex, root.querySelector('.gl-tex'), { displayMode: true, throwOnError: false });
      root.__shown = d.id + ':' + t;
      root.dataset.step = String(t);
    }, () => { root.querySelector('.gl-tex').textContent = tex; });
  };
  const all = cursors();
  const c = all[data.group] || (all[data.group] = { views: new Set(), t: data.at, T: data.steps.length, seq: null });
  if (root.__view) c.views.delete(root.__view);
  root.__view = draw;
  c.views.add(draw);
  draw();
}

// ----------------------------------------------------------------------------- slow motion's operations
// Previous / Next operation within the timestep shown (its frames: the diagram and the equations after
// each operation); past its first or last operation the server moves to the neighbouring timestep.
function ops(component) {
  const { data, parentElement } = component;
  const g = data.group, all = cursors();
  let c = all[g];
  if (!c || c.seq !== data.seq) c = all[g] = Object.assign(c || { views: new Set() }, { t: data.t, seq: data.seq });
  c.T = data.T;
  const root = own(parentElement, 'gatelab-ops',
    button('gl-prev', ICON.back) + button('gl-next', ICON.fwd) + '<p class="gl-op" aria-live="polite"></p>');
  if (root.__new) {
    root.querySelector('.gl-prev').addEventListener('click', () => root.__step(-1));
    root.querySelector('.gl-next').addEventListener('click', () => root.__step(1));
  }
  root.__data = data;
  root.__set = component.setStateValue;
  const q = (s) => root.querySelector(s);
  say(root, { '.gl-prev span': data.words.previous, '.gl-next span': data.words.next });
  q('.gl-prev').title = data.words.previousHelp;
  root.__draw = () => {
    const d = root.__data, cur = cursors()[d.group];
    q('.gl-op').innerHTML = d.words.label.replace('{k}', cur.t).replace('{n}', cur.T)
      .replace('{name}', d.names[cur.t - 1].replace(/[&<>]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[ch]));
    q('.gl-prev').disabled = cur.t <= 1 && !d.back;
    q('.gl-next').disabled = cur.t >= cur.T && !d.forward;
  };
  c.views.add(root.__draw);
  root.__step = (delta) => {
    const d = root.__data, cur = cursors()[d.group];
    clearTimeout(root.__timer);
    const k = cur.t + delta;
    if (k < 1 || k > cur.T) {                          // the neighbouring timestep: the server's move
      if ((k < 1 && d.back) || (k > cur.T && d.forward)) root.__set('op', { cross: delta, n: Date.now() + Math.random() });
      return;
    }
    cur.t = k;
    broadcast(d.group);
    root.__timer = setTimeout(() => root.__set('op', { op: k - 1, n: Date.now() + Math.random() }), 300);
  };
  broadcast(g);
}

// A component taken off the page (Streamlit calls the returned function): once its element is gone
// from the document, <html> no longer says it is there.
const gone = (cls) => () => setTimeout(() => {
  if (!document.querySelector('.' + cls)) document.documentElement.classList.remove(cls + '-on');
});

export default function (component) {
  if (component.data.kind === 'equations') { equations(component); return gone('gatelab-eq'); }
  if (component.data.kind === 'ops') { ops(component); return gone('gatelab-ops'); }
  transport(component);
  return gone('gatelab-scrub');
}
