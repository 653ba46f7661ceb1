"""The Hermite engine (fltheory.engine.hermite) a second way at generic points: kinks away from 0
(at z = 0 the interval moments' boundary terms a^{n−1}φ(a) vanish and a wrong power would pass),
Gaussian exponents with a linear and a constant term (b, c ≠ 0), trigonometric functions against
the closed form E[e^{ibz} He_k(z)] = (ib)^k e^{−b²/2}, and the generative exponent's conditional
expectations E[h_k | y] against their definition (a shrinking window around y, by quadrature).
"""

from __future__ import annotations

import math
import re

import mpmath
import numpy as np
import pytest
from scipy import stats

from fltheory.engine.hermite import expansion, gauss_moment, generative_exponent, parseval


def test_gauss_moment_against_scipy():
    for n in range(15):
        assert gauss_moment(n) == pytest.approx(stats.norm.moment(n), rel=1e-12, abs=1e-12), n


def _He(k: int, x):
    """Probabilists' Hermite polynomial from mpmath's physicists' one: He_k(x) = 2^{−k/2}
    H_k(x/√2)."""
    return mpmath.hermite(k, x / mpmath.sqrt(2)) * mpmath.mpf(2) ** (-mpmath.mpf(k) / 2)


def _mu_by_quadrature(fn, k: int, cuts) -> mpmath.mpf:
    """μ_k = E[f h_k] by mpmath quadrature split at the kinks (40 digits)."""
    with mpmath.workdps(40):
        nodes = [-mpmath.inf, *[mpmath.mpf(c) for c in cuts], mpmath.inf]
        val = mpmath.quad(lambda x: fn(x) * _He(k, x) * mpmath.npdf(x), nodes)
        return val / mpmath.sqrt(mpmath.factorial(k))


PIECEWISE = {  # f and its kinks, both evaluated at the caller's working precision
    "Max(z - 3/7, 0)": (lambda x: max(x - mpmath.mpf(3) / 7, 0), lambda: [mpmath.mpf(3) / 7]),
    "Abs(z + 2/5)": (lambda x: abs(x + mpmath.mpf(2) / 5), lambda: [-mpmath.mpf(2) / 5]),
    "Heaviside(z - 1/3)": (lambda x: 1 if x > mpmath.mpf(1) / 3 else 0,
                           lambda: [mpmath.mpf(1) / 3]),
    "Min(z**2, 3/2)": (lambda x: min(x * x, mpmath.mpf(3) / 2),
                       lambda: [-mpmath.sqrt(mpmath.mpf(3) / 2), mpmath.sqrt(mpmath.mpf(3) / 2)]),
}


@pytest.mark.parametrize("expr", sorted(PIECEWISE))
def test_piecewise_path_with_kinks_away_from_zero(expr):
    fn, cuts = PIECEWISE[expr]
    e = expansion(expr, K=5)
    for c in e.coefficients:
        assert c.path == "exact:piecewise", (expr, c.path)
        with mpmath.workdps(40):
            ref = _mu_by_quadrature(fn, c.k, cuts())
            assert abs(mpmath.mpf(sp_N(c.exact)) - ref) < mpmath.mpf(10) ** -25, (expr, c.k)


def sp_N(x):
    import sympy as sp

    return sp.N(x, 40)


GAUSSIAN = {
    "exp(-z**2/3 + z/2 + 1/7)": lambda x: mpmath.exp(-x * x / 3 + x / 2 + mpmath.mpf(1) / 7),
    "z**3*exp(z/3 - z**2/5)": lambda x: x**3 * mpmath.exp(x / 3 - x * x / 5),
    "erf(z/3 + 1/2)": lambda x: mpmath.erf(x / 3 + mpmath.mpf(1) / 2),
}


@pytest.mark.parametrize("expr", sorted(GAUSSIAN))
def test_gaussian_path_with_linear_and_constant_terms(expr):
    """The existing test's functions all have b = c = 0 in exp(a z² + b z + c)."""
    e = expansion(expr, K=5)
    for c in e.coefficients:
        # k = 0 of erf has no derivative to move onto: another path may serve it
        assert c.path == "exact:gaussian-ibp" or (c.k == 0 and "erf" in expr), (expr, c.path)
        with mpmath.workdps(40):
            ref = _mu_by_quadrature(GAUSSIAN[expr], c.k, [0])
            assert abs(c.numeric - ref) < mpmath.mpf(10) ** -25, (expr, c.k)


