"""Hard edges of ``fltheory quadratic …`` (issue 13): every bad input one line and exit 2, every
request that would hang or exhaust memory refused before work starts, blow-ups reported as
such (never NaN printed as a number), exact steps passed through to the theory.

Commands that used to hang run in a subprocess with a timeout, so a regression fails instead of
hanging the suite.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from layout import ROOT
from unwrap import unwrap

from fltheory.exact import CostError, DomainError
from fltheory.papers.quadratic import sim
from fltheory.papers.quadratic import theory as th

NAN = re.compile(r"\b(nan|inf)\b", re.IGNORECASE)


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "fltheory", "quadratic", *args],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)


def _refused(res, *needles: str) -> None:  # type: ignore[no-untyped-def]
    assert res.returncode if hasattr(res, "returncode") else res.exit_code
    code = res.returncode if hasattr(res, "returncode") else res.exit_code
    assert code == 2, (code, res.stdout, res.stderr)
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr, res.stderr
    for needle in needles:
        assert needle in res.stderr, (needle, res.stderr)


def _strict_json(text: str) -> dict:  # type: ignore[type-arg]
    def bad(const: str) -> None:
        raise AssertionError(f"non-finite number {const} in JSON")

    return json.loads(text, parse_constant=bad)


# --- hangs: refused from a cost estimate, before work starts --------------------------------

@pytest.mark.parametrize(("args", "needles"), [
    (["ode", "--p", "4", "--p-star", "1000", "--eta", ".1"], ["p* = 1000", "seconds"]),
    (["ode", "--p", "10000", "--p-star", "2", "--eta", ".1"], ["p = 10000", "bytes"]),
    (["ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--t-max", "1e6"], ["t_max"]),
    (["equations", "--p", "4", "--p-star", "3"], ["p + p* = 7", "seconds"]),
    (["hessian", "--p", "60", "--p-star", "60", "--N", "200"], ["p = 60", "seconds"]),
    (["escape", "--eta", "1e-9"], ["eta = 1/1000000000", "bytes"]),
    (["escape", "--samples", "100000"], ["100000 samples", "seconds"]),
    (["escape", "--N", "100..1000000"], ["seconds"]),
    (["simulate", "--N", "20000", "--t-max", "1000"], ["N = 20000", "seconds"]),
])
def test_hangs_are_refused_before_work(args, needles):
    res = _run(*args, timeout=50)
    _refused(res, *needles)


def test_accepted_ode_cost_is_honest():
    """A request just inside the bound really finishes within it (the estimate is not a bound
    pulled from the air): p* = 200 at p = 4 is estimated under 40 s for both integrations."""
    th.check_ode_request(4, 200, 0.1, 200.0, 401, count=2)
    res = _run("ode", "--p", "4", "--p-star", "200", "--eta", ".1", "--format", "json",
               timeout=60)
    assert res.returncode == 0, res.stderr
    assert math.isfinite(_strict_json(res.stdout)["value"])


# --- tracebacks -------------------------------------------------------------------------------

def test_escape_tiny_step_is_refused_with_the_memory_estimate(invoke):
    """η = 1e-9 used to allocate a 103 GiB time grid (the horizon ∝ p*/η)."""
    with pytest.raises(CostError) as exc:
        th.check_escape_request(4, 2, Fraction(1, 10**9), [250])
    assert exc.value.estimate > 1e10
    _refused(invoke("quadratic", "escape", "--eta", "1e-9", "--N", "250"), "eta", "bytes")


def test_simulate_above_the_plateau_bound_is_refused_naming_it(invoke):
    """η = 1/3 > η_max(4, 2) = 3/10: no plateau fixed point, the ODE blows up (it used to end in
    'step size underflow')."""
    res = invoke("quadratic", "simulate", "--N", "50", "--t-max", "5", "--eta", "1/3")
    _refused(res, "eta = 1/3", "3/10")


@pytest.mark.parametrize("value", ["1e-400", "1e400"])
def test_steps_beyond_double_range(invoke, value):
    for cmd in (["ode", "--p", "4", "--p-star", "2"], ["hessian", "--p", "2", "--p-star", "2"],
                ["escape"], ["simulate"]):
        _refused(invoke("quadratic", *cmd, "--eta", value), "eta")


def test_ode_blow_up_is_refused_with_the_stability_bounds(invoke):
    """η = 3/10 = η_max: the plateau is marginal and the ODE blows up after the escape."""
    res = invoke("quadratic", "ode", "--p", "4", "--p-star", "2", "--eta", ".3", "--t-max",
                 "1000")
    _refused(res, "eta = 3/10", "diverge", "3/10", "1/4")


@pytest.mark.parametrize("method", ["dopri", "lsoda"])
def test_integrate_reports_a_blow_up(method):
    if method == "dopri":
        pytest.importorskip("numba")
    # above η_max(4, 2) = 3/10 the plateau has no fixed point: q grows like q³
    with pytest.raises(th.ODEDivergence) as exc:
        th.integrate(np.eye(4) / 4, 1e-3 * np.ones((4, 2)), np.eye(2), 0.35,
                     np.linspace(0, 50, 11), method=method)
    assert 0 < exc.value.t <= 50 and exc.value.param == "eta"


# --- silently wrong ---------------------------------------------------------------------------

def test_rho0_zero_is_an_explained_fixed_point(invoke):
    res = invoke("quadratic", "ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--rho0", "0")
    assert res.exit_code == 0 and not NAN.search(res.stdout) and not res.stderr
    assert "exact fixed point" in res.stdout and "undefined" in res.stdout
    res = invoke("quadratic", "ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--rho0", "0",
                 "--format", "json")
    data = _strict_json(res.stdout)
    assert data["details"]["S_drift"] is None and data["details"]["escape_time"] is None


def test_polar_factor_of_a_rank_deficient_overlap_is_a_domain_error():
    with pytest.raises(DomainError, match=r"^rho = "):
        th.polar_factor(np.zeros((4, 2)))
    with pytest.raises(DomainError, match=r"^rho = "):
        th.polar_factor(np.outer([1.0, 2.0, 3.0], [1.0, 1.0]))
    with pytest.raises(DomainError, match=r"^rho = "):
        th.implicit_bias_drift(np.eye(4) / 4, np.zeros((4, 2)), np.eye(2), 0.1, 10)
    # p < p*: the orthonormal-row factor, orthonormal indeed
    S = th.polar_factor(np.random.default_rng(0).standard_normal((2, 3)))
    assert np.allclose(S @ S.T, np.eye(2), atol=1e-12)


def test_sgd_divergence_is_an_explicit_outcome(invoke):
    res = invoke("quadratic", "simulate", "--N", "200", "--t-max", "10", "--eta", "0.3")
    assert res.exit_code == 0, res.stderr
    assert re.search(r"SGD diverged at t ≈ \d", res.stdout), res.stdout
    assert not NAN.search(res.stdout) and "diverged" in res.stdout.split("SGD test loss")[1]
    res = invoke("quadratic", "simulate", "--N", "200", "--t-max", "10", "--eta", "0.3",
                 "--format", "json")
    data = _strict_json(res.stdout)
    assert data["value"] is None and 0 < data["details"]["sgd_diverged_at"] <= 10
    assert None in data["details"]["sgd_test_loss"]


def test_sgd_detects_its_own_divergence():
    """At the simulator's level: the run stops, records the time, the rest of the records are
    NaN (not reached), and no RuntimeWarning escapes (filterwarnings = error)."""
    N = 200
    rng = np.random.default_rng(0)
    Ws = sim.orthonormal_teacher(N, 2, rng)
    W0 = 0.5 * rng.standard_normal((4, N))
    t = np.linspace(0, 10, 21)
    run = sim.sgd(W0, Ws, 0.3, t, 100, n_test=200)
    assert run.diverged_at is not None and 0 < run.diverged_at <= 10
    reached = t <= run.diverged_at - 64 / N  # records before the block that diverged
    assert np.isfinite(run.Q[reached]).all() and np.isnan(run.Q[-1]).all()
    fine = sim.sgd(W0, Ws, 0.1, t[:5], 100)
    assert fine.diverged_at is None and np.isfinite(fine.Q).all()


@pytest.mark.parametrize(("args", "param"), [
    (["hessian", "--p", "4", "--p-star", "2", "--eta", "0"], "eta"),
    (["hessian", "--p", "4", "--p-star", "2", "--eta", "-1/10"], "eta"),
    (["escape", "--noise", "-1"], "noise"),
    (["escape", "--q0", "0"], "q0"),
    (["ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--noise", "-1"], "noise"),
    (["ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--rho0", "-1"], "rho0"),
    (["ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--q0", "0"], "q0"),
    (["ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--t-max", "0"], "t_max"),
    (["ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--teacher", "diag:1e400,1"],
     "teacher"),
    (["ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--q0", "1e300"], "q0"),
    (["ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--rho0", "1e300"], "rho0"),
    (["ode", "--p", "4", "--p-star", "2", "--eta", ".1", "--teacher", "diag:1e300,1e-300"],
     "teacher"),
    (["escape", "--q0", "1e300"], "q0"),
    (["escape", "--threshold", "1e-300"], "threshold"),
    (["simulate", "--eta", "0"], "eta"),
    (["simulate", "--t-max", "0"], "t_max"),
])
def test_bad_values_are_one_line(invoke, args, param):
    _refused(invoke("quadratic", *args), param)


# --- validation at the API --------------------------------------------------------------------

def test_theory_validates_its_arguments():
    T, Q, R = np.eye(2), np.eye(3) / 4, 1e-3 * np.ones((3, 2))
    t = np.linspace(0, 1, 3)
    for kwargs, param in [({"eta": 0.0}, "eta"), ({"eta": -0.1}, "eta"),
                          ({"eta": float("nan")}, "eta"), ({"sigma": -1.0}, "sigma"),
                          ({"Q0": np.eye(2)}, "Q0"), ({"T": np.eye(3)}, "T"),
                          ({"t_grid": np.array([1.0, 0.0])}, "t_grid"),
                          ({"Q0": np.full((3, 3), np.inf)}, "Q0"),
                          ({"Q0": 1e300 * np.eye(3)}, "Q0")]:
        args = {"Q0": Q, "R0": R, "T": T, "eta": 0.1, "t_grid": t} | kwargs
        with pytest.raises(DomainError, match=rf"^{param} = "):
            th.integrate(**args)
    with pytest.raises(DomainError, match=r"^eta = "):
        th.ode_jacobian_counts(2, 2, Fraction(0))
    with pytest.raises(DomainError, match=r"^noise = "):
        th.plateau(2, 2, Fraction(1, 10), Fraction(-1))
    with pytest.raises(DomainError, match=r"^noise = "):
        th.escape_time_law(4, 2, Fraction(1, 10), 1000, sigma=-1.0, samples=10)
    with pytest.raises(DomainError, match=r"^q0 = "):
        th.escape_time_law(4, 2, Fraction(1, 10), 1000, q0=0.0, samples=10)
    with pytest.raises(DomainError, match=r"^p = "):
        th.plateau(0, 2, Fraction(1, 10))
    with pytest.raises(DomainError, match=r"^t = "):
        th.plateau_overlap_variance(4, 2, Fraction(1, 10), 1e6)


def test_simulator_validates_its_arguments():
    rng = np.random.default_rng(0)
    Ws = sim.orthonormal_teacher(50, 2, rng)
    W0 = rng.standard_normal((3, 50))
    t = np.linspace(0, 1, 3)
    for args, kwargs, param in [((W0, Ws, 0.0, t, 0), {}, "eta"),
                                ((W0, Ws[:, :40], 0.1, t, 0), {}, "W_star"),
                                ((W0, Ws, 0.1, -t, 0), {}, "t_grid"),
                                ((W0, Ws, 0.1, t, 0), {"sigma": -1.0}, "sigma"),
                                ((W0, Ws, 0.1, t, 0), {"n_test": 10**9}, "n_test")]:
        with pytest.raises(DomainError, match=rf"^{param} = "):
            sim.sgd(*args, **kwargs)
    with pytest.raises(DomainError, match=r"^N = "):
        sim.hessian_counts_at_solution(4, 2, 10**4, 0)
    with pytest.raises(DomainError, match=r"^N = "):
        sim.orthonormal_teacher(1, 2, rng)


# --- the stability bounds, derived and checked independently ---------------------------------

@pytest.mark.parametrize(("p", "p_star"), [(3, 2), (5, 3), (2, 1)])
def test_solution_stability_bound_against_the_numerical_jacobian(p, p_star):
    """η_sol = p*/(2(p* + 2)) (derived in stability_bounds) against the largest real part of
    the ODE's numerical Jacobian at a zero-loss point: <= 0 just below, > 0 just above."""
    eta_sol = float(th.stability_bounds(p, p_star)["solution"])
    a, b, T = 1 / p, 1 / p_star, np.eye(p_star)
    O, _ = np.linalg.qr(np.random.default_rng(1).standard_normal((p, p_star)))
    R0 = O * math.sqrt(b / a)
    Q0 = R0 @ R0.T
    iu = np.triu_indices(p)

    def top(eta: float) -> float:
        def field(v: np.ndarray) -> np.ndarray:
            Q = np.zeros((p, p))
            Q[iu] = v[:len(iu[0])]
            Q = Q + Q.T - np.diag(np.diag(Q))
            dQ, dR = th.rhs_matrix(Q, v[len(iu[0]):].reshape(p, p_star), T, a, b, p * eta)
            return np.concatenate([dQ[iu], dR.ravel()])

        x0 = np.concatenate([Q0[iu], R0.ravel()])
        J = np.column_stack([(field(x0 + 1e-6 * e) - field(x0 - 1e-6 * e)) / 2e-6
                             for e in np.eye(len(x0))])
        return float(np.linalg.eigvals(J).real.max())

    assert top(0.97 * eta_sol) < 1e-7 < top(1.03 * eta_sol)


