r"""The Lu–Li equations of a spectral estimator (Lu & Li 2017, *Phase transitions of spectral
initialization for high-dimensional nonconvex estimation*, Theorem 1; Mondelli & Montanari 2018,
Lemma 2), solved in double precision for any law of the preprocessed label.

Setting and normalisation (the one used everywhere in fltheory): n samples x_μ ~ N(0, I_d), a
unit direction β, s = β·x_μ ~ N(0, 1), labels y_μ from s, a preprocessing T(y) bounded above
with τ = sup T, and D = (1/n) Σ_μ T(y_μ) x_μ x_μᵀ at δ = n/d. With

.. math::

    ψ_δ(λ) = λ\Big(\frac1δ + \mathbb{E}\frac{T}{λ − T}\Big), \qquad
    φ(λ) = λ\,\mathbb{E}\frac{T s^2}{λ − T}, \qquad λ̄ = \arg\min_{λ > τ} ψ_δ(λ),

the top eigenvalue of D converges to ψ_δ(λ*) where λ* > λ̄ solves ψ_δ(λ*) = φ(λ*) (an outlier),
else to the bulk edge ψ_δ(λ̄); the squared overlap of its eigenvector with β is
ψ_δ'(λ*)/(ψ_δ'(λ*) − φ'(λ*)), and 0 without an outlier. A *law* gives ψ, φ and τ: a discrete
one (:class:`DiscreteLaw`: nodes t with weights, and the weights of E[s² ·] for one or several
directions i) or any object with the same three members.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

__all__ = ["DiscreteLaw", "LuLiLaw", "LuLiOverlap", "lambda_bar", "luli_overlap"]


class LuLiLaw(Protocol):
    """What the Lu–Li solver needs of a label law: τ = sup T, ψ_δ(λ) with ψ_δ'(λ), and
    φ_i(λ) with φ_i'(λ) for direction i (see the module docstring)."""

    @property
    def tau(self) -> float: ...

    def psi(self, lam: float, delta: float) -> tuple[float, float]: ...

    def phi(self, i: int, lam: float) -> tuple[float, float]: ...


@dataclass(frozen=True)
class DiscreteLaw:
    """A discrete law of T: nodes ``t`` with probabilities ``base`` (summing to 1) and, per
    direction i, the weights ``biased[i]`` of E[s_i² ·] (summing to E[s_i²] = 1); ``tau`` is
    sup T (at least max t). Its ψ and φ are the sums of the module docstring."""

    t: np.ndarray
    base: np.ndarray
    biased: np.ndarray  # directions × len(t)
    tau: float

    def psi(self, lam: float, delta: float) -> tuple[float, float]:
        """ψ_δ(λ) and ψ_δ'(λ) for λ > τ.

        >>> law = DiscreteLaw(np.array([-1.0, 1.0]), np.array([.5, .5]),
        ...                   np.array([[.25, .75]]), 1.0)
        >>> [round(v, 6) for v in law.psi(2.0, 1.0)]
        [2.666667, 0.444444]
        """
        e1 = float(self.base @ (self.t / (lam - self.t)))
        e2 = float(self.base @ (self.t ** 2 / (lam - self.t) ** 2))
        return lam * (1 / delta + e1), 1 / delta - e2

    def phi(self, i: int, lam: float) -> tuple[float, float]:
        """φ_i(λ) = λ E[T s_i²/(λ − T)] and its derivative −E[T² s_i²/(λ − T)²].

        >>> law = DiscreteLaw(np.array([-1.0, 1.0]), np.array([.5, .5]),
        ...                   np.array([[.25, .75]]), 1.0)
        >>> [round(v, 6) for v in law.phi(0, 2.0)]
        [1.333333, -0.777778]
        """
        b = self.biased[i]
        return (lam * float(b @ (self.t / (lam - self.t))),
                -float(b @ (self.t ** 2 / (lam - self.t) ** 2)))


@dataclass(frozen=True)
class LuLiOverlap:
    """The Lu–Li answer for one direction at δ: ``rho2`` = ⟨x̂, β⟩² (0 below threshold), the
    eigenvalue ``outlier`` (None below threshold) and the bulk ``edge`` ψ_δ(λ̄)."""

    rho2: float
    outlier: float | None
    edge: float


def lambda_bar(law: LuLiLaw, delta: float) -> float:
    """λ̄ = argmin_{λ > τ} ψ_δ(λ): the zero of ψ_δ' above τ, or τ itself (to 1e-14) when
    ψ_δ' >= 0 already there.

    >>> law = DiscreteLaw(np.array([-1.0, 1.0]), np.array([.5, .5]),
    ...                   np.array([[.25, .75]]), 1.0)
    >>> round(lambda_bar(law, 1.0), 6)   # 1 = (1/2)/(λ−1)² + (1/2)/(λ+1)²: λ = √3
    1.732051
    """
    from scipy.optimize import brentq

    tau = law.tau
    lo, hi = tau + 1e-14, tau + 1.0
    while law.psi(hi, delta)[1] <= 0:
        hi = tau + 2 * (hi - tau)
    if law.psi(lo, delta)[1] >= 0:
        return lo
    return float(brentq(lambda z: law.psi(z, delta)[1], lo, hi, xtol=1e-15, rtol=1e-13))


def luli_overlap(law: LuLiLaw, i: int, delta: float) -> LuLiOverlap:
    """The Lu–Li squared overlap of direction ``i`` at δ = n/d > 0, with the outlier and the
    bulk edge (module docstring); ``i`` and δ are taken as given (the caller checks them).

    >>> law = DiscreteLaw(np.array([-1.0, 1.0]), np.array([.5, .5]),
    ...                   np.array([[.25, .75]]), 1.0)
    >>> r = luli_overlap(law, 0, 50.0)
    >>> round(r.rho2, 4), round(r.outlier, 4)
    (0.9169, 0.5408)
    """
    from scipy.optimize import brentq

    lbar = lambda_bar(law, delta)
    edge = law.psi(lbar, delta)[0]

    def gap(z: float) -> float:
        return law.psi(max(z, lbar), delta)[0] - law.phi(i, z)[0]

    lo = law.tau + 1e-12
    hi = max(lbar, 2.0) * 2
    while gap(hi) < 0:
        hi *= 2
    if gap(lo) >= 0:  # ψ above φ everywhere: no outlier
        return LuLiOverlap(0.0, None, edge)
    lstar = float(brentq(gap, lo, hi, xtol=1e-14, rtol=1e-12))
    if lstar <= lbar:
        return LuLiOverlap(0.0, None, edge)
    psi, dpsi = law.psi(lstar, delta)
    dphi = law.phi(i, lstar)[1]
    return LuLiOverlap(dpsi / (dpsi - dphi), psi, edge)
