r"""What the ``fltheory quadratic`` commands compute (Bocchi et al. 2026), as one call each: the
ODE run from a user's start (:func:`ode_run`), the escape law over several N (:func:`escape_laws`),
the curvature counts (:func:`curvature_counts`), the step rescaling of the fixed
normalisation (:func:`mean_field_step`) and the stability bounds as a sentence
(:func:`stability_text`). The CLI parses, calls one of these and renders; the maths is in the
modules they call (see :mod:`fltheory.papers.quadratic.theory`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.args import fraction_text, read_count, read_noise, read_step
from fltheory.exact import DomainError
from fltheory.papers.quadratic._common import ODEDivergence
from fltheory.papers.quadratic.bias import implicit_bias_drift
from fltheory.papers.quadratic.curvature import (
    hessian_plateau_counts,
    hessian_solution_counts,
    manifold_dimension,
    ode_jacobian_counts,
)
from fltheory.papers.quadratic.escape import EscapeLaw, check_escape_request, escape_time_law
from fltheory.papers.quadratic.ode import (
    ESCAPE_LEVEL,
    ODESolution,
    check_ode_request,
    integrate,
)
from fltheory.papers.quadratic.stability import PlateauResult, plateau, stability_bounds

__all__ = ["ODERun", "curvature_counts", "escape_laws", "mean_field_step", "ode_run",
           "stability_text"]

#: the range of the order-parameter scales a user may give (q0, ρ(0) scale, σ)
SCALE_MAX = 1000


def mean_field_step(eta: Any, p: int, scaling: str = "mean-field") -> Fraction:
    """The mean-field step a·η_w of a normalisation: ``mean-field`` (a = 1/p, η_w = pη) gives
    η itself; ``fixed`` (the literal fixed step a = 1/p, η_w = η) gives η/p — the dynamics of
    W' = √a W depends on a and η_w only through a·η_w. Exact (Fraction); η > 0, p >= 1.

    >>> mean_field_step(Fraction(2, 5), 4, "fixed")
    Fraction(1, 10)
    """
    read_count(p, "p", 1)
    eta = read_step(eta)
    if scaling not in ("mean-field", "fixed"):
        raise DomainError("scaling", scaling, "mean-field or fixed")
    return eta / p if scaling == "fixed" else eta


def stability_text(p: int, p_star: int, noise: Any = 0) -> str:
    """The stability bounds of :func:`~fltheory.papers.quadratic.theory.stability_bounds` as one
    sentence (for error messages and summaries).

    >>> print(stability_text(4, 2).replace("; ", "\\n"))
    the plateau exists for η <= 3/10 ≈ 0.3
    zero-loss solutions are stable for η < p*/(2(p*+2)) = 1/4
    """
    b = stability_bounds(p, p_star, read_noise(noise))
    parts = []
    if b["plateau"] is not None:
        parts.append(f"the plateau exists for η <= {b['plateau']} ≈ {float(b['plateau']):.4g}")
    if b["solution"] is not None:
        parts.append(f"zero-loss solutions are stable for η < p*/(2(p*+2)) = "
                     f"{fraction_text(b['solution'])}")
    return "; ".join(parts)


def _scale(x: Any, param: str, allow_zero: bool) -> Fraction:
    v = read_step(x, param, allow_zero)
    if v > SCALE_MAX:
        low = f"{param} >= 0" if allow_zero else f"{param} > 0"
        raise DomainError(param, fraction_text(v), f"{low}, <= {SCALE_MAX}")
    return v


@dataclass(frozen=True)
class ODERun:
    """The ODE from Q(0) = q0 I and ρ(0) = rho0 × a Gaussian pattern (:func:`ode_run`): the
    trajectory ``sol``, the mean-field step ``eta`` (exact), the plateau (None for a teacher
    whose mean eigenvalue is not 1), the escape time (:func:`crossing_time` at ‖ρ‖_F = 1/2;
    None if not reached), the drift of S (None for ρ(0) = 0) and whether the zero-loss
    solutions are unstable at this step."""

    sol: ODESolution
    eta: Fraction
    plateau: PlateauResult | None
    escape_time: float | None
    s_drift: float | None
    solutions_unstable: bool


def ode_run(p: int, p_star: int, eta: Any, teacher: Sequence[Any] | None = None,
            noise: Any = 0, q0: Any = Fraction(1, 4), rho0: Any = Fraction(1, 1000),
            seed: int = 0, t_max: Any = 200, scaling: str = "mean-field") -> ODERun:
    """Integrate the mean-field ODE (a·η_w = :func:`mean_field_step`) from Q(0) = q0 I,
    ρ(0) = rho0 × a standard Gaussian p × p* pattern (numpy's default_rng(seed)), T = diag
    (teacher), on 401 log-spaced times up to t_max, and read the plateau, the escape time and
    the implicit-bias drift of S along the ODE (:func:`implicit_bias_drift`).

    Domain: p, p* >= 1 (bounded with t_max by :func:`check_ode_request`, checked before any
    work, for both integrations); η > 0 exact; 0 <= σ <= 1000; 0 < q0 <= 1000;
    0 <= rho0 <= 1000; 1/100 <= t_max <= 10^5; teacher p* eigenvalues in [1/1000, 1000]. A
    blow-up is a DomainError on η naming the stability bounds.

    >>> r = ode_run(2, 2, Fraction(1, 10), t_max=50)
    >>> str(r.plateau.q_exact), round(r.escape_time, 2), r.s_drift < 1e-8
    ('2 - sqrt(2)', 37.89, True)
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    read_count(seed, "seed", 0)
    eta_in, eta = read_step(eta), mean_field_step(eta, p, scaling)
    noise, q0, rho0 = _scale(noise, "noise", True), _scale(q0, "q0", False), \
        _scale(rho0, "rho0", True)
    t_max = read_step(t_max, "t_max")
    if not Fraction(1, 100) <= t_max <= 10**5:
        raise DomainError("t_max", fraction_text(t_max), "[1/100, 10^5]")
    taus = [Fraction(1)] * p_star if teacher is None else [read_step(t, "teacher") for t in teacher]
    if len(taus) != p_star or any(not Fraction(1, 1000) <= v <= 1000 for v in taus):
        raise DomainError("teacher", ",".join(map(fraction_text, taus))[:40],
                          f"{p_star} eigenvalues in [1/1000, 1000]")
    isotropic_mean = sum(taus) == p_star
    pl = plateau(p, p_star, eta, noise, taus) if isotropic_mean else None
    check_ode_request(p, p_star, float(eta), float(t_max), 401, k=min(p, p_star), count=2)
    T = np.diag([float(v) for v in taus])
    t = np.unique(np.concatenate([[0.0], np.geomspace(1e-2, float(t_max), 400)]))
    R0 = float(rho0) * np.random.default_rng(seed).standard_normal((p, p_star))
    Q0 = float(q0) * np.eye(p)
    try:
        sol = integrate(Q0, R0, T, float(eta), t, float(noise))
    except ODEDivergence as exc:
        raise DomainError("eta", fraction_text(eta_in), (stability_text(p, p_star, noise)
                                                 if isotropic_mean else "")
                          or "steps for which the ODE stays bounded",
                          reason=f"makes the mean-field ODE diverge (order parameters beyond "
                                 f"1e8 × their scale by t ≈ {exc.t:.3g}, finite-time "
                                 f"blow-up)") from None
    escape = sol.escape_time(ESCAPE_LEVEL)
    drift = None if rho0 == 0 else \
        implicit_bias_drift(Q0, R0, T, float(eta), float(t_max))["drift"]
    unstable = (pl is not None and noise == 0 and all(v == 1 for v in taus)
                and eta >= Fraction(p_star, 2 * (p_star + 2)))
    return ODERun(sol, eta, pl, None if np.isnan(escape) else escape, drift, unstable)


def escape_laws(p: int, p_star: int, eta: Any, Ns: Sequence[int], q0: Any = 0.25,
                threshold: Any = ESCAPE_LEVEL, noise: Any = 0, samples: int = 400,
                seed: int = 0) -> list[EscapeLaw]:
    """:func:`escape_time_law` at each N of ``Ns`` (each N >= p·p*), after checking the total
    cost of all of them first (:func:`check_escape_request`); a blow-up of the ODE is a
    DomainError on η naming the stability bounds. Arguments as for :func:`escape_time_law`.

    >>> [L.N for L in escape_laws(4, 2, Fraction(1, 10), [250, 500], samples=2)]
    [250, 500]
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    check_escape_request(p, p_star, eta, Ns, q0, threshold, noise, samples)
    for N in Ns:
        read_count(N, "N", p * p_star)
    try:
        return [escape_time_law(p, p_star, eta, N, q0, threshold, noise, samples, seed)
                for N in Ns]
    except ODEDivergence as exc:
        raise DomainError("eta", fraction_text(read_step(eta)), stability_text(p, p_star, noise),
                          reason=f"makes the mean-field ODE diverge by t ≈ {exc.t:.3g} "
                                 f"(finite-time blow-up)") from None


def curvature_counts(p: int, p_star: int, N: int, eta: Any = Fraction(1, 10)
                     ) -> dict[str, Any]:
    """Eigenvalue counts at the plateau (loss Hessian in the p·N weight space, ODE Jacobian)
    and, for p >= p*, on the zero-loss manifold (its dimension, the Hessian and Jacobian
    counts there): a dict of integer triples (negative/zero/positive; for the Jacobians
    {"predicted", "numerical"}) and the manifold dimension. N >= p + p*, η > 0 exact.

    >>> c = curvature_counts(2, 1, 10)
    >>> c["hessian_plateau"], c["manifold_dimension"], c["hessian_solution"]
    ((2, 15, 3), 1, (0, 10, 10))
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    read_count(N, "N", 1)
    if p + p_star > N:
        raise DomainError("N", N, f"N >= p + p* = {p + p_star}")
    out: dict[str, Any] = {"hessian_plateau": hessian_plateau_counts(p, p_star, N),
                           "jacobian_plateau": ode_jacobian_counts(p, p_star, eta, "plateau")}
    if p >= p_star:
        out |= {"manifold_dimension": manifold_dimension(p, p_star),
                "hessian_solution": hessian_solution_counts(p, p_star, N),
                "jacobian_solution": ode_jacobian_counts(p, p_star, eta, "solution")}
    return out
