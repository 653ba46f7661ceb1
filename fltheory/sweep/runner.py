"""Run a task over grid points × seeds: serially, in local worker processes, or on Dask.

Every run executes :func:`execute` — one BLAS thread (threadpoolctl) and one thread for
fltheory's own sums (:func:`fltheory.engine.threads.limited`), the simulation's seed
derived from (user seed, task, grid point) by numpy's SeedSequence — so a serial run, a local
pool and a Dask cluster return identical numbers. A run that raises is reported with its grid
point and seed; the others complete. Results are written to the store as they arrive.

Every grid point is validated against the task's domain and cost bound, and the number of runs
against :data:`~fltheory.sweep.tasks.MAX_RUNS`, before any run starts.

Local worker processes die with their parent: each sets ``PR_SET_PDEATHSIG`` (Linux: the kernel
kills it with SIGKILL when the parent dies, even by SIGKILL) and runs a watchdog thread that
exits when its parent process changes (the portable fallback). SIGTERM to the parent is an
interruption like Ctrl-C: the workers are terminated, the completed runs are kept. A Dask
scheduler address is checked for form first, then must answer (and have a worker) within
:data:`CONNECT_TIMEOUT` seconds.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import signal
import statistics
import sys
import threading
import time
import traceback
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from typing import Any

from fltheory.exact import DomainError
from fltheory.sweep.store import Store, code_version, params_key
from fltheory.sweep.tasks import check_runs, get_task, parse_value, short_value, validate

__all__ = ["CONNECT_TIMEOUT", "MAX_WORKERS", "Run", "SweepOutcome", "aggregate", "check_scheduler",
           "check_workers", "derived_seed", "execute", "sweep"]

#: worker processes: at most 4 per core (each imports numpy and holds one run's arrays; more
#: processes than that only add memory and start-up time)
MAX_WORKERS = 4 * (os.cpu_count() or 1)

#: seconds to wait for a Dask scheduler to answer, and again for it to have a worker
CONNECT_TIMEOUT = 10.0

#: Linux workers ask the kernel to kill them when the parent dies (tests turn it off to check
#: the watchdog alone)
_USE_PDEATHSIG = True

_ADDRESS = re.compile(r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):"
                      r"(\d{1,5})")
_ADDRESS_FORM = "local, or a Dask scheduler address PROTOCOL://HOST:PORT such as tcp://HOST:8786"


def derived_seed(task_id: str, params: Mapping[str, str], seed: int) -> Any:
    """The simulation seed of (task, grid point, user seed): the child of the user's seed keyed
    by a digest of the task and its canonical parameters (``fltheory.simkit.seeding.child``), a
    ``numpy.random.SeedSequence`` — independent streams by construction, the whole entropy kept.

    >>> ss = derived_seed("check.normal", {"n": "10"}, 3)
    >>> ss.entropy, len(ss.spawn_key)
    (3, 4)
    """
    from fltheory.simkit.seeding import child

    digest = hashlib.sha256((task_id + params_key(dict(params))).encode()).digest()
    words = [int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4)]
    return child(seed, *words)


def execute(task_id: str, params: dict[str, str], seed: int) -> dict[str, Any]:
    """One run, in whatever process: {"result": …, "seconds": …} or {"error": …}.

    ``params`` are the canonical strings (the store's key, what travels to a worker); the task
    receives them parsed exactly (``int``, ``Fraction``, ``str``): a rational reaches the
    simulator as the user wrote it and becomes a float only where the simulator needs one.
    """
    import numpy  # noqa: F401  load the BLAS libraries first, so that the limit reaches them
    import scipy.linalg  # noqa: F401
    from threadpoolctl import threadpool_limits

    from fltheory.engine.threads import limited

    start = time.perf_counter()
    try:
        task = get_task(task_id)
        values = {name: parse_value(task, name, text) for name, text in params.items()}
        run_seed = derived_seed(task_id, params, seed) if task.derive_seed else seed
        with threadpool_limits(limits=1), limited(1):
            result = task.func(values, run_seed)
    except Exception as exc:  # reported with its grid point and seed; the sweep goes on
        last = traceback.extract_tb(exc.__traceback__)[-1]
        return {"error": f"{type(exc).__name__}: {exc} ({last.filename.rsplit('/', 1)[-1]}:"
                         f"{last.lineno})", "seconds": time.perf_counter() - start}
    return {"result": result, "seconds": time.perf_counter() - start}


@dataclass
class Run:
    params: dict[str, str]
    seed: int
    result: dict[str, Any] | None = None
    error: str | None = None
    cached: bool = False
    seconds: float = 0.0


@dataclass
class SweepOutcome:
    task: str
    runs: list[Run]
    backend: str
    interrupted: bool = False
    wall: float = 0.0
    signal: int = 0  # the signal that interrupted the sweep (SIGINT, SIGTERM), 0 if none

    @property
    def failed(self) -> list[Run]:
        return [r for r in self.runs if r.error is not None]


def _local_pool(workers: int) -> Any:
    """Worker processes: forked when this process has no other thread (cheap start, nothing
    re-imported), spawned otherwise (forking a threaded process can deadlock its children)."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if sys.platform == "linux" and threading.active_count() == 1 else "spawn"
    return ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context(method),
                               initializer=_die_with_parent, initargs=(os.getpid(),))