def test_plateau_bound_is_where_the_fixed_point_disappears():
    eta_max = th.stability_bounds(4, 2)["plateau"]
    assert eta_max == Fraction(3, 10)  # the discriminant's root, exact
    th.plateau(4, 2, Fraction(3, 10))
    with pytest.raises(DomainError, match="3/10"):
        th.plateau(4, 2, Fraction(3, 10) + Fraction(1, 10**6))


# --- exactness -----------------------------------------------------------------------------------

def test_escape_passes_the_exact_step(invoke, monkeypatch):
    """η = 1234567890123/10^13: the CLI used to pass float(η) and theory turned it back with
    limit_denominator(10^12), a different step. Now the Fraction itself reaches the theory."""
    eta = Fraction(1234567890123, 10**13)
    assert Fraction(float(eta)).limit_denominator(10**12) != eta  # the old path changed it
    seen = []
    law = th.escape_law

    def spy(model, request, N):  # type: ignore[no-untyped-def]
        seen.append(request.eta)
        return law(model, request, N)

    # the command's one call, runs.escape_laws, looks the law up on the theory's face
    monkeypatch.setattr(th, "escape_law", spy)
    res = invoke("quadratic", "escape", "--eta", "0.1234567890123", "--N", "300", "--samples",
                 "10", "--format", "json")
    assert res.exit_code == 0, res.stderr
    assert seen == [eta] and type(seen[0]) is Fraction
    data = _strict_json(res.stdout)
    assert data["details"]["rate"] == th.plateau(4, 2, eta).escape_rate
    assert data["inputs"]["eta"] == f"{eta.numerator}/{eta.denominator}"


