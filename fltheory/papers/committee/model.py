r"""The ODEs of online SGD in the soft committee machine, for any activation g.

Model. Student :math:`f(x) = \sum_{k<K} a_k\, g(\lambda_k)`, :math:`\lambda_k = w_k\cdot x/\sqrt N`;
teacher :math:`y = \sum_{m<M} a^*_m\, g(\nu_m) + \sigma\xi`, :math:`\nu_m = w^*_m\cdot x/\sqrt N`,
:math:`x \sim N(0, I_N)`, :math:`\xi \sim N(0, 1)`. Online SGD on :math:`\tfrac12(f - y)^2`, one
fresh sample per step:

.. math::

    w_k \leftarrow w_k + \frac{\eta}{\sqrt N}\, a_k\, \delta\, g'(\lambda_k)\, x
        - \frac{\eta\kappa}{N}\, w_k, \qquad \delta = y - f;

t = steps/N. Overlaps Q = WWᵀ/N, R = WW*ᵀ/N, T = W*W*ᵀ/N (constant). The quadratic module
(:mod:`fltheory.papers.quadratic.theory`) is g = x², a_k = a, a*_m = b, η = its η_w.

Derivation. ΔR_in = (η/N) a_i δ g'(λ_i) ν_n − (ηκ/N) R_in. With w_i' = (1 − ηκ/N) w_i +
(η/√N) a_i δ g'_i x and ‖x‖²/N → 1,

.. math::

    \Delta Q_{ik} = -\frac{2\eta\kappa}{N} Q_{ik}
      + \frac{\eta}{N}\bigl(a_i \delta g'_i \lambda_k + a_k \delta g'_k \lambda_i\bigr)
      + \frac{\eta^2}{N} a_i a_k \delta^2 g'_i g'_k + O(N^{-2})

(the (ηκ/N)² and cross terms are O(N^{−2}) per step, so weight decay has no η² part).
Averaging over x (the fluctuations vanish as N → ∞) and writing δ = Σ_c w_c g(ρ_c) + σξ over
all K + M fields ρ = (λ, ν) with w = (−a, a*):

.. math::

    \frac{dR_{in}}{dt} &= \eta\, a_i \sum_c w_c\, I_3(i, K{+}n; c) - \eta\kappa R_{in}\\
    \frac{dQ_{ik}}{dt} &= \eta \Bigl[a_i \sum_c w_c\, I_3(i, k; c)
        + a_k \sum_c w_c\, I_3(k, i; c)\Bigr]\\
      &\quad + \eta^2 a_i a_k \Bigl[\sum_{c,e} w_c w_e\, I_4(i, k; c, e)
        + \sigma^2 I_2(i, k)\Bigr] - 2\eta\kappa\, Q_{ik}\\
    \varepsilon_g &= \tfrac12 \sum_{c,e} w_c w_e\, E_2(c, e)

with (:mod:`~fltheory.papers.committee.gaussian`)

.. math::

    I_3(i, n; c) &= \mathbb{E}[g'(\rho_i)\, \rho_n\, g(\rho_c)], &\qquad
    I_4(i, k; c, e) &= \mathbb{E}[g'(\rho_i)\, g'(\rho_k)\, g(\rho_c)\, g(\rho_e)],\\
    I_2(i, k) &= \mathbb{E}[g'(\rho_i)\, g'(\rho_k)], &\qquad
    E_2(c, e) &= \mathbb{E}[g(\rho_c)\, g(\rho_e)],

the fields Gaussian with covariance [[Q, R], [Rᵀ, T]]. ε_g is against the noiseless teacher.
Split into Σ_m a*_m(·) − Σ_j a_j(·) these are Saad & Solla's (1995) equations term by term.

:func:`rhs` evaluates the right side in numpy (float64), :func:`flat_rhs` gives it as a plain
function of the flat state for numba (erf, relu, polynomials), :func:`equations` derives it in
sympy (printable with ``latex()``). The second layers a, a* are fixed (given); a trained
second layer is not supported.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.args import read_choice, read_count, read_matrix, read_step
from fltheory.exact import DomainError, check_cost
from fltheory.papers.committee.gaussian import GaussianAverages, averages
from fltheory.papers.committee.params import MAX_FIELDS, CommitteeModel

__all__ = ["MAX_FIELDS", "MAX_SYMBOLIC_FIELDS", "CommitteeEquations",
           "average_errors", "check_state", "equations", "flat_rhs", "generalisation_error",
           "model_averages", "rhs", "rhs_seconds"]

#: bound on K + M for the symbolic derivation (:func:`equations`)
MAX_SYMBOLIC_FIELDS = 6
#: the estimated seconds one numeric evaluation of the right side may take
RHS_SECONDS_LIMIT = 10.0


def model_averages(model: CommitteeModel) -> GaussianAverages:
    """The Gaussian averages of the model's g, built once per g and kept
    (:func:`~fltheory.papers.committee.gaussian.averages`): the theory's face of the model.

    >>> model_averages(CommitteeModel("erf_ss", 1, 1)).method
    'closed form (Saad–Solla arcsin)'
    """
    return averages(model.g)


def check_state(Q: Any, R: Any, T: Any, model: CommitteeModel | None = None,
                tol: float = 1e-10) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Check an overlap state and return (Q, R, T) as float64 arrays: Q K × K and T M × M
    symmetric, R K × M, T positive semi-definite and the joint covariance [[Q, R], [Rᵀ, T]]
    positive semi-definite (eigenvalues >= −``tol``·scale), K, M <= :data:`MAX_FIELDS`; with a
    ``model`` also K, M as the model's (and, for relu, every variance > 0). A DomainError names
    the first problem.

    >>> Q, R, T = check_state(np.eye(2), np.zeros((2, 1)), np.eye(1))
    >>> Q.shape, R.shape, T.shape
    ((2, 2), (2, 1), (1, 1))
    >>> check_state(np.eye(1), np.full((1, 1), 2.0), np.eye(1))
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: R = a state whose joint matrix ... has eigenvalue -1 is ...
    """
    Q, R, T = read_matrix(Q, "Q"), read_matrix(R, "R"), read_matrix(T, "T")
    K, M = R.shape
    read_count(K, "K", 1, MAX_FIELDS)
    read_count(M, "M", 1, MAX_FIELDS)
    if Q.shape != (K, K):
        raise DomainError("Q", f"an array of shape {Q.shape}", f"shape {(K, K)} (R is {K} × {M})")
    if T.shape != (M, M):
        raise DomainError("T", f"an array of shape {T.shape}", f"shape {(M, M)} (R is {K} × {M})")
    if model is not None and (K, M) != (model.K, model.M):
        raise DomainError("R", f"a {K} × {M} matrix", f"K × M = {model.K} × {model.M}")
    scale = max(1.0, float(np.abs(Q).max()), float(np.abs(T).max()))
    for name, S in (("Q", Q), ("T", T)):
        if np.abs(S - S.T).max() > tol * scale:
            raise DomainError(name, "a non-symmetric matrix", "symmetric matrices")
    lam_t = float(np.linalg.eigvalsh(T).min())
    if lam_t < -tol * scale:
        raise DomainError("T", f"a matrix with eigenvalue {lam_t:.3g}",
                          "positive semi-definite teacher overlaps")
    lam_q = float(np.linalg.eigvalsh(0.5 * (Q + Q.T)).min())
    if lam_q < -tol * scale:
        raise DomainError("Q", f"a matrix with eigenvalue {lam_q:.3g}",
                          "positive semi-definite student overlaps")
    lam = float(np.linalg.eigvalsh(_joint(Q, R, T)).min())
    if lam < -tol * scale:
        raise DomainError("R", f"a state whose joint matrix [[Q, R], [Rᵀ, T]] has eigenvalue "
                          f"{lam:.3g}", "states with [[Q, R], [Rᵀ, T]] positive semi-definite "
                          "(a Gram matrix of student and teacher weights)")
    if model is not None and averages(model.g).kind == "relu":
        for name, S in (("Q", Q), ("T", T)):
            if not (np.diag(S) > 0).all():
                raise DomainError(name, "a state with a zero diagonal entry",
                                  f"{name}_kk > 0 for relu (g'(0) is undefined)")
    return 0.5 * (Q + Q.T), R, 0.5 * (T + T.T)


