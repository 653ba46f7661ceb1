r"""Sequential feature recovery (Dandi et al. 2026): thresholds, overlaps at finite n/D, MSE and
its law.

.. rubric:: The model

x ~ N(0, I_d); φ(x) ∈ ℝ^D the orthonormal degree-q multivariate Hermite polynomials,
D = C(d+q−1, q) ≈ d^q/q!. Orthonormal latent directions A_1..A_{d1} ∈ ℝ^D, h_i = ⟨A_i, φ⟩, and

.. math::

    y = \sum_i c_i \frac{\mathrm{He}_2(h_i)}{\sqrt 2}, \qquad
    c_i = \frac{\lambda_i}{\lVert\lambda\rVert}, \qquad
    \lambda_i = i^{-\gamma} \text{ (or given)}, \qquad \operatorname{Var} y = 1.

The algorithm forms Ĉ = (1/n) Σ_j T(y_j) φ_j φ_jᵀ, takes its top eigenvectors Â_i, fits the
second layer on [1, He_2(ĥ_i)/√2] (ĥ = Âᵀφ) and predicts y.

.. rubric:: Overlaps (Lu & Li 2017, decoupled per direction)

For Gaussian-equivalent features φ ~ N(0, I_D), δ = n/D, T bounded with sup τ, define for λ > τ

.. math::

    \psi_\delta(\lambda)
      = \lambda\Bigl(\frac1\delta + \mathbb{E}\Bigl[\frac{T}{\lambda - T}\Bigr]\Bigr),
    \qquad \varphi_i(\lambda) = \lambda\, \mathbb{E}\Bigl[\frac{T h_i^2}{\lambda - T}\Bigr],

λ̄ = argmin ψ_δ, ζ(λ) = ψ_δ(max(λ, λ̄)), and λ_i* the root of ζ(λ) = φ_i(λ). Then the top
eigenvector attached to direction i has ⟨Â, A_i⟩² → ψ'(λ*)/(ψ'(λ*) − φ_i'(λ*)) when ψ'(λ*) > 0 and
→ 0 otherwise; its eigenvalue is ψ(λ*) and the bulk edge is ψ(λ̄). The directions decouple because
y depends on each h_i through h_i² only, so E[T h_i h_j/(λ − T)] = 0 for i ≠ j and the secular
equation is diagonal in the A basis.

The joint law of (T, h_i²) enters through a size bias: for any G, E[h_i² G(s)] = E[G(s̃_i)] where
s̃_i is s with the i-th χ²_1 replaced by a χ²_3 (h² times the χ²_1 density is the χ²_3 density).
s = Σ w_i (h_i² − 1), w_i = c_i/√2, is a generalised χ², evaluated by Ruben's (1962) mixture of
χ² laws — a convergent series, no Fourier inversion. For the rank transform T = 2F_s(s) − 1 is
exactly uniform on [−1, 1] (distribution-free; invariant to any increasing g applied to y), so
ψ_δ is closed-form: ψ_δ(λ) = λ/δ − λ + (λ²/2) ln((λ+1)/(λ−1)).

Large δ. With θ_i = E[T (h_i² − 1)] and x_i = δ θ_i²/E[T²], ρ_i² → 1 − 1/x_i (a BBP form) when
θ_i → 0 with x_i fixed. The threshold is n_i = D E[T²]/θ_i². This is the additive semicircle spike
of the shared kit: to leading order, Ĉ ≈ E[T] I + Σ_i θ_i A_i A_iᵀ + σW with σ² = E[T²]/δ (the
centred sum of n rank-one terms, entries of variance E[T²]/n), so ρ_i² = 1 − σ²/θ_i² = 1 − 1/x_i
above θ_i = σ, computed by :func:`fltheory.engine.spectral.spikes.semicircle_overlap_ratio` at
r = 1/x_i. Writing θ_i ≈ κ c_i for weak
directions (Stein: θ_i = 2 w_i E[T'(s)] + O(w_i²), and E[T'(s)] = 2∫p_s² for the rank
transform),

.. math::

    n_i = \frac{C\, D}{c_i^2}, \qquad C = \frac{\mathbb{E}[T^2]}{\kappa^2}, \qquad
    \kappa = 2\sqrt2 \int p_s^2;

C = π/6 when s is Gaussian.

.. rubric:: MSE

ĥ_i ~ N(0, 1) with corr(ĥ_i, h_i) = ρ_i and the He_2(ĥ_i) orthonormal (eigenvectors are
orthogonal), so the fitted second layer explains Σ c_i² ρ_i⁴ of Var y = 1 (cross-overlaps are
O(1/D)): MSE(δ) = 1 − Σ_i c_i² ρ_i⁴(δ) — the finite-d1 curve.

The law. For d1 = ∞, λ_k = k^{−γ} (γ > 1/2, else Σλ_k² diverges and the target has infinite
variance), BBP overlaps with x_k = (κ_*/k)^{2γ}, κ_*^{2γ} = δ a_1² ... summing the unrecovered tail
and the partial losses 1 − (1 − (k/κ_*)^{2γ})² by Euler–Maclaurin,

.. math::

    \mathrm{MSE} \approx P\, \delta^{-1 + 1/(2\gamma)}, \qquad
    P = \frac{8\gamma^2}{(4\gamma^2 - 1)\, \zeta(2\gamma)}\, (a_1^2)^{-1 + 1/(2\gamma)},

with a_1² = θ_1²/E[T²] in the weak-direction normalisation a_k² = a_1² k^{−2γ} (a_1² = c_1²/C).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fltheory.engine.spectral.spikes import semicircle_overlap_ratio
from fltheory.exact import DomainError, fraction_str
from fltheory.papers.recovery.chi2 import MAX_RUBEN_TERMS, ruben_terms  # noqa: F401
from fltheory.papers.recovery.counting import (  # noqa: F401
    MAX_DEPTH_ROWS,
    ThresholdRow,
    Thresholds,
    _continuum_count,
    _recovered_count,
    _threshold,
    continuum_count,
    depth_rows,
    dimension,
    feature_dimension,
    k_text,
    power_strength,
    recovered_count,
    sample_ratio,
    strength_norm2,
    threshold,
    threshold_exact,
    threshold_table,
    thresholds,
)
from fltheory.papers.recovery.depth import KernelShare, kernel_half_point, kernel_share
from fltheory.papers.recovery.law import (
    MSELaw,
    _a1_squared_of,
    _exponent,
    _prefactor,
    law_a1_squared,
    law_exponent,
    law_prefactor,
    mse_law,
    mse_law_for,
)
from fltheory.papers.recovery.luli import (  # noqa: F401
    LAWS,
    MAX_FOURIER_WORK,
    MAX_RUBEN_WORK,
    LabelLaw,
    Overlap,
    RecoveryModel,
    fourier_work,
    law_method,
    ruben_work,
)
from fltheory.papers.recovery.params import (  # noqa: F401
    MAX_D1,
    MAX_DIGITS,
    MAX_Q,
    MAX_THRESHOLD_ROWS,
    Features,
    LawQuery,
    Model,
    RecoveryQuery,
    Strengths,
    ThresholdQuery,
)
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = ["DirectionAt", "Features", "KernelShare", "LabelLaw", "LawQuery", "MSELaw", "Model",
           "Overlap", "RecoveryAt", "RecoveryModel", "RecoveryQuery", "Strengths",
           "ThresholdQuery", "ThresholdRow", "Thresholds", "continuum_count", "depth_rows",
           "dimension", "feature_dimension", "k_text", "kernel_half_point", "kernel_share",
           "law_a1_squared", "law_exponent", "law_prefactor", "mse_law", "mse_law_for",
           "power_strength", "recovered_count", "recovery", "recovery_at", "ruben_terms",
           "ruben_work", "sample_ratio", "strength_norm2", "threshold", "threshold_exact",
           "threshold_table", "thresholds"]


@dataclass(frozen=True)
class DirectionAt:
    """Direction k at δ: strength c_k, θ_k, the large-δ (BBP) threshold n_k = D·E[T²]/θ_k², the
    scaling threshold C·D/c_k² (its weak-direction form, None without C), the Lu–Li ρ_k², its
    large-δ form, the attached outlier eigenvalue (None below threshold), the bulk edge."""

    k: int
    c: float
    theta: float
    n_threshold_bbp: float
    n_threshold_scaling: float | None
    rho2: float
    rho2_bbp: float
    outlier: float | None
    bulk_edge: float


@dataclass(frozen=True)
class RecoveryAt(ShowsTable):
    """What :func:`recovery_at` computes: δ, the per-direction overlaps, the counts recovered,
    the finite-d1 MSE and (d1 >= 2, γ > 1/2) the d1 = ∞ law with this model's constant C."""

    d: int
    q: int
    dim: str
    size: int
    n: Fraction
    delta: float
    gamma: Fraction
    d1: int
    transform: str
    C: float | None
    no_C: str | None  # why C is undefined (d1 = 1)
    directions: list[DirectionAt]
    recovered_luli: int
    recovered_scaling: int | None
    mse: float
    law: MSELaw | None
    law_mse: Any  # P·δ^e (mpmath), None without a law
    continuum: Any  # (n/(C·D·‖λ‖²))^{1/(2γ)} (mpmath), None without a law
    method: str = "ruben"  # how the law of s was computed: "ruben" or "fourier"

    def answers(self) -> list[str]:
        """The answers, one line each: outliers recovered (Lu–Li), the scaling count, the MSE
        and the law P·δ^e with the continuum count (or why there is none)."""
        import mpmath

        lines = [f"recovered (Lu–Li outliers): {self.recovered_luli} of {self.d1}",
                 "recovered (scaling count, n >= C·D/c_k²): "
                 + (f"{self.recovered_scaling}" if self.recovered_scaling is not None
                    else f"- ({self.no_C})"),
                 f"MSE at δ = {self.delta:.4g}: {self.mse:.4g}"]
        if self.C is not None:
            lines.append(f"weak-direction constant C = {self.C:.6g}")
        if self.law is not None:
            lines.append(f"continuum count (n/(C·D·‖λ‖²))^(1/(2γ)) = "
                         f"{mpmath.nstr(self.continuum, 6)}")
            lines.append(f"law (d1 = ∞, this C): MSE ≈ {mpmath.nstr(self.law.prefactor, 6)}·δ^("
                         f"{fraction_str(self.law.exponent)}) = {mpmath.nstr(self.law_mse, 6)}")
        else:
            lines.append("law (d1 = ∞): none (needs d1 >= 2 and γ > 1/2)")
        return lines

    def __repr__(self) -> str:
        """One line: the problem (d, q, γ, d1, transform, n, δ) and the answers (counts, MSE,
        law); the per-direction overlaps are in :meth:`table`."""
        import mpmath

        law = "" if self.law is None else f", law MSE {mpmath.nstr(self.law_mse, 4)}"
        scaling = "-" if self.recovered_scaling is None else str(self.recovered_scaling)
        return (f"RecoveryAt(d={self.d}, q={self.q}, γ={fraction_str(self.gamma)}, "
                f"d1={self.d1}, {self.transform}, n={_short_n(self.n)}, δ={self.delta:.4g}: "
                f"recovered {self.recovered_luli} (Lu–Li), {scaling} (scaling), "
                f"MSE {self.mse:.4g}{law})")

    def _repr_html_(self) -> str:
        """The notebook view: :meth:`table` with the answers (:meth:`answers`) as its notes."""
        from fltheory.render.html import html_table

        return html_table(self.table(answers=True))

    def table(self, answers: bool = False) -> Table:
        """One row per direction (c_k, θ_k, the BBP threshold D·E[T²]/θ_k² and the scaling one
        C·D/c_k², ρ² Lu–Li and BBP, outlier); with
        ``answers`` the answers (:meth:`answers`) as the notes (the notebook view; the CLI
        prints them as its summary instead)."""
        rows = [[str(r.k), f"{r.c:.4f}", f"{r.theta:.4f}", f"{r.n_threshold_bbp:.4g}",
                 "-" if r.n_threshold_scaling is None else f"{r.n_threshold_scaling:.4g}",
                 f"{r.rho2:.4f}", f"{r.rho2_bbp:.4f}",
                 "-" if r.outlier is None else f"{r.outlier:.4f}"] for r in self.directions]
        dim = self.dim if self.dim == "D" else f"d^{self.q}"
        return Table(columns=["k", "c_k", "θ_k", f"n_k BBP {dim}·E[T²]/θ_k²",
                              f"n_k scaling C·{dim}/c_k²", "ρ² Lu–Li", "ρ² BBP", "outlier"],
                     rows=rows, caption=f"Recovery at n = {fraction_str(self.n)} "
                                        f"(δ = {self.delta:.4g})",
                     latex_columns=["$k$", "$c_k$", r"$\theta_k$",
                                    r"$n_k$ BBP $D\,\mathrm{E}[T^2]/\theta_k^2$",
                                    r"$n_k$ scaling $C D/c_k^2$", r"$\rho_k^2$ Lu--Li",
                                    r"$\rho_k^2$ BBP", "outlier"],
                     label="tab:fltheory-recovery-query", align="rrrrrrrr",
                     notes=self.answers() if answers else [])


