"""Reusable control groups and the declarative settings they edit.

A page describes its settings as ``Field`` objects collected in a ``Schema``. The same field
validates a value from a widget, a URL (``urlstate``) or an uploaded file (``export``), and
draws its own widget under the key ``"<page>.<name>"`` (``state.wkey``). A page's
configuration is therefore one flat dict ``{name: value}`` — what goes into the URL — and a
page run is::

    start_page(page, schema, defaults)      # link / first visit -> widget values
    ... groups draw widgets; values = schema.read(page) ...
    finish_page(page, values, defaults)     # values -> URL

Groups (``model_group``, ``task_group``, ``bias_group``, ``seed_group``) each end with a
"Reset to paper defaults" button whose callback rewrites the group's widget values before the
next run (the only moment Streamlit allows it). Turning the flat settings into an
``lc.ModelConfig`` (and back, for imports) is ``app.export``'s job.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import streamlit as st

import lstm_core as lc
from app.ui import limits, state, urlstate
from lstm_core.config import CELL_INPUT, CELL_OUTPUT
from lstm_core.tasks.reber import MAX_SET as MAX_REBER_SET
from lstm_core.variants import GATE_BIASES, REGISTRY, variant as variant_record

PERSIST = "session"   # widget values survive a visit to another page
# How many of its own recent links a page remembers, to tell a late echo from a new link
# (start_page). An echo is at most a few full runs old; the list stays small.
URL_ECHOES = 32


@dataclass(frozen=True)
class Field:
    """One setting: its type and range (validation) and its widget (drawing)."""

    name: str
    label: str
    kind: str                      # int | float | optfloat | choice | bool | text | multi
    default: Any
    lo: float | None = None
    hi: float | None = None
    step: float | None = None
    choices: tuple = ()
    widget: str = "number"         # slider | number | select | segmented | toggle | text_area | multiselect | none
    help: str | None = None
    fmt: Callable[[Any], str] | None = None
    fallback: float = 0.0          # optfloat: the number shown while the setting is off

    # -- validation -------------------------------------------------------------------
    def check(self, value: Any) -> Any:
        """The value in canonical type, or ValueError naming the setting and the valid range."""
        k, where = self.kind, f"'{self.name}' ({self.label})"
        if k == "optfloat" and value is None:
            return None
        if k in ("float", "optfloat", "int"):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{where} must be a finite number, got {value!r}")
            if k == "int":
                if value != int(value):
                    raise ValueError(f"{where} must be a whole number, got {value!r}")
                value = int(value)
            else:
                value = float(value)
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                raise ValueError(f"{where} must be between {self.lo:g} and {self.hi:g}, got {value:g}")
            return value
        if k == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{where} must be true or false, got {value!r}")
            return value
        if k == "choice":
            if value not in self.choices or isinstance(value, bool) != isinstance(self.choices[0], bool):
                raise ValueError(f"{where} must be one of {list(self.choices)}, got {value!r}")
            return value
        if k == "text":
            if not isinstance(value, str):
                raise ValueError(f"{where} must be text, got {type(value).__name__}")
            if self.hi is not None and len(value) > self.hi:
                raise ValueError(f"{where} is {len(value)} characters long; at most {self.hi:g} are allowed")
            return value
        if k == "multi":
            if not isinstance(value, list) or any(v not in self.choices for v in value) \
                    or len(set(value)) != len(value):
                raise ValueError(f"{where} must be a list of distinct values from {list(self.choices)}, got {value!r}")
            return list(value)
        raise ValueError(f"{where}: unknown kind {k!r}")  # pragma: no cover - programming error

    # -- widgets ----------------------------------------------------------------------
    def widget_values(self, value: Any) -> dict[str, Any]:
        """Widget-key names and values that display ``value``."""
        if self.kind == "optfloat":
            # While off, the (disabled) slider shows the fallback, the value it gets when switched on.
            return {f"{self.name}.on": value is not None,
                    self.name: float(value) if value is not None else self.fallback}
        return {self.name: value}

    def read(self, page: str, snapshot: dict | None = None) -> Any:
        """The current value (from ``snapshot``, a plain copy of session state, if given)."""
        ss = st.session_state if snapshot is None else snapshot
        key = state.wkey(page, self.name)
        if self.kind == "optfloat":
            on = ss.get(f"{key}.on", self.default is not None)
            return ss.get(key, self.fallback) if on else None
        return ss.get(key, self.default)

    def render(self, page: str, where: Any = st, label: str | None = None, disabled: bool = False) -> Any:
        """Draw the widget (its value comes from session state, set by ``start_page``)."""
        key, label = state.wkey(page, self.name), label or self.label
        disabled = disabled or self.name in state.page_state(page).get("_locked", ())   # app.ui.classlink
        common = dict(key=key, help=self.help, disabled=disabled, persist_state=PERSIST)
        w = self.widget
        if self.kind == "optfloat":
            on = where.checkbox(f"set {label}", key=f"{key}.on", help=self.help, disabled=disabled,
                                persist_state=PERSIST)
            where.slider(label, self.lo, self.hi, step=self.step, key=key, disabled=disabled or not on,
                         persist_state=PERSIST, label_visibility="collapsed")
            return self.read(page)
        if w == "slider":
            return where.slider(label, self.lo, self.hi, step=self.step, **common)
        if w == "number":
            return where.number_input(label, self.lo, self.hi, step=self.step, **common)
        if w == "select":
            return where.selectbox(label, self.choices, format_func=self.fmt or str, **common)
        if w == "segmented":
            return where.segmented_control(label, self.choices, format_func=self.fmt or str,
                                           required=True, **common)
        if w == "toggle":
            return where.toggle(label, **common)
        if w == "text_area":
            return where.text_area(label, height=140, **common)
        if w == "multiselect":
            return where.multiselect(label, self.choices, format_func=self.fmt or str, **common)
        raise ValueError(f"field {self.name!r} has no widget")  # pragma: no cover


class Schema:
    """All the settings of a page (the union over variants and tasks, so any link validates)."""

    def __init__(self, fields: Iterable[Field]) -> None:
        self.fields: dict[str, Field] = {}
        for f in fields:
            if f.name in self.fields:
                raise ValueError(f"duplicate field {f.name!r}")  # pragma: no cover
            self.fields[f.name] = f

    def __getitem__(self, name: str) -> Field:
        return self.fields[name]

    def defaults(self, **overrides: Any) -> dict[str, Any]:
        d = {n: f.default for n, f in self.fields.items()}
        d.update(self.check(overrides))
        return d

    def check(self, data: dict) -> dict:
        """Validate a (partial) settings dict; one ValueError listing every problem."""
        errors, out = [], {}
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            errors.append(f"unknown setting(s) {unknown}")
        for name, value in data.items():
            if name in self.fields:
                try:
                    out[name] = self.fields[name].check(value)
                except ValueError as e:
                    errors.append(str(e))
        if errors:
            raise ValueError("; ".join(errors))
        return out

    def widget_values(self, values: dict) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in values.items():
            out.update(self.fields[name].widget_values(value))
        return out

    def read(self, page: str) -> dict[str, Any]:
        # One copy of session state instead of one proxied lookup per field (≈ 0.15 ms each).
        snapshot = st.session_state.to_dict()
        return {n: f.read(page, snapshot) for n, f in self.fields.items()}

    def apply(self, page: str, values: dict) -> None:
        """Show ``values`` in the widgets (call before they are drawn, or from a callback)."""
        state.set_widget_values(page, self.widget_values(values), overwrite=True)


# ----------------------------------------------------------------------------- page lifecycle
def start_page(page: str, schema: Schema, defaults: dict) -> None:
    """Bring the widgets to the page's configuration before anything is drawn.

    A ``cfg`` in the URL that this session did not write itself (a shared link) replaces the
    settings; an invalid one is reported and the defaults are used. A ``cfg`` this session wrote
    earlier is a late echo, not a link: a request the browser sent before the newer URL reached it
    carries the older one (seen on the Step page: a request sent after Pause still carried the URL
    written at Play, and took the cursor from step 56 back to step 2). It changes nothing, and
    ``finish_page`` writes the current URL again. Otherwise the widgets keep their values (first
    visit: the defaults).
    """
    ps = state.page_state(page)
    raw, errors = urlstate.read()
    if raw is not None and raw != ps.get("_url") and raw not in ps.get("_written", ()):
        values, bad = urlstate.decode(raw, schema.check)
        if bad:
            state.flash(page, f"The link's settings could not be used: {'; '.join(bad)}. "
                              "Showing the default settings instead. The link held:")
            state.flash(page, urlstate.readable(raw), kind="code")
            values = {}
        schema.apply(page, {**defaults, **values})
        ps["_url"] = raw
    if errors:
        msg = "; ".join(errors)
        state.flash(page, msg[:1].upper() + msg[1:] + ". They were ignored.")
    state.set_widget_values(page, schema.widget_values(defaults), overwrite=False)
    state.show_flashes(page)


def finish_page(page: str, values: dict, defaults: dict) -> None:
    """Write the page's configuration into the URL (shareable link, seed included)."""
    encoded = urlstate.encode(values, defaults)
    urlstate.write(encoded)
    ps = state.page_state(page)
    ps["_url"] = encoded or None
    written = ps.setdefault("_written", [])      # what a late request may still carry (start_page)
    if encoded and encoded not in written[-1:]:
        written.append(encoded)
        del written[:-URL_ECHOES]


