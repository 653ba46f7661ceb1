"""``fltheory verify``: run claims, print predicted / measured / tolerance / verdict."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from fltheory.cli.options import CountType, emit, format_option, list_result
from fltheory.results import Result, Table


def open_store(use_cache: bool, store_path: str | None) -> Any:
    """The results store (``--store`` or the default path), or ``None`` with ``--no-cache``.

    A ``--store`` that cannot be used is an error (one line, exit 2); the default store that
    cannot be used (no writable cache directory) is one warning, and the runs are not kept."""
    from fltheory.sweep.store import Store, StoreError, default_path

    if not use_cache:
        return None
    if store_path:
        return Store(Path(store_path))
    try:
        return Store(default_path())
    except StoreError as exc:
        click.echo(f"fltheory: warning: {exc}; runs are not kept", err=True)
        return None


def tell(done: int, total: int, what: str, state: str) -> None:
    """One progress line on stderr."""
    click.echo(f"[{done}/{total}] {what} ({state})" if state != "running" else
               f"[{done}/{total}] {what} ...", err=True)


@click.command("verify")
@click.argument("which", required=False, default=None)
@click.option("--size", type=click.Choice(["small", "large"]), default="small", show_default=True,
              help="small: CI sizes (minutes); large: for people with time.")
@click.option("--seed", type=CountType(minimum=0, maximum=2**63 - 1), default=0, show_default=True,
              help="Seed of every simulation (same seed, same numbers).")
@click.option("--workers", type=CountType(minimum=1), default=None,
              help="Claims run in parallel worker processes (default: 1 for small, the number "
                   "of cores for large).")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Do not read or write the results store (runs are stored by default, "
                   "so that fltheory report reads them).")
@click.option("--store", "store_path", default=None, help="Results store (see fltheory cache).")
@click.option("--list", "list_only", is_flag=True, help="List the claims and exit.")
@click.option("--progress/--no-progress", default=None,
              help="Progress lines on stderr (default: when stderr is a terminal).")
@format_option
def verify_command(which: str | None, size: str, seed: int, workers: int | None,
                   no_cache: bool, store_path: str | None, list_only: bool,
                   progress: bool | None, fmt: str) -> int:
    """Run the claims of WHICH (a paper such as twostep, or a claim id; default: all).

    Each claim pairs a prediction with a simulation of the same model; the verdict is pass, fail
    or inconclusive (with the reason). Exit status 1 when any claim fails.

    With --size large, or --workers > 1, claims run through the sweep machinery (parallel
    worker processes). Every run is kept in the results store (unless --no-cache) under the
    code version, so a rerun of unchanged code, an interrupted large run and fltheory report
    read it instead of recomputing.
    """
    from fltheory.claims.registry import select
    from fltheory.sweep.claims import run_claims

    claims = select(which)
    if list_only:
        list_result("verify", ["claim", "statement"], [[c.id, c.statement] for c in claims], fmt)
        return 0
    show = sys.stderr.isatty() if progress is None else progress
    workers = workers or (os.cpu_count() or 1 if size == "large" else 1)
    store = open_store(not no_cache, store_path)
    try:
        done = run_claims(claims, size, seed, store=store, workers=workers,
                          progress=tell if show else None)
    finally:
        if store is not None:
            store.close()
    runs = [{k: v for k, v in r.items() if k not in ("date", "version")} for r in done.in_order()]
    errors = done.group_errors
    result = _verify_result(runs, errors, which, size, seed)
    result.details["provenance"] = _provenance(done)
    emit(result, fmt)
    return 1 if result.value["fail"] or errors else 0


def _provenance(done: Any) -> dict[str, Any]:
    """The code version of this process, and of each run with the UTC time it was computed
    (or stored): what fltheory report --from shows as provenance."""
    from fltheory.sweep.store import code_version

    return {"code_version": code_version(),
            "runs": {i: {"date": r["date"], "version": r["version"],
                         "from_store": i in done.cached} for i, r in done.runs.items()}}


def _verify_result(runs: list[dict[str, Any]], errors: list[str], which: str | None,
                   size: str, seed: int) -> Result:
    """The verdicts counted, tabulated and noted (the reasons of inconclusive claims)."""
    counts = {s: sum(r["status"] == s for r in runs) for s in ("pass", "fail", "inconclusive")}
    table = Table(
        columns=["claim", "predicted", "measured", "tolerance", "verdict"],
        rows=[[r["id"], r["predicted"], r["measured"], r["tolerance"], r["status"]]
              for r in runs],
        caption=f"fltheory verify ({size} size, seed {seed})",
        label="tab:fltheory-verify",
        align="lllll",
        notes=[f"{r['id']}: {r['status']}: {r['reason']}" for r in runs if r["reason"]],
    )
    return Result(
        command="verify",
        inputs={"which": which or "all", "size": size, "seed": seed},
        value=counts,
        summary=[f"{counts['pass']} passed, {counts['fail']} failed, "
                 f"{counts['inconclusive']} inconclusive ({len(runs)} "
                 f"claim{'' if len(runs) == 1 else 's'}, {size} size, seed {seed})"],
        conventions={"verdicts": "pass / fail against the claim's stated tolerance; "
                                 "inconclusive with the reason when a simulation cannot decide"},
        details={"claims": runs, "errors": errors},
        table=table,
        notes=[f"ERROR {e}" for e in errors],
    )
