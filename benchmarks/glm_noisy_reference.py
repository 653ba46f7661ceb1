"""An independent reference for the GLM channel averages with additive label noise (issue 36,
item 1): y = g(z + σ_in ε') + σ ε, σ > 0. It does not import fltheory; the quantities are
computed here from their definitions (Barbier, Krzakala, Macris, Miolane & Zdeborová, PNAS 116
(2019) 5451, eqs. (9)–(13)):

    P_out(y | z)    = E_ε' N(y; g(z + σ_in ε'), σ²)
    Z_out(y, ω, V)  = E_u P_out(y | ω + √V u) = ∫ dx N(x; ω, V') N(y; g(x), σ²),  V' = V + σ_in²
    ∂_ω Z_out       = ∫ dx (x − ω)/V' N(x; ω, V') N(y; g(x), σ²)   (no derivative of g: jumps
                       and kinks need no special case)
    Q(q)            = E_ω ∫ dy (∂_ω Z_out)²/Z_out,                ω ~ N(0, q), V = ρ − q
    ΔΨ(q)           = E_ω ∫ dy Z_out ln[Z_out(y, ω, V)/Z_out(y, 0, ρ)]
    gen_error(q)    = E_ω ∫ dy Z_out (y − ŷ(ω))²,                 ŷ(ω) = ∫ dy y Z_out(y, ω, V)
    m2_spread       = ∫ dy Z₀(y) (E[z'²|y] − ρ')²,   Z₀ = Z_out(·, 0, ρ), z' ~ N(0, ρ'),
                                                     ρ' = ρ + σ_in²

**Method** (deliberately not a Gauss–Legendre grid in u):

* the inner x-integral in closed form for piecewise-linear g (sign, door, relu, abs, linear):
  on a piece g = c (constant) it is N(y; c, σ²)·[Φ((b − ω)/s) − Φ((a − ω)/s)], s = √V'; on a
  piece g = c ± x the two Gaussians multiply into N(y; c ± ω, V' + σ²)·N(x; m, τ²), integrated
  over the piece by Φ-differences (and φ for the first and second moments);
  for smooth g (tanh, z², any numpy g) by the trapezoidal rule in t = (x − ω)/s on [−12, 12]
  (exponentially convergent for an analytic integrand of Gaussian decay);
* the y-integral by the trapezoidal rule on [min g − 9σ, max g + 9σ] (min/max of g over
  x ∈ ω ± 9 s): the y-integrand is analytic since σ > 0;
* the ω-integral by scipy's adaptive Gauss–Kronrod ``quad_vec`` on ω ∈ ±9√q, relative 1e-12.

Its accuracy is measured, not assumed: :func:`self_check` evaluates everything again with both
trapezoid steps halved and the truncated ranges widened from 9 to 11 standard deviations, and
prints the largest relative change (``python
benchmarks/glm_noisy_reference.py --check``); ∫ Z_out dy = 1 is checked at every ω, and the
linear channel (closed forms Q = 1/(V + σ²), ΔΨ = ½ ln((ρ' + σ²)/(V' + σ²)), error V' + σ²) is
reproduced by the same code path.

Usage: python benchmarks/glm_noisy_reference.py [--check] [--mc]
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import integrate, special

SQ2PI = math.sqrt(2 * math.pi)
#: half widths, in standard deviations, of the truncated lines (e^{−72} of mass beyond)
T_WIDTH = 12.0


def _phi(x: Any) -> Any:
    x = np.asarray(x, dtype=float)
    return np.where(np.isfinite(x), np.exp(-0.5 * np.where(np.isfinite(x), x, 0.0) ** 2) / SQ2PI,
                    0.0)


def _xphi(x: Any) -> Any:
    """x φ(x), 0 at ±∞."""
    x = np.asarray(x, dtype=float)
    f = np.isfinite(x)
    xf = np.where(f, x, 0.0)
    return np.where(f, xf * np.exp(-0.5 * xf * xf) / SQ2PI, 0.0)


def _dPhi(a: Any, b: Any) -> Any:
    """Φ(b) − Φ(a) for a <= b without cancellation in the upper tail."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    return np.where(a >= 0, special.ndtr(-a) - special.ndtr(-b), special.ndtr(b) - special.ndtr(a))


def _normal(y: Any, mean: Any, var: float) -> Any:
    return np.exp(-0.5 * (y - mean) ** 2 / var) / math.sqrt(2 * math.pi * var)


