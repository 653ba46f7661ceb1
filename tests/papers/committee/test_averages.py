"""The Gaussian averages of the committee machine (fltheory.papers.committee.gaussian), each
against an independent computation at generic covariances: Monte Carlo with its standard error
(a fixed seed; the tolerance is 5 SE, a two-sided false-alarm rate of 6e-7 per comparison),
Saad & Solla's formulas typed here from the paper, the matching-sum Isserlis engine of the
quadratic module, and a different quadrature order."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import erf

from fltheory.exact import DomainError
from fltheory.papers.committee import _wick as wick
from fltheory.papers.committee.gaussian import _relu_i4, _relu_i4_integral, averages
from fltheory.papers.quadratic.equations import wick_expectation


def _generic_cov(seed: int, n: int = 4) -> np.ndarray:
    A = np.random.default_rng(seed).normal(size=(n, n + 2))
    return A @ A.T / (n + 2)


def _embed(C: np.ndarray, idx: list[int]) -> np.ndarray:
    return C[np.ix_(idx, idx)]


ACTS = {
    "erf_ss": (lambda z: erf(z / math.sqrt(2)),
               lambda z: math.sqrt(2 / math.pi) * np.exp(-z**2 / 2)),
    "relu": (lambda z: np.maximum(z, 0.0), lambda z: (z > 0) * 1.0),
    "x**3 - x": (lambda z: z**3 - z, lambda z: 3 * z**2 - 1),
    "tanh": (np.tanh, lambda z: 1 / np.cosh(z)**2),
}

# covariances of the four fields (u, v, w, z): a generic one and the coincidences the ODEs
# produce (i = k, c = e, c = i; a singular rank-2 one)
CASES = {"generic": ([0, 1, 2, 3], 11), "i=k": ([0, 0, 1, 2], 12), "c=e": ([0, 1, 2, 2], 13),
         "c=i": ([0, 1, 0, 2], 14)}


@pytest.mark.parametrize("g", list(ACTS))
@pytest.mark.parametrize("case", list(CASES))
def test_averages_match_monte_carlo(g, case):
    idx, seed = CASES[case]
    C = _embed(_generic_cov(seed), idx)
    rng = np.random.default_rng([seed, 7])
    n = 400_000
    L = np.linalg.cholesky(_generic_cov(seed))
    x = (rng.standard_normal((n, 4)) @ L.T)[:, idx]
    f, df = ACTS[g]
    u, v, w, z = x.T
    av = averages(g)
    for name, value, samples in (
            ("e2", av.e2(C[:2, :2]), f(u) * f(v)),
            ("i2", av.i2(C[:2, :2]), df(u) * df(v)),
            ("i3", av.i3(C[:3, :3]), df(u) * v * f(w)),
            ("i4", av.i4(C), df(u) * df(v) * f(w) * f(z))):
        se = samples.std() / math.sqrt(n)
        assert abs(float(value) - samples.mean()) < 5 * se, \
            (name, float(value), samples.mean(), se)


# Saad & Solla (1995), PRE 52, 4225, eqs. for g(x) = erf(x/√2), typed from the paper:
def _paper_i2(c11, c22, c12):
    return 2 / math.pi / math.sqrt(1 + c11 + c22 + c11 * c22 - c12**2)


def _paper_i3(C):
    c11, c12, c13, c23, c33 = C[0, 0], C[0, 1], C[0, 2], C[1, 2], C[2, 2]
    lam3 = (1 + c11) * (1 + c33) - c13**2
    return 2 / math.pi / math.sqrt(lam3) * (c23 * (1 + c11) - c12 * c13) / (1 + c11)


def _paper_i4(C):
    c = lambda i, j: C[i - 1, j - 1]  # noqa: E731
    lam4 = (1 + c(1, 1)) * (1 + c(2, 2)) - c(1, 2)**2
    lam0 = (lam4 * c(3, 4) - c(2, 3) * c(2, 4) * (1 + c(1, 1)) - c(1, 3) * c(1, 4) * (1 + c(2, 2))
            + c(1, 2) * c(1, 3) * c(2, 4) + c(1, 2) * c(1, 4) * c(2, 3))
    lam1 = (lam4 * (1 + c(3, 3)) - c(2, 3)**2 * (1 + c(1, 1)) - c(1, 3)**2 * (1 + c(2, 2))
            + 2 * c(1, 2) * c(1, 3) * c(2, 3))
    lam2 = (lam4 * (1 + c(4, 4)) - c(2, 4)**2 * (1 + c(1, 1)) - c(1, 4)**2 * (1 + c(2, 2))
            + 2 * c(1, 2) * c(1, 4) * c(2, 4))
    return 4 / math.pi**2 / math.sqrt(lam4) * math.asin(lam0 / math.sqrt(lam1 * lam2))


def _tilted_i4(C):
    """I4 for erf(x/√2) by the tilting argument done numerically (matrix inverse, no Λ's)."""
    A = np.eye(2) + C[:2, :2]
    S = C[2:, 2:] - C[2:, :2] @ np.linalg.solve(A, C[:2, 2:])
    e2 = 2 / math.pi * math.asin(S[0, 1] / math.sqrt((1 + S[0, 0]) * (1 + S[1, 1])))
    return 2 / math.pi / math.sqrt(np.linalg.det(A)) * e2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_erf_matches_saad_solla_and_tilting(seed):
    C = _generic_cov(seed)
    av = averages("erf_ss")
    assert float(av.i2(C[:2, :2])) == pytest.approx(_paper_i2(C[0, 0], C[1, 1], C[0, 1]),
                                                    rel=1e-13)
    assert float(av.i3(C[:3, :3])) == pytest.approx(_paper_i3(C), rel=1e-12)
    assert float(av.i4(C)) == pytest.approx(_paper_i4(C), rel=1e-12)
    assert float(av.i4(C)) == pytest.approx(_tilted_i4(C), rel=1e-12)


def test_batched_shapes():
    C = np.stack([_generic_cov(s) for s in range(6)]).reshape(2, 3, 4, 4)
    for g in ("erf_ss", "relu", "x**2"):
        out = averages(g).i4(C)
        assert out.shape == (2, 3)
        assert float(out[1, 2]) == pytest.approx(float(averages(g).i4(C[1, 2])), rel=1e-12)


def test_relu_i4_quadrature_error_and_exact_cases():
    # the graded rule (5 panels × 16 nodes) against a different rule, 3000-node Gauss–Legendre
    # on [0, 1], at generic, singular and near-singular covariances (gap ε between coinciding
    # fields; measured worst 1e-10 here, and 2e-6 for the plain 48-node rule it replaced)
    rng = np.random.default_rng(3)
    B = rng.normal(size=(4, 2))
    G = _generic_cov(5)
    C = np.stack([C + eps * np.diag([1.0, 0.5, 0.7, 1.3])
                  for C in (_generic_cov(4), _embed(G, [0, 0, 1, 2]), B @ B.T,
                            _embed(G, [0, 1, 0, 1]), _embed(G, [0, 1, 2, 2]))
                  for eps in (0.0, 1e-2, 1e-4, 1e-6, 1e-8, 1e-10)])
    # (u = v exactly: _relu_i4 takes the closed form, held here to the integral's fine rule)
    assert np.abs(_relu_i4(C) - _relu_i4_integral(C, 3000, graded=False)).max() < 1e-9
    # all four fields equal: E[θ(u) relu(u)²] = E[u² θ(u)] = C/2; the stated error 1e-9 (here
    # round-off near s = 1 limits every rule to ~2e-10, the 3000-node one included)
    assert float(averages("relu").i4(np.full((4, 4), 1.7))) == pytest.approx(0.85, abs=1e-9)
    # (w, z) independent of (u, v): ¼ E[relu(w) relu(z)], E[relu w relu z] the arc-cosine kernel
    C = np.zeros((4, 4))
    C[:2, :2] = [[1.0, 0.3], [0.3, 2.0]]
    C[2:, 2:] = [[1.0, 0.5], [0.5, 1.0]]
    kernel = (math.sqrt(0.75) + (math.pi - math.acos(0.5)) * 0.5) / (2 * math.pi)
    assert float(averages("relu").i4(C)) == pytest.approx(
        (0.25 + math.asin(0.3 / math.sqrt(2)) / (2 * math.pi)) * kernel, rel=1e-10)


def test_stein_moments_equal_isserlis_matchings():
    C = _generic_cov(9)
    for alpha in [(2, 1, 1, 0), (3, 1, 2, 2), (1, 1, 1, 1), (4, 0, 2, 0), (3, 3, 1, 1)]:
        poly = wick.moment(alpha)
        ents = [C[a, b] for a, b in wick.entries(4)]
        value = sum(c * math.prod(e**k for e, k in zip(ents, mono, strict=True))
                    for mono, c in poly.items())
        idx = [i for i, k in enumerate(alpha) for _ in range(k)]
        assert value == pytest.approx(wick_expectation(idx, C.tolist()), rel=1e-12, abs=1e-14)


def test_polynomial_exact_symbolic_against_hand_moments():
    # g = x²: E2 = C11 C22 + 2 C12², I2 = 4 C12, I3 = 2(C12 C33 + 2 C13 C23),
    # I4 = 4 E[u v w² z²] = 4 (C12 (C33 C44 + 2 C34²) + 2 C13 (C23 C44 + 2 C24 C34)
    #                         + 2 C14 (C24 C33 + 2 C23 C34))  (Isserlis by hand)
    C = _generic_cov(10)
    c = lambda i, j: C[i - 1, j - 1]  # noqa: E731
    av = averages("x**2")
    assert float(av.e2(C[:2, :2])) == pytest.approx(c(1, 1) * c(2, 2) + 2 * c(1, 2)**2)
    assert float(av.i2(C[:2, :2])) == pytest.approx(4 * c(1, 2))
    assert float(av.i3(C[:3, :3])) == pytest.approx(2 * (c(1, 2) * c(3, 3)
                                                         + 2 * c(1, 3) * c(2, 3)))
    hand = 4 * (c(1, 2) * (c(3, 3) * c(4, 4) + 2 * c(3, 4)**2)
                + 2 * c(1, 3) * (c(2, 3) * c(4, 4) + 2 * c(2, 4) * c(3, 4))
                + 2 * c(1, 4) * (c(2, 4) * c(3, 3) + 2 * c(2, 3) * c(3, 4)))
    assert float(av.i4(C)) == pytest.approx(hand, rel=1e-12)


def test_cubature_against_higher_order_and_method():
    from fltheory.papers.committee.gaussian import _cubature_func

    av = averages("tanh", method="trapezoid")
    assert av.kind == "cubature" and "trapezoid rule" in av.method
    C = _generic_cov(21)
    fine = _cubature_func([lambda x: 1 / np.cosh(x)**2, lambda x: 1 / np.cosh(x)**2, np.tanh,
                           np.tanh], 40)(C)
    assert abs(float(av.i4(C)) - float(fine)) < 1e-3


@pytest.mark.parametrize("g", ["exp(z**2)", "exp(z**2/100)", "z**7", "cosh(z)**3*exp(z**2)",
                               "1/z", "sqrt(Abs(z))", "log(Abs(z))", "sign", "Heaviside(z)"])
def test_refused_activations(g):
    with pytest.raises(DomainError, match="g ="):
        averages(g)


def test_relu_refuses_zero_variance():
    with pytest.raises(DomainError, match="variance"):
        averages("relu").i2(np.zeros((2, 2)))


@pytest.mark.parametrize("g", ["erf(z)", "erf(3*x/2)"])
def test_scaled_erf_closed_form_against_cubature_and_flat(g):
    from fltheory.papers.committee.gaussian import _cubature_func
    from fltheory.papers.committee.model import CommitteeModel, flat_rhs, rhs

    s = {"erf(z)": 1.0, "erf(3*x/2)": 1.5}[g]
    av = averages(g)
    assert av.kind == "erf" and "scaled" in av.method
    f = lambda x: erf(s * x)  # noqa: E731
    df = lambda x: 2 * s / math.sqrt(math.pi) * np.exp(-(s * x)**2)  # noqa: E731
    C = _generic_cov(17) / (2 * s**2)  # field variances <= 1 for s x: the cubature converges
    # a different method: tensor Gauss–Hermite at high order (smooth integrands)
    assert float(av.i4(C)) == pytest.approx(float(_cubature_func([df, df, f, f], 40)(C)), abs=1e-7)
    assert float(av.i3(C[:3, :3])) == pytest.approx(
        float(_cubature_func([df, lambda x: x, f], 80)(C[:3, :3])), abs=1e-9)
    assert float(av.i2(C[:2, :2])) == pytest.approx(
        float(_cubature_func([df, df], 120)(C[:2, :2])), abs=1e-9)
    assert float(av.e2(C[:2, :2])) == pytest.approx(
        float(_cubature_func([f, f], 120)(C[:2, :2])), abs=1e-9)
    m = CommitteeModel(g, 2, 2, noise="1/3")
    Q, R, T = C[:2, :2], C[:2, 2:], C[2:, 2:]
    dQ, dR = rhs(m, "1/2")(Q, R, T)
    y = flat_rhs(m, "1/2", T)(np.concatenate([Q.ravel(), R.ravel()]))
    assert np.allclose(y, np.concatenate([dQ.ravel(), dR.ravel()]), rtol=1e-11)


def test_cubature_model_is_cheap_to_build_and_measures_its_error_lazily():
    """A cubature activation used to take ~5 s CPU (23 s on a loaded machine) to build: sympy
    limits for the growth check and the 32⁴-point error measurement. Now the growth is
    decided numerically first and the error on first read of ``method``. Measured 0.2 s
    CPU for the averages of CommitteeModel("tanh", 3, 3); bound 2 s. A g growing like
    e^(c z²) with small c and one non-finite on the nodes are still refused when the theory
    first builds their averages (the model itself, a definition the simulator may import,
    checks g against the grammar only)."""
    import time

    from fltheory.papers.committee.model import CommitteeModel, model_averages

    start = time.process_time()
    model = CommitteeModel("tanh(z) + z**3/997", 3, 3)  # not in the averages cache
    av = model_averages(model)
    assert time.process_time() - start < 2.0
    assert isinstance(av._method, type(lambda: 0))  # not measured yet
    assert "error" in av.method and isinstance(av._method, str)
    for g in ("exp(z**2/100)", "exp(abs(z)**(19/10))"):
        with pytest.raises(DomainError, match="g ="):
            model_averages(CommitteeModel(g, 1, 1))


def test_erf_is_erf_of_z_in_the_committee_too():
    """The committee's "erf" is erf(z), as in every command (Saad & Solla's erf(z/√2) is
    "erf_ss"). References written here from the Gaussian integrals of erf(z) (not the code's
    scaling): for (u, v) with covariance [[a, c], [c, b]],
    E[erf(u) erf(v)] = (2/π) arcsin(2c/√((1 + 2a)(1 + 2b))) and, with erf'(z) = (2/√π) e^(−z²),
    E[erf'(u) erf'(v)] = (4/π) det(I + 2C)^(−1/2) = (4/π)/√((1 + 2a)(1 + 2b) − 4c²)."""
    a, b, c = 0.7, 1.1, 0.3
    C = np.array([[a, c], [c, b]])
    e2 = 2 / math.pi * math.asin(2 * c / math.sqrt((1 + 2 * a) * (1 + 2 * b)))
    i2 = 4 / math.pi / math.sqrt((1 + 2 * a) * (1 + 2 * b) - 4 * c * c)
    erf = averages("erf")
    assert float(erf.e2(C)) == pytest.approx(e2, rel=1e-13)
    assert float(erf.i2(C)) == pytest.approx(i2, rel=1e-13)
    # and erf_ss is the same function at half the variance: erf(z/√2) = erf(z') with z' = z/√2
    assert float(averages("erf_ss").e2(C)) == pytest.approx(float(erf.e2(C / 2)), rel=1e-13)


def _theta_relu_relu_by_dblquad(C: np.ndarray) -> float:
    """E[θ(u) relu(w) relu(z)] for the 3 × 3 covariance of (u, w, z), as a 2-D integral over
    w, z > 0 of w z P(u > 0 | w, z) times their density (scipy's dblquad, 1e-13 absolute):
    a computation that shares nothing with Stein's lemma."""
    from scipy import integrate, stats

    S = C[1:, 1:]
    b = C[0, 1:]
    coef = np.linalg.solve(S, b)
    sd = math.sqrt(C[0, 0] - b @ coef)
    Si = np.linalg.inv(S)
    norm = 2 * math.pi * math.sqrt(np.linalg.det(S))

    def f(z: float, w: float) -> float:
        x = np.array([w, z])
        return w * z * stats.norm.cdf(coef @ x / sd) * math.exp(-0.5 * x @ Si @ x) / norm

    top = 14 * math.sqrt(S.max())
    return integrate.dblquad(f, 0, top, 0, top, epsabs=1e-13, epsrel=1e-12)[0]


# I4 = E[θ(x0) θ(x1) relu(x2) relu(x3)] with a θ field repeated, as fields of a generic
# (θ field t, relu fields r, s) triple: (the four fields' indices into (t, r, s) order)
_COINCIDENT = {"u=v": [0, 0, 1, 2], "w=u": [1, 0, 1, 2], "z=u": [1, 0, 2, 1],
               "w=v": [0, 1, 1, 2], "z=v": [0, 1, 2, 1]}


@pytest.mark.parametrize("seed", [21, 22, 23])
@pytest.mark.parametrize("pattern", sorted(_COINCIDENT))
def test_relu_i4_with_one_theta_field_is_the_closed_form(seed, pattern):
    """I4 of relu with a θ field repeated (u = v: the ODE's terms i = k; w or z equal to u or
    v: c or e equal to i or k): θ² = θ and θ(u) relu(u) = relu(u) leave E[θ(t) relu(r)
    relu(s)], in closed form (Stein's lemma), against a 2-D quadrature of that definition at
    generic covariances, in numpy and in the compiled loops' plain code."""
    from fltheory.papers.committee import _flat
    from fltheory.papers.committee.gaussian import RELU_NODES, _legendre

    C3 = _generic_cov(seed, 3)
    C = _embed(C3, _COINCIDENT[pattern])
    reference = _theta_relu_relu_by_dblquad(C3)
    assert float(_relu_i4(C)) == pytest.approx(reference, abs=1e-12)
    work = np.empty((4, 4)), np.empty((4, 4))
    # the plain-Python loops (numba compiles the same code)
    assert _flat.relu_i4(C, *_legendre(RELU_NODES), *work) == pytest.approx(reference, abs=1e-12)
    # batched with a generic covariance, which keeps the integral
    G = _generic_cov(seed + 10)
    both = _relu_i4(np.stack([C, G]))
    assert both[0] == pytest.approx(reference, abs=1e-12)
    assert both[1] == float(_relu_i4(G))


def test_relu_i4_closed_form_limits():
    # u independent of (w, z): ½ E[relu(w) relu(z)] (the arc-cosine kernel); u = w: E[relu(w)
    # relu(z)] (θ(w) relu(w) = relu(w)), where the conditioning on u = 0 is degenerate
    C3 = np.array([[1.3, 0.0, 0.0], [0.0, 1.0, 0.5], [0.0, 0.5, 2.0]])
    kernel = math.sqrt(2.0) * (math.sqrt(1 - 0.125) + (math.pi - math.acos(0.5 / math.sqrt(2)))
                               * 0.5 / math.sqrt(2)) / (2 * math.pi)
    assert float(_relu_i4(_embed(C3, [0, 0, 1, 2]))) == pytest.approx(kernel / 2, rel=1e-13)
    C3 = _generic_cov(25, 2)
    same = _embed(C3, [0, 0, 0, 1])
    assert float(_relu_i4(same)) == pytest.approx(float(averages("relu").e2(C3)), rel=1e-12)
    # E[θ(v) relu(u)²] = E[u² θ(u) θ(v)] = C_uu ((π/2 + arcsin ρ) + ρ√(1 − ρ²))/(2π), the
    # bivariate truncated second moment
    rho = C3[0, 1] / math.sqrt(C3[0, 0] * C3[1, 1])
    moment = C3[0, 0] * (math.pi / 2 + math.asin(rho) + rho * math.sqrt(1 - rho**2)) / (
        2 * math.pi)
    assert float(_relu_i4(_embed(C3, [0, 1, 0, 0]))) == pytest.approx(moment, rel=1e-12)


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_compiled_relu_i4_integral_is_the_numpy_one(seed):
    """The scalar-loop I4 that numba compiles (_flat.relu_i4: the two Stein sums share their
    three conditional orthants, ttr_pair) against the numpy integral at a generic covariance
    (no field repeated, unequal variances), same nodes: the two are the same formula written
    twice, so they agree to rounding."""
    from fltheory.papers.committee import _flat
    from fltheory.papers.committee.gaussian import RELU_NODES, _legendre

    C = _generic_cov(seed) + np.diag([0.3, 0.1, 0.7, 0.2])
    work = np.empty((4, 4)), np.empty((4, 4))
    compiled = _flat.relu_i4(C, *_legendre(RELU_NODES), *work)
    assert compiled == pytest.approx(float(_relu_i4_integral(C)), rel=1e-13)
