"""A run's pictures at every timestep, as one figure and what changes: what the browser scrubs.

Moving Step's cursor changes no number of the model, only which recorded step the cursor lines,
the diagram and the equations show. So the page sends, once per run, each chart's figure and, for
every step, the values of the few layout attributes that differ between steps (the cursor line's
``x0``/``x1``, a gate box's fill, a printed value, the diagram's title) — Plotly's own relayout
paths (``shapes[3].fillcolor``); the browser applies a step's values with ``Plotly.relayout``
(``app/ui/live_chart.js``). The equations are sent as a few LaTeX templates with number slots and
each step's numbers (``equation_frames``); the browser fills and typesets them with KaTeX.

Nothing is recomputed or guessed: the frames are read off the very figures and LaTeX the server
draws at each step (``figure_frames`` refuses a chart whose traces differ between steps), and
``tests/test_step_frames.py`` checks that applying step t's frame to the figure gives the figure
drawn at t, for every variant.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plotly.utils import PlotlyJSONEncoder


@dataclass(frozen=True)
class Frames:
    """One chart's steps: ``values[t - 1][i]`` is the value of layout path ``paths[i]`` at step t."""

    id: str  # changes whenever anything the chart shows changes (run, unit, theme, language)
    paths: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]

    def message(self) -> dict:
        return {"id": self.id, "paths": list(self.paths), "values": [list(v) for v in self.values]}


def leaves(node: Any, path: str = "", out: dict[str, Any] | None = None) -> dict[str, Any]:
    """A layout as {relayout path: value}: dict keys joined by ".", list items as ``[i]``."""
    out = {} if out is None else out
    if isinstance(node, dict):
        for k, v in node.items():
            leaves(v, f"{path}.{k}" if path else str(k), out)
    elif isinstance(node, (list, tuple)):
        for i, v in enumerate(node):
            leaves(v, f"{path}[{i}]", out)
    else:
        out[path] = node
    return out


def _plain(v: Any) -> Any:
    return json.loads(json.dumps(v, cls=PlotlyJSONEncoder))


def figure_frames(raws: Sequence[dict], same_data: Callable[[Any, Any], bool]) -> Frames | None:
    """Frames of one chart from its figure dicts at steps 1..T (``app.ui.live.raw``), or None when
    the steps differ in anything but layout values (a trace, a config, the layout's shape): such a
    chart is drawn by the server at each step, as before."""
    first = raws[0]
    flat = [leaves(r["layout"]) for r in raws]
    keys = flat[0].keys()
    for r, f in zip(raws[1:], flat[1:]):
        if (
            f.keys() != keys
            or not same_data(r["data"], first["data"])
            or r.get("config") != first.get("config")
        ):
            return None
    paths = tuple(p for p in keys if any(f[p] != flat[0][p] for f in flat[1:]))
    values = tuple(tuple(_plain(f[p]) for p in paths) for f in flat)
    digest = hashlib.sha1(json.dumps([paths, values], default=str).encode())
    digest.update(json.dumps(first, cls=PlotlyJSONEncoder, sort_keys=True).encode())
    return Frames(digest.hexdigest()[:16], paths, values)


def linear_frames(raws: dict[int, dict], T: int, same_data: Callable[[Any, Any], bool]) -> Frames | None:
    """Frames of a chart whose only change from step to step is a cursor moving along its axis: read
    off its figures at steps 1, 2 and ``T`` (``raws``), each changing value a straight line in the
    step — checked at ``T`` against the figure drawn there; None when it is not one (then the chart
    is read off every step). Why: a chart of the whole run costs ~2 ms to build, 4 of them at each of
    up to 500 steps would hold up the page run that follows a setting's change."""
    if T < 3:
        return figure_frames([raws[t] for t in range(1, T + 1)], same_data)
    two = figure_frames([raws[1], raws[2]], same_data)
    if two is None or not all(isinstance(v, (int, float)) for v in two.values[0] + two.values[1]):
        return None
    start, slope = two.values[0], [b - a for a, b in zip(two.values[0], two.values[1])]
    values = tuple(tuple(a + (t - 1) * d for a, d in zip(start, slope)) for t in range(1, T + 1))
    line = Frames("", two.paths, values)
    last = raws[T]
    if not same_data(last["data"], raws[1]["data"]) or last.get("config") != raws[1].get("config"):
        return None
    if apply(raws[1]["layout"], line, T) != _plain(last["layout"]):
        return None
    digest = hashlib.sha1(json.dumps([two.paths, values], default=str).encode())
    digest.update(json.dumps(raws[1], cls=PlotlyJSONEncoder, sort_keys=True).encode())
    return Frames(digest.hexdigest()[:16], two.paths, values)


def apply(layout: dict, frames: Frames, t: int) -> dict:
    """``layout`` with step ``t``'s values written in (what the browser's relayout does; for tests)."""
    out = json.loads(json.dumps(layout, cls=PlotlyJSONEncoder))
    for path, value in zip(frames.paths, frames.values[t - 1]):
        node: Any = out
        parts = re.findall(r"[^.\[\]]+|\[\d+\]", path)
        for part in parts[:-1]:
            node = node[int(part[1:-1])] if part.startswith("[") else node[part]
        last = parts[-1]
        if last.startswith("["):
            node[int(last[1:-1])] = value
        else:
            node[last] = value
    return out


# A number as app.cells.common.num writes it: 3 significant digits, a power of ten written out, a
# negative one in parentheses after an operator; nan and ±∞.
_NUM = re.compile(
    r"\(-?\d+(?:\.\d+)?(?:\\times 10\^\{-?\d+\})?\)|-?\d+(?:\.\d+)?(?:\\times 10\^\{-?\d+\})?"
    r"|\\mathrm\{nan\}|-?\\infty"
)


def equation_frames(texts: Sequence[str]) -> dict:
    """Each step's LaTeX as a template with number slots and the step's numbers: {"templates":
    [[text, slot, text, …]], "steps": [[template, [numbers]]]} — a slot is an int, the index of a
    number. Steps whose text differs only in numbers share a template (usually all of them; a long
    number moves a result to its own line, which is another template); a number the same at every
    step of a template is written into it."""
    groups: dict[tuple[str, ...], list[int]] = {}
    split = []
    for i, s in enumerate(texts):
        gaps, nums = tuple(_NUM.split(s)), _NUM.findall(s)
        split.append(nums)
        groups.setdefault(gaps, []).append(i)
    templates: list[list] = []
    steps: list[list] = [[]] * len(texts)
    for k, (gaps, members) in enumerate(groups.items()):
        n = len(gaps) - 1
        varying = [j for j in range(n) if len({split[i][j] for i in members}) > 1]
        slot = {j: s for s, j in enumerate(varying)}
        parts: list = [gaps[0]]
        for j in range(n):
            parts += [slot[j] if j in slot else split[members[0]][j], gaps[j + 1]]
        merged: list = []
        for p in parts:  # adjacent texts as one
            if merged and isinstance(p, str) and isinstance(merged[-1], str):
                merged[-1] += p
            elif p != "":
                merged.append(p)
        templates.append(merged)
        for i in members:
            steps[i] = [k, [split[i][j] for j in varying]]
    return {"templates": templates, "steps": steps}


def fill(eq: dict, t: int) -> str:
    """Step ``t``'s LaTeX from ``equation_frames``' output (what the browser does; for tests)."""
    k, nums = eq["steps"][t - 1]
    return "".join(nums[p] if isinstance(p, int) else p for p in eq["templates"][k])
