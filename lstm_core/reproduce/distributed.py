"""Units of work — (experiment row, chunk of trials) or (sweep, chunk of seeds) — run in this
process or on a Dask cluster, resumable, with one progress bar.

    units = [Unit("experiment", {...}), ...]
    report = run_units(units, workers=2, state="docs/results.units.jsonl")
    report.results[unit.key]          # what the unit's function returned (JSON-able)

Inside a unit the population axis stays the engine: a chunk of K members is one vectorised
run. A member's result depends only on its own model seed and data seed, so results are
bit-identical whatever the chunking or the number of workers (tests/test_distributed.py).

- ``workers=1`` (and no scheduler) runs in-process and never imports Dask, so the core still
  needs only NumPy; ``workers=N`` starts a ``LocalCluster`` of N single-threaded worker
  processes on 127.0.0.1; ``scheduler="tcp://host:8786"`` uses an existing cluster (``dask
  scheduler`` + ``dask worker`` on each machine). Dask is the optional extra ``cluster``.
- Resumable: every finished unit is appended at once to the JSON-lines ``state`` file, keyed by
  a hash of its full spec; a re-run skips the units it finds there (and says how many). A worker
  that dies mid-unit has its unit retried by Dask.
- Ctrl-C stops cleanly: ``RunReport.interrupted`` is set and the finished units are kept. The
  commands run under ``as_command``, so ``kill`` (SIGTERM) and a Ctrl-C sent to a run started in
  the background do the same.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

# What each kind of unit runs: "module:function", imported where the unit runs (a worker).
KINDS = {
    "experiment": "lstm_core.reproduce.experiments:run_unit",
    "sweep": "lstm_core.sweeps.cli:run_unit",
    "atlas": "lstm_core.atlas.grid:run_unit",
}
CONNECT_TIMEOUT = 10  # seconds to reach a --scheduler before giving up with a message
RETRIES = 3  # a unit whose worker died is run again this many times
DIE_ONCE_ENV = "GATELAB_TEST_DIE_ONCE"  # tests: a worker exits mid-unit once (marker file path)


def as_command(main: Callable[[], int]) -> int:
    """Run a command's ``main`` as this process: Ctrl-C (SIGINT) and ``kill`` (SIGTERM) both stop it
    the way Ctrl-C does in a terminal (finished units kept, exit code 130; in-process runs also
    summarise the interrupted unit).

    Why: a command started in the background by a non-interactive shell (``cmd &`` in a script,
    CI) inherits SIGINT *ignored*, so ``kill -INT`` did nothing; and a plain ``kill`` ended it with
    no summary and without closing its Dask cluster."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, stop)
    return main()


@dataclass(frozen=True)
class Unit:
    kind: str  # a key of KINDS
    spec: dict  # JSON-able arguments of the unit's function
    label: str = ""  # for the progress bar, e.g. "adding, trials 5–9"
    members: int = 1  # networks trained in this unit
    sequences: int = 0  # at most this many training sequences (members × budget)
    cost: float = 0.0  # an estimate of its work (timesteps): costly units are started first

    @property
    def key(self) -> str:
        text = json.dumps({"kind": self.kind, "spec": self.spec}, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:20]


@dataclass
class RunReport:
    results: dict[str, Any] = field(default_factory=dict)  # unit key -> result
    reused: int = 0  # units found finished in the state file
    ran: int = 0  # units run now
    interrupted: bool = False  # Ctrl-C: some units did not run
    dashboard: str | None = None  # the Dask dashboard, when a cluster was used
    partial: dict[str, Any] = field(default_factory=dict)  # unit key -> partial result (Ctrl-C, in-process)
    seconds: float = 0.0  # elapsed time of this call

    def complete(self, units: Iterable[Unit]) -> bool:
        return all(u.key in self.results for u in units)


# glibc malloc tuning for the workers. Dask's nanny starts every worker with
# MALLOC_TRIM_THRESHOLD_=65536 (to hand memory back to the OS); setting it also freezes glibc's
# mmap threshold at 128 KiB, so every larger temporary array of a training step becomes an
# mmap/munmap pair with fresh page faults: measured here, one long-lag unit took 22.6 s on such
# a worker and 10.7 s in-process. mallopt restores large thresholds in the running worker (any
# cluster, also one started by `dask worker`); elsewhere (not glibc) this is a no-op.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_MALLOC_TUNED = False


