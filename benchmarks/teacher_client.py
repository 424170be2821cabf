"""The presenter in ``classroom_load.py --teacher``: one more session, on the projector, while the
class trains — Forward on Step through a cell every 2 s, another page every 10 s, each timed from
the click to the page showing it (``Teacher``'s docstring says which messages count as shown)."""

from __future__ import annotations

import asyncio
import time

import websockets
from session_client import Session, summary

FWD, RESET = "step.fwd", "step.reset"  # Step through a cell's Forward (the → key) and Reset buttons
STEP_METRIC = "Step"  # Step through a cell's step counter, st.metric("Step", "t / T")
# The presenter's tour, in sidebar order (app/ui/routes.py; "" is Home, the default page's url
# path), each followed by Step through a cell again.
TEACHER_PAGES = ("", "lessons", "train", "gradient-flow", "theory", "bias-lab", "experiments")
TEACHER_PRESS_EVERY = 2.0  # s between the presenter's Forward presses
TEACHER_PAGE_EVERY = 10.0  # s between the presenter's page changes
TEACHER_TIMEOUT = 30.0  # a press or page not shown within this is an error, counted as this long


def _done_after(s: Session, t0: float, markers: tuple[str, ...]) -> float | None:
    """When the events after ``t0`` showed ``markers`` in this order (each event starting with its
    marker, the next one looked for after it): the time of the last one's event, else None."""
    t = t0
    for marker in markers:
        t = next((te for te, what in s.events if te > t and what.startswith(marker)), None)
        if t is None:
            return None
    return t


class Teacher:
    """The presenter: one more session, on the projector, while the class trains.

    It opens Step through a cell and presses Forward every ``TEACHER_PRESS_EVERY`` s; every
    ``TEACHER_PAGE_EVERY`` s it opens the next page of ``TEACHER_PAGES`` and then Step again.

    When a press is shown: the Step counter (``st.metric``, drawn by the player fragment the button
    lives in) reads the next step, and that run has finished (``script_finished`` after the counter):
    the diagram, the equations and the charts at the new step, drawn after the counter in the same
    run, have arrived too — what the projector shows, not just the number.

    When a page is shown: the navigation message names the page asked for (the router chose it),
    then the page's title (an ``st.title`` h1: every page has one) arrives, then the run's
    ``script_finished``. The server sends a run's elements in order and ``script_finished`` after the
    last, so the page's main elements (charts, diagrams, cards) have all arrived; the title makes
    sure that it is the page's own run that finished (not an error page or a page that stopped
    early), without tying the benchmark to any page's wording. Times run from the click
    (``press``/``goto``, or the websocket's connection for the first page) to that last message.

    A press or page not shown within ``TEACHER_TIMEOUT`` s is an error and counts as that long (a
    frozen projector shows as p95 = timeout); an st.error or exception drawn is an error too."""

    def __init__(self, url: str, headers: dict | None = None) -> None:
        self.s = Session(url, page="step", headers=dict(headers or {}))
        self.presses: list[float] = []
        self.pages: list[float] = []
        self.page_names: list[str] = []  # which page each of ``pages`` timed
        self.errors: list[str] = []

    async def _until(self, t0: float, markers: tuple[str, ...], what: str, times: list[float]) -> bool:
        try:
            await self.s.wait_for(lambda s: _done_after(s, t0, markers) is not None, TEACHER_TIMEOUT)
        except TimeoutError:
            self.errors.append(f"{what}: not shown within {TEACHER_TIMEOUT:g} s")
            times.append(TEACHER_TIMEOUT)
            return False
        times.append(_done_after(self.s, t0, markers) - t0)
        return True

    async def _page(self, page: str) -> bool:
        """Open ``page`` (a url path) and time it; the first page also opens the session."""
        t0 = time.perf_counter()
        self.page_names.append(page or "home")
        target = self.s.page_hashes.get(page)
        markers = (f"page {target}" if target else "page ", "title ", "finished")
        if self.s.ws is None:
            try:
                await asyncio.wait_for(self.s.open(), TEACHER_TIMEOUT)
            except (TimeoutError, OSError) as e:
                self.errors.append(f"page {page or 'home'}: could not connect ({e!r})")
                self.pages.append(TEACHER_TIMEOUT)
                return False
        else:
            await self.s.goto(page)
        return await self._until(t0, markers, f"page {page or 'home'}", self.pages)

    def _step(self) -> tuple[int, int] | None:
        """The step shown and the sequence's length, from the Step counter ("t / T")."""
        try:
            t, T = (int(x) for x in self.s.metrics[STEP_METRIC].split("/"))
        except (KeyError, ValueError):
            return None
        return t, T

    async def _press(self) -> None:
        """Forward, timed (at the last step, Reset first, untimed: the presenter starts again)."""
        shown = self._step()
        if shown is None or FWD not in self.s.buttons:
            self.errors.append("press: no step counter or Forward button on Step through a cell")
            return
        t, T = shown
        if t >= T and RESET in self.s.buttons:
            t0 = time.perf_counter()
            await self.s.press(RESET)
            if not await self._until(t0, (f"metric {STEP_METRIC} 1 /", "finished"), "reset", []):
                return
            t = 1
        t0 = time.perf_counter()
        await self.s.press(FWD)
        await self._until(t0, (f"metric {STEP_METRIC} {t + 1} /", "finished"), "press Forward", self.presses)

    async def run(self, seconds: float) -> None:
        """Present for ``seconds`` (the last press or page may finish later), then leave."""
        end = time.perf_counter() + seconds
        tour = 0
        try:
            await self._page("step")
            next_page = time.perf_counter() + TEACHER_PAGE_EVERY
            while time.perf_counter() < end:
                t0 = time.perf_counter()
                if t0 >= next_page:
                    await self._page(TEACHER_PAGES[tour % len(TEACHER_PAGES)])
                    tour += 1
                    await self._page("step")
                    next_page = time.perf_counter() + TEACHER_PAGE_EVERY
                    continue
                await self._press()
                wait = min(t0 + TEACHER_PRESS_EVERY, end) - time.perf_counter()
                await self.s.pump(max(0.0, wait))
        except (websockets.ConnectionClosed, OSError) as e:  # the server dropped the projector's tab
            self.errors.append(f"the presenter's session ended: {e!r}")
        finally:
            self.errors.extend(self.s.errors)
            await self.s.close()

    def figures(self) -> dict:
        step, page = summary(self.presses), summary(self.pages)
        return {
            "teacher_step_p50_s": round(step["p50"], 3),
            "teacher_step_p95_s": round(step["p95"], 3),
            "teacher_page_p50_s": round(page["p50"], 3),
            "teacher_page_p95_s": round(page["p95"], 3),
            "teacher_presses": len(self.presses),
            "teacher_pages": len(self.pages),
            "teacher_page_times": [[n, round(t, 2)] for n, t in zip(self.page_names, self.pages)],
            "teacher_errors": len(self.errors),
            "teacher_error_examples": self.errors[:3],
        }
