r"""The generalised χ² law Q = Σ w_i χ²_{m_i} (w_i > 0) of sequential recovery
(:mod:`fltheory.papers.recovery.theory`), by Ruben's (1962) series: Q/β is a mixture Σ_j a_j
χ²_{M+2j}
with non-negative weights, a convergent series (no Fourier inversion); densities and survival
functions are summed over the band of terms each point needs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from fltheory.exact import DomainError

__all__ = ["ruben_terms"]


def _weights(values: Any, param: str) -> np.ndarray:
    """A non-empty 1-D array of positive finite numbers (strengths or χ² weights)."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        arr = np.array([math.nan])
    if arr.ndim != 1 or len(arr) == 0 or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        shown = list(values) if isinstance(values, Sequence | np.ndarray) else values
        raise DomainError(param, shown, "a non-empty list of positive numbers")
    return arr


#: Ruben's series is refused beyond this many terms (see :func:`ruben_terms`): memory of the
#: coefficient arrays is trivial, but each law evaluates len(a) χ² densities at every node.
MAX_RUBEN_TERMS = 200_000
_RUBEN_TOL = 1e-15


def ruben_terms(w: np.ndarray, m: np.ndarray | None = None, tol: float = _RUBEN_TOL) -> int:
    """A priori number of terms of Ruben's series for Q = Σ w_i χ²_{m_i}, before computing it.

    The coefficients' generating function Π (β/w_i)^{m_i/2} (1 − r_i z)^{−m_i/2}, r_i = 1 − β/w_i,
    has its nearest singularity at 1/ρ, ρ = max |r_i| = (w_max − w_min)/(w_max + w_min) with the
    series' β, so a_j ≈ j^{m*/2 − 1} ρ^j (m* the multiplicity at ρ, <= 3 here) and the tail falls
    below ``tol`` after about (ln(1/tol) + 2 ln(1/(1 − ρ)))/(1 − ρ) terms. Checked against the
    terms actually used (tests): the estimate is within a factor 2 above for spreads 1..10^5.

    ``w``: a non-empty list of positive finite weights; ``m`` is not needed for the estimate;
    0 < ``tol`` < 1. Returns an int.

    >>> ruben_terms([1.0, 1.0]), ruben_terms([1.0, 0.5])
    (36, 55)
    """
    w = _weights(w, "w")
    if not isinstance(tol, int | float) or isinstance(tol, bool) or not 0 < tol < 1:
        raise DomainError("tol", tol, "0 < tol < 1")
    rho = float((w.max() - w.min()) / (w.max() + w.min()))
    gap = 1 - rho
    if gap <= 0:
        return MAX_RUBEN_TERMS * 10**6
    return math.ceil((math.log(1 / tol) + 2 * math.log(1 / gap)) / gap) + 1


