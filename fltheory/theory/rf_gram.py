r"""Random-feature radial operators without the Mehler series: the sphere factorisation of the
input (helper of :mod:`fltheory.theory.rf_spectrum` for small d).

.. rubric:: Derivation

Write x = ρξ (ρ = ‖x‖ ~ χ_d, ξ uniform on S^{d−1}, independent) and w = rŵ. Expand
σ(a t) = Σ_l N(d, l) β_l(a) P_l(t) in the Gegenbauer polynomials of dimension d (P_l(1) = 1),
β_l(a) = E_t[σ(a t) P_l(t)], t with density ∝ (1 − t²)^{(d−3)/2}. The addition theorem
E_ξ[P_l(e·ξ) P_{l'}(e'·ξ)] = δ_{ll'} P_l(e·e')/N(d, l) gives

.. math::

    K(w, w') = \mathbb{E}_\rho \sum_l N(d, l)\, \beta_l(r\rho)\, \beta_l(r'\rho)\,
               P_l(\hat w\cdot\hat w'),
    \qquad
    K_l(r, r') = \mathbb{E}_\rho[\beta_l(r\rho)\, \beta_l(r'\rho)]

(E_t[P_l²] = 1/N(d, l)): the degree-l radial operator is R_l = A Aᵀ with
(Aφ)(r) = E_ρ[β_l(rρ) φ(ρ)]. No series is truncated, so the slow Mehler convergence at small d
(c_{k,l} ~ k^{−(d−1)/2}) does not arise. The homogeneous case of :mod:`rf_exact` (β_l(a) =
a^p b_l) is the same factorisation.

.. rubric:: Quadrature

*Radial laws.* u = d r²/(2s²) and v = ρ²/2 are both Gamma(d/2, 1). Both use the trapezoidal rule
in log u (log v) with one step h on one grid x_i = log(d/2) + i h (:func:`log_grid`, as
:func:`fltheory.theory.rf_nystrom.log_rule`), weights ∝ exp((d/2) x − e^x), exponentially
convergent for integrands analytic in a strip. On a common grid the products
r_i ρ_a = (2s/√d) e^{x_i/2 + x_a/2} depend on i + a only, so β_l is needed at 2n − 1 points
instead of n², and the discretised A is the symmetric matrix
B_{ia} = √ω_i β_l(r_i ρ_a) √ω_a: the eigenvalues of R_l are the squares of those of B.

*Angle.* β_l(a) by the Gauss–Jacobi rule with α = β = (d − 3)/2 (the density of t), P_l by the
three-term recurrence (l + d − 2) P_{l+1} = (2l + d − 2) t P_l − l P_{l−1}.

*Trace.* E_w K(w, w) = E_r E_ρ E_t σ(rρt)² on the same nodes.

The caller runs two orders (h and 3h/4, more angle nodes, a lower weight cut-off) and keeps the
digits on which they agree (and that float64 rounding leaves; :func:`gram_float`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["GramResult", "gegenbauer_rows", "gram_float", "jacobi_rule", "log_grid"]

#: float64 unit roundoff
_EPS = 2.0 ** -52


@dataclass(frozen=True)
class GramResult:
    """Eigenvalues (descending, floats) of each degree's discretised radial operator, their
    rounding error bounds (absolute), the radial traces tr R_l and E_w K(w, w)."""

    eigenvalues: dict[int, list[float]]
    rounding: dict[int, list[float]]
    traces: dict[int, float]
    kernel_trace: float
    nodes: int
    angle_nodes: int


def log_grid(h: float, alpha: float, cut: float) -> tuple[Any, Any]:
    """Nodes u_i = e^{x_i}, x_i = log α + i h, and normalised trapezoid weights of the
    Gamma(α, 1) law in x = log u (weight ∝ exp(α x − e^x)), keeping the weights above
    ``cut`` times the peak (the mode x = log α is a node).

    >>> u, w = log_grid(0.25, 1.5, 1e-30)
    >>> round(float((w * u).sum()), 12)  # E u = α
    1.5
    """
    import numpy as np

    x0 = math.log(alpha)
    peak = alpha * x0 - alpha
    log_cut = math.log(cut)
    lo = 0
    while alpha * (x0 + (lo - 1) * h) - math.exp(x0 + (lo - 1) * h) - peak > log_cut:
        lo -= 1
    hi = 0
    while alpha * (x0 + (hi + 1) * h) - math.exp(x0 + (hi + 1) * h) - peak > log_cut:
        hi += 1
    x = x0 + np.arange(lo, hi + 1) * h
    w = np.exp(alpha * x - np.exp(x) - peak)
    return np.exp(x), w / w.sum()


def jacobi_rule(n: int, d: int) -> tuple[Any, Any]:
    """Gauss–Jacobi rule for the law of t (density ∝ (1 − t²)^{(d−3)/2}), weights normalised.
    scipy's nodes; the weights recomputed as ∝ 1/((1 − t_i²) P'_n(t_i)²) with
    P'_n ∝ P^{(a+1,a+1)}_{n−1}: scipy's own weights are off by ~1e-11 relative at n = 400, d = 3
    (measured: E t² to 1e-13 against 1e-15 here).

    >>> t, g = jacobi_rule(50, 3)
    >>> round(float((g * t**2).sum()), 14)  # E t² = 1/d
    0.33333333333333
    """
    from scipy import special

    a = (d - 3) / 2
    t, _ = special.roots_jacobi(n, a, a)
    dp = special.eval_jacobi(n - 1, a + 1, a + 1, t)
    w = 1 / ((1 - t * t) * dp * dp)
    return t, w / w.sum()


def gegenbauer_rows(d: int, lmax: int, t: Any) -> Any:
    """P_l(t), l = 0..lmax, dimension d, P_l(1) = 1 (three-term recurrence; numpy rows).

    >>> import numpy as np
    >>> [round(float(v), 12) for v in gegenbauer_rows(3, 2, np.array([0.5]))[:, 0]]
    [1.0, 0.5, -0.125]
    """
    import numpy as np

    rows = np.empty((lmax + 1, len(t)))
    rows[0] = 1.0
    if lmax >= 1:
        rows[1] = t
    for l in range(1, lmax):
        rows[l + 1] = ((2 * l + d - 2) * t * rows[l] - l * rows[l - 1]) / (l + d - 2)
    return rows


def gram_float(fn: Callable[[Any], Any], d: int, s2: float, ls: list[int], h: float,
               n_t: int, cut: float) -> GramResult:
    """Eigenvalues of the discretised radial operators R_l, l in ``ls``, in float64 (module
    docstring). ``fn``: σ (or its even/odd part) as a numpy function; ``s2`` = s²; ``h``: the
    step in log u; ``n_t``: Gauss–Jacobi nodes; ``cut``: relative weight below which radial
    nodes are dropped. ``rounding[l][j]`` bounds the float64 error of λ_{l,j}
    (estimates: ε·‖B‖₂ on each eigenvalue b of B, λ = b², from the solver; √n_t·ε·Σ|g σ P_l|
    on each β_l from the sums).

    σ(z) = z: β_1(a) = a E[t²] = a/d, λ_{1,0} = E[r²] E[ρ²]/d² = s²/d:

    >>> res = gram_float(lambda z: z, 3, 1.0, [1], 0.25, 20, 1e-30)
    >>> round(res.eigenvalues[1][0], 12)
    0.333333333333
    """
    import numpy as np

    alpha = d / 2
    u, w = log_grid(h, alpha, cut)
    n = len(u)
    x_first = math.log(u[0])
    # products r_i ρ_a = (2s/√d) e^{(x_i + x_a)/2}, indexed by i + a
    a = 2 * math.sqrt(s2 / d) * np.exp(x_first + np.arange(2 * n - 1) * h / 2)
    t, g = jacobi_rule(n_t, d)
    lmax = max(ls, default=0)
    P = gegenbauer_rows(d, lmax, t)
    S = np.asarray(fn(a[:, None] * t[None, :]), dtype=float) * np.ones((len(a), n_t))
    if not np.all(np.isfinite(S)):
        raise ArithmeticError("non-finite values of σ in float64")
    beta = S @ (g[None, :] * P).T  # (2n − 1) × (lmax + 1)
    idx = np.add.outer(np.arange(n), np.arange(n))
    sw = np.sqrt(w)
    ktrace = float(sw**2 @ ((S**2 @ g)[idx]) @ sw**2)
    # rounding of β_l(a) = Σ_b g_b σ(a t_b) P_l(t_b): √n_t·ε·Σ_b g_b |σ(a t_b) P_l(t_b)|
    # (Higham's probabilistic bound; the worst case n_t·ε is never approached by BLAS sums)
    beta_error = math.sqrt(n_t) * _EPS * (np.abs(S) @ (g[None, :] * np.abs(P)).T)
    eig: dict[int, list[float]] = {}
    rnd: dict[int, list[float]] = {}
    traces: dict[int, float] = {}
    for l in ls:
        B = sw[:, None] * beta[idx, l] * sw[None, :]
        b = np.linalg.eigvalsh(B)
        order = np.argsort(-np.abs(b))
        b = np.abs(b[order])
        norm = float(np.linalg.norm(B))
        # |δb| ≈ ε ‖B‖₂ (backward-stable solver: first-order estimate, not a worst case; the
        # caller's two passes, with other nodes and other roundings, check it) + ‖δB‖_F
        entries = float(np.linalg.norm(sw[:, None] * beta_error[idx, l] * sw[None, :]))
        db = _EPS * float(b[0]) + entries
        eig[l] = [float(v) ** 2 for v in b]
        rnd[l] = [2 * float(v) * db + db * db for v in b]
        traces[l] = norm**2
    return GramResult(eig, rnd, traces, ktrace, n, n_t)
