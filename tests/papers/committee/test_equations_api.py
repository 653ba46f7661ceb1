"""The committee-machine equations API (fltheory.papers.committee.gaussian / committee_equations)
that the integration (committee-dyn) and application (committee-app) helpers build on: the
signatures are kept stable, and every bad input is a one-line DomainError naming the parameter,
raised before any heavy work."""

from __future__ import annotations

import inspect
import time
from fractions import Fraction

import numpy as np
import pytest

from fltheory.exact import CostError, DomainError
from fltheory.papers.committee import gaussian as ca
from fltheory.papers.committee import model as ce


@pytest.mark.parametrize(("func", "params"), [
    (ca.averages, ["g", "dps", "method"]),
    (ce.check_state, ["Q", "R", "T", "model", "tol"]),
    (ce.rhs, ["model", "eta", "order", "engine"]),
    (ce.generalisation_error, ["model", "Q", "R", "T"]),
    (ce.equations, ["model", "order"]),
    (ce.flat_rhs, ["model", "eta", "T", "order"]),
])
def test_signatures_are_stable(func, params):
    assert list(inspect.signature(func).parameters) == params


def test_model_fields_and_exact_numbers():
    m = ce.CommitteeModel("erf_ss", 3, 2, a="1/K", a_star=[1, "1/2"], noise=0.1,
                          weight_decay="1e-3")
    assert (m.g, m.K, m.M) == ("erf_ss", 3, 2)
    assert m.a == (Fraction(1, 3),) * 3 and m.a_star == (Fraction(1), Fraction(1, 2))
    assert m.noise == Fraction(1, 10) and m.weight_decay == Fraction(1, 1000)
    assert np.allclose(m.w, [-1 / 3, -1 / 3, -1 / 3, 1, 0.5])
    assert str(m) == "g = erf_ss, K = 3, M = 2, σ = 1/10, κ = 1/1000"
    assert ce.CommitteeModel("erf_ss", 2, 2) == ce.CommitteeModel("erf_ss", 2, 2, a=1,
                                                                  a_star=[1, 1])


@pytest.mark.parametrize(("g", "kind"), [("erf_ss", "erf"), ("erf", "erf"), ("relu", "relu"),
                                         ("Max(z, 0)", "relu"),
                                          ("x**2", "polynomial"), ("He3", "polynomial"),
                                          ("z**3 - 3*z", "polynomial"), ("sigmoid", "mixture"),
                                          ("tanh(z) + z**3/1000", "cubature")])
def test_activation_kinds_and_x_alias(g, kind):
    av = ca.averages(g)
    assert av.kind == kind and av.method
    assert ce.flat_rhs(ce.CommitteeModel(g, 1, 1), 1, np.eye(1)) is None or kind != "cubature"


@pytest.mark.parametrize(("call", "match"), [
    (lambda: ce.CommitteeModel("erf_ss", 1.5, 1), "K = 1.5"),
    (lambda: ce.CommitteeModel("erf_ss", 1, 0), "M = 0"),
    (lambda: ce.CommitteeModel("erf_ss", 2, 1, a_star=[1, 2]), "a_star = "),
    (lambda: ce.CommitteeModel("erf_ss", 1, 1, weight_decay=-1), "weight_decay = "),
    (lambda: ce.CommitteeModel("erf_ss", 1, 1, noise=float("nan")), "noise = "),
    (lambda: ce.CommitteeModel("import os", 1, 1), "g = "),
    (lambda: ce.CommitteeModel(3, 1, 1), "g = "),
    (lambda: ca.averages("z**9"), "degree"),
    (lambda: ca.averages("exp(z**2)"), "e\\^\\(c z²\\)"),
    (lambda: ca.averages("erf_ss").i3(np.eye(2)), "shape"),
    (lambda: ca.averages("erf_ss").i2(np.full((2, 2), np.inf)), "finite"),
    (lambda: ca.averages("x**2").symbolic("i5", lambda p, q: 0), "kind = i5"),
    (lambda: ce.rhs(ce.CommitteeModel("erf_ss", 1, 1), -1), "eta = -1"),
    (lambda: ce.rhs(ce.CommitteeModel("erf_ss", 1, 1), 1, order=3), "order = 3"),
    (lambda: ce.rhs(ce.CommitteeModel("erf_ss", 2, 1), 1)(np.eye(1), np.eye(1), np.eye(1)),
     "Q = shapes"),
    (lambda: ce.check_state(np.eye(2), np.zeros((2, 1)), np.eye(1),
                            ce.CommitteeModel("erf_ss", 1, 1)),
     "K × M = 1 × 1"),
    (lambda: ce.check_state(np.zeros((1, 1)), np.zeros((1, 1)), np.eye(1),
                            ce.CommitteeModel("relu", 1, 1)), "Q_kk > 0 for relu"),
    (lambda: ce.generalisation_error(ce.CommitteeModel("erf_ss", 1, 1), np.eye(1), 3 * np.eye(1),
                                     np.eye(1)), "R = .*positive semi-definite"),
    (lambda: ce.check_state(-np.eye(1), np.zeros((1, 1)), np.eye(1)), "Q = .*eigenvalue -1"),
    (lambda: ce.equations(ce.CommitteeModel("erf_ss", 1, 1), order=0), "order = 0"),
])
def test_bad_input_is_one_line_domain_error(call, match):
    with pytest.raises(DomainError, match=match) as info:
        call()
    assert "\n" not in str(info.value)


def test_work_is_bounded_before_it_starts():
    start = time.perf_counter()
    with pytest.raises(CostError, match="seconds per evaluation"):
        ce.rhs(ce.CommitteeModel("tanh", 50, 50), 1)
    with pytest.raises(CostError, match="compiled right side"):
        ce.flat_rhs(ce.CommitteeModel("relu", 50, 50), 1, np.eye(50))
    with pytest.raises(DomainError, match="K \\+ M = 7"):
        ce.equations(ce.CommitteeModel("erf_ss", 4, 3))
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("K", [20, pytest.param(50, marks=pytest.mark.slow)])  # 50: 6 s
def test_large_state_rhs_runs_for_erf(K):
    M = K
    m = ce.CommitteeModel("erf_ss", K, M, a="1/K")
    rng = np.random.default_rng(0)
    W = rng.normal(size=(K + M, 400))
    C = W @ W.T / 400
    start = time.perf_counter()
    dQ, dR = ce.rhs(m, "1/2")(C[:K, :K], C[:K, K:], C[K:, K:])
    assert time.perf_counter() - start < 30
    assert dQ.shape == (K, K) and dR.shape == (K, M)
    assert np.isfinite(dQ).all() and np.allclose(dQ, dQ.T)