class _GenChi2:
    """Q = Σ w_i χ²_{m_i} (w_i > 0) by Ruben's series: Q/β is a mixture Σ_j a_j χ²_{M+2j}."""

    def __init__(self, w: np.ndarray, m: np.ndarray, tol: float = _RUBEN_TOL):
        from scipy.special import gammaln

        self.w, self.m = w, m
        self.beta = 2 * w.min() * w.max() / (w.min() + w.max())
        self.M = int(m.sum())
        ratio = 1 - self.beta / w
        gap = 1 - float(np.max(np.abs(ratio)))  # 1 − ρ
        log_a0 = 0.5 * float(np.sum(m * np.log(self.beta / w)))
        # a_r = (1/2r) Σ_{j=1}^r G_j a_{r−j}, G_j = Σ m_i r_i^j: the convolution is one dot
        # product per term (the series needs O(1/(1 − ρ)) terms, so a Python inner loop would be
        # quadratic in them); arrays grow by doubling from the a-priori estimate.
        estimate = ruben_terms(w, m, tol)
        size = min(MAX_RUBEN_TERMS + 2, max(64, estimate))
        a = np.zeros(size)
        G = np.zeros(size)
        a[0] = math.exp(log_a0)
        r = 1
        total = a[0]
        while True:
            if r >= size:
                size *= 2
                a, G = np.resize(a, size), np.resize(G, size)
                a[r:], G[r:] = 0.0, 0.0
            G[r] = float(np.sum(m * ratio ** r))
            a[r] = float(np.dot(G[1:r + 1], a[r - 1::-1])) / (2 * r)
            total += a[r]
            # Stop when the mass is complete, or when the tail bound |a_r|/(1 − ρ) (terms decay
            # like ρ^r) is below tol: the partial sums' rounding (~ r·eps·max|a|) can keep
            # 1 − total above 10·tol for ever when w_max/w_min is large.
            # (A single small term proves nothing — G_1 can vanish — hence r >= the estimate.)
            if (abs(a[r]) < tol and (1 - total < 10 * tol
                                     or (r >= estimate and abs(a[r]) < tol * gap))) \
                    or r > MAX_RUBEN_TERMS:
                break
            r += 1
        self.a = a[:r + 1].copy()
        dof = self.M + 2 * np.arange(len(self.a))
        self._dof = dof
        self._log_norm = -(dof / 2) * math.log(2) - gammaln(dof / 2)

    def _bands(self, x: np.ndarray) -> Any:
        """Blocks of nodes (sorted) with the band of terms j each needs.

        As a function of j, the χ²_{M+2j} density at z = x/β is a Poisson(z/2) probability: it
        is negligible (< 1e-14 relative) outside j ≈ z/2 ± (8√(z/2) + 40). Taking sorted blocks of
        256 nodes, each with the band its nodes need, the work is O(len(a) + Σ √z) per block
        instead of len(x)·len(a) (the series has ~20·(w_max/w_min) terms).
        """
        z = np.asarray(x, dtype=float) / self.beta
        order = np.argsort(z, kind="stable")
        shift = self.M / 2 - 1  # the Poisson index of term j is j + M/2 − 1
        for start in range(0, len(order), 256):
            idx = order[start:start + 256]
            zb = z[idx]
            half = math.ceil(8 * math.sqrt(max(zb[-1], 0.0) / 2) + 40)
            lo = min(len(self.a), max(0, math.floor(zb[0] / 2 - shift) - half))
            hi = min(len(self.a), math.ceil(zb[-1] / 2 - shift) + half + 1)
            yield idx, zb[:, None], lo, max(lo, hi)

    def _log_terms(self, sl: slice, z: np.ndarray) -> np.ndarray:
        """log of the χ²_{dof_j} densities at z (xlogy: 0·log 0 = 0, so χ²_2 is finite at 0)."""
        from scipy.special import xlogy

        out: np.ndarray = self._log_norm[sl] + xlogy(self._dof[sl] / 2 - 1, z) - z / 2
        return out

    def pdf(self, x: np.ndarray) -> np.ndarray:
        """The density; at x = 0 it is +inf when M = 1 (χ²_1), finite when M = 2."""
        out = np.zeros(len(np.atleast_1d(x)))
        with np.errstate(divide="ignore", over="ignore"):
            for idx, z, lo, hi in self._bands(np.atleast_1d(x)):
                out[idx] = np.exp(self._log_terms(slice(lo, hi), z)) @ self.a[lo:hi]
        out /= self.beta
        return out

    def density_at_zero_in_u(self) -> float:
        """lim_{u→0} 2u·pdf(u²): the density of √Q at 0 (non-zero only when M = 1)."""
        if self.M != 1:
            return 0.0
        return float(2 * self.a[0] / math.sqrt(2 * math.pi * self.beta))

    def sf(self, x: np.ndarray) -> np.ndarray:
        """P(Q > x) = Σ_j a_j Q_j(z), Q_j the regularised upper Γ(M/2 + j, z/2). Inside a band
        Q_{j+1} = Q_j + e_j with e_j = 2·(χ²_{M+2j+2} density at z), so one incomplete-Γ call
        per node and the band's densities suffice; terms above the band have Q_j = 1 to 1e-14
        and terms below it Q_j = 0."""
        from scipy.special import gammaincc

        x = np.atleast_1d(x)
        out = np.zeros(len(x))
        # tail[j] = Σ_{i >= j} a_i
        tail = np.concatenate([np.cumsum(self.a[::-1])[::-1], [0.0]])
        for idx, z, lo, hi in self._bands(x):
            if lo == hi:
                out[idx] = tail[hi]
                continue
            q_lo = gammaincc(self._dof[lo] / 2, z[:, 0] / 2)
            value = q_lo * (tail[lo] - tail[hi]) + tail[hi]
            if hi - lo > 1:
                with np.errstate(divide="ignore"):
                    e = 2 * np.exp(self._log_terms(slice(lo + 1, hi), z))
                value += e @ (tail[lo + 1:hi] - tail[hi])
            out[idx] = value
        return out


# --------------------------------------------------------------------------- Fourier inversion

