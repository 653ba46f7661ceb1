r"""Two full-batch gradient steps on the first layer of a two-layer network (Moniri & Hassani 2026).

Normalisation (stated once, used everywhere): f(x) = aᵀσ(Wx)/√N, W ∈ ℝ^{N×d}, x ~ N(0, I_d),
W0 i.i.d. N(0, 1/d) (so every pre-activation is ≈ N(0, 1)), a i.i.d. N(0, 1) and kept fixed,
correlation loss L(W) = −(1/n) Σ_i y_i f(x_i), learning rates η1 = N^{α1}, η2 = N^{α2}.
The update direction is G(W; X, y) = −∇L = (1/(n√N)) (a ⊙ σ'(W Xᵀ) ⊙ y) X, so

.. math::

    W_1 = W_0 + \eta_1 G_0, \qquad W_2 = W_1 + \eta_2\, G(W_1; X_2, y_2),

with (X2, y2) = (X, y) for a *reused* batch and the second half for a *fresh* one (the n samples
split into two disjoint halves, one per step).

For a polynomial σ of degree L the second step expands exactly (finite Taylor sum in the first
update Δ = η1 G0 X2ᵀ = ε D, ε = η1/√N, D = √N G0 X2ᵀ):

.. math::

    G(W_1) = \sum_{k=0}^{L-1} \varepsilon^k H_k, \qquad
    H_k = \frac{1}{n_2\sqrt N}\Bigl(a \odot \sigma^{(k+1)}(W_0 X_2^\top) \odot \frac{D^k}{k!}
          \odot y_2\Bigr) X_2.

The parameters of a run (sizes N, n, d, α1, α2, batch, label noise, seed) are one
:class:`~fltheory.papers.twostep.params.Simulation`, read once at its construction; the
activation and the targets are the simulator's own catalogue (:data:`SIGMAS`,
:data:`SIGMA_DERIVATIVES`, :data:`TARGETS`).

The paper's model as the claims and the sweep simulate it (:func:`model_run`): σ =
:data:`TWO_STEP_SIGMA` = (h1 + h2 + h3)/√3 (He-coefficients here, the same function as the
theory's expression ``fltheory.papers.twostep.phases.TWO_STEP_SIGMA``), targets y = He1(β1·x) +
bounded3(β2·x) (:data:`MODEL_TARGETS`), N = n = d.

Seeds (:mod:`fltheory.simkit.seeding`): a run draws its data and weights from
``rng(seed, KEY_DATA)`` and the random test direction of :func:`directions` from
``rng(seed, KEY_DIRECTION)``; averages over runs use ``children(seed, n)``.

numpy only: nothing here imports sympy, mpmath or the theory (the parameter objects are
definitions, not formulas).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.polynomial import hermite_e as He

from fltheory.args import read_choice, read_count, read_finite, read_matrix, read_real
from fltheory.exact import DomainError, check_cost
from fltheory.papers.twostep.params import Simulation
from fltheory.simkit.seeding import SeedLike, rng

__all__ = ["KEY_DATA", "KEY_DIRECTION", "MAX_BYTES", "MAX_FLOPS", "MIN_N", "MODEL_TARGETS",
           "PRESENCE_KMAX", "SIGMAS", "SIGMA_DERIVATIVES", "TARGETS", "TWO_STEP_SIGMA",
           "OneStepDeviation", "SimulationReport", "SpikeSummary", "TermPresence", "TwoStepRun",
           "bounded_odd_tau3", "check_sizes", "combine_presence", "count_outliers", "directions",
           "hermite_sigma", "measure", "model_run", "one_step_deviation", "profile_constant",
           "run_bytes", "run_flops", "simulate", "singular_values", "spike_constants",
           "spike_summary", "target_overlaps", "term_constants_task", "term_presence",
           "top_right_singular_vector"]

#: seeding keys (children of the run's seed): the data and weights of a run, and the random
#: direction orthogonal to the targets along which :func:`directions` measures the bulk
KEY_DATA = 0
KEY_DIRECTION = 1

#: Memory of one run (see :func:`run_bytes`); 2 GiB keeps a run on a small machine.
MAX_BYTES = 2 * 1024**3

#: Multiply-adds accepted by :func:`measure` (``fltheory twostep simulate``): ~2·(4 + L)·N³;
#: 4e11 is ~40 s on the 2-core machine unloaded (~10 GFlop/s); N = 2000 (the claims' large grid)
#: is accepted, N = 3500 with a cubic σ is not.
MAX_FLOPS = 4e11

#: smallest width :func:`measure` accepts
MIN_N = 10


def _gib(nbytes: int) -> str:
    """Bytes as GiB for a message (no float overflow for absurd sizes)."""
    if nbytes.bit_length() < 1000:
        return f"{nbytes / 1024**3:.3g} GiB"
    return f"about 2^{nbytes.bit_length() - 30} GiB"


def run_bytes(N: int, n: int, d: int, terms: int) -> int:
    """Bytes held by :func:`simulate`: X (n × d); W0, W1, W2, G0 and the terms H_k (N × d
    each); Z0, D, Z1 and a temporary (N × n each): 8·(nd + (4 + terms)Nd + 4Nn).

    >>> run_bytes(100, 100, 100, 3)
    960000
    """
    return 8 * (n * d + (4 + terms) * N * d + 4 * N * n)


def run_flops(N: int, n: int, d: int, terms: int) -> float:
    """Multiply-adds of :func:`simulate`: the products W0 Xᵀ, G X (two steps), G0 Xᵀ and one
    M X per term, 2·N·n·d each: 2·(4 + terms)·N·n·d.

    >>> run_flops(1000, 1000, 1000, 3)
    14000000000.0
    """
    return 2.0 * (4 + terms) * N * n * d


def check_sizes(run: Simulation, n_targets: int, terms: int = 0) -> None:
    """Refuse what :func:`simulate` cannot honour for the run's sizes, before allocating
    anything: at most d target directions, at most :data:`MAX_BYTES` of arrays with ``terms``
    Taylor terms.

    >>> check_sizes(Simulation(100), 2, 3)
    >>> check_sizes(Simulation(10**5), 1)
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: N = 100000 is outside the allowed range 2 GiB of arrays ...
    """
    read_count(n_targets, "targets", 0, run.d)
    need = run_bytes(run.N, run.n, run.d, read_count(terms, "terms", 0))
    if need > MAX_BYTES:
        raise DomainError("N", run.N, f"{MAX_BYTES >> 30} GiB of arrays (here about "
                                    f"{_gib(need)} at n = {run.n}, d = {run.d})")


def hermite_sigma(coefficients: Sequence[float]) -> np.ndarray:
    """He-basis coefficients of Σ_k c_k h_k (orthonormal h_k = He_k/√(k!)).

    >>> hermite_sigma([0, 1, 1]).round(4).tolist()
    [0.0, 1.0, 0.7071]

    ``coefficients``: a non-empty sequence of finite real numbers (at most 170 of them, so that
    k! is a double); anything else is a DomainError.
    """
    c = np.asarray(read_finite(coefficients, "coefficients"), dtype=float)
    if c.ndim != 1 or not 1 <= len(c) <= 170:
        raise DomainError("coefficients", f"an array of shape {c.shape}",
                          "a non-empty sequence of at most 170 finite numbers")
    return np.array([x / math.sqrt(math.factorial(k)) for k, x in enumerate(c)])


#: activations as He-basis coefficient vectors (polynomials)
SIGMAS: dict[str, np.ndarray] = {
    "h1+h2+h3": hermite_sigma([0, 1 / math.sqrt(3), 1 / math.sqrt(3), 1 / math.sqrt(3)]),
    "h1+h3": hermite_sigma([0, 1 / math.sqrt(2), 0, 1 / math.sqrt(2)]),
    "He1": np.array([0.0, 1.0]),
    "cubic": np.array([0.0, 3.0, 0.0, 1.0]),  # z³ = He3 + 3 He1
}

#: the paper's activation σ = (h1 + h2 + h3)/√3 (He-coefficients); the theory writes the same
#: function as the expression ``fltheory.papers.twostep.phases.TWO_STEP_SIGMA`` (tests check they
#: agree)
TWO_STEP_SIGMA = SIGMAS["h1+h2+h3"]


def bounded_odd_tau3(s: np.ndarray) -> np.ndarray:
    """A bounded odd target with zero linear Hermite coefficient and non-zero cubic one:
    g(s) = (sin(2s)/(2e^{−2}) − sin(s)/e^{−1/2}) / c, using E[s sin(bs)] = b e^{−b²/2} (so the
    two linear coefficients cancel); c ≈ normalises E[g²] to 1 (c² = E[(…)²], computed in closed
    form from E[sin(bs) sin(b's)] = (e^{−(b−b')²/2} − e^{−(b+b')²/2})/2).

    >>> bounded_odd_tau3(np.array([0.0, 1.0])).round(4).tolist()
    [0.0, 0.9433]

    ``s``: an array of finite reals (anything else is a DomainError).
    """
    s = np.asarray(read_finite(s, "s"), dtype=float)
    A, B = 1 / (2 * math.exp(-2)), 1 / math.exp(-0.5)

    def e_sin_sin(b: float, c: float) -> float:
        return (math.exp(-((b - c) ** 2) / 2) - math.exp(-((b + c) ** 2) / 2)) / 2

    norm2 = A * A * e_sin_sin(2, 2) - 2 * A * B * e_sin_sin(2, 1) + B * B * e_sin_sin(1, 1)
    return (A * np.sin(2 * s) - B * np.sin(s)) / math.sqrt(norm2)


def _gelu_prime(z: np.ndarray) -> np.ndarray:
    """d/dz [z Φ(z)] = Φ(z) + z φ(z) (GELU, exact form)."""
    from scipy.special import ndtr

    return ndtr(z) + z * np.exp(-(z**2) / 2) / math.sqrt(2 * math.pi)


#: non-polynomial activations: their derivative σ' (the only thing the GD steps need); no finite
#: Taylor expansion of the second step exists for these, so no terms H_k are recorded
SIGMA_DERIVATIVES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": lambda z: 1.0 / np.cosh(z) ** 2,
    "relu": lambda z: (z > 0).astype(float),
    "erf": lambda z: 2.0 / math.sqrt(math.pi) * np.exp(-(z**2)),
    "tanh(z+1/2)": lambda z: 1.0 / np.cosh(z + 0.5) ** 2,
    "gelu": lambda z: _gelu_prime(z),
}

#: targets g(s) of one direction, numpy
TARGETS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "He1": lambda s: s,
    "He2": lambda s: (s**2 - 1) / math.sqrt(2),
    "He3": lambda s: (s**3 - 3 * s) / math.sqrt(6),
    "tanh": np.tanh,
    "bounded3": bounded_odd_tau3,
}

#: the targets of the paper's model: y = He1(β1·x) + bounded3(β2·x) (μ_1 = 0, μ_3 ≠ 0 for the
#: second; He_3 itself does not concentrate at feasible N)
MODEL_TARGETS = ("He1", "bounded3")


@dataclass
class TwoStepRun:
    """Everything one simulation records: its parameters (sizes, step exponents, batch mode,
    noise, seed), the learning rates η_i = N^{α_i}, the weights W0, W1, W2, the first gradient
    G0, the second layer a and (polynomial σ) the Taylor terms H_k of the second update."""

    run: Simulation
    eta1: float
    eta2: float
    W0: np.ndarray
    W1: np.ndarray
    W2: np.ndarray
    G0: np.ndarray
    a: np.ndarray
    H: list[np.ndarray] = field(default_factory=list)

    @property
    def N(self) -> int:
        return self.run.N

    @property
    def n(self) -> int:
        return self.run.n

    @property
    def d(self) -> int:
        return self.run.d

    @property
    def batch(self) -> str:
        return self.run.batch

    @property
    def seed(self) -> SeedLike:
        return self.run.seed

    @property
    def epsilon(self) -> float:
        """ε = η1/√N, the expansion parameter of the second update."""
        return self.eta1 / math.sqrt(self.N)

    def spike_constant(self, k: int, v: np.ndarray) -> float:
        """Ĉ_k(v) = √N Σ_j a_j^{k+1}(H_k v)_j / Σ_j a_j^{2k+2}: the projection of H_k v on the
        neuron profile a^{k+1}, which estimates the leading-order constant of the k-th term's
        spike along v while the heavy-tailed bulk (random signs across neurons) averages out."""
        k = read_count(k, "k", 0, len(self.H) - 1)  # the recorded terms
        ak = self.a ** (k + 1)
        return float(math.sqrt(self.N) * (ak @ (self.H[k] @ v)) / (ak @ ak))

    def taylor_residual(self) -> float:
        """‖W2 − (W0 + η1 G0 + η2 Σ ε^k H_k)‖_F / ‖W2 − W1‖_F (zero up to rounding)."""
        total = self.W1 + self.eta2 * sum(self.epsilon**k * Hk for k, Hk in enumerate(self.H))
        return float(np.linalg.norm(self.W2 - total) / np.linalg.norm(self.W2 - self.W1))

    @property
    def bulk_edge(self) -> float:
        """1 + √(N/d): the top of W0's singular-value bulk (entries of variance 1/d)."""
        return 1 + math.sqrt(self.N / self.d)


def top_right_singular_vector(M: np.ndarray) -> np.ndarray:
    """The leading right-singular vector of M (ARPACK; M's top singular value is separated).

    >>> v = top_right_singular_vector(np.diag([3.0, 1.0, 0.5]))
    >>> abs(v).round(6).tolist()
    [1.0, 0.0, 0.0]

    ``M``: a finite real matrix with at least two rows and two columns (ARPACK needs
    k = 1 < min(M.shape)); anything else is a DomainError.
    """
    from scipy.sparse.linalg import svds

    M = read_matrix(M, "M")
    if min(M.shape) < 2:
        raise DomainError("M", f"an array of shape {M.shape}",
                          "a finite matrix of shape (m, n) with m, n >= 2")

    _, _, vt = svds(M, k=1, random_state=0)
    return vt[0]


def _polyval(Z: np.ndarray, he_coefficients: np.ndarray) -> np.ndarray:
    """Σ c_k He_k(Z) elementwise: converted once to the power basis, then Horner in place
    (numpy's Clenshaw evaluation allocates a temporary per degree)."""
    power = He.herme2poly(he_coefficients)
    out = np.full(Z.shape, power[-1])
    for c in power[-2::-1]:
        out *= Z
        out += c
    return out


def _gradient(W_X: np.ndarray, a: np.ndarray, y: np.ndarray, X: np.ndarray, dsigma: Any
              ) -> np.ndarray:
    n, N = X.shape[0], a.shape[0]
    M = dsigma(W_X) if callable(dsigma) else _polyval(W_X, dsigma)
    M *= a[:, None] / (n * math.sqrt(N))
    M *= y[None, :]
    return M @ X


def _activation(sigma: object) -> np.ndarray | str:
    """The simulator's σ: the name of a non-polynomial activation of
    :data:`SIGMA_DERIVATIVES`, or a finite He-coefficient vector of length >= 2."""
    if isinstance(sigma, str):
        return read_choice(sigma, "sigma", tuple(SIGMA_DERIVATIVES))
    arr = read_finite(sigma, "sigma") if isinstance(sigma, np.ndarray | list | tuple) else None
    if not isinstance(arr, np.ndarray) or arr.ndim != 1 or len(arr) < 2:
        raise DomainError("sigma", repr(sigma)[:40], "a finite He-coefficient vector of length "
                          ">= 2 or one of " + ", ".join(SIGMA_DERIVATIVES))
    return arr


def simulate(run: Simulation, sigma: np.ndarray | str,
             targets: Sequence[Callable[[np.ndarray], np.ndarray]], terms: bool = True
             ) -> TwoStepRun:
    """Two full-batch GD steps W1 = W0 + η1 G0, W2 = W1 + η2 G(W1; X2, y2), η_i = N^{α_i}.

    Parameters: ``run``, the sizes N, n, d (memory <= :data:`MAX_BYTES`), α1, α2, batch mode,
    label noise and seed (data and weights from ``rng(seed, KEY_DATA)``); ``sigma`` a
    He-coefficient vector (polynomial: the Taylor terms H_k are recorded when ``terms``) or the
    name of a non-polynomial activation in :data:`SIGMA_DERIVATIVES` (no terms);
    ``targets[k]`` acts on direction e_k (orthonormal by rotation invariance), at most d of
    them. Returns a :class:`TwoStepRun` (float64 arrays).

    >>> run = simulate(Simulation(50, alpha1=0.4, alpha2=0.3), TWO_STEP_SIGMA, [TARGETS["He1"]])
    >>> len(run.H), run.taylor_residual() < 1e-12
    (3, True)
    """
    sigma = _activation(sigma)
    if not isinstance(targets, Sequence) or not all(callable(g) for g in targets):
        raise DomainError("targets", targets, "a sequence of functions of one variable")
    check_sizes(run, len(targets), 0 if isinstance(sigma, str) or not terms else len(sigma) - 1)
    N, n, d = run.N, run.n, run.d
    gen = rng(run.seed, KEY_DATA)
    X = gen.standard_normal((n, d))
    y = sum((g(X[:, k]) for k, g in enumerate(targets)), np.zeros(n))
    y = y + float(run.noise) * gen.standard_normal(n)
    W0 = gen.standard_normal((N, d)) / math.sqrt(d)
    a = gen.standard_normal(N)
    eta1, eta2 = float(N) ** float(run.alpha1), float(N) ** float(run.alpha2)
    if run.batch == "reused":
        (X1, y1), (X2, y2) = (X, y), (X, y)
    else:
        half = n // 2
        (X1, y1), (X2, y2) = (X[:half], y[:half]), (X[half:], y[half:])
    dsigma: Any = SIGMA_DERIVATIVES[sigma] if isinstance(sigma, str) else He.hermeder(sigma)
    Z01 = W0 @ X1.T
    G0 = _gradient(Z01, a, y1, X1, dsigma)
    W1 = W0 + eta1 * G0
    # W1 X2ᵀ = W0 X2ᵀ + η1 G0 X2ᵀ: the two products are needed by the Taylor terms anyway.
    Z0 = Z01 if run.batch == "reused" else W0 @ X2.T
    D = G0 @ X2.T
    Z1 = D * eta1
    Z1 += Z0
    W2 = W1 + eta2 * _gradient(Z1, a, y2, X2, dsigma)
    del Z1
    out = TwoStepRun(run, eta1, eta2, W0, W1, W2, G0, a)
    if terms and not isinstance(sigma, str):
        out.H.extend(_taylor_terms(sigma, dsigma, Z0, D, a, X2, y2))
    return out


def _taylor_terms(sigma: np.ndarray, dsigma: np.ndarray, Z0: np.ndarray, D: np.ndarray,
                  a: np.ndarray, X2: np.ndarray, y2: np.ndarray) -> list[np.ndarray]:
    """H_k = (1/(n2√N)) (a ⊙ σ^{(k+1)}(Z0) ⊙ D^k/k! ⊙ y2) X2, k = 0..L−1 (D scaled in place)."""
    N = a.shape[0]
    D *= math.sqrt(N)  # D = √N G0 X2ᵀ
    power: np.ndarray | None = None
    deriv = dsigma
    scale = X2.shape[0] * math.sqrt(N)
    out = []
    for k in range(len(sigma) - 1):  # σ^{(k+1)} ≠ 0 for k <= L − 1
        M = _polyval(Z0, deriv)
        if power is not None:
            M *= power
        M *= a[:, None] / (math.factorial(k) * scale)
        M *= y2[None, :]
        out.append(M @ X2)
        deriv = He.hermeder(deriv)
        if k < len(sigma) - 2:
            power = D.copy() if power is None else np.multiply(power, D, out=power)
    return out


# --------------------------------------------------------------------------- the paper's model


def model_run(run: Simulation, terms: bool = True) -> TwoStepRun:
    """One run of the paper's model: σ = :data:`TWO_STEP_SIGMA`, targets :data:`MODEL_TARGETS`,
    the sizes, step exponents, batch and seed of ``run`` (the paper's N = n = d by default).

    >>> model_run(Simulation(40, batch="fresh", seed=3)).W2.shape
    (40, 40)
    """
    return simulate(run, TWO_STEP_SIGMA, [TARGETS[t] for t in MODEL_TARGETS], terms=terms)


def directions(run: Simulation, n_targets: int) -> list[np.ndarray]:
    """The test directions of a run (vectors of ℝ^d): the target directions e_0, …,
    e_{n_targets − 1} and a random unit vector orthogonal to them (drawn from
    ``rng(seed, KEY_DIRECTION)``); fewer than d targets.

    >>> [float(v @ v) for v in directions(Simulation(5), 2)]
    [1.0, 1.0, 1.0]
    """
    d = run.d
    n_targets = read_count(n_targets, "targets", 0, d - 1)  # fewer than d directions
    u = rng(run.seed, KEY_DIRECTION).standard_normal(d)
    u[:n_targets] = 0.0
    return [*(np.eye(1, d, i).ravel() for i in range(n_targets)), u / np.linalg.norm(u)]


def spike_constants(run: TwoStepRun, vectors: Sequence[np.ndarray]) -> np.ndarray:
    """Ĉ_k(v) (:meth:`TwoStepRun.spike_constant`) for every recorded term k (rows) and every
    vector v (columns), as a float64 array.

    >>> run = model_run(Simulation(40))
    >>> spike_constants(run, directions(run.run, 2)).shape
    (3, 3)
    """
    return np.array([[run.spike_constant(k, v) for v in vectors] for k in range(len(run.H))])


@dataclass(frozen=True)
class SpikeSummary:
    """What one run of the model leaves for the claims and the sweep: ``C[k, j]`` = Ĉ_k(v_j)
    for k = 0..2 and v = β1, β2, random (3 × 3) and the Taylor-identity residual."""

    C: np.ndarray
    taylor_residual: float


def spike_summary(run: Simulation) -> SpikeSummary:
    """The spike constants and Taylor residual of :func:`model_run` along :func:`directions`
    (kept instead of the run's matrices).

    >>> s = spike_summary(Simulation(40))
    >>> s.C.shape, s.taylor_residual < 1e-12
    ((3, 3), True)
    """
    out = model_run(run)
    C = spike_constants(out, directions(run, len(MODEL_TARGETS)))
    return SpikeSummary(C, out.taylor_residual())


def count_outliers(run: TwoStepRun, factor: float = 1.1) -> int:
    """Singular values of W2 above ``factor`` × the bulk edge of W0 (``factor`` > 0).

    >>> count_outliers(model_run(Simulation(60), terms=False)) >= 1
    True
    """
    factor = read_real(factor, "factor", 0, open_low=True)
    return int(np.sum(np.linalg.svd(run.W2, compute_uv=False) > factor * run.bulk_edge))


@dataclass(frozen=True)
class OneStepDeviation:
    """W2 against one step of size η1 + η2: the relative deviation ‖W2 − W0 − (η1+η2)G0‖ /
    ‖(η1+η2)G0‖ in the Frobenius (``r_F``) and spectral (``r_2``) norms, and the squared
    Frobenius norms ‖H_k‖_F² of the Taylor terms (H_0 = G0 for a reused batch)."""

    r_F: float
    r_2: float
    term_norms2: tuple[float, ...]


def one_step_deviation(run: TwoStepRun) -> OneStepDeviation:
    """:class:`OneStepDeviation` of a run (its terms H_k must be recorded).

    >>> dev = one_step_deviation(model_run(Simulation(40, alpha1=0.1, alpha2=0.2)))
    >>> len(dev.term_norms2), dev.r_F > 0
    (3, True)
    """
    one = (run.eta1 + run.eta2) * run.G0
    dev = run.W2 - run.W0 - one
    return OneStepDeviation(float(np.linalg.norm(dev) / np.linalg.norm(one)),
                            float(np.linalg.norm(dev, 2) / np.linalg.norm(one, 2)),
                            tuple(float(np.linalg.norm(H) ** 2) for H in run.H))


def target_overlaps(run: TwoStepRun, n_targets: int) -> list[float]:
    """Squared overlaps ⟨v1, e_k⟩², k < n_targets, of W1's top right-singular vector v1 with
    the target directions (after one step).

    >>> [0 <= o <= 1 for o in target_overlaps(model_run(Simulation(40)), 2)]
    [True, True]
    """
    n_targets = read_count(n_targets, "targets", 0, run.d)  # at most d directions
    v1 = top_right_singular_vector(run.W1)
    return [float(v1[i] ** 2) for i in range(n_targets)]


def singular_values(run: Simulation) -> dict[str, Any]:
    """Singular values of W0, W1 and W2 of one :func:`model_run` (no terms), with W0's bulk
    edge and the parameters (what the two-step figure draws: α1, α2 as decimals).

    >>> sv = singular_values(Simulation(30))
    >>> len(sv["W2"]), round(sv["edge"], 3), sv["alpha1"]
    (30, 2.0, 0.4)
    """
    out = model_run(run, terms=False)
    return {name: np.linalg.svd(M, compute_uv=False)
            for name, M in (("W0", out.W0), ("W1", out.W1), ("W2", out.W2))} | {
        "edge": out.bulk_edge, "alpha1": float(run.alpha1), "alpha2": float(run.alpha2),
        "N": run.N}


# --------------------------------------------------------------------------- one CLI run


@dataclass(frozen=True)
class SimulationReport:
    """One run of ``fltheory twostep simulate``: for a polynomial σ the estimated constants
    ``C_hat[k][j]`` along the targets and a random direction, the Taylor residual and ε; for a
    non-polynomial σ the singular values of W2 and the one-step overlaps with the targets."""

    sigma: str
    targets: tuple[str, ...]
    epsilon: float
    C_hat: list[list[float]] | None = None
    taylor_residual: float | None = None
    singular_values: list[float] | None = None
    overlaps: list[float] | None = None


def measure(run: Simulation, sigma: str = "h1+h2+h3", targets: Sequence[str] = (),
            on_start: Callable[[], None] | None = None) -> SimulationReport:
    """Simulate the two steps and measure them (``fltheory twostep simulate``).

    ``run``: the sizes (N = n = d, N >= :data:`MIN_N`), step exponents, batch and seed;
    ``sigma`` names an activation of :data:`SIGMAS` (polynomial: Ĉ_k along each target and a
    random direction, :func:`spike_constants`) or :data:`SIGMA_DERIVATIVES` (the spectrum of W2
    and the one-step overlaps); ``targets`` name :data:`TARGETS` (default
    :data:`MODEL_TARGETS`), fewer than N. Within :data:`MAX_BYTES` and :data:`MAX_FLOPS`
    (checked before any work; ``on_start`` is called after the checks).

    >>> r = measure(Simulation(40))
    >>> len(r.C_hat), len(r.C_hat[0]), r.taylor_residual < 1e-12
    (3, 3, True)
    """
    N = run.N
    if N < MIN_N:
        raise DomainError("N", N, f"integers in [{MIN_N}, inf]")
    if run.n != N or run.d != N:
        raise DomainError("n", run.n, f"n = d = N = {N} (the command's model)")
    if sigma not in SIGMAS and sigma not in SIGMA_DERIVATIVES:
        raise DomainError("sigma", sigma, "one of " + ", ".join([*SIGMAS, *SIGMA_DERIVATIVES]),
                          reason="is not a simulator activation")
    targets = tuple(targets) or MODEL_TARGETS
    for t in targets:
        if t not in TARGETS:
            raise DomainError("target", t, "one of " + ", ".join(TARGETS),
                              reason="is not a simulator target")
    if len(targets) >= N:
        raise DomainError("target", len(targets), f"fewer than N = {N} directions")
    terms = len(SIGMAS[sigma]) - 1 if sigma in SIGMAS else 0
    check_sizes(run, len(targets), terms)
    check_cost(f"N = {N}", run_flops(N, N, N, terms), MAX_FLOPS, "floating-point operations",
               "lower N: the cost grows as N³")
    if on_start is not None:
        on_start()
    out = simulate(run, SIGMAS.get(sigma, sigma), [TARGETS[t] for t in targets])
    if not out.H:
        sv = np.linalg.svd(out.W2, compute_uv=False)
        return SimulationReport(sigma, targets, out.epsilon,
                                singular_values=[float(v) for v in sv],
                                overlaps=target_overlaps(out, len(targets)))
    est = spike_constants(out, directions(run, len(targets)))
    return SimulationReport(sigma, targets, out.epsilon, C_hat=est.tolist(),
                            taylor_residual=out.taylor_residual())


# --------------------------------------------------------------------------- term presence

#: largest term index :func:`term_presence` tests (powers of a up to a^(kmax + 2) are fitted)
PRESENCE_KMAX = 6


@dataclass(frozen=True)
class TermPresence:
    """Per term k = 1..kmax of the second update (row profile a^{k+1}): the squared norm
    ``T[k-1]`` of its projection, the mean and standard deviation of the same statistic under
    random sign flips of the neurons (``null_mean``, ``null_sd``, exact moments of the flip
    distribution), the one-sided p-value of T under the null (a scaled χ² with the null's
    mean and variance, Satterthwaite) and its normal equivalent ``z`` = Φ⁻¹(1 − p) (capped at
    37 where p underflows); with the run's size and batch mode."""

    N: int
    batch: str
    T: tuple[float, ...]
    null_mean: tuple[float, ...]
    null_sd: tuple[float, ...]
    p: tuple[float, ...]
    z: tuple[float, ...]


def _presence_stat(delta: np.ndarray, q: np.ndarray, resid: np.ndarray
                   ) -> tuple[float, float, float]:
    """T = ‖qᵀΔ‖², and the mean and sd of ‖Σ_j ε_j q_j R_j‖² over independent signs ε_j."""
    T = float(np.sum((q @ delta) ** 2))
    C = resid * q[:, None]
    rows2 = np.einsum("ij,ij->i", C, C)
    mean = float(rows2.sum())
    gram2 = float(np.sum((C.T @ C) ** 2))  # ‖CᵀC‖_F² = ‖CCᵀ‖_F²
    var = 2.0 * (gram2 - float(np.sum(rows2**2)))
    return T, mean, math.sqrt(max(var, 0.0))


def _lower_fit(a: np.ndarray, k: int, delta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """q: a^{k+1} orthogonalised against the lower powers a^m of the same parity (1 <= m <= k),
    normalised; R: Δ minus its least-squares fit on those lower powers."""
    target = a ** (k + 1)
    lower = [a**m for m in range(1, k + 1) if (k + 1 - m) % 2 == 0]
    if not lower:
        return target / np.linalg.norm(target), delta
    Q, _ = np.linalg.qr(np.column_stack(lower))
    q = target - Q @ (Q.T @ target)
    return q / np.linalg.norm(q), delta - Q @ (Q.T @ delta)


def term_presence(run: TwoStepRun, kmax: int = 3) -> TermPresence:
    r"""Is the k-th term of the second update present? A row of Δ = W2 − W1 depends only on its
    own w0_j and a_j, and the k-th term has row profile a_j^{k+1}. The test vector q_k ∈ ℝ^N is
    a^{k+1} orthogonalised (over the N neurons) against the lower powers a^m of the same parity,
    1 <= m <= k, so that it has the exact parity of a^{k+1} and no lower same-parity profile
    (e.g. the k = 0 term a) leaks into it; T_k = ‖q_kᵀΔ‖².

    Null: the same statistic with random signs ε_j on the rows of R = Δ − (its fit on those
    lower powers): mean Σ_j q_j²‖R_j‖², variance 2 Σ_{j≠j'} q_j²q_j'²(R_j·R_j')², exact
    moments of the flip distribution. Why it is the right null: a = sign·|a| with the sign
    independent of |a|, so every coherent part of the other parity enters q_kᵀΔ as a sum with
    random signs, which the flips reproduce (removing it from R would understate the null);
    when no profile of a^{k+1}'s parity is present (odd σ, odd k: exact by the symmetry
    (w0_j, a_j) → (−w0_j, −a_j)), the rows q_jΔ_j are independent and symmetric and the flip
    test is exact. A present term adds ≈ N × (its squared constant) to T. The p-value of T_k
    uses a scaled χ² with the null's mean and variance (:func:`_null_pvalue`).

    ``run``: a :class:`TwoStepRun` (any σ); ``kmax`` in 1..:data:`PRESENCE_KMAX`, N > kmax + 1.
    Returns :class:`TermPresence` (float64 values).

    >>> r = term_presence(simulate(Simulation(200, alpha1=0.4, alpha2=0.3), "tanh",
    ...                            [TARGETS["He1"]], terms=False), kmax=2)
    >>> len(r.z)
    2
    """
    if not isinstance(run, TwoStepRun):
        raise DomainError("run", type(run).__name__, "a TwoStepRun")
    kmax = read_count(kmax, "kmax", 1, PRESENCE_KMAX)
    if kmax + 1 >= run.N:
        raise DomainError("N", run.N, f"integers > kmax + 1 = {kmax + 1}")
    delta = run.W2 - run.W1
    a = run.a / np.sqrt(np.mean(run.a**2))
    T, means, sds = [], [], []
    for k in range(1, kmax + 1):
        q, resid = _lower_fit(a, k, delta)
        t, m, s = _presence_stat(delta, q, resid)
        T.append(t)
        means.append(m)
        sds.append(s)
    if not all(math.isfinite(x) and x >= 0 for x in (*T, *means, *sds)) or min(sds) == 0:
        raise DomainError("run", "a run with non-finite or degenerate updates",
                          "runs whose second update is finite and non-zero")
    p = tuple(_null_pvalue(t, m, s) for t, m, s in zip(T, means, sds, strict=True))
    z = tuple(min(37.0, float(_norm_isf(x))) if x > 0 else 37.0 for x in p)
    return TermPresence(run.N, run.batch, tuple(T), tuple(means), tuple(sds), p, z)


def _norm_isf(p: float) -> float:
    from scipy.stats import norm

    return float(norm.isf(p))


def _null_pvalue(T: float, mean: float, sd: float) -> float:
    """P(X >= T) for X = g·χ²_h with E X = mean, Var X = sd² (h = 2 mean²/sd², g = mean/h).

    The flip statistic is a quadratic form εᵀ(CCᵀ)ε ≈ Σ λ_i χ²_1: far from normal when one
    direction dominates (then it is ≈ λ χ²_1, which this matches exactly), so a plain
    (T − mean)/sd would overstate significance."""
    from scipy.stats import chi2

    h = 2.0 * mean**2 / sd**2
    return float(chi2.sf(T * h / mean, h))


def combine_presence(reports: Sequence[TermPresence]) -> TermPresence:
    """Pool independent runs (same kmax): T, the null means and the null variances add (the
    runs are independent), and the p-values are recomputed from the pooled moments. N and
    batch are those of the first report.

    >>> run = simulate(Simulation(100, alpha1=0.4, alpha2=0.3), "tanh", [TARGETS["He1"]],
    ...                terms=False)
    >>> r = term_presence(run, 1)
    >>> round(combine_presence([r, r]).null_mean[0] / r.null_mean[0], 6)
    2.0
    """
    reports = list(reports)
    if not reports or not all(isinstance(r, TermPresence) for r in reports) \
            or len({len(r.T) for r in reports}) != 1:
        raise DomainError("reports", len(reports), "a non-empty list of TermPresence with the "
                          "same kmax")
    T = np.sum([r.T for r in reports], axis=0)
    mean = np.sum([r.null_mean for r in reports], axis=0)
    sd = np.sqrt(np.sum([np.square(r.null_sd) for r in reports], axis=0))
    p = tuple(_null_pvalue(float(t), float(m), float(s)) for t, m, s in zip(T, mean, sd,
                                                                           strict=True))
    z = tuple(min(37.0, _norm_isf(x)) if x > 0 else 37.0 for x in p)
    return TermPresence(reports[0].N, reports[0].batch, tuple(map(float, T)),
                        tuple(map(float, mean)), tuple(map(float, sd)), p, z)


def profile_constant(run: TwoStepRun, v: np.ndarray, k: int, signed: bool = False,
                     top: int | None = None) -> float:
    r"""Ĉ_k(v): the a^{k+1} coefficient of the second update along v, in the units of the
    theory's C_k(v). Least squares of (Δv)_j, Δ = W2 − W1, on a_j, a_j², …, a_j^(k+3) over the
    N neurons (powers above k + 1 absorb the next terms of the series), then
    Ĉ_k = √N × (coefficient of a^{k+1}) / (η2 ε^k). Works for any σ (no Taylor terms needed);
    at feasible N the value includes the higher orders of ε = η1/√N, so only its sign and
    whether it is zero compare with the leading-order constant.

    ``run``: a :class:`TwoStepRun`; ``v`` a finite vector of length d; ``k`` in 0..6
    (N > k + 3; ``signed``: N > 2k + 6). Returns a float. With ``signed`` the fit is on a^m and
    a^m sgn(a) = |a|a^(m−1), m = 1..k + 3, and the value is the coefficient of |a|a^k (the odd
    part of a term when σ' jumps), in the same units. ``top`` (k + 1..12; default k + 3) is the
    highest power m fitted: when ε|a| is not small, the profiles of the terms beyond k + 2 leak
    into a lower coefficient of the same parity unless they are fitted too.

    >>> run = simulate(Simulation(200, alpha1=0.4, alpha2=0.35), "tanh", [TARGETS["He1"]],
    ...                terms=False)
    >>> profile_constant(run, np.eye(1, 200, 0).ravel(), 2) < 0
    True
    """
    if not isinstance(run, TwoStepRun):
        raise DomainError("run", type(run).__name__, "a TwoStepRun")
    k = read_count(k, "k", 0, PRESENCE_KMAX)
    if k + 3 >= run.N:
        raise DomainError("N", run.N, f"integers > k + 3 = {k + 3}")
    v = np.asarray(read_finite(v, "v"), dtype=float)
    if v.shape != (run.d,):
        raise DomainError("v", f"an array of shape {v.shape}", f"a vector of length {run.d}")
    a = run.a
    top = k + 3 if top is None else read_count(top, "top", k + 1, 12)
    if (2 if signed else 1) * top >= run.N:
        raise DomainError("N", run.N, f"integers > {(2 if signed else 1) * top} (the columns)")
    columns = [a**m for m in range(1, top + 1)]
    if signed:
        columns += [a**m * np.sign(a) for m in range(1, top + 1)]
    coef = np.linalg.lstsq(np.column_stack(columns), (run.W2 - run.W1) @ v, rcond=None)[0]
    index = top + k if signed else k
    return float(coef[index] * math.sqrt(run.N) / (run.eta2 * run.epsilon**k))


def term_constants_task(p: dict[str, Any], seed: Any) -> dict[str, float]:
    """The sweep task ``twostep.term_constants`` (declared in
    :mod:`fltheory.papers.twostep.sweeps`): :func:`spike_summary` at N = ``p["N"]`` with the
    batch ``p["batch"]``, flattened: the constants ``C{k}_{v}`` (k = 0..2 along v = beta1,
    beta2, random) and the Taylor residual.

    >>> out = term_constants_task({"N": 40, "batch": "reused"}, 0)
    >>> len(out), out["taylor_residual"] < 1e-12
    (10, True)
    """
    summary = spike_summary(Simulation(p["N"], batch=p["batch"], seed=seed))
    names = ("beta1", "beta2", "random")
    out = {f"C{k}_{names[j]}": float(summary.C[k, j]) for k in range(3) for j in range(3)}
    out["taylor_residual"] = float(summary.taylor_residual)
    return out
