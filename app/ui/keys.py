"""Keyboard and presenter clicker: the keys a page listens to, and its small "Keyboard" help.

Why not Streamlit's own button shortcuts (``st.button(..., shortcut="Right")``): they call the
button's handler without a click, which the press witness (``app/ui/actions.py``) cannot see, and
a press it does not see is not applied on a page it watches. They also take one key per button,
and a presenter clicker sends PageDown / PageUp. So keys are bound here, with a tiny script (one
``st.components.v2`` component, no iframe) that *clicks* what the key is for — a button, or a
widget that is not a button (Step's Play/Pause switch, a segmented control).

``bind`` maps a key (``KeyboardEvent.key``, " " written "Space") to a CSS selector of what to
click; the script clicks the first match that is drawn (not a stale or empty copy) and not disabled —
a selector list in the page's order, so "Reveal, else Next question" is one binding; when the page is
being drawn again and only disabled or stale copies exist, when none is drawn yet, or only stale or disabled copies while a script run is in flight, the press
waits up to 3 s for a live one (a key pressed as the page appears is not lost). It ignores keys while
a text field, a select or an editable element has the focus, with Ctrl/Alt/Cmd held, and Space
or Enter on a focused button or link of another widget, Space on its radio or checkbox (the
browser's own action there; Enter on a radio just picked does reach Lessons' *Reveal*);
Space on the bound widget itself (Play just clicked, still focused) switches it; the arrows,
Home and End on a focused slider, radio group, tab list or list box move it.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.i18n import _

JS = r"""
export default function (component) {
  const { data, parentElement } = component;
  const bindings = data.bindings || {};
  const TEXT = ['INPUT', 'TEXTAREA', 'SELECT'];
  // what Space / Enter already does on a focused element (then the key is the browser's)
  const OWN = { Space: { tags: ['BUTTON', 'A', 'SUMMARY'], types: ['radio', 'checkbox'],
                         roles: ['button', 'link', 'radio', 'checkbox', 'switch', 'tab'] },
                Enter: { tags: ['BUTTON', 'A', 'SUMMARY'], types: [], roles: ['button', 'link', 'tab'] } };
  // the arrows and Home move a focused slider, radio group, tab list or list box
  const MOVES = { tags: [], types: ['radio', 'range'],
                  roles: ['slider', 'radio', 'tab', 'spinbutton', 'option', 'listbox', 'combobox', 'menuitem'] };
  for (const k of ['ArrowLeft', 'ArrowRight', 'Home', 'End']) OWN[k] = MOVES;
  function onKey(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key === ' ' ? 'Space' : e.key;
    const sel = bindings[key];
    if (!sel) return;
    const target = live(sel);
    const t = (e.composedPath && e.composedPath()[0]) || e.target;
    const group = target && target.closest('.stElementContainer');
    if (t && t.nodeType === 1 && !(group && group.contains(t))) {
      const type = (t.type || '').toLowerCase();
      if (t.isContentEditable || t.getAttribute('role') === 'textbox') return;
      if (TEXT.includes(t.tagName) && !['checkbox', 'radio', 'range', 'button', 'submit'].includes(type)) return;
      const own = OWN[key];
      if (own && (own.tags.includes(t.tagName) || own.types.includes(type) ||
                  own.roles.includes(t.getAttribute('role')))) return;
    }
    if (!target) {  // nothing to press right now: the page is being drawn again — pressed once it is
      // none drawn yet (seen: a page whose title was up but not yet its buttons, between two runs of a
      // fresh session on a busy server), or only stale / disabled copies while a run is in flight
      if (!e.repeat && (!document.querySelector(sel) || drawing())) { e.preventDefault(); later(sel, Date.now()); }
      return;
    }
    e.preventDefault();
    if (!e.repeat) target.click();
  }
  // The live, visible, enabled match, first in the page's order: while a rerun is in flight Streamlit can
  // keep a stale copy of an element (data-stale) or an empty, zero-size one beside or before the new one,
  // and a click on it does nothing (seen on a busy server: a clicker's PageDown on Lessons lost).
  function live(sel) {
    return [...document.querySelectorAll(sel)].find((el) => !el.closest('[data-stale="true"]') &&
      el.getBoundingClientRect().width > 0 && !el.disabled && el.getAttribute('aria-disabled') !== 'true');
  }
  function drawing() {
    const app = document.querySelector("[data-testid='stApp']");
    return !!app && ['running', 'rerunRequested'].includes(app.getAttribute('data-test-script-state'));
  }
  function later(sel, since) {
    setTimeout(() => {
      const target = live(sel);
      if (target) target.click();
      else if (Date.now() - since < 3000) later(sel, since);
    }, 100);
  }
  // Capture phase on window: a focused radio (react-aria) stops Enter from bubbling up.
  if (parentElement.__gatelabKeys) window.removeEventListener('keydown', parentElement.__gatelabKeys, true);
  parentElement.__gatelabKeys = onKey;
  window.addEventListener('keydown', onKey, true);
  parentElement.setAttribute('data-keys-ready', '');  // listening (what a test waits for)
  return () => {
    window.removeEventListener('keydown', onKey, true);
    if (parentElement.__gatelabKeys === onKey) parentElement.__gatelabKeys = null;
  };
}
"""

_component = st.components.v2.component(
    "gatelab_keys", js=JS, css=".st-key-gatelab-keys { display: none; }", isolate_styles=False
)


def button(key: str) -> str:
    """The CSS selector of the button drawn with widget key ``key`` (Streamlit gives its element
    the class ``st-key-<key>``, characters other than letters, digits, _ and - written -)."""
    return f".st-key-{widget_class(key)} button"


def other_option(key: str) -> str:
    """The CSS selector of the option of a two-option segmented control (``key``) that is *not*
    selected: pressing it switches the control (Play ↔ Pause)."""
    return f".st-key-{widget_class(key)} button[role='radio'][aria-checked='false']"


def widget_class(key: str) -> str:
    return "".join(c if c.isalnum() or c in "_-" else "-" for c in key)


def bind(bindings: dict[str, str], key: str = "gatelab-keys") -> None:
    """Listen to ``bindings`` (key -> CSS selector to click) while this page is shown."""
    _component(key=key, data={"bindings": bindings}, height=0)


def help_panel(lines: list[str], where: Any = None) -> None:
    """The small "Keyboard" help: one line per key (already translated), folded away."""
    with (where or st).expander(_("Keyboard"), icon=":material/keyboard:"):
        st.markdown(
            "\n".join(f"- {line}" for line in lines)
            + "\n\n"
            + _("The keys work while no text field has the focus.")
        )