@dataclass(frozen=True)
class Channel:
    """y = g(z + σ_in ε') + σ ε. ``pieces``: (a, b, c, d) with g = c + d x on (a, b), d in
    {−1, 0, 1} (closed forms), or ``g``: a numpy function (smooth: trapezoid in t)."""

    name: str
    sigma: float
    probit: float = 0.0
    pieces: tuple[tuple[float, float, float, float], ...] = ()
    g: Any = field(default=None, compare=False)

    def gx(self, x: Any) -> Any:
        if self.g is not None:
            return self.g(x)
        out = np.zeros_like(np.asarray(x, dtype=float))
        for a, b, c, d in self.pieces:
            out = np.where((x > a) & (x <= b), c + d * x, out)
        return out


INF = math.inf


def sign(sigma: float, probit: float = 0.0) -> Channel:
    return Channel("sign", sigma, probit, ((-INF, 0.0, -1.0, 0.0), (0.0, INF, 1.0, 0.0)))


def door(K: float, sigma: float, probit: float = 0.0) -> Channel:
    """sign(|x| − K)."""
    return Channel(f"door({K:g})", sigma, probit,
                   ((-INF, -K, 1.0, 0.0), (-K, K, -1.0, 0.0), (K, INF, 1.0, 0.0)))


def relu(sigma: float, probit: float = 0.0) -> Channel:
    return Channel("relu", sigma, probit, ((-INF, 0.0, 0.0, 0.0), (0.0, INF, 0.0, 1.0)))


def absolute(sigma: float, probit: float = 0.0) -> Channel:
    return Channel("abs", sigma, probit, ((-INF, 0.0, 0.0, -1.0), (0.0, INF, 0.0, 1.0)))


def linear(sigma: float, probit: float = 0.0) -> Channel:
    return Channel("linear", sigma, probit, ((-INF, INF, 0.0, 1.0),))


def square(sigma: float, probit: float = 0.0) -> Channel:
    return Channel("square", sigma, probit, g=lambda x: x * x)


def tanh(sigma: float, probit: float = 0.0) -> Channel:
    return Channel("tanh", sigma, probit, g=np.tanh)


@dataclass(frozen=True)
class Steps:
    """Trapezoid steps: in t = (x − ω)/s, and in y in units of σ."""

    t: float = 0.1
    y: float = 1 / 10
    #: the y-range (g over x ∈ ω ± width·s, widened by width·σ) and the ω-range ±width·√q:
    #: e^{−width²/2} of the mass beyond
    width: float = 9.0

    def halved(self) -> Steps:
        """Both steps halved and the ranges widened by 2 (e^{−60.5} beyond)."""
        return Steps(self.t / 2, self.y / 2, self.width + 2)


def _moments(ch: Channel, y: np.ndarray, w: float, s: float, steps: Steps,
             second: bool = False) -> tuple[np.ndarray, ...]:
    """Z = ∫ N(x; w, s²) N(y; g(x), σ²) dx, its ∂_w, and ∫ x (·), [∫ x² (·)] at each y."""
    sg2 = ch.sigma ** 2
    if ch.g is not None:
        n = round(T_WIDTH / steps.t)
        t = np.linspace(-T_WIDTH, T_WIDTH, 2 * n + 1)
        x = w + s * t
        K = _normal(y[:, None], ch.g(x)[None, :], sg2) * (_phi(t) * (t[1] - t[0]))[None, :]
        out = [K.sum(1), (K * (t / s)).sum(1), (K * x).sum(1)]
        if second:
            out.append((K * (x * x)).sum(1))
        return tuple(out)
    Z = np.zeros_like(y)
    dZ = np.zeros_like(y)
    M1 = np.zeros_like(y)
    M2 = np.zeros_like(y)
    for a, b, c, d in ch.pieces:
        if d == 0:
            Ny = _normal(y, c, sg2)
            A0, B0 = (a - w) / s, (b - w) / s
            A, B = np.full_like(y, A0), np.full_like(y, B0)
            P = _dPhi(A, B)
            Z += Ny * P
            dZ += Ny * (_phi(A) - _phi(B)) / s
            # x = w + s u: ∫ x φ = w P + s(φ(A) − φ(B)); ∫ x² φ = w² P + 2ws(φ(A) − φ(B))
            #               + s²(P + Aφ(A) − Bφ(B))
            M1 += Ny * (w * P + s * (_phi(A) - _phi(B)))
            M2 += Ny * (w * w * P + 2 * w * s * (_phi(A) - _phi(B))
                        + s * s * (P + _xphi(A) - _xphi(B)))
        else:
            v = s * s + sg2
            Nm = _normal(y, c + d * w, v)
            m = (w * sg2 + d * (y - c) * s * s) / v
            tau = s * math.sqrt(sg2 / v)
            A, B = (a - m) / tau, (b - m) / tau
            P = _dPhi(A, B)
            Z += Nm * P
            dZ += Nm / (s * s) * ((m - w) * P + tau * (_phi(A) - _phi(B)))
            M1 += Nm * (m * P + tau * (_phi(A) - _phi(B)))
            M2 += Nm * (m * m * P + 2 * m * tau * (_phi(A) - _phi(B))
                        + tau * tau * (P + _xphi(A) - _xphi(B)))
    return (Z, dZ, M1, M2) if second else (Z, dZ, M1)