#: truncation of the characteristic function: |φ(t)| <= _FOURIER_TOL beyond T (see
#: :func:`fourier_size`); the trapezoid's aliasing is e^{-80} (period >= 160·w_max)
_FOURIER_TOL = 1e-10
#: largest FFT length accepted by :class:`_FourierChi2` (2^24: 16.8M points, ~0.5 s per law)
MAX_FOURIER_POINTS = 2 ** 24


def _support(w: np.ndarray) -> float:
    """Right end of the grid on which the laws are tabulated: P(Q > xmax) < 1e-15."""
    return float(2 * w.max() * 40 + 4 * np.sum(w))


def _log_modulus(w: np.ndarray, m: np.ndarray, t: float) -> float:
    """ln |φ(t)| = −(1/4) Σ m_i ln(1 + 4 w_i² t²) for Q = Σ w_i χ²_{m_i}."""
    return float(-0.25 * np.sum(m * np.log1p(4 * (w * t) ** 2)))


def fourier_size(w: Any, m: Any = None, tol: float = _FOURIER_TOL) -> tuple[float, int]:
    """(T, N) of the Fourier inversion of Q = Σ w_i χ²_{m_i}, before computing it.

    The trapezoid rule on ∫ φ(t) e^{−itx} dt with step h = 2π/L is exact up to aliasing
    Σ_{k≠0} p(x + kL) (Poisson summation), below e^{−80} for the period L = 2·xmax >= 160·w_max;
    the integral is cut at T where |φ(T)| = Π (1 + 4 w_i² t²)^{−m_i/4} = ``tol``. The FFT length
    N is the power of 2 >= T/h + 1. |φ| decays like t^{−M/2} (M = Σ m_i) beyond the weakest
    1/w_i, so N depends on the weights through Π w_i^{−m_i/2} (their geometric spread), not on
    max/min: it is small for many directions and large for few directions of very different
    strengths (then :class:`_GenChi2`, Ruben's series, is cheap instead, or neither is).

    ``w``: positive weights; ``m``: degrees of freedom (default all 1). Returns (T, N); N is
    ``MAX_FOURIER_POINTS``·2 or more when T is beyond reach.

    >>> fourier_size([1.0, 0.5, 0.25, 0.125])[1]
    4194304
    """
    w = _weights(w, "w")
    m = np.ones_like(w) if m is None else np.asarray(m, dtype=float)
    if not 0 < tol < 1:
        raise DomainError("tol", tol, "0 < tol < 1")
    target = math.log(tol)
    period = 2 * _support(w)
    lo, hi = 1.0 / (2 * w.max()), 1.0 / (2 * w.max())
    while _log_modulus(w, m, hi) > target:
        lo, hi = hi, hi * 2
        if hi > 1e300 / period:
            return math.inf, 4 * MAX_FOURIER_POINTS
    for _ in range(60):  # bisection in log t: T to 1e-3 relative
        mid = math.sqrt(lo * hi)
        if _log_modulus(w, m, mid) > target:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1.001:
            break
    points = hi * period / (2 * math.pi) + 1
    if points > 4 * MAX_FOURIER_POINTS:
        return hi, 4 * MAX_FOURIER_POINTS
    return hi, max(1024, 1 << math.ceil(math.log2(points)))


def _lagrange4(values: np.ndarray, dx: float, x: np.ndarray) -> np.ndarray:
    """Four-point Lagrange interpolation of ``values`` (on the grid j·dx, j >= 0) at x in
    [0, (len − 1)·dx]: error O(dx⁴ f⁽⁴⁾) where f is smooth, one vectorised pass."""
    s = x / dx
    j = np.clip(np.floor(s).astype(np.int64) - 1, 0, len(values) - 4)
    r = s - j  # in [0, 3]: nodes at 0, 1, 2, 3
    f0, f1, f2, f3 = (values[j + k] for k in range(4))
    out: np.ndarray = (-f0 * (r - 1) * (r - 2) * (r - 3) / 6 + f1 * r * (r - 2) * (r - 3) / 2
                       - f2 * r * (r - 1) * (r - 3) / 2 + f3 * r * (r - 1) * (r - 2) / 6)
    return out


#: grid spacing of the tabulated laws, in units of w_max (four-point interpolation: relative
#: error about (1/500)⁴ ~ 1e-11 where the density is smooth)
_FOURIER_SPACING = 1 / 500


