"""The core's ``ValueError`` messages as the app shows them, in this session's language.

``lstm_core`` raises in English (its Python API stays English); the app translates a message it
shows with ``translate``: each rule is a regular expression on the core's English message and the
message's template (``N_``-marked, so the catalogue holds it), whose ``{placeholders}`` are the
expression's named groups. A message no rule matches is shown as the core wrote it. The rules cover
what a student can trigger through the app: the network's settings (``lc.ModelConfig``:
``lstm_core/config.py``), a task's settings (``lstm_core/tasks``) and an uploaded model file
(``lstm_core/io/model_files.py``). ``tests/test_i18n_core.py`` raises real core errors through them.
"""

from __future__ import annotations

import re

from app.i18n import DEFAULT, N_, _, current

# (pattern, template): the pattern must match the whole English message.
RULES: tuple[tuple[str, str], ...] = (
    # lc.ModelConfig (lstm_core/config.py)
    (
        r"unknown variant (?P<variant>.+); choose one of (?P<choices>\[.*\])",
        N_("unknown variant {variant}; choose one of {choices}"),
    ),
    (
        r"(?P<name>.+?) must be a whole number between (?P<lo>\S+) and (?P<hi>\S+), got (?P<value>.+)",
        N_("{name} must be a whole number between {lo} and {hi}, got {value}"),
    ),
    (
        r"(?P<name>.+?) must be between (?P<lo>\S+) and (?P<hi>\S+), got (?P<value>.+)",
        N_("{name} must be between {lo} and {hi}, got {value}"),
    ),
    (
        r"(?P<variant>\S+) needs at least one hidden unit \(n_static \+ n_net_fb \+ n_act_fb ≥ 1\)",
        N_("{variant} needs at least one hidden unit (n_static + n_net_fb + n_act_fb ≥ 1)"),
    ),
    (
        r"(?P<variant>\S+): at most (?P<n>\d+) hidden units in total",
        N_("{variant}: at most {n} hidden units in total"),
    ),
    (
        r"activation must be 'tanh' or 'sigmoid', got (?P<value>.+)",
        N_("activation must be 'tanh' or 'sigmoid', got {value}"),
    ),
    (
        r"(?P<name>.+?) must be one of (?P<choices>\[.*\]), got (?P<value>.+)",
        N_("{name} must be one of {choices}, got {value}"),
    ),
    (
        r"use loss 'ce' together with output_activation 'softmax' \(and only then\); squared error \('mse'\) goes "
        r"with sigmoid, tanh or identity outputs",
        N_(
            "use loss 'ce' together with output_activation 'softmax' (and only then); squared error ('mse') goes "
            "with sigmoid, tanh or identity outputs"
        ),
    ),
    (
        r"(?P<name>\w+) must be true or false, got (?P<value>.+)",
        N_("{name} must be true or false, got {value}"),
    ),
    (
        r"init_range must be a number between 0 and 10, got (?P<value>.+)",
        N_("init_range must be a number between 0 and 10, got {value}"),
    ),
    (
        r"recurrent_scale must be a number between 0 and 100 \(or None\), got (?P<value>.+)",
        N_("recurrent_scale must be a number between 0 and 100 (or None), got {value}"),
    ),
    (
        r"(?P<variant>\S+) has no gate bias (?P<gate>.+?); its gate biases are (?P<valid>\[.*\])",
        N_("{variant} has no gate bias {gate}; its gate biases are {valid}"),
    ),
    (
        r"(?P<name>.+?): expected a number, a list of numbers or a range, got (?P<value>.+)",
        N_("{name}: expected a number, a list of numbers or a range, got {value}"),
    ),
    (
        r"(?P<name>.+?): initial value must be a finite number, got (?P<value>.+)",
        N_("{name}: initial value must be a finite number, got {value}"),
    ),
    (
        r"(?P<name>.+?): the list of values is empty; give one value per block/unit",
        N_("{name}: the list of values is empty; give one value per block/unit"),
    ),
    (
        r"(?P<name>.+?): uniform range \[(?P<lo>.+?), (?P<hi>.+?)\] is empty; put the smaller value first",
        N_("{name}: uniform range [{lo}, {hi}] is empty; put the smaller value first"),
    ),
    (
        r"a model configuration must be a JSON object \(a dict of settings\)",
        N_("a model configuration must be a JSON object (a dict of settings)"),
    ),
    (
        r"unknown setting\(s\) (?P<names>\[.*?\]); valid settings are (?P<valid>\[.*\])",
        N_("unknown setting(s) {names}; valid settings are {valid}"),
    ),
    (r"configuration is missing (?P<names>\[.*\])", N_("configuration is missing {names}")),
    (r"configuration is not valid JSON: (?P<why>.+)", N_("configuration is not valid JSON: {why}")),
    # a task's settings (lstm_core/tasks): "{why}" is the core's reason, translated when catalogued
    (
        r"(?P<task>\w+): (?P<name>\w+) must be an integer (?P<range>>= \S+|in \[\S+, \S+\]) \(got (?P<value>.+?)\); "
        r"(?P<why>.+)",
        N_("{task}: {name} must be an integer {range} (got {value}); {why}"),
    ),
    (
        r"(?P<task>\w+): (?P<name>\w+) must be a finite number (?P<range>>=? \S+) \(got (?P<value>.+?)\); (?P<why>.+)",
        N_("{task}: {name} must be a finite number {range} (got {value}); {why}"),
    ),
    (
        r"(?P<task>\w+): (?P<name>\w+) must be one of (?P<choices>\[.*?\]) \(got (?P<value>.+?)\); (?P<why>.+)",
        N_("{task}: {name} must be one of {choices} (got {value}); {why}"),
    ),
    (
        r"(?P<task>\w+): unknown setting\(s\) (?P<names>\[.*?\]); valid settings are (?P<valid>.+)",
        N_("{task}: unknown setting(s) {names}; valid settings are {valid}"),
    ),
    (
        r"unknown task (?P<task>.+); valid tasks are (?P<valid>\[.*\])",
        N_("unknown task {task}; valid tasks are {valid}"),
    ),
    # an uploaded model file (lstm_core/io/model_files.py)
    (r"type at least one character", N_("type at least one character")),
    (
        r"the model's vocabulary has no (?P<bad>.+); it knows (?P<vocab>.+)",
        N_("the model's vocabulary has no {bad}; it knows {vocab}"),
    ),
    (
        r"(?P<name>.+?) is a PyTorch/pickle file \(torch\.save\); Gate Lab never unpickles uploads because loading a "
        r"pickle can run any code on the server — (?P<how>.+)",
        N_(
            "{name} is a PyTorch/pickle file (torch.save); Gate Lab never unpickles uploads because loading a "
            "pickle can run any code on the server — {how}"
        ),
    ),
    (
        r"the file is (?P<n>\d+) bytes, shorter than a safetensors header \(8 bytes of header length\); it is "
        r"truncated or not a safetensors file",
        N_(
            "the file is {n} bytes, shorter than a safetensors header (8 bytes of header length); it is "
            "truncated or not a safetensors file"
        ),
    ),
    (
        r"the safetensors header says it is (?P<n>\S+) bytes long but the file has only (?P<have>\S+) bytes after "
        r"the length; the file is truncated or not safetensors",
        N_(
            "the safetensors header says it is {n} bytes long but the file has only {have} bytes after "
            "the length; the file is truncated or not safetensors"
        ),
    ),
    (
        r"the safetensors header is not valid JSON; the file is damaged or not safetensors",
        N_("the safetensors header is not valid JSON; the file is damaged or not safetensors"),
    ),
    (
        r"the safetensors header must be a JSON object of tensor names",
        N_("the safetensors header must be a JSON object of tensor names"),
    ),
    (
        r"the \.npz file is not a valid zip archive \(truncated or damaged\)",
        N_("the .npz file is not a valid zip archive (truncated or damaged)"),
    ),
    (
        r"the \.npz expands to (?P<n>\S+) bytes; at most (?P<most>\S+) are accepted here",
        N_("the .npz expands to {n} bytes; at most {most} are accepted here"),
    ),
    (
        r"the \.npz could not be read \(truncated or damaged\): (?P<why>.+)",
        N_("the .npz could not be read (truncated or damaged): {why}"),
    ),
    (
        r"the recurrent layer is bidirectional \(keys ending in _reverse\); Gate Lab steps one direction through "
        r"time — export an nn\.LSTM/nn\.GRU with bidirectional=False",
        N_(
            "the recurrent layer is bidirectional (keys ending in _reverse); Gate Lab steps one direction through "
            "time — export an nn.LSTM/nn.GRU with bidirectional=False"
        ),
    ),
    (
        r"the file has (?P<n>\d+) recurrent layers \(keys …_l(?P<layer>\d+)\); Gate Lab shows one layer — export an "
        r"nn\.LSTM/nn\.GRU with num_layers=1",
        N_(
            "the file has {n} recurrent layers (keys …_l{layer}); Gate Lab shows one layer — export an "
            "nn.LSTM/nn.GRU with num_layers=1"
        ),
    ),
    (
        r"(?P<key>\S+) has shape (?P<shape>\(.*?\)) but (?P<why>.+) needs (?P<want>\(.*?\)); the shapes do not fit "
        r"together",
        N_("{key} has shape {shape} but {why} needs {want}; the shapes do not fit together"),
    ),
)
# The core's names of settings that carry words (lstm_core/config.py), translated inside a message.
SETTING_NAMES = (
    N_("n_in (number of inputs)"),
    N_("n_out (number of outputs)"),
    N_("n_blocks (memory blocks)"),
    N_("block_size (cells per block)"),
)
_COMPILED = tuple((re.compile(pattern, re.S), template) for pattern, template in RULES)
_TRANSLATED_GROUPS = ("why", "name")  # groups that may be core texts themselves (a reason, a setting's name)


def translate(message: str) -> str:
    """A core error message in this session's language (unchanged when no rule matches)."""
    if current() == DEFAULT or not message:
        return message
    for pattern, template in _COMPILED:
        m = pattern.fullmatch(message)
        if m is not None:
            groups = {k: (_(v) if k in _TRANSLATED_GROUPS else v) for k, v in m.groupdict().items()}
            return _(template).format(**groups)
    return _(message)