def _y_grid(ch: Channel, w: float, s: float, steps: Steps) -> np.ndarray:
    x = w + s * np.linspace(-steps.width, steps.width, 2001)
    gv = ch.gx(x)
    lo, hi = float(gv.min()) - steps.width * ch.sigma, float(gv.max()) + steps.width * ch.sigma
    h = steps.y * ch.sigma
    n = math.ceil((hi - lo) / h)
    return np.linspace(lo, hi, n + 1)


@dataclass(frozen=True)
class Averages:
    """Q, ΔΨ, gen_error at one (q, ρ), the worst |∫ Z dy − 1| met, and Q again by the
    Nishimori identity E g_out² = (V' − E Var(x | y, ω))/V'² (x = ω + √V' t: the posterior
    variance from the first and second x-moments, not from ∂_ω Z)."""

    Q: float
    dpsi: float
    gen_error: float
    norm_error: float
    Q_nishimori: float


def averages(ch: Channel, rho: float, q: float, steps: Steps = Steps()) -> Averages:
    """Q(q), ΔΨ(q), gen_error(q) from the definitions (see the module docstring)."""
    sp2 = ch.probit ** 2
    s = math.sqrt(rho - q + sp2)
    s0 = math.sqrt(rho + sp2)
    worst = [0.0]

    def inner(w: float) -> np.ndarray:
        y = _y_grid(ch, w, s, steps)
        h = y[1] - y[0]
        Z, dZ, M1, M2 = _moments(ch, y, w, s, steps, second=True)
        Z0 = _moments(ch, y, 0.0, s0, steps)[0]
        pos = Z > 0
        Zs = np.where(pos, Z, 1.0)
        norm = h * Z.sum()
        yhat = h * (y * Z).sum()
        worst[0] = max(worst[0], abs(norm - 1))
        lr = np.where(pos, np.log(Zs) - np.log(np.where(Z0 > 0, Z0, 1e-300)), 0.0)
        var = np.where(pos, M2 - M1 * M1 / Zs, 0.0)   # Z · Var(x | y, ω)
        return np.array([h * np.where(pos, dZ * dZ / Zs, 0.0).sum(),
                         h * (Z * lr).sum(),
                         h * (Z * (y - yhat) ** 2).sum(),
                         h * var.sum()]) * _normal(w, 0.0, q)

    L = steps.width * math.sqrt(q)
    val, _ = integrate.quad_vec(inner, -L, L, epsabs=1e-14, epsrel=1e-12, points=[0.0],
                                limit=400)
    V1 = s * s
    return Averages(float(val[0]), float(val[1]), float(val[2]), worst[0],
                    (V1 - float(val[3])) / (V1 * V1))


def q_only(ch: Channel, rho: float, q: float, steps: Steps = Steps()) -> float:
    """Q(q) alone (the fixed-point iteration's one call)."""
    sp2 = ch.probit ** 2
    s = math.sqrt(rho - q + sp2)

    def inner(w: float) -> float:
        y = _y_grid(ch, w, s, steps)
        Z, dZ, _ = _moments(ch, y, w, s, steps)
        return float((y[1] - y[0]) * np.where(Z > 0, dZ * dZ / np.where(Z > 0, Z, 1.0),
                                              0.0).sum()) * float(_normal(w, 0.0, q))

    L = steps.width * math.sqrt(q)
    val, _ = integrate.quad_vec(inner, -L, L, epsabs=1e-14, epsrel=1e-12, points=[0.0],
                                limit=400)
    return float(val)