def reset_button(page: str, schema: Schema, group: str, names: Callable[[], Iterable[str]],
                 paper: Callable[[], dict], where: Any = st) -> None:
    """"Reset to paper defaults" for one group: its fields get ``paper()``'s values."""
    def reset() -> None:
        values = paper()
        schema.apply(page, {n: values[n] for n in names() if n in values})

    where.button("Reset to paper defaults", key=state.wkey(page, f"reset.{group}"), on_click=reset,
                 icon=":material/restart_alt:", help="Put this group back to the values the papers used.")


def render_fields(page: str, schema: Schema, names: Iterable[str], where: Any = st,
                  disabled: Iterable[str] = ()) -> dict[str, Any]:
    """Draw the fields ``names``; those in ``disabled`` are drawn greyed out (they would change nothing)."""
    off = set(disabled)
    return {n: schema[n].render(page, where, disabled=n in off) for n in names}


# ----------------------------------------------------------------------------- network settings
GATE_LABELS = {"hidden": "hidden-unit bias", "input": "input gate bias", "output": "output gate bias",
               "forget": "forget gate bias", "cell": "cell input bias", "reset": "reset gate bias",
               "update": "update gate bias", "candidate": "candidate bias"}
ALL_GATES = tuple(dict.fromkeys(g for gates in GATE_BIASES.values() for g in gates))
# Settings a variant reads that the app shows under other names (local feedback's self-weights
# are init overrides of its parameters u and v).
SELF_WEIGHT_FIELDS = ("fb_u", "fb_v")


