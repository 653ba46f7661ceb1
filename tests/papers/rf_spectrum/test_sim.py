"""The random-feature simulator for any activation (fltheory.papers.rf_spectrum.sim), checked
against
independent computations: Monte Carlo over x, Isserlis moments, a 2-D Gauss–Hermite product rule,
the ReLU simulator of the Fisher paper, and exact finite-rank spectra."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import erf

from fltheory.exact import DomainError
from fltheory.papers.fisher import sim as relu_sim
from fltheory.papers.rf_spectrum import sim as rf


def _weights(d=4, m=60, seed=3, scale=1):
    return rf.draw_weights(d, m, seed, scale)


@pytest.mark.parametrize("name", ["relu", "abs", "erf", "quadratic"])
def test_closed_forms_against_monte_carlo(name):
    """Each closed form against the definition E_x σ(w_i·x)σ(w_j·x) sampled with n = 400,000
    Gaussian inputs (x drawn here; the numpy activation of sim.hermite), entry by entry within a
    Bonferroni bound on the Monte-Carlo z (family-wise 1e-4)."""
    W = _weights(3, 6, 5, 2)
    K = rf.kernel_matrix(name, W).K
    x = np.random.default_rng(11).standard_normal((400_000, 3))
    F = rf.activation(name)[1](x @ W)
    prods = F[:, :, None] * F[:, None, :]
    mean, se = prods.mean(axis=0), prods.std(axis=0) / math.sqrt(len(x))
    z = np.abs(mean - K) / se
    assert z.max() < 4.6, (name, z.max())  # P(|N(0,1)| > 4.6) · 21 entries ~ 1e-4


def test_erf_scaling_is_plain_erf():
    """erf(z), not erf(z/√2): E erf(z)² = (2/π) arcsin(2/3) for w = e_1 (a unit vector)."""
    K = rf.kernel_matrix("erf", np.eye(2)).K
    assert K[0, 0] == pytest.approx(2 / math.pi * math.asin(2 / 3), rel=1e-14)
    assert K[0, 1] == 0.0


@pytest.mark.parametrize("scale", [1, 2, None])
def test_mehler_path_against_erf_closed_form(scale):
    """The series path (erf given as a bare numpy function, so no closed form is used) agrees
    with the arcsin formula within the bound it reports (measured: 3e-12 at s = 1, 4e-11 at
    s = 2, 8e-10 at s = √d, each below its bound)."""
    W = _weights(5, 200, 1, scale)
    exact = rf.kernel_matrix("erf", W).K
    km = rf.kernel_matrix(lambda z: erf(z), W)
    assert km.method == "Mehler series"
    err = np.abs(km.K - exact).max() / exact.diagonal().max()
    assert err <= km.bound <= rf.REFUSE, (err, km.bound)


def test_mehler_path_against_isserlis_polynomials():
    """Polynomials have a finite Mehler series: z³ against Isserlis E a³b³ = 9q₁q₂c + 6c³,
    z² against q₁q₂ + 2c², to rounding."""
    W = _weights(4, 50, 2, 2)
    q = np.sum(W * W, axis=0)
    c = W.T @ W
    cubic = 9 * np.multiply.outer(q, q) * c + 6 * c**3
    got = rf.kernel_matrix(lambda z: np.asarray(z) ** 3, W).K
    assert np.abs(got - cubic).max() <= 1e-11 * np.abs(cubic).max()
    got = rf.kernel_matrix(lambda z: np.asarray(z) ** 2, W).K
    assert np.allclose(got, rf.kernel_matrix("quadratic", W).K, rtol=1e-12, atol=1e-12)


def test_tanh_series_against_gauss_hermite_cubature():
    """tanh (no closed form): the series against the 2-D Gauss–Hermite product rule of order 64
    at radii <= 1 (where that rule is accurate to ~1e-9, measured on erf) — two independent
    quadratures; and at s = 1 (radii to ~2) within the rule's own measured error (4e-4 at r = 2,
    order 48)."""
    W = _weights(4, 80, 4, 1)
    r = np.linalg.norm(W, axis=0)
    small = np.flatnonzero(r < 1.0)
    i, j = np.meshgrid(small[:8], small[:8])
    K = rf.kernel_matrix("tanh", W).K
    cub = rf.kernel_cubature("tanh", W, i.ravel(), j.ravel(), 64)
    assert np.abs(cub - K[i.ravel(), j.ravel()]).max() < 1e-8
    pairs = np.arange(40)
    cub = rf.kernel_cubature("tanh", W, pairs, pairs[::-1], 48)
    assert np.abs(cub - K[pairs, pairs[::-1]]).max() < 1e-3


def test_gauss_hermite_cubature_error_on_erf_is_as_stated():
    """The module docstring's measured errors of the 2-D product rule (order 48) against the erf
    closed form: tiny at r <= 1, but 1e-4–1e-3 at r = 2 (why the series is the default)."""
    W = np.array([[1.0, 0.9, 2.0, 1.8], [0.0, math.sqrt(0.19), 0.0, 2 * math.sqrt(0.19)]])
    exact = rf.kernel_matrix("erf", W).K
    cub = rf.kernel_cubature("erf", W, np.array([0, 2]), np.array([1, 3]), 48)
    assert abs(cub[0] - exact[0, 1]) < 1e-8
    assert 1e-5 < abs(cub[1] - exact[2, 3]) < 1e-2


def test_non_smooth_activation_is_refused_by_the_series():
    """relu given as a bare function: its Hermite tail decays like k^(−3/2), the bound stays
    above 1e-6 and the matrix is refused, naming sigma and the bound reached."""
    with pytest.raises(DomainError, match=r"sigma .* only reaches a relative error bound"):
        rf.kernel_matrix(lambda z: np.maximum(z, 0.0), _weights(4, 200, 0, 1))


def test_relu_at_scale_sqrt_d_reproduces_the_fisher_simulator():
    """scale=None is the ReLU module's model (w = u ~ N(0, I_d), J = K/m): same draws, same
    spectrum to rounding."""
    a = rf.sample("relu", 5, 300, 7, None)
    b = relu_sim.sample(5, 300, 7)
    assert np.allclose(a.eigenvalues, b.eigenvalues, rtol=0, atol=1e-13)


def test_quadratic_finite_rank_spectrum():
    """z² has K = r²r'²(1 + 2ρ²): exactly 1 + N(d, 2) nonzero eigenvalues (rank 1 + d(d+1)/2 − 1);
    the clusters are found with these sizes, everything else is rounding."""
    s = rf.sample("quadratic", 4, 400, 0)
    assert np.sum(s.eigenvalues > 1e-10 * s.eigenvalues[0]) == 1 + rf.multiplicity(4, 2)
    clusters = rf.harmonic_clusters(s, 3, 1, 30)
    assert [(c.l, c.j, len(c.eigenvalues)) for c in clusters] == [(0, 0, 1), (2, 0, 9)]
    assert all(c.purity > 0.9 for c in clusters)


def test_harmonic_content_on_known_functions():
    """v_i = φ(r_i) Y(ŵ_i) for harmonics of degree 0..3 (written here) and a radial profile with
    a sign change: the content puts >= 0.9 of ‖v‖² on the right degree (measured 0.95–1.0 at
    m = 2000; the rest is the finite-sample overlap with the other degrees' columns)."""
    W = rf.draw_weights(4, 2000, 5, 1)
    r = np.linalg.norm(W, axis=0)
    u = W / r
    phi = r - r.mean()
    Y = [np.ones_like(r), u[0], u[0] * u[1], u[0] ** 2 - 1 / 4,
         u[0] * u[1] * u[2], u[0] ** 3 - 3 * u[0] / (4 + 2)]
    degrees = [0, 1, 2, 2, 3, 3]
    V = np.stack([phi * y for y in Y], axis=1)
    content = rf.harmonic_content(W, V, 3)
    assert content.argmax(axis=1).tolist() == degrees
    assert content.max(axis=1).min() > 0.9


def test_multiplicity_is_the_dimension_of_harmonics():
    assert [rf.multiplicity(3, l) for l in range(5)] == [1, 3, 5, 7, 9]  # 2l + 1 on S²
    assert rf.multiplicity(10, 2) == 54


def test_trace_is_the_mean_diagonal():
    s = rf.sample("tanh", 4, 200, 1)
    assert s.trace == pytest.approx(s.diagonal.mean(), rel=1e-12)


@pytest.mark.parametrize(("call", "param"), [
    (lambda: rf.check_rf_sample(4, 100, 0, 0), "scale"),
    (lambda: rf.check_rf_sample(4, 100, 0, "-1/2"), "scale"),
    (lambda: rf.check_rf_sample(1, 100, 0), "d"),
    (lambda: rf.check_rf_sample(4, 1, 0), "m"),
    (lambda: rf.check_rf_sample(4, 10**6, 0), "m"),
    (lambda: rf.check_rf_sample(4, 100, -1), "seed"),
    (lambda: rf.kernel_matrix("tanh", np.array([[np.nan, 1.0]])), "W"),
    (lambda: rf.kernel_matrix("tanh", np.zeros((2, 2))), "W"),
    (lambda: rf.kernel_matrix("tanh", np.eye(2), tol=1e-3), "tol"),
    (lambda: rf.kernel_matrix("nope", np.eye(2)), "sigma"),
    (lambda: rf.kernel_matrix(lambda z: np.exp(np.asarray(z) ** 2), np.eye(2)), "sigma"),
    (lambda: rf.harmonic_content(np.eye(3), np.eye(3), 2), "lmax"),
])
def test_bad_input_is_refused_before_work(call, param):
    with pytest.raises(DomainError) as info:
        call()
    assert info.value.param == param


# --------------------------------------------------------------------------- bad arguments

SETTINGS = settings(max_examples=50, deadline=None)
NOT_INTEGERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.none(),
    st.booleans(),
    st.fractions(),
    st.lists(st.integers(), max_size=2),
)
BAD_D = st.one_of(st.integers(max_value=1), NOT_INTEGERS)
BAD_SEED = st.one_of(st.integers(max_value=-1), st.floats(), st.text(max_size=3), st.none(),
                     st.booleans())


