"""Issue 24 (committee correctness): ReLU averages at the singular covariances of convergence,
ε_g printed with its accuracy, runaway detection, the plateau without a guess, and the second
layers' range. References are computed here independently of the code under test."""

from __future__ import annotations

import itertools
import json
import math
import re

import numpy as np
import pytest
from scipy import integrate

from fltheory.papers.committee.gaussian import averages


def _rank2_i4(L: np.ndarray) -> float:
    """E[θ(u) θ(v) relu(w) relu(z)] for fields (u, v, w, z) = L g, g ~ N(0, I_2), L (4 × 2):
    in polar coordinates g = ρ(cos φ, sin φ) every field is ρ |l_i| cos(φ − φ_i), so the
    average is (1/2π) ∫ ρ³ e^{−ρ²/2} dρ ∫ h(φ) dφ = (1/π) ∫_0^{2π} h(φ) dφ with
    h = 1{f_u > 0} 1{f_v > 0} f_w⁺ f_z⁺ at ρ = 1 — integrated by adaptive quadrature
    between the zero crossings φ_i ± π/2 (h is smooth between them)."""
    phis = np.arctan2(L[:, 1], L[:, 0])
    cuts = sorted({float((p + s * math.pi / 2) % (2 * math.pi)) for p in phis for s in (1, -1)}
                  | {0.0, 2 * math.pi})

    def h(phi: float) -> float:
        f = L @ np.array([math.cos(phi), math.sin(phi)])
        return float((f[0] > 0) * (f[1] > 0) * max(f[2], 0.0) * max(f[3], 0.0))

    total = sum(integrate.quad(h, lo, hi, epsabs=1e-15, epsrel=1e-13)[0]
                for lo, hi in itertools.pairwise(cuts) if hi > lo)
    return total / math.pi


@pytest.mark.parametrize("delta", [1e-2, 1e-5, 1e-8, 1e-11, 1e-14, 0.0])
def test_relu_i4_at_near_singular_covariances_matches_polar_quadrature(delta):
    # a converged student on its teacher: λ = (1 − δ) ν + √(2δ − δ²) ν⊥, with every
    # arrangement of (λ, ν) over (u, v, w, z), and a second unit at a generic angle
    lam = np.array([1 - delta, math.sqrt(max(2 * delta - delta**2, 0.0))])
    nu = np.array([1.0, 0.0])
    other = 0.8 * np.array([math.cos(2.0), math.sin(2.0)])
    av = averages("relu")
    for rows in ((lam, lam, nu, nu), (lam, lam, lam, nu), (lam, nu, lam, nu),
                 (lam, nu, nu, nu), (lam, lam, lam, lam), (lam, other, nu, lam),
                 (lam, nu, other, other)):
        L = np.array(rows)
        got = float(av.i4(L @ L.T))
        assert got == pytest.approx(_rank2_i4(L), abs=2e-10), (delta, L)


def test_relu_i4_stays_finite_and_close_when_rounding_makes_c_indefinite():
    # R = 1 + 1e-12 with Q = T = 1 (the last digits of an integration past convergence):
    # before, 1/√1e-300 factors gave 1e150 or a DomainError; now within 1e-9 of the PSD point
    av = averages("relu")
    for idx in ([0, 0, 1, 1], [0, 1, 0, 1], [0, 1, 1, 1]):
        J = np.array([[1.0, 1.0 + 1e-12], [1.0 + 1e-12, 1.0]])
        J0 = np.ones((2, 2))
        assert float(av.i4(J[np.ix_(idx, idx)])) == pytest.approx(
            float(av.i4(J0[np.ix_(idx, idx)])), abs=1e-9)


