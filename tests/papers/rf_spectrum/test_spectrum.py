"""Random-feature spectrum for any activation (fltheory.papers.rf_spectrum.theory) checked a
second way.

Second ways, none sharing code or formulas with the module beyond the definitions:
- ``_brute_force``: the radial operator built from its definition by numpy/scipy quadrature —
  E_x σ(r z1) σ(r' z2) by 2-D Gauss–Hermite (z2 = t z1 + √(1 − t²) g), the Funk–Hecke projection
  on P_l by Gauss–Jacobi in t (scipy's Gegenbauer polynomials), the radial law by scipy's
  generalised Gauss–Laguerre in u = d r²/(2s²) — no Mehler series, no Gamma-ratio formulas;
- the ReLU module papers/fisher/theory.py (arc-cosine kernel, its own Beta recursion) at s = √d;
- the exact trace E_r E_z σ(rz)² by 2-D numpy quadrature.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from scipy import integrate, special

from fltheory.exact import DomainError
from fltheory.papers.fisher import theory as fisher
from fltheory.papers.rf_spectrum import theory as rf


def _radial_nodes(d: int, s: float, n: int):
    u, w = special.roots_genlaguerre(n, d / 2 - 1)
    return s * np.sqrt(2 * u / d), w / w.sum()


def _kernel_l(sig, d: int, l: int, r: np.ndarray, n_gh: int = 60, n_t: int = 40) -> np.ndarray:
    """K_l(r_i, r_j) = E_t[E σ(r_i z1) σ(r_j z2) · P_l(t)] by quadrature (no Mehler series)."""
    g, gw = special.roots_hermitenorm(n_gh)
    gw = gw / gw.sum()
    a = (d - 3) / 2
    t, tw = special.roots_jacobi(n_t, a, a)
    tw = tw / tw.sum()
    alpha = (d - 2) / 2
    P = special.eval_gegenbauer(l, alpha, t) / special.eval_gegenbauer(l, alpha, 1.0) \
        if d > 2 else np.cos(l * np.arccos(t))
    z1 = g[:, None]
    out = np.zeros((len(r), len(r)))
    for k, tk in enumerate(t):
        z2 = tk * z1 + math.sqrt(1 - tk * tk) * g[None, :]
        w2 = gw[:, None] * gw[None, :]
        a1 = sig(r[:, None, None] * z1[None])          # (n_r, n_gh, 1)
        a2 = sig(r[:, None, None] * z2[None])          # (n_r, n_gh, n_gh)
        kappa = np.einsum("iab,jab,ab->ij", np.broadcast_to(a1, a2.shape), a2, w2)
        out += tw[k] * P[k] * kappa
    return out


def _brute_force(sig, d: int, s: float, l: int, n_r: int = 20, **kw) -> np.ndarray:
    r, w = _radial_nodes(d, s, n_r)
    K = _kernel_l(sig, d, l, r, **kw)
    sw = np.sqrt(w)
    A = sw[:, None] * K * sw[None, :]
    return np.sort(np.linalg.eigvalsh((A + A.T) / 2))[::-1]


def _poly(z):
    return z**3 - z / 2 + 0.2


def test_polynomial_against_brute_force_quadrature():
    """σ = z³ − z/2 + 1/5, d = 5, s = 3/2: exact (sympy) against the numpy operator."""
    spec = rf.spectrum("z**3 - z/2 + 1/5", 5, "3/2", lmax=4, jmax=2, dps=20)
    assert spec.method == "exact:polynomial"
    for l in range(5):
        brute = _brute_force(_poly, 5, 1.5, l)
        for j in range(3):
            mine = float(spec.eigenvalue(l, j))
            # abs: the quadrature's rounding (~1e-15 of the operator's norm) where λ = 0
            assert mine == pytest.approx(brute[j], rel=1e-9, abs=1e-12 * float(spec.trace)), \
                (l, j)
    # l = 1 has rank 2 (degrees 1 and 3): a quadratic irrational, exactly
    assert spec.level(1, 0).closed == sp.Rational(498321, 16000) + 2097 * sp.sqrt(56449) / 16000


def test_rank_three_polynomial_against_brute_force_and_precision():
    """σ = z⁵ + z³ + z: R_1 has rank 3 (degrees 1, 3, 5), solved numerically from the exact
    matrix (no closed form asked); d = 7 against the numpy operator, and at d = 10^6 (spread
    λ_{1,0}/λ_{1,2} ~ 1e25) the values at dps 20 agree with those at dps 40."""
    spec = rf.spectrum("z**5 + z**3 + z", 7, "9/10", lmax=1, jmax=3, dps=20)
    brute = _brute_force(lambda z: z**5 + z**3 + z, 7, 0.9, 1, n_r=20)
    for j in range(3):
        assert float(spec.eigenvalue(1, j)) == pytest.approx(brute[j], rel=1e-8)
    assert spec.eigenvalue(1, 3) == 0 and spec.level(1, 3).method == "zero:rank"
    low = rf.spectrum("z**5 + z**3 + z", 10**6, 1, lmax=1, jmax=2, dps=20)
    high = rf.spectrum("z**5 + z**3 + z", 10**6, 1, lmax=1, jmax=2, dps=40)
    for j in range(3):
        a, b = low.eigenvalue(1, j), high.eigenvalue(1, j)
        assert abs(a - b) <= mpmath.mpf(10) ** -19 * abs(b), j


def test_piecewise_against_brute_force_quadrature():
    """relu(z) + z² (kink at 0, two homogeneous parts: rank 2 at even l), d = 4, s = 1.3.
    Gauss–Hermite converges slowly across the kink: 200 × 200 nodes, agreement ~1e-4."""
    spec = rf.spectrum("relu(z) + z**2", 4, "1.3", lmax=2, jmax=1, dps=15)
    assert spec.method == "exact:piecewise"

    def sig(z):
        return np.maximum(z, 0) + z**2

    for l in (0, 1, 2):
        brute = _brute_force(sig, 4, 1.3, l, n_r=12, n_gh=200, n_t=30)
        for j in range(2):
            assert float(spec.eigenvalue(l, j)) == pytest.approx(brute[j], rel=2e-3,
                                                                 abs=1e-5 * brute[0]), (l, j)


@pytest.mark.parametrize("d", [2, 3, 4, 7, 10, 25])
def test_relu_reproduces_fisher_exactly(d):
    """At s = √d the ReLU levels are fisher.py's λ_l (same sympy value), rank one."""
    spec = rf.spectrum("relu", d, sp.sqrt(d), lmax=6, jmax=1, dps=30)
    for l in range(7):
        theirs = fisher.eigenvalue(d, l, 30)
        mine = spec.level(l, 0)
        assert sp.simplify(sp.sympify(mine.closed) - sp.sympify(theirs.exact)) == 0, (d, l)
        assert mpmath.almosteq(mine.value, theirs.value, rel_eps=mpmath.mpf(10) ** -28)
        assert spec.level(l, 0).multiplicity == fisher.multiplicity(d, l)
        assert spec.eigenvalue(l, 1) == 0
        if mine.value != 0:
            assert spec.level(l, 1).method == "zero:rank"


