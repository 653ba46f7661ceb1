"""``fltheory sweep`` (a simulation over a grid × seeds, in parallel, cached) and
``fltheory cache`` (inspect or clear the results store)."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Any

import click

from fltheory.cli.options import CountType, emit, format_option
from fltheory.exact import DomainError, parse_int_range
from fltheory.results import Result, Table


def _fmt(mean: float | None, se: float | None) -> str:
    """mean ± s.e.; the mean alone when the s.e. is undefined (one run); n/a without runs."""
    if mean is None:
        return "n/a"
    return f"{mean:.5g}" if se is None else f"{mean:.5g} ± {se:.2g}"


def _finite(value: object) -> object:
    """NaN and ±inf replaced by None, recursively: JSON output stays strictly valid."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


@click.command("sweep")
@click.argument("task_id", metavar="TASK", required=False)
@click.option("--grid", "grid", multiple=True,
              help="NAME=v1,v2,… (repeatable; the grid is their product). Unset parameters "
                   "keep their defaults. Every value is checked against the parameter's range "
                   "(fltheory sweep --list) and every point's estimated cost against 30 s per "
                   "run before any run starts; at most 10000 grid points × seeds.")
@click.option("--seeds", "seeds_text", default="0..3", show_default=True,
              help="Seeds: s, a..b or a,b,c (integers in [0, 1000000]; 0 alone is one seed).")
@click.option("--workers", type=CountType(minimum=1), default=None,
              help="Worker processes (default: the number of cores; at most 4 per core).")
@click.option("--dask", "dask_local", is_flag=True,
              help="Run on a local Dask cluster (processes) instead of the local pool.")
@click.option("--scheduler", default=None,
              help="Address of a running Dask scheduler, e.g. tcp://HOST:8786. Refused "
                   "(exit 2) unless it accepts a connection, answers and has a worker, each "
                   "within 10 s (at most about 30 s in all).")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Neither read nor write the results store.")
@click.option("--store", "store_path", default=None,
              help="Results store, an SQLite file (default $FLTHEORY_CACHE or "
                   "~/.cache/fltheory/runs.sqlite). A corrupt store is moved aside (with a "
                   "warning) and a new one started; a read-only store is read, not written.")
@click.option("--metrics", default=None, help="Comma-separated metrics to show (default all).")
@click.option("--list", "list_only", is_flag=True, help="List the sweepable simulations.")
@click.option("--progress/--no-progress", default=None,
              help="Progress on stderr (default: when stderr is a terminal).")
@format_option
def sweep_command(task_id: str | None, grid: tuple[str, ...], seeds_text: str,
                  workers: int | None, dask_local: bool, scheduler: str | None, no_cache: bool,
                  store_path: str | None, metrics: str | None, list_only: bool,
                  progress: bool | None, fmt: str) -> int:
    """Run the simulation TASK over a grid of parameters and seeds; print mean ± s.e. per point.

    Example: fltheory sweep twostep.term_constants --grid N=500,1000 --seeds 0..15 --workers 2

    Each run uses one BLAS thread and a seed derived from (seed, task, grid point) by numpy's
    SeedSequence: serial, local and Dask runs give identical numbers. Completed runs are stored
    (SQLite), so an interrupted sweep resumes and a repeated one is instant. Exit status 1 when
    a run failed (each failure is listed with its grid point and seed), 130 on Ctrl-C, 143 on
    SIGTERM (worker processes are stopped; they also die if this process is killed).
    The standard error of a single seed is undefined: shown as the mean alone (JSON: null).
    """
    if list_only or task_id is None:
        if task_id is None and not list_only:
            raise click.UsageError("Missing argument 'TASK' (fltheory sweep --list).")
        _list_tasks()
        return 0
    if dask_local and scheduler:
        raise DomainError("scheduler", scheduler[:80], "either --dask or --scheduler, not both",
                          reason="is given with --dask")
    from fltheory.sweep.runner import check_scheduler, check_workers
    from fltheory.sweep.tasks import check_runs, grid_points

    points = grid_points(task_id, grid)
    seeds = parse_int_range(seeds_text, "seeds", 0, 10**6)
    check_runs(len(points), len(seeds))
    backend = "local" if dask_local else None if scheduler is None else check_scheduler(scheduler)
    workers = workers or os.cpu_count() or 1
    check_workers(workers)
    outcome = _run(task_id, points, seeds, workers, backend, no_cache, store_path, progress)
    inputs = {"task": task_id, "grid": list(grid), "seeds": seeds_text, "workers": workers,
              "scheduler": backend, "cache": not no_cache}
    emit(_sweep_result(outcome, points, len(seeds), metrics, inputs), fmt)
    if outcome.interrupted:
        return 128 + (outcome.signal or 2)
    return 1 if outcome.failed else 0