def _die_with_parent(parent: int) -> None:
    """Worker initializer: end this process when ``parent`` dies, however it dies.

    Linux: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` — the kernel sends SIGKILL when the thread that
    forked us ends (the parent's main thread, which starts the pool). Everywhere: a daemon
    thread polls ``os.getppid()`` every half second and exits when it is no longer ``parent``
    (an orphan is re-parented to init or a subreaper).

    A forked worker inherits the parent's SIGTERM handler (the sweep's interruption): restore
    the default, so that the parent can terminate it; Ctrl-C at a terminal reaches the whole
    process group: workers ignore it and are stopped by the parent."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform == "linux" and _USE_PDEATHSIG:
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the watchdog remains
            pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="fltheory-parent-watchdog", daemon=True).start()


def _stop_pool(pool: Any) -> None:
    """Drop what has not started and terminate the workers now (do not wait for runs in
    flight: the user asked to stop)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(5)
        if proc.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
            proc.kill()
            proc.join(5)
    # Let the executor's manager thread see the dead workers and close its wake-up pipe before
    # this process exits: on CPython 3.11, concurrent.futures' atexit hook can otherwise write to
    # that pipe while the thread closes it ("OSError: Bad file descriptor" printed at exit).
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(5)


class _Terminated(BaseException):
    """SIGTERM during a sweep (a BaseException, like KeyboardInterrupt)."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise _Terminated


def _trap_sigterm() -> tuple[bool, Any]:
    """SIGTERM interrupts the sweep like Ctrl-C (workers stopped, completed runs kept); returns
    whether a handler was installed and the previous one. Only the main thread can."""
    if threading.current_thread() is not threading.main_thread():
        return False, None
    return True, signal.signal(signal.SIGTERM, _raise_terminated)


_Stream = Generator[tuple["Run", dict], None, None]


def _iterate_local(todo: list[Run], task_id: str, workers: int) -> _Stream:
    workers = min(workers, len(todo))  # no idle processes to start
    if workers <= 1:
        for run in todo:
            yield run, execute(task_id, run.params, run.seed)
        return
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool

    pool = _local_pool(workers)
    try:
        futures = {pool.submit(execute, task_id, run.params, run.seed): run for run in todo}
        for fut in as_completed(futures):
            try:
                answer = fut.result()
            except BrokenProcessPool:  # a worker was killed (out of memory, kill -9): the runs
                # still pending are reported as failed, with their grid point and seed
                answer = {"error": "a worker process died (killed from outside, or out of "
                                   "memory)", "seconds": 0.0}
            yield futures[fut], answer
    except BaseException:  # interrupted (GeneratorExit) or failing: stop the workers now
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _iterate_dask(todo: list[Run], task_id: str, workers: int,
                  scheduler: str) -> _Stream:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise DomainError("scheduler", scheduler, "an installation with the [dist] extra: "
                          "pip install 'fltheory[dist]'", reason="needs dask.distributed") from None
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0")  # any free port: 8787 may be taken
        client = Client(cluster)
    else:
        client = _connect(Client, scheduler)
    try:
        futures = {client.submit(execute, task_id, run.params, run.seed, pure=False): run
                   for run in todo}
        by_key = {f.key: run for f, run in futures.items()}
        for fut in as_completed(list(futures)):
            yield by_key[fut.key], fut.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def check_workers(workers: int) -> int:
    """1 <= workers <= :data:`MAX_WORKERS`."""
    if not 1 <= workers <= MAX_WORKERS:
        raise DomainError("workers", short_value(workers), f"integers in [1, {MAX_WORKERS}] "
                          "(4 per core)", reason="is out of range")
    return workers


def check_scheduler(scheduler: str) -> str:
    """``local`` or a well-formed scheduler address (no network access, no Dask import)."""
    match = _ADDRESS.fullmatch(scheduler.strip())
    if scheduler != "local" and (match is None or not 1 <= int(match.group(3)) <= 65535):
        raise DomainError("scheduler", scheduler[:80], _ADDRESS_FORM,
                          reason="is not a scheduler address")
    return scheduler.strip()


def _reachable(scheduler: str, timeout: float) -> None:
    """A TCP connection to the scheduler's host and port (name resolution included) within
    ``timeout`` seconds, before any Dask client exists: an unreachable address fails fast and
    leaves no client threads behind (whose shutdown alone takes seconds)."""
    import socket

    match = _ADDRESS.fullmatch(scheduler)
    if match is None or match.group(1) == "ucx":
        return
    host, port = match.group(2).strip("[]"), int(match.group(3))
    outcome: list[BaseException | None] = []

    def attempt() -> None:
        try:
            socket.create_connection((host, port), timeout=timeout).close()
            outcome.append(None)
        except OSError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=attempt, name="fltheory-scheduler-probe", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        raise DomainError("scheduler", scheduler, "a reachable Dask scheduler",
                          reason=f"did not answer within {timeout:g} s")
    if outcome[0] is not None:
        error = outcome[0]
        why = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise DomainError("scheduler", scheduler, "a reachable Dask scheduler",
                          reason=f"cannot be reached ({why})")


def _connect(client_class: Any, scheduler: str) -> Any:
    """A client of the scheduler at ``scheduler`` with at least one worker, or a one-line
    DomainError after at most about 2 × CONNECT_TIMEOUT seconds.

    The client is built in a daemon thread: distributed's own ``timeout`` does not cover a
    peer that accepts the connection and then never answers (its handshake waits forever), so
    the wait is bounded here; a client that comes up after we gave up is closed at once."""
    timeout = CONNECT_TIMEOUT
    _reachable(scheduler, timeout)
    box: list[Any] = []
    abandoned = threading.Event()

    def build() -> None:
        try:
            client = client_class(scheduler, timeout=timeout)
        except Exception as exc:  # OSError, TimeoutError, … from distributed's comm layer
            box.append(exc)
            return
        if abandoned.is_set():
            client.close()
        else:
            box.append(client)

    thread = threading.Thread(target=build, name="fltheory-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 1)
    if not box or isinstance(box[0], Exception):
        abandoned.set()
        why = type(box[0]).__name__ if box else "no answer"
        raise DomainError("scheduler", scheduler, "a reachable Dask scheduler",
                          reason=f"did not answer within {timeout:g} s ({why})")
    client = box[0]
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception:
        client.close()
        raise DomainError("scheduler", scheduler, "a Dask scheduler with workers",
                          reason=f"had no worker within {timeout:g} s") from None
    return client


def sweep(task_id: str, points: list[dict[str, str]], seeds: list[int], *, workers: int = 1,
          scheduler: str | None = None, store: Store | None = None,
          progress: Callable[[int, int, Run], None] | None = None) -> SweepOutcome:
    """Run ``task_id`` at every grid point and seed (cached runs come from ``store``).

    Every point is validated and the run count bounded before anything runs (DomainError).
    """
    task = get_task(task_id)
    check_workers(workers)
    check_runs(len(points), len(seeds))
    for point in points:
        validate(task, point)
    if scheduler is not None:
        scheduler = check_scheduler(scheduler)
    version = code_version()
    runs = [Run(p, s) for p in points for s in seeds]
    if store is not None:
        for p in points:
            hits = store.get(task_id, p, seeds, version)
            for run in runs:
                if run.params is p and run.seed in hits:
                    run.result, run.cached = hits[run.seed], True
    todo = [r for r in runs if not r.cached]
    backend = ("serial" if workers <= 1 and scheduler is None else
               f"dask {scheduler}" if scheduler else f"{workers} local processes")
    outcome = SweepOutcome(task_id, runs, backend)
    done = len(runs) - len(todo)
    start = time.perf_counter()
    stream = (_iterate_local(todo, task_id, workers) if scheduler is None else
              _iterate_dask(todo, task_id, workers, scheduler))
    trapped, previous = _trap_sigterm()
    try:
        for run, answer in stream:
            run.seconds = answer["seconds"]
            if "error" in answer:
                run.error = answer["error"]
            else:
                run.result = answer["result"]
                if store is not None:
                    store.put(task_id, run.params, run.seed, version, run.result, run.seconds)
            done += 1
            if progress is not None:
                progress(done, len(runs), run)
    except (KeyboardInterrupt, _Terminated) as exc:
        outcome.interrupted = True
        outcome.signal = signal.SIGTERM if isinstance(exc, _Terminated) else signal.SIGINT
        stream.close()
    finally:
        if trapped:
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
    outcome.wall = time.perf_counter() - start
    return outcome


def aggregate(outcome: SweepOutcome) -> list[dict[str, Any]]:
    """Per grid point: for each metric, mean, standard error and count ``n`` over the seeds
    that completed (NaN or infinite values — e.g. no escape within t_max — are counted apart,
    as ``nan``).

    Undefined statistics are ``None`` (JSON ``null``), never NaN: the mean when ``n = 0``, the
    standard error when ``n < 2`` (one sample has no spread to estimate)."""
    rows = []
    seen: dict[str, dict[str, Any]] = {}
    for run in outcome.runs:
        key = params_key(run.params)
        if key not in seen:
            seen[key] = {"params": run.params, "values": {}, "failed": 0, "missing": 0}
            rows.append(seen[key])
        entry = seen[key]
        if run.error is not None:
            entry["failed"] += 1
        elif run.result is None:
            entry["missing"] += 1
        else:
            for name, value in run.result.items():
                entry["values"].setdefault(name, []).append(value)
    out = []
    for entry in rows:
        metrics = {}
        for name, values in entry["values"].items():
            finite = [float(v) for v in values if v is not None and math.isfinite(float(v))]
            n = len(finite)
            mean = statistics.fmean(finite) if n else None
            se = statistics.stdev(finite) / math.sqrt(n) if n > 1 else None
            metrics[name] = {"mean": mean, "se": se, "n": n, "nan": len(values) - n}
        out.append({"params": entry["params"], "metrics": metrics, "failed": entry["failed"],
                    "missing": entry["missing"]})
    return out

