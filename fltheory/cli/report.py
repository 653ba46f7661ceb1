"""``fltheory report``: write the verification report (HTML) of WHICH to a directory."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from fltheory.cli.options import CountType, emit
from fltheory.exact import DomainError

if TYPE_CHECKING:
    from fltheory.report import ReportRuns


@click.command("report")
@click.argument("which", required=False, default=None)
@click.option("--out", "out", required=True, type=str, metavar="DIR",
              help="Report directory: a new path, an empty directory or a previous report "
                   "(replaced once the new one is complete).")
@click.option("--size", type=click.Choice(["small", "large"]), default=None,
              help="small (default): CI sizes; large: for people with time.")
@click.option("--seed", type=CountType(minimum=0, maximum=2**63 - 1), default=None,
              help="Seed of every simulation (default 0).")
@click.option("--store", "store_path", default=None, metavar="PATH",
              help="Results store to read and fill (default: fltheory cache's).")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Compute every claim here; read and write no store.")
@click.option("--from", "from_file", default=None, metavar="FILE",
              help="Build from a saved `fltheory verify --format json` output instead.")
@click.option("--progress/--no-progress", default=None,
              help="Progress lines on stderr (default: when stderr is a terminal).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Format of what is printed (the report is HTML).")
def report_command(which: str | None, out: str, size: str | None, seed: int | None,
                   store_path: str | None, no_cache: bool, from_file: str | None,
                   progress: bool | None, fmt: str) -> None:
    """Write DIR/index.html: every claim of WHICH (a paper or a claim id; default all) with
    its statement, prediction, measurement, tolerance and why, verdict, figure (prediction
    against simulation, under DIR/figures) and provenance. The page needs no network.

    Runs come from the results store (what fltheory verify saved under the same code
    version); missing ones are computed and stored. With --from, from a saved verify JSON.
    Nothing is written unless the whole report is: an error leaves no directory.
    """
    from fltheory.report import check_out_dir, report_result, write_report

    if from_file is not None and (store_path is not None or no_cache):
        raise DomainError("from", from_file, "--from alone, or --store / --no-cache",
                          reason="reads a file, not a store")
    if store_path is not None and no_cache:
        raise DomainError("store", store_path, "--store or --no-cache",
                          reason="contradicts --no-cache")
    target = check_out_dir(out)  # before any work
    if from_file is None and not no_cache:
        _store_outside(store_path, target)
    _matplotlib()
    data = (_from_file(Path(from_file), which, size, seed) if from_file is not None else
            _from_store(which, size or "small", seed or 0, store_path, no_cache, progress))
    emit(report_result(data, write_report(data, target)), fmt)


def _store_outside(store_path: str | None, target: Path) -> None:
    """The store may not be the report directory or lie in it (a report replaces it)."""
    import os

    from fltheory.sweep.store import default_path

    store = Path(os.path.abspath(store_path or default_path()))
    if store == target or target in store.parents:
        raise DomainError("store", str(store)[:200], "a path outside --out",
                          reason=f"is the report directory {target} or inside it")


def _matplotlib() -> None:
    try:
        import matplotlib
    except ImportError:
        raise DomainError("report", "figures", "an installation with the [plot] extra: "
                          "pip install 'fltheory[plot]'", reason="need matplotlib") from None
    matplotlib.use("Agg")


def _from_file(path: Path, which: str | None, size: str | None,
               seed: int | None) -> ReportRuns:
    from fltheory.report import runs_from_file

    data = runs_from_file(path, which)
    for name, asked, found in (("size", size, data.size), ("seed", seed, data.seed)):
        if asked is not None and asked != found:
            raise DomainError(name, str(asked), f"{found} (the file's) or omitted",
                              reason=f"differs from the {name} of {path}")
    return data


def _from_store(which: str | None, size: str, seed: int, store_path: str | None,
                no_cache: bool, progress: bool | None) -> ReportRuns:
    from fltheory.claims.registry import select
    from fltheory.cli.verify import open_store, tell
    from fltheory.report import runs_from_store

    claims = select(which)
    show = sys.stderr.isatty() if progress is None else progress
    store = open_store(not no_cache, store_path)
    try:
        return runs_from_store(claims, which or "all", size, seed, store=store,
                               progress=tell if show else None)
    finally:
        if store is not None:
            store.close()
