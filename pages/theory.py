"""Theory: every variant's equations side by side, the symbol table, the vanishing-gradient argument.

A thin pipeline: text from app.theory.content; the demo's settings (URL / JSON / widgets) →
app.theory.demo (lstm_core) → app.theory.figures → st.plotly_chart. User state lives in
st.session_state under "theory_*" keys; the URL carries the demo's whole configuration.
"""
from __future__ import annotations

from dataclasses import asdict

import streamlit as st

from app.ui import state
from app.theory import content as tc
from app.theory import demo
from app.theory import figures as theory_figures

ss = st.session_state
# the app-wide sidebar toggle (app.ui.state); "large_font" is honoured too, for callers that set it
large_font = state.display_options() or bool(ss.get("large_font", False))
KEYS = {name: f"theory_{name}" for name in asdict(demo.DEFAULTS)}   # setting -> widget key


def _clear_messages() -> None:
    ss.pop("theory_url_errors", None)
    ss.pop("theory_import_error", None)


def _apply(settings: demo.DemoSettings) -> None:
    """Put settings into the widgets' state (only legal before they render, i.e. in callbacks)."""
    for name, key in KEYS.items():
        ss[key] = getattr(settings, name)


def _reset() -> None:
    _clear_messages()
    _apply(demo.DEFAULTS)


def _import() -> None:
    _clear_messages()
    upload = ss.get("theory_upload")
    if upload is None:
        return
    try:
        _apply(demo.from_json(upload.getvalue()))
        ss["theory_import_ok"] = upload.name
    except ValueError as e:
        ss["theory_import_error"] = f"Could not load {upload.name}: {e}. The current settings are kept."


# First visit in this session: the URL decides (a shared link reproduces the picture); later
# visits restore what the user had, since widget state is dropped while another page shows.
if "theory_settings" not in ss:
    ss["theory_settings"], ss["theory_url_errors"] = demo.from_query(st.query_params.to_dict())
for name, key in KEYS.items():
    if key not in ss:
        ss[key] = getattr(ss["theory_settings"], name)

st.title("Theory")
st.markdown(
    "Why a plain recurrent network forgets, and what each cell design changes. The equations are "
    "exactly the ones `lstm_core` computes; the figures below are computed by it live.")

# --- 1. equations -----------------------------------------------------------------------------
# A long equation scrolls sideways inside its column instead of being cut off.
st.html("<style>[data-testid='stMarkdownContainer'] .katex-display"
        "{overflow-x:auto;overflow-y:hidden;padding:2px 0;}</style>")
st.header("Equations, side by side")
st.markdown(
    "Each tab puts a variant next to the one it grew from. In the right-hand column the "
    ":orange-background[**framed orange terms**] are new compared with the left-hand column "
    "(also listed in words under it)."
    + (" Large-font mode shows the two one under the other." if large_font else ""))
for tab, (_, chain) in zip(st.tabs([label for label, _ in tc.COMPARISONS]), tc.COMPARISONS):
    with tab:
        # side by side at a slightly smaller size; stacked and larger for a projector
        cols = [st.container() for _ in chain] if large_font else st.columns(len(chain))
        for i, (col, v) in enumerate(zip(cols, chain)):
            info = tc.VARIANTS[v]
            with col:
                st.markdown(f"**{info.title}**  \n*{info.paper}*")
                st.latex(tc.equations(v, highlight=i > 0, size="large" if large_font else "small"))
                if i > 0:
                    st.caption(f"New vs {chain[i - 1]}: {info.new}")
                if info.note:
                    st.caption(info.note)

# --- 2. symbols ---------------------------------------------------------------------------------
st.header("Symbols")
st.caption("Shapes of one network in lstm_core (a population adds a leading axis K, states add the "
           "batch axis B). Z = n_in + |r|, H = n_static + n_net_fb + n_act_fb, "
           "n_cells = n_blocks · block_size.")
st.table(tc.symbol_table(), hide_index=True,
         alt="Table of every symbol in the equations: its name, its array shape in lstm_core, the "
             "name to look up in model.params or the step record, and the variants that use it.")

# --- 3. the argument ----------------------------------------------------------------------------
def _argument(parts: list[tuple[str, str]]) -> None:
    for text, tex in parts:
        st.markdown(text)
        if tex:
            st.latex(tex)


st.header("Why gradients vanish, and how the CEC stops it")
_argument(tc.VANISHING)
bounds = {name: demo.max_derivative(name) for name in demo.CURVES}
alt_activations = (
    "Left, the squashing functions σ, tanh, g = 4σ − 2 and h = 2σ − 1 for x from −6 to 6; "
    "right, their slopes, computed by lstm_core. Maximum slopes: "
    + ", ".join(f"{demo.CURVES[n].split(' (')[0]}: {b:g}" for n, b in bounds.items())
    + ". The dotted line marks σ' = ¼ at x = 0.")