def test_relu_large_d_matches_fisher_numerically():
    d = 10**6
    spec = rf.spectrum("relu", d, sp.sqrt(d), lmax=4, jmax=0, dps=30)
    for l in range(5):
        theirs = fisher.eigenvalue(d, l, 30).value
        mine = spec.eigenvalue(l, 0)
        assert abs(mine - theirs) <= mpmath.mpf(10) ** -28 * max(abs(theirs), 1e-300), l


def _trace_numpy(sig, d: int, s: float) -> float:
    """E_r E_z σ(rz)²: scipy quad in z on each half-line (σ may have a kink at 0) inside scipy
    quad in r against the density of r = s χ_d/√d (odd powers of r are not polynomials in
    r², so no Laguerre rule in u here)."""
    def inner(rr: float) -> float:
        def f(z: float) -> float:
            return sig(rr * z) ** 2 * math.exp(-z * z / 2) / math.sqrt(2 * math.pi)

        return sum(integrate.quad(f, a, b, epsabs=0, epsrel=1e-13, limit=200)[0]
                   for a, b in ((-np.inf, 0), (0, np.inf)))

    c = d / s**2
    log_norm = math.log(2) + (d / 2) * math.log(c / 2) - math.lgamma(d / 2)

    def density(rr: float) -> float:
        return math.exp(log_norm + (d - 1) * math.log(rr) - c * rr * rr / 2) if rr > 0 else 0.0

    mode = s * math.sqrt((d - 1) / d)
    width = s / math.sqrt(d)
    lo, hi = max(0.0, mode - 12 * width), mode + 14 * width
    return integrate.quad(lambda rr: density(rr) * inner(rr), lo, hi, epsabs=0, epsrel=1e-12,
                          limit=200, points=[mode])[0]


