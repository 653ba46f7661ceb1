"""``fltheory table NAME [--PARAM VALUE ...]``: write a booktabs LaTeX table (default
``tables/NAME.tex``; see :mod:`fltheory.cli.viewcommand` for the name of a variant)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from fltheory.cli.options import list_option
from fltheory.cli.viewcommand import ViewGroup, group_callback, report_progress, variant_path


def _write_table(name: str, func: Callable[..., Any], values: dict[str, Any],
                 changed: dict[str, str], output: str | None) -> None:
    from pathlib import Path

    from fltheory.cli.options import check_output_path, write_atomically
    from fltheory.render.latex import tabular
    from fltheory.render.params import reporting
    from fltheory.render.tables import build_table

    path = (None if output == "-" else Path(output) if output
            else variant_path("tables", name, changed, ".tex"))
    if path is not None:
        check_output_path(path)  # before the work: a bad target costs nothing
    with reporting(report_progress("table", name)):
        text = tabular(build_table(name, **values))
    if path is None:
        click.echo(text, nl=False)
        return
    write_atomically(path, text)
    click.echo(f"wrote {path}", err=True)


@click.group("table", cls=ViewGroup, kind="table", run=_write_table,
             subcommand_metavar="NAME [--PARAM VALUE ...]")
@list_option("tables")
def table_command(list_only: bool, fmt: str) -> None:
    """Write the LaTeX (booktabs) table NAME. `fltheory table --list` names them;
    `fltheory table NAME --help` lists its parameters (defaults: the committed table).

    NAME is one of the tables the papers declare (fltheory.papers), e.g. lambda. Without -o the
    table goes to tables/NAME.tex at the default parameters and to tables/NAME-KEY=VALUE….tex
    when a parameter is changed (the committed file is never overwritten by a variant). Lists
    are comma-separated (--d 3,5,10); numbers are exact (1/10, 0.1, 1e3). The file is written
    atomically, with the permissions the umask gives a new file: an error leaves no partial
    file. Tables that take more than a few seconds print progress lines on stderr.

    Example: fltheory table fisher --d 3,4,5 -o fisher-small.tex
    """
    group_callback("table", "table")(list_only, fmt)
