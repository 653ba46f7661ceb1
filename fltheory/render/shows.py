"""A result object of the Python API that is naturally a table shows itself as one: HTML in a
notebook, booktabs LaTeX for a paper (the same cells as ``--format latex``). Kept beside the
renderers it calls, so that :mod:`fltheory.results` holds data only."""

from __future__ import annotations

from fltheory.results import Table

__all__ = ["ShowsTable"]


class ShowsTable:
    """Mixin for a result object of the Python API that is naturally a table: define
    ``table() -> Table`` and a notebook shows it as an HTML table (``_repr_html_``);
    ``to_latex()`` gives the booktabs LaTeX that ``--format latex`` prints for it.

    >>> class Squares(ShowsTable):
    ...     def table(self) -> Table:
    ...         return Table(columns=["n", "n²"], rows=[[str(n), str(n * n)] for n in (1, 2)])
    >>> print(Squares()._repr_html_().splitlines()[1])
    <thead><tr><th>n</th><th>n²</th></tr></thead>
    >>> print(Squares().to_latex().splitlines()[4])
    n & n$^2$ \\\\
    """

    def table(self) -> Table:
        raise NotImplementedError

    def _repr_html_(self) -> str:
        from fltheory.render.html import html_table

        return html_table(self.table())

    def to_latex(self) -> str:
        """The table as a booktabs ``table`` environment: the same LaTeX cells, caption and
        label that the command printing this object gives with ``--format latex``."""
        from fltheory.render.latex import tabular

        return tabular(self.table())