def _short_n(n: Fraction) -> str:
    """n as written, or in scientific notation when it has more than 12 digits."""
    text = fraction_str(n)
    return text if len(text) <= 12 else f"{float(n):.4g}"


def _check_finite(*values: float) -> None:
    """Every number returned is finite: a NaN or inf here is a bug, never an answer."""
    if not all(math.isfinite(v) for v in values):
        raise RuntimeError("non-finite value in the recovery computation (a bug: please report)")


def recovery_at(d: int, q: int, gamma: Fraction, n: Fraction, d1: int = 8,
                transform: str = "rank", dim: str = "D", dps: int = 30) -> RecoveryAt:
    """Sequential recovery at sample size n > 0 (δ = n/D a double): the power-law model
    :meth:`RecoveryModel.power_law` (1 <= d1 <= MAX_D1, γ > 0, ``rank`` or ``sign``), its Lu–Li
    overlaps and outliers, the number of outliers, the scaling count :func:`recovered_count`
    (n >= C·D/c_k², c_k the model's normalised strengths, so capped at d1) with the model's
    weak-direction constant C (rounded to a rational of denominator <= 10^12),
    the MSE 1 − Σ c_k² ρ_k⁴ and, for d1 >= 2 and γ > 1/2, the law :func:`mse_law` at δ with the
    continuum count (mpmath at ``dps``): :func:`recovery` of the query these arguments make.

    >>> r = recovery_at(100, 2, Fraction(1), Fraction(10**5), d1=2)
    >>> round(r.delta, 4), r.recovered_luli, r.recovered_scaling, round(r.mse, 4)
    (19.802, 2, 2, 0.1733)
    """
    return recovery(RecoveryQuery(Features(d, q, dim), Model(d1, gamma, transform), n, dps))


