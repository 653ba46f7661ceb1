"""Named tables for ``fltheory table NAME``, contributed by the papers (:mod:`fltheory.papers`).

Each paper's builders live in its views module (``fltheory.papers.<paper>.views``): they ask
the theory for the numbers and arrange them in a :class:`~fltheory.results.Table`. Every builder is
deterministic, so the committed files in ``tables/`` are exactly what the command writes (a test
regenerates and compares them).
"""

from __future__ import annotations

from typing import Any

from fltheory.results import Table

__all__ = ["build_table", "table_names"]


def table_names() -> list[str]:
    """Every paper's table names, sorted (reads the declarations only)."""
    from fltheory.papers import contributions

    return sorted(contributions("tables"))


def build_table(name: str, **params: Any) -> Table:
    """The table ``name`` (see :func:`table_names`) at its default parameters, or with
    ``params`` (the keyword arguments of its builder, :mod:`fltheory.render.params`); an unknown
    name is a
    :class:`~fltheory.exact.DomainError`, a builder returning something other than a
    :class:`~fltheory.results.Table` a TypeError naming the builder (a bug of its paper).

    >>> build_table("lambda").label
    'tab:lambda'
    """
    from fltheory.papers import contribution, contributions

    table = contribution("tables", name)(**params)
    if not isinstance(table, Table):
        raise TypeError(f"table {name!r}: its builder {contributions('tables')[name]} returned "
                        f"{type(table).__name__}, not a fltheory.results.Table (an internal "
                        "error of the paper that declares it)")
    return table
