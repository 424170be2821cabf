"""The core's own texts that the app shows, read from the core's registries for the catalogue.

The core stays English and never imports the app; a page shows a registry text with ``_(text)``
(e.g. ``_(lc.TASKS[name].title)``). These functions list every such text straight from the
registries — the variants, the tasks, the training algorithms, the gradient chart's parameter
groups, the paper presets — so ``python -m app.i18n.catalog update`` puts each into its domain's
catalogue and a new variant, task or preset needs no hand-kept copy of its words (a copy silently
falls back to English the day the core rewords one). Babel's extractors read marked source code;
registry values are data built at import time, hence these few loops.
"""

from __future__ import annotations

from collections.abc import Callable

import lstm_core as lc
from lstm_core.init_schemes import SCHEMES
from lstm_core.reproduce.diagnostics import SYMPTOMS
from lstm_core.training import PRESETS
from lstm_core.training.config import ALGORITHMS, OPTIMIZERS
from lstm_core.training.progress import RULE_GROUPS
from lstm_core.training.stuck import LABELS
from lstm_core.variants import ALGORITHM_TITLES, REGISTRY


def core_texts() -> dict[str, str]:
    """text -> where it comes from, for the variants, tasks, algorithms, optimisers, initialisation
    schemes, gradient-chart groups, the stuck check's unit groups and the diagnostics' symptoms."""
    out: list[tuple[str, str]] = []
    for v in REGISTRY.values():
        for attr in ("title", "description", "paper", "gate_text", "state_text", "no_gates_note"):
            out.append((getattr(v, attr), f"lstm_core.variants {v.name}.{attr}"))
        out.append((v.state[1], f"lstm_core.variants {v.name}.state"))
        out += [(label, f"lstm_core.variants {v.name}.gates") for _, label in v.gates]
        out += [(g, f"lstm_core.variants {v.name}.param_groups") for g in v.param_groups.values()]
    out += [(g, "lstm_core.training.progress.RULE_GROUPS") for g in RULE_GROUPS]
    out += [(t, f"lstm_core.variants.ALGORITHM_TITLES {k}") for k, t in ALGORITHM_TITLES.items()]
    out += [(t, f"lstm_core.training.config.ALGORITHMS {k}") for k, t in ALGORITHMS.items()]
    out += [(t, f"lstm_core.training.config.OPTIMIZERS {k}") for k, t in OPTIMIZERS.items()]
    for sc in SCHEMES.values():
        for attr in ("title", "paper", "sets", "why_not"):
            out.append((getattr(sc, attr), f"lstm_core.init_schemes {sc.name}.{attr}"))
    out += [(label, "lstm_core.training.stuck.LABELS") for label in LABELS]
    out += [(s, "lstm_core.reproduce.diagnostics.SYMPTOMS") for s in SYMPTOMS]
    for name, task in lc.TASKS.items():
        for attr in ("title", "paper", "setup", "reported"):
            out.append((getattr(task, attr), f"lstm_core.TASKS {name}.{attr}"))
        out.append((task.criterion.description, f"lstm_core.TASKS {name}.criterion"))
    return _first_source(out)


def preset_texts() -> dict[str, str]:
    """text -> where, for what the Paper experiments page and Train's preset picker show of a preset:
    title, paper, reported result, notes, the reductions' note and the criterion (full and reduced)."""
    out: list[tuple[str, str]] = []
    for name, p in PRESETS.items():
        where = f"lstm_core.training.PRESETS {name}"
        out += [(p.title, f"{where}.title"), (p.paper, f"{where}.paper")]
        out += [(p.reported, f"{where}.reported"), (p.notes, f"{where}.notes")]
        out.append((p.reduced.get("note", ""), f"{where}.reduced"))
        out.append((p.build_task().criterion.description, f"{where}.criterion"))
        if p.reduced:
            out.append((p.build_task(True).criterion.description, f"{where}.criterion (reduced)"))
    return _first_source(out)


def _first_source(pairs: list[tuple[str, str]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for text, where in pairs:
        if text:
            out.setdefault(text, where)
    return out


# catalogue domain -> its registry texts (the other domains hold only what their files mark)
BY_DOMAIN: dict[str, Callable[[], dict[str, str]]] = {"core": core_texts, "experiments": preset_texts}
