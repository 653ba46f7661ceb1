"""``fltheory table NAME``: write a booktabs LaTeX table (default ``tables/NAME.tex``)."""

from __future__ import annotations

from pathlib import Path

import click

from fltheory.cli.options import check_output_path, list_option, pick_name, write_atomically


@click.command("table")
@click.argument("name", required=False)
@click.option("-o", "--output", type=str, default=None,
              help="Output file (default tables/NAME.tex; '-' for stdout). A new path or a "
                   "regular file; directories are created.")
@list_option("tables")
def table_command(name: str | None, output: str | None, list_only: bool, fmt: str) -> None:
    """Write the LaTeX (booktabs) table NAME. `fltheory table --list` names them.

    NAME is one of the tables the papers declare (fltheory.papers), e.g. lambda. The file is written
    atomically, with the permissions the umask gives a new file: an error leaves no partial
    file.
    """
    from fltheory.render.tables import table_names

    picked = pick_name("table", "table", table_names(), name, list_only, fmt)
    if picked is None:
        return
    name = picked
    from fltheory.render.latex import tabular
    from fltheory.render.tables import build_table

    path = None if output == "-" else Path(output) if output else Path("tables") / f"{name}.tex"
    if path is not None:
        check_output_path(path)  # before the work: a bad target costs nothing
    text = tabular(build_table(name))
    if path is None:
        click.echo(text, nl=False)
        return
    write_atomically(path, text)
    click.echo(f"wrote {path}", err=True)
