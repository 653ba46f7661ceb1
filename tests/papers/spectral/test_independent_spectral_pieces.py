"""Links made of flat and monotone pieces (issue 37): the spectral threshold
α_c = 1/E[(E[z²|y] − 1)²] and T* = 1 − 1/E[z²|y], checked against references computed here
from the definition, independently of fltheory's closed forms:

* scipy.integrate.quad of the Gaussian integrals over the preimage sets (E[z² 1_A], P(A) and
  ∫(z² − 1)²φ on the monotone pieces), at relative tolerance 1e-12;
* a Monte Carlo of E[z² | y] per label (4·10⁶ draws, seed 7): T*(v) within 5 standard errors;
* the Lu–Li overlap of the estimator with T*, which must be 0 just below α_c and positive just
  above it (the threshold seen by the solver, not by the formula).

Generic thresholds: K = 0.7 (sign(|z| − K)), 1/2 (Heaviside(z − 1/2)), the clamp to [−1, 1]."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from fltheory.engine.spectral.links import link_threshold
from fltheory.papers.spectral.params import Link
from fltheory.papers.spectral.theory import link_overlaps


def _phi(z):
    return math.exp(-z * z / 2) / math.sqrt(2 * math.pi)


def _gauss(f, a, b):
    return integrate.quad(lambda z: f(z) * _phi(z), a, b, epsabs=0, epsrel=1e-12, limit=200)[0]


def _flat(intervals):
    """P(A) and E[z²|A] for A a union of intervals."""
    p = sum(_gauss(lambda z: 1.0, a, b) for a, b in intervals)
    m = sum(_gauss(lambda z: z * z, a, b) for a, b in intervals) / p
    return p, m


def _reference(flats, monotone):
    """1/E[(m − 1)²] from the definition and T*(v) per flat value."""
    total = sum(_gauss(lambda z: (z * z - 1) ** 2, a, b) for a, b in monotone)
    t_star = {}
    for v, intervals in flats.items():
        p, m = _flat(intervals)
        total += p * (m - 1) ** 2
        t_star[v] = 1 - 1 / m
    return 1 / total, t_star


@pytest.mark.parametrize(("g", "flats", "monotone", "linear"), [
    ("sign(Abs(z) - 7/10)", {1: [(-math.inf, -0.7), (0.7, math.inf)], -1: [(-0.7, 0.7)]}, [],
     False),
    ("Heaviside(z - 1/2)", {0: [(-math.inf, 0.5)], 1: [(0.5, math.inf)]}, [], True),
    ("Min(Max(z, -1), 1)", {-1: [(-math.inf, -1)], 1: [(1, math.inf)]}, [(-1, 1)], True),
    ("relu", {0: [(-math.inf, 0)]}, [(0, math.inf)], True),
])
def test_threshold_against_quadrature(g, flats, monotone, linear):
    ans = link_threshold(g, 20)
    alpha, t_star = _reference(flats, monotone)
    assert ans.linear is linear
    got = ans.spectral_alpha_c if linear else ans.alpha_c
    assert float(got) == pytest.approx(alpha, rel=1e-10)
    for v, t in t_star.items():  # the printed T*(v), ten digits
        assert f"T*({v}) = " in ans.optimal
        shown = ans.optimal.split(f"T*({v}) = ")[1].split(",")[0].split(";")[0]
        assert float(shown) == pytest.approx(t, rel=1e-9, abs=1e-12)


def test_threshold_k07_by_monte_carlo():
    """sign(|z| − 0.7): E[z²|y] per label by Monte Carlo, T*(v) within 5 standard errors."""
    z = np.random.default_rng(7).standard_normal(4_000_000)
    y = np.sign(np.abs(z) - 0.7)
    ans = link_threshold("sign(Abs(z) - 7/10)", 20)
    for v in (1, -1):
        z2 = z[y == v] ** 2
        m, se = z2.mean(), z2.std(ddof=1) / math.sqrt(len(z2))
        shown = float(ans.optimal.split(f"T*({v}) = ")[1].split(",")[0])
        # T* = 1 − 1/m: its standard error by the delta method, se/m²
        assert abs(shown - (1 - 1 / m)) < 5 * se / m ** 2
    p = float(np.mean(y == 1))
    assert p == pytest.approx(2 * stats.norm.sf(0.7), abs=5 * math.sqrt(p * (1 - p) / len(z)))


@pytest.mark.parametrize(("g", "alpha_c"), [("relu", 1.0), ("sign(Abs(z) - 7/10)", None)])
def test_lu_li_overlap_leaves_zero_at_the_threshold(g, alpha_c):
    """The estimator with T* has no outlier 1 % below α_c and one 1 % above (ReLU: α_c = 1, the
    spectral estimator's own threshold beside the linear estimator's 0)."""
    if alpha_c is None:
        alpha_c = float(link_threshold(g, 20).alpha_c)
    below, above = link_overlaps(Link(g, alphas=f"{alpha_c * 0.99!r},{alpha_c * 1.01!r}"))
    assert below.rho2 == 0 and below.outlier is None
    assert above.rho2 > 1e-4 and above.outlier is not None


def test_sign_has_no_spectral_signal():
    """sign(z): E[z²|y] = 1 on both labels, so the spectral estimator alone never recovers at
    linear α (α = ∞) while the linear estimator does at every α."""
    ans = link_threshold("sign", 20)
    assert ans.linear and ans.spectral_alpha_c == float("inf")


def test_link_command_prints_both_thresholds(invoke):
    r = invoke("link", "--g", "relu")
    assert r.exit_code == 0
    assert ("α_c = 0 with the linear estimator; the spectral estimator's own threshold "
            "α_c = 1") in r.stdout
    assert "0 (linear); 1 (spectral)" in r.stdout
    r = invoke("link", "--g", "relu", "--format", "json")
    assert '"alpha_c_spectral": "1"' in r.stdout


def test_preprocessing_with_a_pole_is_one_line(invoke):
    """T = 1/|y| at y = z² → +∞ as z → 0: refused in one line, no solver warning."""
    r = invoke("link", "--g", "z**2", "--T", "1/Abs(z)", "--alpha", "1,2")
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "has a pole" in r.stderr and "Warning" not in r.stderr
    r = invoke("link", "--g", "z**2", "--T", "1/Abs(y)", "--noise", "1/2", "--alpha", "1")
    assert r.exit_code == 2 and "has a pole" in r.stderr
    r = invoke("link", "--g", "z**2", "--T", "1 - 1/y", "--alpha", "1")  # → −∞: allowed
    assert r.exit_code == 0, r.stderr


def test_odd_polynomial_spectral_threshold_by_scipy():
    """He3 = z³ − 3z (linear: E[z|y] ≠ 0): the spectral estimator's own threshold
    1/E[(m(y) − 1)²], with m(y) from all real preimages weighted by φ/|g'| (co-area), by scipy
    quad over z split at the critical points ±1 and the preimages ±2 of the critical values
    (numpy.roots for the preimages); z³ (strictly monotone): 1/2."""
    def m(x):
        y = x ** 3 - 3 * x
        roots = np.roots([1, 0, -3, -y])
        u = roots[np.abs(roots.imag) < 1e-9].real
        slope = np.abs(3 * u * u - 3)
        keep = slope > 1e-12  # a double root (x at ±2: u = ∓1) is a null set
        w = np.exp(-(u[keep] ** 2 - x * x) / 2) / slope[keep]  # relative to x's own weight
        return float(np.sum(u[keep] ** 2 * w) / np.sum(w))

    total = sum(integrate.quad(lambda x: _phi(x) * (m(x) - 1) ** 2, a, b, epsabs=1e-13,
                               epsrel=1e-11, limit=400)[0]
                for a, b in [(-math.inf, -2), (-2, -1), (-1, 1), (1, 2), (2, math.inf)])
    ans = link_threshold("He3", 20)
    assert ans.linear and not ans.spectral_exact and ans.spectral_digits >= 10
    assert float(ans.spectral_alpha_c) == pytest.approx(1 / total, rel=1e-8)
    # y = z³ determines z: m = z², E[(z² − 1)²] = 2 (sympy does not prove z³ strictly
    # monotone, its derivative vanishes at 0, so this runs the quadrature)
    assert float(link_threshold("z**3", 20).spectral_alpha_c) == pytest.approx(0.5, rel=1e-15)
