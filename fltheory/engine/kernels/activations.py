r"""An activation as the kernel recursions take it, and its Hermite coefficients in bulk.

:func:`activation_form` sorts a parsed σ into the families the NNGP/NTK recursions treat
differently (:mod:`~fltheory.engine.kernels.networks`):

* ``linear``: σ = a·relu(z) + c·relu(−z) (relu, abs, leaky relu, z itself): its dual is a
  combination of the arc-cosine kernel κ_1 at ±ρ, exact at every depth's first layer;
* ``step``: σ = a·1{z > 0} + c·1{z < 0} (sign, Heaviside): κ_0 at ±ρ;
* ``polynomial``: exact rational Hermite coefficients, exact kernels at every depth;
* ``smooth``: no kink (no Abs, sign, Max, Min, Heaviside): Hermite coefficients by
  :func:`hermite_bulk`;
* ``kinked``: anything else (not offered by the kernel recursions).

:func:`hermite_bulk` computes μ_0 … μ_J of a smooth σ at once. With the Hermite functions
ψ_j(z) = h_j(z) e^{−z²/4} (2π)^{−1/4} (orthonormal in L²(dz), |ψ_j| <= 1.09 (2π)^{−1/4} for every
j and z: Cramér's inequality), μ_j = (2π)^{−1/4} ∫ σ(z) ψ_j(z) e^{−z²/4} dz. The trapezoidal rule
with step h on |z| <= Z converges geometrically for σ analytic in a strip around ℝ (Trefethen &
Weideman 2014, SIAM Rev. 56, Thm. 5.1), and the truncation at Z costs at most
|σ| e^{−Z²/4} · 2 (whatever j, by Cramér's inequality). Each μ_j is computed with two steps,
h and 2h/3, and the digits on which they agree are the ones reported; ψ_j runs by its
three-term recursion in fixed point (Python integers, one rounding per step, bounded values).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

__all__ = ["ActivationForm", "HermiteBulk", "activation_form", "hermite_bulk"]


@dataclass(frozen=True)
class ActivationForm:
    """The family of σ (module docstring) and what the recursions need of it: ``a``, ``c`` for
    ``linear`` and ``step``; ``coefficients`` (rationals, degree 0 first) for ``polynomial``."""

    family: str
    expr: Any
    a: Fraction = Fraction(0)
    c: Fraction = Fraction(0)
    coefficients: tuple[Fraction, ...] = ()


def _rational(value: Any) -> Fraction | None:
    import sympy as sp

    value = sp.nsimplify(value) if not isinstance(value, sp.Basic) else value
    if isinstance(value, sp.Rational):
        return Fraction(int(value.p), int(value.q))
    return None


def activation_form(expr: Any) -> ActivationForm:
    """The family of the sympy expression σ(z) (module docstring).

    >>> from fltheory.engine.expressions import parse_expression
    >>> [activation_form(parse_expression(s)).family for s in ("relu", "abs", "sign", "z**3 - z",
    ...                                                         "tanh", "relu(z)**2")]
    ['linear', 'linear', 'step', 'polynomial', 'smooth', 'kinked']
    """
    import sympy as sp

    from fltheory.engine.expressions import Z
    from fltheory.engine.hermite.exact import _KINK_ATOMS, _piecewise_pairs

    if expr.is_polynomial(Z):
        poly = sp.Poly(expr, Z)
        coeffs = [_rational(c) for c in reversed(poly.all_coeffs())]
        if all(c is not None for c in coeffs):
            return ActivationForm("polynomial", expr, coefficients=tuple(
                c for c in coeffs if c is not None))
        return ActivationForm("smooth", expr)
    if not expr.has(*_KINK_ATOMS):
        return ActivationForm("smooth", expr)
    pairs = _piecewise_pairs(expr)
    if pairs is not None:
        breaks = {p for _, where in pairs for p in (where.start, where.end)
                  if p.is_finite}
        if breaks <= {0}:
            pos = [sp.Poly(piece, Z) for piece, where in pairs if where.start >= 0]
            neg = [sp.Poly(piece, Z) for piece, where in pairs if where.end <= 0]
            if pos and neg:
                p, n = pos[-1], neg[0]
                for family, degree in (("linear", 1), ("step", 0)):
                    if all(d <= degree for d in (p.degree(), n.degree())) and all(
                            q.as_expr().subs(Z, 0) == 0 or degree == 0 for q in (p, n)):
                        a = _rational(p.as_expr().subs(Z, 1))
                        c = _rational(n.as_expr().subs(Z, -1))
                        same = (p.as_expr() - (a or 0) * Z**degree).expand() == 0 and (
                            n.as_expr() - (c or 0) * (-Z)**degree).expand() == 0
                        if a is not None and c is not None and same and (a or c):
                            return ActivationForm(family, expr, a=a, c=c)
    return ActivationForm("kinked", expr)


@dataclass(frozen=True)
class HermiteBulk:
    """μ_0 … μ_J of σ (orthonormal basis, E[σ h_j]) with ``errors[j]`` (the difference of the
    two steps, plus the truncation at Z); ``norm2`` = E[σ²] and ``reflected`` = E[σ(z)σ(−z)]
    (same rule), with their ``norm_error``; the grid (``step``, ``cutoff``, ``nodes``)."""

    mu: tuple[Any, ...]
    errors: tuple[Any, ...]
    norm2: Any
    reflected: Any
    norm_error: Any
    step: Any
    cutoff: Any
    nodes: int


def _cutoff(fn: Callable[[Any], Any], wdps: int) -> Any:
    """Z with |σ(±Z)| e^{−Z²/4} <= 10^{−wdps}, σ of at most exponential growth."""
    Z = mpmath.sqrt(4 * (wdps + 2) * mpmath.log(10))
    for _ in range(60):
        size = max(abs(fn(Z)), abs(fn(-Z)), 1)
        if size * mpmath.exp(-Z * Z / 4) <= mpmath.mpf(10) ** (-wdps):
            return Z
        Z += 1
    return Z


def _trapezoid(fn: Callable[[Any], Any], J: int, h: Any, Z: Any, P: int
               ) -> tuple[list[Any], Any, Any]:
    """μ_0 … μ_J, E[σ²] and E[σ(z)σ(−z)] by the trapezoidal rule of step h on [−Z, Z]."""
    n = int(mpmath.floor(Z / h))
    scale = mpmath.mpf(2) ** P
    c0 = (2 * mpmath.pi) ** (-mpmath.mpf(1) / 4)
    sqrt = [int(mpmath.nint(mpmath.sqrt(j) * scale)) for j in range(J + 2)]
    inv = [0] + [int(mpmath.nint(scale / mpmath.sqrt(j))) for j in range(1, J + 2)]
    acc = [0] * (J + 1)
    norm2 = mpmath.mpf(0)
    reflected = mpmath.mpf(0)
    for i in range(0, n + 1):
        z = i * h
        g = mpmath.exp(-z * z / 4) * c0  # ψ_0(z); g² = φ(z)
        fp, fm = fn(z), fn(-z)
        w = h if i else h / 2  # the centre node is visited once for both signs
        norm2 += w * (fp * fp + fm * fm) * g * g
        reflected += w * 2 * fp * fm * g * g
        # σ(z)ψ_j(z) + σ(−z)ψ_j(−z) = ψ_j(z)(σ(z) ± σ(−z)), + for even j (ψ_j(−z) = (−1)^j ψ_j(z))
        even = int(mpmath.nint((fp + fm) * w * g * scale))
        odd = int(mpmath.nint((fp - fm) * w * g * scale))
        zi = int(mpmath.nint(z * scale))
        prev, cur = 0, int(mpmath.nint(g * scale))  # ψ_{−1} = 0, ψ_0(z)
        for j in range(J + 1):
            acc[j] += (even if j % 2 == 0 else odd) * cur
            nxt = ((zi * cur >> P) - (sqrt[j] * prev >> P)) * inv[j + 1] >> P
            prev, cur = cur, nxt
    mu = [mpmath.mpf(a) / scale / scale for a in acc]
    return mu, norm2, reflected


def hermite_bulk(fn: Callable[[Any], Any], J: int, dps: int, strip: Any = None) -> HermiteBulk:
    """μ_0 … μ_J of a smooth σ (an mpmath function of a real z), E[σ²] and E[σ(z)σ(−z)], each
    with an error estimate (module docstring). ``strip``: a half-width of analyticity around ℝ
    that the step is chosen for (default 1/2: the step only costs time; the agreement of the
    two steps is what confirms the digits).

    >>> b = hermite_bulk(lambda z: z**3, 4, 20)
    >>> [mpmath.nstr(m, 12) for m in b.mu], mpmath.nstr(b.norm2, 12)
    (['0.0', '3.0', '0.0', '2.44948974278', '0.0'], '15.0')
    """
    wdps = dps + 10
    P = math.ceil((wdps + 10) * math.log2(10))
    with mpmath.workdps(wdps + 10):
        a = mpmath.mpf(strip) if strip is not None else mpmath.mpf(1) / 2
        Z = _cutoff(fn, wdps)
        # error of the rule ~ exp(a√J − 2πa/h): choose 2πa/h = a√(2J+1) + wdps ln 10 + 5
        h = 2 * mpmath.pi * a / (a * mpmath.sqrt(2 * J + 1) + (wdps + 5) * mpmath.log(10))
        fine = _trapezoid(fn, J, h * 2 / 3, Z, P)
        coarse = _trapezoid(fn, J, h, Z, P)
        floor_ = mpmath.mpf(10) ** (-wdps) * 4
        errors = [abs(x - y) + floor_ for x, y in zip(fine[0], coarse[0], strict=True)]
        norm_error = abs(fine[1] - coarse[1]) + abs(fine[2] - coarse[2]) + floor_
        mu = [+m for m in fine[0]]
        return HermiteBulk(tuple(mu), tuple(+e for e in errors), +fine[1], +fine[2],
                           +norm_error, h * 2 / 3, Z, 2 * int(Z / (h * 2 / 3)) + 1)
