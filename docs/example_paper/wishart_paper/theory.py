"""The prediction: the largest eigenvalue of S = XᵀX/n tends to the Marchenko–Pastur edge
λ₊ = (1 + √γ)² as n, d → ∞ with d/n → γ (Marchenko & Pastur 1967; Geman 1980 for the top
eigenvalue). Its fluctuations are of order n^(−2/3) (Johnstone 2001: Tracy–Widom).
"""

from __future__ import annotations

import sympy as sp

from wishart_paper.params import Wishart

__all__ = ["edge", "edge_value"]


def edge(model: Wishart) -> sp.Expr:
    """λ₊ = (1 + √γ)², exact.

    >>> edge(Wishart("1/4"))
    9/4
    """
    return sp.expand((1 + sp.sqrt(sp.Rational(model.gamma.numerator, model.gamma.denominator)))
                     ** 2)


def edge_value(model: Wishart, dps: int = 30) -> str:
    """λ₊ at ``dps`` significant digits.

    >>> edge_value(Wishart("1/2"), 12)
    '2.91421356237'
    """
    return str(sp.N(edge(model), dps))
