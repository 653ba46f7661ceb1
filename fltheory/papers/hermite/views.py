"""Views of the Hermite engine: its table.

Each builder asks the theory for its numbers and hands them to :mod:`fltheory.render`; nothing
is computed or checked here (the table's parameters are
:class:`~fltheory.papers.hermite.params.CatalogueTable`). Declared in
:mod:`fltheory.papers.hermite`.
"""

from __future__ import annotations

from collections.abc import Sequence

from fltheory.papers.hermite.params import CatalogueTable
from fltheory.render.latex import latex_code
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.results import Table

__all__ = ["HERMITE_TABLE_FUNCTIONS", "hermite_table"]

HERMITE_TABLE_FUNCTIONS = ("relu", "tanh", "sigmoid", "softplus", "gelu", "erf", "abs", "sign",
                           "quadratic", "cubic", "He2", "He3", "He4")


@view_params(
    functions=ViewParam("strs", "Functions of z, catalogue names or expressions (the grammar of "
                                "fltheory hermite)."),
    K=ViewParam("int", "Coefficients shown: μ_0..μ_K.", 0, 12),
    kmax=ViewParam("int", "Degree up to which the exponents are looked for.", 1, 24),
)
def hermite_table(functions: Sequence[str] = HERMITE_TABLE_FUNCTIONS, K: int = 4,
                  kmax: int = 8) -> Table:
    """Hermite coefficients μ_0..μ_K (orthonormal h_k = He_k/√(k!)) and the information and
    generative exponents (looked for up to k = kmax) of each function, 6 significant digits
    (computed at 20). The exponents follow Ben Arous, Gheissari & Jagannath (2021) and Damian,
    Pillaud-Vivien, Lee & Bruna (2024) as in ``fltheory exponent``.

    Parameters
    ----------
    functions
        Functions of z (default: the catalogue relu, tanh, …, He4).
    K
        Highest coefficient shown (default 4).
    kmax
        Degree up to which both exponents are looked for (default 8).
    """
    import mpmath

    from fltheory.papers.hermite.theory import analyse

    rows_of = CatalogueTable(tuple(functions), K, kmax)
    functions, K, kmax = rows_of.functions, rows_of.K, rows_of.kmax
    dps = 20
    catalogue = tuple(functions) == HERMITE_TABLE_FUNCTIONS
    rows = []
    for i, name in enumerate(functions):
        progress(f"{name} ({i + 1}/{len(functions)})")
        a = analyse(name, kmax, dps)
        rows.append([name, *(mpmath.nstr(c.numeric, 6) if not c.zero else "0"
                             for c in a.expansion.coefficients[: K + 1]),
                     str(a.information), str(a.generative)])
    latex_rows = [[r"\texttt{" + latex_code(row[0]) + "}", *(f"${v}$" for v in row[1:-2]),
                   *(f"${v}$" for v in row[-2:])] for row in rows]
    return Table(
        columns=["f", *(f"μ_{k}" for k in range(K + 1)), "info. exp.", "gen. exp."],
        rows=rows,
        latex_columns=["$f$", *(f"$\\mu_{k}$" for k in range(K + 1)),
                       r"$k_\star$", r"$k_\star^{\mathrm{gen}}$"],
        latex_rows=latex_rows,
        caption=("Hermite coefficients μ_k = E[f(z) h_k(z)] (orthonormal h_k = He_k/√(k!)) of "
                 f"the {'catalogue' if catalogue else 'functions'}, information and generative "
                 f"exponents (examined up to k = {kmax})."),
        latex_caption=(r"Hermite coefficients $\mu_k = \mathrm{E}[f(z)\,h_k(z)]$, "
                       r"$h_k = \mathrm{He}_k/\sqrt{k!}$, $z \sim \mathcal{N}(0,1)$, of the "
                       + ("catalogue activations" if catalogue else "functions")
                       + r", with the information exponent $k_\star$ and the generative "
                       rf"exponent $k_\star^{{\mathrm{{gen}}}}$ (examined up to $k = {kmax}$)."),
        label="tab:hermite",
        align="l" + "r" * (K + 1) + "cc",
    )
