"""Quadrature and Gaussian functions of the GLM theory, in double precision, written so that
nothing underflows to 0/0 (the traps of issue 36): log Φ by ``scipy.special.log_ndtr``, the
Mills ratio φ(x)/Φ(−x) by ``erfcx``, differences of Φ in log space, and no Gauss–Hermite rule
(past ~300 nodes its weights overflow): integrals are composite Gauss–Legendre rules over
panels that put breakpoints where an integrand has a narrow feature (an interval end at the
scale √V, a switch of the prior's posterior), so a feature of width 10⁻⁶ is resolved as well
as one of width 1.

Every integral is computed at a resolution ``level`` (1 or 2): level 2 halves every panel (the
noisy square's three-dimensional sums raise their rule from 12 to 16 nodes on the same panels
instead), so the theory confirms a digit when both levels print it (never a tolerance chosen to
pass). The weak-recovery spread, a single y-integral, compares levels 2 and 3 (3 quarters every
panel).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy import special

__all__ = ["LOG_SQRT_2PI", "gauss_panels", "halve", "integrate", "log_phi", "log_phi_diff",
           "lse", "mills", "nodes", "normal_weight_integral", "phi"]

LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)
#: nodes of one Gauss–Legendre panel
_NODES = 24
_GL = np.polynomial.legendre.leggauss(_NODES)
#: a Gaussian's tail beyond this many standard deviations is below e^(−720): dropped
TAIL = 38.0
#: the offsets (in units of a feature's width) at which a feature gets breakpoints
_OFFSETS = np.array([0.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0,
                     256.0, 1024.0, 4096.0])


def lse(x: np.ndarray) -> np.ndarray:
    """log Σ exp over the first axis (−inf rows allowed), without scipy's overhead."""
    m = np.max(x, axis=0)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return m + np.log(np.sum(np.exp(x - m), axis=0))


def phi(x: np.ndarray) -> np.ndarray:
    """The standard normal density."""
    return np.exp(-0.5 * x * x - LOG_SQRT_2PI)


def log_phi(x: np.ndarray) -> np.ndarray:
    """log Φ(x), accurate in both tails."""
    return special.log_ndtr(x)


def mills(x: np.ndarray) -> np.ndarray:
    """φ(x)/Φ(−x) (the inverse Mills ratio), finite for every x (≈ x as x → ∞)."""
    return np.sqrt(2.0 / np.pi) / special.erfcx(x / np.sqrt(2.0))


def log_phi_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log(Φ(b) − Φ(a)) for a <= b (−inf where a = b), in log space on the side of the smaller
    tail, so no difference of two numbers near 1 (or near 0) is ever formed."""
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    out = np.empty(a.shape)
    right = a > 0          # both in the right tail: Φ(b) − Φ(a) = Φ(−a) − Φ(−b)
    hi, lo = np.where(right, -a, b), np.where(right, -b, a)
    lhi, llo = log_phi(hi), log_phi(lo)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = lhi + np.log1p(-np.exp(llo - lhi))
    return np.where(a >= b, -np.inf, out)


def gauss_panels(lo: float, hi: float, features: Sequence[tuple[float, float]],
                 bulk: float, level: int,
                 offsets: Sequence[float] | np.ndarray = _OFFSETS) -> np.ndarray:
    """Breakpoints of [lo, hi]: around each feature (centre, width) at centre ± width·k for k
    in ``offsets`` (by default 0, 1/8, 1/4, … 4096: a feature whose effect decays slowly),
    then every gap wider than ``bulk`` split evenly; ``level`` 2 halves every panel (and 3,
    used by the weak-recovery spread, a single y-integral, quarters it)."""
    pts = [lo, hi]
    offs = np.asarray(offsets, float)
    for centre, width in features:
        if width > 0:
            for s in (-1.0, 1.0):
                pts.extend(centre + s * width * offs)
    p = np.unique(np.clip(np.asarray(pts, float), lo, hi))
    gaps = np.diff(p)
    k = (np.maximum(1, np.ceil(gaps / bulk)).astype(int) if bulk > 0
         else np.ones(len(gaps), int))
    if level > 1:  # level 2 halves every panel, level 3 (the spread's finer grid) quarters it
        k = k * 2 ** (level - 1)
    idx = np.repeat(np.arange(len(gaps)), k)
    j = np.arange(int(k.sum())) - np.repeat(np.cumsum(k) - k, k)
    edges = np.append(p[idx] + gaps[idx] * j / k[idx], p[-1])
    return edges


def halve(edges: np.ndarray, level: int) -> np.ndarray:
    """The panels ``edges`` at ``level``: every panel halved level − 1 times (the resolutions
    of :func:`gauss_panels`, for breakpoints built otherwise).

    >>> halve(np.array([0.0, 1.0, 3.0]), 2).tolist()
    [0.0, 0.5, 1.0, 2.0, 3.0]
    """
    for _ in range(level - 1):
        edges = np.sort(np.concatenate([edges, 0.5 * (edges[1:] + edges[:-1])]))
    return edges


_RULES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _rule(n: int) -> tuple[np.ndarray, np.ndarray]:
    if n not in _RULES:
        _RULES[n] = np.polynomial.legendre.leggauss(n)
    return _RULES[n]


def nodes(edges: np.ndarray, n: int = _NODES) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of the composite Gauss–Legendre rule (``n`` nodes a panel) on the
    panels ``edges``."""
    x0, w0 = _GL if n == _NODES else _rule(n)
    a, b = edges[:-1, None], edges[1:, None]
    half = 0.5 * (b - a)
    x = (a + half * (x0[None, :] + 1.0)).ravel()
    w = (half * w0[None, :]).ravel()
    return x, w


def integrate(f: Callable[[np.ndarray], np.ndarray], edges: np.ndarray) -> float:
    """∫ f over [edges[0], edges[-1]] by the composite rule (f vectorised)."""
    x, w = nodes(edges)
    return float(np.dot(w, f(x)))


def normal_weight_integral(f: Callable[[np.ndarray], np.ndarray], mean: float, sd: float,
                           features: Sequence[tuple[float, float]], level: int,
                           bulk: float | None = None) -> float:
    """E f(X), X ~ N(mean, sd²), by the composite rule on mean ± 38 sd with the features'
    breakpoints (f vectorised; the density is multiplied in, so f may be large where the
    density is small)."""
    if sd == 0:
        return float(f(np.array([mean]))[0])
    lo, hi = mean - TAIL * sd, mean + TAIL * sd
    edges = gauss_panels(lo, hi, [(mean, sd), *features], sd / 2 if bulk is None else bulk,
                         level)
    x, w = nodes(edges)
    t = (x - mean) / sd
    dens = np.exp(-0.5 * t * t - LOG_SQRT_2PI) / sd
    return float(np.dot(w * dens, f(x)))