def _joint(Q: np.ndarray, R: np.ndarray, T: np.ndarray) -> np.ndarray:
    return np.block([[Q, R], [R.T, T]])


def _gather(C: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """C[idx_a, idx_b] over the last axis of idx: (..., d) -> (..., d, d)."""
    return C[idx[..., :, None], idx[..., None, :]]


# measured CPU seconds per evaluation of one I4 and one I3 (numpy, batched) on this machine
# (2 shared cores): erf 4e-7, 3e-7; relu 1.2e-4 (80 nodes), 1e-6; polynomials 3.5e-8 per term;
# cubature (trapezoid rule, field variances ~1): 2e-2 for an I4 of 4 distinct fields, 1e-3 for
# one of at most 3, 6e-4 for an I3 (two two-field averages by Stein's lemma), as measured
# (tanh, K = M = 2: 0.057 s per right side; no margin: identical covariances, e.g. on the
# symmetric subspace, are computed once, which the estimate ignores) — with the margins
# above, they bound the work of one right-side evaluation before it starts
_SECONDS_PER_AVERAGE = {"erf": (6e-7, 5e-7), "relu": (1.8e-4, 2e-6), "polynomial": (5e-8, 5e-8),
                        "cubature": (1e-3, 6e-4), "mixture": (1e-4, 2e-6)}
#: the cubature I4 of four distinct fields (a three-dimensional outer rule)
_CUBATURE_I4_DISTINCT = 0.02


def rhs_seconds(model: CommitteeModel, av: GaussianAverages | None = None) -> float:
    """Estimated seconds of one evaluation of the numpy right side (:func:`rhs`) of ``model``
    (with the averages ``av``, default the model's own): the theory's estimate, from the
    measured seconds per average above.

    >>> f"{rhs_seconds(CommitteeModel('erf_ss', 2, 2)):.1e}"
    '3.4e-05'
    """
    av = averages(model.g) if av is None else av
    K, n = model.K, model.K + model.M
    t4, t3 = _SECONDS_PER_AVERAGE[av.kind]
    if av.kind == "polynomial":
        t4 *= max(1, len(av.tables["i4"].coef))
        t3 *= max(1, len(av.tables["i3"].coef))
    n4 = K * (K + 1) / 2 * n * (n + 1) / 2
    if av.kind == "cubature":  # I4(i, k; c, e) with i < k and c < e outside {i, k}
        distinct = K * (K - 1) / 2 * (n - 2) * (n - 3) / 2
        return distinct * _CUBATURE_I4_DISTINCT + (n4 - distinct) * t4 + K * n * n * t3
    return n4 * t4 + K * n * n * t3


#: the right side's engines (:func:`rhs`)
ENGINES = ("auto", "numpy")


def rhs(model: CommitteeModel, eta: Any, order: int = 2, engine: str = "auto"
        ) -> Callable[[Any, Any, Any], tuple[np.ndarray, np.ndarray]]:
    """The right side (Q, R, T) -> (dQ/dt, dR/dt) of the ODEs in the module docstring, float64
    numpy; ``eta`` > 0 read exactly (:func:`fltheory.exact.as_rational`), ``order`` 1 drops
    the η² (and noise) terms. The work of one evaluation is bounded first (a CostError). The
    returned function checks shapes, not positivity (use :func:`check_state` for a start).
    ``engine``: "auto" runs erf and tanh-like (erf-mixture) g through the compiled loops of
    :func:`flat_rhs` when compiled (C for erf, numba otherwise), "numpy" always the batched
    numpy averages.

    >>> f = rhs(CommitteeModel("erf_ss", 1, 1), "1/2")
    >>> dQ, dR = f(np.eye(1), np.zeros((1, 1)), np.eye(1))
    >>> round(float(dQ[0, 0]), 6), round(float(dR[0, 0]), 6)  # dR = η E[g'(λ) ν g(ν)] = η/π
    (-0.138366, 0.159155)
    """
    eta_q = read_step(eta, "eta")
    order = read_count(order, "order", 1, 2)
    engine = read_choice(engine, "engine", ENGINES)
    check_cost(f"K = {model.K}, M = {model.M}, g = {model.g}", rhs_seconds(model),
               RHS_SECONDS_LIMIT, "seconds per evaluation (estimated)", "fewer units")
    return right_side(model, eta_q, order, engine)


def right_side(model: CommitteeModel, eta: Fraction | float, order: int = 2, engine: str = "auto",
          av: GaussianAverages | None = None
          ) -> Callable[[Any, Any, Any], tuple[np.ndarray, np.ndarray]]:
    """:func:`rhs` on arguments already read — a step η > 0 (a Fraction or float), ``order``
    1 or 2, ``engine`` "auto" or "numpy" — whose work the caller has bounded (an integration or
    an analysis of known cost): nothing is read or bounded again. ``av``: other averages of the
    same g (a finer or coarser rule of a numeric g), default the model's own."""
    eta_f = float(eta)
    av = averages(model.g) if av is None else av
    K, M = model.K, model.M
    n = K + M
    a = np.array([float(v) for v in model.a])
    w = model.w
    sigma2 = float(model.noise) ** 2
    kappa = float(model.weight_decay)
    # index tuples, built once
    i3_idx = np.stack(np.meshgrid(np.arange(K), np.arange(n), np.arange(n), indexing="ij"),
                      axis=-1)                                   # (K, n, n, 3): (i, t, c)
    pairs_ik = np.array([(i, k) for i in range(K) for k in range(i, K)])
    pairs_ce = np.array([(c, e) for c in range(n) for e in range(c, n)])
    mult_ce = np.where(pairs_ce[:, 0] == pairs_ce[:, 1], 1.0, 2.0) * w[pairs_ce[:, 0]] \
        * w[pairs_ce[:, 1]]
    chunk = max(1, 200_000 // len(pairs_ce))
    compiled = _compiled_field(model, eta_f, order, av) if engine == "auto" else None

    def f(Q: Any, R: Any, T: Any) -> tuple[np.ndarray, np.ndarray]:
        Q, R, T = (np.asarray(x, dtype=float) for x in (Q, R, T))
        if Q.shape != (K, K) or R.shape != (K, M) or T.shape != (M, M):
            raise DomainError("Q", f"shapes {Q.shape}, {R.shape}, {T.shape}",
                              f"Q {K} × {K}, R {K} × {M}, T {M} × {M}")
        if compiled is not None:  # the same formulas as below, compiled (tests compare)
            loops, args = compiled
            out = loops(np.concatenate([Q.ravel(), R.ravel()]), K, M,
                        np.ascontiguousarray(0.5 * (T + T.T)), *args[3:])
            return out[:K * K].reshape(K, K), out[K * K:].reshape(K, M)
        C = _joint(0.5 * (Q + Q.T), R, 0.5 * (T + T.T))
        S3 = av.i3(_gather(C, i3_idx)) @ w                       # (K, n): Σ_c w_c I3(i, t; c)
        dR = eta_f * a[:, None] * S3[:, K:] - eta_f * kappa * R
        first = a[:, None] * S3[:, :K]
        dQ = eta_f * (first + first.T) - 2 * eta_f * kappa * Q
        if order == 2:
            second = _second_order(av, C, K, pairs_ik, pairs_ce, mult_ce, chunk, sigma2)
            dQ = dQ + eta_f**2 * np.outer(a, a) * second
        return dQ, dR

    if compiled is not None:
        # the compiled loops on the flat state, for callers that build many states (the
        # Jacobian's columns) without f's per-call conversions: loops(y, K, M, T, *rest)
        f.flat = (compiled[0], tuple(compiled[1][3:]))  # type: ignore[attr-defined]
    return f


def _second_order(av: GaussianAverages, C: np.ndarray, K: int, pairs_ik: np.ndarray,
                  pairs_ce: np.ndarray, mult_ce: np.ndarray, chunk: int, sigma2: float
                  ) -> np.ndarray:
    """The η² term's K × K matrix of :func:`rhs` before the factor η² a aᵀ: for each student
    pair (i, k), Σ_(c<=e) mult_ce I4(i, k; c, e) (the averages of ``av`` over the joint
    covariance ``C``, ``chunk`` pairs at a time) plus σ² I2(i, k)."""
    S4 = np.empty(len(pairs_ik))
    for lo in range(0, len(pairs_ik), chunk):
        ik = pairs_ik[lo:lo + chunk]
        idx = np.concatenate([np.broadcast_to(ik[:, None, :], (len(ik), len(pairs_ce), 2)),
                              np.broadcast_to(pairs_ce[None], (len(ik), len(pairs_ce), 2))],
                             axis=-1)
        S4[lo:lo + chunk] = av.i4(_gather(C, idx)) @ mult_ce
    if sigma2:
        S4 = S4 + sigma2 * av.i2(_gather(C, pairs_ik))
    second = np.zeros((K, K))
    second[pairs_ik[:, 0], pairs_ik[:, 1]] = S4
    second[pairs_ik[:, 1], pairs_ik[:, 0]] = S4
    return second


def _compiled_field(model: CommitteeModel, eta: float, order: int, av: GaussianAverages
                    ) -> tuple[Any, tuple[Any, ...]] | None:
    """(loops, args) of the compiled flat right side for erf and erf-mixture g when one exists
    (:func:`fltheory.papers.committee._compiled.available`: C for erf, numba), else None; T is
    passed at each call. The numpy path costs ~100× more per evaluation (4 ms against 5e-5 s
    at K = 10, M = 5)."""
    if av.kind not in ("erf", "mixture"):
        return None
    from fltheory.papers.committee import _compiled

    if not _compiled.available(av.kind):
        return None
    f = build_flat(model, eta, np.eye(model.M), order, checked=True, av=av)
    return None if f is None else (f.loops, f.args)


def average_errors(model: CommitteeModel, Q: Any, R: Any, T: Any) -> dict[str, float]:
    """The largest estimated error of each kind of Gaussian average ("e2", "i2", "i3", "i4")
    over the covariances that the right side (:func:`rhs`) and ε_g use at the state (Q, R, T)
    (:meth:`~fltheory.papers.committee.gaussian.GaussianAverages.error_estimate`: for the
    trapezoid rule its difference to the rule with halved steps; 0 for closed forms and
    polynomials). "i2" only with output noise. Floats; costs several right-side evaluations.

    >>> average_errors(CommitteeModel("erf_ss", 1, 1), np.eye(1), np.eye(1), np.eye(1))["i4"]
    0.0
    """
    Q, R, T = check_state(Q, R, T, model)
    check_cost(f"K = {model.K}, M = {model.M}, g = {model.g}", 8 * rhs_seconds(model),
               8 * RHS_SECONDS_LIMIT, "seconds (estimated)", "fewer units")
    av = averages(model.g)
    K, n = model.K, model.K + model.M
    C = _joint(Q, R, T)
    i3 = np.stack(np.meshgrid(np.arange(K), np.arange(n), np.arange(n), indexing="ij"), axis=-1)
    i4 = np.array([(i, k, c, e) for i in range(K) for k in range(i, K)
                   for c in range(n) for e in range(c, n)])
    e2 = np.array([(c, e) for c in range(n) for e in range(c, n)])
    out = {"e2": av.error_estimate("e2", _gather(C, e2)), "i3": av.error_estimate(
        "i3", _gather(C, i3)), "i4": av.error_estimate("i4", _gather(C, i4))}
    if model.noise:
        out["i2"] = av.error_estimate("i2", _gather(C, i4[:, :2]))
    return {k: float(np.max(v, initial=0.0)) for k, v in out.items()}


def generalisation_error(model: CommitteeModel, Q: Any, R: Any, T: Any) -> float:
    """ε_g = ½ E[(f − y_clean)²] = ½ Σ_{c,e} w_c w_e E2(c, e) over the K + M fields (float64),
    after :func:`check_state`.

    >>> m = CommitteeModel("erf_ss", 1, 1)
    >>> round(generalisation_error(m, np.eye(1), np.eye(1), np.eye(1)), 12)
    0.0
    >>> round(generalisation_error(m, np.eye(1), np.zeros((1, 1)), np.eye(1)), 6)  # 2·(1/π)·π/6
    0.333333
    """
    return eps_g_at(model, *check_state(Q, R, T, model))


def eps_g_at(model: CommitteeModel, Q: np.ndarray, R: np.ndarray, T: np.ndarray,
          av: GaussianAverages | None = None) -> float:
    """:func:`generalisation_error` at a state already checked (float64 arrays, the joint
    matrix positive semi-definite), with the averages ``av`` (default the model's own)."""
    C = _joint(Q, R, T)
    n = C.shape[0]
    idx = np.stack(np.meshgrid(np.arange(n), np.arange(n), indexing="ij"), axis=-1)
    E2 = (averages(model.g) if av is None else av).e2(_gather(C, idx))
    w = model.w
    value = 0.5 * float(w @ E2 @ w)
    if not math.isfinite(value):
        raise DomainError("Q", "a state", "states with finite ε_g", reason="gives a non-finite ε_g")
    return value


# ----------------------------------------------------------------------------- symbolic


@dataclass(frozen=True)
class CommitteeEquations:
    """The derived right side in sympy: ``dQ`` (K × K), ``dR`` (K × M), ``eps_g``, the
    ``symbols`` (Q, R, T matrices, eta), ``terms`` (one row per average: target, coefficient,
    average, indices, expression) and :meth:`latex`."""

    model: CommitteeModel
    order: int
    dQ: Any
    dR: Any
    eps_g: Any
    symbols: dict[str, Any]
    terms: list[tuple[str, Any, str, tuple[int, ...], Any]]

    def latex(self) -> str:
        """The equations as LaTeX lines (one per independent entry).

        >>> print(equations(CommitteeModel("z", 1, 1), order=1).latex())
        \\frac{dQ_{11}}{dt} = - 2 Q_{11} \\eta + 2 R_{11} \\eta
        \\frac{dR_{11}}{dt} = - R_{11} \\eta + T_{11} \\eta
        """
        import sympy as sp

        lines = []
        K, M = self.model.K, self.model.M
        for i in range(K):
            for k in range(i, K):
                lines.append(f"\\frac{{dQ_{{{i + 1}{k + 1}}}}}{{dt}} = {sp.latex(self.dQ[i, k])}")
        for i in range(K):
            for m in range(M):
                lines.append(f"\\frac{{dR_{{{i + 1}{m + 1}}}}}{{dt}} = {sp.latex(self.dR[i, m])}")
        return "\n".join(lines)


    def latex_block(self, width: int = 160) -> str:
        """The equations as one amsmath ``align*`` block, ready to paste into a document: each
        right side broken at its top-level + and − into lines of about ``width`` characters of
        LaTeX source.

        >>> print(equations(CommitteeModel("z", 1, 1), order=1).latex_block())
        \\begin{align*}
        \\frac{dQ_{11}}{dt} &= - 2 Q_{11} \\eta + 2 R_{11} \\eta \\\\
        \\frac{dR_{11}}{dt} &= - R_{11} \\eta + T_{11} \\eta
        \\end{align*}
        """
        rows = []
        for line in self.latex().splitlines():
            lhs, rhs = line.split(" = ", 1)
            parts, current = [], ""
            for term in _top_level_terms(rhs):
                if current and len(current) + len(term) > width:
                    parts.append(current)
                    current = ""
                current += term
            parts.append(current)
            rows.append(f"{lhs} &= {parts[0].strip()}"
                        + "".join(f" \\\\\n  &\\quad {p.strip()}" for p in parts[1:]))
        return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}"


def _top_level_terms(text: str) -> list[str]:
    r"""``text`` (a sympy LaTeX sum) cut before each + or − outside braces and brackets, the
    signs kept: the pieces concatenate back to ``text``.

    >>> _top_level_terms("a + \\left(b - c\\right) - {d + e}")
    ['a', ' + \\left(b - c\\right)', ' - {d + e}']
    """
    out, depth, start = [], 0, 0
    i = 0
    while i < len(text):
        ch = text[i]
        if text.startswith("\\left", i):
            depth += 1
            i += 5
            continue
        if text.startswith("\\right", i):
            depth -= 1
            i += 6
            continue
        if ch in "{":
            depth += 1
        elif ch in "}":
            depth -= 1
        elif depth == 0 and ch in "+-" and i > 0 and text[i - 1] == " " and i > start + 1:
            out.append(text[start:i - 1])
            start = i - 1
        i += 1
    out.append(text[start:])
    return out


def equations(model: CommitteeModel, order: int = 2) -> CommitteeEquations:
    """The right side derived in sympy from the averages' exact forms (see the module
    docstring): Q, R, T symbols, η a symbol, the model's a, a*, σ, κ exact numbers. K + M <=
    :data:`MAX_SYMBOLIC_FIELDS` and the estimated work are bounded first. Exact for erf (the
    Saad–Solla arcsin forms, Λ's expanded), polynomials (expanded polynomials in the overlaps)
    and the relu I2, I3; the relu I4 and every average of other g are unevaluated functions
    (``I4_relu``, ``I4_g``, …) whose ``evalf``/``lambdify`` gives the numeric value. Measured
    (2 shared cores, CPU time): g = x⁴ − x², K = M = 3: 3.6 s; erf, K = M = 3: 2.3 s.

    >>> e = equations(CommitteeModel("z", 1, 1), order=1)
    >>> e.dR[0, 0]
    -R_11*eta + T_11*eta
    """
    from fltheory.papers.committee._symbolic import derive

    order = read_count(order, "order", 1, 2)
    read_count(model.K + model.M, "K + M", 2, MAX_SYMBOLIC_FIELDS)
    return CommitteeEquations(model, order, **derive(model, order))


def flat_rhs(model: CommitteeModel, eta: Any, T: Any, order: int = 2
             ) -> Callable[[np.ndarray], np.ndarray] | None:
    """The right side as a function y -> dy/dt of the flat state y = concat(Q.ravel(),
    R.ravel()) at the fixed teacher overlaps ``T`` (M × M, positive semi-definite), for erf,
    relu and polynomial g (None otherwise): it calls only plain scalar-loop functions
    (:mod:`fltheory.papers.committee._flat`), compiled by numba when numba is installed, so
    ``numba.njit`` compiles the returned function too; without numba it runs as Python.
    Its attributes ``loops`` and ``args`` give the underlying call ``loops(y, *args)``.
    ``order`` 1 drops the η² terms, as in :func:`rhs`.

    >>> f = flat_rhs(CommitteeModel("erf_ss", 1, 1), "1/2", np.eye(1))
    >>> np.round(f(np.array([1.0, 0.0])), 6).tolist()  # as rhs
    [-0.138366, 0.159155]
    >>> flat_rhs(CommitteeModel("softplus", 1, 1), 1, np.eye(1)) is None  # numeric averages
    True
    """
    return build_flat(model, eta, T, read_count(order, "order", 1, 2))


def build_flat(model: CommitteeModel, eta: Any, T: Any, order: int = 2, checked: bool = False,
               av: GaussianAverages | None = None) -> Any:
    """The flat right side of ``model`` at step ``eta`` and teacher overlaps ``T`` (None for g
    other than erf, relu, a polynomial or an erf mixture); ``checked``: the caller has read η
    (a Fraction or float > 0), T is a float array already accepted by ``check_state`` and the
    work is bounded by the caller's own estimate (nothing is read or bounded again). ``av``:
    other averages of the same g, default the model's own."""
    from fltheory.papers.committee import _compiled, _flat
    from fltheory.papers.committee.gaussian import RELU_NODES, _legendre

    av = averages(model.g) if av is None else av
    kinds = {"erf": _flat.KIND_ERF, "relu": _flat.KIND_RELU, "polynomial": _flat.KIND_POLY,
             "mixture": _flat.KIND_MIX}
    if av.kind not in kinds:
        return None
    eta_f = float(eta) if checked else float(read_step(eta, "eta"))
    K, M = model.K, model.M
    if not checked:
        check_cost(f"K = {K}, M = {M}, g = {model.g} (compiled right side)",
                   _flat.cost(model, av), 10.0, "seconds per evaluation (estimated)",
                   "fewer units")
        _, _, T = check_state(np.eye(K), np.zeros((K, M)), T, model)
    empty_i, empty_f = np.zeros((0, 0), dtype=np.int64), np.zeros(0)
    tabs = []
    for name in ("i2", "i3", "i4"):
        if av.kind == "polynomial":
            tab = av.tables[name]
            tabs += [np.ascontiguousarray(tab.exponents), np.ascontiguousarray(tab.coef)]
        else:
            tabs += [empty_i, empty_f]
    nodes, weights = _legendre(RELU_NODES) if av.kind == "relu" else (empty_f, empty_f)
    args: tuple[Any, ...] = (
        K, M, np.ascontiguousarray(T, dtype=float), np.array([float(v) for v in model.a]),
        model.w, eta_f, float(model.noise) ** 2, float(model.weight_decay), order,
        kinds[av.kind], av.scale**2, *tabs, np.ascontiguousarray(nodes),
        np.ascontiguousarray(weights), _flat._mix_params(av))
    compiled = _compiled.field(av.kind) or _flat.loops

    def f(y: np.ndarray) -> np.ndarray:
        return compiled(y, *args)

    f.loops = compiled  # type: ignore[attr-defined]
    f.args = args  # type: ignore[attr-defined]
    return f
