"""committee_ode.integrate and committee_plateau on the committee model itself
(committee_equations' right side): methods against each other, the quadratic module reproduced
at g = x², a = 1/p (its own integrator and formulas), erf against a right side typed from
Saad–Solla's closed forms (tests/papers/committee/test_plateau.py), bad input."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.exact import CostError, DomainError
from fltheory.papers.committee import plateau as cp
from fltheory.papers.committee.model import CommitteeModel, generalisation_error
from fltheory.papers.committee.ode import CommitteeDivergence, integrate

ERF22 = CommitteeModel("erf_ss", 2, 2)


def _start(K, M, seed=0):
    """A PSD start from weights: W ~ N(0, 1/2) per entry, orthonormal teacher, N = 400."""
    rng = np.random.default_rng(seed)
    N = 400
    W = rng.standard_normal((K, N)) * math.sqrt(0.5)
    Ws = np.linalg.qr(rng.standard_normal((N, M)))[0].T * math.sqrt(N)
    return W @ W.T / N, W @ Ws.T / N, Ws @ Ws.T / N


def test_methods_agree_and_eps_grid_is_generalisation_error():
    Q0, R0, T = _start(2, 2)
    t = np.linspace(0.0, 40.0, 21)
    runs = {m: integrate(ERF22, "1/2", Q0, R0, T, t, method=m) for m in ("dop853", "lsoda")}
    runs["auto"] = integrate(ERF22, "1/2", Q0, R0, T, t)
    ref = runs["dop853"]
    for name, tr in runs.items():
        assert np.abs(tr.eps_g - ref.eps_g).max() < 1e-7 * ref.eps_g.max(), name
        assert np.abs(tr.R - ref.R).max() < 1e-7, name
        assert tr.nfev > 0
    for i in (0, 7, 20):
        assert abs(ref.eps_g[i] - generalisation_error(ERF22, ref.Q[i], ref.R[i], T)) < 1e-14
    assert ref.eps_g[-1] < ref.eps_g[0]


@pytest.mark.parametrize("p, ps, eta", [(3, 2, Fraction(3, 40)), (2, 3, Fraction(1, 20))])
def test_quadratic_integration_reproduced(p, ps, eta):
    """g = x², a = 1/p, a* = 1/p*: the committee step is η_w = p η of the quadratic module."""
    from fltheory.papers.quadratic.theory import integrate as q_integrate

    model = CommitteeModel("x**2", p, ps, a="1/K", a_star="1/M")
    Q0, R0, T = _start(p, ps, 1)
    t = np.linspace(0.0, 30.0, 7)
    tr = integrate(model, p * eta, Q0, R0, T, t, method="dop853")
    ref = q_integrate(Q0, R0, T, float(eta), t, reduce=False, method="lsoda", rtol=1e-11,
                      atol=1e-13)
    assert np.abs(tr.Q - ref.Q).max() < 1e-7 and np.abs(tr.R - ref.R).max() < 1e-7
    assert np.abs(tr.eps_g - ref.loss).max() < 1e-7


def test_quadratic_blow_up_is_a_divergence_with_its_time():
    """Above the plateau bound the x² ODE blows up in finite time: both modules say so, at the
    same time (to 1e-3)."""
    from fltheory.papers.quadratic.theory import ODEDivergence
    from fltheory.papers.quadratic.theory import integrate as q_integrate

    p, ps, eta = 2, 1, Fraction(1)
    model = CommitteeModel("x**2", p, ps, a="1/K", a_star="1/M")
    Q0, R0, T = np.eye(p) / 2, np.full((p, ps), 0.1), np.eye(ps)
    t = np.linspace(0.0, 50.0, 6)
    with pytest.raises(ODEDivergence) as ref:
        q_integrate(Q0, R0, T, float(eta), t, reduce=False, method="lsoda")
    for method in ("dop853", "auto"):  # rtol 1e-6: the steps shrink towards the singularity
        with pytest.raises(CommitteeDivergence) as info:
            integrate(model, p * eta, Q0, R0, T, t, method=method, rtol=1e-6)
        assert abs(info.value.t - ref.value.t) < 1e-3 * ref.value.t, method
        assert info.value.param == "eta"


def test_quadratic_plateau_reproduced_through_the_model():
    from fltheory.papers.quadratic.theory import linear_rate, plateau

    p, ps, eta = 3, 2, Fraction(3, 40)
    model = CommitteeModel("x**2", p, ps, a="1/K", a_star="1/M")
    pl = cp.symmetric_plateau(model, p * eta)
    ref = plateau(p, ps, eta)
    assert abs(pl.q - ref.q) < 1e-12 and abs(pl.c) < 1e-13 and abs(pl.r) < 1e-13
    assert abs(pl.eps_g - ref.loss) < 1e-12
    assert len(pl.unstable) == p * ps
    assert abs(pl.escape_rate - float(linear_rate(ref.q, p, ps, float(eta)))) < 1e-8
    assert abs(cp.max_learning_rate(CommitteeModel("x**2", 1, 1)).eta_max - 1 / 6) < 1e-9


def test_erf_through_the_model_matches_the_typed_saad_solla_field():
    from papers.committee.test_plateau import _erf_plateau

    for eta in ("1/10", "1"):
        mine, ref = cp.symmetric_plateau(ERF22, eta), _erf_plateau(2, float(Fraction(eta)))
        assert abs(mine.q - ref.q) < 1e-12 and abs(mine.c - ref.c) < 1e-12
        assert abs(mine.r - ref.r) < 1e-12 and abs(mine.escape_rate - ref.escape_rate) < 1e-9
        assert abs(mine.eps_g - ref.eps_g) < 1e-13
    m = cp.max_learning_rate(CommitteeModel("erf_ss", 1, 1))
    assert abs(m.eta_max - math.pi * math.sqrt(5 / 3)) < 1e-8
    fp = cp.specialised_fixed_point(ERF22, 1)
    assert fp.eps_g == 0.0 and fp.zero_modes == 0 and fp.unstable == 0
    assert fp.convergence_rate == cp.convergence_rate(ERF22, 1)


def test_specialised_point_k_ne_m_needs_a_guess():
    with pytest.raises(DomainError) as info:
        cp.specialised_fixed_point(CommitteeModel("erf_ss", 3, 2), 1)
    assert info.value.param == "guess"


def test_analysis_cost_refused_before_work():
    with pytest.raises(CostError):  # relu's I4 by quadrature: ~5e-5 s each, 11550 per rhs
        cp.symmetric_plateau(CommitteeModel("relu", 10, 10), "1/2")
    with pytest.raises(CostError):
        cp.jacobian(CommitteeModel("relu", 10, 10), 1, np.eye(10), np.eye(10), np.eye(10))


@pytest.mark.parametrize("kwargs, param", [
    ({"eta": 0}, "eta"),
    ({"eta": -1}, "eta"),
    ({"eta": float("nan")}, "eta"),
    ({"Q0": [[1.0, 0.0], [0.0, -1.0]]}, "Q"),           # not a Gram matrix
    ({"R0": [[2.0, 0.0], [0.0, 0.0]]}, "R"),            # joint matrix not PSD
    ({"T": [[1.0, 2.0], [2.0, 1.0]]}, "T"),             # T not PSD
    ({"Q0": np.eye(3)}, "Q0"),
    ({"t_grid": [1.0, 0.0]}, "t_grid"),
    ({"method": "euler"}, "method"),
])
def test_integrate_bad_input(kwargs, param):
    args = {"model": ERF22, "eta": "1/2", "Q0": np.eye(2) / 2, "R0": np.zeros((2, 2)),
            "T": np.eye(2), "t_grid": [0.0, 1.0]} | kwargs
    with pytest.raises(DomainError) as info:
        integrate(**args)
    assert info.value.param == param


def test_integrate_cost_refused_before_work():
    with pytest.raises(CostError):
        integrate(CommitteeModel("erf_ss", 40, 40), 1, np.eye(40) / 2, np.zeros((40, 40)),
                  np.eye(40), np.linspace(0, 1000, 11))
    with pytest.raises(CostError):
        integrate(ERF22, 1, np.eye(2) / 2, np.zeros((2, 2)), np.eye(2), np.linspace(0, 1, 10**7))


@pytest.mark.parametrize("call", [
    lambda: cp.symmetric_plateau(ERF22, 0),
    lambda: cp.symmetric_plateau(ERF22, "1/2", T=[[1.0, 2.0], [2.0, 1.0]]),
    lambda: cp.symmetric_plateau(CommitteeModel("erf_ss", 2, 2, a=[1, 2]), "1/2"),
    lambda: cp.max_learning_rate(CommitteeModel("erf_ss", 1, 1, noise="1/2")),
    lambda: cp.specialised_fixed_point(ERF22, 1, guess=(np.eye(2), 2 * np.eye(2))),
    lambda: cp.jacobian(ERF22, 1, np.eye(2), 3 * np.eye(2)),
])
def test_analysis_bad_input(call):
    with pytest.raises(DomainError):
        call()


def test_plateau_digits_is_the_quadratic_root_to_30_digits():
    """mpmath.findroot on the symbolic committee equations at g = x², a = 1/p against the
    quadratic module's exact root (sympy), to 1e-28: two derivations, one number."""
    import mpmath

    from fltheory.papers.quadratic.theory import plateau

    p, ps, eta = 3, 2, Fraction(3, 40)
    model = CommitteeModel("x**2", p, ps, a="1/K", a_star="1/M")
    q, c, r = cp.plateau_digits(model, p * eta, dps=30)
    with mpmath.workdps(40):
        exact = mpmath.mpf(str(plateau(p, ps, eta).q_exact.evalf(40)))
        assert abs(q - exact) < mpmath.mpf(10) ** -28 and c == 0 and r == 0
    with pytest.raises(DomainError):
        cp.plateau_digits(CommitteeModel("erf_ss", 4, 3), "1/2")


