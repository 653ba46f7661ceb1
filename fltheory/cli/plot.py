"""``fltheory plot NAME``: write a figure (default ``figures/NAME.pdf``)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click

from fltheory.exact import DomainError

_FORMATS = (".pdf", ".png", ".svg")


@click.command("plot")
@click.argument("name")
@click.option("-o", "--output", type=str, default=None,
              help="Output file, .pdf/.png/.svg (default figures/NAME.pdf).")
def plot_command(name: str, output: str | None) -> None:
    """Draw the figure NAME (fisher, lambda, quadratic, recovery, twostep). Needs matplotlib:
    pip install 'fltheory[plot]'.

    The file is written atomically: an error leaves no partial file.
    """
    path = Path(output) if output else Path("figures") / f"{name}.pdf"
    if path.suffix not in _FORMATS:
        raise DomainError("output", str(path), "a file ending in " + ", ".join(_FORMATS))
    try:
        import matplotlib
    except ImportError:
        raise DomainError("plot", name, "an installation with the [plot] extra: "
                          "pip install 'fltheory[plot]'", reason="needs matplotlib") from None
    matplotlib.use("Agg")
    from fltheory.render.plots import make_figure

    fig = make_figure(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=path.suffix)
    os.close(fd)
    try:
        fig.savefig(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    click.echo(f"wrote {path}", err=True)
