"""Square integrability under N(0, 1) of a function of ``z``, decided before its Hermite
coefficients are computed.

**Square integrability** (:func:`check_square_integrable`). Hermite coefficients are defined for
f ∈ L²(N(0, 1)). The check finds the real points where f may be singular (real zeros of every
denominator, of every ``log`` argument, poles of ``tan``) with ``sympy.solveset``, and decides
each end (t → 0+ on both sides of a point p; z → ±∞) by one-sided limits with sympy:

* at a point p: f(p ± t)²·t^{9/10} → finite (f² = O(t^{−9/10}), integrable) accepts;
  f(p ± t)²·t → a positive limit or ∞ (f² >= c/t, not integrable) refuses; then
  f(p ± t)²·t^{99/100} → finite accepts;
* at ±∞: f(±t)² e^{−t²/2} t² → finite accepts; f(±t)² e^{−t²/2} t → positive or ∞ refuses;
  then f(±t)² e^{−t²/2} t^{101/100} → finite accepts.

When sympy gives neither answer (oscillating factors, a time-out), a numeric criterion decides
(mpmath at 30 digits; the result says which was used): at a point, g(t) = f(p ± t)² t^{99/100} must
not increase along t = 10^{−4}, 10^{−8}, 10^{−14}; at ±∞, the maximum of f² e^{−z²/2} z² over the
windows [2^i, 2^{i+1}], i = 5, 6, 7 (64 samples each), must decrease strictly or be below
10^{−30}. Anything else is refused with the reason. This is a sufficient test, not a necessary one:
a few L² functions on the boundary (f² ~ c·e^{z²/2}/z², decided by sympy) pass only exactly.

**Polynomial growth** (:func:`check_polynomial_growth`). E_r E f(rz)² over a radius r of
unbounded law (random features with Gaussian weights) is finite only for f of at most
polynomial growth: sympy's limits of f/z^201 at ±∞ decide (within 1 s), else the growth
exponent log2 |f(2v)/f(v)| at |v| = 400 (mpmath, 30 digits) must stay below 210.
"""

from __future__ import annotations

import math
import time
from typing import Any

import sympy as sp

from fltheory.engine.expressions import Z, _show
from fltheory.engine.timer import Timeout, time_limit
from fltheory.exact import DomainError

__all__ = ["NotSquareIntegrable", "check_polynomial_growth", "check_square_integrable",
           "singular_points"]

_T = sp.Symbol("t", positive=True)


_L2_CACHE: dict[sp.Expr, str] = {}
_L2_SYMPY_SECONDS = 20.0  # the whole sympy part of one check (solveset + limits) ...
_L2_STEP_SECONDS = 5.0    # ... and of one solveset or limit; past either, numeric criteria
_deadline = [math.inf]     # monotonic time at which the current check's sympy budget ends


def _sympy_seconds() -> float:
    return min(_L2_STEP_SECONDS, _deadline[0] - time.monotonic())


class NotSquareIntegrable(Exception):
    """A function shown not square-integrable against N(0, 1), or whose singular points cannot be
    located; :func:`check_square_integrable` turns it into a :class:`DomainError` with its
    reason."""


def check_square_integrable(expr: sp.Expr, param: str = "EXPR", shown: str | None = None) -> str:
    """Decide that E[f(z)²] < ∞ for z ~ N(0, 1), or raise :class:`DomainError` with the reason.

    Parameters: ``expr``, a sympy expression in :data:`~fltheory.engine.expressions.Z`;
    ``param`` and ``shown``, the name and the text a refusal gives the input. The criteria are
    those of the module docstring (sympy limits at the singular points and at ±∞, a numeric
    criterion when sympy cannot decide within its time budget of 20 s).
    Returns how it was decided: "exact" (sympy limits or a polynomial / piecewise-polynomial /
    bounded structure), or "numeric" (the mpmath criterion of the module docstring).

    >>> check_square_integrable(sp.exp(Z**2 / 5))
    'exact'
    >>> check_square_integrable(sp.exp(Z**2 / 4))
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: EXPR = exp(z**2/4) is not square-integrable under N(0, 1): ...
    """
    if not isinstance(expr, sp.Expr) or expr.free_symbols - {Z}:
        raise DomainError(param, _show(str(expr)), "sympy expressions in z",
                          reason="is not a sympy expression in z")
    shown = _show(shown if shown is not None else str(expr))
    if expr in _L2_CACHE:
        return _L2_CACHE[expr]
    _deadline[0] = time.monotonic() + _L2_SYMPY_SECONDS
    try:
        how = _decide_l2(expr)
    except NotSquareIntegrable as exc:
        raise DomainError(param, shown, "functions f with E[f(z)²] < ∞, z ~ N(0, 1)",
                          reason=f"is not square-integrable under N(0, 1): {exc}") from None
    _L2_CACHE[expr] = how
    return how


