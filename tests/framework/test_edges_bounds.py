"""Issue 13 (hard edges) for the recovery/threshold and Fisher commands: every argument
that sets the work is bounded before the work starts, values beyond float range are one-line
errors, the d1 = 1 recovery answers (checked against an independent quadrature), and the public
theory/sim functions validate their arguments."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from layout import ROOT

from fltheory.exact import CostError, DomainError


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess with a time bound: a regression that hangs fails, not hangs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "fltheory", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, check=False)


def _refused(result: object, param: str) -> None:
    """Exit 2, exactly one line on stderr, naming the parameter, no traceback."""
    code = getattr(result, "exit_code", getattr(result, "returncode", None))
    err = result.stderr  # type: ignore[attr-defined]
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.startswith("fltheory: error: "), err
    assert f"{param} = " in err, err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- recovery: cost


def test_recovery_large_gamma_refused_before_work():
    """Issue: γ = 3 hung, then was refused (Ruben's series ~ 20·d1^γ terms, quadratic work); the
    Fourier inversion answers it (issue 24). γ = 5 at d1 = 8 is beyond both methods: refused at
    once with the estimate, naming γ and only options that exist (--gamma, --d1)."""
    p = _run("recovery", "--d", "100", "--n", "1e6", "--gamma", "5", timeout=30)
    _refused(p, "gamma")
    assert "Fourier" in p.stderr and "at most 2e+07" in p.stderr
    assert "lower gamma, or raise d1" in p.stderr


@pytest.mark.parametrize("gamma", ["1e309", "1e100", "40"])
def test_recovery_huge_gamma_refused(invoke, gamma):
    _refused(invoke("recovery", "--d", "100", "--n", "1e6", "--gamma", gamma), "gamma")


def test_recovery_gamma_two_answers_quickly():
    """γ = 2 (9 s before, quadratic Python loop) is accepted and finite."""
    p = _run("recovery", "--d", "100", "--n", "1e6", "--gamma", "2", "--format", "json",
             timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    rho2 = [r["rho2"] for r in out["details"]["directions"]]
    assert all(0 <= r <= 1 for r in rho2) and rho2 == sorted(rho2, reverse=True)
    assert out["value"]["recovered"] == 5


def test_recovery_gamma_with_huge_denominator_answers():
    """Issue: γ = 0.7000001 formed R^(10^7). The scaling count now compares logarithms; checked
    against a direct mpmath count at 50 digits."""
    p = _run("recovery", "--d", "100", "--n", "1e6", "--gamma", "0.7000001", "--format",
             "json", timeout=60)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    C = Fraction(out["details"]["C"]).limit_denominator(10**12)
    with mpmath.workdps(50):
        # n_k = C·D·H_8(2γ)·k^(2γ) (the model's c_k² = k^(−2γ)/H_8(2γ)), counted up to d1 = 8
        g = mpmath.mpf(7000001) / 10**7
        H = sum(mpmath.mpf(i) ** (-2 * g) for i in range(1, 9))
        R = mpmath.mpf(10**6) / (mpmath.mpf(C.numerator) / C.denominator * 5050 * H)
        kstar = min(8, int(mpmath.floor(R ** (1 / (2 * g)))))
    assert out["value"]["recovered"] >= 1
    assert out["details"]["recovered_scaling"] == kstar


def test_ruben_term_estimate_bounds_the_terms_used():
    from fltheory.papers.recovery import theory as th

    for d1, g in ((2, 1.0), (3, 2.0), (8, 1.0), (8, 2.0), (16, 1.5), (64, 1.0)):
        c = np.arange(1, d1 + 1.0) ** -g
        w = c / np.linalg.norm(c) / math.sqrt(2)
        est = th.ruben_terms(w)
        assert len(th._GenChi2(w, np.ones(d1)).a) <= est + 2, (d1, g)
        assert est <= 3 * len(th._GenChi2(w, np.ones(d1)).a), (d1, g)


def test_ruben_series_complete_when_first_cumulant_vanishes():
    """d1 = 8, γ = 1: Σ(1 − β/w_i) = 0, so a_1 = 0; the series must not stop there."""
    from fltheory.papers.recovery import theory as th

    c = 1 / np.arange(1, 9.0)
    w = c / np.linalg.norm(c) / math.sqrt(2)
    g = th._GenChi2(w, np.ones(8))
    assert len(g.a) > 50 and abs(g.a.sum() - 1) < 1e-12
    assert abs(g.sf(np.array([0.0]))[0] - 1) < 1e-12


def test_banded_mixture_matches_scipy_chi2_mixture():
    """The banded evaluation against the full mixture written with scipy's χ² laws, for a wide
    spread of weights (d1 = 8, γ = 2: ~1000 terms)."""
    from scipy import stats

    from fltheory.papers.recovery import theory as th

    c = np.arange(1, 9.0) ** -2.0
    w = c / np.linalg.norm(c) / math.sqrt(2)
    m = np.ones(8)
    m[3] = 3
    g = th._GenChi2(w, m)
    x = np.linspace(0.01, 3.0, 40) ** 2
    dof = g.M + 2 * np.arange(len(g.a))
    pdf = np.array([stats.chi2(dof, scale=g.beta).pdf(v) @ g.a for v in x])
    sf = np.array([stats.chi2(dof, scale=g.beta).sf(v) @ g.a for v in x])
    assert np.allclose(g.pdf(x), pdf, rtol=1e-9, atol=1e-13)
    assert np.allclose(g.sf(x), sf, rtol=1e-9, atol=1e-12)


# --------------------------------------------------------------------------- recovery: d1 = 1


def _luli_d1_one(delta: float) -> float:
    """Lu–Li ρ² for d1 = 1, rank transform, by direct mpmath quadrature over h ~ N(0, 1).

    With one direction s = (h² − 1)/√2 is increasing in |h|, so the rank transform is
    T = 2 P(χ²_1 <= h²) − 1 = 2 erf(|h|/√2) − 1: no generalised χ², no Ruben series, no grid.
    ψ(λ) = λ(1/δ + E[T/(λ − T)]), φ(λ) = λ E[T h²/(λ − T)], λ̄ = argmin ψ, λ* the root of
    ψ(λ) = φ(λ) above λ̄, ρ² = ψ'(λ*)/(ψ'(λ*) − φ'(λ*)).
    """
    with mpmath.workdps(20):
        def E(f):  # E over h ~ N(0, 1), symmetric in h
            return 2 * mpmath.quad(lambda h: f(h, 2 * mpmath.erf(h / mpmath.sqrt(2)) - 1)
                                   * mpmath.npdf(h), [0, 0.5, 1, 2, 4, 8, mpmath.inf])

        def psi(lam):
            return lam * (1 / mpmath.mpf(delta) + E(lambda h, t: t / (lam - t)))

        def dpsi(lam):
            return 1 / mpmath.mpf(delta) - E(lambda h, t: t**2 / (lam - t) ** 2)

        def phi(lam):
            return lam * E(lambda h, t: t * h**2 / (lam - t))

        def dphi(lam):
            return -E(lambda h, t: t**2 * h**2 / (lam - t) ** 2)

        lbar = mpmath.findroot(dpsi, (mpmath.mpf("1.0001"), mpmath.mpf(3)), solver="anderson")
        lstar = mpmath.findroot(lambda z: psi(z) - phi(z), (lbar + mpmath.mpf("0.01"),
                                                            mpmath.mpf(20)), solver="anderson")
        assert lstar > lbar
        return float(dpsi(lstar) / (dpsi(lstar) - dphi(lstar)))


@pytest.mark.parametrize(("n", "delta"), [(2325, 5.0), (9300, 20.0)])
def test_recovery_d1_one_answers_and_matches_quadrature(invoke, n, delta):
    """Issue: `recovery --d 30 --q 2 --gamma 1 --n 9300 --d1 1` printed NaN then a traceback.
    D = 465, so δ = n/465; ρ² ≈ 0.72 at δ = 5 (the issue's value)."""
    r = invoke("recovery", "--d", "30", "--q", "2", "--gamma", "1", "--n", str(n), "--d1", "1",
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["details"]["delta"] == delta
    rho2 = out["details"]["directions"][0]["rho2"]
    assert abs(rho2 - _luli_d1_one(delta)) < 1e-4
    assert out["details"]["C"] is None and out["details"]["recovered_scaling"] is None
    assert abs(out["value"]["mse"] - (1 - rho2**2)) < 1e-12  # MSE = 1 − c² ρ⁴, c = 1


@pytest.mark.parametrize("args", [["--d1", "2"], ["--d1", "1", "--transform", "sign"],
                                  ["--d1", "2", "--transform", "sign"],
                                  ["--d1", "3"]])
def test_recovery_small_d1_finite(invoke, args):
    r = invoke("recovery", "--d", "30", "--q", "2", "--gamma", "1", "--n", "9300", *args,
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert "NaN" not in r.stdout and "Infinity" not in r.stdout
    out = json.loads(r.stdout)
    for row in out["details"]["directions"]:
        assert 0 < row["rho2"] < 1 and math.isfinite(row["theta"])


def test_rank_law_d1_two_theta_against_monte_carlo():
    """d1 = 2: θ_k = E[T (h_k² − 1)] with T the rank transform of s = Σ w_i (h_i² − 1), against
    a Monte Carlo over (h_1, h_2) with the empirical ranks (independent of Ruben's series).
    Standard error of the mean < 1.2e-3 at 10^6 samples (|T(h² − 1)| has variance < 1.4)."""
    from fltheory.papers.recovery.theory import RecoveryModel

    model = RecoveryModel.power_law(2, 1.0)
    w = model.c / math.sqrt(2)
    rng = np.random.default_rng(2026)
    h2 = rng.standard_normal((10**6, 2)) ** 2
    s = (h2 - 1) @ w
    T = np.empty(len(s))
    T[np.argsort(s)] = np.arange(1, len(s) + 1)
    T = 2 * T / len(s) - 1
    for k in range(2):
        x = T * (h2[:, k] - 1)
        se = x.std() / math.sqrt(len(x))
        assert abs(model.theta()[k] - x.mean()) < 5 * se, (k, model.theta()[k], x.mean(), se)


# --------------------------------------------------------------------------- recovery: range


@pytest.mark.parametrize(("args", "param"), [
    (["recovery", "--d", "100", "--n", "1e400"], "n"),
    (["recovery", "--d", "100", "--n", "1e-400"], "n"),
    (["recovery", "--d", "1e600", "--n", "1e6"], "d"),
    (["recovery", "--d", "10", "--n", "100", "--gamma", "0"], "gamma"),
    # (γ = 1e-9 at d1 = 2 was refused for a k* of 3.5e8 digits; the count is now the model's,
    # capped at d1, and answered.) At d1 = ∞, ‖λ‖² = ζ(2γ) needs γ > 1/2:
    (["threshold", "--d", "10", "--gamma", "1/2"], "gamma"),
    (["recovery", "simulate", "--gamma", "1e309"], "gamma"),
    (["threshold", "--d", "10", "--C", "-3"], "C"),
    (["threshold", "--d", "10", "--gamma", "0"], "gamma"),
    (["threshold", "--d", "10", "--k", "1..100000"], "k"),
    (["threshold", "--d", "10", "--k", "1..10000000"], "k"),
    (["threshold", "--d", "1e600"], "d"),
    (["threshold", "--d", "10", "--q", "65"], "q"),
])
def test_recovery_and_threshold_refusals(invoke, args, param):
    _refused(invoke(*args), param)


def test_threshold_huge_gamma_answers_with_right_digits():
    """Issue: --gamma 1e100 hung (k^(2·10^100) as an exact integer). Now mpmath with guard
    digits: n_2 = 55·ζ(2γ)·2^(2·10^100) with ζ(2γ) = 1 + 4^(−10^100) (1 to every digit shown);
    its decimal exponent and mantissa are checked against log10 computed at 130 digits. n_1 =
    55·ζ(2γ) is irrational (no exact value) and shows as 55.0."""
    p = _run("threshold", "--d", "10", "--gamma", "1e100", "--k", "1..2", "--format", "json",
             "--dps", "15", timeout=30)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["details"]["thresholds"]
    assert rows[0]["exact"] is None and rows[1]["exact"] is None
    assert rows[0]["numeric"] == "55.0"
    with mpmath.workdps(130):
        lg = 2 * mpmath.mpf(10) ** 100 * mpmath.log10(2) + mpmath.log10(55)
        exponent = int(mpmath.floor(lg))
        mantissa = mpmath.power(10, lg - exponent)
    mant, _, exp = rows[1]["numeric"].partition("e+")
    assert int(exp) == exponent
    assert abs(float(mant) - float(mantissa)) < 1e-12
    a2 = rows[1]["strength"]
    m2, _, e2 = a2.partition("e-")
    with mpmath.workdps(130):
        la = -mpmath.mpf(10) ** 100 * mpmath.log10(2)
        ea = int(mpmath.floor(la))
    assert -int(e2) == ea and abs(float(m2) - float(mpmath.power(10, la - ea))) < 1e-12


def test_threshold_gamma_beyond_float_range_is_refused(invoke):
    # every rational option is bounded to double range at parse time (cli/options.RationalType);
    # gamma = 1e100 above shows the mpmath path answers far beyond float exponents
    r = invoke("threshold", "--d", "10", "--gamma", "1e309", "--k", "1..3", "--format", "json")
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "gamma = 1e309" in r.stderr


# --------------------------------------------------------------------------- recovery: API


def test_recovery_api_validates():
    from fltheory.papers.recovery import theory as th

    with pytest.raises(DomainError, match="C = -3"):
        th.threshold(10, 2, 1, Fraction(1), Fraction(-3))
    with pytest.raises(DomainError, match="C = -3"):
        th.threshold_exact(10, 2, 1, Fraction(1), Fraction(-3))
    with pytest.raises(DomainError, match="gamma = 0"):
        th.recovered_count(Fraction(10**6), 100, 2, Fraction(0))
    with pytest.raises(DomainError, match="n = 0"):
        th.recovered_count(Fraction(0), 100, 2, Fraction(1))
    with pytest.raises(DomainError, match="k = 0"):
        th.threshold(10, 2, 0, Fraction(1))
    with pytest.raises(DomainError, match="q = 65"):
        th.feature_dimension(10, 65)
    with pytest.raises(CostError, match="gamma = 5"):
        th.RecoveryModel.power_law(8, Fraction(5))
    with pytest.raises(CostError, match="strengths"):
        th.RecoveryModel([1.0, 1e-6])
    with pytest.raises(DomainError, match="d1 = 1"):
        th.RecoveryModel.power_law(1, 1.0).weak_constant()


@pytest.mark.parametrize("seed", range(6))
def test_recovered_count_log_path_matches_exact_integers(seed):
    """The logarithmic comparison (used when the powers would be huge) against the exact
    integer comparison k^{2u} <= R^v, at random small cases including exact ties."""
    from fltheory.papers.recovery import theory as th

    rng = np.random.default_rng(seed)
    for _ in range(40):
        u, v = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        R = Fraction(int(rng.integers(1, 10**6)), int(rng.integers(1, 50)))
        k = int(rng.integers(1, 200))
        assert th._power_leq(k, u, v, R) == (k ** (2 * u) <= R ** v), (k, u, v, R)
    # exact ties: k^{2u} = R^v with R = t^{2u/g}, k = t^{v/g}
    for t, u, v in ((3, 1, 2), (2, 3, 4), (5, 2, 2), (7, 1, 1)):
        g = math.gcd(2 * u, v)
        R, k = Fraction(t ** (2 * u // g)), t ** (v // g)
        assert th._power_leq(k, u, v, R) and not th._power_leq(k + 1, u, v, R)


# --------------------------------------------------------------------------- fisher


@pytest.mark.parametrize(("args", "param"), [
    (["fisher", "simulate", "--d", "1e9"], "d"),
    (["fisher", "simulate", "--d", "1e400"], "d"),
    (["fisher", "simulate", "--d", "5", "--m", "20000"], "m"),
    (["fisher", "simulate", "--d", "5", "--m", "1"], "m"),
    (["fisher", "--d", "1e16", "--lmax", "60"], "lmax"),
    (["fisher", "--d", "10", "--lmax", "60", "--dps", "1000"], "dps"),  # one --dps bound
    (["fisher", "--d", "1e4000", "--lmax", "1"], "d"),
    (["fisher", "--d", "3", "--lmax", "61"], "lmax"),
    (["fisher", "--d", "1"], "d"),
])
def test_fisher_refusals(invoke, args, param):
    _refused(invoke(*args), param)


def test_fisher_simulate_huge_d_refused_without_allocating():
    """Issue: `fisher simulate --d 1e9` tried to allocate 16 TB; refused at once."""
    p = _run("fisher", "simulate", "--d", "1e9", timeout=30)
    _refused(p, "d")


def test_fisher_huge_d_answers_finite(invoke):
    r = invoke("fisher", "--d", "1e100", "--lmax", "4", "--format", "json")
    assert r.exit_code == 0, r.stderr
    levels = json.loads(r.stdout)["details"]["levels"]
    assert "nan" not in r.stdout.lower() and "inf" not in r.stdout.lower()
    # λ_0 → d/(2π) + 1/(4π) for large d, λ_1 = 1/4, λ_3 = 0 (module docstring)
    with mpmath.workdps(40):
        lam0 = mpmath.mpf(levels[0]["numeric"])
        # the relative O(1/d) correction is 1/(2d) = 5e-101: all 30 printed digits agree
        assert abs(lam0 / (mpmath.mpf(10) ** 100 / (2 * mpmath.pi)) - 1) < mpmath.mpf(10) ** -28
    assert levels[1]["exact"] == "1/4" and levels[3]["exact"] == "0"


def test_fisher_api_validates():
    from fltheory.papers.fisher import sim
    from fltheory.papers.fisher import theory as th

    with pytest.raises(CostError, match="lmax = 60"):
        th.spectrum(10**16, 60)
    with pytest.raises(DomainError, match="d = 1 "):
        th.spectrum(1, 2)
    with pytest.raises(DomainError, match="d = 1000000000"):
        sim.sample(10**9, 2000, 0)
    with pytest.raises(ValueError, match="seed = -1"):
        sim.sample(3, 10, -1)


def test_sim_sizes_validated_at_the_api():
    from fltheory.papers.recovery import sim as rsim

    with pytest.raises(DomainError, match="d = 10000"):
        rsim.run(10**4, 100, 0)
    with pytest.raises(DomainError, match="n = 1"):
        rsim.run(10, 1, 0)