def _tune_malloc() -> None:
    global _MALLOC_TUNED
    if _MALLOC_TUNED or not os.environ.get("MALLOC_TRIM_THRESHOLD_"):
        return
    _MALLOC_TUNED = True
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(_M_MMAP_THRESHOLD, 32 * 2**20)
        libc.mallopt(_M_TRIM_THRESHOLD, 64 * 2**20)
    except (OSError, AttributeError):
        pass


# The local cluster's workers: no MALLOC_TRIM_THRESHOLD_ (see _tune_malloc), and no statistical
# profiler — it wakes every 10 ms, takes the GIL and walks the stack of the thread that trains
# (many small NumPy calls). Measured on a quiet machine it cost little: the mixed benchmark set's
# units used 2–4 % more CPU with it on (docs/benchmarks.md, "A local Dask cluster").
# Its event-loop timers wake up less often too (tick 20 ms → 1 s, system monitor 0.5 → 5 s, memory
# monitor 0.1 → 1 s: each wake-up takes the GIL from the training thread). A/B on the mixed set,
# 2 runs each: 33.7–33.9 s vs 34.1–34.7 s, units' CPU 63.7–64.5 s vs 65.2–65.9 s.
WORKER_CONFIG = {
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


def execute(kind: str, spec: dict, report: Callable[[int, int], None] | None = None) -> Any:
    """Run one unit (in this process or on a worker); ``report`` (in-process only) gets progress."""
    _tune_malloc()
    marker = os.environ.get(DIE_ONCE_ENV)
    if marker and not os.path.exists(marker):  # test hook: die mid-unit, once
        with open(marker, "w") as f:
            f.write(str(os.getpid()))
        os._exit(1)
    module, name = KINDS[kind].split(":")
    fn = getattr(importlib.import_module(module), name)
    return fn(spec) if report is None else fn(spec, report)


def load_state(path: str | None) -> dict[str, Any]:
    """Finished units of an earlier run: key -> result. A torn last line (a run killed while
    writing) is ignored; a file that is not ours is refused."""
    done: dict[str, Any] = {}
    if not path or not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                done[entry["key"]] = entry["result"]
            except (ValueError, KeyError, TypeError):
                if f.read().strip():  # not the last line: the file is damaged or not a state file
                    raise ValueError(
                        f"{path}, line {n}: not a Gate Lab units file (JSON lines with 'key' and "
                        "'result'); delete it or choose another --state file"
                    ) from None
    return done


def _append(path: str | None, unit: Unit, result: Any) -> None:
    if not path:
        return
    line = json.dumps(
        {"key": unit.key, "kind": unit.kind, "spec": unit.spec, "result": result}, sort_keys=True, default=str
    )
    with open(path, "a", encoding="utf-8") as f:
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())


def log_line(message: str) -> None:
    """One whole log line on stderr, also while a progress bar is drawn there: through
    ``tqdm.write`` (it lifts the bar off, writes the line, draws the bar again), or ``print`` when
    tqdm is not installed (it comes with the 'cluster' extra; then no bar is drawn either)."""
    try:
        from tqdm import tqdm  # optional, like the bar itself
    except ImportError:
        print(message, file=sys.stderr, flush=True)
    else:
        tqdm.write(message, file=sys.stderr)
        sys.stderr.flush()


IN_UNIT_EVERY = 15.0  # seconds between two progress lines inside one unit


class _InUnit:
    """Progress inside a long unit (in-process runs): a line with the sequences trained, the total
    and the time left, at most every ``every`` seconds (``IN_UNIT_EVERY``) — a unit can take many minutes."""

    def __init__(
        self, unit: Unit, show: bool, log: Callable[[str], None], every: float | None = None
    ) -> None:
        self.unit, self.show, self.log = unit, show, log
        self.every = IN_UNIT_EVERY if every is None else every
        self.t0 = self.last = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if not self.show or now - self.last < self.every or done <= 0:
            return
        self.last = now
        left = (now - self.t0) * max(total - done, 0) / done  # an upper bound: solved networks stop early
        self.log(
            f"  {self.unit.label}: {done:,}/{total:,} sequences ({100 * done / total:.0f}%), "
            f"{now - self.t0:.0f} s, at most about {left:.0f} s left"
        )


class _Lines:
    """Progress as plain lines (stderr) when tqdm is not installed (it comes with the 'cluster' extra)."""

    def __init__(self, total: int, initial: int, show: bool) -> None:
        self.total, self.n, self.show, self.t0, self.postfix = total, initial, show, time.perf_counter(), ""

    def update(self, k: int) -> None:
        self.n += k
        if self.show:
            rate = (time.perf_counter() - self.t0) / max(self.n, 1)
            print(
                f"{self.n}/{self.total} units, {self.postfix}, about {rate * (self.total - self.n):.0f} s left",
                file=sys.stderr,
                flush=True,
            )

    def set_postfix_str(self, text: str) -> None:
        self.postfix = text

    def close(self) -> None:
        pass


