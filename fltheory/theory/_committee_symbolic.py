"""The sympy derivation behind :func:`fltheory.theory.committee_equations.equations` (private).

Every average is the activation's exact form (:meth:`GaussianAverages.symbolic`) with the
covariance entries of the fields it involves substituted by the overlap symbols Q_ik
(i <= k), R_in, T_nm (n <= m)."""

from __future__ import annotations

import time
from typing import Any

import sympy as sp

from fltheory.exact import check_cost

#: measured seconds per I4 term substitution and expansion for polynomial g (this machine,
#: 2 shared cores); the derivation is refused above SYMBOLIC_SECONDS_LIMIT
_SECONDS_PER_TERM = 2e-4
SYMBOLIC_SECONDS_LIMIT = 120.0


def symbols(K: int, M: int) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Symbol]:
    """Q (K × K symmetric), R (K × M), T (M × M symmetric) and η as sympy symbols."""
    Q = sp.Matrix(K, K, lambda i, j: sp.Symbol(f"Q_{min(i, j) + 1}{max(i, j) + 1}", real=True))
    R = sp.Matrix(K, M, lambda i, j: sp.Symbol(f"R_{i + 1}{j + 1}", real=True))
    T = sp.Matrix(M, M, lambda i, j: sp.Symbol(f"T_{min(i, j) + 1}{max(i, j) + 1}", real=True))
    return Q, R, T, sp.Symbol("eta", positive=True)


def derive(model: Any, order: int) -> dict[str, Any]:
    """dQ, dR, eps_g, symbols and terms for :class:`CommitteeEquations`."""
    av = model.averages
    K, M = model.K, model.M
    n = K + M
    pairs = n * (n + 1) // 2 * K * (K + 1) // 2
    if av.kind == "polynomial":
        check_cost(f"g = {model.g}, K = {K}, M = {M} (symbolic derivation)",
                   pairs * len(av.tables["i4"].coef) * _SECONDS_PER_TERM,
                   SYMBOLIC_SECONDS_LIMIT, "seconds (estimated)", "lower K, M or the degree")
    Q, R, T, eta = symbols(K, M)
    C = sp.Matrix(sp.BlockMatrix([[Q, R], [R.T, T]]))
    a = [sp.Rational(v.numerator, v.denominator) for v in model.a]
    w = [-v for v in a] + [sp.Rational(v.numerator, v.denominator) for v in model.a_star]
    sigma2 = sp.Rational(model.noise.numerator, model.noise.denominator) ** 2
    kappa = sp.Rational(model.weight_decay.numerator, model.weight_decay.denominator)
    cache: dict[tuple[str, tuple[int, ...]], sp.Expr] = {}
    terms: list[tuple[str, Any, str, tuple[int, ...], Any]] = []

    def avg(kind: str, idx: tuple[int, ...]) -> sp.Expr:
        key = (kind, idx)
        if key not in cache:
            cache[key] = av.symbolic(kind, lambda p, q: C[idx[p - 1], idx[q - 1]])
        return cache[key]

    def i3_sum(target: str, i: int, t: int, coef: sp.Expr) -> sp.Expr:
        total = sp.Integer(0)
        for c in range(n):
            expr = avg("i3", (i, t, c))
            terms.append((target, coef * w[c], "I3", (i, t, c), expr))
            total += coef * w[c] * expr
        return total

    dR = sp.zeros(K, M)
    for i in range(K):
        for m in range(M):
            dR[i, m] = i3_sum(f"dR[{i},{m}]", i, K + m, eta * a[i]) - eta * kappa * R[i, m]
    dQ = sp.zeros(K, K)
    for i in range(K):
        for k in range(i, K):
            target = f"dQ[{i},{k}]"
            val = i3_sum(target, i, k, eta * a[i]) + i3_sum(target, k, i, eta * a[k])
            if order == 2:
                coef = eta**2 * a[i] * a[k]
                for c in range(n):
                    for e in range(n):
                        expr = avg("i4", (i, k, min(c, e), max(c, e)))
                        terms.append((target, coef * w[c] * w[e], "I4", (i, k, c, e), expr))
                        val += coef * w[c] * w[e] * expr
                if sigma2:
                    expr = avg("i2", (i, k))
                    terms.append((target, coef * sigma2, "I2", (i, k), expr))
                    val += coef * sigma2 * expr
            val -= 2 * eta * kappa * Q[i, k]
            dQ[i, k] = dQ[k, i] = _tidy(val, av.kind)
    for i in range(K):
        for m in range(M):
            dR[i, m] = _tidy(dR[i, m], av.kind)
    eps = sp.Rational(1, 2) * sum(w[c] * w[e] * avg("e2", (c, e))
                                  for c in range(n) for e in range(n))
    return {"dQ": dQ, "dR": dR, "eps_g": _tidy(eps, av.kind),
            "symbols": {"Q": Q, "R": R, "T": T, "eta": eta}, "terms": terms}


def _tidy(expr: sp.Expr, kind: str) -> sp.Expr:
    return sp.expand(expr) if kind == "polynomial" else expr


def timed_derivation(model: Any, order: int = 2) -> float:
    """Seconds :func:`derive` takes (for the measurement the issue asks for)."""
    start = time.perf_counter()
    derive(model, order)
    return time.perf_counter() - start
