"""``fltheory plot NAME [--PARAM VALUE ...]``: write a figure (default ``figures/NAME.pdf``; see
:mod:`fltheory.cli.viewcommand` for the name of a variant)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from fltheory.cli.options import list_option
from fltheory.cli.viewcommand import ViewGroup, group_callback, report_progress, variant_path
from fltheory.exact import DomainError

_FORMATS = (".pdf", ".png", ".svg")


def _write_figure(name: str, func: Callable[..., Any], values: dict[str, Any],
                  changed: dict[str, str], output: str | None) -> None:
    from pathlib import Path

    from fltheory.cli.options import atomic_output, check_output_path
    from fltheory.render.params import reporting

    path = Path(output) if output else variant_path("figures", name, changed, ".pdf")
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

    with reporting(report_progress("plot", name)):
        fig = make_figure(name, **values)
    with atomic_output(path, suffix=path.suffix) as tmp:
        fig.savefig(tmp, format=path.suffix[1:])
    click.echo(f"wrote {path}", err=True)


@click.group("plot", cls=ViewGroup, kind="figure", run=_write_figure,
             subcommand_metavar="NAME [--PARAM VALUE ...]")
@list_option("figures")
def plot_command(list_only: bool, fmt: str) -> None:
    """Draw the figure NAME, one of those the papers declare (`fltheory plot --list`);
    `fltheory plot NAME --help` lists its parameters (defaults: the paper's figure). Needs
    matplotlib: pip install 'fltheory[plot]'.

    Without -o the figure goes to figures/NAME.pdf at the default parameters and to
    figures/NAME-KEY=VALUE….pdf when a parameter is changed. Lists are comma-separated; numbers
    are exact (1/2, 0.5). The file is written atomically, with the permissions the umask gives a
    new file: an error leaves no partial file. Figures that run simulations print progress lines
    on stderr.

    Example: fltheory plot committee --g tanh --K 3 --M 3 -o committee-tanh.png
    """
    group_callback("plot", "figure")(list_only, fmt)
