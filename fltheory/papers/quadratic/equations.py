r"""The ODEs of one-pass SGD in quadratic networks (Bocchi et al. 2026), derived from the model.

Two independent forms of the same equations: element by element from the SGD update by
Isserlis' theorem (:func:`derive_elementwise`, sympy, exact), and in matrix form
(:func:`rhs_matrix`, :func:`loss_matrix`, numpy), which the integration uses and the tests
check against the element-wise derivation. Model and conventions:
:mod:`fltheory.papers.quadratic.theory`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from numbers import Integral
from typing import Any

import numpy as np
import sympy as sp

from fltheory.args import read_count, read_matrix, read_real
from fltheory.exact import DomainError, check_cost

__all__ = ["MAX_MATCHINGS", "derive_elementwise", "loss_matrix", "rhs_matrix",
           "wick_expectation"]

#: Perfect matchings :func:`wick_expectation` may enumerate: (m − 1)!! for m indices; 10^6
#: admits m = 14 (135135 matchings, 0.1 s with integer entries) and refuses m = 16 (about
#: 2·10^6) — the derivation of the ODEs needs m <= 6.
MAX_MATCHINGS = 10**6

def wick_expectation(indices: Sequence[int], cov: Any) -> Any:
    """E[z_{i1} ⋯ z_{ik}] for a centred Gaussian vector, by Isserlis' theorem (sum over perfect
    matchings of the covariance entries ``cov[i][j]``): exact for exact entries (sympy
    symbols, Fractions), 0 for an odd number of indices. ``indices``: integers in
    [0, len(cov)).

    >>> wick_expectation([0, 0, 1, 1], [[2, 1], [1, 3]])
    8

    The sum has (m − 1)!! terms for m indices: more than :data:`MAX_MATCHINGS` is refused
    (a :class:`~fltheory.exact.CostError`, a DomainError, with the estimate) before any work.
    """
    try:
        m = len(indices)
        n = len(cov)
    except TypeError:
        raise DomainError("indices", str(indices)[:40], "a sequence of integer indices and a "
                          "square covariance") from None
    if m % 2 == 0:
        log_count = math.lgamma(m + 1) - (m / 2) * math.log(2) - math.lgamma(m / 2 + 1)
        check_cost(f"indices = {m} indices", math.exp(min(log_count, 700.0)), MAX_MATCHINGS,
                   "perfect matchings (Isserlis' theorem)", "fewer indices")
    if any(isinstance(i, bool) or not isinstance(i, Integral) for i in indices):
        raise DomainError("indices", str(indices)[:40], f"integers in [0, {n})",
                          reason="are not integers")
    idx = [int(i) for i in indices]
    if any(not 0 <= i < n for i in idx):
        raise DomainError("indices", str(idx)[:40], f"integers in [0, {n})")
    if m % 2:
        return 0
    return _wick(tuple(sorted(idx)), cov)


def _wick(idx: tuple[int, ...], cov: Any) -> Any:
    if not idx:
        return 1
    first, rest = idx[0], idx[1:]
    total = 0
    for j in range(len(rest)):
        total += cov[first][rest[j]] * _wick(rest[:j] + rest[j + 1:], cov)
    return total


def _symbols(p: int, p_star: int) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    Q = sp.Matrix(p, p, lambda i, j: sp.Symbol(f"Q_{min(i, j) + 1}{max(i, j) + 1}", real=True))
    R = sp.Matrix(p, p_star, lambda i, j: sp.Symbol(f"rho_{i + 1}{j + 1}", real=True))
    T = sp.Matrix(p_star, p_star,
                  lambda i, j: sp.Symbol(f"T_{min(i, j) + 1}{max(i, j) + 1}", real=True))
    return Q, R, T


@lru_cache(maxsize=32)
def derive_elementwise(p: int, p_star: int) -> dict[str, Any]:
    """dQ/dt, dρ/dt and the loss, derived element by element from the SGD update by Isserlis.

    Returns a dict of sympy expressions ``dQ`` (p × p), ``drho`` (p × p*), ``loss`` and the
    ``symbols`` Q_kl, rho_km, T_mn, a, b, eta_w, sigma (cached by (p, p*)). Polynomials in the
    fields are expanded and every monomial's expectation is a sum over pairings of covariance
    entries. Integers p, p* >= 1, p + p* <= 6 (cost bound, checked first).

    >>> d = derive_elementwise(1, 1)
    >>> d["drho"][0, 0].factor()
    -6*a*eta_w*rho_11*(Q_11*a - T_11*b)
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    # measured: 1.2 s, 2.3 s, 4.3 s for p + p* = 4, 5, 6 fields; 12.7 s (5, 1) and 15.8 s
    # (4, 3) at 7 on a loaded machine: ≈ 1.2·2.3^(p + p* − 4), above each
    check_cost(f"p + p* = {p + p_star} (symbolic derivation)",
               1.2 * 2.3 ** min(p + p_star - 4, 500), 10.0, "seconds (estimated)",
               "p + p* <= 6")
    Q, R, T = _symbols(p, p_star)
    n = p + p_star
    cov = [[(Q[i, j] if i < p and j < p else R[i, j - p] if i < p else
             R[j, i - p] if j < p else T[i - p, j - p]) for j in range(n)] for i in range(n)]
    a, b, eta, sigma = sp.symbols("a b eta_w sigma", real=True)
    zs = sp.symbols(f"z0:{n}", real=True)

    def E(poly_expr: sp.Expr) -> sp.Expr:
        poly = sp.Poly(sp.expand(poly_expr), *zs)
        total = sp.Integer(0)
        for monom, coef in poly.terms():
            idx = [i for i, power in enumerate(monom) for _ in range(power)]
            total += coef * wick_expectation(idx, cov)
        return sp.expand(total)

    lam, nu = zs[:p], zs[p:]
    err = a * sum(lk**2 for lk in lam) - b * sum(nm**2 for nm in nu)
    # ξ is independent and centred: E[(err − σξ)² g] = E[err² g] + σ² E[g]
    dQ = sp.Matrix(p, p, lambda k, l: -4 * a * eta * E(err * lam[k] * lam[l])
                   + 4 * a**2 * eta**2 * (E(err**2 * lam[k] * lam[l])
                                          + sigma**2 * E(lam[k] * lam[l])))
    dR = sp.Matrix(p, p_star, lambda k, m: -2 * a * eta * E(err * lam[k] * nu[m]))
    loss = (E(err**2) + sigma**2) / 2
    return {"dQ": dQ, "drho": dR, "loss": sp.expand(loss),
            "symbols": {"Q": Q, "rho": R, "T": T, "a": a, "b": b, "eta_w": eta, "sigma": sigma}}


