"""Two steps of GD (fltheory.papers.twostep.terms): the spike constants, their mean square and the
one-step overlap a second way, at generic batch ratios ψ1 = 3/2, ψ2 = 2/3 and label noise 1/3
(never ψ = 1, where ψ² = ψ and a wrong power of ψ would pass).

The second ways: the expectations C_k = E[c_k s_v] and E[c_k² s_v²] by a tensor Gauss–Hermite
grid over (z, ξ, s_1, s_2) written here (exact for the polynomial parts, converged for the
bounded target) instead of the theory's sympy polynomial engine; the BBP overlap of a rank-one
spike in a rectangular Gaussian matrix (c = N/d = 1/2, not 1) by Monte Carlo SVDs; the alignment
of b = Xᵀy/n by Monte Carlo.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from fltheory.papers.twostep import sim
from fltheory.papers.twostep.phases import TWO_STEP_SIGMA
from fltheory.papers.twostep.terms import TwoStepModel, one_step_overlap, term_prediction

SIGMA = TWO_STEP_SIGMA  # the theory's one definition of the paper's σ
PSI1, PSI2, NOISE = Fraction(3, 2), Fraction(2, 3), Fraction(1, 3)

# σ = (He1 + He2/√2 + He3/√6)/√3 and its derivatives, written out here
_R3 = math.sqrt(3)


def _sigma_derivative(order: int, z: np.ndarray) -> np.ndarray:
    if order == 1:
        return (1 + 2 * z / math.sqrt(2) + (3 * z * z - 3) / math.sqrt(6)) / _R3
    if order == 2:
        return (2 / math.sqrt(2) + 6 * z / math.sqrt(6)) / _R3 + 0 * z
    if order == 3:
        return 6 / math.sqrt(6) / _R3 + 0 * z
    return 0 * z


_TARGETS = {"He1": lambda s: s, "He3": lambda s: s**3 - 3 * s, "He2": lambda s: s * s - 1,
            "bounded3": sim.bounded_odd_tau3}


def _gauss(n: int) -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.hermite_e.hermegauss(n)
    return x, w / math.sqrt(2 * math.pi)


def _grid_expectations(targets: list[str], k: int, v: int, batch: str
                       ) -> tuple[float, float]:
    """(E[c_k s_v], E[c_k² s_v²]) with c_k = σ^{(k+1)}(z) D̃^k y/k!, y = Σ g_i(s_i),
    D̃ = √(ψ1 E[σ'²] E[y²]) ξ + E[σ'] Σ μ_1(g_i) s_i (+ ψ2 σ'(z) y if reused), E[y²] including
    the label noise (module docstring of twostep_terms), on a tensor Gauss–Hermite grid."""
    x1, w1 = _gauss(40)
    mu_sigma = float(w1 @ _sigma_derivative(1, x1))
    e_d1sq = float(w1 @ _sigma_derivative(1, x1) ** 2)
    xs, ws = _gauss(150)  # targets: polynomial (exact) or bounded3 (sin(2s)⁶: frequency 12)
    mu1 = [float(ws @ (_TARGETS[t](xs) * xs)) for t in targets]
    ey2 = sum(float(ws @ _TARGETS[t](xs) ** 2) for t in targets) + float(NOISE) ** 2
    xz, wz = _gauss(14)
    axes = [(xz, wz), (xz, wz)] + [(xs, ws) if t == "bounded3" else (xz, wz) for t in targets]
    grids = np.meshgrid(*[a for a, _ in axes], indexing="ij")
    weight = np.ones_like(grids[0])
    for i, (_, w) in enumerate(axes):
        shape = [1] * len(axes)
        shape[i] = -1
        weight = weight * w.reshape(shape)
    z, xi, s = grids[0], grids[1], grids[2:]
    y = sum(_TARGETS[t](s[i]) for i, t in enumerate(targets))
    D = math.sqrt(float(PSI1) * e_d1sq * ey2) * xi + mu_sigma * sum(
        mu1[i] * s[i] for i in range(len(targets)))
    if batch == "reused":
        D = D + float(PSI2) * _sigma_derivative(1, z) * y
    c = _sigma_derivative(k + 1, z) * D**k * y / math.factorial(k)
    return float(np.sum(weight * c * s[v])), float(np.sum(weight * c**2 * s[v] ** 2))


@pytest.mark.parametrize(("targets", "batch", "nonzero"), [
    (["He1", "He3"], "reused", 3), (["He1", "He3"], "fresh", 2),
    (["He1", "bounded3"], "reused", 3), (["He3", "He2"], "reused", 1),
    (["He3", "He2"], "fresh", 0)])
def test_spike_constants_on_a_gauss_hermite_grid(targets, batch, nonzero):
    """Every C_k(β_v) and E[c_k² s_v²], k = 0, 1, 2; ``nonzero`` counts the non-zero C_k (a fresh
    batch never reaches a μ_1 = 0 direction; a reused one reaches He_3, not He_2). Tolerance
    1e-6 relative: the bounded target's moments are quadratures on both sides."""
    model = TwoStepModel.build(SIGMA, targets, psi1=PSI1, psi2=PSI2, noise=NOISE)
    seen_nonzero = 0
    for k in range(3):
        for v in range(len(targets)):
            pred = term_prediction(model, k, v, batch)
            C, Q = _grid_expectations(targets, k, v, batch)
            assert float(pred.C) == pytest.approx(C, rel=1e-6, abs=1e-9), (k, v)
            assert float(pred.Q) == pytest.approx(Q, rel=1e-6, abs=1e-9), (k, v)
            seen_nonzero += abs(C) > 1e-6
    assert seen_nonzero == nonzero


@pytest.mark.parametrize("k", [1, 2])
def test_spike_and_mean_square_from_independent_moments(k):
    """E‖H_k v‖² = E[a^{2k+2}] E[(mean of n2 i.i.d. c_k s_v)²] = E[a^{2k+2}](C² + (Q − C²)/n2)
    and the spike √(E a^{2k+2}) |C|, with E a^{2k+2} from scipy's normal moments and C, Q from
    the Gauss–Hermite grid (not from the theory). (A Monte Carlo of the entries was tried: the
    products of Gaussian polynomials are too heavy-tailed for a standard-error test.)"""
    targets, v = ["He1", "He3"], 0
    model = TwoStepModel.build(SIGMA, targets, psi1=PSI1, psi2=PSI2, noise=NOISE)
    pred = term_prediction(model, k, v, "fresh")
    C, Q = _grid_expectations(targets, k, v, "fresh")
    moment = float(stats.norm.moment(2 * k + 2))
    assert pred.double_factorial == pytest.approx(moment, rel=1e-12)
    assert pred.spike == pytest.approx(math.sqrt(moment) * abs(C), rel=1e-9)
    for n2 in (3, 40):
        assert pred.mean_square(n2) == pytest.approx(moment * (C * C + (Q - C * C) / n2),
                                                     rel=1e-9)
    assert abs(C) > 0.1 or k == 1


def test_bbp_overlap_of_a_rectangular_spike_by_monte_carlo():
    """BGN (2012) for W0 + θ u vᵀ, W0 N × d with entries of variance 1/d, c = N/d = 1/2: the top
    right singular vector has |⟨ṽ, v⟩|² → 1 − (c + θ²)/(θ²(θ² + 1)). Monte Carlo: 24 draws at
    N = 300, d = 600 with the θ that one_step_overlap reports; within 5 standard errors plus
    an O(1/√N) finite-size allowance of 0.02 (the left-vector formula, 1 − c(1 + θ²)/(θ²(θ² + c)),
    differs by 0.11 here, so a swapped formula fails)."""
    model = TwoStepModel.build(SIGMA, ["He1", "bounded3"], psi1=PSI1, psi2=PSI2, noise=NOISE)
    out = one_step_overlap(model, Fraction(1, 20), 300, Fraction(1, 2))
    theta, c = out["theta"], 0.5
    assert 1.3 < theta < 2
    rng = np.random.default_rng(12)
    N, d = 300, 600
    vals = []
    for _ in range(24):
        W = rng.standard_normal((N, d)) / math.sqrt(d)
        u = rng.standard_normal(N)
        v = rng.standard_normal(d)
        u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
        X = W + theta * np.outer(u, v)
        _, U = np.linalg.eigh(X @ X.T)  # top left singular vector; the right one is Xᵀũ/‖·‖
        right = X.T @ U[:, -1]
        vals.append(float(right @ v) ** 2 / float(right @ right))
    mean, se = float(np.mean(vals)), float(np.std(vals) / math.sqrt(len(vals)))
    assert abs(mean - out["overlap_b"]) < 5 * se + 0.02, (mean, se, out["overlap_b"])
    left = 1 - c * (1 + theta**2) / (theta**2 * (theta**2 + c))
    assert abs(left - out["overlap_b"]) > 0.1


def test_one_step_strength_and_alignment():
    """θ = N^{α1} |E σ'| B, B² = Σ μ_1(g)² + ψ1 E[y²] (E[y²] with the noise), and the alignment
    Σμ_1²/B² of b = Xᵀy/n with the learned direction: Gauss–Hermite moments for θ, Monte Carlo of
    b (d = 600, n = d/ψ1 = 400, 40 draws, 5 standard errors + 1/√d finite-size allowance)."""
    targets = ["He1", "He3"]
    model = TwoStepModel.build(SIGMA, targets, psi1=PSI1, psi2=PSI2, noise=NOISE)
    out = one_step_overlap(model, Fraction(1, 10), 1000, Fraction(1, 2))
    x1, w1 = _gauss(40)
    mu_sigma = float(w1 @ _sigma_derivative(1, x1))
    B2 = 1 + float(PSI1) * (1 + 6 + float(NOISE) ** 2)
    assert out["theta"] == pytest.approx(1000**0.1 * abs(mu_sigma) * math.sqrt(B2), rel=1e-12)
    assert out["b_alignment"] == pytest.approx(1 / B2, rel=1e-12)
    rng = np.random.default_rng(5)
    d, n = 600, 400
    al = []
    for _ in range(40):
        X = rng.standard_normal((n, d))
        y = X[:, 0] + X[:, 1] ** 3 - 3 * X[:, 1] + float(NOISE) * rng.standard_normal(n)
        b = X.T @ y / n
        al.append(b[0] ** 2 / (b @ b))  # learned direction: μ_1(He1) β1 = e_1 (μ_1(He3) = 0)
    mean, se = float(np.mean(al)), float(np.std(al) / math.sqrt(len(al)))
    assert abs(mean - 1 / B2) < 5 * se + 1 / math.sqrt(d), (mean, se, 1 / B2)
