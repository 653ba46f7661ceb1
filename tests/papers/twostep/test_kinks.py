"""The kinked-σ (reused batch) expectations of fltheory.papers.twostep.kinks against computations
written from their definitions, not from the module's formulas:

* G(t) = E_z[σ'(z + t D(z))], D(z) = ψ σ'(z) y + w (the second update's row factor at fixed
  (y, w)), by mpmath quadrature of the discontinuous integrand split at its jump points, at
  t = ±h, ±2h, …; its one-sided Taylor coefficients G_k^± by solving the Vandermonde system at
  high precision (error O(h^6)); the prediction: even = (G_k^+ + G_k^-)/2, odd = (G_k^+ − G_k^-)/2.
* Q_k(x) = E[S_k(x + Aξ)] by quadrature against its closed form.
* N_{k,0} against the Hermite engine's μ_{k+1}(σ) (Stein: N_{k,0} = √((k+1)!) μ_{k+1}).

Parameters are generic (ψ = 13/10, y = 7/10, w = −3/10 or 9/20 …), σ: ReLU, leaky ReLU (slope
1/5), |z| and relu(z − 1) (a kink off 0, where He_{k−1}(c) ≠ 0 for every k).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from fltheory.engine.functions import Z, parse_function
from fltheory.papers.twostep.kinks import (
    kink_structure,
    odd_part_constant,
    one_sided_coefficients,
    q_moment,
    symmetric_moment,
)

SIGMAS = {"relu": (lambda u: 1 if u > 0 else 0, [0]),
          "Max(z, z/5)": (lambda u: 1 if u > 0 else mpmath.mpf(1) / 5, [0]),
          "Abs(z)": (lambda u: 1 if u > 0 else -1, [0]),
          "relu(z-1)": (lambda u: 1 if u > 1 else 0, [1])}


def _G(dsig, kinks, psi, y, w, t):
    """E_z[σ'(z + t(ψσ'(z)y + w))] by quadrature, split where σ' or the shifted σ' jumps."""
    pts = set()
    for c in kinks:
        pts.add(mpmath.mpf(c))
        for side in (-1, 1):  # z on either side of c: the shifted argument crosses c' at z*
            for c2 in kinks:
                zs = mpmath.mpf(c2) - t * (psi * y * dsig(c + side * mpmath.mpf(10) ** -30) + w)
                pts.add(zs)
    pts = sorted(pts)
    return mpmath.quad(lambda z: dsig(z + t * (psi * y * dsig(z) + w)) * mpmath.npdf(z),
                       [-mpmath.inf, *pts, mpmath.inf])


def _one_sided(dsig, kinks, psi, y, w, sign, order=8, h="1e-3"):
    """G_k^± (k = 1..order−1) from G at t = sign·h·j, j = 1..order (Vandermonde solve)."""
    h = mpmath.mpf(h)
    ts = [sign * h * j for j in range(1, order + 1)]
    g0 = _G(dsig, kinks, psi, y, w, 0)
    A = mpmath.matrix([[t**m for m in range(1, order + 1)] for t in ts])
    b = mpmath.matrix([_G(dsig, kinks, psi, y, w, t) - g0 for t in ts])
    return mpmath.lu_solve(A, b)


@pytest.mark.parametrize("sigma", list(SIGMAS))
@pytest.mark.parametrize("y,w", [("7/10", "-3/10"), ("-11/10", "9/20")])
def test_one_sided_coefficients_against_quadrature_of_the_definition(sigma, y, w):
    dsig, kinks = SIGMAS[sigma]
    structure = kink_structure(parse_function(sigma, "sigma").expr)
    psi = Fraction(13, 10)
    with mpmath.workdps(30):
        py, pw, ppsi = (mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator
                        for v in (y, w, psi))
        plus = _one_sided(dsig, kinks, ppsi, py, pw, 1)
        minus = _one_sided(dsig, kinks, ppsi, py, pw, -1)
        for k in (1, 2, 3):
            even, odd = one_sided_coefficients(structure, k, sp.Rational(13, 10),
                                               sp.Rational(y), sp.Rational(w))
            # the fit's error is O(h^(8 − k)) ≈ 1e-15 at k = 3; 1e-9 leaves room, and a wrong
            # coefficient is off by O(0.1)
            assert abs((plus[k - 1] + minus[k - 1]) / 2 - mpmath.mpf(sp.N(even, 40))) < 1e-9
            assert abs((plus[k - 1] - minus[k - 1]) / 2 - mpmath.mpf(sp.N(odd, 40))) < 1e-9


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("x", ["0.37", "-1.3"])
def test_q_moment_against_quadrature(k, x):
    with mpmath.workdps(30):
        A, xm = mpmath.mpf("0.8"), mpmath.mpf(x)
        direct = mpmath.quad(lambda u: (xm + A * u) ** k * mpmath.sign(xm + A * u)
                             * mpmath.npdf(u), [-mpmath.inf, -xm / A, mpmath.inf])
        assert abs(q_moment(k, xm, A) - direct) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("sigma", ["relu", "Max(z, z/5)", "Abs(z)", "relu(z-1)"])
def test_symmetric_moment_p0_is_steins_lemma(sigma):
    from fltheory.engine.hermite import coefficient

    f = parse_function(sigma, "sigma")
    structure = kink_structure(f.expr)
    for k in (1, 2, 3):
        mu = coefficient(f, k + 1, 30)
        ref = mu.exact if mu.exact is not None else mu.numeric
        assert abs(sp.N(symmetric_moment(structure, k, 0) - sp.sqrt(sp.factorial(k + 1)) * ref,
                        30)) < 1e-20


def test_odd_constant_against_folded_normal_quadrature():
    # C_1^odd(β) for ReLU, target He3, ψ = 1, A = 3/4 (generic), m = 0: E_s[y s · E_ξ(odd part
    # of G at (y, w = Aξ))], the odd part at k = 1 being φ(0)/2 (|w| − |y + w|) (the one-sided
    # coefficient checked above). E_ξ|u + Aξ| is the folded-normal mean
    # u(2Φ(u/A) − 1) + 2Aφ(u/A) (textbook, not the module's partial-moment recursion); the
    # outer integral is an mpmath quadrature split at the zeros of He3
    structure = kink_structure(sp.Max(0, Z))
    with mpmath.workdps(20):
        A = mpmath.mpf("0.75")

        def folded(u):
            return u * (2 * mpmath.ncdf(u / A) - 1) + 2 * A * mpmath.npdf(u / A)

        def outer(s):
            y = s**3 - 3 * s
            odd = (folded(0) - folded(y)) / (2 * mpmath.sqrt(2 * mpmath.pi))
            return y * s * odd * mpmath.npdf(s)

        ref = mpmath.quad(outer, [-mpmath.inf, -mpmath.sqrt(3), 0, mpmath.sqrt(3), mpmath.inf])
        got = odd_part_constant(structure, 1, lambda s: s**3 - 3 * s, 1, sp.Rational(3, 4), 0, 15)
        assert abs(got - ref) < 1e-8 * abs(ref)
        assert abs(ref) > 0.1  # not a trivial zero


def test_relu_reused_counts_and_learning():
    from fltheory.papers.twostep.sigma import effective_outliers

    r = effective_outliers("2/5", "7/20", "relu", dps=15)
    # k = 1 and k = 3 have both parts (two outliers each), k = 2 none (He_1(0) = 0)
    assert [t.parts for t in r.terms if t.present] == [2, 2]
    assert r.present_ks == [1, 3] and r.outliers_of_w2 == 5
    assert effective_outliers("2/5", "7/20", "Abs(z)", dps=15).outliers_of_w2 == 0
    # a τ = 3 direction is carried by k = 1 through the |a|a part alone (C_1^even = 0 by
    # parity, C_1^odd ≠ 0: the value is checked above)
    he3 = effective_outliers("2/5", "7/20", "relu", ["He3"], dps=15).terms[0]
    assert he3.constants == (0,) and he3.aligned == (0,)
    # the fresh batch keeps its outputs: one outlier per present term
    fresh = effective_outliers("2/5", "7/20", "relu", batch="fresh", dps=15)
    assert fresh.present_ks == [1, 3] and fresh.outliers_of_w2 == 3


# the kinks (point, σ'(c−), σ'(c+)) entered by hand, and whether μ_1(σ) = 0 (then r ≡ 0)
_HAND = {"relu": ([(0, 0, 1)], False), "Abs(z)": ([(0, -1, 1)], True),
         "Max(z, z/5)": ([(0, mpmath.mpf(1) / 5, 1)], False),
         "relu(z+1)-relu(z-1)-1": ([(-1, 0, 1), (1, 1, 0)], False),
         "relu(z-1)": ([(1, 0, 1)], False)}


@pytest.mark.parametrize("sigma", list(_HAND))
def test_odd_part_vanishes_exactly_when_predicted(sigma):
    # h_k^odd(y, r) = y E_ξ[odd coefficient at w = Aξ + r] from the module's formula (the odd
    # coefficient of G, checked against the definition above), E_ξ by quadrature split at the
    # kinks of S_k; compared at generic (y, r) with odd_slope_coefficients' verdict (present
    # iff a coefficient is non-zero, the folding on |s| when μ_1(σ) = 0)
    from fltheory.papers.twostep.kinks import odd_slope_coefficients

    kinks, mu_zero = _HAND[sigma]
    structure = kink_structure(parse_function(sigma, "sigma").expr)
    with mpmath.workdps(25):
        A, psi = mpmath.mpf("0.8"), mpmath.mpf("1.3")

        def h(k, y, r):
            def odd(xi):
                w = A * xi + r
                tot = 0
                for c, sl, sr in kinks:
                    wt = (sr - sl) * mpmath.npdf(c) * mpmath.hermite(k - 1, c / mpmath.sqrt(2)) \
                        / mpmath.sqrt(2) ** (k - 1)  # He_{k−1}(c) from the physicists' H
                    for s, sgn in ((sl, 1), (sr, -1)):
                        u = psi * y * s + w
                        tot += sgn * wt * u**k * mpmath.sign(u)
                return tot / (2 * mpmath.factorial(k)) * mpmath.npdf(xi)

            cuts = sorted({(-(psi * y * s) - r) / A for c, sl, sr in kinks for s in (sl, sr)})
            return y * mpmath.quad(odd, [-mpmath.inf, *cuts, mpmath.inf])

        for k in (1, 2, 3):
            predicted = bool(odd_slope_coefficients(structure, k, mu_zero))
            r = 0 if mu_zero else mpmath.mpf("0.37")
            values = [h(k, mpmath.mpf(y), r) for y in ("0.61", "-1.17")]
            if predicted:
                assert max(abs(v) for v in values) > 1e-4, (sigma, k, values)
            else:
                assert max(abs(v) for v in values) < 1e-18, (sigma, k, values)


@pytest.mark.parametrize("sigma", ["relu", "Max(z, z/5)", "relu(z+1)-relu(z-1)-1"])
def test_quoted_slope_coefficients_are_the_values(sigma):
    # every "c_s = value" in a kinked term's reason is odd_slope_coefficients' c_s to the
    # 5 digits quoted (ReLU: c_0 = −c_1 = φ(0) = 1/√(2π) = 0.39894 at k = 1)
    import re

    from fltheory.papers.twostep.kinks import odd_slope_coefficients
    from fltheory.papers.twostep.sigma import effective_outliers

    structure = kink_structure(parse_function(sigma, "sigma").expr)
    seen = 0
    for t in effective_outliers("2/5", "7/20", sigma, dps=15).terms:
        coef = {str(s): float(c) for s, c in odd_slope_coefficients(structure, t.k, False).items()}
        for s, value in re.findall(r"c_(-?[0-9/]+) = (-?[0-9.e-]+)", t.reason):
            assert float(value) == pytest.approx(coef[s], rel=1e-4), (t.k, s)
            seen += 1
    assert seen >= 2
    if sigma == "relu":
        first = effective_outliers("2/5", "7/20", sigma, dps=15).terms[0].reason
        assert "c_0 = 0.39894" in first and float(1 / mpmath.sqrt(2 * mpmath.pi)) == \
            pytest.approx(0.39894, abs=5e-6)


def test_signed_profile_constant_recovers_a_planted_profile():
    # the simulator's signed fit: replace the update by (W2 − W1)e1 = η2 ε/√N (c1 |a|a + c2 a²)
    # and read c1 back exactly (an unsigned fit has no |a|a column: it is not exact)
    import dataclasses
    import math

    import numpy as np

    from fltheory.exact import DomainError
    from fltheory.papers.twostep import sim
    from fltheory.papers.twostep.params import Simulation

    run = sim.simulate(Simulation(200, alpha1=Fraction(2, 5), alpha2=Fraction(7, 20),
                                  batch="reused", seed=3), "relu", [sim.TARGETS["He1"]],
                       terms=False)
    a = run.a
    e1 = np.eye(1, run.d, 0).ravel()
    scale = run.eta2 * run.epsilon / math.sqrt(run.N)
    delta = np.outer(scale * (-0.3 * np.abs(a) * a + 0.7 * a**2), e1)
    planted = dataclasses.replace(run, W2=run.W1 + delta)
    assert sim.profile_constant(planted, e1, 1, signed=True) == pytest.approx(-0.3, abs=1e-9)
    assert sim.profile_constant(planted, e1, 1) != pytest.approx(0.7, abs=1e-6)
    assert sim.profile_constant(planted, e1, 1, signed=True, top=7) == pytest.approx(-0.3,
                                                                                     abs=1e-8)
    with pytest.raises(DomainError, match=r"^top = "):
        sim.profile_constant(planted, e1, 2, top=2)
