"""``fltheory table NAME``: write a booktabs LaTeX table (default ``tables/NAME.tex``)."""

from __future__ import annotations

from pathlib import Path

import click

from fltheory.cli.options import write_atomically
from fltheory.exact import DomainError


@click.command("table")
@click.argument("name")
@click.option("-o", "--output", type=str, default=None,
              help="Output file (default tables/NAME.tex; '-' for stdout).")
def table_command(name: str, output: str | None) -> None:
    """Write the LaTeX (booktabs) table NAME. `fltheory table --list` names them.

    NAME is one of the tables in fltheory.render.tables (e.g. lambda). The file is written
    atomically: an error leaves no partial file.
    """
    from fltheory.render.latex import tabular
    from fltheory.render.tables import TABLES, build_table

    if name == "--list" or name == "list":
        click.echo("\n".join(sorted(TABLES)))
        return
    if name not in TABLES:
        raise DomainError("NAME", name, "one of " + ", ".join(sorted(TABLES)),
                          reason="is not a known table")
    text = tabular(build_table(name))
    if output == "-":
        click.echo(text, nl=False)
        return
    path = Path(output) if output else Path("tables") / f"{name}.tex"
    write_atomically(path, text)
    click.echo(f"wrote {path}", err=True)
