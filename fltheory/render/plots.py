"""Figures for ``fltheory plot NAME``, contributed by the papers (:mod:`fltheory.papers`).

Each paper's figures live in its views module (``fltheory.papers.<paper>.views``): a ``draw_*``
function draws data computed elsewhere, a ``*_figure`` function fetches the data from the public
API and draws it. matplotlib is imported only when a figure is drawn (``pip install
'fltheory[plot]'``); the CLI selects the Agg backend, a notebook keeps its own.
"""

from __future__ import annotations

from typing import Any

from fltheory.exact import DomainError

__all__ = ["figure_names", "finish_size_axis", "make_figure", "pyplot"]


def pyplot() -> Any:
    """``matplotlib.pyplot``, or a :class:`DomainError` naming the ``[plot]`` extra."""
    try:
        import matplotlib
    except ImportError:
        raise DomainError("plot", "matplotlib", "an installation with the [plot] extra: "
                          "pip install 'fltheory[plot]'", reason="is not installed") from None
    del matplotlib  # the backend is the caller's choice (the CLI selects Agg)
    import matplotlib.pyplot as plt

    return plt


def finish_size_axis(ax: Any, sizes: Any, xlabel: str, ylabel: str) -> None:
    """Log-scaled size axis labelled at the simulated sizes, labels and legend."""
    ax.set_xscale("log")
    ax.set_xticks(sizes, [str(int(v)) for v in sizes])
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)


def figure_names() -> list[str]:
    """Every paper's figure names, sorted (reads the declarations only)."""
    from fltheory.papers import contributions

    return sorted(contributions("figures"))


def make_figure(name: str, **params: Any) -> Any:
    """Draw the figure ``name`` (see :func:`figure_names`) at its default parameters, or with
    ``params`` (the keyword arguments of its function), and return it."""
    from fltheory.papers import contribution

    return contribution("figures", name)(**params)
