r"""Random-feature radial operators without the Mehler series: the sphere factorisation of the
input (helper of :mod:`fltheory.engine.randomfeatures` for small d).

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
:func:`fltheory.engine.randomfeatures.radial.log_rule`), weights ∝ exp((d/2) x − e^x), exponentially
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

import mpmath

__all__ = ["GramMpResult", "GramResult", "gegenbauer_rows", "gram_float", "gram_mp", "jacobi_rule",
           "log_grid"]

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


#: bound on the relative error, in units of ε, of one term g_b σ(a t_b) P_l(t_b) of β_l:
#: σ within an ulp (ε/2·2), the weight g_b (normalised, ~2 ulps), P_l(t_b) by the recurrence
#: (l <= 60 at the nodes: a few ulps, the two passes' different nodes checking it), two products
_TERM_ULPS = 4


def _compensated_rows(S: Any, gP: Any) -> Any:
    """S·gPᵀ with each sum Σ_b S_{kb} gP_{lb} compensated: pairwise (cascaded) summation
    whose additions are error-free transformations (Knuth's TwoSum), the rounding errors
    summed apart and added at the end; the error is about u·|sum| + n_t·log n_t·u²·Σ|terms|
    instead of BLAS's √n_t·u·Σ|terms| (the products are rounded once each: the caller's
    bound)."""
    import numpy as np

    x = S[:, None, :] * gP[None, :, :]
    carry = np.zeros(x.shape[:2])
    while x.shape[2] > 1:
        if x.shape[2] % 2:
            x = np.concatenate([x, np.zeros((*x.shape[:2], 1))], axis=2)
        a, b = x[:, :, 0::2], x[:, :, 1::2]
        t = a + b
        bb = t - a
        carry += ((a - (t - bb)) + (b - bb)).sum(axis=2)
        x = t
    return x[:, :, 0] + carry


def gram_float(fn: Callable[[Any], Any], d: int, s2: float, ls: list[int], h: float,
               n_t: int, cut: float) -> GramResult:
    """Eigenvalues of the discretised radial operators R_l, l in ``ls``, in float64 (module
    docstring). ``fn``: σ (or its even/odd part) as a numpy function; ``s2`` = s²; ``h``: the
    step in log u; ``n_t``: Gauss–Jacobi nodes; ``cut``: relative weight below which radial
    nodes are dropped. ``rounding[l][j]`` bounds the float64 error of λ_{l,j}
    (estimates: ε·‖B‖₂ on each eigenvalue b of B, λ = b², from the solver; each β_l summed
    compensated, its terms' errors at most :data:`_TERM_ULPS`·ε·Σ|g σ P_l|).

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
    gP = g[None, :] * P
    beta = _compensated_rows(S, gP)  # (2n − 1) × (lmax + 1)
    idx = np.add.outer(np.arange(n), np.arange(n))
    sw = np.sqrt(w)
    ktrace = float(sw**2 @ ((S**2 @ g)[idx]) @ sw**2)
    # rounding of β_l(a) = Σ_b g_b σ(a t_b) P_l(t_b), summed compensated (error ~ u|β|): the
    # terms' own errors, σ (numpy, within an ulp), g_b and P_l(t_b) (a few ulps) and the two
    # products, at most _TERM_ULPS·ε·Σ_b g_b |σ(a t_b) P_l(t_b)|
    beta_error = _TERM_ULPS * _EPS * (np.abs(S) @ np.abs(gP).T) + _EPS * np.abs(beta)
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
        entries = float(np.linalg.norm(sw[:, None] * beta_error[idx, l] * sw[None, :])) \
            + _EPS * float(np.linalg.norm(B))
        db = _EPS * float(b[0]) + entries
        eig[l] = [float(v) ** 2 for v in b]
        rnd[l] = [2 * float(v) * db + db * db for v in b]
        traces[l] = norm**2
    return GramResult(eig, rnd, traces, ktrace, n, n_t)


@dataclass(frozen=True)
class GramMpResult:
    """:func:`gram_mp`: eigenvalues λ = b² (descending, mpmath) of each degree's discretised
    radial operator with a bound on the Rayleigh–Ritz error of each (absolute, on λ), the
    radial traces tr R_l and E_w K(w, w)."""

    eigenvalues: dict[int, list[Any]]
    ritz_error: dict[int, list[Any]]
    traces: dict[int, Any]
    kernel_trace: Any
    nodes: int
    angle_nodes: int


def _de_rule(ht: Any, gamma: Any, wp: int) -> tuple[list[Any], list[Any]]:
    """Double-exponential rule on [0, 1] for ∫ f(t) (1 − t²)^γ dt: t = 1/(1 + e^{−π sinh x}),
    x = k·ht, weights ht·π cosh x · t(1 − t)(1 − t²)^γ, truncated where they fall below
    10^{−wp − 10} (t = 0 is an end point: the narrow features of σ(a t) at t ~ 1/a for large a
    are where the rule's nodes crowd)."""
    nodes: list[Any] = []
    weights: list[Any] = []
    tiny = mpmath.mpf(10) ** (-wp - 10)
    for sign in (1, -1):
        k = 0 if sign == 1 else -1
        while True:
            x = k * ht
            e = mpmath.exp(mpmath.pi * mpmath.sinh(x))
            t, one_minus = e / (1 + e), 1 / (1 + e)
            w = ht * mpmath.pi * mpmath.cosh(x) * t * one_minus * \
                (one_minus * (1 + t)) ** gamma
            if w < tiny or t == 0 or one_minus == 0:
                break
            nodes.append(t)
            weights.append(w)
            k += sign
    return nodes, weights


def gram_mp(fn: Callable[[Any], Any], d: int, s2: Any, ls: list[int], jmax: int, h: Any,
            ht: Any, wp: int, vectors: int = 4) -> GramMpResult:
    """The Gram route (module docstring) in mpmath at ``wp`` digits: radial trapezoid in log u
    with step ``h`` (nodes of relative weight above 10^{−wp}), β_l(a) = 2 c_d ∫_0^1 σ(a t)
    P_l(t) (1 − t²)^{(d−3)/2} dt (σ(a t) P_l(t) is even in t: the parity of l is σ's) by the
    double-exponential rule with step ``ht``/(1 + log(1 + a)) (a pole of σ(a t) at distance
    ~1/a from t = 0 narrows the strip of analyticity logarithmically), c_d = Γ(d/2)/(√π
    Γ((d−1)/2)). Eigenvalues of B_l: float64 eigenvectors of the ``jmax`` + 1 + ``vectors``
    largest |b|, one subspace iteration and a Rayleigh–Ritz step in mpmath; ``ritz_error``
    bounds |θ − b| by min(‖r‖, ‖r‖²/gap) (r the Ritz residual, gap to the other Ritz values
    and to the largest float64 |b| left out), carried to λ = b². ``fn``: σ's part as an mpmath
    function (of the parity of ``ls``).

    σ(z) = z: β_1(a) = a/d, λ_{1,0} = s²/d:

    >>> import mpmath
    >>> with mpmath.workdps(30):
    ...     res = gram_mp(lambda z: z, 3, mpmath.mpf(1), [1], 0, mpmath.mpf(1) / 10,
    ...                   mpmath.mpf(1) / 8, 30)
    ...     mpmath.nstr(res.eigenvalues[1][0], 25)
    '0.3333333333333333333333333'
    """
    with mpmath.workdps(wp + 10):
        n, w, sw, a = _radial_rule(d, s2, h, wp)
        beta, square, angle_nodes = _angular_integrals(fn, a, d, ls, ht, wp)
        conv = _pair_weights(w)
        kernel_trace = mpmath.fdot(conv, square)
        eig: dict[int, list[Any]] = {}
        err: dict[int, list[Any]] = {}
        traces: dict[int, Any] = {}
        for l in ls:
            traces[l] = mpmath.fdot(conv, [v * v for v in beta[l]])
            eig[l], err[l] = _ritz_levels(beta[l], sw, jmax, vectors)
        return GramMpResult(eig, err, traces, kernel_trace, n, angle_nodes)


def _radial_rule(d: int, s2: Any, h: Any, wp: int) -> tuple[int, list[Any], list[Any], list[Any]]:
    """The radial trapezoid of :func:`gram_mp` (at the caller's precision): nodes x_i = x_0 +
    i·h in x = log u, u ~ Gamma(d/2) (x_0 = log(d/2), the peak of its density e^{αx − e^x}),
    kept while the density is above 10^{−wp − 2} of its peak. Returns (n, the normalised
    weights ω_i, their square roots, the 2n − 1 arguments a_k = 2√(s²/d)·e^{x_0 + k h/2}
    of β_l at the node pairs i + j = k)."""
    alpha = mpmath.mpf(d) / 2
    x0 = mpmath.log(alpha)
    peak = alpha * x0 - alpha
    limit = -(wp + 2) * mpmath.log(10)
    lo = 0
    while alpha * (x0 + (lo - 1) * h) - mpmath.exp(x0 + (lo - 1) * h) - peak > limit:
        lo -= 1
    hi = 0
    while alpha * (x0 + (hi + 1) * h) - mpmath.exp(x0 + (hi + 1) * h) - peak > limit:
        hi += 1
    xs = [x0 + i * h for i in range(lo, hi + 1)]
    n = len(xs)
    w = [mpmath.exp(alpha * x - mpmath.exp(x) - peak) for x in xs]
    total = mpmath.fsum(w)
    w = [v / total for v in w]
    sw = [mpmath.sqrt(v) for v in w]
    c = 2 * mpmath.sqrt(s2 / d)
    a = [c * mpmath.exp(xs[0] + k * h / 2) for k in range(2 * n - 1)]
    return n, w, sw, a


def _angular_integrals(fn: Callable[[Any], Any], a: list[Any], d: int, ls: list[int], ht: Any,
                       wp: int) -> tuple[dict[int, list[Any]], list[Any], int]:
    """β_l(a_k) for l in ``ls`` and E_t σ(a_k t)² at each argument a_k, by the
    double-exponential rule of step ``ht``/2^{level/4}, level = ⌈4 log2(1 + log(1 + a_k))⌉
    (one rule per level, with the Gegenbauer weights of :func:`_angle_rule`); also the
    largest number of angle nodes used."""
    alpha = mpmath.mpf(d) / 2
    cd = 2 * mpmath.gamma(alpha) / (mpmath.sqrt(mpmath.pi) * mpmath.gamma(alpha -
                                                                          mpmath.mpf(1) / 2))
    gamma = (mpmath.mpf(d) - 3) / 2
    lmax = max(ls, default=0)
    rules: dict[int, tuple[list[Any], list[list[Any]]]] = {}
    beta: dict[int, list[Any]] = {l: [] for l in ls}
    square: list[Any] = []
    angle_nodes = 0
    for ak in a:
        level = int(mpmath.ceil(mpmath.log(1 + mpmath.log(1 + ak), 2) * 4))
        if level not in rules:
            rules[level] = _angle_rule(ht / mpmath.mpf(2) ** (mpmath.mpf(level) / 4), gamma, cd,
                                       d, lmax, wp)
        t, G = rules[level]
        angle_nodes = max(angle_nodes, len(t))
        values = [fn(ak * tb) for tb in t]
        for l in ls:
            beta[l].append(mpmath.fdot(values, G[l]))
        square.append(mpmath.fdot([v * v for v in values], G[0]))
    return beta, square, angle_nodes


def _angle_rule(ht: Any, gamma: Any, cd: Any, d: int, lmax: int, wp: int
                ) -> tuple[list[Any], list[list[Any]]]:
    """The nodes t of :func:`_de_rule` (step ``ht``) and, for l = 0..lmax, the weights
    c_d·g(t)·P_l(t) (P_l the Legendre polynomials of dimension d, by their recurrence)."""
    t, g = _de_rule(ht, gamma, wp)
    P = [[mpmath.mpf(1)] * len(t), list(t)]
    for l in range(1, lmax):
        P.append([((2 * l + d - 2) * tb * P[l][b] - l * P[l - 1][b]) / (l + d - 2)
                  for b, tb in enumerate(t)])
    return t, [[cd * gb * p for gb, p in zip(g, P[l], strict=True)] for l in range(lmax + 1)]


def _pair_weights(w: list[Any]) -> list[Any]:
    """Σ_{i+a=k} ω_i ω_a for k = 0..2n − 2 (ω_i > 0: one big-integer square, fixed point at
    2^{−bits})."""
    n = len(w)
    bits = mpmath.mp.prec + 20 + n.bit_length()
    width = 2 * bits + 64
    packed = 0
    for v in reversed(w):
        packed = (packed << width) | int(mpmath.nint(mpmath.ldexp(v, bits)))
    square_w = packed * packed
    conv = []
    for _ in range(2 * n - 1):
        conv.append(mpmath.ldexp(mpmath.mpf(square_w & ((1 << width) - 1)), -2 * bits))
        square_w >>= width
    return conv


def _ritz_levels(bl: list[Any], sw: list[Any], jmax: int, vectors: int
                 ) -> tuple[list[Any], list[Any]]:
    """The ``jmax`` + 1 largest eigenvalues λ = b² of B_l = diag(√ω) [β_l(a_{i+j})] diag(√ω)
    and bounds on their errors: float64 eigenvectors of the ``jmax`` + 1 + ``vectors``
    largest |b|, one subspace iteration and a Rayleigh–Ritz step in mpmath
    (:func:`_ritz_bounds`)."""
    import numpy as np

    n = len(sw)
    bf = np.array([float(v) for v in bl])
    swf = np.array([float(v) for v in sw])
    idx = np.add.outer(np.arange(n), np.arange(n))
    vals, vecs = np.linalg.eigh(swf[:, None] * bf[idx] * swf[None, :])
    order = np.argsort(-np.abs(vals))
    p = min(n, jmax + 1 + vectors)
    left_out = abs(float(vals[order[p]])) if p < n else 0.0
    Q = [[mpmath.mpf(float(vecs[i, order[q]])) for i in range(n)] for q in range(p)]
    bits = mpmath.mp.prec + 20 + n.bit_length()
    fixed = _Fixed(bl, bits)

    def apply(v: list[Any], fixed: _Fixed = fixed) -> list[Any]:
        row = fixed.hankel([s_ * x for s_, x in zip(sw, v, strict=True)], n)
        return [s_ * x for s_, x in zip(sw, row, strict=True)]

    Q = _orthonormal([apply(v) for v in Q])  # one subspace iteration
    Z = [apply(v) for v in Q]
    C = mpmath.matrix(p, p)
    for i in range(p):
        for j in range(i, p):
            C[i, j] = C[j, i] = mpmath.fdot(Q[i], Z[j])
    theta, Y = mpmath.eigsy(C)
    values_l, errors_l = _ritz_bounds(Q, Z, theta, Y, left_out)
    return values_l[:jmax + 1], errors_l[:jmax + 1]


def _ritz_bounds(Q: list[list[Any]], Z: list[list[Any]], theta: Any, Y: Any, left_out: float
                 ) -> tuple[list[Any], list[Any]]:
    """The Ritz values θ² (largest |θ| first) and bounds 2|θ|e + e² on their errors, e =
    min(‖r‖, ‖r‖²/gap): r = B Q y − θ Q y (Z = B Q) in fixed point (2^{−fb} of the largest
    |Z|, |Q| <= 1), gap to the other Ritz values and to the largest float64 |b| left out."""
    p, n = len(Q), len(Q[0])
    ritz = sorted(range(p), key=lambda q: -abs(theta[q]))
    values_l, errors_l = [], []
    fb = mpmath.mp.prec + 40
    zmax = max(abs(x) for v in Z for x in v)
    ze = int(mpmath.floor(mpmath.log(zmax, 2))) + 1 if zmax else 0
    Zi = [[int(mpmath.nint(mpmath.ldexp(x, fb - ze))) for x in v] for v in Z]
    Qi = [[int(mpmath.nint(mpmath.ldexp(x, fb - ze))) for x in v] for v in Q]
    for q in ritz:
        th = theta[q]
        ti = int(mpmath.nint(mpmath.ldexp(th, fb)))
        yi = [int(mpmath.nint(mpmath.ldexp(Y[m, q], fb))) for m in range(p)]
        rr = 0
        for i in range(n):
            x = sum(yi[m] * ((Zi[m][i] << fb) - ti * Qi[m][i]) for m in range(p))
            rr += x * x
        r = mpmath.ldexp(mpmath.sqrt(mpmath.mpf(rr)), ze - 3 * fb)
        others = [abs(th - theta[m]) for m in range(p) if m != q]
        gap = min([*others, abs(abs(th) - left_out)])
        e = min(r, r * r / gap) if gap > 0 else r
        values_l.append(th * th)
        errors_l.append(2 * abs(th) * e + e * e)
    return values_l, errors_l


def _orthonormal(vs: list[list[Any]]) -> list[list[Any]]:
    """Modified Gram–Schmidt, twice (mpmath vectors)."""
    out: list[list[Any]] = []
    for v in vs:
        for _ in range(2):
            for u in out:
                c = mpmath.fdot(u, v)
                v = [x - c * y for x, y in zip(v, u, strict=True)]
        norm = mpmath.sqrt(mpmath.fdot(v, v))
        out.append([x / norm for x in v])
    return out


class _Fixed:
    """A Hankel product y_i = Σ_j c_{i+j} v_j (i, j < n) in fixed point with one big-integer
    multiplication (Kronecker substitution): c and v are rounded to multiples of 2^{−bits}
    times their largest entry (absolute error below n·2^{−bits}·max|c|·max|v|)."""

    def __init__(self, c: list[Any], bits: int) -> None:
        self.bits = bits
        top = max((abs(x) for x in c), default=mpmath.mpf(0))
        self.exp = int(mpmath.floor(mpmath.log(top, 2))) + 1 if top else 0
        self.c = [self._int(x, self.exp) for x in c]
        self.packed = {sign: self._pack([max(0, sign * x) for x in self.c])
                       for sign in (1, -1)}

    def _int(self, x: Any, exp: int) -> int:
        return int(mpmath.nint(mpmath.ldexp(x, self.bits - exp)))

    def _pack(self, ints: list[int]) -> int:
        width = 2 * self.bits + 64
        out = 0
        for x in reversed(ints):
            out = (out << width) | x
        return out

    def hankel(self, v: list[Any], n: int) -> list[Any]:
        top = max((abs(x) for x in v), default=mpmath.mpf(0))
        if not top:
            return [mpmath.mpf(0)] * n
        vexp = int(mpmath.floor(mpmath.log(top, 2))) + 1
        vi = [self._int(x, vexp) for x in v]
        width = 2 * self.bits + 64
        mask = (1 << width) - 1
        # y_i = Σ_j c_{i+j} v_j: the coefficient of X^{i + n − 1} in C(X)·V(X), V reversed
        total = [0] * n
        for sc in (1, -1):
            for sv in (1, -1):
                packed_v = self._pack([max(0, sv * x) for x in reversed(vi)])
                prod = (self.packed[sc] * packed_v) >> (width * (n - 1))
                for i in range(n):
                    total[i] += sc * sv * (prod & mask)
                    prod >>= width
        shift = self.exp + vexp - 2 * self.bits
        return [mpmath.ldexp(mpmath.mpf(y), shift) for y in total]
