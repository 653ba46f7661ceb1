"""Two full-batch gradient steps on the first layer of a two-layer network (seed 000).

Normalisation (stated once, used everywhere): f(x) = aᵀσ(Wx)/√N, W ∈ ℝ^{N×d}, x ~ N(0, I_d),
W0 i.i.d. N(0, 1/d) (so every pre-activation is ≈ N(0, 1)), a i.i.d. N(0, 1) and kept fixed,
correlation loss L(W) = −(1/n) Σ_i y_i f(x_i), learning rates η1 = N^{α1}, η2 = N^{α2}.
The update direction is G(W; X, y) = −∇L = (1/(n√N)) (a ⊙ σ'(W Xᵀ) ⊙ y) X, so

    W1 = W0 + η1 G0,   W2 = W1 + η2 G(W1; X2, y2),

with (X2, y2) = (X, y) for a *reused* batch and the second half for a *fresh* one (the n samples
split into two disjoint halves, one per step).

For a polynomial σ of degree L the second step expands exactly (finite Taylor sum in the first
update Δ = η1 G0 X2ᵀ = ε D, ε = η1/√N, D = √N G0 X2ᵀ):

    G(W1) = Σ_{k=0}^{L−1} ε^k H_k,  H_k = (1/(n2√N)) (a ⊙ σ^{(k+1)}(W0 X2ᵀ) ⊙ D^k/k! ⊙ y2) X2.

numpy only: nothing here imports sympy, mpmath or :mod:`fltheory.theory`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.polynomial import hermite_e as He

from fltheory.exact import DomainError

__all__ = ["MAX_BYTES", "SIGMAS", "SIGMA_DERIVATIVES", "TARGETS", "TwoStepRun",
           "bounded_odd_tau3", "check_sizes", "hermite_sigma", "run_bytes", "run_flops",
           "simulate", "top_right_singular_vector"]

#: Memory of one run (see :func:`run_bytes`); 2 GiB keeps a run on a small machine.
MAX_BYTES = 2 * 1024**3


def _gib(nbytes: int) -> str:
    """Bytes as GiB for a message (no float overflow for absurd sizes)."""
    if nbytes.bit_length() < 1000:
        return f"{nbytes / 1024**3:.3g} GiB"
    return f"about 2^{nbytes.bit_length() - 30} GiB"


def run_bytes(N: int, n: int, d: int, terms: int) -> int:
    """Bytes held by :func:`simulate`: X (n × d); W0, W1, W2, G0 and the terms H_k (N × d
    each); Z0, D, Z1 and a temporary (N × n each)."""
    return 8 * (n * d + (4 + terms) * N * d + 4 * N * n)


def run_flops(N: int, n: int, d: int, terms: int) -> float:
    """Multiply-adds of :func:`simulate`: the products W0 Xᵀ, G X (two steps), G0 Xᵀ and one
    M X per term, 2·N·n·d each."""
    return 2.0 * (4 + terms) * N * n * d


def check_sizes(N: int, n: int, d: int, seed: int, n_targets: int, terms: int = 0) -> None:
    """Refuse sizes :func:`simulate` cannot honour, before allocating anything."""
    for name, value, low in (("N", N, 1), ("n", n, 2), ("d", d, 1), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
            raise DomainError(name, value, f"integers >= {low}")
    if n_targets > d:
        raise DomainError("targets", n_targets, f"at most d = {d} directions")
    need = run_bytes(N, n, d, terms)
    if need > MAX_BYTES:
        raise DomainError("N", N, f"{MAX_BYTES >> 30} GiB of arrays (here about "
                                f"{_gib(need)} at n = {n}, d = {d})")


def hermite_sigma(coefficients: Sequence[float]) -> np.ndarray:
    """He-basis coefficients of Σ_k c_k h_k (orthonormal h_k = He_k/√(k!))."""
    return np.array([c / math.sqrt(math.factorial(k)) for k, c in enumerate(coefficients)])


#: activations as He-basis coefficient vectors (polynomials)
SIGMAS: dict[str, np.ndarray] = {
    "h1+h2+h3": hermite_sigma([0, 1 / math.sqrt(3), 1 / math.sqrt(3), 1 / math.sqrt(3)]),
    "h1+h3": hermite_sigma([0, 1 / math.sqrt(2), 0, 1 / math.sqrt(2)]),
    "He1": np.array([0.0, 1.0]),
    "cubic": np.array([0.0, 3.0, 0.0, 1.0]),  # z³ = He3 + 3 He1
}


def bounded_odd_tau3(s: np.ndarray) -> np.ndarray:
    """A bounded odd target with zero linear Hermite coefficient and non-zero cubic one:
    g(s) = (sin(2s)/(2e^{−2}) − sin(s)/e^{−1/2}) / c, using E[s sin(bs)] = b e^{−b²/2} (so the
    two linear coefficients cancel); c ≈ normalises E[g²] to 1 (c² = E[(…)²], computed in closed
    form from E[sin(bs) sin(b's)] = (e^{−(b−b')²/2} − e^{−(b+b')²/2})/2)."""
    A, B = 1 / (2 * math.exp(-2)), 1 / math.exp(-0.5)

    def e_sin_sin(b: float, c: float) -> float:
        return (math.exp(-((b - c) ** 2) / 2) - math.exp(-((b + c) ** 2) / 2)) / 2

    norm2 = A * A * e_sin_sin(2, 2) - 2 * A * B * e_sin_sin(2, 1) + B * B * e_sin_sin(1, 1)
    return (A * np.sin(2 * s) - B * np.sin(s)) / math.sqrt(norm2)


#: non-polynomial activations: their derivative σ' (the only thing the GD steps need); no finite
#: Taylor expansion of the second step exists for these, so no terms H_k are recorded
SIGMA_DERIVATIVES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": lambda z: 1.0 / np.cosh(z) ** 2,
    "relu": lambda z: (z > 0).astype(float),
    "erf": lambda z: 2.0 / math.sqrt(math.pi) * np.exp(-(z**2)),
}

#: targets g(s) of one direction, numpy
TARGETS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "He1": lambda s: s,
    "He2": lambda s: (s**2 - 1) / math.sqrt(2),
    "He3": lambda s: (s**3 - 3 * s) / math.sqrt(6),
    "tanh": np.tanh,
    "bounded3": bounded_odd_tau3,
}


@dataclass
class TwoStepRun:
    """Everything one simulation records."""

    N: int
    n: int
    d: int
    eta1: float
    eta2: float
    batch: str
    seed: int
    W0: np.ndarray
    W1: np.ndarray
    W2: np.ndarray
    G0: np.ndarray
    a: np.ndarray
    H: list[np.ndarray] = field(default_factory=list)

    @property
    def epsilon(self) -> float:
        return self.eta1 / math.sqrt(self.N)

    def spike_constant(self, k: int, v: np.ndarray) -> float:
        """Ĉ_k(v) = √N Σ_j a_j^{k+1}(H_k v)_j / Σ_j a_j^{2k+2}: the projection of H_k v on the
        neuron profile a^{k+1}, which estimates the leading-order constant of the k-th term's
        spike along v while the heavy-tailed bulk (random signs across neurons) averages out."""
        ak = self.a ** (k + 1)
        return float(math.sqrt(self.N) * (ak @ (self.H[k] @ v)) / (ak @ ak))

    def taylor_residual(self) -> float:
        """‖W2 − (W0 + η1 G0 + η2 Σ ε^k H_k)‖_F / ‖W2 − W1‖_F (zero up to rounding)."""
        total = self.W1 + self.eta2 * sum(self.epsilon**k * Hk for k, Hk in enumerate(self.H))
        return float(np.linalg.norm(self.W2 - total) / np.linalg.norm(self.W2 - self.W1))


def top_right_singular_vector(M: np.ndarray) -> np.ndarray:
    """The leading right-singular vector of M (ARPACK; M's top singular value is separated)."""
    from scipy.sparse.linalg import svds

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


def simulate(N: int, n: int, d: int, alpha1: float, alpha2: float, sigma: np.ndarray | str,
             targets: Sequence[Callable[[np.ndarray], np.ndarray]], seed: int,
             batch: str = "reused", noise: float = 0.0, terms: bool = True) -> TwoStepRun:
    """Two GD steps; targets[k] acts on direction e_k (orthonormal by rotation invariance).

    ``sigma`` is a He-coefficient vector (polynomial: the terms H_k are recorded when ``terms``)
    or the name of a non-polynomial activation in SIGMA_DERIVATIVES (no terms).
    """
    if batch not in ("reused", "fresh"):
        raise ValueError("batch must be 'reused' or 'fresh'")
    check_sizes(N, n, d, seed, len(targets),
                0 if isinstance(sigma, str) or not terms else len(sigma) - 1)
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = sum(g(X[:, k]) for k, g in enumerate(targets)) + noise * rng.standard_normal(n)
    W0 = rng.standard_normal((N, d)) / math.sqrt(d)
    a = rng.standard_normal(N)
    eta1, eta2 = float(N) ** alpha1, float(N) ** alpha2
    if batch == "reused":
        (X1, y1), (X2, y2) = (X, y), (X, y)
    else:
        half = n // 2
        (X1, y1), (X2, y2) = (X[:half], y[:half]), (X[half:], y[half:])
    polynomial = not isinstance(sigma, str)
    dsigma: Any = SIGMA_DERIVATIVES[sigma] if isinstance(sigma, str) else He.hermeder(sigma)
    Z01 = W0 @ X1.T
    G0 = _gradient(Z01, a, y1, X1, dsigma)
    W1 = W0 + eta1 * G0
    # W1 X2ᵀ = W0 X2ᵀ + η1 G0 X2ᵀ: the two products are needed by the Taylor terms anyway.
    Z0 = Z01 if batch == "reused" else W0 @ X2.T
    D = G0 @ X2.T
    Z1 = D * eta1
    Z1 += Z0
    W2 = W1 + eta2 * _gradient(Z1, a, y2, X2, dsigma)
    del Z1
    run = TwoStepRun(N, n, d, eta1, eta2, batch, seed, W0, W1, W2, G0, a)
    if terms and polynomial:
        D *= math.sqrt(N)  # D = √N G0 X2ᵀ
        power: np.ndarray | None = None
        deriv = dsigma
        scale = X2.shape[0] * math.sqrt(N)
        assert not isinstance(sigma, str)
        for k in range(len(sigma) - 1):  # σ^{(k+1)} ≠ 0 for k <= L − 1
            M = _polyval(Z0, deriv)
            if power is not None:
                M *= power
            M *= a[:, None] / (math.factorial(k) * scale)
            M *= y2[None, :]
            run.H.append(M @ X2)
            deriv = He.hermeder(deriv)
            if k < len(sigma) - 2:
                power = D.copy() if power is None else np.multiply(power, D, out=power)
    return run
