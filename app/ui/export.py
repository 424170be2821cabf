"""Data in and out of a page: CSV and JSON downloads, validated uploads and the hand-typed input
sequence (page settings <-> ``lc.ModelConfig`` is ``app.ui.netconfig``).

Everything that reads user-supplied text raises ``ValueError`` with a message a student can act
on; the page shows it with ``st.error`` and keeps its current state.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import lstm_core as lc
from app.i18n import N_, _, core_errors
from app.ui import limits, state
from app.ui.form import Schema
from app.ui.netconfig import values_from_model

DOC_KIND = "gatelab-config"


def config_document(page: str, model: lc.ModelConfig | None, values: dict) -> str:
    """The downloadable configuration: the page's settings plus the network they build."""
    doc = {
        "kind": DOC_KIND,
        "page": page,
        "settings": values,
        "model": model.to_dict() if model is not None else None,
    }
    return json.dumps(doc, indent=2, sort_keys=True, allow_nan=False)


def parse_config_upload(
    data: bytes,
    page: str,
    schema: Schema,
    from_model: Callable[[lc.ModelConfig, Schema], tuple[dict, list[str]]] | None = values_from_model,
) -> tuple[dict, list[str]]:
    """Validate an uploaded configuration; returns (settings to apply, notes) or ValueError.

    Accepts this app's own download (settings of the same page are restored exactly; from
    another page only the network is used) or a bare ``ModelConfig`` JSON -- on pages that can
    map a network onto their settings (``from_model``; None = only this page's own files).
    """
    doc = _json_object(data)
    if doc.get("kind") == DOC_KIND and doc.get("page") == page and isinstance(doc.get("settings"), dict):
        try:
            return schema.check(doc["settings"]), []
        except ValueError as e:
            raise ValueError(_("the file's settings are not valid here: {why}").format(why=e)) from None
    model, notes = _network_of(doc, maps_networks=from_model is not None)
    cfg = lc.ModelConfig.from_dict(model)  # the core's own, actionable validation
    values, more = from_model(cfg, schema)  # not None here: _network_of refuses the file otherwise
    return values, notes + more


def _json_object(data: bytes) -> dict:
    """The uploaded bytes as a JSON object, or ValueError saying what is wrong with the file."""
    if len(data) > limits.MAX_UPLOAD_BYTES:
        raise ValueError(
            _("the file is {size} bytes; a configuration is at most {most} bytes").format(
                size=f"{len(data):,}", most=f"{limits.MAX_UPLOAD_BYTES:,}"
            )
        )
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ValueError(_("the file is not text (UTF-8); upload the .json file you downloaded")) from None
    except json.JSONDecodeError as e:
        raise ValueError(
            _("the file is not valid JSON: {why} (line {line}, column {column})").format(
                why=e.msg, line=e.lineno, column=e.colno
            )
        ) from None
    except RecursionError:
        raise ValueError(_("the file's JSON is nested too deeply to be a configuration")) from None
    except ValueError:  # json reads an integer of over 4,300 digits with int(), which refuses it
        raise ValueError(
            _("the file holds a number thousands of digits long; no setting is that big")
        ) from None
    if not isinstance(doc, dict):
        raise ValueError(_("a configuration is a JSON object, not {kind}").format(kind=type(doc).__name__))
    return doc


def _network_of(doc: dict, *, maps_networks: bool) -> tuple[dict, list[str]]:
    """(the network's ``ModelConfig`` dict, notes) of a file that is not this page's own settings:
    another page's download or a bare network; ValueError if this page cannot use it."""
    if doc.get("kind") == DOC_KIND:
        if not maps_networks:
            raise ValueError(
                _(
                    "the file was saved on the '{page}' page; this page loads only "
                    "configurations saved on itself"
                ).format(page=doc.get("page"))
            )
        model = doc.get("model")
        if not isinstance(model, dict):
            raise ValueError(
                _(
                    "the file is from the '{page}' page and holds no network ('model') this page can use"
                ).format(page=doc.get("page"))
            )
        return model, [
            _("The file was saved on the '{page}' page: only its network is used.").format(
                page=doc.get("page")
            )
        ]
    if "variant" in doc:
        if not maps_networks:
            raise ValueError(
                _(
                    "this is a network configuration; this page loads only configurations "
                    "saved on itself (its settings are not a single network)"
                )
            )
        return doc, []
    raise ValueError(
        _(
            "the file is neither a Gate Lab configuration (with \"kind\": "
            "\"{kind}\") nor a network configuration (with a \"variant\")"
        ).format(kind=DOC_KIND)
    )


# ----------------------------------------------------------------------------- CSV
def traces_csv(
    outputs: np.ndarray,
    internals: dict[str, np.ndarray],
    targets: np.ndarray | None = None,
    mask: np.ndarray | None = None,
) -> bytes:
    """Every quantity a run shows as a tidy CSV (t counts from 1, as on screen): its records but the
    backward pass's cache (``lc.shown_names``)."""
    arrays = {k: internals[k] for k in lc.shown_names(internals)}
    if targets is not None:
        arrays["target"] = targets
    if mask is not None:
        arrays["mask"] = mask[..., None]
    run = lc.Run(outputs=outputs, internals=arrays, state={}, recs=[], prepared={})
    frame = run.to_frame(list(arrays))
    frame["t"] += 1
    return frame.to_csv(index=False).encode()


# ----------------------------------------------------------------------------- typed sequences
_SPLIT = re.compile(r"[,;\s]+")


