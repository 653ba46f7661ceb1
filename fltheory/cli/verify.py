"""``fltheory verify``: run claims, print predicted / measured / tolerance / verdict."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from fltheory.cli.options import CountType, emit, format_option, list_result
from fltheory.results import Result, Table


def _through_sweeps(ids: list[str], size: str, seed: int, workers: int, use_cache: bool,
                    store_path: str | None, show: bool) -> tuple[list[dict[str, Any]], list[str]]:
    """The claims as tasks of the sweep machinery, one task per paper (claims of a paper share
    cached simulations): worker processes, one BLAS thread each, and the results store (an
    interrupted large verify resumes at the first paper not finished)."""
    from fltheory.sweep.runner import Run, sweep
    from fltheory.sweep.store import Store, default_path

    def tell(done: int, total: int, run: Run) -> None:
        state = "failed" if run.error else "cached" if run.cached else f"{run.seconds:.0f} s"
        click.echo(f"[{done}/{total}] {run.params['claims']} ({state})", err=True)

    store = Store(Path(store_path) if store_path else default_path()) if use_cache else None
    try:
        papers: dict[str, list[str]] = {}
        for i in ids:
            papers.setdefault(i.split(".")[0], []).append(i)
        points = [{"claims": ",".join(group), "size": size} for group in papers.values()]
        outcome = sweep("verify.claims", points, [seed], workers=workers, store=store,
                        progress=tell if show else None)
    finally:
        if store is not None:
            store.close()
    if outcome.interrupted:
        raise click.exceptions.Abort()
    out, errors = [], []
    for run in outcome.runs:
        if run.result is not None:
            out.extend(run.result["runs"])
        else:
            errors.append(f"{run.params['claims']}: {run.error}")
    return out, errors


@click.command("verify")
@click.argument("which", required=False, default=None)
@click.option("--size", type=click.Choice(["small", "large"]), default="small", show_default=True,
              help="small: CI sizes (minutes); large: for people with time.")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True,
              help="Seed of every simulation (same seed, same numbers).")
@click.option("--workers", type=CountType(minimum=1), default=None,
              help="Claims run in parallel worker processes (default: 1 for small, the number "
                   "of cores for large).")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Large size: do not read or write the results store.")
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
    worker processes; large results kept in the store, so an interrupted run resumes).
    """
    from fltheory.claims.registry import select

    claims = select(which)
    if list_only:
        list_result("verify", ["claim", "statement"], [[c.id, c.statement] for c in claims], fmt)
        return 0
    show = sys.stderr.isatty() if progress is None else progress
    workers = workers or (os.cpu_count() or 1 if size == "large" else 1)
    errors: list[str] = []
    if size == "large" or workers > 1:
        runs, errors = _through_sweeps([c.id for c in claims], size, seed, workers,
                                       size == "large" and not no_cache, store_path, show)
    else:
        runs = _in_process(claims, size, seed, show)
    result = _verify_result(runs, errors, which, size, seed)
    emit(result, fmt)
    return 1 if result.value["fail"] or errors else 0


def _in_process(claims: list[Any], size: str, seed: int, show: bool) -> list[dict[str, Any]]:
    """The claims run one after the other in this process (progress on stderr if ``show``)."""
    from fltheory.claims.registry import run_claim

    runs = []
    for i, claim in enumerate(claims, 1):
        if show:
            click.echo(f"[{i}/{len(claims)}] {claim.id} ...", err=True)
        runs.append(run_claim(claim, size, seed).as_json())
    return runs


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
                 f"{counts['inconclusive']} inconclusive ({len(runs)} claims, {size} size, "
                 f"seed {seed})"],
        conventions={"verdicts": "pass / fail against the claim's stated tolerance; "
                                 "inconclusive with the reason when a simulation cannot decide"},
        details={"claims": runs, "errors": errors},
        table=table,
        notes=[f"ERROR {e}" for e in errors],
    )