def rhs_matrix(Q: np.ndarray, R: np.ndarray, T: np.ndarray, a: float, b: float, eta_w: float,
               sigma: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """dQ/dt and dρ/dt in matrix form (numpy floats; the formulas of
    :mod:`fltheory.papers.quadratic.theory`): the block right side of
    :mod:`fltheory.papers.quadratic.rhs` on the full state (no bulk, q = 0). Q p × p, ρ p × p*,
    T p* × p* finite; a, b, η_w, σ finite reals.

    >>> dQ, dR = rhs_matrix(np.eye(1) / 2, np.full((1, 1), 0.1), np.eye(1), 1.0, 1.0, 0.1)
    >>> round(float(dQ[0, 0]), 6), round(float(dR[0, 0]), 6)
    (-0.017, 0.03)
    """
    from fltheory.papers.quadratic.rhs import block_rhs

    R = read_matrix(R, "R")
    p, ps = R.shape
    Q, T = read_matrix(Q, "Q", (p, p)), read_matrix(T, "T", (ps, ps))
    a, b, eta_w, sigma = (read_real(v, n) for v, n in ((a, "a"), (b, "b"), (eta_w, "eta_w"),
                                                   (sigma, "sigma")))
    d = block_rhs(np.concatenate([[0.0], Q.ravel(), R.ravel()]), p, ps, 0, a, b, eta_w,
                  sigma**2, np.asarray(T, float))
    return d[1:1 + p * p].reshape(p, p), d[1 + p * p:].reshape(p, ps)


def loss_matrix(Q: np.ndarray, R: np.ndarray, T: np.ndarray, a: float, b: float,
                sigma: float = 0.0) -> float:
    """Population loss ½E[(f − y)²] = ½(tr(𝒜C)² + 2 tr((𝒜C)²) + σ²), 𝒜 = diag(a I_p, −b I_p*),
    C = [[Q, ρ], [ρᵀ, T]] (a float).

    >>> loss_matrix(np.eye(1), np.zeros((1, 1)), np.eye(1), 1.0, 1.0)
    2.0
    """
    from fltheory.papers.quadratic.rhs import block_matrix, block_traces

    R = read_matrix(R, "R")
    p, ps = R.shape
    Q, T = read_matrix(Q, "Q", (p, p)), read_matrix(T, "T", (ps, ps))
    a, b, sigma = read_real(a, "a"), read_real(b, "b"), read_real(sigma, "sigma")

    t1, tr2 = block_traces(block_matrix(Q, R, T), Q.shape[0], 0, a, b, 0.0)
    return float(0.5 * (t1**2 + 2 * tr2 + sigma**2))