def _bar(units: list[Unit], done: dict[str, Any], show: bool):
    initial = sum(u.key in done for u in units)
    try:
        from tqdm import tqdm  # only the command line draws a bar
    except ImportError:
        return _Lines(len(units), initial, show)
    return tqdm(
        total=len(units), unit="unit", disable=not show, dynamic_ncols=True, smoothing=0.1, initial=initial
    )


def _postfix(bar, units: list[Unit], done: dict[str, Any]) -> None:
    finished = [u for u in units if u.key in done]
    rows = {u.spec.get("row", u.label) for u in units}
    rows_done = {r for r in rows if all(u.key in done for u in units if u.spec.get("row", u.label) == r)}
    bar.set_postfix_str(
        f"rows {len(rows_done)}/{len(rows)}, networks {sum(u.members for u in finished)}/"
        f"{sum(u.members for u in units)}, sequences ≤ {sum(u.sequences for u in finished):,}"
    )


def run_units(
    units: list[Unit],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    state: str | None = None,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> RunReport:
    """Run every unit not already in ``state``; see the module docstring. ``log`` gets whole
    lines while the bar is drawn (default ``log_line``: stderr, through ``tqdm.write``)."""
    log = log or log_line
    t0 = time.perf_counter()
    report = RunReport()
    done = load_state(state)
    todo = [u for u in units if u.key not in done]
    report.results = {u.key: done[u.key] for u in units if u.key in done}
    report.reused = len(report.results)
    if report.reused:
        log(f"Reusing {report.reused} of {len(units)} finished units from {state}.")
    bar = _bar(units, report.results, progress)
    _postfix(bar, units, report.results)
    try:
        if scheduler is None and workers <= 1:
            for u in todo:
                try:
                    result = execute(
                        u.kind, u.spec, _InUnit(u, progress, log) if u.kind == "experiment" else None
                    )
                except KeyboardInterrupt as e:
                    if getattr(e, "partial", None) is not None:
                        report.partial[u.key] = e.partial
                    raise
                report.results[u.key] = result
                report.ran += 1
                _append(state, u, result)
                bar.update(1)
                _postfix(bar, units, report.results)
        else:
            _run_on_dask(todo, workers, scheduler, state, report, bar, units, log)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        bar.close()
        report.seconds = time.perf_counter() - t0
    return report


def _connect(scheduler: str | None, workers: int) -> tuple[Any, Any]:
    """A Dask client of the scheduler at ``scheduler``, else of a new local cluster (returned too, to close)."""
    from dask.distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            return Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s"), None
        except (OSError, TimeoutError) as e:
            raise ValueError(
                f"could not reach the Dask scheduler at {scheduler} within {CONNECT_TIMEOUT} s "
                f"({type(e).__name__}); start it with `dask scheduler` or check the address"
            ) from None
    import dask

    with dask.config.set(WORKER_CONFIG):
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            silence_logs=40,
        )
    try:
        return Client(cluster), cluster
    except BaseException:
        cluster.close()
        raise


def _run_on_dask(
    todo: list[Unit],
    workers: int,
    scheduler: str | None,
    state: str | None,
    report: RunReport,
    bar,
    units: list[Unit],
    log: Callable[[str], None],
) -> None:
    try:
        from dask.distributed import as_completed
    except ImportError:
        raise ValueError(
            "--workers > 1 and --scheduler need Dask: pip install -e '.[cluster]' (or run with --workers 1)"
        ) from None
    client, cluster = _connect(scheduler, workers)
    try:
        report.dashboard = client.dashboard_link
        log(
            f"Dask cluster: {len(client.scheduler_info()['workers'])} worker(s); dashboard {report.dashboard}"
        )
        # the costliest units first, so no worker is left with a long unit at the end
        futures = {
            client.submit(
                execute, u.kind, u.spec, key=f"unit-{u.key}", pure=False, retries=RETRIES, priority=u.cost
            ): u
            for u in todo
        }
        try:
            for fut in as_completed(futures):
                u = futures[fut]
                result = fut.result()
                report.results[u.key] = result
                report.ran += 1
                _append(state, u, result)
                bar.update(1)
                _postfix(bar, units, report.results)
        except KeyboardInterrupt:
            for fut in futures:
                fut.cancel()
            raise
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