PIECEWISE_GAUSSIAN = {  # Gaussian-class pieces (b, c ≠ 0) joined at kinks away from 0
    "Max(z - 1/3, 0)*exp(z**2/5 - z/2)": (
        lambda x: max(x - mpmath.mpf(1) / 3, 0) * mpmath.exp(x * x / 5 - x / 2),
        [mpmath.mpf(1) / 3]),
    "sign(z + 1/2)*z**2*exp(-z**2/3 + 1/4)": (
        lambda x: mpmath.sign(x + mpmath.mpf(1) / 2) * x * x * mpmath.exp(-x * x / 3
                                                                           + mpmath.mpf(1) / 4),
        [-mpmath.mpf(1) / 2]),
    "Abs(z)*exp(-z**2/2)": (lambda x: abs(x) * mpmath.exp(-x * x / 2), [0]),
}


@pytest.mark.parametrize("expr", sorted(PIECEWISE_GAUSSIAN))
def test_piecewise_gaussian_path_against_quadrature(expr):
    """exact:piecewise-gaussian (completing the square on each interval) against mpmath
    quadrature split at the kinks, 40 digits, for μ_0 … μ_6 and E[f²]."""
    fn, cuts = PIECEWISE_GAUSSIAN[expr]
    e = expansion(expr, K=6)
    for c in e.coefficients:
        assert c.path == "exact:piecewise-gaussian", (expr, c.path)
        with mpmath.workdps(40):
            ref = _mu_by_quadrature(fn, c.k, cuts)
            assert abs(mpmath.mpf(sp_N(c.exact)) - ref) < mpmath.mpf(10) ** -25, (expr, c.k)
    norm = parseval(expr, K=2)
    with mpmath.workdps(40):
        nodes = [-mpmath.inf, *cuts, mpmath.inf]
        ref = mpmath.quad(lambda x: fn(x) ** 2 * mpmath.npdf(x), nodes)
        assert abs(mpmath.mpf(sp_N(norm.norm2_exact)) - ref) < mpmath.mpf(10) ** -25, expr


def test_abs_times_gaussian_has_mu2_exactly_zero():
    """|z|e^{−z²/2}: μ_2 ∝ ∫_0^∞ z(z² − 1)e^{−z²} dz = 1/2 − 1/2 = 0 and
    μ_4 = −1/√(48π) (by hand: E[|z| e^{−z²/2} He_4] = 2∫_0^∞ z(z⁴ − 6z² + 3)e^{−z²}dz/√(2π)
    = (1 − 3 + 3/2)·2/√(2π) = −1/√(2π), divided by √4! = √24): decided exactly, so the
    information exponent is 4 with no precision caveat."""
    import sympy as sp

    e = expansion("Abs(z)*exp(-z**2/2)", K=4)
    assert e.coefficients[2].exact == 0 and e.coefficients[1].exact == 0
    assert sp.simplify(e.coefficients[4].exact + 1 / sp.sqrt(48 * sp.pi)) == 0


def test_trigonometric_coefficients_against_the_characteristic_function():
    """E[e^{ibz} He_k(z)] = (ib)^k e^{−b²/2} (Gaussian integration by parts), so for
    f = sin(2z) + 3 cos(z/2): E[f He_k] = Im((2i)^k) e^{−2} + 3 Re((i/2)^k) e^{−1/8}."""
    e = expansion("sin(2*z) + 3*cos(z/2)", K=7, budget=2.0)
    for c in e.coefficients:
        k = c.k
        ref = ((2j) ** k).imag * math.exp(-2) + 3 * ((0.5j) ** k).real * math.exp(-1 / 8)
        ref /= math.sqrt(math.factorial(k))
        assert float(c.numeric) == pytest.approx(ref, rel=1e-13, abs=1e-15), (k, c.path)


@pytest.mark.parametrize(("expr", "fn"), [
    ("gelu", lambda x: x * (1 + mpmath.erf(x / mpmath.sqrt(2))) / 2),
    ("tanh", mpmath.tanh),
    ("Max(z - 3/7, 0)", lambda x: max(x - mpmath.mpf(3) / 7, 0)),
])
def test_parseval_norm_and_fraction(expr, fn):
    """E[f²] by quadrature here; captured = Σ_{k<=K} μ_k²/E[f²] with μ_k by quadrature here."""
    p = parseval(expr, K=4, dps=22)
    with mpmath.workdps(40):
        cuts = [mpmath.mpf(3) / 7] if "Max" in expr else [0]
        nodes = [-mpmath.inf, *cuts, mpmath.inf]
        norm2 = mpmath.quad(lambda x: fn(x) ** 2 * mpmath.npdf(x), nodes)
        captured = mpmath.fsum(_mu_by_quadrature(fn, k, cuts) ** 2 for k in range(5)) / norm2
        assert abs(p.norm2 - norm2) < mpmath.mpf(10) ** -18
        assert abs(p.captured - captured) < mpmath.mpf(10) ** -18
    assert 0.5 < p.captured < 1


