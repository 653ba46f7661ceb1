"""Expression kernels to every printed digit at high degree and large d.

References, computed independently of the package:
- the Gaussian RBF on the sphere, κ(t) = exp(s(t − 1)), has the closed form
  μ_k = e^(−s) Γ(d/2) (2/s)^(d/2 − 1) I_(k + d/2 − 1)(s) (Funk–Hecke with the generating
  integral of the modified Bessel function; Minh, Niyogi & Yao 2006), evaluated with
  mpmath's besseli at 60 digits;
- the Laplace kernel exp(−√(2 − 2t)) by mpmath's Gauss–Legendre quadrature in θ = arccos t
  of κ(cos θ) P_k(cos θ) sin^(d−2)θ at 50 digits on k + 5 panels (P_k from mpmath's
  gegenbauer / legendre, not the package's recursion or its tanh-sinh rule).
The RBF values fall to 10⁻⁴⁰⁹ (d = 10, k = 200) and 10⁻¹¹⁶⁶ (d = 10⁶): before the
working precision followed them, exp(2t − 2) confirmed no digit past k ≈ 37 at d = 3.
"""

from __future__ import annotations

import mpmath
import pytest

from fltheory.engine.kernels.expression import expression_eigenvalues
from fltheory.engine.kernels.moments import confirmed_digits
from fltheory.engine.kernels.parse import parse_kernel


def _rbf(s: mpmath.mpf, d: int, k: int) -> mpmath.mpf:
    h = mpmath.mpf(d) / 2
    return mpmath.exp(-s) * mpmath.gamma(h) * (2 / s) ** (h - 1) * mpmath.besseli(k + h - 1, s)


def _agree(value, reference, digits: int) -> bool:
    """``value`` and ``reference`` agree to ``digits`` significant digits (one unit of the
    last printed digit)."""
    if digits == 0:
        return True
    return abs(value - reference) <= abs(reference) * mpmath.mpf(10) ** (1 - digits)


@pytest.mark.parametrize("d, kmax", [(3, 200), (10, 120), (10**6, 200)])
def test_rbf_every_degree_every_digit(d, kmax):
    e = expression_eigenvalues(parse_kernel("exp(3*t/2 - 3/2)"), d, kmax, 30)
    with mpmath.workdps(60):
        s = mpmath.mpf(3) / 2
        for k in range(kmax + 1):
            digits = confirmed_digits(e.values[k], e.bounds[k], 30)
            assert digits == 30, (d, k, digits)
            assert _agree(e.values[k], _rbf(s, d, k), digits), (d, k)


def _laplace_quad(d: int, k: int) -> mpmath.mpf:
    with mpmath.workdps(50):
        lam = mpmath.mpf(d - 2) / 2

        def P(t):
            if d == 3:
                return mpmath.legendre(k, t)
            return mpmath.gegenbauer(k, lam, t) / mpmath.gegenbauer(k, lam, 1)

        def f(th):
            c = mpmath.cos(th)
            return mpmath.exp(-2 * mpmath.sin(th / 2)) * P(c) * mpmath.sin(th) ** (d - 2)

        pts = mpmath.linspace(0, mpmath.pi, k + 5)
        num = mpmath.quad(f, pts, method="gauss-legendre")
        den = mpmath.quad(lambda th: mpmath.sin(th) ** (d - 2), [0, mpmath.pi])
        return num / den


@pytest.mark.parametrize("d, ks", [(3, (0, 1, 7, 40)), (10, (0, 3, 25, 50))])
def test_laplace_kernel_every_digit(d, ks):
    """The Laplace kernel is singular at t = 1: its Taylor tail falls like a power of J (0–2
    digits at k >= 20 before); in θ it is exp(−2 sin(θ/2)), analytic, and the θ rules give
    every digit."""
    e = expression_eigenvalues(parse_kernel("exp(-sqrt(2 - 2*t))"), d, max(ks), 30)
    for k in ks:
        digits = confirmed_digits(e.values[k], e.bounds[k], 30)
        assert digits >= 28, (d, k, digits)
        assert _agree(e.values[k], _laplace_quad(d, k), digits), (d, k)


def test_kernel_with_a_finite_odd_part_stops_raising_precision():
    """exp(t²) + t: its odd μ_k >= 3 are 0 (no odd coefficient past 1); the precision is
    raised only while a raise finds new non-zero values, so the answer comes at once."""
    from fltheory.engine.kernels.series import MAX_EXTRA, series_eigenvalues

    seen = []
    f = parse_kernel("exp(t**2) + t")
    import sympy as sp

    from fltheory.engine.expressions import Z
    fn = sp.lambdify(Z, f, modules="mpmath")
    s = series_eigenvalues(fn, mpmath.e + 1, mpmath.e - 1, 10, 20, 30, relative=True,
                           progress=seen.append)
    assert all(v == 0 for v in s.spectrum.values[3::2])
    assert all(confirmed_digits(v, b, 30) == 30 for v, b in
               zip(s.spectrum.values[0::2], s.spectrum.bounds[0::2], strict=True))
    assert not any(f"at {30 + MAX_EXTRA} digits" in m for m in seen)
    assert len(seen) <= 2, seen