def _list_tasks() -> None:
    from fltheory.sweep.tasks import all_tasks

    for t in all_tasks().values():
        params = ", ".join(f"{k}={_default(v.default)} ({v.allowed()})"
                           for k, v in t.params.items())
        click.echo(f"{t.id}\t{params}\t{t.description}")


def _stderr_progress(done: int, total: int, run: Any) -> None:  # pragma: no cover - tty only
    """A one-line progress report on stderr, rewritten in place after each run of a sweep."""
    state = "failed" if run.error else "cached" if run.cached else f"{run.seconds:.1f}s"
    sys.stderr.write(f"\r[{done}/{total}] seed {run.seed} {run.params} {state}\x1b[K")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _run(task_id: str, points: list[dict[str, str]], seeds: list[int], workers: int,
         backend: str | None, no_cache: bool, store_path: str | None,
         progress: bool | None) -> Any:
    """The sweep's runs, through the store unless ``no_cache``; progress on stderr if asked
    (default: when stderr is a terminal)."""
    from fltheory.sweep.runner import sweep
    from fltheory.sweep.store import Store, default_path

    store = None if no_cache else Store(Path(store_path) if store_path else default_path())
    show = sys.stderr.isatty() if progress is None else progress
    try:
        return sweep(task_id, points, seeds, workers=workers, scheduler=backend, store=store,
                     progress=_stderr_progress if show else None)
    finally:
        if store is not None:
            store.close()


def _metric_names(rows: list[dict[str, Any]], metrics: str | None, task_id: str) -> list[str]:
    """The metrics to show: all of the task's, or the ``--metrics`` subset (checked)."""
    names = list(rows[0]["metrics"]) if rows and rows[0]["metrics"] else []
    if not metrics:
        return names
    wanted = metrics.split(",")
    unknown = [m for m in wanted if names and m not in names]
    if unknown:
        raise DomainError("metrics", metrics[:80], "some of " + ", ".join(names),
                          reason="names a metric that " + task_id + " does not have")
    return wanted