@pytest.mark.slow
def test_plateau_digits_erf_agrees_with_the_float_root():
    """erf: the symbolic path (sympy averages → mpmath) and the numpy right side + Newton give
    the same plateau to 1e-11 (K = M = 2: 3.5e-14 measured; K = 2, M = 1: 1.6e-12)."""
    for K, M in ((2, 2), (2, 1)):
        model = CommitteeModel("erf_ss", K, M)
        digits = cp.plateau_digits(model, "1/2", dps=30)
        pl = cp.symmetric_plateau(model, "1/2")
        assert (max(abs(float(d) - v) for d, v in zip(digits, (pl.q, pl.c, pl.r), strict=True))
                   < 1e-11)


def test_relu_plateau_against_an_independent_derivation():
    """relu, K = M = 2, T = I, η = 1/10 (this failed before: the settling integration ran out
    of its evaluation budget). Reference values: independent derivation, /work/wt/VERIFY.md B3
    — an independent checker's own code (closed-form I2/I3, a numerical I4 by Plackett's
    identity checked against scipy's orthant probability to 1.2e-10), the symmetric flow
    integrated by LSODA (rtol 1e-11) to t = 20000 and polished by fsolve, stated accuracy
    ≈ 1e-10; its second method, a Monte Carlo of the right side there, is zero within 2σ ≈
    1e-5. Tolerance 1e-8: the reference's ~1e-10 plus our I4's stated error 1e-9 propagated
    to the root, ‖J⁻¹‖ · η² Σ|w_c w_e| · 1e-9 = 43 · 0.01 · 16 · 1e-9 ≈ 7e-9 (‖J⁻¹‖ of the
    reduced equations there, measured 43); ε_g has no I4 in it. Measured: 1.4e-10."""
    pl = cp.symmetric_plateau(CommitteeModel("relu", 2, 2), Fraction(1, 10))
    ref = {"q": 0.728510530869, "c": 0.376778964540, "r": 0.523599410432,
           "eps_g": 0.076575132742}
    for name, value in ref.items():
        assert abs(getattr(pl, name) - value) < 1e-8, name
    assert pl.residual < 1e-10 and len(pl.unstable) >= 1 and pl.escape_rate > 0


@pytest.mark.parametrize("K, M", [(3, 3), (3, 2)])
def test_erf_plateau_runs_for_three_students(K, M):
    """erf, K = 3 and M = 3 or 2, η = 1/10: the plateau is found; its ε_g is the model's
    generalisation error there and it has an unstable (escape) direction."""
    model = CommitteeModel("erf_ss", K, M)
    pl = cp.symmetric_plateau(model, Fraction(1, 10))
    assert pl.residual < 1e-12 and pl.escape_rate > 0
    assert abs(pl.eps_g - generalisation_error(model, pl.Q, pl.R, pl.T)) < 1e-15
    assert 0 < pl.c < pl.q and pl.r > 0


def test_settling_budget_is_named_in_the_error():
    """A settling integration that would exceed its evaluation budget says so (not
    "too stiff"), naming the budget."""
    def field(Q, R, T):  # no fixed point in reach of Newton: the flow drifts slowly
        return -1e-3 * Q / (1 + Q**2) + 1e-3, -1e-3 * (R - 0.5)

    with pytest.raises(DomainError, match=r"settling integration .* budget of 13 right-side"):
        cp.plateau_of_field(field, 1, 1, np.eye(1), 1.0, lambda Q, R: 0.0, budget=13)
