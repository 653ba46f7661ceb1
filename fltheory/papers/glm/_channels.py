r"""The channel's side of the replica formula: the output function g_out and its averages
(Barbier et al. 2019).

With the prior's second moment ρ, the overlap q and V = ρ − q, the label of a fresh sample is
y ~ P_out(· | z), z = ω + √V u, ω ~ N(0, q), u ~ N(0, 1), and

    Z_out(y, ω, V) = E_u P_out(y | ω + √V u),   g_out = ∂_ω ln Z_out.

The channel enters the state evolution through Q(q) = E[g_out²] (q̂ = α Q(q)) and the free
entropy through ΔΨ(q) = E ln[Z_out(y, ω, V) / Z_out(y, 0, ρ)] (the mutual information between
y and ω: the q-independent entropy of y is subtracted, so the free entropy stays finite for
deterministic channels with continuous labels). Noise inside φ (``probit`` σ_in) is
V → V + σ_in², ρ → ρ + σ_in².

Families, each with closed forms reducing the averages to one integral (two for phase
retrieval), written in variables that do not narrow as V → 0:

* intervals (sign, door): Z_out is a sum of Φ((b − ω)/√V) − Φ((a − ω)/√V) over the intervals
  [a, b] of z with label y, taken in log space;
* phase retrieval (abs, square: y determines |z|): with r = ω/√V and s = r + u,
  Q = (1/V)[1 + E((s T − r)² − u²)], T = tanh(r s), and ΔΨ = −½ ln(V/ρ) − ln 2 + E ln(1 + e^{−2rs});
* relu: Q = (1/V) E[φ(x)²/Φ(−x) + Φ(x) − xφ(x)], ΔΨ = E[Φ(−x) ln 2Φ(−x)] − ¼ ln(V/ρ), x = ω/√V;
* linear y = z + noise: Q = 1/(V + Δ), ΔΨ = −½ ln((V + Δ)/(ρ + Δ)).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from scipy import special

from fltheory.engine.threads import run_pieces, thread_count
from fltheory.papers.glm._quad import (
    LOG_SQRT_2PI,
    gauss_panels,
    halve,
    log_phi,
    log_phi_diff,
    lse,
    mills,
    nodes,
    normal_weight_integral,
    phi,
)
from fltheory.papers.glm.params import Channel, smooth_expression

__all__ = ["ChannelNumerics", "channel_numerics"]

_INF = math.inf


@dataclass(frozen=True)
class ChannelNumerics:
    """A channel at prior second moment ``rho``: the averages the theory needs.

    ``mean_free``: E[z | y] = 0 a.s. (then q = 0 is a fixed point for a centred prior);
    ``perfect``: q = ρ is a fixed point (no noise); ``c_continuous``: the probability of a label
    with a density (discrete labels: 0); ``discrete``: labels ±1 (classification error)."""

    channel: Channel
    rho: float

    @property
    def sin2(self) -> float:
        return float(self.channel.probit) ** 2

    @property
    def rho1(self) -> float:
        """ρ' = ρ + σ_in²."""
        return self.rho + self.sin2

    def V1(self, q: float, V: float | None = None) -> float:
        """V' = V + σ_in² with V = ρ − q unless given (the prior computes the smaller of q and
        V directly, so neither is a difference of two nearly equal numbers)."""
        return (max(self.rho - q, 0.0) if V is None else V) + self.sin2

    @property
    def perfect(self) -> bool:
        return self.channel.probit == 0 and self.channel.noise == 0

    @property
    def jumps(self) -> bool:
        """g jumps and there is no noise inside φ: with additive label noise, Q(q) still grows
        as 1/√(ρ − q) near q = ρ, so q = ρ stays a (stable) fixed point for a discrete prior."""
        return False

    mean_free: bool = False
    c_continuous: float = 0.0
    discrete: bool = False

    def Q(self, q: float, level: int = 1, V: float | None = None) -> float:
        raise NotImplementedError

    def dpsi(self, q: float, level: int = 1, V: float | None = None) -> float:
        raise NotImplementedError

    def info_full(self) -> float:
        """ΔΨ(ρ): the information of a label about z itself (inf for continuous labels)."""
        raise NotImplementedError

    def m2_spread(self, level: int = 2) -> float:
        """E_y[(E[z² | y] − ρ)²] (z ~ N(0, ρ)): the weak-recovery coefficient."""
        raise NotImplementedError

    def gen_error(self, q: float, level: int = 1, V: float | None = None) -> float:
        raise NotImplementedError


@dataclass(frozen=True)
class _Intervals(ChannelNumerics):
    """y = +1 on ``plus`` (intervals of z), −1 on the complement."""

    plus: tuple[tuple[float, float], ...] = ()
    minus: tuple[tuple[float, float], ...] = ()
    discrete: bool = True

    def _logz(self, y_int: tuple[tuple[float, float], ...], w: np.ndarray,
              V: float) -> np.ndarray:
        sv = math.sqrt(V)
        terms = [log_phi_diff((a - w) / sv, (b - w) / sv) for a, b in y_int]
        return lse(np.stack(terms))

    def _dlog_root(self, y_int: tuple[tuple[float, float], ...], w: np.ndarray, V: float,
                   logz: np.ndarray) -> np.ndarray:
        """√(Z_out)·√V'·g_out = Σ ±φ(t_e)/√Z_out (g_out = ∂_ω ln Z_out), each φ divided by √Z
        in log space, so that Z g² is a square of numbers that stay finite: with g itself,
        Z·g² was 0·∞ = NaN where Z underflows (t ~ 10⁹ at V' ~ 10⁻¹⁷, a prior with a mean at
        q̂ = 128), and A(q̂) silently took α_WR there; φ²/Z → 0 as it should."""
        sv = math.sqrt(V)
        out = np.zeros_like(w)
        half = 0.5 * logz
        for a, b in y_int:
            for e, sgn in ((a, 1.0), (b, -1.0)):
                if math.isfinite(e):
                    t = (e - w) / sv
                    out = out + sgn * np.exp(-0.5 * t * t - LOG_SQRT_2PI - half)
        return np.where(np.isfinite(logz), out, 0.0)

    def _features(self, V: float) -> list[tuple[float, float]]:
        ends = {e for a, b in self.plus for e in (a, b) if math.isfinite(e)}
        return [(e, math.sqrt(V)) for e in sorted(ends)]

    def Q(self, q: float, level: int = 1, V: float | None = None) -> float:
        V = self.V1(q, V)

        def f(w: np.ndarray) -> np.ndarray:
            tot = np.zeros_like(w)
            for ints in (self.plus, self.minus):
                h = self._dlog_root(ints, w, V, self._logz(ints, w, V))
                tot = tot + h * h
            return tot / V      # Z g² = h²/V

        return normal_weight_integral(f, 0.0, math.sqrt(q), self._features(V), level)

    def _plogp(self, ints: tuple[tuple[float, float], ...], w: np.ndarray,
               V: float) -> np.ndarray:
        lz = self._logz(ints, w, V)
        return np.where(np.isfinite(lz), np.exp(lz) * lz, 0.0)

    def dpsi(self, q: float, level: int = 1, V: float | None = None) -> float:
        V = self.V1(q, V)

        def f(w: np.ndarray) -> np.ndarray:
            return self._plogp(self.plus, w, V) + self._plogp(self.minus, w, V)

        inside = normal_weight_integral(f, 0.0, math.sqrt(q), self._features(V), level)
        return inside + self.entropy_y()

    def entropy_y(self) -> float:
        """H(y) with z ~ N(0, ρ')."""
        zero = np.zeros(1)
        return -float(self._plogp(self.plus, zero, self.rho1)[0]
                      + self._plogp(self.minus, zero, self.rho1)[0])

    def info_full(self) -> float:
        return self.entropy_y()

    def _p_and_m(self, ints: tuple[tuple[float, float], ...]) -> tuple[float, float]:
        """P(y) and E[z² | y] for z ~ N(0, ρ')."""
        sr = math.sqrt(self.rho1)
        p = m = 0.0
        for a, b in ints:
            ta, tb = a / sr, b / sr
            pa = math.exp(float(log_phi_diff(np.array(ta), np.array(tb))))
            fa = 0.0 if not math.isfinite(ta) else ta * math.exp(-0.5 * ta * ta - LOG_SQRT_2PI)
            fb = 0.0 if not math.isfinite(tb) else tb * math.exp(-0.5 * tb * tb - LOG_SQRT_2PI)
            p += pa
            m += pa + fa - fb
        return p, self.rho1 * m / p

    def m2_spread(self, level: int = 2) -> float:
        tot = 0.0
        for ints in (self.plus, self.minus):
            p, m = self._p_and_m(ints)
            tot += p * (m - self.rho1) ** 2
        return tot

    def gen_error(self, q: float, level: int = 1, V: float | None = None) -> float:
        """P(ŷ ≠ y) of the Bayes decision ŷ(ω) = argmax_y Z_out(y, ω, V)."""
        V = self.V1(q, V)

        def f(w: np.ndarray) -> np.ndarray:
            return np.exp(np.minimum(self._logz(self.plus, w, V), self._logz(self.minus, w, V)))

        return normal_weight_integral(f, 0.0, math.sqrt(q), self._features(V), level)


#: the template of the u-panels of phase retrieval, in v = u + r (the sign flip of z at v = 0)
_PR_V = np.unique(np.concatenate([[0.0], *[[s * 0.01 * 2.0 ** k for k in range(12)]
                                            for s in (-1.0, 1.0)], [-24.0, 24.0]]))


#: below q = V'/4 (r = ω/√V' of standard deviation ≤ 1/2) the phase-retrieval averages use
#: integrands that vanish at q = 0; above it the forms that decay in |rs| (equally accurate
#: at the switch: 2e-11 relative at level 1, 1e-15 at level 2, against scipy's dblquad)
_PR_NEAR = 0.25


