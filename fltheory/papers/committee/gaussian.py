r"""Gaussian averages of the soft-committee-machine ODEs for a given activation g.

For centred Gaussian fields with covariance C (shape (..., n, n), batched over leading axes):

.. math::

    E_2(C) &= \mathbb{E}[g(u)\, g(v)] &&\qquad (n = 2\text{, the generalisation error})\\
    I_2(C) &= \mathbb{E}[g'(u)\, g'(v)] &&\qquad (n = 2\text{, the output-noise term})\\
    I_3(C) &= \mathbb{E}[g'(u)\, v\, g(w)] &&\qquad (n = 3\text{, first order in } \eta)\\
    I_4(C) &= \mathbb{E}[g'(u)\, g'(v)\, g(w)\, g(z)]
        &&\qquad (n = 4\text{, the } \eta^2 \text{ term})

Which method each activation gets (:attr:`GaussianAverages.method` says it):

* ``erf_ss`` (g(x) = erf(x/√2), Saad & Solla 1995; ``erf`` = erf(z) is the same with the
  fields scaled by √2): closed forms. With g' = √(2/π) e^{−x²/2},
  a factor e^{−x_A·x_A/2} tilts the Gaussian: E[e^{−|x_A|²/2} h(x_B)] = det(I + C_AA)^{−1/2}
  E'[h], E' with the Schur complement C_BB − C_BA (I + C_AA)^{−1} C_AB, and
  E[g(w)g(z)] = (2/π) arcsin(C_wz/√((1 + C_ww)(1 + C_zz))). Hence I2 = (2/π)/√Λ, I3 =
  (2/π)(C23(1 + C11) − C12 C13)/((1 + C11)√Λ3), I4 = (4/π²)/√Λ4 · arcsin(Λ0/√(Λ1 Λ2)) with
  Saad–Solla's Λ's (:func:`erf_i4`).
* ``relu``: E2 is the degree-1 arc-cosine kernel, I2 = ¼ + arcsin(ρ)/(2π), and by Stein's
  lemma I3 = C12 √(C11 C33 − C13²)/(2π C11) + C23 (¼ + arcsin ρ13/(2π)) (closed forms).
  I4 where a θ field is one of the other three (u = v: the ODE's terms i = k; w or z equal
  to u or v: c or e equal to i or k) is E[θ relu relu] (θ² = θ, θ(u) relu(u) = relu(u)),
  closed by Stein's lemma (:func:`_theta_relu_relu`). Otherwise
  I4 has no closed form (it contains four-variable orthant integrals). It is the exact 1-D
  integral F(1) = F(0) + ∫_0^1 F'(s) ds along C(s), where every entry coupling u or v to
  another field is multiplied by s (C(0): u, v independent of each other and of (w, z), so
  F(0) = ¼ E[relu(w) relu(z)]). By the heat-equation identity ∂F/∂C_ab = E[∂_a ∂_b h], and each
  E[∂_a ∂_b h] is a density at 0 times a closed-form conditional expectation (E[relu relu], or
  E[θ θ relu] by Stein's lemma again). The integral is done by Gauss–Legendre in t, s = 1 − t²
  (which smooths the (1 − s)^{−1/2} endpoint behaviour when C is singular) on a mesh graded
  towards t = 0 (near-singular C, e.g. two nearly equal students, vary at t ~ √gap); the method
  string gives the node count and the quadrature error measured against a much finer rule.
* polynomials (degree <= :data:`MAX_DEGREE`): exact. Each average is a polynomial in the
  covariance entries, built from Gaussian moments by Stein's recursion (Isserlis' theorem);
  sympy-exact for :meth:`GaussianAverages.symbolic`, evaluated in float64 otherwise.
* g = A + B z + C tanh(s z) (tanh, sigmoid, their scalings): closed forms of an erf mixture
  tanh(x) ≈ Σ_j c_j erf(b_j x) whose sup errors on g and g' are certified; each average's
  error is bounded from them (:mod:`fltheory.papers.committee._mixture`).
* any other g (gelu, softplus, …): a trapezoid rule with Gaussian weight, coinciding fields
  merged and the last field integrated through a tabulated smoothing
  (:mod:`fltheory.papers.committee._trapezoid`; Gauss–Hermite converges slowly for tanh),
  its error measured against the rule with halved steps (at test covariances in the method
  string; at any covariances by :meth:`GaussianAverages.error_estimate`). g and g'
  must grow slower than any e^{c z²} (else some average is infinite at large variance):
  exp(z**2) is refused (decided numerically at |z| = 50 … 800, sympy's limit when unclear).

Every function here is numpy float64; the exact forms are in :meth:`GaussianAverages.symbolic`.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from fltheory.exact import DomainError, check_cost
from fltheory.papers.committee import _wick as wick

if TYPE_CHECKING:  # sympy is imported where it is used: the erf closed forms need none
    import sympy as sp

    # the trapezoid rule serves numeric averages only: imported where they are built
    from fltheory.papers.committee import _trapezoid as trap

__all__ = ["MAX_DEGREE", "GaussianAverages", "averages", "erf_i4"]

#: highest polynomial degree of g accepted (I4 then has total degree 4·6 − 2 = 22 in the fields;
#: building its polynomial in the 10 covariance entries takes about a second)
MAX_DEGREE = 6

#: Gauss–Legendre nodes per panel (7 panels) of the relu I4 integral
RELU_NODES = 16
#: Gauss–Hermite order per dimension of :func:`_cubature_func` (2-, 3-, 4-field averages; no
#: longer the generic path, kept as an independent rule for tests), and a higher order
CUBATURE_ORDER = {2: 64, 3: 48, 4: 24}
CHECK_ORDER = {2: 128, 3: 96, 4: 32}

_TWO_PI = 2.0 * math.pi


def _cov(C: Any, n: int, param: str = "C") -> np.ndarray:
    try:
        A = np.asarray(C, dtype=float)
    except (TypeError, ValueError):
        raise DomainError(param, str(C)[:40], f"a real array of shape (..., {n}, {n})") from None
    if A.ndim < 2 or A.shape[-2:] != (n, n):
        raise DomainError(param, f"an array of shape {A.shape}", f"shape (..., {n}, {n})")
    if not np.isfinite(A).all():
        raise DomainError(param, "an array with non-finite entries", "finite entries")
    return 0.5 * (A + np.swapaxes(A, -1, -2))


def _finite_result(x: np.ndarray, what: str) -> np.ndarray:
    if not np.isfinite(x).all():
        raise DomainError("C", "a covariance", "positive semi-definite covariances",
                          reason=f"gives a non-finite {what} (is C positive semi-definite?)")
    return x


# --------------------------------------------------------------------------- erf(x/√2)


def _erf_e2(C: np.ndarray) -> np.ndarray:
    c11, c22, c12 = C[..., 0, 0], C[..., 1, 1], C[..., 0, 1]
    return (2 / math.pi) * np.arcsin(np.clip(c12 / np.sqrt((1 + c11) * (1 + c22)), -1, 1))


def _erf_i2(C: np.ndarray) -> np.ndarray:
    c11, c22, c12 = C[..., 0, 0], C[..., 1, 1], C[..., 0, 1]
    return (2 / math.pi) / np.sqrt((1 + c11) * (1 + c22) - c12**2)


def _erf_i3(C: np.ndarray) -> np.ndarray:
    c11, c12, c13, c23, c33 = (C[..., 0, 0], C[..., 0, 1], C[..., 0, 2], C[..., 1, 2],
                               C[..., 2, 2])
    lam3 = (1 + c11) * (1 + c33) - c13**2
    return (2 / math.pi) * (c23 * (1 + c11) - c12 * c13) / ((1 + c11) * np.sqrt(lam3))


def erf_i4(C: Any) -> np.ndarray:
    """I4 = E[g'(u) g'(v) g(w) g(z)] for g(x) = erf(x/√2) (Saad & Solla 1995):
    (4/π²) Λ4^{−1/2} arcsin(Λ0/√(Λ1 Λ2)) with Λ4 = (1 + C11)(1 + C22) − C12²,
    Λ0 = Λ4 C34 − C23 C24 (1 + C11) − C13 C14 (1 + C22) + C12 C13 C24 + C12 C14 C23,
    Λ1 = Λ4 (1 + C33) − C23² (1 + C11) − C13² (1 + C22) + 2 C12 C13 C23, Λ2 likewise with 4.
    ``C``: covariance array (..., 4, 4) of (u, v, w, z); returns float64 of shape (...).

    >>> round(float(erf_i4(np.eye(4))), 12)  # independent fields: E[g'(u)]² E[g(w)]² = 0
    0.0
    >>> round(float(erf_i4(np.ones((4, 4)))), 6)  # E[g'(u)² g(u)²], u ~ N(0, 1) (scipy quad)
    0.059125
    """
    C = _cov(C, 4)
    c = {(a, b): C[..., a - 1, b - 1] for a in range(1, 5) for b in range(1, 5)}
    lam4 = (1 + c[1, 1]) * (1 + c[2, 2]) - c[1, 2]**2
    lam0 = (lam4 * c[3, 4] - c[2, 3] * c[2, 4] * (1 + c[1, 1]) - c[1, 3] * c[1, 4] * (1 + c[2, 2])
            + c[1, 2] * c[1, 3] * c[2, 4] + c[1, 2] * c[1, 4] * c[2, 3])
    lam1 = (lam4 * (1 + c[3, 3]) - c[2, 3]**2 * (1 + c[1, 1]) - c[1, 3]**2 * (1 + c[2, 2])
            + 2 * c[1, 2] * c[1, 3] * c[2, 3])
    lam2 = (lam4 * (1 + c[4, 4]) - c[2, 4]**2 * (1 + c[1, 1]) - c[1, 4]**2 * (1 + c[2, 2])
            + 2 * c[1, 2] * c[1, 4] * c[2, 4])
    return _finite_result((4 / math.pi**2) / np.sqrt(lam4)
                          * np.arcsin(np.clip(lam0 / np.sqrt(lam1 * lam2), -1, 1)), "I4")


def _erf_symbolic(kind: str, c: Callable[[int, int], sp.Expr]) -> sp.Expr:
    """Saad–Solla's forms with every polynomial piece (the Λ's) expanded."""
    import sympy as sp

    X = sp.expand
    if kind == "e2":
        return 2 / sp.pi * sp.asin(c(1, 2) / sp.sqrt(X((1 + c(1, 1)) * (1 + c(2, 2)))))
    if kind == "i2":
        return 2 / sp.pi / sp.sqrt(X((1 + c(1, 1)) * (1 + c(2, 2)) - c(1, 2)**2))
    if kind == "i3":
        lam3 = X((1 + c(1, 1)) * (1 + c(3, 3)) - c(1, 3)**2)
        return (2 / sp.pi * X(c(2, 3) * (1 + c(1, 1)) - c(1, 2) * c(1, 3))
                / ((1 + c(1, 1)) * sp.sqrt(lam3)))
    lam4 = X((1 + c(1, 1)) * (1 + c(2, 2)) - c(1, 2)**2)
    lam0 = X(lam4 * c(3, 4) - c(2, 3) * c(2, 4) * (1 + c(1, 1)) - c(1, 3) * c(1, 4) * (1 + c(2, 2))
             + c(1, 2) * c(1, 3) * c(2, 4) + c(1, 2) * c(1, 4) * c(2, 3))
    lam1 = X(lam4 * (1 + c(3, 3)) - c(2, 3)**2 * (1 + c(1, 1)) - c(1, 3)**2 * (1 + c(2, 2))
             + 2 * c(1, 2) * c(1, 3) * c(2, 3))
    lam2 = X(lam4 * (1 + c(4, 4)) - c(2, 4)**2 * (1 + c(1, 1)) - c(1, 4)**2 * (1 + c(2, 2))
             + 2 * c(1, 2) * c(1, 4) * c(2, 4))
    return 4 / sp.pi**2 / sp.sqrt(lam4) * sp.asin(lam0 / sp.sqrt(lam1 * lam2))


# --------------------------------------------------------------------------- relu


def _safe_rho(cab: Any, caa: Any, cbb: Any) -> Any:
    den = np.sqrt(np.maximum(caa * cbb, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.where(den > 1e-300, cab / np.where(den > 1e-300, den, 1.0), 0.0)
    return np.clip(rho, -1.0, 1.0)


def _orthant2(caa: Any, cbb: Any, cab: Any) -> Any:
    """P(a > 0, b > 0) = ¼ + arcsin(ρ)/(2π) (a degenerate variable counts as ρ = 0)."""
    return 0.25 + np.arcsin(_safe_rho(cab, caa, cbb)) / _TWO_PI


def _relu_relu(caa: Any, cbb: Any, cab: Any) -> Any:
    """E[relu(a) relu(b)] = √(caa cbb)/(2π) (√(1 − ρ²) + (π − arccos ρ) ρ)."""
    rho = _safe_rho(cab, caa, cbb)
    s = np.sqrt(np.maximum(caa * cbb, 0.0))
    return s / _TWO_PI * (np.sqrt(np.maximum(1 - rho**2, 0.0)) + (math.pi - np.arccos(rho)) * rho)


def _density0(c: Any) -> Any:
    return 1.0 / np.sqrt(_TWO_PI * np.maximum(c, 1e-300))


def _given(c: dict[tuple[int, int], Any], j: int, keys: tuple[int, ...]
           ) -> dict[tuple[int, int], Any]:
    """Covariance of the fields ``keys`` given x_j = 0, written through the correlations
    ρ_pj clipped to [−1, 1]: C_pq − √(C_pp C_qq) ρ_pj ρ_qj, variances C_pp (1 − ρ_pj²) >= 0.
    At a (near-)singular or slightly indefinite C (rounding, an integrator's last digits) the
    conditional variances stay >= 0 and bounded by C_pp instead of dividing by a vanishing
    C_jj (a variance <= 0 counts as an independent zero field: ρ = 0)."""
    rho = {p: _safe_rho(c[p, j], c[p, p], c[j, j]) for p in keys}
    sd = {p: np.sqrt(np.maximum(c[p, p], 0.0)) for p in keys}
    out: dict[tuple[int, int], Any] = {}
    for p in keys:
        for q in keys:
            out[p, q] = (np.maximum(c[p, p], 0.0) * (1.0 - rho[p]**2) if p == q
                         else c[p, q] - sd[p] * sd[q] * rho[p] * rho[q])
    return out


def _stein_weight(c: dict[tuple[int, int], Any], r: int, j: int) -> Any:
    """C_rj φ_j(0) = C_rj / √(2π C_jj) as √(C_rr/2π) ρ_rj (bounded as C_jj → 0)."""
    return np.sqrt(np.maximum(c[r, r], 0.0) / _TWO_PI) * _safe_rho(c[r, j], c[r, r], c[j, j])


def _ttr(c: dict[tuple[int, int], Any], a: int, b: int, r: int) -> Any:
    """E[θ(x_a) θ(x_b) relu(x_r)] for a 3-variable covariance c (dict over ordered pairs), by
    Stein's lemma on x_r: Σ_j C_rj E[∂_j(θθθ)] = Σ_j C_rj φ_j(0) P(others > 0 | x_j = 0)
    (conditioning through clipped correlations, :func:`_given`)."""
    total = 0.0
    for j, (p, q) in ((a, (b, r)), (b, (a, r)), (r, (a, b))):
        cc = _given(c, j, (p, q))
        total = total + _stein_weight(c, r, j) * _orthant2(cc[p, p], cc[q, q], cc[p, q])
    return total


def _theta_relu_relu(c: dict[tuple[int, int], Any], u: int, w: int, z: int) -> Any:
    """E[θ(x_u) relu(x_w) relu(x_z)] in closed form (the relu I4 with its two θ on one field,
    θ² = θ): Stein's lemma on x_w (relu(w) = w θ(w)) gives C_ww E[δ(w) relu(z) θ(u)] +
    C_wu E[δ(u) θ(w) relu(z)] + C_wz P(w, z, u > 0); each δ term is a density at 0 times
    E[relu(a) θ(b)] = √(Var a/2π) (1 + ρ_ab)/2 given that field (conditioning through clipped
    correlations, :func:`_given`), and the trivariate orthant is 1/8 + Σ arcsin ρ/(4π)."""
    def relu_theta(cc: dict[tuple[int, int], Any], a: int, b: int) -> Any:
        var = np.maximum(cc[a, a], 0.0)
        return np.sqrt(var / _TWO_PI) * (1.0 + _safe_rho(cc[a, b], var, cc[b, b])) / 2
    orthant = 0.125 + (np.arcsin(_safe_rho(c[w, z], c[w, w], c[z, z]))
                       + np.arcsin(_safe_rho(c[w, u], c[w, w], c[u, u]))
                       + np.arcsin(_safe_rho(c[z, u], c[z, z], c[u, u]))) / (2 * _TWO_PI)
    return (_stein_weight(c, w, w) * relu_theta(_given(c, w, (z, u)), z, u)
            + _stein_weight(c, w, u) * relu_theta(_given(c, u, (z, w)), z, w)
            + c[w, z] * orthant)


def _relu_e2(C: np.ndarray) -> np.ndarray:
    return _relu_relu(C[..., 0, 0], C[..., 1, 1], C[..., 0, 1])


def _relu_i2(C: np.ndarray) -> np.ndarray:
    return _orthant2(C[..., 0, 0], C[..., 1, 1], C[..., 0, 1])


def _relu_i3(C: np.ndarray) -> np.ndarray:
    c11, c12, c13, c23, c33 = (C[..., 0, 0], C[..., 0, 1], C[..., 0, 2], C[..., 1, 2],
                               C[..., 2, 2])
    dens = c12 * np.sqrt(np.maximum(c11 * c33 - c13**2, 0.0)) / (_TWO_PI * c11)
    return dens + c23 * _orthant2(c11, c33, c13)


@lru_cache(maxsize=8)
def _legendre(n: int, graded: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The relu I4 rule on t in [0, 1]: Gauss–Legendre with n nodes on each panel of the graded
    mesh 0, 10^-8, 10^-6, 10^-4, 10^-3, 10^-2, 10^-1, 1 (near-singular C, e.g. two nearly
    equal students, put the integrand's variation at t ~ √gap: gaps down to ~1e-16 are
    resolved), or on [0, 1] alone (``graded=False``). ε = t² is used as such (1 − s is never
    formed), so nodes near 0 lose no digits."""
    x, w = np.polynomial.legendre.leggauss(n)
    edges = [0.0, 1e-8, 1e-6, 1e-4, 1e-3, 1e-2, 1e-1, 1.0] if graded else [0.0, 1.0]
    ts, ws = [], []
    for lo, hi in itertools.pairwise(edges):
        ts.append(lo + (hi - lo) * 0.5 * (x + 1))
        ws.append((hi - lo) * 0.5 * w)
    return np.concatenate(ts), np.concatenate(ws)


def _clip_psd(c: dict[tuple[int, int], Any], p: int, q: int) -> None:
    """In place: C_pp, C_qq >= 0 and |C_pq| <= √(C_pp C_qq) (both orders of the pair), the
    2 × 2 block of a covariance that rounding made slightly indefinite."""
    c[p, p] = np.maximum(c[p, p], 0.0)
    c[q, q] = np.maximum(c[q, q], 0.0)
    bound = np.sqrt(c[p, p] * c[q, q])
    c[p, q] = np.clip(c[p, q], -bound, bound)
    c[q, p] = c[p, q]


#: I4 = E[θ(u) θ(v) relu(w) relu(z)] when a θ field is one of the others (θ² = θ, θ(u) relu(u)
#: = relu(u)): (the two fields that coincide, the (θ, relu, relu) fields of the closed form)
_RELU_I4_COINCIDENCES = (((0, 1), (0, 2, 3)), ((0, 2), (1, 0, 3)), ((0, 3), (1, 2, 0)),
                         ((1, 2), (0, 1, 3)), ((1, 3), (0, 2, 1)))


def _relu_i4(C: np.ndarray, nodes: int = RELU_NODES, graded: bool = True) -> np.ndarray:
    """I4 of relu: where a θ field (u or v) is one of the other three fields (C_aa = C_bb = C_ab
    exactly, so Var(x_a − x_b) = 0: the ODE's terms i = k, and c or e equal to i or k) the
    closed form E[θ relu relu] (:func:`_theta_relu_relu`), elsewhere
    :func:`_relu_i4_integral`."""
    C = np.asarray(C, dtype=float)
    out = np.full(C.shape[:-2], np.nan)
    todo = np.ones(C.shape[:-2], dtype=bool)
    for (a, b), (u, w, z) in _RELU_I4_COINCIDENCES:
        pick = todo & (C[..., a, a] == C[..., b, b]) & (C[..., a, b] == C[..., a, a])
        if pick.any():
            sub = C[pick]
            full = {(p, q): sub[:, p, q] for p in range(4) for q in range(4)}
            out[pick] = _theta_relu_relu(full, u, w, z)
            todo &= ~pick
    if todo.any():
        out[todo] = _relu_i4_integral(C[todo], nodes, graded)
    return _finite_result(out, "I4")


def _relu_i4_integral(C: np.ndarray, nodes: int = RELU_NODES, graded: bool = True
                      ) -> np.ndarray:
    """The 1-D integral of the module docstring. Every covariance conditioned on u and/or v at
    s = 1 − ε (ε = t²) is written as its s-independent Schur complement (from C, once) plus
    exact multiples of ε: no difference of nearly equal numbers at the nodes near s = 1, so
    exact coincidences (u = v, w = u, …) and near-singular C (a converged student on its
    teacher) keep their digits; conditional variances are clipped at 0 (an indefinite C in
    the last digits of an integration stays finite)."""
    t, wt = _legendre(nodes, graded)
    eps = t**2
    s = 1.0 - eps                         # ∫_0^1 F'(s) ds = ∫_0^1 F'(1 − t²) 2t dt
    e1 = eps * (2.0 - eps)                # 1 − s²
    e2 = eps * (3.0 - 3.0 * eps + eps**2)  # 1 − s³
    full = {(a, b): C[..., a, b][..., None] for a in range(4) for b in range(4)}
    total = np.zeros((*C.shape[:-2], len(t)))
    c00, c11, c01 = full[0, 0], full[1, 1], full[0, 1]
    # pair (0, 1): δ(u) δ(v) relu(w) relu(z) -> φ2(0, 0) E[relu relu | u = v = 0]. With
    # A_s = [[C00, s C01], [s C01, C11]], b_x = (C_x2, C_x3): det A_s = det0 + (1 − s²) C01²
    # and det A_s · Cov(w, z | u, v) = N(1) + (1 − s²)(C01² D + C11 b0 b0ᵀ + C00 b1 b1ᵀ)
    # − (1 − s³) C01 (b0 b1ᵀ + b1 b0ᵀ), N(1) = det0 · (Schur complement of (u, v) in C)
    det0 = np.maximum(c00 * c11 - c01**2, 0.0)
    det = det0 + e1 * c01**2
    cond: dict[tuple[int, int], Any] = {}
    n1: dict[tuple[int, int], Any] = {}
    parts = {}
    for p, q in ((2, 2), (3, 3), (2, 3)):
        bb = c11 * full[0, p] * full[0, q] + c00 * full[1, p] * full[1, q]
        cross = c01 * (full[0, p] * full[1, q] + full[1, p] * full[0, q])
        n1[p, q] = np.where(det0 > 0, det0 * full[p, q] - bb + cross, 0.0)
        parts[p, q] = e1 * (c01**2 * full[p, q] + bb) - e2 * cross
    _clip_psd(n1, 2, 3)
    for p, q in ((2, 2), (3, 3), (2, 3)):
        cond[p, q] = (n1[p, q] + parts[p, q]) / det
    total = total + c01 / (_TWO_PI * np.sqrt(det)) * _relu_relu(cond[2, 2], cond[3, 3],
                                                                cond[2, 3])
    # pairs (x, r'): δ(x) θ(y) θ(r') relu(r) -> φ_x(0) E[θ(y) θ(r') relu(r) | x = 0]; every
    # field couples to x with the factor s: Cov_s(p, q | x) = σ_pq S_pq + (σ_pq − s²) C_px C_qx
    # / C_xx, S the Schur complement of x in C, σ_pq = s for (y, w), (y, z), else 1
    for x, y in ((0, 1), (1, 0)):
        cxx = full[x, x]
        schur = {(p, q): full[p, q] - full[p, x] * full[q, x] / cxx
                 for p in (y, 2, 3) for q in (y, 2, 3)}
        for p, q in ((y, 2), (y, 3), (2, 3)):
            _clip_psd(schur, p, q)
        cc: dict[tuple[int, int], Any] = {}
        for p in (y, 2, 3):
            for q in (y, 2, 3):
                proj = full[p, x] * full[q, x] / cxx
                if p == q or y not in (p, q):
                    cc[p, q] = schur[p, q] + e1 * proj
                else:
                    cc[p, q] = s * schur[p, q] + s * eps * proj
        dens = _density0(cxx)
        total = total + full[x, 2] * dens * _ttr(cc, y, 2, 3)
        total = total + full[x, 3] * dens * _ttr(cc, y, 3, 2)
    integral = (total * (2 * t) * wt).sum(axis=-1)
    start = 0.25 * _relu_relu(C[..., 2, 2], C[..., 3, 3], C[..., 2, 3])
    return _finite_result(start + integral, "I4")


def _relu_symbolic(kind: str, c: Callable[[int, int], sp.Expr]) -> sp.Expr:
    import sympy as sp

    if kind == "i2":
        return sp.Rational(1, 4) + sp.asin(c(1, 2) / sp.sqrt(c(1, 1) * c(2, 2))) / (2 * sp.pi)
    if kind == "e2":
        rho = c(1, 2) / sp.sqrt(c(1, 1) * c(2, 2))
        return (sp.sqrt(c(1, 1) * c(2, 2)) / (2 * sp.pi)
                * (sp.sqrt(1 - rho**2) + (sp.pi - sp.acos(rho)) * rho))
    if kind == "i3":
        return (c(1, 2) * sp.sqrt(c(1, 1) * c(3, 3) - c(1, 3)**2) / (2 * sp.pi * c(1, 1))
                + c(2, 3) * (sp.Rational(1, 4)
                             + sp.asin(c(1, 3) / sp.sqrt(c(1, 1) * c(3, 3))) / (2 * sp.pi)))
    args = [c(a, b) for a in range(1, 5) for b in range(a, 5)]
    return _relu_i4_function()(*args)


@lru_cache(maxsize=1)
def _relu_i4_function() -> Any:
    return _numeric_function("I4_relu", 4, _relu_i4)


def _numeric_function(name: str, n: int, func: Callable[[np.ndarray], np.ndarray]) -> Any:
    """An undefined sympy function of the n(n + 1)/2 covariance entries (a <= b) whose
    numeric value (``evalf``, ``lambdify``) is ``func`` on the covariance matrix (float64)."""
    import sympy as sp
    from sympy.utilities.lambdify import implemented_function

    def numeric(*entries: Any) -> float:
        C = np.empty((n, n))
        for (a, b), v in zip(wick.entries(n), entries, strict=True):
            C[a, b] = C[b, a] = float(v)
        return float(func(C))

    return implemented_function(sp.Function(name), numeric)


# --------------------------------------------------------------------------- polynomials


_EVAL_TERM_CHUNK = 2048


class _PolyTable:
    """A polynomial in the covariance entries as exponent and coefficient arrays."""

    def __init__(self, n: int, poly: wick.Poly):
        self.n = n
        self.poly = poly
        keys = sorted(poly)
        m = len(wick.entries(n))
        self.exponents = np.array(keys, dtype=np.int64).reshape(len(keys), m)
        self.coef = np.array([float(poly[k]) for k in keys], dtype=float)

    def __call__(self, C: np.ndarray) -> np.ndarray:
        lead = C.shape[:-2]
        ent = np.stack([C[..., a, b] for a, b in wick.entries(self.n)], axis=-1)
        ent = ent.reshape(-1, ent.shape[-1])
        out = np.zeros(ent.shape[0])
        if not len(self.coef):
            return out.reshape(lead)
        top = int(self.exponents.max(initial=0))
        powers = np.ones((top + 1, *ent.shape))
        for k in range(1, top + 1):
            powers[k] = powers[k - 1] * ent
        for lo in range(0, len(self.coef), _EVAL_TERM_CHUNK):
            ex = self.exponents[lo:lo + _EVAL_TERM_CHUNK]
            vals = np.ones((ex.shape[0], ent.shape[0]))
            for e in range(ex.shape[1]):
                vals *= powers[ex[:, e], :, e]
            out += self.coef[lo:lo + _EVAL_TERM_CHUNK] @ vals
        return out.reshape(lead)

    def symbolic(self, c: Callable[[int, int], sp.Expr]) -> sp.Expr:
        import sympy as sp

        syms = [c(a + 1, b + 1) for a, b in wick.entries(self.n)]
        return sp.Add(*[sp.sympify(v) * sp.Mul(*[s**e for s, e in zip(syms, k, strict=True)])
                        for k, v in self.poly.items()])


def _as_exact(c: sp.Expr) -> Any:
    from fractions import Fraction

    if c.is_Rational:
        return Fraction(int(c.p), int(c.q))
    return c


# --------------------------------------------------------------------------- the public class


class GaussianAverages:
    """The four Gaussian averages of an activation g (see the module docstring): numpy
    methods :meth:`e2`, :meth:`i2`, :meth:`i3`, :meth:`i4` on covariance arrays of shape
    (..., n, n), :meth:`symbolic` for the sympy form, and ``kind`` ("erf", "relu",
    "polynomial", "mixture", "cubature"), ``method`` (how each average is computed, with its
    precision),
    ``expr`` (g as a sympy expression in z), ``degree`` (polynomials) and ``name``.

    >>> av = averages("erf_ss")
    >>> round(float(av.i2(np.eye(2))), 6), av.method
    (0.31831, 'closed form (Saad–Solla arcsin)')
    """

    def __init__(self, name: str, kind: str, method: str | Callable[[], str],
                 expr: sp.Expr | None,
                 funcs: dict[str, Callable[[np.ndarray], np.ndarray]],
                 symbolic: Callable[[str, Callable[[int, int], sp.Expr]], sp.Expr],
                 degree: int | None = None, tables: dict[str, _PolyTable] | None = None):
        self.name = name
        self.kind = kind
        self._method = method
        self._expr = expr
        #: builds ``expr`` on first use when it is None (erf_ss: no sympy import until asked)
        self._expr_of: Callable[[], sp.Expr] | None = None
        self.degree = degree
        self.scale = 1.0  # erf(s x/√2): s
        self.tables = tables or {}
        self.parts: dict[str, list[Callable[[np.ndarray], np.ndarray]]] | None = None
        self._funcs = funcs
        self._symbolic = symbolic
        self.mixture: Any = None  # kind "mixture": the erf mixture (_committee_mixture)
        #: how :meth:`error_estimate` is obtained (for printed error lines)
        self.error_how = ("a certified bound from the erf mixture's sup errors"
                          if kind == "mixture" else "rule against halved steps")
        self.finer: Callable[[], GaussianAverages] | None = None

    @property
    def expr(self) -> sp.Expr:
        """g as a sympy expression in z."""
        if self._expr is None and self._expr_of is not None:
            self._expr = self._expr_of()
        return self._expr

    @property
    def method(self) -> str:
        """How each average is computed and with what precision (for cubature the error
        measurement runs on first access: a few seconds)."""
        if not isinstance(self._method, str):
            self._method = self._method()
        return self._method

    def __repr__(self) -> str:
        return f"GaussianAverages({self.name!r}, kind={self.kind!r})"

    def _check(self, C: np.ndarray) -> None:
        if self.kind == "relu":
            diag = np.diagonal(C, axis1=-2, axis2=-1)
            if not (diag > 0).all():
                raise DomainError("C", "a covariance with a zero variance",
                                  "field variances > 0 for relu (g'(0) is undefined)",
                                  reason="has a field of variance <= 0")

    def e2(self, C: Any) -> np.ndarray:
        """E[g(u) g(v)] for covariances C of shape (..., 2, 2) (float64, shape (...)).

        >>> round(float(averages("relu").e2(np.eye(2))), 6)  # E[relu(z)]² = 1/(2π)
        0.159155
        """
        A = _cov(C, 2)
        self._check(A)
        return _finite_result(self._funcs["e2"](A), "E2")

    def i2(self, C: Any) -> np.ndarray:
        """E[g'(u) g'(v)] for covariances C of shape (..., 2, 2) (float64, shape (...)).

        >>> float(averages("relu").i2(np.eye(2)))
        0.25
        """
        A = _cov(C, 2)
        self._check(A)
        return _finite_result(self._funcs["i2"](A), "I2")

    def i3(self, C: Any) -> np.ndarray:
        """E[g'(u) v g(w)] for covariances C of shape (..., 3, 3) of (u, v, w) (float64).

        >>> C = np.array([[1, .5, .2], [.5, 1, .3], [.2, .3, 1]])
        >>> round(float(averages("x**2").i3(C)), 12)  # E[2u v w²] = 2(C12 C33 + 2 C13 C23)
        1.24
        """
        A = _cov(C, 3)
        self._check(A)
        return _finite_result(self._funcs["i3"](A), "I3")

    def i4(self, C: Any) -> np.ndarray:
        """E[g'(u) g'(v) g(w) g(z)] for covariances C of shape (..., 4, 4) of (u, v, w, z).

        >>> round(float(averages("z").i4(np.eye(4))), 12)  # g = z: E[w z] = 0
        0.0
        """
        A = _cov(C, 4)
        self._check(A)
        return _finite_result(self._funcs["i4"](A), "I4")

    def error_estimate(self, kind: str, C: Any) -> np.ndarray:
        """The estimated error of the average ``kind`` ("e2", "i2", "i3", "i4") at the
        covariances C: for the trapezoid rule (kind "cubature") the difference to the same
        rule with halved steps and a wider cut-off (a measurement, not a bound); zeros for
        the closed forms and exact polynomials; for relu the stated 1e-9 of its I4 rule; for
        an erf mixture (kind "mixture") the certified bound from the mixture's sup errors.

        >>> float(averages("erf_ss").error_estimate("i4", np.eye(4)))
        0.0
        """
        n = {"e2": 2, "i2": 2, "i3": 3, "i4": 4}[kind]
        A = _cov(C, n)
        if self.mixture is not None:
            from fltheory.papers.committee import _mixture as mx

            return mx.error_bound(self.mixture, kind, A)
        if self.parts is None:
            return np.full(A.shape[:-2], 1e-9 if (self.kind, kind) == ("relu", "i4") else 0.0)
        from fltheory.papers.committee import _trapezoid as trap

        fine = _rule_funcs(self.parts, trap.STANDARD.fine())[kind](A)
        return np.abs(getattr(self, kind)(A) - fine)

    def refined(self) -> GaussianAverages:
        """The same averages by the finer rule of :meth:`error_estimate` (itself for the
        closed forms and polynomials; for an erf mixture the finer, 9-term fit): for redoing a
        computation and comparing."""
        if self.finer is not None:
            return self.finer()
        from fltheory.papers.committee import _trapezoid as trap

        return self.with_rule(trap.STANDARD.fine())

    def with_rule(self, rule: trap.Rule) -> GaussianAverages:
        """The same averages by another trapezoid rule (itself unless ``kind`` is
        "cubature"); e.g. a coarse one to approach a root that the standard rule finishes."""
        if self.parts is None:
            return self
        av = GaussianAverages(self.name, self.kind, trapezoid_method(None, rule), self.expr,
                              _rule_funcs(self.parts, rule),
                              self._symbolic)
        av.parts = self.parts
        return av

    def symbolic(self, kind: str, c: Callable[[int, int], sp.Expr]) -> sp.Expr:
        """The average ``kind`` ("e2", "i2", "i3", "i4") as a sympy expression in the
        covariance entries ``c(a, b)`` (1-based, a <= b): exact closed forms for erf,
        polynomials and the relu E2, I2, I3; where no closed form exists an unevaluated
        function (``I4_relu``, ``I3_g``, …) of the entries whose ``evalf``/``lambdify`` value is
        the numeric average (same method and precision as :meth:`i4` etc.).

        >>> import sympy as sp
        >>> a, b, r = sp.symbols("a b r")
        >>> averages("x**2").symbolic("e2", lambda i, j: {(1, 1): a, (2, 2): b}.get((i, j), r))
        a*b + 2*r**2
        """
        if kind not in ("e2", "i2", "i3", "i4"):
            raise DomainError("kind", kind, "e2, i2, i3 or i4")
        return self._symbolic(kind, c)


def _text(g: Any) -> str:
    if isinstance(g, str):
        return g.strip()
    import sympy as sp

    if isinstance(g, sp.Basic):
        return str(g)
    raise DomainError("g", str(g)[:40], "an activation name or an expression in z (or x)")


@lru_cache(maxsize=64)
def averages(g: str, dps: int | None = None, method: str = "auto") -> GaussianAverages:
    """The Gaussian averages of the activation ``g``: ``"erf_ss"`` (erf(x/√2), Saad & Solla's
    choice: closed forms; ``"erf"`` is erf(z) as in every command, the same closed forms with the
    fields scaled by √2),
    ``"relu"`` (closed E2, I2, I3; I4 a 1-D integral), a polynomial in z or x (exact,
    degree <= :data:`MAX_DEGREE`), A + B z + C tanh(s z) (an erf mixture, certified), or any
    expression accepted by :func:`fltheory.engine.functions.parse_function` (trapezoid rule).
    ``dps`` is accepted for the interface and unused (every path is float64); ``method`` "trapezoid"
    forces the generic rule (e.g. to compare a tanh-like g's erf mixture with it). Refuses g
    whose Gaussian moments are not all finite (DomainError naming ``g``).

    >>> averages("erf_ss").method
    'closed form (Saad–Solla arcsin)'
    >>> averages("x**3 - x").method
    'exact polynomial (Wick)'
    >>> averages("exp(z**2)")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: g = exp(z**2) ...
    """
    text = _text(g)
    if text == "erf_ss":
        return _erf(text, 1)
    import sympy as sp

    from fltheory.engine.functions import Z, parse_function

    source = re.sub(r"\bx\b", "z", text)
    expr = parse_function(source, "g", square_integrable=False).expr
    if isinstance(expr, sp.erf):
        scale = sp.simplify(expr.args[0] / Z * sp.sqrt(2))
        if scale.is_number and scale.is_positive:
            return _erf(text, scale)
    if expr == sp.Max(Z, 0) or text == "relu":
        return GaussianAverages(
            "relu", "relu",
            f"closed form (arc-cosine, Stein) for E2, I2, I3 and I4 with a θ field repeated; "
            f"other I4 by "
            f"a 1-D integral (graded Gauss–Legendre, 7 panels × {RELU_NODES} nodes; error <= "
            f"1e-9 measured against 3000-node Gauss–Legendre at generic, singular and "
            f"near-singular covariances)",
            sp.Max(Z, 0), {"e2": _relu_e2, "i2": _relu_i2, "i3": _relu_i3, "i4": _relu_i4},
            _relu_symbolic)
    if expr.is_polynomial(Z):
        return _polynomial(text, expr)
    if method not in ("auto", "trapezoid"):
        raise DomainError("method", method, "auto or trapezoid")
    family = _tanh_family(expr) if method == "auto" else None
    if family is not None:
        return _mixture(text, expr, family)
    return _cubature(text, expr)


def _tanh_family(expr: sp.Expr) -> tuple[float, float, float, float] | None:
    """(A, B, C, s) when g = A + B z + C tanh(s z) (tanh, sigmoid = ½ + ½ tanh(z/2), their
    scalings): s from the tanh/exp atoms, A = g(0), C = −g'''(0)/(2s³), B = g'(0) − C s, and
    the identity checked at 40 points of [−20, 20] to 1e-25 (mpmath, 30 digits); else None."""
    import mpmath
    import sympy as sp

    from fltheory.engine.functions import Z

    scales = set()
    for atom in expr.atoms(sp.tanh, sp.exp):
        k = sp.simplify(atom.args[0] / Z)
        if k.has(Z) or not k.is_number or not k.is_real or k == 0:
            return None
        scales.add(abs(k) if isinstance(atom, sp.tanh) else abs(k) / 2)
    if len(scales) != 1 or expr.atoms(sp.Function) - expr.atoms(sp.tanh, sp.exp):
        return None
    s = scales.pop()
    A = expr.subs(Z, 0)
    C = -sp.diff(expr, Z, 3).subs(Z, 0) / (2 * s**3)
    B = sp.diff(expr, Z).subs(Z, 0) - C * s
    if not all(v.is_number for v in (A, B, C)) or C == 0:
        return None
    diff = sp.lambdify(Z, expr - (A + B * Z + C * sp.tanh(s * Z)), "mpmath")
    try:
        with mpmath.workdps(30):
            ok = all(abs(diff(mpmath.mpf(-20) + mpmath.mpf(40) * (k + mpmath.mpf("0.37")) / 40))
                     < mpmath.mpf("1e-25") for k in range(40))
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return (float(A), float(B), float(C), float(s)) if ok else None


def _mixture_text(text: str, family: tuple[float, float, float, float]) -> str:
    """The activation the mixture approximates, as it is: tanh itself, or g = A + B x +
    C tanh(s x) with the tanh fit beside it (sigmoid = 0.5 + 0.5 tanh(0.5 x)).

    >>> _mixture_text("tanh", (0.0, 0.0, 1.0, 1.0))
    'tanh(x) ≈ Σ_j c_j erf(b_j x)'
    >>> _mixture_text("sigmoid", (0.5, 0.0, 0.5, 0.5))
    'g = sigmoid = 0.5 + 0.5 tanh(0.5 x) with tanh(y) ≈ Σ_j c_j erf(b_j y)'
    """
    A, B, C, s = family
    if (A, B, C, s) == (0.0, 0.0, 1.0, 1.0):
        return "tanh(x) ≈ Σ_j c_j erf(b_j x)"
    terms = [f"{A:g}"] if A else []
    if B:
        terms.append("x" if B == 1 else f"{B:g} x")
    terms.append(("" if C == 1 else f"{C:g} ") + f"tanh({s:g} x)")
    return (f"g = {text} = " + " + ".join(terms).replace("+ -", "- ")
            + " with tanh(y) ≈ Σ_j c_j erf(b_j y)")


def _mixture(text: str, expr: sp.Expr, family: tuple[float, float, float, float],
             fine: bool = False) -> GaussianAverages:
    """g = A + B z + C tanh(s z) through the certified erf mixture of
    :mod:`fltheory.papers.committee._mixture` (closed forms; ``fine``: the 10-term fit)."""
    from fltheory.papers.committee import _mixture as mx

    m = mx.mixture(*family, fine=fine)
    funcs = {"e2": lambda C: mx.e2(m, C), "i2": lambda C: mx.i2(m, C),
             "i3": lambda C: mx.i3(m, C), "i4": lambda C: mx.i4(m, C)}
    method = (f"closed forms of an erf mixture: {_mixture_text(text, family)}, {len(m.c)} terms, "
              f"sup errors {m.eps0:.1e} on g and {m.eps1:.1e} on g' (certified on a grid with "
              f"derivative bounds); each average's error bound at a computation's own "
              f"covariances is reported with it")
    sizes = {"e2": 2, "i2": 2, "i3": 3, "i4": 4}
    undefined = {k: _numeric_function(f"{k.upper()}_g", n, funcs[k]) for k, n in sizes.items()}

    def symbolic(kind: str, c: Callable[[int, int], sp.Expr]) -> sp.Expr:
        n = sizes[kind]
        return undefined[kind](*[c(a, b) for a in range(1, n + 1) for b in range(a, n + 1)])

    av = GaussianAverages(text, "mixture", method, expr, funcs, symbolic)
    av.mixture = m
    if not fine:
        av.finer = lambda: _mixture(text, expr, family, fine=True)
    return av


def _erf(text: str, scale: sp.Expr | int) -> GaussianAverages:
    """g(x) = erf(s x/√2) = G(s x), G = erf(·/√2): E2_g(C) = E2_G(s²C), I2_g = s² I2_G(s²C),
    I3_g = I3_G(s²C) (g' = s G'(s·) and v = v'/s), I4_g = s² I4_G(s²C)."""
    if scale == 1:
        av = GaussianAverages(
            "erf", "erf", "closed form (Saad–Solla arcsin)", None,
            {"e2": _erf_e2, "i2": _erf_i2, "i3": _erf_i3, "i4": erf_i4}, _erf_symbolic)
        av._expr_of = _erf_ss_expr
        return av
    import sympy as sp

    s2 = float(scale) ** 2
    power = {"e2": 0, "i2": 1, "i3": 0, "i4": 1}
    base = {"e2": _erf_e2, "i2": _erf_i2, "i3": _erf_i3, "i4": erf_i4}

    def scaled(kind: str) -> Callable[[np.ndarray], np.ndarray]:
        return lambda C: s2 ** power[kind] * base[kind](s2 * C)

    def symbolic(kind: str, c: Callable[[int, int], sp.Expr]) -> sp.Expr:
        return scale ** (2 * power[kind]) * _erf_symbolic(kind, lambda a, b: scale**2 * c(a, b))

    av = GaussianAverages(
        text, "erf", f"closed form (Saad–Solla arcsin, fields scaled by {scale})",
        sp.erf(scale * sp.Symbol("z", real=True) / sp.sqrt(2)),
        {k: scaled(k) for k in base}, symbolic)
    av.scale = float(scale)
    return av


def _erf_ss_expr() -> sp.Expr:
    import sympy as sp

    return sp.erf(sp.Symbol("z", real=True) / sp.sqrt(2))


def _polynomial(text: str, expr: sp.Expr) -> GaussianAverages:
    import sympy as sp

    from fltheory.engine.functions import Z

    poly = sp.Poly(expr, Z)
    degree = poly.degree()
    if degree > MAX_DEGREE:
        raise DomainError("g", text, f"polynomials of degree <= {MAX_DEGREE}",
                          reason=f"has degree {degree}")
    if degree < 1:
        raise DomainError("g", text, "a non-constant activation", reason="is constant")
    g = [(int(m[0]), _as_exact(c)) for m, c in poly.terms()]
    dg = [(p - 1, c * p) for p, c in g if p > 0]
    ident = [(1, 1)]
    factors = {"e2": [g, g], "i2": [dg, dg], "i3": [dg, ident, g], "i4": [dg, dg, g, g]}
    tables = {k: _PolyTable(len(f), wick.combine(len(f), f)) for k, f in factors.items()}
    return GaussianAverages(
        text, "polynomial", "exact polynomial (Wick)", expr,
        {k: tables[k].__call__ for k in tables},
        lambda kind, c: tables[kind].symbolic(c), degree=degree, tables=tables)


# --------------------------------------------------------------------------- cubature


def _check_growth(text: str, expr: sp.Expr) -> None:
    """Refuse g or g' growing like e^{c z²} or faster at ±∞ (some Gaussian average of the
    ODEs would be infinite at large variance)."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.integrability import NotSquareIntegrable, singular_points
    from fltheory.engine.timer import Timeout, time_limit

    allowed = ("activations with g, g' finite on ℝ and O(e^{c z²}) for every c > 0 (all "
               "Gaussian moments finite)")
    if sp.diff(expr, Z).has(sp.DiracDelta):
        raise DomainError("g", text, allowed, reason="jumps (g' has a Dirac delta: g'(u) g'(v) "
                          "is not a function)")
    for f, what in ((expr, "g"), (sp.diff(expr, Z), "g'")):
        try:
            points = singular_points(f)
        except NotSquareIntegrable as exc:
            raise DomainError("g", text, allowed, reason=f"has {what} with {exc}") from None
        if points:
            raise DomainError("g", text, allowed, reason=f"has {what} infinite at z = "
                              f"{', '.join(str(p) for p in sorted(points, key=str)[:3])}")
        for side in (sp.oo, -sp.oo):
            # numerically first (milliseconds): log(1 + f²)/z² must fall towards 0 (it tends
            # to c > 0 for f ~ e^{c z²/2}); only when it does not clearly fall, sympy's limit
            # decides (seconds, bounded by time_limit) — it accepts e.g. e^{|z|^1.9}
            ok = _decays_numerically(f, side)
            if not ok:
                rate: Any = None
                try:
                    with time_limit(5.0) as limited:
                        if limited:  # off the main thread nothing bounds sympy
                            rate = sp.limit(sp.log(1 + f**2) / Z**2, Z, side)
                except (Timeout, Exception):  # sympy gave up: the numeric verdict stands
                    rate = None
                ok = rate is not None and bool(rate.is_number) and rate == 0
            if not ok:
                raise DomainError("g", text, allowed,
                                  reason=f"has {what} growing like e^(c z²) at {side}: "
                                         "some Gaussian averages are infinite")


def _decays_numerically(f: sp.Expr, side: Any) -> bool:
    """log(1 + f²)/z² at z = ±50, ±200, ±800 (mpmath, any size): finite and falling to at
    most half its first value (a power or e^{|z|^p}, p <= 1.5, does; e^{c z²} does not)."""
    import mpmath
    import sympy as sp

    from fltheory.engine.functions import Z

    fn = sp.lambdify(Z, sp.log(1 + f**2) / Z**2, "mpmath")
    try:
        with mpmath.workdps(30):
            vals = [abs(float(fn(mpmath.mpf(int(side.is_positive) * 2 - 1) * r)))
                    for r in (50, 200, 800)]
    except Exception:
        return False
    return all(math.isfinite(v) for v in vals) and vals[-1] <= 0.5 * vals[0]


def _cubature(text: str, expr: sp.Expr) -> GaussianAverages:
    import sympy as sp

    from fltheory.engine.functions import Z

    _check_growth(text, expr)
    mods = ["numpy", {"erf": _np_erf, "erfc": _np_erfc, "Heaviside": _np_heaviside}]
    f = sp.lambdify(Z, expr, mods)
    df = sp.lambdify(Z, sp.diff(expr, Z), mods)

    def vec(fn: Callable[[Any], Any]) -> Callable[[np.ndarray], np.ndarray]:
        return lambda x: np.broadcast_to(np.asarray(fn(x), dtype=float), x.shape)

    g, dg = vec(f), vec(df)
    ident = vec(lambda x: x)
    parts = {"e2": [g, g], "i2": [dg, dg], "i3": [dg, ident, g], "i4": [dg, dg, g, g]}
    d2 = sp.diff(expr, Z, 2)
    if not d2.has(sp.DiracDelta):  # I3 by Stein's lemma: two-field averages only
        ddg = vec(sp.lambdify(Z, d2, mods))
        with np.errstate(all="ignore"):
            if np.isfinite(ddg(np.linspace(-40.0, 40.0, 8001))).all():
                parts["i3_stein"] = [ddg, g, dg]
    from fltheory.papers.committee import _trapezoid as trap

    funcs = _rule_funcs(parts, trap.STANDARD)
    # finite on a grid covering the nodes of moderate-variance covariances (cheap, now); the
    # rule's error is measured on first use of ``method``
    grid = np.linspace(-40.0, 40.0, 8001)
    with np.errstate(all="ignore"):
        if not (np.isfinite(g(grid)).all() and np.isfinite(dg(grid)).all()):
            raise DomainError("g", text, "activations finite on ℝ",
                              reason="gives non-finite values on the cubature nodes")

    def method() -> str:
        test = _test_covariances()
        fine = _rule_funcs(parts, trap.STANDARD.fine())
        err = max(float(np.abs(funcs[k](test[:, :n, :n]) - fine[k](test[:, :n, :n])).max())
                  for k, n in (("e2", 2), ("i2", 2), ("i3", 3), ("i4", 4)))
        return trapezoid_method(err)

    sizes = {"e2": 2, "i2": 2, "i3": 3, "i4": 4}
    undefined = {k: _numeric_function(f"{k.upper()}_g", n, funcs[k]) for k, n in sizes.items()}

    def symbolic(kind: str, c: Callable[[int, int], sp.Expr]) -> sp.Expr:
        n = sizes[kind]
        args = [c(a, b) for a in range(1, n + 1) for b in range(a, n + 1)]
        return undefined[kind](*args)

    av = GaussianAverages(text, "cubature", method, expr, funcs, symbolic)
    av.parts = parts
    return av


def _np_heaviside(x: Any, h: Any = 0.5) -> Any:
    return np.heaviside(x, h)


def _np_erfc(x: Any) -> Any:
    from scipy.special import erfc

    return erfc(x)


def _np_erf(x: Any) -> Any:
    from scipy.special import erf

    return erf(x)


@lru_cache(maxsize=16)
def _hermite_grid(order: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.hermite_e.hermegauss(order)
    w = w / math.sqrt(_TWO_PI)
    grids = np.meshgrid(*([x] * d), indexing="ij")
    weights = np.ones([order] * d)
    for k in range(d):
        shape = [1] * d
        shape[k] = order
        weights = weights * w.reshape(shape)
    return np.stack([gr.ravel() for gr in grids], axis=-1), weights.ravel()


def _cubature_func(fs: list[Callable[[np.ndarray], np.ndarray]], order: int
                   ) -> Callable[[np.ndarray], np.ndarray]:
    d = len(fs)

    def average(C: np.ndarray) -> np.ndarray:
        lead = C.shape[:-2]
        A = C.reshape(-1, d, d)
        check_cost(f"{A.shape[0]} covariances", A.shape[0] * order**d, 5e8,
                   "cubature points", "fewer fields")
        lam, V = np.linalg.eigh(A)
        L = V * np.sqrt(np.maximum(lam, 0.0))[:, None, :]
        grid, weights = _hermite_grid(order, d)
        out = np.empty(A.shape[0])
        chunk = max(1, 2_000_000 // len(weights))
        for lo in range(0, A.shape[0], chunk):
            x = np.einsum("bij,pj->bpi", L[lo:lo + chunk], grid)
            vals = np.ones(x.shape[:2])
            for i, fn in enumerate(fs):
                vals = vals * fn(x[..., i])
            out[lo:lo + chunk] = vals @ weights
        return out.reshape(lead)

    return average


def _rule_funcs(parts: dict[str, list[Callable[[np.ndarray], np.ndarray]]], rule: trap.Rule
                ) -> dict[str, Callable[[np.ndarray], np.ndarray]]:
    """The four averages by the trapezoid rule ``rule``; I3 by Stein's lemma when g'' is a
    function (``parts["i3_stein"]`` = [g'', g, g']): E[g'(u) v g(w)] = C_uv E[g''(u) g(w)]
    + C_vw E[g'(u) g'(w)], two-field averages of (u, w) only (v enters linearly)."""
    out = {k: _trapezoid_func(parts[k], rule) for k in ("e2", "i2", "i3", "i4")}
    if "i3_stein" in parts:
        ddg, g, dg = parts["i3_stein"]
        first, second = _trapezoid_func([ddg, g], rule), _trapezoid_func([dg, dg], rule)

        def i3(C: np.ndarray) -> np.ndarray:
            uw = C[..., [0, 2], :][..., :, [0, 2]]
            return C[..., 0, 1] * first(uw) + C[..., 1, 2] * second(uw)

        out["i3"] = i3
    return out


def _trapezoid_func(fs: list[Callable[[np.ndarray], np.ndarray]], rule: trap.Rule
                    ) -> Callable[[np.ndarray], np.ndarray]:
    def average(C: np.ndarray) -> np.ndarray:
        A = C.reshape(-1, len(fs), len(fs))
        check_cost(f"{A.shape[0]} covariances", A.shape[0], 1e5, "cubature covariances",
                   "fewer fields")
        from fltheory.papers.committee import _trapezoid as trap

        return trap.average(fs, C, rule)

    return average


def _test_covariances() -> np.ndarray:
    test = 0.6 * np.eye(4) + 0.4 * np.ones((4, 4))
    test[0, 2] = test[2, 0] = -0.1
    return np.stack([test, test[np.ix_([0, 0, 1, 2], [0, 0, 1, 2])]])


def trapezoid_method(err: float | None, rule: trap.Rule | None = None) -> str:
    """The method string of the generic (trapezoid) path, with its measured error (``rule``:
    the standard one unless given)."""
    if rule is None:
        from fltheory.papers.committee import _trapezoid as trap

        rule = trap.STANDARD
    text = (f"trapezoid rule with Gaussian weight (step {rule.h:g} in field units, |ξ| <= "
            f"{rule.X:g}; coinciding fields merged; the last field by a tabulated 1-D "
            f"smoothing, table step {rule.table_step:g}, quintic Hermite)")
    if err is None:
        return text
    return (f"{text}, error {err:.1e} measured against steps halved at two test covariances "
            f"(the error at a computation's own covariances is reported with it)")