def variant_title(name: str) -> str:
    return REGISTRY[name].title


def model_fields() -> list[Field]:
    """Variant, sizes and cell options (the union over all variants)."""
    F, sl = Field, "slider"
    return [
        F("variant", "Cell variant", "choice", "lstm1997", choices=tuple(lc.VARIANTS), widget="select",
          fmt=variant_title, help="Which recurrent cell to build; see the Theory page for equations."),
        F("n_hidden", "Hidden units", "int", 8, 1, limits.MAX_HIDDEN, 1, widget=sl),
        F("n_blocks", "Memory blocks", "int", 2, 1, limits.MAX_BLOCKS, 1, widget=sl),
        F("block_size", "Cells per block", "int", 2, 1, limits.MAX_BLOCK_SIZE, 1, widget=sl,
          help="Cells in one block share the block's gates."),
        F("n_static", "Static units", "int", 0, 0, limits.MAX_FB_UNITS, 1, widget=sl),
        F("n_net_fb", "Net-input feedback units", "int", 2, 0, limits.MAX_FB_UNITS, 1, widget=sl),
        F("n_act_fb", "Activation feedback units", "int", 2, 0, limits.MAX_FB_UNITS, 1, widget=sl),
        F("activation", "Activation f", "choice", "tanh", choices=("tanh", "sigmoid"), widget="segmented"),
        F("recurrent_scale", "recurrent weight scale", "optfloat", None, 0.0, limits.RECURRENT_SCALE_MAX,
          0.05, fallback=1.0, help="If set, every recurrent matrix is this number times a random "
          "orthogonal matrix (all its singular values equal the scale)."),
        F("init_range", "Initial weights ±", "float", 0.1, 0.0, limits.INIT_RANGE_MAX, 0.05, widget=sl,
          help="Weights start uniform in [−r, r] (biases too, unless set below)."),
        F("output_gate", "Output gate", "bool", True, widget="toggle"),
        F("forget_gate", "Forget gate", "bool", True, widget="toggle"),
        F("peepholes", "Peephole connections", "bool", True, widget="toggle"),
        F("cell_input", "Cell input squashing g", "choice", "g1997", choices=CELL_INPUT, widget="select"),
        F("cell_output", "Cell output squashing h", "choice", "h1997", choices=CELL_OUTPUT, widget="select"),
        F("gates_as_sources", "Gates feed back as recurrent inputs", "bool", True, widget="toggle"),
        F("fb_u", "net-input self-weight u", "optfloat", None, -3.0, 3.0, 0.05, fallback=0.9,
          help="Forgetting needs |u| < 1 (Frasconi et al. 1992)."),
        F("fb_v", "activation self-weight v", "optfloat", None, -5.0, 5.0, 0.1, fallback=1.5,
          help="Forgetting needs |v| < 2; latching needs |v| > 2."),
    ]


