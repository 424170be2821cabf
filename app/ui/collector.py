"""When the server's full garbage collections happen: at the end of a page's run, when one is due.

Measured (issue 48, docs/benchmarks.md): during a sweep of Step's and Theory's sliders the server's
full (generation 2) collections came every ~3 s, 6–37 ms each, whatever the server was doing then —
a slider's preview answer included, and that notch's chart came late. What they collect is mostly
short-lived classes: Streamlit 1.67 defines a class each time it presents a keyed
``st.components.v2`` component's state (``make_bidi_component_presenter``: every widget a page
draws without a value given presents them all, ~8,100 classes in a sweep of Step's sliders), and
plotly.py one per underscored property name it parses (``chomp_empty_strings``). The theme's read
and Theory's figure no longer add theirs (``app.ui.theme.SEEN_KEY``,
``app.theory.flow_figure._flow_axes``); ``form.Schema.read``'s one ``to_dict()`` still presents them
(~2,500 in that sweep; a read per key costs more, ~0.15 ms each), and Streamlit's widgets are not ours
to change.

Python starts a full collection once ``gc.get_count()[2]`` — younger collections since the last
full one — passes the third threshold (10 by default). The end of a page's run is a quiet moment
for the server: the run's elements are on their way and the browser draws them (~200 ms on Step);
a slider's next preview comes after. So a run that ends with a full collection due (``DUE``) runs
it there (``after_run``), and the server (``app/serve.py``) raises the automatic threshold to
``BACKSTOP``, which still collects where no page runs (a long live-training feed).
"""

from __future__ import annotations

import gc

DUE = 10  # Python's own third threshold: collect at a run's end once the automatic one would
BACKSTOP = 40  # the automatic threshold in the server: work without page runs is still collected


def after_run() -> bool:
    """A full collection now if one is due (see the module docstring); whether it ran."""
    if gc.isenabled() and gc.get_count()[2] >= DUE:
        gc.collect()
        return True
    return False


def at_runs_end() -> None:
    """The server's setting: full collections at runs' ends, the automatic one as a backstop."""
    young, middle, _old = gc.get_threshold()
    gc.set_threshold(young, middle, BACKSTOP)