def recovery(query: RecoveryQuery) -> RecoveryAt:
    """:func:`recovery_at` for a query read once
    (:class:`~fltheory.papers.recovery.params.RecoveryQuery`: features, model, n, dps).

    >>> r = recovery(RecoveryQuery(Features(100), Model(2, 1), 10**5))
    >>> r.recovered_luli, round(r.mse, 4)
    (2, 0.1733)
    """
    import mpmath

    f, m, n, dps = query.features, query.model, query.n, query.dps
    size = dimension(f)
    delta = sample_ratio(n, size, f.dim)
    model = RecoveryModel.of(m)
    gamma, d1 = m.gamma, m.d1
    try:
        C: float | None = model.weak_constant()
        no_C = None
    except DomainError as exc:  # d1 = 1, rank: no weak direction, so no C, scaling count, law
        C, no_C = None, str(exc.reason)
    C_frac = None if C is None else Fraction(C).limit_denominator(10**12)
    theta, bbp = model.theta(), model.bbp_thresholds()
    rows = []
    for i in range(d1):
        ov = model.overlap(i, delta)
        scaling = None if C_frac is None else float(_threshold(size, i + 1, C_frac, 15, gamma,
                                                               d1))
        rows.append(DirectionAt(i + 1, float(model.c[i]), float(theta[i]), float(bbp[i] * size),
                                scaling, ov.rho2, semicircle_overlap_ratio(bbp[i] / delta),
                                ov.outlier, ov.edge))
    k_scaling = None if C_frac is None else _recovered_count(n, size, gamma, d1, C_frac)
    mse = float(model.mse([delta])[0])
    _check_finite(mse, *(r.rho2 for r in rows), *(r.theta for r in rows))
    law = law_mse = cont = None
    if C is not None and C_frac is not None and gamma > Fraction(1, 2):
        with mpmath.workdps(dps):
            law = MSELaw(gamma, None, _exponent(gamma),
                         _prefactor(gamma, _a1_squared_of(gamma, C, dps), dps), dps)
            law_mse = law.value(delta)
            cont = _continuum_count(n, size, gamma, d1, C_frac, dps)
    return RecoveryAt(f.d, f.q, f.dim, size, n, delta, gamma, d1, m.transform, C, no_C, rows,
                      sum(1 for r in rows if r.rho2 > 0), k_scaling, mse, law, law_mse, cont,
                      model.method)