def spread(ch: Channel, rho: float, steps: Steps = Steps()) -> tuple[float, float]:
    """(m2_spread, max_y |E[z'|y]|/√ρ'): E_y[(E[z'²|y] − ρ')²] and the largest conditional mean,
    z' = z + σ_in ε' ~ N(0, ρ'), both on the y-grid of the trapezoid."""
    r1 = rho + ch.probit ** 2
    s0 = math.sqrt(r1)
    y = _y_grid(ch, 0.0, s0, steps)
    Z, _, M1, M2 = _moments(ch, y, 0.0, s0, steps, second=True)
    pos = Z > 1e-250
    c2 = np.where(pos, M2 / np.where(pos, Z, 1.0), r1)
    c1 = np.where(pos, M1 / np.where(pos, Z, 1.0), 0.0)
    m2 = float((y[1] - y[0]) * (Z * (c2 - r1) ** 2).sum())
    # the conditional mean where y has non-negligible density (its tails are ratios of tails)
    big = Z.max() * 1e-12 < Z
    return m2, float(np.abs(c1[big]).max() / s0)


def square_spread_pcfd(sigma: float, rho: float = 1.0) -> float:
    """m2_spread of y = z² + σε, z ~ N(0, ρ), from a closed form of E[z²|y]: with s = z²,
    p(s | y) ∝ s^{−1/2} e^{−s/(2ρ) − (y − s)²/(2σ²)}, and ∫₀^∞ s^{ν−1} e^{−βs² − γs} ds =
    (2β)^{−ν/2} Γ(ν) e^{γ²/(8β)} D_{−ν}(γ/√(2β)) (Gradshteyn–Ryzhik 3.462.1) gives
    E[z²|y] = (σ/2) D_{−3/2}(x)/D_{−1/2}(x), x = σ/(2ρ) − y/σ, and the density
    p(y) = Γ(1/2) σ^{1/2} e^{x²/4 − y²/(2σ²)} D_{−1/2}(x)/(2π σ √ρ);
    the y-integral by mpmath's tanh-sinh quadrature on [−12σ, 100ρ] (mpmath's parabolic-cylinder
    D, 15 digits). σ = ρ = 1: 1.54657367801184, the trapezoid's :func:`spread` gives
    1.54657367801 (agreement 1e-12)."""
    import mpmath as mp

    with mp.workdps(15):
        sg, r = mp.mpf(sigma), mp.mpf(rho)

        def f(y: Any) -> Any:
            x = sg / (2 * r) - y / sg
            d12 = mp.pcfd(-0.5, x)
            dens = mp.gamma(0.5) * mp.sqrt(sg) * mp.exp(x * x / 4 - y * y / (2 * sg * sg)) * \
                d12 / (2 * mp.pi * sg * mp.sqrt(r))
            c2 = sg / 2 * mp.pcfd(-1.5, x) / d12
            return dens * (c2 - r) ** 2

        # the density decays like e^{−y/(2ρ)}: beyond 100ρ the integrand is below 1e−18
        return float(mp.quad(f, [-12 * sg, 0, 4 * r, 20 * r, 100 * r]))


def gaussian_fixed_point(ch: Channel, rho: float, alpha: float, q0: float = 0.0,
                         steps: Steps = Steps(), tol: float = 1e-12) -> tuple[float, int]:
    """AMP's fixed point from q₀ for the Gaussian prior N(0, ρ): q̂ = α Q(q), q = ρ²q̂/(1 + ρq̂),
    iterated; every third step an Aitken Δ² extrapolation of three plain iterates (the map is a
    contraction near the fixed point; Aitken only shortens the tail). Returns (q, calls of Q)."""
    def F(q: float) -> float:
        qh = alpha * q_only(ch, rho, q, steps) if q > 0 else alpha * _q_at_zero(ch, rho, steps)
        return rho * rho * qh / (1 + rho * qh)

    q, calls = q0, 0
    for _ in range(60):
        q1 = F(q)
        q2 = F(q1)
        calls += 2
        if abs(q2 - q1) < tol * rho:
            return q2, calls
        den = q2 - 2 * q1 + q
        q = q2 - (q2 - q1) ** 2 / den if den != 0 and q > 0 else q2
    raise RuntimeError("no convergence")