def test_relu_ode_runs_through_convergence_k1_and_k2_m1():
    from fltheory.papers.committee.model import CommitteeModel
    from fltheory.papers.committee.ode import integrate

    # K = M = 1: before, the integration ended in a DomainError ("a covariance with a zero
    # variance"); ε_g decays to the accuracy floor and Q, R reach T = 1
    tr = integrate(CommitteeModel("relu", 1, 1), "1/2", [[0.25]], [[1e-3]], np.eye(1),
                   np.linspace(0, 400, 41))
    assert abs(tr.Q[-1, 0, 0] - 1) < 1e-7 and abs(tr.R[-1, 0, 0] - 1) < 1e-7
    assert abs(tr.eps_g[-1]) < 1e-8
    # K = 2, M = 1 (before: a raw numpy RuntimeWarning, an error under filterwarnings=error)
    tr = integrate(CommitteeModel("relu", 2, 1), "1/2", 0.25 * np.eye(2), [[1e-3], [2e-3]],
                   np.eye(1), np.linspace(0, 100, 11))
    assert np.all(np.diff(tr.eps_g) < 0) and tr.eps_g[-1] < 1e-4


def _json(invoke, *args):
    r = invoke("committee", *args, "--format", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_ode_eps_g_is_never_negative_and_carries_its_accuracy(invoke):
    d = _json(invoke, "ode", "--eta", "1/2", "--t-max", "1000")
    eps, acc = d["details"]["eps_g"], d["details"]["eps_g_accuracy"]
    assert min(eps) >= 0 and len(acc) == len(eps) and all(a > 0 for a in acc)
    assert eps[-1] <= acc[-1]  # converged: below the stated accuracy
    r = invoke("committee", "ode", "--eta", "1/2", "--t-max", "1000")
    assert r.exit_code == 0 and "ε_g at t = 1000: < " in r.stdout and "e-14" not in r.stdout


def test_ode_far_above_eta_max_says_it_runs_away(invoke):
    d = _json(invoke, "ode", "--eta", "20")
    run = d["details"]["runaway"]
    # tr Q/K of erf at η = 20 grows like t^(2/3) to ~1000 by t = 200 (issue 24)
    assert run is not None and run["trQ_over_K"] > 100 and run["t"] < 200
    assert d["details"]["t"][-1] == run["t"]
    r = invoke("committee", "ode", "--eta", "20")
    assert "runs away" in r.stdout
    assert _json(invoke, "ode", "--eta", "1/2", "--t-max", "50")["details"]["runaway"] is None


def test_relu_plateau_without_a_guess_and_with_one(invoke):
    d = _json(invoke, "plateau", "--g", "relu", "--eta", "1/2")
    v = d["value"]
    g = _json(invoke, "plateau", "--g", "relu", "--eta", "1/2", "--guess",
              f"{v['q'] + 0.01},{v['c'] - 0.01},{v['r']}")["value"]
    for k in ("q", "c", "r", "eps_g", "escape_rate"):
        assert g[k] == pytest.approx(v[k], abs=1e-8)
    r = invoke("committee", "plateau", "--eta", "1/2", "--guess", "1,2")
    assert r.exit_code == 2 and "guess" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("a", ["1e-100", "1e-9", "1e-3", "1/100", "1/3", "4", "5", "1e3",
                               "1e100", "-1e100"])
def test_second_layer_fuzz_gives_a_result_or_one_domain_line(invoke, a):
    for args in (("ode", "--K", "2", "--M", "2", "--eta", "1/2", "--t-max", "20"),
                 ("plateau", "--eta", "1/2")):
        for opt in ("--a", "--a-star"):
            r = invoke("committee", *args, opt, a)
            out = r.stdout + r.stderr
            assert r.exit_code in (0, 2), out
            assert "Traceback" not in out and "internal error" not in out
            assert not re.search(r"\bnan\b", out, re.IGNORECASE)
            if r.exit_code == 2:
                assert r.stderr.startswith("fltheory: error:") and r.stderr.count("\n") == 1
            from fractions import Fraction
            v = abs(Fraction(a) if "e" not in a else Fraction(float(a)))
            if not Fraction(1, 100) <= v <= 4:  # outside the range: refused up front, named
                assert r.exit_code == 2 and opt.lstrip("-").replace("-", "_") in r.stderr
