"""Views of the Hermite engine: its table.

Each builder asks the theory, the claims or the simulator for its numbers and hands them to
:mod:`fltheory.render`; nothing is computed here. Declared in :mod:`fltheory.papers.hermite`.
"""

from __future__ import annotations

from fltheory.results import Table

__all__ = ["HERMITE_TABLE_FUNCTIONS", "hermite_table"]

HERMITE_TABLE_FUNCTIONS = ("relu", "tanh", "sigmoid", "softplus", "gelu", "erf", "abs", "sign",
                           "quadratic", "cubic", "He2", "He3", "He4")


def hermite_table() -> Table:
    """μ_0..μ_4 and both exponents (examined up to k = 8) of the catalogue, at 20 digits."""
    import mpmath

    from fltheory.theory.hermite import analyse

    K, kmax, dps = 4, 8, 20
    rows = []
    for name in HERMITE_TABLE_FUNCTIONS:
        a = analyse(name, kmax, dps)
        rows.append([name, *(mpmath.nstr(c.numeric, 6) if not c.zero else "0"
                             for c in a.expansion.coefficients[: K + 1]),
                     str(a.information), str(a.generative)])
    latex_rows = [[r"\texttt{" + row[0] + "}", *(f"${v}$" for v in row[1:-2]),
                   *(f"${v}$" for v in row[-2:])] for row in rows]
    return Table(
        columns=["f", *(f"μ_{k}" for k in range(K + 1)), "info. exp.", "gen. exp."],
        rows=rows,
        latex_columns=["$f$", *(f"$\\mu_{k}$" for k in range(K + 1)),
                       r"$k_\star$", r"$k_\star^{\mathrm{gen}}$"],
        latex_rows=latex_rows,
        caption=("Hermite coefficients μ_k = E[f(z) h_k(z)] (orthonormal h_k = He_k/√(k!)) of "
                 "the catalogue, information and generative exponents (examined up to k = 8)."),
        latex_caption=(r"Hermite coefficients $\mu_k = \mathrm{E}[f(z)\,h_k(z)]$, "
                       r"$h_k = \mathrm{He}_k/\sqrt{k!}$, $z \sim \mathcal{N}(0,1)$, of the "
                       r"catalogue activations, with the information exponent $k_\star$ and the "
                       r"generative exponent $k_\star^{\mathrm{gen}}$ (examined up to $k = 8$)."),
        label="tab:hermite",
        align="l" + "r" * (K + 1) + "cc",
    )