st.plotly_chart(theory_figures.activation_figure(demo.activation_curves(), bounds, large_font),
                width="stretch", key="theory_activations", alt=alt_activations)
st.caption(f"Alt text: {alt_activations}")
_argument(tc.CEC_AND_FIXES)

# --- 4. live demo -------------------------------------------------------------------------------
st.subheader("Try it: the product of q factors |w f'(net)|")
st.markdown(
    "An **rnn with one hidden unit** (self-weight *w*, input weight 1, bias 0) and an **lstm1997 "
    "network with one memory cell** read the same noisy input x(t) = amplitude · N(0, 1). The loss "
    "is the output at the last step; the curves are the exact error norms computed by "
    "`lstm_core.error_flow` as the error travels q steps back.")
for msg in ss.get("theory_url_errors") or []:
    st.error(msg)
c1, c2, c3, c4, c5 = st.columns([3, 2, 2, 2, 1.4])
c1.slider("recurrent weight w", *demo.W_RANGE, step=0.1, key=KEYS["w"], on_change=_clear_messages)
c2.radio("activation f", demo.ACTIVATIONS, key=KEYS["f"], horizontal=True, on_change=_clear_messages,
         format_func=lambda f: {"sigmoid": "σ (1997)", "tanh": "tanh"}[f])
c3.slider("input amplitude", *demo.AMP_RANGE, step=0.1, key=KEYS["amp"], on_change=_clear_messages)
c4.slider("sequence length T", *demo.T_RANGE, key=KEYS["T"], on_change=_clear_messages)
c5.number_input("seed", *demo.SEED_RANGE, step=1, key=KEYS["seed"], on_change=_clear_messages)
st.button("Reset to defaults (the 1997 argument: σ, w = 3)", on_click=_reset, key="theory_reset")

try:
    settings = demo.DemoSettings(**{name: ss[key] for name, key in KEYS.items()})
    result = demo.compute_demo(settings)
    ss["theory_settings"], ss["theory_result"] = settings, result
except (ValueError, ArithmeticError) as e:
    st.error(f"{e}. Showing the last good result.")
    result = ss.get("theory_result")
st.query_params.from_dict(ss["theory_settings"].to_query())

if result is not None:
    s, d = result.settings, result.frame
    last = d.iloc[-1]
    fname = "σ" if s.f == "sigmoid" else "tanh"
    if result.bound_factor < 1:
        verdict = "every factor is below 1, so the error must vanish"
    elif last["rnn_norm"] > 1:
        verdict = "the error grew: the factors stayed above 1 (net stayed near 0, where f' peaks)"
    else:
        verdict = ("the bound allows growth, yet the error shrank: the unit saturates, so f'(net) "
                   "stays far below its maximum")
    alt_flow = (
        f"Log-scale error norm against q = 0…{s.T - 1} steps back. rnn (w = {s.w:g}, f = {fname}): "
        f"after {s.T - 1} steps the error is {last['rnn_norm']:.3g} of its starting value; the product "
        f"of the measured factors gives {last['rnn_product']:.3g} and the bound (|w| · max {fname}')^q "
        f"= {result.bound_factor:.3g}^q gives {last['bound']:.3g}: {verdict}. lstm1997 cell state with "
        f"the 1997 truncation: {last['cec_truncated']:.6g} (constant: every factor ∂s(t)/∂s(t−1) is "
        f"1); with full BPTT: {last['cec_bptt']:.3g}. Right panel: the factor each step back "
        "multiplies by, against the bound line."
        + (f" {result.underflow} rnn values are exactly 0 (w = 0, or smaller than float64 can hold)"
           " and are not drawn on the log axis." if result.underflow else ""))
    st.plotly_chart(theory_figures.flow_figure(result, large_font), width="stretch", key="theory_flow", alt=alt_flow)
    st.caption(f"Alt text: {alt_flow}")

    with st.expander("Export / import this demo"):
        e1, e2 = st.columns(2)
        e1.download_button("Curves as CSV", d.to_csv(index=False), "theory_error_flow.csv", "text/csv",
                           key="theory_csv")
        e2.download_button("Settings as JSON", s.to_json(), "theory_settings.json", "application/json",
                           key="theory_json")
        st.file_uploader("Load settings (JSON)", type=["json"], key="theory_upload", on_change=_import)
if ss.get("theory_import_error"):
    st.error(ss["theory_import_error"])
elif ss.pop("theory_import_ok", None):
    st.success("Settings loaded.")
