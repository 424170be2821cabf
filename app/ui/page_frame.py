"""A page's spec and its frame: what every page does around its own content, once.

    SPEC = PageSpec("step", SCHEMA, DEFAULTS, CLASS_GROUPS)
    with page_frame(SPEC) as frame:     # link -> widgets, a class link's locks
        ... the sidebar ...
        frame.banner()                   # a class link: what the teacher locked
        ... the page; an early ``return`` is fine ...
                                         # on leaving: the settings -> the URL (shareable link)

The frame writes the link only when the page ends normally (or returns early); when Streamlit stops
or reruns the script (an exception through the ``with``), the next run writes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from app.ui import classlink, form


@dataclass(frozen=True)
class PageSpec:
    """What a page is to the frame: its key (in session state and links), its settings, their
    defaults and, for a page a teacher can share, the groups a class link can lock."""

    name: str
    schema: form.Schema
    defaults: Mapping[str, Any] = field(hash=False)
    class_groups: classlink.Groups | None = field(default=None, hash=False)

    def values(self) -> dict[str, Any]:
        """The settings the widgets hold now."""
        return self.schema.read(self.name)


@dataclass
class Frame:
    spec: PageSpec

    def banner(self) -> None:
        """A student who opened a class link: what is locked, and a way back to the teacher's settings."""
        if self.spec.class_groups is not None:
            s = self.spec
            classlink.banner(s.name, s.schema, dict(s.defaults), s.class_groups)

    def share_panel(self, values: dict[str, Any], **kw: Any) -> None:
        """The teacher's "share with the class" panel (a page with class groups only)."""
        s = self.spec
        if s.class_groups is not None:
            classlink.share_panel(s.name, s.schema, values, dict(s.defaults), s.class_groups, **kw)


@contextmanager
def page_frame(spec: PageSpec) -> Iterator[Frame]:
    """Start the page (a link's settings into the widgets, a class link's locks before any widget is
    drawn), hand the page its frame, and write its settings into the URL when it is done."""
    defaults = dict(spec.defaults)
    form.start_page(spec.name, spec.schema, defaults)
    if spec.class_groups is not None:
        classlink.enforce(spec.name, spec.schema, defaults, spec.class_groups)
    yield Frame(spec)
    form.finish_page(spec.name, spec.values(), defaults)
