r"""One-pass SGD in quadratic two-layer networks: ODEs derived from the model (seed 003).

Source: Bocchi, Regimbeau, Lucibello, Saglietti, Cammarota (2026), *Escape dynamics and implicit
bias of one-pass SGD in overparameterized quadratic networks*, arXiv 2604.03068.

Model and normalisation. x ~ N(0, I_N); student f(x) = a Σ_{k<=p} λ_k², teacher
y = b Σ_{m<=p*} ν_m² + σ ξ with local fields λ_k = w_k·x/√N, ν_m = w*_m·x/√N, ξ ~ N(0, 1); squared
loss ½(f − y)²; one fresh sample per step, w_k ← w_k − η_w ∂_{w_k}½(f − y)²; time t = steps/N.
Default a = 1/p, b = 1/p* and η_w = p η (mean field), so that a η_w = η does not depend on p.
The fields z = (λ, ν) are Gaussian with covariance C = [[Q, ρ], [ρᵀ, T]], Q = WWᵀ/N,
ρ = W W*ᵀ/N, T = W*W*ᵀ/N.

Derivation. Δw_k = −2a η_w (f − y) λ_k x/√N, so with ‖x‖²/N → 1 and t = steps/N

    dQ_kl/dt = −4 a η_w E[(f − y) λ_k λ_l] + 4 a² η_w² E[(f − y)² λ_k λ_l],
    dρ_km/dt = −2 a η_w E[(f − y) λ_k ν_m]      (ρ is linear in Δw: no η² term),

and the expectations are Gaussian moments of degree 4 and 6, computed element by element by
Isserlis' theorem (:func:`derive_elementwise`). With f − y = zᵀ𝒜z − σξ, 𝒜 = diag(a I_p, −b I_p*),
the same moments in matrix form are

    E[(zᵀ𝒜z) z zᵀ]  = tr(𝒜C) C + 2 C𝒜C,
    E[(zᵀ𝒜z − σξ)² z zᵀ] = (tr(𝒜C)² + 2 tr((𝒜C)²) + σ²) C + 4 tr(𝒜C) C𝒜C + 8 C𝒜C𝒜C,

(:func:`rhs_matrix`, used for integration; the tests check it against the element-wise
derivation for several small (p, p*)), and the population loss is
L = ½(tr(𝒜C)² + 2 tr((𝒜C)²) + σ²).

Plateau. At ρ = 0, Q = q I, T = I_{p*} (a = 1/p, b = 1/p*) the Q-equation reduces to
q·[−(q − 1 + 2q/p) + η((q − 1)² + 2q²/p + 2/p* + 4q(q − 1)/p + 8q²/p² + σ²)] = 0: a quadratic
for q* whose small-η root tends to p/(p + 2); it exists while the discriminant is >= 0, which
bounds the step (:func:`plateau`). Linearising the ρ-equation there gives
dρ/dt = −2η[(tr(𝒜C)) + 2aq] ρ + 4bη ρT, i.e. a rate r_i = 2η(1 − q* − 2q*/p + 2τ_i/p*) for each
teacher eigenvalue τ_i; at η → 0 it is 4ητ_i/p*, independent of p.

Which statistic of ρ(0) sets the escape. While ρ is small, Q evolves on its own (the ρ = 0
equation; Q(0) ≈ q0 I stays isotropic) and ρ obeys the linear equation above with q = q(t). For
T = τ I the operator is a multiple of the identity on ρ, so ρ(t) = ρ(0) exp(∫_0^t r(q(s)) ds):
the direction of ρ(0) is frozen and only ‖ρ(0)‖_F enters, t_esc ≈ c(p) − ln‖ρ(0)‖_F / r. For a
random start W0 ~ N(0, q0), ‖ρ(0)‖_F² ≈ p p* q0 τ/N, hence the ln N/(2r) law (claim
``quadratic.escape_time_vs_N``). Checked on the ODE from 40 random starts at N = 1000
(p* = 2, η = 1/10): regressing t_esc on ln‖ρ(0)‖_F leaves a residual s.d. of 0.18, 0.08, 0.06
(p = 2, 4, 8) with slopes −5.99, −5.66, −5.34 against −1/r = −6.04, −5.85, −5.73; on the
largest singular value of ρ(0) 0.52, 0.45, 0.37, on its largest entry 0.84, 0.60, 0.57. The
constant c(p) is not only the linear stage's: with the escape read at ‖ρ‖_F = 1/2 the ODE's
t_esc falls by 3.5, 2.7, 2.3 per doubling of p (2→4→8→16), against (ln 2)/(2r) ≈ 2.0 from
‖ρ(0)‖_F alone — the rest is the nonlinear stage, whose natural scale ‖ρ‖_F ~ √p grows with p
(read per student, ‖ρ‖_F/√p = 1/4, the decrease is 1.1, 0.6, 0.5). With the exact reduction
(:mod:`fltheory.theory.quadratic_ode`) the statement is sharper: from Q(0) = q0 I the whole
trajectory depends on ρ(0) only through K = Vᵀρ(0), V an orthonormal basis of its columns (for
T = I only through the singular values of ρ(0)), and on p only through the coefficients and the
bulk count p − k.

SGD's plateau noise (:func:`plateau_noise_moment`, :func:`escape_time_law`). Each step moves
an overlap by Δρ_km = −2aη_w (f − y) λ_k ν_m / N; at ρ = 0 these kicks are uncorrelated between
entries and have variance 4η² E[(f − y)² λ² ν²]/N per unit time (closed form by Isserlis). The
linear stage amplifies them by the same scalar factor as ρ(0), so SGD escapes as the mean-field
ODE would from Gaussian overlaps of variance (q0 + J)/N, J = 4η² ∫ E[…]_{q(s)} e^{−2R(s)} ds.
Both terms are O(1/N): the noise leaves the ln N/(2r) law intact and shifts every escape by
≈ −ln(1 + J/q0)/(2r), an O(1) time that does not vanish as N → ∞ (p = 4, p* = 2, η = 1/10:
J = 0.115, shift −1.1). The claims ``quadratic.plateau_noise`` (the variance itself, from an
exact plateau point), ``quadratic.escape_time_vs_N`` and ``quadratic.escape_time_vs_p`` (the
mean escape time per N and per p, and the paired SGD − ODE shift) test this against SGD.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import sympy as sp

from fltheory.exact import DomainError, check_cost, check_integer, to_float

__all__ = [
    "EscapeLaw",
    "ODEDivergence",
    "ODESolution",
    "PlateauResult",
    "check_escape_request",
    "check_ode_request",
    "crossing_time",
    "derive_elementwise",
    "escape_time_law",
    "hessian_plateau_counts",
    "hessian_solution_counts",
    "implicit_bias_drift",
    "integrate",
    "loss_matrix",
    "manifold_dimension",
    "ode_jacobian_counts",
    "plateau",
    "plateau_noise_moment",
    "plateau_overlap_variance",
    "polar_factor",
    "rhs_matrix",
    "stability_bounds",
    "wick_expectation",
]

#: bounds on the work one call may ask for (see :func:`ode_cost`, :func:`escape_cost`): an
#: accepted request finishes in well under a minute on a 2-core machine
ODE_SECONDS_LIMIT = 20.0
ESCAPE_SECONDS_LIMIT = 60.0
MEMORY_LIMIT_BYTES = 2**30


class ODEDivergence(DomainError):
    """The ODE left every bounded region: finite-time blow-up at about time ``t`` (the step is
    above the stability limits, :func:`stability_bounds`)."""

    def __init__(self, eta: object, t: float):
        self.t = t
        super().__init__("eta", eta, "steps for which the ODE stays bounded "
                         "(see stability_bounds)",
                         reason=f"makes the ODE diverge: the order parameters exceed 1e8 times "
                                f"their scale by t ≈ {t:.3g} (finite-time blow-up)")


def _step(eta: Any, param: str = "eta", allow_zero: bool = False) -> Fraction:
    """A step as an exact rational: a Fraction (or int) is kept exactly; a float is read as the
    nearest rational of denominator <= 10^12 (so float(1/10) is 1/10 again). Refuses values a
    double cannot hold, and steps <= 0 (or < 0 with ``allow_zero``)."""
    if isinstance(eta, bool) or not isinstance(eta, int | float | Fraction):
        raise DomainError(param, eta, "a rational or float step")
    if isinstance(eta, float):
        if not math.isfinite(eta):
            raise DomainError(param, eta, "finite steps > 0")
        eta = Fraction(eta).limit_denominator(10**12)
    eta = Fraction(eta)
    to_float(eta, param)
    if eta < 0 or (eta == 0 and not allow_zero):
        raise DomainError(param, _fstr(eta), "eta >= 0" if allow_zero else "eta > 0")
    return eta


def _fstr(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _real(x: Any, param: str, low: float | None = None, strict: bool = False) -> float:
    """A finite real argument (float, int or Fraction) >= ``low`` (> with ``strict``)."""
    if isinstance(x, bool) or not isinstance(x, int | float | Fraction | np.floating | np.integer):
        raise DomainError(param, x, "a real number")
    v = to_float(Fraction(x), param) if isinstance(x, Fraction | int) else float(x)
    if not math.isfinite(v) or (low is not None and (v < low or (strict and v == low))):
        raise DomainError(param, x, f"finite numbers {'>' if strict else '>='} {low}"
                          if low is not None else "finite numbers")
    return v


def _matrix(M: Any, param: str, shape: tuple[int, int]) -> np.ndarray:
    A = np.asarray(M, dtype=float)
    if A.shape != shape:
        raise DomainError(param, f"an array of shape {A.shape}", f"shape {shape}")
    if not np.isfinite(A).all():
        raise DomainError(param, "a matrix with non-finite entries", "finite entries")
    return A


def stability_bounds(p: int, p_star: int, noise: Fraction = Fraction(0)) -> dict[str, Any]:
    r"""Steps beyond which the mean-field dynamics (T = I, a = 1/p, b = 1/p*) cannot converge.

    ``plateau``: η_max, the largest step for which the norm-adjustment phase has a fixed point
    q*(η) (the discriminant of the plateau quadratic, :func:`plateau`); above it dq/dt > 0 for
    every q and q(t) blows up in finite time (the η² term grows like q³). Exact (sympy).

    ``solution`` (σ = 0): η_sol = p*/(2(p* + 2)), above which the zero-loss solutions are
    unstable. Derivation: at a solution W = M W*, a MᵀM = b I, let a student component
    orthogonal to the teacher's space have Gram s (fields μ ~ N(0, s)); with u = Mν,
    E[uuᵀ] = (p/p*)P (P the rank-p* projector), f − y = 2a u·μ + O(s), so
    ds/dt = −4aη_w E[(f − y) λ μᵀ]_sym + 4a²η_w² E[(f − y)² λλᵀ] restricted to s = εP is
    (8ηε/p*)(2η(p* + 2)/p* − 1) (a η_w = η): growth iff η > p*/(2(p* + 2)), for every p.
    (Checked against the numerical Jacobian of the derived ODE at a solution in the tests.)
    Between η_sol and η_max the plateau exists but the run cannot end at zero loss: it ends at
    a non-zero-loss state or blows up after the escape.
    """
    check_integer(p, "p", 1)
    check_integer(p_star, "p_star", 1)
    noise = Fraction(noise)
    if noise < 0:
        raise DomainError("noise", _fstr(noise), "noise >= 0")
    _, disc, (_, eta_s, s2), _ = _plateau_symbolic(p, p_star)
    roots = sp.solve(disc.subs(s2, sp.Rational((noise**2).numerator, (noise**2).denominator)),
                     eta_s)
    positive = sorted((r for r in roots if r.is_positive), key=float)
    return {"plateau": positive[0] if positive else None,
            "solution": Fraction(p_star, 2 * (p_star + 2)) if noise == 0 else None}


def check_ode_request(p: int, p_star: int, eta: float, t_span: float, n_grid: int,
                      k: int | None = None, count: int = 1) -> None:
    """Refuse (CostError, before any work) an ODE integration whose estimated time or memory
    (:func:`ode_cost`, times ``count`` integrations) is beyond ODE_SECONDS_LIMIT /
    MEMORY_LIMIT_BYTES. ``k``: the reduced size (default min(p, p*), a generic ρ(0) with
    Q(0) = q0 I; p for an unstructured Q(0))."""
    k = min(p, p_star) if k is None else k
    seconds, memory = ode_cost(k, p, p_star, eta, t_span, n_grid)
    what = f"p = {p}, p* = {p_star}, t-max = {t_span:.3g} (ODE of reduced size {k})"
    check_cost(what, count * memory, MEMORY_LIMIT_BYTES, "bytes of memory",
               "fewer students p or a smaller teacher p*")
    check_cost(what, count * seconds, count * ODE_SECONDS_LIMIT, "seconds (estimated)",
               "a shorter t-max, a smaller teacher p* or fewer students p")


def ode_cost(k: int, p: int, p_star: int, eta: float, t_span: float, n_grid: int
             ) -> tuple[float, float]:
    """(seconds, bytes) to integrate the reduced ODE (k directions, p students, p* teachers)
    over ``t_span`` with output on ``n_grid`` points (compiled Dormand–Prince).

    Fitted on this machine (2 cores, single-threaded BLAS; measured 2026-12): right-side
    evaluations nfev ≈ 3000 + 15·η·t (p = 4, p* = 2, η = 1/10: 3367, 6139, 33733, 302053 at
    t = 200, 2e3, 2e4, 2e5), at least 6 per grid point; one evaluation ≈ 4e-6 + 3e-8·n² +
    1e-9·k·n² s with n = k + p* (measured 3.7e-6 s at (k, p*) = (2, 2), 1.5e-3 at (4, 300),
    1.1e-2 at (4, 600), 3.3e-3 at (100, 100); the fit is above each). Memory: the outputs Q and
    ρ on the grid, (p² + p p*) doubles per point, and about three temporaries of that size.
    """
    n = k + p_star
    nfev = max(3000 + 15 * max(eta, 0.1) * t_span, 6.0 * n_grid)
    seconds = nfev * (4e-6 + 3e-8 * n * n + 1e-9 * k * n * n) + 2e-7 * n_grid * p * p
    memory = 4.0 * 8 * n_grid * (p * p + p * p_star + 1 + k * k + k * p_star)
    return seconds, memory



def wick_expectation(indices: Sequence[int], cov: Any) -> Any:
    """E[z_{i1} ⋯ z_{ik}] for a centred Gaussian vector, by Isserlis' theorem (sum over perfect
    matchings of the covariance entries ``cov[i][j]``)."""
    idx = list(indices)
    if len(idx) % 2:
        return 0
    return _wick(tuple(sorted(idx)), cov)


def _wick(idx: tuple[int, ...], cov: Any) -> Any:
    if not idx:
        return 1
    first, rest = idx[0], idx[1:]
    total = 0
    for j in range(len(rest)):
        total += cov[first][rest[j]] * _wick(rest[:j] + rest[j + 1:], cov)
    return total


def _symbols(p: int, p_star: int) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    Q = sp.Matrix(p, p, lambda i, j: sp.Symbol(f"Q_{min(i, j) + 1}{max(i, j) + 1}", real=True))
    R = sp.Matrix(p, p_star, lambda i, j: sp.Symbol(f"rho_{i + 1}{j + 1}", real=True))
    T = sp.Matrix(p_star, p_star,
                  lambda i, j: sp.Symbol(f"T_{min(i, j) + 1}{max(i, j) + 1}", real=True))
    return Q, R, T


@lru_cache(maxsize=32)
def derive_elementwise(p: int, p_star: int) -> dict[str, Any]:
    """dQ/dt, dρ/dt and the loss, derived element by element from the SGD update by Isserlis.

    Returns sympy matrices in the symbols Q_kl, rho_km, T_mn, a, b, eta_w, sigma (cached by
    (p, p*)). Polynomials in the fields are expanded and every monomial's expectation is a
    sum over pairings of covariance entries.
    """
    check_integer(p, "p", 1)
    check_integer(p_star, "p_star", 1)
    # measured: 1.2 s, 2.3 s, 4.3 s for p + p* = 4, 5, 6 fields; 12.7 s (5, 1) and 15.8 s
    # (4, 3) at 7 on a loaded machine: ≈ 1.2·2.3^(p + p* − 4), above each
    check_cost(f"p + p* = {p + p_star} (symbolic derivation)",
               1.2 * 2.3 ** min(p + p_star - 4, 500), 10.0, "seconds (estimated)",
               "p + p* <= 6")
    Q, R, T = _symbols(p, p_star)
    n = p + p_star
    cov = [[(Q[i, j] if i < p and j < p else R[i, j - p] if i < p else
             R[j, i - p] if j < p else T[i - p, j - p]) for j in range(n)] for i in range(n)]
    a, b, eta, sigma = sp.symbols("a b eta_w sigma", real=True)
    zs = sp.symbols(f"z0:{n}", real=True)

    def E(poly_expr: sp.Expr) -> sp.Expr:
        poly = sp.Poly(sp.expand(poly_expr), *zs)
        total = sp.Integer(0)
        for monom, coef in poly.terms():
            idx = [i for i, power in enumerate(monom) for _ in range(power)]
            total += coef * wick_expectation(idx, cov)
        return sp.expand(total)

    lam, nu = zs[:p], zs[p:]
    err = a * sum(lk**2 for lk in lam) - b * sum(nm**2 for nm in nu)
    # ξ is independent and centred: E[(err − σξ)² g] = E[err² g] + σ² E[g]
    dQ = sp.Matrix(p, p, lambda k, l: -4 * a * eta * E(err * lam[k] * lam[l])
                   + 4 * a**2 * eta**2 * (E(err**2 * lam[k] * lam[l])
                                          + sigma**2 * E(lam[k] * lam[l])))
    dR = sp.Matrix(p, p_star, lambda k, m: -2 * a * eta * E(err * lam[k] * nu[m]))
    loss = (E(err**2) + sigma**2) / 2
    return {"dQ": dQ, "drho": dR, "loss": sp.expand(loss),
            "symbols": {"Q": Q, "rho": R, "T": T, "a": a, "b": b, "eta_w": eta, "sigma": sigma}}


def rhs_matrix(Q: np.ndarray, R: np.ndarray, T: np.ndarray, a: float, b: float, eta_w: float,
               sigma: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """dQ/dt and dρ/dt in matrix form (numpy; see the module docstring): the block right side
    of :mod:`fltheory.theory.quadratic_ode` on the full state (no bulk, q = 0)."""
    from fltheory.theory.quadratic_ode import block_rhs

    p, ps = R.shape
    d = block_rhs(np.concatenate([[0.0], Q.ravel(), R.ravel()]), p, ps, 0, a, b, eta_w,
                  sigma**2, np.asarray(T, float))
    return d[1:1 + p * p].reshape(p, p), d[1 + p * p:].reshape(p, ps)


def loss_matrix(Q: np.ndarray, R: np.ndarray, T: np.ndarray, a: float, b: float,
                sigma: float = 0.0) -> float:
    """Population loss ½E[(f − y)²] = ½(tr(𝒜C)² + 2 tr((𝒜C)²) + σ²)."""
    from fltheory.theory.quadratic_ode import block_matrix, block_traces

    t1, tr2 = block_traces(block_matrix(Q, R, T), Q.shape[0], 0, a, b, 0.0)
    return float(0.5 * (t1**2 + 2 * tr2 + sigma**2))


def _rate(q: Any, p: int, p_star: int, eta: float, tau: float = 1.0) -> Any:
    """Linear growth rate of ρ along teacher eigenvalue τ at ρ = 0, Q = q I (mean field)."""
    return 2 * eta * (1 - q - 2 * q / p + 2 * tau / p_star)


@dataclass(frozen=True)
class PlateauResult:
    """The ρ = 0 fixed point Q = q* I (isotropic teacher T = I, mean-field a = 1/p, b = 1/p*)."""

    p: int
    p_star: int
    eta: Fraction
    q_exact: Any
    q: float
    loss: float
    rates: tuple[float, ...]
    eta_max_exact: Any

    @property
    def escape_rate(self) -> float:
        return max(self.rates)


@lru_cache(maxsize=64)
def _plateau_symbolic(p: int, p_star: int,
                      tr_t2: Fraction | None = None) -> tuple[Any, Any, Any, Any]:
    """The plateau bracket as a quadratic in q; ``tr_t2`` = tr T² (default p*, T = I): the
    teacher enters the η term as 2b² tr T² with b = 1/p*."""
    q, eta, s2 = sp.symbols("q eta sigma2", positive=True)
    t2 = Fraction(p_star) if tr_t2 is None else Fraction(tr_t2)
    bracket = (-(q - 1 + 2 * q / p)
               + eta * ((q - 1) ** 2 + 2 * q**2 / p
                        + 2 * sp.Rational(t2.numerator, t2.denominator) / p_star**2
                        + 4 * q * (q - 1) / p + 8 * q**2 / p**2 + s2))
    poly = sp.Poly(sp.expand(bracket), q)
    A2, A1, A0 = (poly.coeff_monomial(q**2), poly.coeff_monomial(q), poly.coeff_monomial(1))
    disc = sp.expand(A1**2 - 4 * A2 * A0)
    # the root continuous with p/(p + 2) at η → 0 (A2 ∝ η): (−A1 − √disc)/(2A2) with A1 < 0;
    # the same root without the cancellation of a small η: 2A0/(−A1 + √disc)
    root = (-A1 - sp.sqrt(disc)) / (2 * A2)
    return root, disc, (q, eta, s2), (A2, A1, A0)


def plateau(p: int, p_star: int, eta: Fraction, noise: Fraction = Fraction(0),
            teacher: Sequence[Fraction] | None = None) -> PlateauResult:
    """Plateau value q*, plateau loss and escape rates (one per teacher eigenvalue τ_i), in the
    mean-field normalisation with T = diag(teacher) (default identity; the fixed point assumes
    tr T = p*, i.e. an average eigenvalue 1).

    >>> r = plateau(2, 2, Fraction(0))
    >>> r.q_exact, round(r.escape_rate, 12)
    (1/2, 0.0)
    """
    check_integer(p, "p", 1)
    check_integer(p_star, "p_star", 1)
    eta = _step(eta, allow_zero=True)
    noise = Fraction(noise) if not isinstance(noise, float) else _step(noise, "noise", True)
    if noise < 0:
        raise DomainError("noise", _fstr(noise), "noise >= 0")
    to_float(noise, "noise")
    taus = [Fraction(1)] * p_star if teacher is None else [Fraction(t) for t in teacher]
    if len(taus) != p_star or sum(taus) != p_star:
        raise DomainError("teacher", ",".join(map(str, taus)),
                          f"{p_star} eigenvalues with mean 1 (tr T = p*)")
    tr_t2 = sum(t * t for t in taus)
    root, disc, (_, eta_s, s2), coeffs = _plateau_symbolic(p, p_star, tr_t2)
    subs = {eta_s: sp.Rational(eta.numerator, eta.denominator),
            s2: sp.Rational((noise**2).numerator, (noise**2).denominator)}
    eta_max = sp.solve(disc.subs(s2, subs[s2]), eta_s)
    qf = None
    if eta == 0:
        q_exact = sp.Rational(p, p + 2)
    else:
        d = disc.subs(subs)
        if d < 0:
            bound = [e for e in eta_max if e.is_positive]
            raise DomainError("eta", _fstr(eta), "steps for which the plateau fixed point "
                              "q*(η) exists: eta <= "
                              + (f"{bound[0]} ≈ {float(bound[0]):.6g}" if bound else "η_max"),
                              reason="is too large: no plateau fixed point")
        A2, A1, A0 = (c.subs(subs) for c in coeffs)
        q_exact = sp.nsimplify(sp.simplify(root.subs(subs)))
        # nsimplify searches for a simple number near a 15-digit evaluation: keep its answer
        # only when it is exactly a root of the plateau quadratic, and the right one (for a
        # tiny η the 15-digit evaluation cancels), else the cancellation-free form
        stable = 2 * A0 / (-A1 + sp.sqrt(d))
        q_stable = float(sp.N(stable, 30))
        if sp.expand(A2 * q_exact**2 + A1 * q_exact + A0) != 0 \
                or not abs(float(q_exact) - q_stable) <= 1e-9 * max(1.0, abs(q_stable)):
            q_exact, qf = stable, q_stable
    qf = float(q_exact) if qf is None else qf
    loss = 0.5 * ((qf - 1) ** 2 + 2 * (qf**2 / p + float(tr_t2) / p_star**2)
                  + float(noise) ** 2)
    rates = tuple(float(_rate(qf, p, p_star, float(eta), float(tau))) for tau in taus)
    return PlateauResult(p, p_star, eta, q_exact, qf, loss, rates,
                         [e for e in eta_max if e.is_positive] or None)


@dataclass(frozen=True)
class ODESolution:
    t: np.ndarray
    Q: np.ndarray  # (len(t), p, p)
    R: np.ndarray  # (len(t), p, p*)
    loss: np.ndarray


def integrate(Q0: np.ndarray, R0: np.ndarray, T: np.ndarray, eta: float, t_grid: np.ndarray,
              sigma: float = 0.0, a: float | None = None, b: float | None = None,
              eta_w: float | None = None, method: str = "auto", rtol: float = 1e-9,
              atol: float = 1e-12, reduce: bool = True) -> ODESolution:
    """Integrate the matrix-form ODEs and return Q, ρ and the loss on ``t_grid``.

    Defaults: a = 1/p, b = 1/p*, η_w = p η (mean field). The state is first reduced exactly
    (:mod:`fltheory.theory.quadratic_ode`: Q = q I + V S Vᵀ, ρ = V K; from Q(0) = q0 I the size
    no longer depends on p). ``method``: ``dopri`` — compiled Dormand–Prince 5(4) (needs numba,
    extra ``fast``); ``lsoda`` — scipy's solve_ivp; ``auto`` — dopri when numba is installed.
    Both integrate to the tolerances ``rtol``/``atol``. ``reduce=False`` integrates the full
    p² + p p* system (for checking the reduction).
    """
    from fltheory.theory import quadratic_ode as qode

    R0 = np.asarray(R0, dtype=float)
    if R0.ndim != 2 or min(R0.shape) < 1:
        raise DomainError("R0", f"an array of shape {R0.shape}", "a p × p* matrix, p, p* >= 1")
    p, ps = R0.shape
    R0 = _matrix(R0, "R0", (p, ps))
    Q0 = _matrix(Q0, "Q0", (p, p))
    T = np.ascontiguousarray(_matrix(T, "T", (ps, ps)))
    for M, name in ((Q0, "Q0"), (R0, "R0"), (T, "T")):
        if np.abs(M).max() > 1e6:  # overlaps are O(1); 1e6 keeps q³ terms far from overflow
            raise DomainError(name, f"a matrix with entries up to {np.abs(M).max():.3g}",
                              "entries of magnitude <= 1e6")
    eta_in = eta
    eta = _real(eta, "eta", 0.0, strict=True)
    sigma = _real(sigma, "sigma", 0.0)
    a = 1.0 / p if a is None else _real(a, "a")
    b = 1.0 / ps if b is None else _real(b, "b")
    eta_w = p * eta if eta_w is None else _real(eta_w, "eta_w")
    rtol, atol = _real(rtol, "rtol", 0.0, strict=True), _real(atol, "atol", 0.0, strict=True)
    t_grid = np.ascontiguousarray(t_grid, dtype=float)
    if t_grid.ndim != 1 or len(t_grid) < 1 or not np.isfinite(t_grid).all() \
            or np.any(np.diff(t_grid) < 0):
        raise DomainError("t_grid", f"an array of shape {t_grid.shape}",
                          "a non-empty, finite, non-decreasing 1-d grid of times")
    if method not in ("auto", "dopri", "lsoda"):
        raise DomainError("method", method, "auto, dopri or lsoda")
    if reduce:
        q0, V, S0, K0 = qode.reduce_start(Q0, R0)
    else:
        q0, V, S0, K0 = 0.0, np.eye(p), 0.5 * (Q0 + Q0.T), R0.copy()
    k = V.shape[1]
    m = p - k  # bulk students (0 for the full system)
    check_ode_request(p, ps, abs(a * eta_w), float(t_grid[-1] - t_grid[0]), len(t_grid), k)
    y0 = np.concatenate([[q0], S0.ravel(), K0.ravel()])
    args = (k, ps, m, float(a), float(b), float(eta_w), float(sigma) ** 2, T)
    jit: Any = None
    if method in ("auto", "dopri"):
        try:
            from fltheory.theory import _quadratic_jit as jit
        except ImportError:  # numba absent (or unusable with this numpy): scipy's LSODA
            if method == "dopri":
                raise DomainError("method", method, "lsoda or auto (dopri needs numba: pip "
                                  "install 'fltheory[fast]')") from None
        method = "dopri" if jit is not None else "lsoda"
    y_max = 1e8 * max(1.0, float(np.abs(y0).max()), float(np.abs(T).max()))
    if method == "dopri":
        # a step costs 6 evaluations: cap the steps at 3 × the time bound (ode_cost's fit)
        n = k + ps
        max_steps = int(3 * ODE_SECONDS_LIMIT / (6 * (4e-6 + 3e-8 * n * n + 1e-9 * k * n * n)))
        Y, _, status = jit.dopri5(y0, t_grid, rtol, atol, *args, max_steps)
        if status == 1:
            raise DomainError("eta", eta_in, "steps for which the ODE can be integrated",
                              reason=f"makes the ODE too stiff: over {max_steps} steps "
                                     f"(3 × the {ODE_SECONDS_LIMIT:g} s bound)")
        if status:  # 3: left the box; 2: step size underflow, the signature of a blow-up
            raise ODEDivergence(eta_in, _first_unreached(t_grid, Y))
    else:  # lsoda
        from scipy.integrate import solve_ivp

        # a state beyond the box aborts the integration from inside the right side (the
        # exception propagates through LSODA's callback): a blow-up ends at once
        class _Left(Exception):
            pass

        def rhs(t_: float, y: np.ndarray) -> np.ndarray:
            if not float(np.abs(y).max()) <= y_max:
                raise _Left(t_)
            return qode.block_rhs(y, *args)

        try:
            with np.errstate(all="ignore"):
                sol = solve_ivp(rhs, (t_grid[0], t_grid[-1]), y0, t_eval=t_grid,
                                method="LSODA", rtol=rtol, atol=atol)
        except _Left as exc:
            raise ODEDivergence(eta_in, float(exc.args[0])) from None
        Y = sol.y.T
        if not sol.success:
            raise DomainError("eta", eta_in, "steps for which the ODE can be integrated",
                              reason=f"stops LSODA: {sol.message}")
    q = Y[:, 0]
    S = Y[:, 1:1 + k * k].reshape(len(Y), k, k)
    S = 0.5 * (S + S.transpose(0, 2, 1))
    K = Y[:, 1 + k * k:].reshape(len(Y), k, ps)
    Qs = (V @ S) @ V.T
    Qs[:, np.arange(p), np.arange(p)] += q[:, None]
    Rs = V @ K
    # loss from the reduced covariance, the bulk adding m copies of q to the traces
    t1, tr2 = qode.block_traces(qode.block_matrix(S + q[:, None, None] * np.eye(k), K, T), k, m,
                                a, b, q)
    loss = 0.5 * (t1**2 + 2 * tr2 + float(sigma) ** 2)
    return ODESolution(t_grid.copy(), Qs, Rs, loss)


def _first_unreached(t_grid: np.ndarray, Y: np.ndarray) -> float:
    """The first grid time whose state the integrator did not reach (rows left NaN)."""
    bad = np.nonzero(~np.isfinite(Y).all(axis=1))[0]
    return float(t_grid[bad[0]] if len(bad) else t_grid[-1])


def plateau_noise_moment(q: Any, p: int, p_star: int, a: float, b: float,
                         sigma: float = 0.0) -> Any:
    """E[(f − y)² λ_1² ν_1²] at ρ = 0, Q = q I, T = I (q a number or an array; Isserlis; the
    tests rederive it with :func:`wick_expectation`):
    a²q³(p+2)(p+4) − 2ab q²(p+2)(p*+2) + b² q (p*+2)(p*+4) + σ² q.
    With Δρ_km = −2aη_w (f − y) λ_k ν_m / N per step, SGD adds to every overlap a variance
    4a²η_w² E[(f − y)² λ_k² ν_m²]/N per unit time (entries uncorrelated at ρ = 0 by symmetry).
    """
    return (a * a * q**3 * (p + 2) * (p + 4) - 2 * a * b * q * q * (p + 2) * (p_star + 2)
            + b * b * q * (p_star + 2) * (p_star + 4) + sigma**2 * q)


def plateau_noise_rate(q: Any, p: int, p_star: int, eta: float, sigma: float = 0.0) -> Any:
    """Variance per unit time, times N, that SGD adds to each overlap at ρ = 0, Q = q I
    (mean field, a η_w = η): 4η² E[(f − y)² λ² ν²]."""
    return 4 * eta**2 * plateau_noise_moment(q, p, p_star, 1 / p, 1 / p_star, sigma)


def plateau_overlap_variance(p: int, p_star: int, eta: Fraction, t: float,
                             sigma: float = 0.0) -> float:
    """N·E[ρ_km(t)²] for SGD started on the plateau (Q = q* I, ρ(0) = 0), T = I, mean field:
    the noise D = 4η² E[(f − y)² λ² ν²]_{q*} per unit time, amplified at the rate r,
    D (e^{2rt} − 1)/(2r). At the ODE's level (N → ∞) ρ stays 0; this is the O(1/N) variance
    that starts the escape from an exact plateau point."""
    pl = plateau(p, p_star, eta)
    t, sigma = _real(t, "t", 0.0), _real(sigma, "sigma", 0.0)
    D = plateau_noise_rate(pl.q, p, p_star, float(pl.eta), sigma)
    r = pl.escape_rate
    try:
        return float(D * t) if r == 0 else float(D * math.expm1(2 * r * t) / (2 * r))
    except OverflowError:
        raise DomainError("t", t, f"times with e^(2rt) below 1e308 (r = {r:.3g})") from None


@dataclass(frozen=True)
class EscapeLaw:
    """Escape times from cold random starts (see :func:`escape_time_law`)."""

    p: int
    p_star: int
    N: int
    q0: float
    threshold: float
    rate: float               # plateau escape rate r (T = I)
    noise_variance: float     # J: SGD's plateau noise adds J/N to each overlap's variance
    mean: float               # E t_esc for SGD (mean-field ODE from the noise-inflated start)
    se: float                 # Monte Carlo standard error of ``mean``
    mean_field: float         # E t_esc without the plateau noise (N → ∞ dynamics, random start)
    mean_field_se: float
    shift: float              # E[t_SGD − t_ODE] from the same start (common random numbers)
    shift_se: float
    mean_log_overlap: float   # E ln‖ρ_eff(0)‖_F, closed form
    samples: int

    @property
    def linear_shift(self) -> float:
        """The shift the linear stage alone predicts: −ln(1 + J/q0)/(2r) (scaling ρ(0) by c
        moves the escape by −ln c / r); ``shift`` is the Monte Carlo value."""
        return -math.log(1 + self.noise_variance / self.q0) / (2 * self.rate)


def crossing_time(t: np.ndarray, norms: np.ndarray, level: float) -> float:
    """First time ‖ρ‖_F reaches ``level``, interpolating ln‖ρ‖_F linearly between grid points
    (NaN if it never does)."""
    above = np.nonzero(norms >= level)[0]
    if len(above) == 0:
        return float("nan")
    j = int(above[0])
    if j == 0:
        return float(t[0])
    x0, x1 = np.log(norms[j - 1]), np.log(norms[j])
    return float(t[j - 1] + (t[j] - t[j - 1]) * (np.log(level) - x0) / (x1 - x0))


@lru_cache(maxsize=256)
def escape_time_law(p: int, p_star: int, eta: float, N: int, q0: float = 0.25,
                    threshold: float = 0.5, sigma: float = 0.0, samples: int = 400,
                    seed: int = 0, dt: float = 0.125) -> EscapeLaw:
    r"""Escape time (first ‖ρ‖_F = ``threshold``) of one-pass SGD from a cold random start
    W0 ~ N(0, q0) with an orthonormal teacher, T = I, mean-field normalisation.

    Initial overlaps: ρ(0) = W0 W*ᵀ/N has i.i.d. N(0, q0/N) entries. While ρ is small, Q(t) =
    q(t) I follows the ρ = 0 equation and ρ grows by the scalar factor exp(R(t)),
    R(t) = ∫_0^t r(q(s)) ds, r(q) = 2η(1 − q − 2q/p + 2/p*). SGD's plateau noise is an O(1/√N)
    martingale added to every overlap, uncorrelated between entries at ρ = 0
    (:func:`plateau_noise_moment`); propagated by the same scalar factor, it is equivalent to
    an initial overlap with variance

        σ_eff² = (q0 + J)/N,   J = 4η² ∫_0^∞ E[(f − y)² λ² ν²]_{q(s)} e^{−2R(s)} ds,

    still Gaussian and still isotropic. Both terms scale as 1/N, so the noise does not change
    the ln N/(2r) law but shifts every escape by about −ln(1 + J/q0)/(2r), an O(1) time that
    does not vanish as N → ∞. From there the mean-field ODE (exactly reduced: Q(0) = q0 I) is
    integrated for ``samples`` Gaussian starts; the mean, its Monte Carlo error, the noise-free
    mean and the paired shift (same draws scaled, common random numbers) are returned, with
    E ln‖ρ_eff‖_F = ½ ln(2σ_eff²) + ½ ψ(p p*/2) in closed form (‖ρ_eff‖²/σ_eff² ~ χ²_{p p*}).
    Neglected: the O(1/√N) anisotropy of Q(0) (measured on the ODE, 200 paired starts, p = 4:
    it moves the escape by −0.009 ± 0.006, 0.002 ± 0.003 at N = 1000, 4000) and the noise after
    the escape has begun. Cached per arguments.
    """
    import mpmath

    check_integer(p, "p", 1)
    check_integer(p_star, "p_star", 1)
    check_integer(N, "N", 1)
    check_integer(seed, "seed", 0)
    eta_q, sigma_q, q0, threshold, dt, r_star = _escape_arguments(p, p_star, eta, q0, threshold,
                                                                  sigma, samples, dt)
    eta, sigma = float(eta_q), float(sigma_q)
    t_max = _escape_horizon(p, p_star, N, q0, threshold, r_star)
    check_escape_request(p, p_star, eta_q, [N], q0, threshold, sigma_q, samples, dt)
    t = np.arange(0.0, t_max + dt / 2, dt)
    q = integrate(q0 * np.eye(p), np.zeros((p, p_star)), np.eye(p_star), eta, t, sigma).Q[:, 0, 0]
    rq = _rate(q, p, p_star, eta)
    R = np.concatenate([[0.0], np.cumsum(0.5 * (rq[1:] + rq[:-1]) * np.diff(t))])
    integrand = plateau_noise_rate(q, p, p_star, eta, sigma) * np.exp(-2 * R)
    J = float(np.sum(0.5 * (integrand[1:] + integrand[:-1]) * np.diff(t)))
    G = np.random.default_rng(seed).standard_normal((samples, p, p_star))
    s0, s_eff = math.sqrt(q0 / N), math.sqrt((q0 + J) / N)

    def t_esc(scale: float) -> np.ndarray:
        out = np.empty(samples)
        for i in range(samples):
            sol = integrate(q0 * np.eye(p), scale * G[i], np.eye(p_star), eta, t, sigma)
            out[i] = crossing_time(t, np.linalg.norm(sol.R, axis=(1, 2)), threshold)
        if np.isnan(out).any():
            raise DomainError("threshold", threshold, "levels ‖ρ‖_F that the ODE reaches",
                              reason=f"is not reached by t = {t_max:.0f}")
        return out

    with_noise, without = t_esc(s_eff), t_esc(s0)
    root = math.sqrt(samples)
    mlog = 0.5 * math.log(2 * s_eff**2) + 0.5 * float(mpmath.digamma(p * p_star / 2))
    return EscapeLaw(p, p_star, N, q0, threshold, r_star, J,
                     float(with_noise.mean()), float(with_noise.std(ddof=1) / root),
                     float(without.mean()), float(without.std(ddof=1) / root),
                     float((with_noise - without).mean()),
                     float((with_noise - without).std(ddof=1) / root), mlog, samples)


def _escape_horizon(p: int, p_star: int, N: int, q0: float, threshold: float,
                    rate: float) -> float:
    """The integration horizon of :func:`escape_time_law`: twice the linear-stage escape time
    from ‖ρ(0)‖_F ≈ √(p p* q0/N), plus 40."""
    sigma0 = math.sqrt(p * p_star * q0 / N)
    return 2.0 * max(math.log(threshold / sigma0), 1.0) / rate + 40.0


def _escape_arguments(p: int, p_star: int, eta: Any, q0: float, threshold: float, sigma: Any,
                      samples: int, dt: float) -> tuple[Fraction, Fraction, float, float, float,
                                                        float]:
    """The checked arguments of :func:`escape_time_law` (exact η and noise; q0, threshold, dt
    as floats) and the plateau escape rate, which must be positive."""
    check_integer(samples, "samples", 2)
    eta_q = _step(eta)
    sigma_q = Fraction(sigma) if not isinstance(sigma, float) else _step(sigma, "noise", True)
    if sigma_q < 0:
        raise DomainError("noise", _fstr(sigma_q), "noise >= 0")
    q0, threshold = _real(q0, "q0", 0.0, strict=True), _real(threshold, "threshold", 0.0, True)
    dt = _real(dt, "dt", 0.0, strict=True)
    rate = plateau(p, p_star, eta_q, sigma_q).escape_rate
    if rate <= 0:
        raise DomainError("eta", _fstr(eta_q), "steps with a positive escape rate")
    return eta_q, sigma_q, q0, threshold, dt, rate


def check_escape_request(p: int, p_star: int, eta: Any, Ns: Sequence[int], q0: float = 0.25,
                         threshold: float = 0.5, sigma: Any = 0.0, samples: int = 400,
                         dt: float = 0.125) -> None:
    """Refuse (CostError, before any work) :func:`escape_time_law` over all ``Ns`` when its
    estimated time (:func:`escape_cost`, summed) exceeds ESCAPE_SECONDS_LIMIT or one call's
    memory exceeds MEMORY_LIMIT_BYTES. The horizon grows like 1/r ∝ p*/η: a tiny η asks for a
    grid of ~p*/η points (η = 1e-9: 1e10 points, 100 GiB)."""
    eta_q, _, q0, threshold, dt, rate = _escape_arguments(p, p_star, eta, q0, threshold, sigma,
                                                          samples, dt)
    total, memory = 0.0, 0.0
    for N in Ns:
        check_integer(N, "N", 1)
        n_grid = _escape_horizon(p, p_star, N, q0, threshold, rate) / dt
        seconds, mem = escape_cost(p, p_star, n_grid, samples)
        total, memory = total + seconds, max(memory, mem)
    what = (f"eta = {_fstr(eta_q)} with {len(Ns)} value(s) of N, {samples} samples, p = {p}, "
            f"p* = {p_star} (escape horizon ≈ {n_grid * dt:.3g})")
    check_cost(what, memory, MEMORY_LIMIT_BYTES, "bytes of memory",
               "a larger step eta or fewer students p")
    check_cost(what, total, ESCAPE_SECONDS_LIMIT, "seconds (estimated)",
               "fewer samples or values of N, a larger step eta or fewer students p")


def escape_cost(p: int, p_star: int, n_grid: float, samples: int) -> tuple[float, float]:
    """(seconds, bytes) of one :func:`escape_time_law`: 1 + 2·samples reduced integrations on
    a grid of ``n_grid`` points. Fitted on this machine (2 cores; escape_time_law timed at
    (p, p*, samples, grid) = (4, 2, 100, 546): 2.7 s; (4, 2, 400, 546): 10.7 s; (4, 2, 100,
    2277): 10.7 s; (16, 2, 100, 475): 3.9 s; (64, 2, 50, 411): 9.4 s; (8, 8, 50, 862): 9.7 s):
    per sample, integration and grid point 2.5e-5 + 5e-8·p² + 4e-8·k·n² s (k = min(p, p*),
    n = k + p*; the p² is rebuilding Q on the grid). Memory: Q and ρ on the grid, and three
    temporaries of that size."""
    k = min(p, p_star)
    n = k + p_star
    per_point = 2.5e-5 + 5e-8 * p * p + 4e-8 * k * n * n
    seconds = (1 + 2 * samples) * n_grid * per_point
    memory = 4.0 * 8 * n_grid * (p * p + p * p_star + 4)
    return seconds, memory


def manifold_dimension(p: int, p_star: int) -> int:
    """Dimension of the zero-loss manifold (no label noise, full-rank teacher), p >= p*.

    f = y for every x means a WᵀW = b W*ᵀW* as quadratic forms on ℝ^N. The right side has rank
    p*, so the rows of W lie in the teacher's row space: W = M W* with M ∈ ℝ^{p×p*} and
    a MᵀM = b I (after whitening W*), i.e. M/√(b/a) has orthonormal columns — the Stiefel
    manifold V_{p*}(ℝ^p) of dimension p p* − p*(p* + 1)/2. It is positive for p > 1 even when
    p = p* (the rotations O(p)), and empty for p < p* (rank W <= p < p*).

    >>> manifold_dimension(2, 2), manifold_dimension(4, 2), manifold_dimension(1, 1)
    (1, 5, 0)
    """
    check_integer(p, "p", 1)
    check_integer(p_star, "p_star", 1)
    if p < p_star:
        raise DomainError("p", p, f"p >= p* = {p_star} (no zero-loss solution when the student "
                          "is narrower than the teacher)")
    return p * p_star - p_star * (p_star + 1) // 2


def hessian_solution_counts(p: int, p_star: int, N: int) -> tuple[int, int, int]:
    """(negative, zero, positive) eigenvalue counts of the population-loss Hessian at a point of
    the zero-loss manifold, in the full p·N weight space.

    There f = y, so the Hessian is E[∇f ∇fᵀ] >= 0 (no negative direction) and its kernel is
    {dW : WᵀdW + dWᵀW = 0}. Writing dW = dM·(teacher basis) + dW⊥ (rows orthogonal to the
    teacher space): the first part contributes the tangent space of the manifold,
    p p* − p*(p*+1)/2 directions (dMᵀM antisymmetric); the second needs Mᵀ dW⊥ = 0, i.e.
    (p − p*)(N − p*) directions that exist only when p > p*. Along these the loss grows
    quartically (F = dW⊥ᵀdW⊥ at second order), so they are flat in the Hessian but leave the
    manifold.

    >>> hessian_solution_counts(2, 2, 10)
    (0, 1, 19)
    """
    dim = manifold_dimension(p, p_star)
    check_integer(N, "N", p_star)
    zero = dim + (p - p_star) * (N - p_star)
    return 0, zero, p * N - zero


def hessian_plateau_counts(p: int, p_star: int, N: int) -> tuple[int, int, int]:
    """(negative, zero, positive) eigenvalue counts of the population-loss Hessian at the
    gradient-flow plateau (ρ = 0, Q = p/(p + 2) I, T = I, a = 1/p, b = 1/p*), full p·N space.

    Write W = √(Nq) U (orthonormal rows U) and dW = √N (M U + D_T + D_R) with M ∈ ℝ^{p×p} (inside
    the student space), D_T (rows in the teacher space), D_R (the rest). With f − y = xᵀAx,
    A = (aWᵀW − bW*ᵀW*)/N and L = ½((tr A)² + 2 tr A²), the second variation is

        (2/(p(p + 2))) [tr(M)² + tr(M²) + ‖M‖²] − (2/(p p*)) ‖D_T‖²,

    the ‖D‖² terms cancelling exactly at q = p/(p + 2). Hence p·p* negative directions (towards
    the teacher: the saddle's escape), p(p − 1)/2 + p(N − p − p*) zero ones (rotations of the
    students among themselves, and the directions orthogonal to both spaces), and p(p + 1)/2
    positive ones (symmetric M).

    >>> hessian_plateau_counts(2, 2, 10)
    (4, 13, 3)
    """
    check_integer(p, "p", 1)
    check_integer(p_star, "p_star", 1)
    check_integer(N, "N", p + p_star)
    zero = p * (p - 1) // 2 + p * (N - p - p_star)
    return p * p_star, zero, p * (p + 1) // 2


def polar_factor(R: np.ndarray) -> np.ndarray:
    """S = ρ(ρᵀρ)^{−1/2}: the orthonormal-column factor of the overlaps (p × p*); for p < p*
    (ρᵀρ is then singular) the orthonormal-row factor (ρρᵀ)^{−1/2}ρ. Defined only when ρ has
    full rank min(p, p*): a rank-deficient ρ (e.g. ρ = 0, an exact fixed point of the ODE)
    raises DomainError instead of returning NaN."""
    R = np.asarray(R, dtype=float)
    if R.ndim != 2 or not np.isfinite(R).all():
        raise DomainError("rho", f"an array of shape {R.shape}", "a finite p × p* matrix")
    wide = R.shape[0] < R.shape[1]
    w, V = np.linalg.eigh(R @ R.T if wide else R.T @ R)
    if not w.min() > 1e-24 * w.max():  # σ_min/σ_max < 1e-12 (or ρ = 0)
        raise DomainError("rho", f"a {R.shape[0]} × {R.shape[1]} matrix of rank < "
                          f"{min(R.shape)}", "overlaps of full rank min(p, p*)",
                          reason="is rank-deficient: S = ρ(ρᵀρ)^(−1/2) is undefined")
    if wide:
        return V @ np.diag(w**-0.5) @ V.T @ R
    return R @ V @ np.diag(w**-0.5) @ V.T


def implicit_bias_drift(Q0: np.ndarray, R0: np.ndarray, T: np.ndarray, eta: float,
                        t_max: float) -> dict[str, float]:
    """Drift of S = ρ(ρᵀρ)^{−1/2} along the ODE, max_t ‖S(t) − S(0)‖_F, and the final loss.

    When S is conserved the solution reached is the point of the zero-loss manifold closest to
    the initialisation: min_M ‖W0 − M W*‖ over a MᵀM = b I is attained at M ∝ polar factor of
    W0 W*ᵀ/N = ρ(0), i.e. at S(0).

    When is S conserved? If Q(0) = q0 I and T = τ I, every matrix the ODE builds lies in the
    algebra generated by I and the S0 (·) S0ᵀ blocks, with ρ(t) = S0 Φ(t) and Φ(t) a function of
    Φ(0) = (ρ0ᵀρ0)^{1/2}; Φ stays symmetric positive, so S(t) = S0 for all t — with or without
    the η² term and label noise (they only add multiples of Q). An anisotropic teacher (ρT does
    not commute with Φ) or an anisotropic Q(0) breaks this; the drift is then O(1) and is
    measured here by integration.
    """
    t_max = _real(t_max, "t_max", 0.0, strict=True)
    t = np.linspace(0.0, t_max, 401)
    polar_factor(np.asarray(R0, dtype=float))  # ρ(0) of full rank, else S is undefined
    sol = integrate(Q0, R0, T, eta, t)
    S0 = polar_factor(sol.R[0])
    drift = max(float(np.linalg.norm(polar_factor(R) - S0)) for R in sol.R)
    return {"drift": drift, "final_loss": float(sol.loss[-1])}


def jacobian_cost(p: int, p_star: int) -> float:
    """Seconds for :func:`ode_jacobian_counts` (both points): 2D right-side evaluations of the
    full matrix form, D = p(p+1)/2 + p p*, each ≈ 2e-5 + 2e-9 (p + p*)³ s, and an eigenvalue
    problem ≈ 5e-9 D³ s (fit on this machine: 0.25 s at (10, 5), 0.8 s at (30, 10), 2.5 s at
    (40, 20), per point; the estimate is above each)."""
    D = p * (p + 1) / 2 + p * p_star
    return 2 * (2 * D * (2e-5 + 2e-9 * (p + p_star) ** 3) + 5e-9 * D**3)


def ode_jacobian_counts(p: int, p_star: int, eta: Fraction, at: str = "plateau",
                        seed: int = 0) -> dict[str, tuple[int, int, int]]:
    """(unstable, zero, stable) eigenvalue counts of the ODE's Jacobian in the order parameters
    (Q symmetric: p(p+1)/2 coordinates, ρ: p·p*), numerically (central differences of the
    matrix form), next to the predicted counts. T = I, mean-field normalisation.

    Predicted, at the plateau (ρ = 0, Q = q*I): p·p* unstable (the escape, rate r each), no
    zero, p(p+1)/2 stable (norm adjustment). At a solution (Q = (p/p*)SSᵀ... i.e. ρ = √(p/p*)·S
    with orthonormal S, Q = ρρᵀ): the zero-loss manifold gives p p* − p*(p*+1)/2 zero modes and
    the (p − p*)-dimensional complement of the student block another (p − p*)(p − p* + 1)/2,
    along which Q decays only quadratically — hence power-law rather than exponential
    convergence when p > p*; the rest are stable.
    """
    check_integer(p, "p", 1)
    check_integer(p_star, "p_star", 1)
    eta = _step(eta)
    check_cost(f"p = {p}, p* = {p_star} (Jacobian of size {p * (p + 1) // 2 + p * p_star})",
               jacobian_cost(p, p_star), ODE_SECONDS_LIMIT, "seconds (estimated)",
               "fewer students p or a smaller teacher p*")
    eta_f = float(eta)
    a, b, eta_w = 1.0 / p, 1.0 / p_star, p * eta_f
    T = np.eye(p_star)
    if at == "plateau":
        q = plateau(p, p_star, Fraction(eta)).q
        Q0, R0 = q * np.eye(p), np.zeros((p, p_star))
        predicted = (p * p_star, 0, p * (p + 1) // 2)
    elif at == "solution":
        manifold_dimension(p, p_star)  # domain: p >= p*
        O, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((p, p_star)))
        R0 = O * np.sqrt(b / a)
        Q0 = R0 @ R0.T
        extra = (p - p_star) * (p - p_star + 1) // 2
        zero = manifold_dimension(p, p_star) + extra
        predicted = (0, zero, p * (p + 1) // 2 + p * p_star - zero)
    else:
        raise DomainError("at", at, "plateau or solution")
    iu = np.triu_indices(p)

    def pack(Q: np.ndarray, R: np.ndarray) -> np.ndarray:
        return np.concatenate([Q[iu], R.ravel()])

    def unpack(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        Q = np.zeros((p, p))
        Q[iu] = v[: len(iu[0])]
        Q = Q + Q.T - np.diag(np.diag(Q))
        return Q, v[len(iu[0]):].reshape(p, p_star)

    def field(v: np.ndarray) -> np.ndarray:
        Q, R = unpack(v)
        dQ, dR = rhs_matrix(Q, R, T, a, b, eta_w)
        return pack(dQ, dR)

    x0 = pack(Q0, R0)
    h = 1e-6
    J = np.column_stack([(field(x0 + h * e) - field(x0 - h * e)) / (2 * h)
                         for e in np.eye(len(x0))])
    ev = np.linalg.eigvals(J).real
    tol = 1e-6 * max(1.0, np.abs(ev).max())
    measured = (int(np.sum(ev > tol)), int(np.sum(np.abs(ev) <= tol)), int(np.sum(ev < -tol)))
    return {"predicted": predicted, "numerical": measured}
