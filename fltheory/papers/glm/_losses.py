r"""The proximal operators of the convex losses of empirical risk minimisation, vectorised:

    h = prox_{Σ ℓ(y, ·)}(ω) = argmin_x [ℓ(y, x) + (x − ω)²/(2Σ)].

For a margin loss ℓ(y, x) = L(y x) with y = ±1 the prox depends on ω only through the margin
t = y ω: y h = x*(t) with x* the prox of L, so each function here takes t and returns

* ``x``  — the prox of L at t (y h),
* ``f``  — (x − t)/Σ = −L'(x) (then (h − ω)/Σ = y f),
* ``d``  — 1 − ∂_ω h = 1 − ∂_t x (the fraction of the step the loss takes).

Losses (Aubin, Krzakala, Lu & Zdeborová 2020, section 2):

* logistic L(x) = ln(1 + e^{−x}): x solves x = t + Σ σ(−x) (σ the sigmoid), a 1-D root in
  [t, t + Σ] (the left side minus the right is increasing, with slope 1 + Σσ(x)σ(−x) ∈
  [1, 1 + Σ/4]), found by bisection down to a width 10⁻³/Σ and then Newton's method kept in
  the bracket; ∂_t x = 1/(1 + Σσ(x)σ(−x));
* hinge L(x) = max(0, 1 − x): closed form, x = t for t >= 1, x = 1 for 1 − Σ <= t < 1,
  x = t + Σ for t < 1 − Σ;
* square L(x) = (1 − x)²/2 (ridge on ±1 labels; used by the tests as a second route to the
  ridge formula): x = (t + Σ)/(1 + Σ).
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["LOSSES", "prox"]

#: the losses with a proximal operator here
LOSSES = ("logistic", "hinge", "square")


def _logistic(t: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # bisection on [t, t + Σ] down to a width where Newton contracts (its error is multiplied
    # by at most (Σ/10)·width per step: the second derivative of the equation is at most Σ/10),
    # then Newton, kept inside the bracket
    lo, hi = t.copy(), t + sigma
    target = 1e-3 / max(sigma, 1.0)
    for _ in range(int(np.ceil(np.log2(max(sigma, 1e-300) / target))) + 1):
        mid = 0.5 * (lo + hi)
        G = mid - t - sigma * special.expit(-mid)
        lo = np.where(G < 0, mid, lo)
        hi = np.where(G < 0, hi, mid)
    x = 0.5 * (lo + hi)
    for _ in range(8):
        s = special.expit(x)
        G = x - t - sigma * (1.0 - s)           # σ(−x) = 1 − σ(x)
        xn = np.clip(x - G / (1.0 + sigma * s * (1.0 - s)), lo, hi)
        done = bool(np.all(np.abs(xn - x) <= 4e-16 * (1.0 + np.abs(x))))
        x = xn
        if done:
            break
    s = special.expit(x)
    curv = sigma * s * (1.0 - s)
    return x, (x - t) / sigma, curv / (1.0 + curv)


def _hinge(t: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mid = (t < 1.0) & (t >= 1.0 - sigma)
    low = t < 1.0 - sigma
    x = np.where(low, t + sigma, np.where(mid, 1.0, t))
    f = np.where(low, 1.0, np.where(mid, (1.0 - t) / sigma, 0.0))
    return x, f, np.where(mid, 1.0, 0.0)


def _square(t: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = (t + sigma) / (1.0 + sigma)
    return x, (1.0 - t) / (1.0 + sigma), np.full_like(t, sigma / (1.0 + sigma))


def prox(loss: str, t: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, f, d) of ``loss`` at margins t and step Σ > 0 (module docstring).

    >>> import numpy as np
    >>> x, f, d = prox("hinge", np.array([2.0, 0.5, -3.0]), 1.0)
    >>> x.tolist(), f.tolist(), d.tolist()
    ([2.0, 1.0, -2.0], [0.0, 0.5, 1.0], [0.0, 1.0, 0.0])
    """
    t = np.asarray(t, float)
    return {"logistic": _logistic, "hinge": _hinge, "square": _square}[loss](t, sigma)
