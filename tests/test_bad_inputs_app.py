"""The app's half of the bad-input catalogue (docs/bad_inputs.md): links, uploads, typed text,
extreme settings, page switches. Every case runs the real page in Streamlit's AppTest and checks
that it shows a clear ``st.error`` (no exception, no traceback) and keeps a working page.

Each case's id is listed in docs/bad_inputs.md (``test_catalogue_lists_every_case`` keeps the two
in step); the core's cases are in tests/test_bad_inputs_core.py and tests/test_bad_input.py.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from helpers import chart_specs
from streamlit.testing.v1 import AppTest

import lstm_core as lc
from app.ui import export, urlstate

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ROOT / "app" / "main.py"
CATALOGUE = ROOT / "docs" / "bad_inputs.md"


def b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def open_page(page: str, query: dict[str, str] | None = None) -> AppTest:
    # run once first: before that, switch_page finds pages by file name, not by url_path
    at = AppTest.from_file(str(ENTRY), default_timeout=90).run()
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.switch_page(f"../pages/{page}.py").run()
    return at


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def healthy(at: AppTest) -> None:
    """No exception box, and the page still works: charts, tables or its start button are there."""
    assert not at.exception, [e.value for e in at.exception]
    assert chart_specs(at) or at.get("dataframe") or at.get("table") or at.button


# ----------------------------------------------------------------------------- ?cfg= links
VALID = b64('{"seed":3,"variant":"rnn"}')
URL_CASES = [
    # id, page, cfg value, words the error must contain
    ("url-garbage", "step", "!!!not-a-config!!!", "not a Gate Lab configuration"),
    ("url-truncated-base64", "step", VALID[:-7], "could not be used"),
    (
        "url-base64-of-binary",
        "step",
        base64.urlsafe_b64encode(b"\xff\xfe\x00").decode(),
        "not a Gate Lab configuration",
    ),
    ("url-json-array", "step", "[1, 2, 3]", "JSON object"),
    ("url-json-null", "step", "null", "not a Gate Lab configuration"),
    ("url-nan-seed", "step", '{"seed": NaN}', "finite"),
    ("url-infinite-seed", "step", '{"seed": Infinity}', "finite"),
    ("url-string-for-number", "step", '{"n_blocks": "two"}', "n_blocks"),
    ("url-object-for-number", "step", '{"n_blocks": {"a": 1}}', "n_blocks"),
    ("url-absurd-blocks", "step", '{"n_blocks": 1000000000}', "between 1 and 8"),
    ("url-unknown-variant", "step", '{"variant": "lstm3000"}', "must be one of"),
    ("url-unknown-key", "step", '{"colour": "red"}', "unknown setting"),
    ("url-huge-T", "step", '{"task": "adding", "adding.T": 100000000}', "adding.T"),
    ("url-too-long", "step", "A" * 5000, "at most 4000"),
    ("url-absurd-bias", "step", '{"b_input": 1e308}', "b_input"),
    ("url-negative-init-range", "step", '{"init_range": -1}', "init_range"),
    ("url-train-nan-lr", "train", '{"lr": NaN}', "lr"),
    ("url-train-negative-lr", "train", '{"lr": -1}', "lr"),
    ("url-train-zero-budget", "train", '{"budget": 0}', "budget"),
    ("url-train-bad-algorithm", "train", '{"algorithm": "adam"}', "algorithm"),
    ("url-flow-huge-T", "gradient_flow", '{"T": 100000000}', "T"),
    ("url-flow-unknown-variant", "gradient_flow", '{"variants": ["nope"]}', "variants"),
    ("url-lab-too-many-seeds", "bias_lab", '{"n_seeds": 100000}', "n_seeds"),
    ("url-experiments-unknown", "experiments", '{"experiment": "nope"}', "experiment"),
    ("url-experiments-too-many-trials", "experiments", '{"trials": 100000}', "trials"),
    ("url-theory-nan-weight", "theory", '{"w": NaN}', "finite"),
    ("url-deeply-nested", "step", "[" * 1990 + "]" * 1990, "nested too deeply"),
]


@pytest.mark.parametrize("case,page,cfg,words", URL_CASES, ids=[c[0] for c in URL_CASES])
def test_bad_link_shows_an_error_what_it_held_and_the_defaults(case, page, cfg, words):
    at = open_page(page, {"cfg": cfg})
    healthy(at)
    msg = " ".join(errors(at))
    assert "could not be used" in msg and words in msg, msg
    held = [c.value for c in at.code]  # the link is replaced at once: show what it held
    assert held and held[0][:20] in urlstate.readable(cfg), held


def test_unknown_url_parameter_is_named_and_ignored():
    at = open_page("theory", {"w": "3", "colour": "red"})
    healthy(at)
    assert any("colour" in e for e in errors(at)), errors(at)


# ----------------------------------------------------------------------------- uploads
def doc(page: str, settings: dict) -> bytes:
    return json.dumps({"kind": export.DOC_KIND, "page": page, "settings": settings}).encode()


UPLOAD_CASES = [
    ("upload-malformed-json", b"{not json", "not valid JSON"),
    ("upload-binary", b"\xff\xfe\x00\x01", "not text"),
    ("upload-empty", b"", "not valid JSON"),
    ("upload-json-list", b"[1, 2]", "JSON object"),
    ("upload-deeply-nested", b"[" * 20_000 + b"]" * 20_000, "nested"),
    ("upload-10MB", b" " * 10_000_000, "at most"),
    ("upload-wrong-type", doc("step", {"n_blocks": "two"}), "n_blocks"),
    ("upload-out-of-range", doc("step", {"n_blocks": 20}), "between 1 and 8"),
    ("upload-nan-value", doc("step", {"init_range": float("nan")}), "init_range"),
    ("upload-other-page", doc("theory", {"w": 2.0}), "theory"),
    (
        "upload-model-out-of-range",
        lc.ModelConfig(variant="lstm1997", n_in=2, n_out=1, n_blocks=8)
        .to_json()
        .replace('"n_blocks": 8', '"n_blocks": 80')
        .encode(),
        "n_blocks",
    ),
]


@pytest.mark.parametrize("case,data,words", UPLOAD_CASES, ids=[c[0] for c in UPLOAD_CASES])
def test_bad_upload_is_refused_next_to_the_uploader_and_nothing_changes(case, data, words):
    at = open_page("step")
    before = {k: at.session_state[k] for k in ("step.variant", "step.n_blocks", "step.seed")}
    at.file_uploader[0].set_value(("bad.json", data, "application/json")).run()
    healthy(at)
    box = next(e for e in at.expander if e.label == "Export and import")  # the message inside it
    inside = [e.value for e in box.error]
    assert inside and words in inside[0] and "unchanged" in inside[0], inside
    assert {k: at.session_state[k] for k in before} == before


def test_sweep_results_file_nested_too_deeply_is_refused():
    from lstm_core.sweeps.cli import load_results

    with pytest.raises(ValueError, match="nested too deeply"):
        load_results(b"[" * 20_000 + b"]" * 20_000)


# ----------------------------------------------------------------------------- typed sequences
TYPED_CASES = [
    ("typed-junk-characters", "1 2 ☃", "is not a number"),
    ("typed-empty", "", "at least one number"),
    ("typed-only-spaces", "   \n  \n", "at least one number"),
    ("typed-100k-symbols", "1 " * 50_000, "characters; at most"),
    ("typed-ragged-rows", "1 2\n3", "every row"),
    ("typed-nan", "1 nan 2", "not a finite number"),
    ("typed-overflow", "1e400", "not a finite number"),
    ("typed-too-many-steps", "\n".join(["1"] * 600), "at most 500"),
]


@pytest.mark.parametrize("case,text,words", TYPED_CASES, ids=[c[0] for c in TYPED_CASES])
def test_bad_typed_sequence_keeps_the_last_good_run(case, text, words):
    at = open_page("step")
    at.segmented_control(key="step.source").set_value("typed").run()
    at.text_area(key="step.typed").set_value("1 2\n3 4").run()
    good = chart_specs(at)
    at.text_area(key="step.typed").set_value(text).run()
    healthy(at)
    assert any(words in e for e in errors(at)), errors(at)
    assert chart_specs(at) == good


# ----------------------------------------------------------------------------- extreme settings
def train_link(**values) -> dict[str, str]:
    from app.train import settings as train_settings

    return {"cfg": urlstate.encode({**train_settings.DEFAULTS, **values}, train_settings.DEFAULTS)}


def train_until_stopped(at: AppTest, runs: int = 300) -> AppTest:
    at.button(key="train.go").click().run()
    for _ in range(runs):
        if at.session_state["_page.train"]["live"].run.status != "running":
            break
        at.run()
    return at


@pytest.mark.parametrize(
    "case,settings,words",
    [
        (
            "train-lr-1e6-saturates",
            dict(variant="rnn", algorithm="bptt", task="embedded_reber", lr=1e6),
            "stuck",
        ),
        # (a 6,000-sequence budget: the stuck check's patience is budget / 20, at least 300 sequences)
        (
            "train-lr-1e6-lstm1997-adding",
            dict(variant="lstm1997", algorithm="rtrl", task="adding", lr=1e6, budget=6000),
            "stuck",
        ),
        (
            "train-lr-1e6-overflows",
            dict(variant="rnn", algorithm="bptt", task="periodic", lr=1e6),
            "diverged",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_extreme_learning_rate_stops_cleanly_and_says_where(case, settings, words):
    at = train_until_stopped(open_page("train", train_link(**settings)))
    healthy(at)
    run = at.session_state["_page.train"]["live"].run
    assert run.status == "diverged", run.status
    msg = " ".join(errors(at))
    assert words in msg and "sequence" in msg, msg


def test_switching_page_mid_training_and_back_keeps_the_run():
    at = open_page("train")
    at.button(key="train.go").click().run()
    at.run()
    seen = at.session_state["_page.train"]["live"].run.trainer.book.seen.copy()
    at.switch_page("../pages/step.py").run()
    healthy(at)
    at.switch_page("../pages/train.py").run()
    healthy(at)
    run = at.session_state["_page.train"]["live"].run
    assert (run.trainer.book.seen >= seen).all() and run.status in ("running", "paused")


def test_extreme_sliders_on_step_give_finite_pictures_or_a_message():
    at = open_page(
        "step", {"cfg": urlstate.encode({"init_range": 2.0, "b_input": 10.0, "b_output": -10.0}, {})}
    )
    healthy(at)
    assert not errors(at)


# ----------------------------------------------------------------------------- the catalogue
def test_catalogue_lists_every_case():
    """docs/bad_inputs.md names every case of this file and of the core's catalogue, and has ≥ 60."""
    text = CATALOGUE.read_text()
    listed = set(re.findall(r"`([A-Za-z0-9][A-Za-z0-9_-]*)`", text))
    here = (
        {c[0] for c in URL_CASES + UPLOAD_CASES + TYPED_CASES}
        | {
            "sweep-deeply-nested",
            "link-unknown-parameter",
            "switch-page-mid-training",
            "step-extreme-sliders",
        }
        | {"train-lr-1e6-saturates", "train-lr-1e6-lstm1997-adding", "train-lr-1e6-overflows"}
    )
    from test_bad_inputs_core import CASES as CORE

    here |= {c[0] for c in CORE}
    missing = sorted(here - listed)
    assert not missing, f"add these cases to docs/bad_inputs.md: {missing}"
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) >= 60, len(rows)
