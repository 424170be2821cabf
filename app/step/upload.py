"""Step through a cell, "Bring your own model": a trained PyTorch nn.LSTM / nn.GRU from a file.

The file is read by ``lc.load_model_file`` (safetensors or .npz, never pickle) in the
uploader's callback; a refused file leaves its message under the uploader and the last good
model in place. The model lives in this session's page state only (never in ``st.cache_*``,
which all users share) and never in the URL: links carry settings, not weights. Its input is
text typed in the model's vocabulary (the next character is the target, as a character model
is trained) or a task with as many inputs as the model has. The page then draws the uploaded
network with the same diagram, equations and charts, plus its error flow.
"""

from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st

import lstm_core as lc
from app import i18n
from app.i18n import N_, _, core_errors
from app.step.settings import PAGE
from app.ui import classlink, export, figures, flow_figures, form, limits, saving, state
from lstm_core.io.model_files import PICKLE_SUFFIXES  # offered, so that they get our "why not" message

SOURCE_KEY, FILE_KEY = state.wkey(PAGE, "net_source"), state.wkey(PAGE, "byo_file")
INPUT_KEY, TEXT_KEY, TASK_KEY = (
    state.wkey(PAGE, "byo_input"),
    state.wkey(PAGE, "byo_text"),
    state.wkey(PAGE, "byo_task"),
)
SOURCES = {"built": N_("Built here"), "uploaded": N_("Uploaded PyTorch model")}
INPUTS = {"typed": N_("Typed text"), "task": N_("A task")}
NO_LINK = N_("A link (or class link) does not carry an uploaded model: it opens with the network built here.")


INTRO = N_(
    "Step through a trained PyTorch network of your own: upload a one-layer nn.LSTM or nn.GRU "
    "(safetensors or .npz, never pickle) in the sidebar, type characters in its vocabulary or pick a "
    "task, then play it or step one timestep at a time — the diagram shades each gate by how open it "
    "is, the equations show this step's numbers from the uploaded weights, and the error flow below "
    "shows how far back its gradient reaches."
)


def _locked() -> bool:
    """A teacher's class link that locks the Network group also keeps the network built here."""
    locked = classlink.is_locked(PAGE, "variant")
    if locked:
        st.session_state[SOURCE_KEY] = "built"
    return locked


def chosen() -> bool:
    """Whether this session chose the uploaded network (read before the sidebar is drawn)."""
    return not _locked() and st.session_state.get(SOURCE_KEY) == "uploaded"


def source() -> str:
    """The sidebar's network source switch ("built" or "uploaded"); not a URL setting."""
    st.session_state.setdefault(SOURCE_KEY, "built")
    locked = _locked()
    return st.segmented_control(
        _("Network source"),
        list(SOURCES),
        format_func=i18n.labels(SOURCES),
        key=SOURCE_KEY,
        required=True,
        persist_state=form.PERSIST,
        disabled=locked,
        help=_("Locked by your teacher's class link.")
        if locked
        else _(
            "Step through a network built from the settings below, or a trained "
            "one-layer PyTorch nn.LSTM / nn.GRU you upload."
        ),
    )


def loaded() -> dict | None:
    """The session's last good uploaded model: {"name", "digest", "model": lc.LoadedModel}."""
    return state.page_state(PAGE).get("byo")


def _default_text(vocab: str) -> str:
    words = ".emma." if set(".emma.") <= set(vocab) else vocab[:8]
    return words if set(words) <= set(vocab) else vocab[:8]


def _on_upload() -> None:
    """Uploader callback: read and validate the file; keep the previous model on any error."""
    up = st.session_state.get(FILE_KEY)
    if up is None:
        return
    data = up.getvalue()
    try:
        got = export.read_model_file(data, up.name)
    except ValueError as e:
        why = core_errors.translate(e)
        state.flash(
            PAGE,
            (
                _("Could not load {name}: {why}. The previous model is still loaded.")
                if loaded()
                else _("Could not load {name}: {why}.")
            ).format(name=up.name, why=why),
            where="byo",
        )
        return
    state.page_state(PAGE)["byo"] = {
        "name": up.name,
        "digest": hashlib.sha256(data).hexdigest()[:16],
        "model": got,
    }
    for k in ("byo_run", "_good.byo"):  # runs of the previous model are not "last good" any more
        state.page_state(PAGE).pop(k, None)
    if got.vocab:
        st.session_state[TEXT_KEY] = _default_text(got.vocab)
    st.session_state[INPUT_KEY] = "typed" if got.vocab else "task"
    state.flash(PAGE, _("Loaded {name}.").format(name=up.name), kind="success", where="byo")