class _FourierChi2:
    r"""Q = Σ w_i χ²_{m_i} (w_i > 0) by numerical inversion of its characteristic function
    φ(t) = Π (1 − 2i w_i t)^{−m_i/2} (Imhof 1961; the trapezoid rule of Davies 1973/1980, whose
    error is the aliasing of the Poisson summation formula plus the cut of φ at T).

    With h = 2π/L and a_k = φ(kh) (a_0 halved), the trapezoid rule is the trigonometric
    polynomial p_h(x) = (h/π) Re Σ_k a_k e^{−ikhx}; on the grid x_j = jL/N it is one FFT. Its
    integral from 0 is exact term by term: F_h(x) = x/L + (1/π) Re Σ_{k>=1} (a_k/(ik))
    (1 − e^{−ikhx}), a second FFT. Between grid points (spacing at most w_max/500) both are
    interpolated by four-point Lagrange polynomials. The cost is O(N log N) with N of
    :func:`fourier_size`: it does not grow with max w/min w as Ruben's series (~ (max/min)²) does.
    Build the laws of one model with :meth:`family` (they share the grid and φ's factors).
    """

    def __init__(self, a: np.ndarray, L: float, xmax: float, M: int):
        N = len(a)
        h = 2 * math.pi / L
        keep = N // 2 + 1  # x_j up to L/2 = xmax
        self.M, self.xmax, self._dx = M, xmax, L / N
        x = np.arange(keep) * self._dx
        a = a.copy()
        a[0] = 0.5
        # p_h(x_j) = (h/π) Re Σ_k a_k e^{−2πi jk/N}
        self._p = (h / math.pi) * np.fft.fft(a).real[:keep]
        b = np.zeros(N, dtype=complex)
        b[1:] = a[1:] / (1j * np.arange(1, N))
        F = x / L + (float(np.sum(b).real) - np.fft.fft(b).real[:keep]) / math.pi
        self._q = 1 - F

    @staticmethod
    def points(w: np.ndarray, tol: float = _FOURIER_TOL) -> int:
        """The FFT length of :meth:`family`: :func:`fourier_size` of the base law (the biased
        laws decay faster), at least the resolution 2·xmax/(w_max·_FOURIER_SPACING)."""
        N = fourier_size(w, None, tol)[1]
        fine = 2 * _support(w) / (w.max() * _FOURIER_SPACING)
        return max(N, 1 << math.ceil(math.log2(fine)))

    @classmethod
    def family(cls, w: np.ndarray, tol: float = _FOURIER_TOL
               ) -> tuple[_FourierChi2, list[_FourierChi2]]:
        """The law of Q = Σ w_i χ²_1 and its d1 size-biased versions (χ²_1 → χ²_3 in term i),
        on one grid (N = :meth:`points`, refused by the caller beyond MAX_FOURIER_POINTS)."""
        N = cls.points(w, tol)
        if N > MAX_FOURIER_POINTS:
            raise RuntimeError("Fourier inversion beyond its bound (a bug: the caller checks "
                               "the size first)")
        xmax = _support(w)
        L = 2 * xmax
        t = (2 * math.pi / L) * np.arange(N)
        # log(1 − 2i w t) = (1/2) log(1 + 4w²t²) − i arctan(2wt): real functions only
        logs = [(0.5 * np.log1p((2 * wi * t) ** 2), np.arctan(2 * wi * t)) for wi in w]
        re = -0.5 * sum(lg[0] for lg in logs)
        im = 0.5 * sum(lg[1] for lg in logs)
        d1 = len(w)
        base = cls(np.exp(re + 1j * im), L, xmax, d1)
        biased = [cls(np.exp(re - lg[0] + 1j * (im + lg[1])), L, xmax, d1 + 2) for lg in logs]
        return base, biased

    def pdf(self, x: np.ndarray) -> np.ndarray:
        """The density (0 outside [0, xmax], where it is below 1e-15)."""
        x = np.atleast_1d(np.asarray(x, dtype=float))
        inside = (x >= 0) & (x <= self.xmax)
        out = np.zeros(len(x))
        out[inside] = _lagrange4(self._p, self._dx, x[inside])
        return out

    def density_at_zero_in_u(self) -> float:
        """lim_{u→0} 2u·pdf(u²): zero (the method is used for M = Σ m_i >= 2 only)."""
        return 0.0

    def sf(self, x: np.ndarray) -> np.ndarray:
        """P(Q > x) (1 below 0, 0 beyond xmax)."""
        x = np.atleast_1d(np.asarray(x, dtype=float))
        out = np.where(x < 0, 1.0, 0.0)
        inside = (x >= 0) & (x <= self.xmax)
        out[inside] = _lagrange4(self._q, self._dx, x[inside])
        return out