def _refused(call, *args):
    with pytest.raises(DomainError):
        call(*args)


def _rf():
    from fltheory.papers.rf_spectrum import sim as rf_spectrum

    return rf_spectrum


BAD_SCALE = st.one_of(st.integers(max_value=0), st.fractions(max_value=0), st.just("abc"),
                      st.just(float("nan")), st.just(float("inf")), st.just("-1/2"))
BAD_ARRAY = st.one_of(st.just([]), st.just("abc"), st.just([[1.0, float("nan")]]),
                      st.just(np.zeros((2, 3, 4))), st.just([[float("inf"), 1.0]]))


@SETTINGS
@given(d=BAD_D)
def test_rf_sim_bad_d(d):
    rf = _rf()
    for call, args in ((rf.check_rf_sample, (d, 10, 0)), (rf.draw_weights, (d, 10, 0)),
                       (rf.sample, ("tanh", d, 10, 0)), (rf.multiplicity, (d, 1)),
                       (rf.rf_flops, (d, 10))):
        _refused(call, *args)


@SETTINGS
@given(m=st.one_of(st.integers(max_value=1), st.integers(min_value=20_000), NOT_INTEGERS),
       seed=BAD_SEED, scale=BAD_SCALE)
def test_rf_sim_bad_sizes_refused_before_work(m, seed, scale):
    rf = _rf()
    _refused(rf.check_rf_sample, 4, m, 0)
    _refused(rf.sample, "tanh", 4, m, 0)
    _refused(rf.check_rf_sample, 4, 10, seed)
    _refused(rf.check_rf_sample, 4, 10, 0, scale)
    _refused(rf.draw_weights, 4, 10, 0, scale)