def _is_piecewise_polynomial(expr: sp.Expr) -> bool:
    """Built from z, numbers, + − ·, integer powers >= 0 and Abs/sign/Max/Min/Heaviside: such an
    f is bounded by a polynomial, hence in L²(N(0, 1))."""
    if not expr.has(Z) or expr == Z:
        return True
    if isinstance(expr, sp.Add | sp.Mul | sp.Abs | sp.sign | sp.Max | sp.Min | sp.Heaviside):
        return all(_is_piecewise_polynomial(a) for a in expr.args)
    if expr.is_Pow:
        return bool(expr.exp.is_Integer and expr.exp >= 0) and _is_piecewise_polynomial(expr.base)
    return False


def _decide_l2(expr: sp.Expr) -> str:
    if _is_piecewise_polynomial(expr):
        return "exact"
    points, numeric = singular_points(expr), False
    for p in points:
        for side in (1, -1):
            numeric |= _local_end(expr, p, side)
    for side in (1, -1):
        numeric |= _infinite_end(expr, side)
    return "numeric" if numeric else "exact"


def _sympy_limit(expr: sp.Expr, point: Any) -> sp.Expr | None:
    """sympy's one-sided limit in t (t > 0), or None when it fails or runs out of time."""
    seconds = _sympy_seconds()
    if seconds <= 0:
        return None
    try:
        with time_limit(seconds) as limited:
            if not limited:
                return None  # off the main thread nothing bounds sympy: numeric instead
            return sp.limit(expr, _T, point, "+")
    except Timeout:
        return None
    except Exception:  # sympy gave up (NotImplementedError, …): the numeric criterion decides
        return None


def _positive(value: sp.Expr | None) -> bool:
    return value is not None and (value == sp.oo or bool(value.is_extended_positive))


def _finite(value: sp.Expr | None) -> bool:
    return value is not None and value.is_number and bool(value.is_finite) and bool(value.is_real)


def singular_points(expr: sp.Expr) -> list[sp.Expr]:
    """Real points where f may be infinite: zeros of denominators and of log arguments, poles of
    tan, sorted. Refuses (:class:`NotSquareIntegrable`) when they fill an interval or cannot be
    located.

    >>> singular_points(1 / (Z**2 - 4) + sp.log(sp.Abs(Z)))
    [-2, 0, 2]
    """
    suspects: list[sp.Expr] = []
    for sub in sp.preorder_traversal(expr):
        if sub.is_Pow and sub.base.has(Z) and sub.exp.is_negative:
            suspects.append(sub.base)
        elif isinstance(sub, sp.log) and sub.args[0].has(Z):
            suspects.append(sub.args[0])
        elif isinstance(sub, sp.tan) and sub.args[0].has(Z):
            suspects.append(sp.cos(sub.args[0]))
        elif sub.is_Pow and sub.exp.has(Z) and not sub.exp.is_polynomial(Z):
            suspects.extend(_denominators(sub.exp))
    points: set[sp.Expr] = set()
    for g in dict.fromkeys(suspects):
        if g.is_positive or g.is_negative:
            continue
        try:
            with time_limit(max(_sympy_seconds(), 1e-3)) as limited:
                zeros = sp.solveset(g, Z, sp.Reals) if limited or sp.Poly(g, Z).degree() < 5 \
                    else None
        except (Timeout, Exception):
            zeros = None
        if zeros is None or isinstance(zeros, sp.ConditionSet):
            raise NotSquareIntegrable(f"the real zeros of {g} could not be located")
        if zeros.is_empty:
            continue
        if isinstance(zeros, sp.FiniteSet):
            if len(zeros) > 20:
                raise NotSquareIntegrable(f"{g} has more than 20 real zeros")
            points.update(zeros)
            continue
        try:
            filled = bool(zeros.measure > 0)
        except (NotImplementedError, TypeError, AttributeError):
            filled = False
        if filled:
            raise NotSquareIntegrable(f"it is infinite or undefined on {zeros} (where {g} = 0)")
        raise NotSquareIntegrable(f"it has infinitely many real singular points (where {g} = 0)")
    return sorted(points, key=lambda p: float(p))


def _denominators(expr: sp.Expr) -> list[sp.Expr]:
    return [sub.base for sub in sp.preorder_traversal(expr)
            if sub.is_Pow and sub.base.has(Z) and sub.exp.is_negative]


