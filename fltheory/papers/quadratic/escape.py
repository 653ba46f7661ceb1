r"""Escape from the plateau with SGD's noise (Bocchi et al. 2026): the plateau noise, its
integral J and the escape-time law from cold random starts.

Each SGD step moves an overlap by Δρ_km = −2aη_w (f − y) λ_k ν_m / N; at ρ = 0 these kicks are
uncorrelated between entries, of variance 4η² E[(f − y)² λ² ν²]/N per unit time
(:func:`plateau_noise_moment`, :func:`plateau_noise_rate`). The linear stage amplifies them by
the same scalar factor as ρ(0), so SGD escapes as the mean-field ODE would from Gaussian
overlaps of variance (q0 + J)/N, J = 4η² ∫ E[…]_{q(s)} e^{−2R(s)} ds
(:func:`plateau_noise_integral`, :func:`escape_time_law`). Model and derivation:
:mod:`fltheory.papers.quadratic.theory`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from fltheory.args import fraction_text, read_count, read_finite, read_real, read_step
from fltheory.exact import DomainError, check_cost
from fltheory.papers.quadratic._common import ESCAPE_SECONDS_LIMIT, MEMORY_LIMIT_BYTES
from fltheory.papers.quadratic.ode import ESCAPE_LEVEL, check_ode_request, crossing_time, solve
from fltheory.papers.quadratic.params import (
    Coefficients,
    EscapeRequest,
    Integration,
    Model,
    Overlaps,
)
from fltheory.papers.quadratic.stability import _rate, plateau, plateau_at

__all__ = ["EscapeLaw", "check_escape", "check_escape_request", "escape_cost", "escape_law",
           "escape_time_law", "noise_integral", "plateau_noise_integral", "plateau_noise_moment",
           "plateau_noise_rate", "plateau_overlap_variance"]

def plateau_noise_moment(q: Any, p: int, p_star: int, a: Any, b: Any, sigma: Any = 0) -> Any:
    """E[(f − y)² λ_1² ν_1²] at ρ = 0, Q = q I, T = I (q a number or an array; Isserlis; the
    tests rederive it with :func:`wick_expectation`):
    a²q³(p+2)(p+4) − 2ab q²(p+2)(p*+2) + b² q (p*+2)(p*+4) + σ² q.
    With Δρ_km = −2aη_w (f − y) λ_k ν_m / N per step, SGD adds to every overlap a variance
    4a²η_w² E[(f − y)² λ_k² ν_m²]/N per unit time (entries uncorrelated at ρ = 0 by symmetry).
    Exact for exact arguments (Fractions and integers in, Fraction out); integers p, p* >= 1.

    >>> plateau_noise_moment(Fraction(1, 2), 1, 1, 1, 1)
    Fraction(39, 8)
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    return (a * a * q**3 * (p + 2) * (p + 4) - 2 * a * b * q * q * (p + 2) * (p_star + 2)
            + b * b * q * (p_star + 2) * (p_star + 4) + sigma**2 * q)