@SETTINGS
@given(W=BAD_ARRAY, sigma=st.one_of(st.just("nope"), st.none(), st.integers()))
def test_rf_sim_bad_arrays_and_activations(W, sigma):
    rf = _rf()
    _refused(rf.kernel_matrix, "tanh", W)
    _refused(rf.kernel_matrix, sigma, np.eye(2))
    _refused(rf.kernel_cubature, "tanh", W, np.array([0]), np.array([0]))
    _refused(rf.hermite_coefficients, "tanh", W, 3)
    _refused(rf.harmonic_content, np.ones((2, 40)), W, 1)
    _refused(rf.degree_clusters, W, np.ones((1, 2)), 3, 0)


@SETTINGS
@given(i=st.one_of(st.just(np.array([5])), st.just(np.array([-1])), st.just(np.array([0.5])),
                   st.just("abc"), st.just(np.zeros((2, 2), dtype=int))),
       tol=st.one_of(st.floats(max_value=1e-15), st.floats(min_value=1e-5), st.just("x"),
                     st.none()),
       k=st.one_of(st.integers(max_value=-1), st.integers(min_value=1001), NOT_INTEGERS))
def test_rf_sim_bad_indices_tolerances_orders(i, tol, k):
    rf = _rf()
    W = np.eye(2)
    _refused(rf.kernel_cubature, "tanh", W, i, np.array([0]))
    _refused(rf.kernel_matrix, "tanh", W, tol)
    _refused(rf.kernel_cubature, "tanh", W, np.array([0]), np.array([1]), k)
    _refused(rf.hermite_coefficients, "tanh", np.ones(2), k)
    _refused(rf.multiplicity, 3, k)
