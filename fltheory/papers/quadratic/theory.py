r"""One-pass SGD in quadratic two-layer networks: ODEs derived from the model (Bocchi et al. 2026).

Source: Bocchi, Regimbeau, Lucibello, Saglietti, Cammarota (2026), *Escape dynamics and implicit
bias of one-pass SGD in overparameterized quadratic networks*, arXiv 2604.03068.

Model and normalisation. :math:`x \sim N(0, I_N)`; student :math:`f(x) = a\sum_{k\le p}\lambda_k^2`,
teacher :math:`y = b\sum_{m\le p^*}\nu_m^2 + \sigma\xi` with local fields
:math:`\lambda_k = w_k\cdot x/\sqrt N`, :math:`\nu_m = w^*_m\cdot x/\sqrt N`,
:math:`\xi \sim N(0, 1)`; squared loss :math:`\tfrac12(f - y)^2`; one fresh sample per step,
:math:`w_k \leftarrow w_k - \eta_w\,\partial_{w_k}\tfrac12(f - y)^2`; time t = steps/N.
Default a = 1/p, b = 1/p* and η_w = p η (mean field), so that a η_w = η does not depend on p.
The fields z = (λ, ν) are Gaussian with covariance C = [[Q, ρ], [ρᵀ, T]], Q = WWᵀ/N,
ρ = W W*ᵀ/N, T = W*W*ᵀ/N.

Derivation. Δw_k = −2a η_w (f − y) λ_k x/√N, so with ‖x‖²/N → 1 and t = steps/N

.. math::

    \frac{dQ_{kl}}{dt} &= -4 a \eta_w\, \mathbb{E}[(f - y) \lambda_k \lambda_l]
        + 4 a^2 \eta_w^2\, \mathbb{E}[(f - y)^2 \lambda_k \lambda_l],\\
    \frac{d\rho_{km}}{dt} &= -2 a \eta_w\, \mathbb{E}[(f - y) \lambda_k \nu_m]
        \qquad (\rho \text{ is linear in } \Delta w\text{: no } \eta^2 \text{ term}),

and the expectations are Gaussian moments of degree 4 and 6, computed element by element by
Isserlis' theorem (:func:`derive_elementwise`). With f − y = zᵀ𝒜z − σξ, 𝒜 = diag(a I_p, −b I_p*),
the same moments in matrix form are

.. math::

    \mathbb{E}[(z^\top \mathcal{A} z)\, z z^\top]
      &= \operatorname{tr}(\mathcal{A}C)\, C + 2\, C\mathcal{A}C,\\
    \mathbb{E}[(z^\top \mathcal{A} z - \sigma\xi)^2\, z z^\top]
      &= \bigl(\operatorname{tr}(\mathcal{A}C)^2 + 2 \operatorname{tr}((\mathcal{A}C)^2)
         + \sigma^2\bigr) C\\
      &\quad + 4 \operatorname{tr}(\mathcal{A}C)\, C\mathcal{A}C
         + 8\, C\mathcal{A}C\mathcal{A}C,

(:func:`rhs_matrix`, used for integration; the tests check it against the element-wise
derivation for several small (p, p*)), and the population loss is
L = ½(tr(𝒜C)² + 2 tr((𝒜C)²) + σ²).

Plateau. At ρ = 0, Q = q I, T = I_{p*} (a = 1/p, b = 1/p*) the Q-equation reduces to

.. math::

    q\Bigl[-\Bigl(q - 1 + \frac{2q}{p}\Bigr) + \eta\Bigl((q - 1)^2 + \frac{2q^2}{p}
      + \frac{2}{p^*} + \frac{4q(q - 1)}{p} + \frac{8q^2}{p^2} + \sigma^2\Bigr)\Bigr] = 0,

a quadratic for q* whose small-η root tends to p/(p + 2); it exists while the discriminant is
>= 0, which bounds the step (:func:`plateau`). Linearising the ρ-equation there gives
dρ/dt = −2η[(tr(𝒜C)) + 2aq] ρ + 4bη ρT, i.e. a rate for each teacher eigenvalue τ_i

.. math::

    r_i = 2\eta\Bigl(1 - q^* - \frac{2q^*}{p} + \frac{2\tau_i}{p^*}\Bigr);

at η → 0 it is 4ητ_i/p*, independent of p.

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
(:mod:`fltheory.papers.quadratic.rhs`) the statement is sharper: from Q(0) = q0 I the whole
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

The code is split along these seams, one concern per module, all re-exported here:
:mod:`~fltheory.papers.quadratic.equations` (the derivation and the matrix form),
:mod:`~fltheory.papers.quadratic.stability` (fixed point, rates, stability bounds),
:mod:`~fltheory.papers.quadratic.ode` (integration and the escape rule),
:mod:`~fltheory.papers.quadratic.escape` (plateau noise and the escape-time law),
:mod:`~fltheory.papers.quadratic.curvature` (manifold, Hessians, Jacobians),
:mod:`~fltheory.papers.quadratic.bias` (implicit bias) and :mod:`~fltheory.papers.quadratic.rhs`
(the exact reduction and the compiled integrator). The parameters are
:mod:`~fltheory.papers.quadratic.params` (a public function reads its arguments once, into those
objects; ``plateau_at``, ``solve``, ``escape_law``, ``check_escape`` and ``noise_integral``
take them as read); what the ``quadratic`` commands print is computed by
:mod:`~fltheory.papers.quadratic.runs`.
"""