def gaussian_map_scan(ch: Channel, rho: float, alpha: float, fracs: Any,
                      steps: Steps = Steps()) -> list[float]:
    """F(α Q(q)) − q at q = frac·ρ (Gaussian prior): one sign change on (0, ρ) means one fixed
    point, so the Bayes point is AMP's."""
    out = []
    for f in fracs:
        qh = alpha * q_only(ch, rho, f * rho, steps)
        out.append(rho * rho * qh / (1 + rho * qh) - f * rho)
    return out


def _q_at_zero(ch: Channel, rho: float, steps: Steps) -> float:
    """Q(0) = ∫ dy (∂_ω Z(y, 0, ρ))²/Z(y, 0, ρ) (ω ≡ 0)."""
    s = math.sqrt(rho + ch.probit ** 2)
    y = _y_grid(ch, 0.0, s, steps)
    Z, dZ, _ = _moments(ch, y, 0.0, s, steps)
    return float((y[1] - y[0]) * np.where(Z > 0, dZ * dZ / np.where(Z > 0, Z, 1.0), 0.0).sum())


def mean_g(ch: Channel, w: np.ndarray, s: float) -> np.ndarray:
    """ŷ(ω) = E_t g(ω + s t): on a piece g = c + d x of (a, b), (c + dω)[Φ(B) − Φ(A)]
    + d s [φ(A) − φ(B)], A = (a − ω)/s, B = (b − ω)/s; for smooth g 120-node Gauss–Hermite."""
    if ch.g is not None:
        nodes, weights = np.polynomial.hermite_e.hermegauss(120)
        weights = weights / weights.sum()
        out = np.empty_like(w)
        for k in range(0, w.size, 50_000):
            out[k:k + 50_000] = ch.g(w[k:k + 50_000, None] + s * nodes[None, :]) @ weights
        return out
    out = np.zeros_like(w)
    for a, b, c, d in ch.pieces:
        A, B = (a - w) / s, (b - w) / s
        out += (c + d * w) * _dPhi(A, B) + d * s * (_phi(A) - _phi(B))
    return out


