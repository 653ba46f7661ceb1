"""``fltheory plot NAME``: write a figure (default ``figures/NAME.pdf``)."""

from __future__ import annotations

from pathlib import Path

import click

from fltheory.cli.options import atomic_output, check_output_path, list_option, pick_name
from fltheory.exact import DomainError

_FORMATS = (".pdf", ".png", ".svg")


@click.command("plot")
@click.argument("name", required=False)
@click.option("-o", "--output", type=str, default=None,
              help="Output file, .pdf/.png/.svg (default figures/NAME.pdf). A new path or a "
                   "regular file; directories are created.")
@list_option("figures")
def plot_command(name: str | None, output: str | None, list_only: bool, fmt: str) -> None:
    """Draw the figure NAME, one of those the papers declare (`fltheory plot --list`). Needs
    matplotlib: pip install 'fltheory[plot]'.

    The file is written atomically, with the permissions the umask gives a new file: an error
    leaves no partial file.
    """
    from fltheory.render.plots import figure_names

    picked = pick_name("plot", "figure", figure_names(), name, list_only, fmt)
    if picked is None:
        return
    name = picked
    path = Path(output) if output else Path("figures") / f"{name}.pdf"
    if path.suffix not in _FORMATS:
        raise DomainError("output", str(path), "a file ending in " + ", ".join(_FORMATS))
    check_output_path(path)  # before the work: a bad target costs nothing
    try:
        import matplotlib
    except ImportError:
        raise DomainError("plot", name, "an installation with the [plot] extra: "
                          "pip install 'fltheory[plot]'", reason="needs matplotlib") from None
    matplotlib.use("Agg")
    from fltheory.render.plots import make_figure

    fig = make_figure(name)
    with atomic_output(path, suffix=path.suffix) as tmp:
        fig.savefig(tmp, format=path.suffix[1:])
    click.echo(f"wrote {path}", err=True)