def plateau_noise_rate(q: Any, p: int, p_star: int, eta: float, sigma: float = 0.0) -> Any:
    """Variance per unit time, times N, that SGD adds to each overlap at ρ = 0, Q = q I
    (mean field, a η_w = η): 4η² E[(f − y)² λ² ν²] (q a float or a numpy array of floats).

    >>> round(plateau_noise_rate(0.5, 1, 1, 0.1), 12)
    0.195

    p, p* integers >= 1; q, η finite reals (or arrays of them), σ >= 0 finite (else
    DomainError).
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    q, eta = read_finite(q, "q"), read_finite(eta, "eta")
    return _noise_rate(q, p, p_star, eta, read_real(sigma, "sigma", low=0.0))


def _noise_rate(q: Any, p: int, p_star: int, eta: float, sigma: float) -> Any:
    """:func:`plateau_noise_rate` on arguments already read."""
    return 4 * eta**2 * plateau_noise_moment(q, p, p_star, 1 / p, 1 / p_star, sigma)


def plateau_overlap_variance(p: int, p_star: int, eta: Fraction, t: float,
                             sigma: float = 0.0) -> float:
    """N·E[ρ_km(t)²] for SGD started on the plateau (Q = q* I, ρ(0) = 0), T = I, mean field:
    the noise D = 4η² E[(f − y)² λ² ν²]_{q*} per unit time, amplified at the rate r,
    D (e^{2rt} − 1)/(2r). At the ODE's level (N → ∞) ρ stays 0; this is the O(1/N) variance
    that starts the escape from an exact plateau point. η > 0 exact (Fraction), t >= 0,
    σ >= 0; a float.

    >>> round(plateau_overlap_variance(4, 2, Fraction(1, 10), 1.0), 6)
    0.115368
    """
    pl = plateau(p, p_star, read_step(eta))
    t, sigma = read_real(t, "t", low=0.0), read_real(sigma, "sigma", low=0.0)
    D = plateau_noise_rate(pl.q, p, p_star, float(pl.eta), sigma)
    r = pl.escape_rate
    try:
        return float(D * t) if r == 0 else float(D * math.expm1(2 * r * t) / (2 * r))
    except OverflowError:
        raise DomainError("t", t, f"times with e^(2rt) below 1e308 (r = {r:.3g})") from None


@dataclass(frozen=True)
class EscapeLaw:
    """Escape times from cold random starts (see :func:`escape_time_law`): the law with SGD's
    plateau noise (``mean`` ± ``se``), without it (``mean_field``), their paired difference
    (``shift``), the rate r, the noise integral J (``noise_variance``), all floats."""

    p: int
    p_star: int
    N: int
    q0: float
    threshold: float
    rate: float               # plateau escape rate r (T = I)
    noise_variance: float     # J: SGD's plateau noise adds J/N to each overlap's variance
    mean: float               # E t_esc for SGD (mean-field ODE from the noise-inflated start)
    se: float                 # Monte Carlo standard error of ``mean``
    mean_field: float         # E t_esc without the plateau noise (N → ∞ dynamics, random start)
    mean_field_se: float
    shift: float              # E[t_SGD − t_ODE] from the same start (common random numbers)
    shift_se: float
    mean_log_overlap: float   # E ln‖ρ_eff(0)‖_F, closed form
    samples: int

    @property
    def linear_shift(self) -> float:
        """The shift the linear stage alone predicts: −ln(1 + J/q0)/(2r) (scaling ρ(0) by c
        moves the escape by −ln c / r); ``shift`` is the Monte Carlo value."""
        return -math.log(1 + self.noise_variance / self.q0) / (2 * self.rate)


def plateau_noise_integral(p: int, p_star: int, eta: Fraction | float | str,
                           q0: float | Fraction | str = 0.25,
                           sigma: Fraction | float | str = 0, t_max: float = 80.0,
                           dt: float = 0.125) -> float:
    r"""J = 4η² ∫_0^∞ E[(f − y)² λ² ν²]_{q(s)} e^{−2R(s)} ds, R(t) = ∫_0^t r(q(s)) ds: the
    variance (times N) that SGD's plateau noise adds to each initial overlap, propagated back
    to t = 0 through the linear stage (T = I, mean field, from Q(0) = q0 I along the ρ = 0
    ODE q(t); trapezoid rule on a grid of step ``dt`` up to ``t_max``, where e^{−2R} is
    negligible). η > 0 exact (Fraction), q0 > 0, 0 <= σ <= 1000; the grid's t_max/dt points
    are bounded in time and memory before the integration (:func:`check_ode_request`). A float.

    >>> round(plateau_noise_integral(4, 2, Fraction(1, 10)), 4)
    0.1147
    >>> plateau_noise_integral(4, 2, Fraction(1, 10), dt=1e-9)
    Traceback (most recent call last):
    fltheory.exact.CostError: ...
    """
    model = Model(p, p_star, noise=sigma)
    eta_q = read_step(eta)
    q0 = read_real(q0, "q0", low=0.0, open_low=True)
    t_max = read_real(t_max, "t_max", low=0.0, open_low=True)
    return noise_integral(model, eta_q, q0, t_max, read_real(dt, "dt", low=0.0, open_low=True))


def noise_integral(model: Model, eta: Fraction, q0: float, t_max: float = 80.0,
                   dt: float = 0.125) -> float:
    """:func:`plateau_noise_integral` of a model (p, p*, σ; T = I) on arguments already read:
    the step η > 0 (exact), q0 > 0, t_max > 0 and dt > 0 (floats); bounded before any work.

    >>> round(noise_integral(Model(4, 2), Fraction(1, 10), 0.25), 4)
    0.1147
    """
    p, p_star = model.p, model.p_star
    steps = t_max / dt  # finite over finite; capped so that a tiny dt is an estimate, not inf
    check_ode_request(p, p_star, float(eta), t_max, int(min(steps, 1e15)) + 1, k=0)
    return _noise_integral(model, float(eta), q0, np.arange(0.0, t_max + dt / 2, dt))


def _noise_integral(model: Model, eta: float, q0: float, t: np.ndarray) -> float:
    p, p_star, sigma = model.p, model.p_star, float(model.noise)
    coef = Coefficients(1.0 / p, 1.0 / p_star, p * eta, sigma)
    start = Overlaps(q0 * np.eye(p), np.zeros((p, p_star)), np.eye(p_star))
    q = solve(start, coef, Integration(t), eta).Q[:, 0, 0]
    rq = _rate(q, p, p_star, eta)
    R = np.concatenate([[0.0], np.cumsum(0.5 * (rq[1:] + rq[:-1]) * np.diff(t))])
    integrand = _noise_rate(q, p, p_star, eta, sigma) * np.exp(-2 * R)
    return float(np.sum(0.5 * (integrand[1:] + integrand[:-1]) * np.diff(t)))


def escape_time_law(p: int, p_star: int, eta: Fraction | float | str, N: int,
                    q0: float | Fraction | str = 0.25,
                    threshold: float | Fraction | str = ESCAPE_LEVEL,
                    sigma: Fraction | float | str = 0, samples: int = 400, seed: int = 0,
                    dt: float = 0.125) -> EscapeLaw:
    r"""Escape time (first ‖ρ‖_F = ``threshold``) of one-pass SGD from a cold random start
    W0 ~ N(0, q0) with an orthonormal teacher, T = I, mean-field normalisation.

    Initial overlaps: ρ(0) = W0 W*ᵀ/N has i.i.d. N(0, q0/N) entries. While ρ is small, Q(t) =
    q(t) I follows the ρ = 0 equation and ρ grows by the scalar factor exp(R(t)),
    R(t) = ∫_0^t r(q(s)) ds, r(q) = 2η(1 − q − 2q/p + 2/p*). SGD's plateau noise is an O(1/√N)
    martingale added to every overlap, uncorrelated between entries at ρ = 0
    (:func:`plateau_noise_moment`); propagated by the same scalar factor, it is equivalent to
    an initial overlap with variance

    .. math::

        \sigma_{\text{eff}}^2 = \frac{q_0 + J}{N}, \qquad
        J = 4\eta^2 \int_0^\infty \mathbb{E}\bigl[(f - y)^2 \lambda^2 \nu^2\bigr]_{q(s)}\,
            e^{-2R(s)}\, ds,

    still Gaussian and still isotropic. Both terms scale as 1/N, so the noise does not change
    the ln N/(2r) law but shifts every escape by about −ln(1 + J/q0)/(2r), an O(1) time that
    does not vanish as N → ∞. From there the mean-field ODE (exactly reduced: Q(0) = q0 I) is
    integrated for ``samples`` Gaussian starts; the mean, its Monte Carlo error, the noise-free
    mean and the paired shift (same draws scaled, common random numbers) are returned, with
    E ln‖ρ_eff‖_F = ½ ln(2σ_eff²) + ½ ψ(p p*/2) in closed form (‖ρ_eff‖²/σ_eff² ~ χ²_{p p*}).
    Neglected: the O(1/√N) anisotropy of Q(0) (measured on the ODE, 200 paired starts, p = 4:
    it moves the escape by −0.009 ± 0.006, 0.002 ± 0.003 at N = 1000, 4000) and the noise after
    the escape has begun. Cached per (checked) arguments.

    Parameters, read once as a :class:`~fltheory.papers.quadratic.params.Model` (p, p*, σ) and
    an :class:`~fltheory.papers.quadratic.params.EscapeRequest`: integers p, p* >= 1, N >= 1,
    samples >= 2, seed >= 0 (of the Monte Carlo over initial overlaps); η > 0 exact (Fraction; a
    float is read as its decimal); 0 < q0 <= 1000; 1e-6 <= threshold < 1; 0 <= σ <= 1000;
    dt > 0. Bounded in time and memory before any work (:func:`check_escape_request`). Returns
    an :class:`EscapeLaw` (floats).

    >>> L = escape_time_law(4, 2, Fraction(1, 10), 1000, samples=2, dt=0.5)
    >>> round(L.rate, 4), round(L.noise_variance, 3)
    (0.1708, 0.115)
    """
    model = Model(p, p_star, noise=sigma)
    request = EscapeRequest(eta, (N,), q0, threshold, samples, seed, dt)
    check_escape(model, request)
    return escape_law(model, request, request.Ns[0])


def escape_law(model: Model, request: EscapeRequest, N: int) -> EscapeLaw:
    """:func:`escape_time_law` of a model (p, p*, σ; T = I) and a request already read, at
    one N (not checked for its cost: :func:`check_escape` does, once for all the N's).

    >>> from fltheory.papers.quadratic.params import EscapeRequest
    >>> escape_law(Model(4, 2), EscapeRequest("1/10", [1000], samples=2, dt=0.5), 1000).N
    1000
    """
    r = request
    return _escape_time_law(model.p, model.p_star, r.eta, N, r.q0, r.threshold, model.noise,
                            r.samples, r.seed, r.dt)


@lru_cache(maxsize=256)
def _escape_time_law(p: int, p_star: int, eta_q: Fraction, N: int, q0: float, threshold: float,
                     sigma_q: Fraction, samples: int, seed: int, dt: float) -> EscapeLaw:
    import mpmath

    model = Model(p, p_star, noise=sigma_q)
    r_star = plateau_at(model, eta_q).escape_rate
    eta = float(eta_q)
    t_max = _escape_horizon(p, p_star, N, q0, threshold, r_star)
    t = np.arange(0.0, t_max + dt / 2, dt)
    J = _noise_integral(model, eta, q0, t)
    G = np.random.default_rng(seed).standard_normal((samples, p, p_star))
    s0, s_eff = math.sqrt(q0 / N), math.sqrt((q0 + J) / N)
    coef, how = model.coefficients(eta_q), Integration(t)

    def t_esc(scale: float) -> np.ndarray:
        out = np.empty(samples)
        for i in range(samples):
            sol = solve(Overlaps(q0 * np.eye(p), scale * G[i], np.eye(p_star)), coef, how, eta)
            out[i] = crossing_time(t, np.linalg.norm(sol.R, axis=(1, 2)), threshold)
        if np.isnan(out).any():
            raise DomainError("threshold", threshold, "levels ‖ρ‖_F that the ODE reaches",
                              reason=f"is not reached by t = {t_max:.0f}")
        return out

    with_noise, without = t_esc(s_eff), t_esc(s0)
    root = math.sqrt(samples)
    mlog = 0.5 * math.log(2 * s_eff**2) + 0.5 * float(mpmath.digamma(p * p_star / 2))
    return EscapeLaw(p, p_star, N, q0, threshold, r_star, J,
                     float(with_noise.mean()), float(with_noise.std(ddof=1) / root),
                     float(without.mean()), float(without.std(ddof=1) / root),
                     float((with_noise - without).mean()),
                     float((with_noise - without).std(ddof=1) / root), mlog, samples)


def _escape_horizon(p: int, p_star: int, N: int, q0: float, threshold: float,
                    rate: float) -> float:
    """The integration horizon of :func:`escape_time_law`: twice the linear-stage escape time
    from ‖ρ(0)‖_F ≈ √(p p* q0/N), plus 40."""
    sigma0 = math.sqrt(p * p_star * q0 / N)
    return 2.0 * max(math.log(threshold / sigma0), 1.0) / rate + 40.0


def check_escape_request(p: int, p_star: int, eta: Fraction | float | str, Ns: Sequence[int],
                         q0: float | Fraction | str = 0.25,
                         threshold: float | Fraction | str = 0.5,
                         sigma: Fraction | float | str = 0.0, samples: int = 400,
                         dt: float = 0.125) -> None:
    """Refuse (CostError, before any work) :func:`escape_time_law` over all ``Ns`` when its
    estimated time (:func:`escape_cost`, summed) exceeds ESCAPE_SECONDS_LIMIT or one call's
    memory exceeds MEMORY_LIMIT_BYTES. The horizon grows like 1/r ∝ p*/η: a tiny η asks for a
    grid of ~p*/η points (η = 1e-9: 1e10 points, 100 GiB). Arguments as for
    :func:`escape_time_law`, with a sequence ``Ns`` of N's (read as :func:`check_escape`'s).

    >>> check_escape_request(4, 2, Fraction(1, 10), [250, 1000])  # accepted: None
    >>> check_escape_request(4, 2, Fraction(1, 10**9), [250])
    Traceback (most recent call last):
    fltheory.exact.CostError: ...
    """
    check_escape(Model(p, p_star, noise=sigma),
                 EscapeRequest(eta, Ns, q0, threshold, samples, 0, dt))


def check_escape(model: Model, request: EscapeRequest) -> None:
    """:func:`check_escape_request` of a model and a request already read: the step must give
    the plateau a positive escape rate (else DomainError on η), T = I, and the escape law at
    every N of the request must fit the time and memory bounds (else CostError).

    >>> from fltheory.papers.quadratic.params import EscapeRequest
    >>> check_escape(Model(4, 2), EscapeRequest("1/10", [250, 1000]))  # accepted: None
    """
    p, p_star, r = model.p, model.p_star, request
    if not model.isotropic:
        raise DomainError("teacher", ",".join(map(fraction_text, model.taus))[:40],
                          "identity (the escape law is for T = I)")
    rate = plateau_at(model, r.eta).escape_rate
    if rate <= 0:
        raise DomainError("eta", fraction_text(r.eta), "steps with a positive escape rate")
    total, memory = 0.0, 0.0
    for N in r.Ns:
        n_grid = _escape_horizon(p, p_star, N, r.q0, r.threshold, rate) / r.dt
        seconds, mem = _escape_cost(p, p_star, n_grid, r.samples)
        total, memory = total + seconds, max(memory, mem)
    what = (f"eta = {fraction_text(r.eta)} with {len(r.Ns)} value(s) of N, {r.samples} samples, "
            f"p = {p}, p* = {p_star} (escape horizon ≈ {n_grid * r.dt:.3g})")
    check_cost(what, memory, MEMORY_LIMIT_BYTES, "bytes of memory",
               "a larger step eta or fewer students p")
    check_cost(what, total, ESCAPE_SECONDS_LIMIT, "seconds (estimated)",
               "fewer samples or values of N, a larger step eta or fewer students p")


def escape_cost(p: int, p_star: int, n_grid: float, samples: int) -> tuple[float, float]:
    """(seconds, bytes) of one :func:`escape_time_law`: 1 + 2·samples reduced integrations on
    a grid of ``n_grid`` points. Fitted on this machine (2 cores; escape_time_law timed at
    (p, p*, samples, grid) = (4, 2, 100, 546): 2.7 s; (4, 2, 400, 546): 10.7 s; (4, 2, 100,
    2277): 10.7 s; (16, 2, 100, 475): 3.9 s; (64, 2, 50, 411): 9.4 s; (8, 8, 50, 862): 9.7 s):
    per sample, integration and grid point 2.5e-5 + 5e-8·p² + 4e-8·k·n² s (k = min(p, p*),
    n = k + p*; the p² is rebuilding Q on the grid). Memory: Q and ρ on the grid, and three
    temporaries of that size. Two floats.

    >>> seconds, memory = escape_cost(4, 2, 546, 100)
    >>> round(seconds, 2), int(memory)
    (2.97, 489216)

    p, p* integers >= 1, ``n_grid`` a finite number > 0, ``samples`` an integer >= 2 (as
    :func:`escape_time_law` takes); else DomainError.
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    n_grid = read_real(n_grid, "n_grid", low=0.0, open_low=True)
    return _escape_cost(p, p_star, n_grid, read_count(samples, "samples", 2))


def _escape_cost(p: int, p_star: int, n_grid: float, samples: int) -> tuple[float, float]:
    """:func:`escape_cost` on arguments already read."""
    k = min(p, p_star)
    n = k + p_star
    per_point = 2.5e-5 + 5e-8 * p * p + 4e-8 * k * n * n
    seconds = (1 + 2 * samples) * n_grid * per_point
    memory = 4.0 * 8 * n_grid * (p * p + p * p_star + 4)
    return seconds, memory
