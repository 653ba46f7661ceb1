r"""Empirical risk minimisation beside Bayes: the proportional-limit overlaps and errors of
ŵ = argmin_w Σ_μ ℓ(y_μ, x_μ·w/√d) + ½λ|w|² on the same teacher, for the square loss (ridge),
the logistic loss and the hinge loss, at a given λ or at the λ that minimises the error.

**Ridge.** The ridge estimator is linear in y, and with Gaussian inputs the part of y not
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

**Logistic and hinge** (Aubin, Krzakala, Lu & Zdeborová 2020, their fixed-point equations
for an ℓ2 penalty; Loureiro et al. 2021). Overlaps m = ŵ·w*/d, q = |ŵ|²/d and
the step Σ; conjugates m̂, q̂, Σ̂. With the ℓ2 penalty the prior enters only through ρ = E w²
(the inputs are isotropic, so only |w*|²/d matters: the equations hold for every prior,
Gaussian, Rademacher or a mixture, with its ρ). For the sign teacher y = sign(z + σ_in ε'):
given the student's field ω = √q ξ, the teacher's z is N(mξ/√q, ρ − m²/q), so
P(y | ξ) = Φ(y a ξ) with a = (m/√q)/s₀, s₀² = ρ − m²/q + σ_in². With h the proximal operator
of the loss (:mod:`fltheory.papers.glm._losses`: a 1-D root for logistic, closed form for
hinge) at ω and step Σ, f = (h − ω)/Σ, and the sum over y = ±1 folded by the symmetry ξ → −ξ,

    Σ̂ = (2α/Σ) E_ξ[Φ(aξ) (1 − ∂_ω h)],  q̂ = 2α E_ξ[Φ(aξ) f²],  m̂ = (2α/s₀) E_ξ[φ(aξ) f],
    Σ = 1/(λ + Σ̂),   m = ρ m̂ Σ,   q = (ρ m̂² + q̂) Σ²,

all at the margin t = √q ξ (for y = −1 the same functions at −ξ). The classification error
of sign(x·ŵ/√d) on a fresh sample is arccos(m/√(ρ' q))/π, ρ' = ρ + σ_in². The expectations are
composite Gauss–Legendre rules with breakpoints at the kinks of the prox (hinge: t = 1 and
t = 1 − Σ) and at the scale of Φ(aξ); the fixed point is found by Powell's hybrid method on
(ln q, artanh(m/√(ρq)), ln Σ), after a few damped iterations from a cold start (and, where
the hybrid method loses its way, as at small λ where Σ ~ 1/λ, after up to 2000 of them). A
point not solved to 10⁻¹² raises :class:`~fltheory.papers.glm.theory.NotConverged` naming α, λ
and the evaluations of the map. Everything is computed at two quadrature resolutions and
printed to the digits both agree on. The square loss through the same equations reproduces
ridge's closed form (tests/papers/glm/test_erm.py), and logistic regression agrees with a
second route written in the test from the general equations (m̂ in its Stein form, the
expectation over the teacher's field, damped iteration) to 10⁻⁹.

**The optimal λ** minimises the classification error over λ ∈ [10⁻⁶, 10⁴] (bounded Brent in
ln λ, warm-started fixed points): a located minimum, not a grid. The error at the minimum is
confirmed like every other number; λ itself is confirmed by the two resolutions and by the
flatness of the minimum (a minimum of curvature c in ln λ located from values with relative
noise ε is known to √(2ε·error/c) in ln λ: the digits beyond are not printed). A minimum at an
end of the range is reported as such, never as an interior optimum. The overlaps m, q and Σ at
the located λ are printed to no more digits than λ's allow (λ known to relative 10^-D moves
x ∈ {m, q, Σ} by |d ln x/d ln λ|·10^-D): agreement of the two resolutions at one λ says
nothing of where λ is.

**Along α** (:func:`erm_curve`, and the command's ``--alpha`` list) each α is seeded by the
answer at the one before: its λ* says which of the 21 bracketing values to compute first,
walking downhill until one is below both neighbours (where the error is unimodal in ln λ, the
bracket the full scan gives, from 3 or 4 values instead of 21; at an end of the grid or on equal
values the rest of the grid is computed), and its (m, q, Σ) start the first fixed point. Brent's
tolerance, the 10⁻¹² of every fixed point and the digits are those of a cold start.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy import optimize, special

from fltheory.exact import DomainError
from fltheory.papers.glm._losses import prox
from fltheory.papers.glm._quad import gauss_panels, nodes, normal_weight_integral
from fltheory.papers.glm.params import ERM_LOSSES, Channel, Prior, check_erm
from fltheory.papers.glm.theory import MAX_DIGITS, NotConverged, Value, digits

__all__ = ["ERM_LOSSES", "ErmAnswer", "RidgeAnswer", "erm_curve", "erm_fixed_point",
           "erm_optimal", "erm_point", "ridge", "ridge_optimal"]

#: the range of λ searched for the optimum
LAM_RANGE = (1e-6, 1e4)


@dataclass(frozen=True)
class RidgeAnswer:
    """λ, α, the overlaps m and q, and the error (``error_kind`` "classification" or "mse")."""

    lam: float
    alpha: float
    m: float
    q: float
    error: float
    error_kind: str
    #: q − m²/ρ', the variance of the prediction given the teacher's field (computed without
    #: the difference)
    s2: float = math.nan


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


def _stieltjes(alpha: float, lam: float) -> float:
    """g, the root of λg² + (λ + α − 1)g − 1 = 0 that is positive (module docstring), written
    so that no difference of nearly equal numbers is formed (b = λ + α − 1 > 0: 2/(b + √…))."""
    b = lam + alpha - 1
    root = math.sqrt(b * b + 4 * lam)
    return 2 / (b + root) if b > 0 else (root - b) / (2 * lam)


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
    g = _stieltjes(alpha, lam)
    # the module's m and q with every difference done by hand (from the quadratic:
    # 1 − λg = αg/(1 + g); 1 − 2λg + λ²g' = (1 − λg)² + c(λg)² and g − λg' = c with
    # c = αg'/(1 + g)² = αg²/(1 + 2g + (1 − α)g²)): sums of positive terms only, so that
    # neither the error nor s² = q − m²/ρ' is a cancellation (at α = 1e-5, λ = 7000 the
    # direct forms lost 4e-7 of the error and put ridge below the Bayes error)
    h, lg = alpha * g / (1 + g), lam * g
    c = alpha * g * g / (1 + 2 * g + (1 - alpha) * g * g)
    m = mu1 * rho * h
    q = mu1 * mu1 * rho * (h * h + c * lg * lg) + delta * c
    s2 = mu1 * mu1 * rho * h * h * (1 - rho / rho1) + c * (mu1 * mu1 * rho * lg * lg + delta)
    if channel.discrete:
        err = _sign_error(channel, m, q, rho1, s2=s2)
        kind = "classification"
    else:
        err = (delta + mu1 * mu1 * rho * lg * lg) * (1 + c)     # E y² − 2μ₁m + q
        kind = "mse"
    return RidgeAnswer(lam, alpha, m, q, err, kind, s2)


def _ridge_error(prior: Prior, channel: Channel, alpha: float, lam: float, level: int) -> float:
    r = ridge(prior, channel, alpha, lam)
    if not channel.discrete:
        return r.error
    return _sign_error(channel, r.m, r.q, float(prior.rho) + float(channel.probit) ** 2, level,
                       r.s2)


def _sign_error(channel: Channel, m: float, q: float, rho1: float, level: int = 2,
                s2: float | None = None) -> float:
    """E_z' Φ(−y(z') m z'/(ρ' s)), s² = q − m²/ρ' (``s2`` when the caller has it without the
    difference)."""
    s = math.sqrt(max(q - m * m / rho1 if s2 is None else s2, 1e-300))
    K = float(channel.K) if channel.kind == "door" else 0.0

    def label(z: np.ndarray) -> np.ndarray:
        return np.sign(z) if channel.kind == "sign" else np.sign(np.abs(z) - K)

    def f(z: np.ndarray) -> np.ndarray:
        return special.ndtr(-label(z) * m * z / (rho1 * s))

    feats = [(0.0, math.sqrt(rho1))] + ([(K, 0.1), (-K, 0.1)] if K else [])
    return normal_weight_integral(f, 0.0, math.sqrt(rho1), feats, level)


def ridge_optimal(prior: Prior, channel: Channel, alpha: float) -> RidgeAnswer:
    """Ridge at the λ that minimises its error (bounded Brent in ln λ over [1e-6, 1e4]); for a
    Gaussian teacher with sign labels the optimum is λ = π/2 − 1 at every α.

    >>> from fltheory.papers.glm.params import gaussian, Channel
    >>> round(ridge_optimal(gaussian(), Channel("sign"), 2.0).lam, 6)
    0.570796
    """
    res = optimize.minimize_scalar(lambda t: ridge(prior, channel, alpha, math.exp(t)).error,
                                   bounds=(math.log(1e-6), math.log(1e4)), method="bounded",
                                   options={"xatol": 1e-9})
    return ridge(prior, channel, alpha, math.exp(float(res.x)))


# ============================================================================ logistic, hinge


def _hats(loss: str, m: float, q: float, S: float, alpha: float, rho: float, s2: float,
          level: int) -> tuple[float, float, float]:
    """(m̂, q̂, Σ̂) at (m, q, Σ) (module docstring)."""
    sq = math.sqrt(q)
    s0 = math.sqrt(max(rho - m * m / q, 0.0) + s2)
    a = m / sq / s0 if s0 > 0 else math.inf
    scale = min(1.0, 1.0 / sq)
    feats = [(0.0, 1.0), (0.0, scale)]
    if math.isfinite(a) and a > 1:
        feats.append((0.0, 1.0 / a))
    if loss == "hinge":
        feats += [(1.0 / sq, scale), ((1.0 - S) / sq, scale)]
    xi, w = nodes(gauss_panels(-12.0, 12.0, feats, 1.0, level))
    w = w * np.exp(-0.5 * xi * xi) / math.sqrt(2 * math.pi)
    _x, f, d = prox(loss, sq * xi, S)
    if math.isfinite(a):
        P = special.ndtr(a * xi)
        dens = np.exp(-0.5 * (a * xi) ** 2) / math.sqrt(2 * math.pi)
    else:                       # a noiseless teacher the student matches exactly
        P = (xi > 0).astype(float)
        dens = np.zeros_like(xi)
    Sh = 2 * alpha * float(np.dot(w, P * d)) / S
    qh = 2 * alpha * float(np.dot(w, P * f * f))
    mh = 2 * alpha * float(np.dot(w, dens * f)) / s0 if s0 > 0 else 0.0
    return mh, qh, Sh


def _map(loss: str, m: float, q: float, S: float, alpha: float, lam: float, rho: float,
         s2: float, level: int) -> tuple[float, float, float]:
    mh, qh, Sh = _hats(loss, m, q, S, alpha, rho, s2, level)
    Sn = 1.0 / (lam + Sh)
    return rho * mh * Sn, (rho * mh * mh + qh) * Sn * Sn, Sn


def erm_fixed_point(loss: str, alpha: float, lam: float, rho: float = 1.0, s2: float = 0.0,
                    level: int = 1, start: tuple[float, float, float] | None = None
                    ) -> tuple[float, float, float]:
    """(m, q, Σ) of ``loss`` ("logistic", "hinge" or "square") with penalty λ on the sign
    teacher at sample ratio α, E w² = ρ, probit variance σ_in² = ``s2``; raises
    :class:`~fltheory.papers.glm.theory.NotConverged` (naming α, λ and the evaluations) when
    the equations are not solved to 10⁻¹² (module docstring).

    >>> m, q, S = erm_fixed_point("hinge", 2.0, 0.1)
    >>> round(m / math.sqrt(q), 10)
    0.8348696729
    """
    def damped(m: float, q: float, S: float, most: int) -> tuple[float, float, float, int]:
        """Iterations of the map at damping ½, until it moves by < 10⁻¹⁰ (relative)."""
        done = 0
        while done < most:
            mn, qn, Sn = _map(loss, m, q, S, alpha, lam, rho, s2, level)
            moved = max(abs(mn - m) / math.sqrt(rho * q), abs(qn - q) / q, abs(Sn - S) / S)
            m, q, S = m + 0.5 * (mn - m), q + 0.5 * (qn - q), S + 0.5 * (Sn - S)
            done += 1
            if moved < 1e-10:
                break
        return m, q, S, done

    cold = (0.5 * math.sqrt(rho), 0.5 * rho, 1.0)
    if start is None:
        m, q, S, used = damped(*cold, 30)
    else:
        (m, q, S), used = start, 0

    def enc(m: float, q: float, S: float) -> np.ndarray:
        r = min(max(m / math.sqrt(rho * q), -1 + 1e-16), 1 - 1e-16)
        return np.array([math.log(q), math.atanh(r), math.log(S)])

    def dec(v: np.ndarray) -> tuple[float, float, float]:
        q = math.exp(v[0])
        return math.tanh(v[1]) * math.sqrt(rho * q), q, math.exp(v[2])

    def res(v: np.ndarray) -> np.ndarray:
        # a trial step of the root finder far outside the range of doubles (q or Σ beyond
        # e^700) is answered by a large residual, so that it steps back
        if not np.all(np.abs(v) < 700):
            return np.full(3, 1e6)
        with np.errstate(all="ignore"):
            try:
                out = enc(*_map(loss, *dec(v), alpha, lam, rho, s2, level)) - v
            except (OverflowError, ValueError, ZeroDivisionError):
                return np.full(3, 1e6)
        return out if np.all(np.isfinite(out)) else np.full(3, 1e6)

    def solve(m: float, q: float, S: float) -> tuple[Any, float]:
        sol = optimize.root(res, enc(m, q, S), method="hybr", options={"xtol": 1e-14})
        return sol, float(np.max(np.abs(sol.fun)))

    sol, resid = solve(m, q, S)
    used += sol.nfev
    if not np.all(np.isfinite(sol.x)) or resid > 1e-12:
        # the hybrid method lost its way (a start far from the fixed point, as at small λ where
        # Σ ~ 1/λ): the plain damped map, which contracts there, brings it close, then again
        m, q, S, k = damped(*cold, 2000)
        sol, resid = solve(m, q, S)
        used += k + sol.nfev
    if not np.all(np.isfinite(sol.x)) or resid > 1e-12:
        raise NotConverged(f"the {loss} fixed point at alpha = {alpha:g}, lambda = {lam:g} did "
                           f"not converge in {used} evaluations of the map (residual "
                           f"{resid:.2g})")
    return dec(sol.x)


@dataclass(frozen=True)
class ErmAnswer:
    """One loss at one α: λ (given, or located), the overlaps m, q, the step Σ and the error,
    each with its confirmed digits; ``error_kind`` "classification" or "mse"; ``note`` says
    how λ was chosen (and when the optimum sits at an end of the range)."""

    loss: str
    alpha: float
    lam: Value
    m: Value
    q: Value
    sigma: Value
    error: Value
    error_kind: str
    optimal: bool
    note: str = ""


def _sign_teacher(prior: Prior, channel: Channel) -> tuple[float, float, float]:
    rho = float(prior.rho)
    s2 = float(channel.probit) ** 2
    return rho, s2, rho + s2


def _class_error(m: float, q: float, rho1: float) -> float:
    return math.acos(max(-1.0, min(1.0, m / math.sqrt(rho1 * q)))) / math.pi


def _solve_levels(loss: str, alpha: float, lam: float, rho: float, s2: float,
                  starts: dict[int, tuple[float, float, float]] | None = None
                  ) -> dict[int, tuple[float, float, float]]:
    out = {}
    for level in (1, 2):
        st = None if starts is None else starts.get(level)
        out[level] = erm_fixed_point(loss, alpha, lam, rho, s2, level, st)
    return out


def _answer(loss: str, alpha: float, lam: Value, fps: dict[int, tuple[float, float, float]],
            rho1: float, optimal: bool, note: str) -> ErmAnswer:
    (m1, q1, S1), (m2, q2, S2) = fps[1], fps[2]
    e1, e2 = _class_error(m1, q1, rho1), _class_error(m2, q2, rho1)
    return ErmAnswer(loss, alpha, lam, Value(m2, digits(m1, m2)), Value(q2, digits(q1, q2)),
                     Value(S2, digits(S1, S2)), Value(e2, digits(e1, e2)), "classification",
                     optimal, note)


def _ridge_answer(prior: Prior, channel: Channel, alpha: float, lam: float, lam_val: Value,
                  optimal: bool, note: str) -> ErmAnswer:
    r = ridge(prior, channel, alpha, lam)
    if channel.discrete:
        rho1 = float(prior.rho) + float(channel.probit) ** 2
        e1 = _sign_error(channel, r.m, r.q, rho1, level=1, s2=r.s2)
        err = Value(r.error, digits(e1, r.error))
    else:
        err = Value(r.error, MAX_DIGITS, True)     # E y² − 2μ₁m + q: closed form
    g = _stieltjes(alpha, lam)
    return ErmAnswer("ridge", alpha, lam_val, Value(r.m, MAX_DIGITS, True),
                     Value(r.q, MAX_DIGITS, True), Value(g, MAX_DIGITS, True), err, r.error_kind,
                     optimal, note)


def erm_point(prior: Prior, channel: Channel, alpha: float, loss: str, lam: float,
              previous: ErmAnswer | None = None) -> ErmAnswer:
    """``loss`` (ridge, logistic or hinge) at penalty λ > 0 and sample ratio α, every number
    confirmed by two quadrature resolutions (ridge's overlaps are closed forms). ``previous``:
    the answer of the same loss at a neighbouring α, whose (m, q, Σ) start the fixed-point
    solves (a start only: each is solved to 10⁻¹² as from a cold start).

    >>> from fltheory.papers.glm.params import gaussian, Channel
    >>> erm_point(gaussian(), Channel("sign"), 2.0, "hinge", 0.1).error.text()
    '0.1855429439805'
    """
    check_erm(channel, (loss,))
    if loss == "ridge":
        return _ridge_answer(prior, channel, alpha, lam, Value(lam, MAX_DIGITS, True), False,
                             "given")
    rho, s2, rho1 = _sign_teacher(prior, channel)
    st = _start(previous, loss)
    return _answer(loss, alpha, Value(lam, MAX_DIGITS, True),
                   _solve_levels(loss, alpha, lam, rho, s2, None if st is None else {1: st, 2: st}),
                   rho1, False, "given")


def _start(previous: ErmAnswer | None, loss: str) -> tuple[float, float, float] | None:
    """The fixed point (m, q, Σ) of ``previous`` (the same loss at a neighbouring α), or None."""
    if previous is None or previous.loss != loss or loss == "ridge":
        return None
    return previous.m.value, previous.q.value, previous.sigma.value


def _seed(previous: ErmAnswer | None, loss: str) -> float | None:
    """ln λ* of ``previous`` when it is a located interior minimum of the same loss, or None."""
    if previous is None or previous.loss != loss or not previous.optimal or \
            previous.note != OPTIMAL_NOTE:
        return None
    return math.log(previous.lam.value)


def _locate(fun: Callable[[float], float], near: float | None = None,
            seed: float | None = None, curvature: bool = True) -> tuple[float, float, str]:
    """The t = ln λ minimising fun over ln LAM_RANGE, the minimum's curvature in t (a central
    difference), and a note saying what was found. The range is first bracketed at 21 values
    of ln λ (half a decade apart: the hinge loss's error is flat at small λ, where the fit is
    the hard-margin one, and a golden section started there would stop on the plateau); the
    minimum is then located by bounded Brent inside the best bracket. ``near``: the minimum
    located at the coarser resolution (the bracket is then ``near`` ± 0.5). ``seed``: the
    minimum at a neighbouring α (:func:`_grid_bracket`: the same bracket from a few of the 21
    values). ``curvature`` False: the curvature (4 more evaluations) is not measured (0.0)."""
    lo, hi = math.log(LAM_RANGE[0]), math.log(LAM_RANGE[1])
    if near is None:
        a, b = _grid_bracket(fun, lo, hi, seed)
    else:
        a, b = max(lo, near - 0.5), min(hi, near + 0.5)
    res = optimize.minimize_scalar(fun, bounds=(a, b), method="bounded",
                                   options={"xatol": 1e-9})
    t = float(res.x)
    note = OPTIMAL_NOTE
    if t - lo < 1e-3 or hi - t < 1e-3:
        end = "10⁻⁶" if t - lo < 1e-3 else "10⁴"
        note = (f"the error decreases up to the end λ = {end} of the searched range: the "
                "optimum is at that end (or beyond), not an interior minimum")
        return t, 0.0, note
    f0 = fun(t)
    flat = 1e-11 * abs(f0)
    below = abs(fun(t - 0.5) - f0) <= flat
    above = t + 0.5 <= hi and abs(fun(t + 0.5) - f0) <= flat
    if below and above:
        # flat both ways half a decade out: the side that stays flat over a decade
        far_below = abs(fun(max(lo, t - 2.3)) - f0)
        far_above = abs(fun(min(hi, t + 2.3)) - f0)
        below, above = far_below <= far_above, far_above < far_below
    if below:
        note = ("the error is flat at and below this λ (the same fit for every smaller λ, "
                "e.g. hinge's hard-margin solution): any such λ is optimal")
        return t, 0.0, note
    if above:
        note = ("the error is flat at and above this λ (the large-λ limit, ŵ ∝ Σ y_μ x_μ, "
                "whose direction no longer changes): any larger λ is optimal")
        return t, 0.0, note
    if not curvature:
        return t, 0.0, note
    curv = (fun(t + _H) - 2 * f0 + fun(t - _H)) / (_H * _H)
    return t, curv, note


#: the note of a located interior minimum (the only one a neighbouring α may seed)
OPTIMAL_NOTE = "optimal λ (located minimum of the error)"


def _grid_bracket(fun: Callable[[float], float], lo: float, hi: float,
                  seed: float | None) -> tuple[float, float]:
    """The bracket of Brent's search: the neighbours of the smallest of fun at 21 equally spaced
    values of t in [lo, hi]. With ``seed`` (the minimum at a neighbouring α) the values are
    computed from the grid point nearest to it, downhill, until one is below both its
    neighbours: where fun is unimodal on the grid (as the error is in ln λ) that is the
    smallest of the 21 and the bracket is the one the full scan gives, from 3 values instead of
    21. A walk that ends at an end of the grid, or on two equal values (a plateau), computes
    the rest of the grid and takes the smallest, as without a seed."""
    ts = np.linspace(lo, hi, 21)
    vals: dict[int, float] = {}

    def val(j: int) -> float:
        if j not in vals:
            vals[j] = fun(float(ts[j]))
        return vals[j]

    i = -1
    if seed is not None:
        i = int(np.argmin(np.abs(ts - seed)))
        while 0 < i < len(ts) - 1:
            here, left, right = val(i), val(i - 1), val(i + 1)
            if left < here and left < right:
                i -= 1
            elif right < here and right < left:
                i += 1
            else:
                break
        if not (0 < i < len(ts) - 1 and val(i) < val(i - 1) and val(i) < val(i + 1)):
            i = -1
    if i < 0:
        i = int(np.argmin([val(j) for j in range(len(ts))]))
    return float(ts[max(i - 1, 0)]), float(ts[min(i + 1, len(ts) - 1)])


def _lam_digits(t1: float, t2: float, curv: float, err: float) -> int:
    """Digits of λ = e^t: where the two resolutions agree, and no more than the flatness of
    the minimum allows (relative noise 10⁻¹³ in the error: δt = √(2·10⁻¹³·err/curv))."""
    agree = digits(math.exp(t1), math.exp(t2))
    if curv <= 0:
        return min(agree, 2)
    dt = math.sqrt(2e-13 * abs(err) / curv)
    if not dt > 0:          # an infinite curvature (or a zero error): λ as the levels agree
        return agree
    return max(0, min(agree, math.floor(-math.log10(dt))))


def erm_optimal(prior: Prior, channel: Channel, alpha: float, loss: str,
                previous: ErmAnswer | None = None) -> ErmAnswer:
    """``loss`` at the λ minimising its error (ridge: the mean-square error on continuous
    labels, the classification error on ±1 labels), located by bounded Brent in ln λ at each
    quadrature resolution (warm-started fixed points); module docstring for the digits.
    ``previous``: the answer of the same loss at a neighbouring α (:func:`erm_curve`): its λ*
    picks the grid values computed to bracket the minimum (:func:`_grid_bracket`, the same
    bracket as the full scan where the error is unimodal in ln λ) and its (m, q, Σ) start the
    first fixed point; every solve, Brent's tolerance and the digits are as without it.

    >>> from fltheory.papers.glm.params import gaussian, Channel
    >>> r = erm_optimal(gaussian(), Channel("sign"), 2.0, "ridge")
    >>> r.lam.text(), r.error.text()
    ('0.57080', '0.1860279026460')
    """
    check_erm(channel, (loss,))
    seed = _seed(previous, loss)
    if loss == "ridge":
        ts: list[tuple[float, float, str, Callable[[float], float]]] = []
        for level in (1, 2):
            def fr(t: float, level: int = level) -> float:
                return _ridge_error(prior, channel, alpha, math.exp(t), level)
            # the coarser resolution gives only the bracket of the finer: no curvature there
            ts.append((*_locate(fr, ts[0][0] if ts else None, seed, curvature=bool(ts)), fr))
        (t1, _, _, _), (t2, c2, note, f2) = ts
        lam = Value(math.exp(t2), _lam_digits(t1, t2, c2, f2(t2)))
        ans = _ridge_answer(prior, channel, alpha, math.exp(t2), lam, True, note)
        around = [ridge(prior, channel, alpha, math.exp(t2 + s * _H)) for s in (1, -1)]
        return _as_known_as_lambda(ans, [(r.m, r.q, _stieltjes(alpha, r.lam)) for r in around])
    rho, s2, rho1 = _sign_teacher(prior, channel)
    found: dict[int, tuple[float, float, str, tuple[float, float, float]]] = {}
    seen: dict[int, dict[float, tuple[float, float, float]]] = {1: {}, 2: {}}
    for level in (1, 2):
        # the first fixed point of level 1 starts from the neighbouring α's, of level 2 from
        # level 1's at its minimum
        warm: list[tuple[float, float, float] | None] = \
            [_start(previous, loss) if level == 1 else found[1][3]]

        def fe(t: float, level: int = level,
               warm: list[tuple[float, float, float] | None] = warm) -> float:
            try:
                fp = erm_fixed_point(loss, alpha, math.exp(t), rho, s2, level, warm[0])
            except NotConverged:
                fp = erm_fixed_point(loss, alpha, math.exp(t), rho, s2, level, None)
            warm[0] = fp
            seen[level][t] = fp
            return _class_error(fp[0], fp[1], rho1)

        t, curv, note = _locate(fe, None if level == 1 else found[1][0], seed,
                                curvature=level == 2)
        found[level] = (t, curv, note, erm_fixed_point(loss, alpha, math.exp(t), rho, s2,
                                                       level, warm[0]))
    t1, t2 = found[1][0], found[2][0]
    _, curv, note, fp2 = found[2]
    # both resolutions at the finer λ: the error at the minimum is flat in λ
    fps = {1: erm_fixed_point(loss, alpha, math.exp(t2), rho, s2, 1, found[1][3]), 2: fp2}
    err = _class_error(fp2[0], fp2[1], rho1)
    lam = Value(math.exp(t2), _lam_digits(t1, t2, curv, err))
    # (m, q, Σ) at λ ± a step, for their sensitivity to λ (cached where the curvature was)
    near = [seen[2].get(t2 + s * _H) or erm_fixed_point(loss, alpha, math.exp(t2 + s * _H), rho,
                                                        s2, 2, fp2) for s in (1, -1)]
    return _as_known_as_lambda(_answer(loss, alpha, lam, fps, rho1, True, note), near)


#: the step in ln λ of the curvature at the minimum, and of the sensitivities to λ
_H = 0.05


def _as_known_as_lambda(ans: ErmAnswer, near: list[tuple[float, float, float]]) -> ErmAnswer:
    """``ans`` at a located λ, with m, q and Σ printed to no more digits than λ's allow: λ is
    known to relative 10^-D (D its digits), so x ∈ {m, q, Σ} to |d ln x/d ln λ|·10^-D, the
    derivative a central difference over ln λ ± 0.05 (``near``: (m, q, Σ) there). Agreement of
    two resolutions at one λ says nothing of where λ is."""
    def capped(v: Value, up: float, down: float) -> Value:
        if v.value == 0 or up == 0 or down == 0 or (up > 0) != (down > 0):
            return Value(v.value, min(v.digits, ans.lam.digits))
        slope = abs(math.log(abs(up)) - math.log(abs(down))) / (2 * _H)
        if slope == 0:
            return v
        known = math.floor(ans.lam.digits - math.log10(slope))
        return Value(v.value, max(0, min(v.digits, known)))

    (mp, qp, sp), (mm, qm, sm) = near
    return replace(ans, m=capped(ans.m, mp, mm), q=capped(ans.q, qp, qm),
                   sigma=capped(ans.sigma, sp, sm))


def erm_curve(prior: Prior, channel: Channel, alphas: tuple[float, ...], loss: str,
              lam: float | str = "opt") -> tuple[ErmAnswer | str, ...]:
    """``loss`` at each α of ``alphas`` (in their order), at penalty ``lam`` > 0 or ``"opt"``;
    each α is seeded by the answer at the one before (``previous`` of :func:`erm_optimal` and
    :func:`erm_point`), so that a curve costs a fraction of as many separate points, with the
    same confirmed digits. A point whose fixed point does not converge is the text of its
    :class:`~fltheory.papers.glm.theory.NotConverged` (and seeds nothing).

    >>> from fltheory.papers.glm.params import gaussian, Channel
    >>> [r.lam.text() for r in erm_curve(gaussian(), Channel("sign"), (1.0, 2.0), "ridge")]
    ['0.57080', '0.57080']
    """
    out: list[ErmAnswer | str] = []
    previous: ErmAnswer | None = None
    for a in alphas:
        try:
            r = erm_optimal(prior, channel, a, loss, previous) if lam == "opt" else \
                erm_point(prior, channel, a, loss, float(lam), previous)
        except NotConverged as exc:
            out.append(str(exc))
            continue
        out.append(r)
        previous = r
    return tuple(out)
