"""Numeric Gaussian expectations for the Hermite engine's ``numeric:quad`` path: mpmath tanh-sinh
quadrature of E[f(z) He_k(z)], z ~ N(0, 1), split at the kinks of f (the real zeros of the
arguments of Abs, sign, Max, Min, Heaviside, Piecewise), at a working precision given in digits.

The engine evaluates each coefficient at ``dps`` + 10 and ``dps`` + 25 digits and reports the digits
on which the two agree (:mod:`fltheory.engine.hermite.coefficients`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import sympy as sp

from fltheory.args import read_count
from fltheory.engine.expressions import Z
from fltheory.engine.hermite.bounds import K_MAX
from fltheory.engine.hermite.exact import _KINK_ATOMS, _is_polynomial, _to_poly
from fltheory.exact import check_dps

__all__ = ["kink_points", "quad_expectation"]


def kink_points(expr: sp.Expr) -> list[sp.Expr]:
    """Real points where f may fail to be smooth: zeros of the arguments of Abs/sign/…, sorted.

    >>> kink_points(sp.Abs(Z - 1) + sp.Max(Z, 0))
    [0, 1]
    """
    points: set[sp.Expr] = set()
    for atom in expr.atoms(*_KINK_ATOMS):
        if isinstance(atom, sp.Max | sp.Min):
            args = [atom.args[i] - atom.args[j] for i in range(len(atom.args))
                    for j in range(i + 1, len(atom.args))]
        elif isinstance(atom, sp.Piecewise):
            args = [rel.lhs - rel.rhs for _, cond in atom.args
                    for rel in cond.atoms(sp.core.relational.Relational)]
        else:
            args = [atom.args[0]]
        for arg in args:
            if _is_polynomial(arg) and arg.has(Z):
                points.update(r for r in _to_poly(arg).real_roots())
    return sorted(points, key=lambda p: float(p))


def _mp_function(expr: sp.Expr) -> Callable[[Any], Any]:
    return sp.lambdify(Z, expr, modules="mpmath")


def _mp_He(k: int, x: Any) -> Any:
    """He_k(x) by the three-term recursion He_{j+1} = x He_j − j He_{j−1}."""
    prev, cur = mpmath.mpf(1), x
    if k == 0:
        return prev
    for j in range(1, k):
        prev, cur = cur, x * cur - j * prev
    return cur


def _quad_expectation(fn: Callable[[Any], Any], k: int, points: list[Any], dps: int,
                      cache: dict[Any, Any] | None = None) -> tuple[Any, Any]:
    """E[f(z) He_k(z)] by tanh-sinh quadrature at ``dps`` digits, split at ``points``.

    ``cache`` memoises f(x)·e^{−x²/2} by node: the quadrature nodes are the same for every k at
    one precision, so the coefficients of one function share their function evaluations.
    """
    memo: dict[Any, tuple[Any, list[Any]]] = {} if cache is None else cache

    def integrand(x: Any) -> Any:
        entry = memo.get(x)
        if entry is None:
            entry = memo[x] = (fn(x) * mpmath.exp(-x * x / 2), [mpmath.mpf(1), x])
        weight, He = entry
        while len(He) <= k:  # He_{j+1} = x He_j − j He_{j−1}, extended once per node
            j = len(He) - 1
            He.append(x * He[j] - j * He[j - 1])
        return weight * He[k]

    with mpmath.workdps(dps):
        cuts = [mpmath.mpf(sp.N(p, dps + 5)) for p in points] or [mpmath.mpf(0)]
        nodes = [-mpmath.inf, *cuts, mpmath.inf]
        value, err = mpmath.quad(integrand, nodes, error=True, maxdegree=10)
        norm = mpmath.sqrt(2 * mpmath.pi)
        return value / norm, err / norm


def quad_expectation(f: str | sp.Expr, k: int = 0, dps: int = 30) -> tuple[Any, Any]:
    """E[f(z) He_k(z)], z ~ N(0, 1), by tanh-sinh quadrature split at the kinks of f.

    Parameters: ``f``, a catalogue name, an expression in z or a sympy expression (parsed and
    checked by :func:`fltheory.engine.functions.parse_function`); ``k``, the degree of the
    probabilists' Hermite polynomial He_k, in [0, 60]; ``dps``, the working precision in
    significant digits, in [5, 100]. Returns ``(value, error)``: two mpmath numbers at ``dps``
    digits, the quadrature's value of ∫ f He_k φ and mpmath's estimate of its error.

    >>> value, error = quad_expectation("relu", 1, dps=15)
    >>> mpmath.nstr(value, 12), error < 1e-12
    ('0.5', True)
    """
    from fltheory.engine.functions import parse_function

    read_count(k, "k", 0, K_MAX)
    check_dps(dps)
    expr = parse_function(f).expr
    return _quad_expectation(_mp_function(expr), k, kink_points(expr), dps)
