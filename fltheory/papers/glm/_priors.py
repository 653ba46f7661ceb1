r"""The prior's side of the replica formula: the scalar Gaussian channel B = q̂ w* + √q̂ ξ,
w* ~ P₀, observed at signal-to-noise q̂ (Barbier et al. 2019).

For P₀ = Σ_k π_k N(μ_k, s_k) (s_k = 0 a point mass) the partition function is
Z₀(B, q̂) = ∫dP₀(w) e^{Bw − q̂w²/2} = Σ_k exp ℓ_k(B) with

    ℓ_k(B) = ln π_k − ½ ln(1 + q̂ s_k) + (s_k B² + 2 μ_k B − q̂ μ_k²) / (2(1 + q̂ s_k)),

and the posterior of w given B is the mixture, with weights r_k ∝ e^{ℓ_k}, of
N(m_k, c_k), m_k = (μ_k + s_k B)/(1 + q̂ s_k), c_k = s_k/(1 + q̂ s_k). Then

* mmse(q̂) = E Var(w | B), computed as Σ r_k c_k + Σ_{j<l} r_j r_l (m_j − m_l)², a sum of
  non-negative terms (1 − tanh² would lose every digit of sech² at large B);
* the overlap q = E[w* ⟨w⟩] = ρ − mmse (Nishimori);
* ψ₀(q̂) = E ln Z₀(B, q̂) (the prior's term of the free entropy).

The expectation over w* is a sum over its components, over B ~ N(q̂μ_k, q̂ + q̂²s_k) a composite
Gauss–Legendre rule with breakpoints at the switches ℓ_j = ℓ_l of the posterior (width
1/|ℓ_j' − ℓ_l'|), where the integrand of the mmse is narrow at large q̂.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fltheory.papers.glm._quad import lse, normal_weight_integral
from fltheory.papers.glm.params import Prior

__all__ = ["PriorNumerics"]


@dataclass(frozen=True)
class PriorNumerics:
    """The prior as floats: weights, means, variances."""

    pi: np.ndarray
    mu: np.ndarray
    s: np.ndarray
    rho: float
    mean: float
    gaussian: bool

    @classmethod
    def of(cls, prior: Prior) -> PriorNumerics:
        c = prior.components
        return cls(np.array([float(w) for w, _, _ in c]), np.array([float(m) for _, m, _ in c]),
                   np.array([float(v) for _, _, v in c]), float(prior.rho), float(prior.mean),
                   len(c) == 1)

    # ---------------------------------------------------------------- the posterior given B

    def _ell(self, B: np.ndarray, qh: float) -> np.ndarray:
        return np.log(self.pi)[:, None] + self._delta(B, qh)

    def _delta(self, B: np.ndarray, qh: float) -> np.ndarray:
        """ℓ_k − ln π_k, computed directly (as ℓ_k − ln π_k it would carry ln π_k's rounding,
        10⁻¹⁶, against δ_k = O(B) = 10⁻¹⁵ at q̂ = 10⁻³⁰)."""
        d = 1.0 + qh * self.s
        return (-0.5 * np.log1p(qh * self.s)[:, None]
                + (self.s[:, None] * B[None, :] ** 2 + 2 * self.mu[:, None] * B[None, :]
                   - qh * (self.mu ** 2)[:, None]) / (2 * d[:, None]))

    def posterior_variance(self, B: np.ndarray, qh: float) -> np.ndarray:
        """Var(w | B) at signal-to-noise q̂, as a sum of non-negative terms."""
        ell = self._ell(B, qh)
        r = np.exp(ell - lse(ell)[None, :])
        d = 1.0 + qh * self.s
        c = self.s / d
        m = (self.mu[:, None] + self.s[:, None] * B[None, :]) / d[:, None]
        out = (r * c[:, None]).sum(axis=0)
        K = len(self.pi)
        for j in range(K):
            for k in range(j + 1, K):
                out = out + r[j] * r[k] * (m[j] - m[k]) ** 2
        return out

    def posterior_mean(self, B: np.ndarray, qh: float) -> np.ndarray:
        """E[w | B] at signal-to-noise q̂.

        Where every ℓ_k − ln π_k = δ_k is small (|B| and q̂ small: near the uninformative
        point), Σ r_k m_k would be a difference of nearly equal weights (r₊ − r₋ = O(B) for a
        symmetric prior: 1% of q lost at q̂ = 10⁻³⁰); it is then written as
        (E w − Σ π_k μ_k q̂s_k/d_k + B Σ π_k s_k/d_k + Σ π_k m_k expm1 δ_k)/(1 + Σ π_k expm1 δ_k),
        with the prior's mean E w exact, every term carrying its own digits."""
        delta = self._delta(B, qh)
        ell = np.log(self.pi)[:, None] + delta
        d = 1.0 + qh * self.s
        m = (self.mu[:, None] + self.s[:, None] * B[None, :]) / d[:, None]
        small = np.max(np.abs(delta), axis=0) < 0.5
        out = np.empty(B.shape)
        if np.any(~small):
            e = ell[:, ~small]
            r = np.exp(e - lse(e)[None, :])
            out[~small] = (r * m[:, ~small]).sum(axis=0)
        if np.any(small):
            em1 = np.expm1(delta[:, small])
            pi = self.pi[:, None]
            num = (self.mean - float(np.sum(self.pi * self.mu * qh * self.s / d))
                   + B[small] * float(np.sum(self.pi * self.s / d))
                   + (pi * m[:, small] * em1).sum(axis=0))
            out[small] = num / (1.0 + (pi * em1).sum(axis=0))
        return out

    def log_z(self, B: np.ndarray, qh: float) -> np.ndarray:
        """ln Z₀(B, q̂)."""
        return lse(self._ell(B, qh))

    def _features(self, qh: float) -> list[tuple[float, float]]:
        """Where the posterior switches between two components, and how fast."""
        d = 1.0 + qh * self.s
        a = self.s / (2 * d)
        b = self.mu / d
        c = np.log(self.pi) - 0.5 * np.log(d) - qh * self.mu ** 2 / (2 * d)
        out = []
        K = len(self.pi)
        for j in range(K):
            for k in range(j + 1, K):
                A, Bq, C = a[j] - a[k], b[j] - b[k], c[j] - c[k]
                if abs(A) < 1e-300:
                    roots = [-C / Bq] if Bq != 0 else []
                else:
                    disc = Bq * Bq - 4 * A * C
                    roots = [] if disc < 0 else [(-Bq + s * math.sqrt(disc)) / (2 * A)
                                                 for s in (-1.0, 1.0)]
                for x in roots:
                    slope = abs(2 * A * x + Bq)
                    if math.isfinite(x):
                        out.append((x, 1.0 / max(slope, 1e-12)))
        return out

    def _expect(self, f: object, qh: float, level: int) -> float:
        feats = self._features(qh)
        total = 0.0
        for w, mu, s in zip(self.pi, self.mu, self.s, strict=True):
            sd = math.sqrt(qh + qh * qh * s)
            total += w * normal_weight_integral(f, qh * mu, sd,  # type: ignore[arg-type]
                                                [(x, min(wd, sd)) for x, wd in feats], level)
        return total

    # ---------------------------------------------------------------- the scalar channel

    def mmse(self, qh: float, level: int = 1) -> float:
        """E Var(w | B) at signal-to-noise q̂ >= 0 (ρ − E[w]² at q̂ = 0)."""
        if self.gaussian:
            s = self.s[0]
            return s / (1 + qh * s)
        if qh == 0:
            return self.rho - self.mean ** 2
        return float(self._expect(lambda B: self.posterior_variance(B, qh), qh, level))

    def overlap(self, qh: float, level: int = 1) -> float:
        """q = ρ − mmse(q̂)."""
        return self.q_and_v(qh, level)[0]

    def q_and_v(self, qh: float, level: int = 1) -> tuple[float, float]:
        """(q, mmse) with the smaller one computed directly: q = E⟨w⟩² while q̂ρ < 1/2 (q ≈ ρ²q̂
        would lose its digits as ρ − mmse), mmse = E Var(w | B) beyond."""
        if self.gaussian:
            s, mu = self.s[0], self.mu[0]
            v = s / (1 + qh * s)
            q = self.rho - v if qh * s >= 0.5 else mu * mu + qh * s * s / (1 + qh * s)
            return float(q), float(v)
        if qh * self.rho < 0.5:
            q = (self.mean ** 2 if qh == 0 else
                 self._expect(lambda B: self.posterior_mean(B, qh) ** 2, qh, level))
            return float(q), float(self.rho - q)
        v = self.mmse(qh, level)
        return float(self.rho - v), float(v)

    def psi(self, qh: float, level: int = 1) -> float:
        """ψ₀(q̂) = E ln Z₀(q̂ w* + √q̂ ξ, q̂)."""
        if qh == 0:
            return 0.0
        if self.gaussian:
            s, mu = self.s[0], self.mu[0]
            # E[B] = q̂μ, E[B²] = q̂²(μ² + s) + q̂
            EB2 = qh * qh * (mu * mu + s) + qh
            return (-0.5 * math.log1p(qh * s)
                    + (s * EB2 + 2 * mu * qh * mu - qh * mu * mu) / (2 * (1 + qh * s)))
        return self._expect(lambda B: self.log_z(B, qh), qh, level)

    def entropy(self) -> float:
        """H(P₀) = −Σ π ln π of a discrete prior (equal means merged)."""
        means: dict[float, float] = {}
        for w, mu in zip(self.pi, self.mu, strict=True):
            means[float(mu)] = means.get(float(mu), 0.0) + float(w)
        return -sum(p * math.log(p) for p in means.values() if p > 0)