from __future__ import annotations

from fltheory.papers.quadratic._common import (
    ESCAPE_SECONDS_LIMIT,
    MEMORY_LIMIT_BYTES,
    ODE_SECONDS_LIMIT,
    ODEDivergence,
)
from fltheory.papers.quadratic.bias import (
    cold_start_drift,
    implicit_bias_drift,
    polar_factor,
    polar_stack,
)
from fltheory.papers.quadratic.curvature import (
    hessian_plateau_counts,
    hessian_solution_counts,
    jacobian_cost,
    manifold_dimension,
    ode_jacobian_counts,
)
from fltheory.papers.quadratic.equations import (
    derive_elementwise,
    loss_matrix,
    rhs_matrix,
    wick_expectation,
)
from fltheory.papers.quadratic.escape import (
    EscapeLaw,
    check_escape,
    check_escape_request,
    escape_cost,
    escape_law,
    escape_time_law,
    noise_integral,
    plateau_noise_integral,
    plateau_noise_moment,
    plateau_noise_rate,
    plateau_overlap_variance,
)
from fltheory.papers.quadratic.ode import (
    ESCAPE_LEVEL,
    ODESolution,
    check_ode_request,
    crossing_time,
    integrate,
    ode_cost,
    solve,
)
from fltheory.papers.quadratic.params import mean_field_step
from fltheory.papers.quadratic.stability import (
    PlateauResult,
    linear_rate,
    plateau,
    plateau_at,
    stability_bounds,
    stability_text,
)

__all__ = [
    "ESCAPE_LEVEL",
    "ESCAPE_SECONDS_LIMIT",
    "MEMORY_LIMIT_BYTES",
    "ODE_SECONDS_LIMIT",
    "EscapeLaw",
    "ODEDivergence",
    "ODESolution",
    "PlateauResult",
    "check_escape",
    "check_escape_request",
    "check_ode_request",
    "cold_start_drift",
    "crossing_time",
    "derive_elementwise",
    "escape_cost",
    "escape_law",
    "escape_time_law",
    "hessian_plateau_counts",
    "hessian_solution_counts",
    "implicit_bias_drift",
    "integrate",
    "jacobian_cost",
    "linear_rate",
    "loss_matrix",
    "manifold_dimension",
    "mean_field_step",
    "noise_integral",
    "ode_cost",
    "ode_jacobian_counts",
    "plateau",
    "plateau_at",
    "plateau_noise_integral",
    "plateau_noise_moment",
    "plateau_noise_rate",
    "plateau_overlap_variance",
    "polar_factor",
    "polar_stack",
    "rhs_matrix",
    "solve",
    "stability_bounds",
    "stability_text",
    "wick_expectation",
]