def size_names(variant: str) -> tuple[list[str], list[str]]:
    """(main fields, cell-option fields) that apply to ``variant`` (from the registry)."""
    v = variant_record(variant)
    opts = [o for o in v.options if o != "input_to_output"]
    if v.local_feedback:                          # its self-weights are its options
        opts += list(SELF_WEIGHT_FIELDS)
    return list(v.settings), opts


def active_gates(values: dict) -> list[str]:
    """The gate biases the configured network has (a switched-off gate has none)."""
    v = variant_record(values["variant"])
    gates = list(v.gate_biases)
    for gate, switch in (("output", "output_gate"), ("forget", "forget_gate")):
        if gate in gates and switch in v.options and not values.get(switch, True):
            gates.remove(gate)
    return gates


def bias_fields() -> list[Field]:
    out = []
    for g in ALL_GATES:
        out.append(Field(f"b_{g}", GATE_LABELS[g], "optfloat", None, *limits.BIAS_RANGE, 0.25))
        out.append(Field(f"b_{g}_step", "change per block / unit", "float", 0.0, *limits.BIAS_STEP_RANGE,
                         0.25, help="Stagger: block k gets value + k × change (the papers' −1, −2, −3 …)."))
    return out


def seed_field(default: int = 0) -> Field:
    return Field("seed", "Seed", "int", default, 0, 2**31 - 1, 1,
                 help="Same seed, same weights and sequence: a shared link reproduces the picture.")


# Paper defaults come from the core: the variant's record (``lstm_core.variants``), then — for
# the LSTM-1997 family — the network of the paper preset of the chosen task
# (``lstm_core.training.PRESETS``), translated into this page's settings by ``app.export``.
def paper_values(schema: Schema, variant: str, task: str | None = None) -> dict:
    """Every model and bias setting as the papers used it for this variant (and task)."""
    from app.ui import export            # export builds on this module's Schema

    out = {n: f.default for n, f in schema.fields.items() if n in _MODEL_OR_BIAS}
    out.update(export.settings_from(variant_record(variant).defaults, variant))
    preset = task_preset(task) if variant_record(variant).memory_cell else None
    if preset is not None:
        out.update(export.settings_from(preset.model.to_dict(), variant))
    return {k: v for k, v in out.items() if k in schema.fields}


