"""Gaussian averages E[f_1(x_1) ⋯ f_d(x_d)], x ~ N(0, C), for smooth f_i (private; the
generic-activation path of :mod:`fltheory.papers.committee.gaussian`).

Why not Gauss–Hermite: activations such as tanh or the logistic sigmoid have complex poles
(tanh at ±iπ/2), and Gauss–Hermite converges slowly for integrands analytic only in a strip
(measured: E[tanh² sech⁴(σξ)] at σ = 1 errs 1e-3 with 24 nodes, 2e-10 with 128; σ = 2: 8e-5
with 128). The trapezoid rule on a uniform grid converges geometrically there, with an error
≈ exp(−2πa/h) for a strip of half-width a and step h (measured, same integrand: x-step 0.3:
1e-9; 0.25: 1e-11; 0.2: 1e-15), so it is used here with the Gaussian weight.

The rule, for one covariance C (d × d, positive semi-definite):

1. Fields that coincide (equal rows of C) are merged: their functions multiply (I4 with
   i = k, c = e or c = i has 3 or fewer distinct fields).
2. The last distinct field x_k is split off: given the others, x_k = m + s ζ with
   m = βᵀx_{<k}, s² its conditional variance, ζ ~ N(0, 1) independent. So
   E[Π f_i] = E[Π_{i<k} f_i(x_i) H(m)], H(m) = E[f_k(m + s ζ)] — one dimension fewer. H is
   tabulated with H' and H'' on a uniform m-grid of step ``d`` = min(table_step, s/2) by the
   trapezoid rule in x-units (discrete correlations with the sampled Gaussian times He_j) and
   interpolated by quintic Hermite polynomials; for s <= :data:`DIRECT_S` H is a 12-node
   Gauss–Hermite sum at each m instead (its integrand is then nearly polynomial; a round-off
   negative s² is continued smoothly), and for few outer nodes a direct trapezoid sum in ζ
   (step min(1/2, h/s)).
3. The remaining k − 1 fields: a tensor trapezoid rule in the eigenbasis of their covariance,
   ξ_j in [−X, X] with step min(1/2, h/ℓ_j), ℓ_j the largest loading of a field (or of m)
   on direction j (h is the step in field units: a direction of small variance needs fewer
   nodes); eigen-directions with λ_j <= 1e-14·max(1, max λ) are dropped (their field
   variation is below 1e-7). The field split off is the one leaving the fewest nodes.

The error is not bounded a priori (the strip of g is not known to the code): it is measured
against the same rule with h and the table step halved and X = 10 (:func:`Rule.fine`),
at the covariances where a result is reported."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

Fn = Callable[[np.ndarray], np.ndarray]

#: conditional standard deviation below which H is a direct Gauss–Hermite sum
DIRECT_S = 0.05
#: below this many evaluations (outer nodes × inner nodes) H is summed directly, no table
DIRECT_NODES = 50_000
#: bound on the outer nodes of one average (standard rule; the fine one 8×); measured ~0.2 s
#: CPU per 10^6 nodes (tanh, three outer fields)
MAX_NODES = 4e6
#: nodes per block (memory ~ 8 (k + 3) bytes each)
CHUNK = 30_000
_SQRT_2PI = math.sqrt(2.0 * math.pi)


@dataclass(frozen=True)
class Rule:
    """Step ``h`` in field units, cut-off ``X`` in standard deviations, table step."""

    h: float = 0.25
    X: float = 8.0
    table_step: float = 0.025

    #: the node bound is MAX_NODES times this
    node_factor: float = 1.0

    def fine(self) -> Rule:
        return Rule(self.h / 2, 10.0, self.table_step / 2, 8 * self.node_factor)


STANDARD = Rule()
#: a cheap rule (errors ~1e-6 for tanh at unit variances) for approaching a root only
COARSE = Rule(0.5, 7.0, 0.05)


def _gh(n: int) -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.hermite_e.hermegauss(n)
    return x, w / _SQRT_2PI


_GH12 = _gh(12)


def _direct(f: Fn, s: float, rule: Rule) -> tuple[int, Fn]:
    """m -> E[f(m + s ζ)] by the trapezoid rule in ζ at each m (ξ-step min(1/2, h/s)), and
    its node count: cheaper than a table for few m."""
    step = min(0.5, rule.h / s)
    zeta = step * np.arange(-math.ceil(rule.X / step), math.ceil(rule.X / step) + 1)
    w = step * np.exp(-0.5 * zeta * zeta) / _SQRT_2PI
    return len(w), lambda m: f(m[..., None] + s * zeta) @ w


def _smoother(f: Fn, s2: float, rule: Rule, bound: float, points: int = 0) -> Fn:
    """m -> H(m) = E[f(m + s ζ)], ζ ~ N(0, 1), s² = ``s2``, for |m| <= ``bound``. H is even
    and smooth in s (Σ_j (s²/2)^j f^(2j)(m)/j!); for a slightly negative s² (a singular
    covariance, or a finite-difference step off one) it is continued by the cubic through
    s² = 0, a, 2a, 3a (a = |s²|): H = 4f − 6H_a + 4H_2a − H_3a (error O(a⁴)), so the rule is
    smooth across s² = 0."""
    if abs(s2) <= DIRECT_S**2:
        z, w = _GH12

        def direct(m: np.ndarray, v: float) -> np.ndarray:
            return f(m[..., None] + math.sqrt(v) * z) @ w

        if s2 >= 0:
            return lambda m: direct(m, s2)
        a = -s2
        return lambda m: 4 * f(m) - 6 * direct(m, a) + 4 * direct(m, 2 * a) - direct(m, 3 * a)
    s = math.sqrt(s2)
    nodes, direct_rule = _direct(f, s, rule)
    if points * nodes <= DIRECT_NODES:
        return direct_rule
    d = min(rule.table_step, 0.5 * s)
    lo, hi = -bound - 2 * d, bound + 2 * d
    n = max(4, math.ceil((hi - lo) / d) + 1)
    half = math.ceil(rule.X * s / d)
    fu = f(lo + d * np.arange(-half, n + half))
    zeta = np.arange(-half, half + 1) * d / s
    phi = (d / s) * np.exp(-0.5 * zeta * zeta) / _SQRT_2PI
    # H, d·H', d²·H'' on the grid lo + d·i: H^(j)(m) = E[He_j(ζ) f(m + s ζ)]/s^j
    from scipy.signal import fftconvolve

    tables = [fftconvolve(fu, (phi * w)[::-1], mode="valid")
              for w in (1.0, zeta * (d / s), (zeta * zeta - 1.0) * (d / s) ** 2)]

    def interpolate(m: np.ndarray) -> np.ndarray:
        """Quintic Hermite interpolation between the grid points (exact for quintics;
        error ≈ d⁶ max|H⁽⁶⁾| / 46080)."""
        t = (m - lo) / d
        i = np.clip(np.floor(t).astype(np.int64), 0, n - 2)
        u = t - i
        u2 = u * u
        u3 = u2 * u
        u4 = u3 * u
        u5 = u4 * u
        h, g, a = tables
        return ((1 - 10 * u3 + 15 * u4 - 6 * u5) * h[i] + (10 * u3 - 15 * u4 + 6 * u5) * h[i + 1]
                + (u - 6 * u3 + 8 * u4 - 3 * u5) * g[i] + (-4 * u3 + 7 * u4 - 3 * u5) * g[i + 1]
                + 0.5 * (u2 - 3 * u3 + 3 * u4 - u5) * a[i] + 0.5 * (u3 - 2 * u4 + u5) * a[i + 1])

    return interpolate


def _outer(A: np.ndarray, rule: Rule, beta: np.ndarray | None = None
           ) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """The tensor trapezoid rule for N(0, A): loadings L (fields × directions) and, per
    direction, the nodes ξ and weights. In the eigenbasis, direction j has ξ-step
    min(1/2, h/ℓ_j), ℓ_j the largest loading |L_ij| of a field (or of m = βᵀx) on it — the
    product of the f_i is then analytic in a strip a/ℓ_j wide in ξ_j when each f_i is in one
    a wide, so each direction errs like the 1-D rule of step h in field units. The node count
    is bounded (CostError) before any evaluation."""
    lam, V = np.linalg.eigh(A)
    keep = lam > 1e-14 * max(1.0, float(lam.max(initial=0.0)))
    lam, V = lam[keep], V[:, keep]
    if not len(lam):
        return np.zeros((A.shape[0], 1)), [np.zeros(1)], [np.ones(1)]
    L = V * np.sqrt(lam)
    load = np.abs(L).max(axis=0)
    if beta is not None:
        load = np.maximum(load, np.abs(beta @ L))
    steps = [min(0.5, rule.h / max(float(lj), 1e-300)) for lj in load]
    counts = [2 * math.ceil(rule.X / step) + 1 for step in steps]
    from fltheory.exact import check_cost

    check_cost(f"a covariance with variances up to {float(np.max(np.diag(A))):.3g}",
               float(np.prod(counts, dtype=float)), MAX_NODES * rule.node_factor,
               "cubature nodes", "overlaps of moderate size (the nodes grow as the product "
               "of the standard deviations)")
    axes = [step * np.arange(-(n // 2), n // 2 + 1) for step, n in zip(steps, counts, strict=True)]
    weights = [step * np.exp(-0.5 * xi * xi) / _SQRT_2PI for step, xi in zip(steps, axes,
                                                                            strict=True)]
    return L, axes, weights


def _chunks(L: np.ndarray, axes: list[np.ndarray], weights: list[np.ndarray]
            ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(x (P, fields), w (P,)) over the tensor grid, in blocks of the first axis (memory
    ~ CHUNK nodes)."""
    rest = int(np.prod([len(a) for a in axes[1:]], dtype=np.int64))
    block = max(1, CHUNK // max(rest, 1))
    w_rest = np.ones(1)
    for wj in weights[1:]:
        w_rest = np.multiply.outer(w_rest, wj).ravel()
    for lo in range(0, len(axes[0]), block):
        grids = np.meshgrid(axes[0][lo:lo + block], *axes[1:], indexing="ij")
        xi = np.stack([g.ravel() for g in grids], axis=-1)
        w = np.multiply.outer(weights[0][lo:lo + block], w_rest).ravel()
        yield xi @ L.T, w


def _count(A: np.ndarray, rule: Rule) -> float:
    """Outer nodes of a rule for N(0, A) with the loadings of the fields only (to choose the
    field split off)."""
    lam, V = np.linalg.eigh(A)
    keep = lam > 1e-14 * max(1.0, float(lam.max(initial=0.0)))
    load = np.abs(V[:, keep] * np.sqrt(lam[keep])).max(axis=0)
    return float(np.prod([2 * math.ceil(rule.X / min(0.5, rule.h / max(float(v), 1e-300))) + 1
                          for v in load]))


def average_one(fs: list[Fn], C: np.ndarray, rule: Rule = STANDARD) -> float:
    """E[Π f_i(x_i)] for one covariance of DISTINCT fields (module docstring); the field
    split off last is the one leaving the fewest outer nodes."""
    k = len(fs)
    if k > 2:
        counts = [_count(np.delete(np.delete(C, j, 0), j, 1), rule) for j in range(k)]
        last = int(np.argmin(counts))
        order = [j for j in range(k) if j != last] + [last]
        fs, C = [fs[j] for j in order], C[np.ix_(order, order)]
    if k == 1:
        return float(sum(fs[0](x[:, 0]) @ w for x, w in _chunks(*_outer(C, rule))))
    A, c, ckk = C[:-1, :-1], C[:-1, -1], C[-1, -1]
    lam, V = np.linalg.eigh(A)
    keep = lam > 1e-14 * max(1.0, float(lam.max(initial=0.0)))
    beta = (V[:, keep] / lam[keep]) @ (V[:, keep].T @ c)
    s2 = float(ckk - c @ beta)
    if s2 < -DIRECT_S**2:
        from fltheory.exact import DomainError

        raise DomainError("C", "a covariance", "positive semi-definite covariances",
                          reason=f"has a conditional variance {s2:.3g} < 0")
    L, axes, weights = _outer(A, rule, beta)
    bound = float(np.abs(beta @ L).sum() * max(float(np.abs(a).max()) for a in axes))
    H = _smoother(fs[-1], s2, rule, bound, int(np.prod([len(a) for a in axes])))
    total = 0.0
    for x, w in _chunks(L, axes, weights):
        vals = w
        for i in range(k - 1):
            vals = vals * fs[i](x[:, i])
        total += float(vals @ H(x @ beta))
    return total


def _product(fns: list[Fn]) -> Fn:
    if len(fns) == 1:
        return fns[0]

    def f(x: np.ndarray) -> np.ndarray:
        out = fns[0](x)
        for fn in fns[1:]:
            out = out * fn(x)
        return out

    return f


def _order(C: np.ndarray) -> list[int]:
    """Distinct fields, each the first of its group of equal rows (order of first seen)."""
    d = C.shape[0]
    rep: list[int] = []
    for a in range(d):
        if not any(np.array_equal(C[a], C[b]) for b in rep):
            rep.append(a)
    return rep


def average(fs: list[Fn], C: np.ndarray, rule: Rule = STANDARD) -> np.ndarray:
    """E[Π f_i(x_i)] for covariances C (..., d, d): coinciding fields merged, identical
    covariances computed once (float64, shape (...))."""
    d = len(fs)
    lead = C.shape[:-2]
    flat = np.ascontiguousarray(C.reshape(-1, d, d))
    uniq, inverse = np.unique(flat.reshape(len(flat), -1), axis=0, return_inverse=True)
    out = np.empty(len(uniq))
    memo: dict[tuple[tuple[int, ...], ...], Any] = {}
    for u, row in enumerate(uniq):
        Cu = row.reshape(d, d)
        rep = _order(Cu)
        groups = [[b for b in range(d) if np.array_equal(Cu[a], Cu[b])] for a in rep]
        key = tuple(tuple(g) for g in groups)
        if key not in memo:
            memo[key] = [_product([fs[b] for b in g]) for g in groups]
        out[u] = average_one(memo[key], Cu[np.ix_(rep, rep)], rule)
    return out[np.ravel(inverse)].reshape(lead)


def points(C: np.ndarray, rule: Rule = STANDARD) -> int:
    """Outer nodes (fields' loadings only) of the rule for one covariance of distinct
    fields, the last split off (for measurements)."""
    return int(_count(C if C.shape[0] == 1 else C[:-1, :-1], rule))
