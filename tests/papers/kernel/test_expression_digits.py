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


# ----------------------------------------------------------------- an independent check's findings


def test_a_cancelling_level_is_bounded_by_its_rounding():
    """exp(t) − 3t/e + 10⁻²⁰t on S² (a negative Taylor coefficient): μ_1 = 10⁻²⁰/3 exactly
    (E[t eᵗ] = 1/e on S², E t² = 1/3), a sum of terms of 0.1 that cancel. It was printed
    "exact" with 21 right digits; the bound now counts the coefficients' errors and the
    rounding, and every printed digit is right. Without the 10⁻²⁰t it is 0 within its bound."""
    e = expression_eigenvalues(parse_kernel("exp(t) - 3*t*exp(-1) + t/10**20"), 3, 3, 30)
    digits = confirmed_digits(e.values[1], e.bounds[1], 30)
    assert 0 < digits < 30
    assert _agree(e.values[1], mpmath.mpf(10) ** -20 / 3, digits)
    z = expression_eigenvalues(parse_kernel("exp(t) - 3*t*exp(-1)"), 3, 3, 30)
    assert abs(z.values[1]) <= z.bounds[1] and z.bounds[1] > 0


def test_a_centred_rbf_is_not_refused_for_its_rounding():
    """exp(2t − 2) − (1 − e⁻⁴)/4 on S²: μ_0 = 0 exactly (the Bessel form's μ_0 of exp(2t − 2)
    is (1 − e⁻⁴)/4); −2.5e-45 of rounding was refused as "not positive semi-definite"."""
    e = expression_eigenvalues(parse_kernel("exp(2*t - 2) - (1 - exp(-4))/4"), 3, 20, 30)
    assert abs(e.values[0]) <= e.bounds[0] < 1e-30
    with mpmath.workdps(60):
        assert _agree(e.values[5], _rbf(mpmath.mpf(2), 3, 5), 30)


def test_a_polynomial_is_refused_for_a_negative_level_above_kmax(invoke):
    """1 + t² − t⁴/10 on S²: μ_4 = −1/10·E[t⁴P_4] = −8/3150 = −0.00253968 < 0 (E[t⁴P_4] =
    8/315 on S²); --kmax 3 accepted it and printed a Mercer share of 1.012."""
    r = invoke("kernel", "spectrum", "--kernel", "1+t**2-t**4/10", "--d", "3", "--kmax", "3")
    assert r.exit_code == 2 and "μ_4 = -0.00253968" in r.stderr


def test_mercer_sum_in_json_to_the_digits_asked(invoke):
    """(1 + t)³/8 on S², kmax 1: the Mercer sum μ_0 + 3μ_1 = 1/4 + 3·3/20 = 7/10 exactly
    (μ_0 = E κ = (1 + 3E t²)/8 = 1/4, μ_1 = E[κ(t) t] = (3E t² + E t⁴)/8 = 3/20, with
    E t² = 1/3, E t⁴ = 1/5 on S²); JSON printed 0.69999999999999995559… (binary64) at
    --dps 60."""
    import json

    j = json.loads(invoke("kernel", "spectrum", "--kernel", "(1+t)**3/8", "--d", "3", "--kmax",
                          "1", "--dps", "60", "--format", "json").stdout)["details"]
    assert j["mercer_sum"] == "0." + "7" + "0" * 59


def test_a_kernel_singular_at_one_with_no_odd_tail_is_quick(taylor_calls):
    """The arc-cosine kernel (√(1 − t²) + (π − arccos t)t)/π: its odd coefficients past 1 are
    0, which the precision raise read as unresolved, and it raised the working digits 19 at a
    time to 2000 (256 s at d = 3, kmax 4). A raise that does not shrink the worst bound
    ten-fold now ends the raising: at most three series. μ_0 = 3/8, μ_2 = 3/128 (ReLU NNGP
    on S², Cho & Saul)."""
    e = expression_eigenvalues(parse_kernel("(sqrt(1 - t**2) + (pi - acos(t))*t)/pi"), 3, 4, 15)
    assert len(taylor_calls) <= 3, taylor_calls
    assert _agree(e.values[0], mpmath.mpf(3) / 8, 15) and _agree(e.values[2],
                                                                  mpmath.mpf(3) / 128, 15)


def test_confirmed_levels_keep_their_trailing_zeros():
    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum

    s = spectrum(KernelSpec(kernel="(sqrt(1 - t**2) + (pi - acos(t))*t)/pi"), Levels(3, 2, 15))
    assert s.levels[0].shown() == "0.375000000000000"
