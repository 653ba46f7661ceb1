"""``fltheory verify``: run claims, print predicted / measured / tolerance / verdict."""

from __future__ import annotations

import sys

import click

from fltheory.cli.options import CountType, emit, format_option
from fltheory.results import Result, Table


@click.command("verify")
@click.argument("which", required=False, default=None)
@click.option("--size", type=click.Choice(["small", "large"]), default="small", show_default=True,
              help="small: CI sizes (minutes); large: for people with time.")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True,
              help="Seed of every simulation (same seed, same numbers).")
@click.option("--list", "list_only", is_flag=True, help="List the claims and exit.")
@click.option("--progress/--no-progress", default=None,
              help="Progress lines on stderr (default: when stderr is a terminal).")
@format_option
def verify_command(which: str | None, size: str, seed: int, list_only: bool,
                   progress: bool | None, fmt: str) -> int:
    """Run the claims of WHICH (a paper such as twostep, or a claim id; default: all).

    Each claim pairs a prediction with a simulation of the same model; the verdict is pass, fail
    or inconclusive (with the reason). Exit status 1 when any claim fails.
    """
    from fltheory.claims.registry import run_claim, select

    claims = select(which)
    if list_only:
        for claim in claims:
            click.echo(f"{claim.id}\t{claim.statement}")
        return 0
    show = sys.stderr.isatty() if progress is None else progress
    runs = []
    for i, claim in enumerate(claims, 1):
        if show:
            click.echo(f"[{i}/{len(claims)}] {claim.id} ...", err=True)
        runs.append(run_claim(claim, size, seed))
    counts = {s: sum(r.verdict.status == s for r in runs) for s in ("pass", "fail", "inconclusive")}
    table = Table(
        columns=["claim", "predicted", "measured", "tolerance", "verdict"],
        rows=[[r.claim.id, r.verdict.predicted, r.verdict.measured, r.verdict.tolerance,
               r.verdict.status] for r in runs],
        caption=f"fltheory verify ({size} size, seed {seed})",
        label="tab:fltheory-verify",
        align="lllll",
        notes=[f"{r.claim.id}: {r.verdict.status}: {r.verdict.reason}"
               for r in runs if r.verdict.reason],
    )
    result = Result(
        command="verify",
        inputs={"which": which or "all", "size": size, "seed": seed},
        value=counts,
        summary=[f"{counts['pass']} passed, {counts['fail']} failed, "
                 f"{counts['inconclusive']} inconclusive ({len(runs)} claims, {size} size, "
                 f"seed {seed})"],
        conventions={"verdicts": "pass / fail against the claim's stated tolerance; "
                                 "inconclusive with the reason when a simulation cannot decide"},
        details={"claims": [r.as_json() for r in runs]},
        table=table,
    )
    emit(result, fmt)
    return 1 if counts["fail"] else 0