def task_preset(task: str | None):
    """The paper preset whose experiment uses ``task`` with a 1997-family network, if any."""
    from lstm_core.training import PRESETS

    for preset in PRESETS.values():
        if preset.task == task and variant_record(preset.model.variant).memory_cell:
            return preset
    return None


_MODEL_OR_BIAS = {f.name for f in model_fields() + bias_fields()} - {"variant"}


# ----------------------------------------------------------------------------- task settings
DEFAULT_TYPED = "1, 0, 0, 0, 0.5, 0, 0, 0, -1, 0, 0, 0"
TASK_CHOICES = {("spike_delay", "mode"): ("msd", "nmsd"), ("spike_delay", "delay_set"): ("range", "pair"),
                ("spike_generation", "delay_set"): ("range", "pair"),
                ("periodic", "shape"): ("cos", "triangle", "rectangle"),
                ("long_lag_random", "targets"): ("expected", "last"),
                ("latching", "distractors"): ("random", "none"),
                ("two_sequence", "variant"): ("3a", "3b", "3c"), ("temporal_order", "classes"): (4, 8)}
# Integer task settings with their own upper limit and a help text (the others: 0 … TASK_MAX_SETTING).
TASK_INT_HELP = {
    ("embedded_reber", "sets"): (MAX_REBER_SET, "0: every training sequence is a fresh random string. N: the paper's "
                                 "protocol — a fixed set of N training strings and N test strings not in it; with the "
                                 "paper's criterion a run is judged on all 2N after every N training sequences "
                                 "(the paper: 256)."),
    ("embedded_reber", "set_seed"): (limits.TASK_MAX_SETTING, "Which fixed training and test sets are drawn when sets "
                                     "is above 0 (the paper used three pairs of sets, ten networks each)."),
}
# Settings that only matter for training/evaluation (hidden on pages that just run a sequence).
EVAL_SETTINGS = ("streak", "tolerance", "accuracy_threshold")


def task_fields(default_task: str = "adding") -> list[Field]:
    """Input source, task, every task's settings (named ``<task>.<setting>``) and typed text."""
    out = [Field("source", "Input sequence", "choice", "task", choices=("task", "typed"), widget="segmented",
                 fmt={"task": "From a task", "typed": "Typed by hand"}.get),
           Field("task", "Task", "choice", default_task, choices=tuple(lc.TASKS), widget="select",
                 fmt=lambda n: lc.TASKS[n].title or n)]
    for tname, task in lc.TASKS.items():
        for s, v in task.settings().items():
            name, label = f"{tname}.{s}", s
            if (tname, s) in TASK_CHOICES:
                out.append(Field(name, label, "choice", v, choices=TASK_CHOICES[(tname, s)], widget="select"))
            elif isinstance(v, bool):
                out.append(Field(name, label, "bool", v, widget="toggle"))
            elif isinstance(v, int):
                hi, why = TASK_INT_HELP.get((tname, s), (limits.TASK_MAX_SETTING, None))
                out.append(Field(name, label, "int", v, 0, hi, 1, help=why))
            elif isinstance(v, float):
                out.append(Field(name, label, "float", v, 0.0, 1e6, 0.01))
            else:
                out.append(Field(name, label, "text", str(v), hi=100, widget="text_area"))
    out.append(Field("typed", "Values (one row per timestep, or one row for a single input)", "text",
                     DEFAULT_TYPED, hi=limits.MAX_TYPED_CHARS, widget="text_area",
                     help="Numbers separated by commas or spaces. Several rows = several inputs per step."))
    return out


def task_settings(values: dict, task: str) -> dict:
    """The chosen task's settings out of the flat page values."""
    return {s: values[f"{task}.{s}"] for s in lc.TASKS[task].settings()}


# ----------------------------------------------------------------------------- groups
def _current(page: str, name: str, schema: Schema) -> Any:
    return schema[name].read(page)


