r"""Ridge regression beside Bayes: the proportional-limit overlaps and errors of
ŵ = argmin_w Σ_μ ½(y_μ − x_μ·w/√d)² + ½λ|w|² on the same teacher.

**Formula.** The ridge estimator is linear in y, and with Gaussian inputs the part of y not
explained by μ₁z (μ₁ = E[yz]/ρ) is uncorrelated with x and acts on ŵ as noise of variance
Δ = E y² − μ₁²ρ (Aubin, Krzakala, Lu & Zdeborová, NeurIPS 2020, *Generalization error in
high-dimensional perceptrons: approaching Bayes error with convex optimization*, the square-loss
case of their fixed-point equations; Loureiro et al. 2021 for the Gaussian-equivalence form).
With g the Stieltjes transform of S = XᵀX/d at −λ, λg² + (λ + α − 1)g − 1 = 0, and
g' = 1/(1/g² − α/(1 + g)²):

    m = ŵ·w*/d = μ₁ρ(1 − λg),   q = |ŵ|²/d = μ₁²ρ(1 − 2λg + λ²g') + Δ(g − λg').

A fresh prediction ŷ = x·ŵ/√d is jointly Gaussian with z (covariance m, variance q): the
mean-square error is E y² − 2μ₁m + q, and for ±1 labels the error of sign(ŷ) is
E_z' Φ(−y(z') m z'/(ρ' s)), s² = q − m²/ρ'. Closed forms of E[φ(z')z'] and E φ² per channel.

Left out (issue 36): logistic and hinge losses, whose fixed-point equations need the proximal
operators of the loss; only ridge is here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from fltheory.exact import DomainError
from fltheory.papers.glm._quad import normal_weight_integral
from fltheory.papers.glm.params import Channel, Prior

__all__ = ["RidgeAnswer", "ridge", "ridge_optimal"]


@dataclass(frozen=True)
class RidgeAnswer:
    """λ, α, the overlaps m and q, and the error (``error_kind`` "classification" or "mse")."""

    lam: float
    alpha: float
    m: float
    q: float
    error: float
    error_kind: str


def _moments(prior: Prior, channel: Channel) -> tuple[float, float, float]:
    """(μ₁, E y², ρ') of the channel at the prior's ρ."""
    rho = float(prior.rho)
    rho1 = rho + float(channel.probit) ** 2
    k = channel.kind
    if k in ("expr",):
        raise DomainError("channel", channel.phi_text, "sign, door, abs, square, relu or linear",
                          reason="has no closed-form ridge moments")
    ez = {"sign": math.sqrt(2 * rho1 / math.pi), "door": 0.0, "abs": 0.0, "square": 0.0,
          "relu": rho1 / 2, "linear": rho1}[k]
    ey2 = {"sign": 1.0, "door": 1.0, "abs": rho1, "square": 3 * rho1 ** 2, "relu": rho1 / 2,
           "linear": rho1}[k] + float(channel.noise) ** 2
    return (rho / rho1) * ez / rho, ey2, rho1


def ridge(prior: Prior, channel: Channel, alpha: float, lam: float) -> RidgeAnswer:
    """m, q and the error of ridge at λ > 0 (module docstring).

    >>> from fltheory.papers.glm.params import gaussian, Channel
    >>> r = ridge(gaussian(), Channel("linear"), 2.0, 1e-9)
    >>> round(r.m, 6), round(r.q, 6)
    (1.0, 1.0)
    """
    mu1, ey2, rho1 = _moments(prior, channel)
    rho = float(prior.rho)
    delta = ey2 - mu1 * mu1 * rho
    b = lam + alpha - 1
    g = (-b + math.sqrt(b * b + 4 * lam)) / (2 * lam)
    gp = 1.0 / (1.0 / g ** 2 - alpha / (1 + g) ** 2)
    m = mu1 * rho * (1 - lam * g)
    q = mu1 * mu1 * rho * (1 - 2 * lam * g + lam * lam * gp) + delta * (g - lam * gp)
    if channel.discrete:
        err = _sign_error(channel, m, q, rho1)
        kind = "classification"
    else:
        err = ey2 - 2 * mu1 * m + q
        kind = "mse"
    return RidgeAnswer(lam, alpha, m, q, err, kind)


def _sign_error(channel: Channel, m: float, q: float, rho1: float) -> float:
    s = math.sqrt(max(q - m * m / rho1, 1e-300))
    K = float(channel.K) if channel.kind == "door" else 0.0

    def label(z: np.ndarray) -> np.ndarray:
        return np.sign(z) if channel.kind == "sign" else np.sign(np.abs(z) - K)

    def f(z: np.ndarray) -> np.ndarray:
        return special.ndtr(-label(z) * m * z / (rho1 * s))

    feats = [(0.0, math.sqrt(rho1))] + ([(K, 0.1), (-K, 0.1)] if K else [])
    return normal_weight_integral(f, 0.0, math.sqrt(rho1), feats, 2)


def ridge_optimal(prior: Prior, channel: Channel, alpha: float) -> RidgeAnswer:
    """Ridge at the λ that minimises its error (bounded Brent in ln λ over [1e-6, 1e4])."""
    res = optimize.minimize_scalar(lambda t: ridge(prior, channel, alpha, math.exp(t)).error,
                                   bounds=(math.log(1e-6), math.log(1e4)), method="bounded",
                                   options={"xatol": 1e-9})
    return ridge(prior, channel, alpha, math.exp(float(res.x)))
