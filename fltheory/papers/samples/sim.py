r"""Simulators of the sample-complexity paper (numpy only; no theory is imported).

**Single index, online SGD on the sphere.** Teacher y = h_k(⟨w*, x⟩), x ~ N(0, I_d), h_k the
orthonormal Hermite polynomial (h_1 = z, h_2 = (z² − 1)/√2, h_3 = (z³ − 3z)/√6, h_4 =
(z⁴ − 6z² + 3)/√24). Student w on the unit sphere, correlation loss ℓ = −y h_k(⟨w, x⟩), one
fresh sample per step (the online SGD of Ben Arous, Gheissari & Jagannath 2021):

    w ← (w + η y h_k'(p) (x − p w)) / ‖·‖,   p = ⟨w, x⟩.

The count n is the number of samples until the overlap m = ⟨w, w*⟩ first reaches a fixed
``threshold`` (|m| for even k, whose sign is not identifiable). The start is uniform on the
sphere, reflected to m >= 0 for odd k >= 3 (there the drift ∝ m^{k−1} pushes m up from either
side, so a negative start would first have to cross 0, where the drift vanishes: Ben Arous et
al. start in the upper half-sphere). For k = 1 the drift is bounded away from 0 at m = 0 and
the start is left uniform (a reflected start would add a head start of order d^{−1/2}, a
relative correction of the same order to n).

*Exact reduction* (:func:`online_first_passage`). The law of (m_t) is that of a Markov chain
that needs three random numbers per step whatever d: write w = m w* + s u (s = √(1 − m²), u ⟂ w*
a unit vector) and x = z₁ w* + z₂ u + ρ v with v a unit vector ⟂ w*, u. Because x is isotropic,
z₁, z₂ ~ N(0, 1) and ρ² ~ χ²_{d−2} are independent of each other and of the past, and the update
keeps w in span(w*, u, v), so that the new (m, u) again see a fresh isotropic x. Each step costs
O(1) per replica: replicas, dimensions and step sizes are simulated together, one row each.
:func:`online_full` is the same algorithm in R^d (used by the tests to check the reduction).

**Multi-index, online SGD** (:func:`multi_index_run`). Teacher y = f(x_1, …, x_r) (U = the first
r coordinates), f one of :data:`TARGETS` (the merged staircase z1 + z1 z2 + z1 z2 z3, the
leap-3 product z1 z2 z3); student f(W x) with the same f and W ∈ R^{r×d}, each row on the unit
sphere; correlation loss −y f(Wx), one fresh sample per step, W_i ← (W_i + η y ∂_i f(Wx) x_⊥)/‖·‖
(x_⊥: x minus its component along W_i). Returns the overlaps M = W Uᵀ at checkpoints.

**Batch reuse** (:func:`reuse_steps`, :func:`reuse_overlaps`). One student neuron w on the unit
sphere, activation tanh, correlation loss on ONE batch of n samples, L(w) = −(1/n) Σ_i y_i
tanh(⟨w, x_i⟩); each step moves along minus the spherical gradient and renormalises:

    w ← (w + η P_w g) / ‖·‖,   g = (1/n) Σ_i y_i tanh'(⟨w, x_i⟩) x_i,   P_w = I − w wᵀ,

every step on the same batch (the two-step scheme of Dandi et al. 2024 when ``steps`` = 2), or,
with ``fresh=True``, each step on a new batch of the same size (the control without reuse).
:func:`online_overlap` runs the online SGD above (exact reduction) for a fixed number of samples
and returns the final overlaps.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fltheory.simkit import seeding

__all__ = ["TARGETS", "MultiRun", "hermite_link", "multi_index_run", "online_first_passage",
           "online_full", "online_overlap", "reuse_overlaps", "reuse_steps"]

Array = np.ndarray


def hermite_link(k: int, z: Array) -> tuple[Array, Array]:
    """h_k(z) and h_k'(z), orthonormal Hermite, k in 1..4.

    >>> [float(v[0]) for v in hermite_link(3, np.array([2.0]))]  # (8 − 6)/√6, (12 − 3)/√6
    [0.8164965809277261, 3.6742346141747673]
    """
    if k == 1:
        return z, np.ones_like(z)
    if k == 2:
        return (z * z - 1) / math.sqrt(2), math.sqrt(2) * z
    if k == 3:
        return (z ** 3 - 3 * z) / math.sqrt(6), (3 * z * z - 3) / math.sqrt(6)
    if k == 4:
        z2 = z * z
        return (z2 * z2 - 6 * z2 + 3) / math.sqrt(24), (4 * z2 * z - 12 * z) / math.sqrt(24)
    raise ValueError(f"k = {k}: links h_1 … h_4 only")


def _uniform_overlap(rng: np.random.Generator, d: Array) -> Array:
    """⟨w, w*⟩ for w uniform on S^{d−1}: z/√(z² + χ²_{d−1})."""
    z = rng.standard_normal(d.shape)
    return z / np.sqrt(z * z + rng.chisquare(d - 1))


def _chain_step(k: int, m: Array, d: Array, eta: Array, rng: np.random.Generator) -> Array:
    """One online-SGD step of the exact reduction (module docstring): the new overlaps."""
    b = m.size
    z1 = rng.standard_normal(b)
    z2 = rng.standard_normal(b)
    rho = np.sqrt(rng.chisquare(d - 2))
    s = np.sqrt(np.maximum(1 - m * m, 0.0))
    p = m * z1 + s * z2
    y, _ = hermite_link(k, z1)
    _, dg = hermite_link(k, p)
    a = eta * y * dg
    c1 = m + a * (z1 - p * m)
    c2 = s + a * (z2 - p * s)
    c3 = a * rho
    return c1 / np.sqrt(c1 * c1 + c2 * c2 + c3 * c3)


def _chain_start(k: int, d: Array, eta: Array, seed: seeding.SeedLike
                 ) -> tuple[Array, Array, np.random.Generator, Array]:
    """d and η as float arrays (d >= 3), the chain's generator and its start: the overlap of a
    uniform point of the sphere (reflected to m >= 0 for odd k >= 3, as in BAGJ)."""
    d = np.asarray(d, dtype=float)
    eta = np.asarray(eta, dtype=float)
    if np.any(d < 3):
        raise ValueError("d >= 3")
    rng = np.random.default_rng(seeding.sequence(seed))
    m = _uniform_overlap(rng, d)
    if k >= 3 and k % 2:
        m = np.abs(m)
    return d, eta, rng, m


def online_first_passage(k: int, d: Array, eta: Array, cap: Array, threshold: float,
                         seed: seeding.SeedLike) -> Array:
    """Samples until the overlap first reaches ``threshold``, one row per (d, η) entry of the
    arrays ``d`` and ``eta`` (replicas are repeated rows); ``cap`` (per row) is the budget: a
    row that has not reached it after cap samples gets −1. Exact reduction (module docstring).

    >>> n = online_first_passage(1, np.full(4, 64), np.full(4, 2 / 64), np.full(4, 10**4), 0.5, 0)
    >>> bool(np.all(n > 0))
    True
    """
    cap = np.asarray(cap, dtype=np.int64)
    d, eta, rng, m = _chain_start(k, d, eta, seed)
    hit = np.full(d.shape, -1, dtype=np.int64)
    alive = np.arange(d.size)
    t = 0
    while alive.size:
        t += 1
        new = _chain_step(k, m[alive], d[alive], eta[alive], rng)
        m[alive] = new
        done = (np.abs(new) if k % 2 == 0 else new) >= threshold
        if done.any():
            hit[alive[done]] = t
        keep = ~done & (cap[alive] > t)
        alive = alive[keep]
    return hit


def online_full(k: int, d: int, eta: float, replicas: int, cap: int, threshold: float,
                seed: seeding.SeedLike) -> Array:
    """The same online SGD in R^d (w* = e_1), ``replicas`` at once: first-passage counts
    (−1: not reached within ``cap``). Costs O(replicas·d) per step.

    >>> bool(np.all(online_full(1, 32, 2 / 32, 4, 10**4, 0.5, 0) > 0))
    True
    """
    rng = np.random.default_rng(seeding.sequence(seed))
    w = rng.standard_normal((replicas, d))
    w /= np.linalg.norm(w, axis=1, keepdims=True)
    if k >= 3 and k % 2:
        w *= np.sign(w[:, :1] + (w[:, :1] == 0))
    hit = np.full(replicas, -1, dtype=np.int64)
    for t in range(1, cap + 1):
        x = rng.standard_normal((replicas, d))
        p = np.einsum("rd,rd->r", w, x)
        y, _ = hermite_link(k, x[:, 0])
        _, dg = hermite_link(k, p)
        w += (eta * y * dg)[:, None] * (x - p[:, None] * w)
        w /= np.linalg.norm(w, axis=1, keepdims=True)
        m = w[:, 0] if k % 2 else np.abs(w[:, 0])
        new = (hit < 0) & (m >= threshold)
        hit[new] = t
        if np.all(hit > 0):
            break
    return hit


def online_overlap(k: int, d: Array, eta: Array, steps: int, seed: seeding.SeedLike) -> Array:
    """The overlap ⟨w, w*⟩ after ``steps`` samples of online SGD (exact reduction, one row per
    entry of ``d`` and ``eta``; start as in :func:`online_first_passage`).

    >>> m = online_overlap(3, np.full(3, 64), np.full(3, 0.5 / 64 ** 1.5), 100, 0)
    >>> m.shape, bool(np.all(np.abs(m) < 1))
    ((3,), True)
    """
    d, eta, rng, m = _chain_start(k, d, eta, seed)
    for _ in range(steps):
        m = _chain_step(k, m, d, eta, rng)
    return m


def reuse_steps(X: Array, y: Array, w0: Array, eta: float, steps: int) -> Array:
    """The iterates w_0 … w_steps of spherical GD on the batch (X, y) for the loss
    L(w) = −(1/n) Σ y_i tanh(⟨w, x_i⟩) (module docstring); ``w0`` is normalised first.

    >>> X = np.array([[1.0, 0.0], [0.0, 2.0]]); w = reuse_steps(X, np.array([1.0, 1.0]),
    ...                                                          np.array([1.0, 1.0]), 1.0, 2)
    >>> w.shape, bool(np.allclose(np.linalg.norm(w, axis=1), 1))
    ((3, 2), True)
    """
    n = X.shape[0]
    w = w0 / np.linalg.norm(w0)
    out = [w]
    for _ in range(steps):
        g = X.T @ (y / np.cosh(X @ w) ** 2) / n
        g = g - (g @ w) * w
        w = w + eta * g
        w = w / np.linalg.norm(w)
        out.append(w)
    return np.array(out)


def reuse_overlaps(k: int, d: int, ratio: float, eta: float, replicas: int, steps: int,
                   seed: seeding.SeedLike, fresh: bool = False) -> Array:
    """|⟨w_t, w*⟩| for t = 0 … steps, one row per replica: teacher y = h_k(x_1) (w* = e_1),
    batch of n = ⌈ratio·d⌉ samples, w_0 uniform on the sphere, :func:`reuse_steps` on the one
    batch (``fresh``: a new batch for every step). Costs O(n d) per step and replica.

    >>> reuse_overlaps(3, 16, 4, 4.0, 2, 2, 0).shape
    (2, 3)
    """
    n = math.ceil(ratio * d)
    rng = np.random.default_rng(seeding.sequence(seed))
    out = np.empty((replicas, steps + 1))
    for r in range(replicas):
        w = rng.standard_normal(d)
        if fresh:
            ws = [w / np.linalg.norm(w)]
            for _ in range(steps):
                X = rng.standard_normal((n, d))
                ws.append(reuse_steps(X, hermite_link(k, X[:, 0])[0], ws[-1], eta, 1)[1])
            out[r] = np.abs(np.array(ws)[:, 0])
        else:
            X = rng.standard_normal((n, d))
            out[r] = np.abs(reuse_steps(X, hermite_link(k, X[:, 0])[0], w, eta, steps)[:, 0])
    return out


def _staircase(z: Array) -> tuple[Array, Array]:
    z1, z2, z3 = z[..., 0], z[..., 1], z[..., 2]
    f = z1 + z1 * z2 + z1 * z2 * z3
    grad = np.stack([1 + z2 + z2 * z3, z1 + z1 * z3, z1 * z2], axis=-1)
    return f, grad


def _product3(z: Array) -> tuple[Array, Array]:
    z1, z2, z3 = z[..., 0], z[..., 1], z[..., 2]
    return z1 * z2 * z3, np.stack([z2 * z3, z1 * z3, z1 * z2], axis=-1)


#: numpy targets of the multi-index claim: name -> (formula, r, f and its gradient)
TARGETS: dict[str, tuple[str, int, Callable[[Array], tuple[Array, Array]]]] = {
    "staircase": ("z1 + z1*z2 + z1*z2*z3", 3, _staircase),
    "product3": ("z1*z2*z3", 3, _product3),
}


@dataclass(frozen=True)
class MultiRun:
    """``samples`` (the checkpoints) and ``overlaps`` [checkpoint, replica, i, j] = ⟨W_i, e_j⟩;
    ``first`` [replica, i]: the first checkpoint sample count at which |⟨W_i, e_i⟩| >=
    ``threshold`` (−1: never)."""

    samples: Array
    overlaps: Array
    first: Array
    threshold: float


def multi_index_run(target: str, d: int, eta: float, replicas: int, samples: int,
                    seed: seeding.SeedLike, every: int = 0, threshold: float = 0.5
                    ) -> MultiRun:
    """Online SGD of the student f(Wx) on the teacher f(x_1 … x_r) (module docstring).

    >>> run = multi_index_run("staircase", 16, 0.05 / 16, 2, 100, 0)
    >>> run.overlaps.shape, run.first.shape
    ((100, 2, 3, 3), (2, 3))
    """
    _, r, fn = TARGETS[target]
    rng = np.random.default_rng(seeding.sequence(seed))
    W = rng.standard_normal((replicas, r, d))
    W /= np.linalg.norm(W, axis=2, keepdims=True)
    every = every or max(samples // 200, 1)
    marks, snaps = [], []
    first = np.full((replicas, r), -1, dtype=np.int64)
    for t in range(1, samples + 1):
        x = rng.standard_normal((replicas, d))
        y, _ = fn(x[:, :r])
        z = np.einsum("rid,rd->ri", W, x)
        _, grad = fn(z)
        a = eta * y[:, None] * grad  # (replicas, r)
        W += a[:, :, None] * (x[:, None, :] - z[:, :, None] * W)
        W /= np.linalg.norm(W, axis=2, keepdims=True)
        if t % every == 0 or t == samples:
            M = W[:, :, :r].copy()
            marks.append(t)
            snaps.append(M)
            diag = np.abs(np.einsum("rii->ri", M))
            new = (first < 0) & (diag >= threshold)
            first[new] = t
    return MultiRun(np.array(marks), np.array(snaps), first, threshold)