@pytest.mark.parametrize("name,sig,d,s", [
    ("z**3 - z/2 + 1/5", _poly, 5, 1.5),
    ("abs", np.abs, 6, 0.8),
    ("relu(z) + z**2", lambda z: np.maximum(z, 0) + z**2, 4, 1.3),
    ("tanh", np.tanh, 300, 1.0),
])
def test_kernel_trace_against_numpy(name, sig, d, s):
    assert float(rf.kernel_trace(name, d, str(s), dps=15)) == pytest.approx(
        _trace_numpy(sig, d, s), rel=1e-10)


def test_trace_identity_polynomial_exact():
    """Σ_{l<=p} N(d, l) Σ_j λ_{l,j} = E_r E_z σ(rz)² exactly (all l > p and j >= rank are 0)."""
    spec = rf.spectrum("z**3 - z/2 + 1/5", 5, "3/2", lmax=4, jmax=2, dps=30)
    total = sum(v.multiplicity * sp.sympify(v.closed) for v in spec.levels)
    assert sp.simplify(total - spec.trace_exact) == 0
    assert spec.trace_exact == sp.Rational(655849, 1600)
    assert mpmath.almosteq(spec.trace_captured, spec.trace, rel_eps=1e-28)


def test_trace_identity_relu_converges():
    """ReLU at d = 3: the levels l <= 40 carry all but a small tail of trace = E r² · 3/2."""
    spec = rf.spectrum("relu", 3, 1, lmax=40, jmax=0, dps=20)
    assert spec.trace == mpmath.mpf(1) / 2
    gap = spec.trace - spec.trace_captured
    assert 0 < gap < 1e-4
    with mpmath.workdps(25):
        levels = sum(v.multiplicity * v.value for v in spec.levels)
        assert mpmath.almosteq(levels, spec.trace_captured, rel_eps=1e-18)


def test_parity_zeros_are_exact():
    abs_spec = rf.spectrum("abs", 7, 1, lmax=5, jmax=0, dps=15)
    assert all(abs_spec.eigenvalue(l) == 0 for l in (1, 3, 5))
    assert all(abs_spec.eigenvalue(l) > 0 for l in (0, 2, 4))
    assert any("σ is even" in v for v in abs_spec.vanishing)
    relu = rf.spectrum("relu", 7, 1, lmax=7, jmax=0, dps=15)
    assert [l for l in range(8) if relu.eigenvalue(l) == 0] == [3, 5, 7]
    poly = rf.spectrum("z**2 - 1", 5, 1, lmax=4, jmax=1, dps=15)
    assert [l for l in range(5) if poly.eigenvalue(l) != 0] == [0, 2]
    tanh = rf.spectrum("tanh", 10**6, 1, lmax=3, jmax=0, dps=10)
    assert [v.method for v in tanh.levels] == ["zero:parity", "nystrom", "zero:parity",
                                               "nystrom"]


def test_tanh_against_brute_force_quadrature():
    """Nyström (Gauss–Laguerre route, d = 300) against the numpy operator (12 radial nodes,
    80-point Gauss–Hermite, 30-point Gauss–Jacobi: the brute force is good to ~1e-8 here)."""
    spec = rf.spectrum("tanh", 300, 1, lmax=3, jmax=1, dps=8)
    for l in (1, 3):
        brute = _brute_force(np.tanh, 300, 1.0, l, n_r=12, n_gh=80, n_t=30)
        assert float(spec.eigenvalue(l, 0)) == pytest.approx(brute[0], rel=1e-7)
        assert float(spec.eigenvalue(l, 1)) == pytest.approx(brute[1], rel=1e-4)
    assert spec.level(1, 0).digits == 8