def _conditional_by_window(f, roots_of, k: int, y0: float, eps: float = 1e-4) -> float:
    """E[h_k(z) | f(z) = y0] from its definition: E[h_k 1{|f − y0| < ε}]/P(|f − y0| < ε), the
    window's pieces found from the preimages of y0 ± ε (each piece between a preimage of y0 − ε
    and one of y0 + ε), integrated by mpmath quadrature. The error is O(ε²)."""
    lo, hi = sorted(roots_of(y0 - eps)), sorted(roots_of(y0 + eps))
    pieces = [tuple(sorted((a, b))) for a, b in zip(lo, hi, strict=True)]
    for a, b in pieces:  # each piece is a short window around one preimage of y0
        assert abs(b - a) < 1e-2 and abs(f((a + b) / 2) - y0) < 2 * eps
    with mpmath.workdps(30):
        num = mpmath.fsum(mpmath.quad(lambda x: _He(k, x) * mpmath.npdf(x), [a, b])
                          for a, b in pieces)
        den = mpmath.fsum(mpmath.quad(mpmath.npdf, [a, b]) for a, b in pieces)
        return float(num / den / mpmath.sqrt(mpmath.factorial(k)))


def _reason_value(reason: str) -> tuple[int, float, float]:
    m = re.match(r"E\[h_(\d+)\(z\) \| y\] = (\S+) at y = f\((\S+)\)", reason)
    assert m, reason
    return int(m.group(1)), float(m.group(2)), float(m.group(3))


def test_generative_exponent_conditional_value_polynomial():
    """He_3: information exponent 3, generative 1. The reported E[h_1 | y] at the reported
    y = He_3(z0) against the window definition (preimages by numpy's polynomial roots)."""
    g = generative_exponent("He3", kmax=4)
    assert g.value == 1
    k, value, z0 = _reason_value(g.reason)
    assert k == 1

    def f(x):
        return x**3 - 3 * x

    def roots(y):
        r = np.roots([1, 0, -3, -y])
        return [float(x.real) for x in r if abs(x.imag) < 1e-9]

    ref = _conditional_by_window(f, roots, 1, f(z0))
    assert value == pytest.approx(ref, rel=1e-6, abs=1e-9)
    assert abs(ref) > 1e-3


def test_generative_exponent_conditional_value_non_polynomial():
    """A non-polynomial even function, f = z² exp(−z²/4) − 1/2 (several preimages, found by
    bracketing on the engine's side): information exponent 2, generative 2; the reported
    E[h_2 | y] against the window definition (preimages by scipy's brentq on a grid here)."""
    from scipy.optimize import brentq

    expr = "z**2*exp(-z**2/4) - 1/2"
    g = generative_exponent(expr, kmax=4)
    assert g.value == 2
    k, value, z0 = _reason_value(g.reason)
    assert k == 2

    def f(x):
        return x * x * math.exp(-x * x / 4) - 0.5

    grid = np.linspace(-14, 14, 28001)

    def roots(y):
        v = np.array([f(x) for x in grid]) - y
        idx = np.nonzero(np.sign(v[:-1]) != np.sign(v[1:]))[0]
        return [brentq(lambda x: f(x) - y, grid[i], grid[i + 1], xtol=1e-15) for i in idx]

    ref = _conditional_by_window(f, roots, 2, f(z0))
    assert value == pytest.approx(ref, rel=1e-6, abs=1e-9)
    assert abs(ref) > 1e-3


def test_generative_exponent_atom_row():
    """At an atom (f = c on a set A of positive measure) E[h_k | y = c] = E[h_k 1_A]/P(A): for
    Max(|z| − 1, 0), A = [−1, 1]; reference by scipy quadrature of He_k φ over A."""
    from scipy import integrate

    from fltheory.engine.functions import parse_function
    from fltheory.engine.hermite.coefficients import _Engine
    from fltheory.engine.hermite.exponents import _conditional_expectations

    cond = _conditional_expectations(_Engine(parse_function("Max(Abs(z) - 1, 0)"), 30, 0), 4)
    (row,) = [v for lab, v in zip(cond.labels, cond.values, strict=True) if lab.startswith("atom")]
    mass = integrate.quad(lambda x: math.exp(-x * x / 2), -1, 1)[0]
    for k in range(1, 5):
        He = np.polynomial.hermite_e.HermiteE([0] * k + [1])
        num = integrate.quad(lambda x, He=He: He(x) * math.exp(-x * x / 2), -1, 1)[0]
        assert float(row[k - 1]) == pytest.approx(num / mass / math.sqrt(math.factorial(k)),
                                                  abs=1e-12), k
    assert abs(float(row[1])) > 0.1