def test_plateau_at_a_tiny_step_has_no_cancellation():
    """q*(η) → p/(p + 2) as η → 0; at η = 1e-200 the textbook root (−A1 − √disc)/(2A2)
    cancels catastrophically (it used to give q* ≈ 5e77)."""
    r = th.plateau(4, 2, Fraction(1, 10**200))
    assert abs(r.q - 2 / 3) < 1e-12 and abs(r.loss - th.plateau(4, 2, Fraction(0)).loss) < 1e-12


@pytest.mark.parametrize(("p", "p_star"), [("1000", "2"), ("2", "1e18")])
def test_equations_cost_estimate_does_not_overflow(invoke, p, p_star):
    """Found by benchmarks/fuzz_cli.py: 2.3^(p + p* − 4) overflowed a float at p = 1000."""
    r = invoke("quadratic", "equations", "--p", p, "--p-star", p_star)
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "internal error" not in r.stderr


def test_drift_of_s_prints_no_round_off_digits():
    """The isotropic start conserves S exactly (the drift is 0: the ODE's state keeps the
    structure Q = qI + VSVᵀ, ρ = VK), so the text prints no digit of the round-off it measures
    (9.5e-16 at rtol 1e-9, 9.8e-16 at 1e-12); an anisotropic teacher's drift is O(1) and is
    printed, the same number as the JSON's S_drift."""
    iso = _run("ode", "--p", "4", "--p-star", "2", "--eta", "1/10")
    assert iso.returncode == 0, iso.stderr
    line = next(s for s in unwrap(iso.stdout).splitlines() if "drift of S" in s)
    assert "< 1e-12 (round-off)" in line and "e-16" not in line and "conserved" in line
    args = ("ode", "--p", "4", "--p-star", "2", "--eta", "1/10", "--teacher",
            "diag:3/2,1/2")
    aniso, js = _run(*args), _run(*args, "--format", "json")
    line = next(s for s in unwrap(aniso.stdout).splitlines() if "drift of S" in s)
    drift = json.loads(js.stdout)["details"]["S_drift"]
    assert drift > 0.1 and f"{drift:.2e}" in line and "not conserved" in line
