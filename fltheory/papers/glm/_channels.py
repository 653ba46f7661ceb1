r"""The channel's side of the replica formula: the output function g_out and its averages
(Barbier et al. 2019, eq. (9)–(11) and SI).

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

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from fltheory.papers.glm._quad import (
    LOG_SQRT_2PI,
    gauss_panels,
    log_phi,
    log_phi_diff,
    lse,
    mills,
    nodes,
    normal_weight_integral,
    phi,
)
from fltheory.papers.glm.params import Channel

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

    def m2_spread(self) -> float:
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

    def _dlog(self, y_int: tuple[tuple[float, float], ...], w: np.ndarray, V: float,
              logz: np.ndarray) -> np.ndarray:
        """g_out = ∂_ω ln Z_out, each φ divided by Z in log space."""
        sv = math.sqrt(V)
        out = np.zeros_like(w)
        for a, b in y_int:
            for e, sgn in ((a, 1.0), (b, -1.0)):
                if math.isfinite(e):
                    t = (e - w) / sv
                    out = out + sgn * np.exp(-0.5 * t * t - LOG_SQRT_2PI - logz)
        return out / sv

    def _features(self, V: float) -> list[tuple[float, float]]:
        ends = {e for a, b in self.plus for e in (a, b) if math.isfinite(e)}
        return [(e, math.sqrt(V)) for e in sorted(ends)]

    def Q(self, q: float, level: int = 1, V: float | None = None) -> float:
        V = self.V1(q, V)

        def f(w: np.ndarray) -> np.ndarray:
            tot = np.zeros_like(w)
            for ints in (self.plus, self.minus):
                lz = self._logz(ints, w, V)
                g = self._dlog(ints, w, V, lz)
                tot = tot + np.exp(lz) * g * g
            return tot

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

    def m2_spread(self) -> float:
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
        one_minus_t = 2.0 * special.expit(-2.0 * rs)
        one_plus_t = 2.0 * special.expit(2.0 * rs)
        excess = -s * one_minus_t * (s * one_plus_t - 2.0 * r)
        return (1.0 + float(np.sum(w * excess))) / V

    def dpsi(self, q: float, level: int = 1, V: float | None = None) -> float:
        V = self.V1(q, V)
        if q == 0:
            return 0.0
        r, s, _u, w = self._grid(q, level, V)
        soft = np.logaddexp(0.0, -2.0 * r * s)
        return -0.5 * math.log(V / self.rho1) - math.log(2.0) + float(np.sum(w * soft))

    def info_full(self) -> float:
        return _INF

    def m2_spread(self) -> float:
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

    def m2_spread(self) -> float:
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

    def m2_spread(self) -> float:
        return 0.0

    def gen_error(self, q: float, level: int = 1, V: float | None = None) -> float:
        return self.V1(q, V) - self.sin2 + self.delta


def channel_numerics(channel: Channel, rho: float) -> ChannelNumerics:
    """The numerics of ``channel`` at prior second moment ``rho``."""
    kind = channel.kind
    if kind == "linear":
        return _Linear(channel, rho)
    if channel.noise > 0 or kind == "expr":
        from fltheory.exact import DomainError

        # additive label noise needs the two-dimensional average over (ω, y) of a generic
        # Z_out: not implemented yet (issue 36); noise inside φ (--probit) is
        raise DomainError("noise" if channel.noise > 0 else "channel",
                          channel.noise if channel.noise > 0 else channel.phi_text,
                          "additive noise on the linear channel only (use --probit for noise "
                          "inside φ); expression channels that are sign, abs, square, relu, "
                          "linear or a door", reason="is not implemented")
    if kind == "sign":
        return _Intervals(channel, rho, plus=((0.0, _INF),), minus=((-_INF, 0.0),))
    if kind == "door":
        K = float(channel.K)
        return _Intervals(channel, rho, mean_free=True, plus=((-_INF, -K), (K, _INF)),
                          minus=((-K, K),))
    if kind in ("abs", "square"):
        return _PhaseRetrieval(channel, rho, square=kind == "square")
    return _Relu(channel, rho)