def parse_sequence(text: str, max_T: int = limits.STEP_MAX_T, max_in: int = limits.MAX_INPUTS) -> np.ndarray:
    """Hand-typed numbers -> (T, n_in). One row = one timestep; a single row = one input per step."""
    if len(text) > limits.MAX_TYPED_CHARS:
        raise ValueError(
            _("the typed sequence is {n} characters; at most {most} are accepted").format(
                n=f"{len(text):,}", most=f"{limits.MAX_TYPED_CHARS:,}"
            )
        )
    rows = [r.strip().strip(",;") for r in text.replace("−", "-").splitlines()]
    rows = [r for r in rows if r]
    if not rows:
        raise ValueError(_("type at least one number (one row per timestep, or a single row of numbers)"))
    parsed = []
    for i, row in enumerate(rows, 1):
        nums = []
        for tok in _SPLIT.split(row):
            try:
                x = float(tok)
            except ValueError:
                raise ValueError(
                    _("row {row}: {token} is not a number").format(row=i, token=repr(tok))
                ) from None
            if not math.isfinite(x):
                raise ValueError(
                    _("row {row}: {token} is not a finite number").format(row=i, token=repr(tok))
                )
            nums.append(x)
        parsed.append(nums)
    if len(parsed) == 1:
        arr = np.array(parsed[0])[:, None]
    else:
        widths = [len(r) for r in parsed]
        bad = next((i for i, w in enumerate(widths) if w != widths[0]), None)
        if bad is not None:
            raise ValueError(
                _(
                    "row {row} has {n} numbers but row 1 has {first}; every "
                    "row (timestep) needs the same number of inputs"
                ).format(row=bad + 1, n=widths[bad], first=widths[0])
            )
        arr = np.array(parsed)
    limits.check_length(arr.shape[0], max_T, N_("typed sequence"))
    if arr.shape[1] > max_in:
        raise ValueError(_("{n} inputs per timestep; at most {most}").format(n=arr.shape[1], most=max_in))
    return arr


# ----------------------------------------------------------------------------- the page panel
def _import(page: str, schema: Schema, from_model: Any) -> None:
    """Uploader callback: validate, then apply (or report and keep the current settings)."""
    up = st.session_state.get(state.wkey(page, "upload"))
    if up is None:
        return
    try:
        values, notes = parse_config_upload(up.getvalue(), page, schema, from_model)
    except ValueError as e:
        state.flash(
            page,
            _("Could not load {name}: {why}. Your current settings are unchanged.").format(
                name=up.name, why=core_errors.translate(e)
            ),
            where="io",
        )
        return
    schema.apply(page, values)
    state.flash(
        page, " ".join([_("Loaded {name}.").format(name=up.name)] + notes), kind="success", where="io"
    )


def io_panel(
    page: str,
    schema: Schema,
    *,
    csv: Callable[[], bytes],
    csv_name: str,
    doc: str,
    doc_name: str,
    from_model: Any = values_from_model,
    csv_label: str = N_("Traces (CSV)"),
) -> None:
    """Downloads (CSV built only when clicked) and the configuration upload, in an expander.

    An import's message is drawn here, under the uploader, with the box kept open — not at the
    top of the page, where nobody who is looking at the uploader would see it. Left out in
    presenter mode (nothing for a class to download from the projector)."""
    if state.presenting() and not state.has_flashes(page, "io"):
        return
    with st.expander(_("Export and import"), expanded=state.has_flashes(page, "io")):
        c1, c2 = st.columns(2)
        c1.download_button(
            _(csv_label),
            csv,
            file_name=csv_name,
            mime="text/csv",
            key=state.wkey(page, "dl_csv"),
            icon=":material/download:",
            on_click="ignore",
        )
        c2.download_button(
            _("Configuration (JSON)"),
            doc,
            file_name=doc_name,
            mime="application/json",
            key=state.wkey(page, "dl_json"),
            icon=":material/download:",
            on_click="ignore",
        )
        st.file_uploader(
            _("Load a configuration (JSON)"),
            type=["json"],
            key=state.wkey(page, "upload"),
            on_change=_import,
            args=(page, schema, from_model),
            max_upload_size=1,
            help=_(
                "A file downloaded here; malformed or out-of-range files are refused "
                "with a message and your settings stay as they are."
            ),
        )
        state.show_flashes(page, "io")


def flow_csv(curves: list) -> bytes:
    """Error-flow curves (``flow_figures.FlowCurve``) as a tidy CSV: curve, q, measured, theory."""
    frames = [
        pd.DataFrame(
            {
                "curve": c.name,
                "steps_back": c.back,
                "measured": c.measured,
                "theory": c.theory if c.theory is not None else np.nan,
                "bound": c.bound if c.bound is not None else np.nan,
            }
        )
        for c in curves
    ]
    if not frames:
        return b"curve,steps_back,measured,theory,bound\n"
    return pd.concat(frames, ignore_index=True).to_csv(index=False).encode()


def read_model_file(data: bytes, name: str) -> lc.LoadedModel:
    """An uploaded PyTorch model (safetensors or .npz, never pickle) within the app's size limits;
    ``ValueError`` (the core's message) when it is not one."""
    return lc.load_model_file(
        data,
        name,
        max_bytes=limits.MAX_MODEL_BYTES,
        max_hidden=limits.MAX_HIDDEN,
        max_inputs=limits.MAX_INPUTS,
        max_outputs=limits.MAX_INPUTS,
    )
