"""What the paper shows: a table of the edge for a few γ. It presents, it computes nothing."""

from __future__ import annotations

from fltheory.results import Table
from wishart_paper.params import Wishart
from wishart_paper.theory import edge, edge_value


def edge_table() -> Table:
    """The Marchenko–Pastur edge λ₊ = (1 + √γ)² for γ = 1/4, 1/2, 1."""
    rows = [[g, str(edge(Wishart(g))), edge_value(Wishart(g), 8)] for g in ("1/4", "1/2", "1")]
    return Table(columns=["γ", "λ₊ exact", "λ₊"], rows=rows,
                 caption="Marchenko–Pastur edge (1 + √γ)²", label="tab:wishart-edge")