def monte_carlo_error(ch: Channel, rho: float, q: float, n: int = 10 ** 6,
                      seed: int = 0) -> tuple[float, float]:
    """E(y − ŷ(ω))² by sampling (ω, u, ε) (n of each; probit ε' too): ω ~ N(0, q),
    y = g(ω + √(ρ − q) u + σ_in ε') + σε; ŷ(ω) = E_t g(ω + √V' t) by :func:`mean_g` (a 1-d
    average of g, not the reference's y-integral). Returns (mean, standard error)."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(n) * math.sqrt(q)
    u = rng.standard_normal(n)
    e = rng.standard_normal(n)
    ep = rng.standard_normal(n) if ch.probit else 0.0
    y = ch.gx(w + math.sqrt(rho - q) * u + ch.probit * ep) + ch.sigma * e
    yhat = mean_g(ch, w, math.sqrt(rho - q + ch.probit ** 2))
    r = (y - yhat) ** 2
    return float(r.mean()), float(r.std(ddof=1) / math.sqrt(n))


#: the brief's cases: (label, channel, ρ, q/ρ values, steps); y = z² + σε with σ = 1 has a
#: wide y-range and a strip of analyticity wide enough for a y-step of σ/5
CASES: tuple[tuple[str, Channel, float, tuple[float, ...], Steps], ...] = (
    ("a", sign(0.3), 1.0, (0.3, 0.8, 0.97), Steps()),
    ("b", relu(0.5), 1.0, (0.3, 0.8), Steps()),
    ("c", tanh(0.5), 1.0, (0.3, 0.8), Steps()),
    ("d", square(1.0), 1.0, (0.3, 0.8), Steps(0.1, 1 / 5)),
    ("e", door(0.5, 0.2), 1.0, (0.3, 0.8), Steps()),
    ("f", absolute(0.5, 1 / 3), 1.0, (0.3, 0.8), Steps()),
    ("e'", door(0.5, 0.2), 1.5, (0.3, 0.8), Steps()),
)


def self_check() -> float:
    """Largest relative change of Q, ΔΨ, gen_error and m2_spread over the cases when both
    trapezoid steps are halved; also the linear channel against its closed forms."""
    worst = 0.0
    for label, ch, rho, fracs, st in CASES:
        for f in fracs:
            a = averages(ch, rho, f * rho, st)
            b = averages(ch, rho, f * rho, st.halved())
            d = max(abs(a.Q / b.Q - 1), abs(a.dpsi / b.dpsi - 1),
                    abs(a.gen_error / b.gen_error - 1))
            print(f"  {label} q={f}ρ: Q by the Nishimori identity differs by "
                  f"{abs(b.Q_nishimori / b.Q - 1):.1e}")
            worst = max(worst, d)
            print(f"  {label} q={f}ρ: halved steps and ranges 9 → 11 sd change {d:.1e}, "
                  f"|∫Z−1| <= {b.norm_error:.1e}")
        m_a, m_b = spread(ch, rho, st)[0], spread(ch, rho, st.halved())[0]
        if m_b:
            worst = max(worst, abs(m_a / m_b - 1))
    lin, rho, q, sg2 = linear(0.3, 0.25), 1.5, 0.9, 0.09
    a = averages(lin, rho, q)
    V1 = rho - q + 0.0625
    ref = (1 / (V1 + sg2), 0.5 * math.log((rho + 0.0625 + sg2) / (V1 + sg2)), V1 + sg2)
    d = max(abs(a.Q / ref[0] - 1), abs(a.dpsi / ref[1] - 1), abs(a.gen_error / ref[2] - 1))
    print(f"  linear σ=0.3, σ_in=1/4, ρ=1.5, q=0.9 against closed forms: {d:.1e}")
    return max(worst, d)


def table() -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for label, ch, rho, fracs, st in CASES:
        m2, mean = spread(ch, rho, st)
        for f in fracs:
            a = averages(ch, rho, f * rho, st)
            rows.append((label, f"{ch.name}, σ={ch.sigma:g}" + (f", σ_in={ch.probit:.4g}"
                                                                 if ch.probit else ""),
                         f"{rho:g}", f"{f * rho:g}", f"{a.Q:.12g}", f"{a.dpsi:.12g}",
                         f"{a.gen_error:.12g}", f"{m2:.12g}", str(mean < 1e-9)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="halve the steps and report the change")
    ap.add_argument("--mc", action="store_true", help="the Monte-Carlo check of gen_error")
    args = ap.parse_args()
    t0 = time.perf_counter()
    head = ("case", "channel", "ρ", "q", "Q", "ΔΨ", "gen_error", "m2_spread", "mean_free")
    rows = table()
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    q, calls = gaussian_fixed_point(tanh(0.5), 1.0, 2.0)
    print(f"\nGaussian prior ρ=1, tanh(z) + σ=1/2, α=2: AMP fixed point q = {q!r} "
          f"(MMSE {1 - q!r}, gen_error {averages(tanh(0.5), 1.0, q).gen_error!r}; "
          f"{calls} calls of Q)")
    fr = [0.02, 0.2, 0.4, 0.6, 0.65, 0.67, 0.7, 0.8, 0.9, 0.95, 0.99]
    h = gaussian_map_scan(tanh(0.5), 1.0, 2.0, fr)
    print("  F(2Q(q)) − q at q = " + ", ".join(f"{f}: {v:+.3g}" for f, v in zip(fr, h,
                                                                               strict=True)))
    for ch in (relu(0.5), sign(0.3)):
        q, calls = gaussian_fixed_point(ch, 1.0, 2.0)
        h = gaussian_map_scan(ch, 1.0, 2.0, fr)
        print(f"Gaussian prior ρ=1, {ch.name} + σ={ch.sigma:g}, α=2: q = {q!r} (MMSE {1 - q!r}, "
              f"gen_error {averages(ch, 1.0, q).gen_error!r}); sign changes of F(2Q(q)) − q "
              f"on the scan: {sum(a * b < 0 for a, b in itertools.pairwise(h))}")
    m2a = spread(square(1.0), 1.0, Steps(0.1, 1 / 5))[0]
    m2b = square_spread_pcfd(1.0)
    print(f"square + σ=1, Gaussian prior ρ=1: m2_spread = {m2a!r} (trapezoid), {m2b!r} "
          f"(parabolic-cylinder form); α_WR = 1/m2_spread = {1 / m2b!r}")
    if args.mc:
        for label, ch in (("a", sign(0.3)), ("c", tanh(0.5))):
            mc, se = monte_carlo_error(ch, 1.0, 0.8)
            ref = averages(ch, 1.0, 0.8).gen_error
            print(f"Monte Carlo ({label}) gen_error at q=0.8: {mc:.6f} ± {se:.6f} "
                  f"(reference {ref:.10f}, {(mc - ref) / se:+.2f} standard errors)")
    if args.check:
        print(f"\nself check: worst relative change {self_check():.1e}")
    print(f"\n{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