@pytest.mark.slow
def test_tanh_small_d_against_brute_force_quadrature():
    """The log-r² trapezoid route (d = 12) against the numpy operator (Gauss–Laguerre with 40
    radial nodes converges slowly here: ~1e-6 on λ_{1,0})."""
    spec = rf.spectrum("tanh", 12, 1, lmax=1, jmax=1, dps=6)
    brute = _brute_force(np.tanh, 12, 1.0, 1, n_r=40, n_gh=80, n_t=30)
    assert float(spec.eigenvalue(1, 0)) == pytest.approx(brute[0], rel=1e-5)
    assert float(spec.eigenvalue(1, 1)) == pytest.approx(brute[1], rel=1e-3)


def test_nystrom_stable_under_precision_and_nodes():
    """Raising dps (more digits, finer grids, more radial nodes) keeps the digits shown."""
    low = rf.spectrum("tanh", 10**4, 1, lmax=1, jmax=1, dps=8)
    high = rf.spectrum("tanh", 10**4, 1, lmax=1, jmax=1, dps=16)
    for a, b in zip(low.levels, high.levels, strict=True):
        if a.value != 0:
            assert a.digits == 8
            assert abs(a.value - b.value) <= mpmath.mpf(10) ** (1 - a.digits) * abs(b.value)


@pytest.mark.slow
def test_nystrom_stable_small_d():
    low = rf.spectrum("erf", 10, 1, lmax=1, jmax=1, dps=6)
    high = rf.spectrum("erf", 10, 1, lmax=1, jmax=1, dps=11)  # mpmath path (float below)
    for a, b in zip(low.levels, high.levels, strict=True):
        if a.value != 0:
            assert abs(a.value - b.value) <= mpmath.mpf(10) ** (1 - a.digits) * abs(b.value)


def test_large_d_approach_tends_to_rank_one():
    """tanh, l = 1: λ_{1,0}/(c_{1,1} μ_1(1)²) − 1 and λ_{1,1}/λ_{1,0} fall like 1/d and 1/d²."""
    app = rf.large_d_approach("tanh", 1, [10**3, 10**5], dps=6)
    (_, _, _, gap1, ratio1), (_, _, _, gap2, ratio2) = app.rows
    assert 50 < abs(gap1 / gap2) < 200  # ~ (d2/d1)
    assert 5e3 < ratio1 / ratio2 < 2e4  # ~ (d2/d1)²
    assert "λ_l,1/λ_l,0" in app.table().columns


@pytest.mark.parametrize("kwargs,param", [
    ({"sigma": "exp(z**2)"}, "sigma"),
    ({"sigma": "exp(z)"}, "sigma"),
    ({"scale": 0}, "scale"),
    ({"scale": "-1"}, "scale"),
    ({"d": 1}, "d"),
    ({"jmax": -1}, "jmax"),
    ({"lmax": 61}, "lmax"),
    ({"lmax": -1}, "lmax"),
    ({"dps": 3}, "dps"),
    ({"sigma": "relu(z - 1)"}, "sigma"),
])
def test_bad_input_is_a_domain_error(kwargs, param):
    args = {"sigma": "tanh", "d": 10, "scale": 1, "lmax": 2, "jmax": 1, "dps": 10, **kwargs}
    with pytest.raises(DomainError) as err:
        rf.spectrum(**args)
    assert err.value.param == param


def test_unreachable_digits_say_which_eigenvalue(monkeypatch):
    """With the Mehler series cut at k = 5 the truncation bound leaves too few digits."""
    import fltheory.engine.randomfeatures._route_nystrom as route_nystrom

    monkeypatch.setattr(route_nystrom, "KMAX", 5)
    with pytest.raises(DomainError, match=r"λ_\(1,\d\) is confirmed to \d+ digits"):
        rf.spectrum("tanh", 500, 1, lmax=1, jmax=1, dps=20)