def _sweep_result(outcome: Any, points: list[dict[str, str]], n_seeds: int,
                  metrics: str | None, inputs: dict[str, Any]) -> Result:
    """The aggregated sweep (mean ± s.e. per grid point) as a Result with its table."""
    from fltheory.sweep.runner import aggregate

    task_id = outcome.task
    rows_out = _finite(aggregate(outcome))
    assert isinstance(rows_out, list)
    names = _metric_names(rows_out, metrics, task_id)
    axes = [k for k in points[0] if len({p[k] for p in points}) > 1] if points else []
    rows = [[*(r["params"][a] for a in axes),
             *(_fmt(r["metrics"][m]["mean"], r["metrics"][m]["se"]) if m in r["metrics"]
               else "-" for m in names),
             str(max((r["metrics"][m]["n"] for m in r["metrics"]), default=0))]
            for r in rows_out]
    cached = sum(run.cached for run in outcome.runs)
    notes = [f"FAILED {run.params} seed {run.seed}: {run.error}" for run in outcome.failed]
    if outcome.interrupted:
        notes.append("interrupted: completed runs are stored; run the same command to resume")
    summary = [f"{task_id}: {len(points)} grid point(s) × {n_seeds} seed(s) = "
               f"{len(outcome.runs)} runs on {outcome.backend}; {cached} from the store, "
               f"{len(outcome.failed)} failed; {outcome.wall:.2f} s"]
    return Result(
        command="sweep", inputs=inputs, value=rows_out,
        conventions={"aggregate": "mean ± standard error over seeds (NaN runs counted apart); "
                                   "se is null when n < 2 (undefined), mean null when n = 0",
                     "seeds": "simulation seed = SeedSequence(seed, digest(task, grid point))"},
        summary=summary,
        details={"runs": [{"params": r.params, "seed": r.seed, "result": _finite(r.result),
                           "error": r.error, "cached": r.cached} for r in outcome.runs],
                 "backend": outcome.backend, "wall_seconds": outcome.wall},
        table=Table(columns=[*axes, *names, "runs"], rows=rows,
                    caption=f"Sweep of {task_id} (mean ± s.e. over seeds {inputs['seeds']})",
                    label="tab:fltheory-sweep", align="r" * (len(axes) + len(names) + 1)),
        notes=notes,
    )


def _default(value: object) -> str:
    from fractions import Fraction

    from fltheory.exact import fraction_str

    return fraction_str(value) if isinstance(value, Fraction) else str(value)


@click.command("cache")
@click.argument("action", type=click.Choice(["info", "clear", "path"]), default="info")
@click.option("--task", default=None, help="Only this task (clear).")
@click.option("--store", "store_path", default=None, help="Results store (default as sweep).")
def cache_command(action: str, task: str | None, store_path: str | None) -> None:
    """Inspect (info), locate (path) or clear the results store of `fltheory sweep`.

    A corrupt store is moved aside to STORE.corrupt-<time> on opening (info) and a new one
    started; `clear` deletes a corrupt store, and (without --task) also the copies moved aside.
    A read-only store can be inspected, not cleared.
    """
    from fltheory.sweep.store import Store, check_store_path, default_path

    path = Path(store_path) if store_path else default_path()
    if action == "path":
        click.echo(str(path))
        return
    check_store_path(path)
    if action == "info" and not path.exists() and not path.is_symlink():
        click.echo(f"{path}: empty (no runs stored yet)")
        return
    on_corrupt = "delete" if action == "clear" and task is None else "move"
    with Store(path, on_corrupt=on_corrupt) as store:
        if action == "clear":
            _clear(store, path, task)
        else:
            _info(store, path)


def _clear(store: Any, path: Path, task: str | None) -> None:
    """Remove the runs (of ``task``, or all and the corrupt copies moved aside earlier)."""
    copies = store.corrupt_copies()
    removed = store.clear(task)
    deleted = []
    if task is None:
        for copy in copies:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{copy}{suffix}").unlink(missing_ok=True)
            deleted.append(copy.name)
    extra = f"; deleted {len(deleted)} corrupt copy(ies) moved aside earlier" if deleted else ""
    click.echo(f"removed {removed} run(s) from {path}{extra}")


def _info(store: Any, path: Path) -> None:
    """The store's integrity, its runs per task and code version, the corrupt copies."""
    from fltheory.sweep.store import code_version

    mode = "; read-only" if store.readonly else ""
    click.echo(f"{path} (current code version {code_version()}; integrity "
               f"{store.check()}{mode})")
    for name, version, count, seconds in store.summary():
        mark = "" if version == code_version() else "  (older code)"
        click.echo(f"{name}\t{version}\t{count} runs\t{seconds:.1f} s computed{mark}")
    for copy in store.corrupt_copies():
        click.echo(f"corrupt store moved aside: {copy} (fltheory cache clear deletes it)")
