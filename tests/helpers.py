"""Shared test helpers: small random models and inputs for every variant."""

from __future__ import annotations

import numpy as np

import lstm_core as lc

# (variant, settings) — every option switched on and off somewhere in this list
CASES = [
    ("rnn", dict(n_hidden=4, activation="tanh")),
    ("rnn", dict(n_hidden=3, activation="sigmoid", output_activation="identity")),
    ("local_feedback", dict(n_static=2, n_net_fb=2, n_act_fb=2, init={"u": 0.7, "v": 1.3})),
    ("local_feedback", dict(n_static=0, n_net_fb=1, n_act_fb=3, output_activation="tanh")),
    ("lstm1997", dict(n_blocks=2, block_size=2)),
    (
        "lstm1997",
        dict(
            n_blocks=1,
            block_size=1,
            output_gate=False,
            cell_input="sigmoid",
            cell_output="identity",
            output_activation="identity",
        ),
    ),
    ("lstm1997", dict(n_blocks=3, block_size=1, gates_as_sources=False, input_to_output=True)),
    ("lstm2000", dict(n_blocks=2, block_size=2, bias={"forget": 1.0})),
    ("lstm2000", dict(n_blocks=2, block_size=1, output_gate=False, gates_as_sources=False)),
    ("lstm2002", dict(n_blocks=2, block_size=2)),
    (
        "lstm2002",
        dict(
            n_blocks=1,
            block_size=1,
            cell_input="identity",
            cell_output="identity",
            gates_as_sources=False,
            output_activation="identity",
        ),
    ),
    ("lstm2002", dict(n_blocks=2, block_size=2, peepholes=False, input_to_output=True)),
    ("lstm2002", dict(n_blocks=2, block_size=1, forget_gate=False)),
    ("lstm", dict(n_hidden=4)),
    ("lstm", dict(n_hidden=3, output_activation="softmax", loss="ce")),
    ("gru", dict(n_hidden=4)),
    ("gru", dict(n_hidden=2, output_activation="identity")),
]


def case_id(case) -> str:
    v, s = case
    return v + "-" + "-".join(f"{k}={s[k]}" for k in sorted(s) if k not in ("init", "bias"))[:60]


def make(variant: str, settings: dict, n_in: int = 3, n_out: int = 2, seed: int = 0, init_range: float = 0.5):
    return lc.build(variant, n_in=n_in, n_out=n_out, init_range=init_range, seed=seed, **settings)


def data(model, T: int = 6, B: int = 2, seed: int = 1, K: int | None = None):
    rng = np.random.default_rng(seed)
    lead = (T,) + ((K,) if K else ()) + (B,)
    xs = rng.normal(size=lead + (model.config.n_in,))
    n_out = model.config.n_out
    if model.config.loss == "ce":
        targets = np.eye(n_out)[rng.integers(0, n_out, size=lead)]
    else:
        targets = rng.uniform(0, 1, size=lead + (n_out,))
    mask = (rng.uniform(size=lead) < 0.6).astype(float)
    mask[-1] = 1.0
    return xs, targets, mask


def chart_specs(at) -> list[dict]:
    """Every Plotly figure an AppTest run drew, in page order: ``st.plotly_chart`` elements and
    the live charts of ``app.ui.live`` (a full page run always sends them whole)."""
    import json

    out: list[dict] = []

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            kind = getattr(child, "type", None)
            if kind == "plotly_chart":
                out.append(json.loads(child.proto.spec))
            elif kind == "bidi_component" and child.proto.component_name == "gatelab_live_chart":
                msg = json.loads(child.proto.json)
                assert "full" in msg, "a full page run sends a live chart whole"
                out.append(json.loads(msg["full"]))
            walk(child)

    walk(at._tree)
    return out


# Streamlit calls whose first argument (or label=) is a label a user reads
LABELLED_WIDGETS = frozenset(
    {
        "button", "download_button", "link_button", "page_link", "form_submit_button", "toggle", "checkbox",
        "selectbox", "multiselect", "slider", "select_slider", "number_input", "text_input", "text_area",
        "radio", "segmented_control", "pills", "file_uploader", "expander", "popover", "tabs",
    }
)  # fmt: skip


def translated_messages(locale: str = "zh_TW") -> list[tuple[str, str, str]]:
    """(domain, msgid, msgstr) of every translated message of ``locale``'s catalogues."""
    from babel.messages.pofile import read_po

    from app.i18n import catalog

    out = []
    for po in sorted((catalog.LOCALE_DIR / locale / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as f:
            for m in read_po(f, locale=locale):
                if m.id and m.string and isinstance(m.id, str):
                    out.append((po.stem, m.id, m.string))
    return out