@dataclass(frozen=True)
class _PhaseRetrieval(ChannelNumerics):
    """y = |z| or z² (the same information: y determines |z|)."""

    square: bool = False
    mean_free: bool = True
    c_continuous: float = 1.0

    def _grid(self, q: float, level: int, V: float) -> tuple[np.ndarray, np.ndarray,
                                                              np.ndarray, np.ndarray]:
        """Nodes (r, s) and weights of E over r ~ N(0, q/V'), u ~ N(0, 1), s = r + u."""
        sd = math.sqrt(q / V)
        hi = min(12.0, 38.0 * sd)
        r, wr = nodes(gauss_panels(0.0, hi, [(0.0, min(sd, 1.0))], 1.0, level), 10)
        wr = 2.0 * wr * np.exp(-0.5 * (r / sd) ** 2 - LOG_SQRT_2PI) / sd
        edges = _PR_V if level == 1 else np.sort(np.concatenate(
            [_PR_V, 0.5 * (_PR_V[1:] + _PR_V[:-1])]))
        v, wv = nodes(edges, 10)
        s = v[None, :]
        u = s - r[:, None]
        w = wr[:, None] * wv[None, :] * phi(u)
        return r[:, None], s, u, w

    def Q(self, q: float, level: int = 1, V: float | None = None) -> float:
        V = self.V1(q, V)
        if q == 0:
            return 0.0
        r, s, _u, w = self._grid(q, level, V)
        rs = r * s
        if q <= _PR_NEAR * V:
            # V'² Q = E(E[z'|y, ω] − ω)² with E[z'|y, ω] = y tanh(yω/V'); over r = ω/√V' and
            # s = z'/√V' (u = s − r ~ N(0, 1)) it is E(s t − r)², t = tanh(rs), i.e.
            # q/V' + E[s² t² − 2 r s t] (E s² = 1 + q/V', E rs = q/V' exactly): the integrand
            # is O(r²), so the quadrature's error scales with Q, not with the 1 that the
            # form below cancels (2e-12 absolute at level 1: 1e-6 relative at q = 1e-6)
            t = np.tanh(rs)
            return (q / V + float(np.sum(w * (t * (s * s * t - 2.0 * rs))))) / V
        # far from q = 0 the same expectation as 1 + E[excess] with an integrand that decays
        # where |rs| is large (the grid's panels are fine only near s = 0)
        one_minus_t = 2.0 * special.expit(-2.0 * rs)
        one_plus_t = 2.0 * special.expit(2.0 * rs)
        excess = -s * one_minus_t * (s * one_plus_t - 2.0 * r)
        return (1.0 + float(np.sum(w * excess))) / V

    def dpsi(self, q: float, level: int = 1, V: float | None = None) -> float:
        V = self.V1(q, V)
        if q == 0:
            return 0.0
        r, s, _u, w = self._grid(q, level, V)
        if q <= _PR_NEAR * V:
            # ln(1 + e^(−2x)) = ln 2 + ln cosh x − x and E rs = q/V' exactly: what is
            # integrated, ln cosh(rs) = O(r²), carries no ln 2 for the quadrature to cancel
            a = np.abs(r * s)
            # ln cosh a = ln(1 + 2 sinh²(a/2)): no rounding of ln 2 near a = 0
            logcosh = np.where(a < 1.0, np.log1p(2.0 * np.sinh(0.5 * np.minimum(a, 1.0)) ** 2),
                               a + np.log1p(np.exp(-2.0 * a)) - math.log(2.0))
            return -0.5 * math.log(V / self.rho1) - q / V + float(np.sum(w * logcosh))
        soft = np.logaddexp(0.0, -2.0 * r * s)
        return -0.5 * math.log(V / self.rho1) - math.log(2.0) + float(np.sum(w * soft))

    def info_full(self) -> float:
        return _INF

    def m2_spread(self, level: int = 2) -> float:
        return 2.0 * self.rho1 ** 2

    def gen_error(self, q: float, level: int = 1, V: float | None = None) -> float:
        """E(y − ŷ)², ŷ = E[y | ω] the Bayes prediction of a fresh label."""
        V = self.V1(q, V)
        if self.square:
            return 2.0 * V * (2.0 * q + V)
        sv = math.sqrt(V)

        def f(w: np.ndarray) -> np.ndarray:
            x = w / sv
            yhat = sv * (2.0 * phi(x) + x * (2.0 * special.ndtr(x) - 1.0))
            return yhat * yhat

        return self.rho1 - normal_weight_integral(f, 0.0, math.sqrt(q), [(0.0, sv)], level)


@dataclass(frozen=True)
class _Relu(ChannelNumerics):
    """y = max(0, z): a point mass at 0 (probability ½) and a density on (0, ∞)."""

    c_continuous: float = 0.5

    def _x(self, q: float, V: float | None) -> tuple[float, float]:
        V = self.V1(q, V)
        return V, math.sqrt(q / V)

    def Q(self, q: float, level: int = 1, V: float | None = None) -> float:
        V, sd = self._x(q, V)

        def f(x: np.ndarray) -> np.ndarray:
            return phi(x) * mills(x) + special.ndtr(x) - x * phi(x)

        return normal_weight_integral(f, 0.0, sd, [(0.0, min(sd, 1.0))], level) / V

    def dpsi(self, q: float, level: int = 1, V: float | None = None) -> float:
        V, sd = self._x(q, V)

        def f(x: np.ndarray) -> np.ndarray:
            lp = log_phi(-x)
            return np.exp(lp) * (lp + math.log(2.0))

        return (normal_weight_integral(f, 0.0, sd, [(0.0, min(sd, 1.0))], level)
                - 0.25 * math.log(V / self.rho1))

    def info_full(self) -> float:
        return _INF

    def m2_spread(self, level: int = 2) -> float:
        return self.rho1 ** 2

    def gen_error(self, q: float, level: int = 1, V: float | None = None) -> float:
        V = self.V1(q, V)
        sv = math.sqrt(V)

        def f(w: np.ndarray) -> np.ndarray:
            x = w / sv
            yhat = w * special.ndtr(x) + sv * phi(x)
            return yhat * yhat

        return self.rho1 / 2 - normal_weight_integral(f, 0.0, math.sqrt(q), [(0.0, sv)], level)


@dataclass(frozen=True)
class _Linear(ChannelNumerics):
    """y = z + noise of total variance Δ = σ_in² + σ²."""

    c_continuous: float = 1.0

    @property
    def delta(self) -> float:
        return self.sin2 + float(self.channel.noise) ** 2

    def Q(self, q: float, level: int = 1, V: float | None = None) -> float:
        return 1.0 / (self.V1(q, V) - self.sin2 + self.delta)

    def dpsi(self, q: float, level: int = 1, V: float | None = None) -> float:
        return -0.5 * math.log((self.V1(q, V) - self.sin2 + self.delta)
                               / (self.rho + self.delta))

    def info_full(self) -> float:
        return _INF if self.delta == 0 else 0.5 * math.log((self.rho + self.delta) / self.delta)

    def m2_spread(self, level: int = 2) -> float:
        return 0.0

    def gen_error(self, q: float, level: int = 1, V: float | None = None) -> float:
        return self.V1(q, V) - self.sin2 + self.delta


#: the tails of the noisy channels' (ω, y) integrals: beyond 10 standard deviations the Gaussian
#: weight is below e^(−50) ≈ 2e-22 of its peak, under double precision's resolution of the sums
_T = 10.0
#: Gauss–Legendre nodes a panel and the panels' widths (in σ for y, in √q for ω) of the noisy
#: channels' (ω, y) sums; level 2 halves every panel. Measured against a four-times finer grid
#: on sign, door, abs and a leaky ReLU (q = 0.3, 0.9, 1 − 10⁻⁵): relative error <= 1.1e-11 at
#: level 1 (the two levels' agreement is what the printed digits rest on)
_NODES_2D = 12
_YW = 2.0
_WW = 2.0
#: below this V' the limit V' → 0 is taken: its error is O(√V') where g has a kink (noisy
#: abs, σ = 1/20: Q = 400 − 360√V', measured from V' = 1e-6 to 1e-30, both levels to 1e-16),
#: 1e-20 relative here; further down the quadrature loses its digits (relu at V' = 1e-60:
#: 2e-7 between levels; at 5e-179 (V'∂Z)² underflows and Q is NaN)
_V_TINY = 1e-40
#: the door's half width K/√ρ' the numerics take: beyond 20, P(|z| > K) < 10⁻⁸⁸ (α_WR ~ 10⁸³,
#: near 38 it overflows); below 10⁻³ (α_WR ~ 10³) two resolutions find different spinodals
DOOR_KAPPA = (1e-3, 20.0)
#: breakpoints about a switch between two flat levels, in units of its width 4σ²/Δb
_SWITCH_OFFSETS = (0.0, 1.0, 2.0, 4.0, 8.0)
#: breakpoints (in σ) about a flat level or a kink's image on the V'-adapted y panels
_Y_FEATURE_OFFSETS = (0.0, 2.0, 4.0, 8.0, 16.0)
#: the most (ω, y) nodes of one sum at level 2 (8 bytes each, a few arrays live at once)
MAX_CELLS = 10_000_000
#: panel width of the smooth noisy channel's y rule (in σ) and t rule (in σ/(√V' max|g'|)):
#: tanh + σ = 1/2 at q = 0.3, 0.8 within 6e-11 of the reference at level 1 and 3e-15 at level 2
#: (widths 6 and 8: 1e-9 and 3e-6 at level 1); its (ω, y, t) nodes at level 2 at most
#: MAX_SMOOTH_CELLS (~1.5 s an average; tanh + 1/2 has 1.5e7)
_SMOOTH_W = 4.0
MAX_SMOOTH_CELLS = 100_000_000


def _log_normal(x: np.ndarray, mean: np.ndarray | float, var: float | np.ndarray) -> np.ndarray:
    return -0.5 * (x - mean) ** 2 / var - 0.5 * np.log(2.0 * np.pi * var)


def _phi_diff(a: np.ndarray, b: np.ndarray, c: float = 0.0, d: float = 0.0) -> np.ndarray:
    """Φ(b) − Φ(a) for a <= b, from the side of the smaller tail (no difference of two numbers
    near 1); ``c``, ``d`` the ends of the piece (an infinite end needs one Φ)."""
    if c == -_INF:
        return special.ndtr(b)
    if d == _INF:
        return special.ndtr(-a)
    right = a > 0
    return special.ndtr(np.where(right, -a, b)) - special.ndtr(np.where(right, -b, a))