def model_group(page: str, schema: Schema, where: Any = st, variants: Iterable[str] | None = None) -> str:
    """Variant + sizes + cell options; returns the variant."""
    variant = schema["variant"].render(page, where)
    if variants is not None and variant not in variants:
        where.warning(f"{variant} is not available here.")
    main, opts = size_names(variant)
    render_fields(page, schema, main, where)
    if opts:
        with where.expander("Cell options"):
            render_fields(page, schema, opts, st)
    task = _current(page, "task", schema) if "task" in schema.fields else None
    names = [n for n in _MODEL_OR_BIAS if not n.startswith("b_")]
    reset_button(page, schema, "model", lambda: names,
                 lambda: paper_values(schema, _current(page, "variant", schema), task), where)
    return variant


def bias_group(page: str, schema: Schema, variant: str, where: Any = st) -> None:
    """One optional bias per gate of ``variant`` plus its per-block stagger."""
    where.caption("Unset = random like the other weights. Staggered: block k gets value + k × change.")
    current = {n: _current(page, n, schema) for n in ("output_gate", "forget_gate")}
    for gate in active_gates({"variant": variant, **current}):
        value = schema[f"b_{gate}"].render(page, where)
        schema[f"b_{gate}_step"].render(page, where, disabled=value is None)
    task = _current(page, "task", schema) if "task" in schema.fields else None
    names = [n for n in _MODEL_OR_BIAS if n.startswith("b_")]
    reset_button(page, schema, "bias", lambda: names,
                 lambda: paper_values(schema, _current(page, "variant", schema), task), where)


def task_group(page: str, schema: Schema, where: Any = st, allow_typed: bool = True,
               hide: Iterable[str] = EVAL_SETTINGS) -> tuple[str, str]:
    """Input source and the task's settings (or the typed text); returns (source, task)."""
    source = schema["source"].render(page, where) if allow_typed else "task"
    task = schema["task"].read(page)
    if source == "typed":
        schema["typed"].render(page, where)
    else:
        task = schema["task"].render(page, where)
        info = lc.TASKS[task]
        where.caption(f"{info.paper}. {info.setup}")
        render_fields(page, schema, [f"{task}.{s}" for s in info.settings() if s not in hide], where)

    def paper() -> dict:
        t = _current(page, "task", schema)
        return {f"{t}.{s}": v for s, v in lc.TASKS[t].settings().items()}

    reset_button(page, schema, "task", lambda: paper().keys(), paper, where)
    return source, task


def restricted_choice(page: str, schema: Schema, name: str, offered: tuple, why: str, where: Any = st,
                      fallback: Any = None) -> Any:
    """A choice field drawn with only the ``offered`` values. A current value that is not offered
    (another control just changed, or a link asks for it) is switched to ``fallback`` (default:
    the first offered) before the widget is drawn, with a note: "<why>, not X: switched to Y"."""
    f, key = schema[name], state.wkey(page, name)
    current = st.session_state.get(key, f.default)
    if current not in offered:
        new = fallback if fallback in offered else offered[0]
        st.session_state[key] = new
        label = f.fmt or str
        where.info(f"{why}, not {label(current)}: the {f.label.lower()} was switched to {label(new)}.",
                   icon=":material/swap_horiz:")
    common = dict(format_func=f.fmt or str, key=key, help=f.help, persist_state=PERSIST)
    if f.widget == "segmented":
        return where.segmented_control(f.label, offered, required=True, **common)
    return where.selectbox(f.label, offered, **common)


def algorithm_control(page: str, schema: Schema, variant: str, where: Any = st) -> str:
    """The training algorithm, offering only those ``variant`` supports (the registry says which)."""
    rec, f = variant_record(variant), schema["algorithm"]
    offered = tuple(a for a in f.choices if a in rec.algorithms)
    why = f"{rec.title} trains with {' or '.join((f.fmt or str)(a) for a in offered)}"
    return restricted_choice(page, schema, "algorithm", offered, why, where, fallback=rec.default_algorithm())


def seed_group(page: str, schema: Schema, where: Any = st) -> int:
    seed = schema["seed"].render(page, where)
    reset_button(page, schema, "seed", lambda: ["seed"], lambda: {"seed": schema["seed"].default}, where)
    return seed
