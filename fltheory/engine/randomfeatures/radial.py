r"""Nyström discretisation of the radial operators of random features for a general activation
(helper of :mod:`fltheory.engine.randomfeatures`).

Mehler: K(w, w') = Σ_k μ_k(r) μ_k(r') t^k, μ_k(r) = E[σ(rz) h_k(z)], so the degree-l radial kernel
is

.. math::

    K_l(r, r') = \sum_{k \ge l,\ k \equiv l\ (2)} c_{k,l}\, \mu_k(r)\, \mu_k(r'), \qquad
    c_{k,l} = \mathbb{E}_t[t^k P_l(t)] \ge 0

(the Funk–Hecke factors, exact rationals).

*Radial law.* u = d r²/(2s²) ~ Gamma(d/2, 1). For d >= 200 the generalised Gauss–Laguerre rule
with parameter α = d/2 − 1 (Golub–Welsch: Jacobi matrix diag 2i + α + 1, off-diagonal
√(i(i + α)); weights the Christoffel numbers 1/Σ_k p_k(u_i)²); for smaller d the law
is wide, μ_k(r) need not be analytic at r = 0 (tanh: μ_k(r) is singular for imaginary r) and
Gauss–Laguerre converges slowly (about 1e-9 at d = 10 with 40 nodes), so the trapezoidal rule
in x = log u is used (:func:`log_rule`; exponential convergence: the integrand is analytic in
|Im x| < π/2 and grows there like e^{α y²/2} at height y, α = d/2, so the error is about
min_y exp(−2πy/h + αy²/2)). Nodes of weight below 10^{−wp} are dropped.

*Hermite coefficients μ_k(r_i).* The trapezoidal rule in z with the Gaussian weight, step
h = h0/(1.1·2^m) for the nodes with 1.1·2^{m−1} < r_i <= 1.1·2^m (one grid and one table of
h_k per m; at large d every node is in m = 0), on
|z| <= Z with e^{−Z²/4} below 10^{−wp} (|h_k(z)| e^{−z²/4} <= 1): for σ analytic in a strip
its error falls like exp(−2πτ/h) (τ the half-width of the strip of z ↦ σ(rz), π/(2r) for
tanh), for entire σ faster. The orthonormal h_k come from the three-term recurrence

.. math::

    h_{k+1}(z) = \frac{z\, h_k(z) - \sqrt k\, h_{k-1}(z)}{\sqrt{k + 1}};

the series stops at a node once Σ μ_k² is within
10^{−wp} of E σ(rz)² (Parseval).

*Eigenvalues.* G_{kk'} = Σ_i ω_i μ_k(r_i) μ_{k'}(r_i) for k, k' ∈ {l, l + 2, …, <= K};
the eigenvalues of C^{1/2} G C^{1/2} (C = diag c_{k,l}) are those of the truncated discretised
operator (mpmath ``eigsy``).

*Truncation bound.* The dropped terms k > K form a positive semi-definite operator of trace

.. math::

    \sum_{k>K} c_{k,l}\, \mathbb{E}_r\, \mu_k(r)^2
      \le \mathbb{E}|t|^{K+1}\,
          \mathbb{E}_r\Bigl[\mathbb{E}\,\sigma(rz)^2 - \sum_{k\le K} \mu_k(r)^2\Bigr]

(c_{k,l} <= E|t|^k, decreasing in k; Parseval), which bounds the error of every eigenvalue (Weyl).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from fltheory.engine.spherical import legendre_coefficients

__all__ = ["NystromResult", "abs_t_moment_mp", "funk_hecke", "laguerre_rule", "log_rule", "nystrom",
           "nystrom_float", "t_moment"]


def t_moment(d: int, m: int) -> Fraction:
    """E[t^m] (exact Fraction), t = ŵ·e on S^{d−1}: 0 for odd m, Π_{i<m/2} (2i + 1)/(d + 2i)
    for even m.

    >>> t_moment(3, 2), t_moment(3, 4), t_moment(3, 3)
    (Fraction(1, 3), Fraction(1, 5), Fraction(0, 1))
    """
    if m % 2:
        return Fraction(0)
    value = Fraction(1)
    for i in range(m // 2):
        value *= Fraction(2 * i + 1, d + 2 * i)
    return value


def funk_hecke(d: int, k: int, l: int) -> Fraction:
    """c_{k,l} = E_t[t^k P_l(t)] (exact rational; 0 unless k >= l and k ≡ l mod 2).

    >>> funk_hecke(3, 2, 0), funk_hecke(3, 2, 2), funk_hecke(3, 3, 2)
    (Fraction(1, 3), Fraction(2, 15), Fraction(0, 1))
    """
    if k < l or (k - l) % 2:
        return Fraction(0)
    return sum((c * t_moment(d, k + i) for i, c in enumerate(legendre_coefficients(d, l))),
               Fraction(0))


def abs_t_moment_mp(d: int, m: int) -> Any:
    """E|t|^m = Γ((m+1)/2) Γ(d/2) / (√π Γ((d+m)/2)) (mpmath at the current precision,
    log-Gamma: no overflow at d = 10^6).

    >>> mpmath.nstr(abs_t_moment_mp(3, 1), 10)  # t uniform on [−1, 1]: E|t| = 1/2
    '0.5'
    """
    return mpmath.exp(mpmath.loggamma(mpmath.mpf(m + 1) / 2) + mpmath.loggamma(mpmath.mpf(d) / 2)
                      - mpmath.loggamma(mpmath.mpf(d + m) / 2)) / mpmath.sqrt(mpmath.pi)


def laguerre_rule(n: int, alpha: Any) -> tuple[list[Any], list[Any]]:
    """Nodes and normalised weights of the n-point Gauss rule for the Gamma(α + 1, 1) law
    (generalised Laguerre weight u^α e^{−u}), at the current mpmath precision: nodes are the
    eigenvalues of the Jacobi matrix (Golub–Welsch), weights the Christoffel numbers.

    >>> with mpmath.workdps(20):
    ...     u, w = laguerre_rule(3, 0)
    ...     mpmath.nstr(mpmath.fsum(wi * ui**2 for ui, wi in zip(u, w)), 12)  # E u² = 2
    '2.0'
    """
    alpha = mpmath.mpf(alpha)
    diag = [2 * i + alpha + 1 for i in range(n)]
    off = [mpmath.sqrt(i * (i + alpha)) for i in range(1, n)]
    J = mpmath.zeros(n, n)
    for i in range(n):
        J[i, i] = diag[i]
        if i:
            J[i, i - 1] = J[i - 1, i] = off[i - 1]
    E = mpmath.eigsy(J, eigvals_only=True)
    nodes = sorted(E[i] for i in range(n))
    # Christoffel numbers: w_i = 1/Σ_{k<n} p_k(u_i)², p_k orthonormal for the Gamma law
    # (p_{k+1} b_{k+1} = (u − a_k) p_k − b_k p_{k−1}), then normalised.
    weights = []
    for u in nodes:
        prev, cur, total = mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(1)
        for k in range(n - 1):
            nxt = ((u - diag[k]) * cur - (off[k - 1] * prev if k else 0)) / off[k]
            prev, cur = cur, nxt
            total += cur * cur
        weights.append(1 / total)
    norm = mpmath.fsum(weights)
    return nodes, [w / norm for w in weights]


def log_rule(h: Any, alpha1: Any, wp: int) -> tuple[list[Any], list[Any]]:
    """Trapezoid nodes u_j = e^{x_j} and weights for the Gamma(α₁, 1) law in x = log u:
    weight h·exp(α₁ x − e^x)/Γ(α₁), x on the grid x0 + j h (x0 = log α₁, the mode) while the
    weight is above 10^{−wp−5} of its peak; normalised to total mass 1. Converges like
    exp(−π²/h) for integrands analytic in |arg u| < π (|Im x| < π), e^{−u} limiting the strip
    to |Im x| < π/2.

    >>> with mpmath.workdps(20):
    ...     u, w = log_rule(mpmath.mpf(1) / 4, 2, 20)
    ...     mpmath.nstr(mpmath.fsum(wi * ui for ui, wi in zip(u, w)), 12)  # E u = α₁
    '2.0'
    """
    alpha1 = mpmath.mpf(alpha1)
    x0 = mpmath.log(alpha1)
    peak = alpha1 * x0 - alpha1
    cut = peak - (wp + 5) * mpmath.log(10)
    xs = [x0]
    for step in (1, -1):
        j = 1
        while True:
            x = x0 + step * j * h
            if alpha1 * x - mpmath.exp(x) < cut:
                break
            xs.append(x)
            j += 1
    xs.sort()
    logw = [alpha1 * x - mpmath.exp(x) - peak for x in xs]
    weights = [mpmath.exp(lw) for lw in logw]
    total = mpmath.fsum(weights)
    return [mpmath.exp(x) for x in xs], [w / total for w in weights]


@dataclass(frozen=True)
class NystromResult:
    """Eigenvalues (descending, mpmath) of each degree's discretised radial operator, its trace
    Σ_k c_{k,l} E_r μ_k², the truncation bound, and E_r E σ(rz)² from the same nodes."""

    eigenvalues: dict[int, list[Any]]
    traces: dict[int, Any]
    truncation: dict[int, Any]
    kernel_trace: Any
    nodes: int
    K: int


def _hermite_table(zs: list[Any], K: int) -> list[list[Any]]:
    """h_k(z_j), k = 0..K, orthonormal (three-term recurrence)."""
    rows = [[mpmath.mpf(1)] * len(zs), list(zs)]
    for k in range(1, K):
        a, b = mpmath.sqrt(k + 1), mpmath.sqrt(k)
        prev, cur = rows[k - 1], rows[k]
        rows.append([(z * c - b * p) / a for z, c, p in zip(zs, cur, prev, strict=True)])
    return rows[: K + 1]


def _grid(h: Any, K: int, wp: int) -> tuple[list[Any], list[Any], list[list[Any]]]:
    """Half-grid z_j = j h (j >= 0) with trapezoid weights h φ(z_j) (z_0 halved: the full rule
    on ℝ counts it once) and the table h_k(z_j), k <= K, shared by every radial node."""
    zmax = 2 * mpmath.sqrt(wp * mpmath.log(10)) + 2
    J = int(mpmath.ceil(zmax / h))
    zs = [j * h for j in range(J + 1)]
    weights = [h * mpmath.exp(-z * z / 2) / mpmath.sqrt(2 * mpmath.pi) for z in zs]
    weights[0] /= 2
    return zs, weights, _hermite_table(zs, K)


def _coefficients(fn: Callable[[Any], Any], r: Any, grid: tuple[list[Any], list[Any],
                  list[list[Any]]], K: int, parity: int) -> tuple[list[Any], Any]:
    """μ_k(r), k = 0..K, and E σ(rz)² by the trapezoidal rule on the shared grid: with
    h_k(−z) = (−1)^k h_k(z), μ_k = Σ_j w_j h_k(z_j) (σ(r z_j) ± σ(−r z_j)) (module docstring)."""
    zs, weights, H = grid
    plus = [fn(r * z) for z in zs]
    minus = plus if parity == 1 else [-v for v in plus] if parity == -1 \
        else [fn(-r * z) for z in zs]
    even = [w * (a + b) for w, a, b in zip(weights, plus, minus, strict=True)]
    odd = [w * (a - b) for w, a, b in zip(weights, plus, minus, strict=True)]
    norm2 = mpmath.fdot(weights, [a * a + b * b for a, b in zip(plus, minus, strict=True)])
    # Parseval: stop once Σ μ_k² is within 10^{−wp} of E σ(rz)² (the rest is below it).
    floor, captured = norm2 * mpmath.mpf(10) ** (-mpmath.mp.dps), mpmath.mpf(0)
    mus = [mpmath.mpf(0)] * (K + 1)
    for k in range(K + 1):
        if (parity == 1 and k % 2) or (parity == -1 and k % 2 == 0):
            continue
        mus[k] = mpmath.fdot(H[k], odd if k % 2 else even)
        captured += mus[k] ** 2
        if norm2 - captured <= floor:
            break
    return mus, norm2


def nystrom(fn: Callable[[Any], Any], d: int, s2: Any, ls: list[int], K: int, n_r: int,
            h0: Any, wp: int, parity: int = 0, hx: Any = None) -> NystromResult:
    """Eigenvalues of the discretised radial operators R_l, l in ``ls`` (module docstring).

    ``fn``: σ as an mpmath function; ``s2`` = s²; ``K`` the Mehler truncation; ``n_r`` the
    Laguerre nodes; ``h0`` the trapezoid step at r <= 1; ``wp`` the working digits;
    ``parity`` 1 (even σ), −1 (odd σ) or 0; ``hx``: step of :func:`log_rule` (then
    ``n_r`` is unused) or None for Gauss–Laguerre. Runs at ``wp`` digits; returns a
    :class:`NystromResult`.

    σ(z) = z: μ_1(r) = r, K_1 = c_{1,1} r r', λ_{1,0} = E[t²] E[r²] = s²/d:

    >>> res = nystrom(lambda z: z, 3, mpmath.mpf(1), [1], 3, 4, mpmath.mpf(1) / 4, 20, -1)
    >>> mpmath.nstr(res.eigenvalues[1][0], 12)
    '0.333333333333'
    """
    with mpmath.workdps(wp):
        if hx is None:
            u, omega = laguerre_rule(n_r, mpmath.mpf(d) / 2 - 1)
        else:
            u, omega = log_rule(hx, mpmath.mpf(d) / 2, wp)
        floor = mpmath.mpf(10) ** (-wp)
        keep = [(ui, wi) for ui, wi in zip(u, omega, strict=True) if wi > floor]
        rs = [mpmath.sqrt(2 * s2 * ui / d) for ui, _ in keep]
        ws = [wi for _, wi in keep]
        grids: dict[int, Any] = {}  # step h0/(1.1·2^m) serves the nodes with r <= 1.1·2^m
        table = []
        for r in rs:
            m = max(0, int(mpmath.ceil(mpmath.log(r / 1.1, 2)))) if r > 1.1 else 0
            if m not in grids:
                grids[m] = _grid(h0 / (mpmath.mpf(1.1) * 2**m), K, wp)
            table.append(_coefficients(fn, r, grids[m], K, parity))
        ktrace = mpmath.fsum(w * n2 for w, (_, n2) in zip(ws, table, strict=True))
        tail = mpmath.fsum(w * (n2 - mpmath.fsum(m * m for m in mus))
                           for w, (mus, n2) in zip(ws, table, strict=True))
        tail = max(tail, floor * abs(ktrace))
        bound_c = abs_t_moment_mp(d, K + 1)
        eig: dict[int, list[Any]] = {}
        traces: dict[int, Any] = {}
        trunc: dict[int, Any] = {}
        for l in ls:
            ks = list(range(l, K + 1, 2))
            if not ks:
                eig[l], traces[l], trunc[l] = [], mpmath.mpf(0), bound_c * tail
                continue
            c = [funk_hecke(d, k, l) for k in ks]
            sq = [mpmath.sqrt(mpmath.mpf(ci.numerator) / ci.denominator) for ci in c]
            n = len(ks)
            A = mpmath.zeros(n, n)
            for a in range(n):
                for b in range(a, n):
                    g = mpmath.fsum(w * mus[ks[a]] * mus[ks[b]]
                                    for w, (mus, _) in zip(ws, table, strict=True))
                    A[a, b] = A[b, a] = sq[a] * g * sq[b]
            E = mpmath.eigsy(A, eigvals_only=True)
            eig[l] = sorted((E[i] for i in range(n)), reverse=True)
            traces[l] = mpmath.fsum(A[a, a] for a in range(n))
            trunc[l] = bound_c * tail
        return NystromResult(eig, traces, trunc, ktrace, len(rs), K)


def nystrom_float(expr: Any, d: int, s2: Any, ls: list[int], K: int, n_r: int, h0: Any,
                  wp: int, parity: int, hx: Any = None) -> NystromResult:
    """:func:`nystrom` in float64 (numpy) for low precision (the caller uses it for dps <= 10):
    the same radial rule (built by mpmath at 20 digits), z-grids, Mehler truncation and bound;
    μ_k(r_i) as matrix–vector products, eigenvalues by ``numpy.linalg.eigvalsh``. Rounding is
    ~1e-16 of λ_{l,0} absolute, so λ_{l,j} keeps about 16 − log10(λ_{l,0}/λ_{l,j}) digits; the
    caller's two passes see it. ``expr`` is the sympy expression of σ's part (even or odd).

    >>> import sympy as sp
    >>> z = sp.Symbol("z", real=True)
    >>> res = nystrom_float(z, 3, 1, [1], 3, 4, 0.25, 20, -1)
    >>> round(float(res.eigenvalues[1][0]), 12)
    0.333333333333
    """
    import numpy as np
    import sympy as sp

    from fltheory.engine.functions import Z

    fn = sp.lambdify(Z if expr.has(Z) else sp.Symbol("z", real=True), expr,
                     modules=["scipy", "numpy"])
    rs, ws, bound_c = _float_radial_rule(d, s2, K, n_r, wp, hx)
    mus, norms = _float_hermite(fn, rs, K, h0, wp, parity)
    ktrace = float(ws @ norms)
    tail = max(float(ws @ (norms - (mus**2).sum(axis=0))), 1e-16 * abs(ktrace))
    eig: dict[int, list[Any]] = {}
    traces: dict[int, Any] = {}
    trunc: dict[int, Any] = {}
    sw = np.sqrt(ws)
    for l in ls:
        ks = list(range(l, K + 1, 2))
        c = np.array([float(funk_hecke(d, k, l)) for k in ks])
        M = np.sqrt(c)[:, None] * mus[ks] * sw[None, :]
        A = M @ M.T
        vals = np.sort(np.linalg.eigvalsh((A + A.T) / 2))[::-1]
        eig[l] = [mpmath.mpf(float(v)) for v in vals]
        traces[l] = mpmath.mpf(float(np.trace(A)))
        trunc[l] = mpmath.mpf(bound_c * tail)
    return NystromResult(eig, traces, trunc, mpmath.mpf(ktrace), len(rs), K)


def _float_radial_rule(d: int, s2: Any, K: int, n_r: int, wp: int, hx: Any
                       ) -> tuple[Any, Any, float]:
    """The radial rule of :func:`nystrom_float` (built by mpmath at 20 to 30 digits, nodes of
    weight above 1e-300 kept) as radii r = √(2 s² u/d) and weights, and the constant
    E|t|^{K+1} of the truncation bound."""
    import numpy as np

    with mpmath.workdps(max(20, min(wp, 30))):
        u, omega = laguerre_rule(n_r, mpmath.mpf(d) / 2 - 1) if hx is None \
            else log_rule(mpmath.mpf(hx), mpmath.mpf(d) / 2, min(wp, 30))
        bound_c = float(abs_t_moment_mp(d, K + 1))
    u_arr = np.array([float(x) for x in u])
    w_arr = np.array([float(x) for x in omega])
    keep = w_arr > 1e-300
    rs = np.sqrt(2 * float(s2) * u_arr[keep] / d)
    return rs, w_arr[keep], bound_c


def _float_hermite(fn: Callable[[Any], Any], rs: Any, K: int, h0: Any, wp: int, parity: int
                   ) -> tuple[Any, Any]:
    """μ_k(r) = E_z σ(r z) h_k(z), k = 0..K, and E_z σ(r z)² at each radius, by the
    trapezoidal rule in z >= 0 (σ(r z) ± σ(−r z), step h0/(1.1·2^m) for r in (1.1·2^(m−1),
    1.1·2^m], up to z = 2√(wp' ln 10) + 2, wp' = min(wp, 30)); ``parity`` ±1 zeroes the other
    degrees. A non-finite value is an ArithmeticError (the caller falls back)."""
    import numpy as np

    zmax = 2 * math.sqrt(min(wp, 30) * math.log(10)) + 2
    grids: dict[int, Any] = {}
    mus = np.zeros((K + 1, len(rs)))
    norms = np.zeros(len(rs))
    for i, r in enumerate(rs):
        m = max(0, math.ceil(math.log2(r / 1.1))) if r > 1.1 else 0
        if m not in grids:
            grids[m] = _float_z_grid(float(h0) / (1.1 * 2**m), zmax, K)
        zs, wz, H = grids[m]
        plus = np.asarray(fn(r * zs), dtype=float) * np.ones_like(zs)
        minus = plus if parity == 1 else -plus if parity == -1 else \
            np.asarray(fn(-r * zs), dtype=float) * np.ones_like(zs)
        even, odd = wz * (plus + minus), wz * (plus - minus)
        mu = np.empty(K + 1)
        mu[0::2] = H[0::2] @ even
        mu[1::2] = H[1::2] @ odd
        if parity == 1:
            mu[1::2] = 0
        elif parity == -1:
            mu[0::2] = 0
        mus[:, i] = mu
        norms[i] = float(wz @ (plus * plus + minus * minus))
    if not (np.all(np.isfinite(mus)) and np.all(np.isfinite(norms))):
        raise ArithmeticError("non-finite Hermite coefficients in float64")
    return mus, norms


def _float_z_grid(h: float, zmax: float, K: int) -> tuple[Any, Any, Any]:
    """Nodes z = 0, h, 2h, … up to ``zmax``, trapezoid weights of the N(0, 1) density (half at
    z = 0) and the orthonormal Hermite polynomials h_0..h_K at the nodes (their recurrence)."""
    import numpy as np

    zs = np.arange(0, math.ceil(zmax / h) + 1) * h
    wz = h * np.exp(-zs * zs / 2) / math.sqrt(2 * math.pi)
    wz[0] /= 2
    H = np.zeros((K + 1, len(zs)))
    H[0] = 1.0
    if K >= 1:
        H[1] = zs
    for k in range(1, K):
        H[k + 1] = (zs * H[k] - math.sqrt(k) * H[k - 1]) / math.sqrt(k + 1)
    return zs, wz, H