def _local_end(expr: sp.Expr, p: sp.Expr, side: int) -> bool:
    """Square integrability of f on one side of a singular point p; True if numeric."""
    where = f"z → {p}{'+' if side > 0 else '-'}"
    gap = f"|{Z - p}|"
    f2 = expr.subs(Z, p + side * _T) ** 2
    if _finite(_sympy_limit(f2 * _T ** sp.Rational(9, 10), 0)):
        return False
    if _positive(_sympy_limit(f2 * _T, 0)):
        raise NotSquareIntegrable(f"f(z)² >= c/{gap} as {where} (sympy limit)")
    if _finite(_sympy_limit(f2 * _T ** sp.Rational(99, 100), 0)):
        return False
    import mpmath

    fn = sp.lambdify(_T, f2 * _T ** sp.Rational(99, 100), modules="mpmath")
    try:
        with mpmath.workdps(30):
            g = [abs(fn(mpmath.mpf(10) ** -j)) for j in (4, 8, 14)]
    except Exception:
        raise NotSquareIntegrable(f"f could not be evaluated near {p}") from None
    if not (g[2] <= g[1] <= g[0] and all(mpmath.isfinite(v) for v in g)):
        raise NotSquareIntegrable(f"f(z)²·{gap}^(99/100) does not decrease as {where} (numeric)")
    return True


def _infinite_end(expr: sp.Expr, side: int) -> bool:
    """Square integrability of f φ at +∞ (side 1) or −∞ (side −1); True if numeric."""
    where = "+∞" if side > 0 else "−∞"
    f2phi = expr.subs(Z, side * _T) ** 2 * sp.exp(-_T**2 / 2)
    if _finite(_sympy_limit(f2phi * _T**2, sp.oo)):
        return False
    if _positive(_sympy_limit(f2phi * _T, sp.oo)):
        raise NotSquareIntegrable(f"f(z)² e^(−z²/2) >= c/|z| as z → {where} (sympy limit)")
    if _finite(_sympy_limit(f2phi * _T ** sp.Rational(101, 100), sp.oo)):
        return False
    import mpmath

    fn = sp.lambdify(_T, f2phi * _T**2, modules="mpmath")
    maxima = []
    try:
        with mpmath.workdps(30):
            for i in (5, 6, 7):
                lo = mpmath.mpf(2) ** i
                maxima.append(max(abs(fn(lo + lo * j / 64)) for j in range(64)))
    except Exception:
        raise NotSquareIntegrable(f"f could not be evaluated towards {where}") from None
    if all(m < mpmath.mpf(10) ** -30 for m in maxima) or maxima[2] < maxima[1] < maxima[0]:
        return True
    shown = ", ".join(mpmath.nstr(m, 3) for m in maxima)
    raise NotSquareIntegrable(f"f(z)² e^(−z²/2) z² does not decrease towards {where} (numeric: "
                              f"window maxima {shown} on [32, 256])")


def check_polynomial_growth(expr: sp.Expr, shown: str, param: str = "sigma") -> None:
    """Refuse (:class:`DomainError` naming ``param`` = ``shown``) a function of ``z`` that grows
    faster than any polynomial: E_r E f(rz)² is then infinite for a radius r of unbounded law
    (the module docstring says how it is decided).

    >>> check_polynomial_growth(sp.tanh(Z), "tanh")
    >>> check_polynomial_growth(sp.exp(Z), "exp(z)")
    Traceback (most recent call last):
    fltheory.exact.DomainError: sigma = exp(z) grows faster than any polynomial: ...
    """
    if expr.is_polynomial(Z):
        return
    verdict = None
    try:
        with time_limit(1.0):  # gelu's limit takes > 5 s; the numeric test decides then
            verdict = all(sp.limit(expr / Z**201, Z, side) == 0 for side in (sp.oo, -sp.oo))
    except (Timeout, NotImplementedError, ValueError, TypeError):
        verdict = None
    if verdict is None:  # numeric fallback: the growth exponent from |z| = 400 to 800
        import mpmath

        fn = sp.lambdify(Z, expr, modules="mpmath")
        with mpmath.workdps(30):
            def exponent(v: int) -> Any:
                a, b = abs(fn(mpmath.mpf(v))) + 1, abs(fn(mpmath.mpf(2 * v))) + 1
                return mpmath.log(b / a, 2)

            verdict = all(exponent(v) <= 210 for v in (400, -400))
    if not verdict:
        raise DomainError(param, shown, "activations of at most polynomial growth",
                          reason="grows faster than any polynomial: E_w K(w, w) = "
                                 "E_r E σ(rz)² is infinite for the unbounded law of r = ‖w‖")
