"""Empirical risk minimisation beside Bayes (logistic, hinge, ridge): the fixed point of the
proportional limit checked a second, independent way, the square loss through the same machinery
against ridge's closed form, the optimal λ, and the command (formats, bad input)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import special

from fltheory.cli import cli
from fltheory.exact import DomainError
from fltheory.papers.glm.erm import erm_fixed_point, erm_optimal, erm_point, ridge
from fltheory.papers.glm.params import Channel, Erm, ErmRun, gaussian, rademacher
from fltheory.papers.glm.theory import NotConverged


def _run(*args):
    return CliRunner().invoke(cli, ["glm", *args])


# ------------------------------------------------------------------ the square loss is ridge


@pytest.mark.parametrize("alpha,lam,rho,probit",
                         [(1.37, 0.29, "13/10", 0), (0.61, 2.3, "1", "1/3")])
def test_square_loss_through_the_fixed_point_is_ridge(alpha, lam, rho, probit):
    """The square loss ½(1 − yŷ)² = ½(y − ŷ)² on ±1 labels run through the generic fixed point
    (prox, quadrature, hybrid root) gives ridge's closed form (Stieltjes transform of the
    Marchenko–Pastur law, no quadrature) at generic α, λ, ρ, probit noise; α < 1 included."""
    ch = Channel("sign", probit=probit)
    r = ridge(gaussian(rho), ch, alpha, lam)
    rh = float(Fraction(rho))
    m, q, _ = erm_fixed_point("square", alpha, lam, rh, float(ch.probit) ** 2, level=2)
    assert m == pytest.approx(r.m, rel=1e-11)
    assert q == pytest.approx(r.q, rel=1e-11)


# ------------------------------------------------------------------ logistic, a second route


def _logistic_reference(alpha, lam, rho, sigma_in):
    """The logistic fixed point computed a second way, written here from the general equations
    (Aubin, Krzakala, Lu & Zdeborová 2020; Loureiro et al. 2021, ℓ2 penalty):
    V̂ = α E[(1 − ∂_ω h)/V], q̂ = α E[f²], m̂ = α E[∂_ω₀ Z₀ f] with f = (h − ω)/V,
    h = prox of the loss, and m = ρm̂/(λ + V̂), q = (ρm̂² + q̂)/(λ + V̂)², V = 1/(λ + V̂).

    Differences from the module, on purpose: m̂ in its Stein form E[f (z − (m/q)ω)]/(ρ − m²/q)
    (the derivative of Z₀ moved onto the Gaussian; the module uses the closed-form density
    term); the expectation over the joint law of the teacher's field z and the student's ω,
    parametrised by the *teacher* (z ~ N(0, ρ), ω = (m/ρ)z + √(q − m²/ρ) v), with the labels
    y = sign(z) drawn explicitly (noiseless: Gauss–Legendre on each half line z > 0, z < 0,
    240 nodes on [0, 12√ρ]; probit: Gauss–Hermite in z, both labels weighted by Φ(yz/σ_in));
    the prox solved in h itself (not in the margin) by plain Newton; the fixed point by damped
    iteration, not a root finder. Returns (m, q, V, error)."""
    v, wv = np.polynomial.hermite_e.hermegauss(80)
    wv = wv / math.sqrt(2 * math.pi)
    if sigma_in == 0:
        x, wx = np.polynomial.legendre.leggauss(240)
        top = 12 * math.sqrt(rho)
        zp = 0.5 * top * (x + 1)
        wz = 0.5 * top * wx * np.exp(-zp ** 2 / (2 * rho)) / math.sqrt(2 * math.pi * rho)
        z, y, wzy = np.concatenate([zp, -zp]), np.concatenate([np.ones(240), -np.ones(240)]), \
            np.concatenate([wz, wz])
    else:
        u, wu = np.polynomial.hermite_e.hermegauss(120)
        wu = wu / math.sqrt(2 * math.pi)
        zz = math.sqrt(rho) * u
        z, y = np.concatenate([zz, zz]), np.concatenate([np.ones(120), -np.ones(120)])
        wzy = np.concatenate([wu * special.ndtr(zz / sigma_in), wu * special.ndtr(-zz / sigma_in)])
    z, y, W = z[:, None], y[:, None], wzy[:, None] * wv[None, :]

    def hats(m, q, V):
        om = (m / rho) * z + math.sqrt(q - m * m / rho) * v[None, :]
        h = om.copy()
        for _ in range(100):  # h − ω − V y σ(−y h) = 0, increasing in h
            step = (h - om - V * y * special.expit(-y * h)) / (
                1 + V * special.expit(y * h) * special.expit(-y * h))
            h = h - step
            if np.max(np.abs(step)) < 1e-15 * (1 + np.max(np.abs(h))):
                break
        f = (h - om) / V
        dh = 1 / (1 + V * special.expit(y * h) * special.expit(-y * h))
        return (alpha * np.sum(W * f * (z - (m / q) * om)) / (rho - m * m / q),
                alpha * np.sum(W * f * f), alpha * np.sum(W * (1 - dh)) / V)

    m, q, V = 0.5, 1.0, 1.0
    for _ in range(4000):
        mh, qh, Vh = hats(m, q, V)
        Vn = 1 / (lam + Vh)
        mn, qn = rho * mh * Vn, (rho * mh * mh + qh) * Vn * Vn
        moved = max(abs(mn - m), abs(qn - q), abs(Vn - V))
        m, q, V = (m + mn) / 2, (q + qn) / 2, (V + Vn) / 2
        if moved < 1e-13:
            break
    else:
        raise AssertionError("the reference iteration did not settle")
    return m, q, V, math.acos(m / math.sqrt((rho + sigma_in ** 2) * q)) / math.pi


@pytest.mark.parametrize("alpha,lam,rho,probit",
                         [(1.7, 0.23, "13/10", 0), (3.0, 0.07, "1", "1/2")])
def test_logistic_against_a_second_route(alpha, lam, rho, probit):
    """m, q, Σ and the classification error of ℓ2-penalised logistic regression at generic
    (α, λ, ρ), noiseless and probit labels, against :func:`_logistic_reference` (agreement
    measured at ~1e-13; both quadratures are converged far below the 1e-9 asked)."""
    m, q, V, err = _logistic_reference(alpha, lam, float(Fraction(rho)), float(Fraction(probit)))
    r = erm_point(gaussian(rho), Channel("sign", probit=probit), alpha, "logistic", lam)
    assert r.m.value == pytest.approx(m, rel=1e-9)
    assert r.q.value == pytest.approx(q, rel=1e-9)
    assert r.sigma.value == pytest.approx(V, rel=1e-9)
    assert r.error.value == pytest.approx(err, rel=1e-9)
    assert r.error.digits >= 10


def test_the_prior_enters_through_rho_only():
    """With the ℓ2 penalty the equations see the teacher only through ρ = E w²: Rademacher and
    N(0, 1) give the same answer (the simulator's claim glm.erm_logistic runs a Rademacher
    teacher)."""
    a = erm_point(rademacher(), Channel("sign"), 1.3, "hinge", 0.4)
    b = erm_point(gaussian(), Channel("sign"), 1.3, "hinge", 0.4)
    assert a.error.value == b.error.value and a.m.value == b.m.value


def test_large_lambda_logistic_and_hinge_meet():
    """λ → ∞: ŵ → Σ_μ y_μ x_μ/(λ√d) for any margin loss with L'(0) ≠ 0 (the Hebbian estimator),
    whose error is arccos(√(2/π)/√(2/π + 1/α))/π for the sign teacher (m ∝ α√(2/π),
    q ∝ α²(2/π) + α): logistic and hinge both tend to it (at λ = 10⁴, to O(1/λ))."""
    alpha = 2.0
    hebb = math.acos(math.sqrt(2 / math.pi) / math.sqrt(2 / math.pi + 1 / alpha)) / math.pi
    for loss in ("logistic", "hinge"):
        r = erm_point(gaussian(), Channel("sign"), alpha, loss, 1e4)
        assert r.error.value == pytest.approx(hebb, abs=1e-4)


# ------------------------------------------------------------------ the optimal λ


def test_optimal_ridge_through_erm_optimal_is_pi_over_2_minus_1():
    """On sign labels of a Gaussian teacher the best ridge λ is π/2 − 1 at every α (the
    Bayes linear estimator; closed form): the λ printed carries only digits that agree."""
    r = erm_optimal(gaussian(), Channel("sign"), 1.9, "ridge")
    assert r.optimal
    assert r.lam.digits >= 3
    # λ in (0.1, 1): its last printed digit is the 10^(−digits) place
    assert float(r.lam.text()) == pytest.approx(math.pi / 2 - 1, abs=10.0 ** -r.lam.digits)
    exact = ridge(gaussian(), Channel("sign"), 1.9, math.pi / 2 - 1).error
    assert r.error.value == pytest.approx(exact, rel=1e-9)


@pytest.mark.parametrize("loss", ["logistic", "hinge"])
def test_optimal_lambda_beats_a_grid(loss):
    """The located minimum is no worse than any of nine λ spread over four decades (a grid
    computed independently of the search's own bracket), and lies strictly inside the range."""
    ch = Channel("sign", probit="1/2")
    best = erm_optimal(gaussian(), ch, 2.5, loss)
    grid = [erm_point(gaussian(), ch, 2.5, loss, lam).error.value
            for lam in np.logspace(-3, 1, 9)]
    assert best.error.value <= min(grid) + 1e-12
    assert 1e-6 < best.lam.value < 1e4


# ------------------------------------------------------------------ refusals and non-convergence


def test_a_fixed_point_that_does_not_converge_says_so():
    """Noiseless labels, α = 1000, λ = 10⁻⁶: the logistic fit's norm is near the hard-margin
    limit and the solver stops short; the error names α, λ and the evaluations."""
    with pytest.raises(NotConverged, match=r"alpha = 1000, lambda = 1e-06 did not converge in "
                                           r"\d+ evaluations"):
        erm_fixed_point("logistic", 1000.0, 1e-6)
    r = _run("--alpha", "1000", "--erm", "logistic", "--lambda", "1/1000000")
    assert r.exit_code == 0, r.output
    assert "not converged" in r.output and "alpha = 1000" in r.output


def test_the_objects_refuse_lambda_zero():
    with pytest.raises(DomainError, match="linearly separable"):
        Erm("logistic", 0)
    with pytest.raises(DomainError, match="lambda"):
        ErmRun(200, 2, 0)


@pytest.mark.parametrize("args,needle", [
    (["--alpha", "2", "--erm", "logistic", "--lambda", "0"], "linearly separable"),
    (["--alpha", "2", "--erm", "ridge", "--lambda", "0"], "not implemented for ridge"),
    (["--alpha", "2", "--erm", "logistic", "--lambda", "-1"], "lambda = -1"),
    (["--alpha", "2", "--erm", "hinge", "--lambda", "100000"], "lambda = 100000"),
    (["--alpha", "2", "--erm", "lasso"], "erm = lasso"),
    (["--alpha", "2", "--lambda", "1"], "without --erm"),
    (["--erm", "logistic"], "needs the sample ratios"),
    (["--alpha", "2", "--erm", "logistic", "--ridge", "1"], "--ridge alone"),
    (["--alpha", "2", "--channel", "abs", "--erm", "logistic"], "not supported by logistic"),
    (["--alpha", "2", "--channel", "linear", "--noise", "1/2", "--erm", "hinge"],
     "not supported by hinge"),
])
def test_bad_erm_input_is_one_line_and_exit_2(args, needle):
    r = _run(*args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], r.output


# ------------------------------------------------------------------ the command


def test_erm_beside_bayes_text_and_json():
    r = _run("--alpha", "2", "--erm", "logistic,ridge", "--lambda", "1/10")
    assert r.exit_code == 0, r.output
    assert "logistic − Bayes" in r.output and "error ridge" in r.output
    j = json.loads(_run("--alpha", "2", "--erm", "logistic,ridge", "--lambda", "1/10",
                        "--format", "json").output)
    logi, rid = j["value"]["erm"]
    point = erm_point(gaussian(), Channel("sign"), 2.0, "logistic", 0.1)
    assert logi["error"] == point.error.text()
    bayes = float(j["value"]["points"][0]["error Bayes"])
    assert float(logi["excess_over_bayes"]) == pytest.approx(point.error.value - bayes,
                                                             rel=1e-9)
    assert float(rid["error"]) == pytest.approx(ridge(gaussian(), Channel("sign"), 2.0,
                                                      0.1).error, rel=1e-12)
    assert j["inputs"]["lambda"] == "1/10"


def test_at_alpha_wr_exactly_the_overlap_is_zero():
    """Gaussian phase retrieval: α_WR = 1/2 exactly and the transition is continuous, so at
    α = α_WR itself the fixed point is the uninformative q = 0 (the limit from both sides); the
    help example ``--channel square --alpha 1/2,1,2`` used to stop there with an internal
    error (no stable fixed point at α = α_WR: the uninformative one was counted stable only
    below it)."""
    from fltheory.papers.glm.theory import point

    p = point(gaussian(), Channel("square"), 0.5)
    assert p.bayes_q.value == 0 and p.amp_q.value == 0
    r = _run("--prior", "gaussian", "--channel", "square", "--alpha", "1/2,1,2")
    assert r.exit_code == 0, r.output