def network_group() -> lc.LoadedModel | None:
    """The uploader, its messages right under it, and a summary of the loaded model."""
    st.file_uploader(
        _("Trained model (.safetensors or .npz)"),
        type=["safetensors", "npz", *(x[1:] for x in PICKLE_SUFFIXES)],
        key=FILE_KEY,
        on_change=_on_upload,
        max_upload_size=max(1, limits.MAX_MODEL_BYTES // 1_000_000),
        help=_(
            "A one-layer nn.LSTM or nn.GRU state_dict (optionally with an nn.Linear output layer "
            "fc/out/linear/head and an nn.Embedding), saved with safetensors or np.savez. "
            "Pickle files (.pt, .pth) are refused: loading one could run code on the server."
        ),
    )
    state.show_flashes(PAGE, "byo")
    got = loaded()
    if got is None:
        st.info(
            _(
                "No model loaded yet. Try docs/examples/names_lstm.safetensors (a character LSTM trained on "
                "names by examples/train_names_lstm.py)."
            ),
            icon=":material/upload_file:",
        )
        return None
    st.markdown(_("**{name}** — {summary}.").format(name=got["name"], summary=summary(got["model"])))
    st.caption(_(NO_LINK))
    return got["model"]


def summary(model: lc.LoadedModel) -> str:
    """``model.summary()`` (the core's English) in this session's language, from the same fields."""
    if i18n.current() == i18n.DEFAULT:
        return model.summary()
    head = (
        _("output layer `{layer}` ({hidden} → {out}, {act})").format(
            layer=model.output_layer, hidden=model.n_hidden, out=model.n_out, act=model.output_activation
        )
        if model.output_layer
        else _("no output layer (the outputs shown are h(t))")
    )
    vocab = (
        _("vocabulary of {n} characters").format(n=len(model.vocab))
        if model.vocab
        else _("no vocabulary (inputs come from a task)")
    )
    emb = (
        _(", embedding `{name}` folded into the input weights").format(name=model.embedding)
        if model.embedding
        else ""
    )
    return _(
        "{format}: one-layer {variant}, {n_in} inputs, {n_hidden} hidden units, {head}{emb}; {vocab}"
    ).format(
        format=model.file_format,
        variant=model.variant.upper(),
        n_in=model.n_in,
        n_hidden=model.n_hidden,
        head=head,
        emb=emb,
        vocab=vocab,
    )


def _tasks_for(model: lc.LoadedModel) -> list[str]:
    return [n for n in lc.TASKS if lc.get_task(n).n_in == model.n_in]


def input_group(model: lc.LoadedModel) -> None:
    """Typed text in the model's vocabulary, or a task whose input size matches the model's."""
    tasks = _tasks_for(model)
    offered = [k for k in INPUTS if k != "typed" or model.vocab]
    if not tasks:
        offered = [k for k in offered if k != "task"]
    if not offered:
        st.warning(
            _(
                "The model has {n} inputs, no task has that many and the file has no "
                "vocabulary for typed text: save it with __metadata__ {{\"vocab\": \"…\"}} to type input."
            ).format(n=model.n_in)
        )
        return
    if st.session_state.get(INPUT_KEY) not in offered:
        st.session_state[INPUT_KEY] = offered[0]
    choice = st.segmented_control(
        _("Input"), offered, format_func=i18n.labels(INPUTS), key=INPUT_KEY, required=True
    )
    if choice == "typed":
        st.session_state.setdefault(TEXT_KEY, _default_text(model.vocab))
        st.text_input(
            _("Characters, one per timestep"),
            key=TEXT_KEY,
            max_chars=limits.STEP_MAX_T + 1,
            help=_(
                "The model's vocabulary: {vocab}. Each character is one one-hot input; "
                "the next character is the target."
            ).format(vocab=repr(model.vocab)),
        )
        if "." in model.vocab:
            st.caption(_("Character models trained on the names task start and end a name with '.'."))
    else:
        if st.session_state.get(TASK_KEY) not in tasks:
            st.session_state[TASK_KEY] = tasks[0]
        st.selectbox(
            _("Task (with the model's input size)"),
            tasks,
            key=TASK_KEY,
            format_func=i18n.labels({n: lc.TASKS[n].title for n in tasks}),
        )


def _inputs(model: lc.LoadedModel, seed: int) -> dict:
    if st.session_state.get(INPUT_KEY) == "typed":
        text = str(st.session_state.get(TEXT_KEY, ""))
        limits.check_length(len(text), limits.STEP_MAX_T + 1, N_("typed text"))
        xs = model.encode(text)
        symbols = tuple(model.vocab) if model.n_out == model.n_in else None
        if (
            len(text) >= 2 and model.n_out == model.n_in
        ):  # a character model: the next character is the target
            return dict(xs=xs[:-1], targets=xs[1:], mask=np.ones((len(text) - 1, 1)), symbols=symbols)
        return dict(xs=xs, targets=None, mask=None, symbols=symbols)
    tk = lc.get_task(str(st.session_state.get(TASK_KEY)))
    limits.check_task(tk, limits.STEP_MAX_T)
    b = tk.generate(np.random.default_rng(seed), batch=1)
    T = int(b.lengths[0])
    fits = tk.n_out == model.n_out
    return dict(
        xs=b.xs[:T],
        targets=b.targets[:T] if fits else None,
        mask=b.mask[:T] if fits else None,
        symbols=tk.symbols if tk.n_out == tk.n_in == model.n_out else None,
    )


def compute(model: lc.LoadedModel, seed: int) -> tuple[lc.ModelConfig, dict]:
    """The uploaded network's recorded run on the chosen input (kept per input in the session)."""
    key = (
        loaded()["digest"],
        st.session_state.get(INPUT_KEY),
        st.session_state.get(TEXT_KEY),
        st.session_state.get(TASK_KEY),
        seed,
    )
    ps = state.page_state(PAGE)
    if ps.get("byo_run", (None,))[0] != key:
        data = _inputs(model, seed)
        run = lc.forward(model.model, data["xs"])
        data.update(outputs=run.outputs, internals=run.internals, params={})
        ps["byo_run"] = (key, data)
    return model.model.config, ps["byo_run"][1]


def error_flow(model: lc.LoadedModel, data: dict, large: bool) -> None:
    """How much of the error at the last step reaches each earlier state of the uploaded network."""
    st.subheader(_("Error flow of the uploaded network"))
    T = data["xs"].shape[0]
    if T < 2:
        st.caption(_("The error flow needs at least two timesteps."))
        return
    if data["targets"] is None and model.output_activation == "softmax":
        st.caption(
            _(
                "The error flow of a softmax output needs targets: type text in the model's vocabulary "
                "(the next character is the target) or pick a task with as many outputs as the model."
            )
        )
        return
    try:
        f = lc.error_flow(model.model, data["xs"], data["targets"], data["mask"])
    except (ValueError, lc.NonFiniteError) as e:
        st.error(_("Cannot compute the error flow: {why}").format(why=core_errors.translate(e)))
        return
    names = {"c": N_("cell state c(t)"), "h": N_("hidden state h(t)")}
    curves = [flow_figures.relative_flow(_(names.get(k, k)), f.norms[k][: f.at + 1]) for k in f.norms]
    fig, alt = flow_figures.flow_chart(
        curves,
        title=_("Error from the loss at step {T} flowing back (relative to step {T})").format(T=T),
        large=large,
        uirevision="step-byo-flow",
        height=340,
    )
    figures.show(fig, alt, state.wkey(PAGE, "byo_flow"), config=saving.config("error-flow", "uploaded-model"))
    st.caption(
        _(
            "‖dL/dstate(t)‖ for a loss at the last step only, relative to that step (exact backward pass "
            "through the uploaded weights). Through an LSTM's cell state the error fades about as fast as "
            "the trained forget gates f(t) let it."
        )
    )


def extras(model: lc.LoadedModel, data: dict, large: bool) -> None:
    """Below the player: the error flow, the traces as CSV, and why a link has no model in it."""
    error_flow(model, data, large)
    st.download_button(
        _("Traces (CSV)"),
        lambda: export.traces_csv(data["outputs"], data["internals"], data["targets"], data["mask"]),
        file_name=f"gatelab-uploaded-{model.variant}-traces.csv",
        mime="text/csv",
        key=state.wkey(PAGE, "byo_csv"),
        icon=":material/download:",
        on_click="ignore",
    )
    st.caption(_(NO_LINK))