def _moments(a: np.ndarray, b: np.ndarray, c: float,
             d: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """∫_a^b t^k φ(t) dt for k = 0, 1, 2: Φ(b) − Φ(a), φ(a) − φ(b), Φ(b) − Φ(a) + aφ(a) − bφ(b)
    (a term at an infinite end is 0; ``c``, ``d`` the piece's ends, as in :func:`_phi_diff`)."""
    t0 = _phi_diff(a, b, c, d)
    pa = phi(a) if math.isfinite(c) else np.zeros_like(t0)
    pb = phi(b) if math.isfinite(d) else np.zeros_like(t0)
    ta = a * pa if math.isfinite(c) else pa
    tb = b * pb if math.isfinite(d) else pb
    return t0, pa - pb, t0 + ta - tb


def _grid_average(Z: np.ndarray, dZ: Any, V1: float, ww: np.ndarray, wy: np.ndarray,
                  what: str) -> float:
    """Σ over the (ω, y) grid of (V'∂Z)²/(V'² Z) (``what`` "Q") or Z ln Z (else), points
    where Z underflowed to 0 dropped."""
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        if what == "Q":
            val = np.where(Z > 0, dZ * dZ / Z, 0.0) / (V1 * V1)
        else:
            val = np.where(Z > 0, Z * np.log(Z), 0.0)
    return float(ww @ val @ wy)


@dataclass(frozen=True)
class _AdditiveNoise(ChannelNumerics):
    """What the channels y = g(z') + σε (σ > 0) share: Q and ΔΨ from one (ω, y) average
    (``_avg``) and the marginal's entropy (``_plogp``), and I(y; z') = h(y) − ½ ln(2πeσ²)."""

    c_continuous: float = 1.0

    @property
    def sigma(self) -> float:
        return float(self.channel.noise)

    def _avg(self, q: float, level: int, V: float | None, what: str) -> float:
        raise NotImplementedError

    def _plogp(self, level: int) -> float:
        raise NotImplementedError

    def Q(self, q: float, level: int = 1, V: float | None = None) -> float:
        return self._avg(q, level, V, "Q")

    def dpsi(self, q: float, level: int = 1, V: float | None = None) -> float:
        return self._avg(q, level, V, "psi") - self._plogp(level)

    def info_full(self) -> float:
        """I(y; z') = h(y) − ½ ln(2πeσ²)."""
        return -self._plogp(2) - 0.5 * math.log(2.0 * math.pi * math.e * self.sigma ** 2)


@dataclass(frozen=True)
class _PiecewiseNoisy(_AdditiveNoise):
    """y = g(z') + σ ε, σ > 0, with g = a z + b on each piece (c, d) of the line (sign, door,
    abs, relu): Z_out and ∂_ω Z_out in closed form per piece,

        ∫_c^d N(z; ω, V') N(y; a z + b, σ²) dz = N(y; aω + b, a²V' + σ²) [Φ(d') − Φ(c')],

    c' = (c − m)/τ, m = (ωσ² + aV'(y − b))/(a²V' + σ²), τ² = V'σ²/(a²V' + σ²), and
    ∂_ω Z_out = (1/V') ∫ (z − ω) N(z; ω, V') P(y | z) dz (Stein), so the averages over (ω, y)
    are two-dimensional composite Gauss–Legendre sums (ω with breakpoints at the pieces' ends,
    width √V'; y in panels of width 2σ, the integrand being a Gaussian convolution in y)."""

    pieces: tuple[tuple[float, float, float, float], ...] = ()

    @property
    def jumps(self) -> bool:
        if self.channel.probit != 0:
            return False
        ps = sorted(self.pieces)
        return any(a1 * d1 + b1 != a2 * c2 + b2
                   for (_c1, d1, a1, b1), (c2, _d2, a2, b2) in itertools.pairwise(ps))

    def _ends(self) -> list[float]:
        return sorted({e for c, d, _a, _b in self.pieces for e in (c, d) if math.isfinite(e)})

    def cells(self) -> int:
        """The most (ω, y) nodes of one sum at level 2 (before any of them is built): the y
        panels of :meth:`_ygrid` and the ω panels of :meth:`_wgrid` with every feature's
        breakpoints distinct."""
        ny = sum(len(gauss_panels(lo, hi, self._switches(), _YW * self.sigma, 1,
                                  _SWITCH_OFFSETS)) - 1 for lo, hi in self._yspans())
        sd = math.sqrt(self.rho)
        feats = [(0.0, sd), *[(e, 1e-12 * sd) for e in self._ends()]]
        nw = len(gauss_panels(-_T * sd, _T * sd, feats, _WW * sd, 1)) - 1
        return 4 * _NODES_2D * _NODES_2D * ny * nw

    def _yspans(self) -> list[list[float]]:
        """The intervals of y covering g(z) ± 10σ for |z| <= 10√ρ', overlaps merged."""
        r, sig = math.sqrt(self.rho1), self.sigma
        spans = []
        for c, d, a, b in self.pieces:
            lo, hi = max(c, -_T * r), min(d, _T * r)
            if lo < hi:
                v = (a * lo + b, a * hi + b)
                spans.append((min(v) - _T * sig, max(v) + _T * sig))
        spans.sort()
        merged = [list(spans[0])]
        for lo, hi in spans[1:]:
            if lo <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        return merged

    def _switches(self) -> list[tuple[float, float]]:
        """(centre, width) where the labels' density switches from one flat level b to the
        next: between two levels Δb apart, ln Z_out holds ln cosh(Δb·(y − mid)/2σ²), analytic
        only in a strip of half-width πσ²/Δb about the real line, much narrower than the
        panels of 2σ when σ < Δb (σ = 1/5 on sign: a 7.7e-11 error of ∫ p ln p at level 1).
        Breakpoints at the switch and 1, 2, 4, 8 times 4σ²/Δb either side
        (:data:`_SWITCH_OFFSETS`; the switch moves with ω/√V' as q → ρ): level 1 then matches
        an mpmath reference to rounding at σ = 1/10 … 1, and level 3 within 2e-15 up to
        q = ρ(1 − 10⁻⁹) at σ = 1/5 (without the 8: 1e-14; with 1 and 2 only: 7e-13), with
        1.33× the y nodes at σ = 1/5 (the full grading of :func:`gauss_panels`, down to 1/8
        of the width and out to 4096 times it: 2×, for the same digits)."""
        bs = sorted({b for _c, _d, a, b in self.pieces if a == 0})
        return [((b1 + b2) / 2, 4.0 * self.sigma ** 2 / (b2 - b1))
                for b1, b2 in itertools.pairwise(bs)]

    def _ygrid(self, level: int, V: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """Nodes and weights in y covering g(z) ± 10σ for |z| <= 10√ρ', on the panels of
        :meth:`_yedges`."""
        xs, ws = [], []
        for edges in self._yedges(level, V):
            x, w = nodes(edges, _NODES_2D)
            xs.append(x)
            ws.append(w)
        return np.concatenate(xs), np.concatenate(ws)

    def _yedges(self, level: int, V: float) -> list[np.ndarray]:
        """The y panels of each span at ``level`` for the averages at V'.

        Everywhere: panels of 2σ (:data:`_YW`) with the switches' breakpoints. Where a
        piece has a slope a, its Gaussian in y has the width √(a²V' + σ²), larger than σ, and
        the integrand changes on the scale σ only within ~16σ of a flat level b or of a kink's
        image g(c) (the Φ factor of the piece switches there: its argument moves with y at the
        rate a√V'/(σ√(a²V' + σ²)) <= 1/σ, and where the switch lies further from g(c) the
        Gaussian holds less than e^(−32) of its mass there). So the V'-adapted panels are
        2√(min a²V' + σ²) wide, with breakpoints at 0, 2, 4, 8, 16σ
        (:data:`_Y_FEATURE_OFFSETS`) about each flat level and kink image, and the switches';
        taken when they are fewer (abs with σ = 1/5: 3.0× fewer at q = 10⁻³ρ, 1.5× at 0.9ρ,
        none as q → ρ). Calibrated against the 2σ panels at level 3 on sign, door, abs, relu,
        a leaky relu and a clip with σ = 1/20 … 1 and q/ρ = 10⁻⁶ … 1 − 10⁻⁸: level 1 within
        ~1e-13 of it wherever the 2σ panels are. Level 2 halves every panel of level 1."""
        spans = self._yspans()
        fixed = [gauss_panels(lo, hi, self._switches(), _YW * self.sigma, level,
                              _SWITCH_OFFSETS) for lo, hi in spans]
        slopes = [a for _c, _d, a, _b in self.pieces if a != 0]
        if not slopes or V <= 0:
            return fixed
        sig = self.sigma
        width = math.sqrt(min(a * a for a in slopes) * V + sig * sig)
        feats = [(b, sig) for _c, _d, a, b in self.pieces if a == 0]
        feats += [(a * e + b, sig) for c, d, a, b in self.pieces if a != 0
                  for e in (c, d) if math.isfinite(e)]
        adapted = []
        for lo, hi in spans:
            adapted.append(halve(np.union1d(
                gauss_panels(lo, hi, feats, _YW * width, 1, _Y_FEATURE_OFFSETS),
                gauss_panels(lo, hi, self._switches(), 0.0, 1, _SWITCH_OFFSETS)), level))
        if sum(map(len, adapted)) < sum(map(len, fixed)):
            return adapted
        return fixed

    def _wgrid(self, q: float, V: float, level: int) -> tuple[np.ndarray, np.ndarray]:
        """Nodes of ω ~ N(0, q) and weights with the density (one node when q = 0)."""
        if q <= 0:
            return np.zeros(1), np.ones(1)
        sd, s = math.sqrt(q), math.sqrt(V)
        feats = [(0.0, sd), *[(e, s) for e in self._ends()]]
        x, w = nodes(gauss_panels(-_T * sd, _T * sd, feats, _WW * sd, level), _NODES_2D)
        return x, w * phi(x / sd) / sd

    def _core(self, w: np.ndarray, y: np.ndarray, V: float,
              grad: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Z_out(y, ω, V') and V'·∂_ω Z_out on the grid ω × y (V = V'), in linear space: every
        term is a product of positive factors (a flat piece's is an outer product of a function
        of ω and a Gaussian in y), and a point where Z_out underflows to 0 carries a weight
        below e^(−700) (it is dropped by the callers)."""
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            return self._core_terms(w, y, V, grad)

    def _core_terms(self, w: np.ndarray, y: np.ndarray, V: float,
                    grad: bool) -> tuple[np.ndarray, np.ndarray]:
        s, sig2 = math.sqrt(V), self.sigma ** 2
        W, Y = w[:, None], y[None, :]
        flat_w, flat_y, flat_g = [], [], []
        Z = np.zeros((len(w), len(y)))
        dZ = np.zeros_like(Z) if grad else Z
        for c, d, a, b in self.pieces:
            if a == 0:
                cp, dp = (c - w) / s, (d - w) / s
                flat_w.append(_phi_diff(cp, dp, c, d))
                flat_g.append(s * (phi(cp) - phi(dp)))
                flat_y.append(np.exp(_log_normal(y, b, sig2)))
                continue
            S2 = a * a * V + sig2
            n = np.exp(_log_normal(Y, a * W + b, S2))
            # the product's mean m = ω + dm, with dm = aV'(y − b − aω)/(σ² + a²V') taken
            # directly: m − ω as a difference lost ε|ω| against V', so (V'∂_ω Z)²/V'² grew as
            # (ε/V')² (noisy abs, σ = 1/20: Q = 402 for 400 at V' = 1e-16, 2.6e27 at 1e-30,
            # NaN at 5e-179, where a Rademacher prior's mmse goes past q̂ ≈ 800)
            dm = a * V * (Y - b - a * W) / S2
            tau = s * math.sqrt(sig2 / S2)
            cp, dp = ((c - W) - dm) / tau, ((d - W) - dm) / tau
            mass = n * _phi_diff(cp, dp, c, d)
            Z = Z + mass
            if grad:
                dZ = dZ + dm * mass
                for e, end, sgn in ((cp, c, 1.0), (dp, d, -1.0)):
                    if math.isfinite(end):
                        dZ = dZ + sgn * tau * n * phi(e)
        if flat_w:
            ny = np.stack(flat_y)
            Z = Z + np.stack(flat_w, axis=1) @ ny
            if grad:
                dZ = dZ + np.stack(flat_g, axis=1) @ ny
        return Z, dZ

    def _mirror(self) -> str:
        """'even' when g(−z) = g(z) (abs, door, …), 'odd' when g(−z) = −g(z) (sign, …), else
        '' (relu): the pieces are their own mirror image."""
        ps = set(self.pieces)
        if all((-d, -c, -a, b) in ps for c, d, a, b in ps):
            return "even"
        if all((-d, -c, a, -b) in ps for c, d, a, b in ps):
            return "odd"
        return ""

    def _fold(self, w: np.ndarray, ww: np.ndarray, y: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
        """The ω > 0 half of a grid symmetric about ω = 0, its weights doubled, where the (ω, y)
        sum is even in ω: Z_out(y, −ω) = Z_out(y, ω) for an even g, = Z_out(−y, ω) for an odd
        g on a y-grid symmetric about 0 (then each y-sum at −ω is the one at ω, term by term).
        The same sum at half the cost (the grids are symmetric by construction: breakpoints at
        ±each feature, every feature centred at 0 or paired; checked here, else no fold)."""
        kind = self._mirror()
        if not kind or len(w) < 2:
            return w, ww
        if kind == "odd" and not np.allclose(y, -y[::-1], rtol=0.0,
                                             atol=1e-13 * float(np.max(np.abs(y)))):
            return w, ww
        pos = w > 0
        sd = float(np.max(np.abs(w)))
        if (2 * int(pos.sum()) != len(w)
                or not np.allclose(w[pos], -w[~pos][::-1], rtol=0.0, atol=1e-13 * sd)
                or not np.allclose(ww[pos], ww[~pos][::-1], rtol=1e-12, atol=0.0)):
            return w, ww
        return w[pos], 2.0 * ww[pos]

    def _avg(self, q: float, level: int, V: float | None, what: str) -> float:
        V1 = self.V1(q, V)
        if V1 < _V_TINY:
            return self._at_rho(what)
        w, ww = self._wgrid(q, V1, level)
        y, wy = self._ygrid(level, V1)
        w, ww = self._fold(w, ww, y)
        bands = self._bands(w, y, V1)
        if bands is None:
            Z, dZ = self._core(w, y, V1, grad=what == "Q")
            return _grid_average(Z, dZ, V1, ww, wy, what)
        total = 0.0
        for i, keep in bands:
            Z, dZ = self._core(w[i:i + _NODES_2D], y[keep], V1, grad=what == "Q")
            total += _grid_average(Z, dZ, V1, ww[i:i + _NODES_2D], wy[keep], what)
        return total

    def _bands(self, w: np.ndarray, y: np.ndarray, V: float
               ) -> list[tuple[int, np.ndarray]] | None:
        """The same (ω, y) sum without its negligible terms, panel by panel in ω: for the ω of
        one panel z' lies within 10√V' of ω and y within 10σ of g(z'), so only the y nodes of
        that band enter (the others weigh below e^(−50) of the integrand, as beyond the spans
        of :meth:`_yspans`). Returns (first ω node of the panel, y nodes kept) for each panel
        with any, or None when the bands would keep more than half the nodes (small q: the
        whole tensor in one product is then cheaper). At V' = 10⁻³ρ' (σ = 1/5) abs keeps about
        a fifth of the nodes: the sum is 2–5× faster, equal to rounding."""
        sv, reach = math.sqrt(V), _T * self.sigma
        out, kept = [], 0
        for i in range(0, len(w), _NODES_2D):
            lo, hi = self._g_range(float(w[i]) - _T * sv,
                                   float(w[min(i + _NODES_2D, len(w)) - 1]) + _T * sv)
            keep = (y >= lo - reach) & (y <= hi + reach)
            n = int(keep.sum())
            if n:
                out.append((i, keep))
                kept += n * min(_NODES_2D, len(w) - i)
        return out if 2 * kept < len(w) * len(y) else None

    def _g_range(self, a: float, b: float) -> tuple[float, float]:
        """min and max of g over [a, b] (g linear on each piece: its values at the ends of
        [a, b] and at the pieces' ends inside)."""
        vals = []
        for c, d, sl, b0 in self.pieces:
            lo, hi = max(a, c), min(b, d)
            if lo <= hi:
                vals += [sl * lo + b0, sl * hi + b0]
        return min(vals), max(vals)

    def _at_rho(self, what: str) -> float:
        """The limit V' → 0 (q = ρ, no noise inside φ): Z_out = N(y; g(ω), σ²), so
        Q = E g'(ω)²/σ² (infinite when g jumps) and ΔΨ = I(y; z)."""
        if what != "Q":     # E ln N(y; g(ω), σ²) = −½ ln(2πeσ²)
            return -0.5 * math.log(2.0 * math.pi * math.e * self.sigma ** 2)
        if self.jumps:
            return math.inf
        r = math.sqrt(self.rho1)
        return sum(a * a * float(_phi_diff(np.array(c / r), np.array(d / r), c, d))
                   for c, d, a, _b in self.pieces) / self.sigma ** 2

    def _marginal(self, level: int, V: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """y nodes, weights and p(y) = Z_out(y, 0, ρ') (on the y panels of the averages at V'
        = ``V``; the fixed 2σ panels at 0)."""
        y, wy = self._ygrid(level, V)
        p, _ = self._core(np.zeros(1), y, self.rho1, grad=False)
        return y, wy, p[0]

    def _plogp(self, level: int) -> float:
        # the panels of the ψ-average at q = 0 (V' = ρ'), so that ΔΨ(0) = 0 exactly
        _y, wy, p = self._marginal(level, self.rho1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(wy @ np.where(p > 0, p * np.log(p), 0.0))

    def m2_spread(self, level: int = 2) -> float:
        """∫ (M₂(y) − ρ' p(y))²/p(y) dy, M₂(y) = ∫ z² N(z; 0, ρ') P(y | z) dz in closed form per
        piece (the truncated second moment of N(m, τ²) on (c, d)), on the y-grid of ``level``."""
        y, wy, p = self._marginal(level)
        r2, sig2 = self.rho1, self.sigma ** 2
        m2 = np.zeros_like(y)
        for c, d, a, b in self.pieces:
            S2 = a * a * r2 + sig2
            m = a * r2 * (y - b) / S2
            tau = math.sqrt(r2 * sig2 / S2) if a else math.sqrt(r2)
            t0, t1, t2 = _moments((c - m) / tau, (d - m) / tau, c, d)
            trunc = m * m * t0 + 2.0 * m * tau * t1 + tau * tau * t2     # ∫ (m + τt)² φ
            m2 = m2 + np.exp(_log_normal(y, b, S2)) * trunc
        with np.errstate(invalid="ignore", divide="ignore"):
            val = np.where(p > 0, (m2 - r2 * p) ** 2 / p, 0.0)
        return float(wy @ val)

    def _eg2(self) -> float:
        """E g(z')², z' ~ N(0, ρ'), in closed form per piece."""
        r = math.sqrt(self.rho1)
        tot = 0.0
        for c, d, a, b in self.pieces:
            t0, t1, t2 = _moments(np.array(c / r), np.array(d / r), c, d)
            tot += float(a * a * r * r * t2 + 2.0 * a * b * r * t1 + b * b * t0)  # ∫ (art + b)² φ
        return tot

    def gen_error(self, q: float, level: int = 1, V: float | None = None) -> float:
        """E(y − ŷ)², ŷ = E[y | ω] = Σ (aω + b)ΔΦ + a√V'(φ(c') − φ(d')): σ² + E g² − E ŷ²."""
        V1 = self.V1(q, V)
        s = math.sqrt(V1)
        if V1 < _V_TINY:          # q = ρ: ŷ = g(ω) exactly
            return self.sigma ** 2

        def f(w: np.ndarray) -> np.ndarray:
            yhat = np.zeros_like(w)
            for c, d, a, b in self.pieces:
                t0, t1, _ = _moments((c - w) / s, (d - w) / s, c, d)
                yhat = yhat + (a * w + b) * t0 + a * s * t1        # ∫ (a(ω + st) + b) φ
            return yhat * yhat

        feats = [(e, s) for e in self._ends()]
        return (self.sigma ** 2 + self._eg2()
                - normal_weight_integral(f, 0.0, math.sqrt(q), feats, level))


@dataclass(frozen=True)
class _SmoothNoisy(_AdditiveNoise):
    """y = g(z') + σ ε, σ > 0, g smooth (no kink or jump: tanh, erf, polynomials, …): Z_out has
    no closed form, so the z-integral given ω is a third quadrature. With z = ω + √V' t,

        Z_out(y, ω, V') = E_t N(y; g(ω + √V' t), σ²),  V'·∂_ω Z_out = E_t √V' t N(y; g(…), σ²)

    (Stein), E_t over t ~ N(0, 1) by composite Gauss–Legendre on |t| <= 10 in panels within
    which g moves by at most 4σ (so the Gaussian in y is resolved), y in panels of 4σ, ω as
    for the piecewise-linear channels; level 2 halves every panel of the three rules."""

    expr_text: str = ""
    #: g(−z) = −g(z) identically (sympy): with an even g (``mean_free``) the averages are even
    #: in ω, so only ω > 0 is summed
    odd: bool = False

    def _g(self) -> tuple[Any, Any]:
        """g and g' as numpy functions."""
        return _smooth_functions(self.expr_text)

    def _span(self) -> tuple[float, float, float]:
        """(min g, max g, max |g'|) over |z'| <= 10√ρ' (a 4001-point grid)."""
        return _smooth_span(self.expr_text, math.sqrt(self.rho1))

    def _tgrid(self, V: float, level: int) -> tuple[np.ndarray, np.ndarray]:
        """t nodes and weights with the normal density."""
        slope = self._span()[2]
        h = 2.0 if slope == 0 else min(2.0, _SMOOTH_W * self.sigma / (math.sqrt(V) * slope))
        t, w = nodes(gauss_panels(-_T, _T, [], h, level), _NODES_2D)
        return t, w * phi(t)

    def _ygrid(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi, _ = self._span()
        edges = gauss_panels(lo - _T * self.sigma, hi + _T * self.sigma, [],
                             _SMOOTH_W * self.sigma, level)
        return nodes(edges, _NODES_2D)

    def _wgrid(self, q: float, level: int) -> tuple[np.ndarray, np.ndarray]:
        if q <= 0:
            return np.zeros(1), np.ones(1)
        sd = math.sqrt(q)
        x, w = nodes(gauss_panels(-_T * sd, _T * sd, [(0.0, sd)], _WW * sd, level), _NODES_2D)
        return x, w * phi(x / sd) / sd

    def cells(self) -> int:
        """(ω, y, t) nodes of one average at level 2 at the widest t rule (V' = ρ')."""
        return len(self._wgrid(self.rho, 2)[0]) * len(self._ygrid(2)[0]) * len(
            self._tgrid(self.rho1, 2)[0])

    def _core(self, w: np.ndarray, y: np.ndarray, V: float, level: int,
              weights: tuple[str, ...] = ("Z", "dZ")) -> list[np.ndarray]:
        """E_t of N(y; g(ω + √V t), σ²) times 1 ("Z"), √V t ("dZ") or (√V t)² ("m2") on the
        grid ω × y: in blocks of ω of at most _SMOOTH_BLOCK (ω, y, t) terms, each laid out
        (ω, y, t) so that the sum over t is one matrix product and the exponent is formed in
        place (exp(−(y/√(2σ²) − g/√(2σ²))²); the normalisation after the sum)."""
        g, _ = self._g()
        t, wt = self._tgrid(V, level)
        s, sig2 = math.sqrt(V), self.sigma ** 2
        vec = {"Z": wt, "dZ": wt * s * t, "m2": wt * V * t * t}
        W = np.stack([vec[k] for k in weights], axis=1)              # (nt, m)
        c = 1.0 / math.sqrt(2.0 * sig2)
        ys = y * c
        nt, ny, m = len(t), len(y), len(weights)
        R = np.empty((len(w), ny, m))
        step = max(1, _SMOOTH_BLOCK // (nt * ny))

        def block(lo: int) -> None:
            # the blocks are fixed by _SMOOTH_BLOCK, not by the threads that take them
            G = g(w[lo:lo + step, None] + s * t[None, :]) * c        # (b, nt)
            b = len(G)
            E = np.subtract(ys[None, :, None], G[:, None, :])        # (b, ny, nt)
            np.square(E, out=E)
            np.negative(E, out=E)
            np.exp(E, out=E)
            np.matmul(E.reshape(b * ny, nt), W, out=R[lo:lo + b].reshape(b * ny, m))

        run_pieces(block, range(0, len(w), step))
        norm = 1.0 / math.sqrt(2.0 * math.pi * sig2)
        return [R[:, :, i] * norm for i in range(m)]

    def _avg(self, q: float, level: int, V: float | None, what: str) -> float:
        V1 = self.V1(q, V)
        v_lo = _SMOOTH_V_SMALL * self.rho1
        if v_lo > V1:
            # the average is analytic in V' (g smooth, σ > 0), and below v_lo the quadrature
            # loses digits (tanh, σ = 1/2: the levels part by 4.5e-10 at V' = 1e-16, 6e-3 at
            # 1e-30): linear between its V' = 0 limit and its value at v_lo, off by at most
            # Q''v_lo²/8 (tanh, σ = 1/5: Q'' ≈ 5e3 from the slopes at 1e-4 and 1e-6, so 6e-14
            # of Q ≈ 11.6)
            lim = self._at_rho(what)
            return lim + (self._avg(q, level, v_lo - self.sin2, what) - lim) * (V1 / v_lo)
        w, ww = self._wgrid(q, level)
        if self.mean_free or self.odd:
            # (ω, y) and (−ω, y) (even g) or (−ω, −y) (odd g) carry the same (∂_ω Z)²/Z and
            # Z ln Z (t ↦ −t): the ω > 0 half, twice (the ω rule is symmetric, no node at 0)
            w, ww = w[w > 0], 2.0 * ww[w > 0]
        y, wy = self._ygrid(level)
        parts = self._core(w, y, V1, level, ("Z", "dZ") if what == "Q" else ("Z",))
        return _grid_average(parts[0], parts[-1], V1, ww, wy, what)

    def _at_rho(self, what: str) -> float:
        """V' → 0: Z_out = N(y; g(ω), σ²): Q = E g'(ω)²/σ², and the entropy term −½ ln(2πeσ²)."""
        if what != "Q":
            return -0.5 * math.log(2.0 * math.pi * math.e * self.sigma ** 2)
        _, gp = self._g()
        t, wt = self._tgrid(self.rho1, 2)
        return float(wt @ gp(math.sqrt(self.rho1) * t) ** 2) / self.sigma ** 2

    def _plogp(self, level: int) -> float:
        y, wy = self._ygrid(level)
        (p,) = self._core(np.zeros(1), y, self.rho1, level, ("Z",))
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(wy @ np.where(p[0] > 0, p[0] * np.log(p[0]), 0.0))

    def m2_spread(self, level: int = 2) -> float:
        """∫ (M₂(y) − ρ' p(y))²/p(y) dy, M₂(y) = E_t ρ' t² N(y; g(√ρ' t), σ²), at ``level``."""
        y, wy = self._ygrid(level)
        p, m2 = self._core(np.zeros(1), y, self.rho1, level, ("Z", "m2"))
        with np.errstate(invalid="ignore", divide="ignore"):
            val = np.where(p[0] > 0, (m2[0] - self.rho1 * p[0]) ** 2 / p[0], 0.0)
        return float(wy @ val)

    def gen_error(self, q: float, level: int = 1, V: float | None = None) -> float:
        """E(y − ŷ)² = σ² + E_ω Var(g(ω + √V' t) | ω), ŷ(ω) = E_t g(ω + √V' t)."""
        V1 = self.V1(q, V)
        if V1 < _V_TINY:
            return self.sigma ** 2
        g, _ = self._g()
        w, ww = self._wgrid(q, level)
        t, wt = self._tgrid(V1, level)
        G = g(w[:, None] + math.sqrt(V1) * t[None, :])
        mean = G @ wt
        var = np.maximum(((G - mean[:, None]) ** 2) @ wt, 0.0)
        return self.sigma ** 2 + float(ww @ var)


#: the noisy square's tails: ω, the field x given ω and the label noise are cut at this many
#: standard deviations (each Gaussian factor below e^(−40.5) ≈ 2.6e-18 of its peak there; ω and
#: x jointly: ω²/q + t² <= 9², t = (x − ω)/√V', with at least 2 standard deviations of x)
_SQ_R = 9.0
#: its panel widths at levels 1 and 2 (level 2 has 16 nodes a panel instead of 12, _SQ_NODES;
#: level 3 halves every panel): x in units of √V' where the
#: Gaussian in x is the narrower factor and u = x² in units of σ where N(y; x², σ²) is
#: (``_SQ_CX``, ``_SQ_CU``); y in units of the scale L(y) on which Z_out varies (``_SQ_CY``,
#: :meth:`_SquareNoisy._y_metric`); ω in units of √q (``_SQ_CW``), graded below from √V' by
#: factors 2^``_SQ_CG`` (up to 256√V'). Measured against a reference grid (these widths 2/3 or
#: 1/2 as wide, then halved; σ = 1/100, 1/10, 1, 3, and σ = 1/2 with σ_in = 1/3; q/ρ = 10⁻³,
#: 0.3, 0.8, 0.99, 1 − 10⁻⁶): level 1 within 3.5e-11 (Q) and 5e-12 (the Z ln Z average),
#: level 2 (then halved panels, 12 nodes) within 3e-14; y panels of 3L instead: 1e-8. Level 2
#: as it is now (16 nodes on level 1's panels), against the former level 3 (12 nodes on panels
#: a quarter as wide in x and y, half in ω) at those σ and q/ρ = 10⁻³, 0.3, 0.9, 0.999, Q and
#: Z ln Z: within 8.4e-15 (σ = 1/100, q/ρ = 10⁻³; the halved level 2 there 1.2e-14), within
#: 3e-15 elsewhere but 6.6e-15 (σ = 3, q/ρ = 10⁻³); it differs from level 1 as the halved one
#: did (to the first two digits of every difference), so the digits printed are the same. The
#: two levels agree within 3e-12 down to V' = 10⁻¹⁰ρ'; at V' = 10⁻¹² only 3e-10 (x − ω rounds
#: to 1e-16·ω against √V' = 1e-6), which the printed digits show. One average with the C sum
#: (two threads): ~5 ms at level 1, ~15 ms at level 2 (the halved level 2 took ~45 ms)
_SQ_CX = 3.0
_SQ_CU = 3.0
_SQ_CY = 2.0
_SQ_CW = 2.0
_SQ_CG = 2.0
#: the most (ω, y, x) nodes of one average at level 2 (measured over σ/ρ' from 10⁻⁶ to 100:
#: 1.8e6 for σ >= ρ'/100, 3.0e6 at σ = 10⁻⁶ρ' and small q; a guard)
MAX_SQUARE_CELLS = 20_000_000
#: the smallest σ/ρ' of the noisy square: below it x² − y (x² ~ 100ρ') is not resolved on the
#: scale σ in double precision (measured at ρ = 1: σ = 10⁻⁶ keeps both levels within 3e-11 of
#: each other and of the noiseless limit, 10⁻⁷ only 3e-10, 10⁻⁹ 2e-8); Q(σ) − Q(0) = O(σ²)
_SQ_SIGMA_MIN = 1e-6
#: below V' = this·ρ' a smooth noisy channel's averages are interpolated to their V' = 0 limit
#: (tanh at σ = 1/2 and 1/5: the two levels agree within 2e-14 down to 1e-8, 4e-13 at 1e-10)
_SMOOTH_V_SMALL = 1e-8
#: the (ω, y, t) terms a smooth noisy channel's sum forms at once (1.6 MB: it stays in cache;
#: tanh, σ = 1/5: 6 ms a coarse average at q = 0.3 against 18 ms for the former 4e6 terms laid
#: out (ω, t, y), whose sum over t copied the block)
_SMOOTH_BLOCK = 200_000

#: below V' = this·ρ' the noisy square's averages are interpolated to their V' = 0 limit
#: (x − ω rounds to 1e-16·ω: at V' = 1e-12ρ' the two levels part by 3e-10, at 1e-10ρ' they
#: agree within 6e-12; at V' = 1e-24 the quadrature gave Q 10⁵ times too large)
_SQ_V_SMALL = 1e-10
#: the (ω, y, x) nodes the numpy path evaluates at once (memory: a few arrays of this length;
#: 1e5 took 13 ms a coarse average against 31 ms for 1e6, measured at σ = 1, q = 0.01–0.999)
_SQ_BLOCK = 100_000
#: the noisy square's Gauss–Legendre nodes a panel at levels 1 and 2 (the same panels): its
#: second resolution raises the degree instead of halving every panel, 16³/12³ = 2.4 times the
#: nodes of level 1 instead of 8 (measured against the former level 3 at σ = 1/100, 1/10, 1,
#: 3 and q/ρ = 10⁻³, 0.3, 0.9, 0.999: see the note at _SQ_CX)
_SQ_NODES = {1: _NODES_2D, 2: 16}
_SQ_GL = {k: np.polynomial.legendre.leggauss(n) for k, n in _SQ_NODES.items()}


@dataclass(frozen=True)
class _SquareNoisy(_AdditiveNoise):
    r"""y = z'² + σε, σ > 0 (noisy phase retrieval; z' = z + σ_in ε'): with x the field given
    ω (x ~ N(ω, V')),

        Z_out(y, ω, V') = ∫ N(x; ω, V') N(y; x², σ²) dx
                        = ∫_0^∞ [N(x; ω, V') + N(x; −ω, V')] N(y; x², σ²) dx,

    V'∂_ω Z_out = ∫_0^∞ [(x − ω)N(x; ω, V') − (x + ω)N(x; −ω, V')] N(y; x², σ²) dx (Stein).
    Every average is even in ω (x → −x), so ω runs over [0, 9√q] only (panels of 2√q, graded
    geometrically from √V' below, where the two signs of x compete). The x-integral of each
    (ω, y) runs over where both factors live: x within 9√V' of ω (or of −ω; jointly with ω,
    ω²/q + t² <= 81) and x² within 9σ of y, in panels no wider than 3√V' in x and 3σ in u = x²
    (Gauss–Legendre, 12 nodes at level 1 and 16 at level 2, in x: the integrand is analytic in
    x, not in u at u = 0); y runs
    over x²'s range at that ω, ± 9σ, in panels of 2L(y), L(y) = max(σ, min(y/2, 2√(yV'))) the
    scale on which Z_out varies (σ near y = 0 and for y < 0; a geometric grading by 2 where the
    density of x² is ∝ 1/√u; 2√(yV') where it is a Gaussian in √u). So the nodes sit where
    N(y; x², σ²)·N(x; ω, V') lives and their number hardly depends on σ (the u-panels narrow
    with σ and so does the band of x for each y): <= 3.1e6 at level 2 (16 nodes a panel, the
    same panels), (16/12)³ = 2.4 times fewer at level 1.
    The error E(y − ŷ)² is a closed form (:meth:`gen_error`)."""

    def _y_metric(self, V: float, lo: float, hi: float,
                  width: float) -> tuple[np.ndarray, np.ndarray]:
        """A table (y, s(y)) of the y-metric s = ∫ dy/(width·L(y)) over [lo, hi]."""
        sig = self.sigma
        pos = np.geomspace(min(sig, 1.0) * 1e-3, max(hi, 2e-3 * sig), 400) if hi > 0 else \
            np.empty(0)
        y = np.unique(np.concatenate([[lo, min(hi, 0.0)] if lo < 0 else [lo], pos[pos < hi],
                                      [hi]]))
        y = y[(y >= lo) & (y <= hi)]
        ay = np.abs(y)
        L = np.where(y > 0, np.maximum(sig, np.minimum(0.5 * ay, 2.0 * np.sqrt(ay * V))), sig)
        inv = 1.0 / (width * L)
        s = np.concatenate([[0.0], np.cumsum(0.5 * (inv[1:] + inv[:-1]) * np.diff(y))])
        return y, s

    def _ynodes(self, w: np.ndarray, V: float, level: int, radius: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The y nodes of every ω (row, y, weight) and the x band [lo, hi] of each: x within
        ``radius``·√V' of ω (or of −ω) and x² within 9σ of y."""
        sig, sv = self.sigma, math.sqrt(V)
        k = _sq_scale(level)
        xa = np.maximum(0.0, w - radius * sv)
        xb = w + radius * sv
        ylo, yhi = xa * xa - _SQ_R * sig, xb * xb + _SQ_R * sig
        ytab, stab = self._y_metric(V, float(ylo.min()), float(yhi.max()), _SQ_CY * k)
        s_lo, s_hi = np.interp(ylo, ytab, stab), np.interp(yhi, ytab, stab)
        ny = np.maximum(1, np.ceil(s_hi - s_lo).astype(int))
        row, frac = _ragged(ny)
        step = (s_hi - s_lo)[row] / ny[row]
        ya = np.interp(s_lo[row] + (s_hi - s_lo)[row] * frac, stab, ytab)
        yb = np.interp(s_lo[row] + (s_hi - s_lo)[row] * frac + step, stab, ytab)
        y, wy, yrow = _panel_nodes(ya, yb, row, _sq_rule(level))
        lo = np.maximum(xa[yrow], np.sqrt(np.maximum(0.0, y - _SQ_R * sig)))
        hi = np.minimum(xb[yrow], np.sqrt(np.maximum(0.0, y + _SQ_R * sig)))
        return yrow, y, wy, lo, np.maximum(lo, hi)

    def _xconst(self, V: float, level: int) -> tuple[float, float, float, float]:
        """(c1, c2, xs, s_star) of the x metric S: panels of unit width in S are no wider than
        c1 = 3√V' in x and c2 = 3σ in u = x² (``_SQ_CX``, ``_SQ_CU``; halved at level 3); S is
        x/c1 up to xs, where 2x/c2 overtakes 1/c1, and s_star = S(xs)."""
        k = _sq_scale(level)
        c1, c2 = _SQ_CX * k * math.sqrt(V), _SQ_CU * k * self.sigma
        xs = 0.5 * c2 / c1
        return c1, c2, xs, xs / c1

    def _xmetric(self, V: float, level: int) -> tuple[Any, Any]:
        """S(x) and its inverse (:meth:`_xconst`)."""
        c1, c2, xs, s_star = self._xconst(V, level)

        def S(x: np.ndarray) -> np.ndarray:
            return np.where(x <= xs, x / c1, s_star + (x * x - xs * xs) / c2)

        def S_inv(s: np.ndarray) -> np.ndarray:
            return np.where(s <= s_star, s * c1,
                            np.sqrt(xs * xs + np.maximum(s - s_star, 0.0) * c2))

        return S, S_inv

    def _xpanels(self, lo: np.ndarray, hi: np.ndarray, V: float,
                 level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """S(lo), S(hi) and the number of x panels of each (ω, y) band (0 when empty)."""
        S, _ = self._xmetric(V, level)
        Slo, Shi = S(lo), S(hi)
        nx = np.where(hi > lo, np.maximum(1.0, np.ceil(Shi - Slo)), 0.0).astype(int)
        return Slo, Shi, nx

    def _nodes3(self, w: np.ndarray, V: float, level: int, radius: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                           np.ndarray]:
        """(row, y, weight) of every y node and (pair, x, weight) of every x node."""
        yrow, y, wy, lo, hi = self._ynodes(w, V, level, radius)
        Slo, Shi, nx = self._xpanels(lo, hi, V, level)
        _, S_inv = self._xmetric(V, level)
        pair, frac = _ragged(nx)
        step = (Shi - Slo)[pair] / nx[pair]
        base = Slo[pair] + (Shi - Slo)[pair] * frac
        x, wx, xpair = _panel_nodes(S_inv(base), S_inv(base + step), pair, _sq_rule(level))
        return yrow, y, wy, xpair, x, wx

    def _pairs(self, w: np.ndarray, V: float, level: int, radius: np.ndarray,
               moments: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """(row of each y node, y weights, [Z, V'∂_ω Z or M₂ = ∫ x² … at each (ω, y)]): by the
        C extension when it was built (``_native.square_moments``, a port of
        :meth:`_pairs_numpy`'s sums), else by numpy."""
        native = square_kernel()
        if native is None:
            return self._pairs_numpy(w, V, level, radius, moments)
        yrow, y, wy, lo, hi = self._ynodes(w, V, level, radius)
        Slo, Shi, nx = self._xpanels(lo, hi, V, level)
        out = {m: np.empty(len(y)) for m in moments}
        gx, gw = _sq_rule(level)
        wp, nxf, xc = np.ascontiguousarray(w[yrow]), nx.astype(float), self._xconst(V, level)

        def piece(sl: slice) -> None:
            # each pair's sums are whole in one piece (the kernel adds nothing across pairs):
            # where the pairs are cut, which depends on the thread count, changes no bit
            native.square_moments(wp[sl], y[sl], Slo[sl], Shi[sl], nxf[sl], gx, gw,
                                  *(out[m][sl] if m in out else None
                                    for m in ("Z", "dZ", "m2")),
                                  V, self.sigma, *xc)

        # several pieces a thread, taken in turn: a pair's cost is not quite its node count
        # (exp is skipped below −746), so equal counts do not make equal times
        run_pieces(piece, _even_slices(nxf, 8 * thread_count()))
        norm = 1.0 / (2.0 * math.pi * math.sqrt(V) * self.sigma)
        return yrow, wy, [out[m] * norm for m in moments]

    def _pairs_numpy(self, w: np.ndarray, V: float, level: int, radius: np.ndarray,
                     moments: tuple[str, ...]
                     ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """:meth:`_pairs` in numpy, every (ω, y, x) node an array entry."""
        yrow, y, wy, xpair, x, wx = self._nodes3(w, V, level, radius)
        wo = w[yrow][xpair]
        em = x - wo                                  # x − ω
        e = y[xpair] - x * x
        e *= e
        e *= -0.5 / self.sigma ** 2
        e -= (0.5 / V) * em * em
        gm = np.exp(e, out=e)
        gm *= wx                                     # w_x N(x; ω, V') N(y; x², σ²) up to norm
        ratio = x * wo                               # N(x; −ω, V')/N(x; ω, V') = e^(−2xω/V')
        ratio *= -2.0 / V
        np.exp(ratio, out=ratio)
        norm = 1.0 / (2.0 * math.pi * math.sqrt(V) * self.sigma)
        n = len(y)
        out = []
        for m in moments:
            if m == "Z":
                v = gm * (1.0 + ratio)
            elif m == "dZ":                          # (x − ω) gm − (x + ω) gp
                v = gm * (em - (x + wo) * ratio)
            else:
                v = x * x * gm * (1.0 + ratio)
            out.append(np.bincount(xpair, v, minlength=n) * norm)
        return yrow, wy, out

    def _wgrid(self, q: float, V: float, level: int) -> tuple[np.ndarray, np.ndarray]:
        """ω >= 0 nodes with the density of |ω| (one node at 0 when q = 0): panels of 2√q, and
        breakpoints from min(√V', √q/2) up by factors of 4 to min(2√q, 256√V') (where the two
        signs of x compete, ω ≲ √V', the integrand changes on the scale √V')."""
        if q <= 0:
            return np.zeros(1), np.ones(1)
        sd, sv = math.sqrt(q), math.sqrt(V)
        pts = [0.0, *np.arange(1, math.ceil(_SQ_R / _SQ_CW) + 1) * _SQ_CW * sd]
        g = min(sv, sd / 2)
        while g < min(_SQ_CW * sd, 256.0 * sv):
            pts.append(g)
            g *= 2.0 ** _SQ_CG
        # the ω panels are halved once at most (as before the 16-node level 2)
        edges = halve(np.unique(np.clip(pts, 0.0, _SQ_R * sd)), 1 + min(1, _sq_halvings(level)))
        x, w = nodes(edges, len(_sq_rule(level)[0]))
        return x, 2.0 * w * phi(x / sd) / sd

    def _radius(self, q: float, w: np.ndarray) -> np.ndarray:
        """The x cut at each ω: the joint Gaussian weight of (ω, x) kept above e^(−R²/2)."""
        if q <= 0:
            return np.full(len(w), _SQ_R)
        return np.sqrt(np.maximum(_SQ_R ** 2 - w * w / q, 4.0))

    def _avg(self, q: float, level: int, V: float | None, what: str) -> float:
        V1 = self.V1(q, V)
        v_lo = _SQ_V_SMALL * self.rho1
        if v_lo > V1:
            # below it x − ω is not resolved on the scale √V' in double precision: the average
            # is analytic in V' (σ > 0), so it is interpolated linearly between its limit at
            # V' = 0 and its value at V' = v_lo (the neglected O(V'²) term is ~(V'·slope)²/Q:
            # below 1e-12 relative at v_lo = 1e-10ρ', the slope measured ~2e6 at σ = ρ/10)
            lim = self._limit(q, what)
            return lim + (self._avg(q, level, v_lo - self.sin2, what) - lim) * (V1 / v_lo)
        w, ww = self._wgrid(q, V1, level)
        radius = self._radius(q, w)
        total = 0.0
        # numpy holds every node of a block in memory; the C sum only its (ω, y) pairs
        blocks = [slice(0, len(w))] if square_kernel() else self._blocks(w, V1, level, radius)
        for sl in blocks:
            yrow, wy, parts = self._pairs(w[sl], V1, level, radius[sl],
                                          ("Z", "dZ") if what == "Q" else ("Z",))
            Z = parts[0]
            with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
                if what == "Q":
                    val = np.where(Z > 0, parts[1] ** 2 / Z, 0.0) / (V1 * V1)
                else:
                    val = np.where(Z > 0, Z * np.log(Z), 0.0)
            total += float(ww[sl] @ np.bincount(yrow, wy * val, minlength=sl.stop - sl.start))
        return total

    def _blocks(self, w: np.ndarray, V: float, level: int, radius: np.ndarray) -> list[slice]:
        """Slices of the ω nodes holding at most ~_SQ_BLOCK (ω, y, x) nodes each."""
        per = self._counts(w, V, level, radius)
        out, start, acc = [], 0, 0
        for i, c in enumerate(per):
            if acc and acc + c > _SQ_BLOCK:
                out.append(slice(start, i))
                start, acc = i, 0
            acc += c
        out.append(slice(start, len(w)))
        return out

    def _counts(self, w: np.ndarray, V: float, level: int, radius: np.ndarray) -> np.ndarray:
        """The (y, x) nodes of each ω, counted from the panels (no node built)."""
        yrow, _y, _wy, lo, hi = self._ynodes(w, V, level, radius)
        nx = self._xpanels(lo, hi, V, level)[2]
        return len(_sq_rule(level)[0]) * np.bincount(yrow, nx, minlength=len(w)).astype(int)

    def cells(self) -> int:
        """(ω, y, x) nodes of one average at level 2 where they are most, counted from the
        panels: the largest count at q/ρ = 10⁻⁶, 10⁻³, 1/2 and 1 − 10⁻¹³ with V' = ρ − q + σ_in²
        (small σ: largest at small q, the y grading near y = 0 growing with ln(ρ'/σ);
        otherwise at q → ρ, the ω grading growing with ln(q/V') up to 256√V')."""
        best = 0
        for frac in (1e-6, 1e-3, 0.5, 1.0 - 1e-13):
            q = self.rho * frac
            V = self.V1(q, max(self.rho - q, 1e-13 * self.rho))
            w, _ = self._wgrid(q, V, 2)
            best = max(best, int(self._counts(w, V, 2, self._radius(q, w)).sum()))
        return best

    def _limit(self, q: float, what: str) -> float:
        """The average at V' = 0: Z_out = N(y; ω², σ²), ω ~ N(0, q), so Q = E(2ω)²/σ² = 4q/σ²
        and the entropy term is −½ ln(2πeσ²)."""
        if what != "Q":
            return -0.5 * math.log(2.0 * math.pi * math.e * self.sigma ** 2)
        return 4.0 * q / self.sigma ** 2

    def _marginal(self, level: int, moments: tuple[str, ...]
                  ) -> tuple[np.ndarray, list[np.ndarray]]:
        """y weights and [p(y) = Z_out(y, 0, ρ'), …] on the y nodes of ω = 0."""
        zero = np.zeros(1)
        _row, wy, parts = self._pairs(zero, self.rho1, level, self._radius(0.0, zero), moments)
        return wy, parts

    def _plogp(self, level: int) -> float:
        wy, (p,) = self._marginal(level, ("Z",))
        with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
            return float(wy @ np.where(p > 0, p * np.log(p), 0.0))

    def m2_spread(self, level: int = 2) -> float:
        """∫ (M₂(y) − ρ' p(y))²/p(y) dy, M₂(y) = ∫ x² N(x; 0, ρ') N(y; x², σ²) dx, at
        ``level``."""
        wy, (p, m2) = self._marginal(level, ("Z", "m2"))
        with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
            val = np.where(p > 0, (m2 - self.rho1 * p) ** 2 / p, 0.0)
        return float(wy @ val)

    def gen_error(self, q: float, level: int = 1, V: float | None = None) -> float:
        """E(y − ŷ)² in closed form, exact at every level: ŷ(ω) = E[x² | ω] = ω² + V' and
        Var(x² | ω) = 4ω²V' + 2V'² (x ~ N(ω, V')), so σ² + 4qV' + 2V'²."""
        V1 = self.V1(q, V)
        return self.sigma ** 2 + 4.0 * q * V1 + 2.0 * V1 * V1


def _even_slices(work: np.ndarray, n: int) -> list[slice]:
    """At most ``n`` consecutive slices of ``work``'s indices with about equal sums of it."""
    if n <= 1 or len(work) < 2:
        return [slice(0, len(work))]
    cum = np.cumsum(work)
    cuts = np.searchsorted(cum, cum[-1] * np.arange(1, n) / n)
    ends = sorted({0, *(int(c) for c in cuts), len(work)})
    return [slice(a, b) for a, b in itertools.pairwise(ends) if b > a]


def square_kernel() -> Any:
    """The C extension :mod:`fltheory.papers.glm._native` (built by pip when a C compiler is
    there), or None: the one place that asks, so a test can take it away."""
    try:
        from fltheory.papers.glm import _native
    except ImportError:
        return None
    return _native


def _ragged(n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows split into n[i] equal parts: the row of every part and its start j/n[i]."""
    row = np.repeat(np.arange(len(n)), n)
    j = np.arange(len(row)) - np.repeat(np.cumsum(n) - n, n)
    return row, j / np.maximum(n, 1)[row]


def _panel_nodes(a: np.ndarray, b: np.ndarray, row: np.ndarray,
                 rule: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The Gauss–Legendre ``rule`` (nodes, weights on [−1, 1]) on the panels [a, b]: nodes,
    weights and rows."""
    x0, w0 = rule
    half = 0.5 * (b - a)[:, None]
    x = ((a[:, None] + b[:, None]) * 0.5 + half * x0[None, :]).ravel()
    return x, (half * w0[None, :]).ravel(), np.repeat(row, len(x0))


def _sq_halvings(level: int) -> int:
    """How often the noisy square's panels at ``level`` are level 1's halved: levels 1 and 2
    share their panels (level 2 is finer by its rule, :func:`_sq_rule`); level 3 halves them."""
    return max(0, level - 2)


def _sq_scale(level: int) -> float:
    """The noisy square's x and y panel widths at ``level``, in units of level 1's."""
    return 0.5 ** _sq_halvings(level)


def _sq_rule(level: int) -> tuple[np.ndarray, np.ndarray]:
    """The noisy square's Gauss–Legendre rule in ω, y and x: 12 nodes at level 1, 16 from
    level 2 (_SQ_NODES)."""
    return _SQ_GL[min(level, 2)]


@lru_cache(maxsize=32)
def _smooth_functions(text: str) -> tuple[Any, Any]:
    """g and g' of the expression ``text`` as numpy functions."""
    import sympy as sp

    from fltheory.engine.expressions import Z, parse_expression

    expr = parse_expression(text, "channel")

    def vectorised(e: Any) -> Any:
        f = sp.lambdify(Z, e, modules=["scipy", "numpy"])
        return lambda x: np.broadcast_to(np.asarray(f(x), dtype=float), np.shape(x))

    return vectorised(expr), vectorised(sp.diff(expr, Z))


@lru_cache(maxsize=32)
def _smooth_span(text: str, scale: float) -> tuple[float, float, float]:
    """(min g, max g, max |g'|) over |z| <= 10·scale (a 4001-point grid)."""
    g, gp = _smooth_functions(text)
    z = np.linspace(-_T * scale, _T * scale, 4001)
    gz = g(z)
    return float(gz.min()), float(gz.max()), float(np.abs(gp(z)).max())


def _catalogue_pieces(channel: Channel) -> tuple[tuple[float, float, float, float], ...] | None:
    """The linear pieces (c, d, a, b) of a catalogue channel's g, written out (the same tuples
    :func:`_expression_pieces` derives from its text with sympy, whose import a noisy abs or
    relu command otherwise pays for this alone: tests/papers/glm/test_noisy_channels.py
    holds the two equal); None for any other channel."""
    if channel.kind == "abs":
        return ((-_INF, 0.0, -1.0, 0.0), (0.0, _INF, 1.0, 0.0))
    if channel.kind == "relu":
        return ((-_INF, 0.0, 0.0, 0.0), (0.0, _INF, 1.0, 0.0))
    if channel.kind == "sign":
        return ((-_INF, 0.0, 0.0, -1.0), (0.0, _INF, 0.0, 1.0))
    if channel.kind == "door":
        k = float(channel.K)
        return ((-_INF, -k, 0.0, 1.0), (-k, k, 0.0, -1.0), (k, _INF, 0.0, 1.0))
    return None


def _expression_pieces(text: str) -> tuple[tuple[float, float, float, float], ...] | None:
    """The linear pieces (c, d, a, b) of g(z), as floats, or None."""
    from fltheory.engine.expressions import linear_pieces, parse_expression

    exact = linear_pieces(parse_expression(text, "channel"))
    if exact is None:
        return None
    return tuple(tuple(float(v) for v in piece) for piece in exact)  # type: ignore[misc]


@lru_cache(maxsize=32)
def _parity(text: str) -> tuple[bool, bool]:
    """(even, odd) of g: g(−z) = g(z) identically (then E[z | y] = 0), or g(−z) = −g(z)."""
    from fltheory.engine.expressions import Z, equal_expressions, parse_expression

    expr = parse_expression(text, "channel")
    mirror = expr.subs(Z, -Z)
    return equal_expressions(mirror, expr), equal_expressions(mirror, -expr)


def channel_numerics(channel: Channel, rho: float) -> ChannelNumerics:
    """The numerics of ``channel`` at prior second moment ``rho``."""
    kind = channel.kind
    if kind == "linear":
        return _Linear(channel, rho)
    if kind == "door":
        rho1 = rho + float(channel.probit) ** 2
        kappa = float(channel.K) / math.sqrt(rho1)
        if not DOOR_KAPPA[0] <= kappa <= DOOR_KAPPA[1]:
            from fltheory.exact import DomainError

            lo, hi = (f"{b * math.sqrt(rho1):.4g}" for b in DOOR_KAPPA)
            raise DomainError("channel", channel.phi_text,
                              f"a door of half width K in [{lo}, {hi}], i.e. K/√ρ' in "
                              f"[{DOOR_KAPPA[0]:g}, {DOOR_KAPPA[1]:g}] with ρ' = ρ + σ_in² = "
                              f"{rho1:.4g}",
                              reason=f"has K/√ρ' = {kappa:.3g}: " + (
                                  "P(|z| > K) < 10⁻⁸⁸, the labels are constant to double "
                                  "precision (thresholds beyond 10⁸⁶)" if kappa > 1
                                  else "P(|z| < K) < 10⁻³, the curve's spinodals are not "
                                  "resolved (thresholds beyond 10⁴)"))
    if kind == "square" and channel.noise > 0:
        square = _SquareNoisy(channel, rho, mean_free=True)
        if square.sigma < _SQ_SIGMA_MIN * square.rho1:
            from fltheory.exact import DomainError

            raise DomainError("noise", channel.noise,
                              f"noise >= {_SQ_SIGMA_MIN:g}·ρ' = {_SQ_SIGMA_MIN * square.rho1:.3g} "
                              "for the square (double precision resolves x² − y only to "
                              "~1e-16·y; the noiseless square, --noise 0, is within "
                              "O(σ²/ρ'²) < 1e-12 of it)", reason="is too small")
        cells = square.cells()
        if cells > MAX_SQUARE_CELLS:
            from fltheory.exact import CostError

            raise CostError(f"noise = {channel.noise}", cells, MAX_SQUARE_CELLS,
                            "quadrature nodes", "(ω, y, x) nodes of one fine average, "
                            "largest as q → ρ")
        return square
    pieces = None
    if channel.noise > 0:
        pieces = _catalogue_pieces(channel) or _expression_pieces(channel.phi_text)
    if pieces is not None:
        # even g (E[z | y] = 0): the pieces are their own mirror image
        mirror = tuple(sorted((-d, -c, -a, b) for c, d, a, b in pieces))
        numerics = _PiecewiseNoisy(channel, rho, mean_free=mirror == tuple(sorted(pieces)),
                                   pieces=pieces)
        cells = numerics.cells()
        if cells > MAX_CELLS:
            from fltheory.exact import CostError

            raise CostError(f"noise = {channel.noise}", cells, MAX_CELLS, "quadrature nodes",
                            "a y panel every 2σ: a larger --noise")
        return numerics
    if channel.noise > 0 and kind == "expr" and smooth_expression(channel.phi_text):
        even, odd = _parity(channel.phi_text)
        smooth = _SmoothNoisy(channel, rho, mean_free=even, expr_text=channel.phi_text,
                              odd=odd)
        cells = smooth.cells()
        if cells > MAX_SMOOTH_CELLS:
            from fltheory.exact import CostError

            raise CostError(f"noise = {channel.noise}", cells, MAX_SMOOTH_CELLS,
                            "quadrature nodes", "a y panel every 4σ and a z panel every "
                            "4σ/max|g'|: a larger --noise or a flatter g")
        return smooth
    if channel.noise > 0 or kind == "expr":
        from fltheory.exact import DomainError

        # additive label noise on a g that is not piecewise linear (z², tanh, ...) needs a
        # three-dimensional average (ω, y and z given ω): not implemented (issue 36)
        raise DomainError("noise" if channel.noise > 0 else "channel",
                          channel.noise if channel.noise > 0 else channel.phi_text,
                          "additive noise on a piecewise-linear g (sign, abs, relu, linear, "
                          "door, or an expression made of Abs, sign, Heaviside, Max, Min of "
                          "linear functions); noise inside φ with --probit",
                          reason="is not implemented")
    if kind == "sign":
        return _Intervals(channel, rho, plus=((0.0, _INF),), minus=((-_INF, 0.0),))
    if kind == "door":
        K = float(channel.K)
        return _Intervals(channel, rho, mean_free=True, plus=((-_INF, -K), (K, _INF)),
                          minus=((-K, K),))
    if kind in ("abs", "square"):
        return _PhaseRetrieval(channel, rho, square=kind == "square")
    return _Relu(channel, rho)
