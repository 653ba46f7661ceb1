r"""What the ``fltheory quadratic`` commands, the figure and the notebook compute (Bocchi et al.
2026), one call each, on parameters read once (:mod:`fltheory.papers.quadratic.params`).

The theory's runs: the ODE from a user's start (:func:`ode_run`), the escape law over several N
(:func:`escape_laws`), the curvature counts (:func:`curvature_counts`). Both sides side by side:
one-pass SGD against the ODE from the same sampled start (:func:`compare_sgd_ode`,
:func:`loss_curves`), escape times against p (:func:`escape_vs_p`), and the two pieces the
claims share with them (:func:`ode_from_sample`, :func:`escape_pair`). The maths is in the
theory modules (:mod:`fltheory.papers.quadratic.theory`) and the simulator
(:mod:`fltheory.papers.quadratic.sim`); here the two meet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.args import fraction_text, read_count
from fltheory.exact import DomainError, check_cost
from fltheory.papers.quadratic import sim, theory
from fltheory.papers.quadratic.params import (
    Comparison,
    CurvatureRequest,
    EscapeRequest,
    Integration,
    Model,
    ODEStart,
    Overlaps,
)
from fltheory.simkit.seeding import SeedLike, children

__all__ = ["SGD_SECONDS_LIMIT", "ODERun", "SGDvsODE", "check_comparison", "compare_sgd_ode",
           "curvature_counts", "escape_laws", "escape_pair", "escape_vs_p", "loss_curves",
           "ode_from_sample", "ode_run"]

#: bound on the SGD run of :func:`compare_sgd_ode` (estimated by sim.sgd_cost)
SGD_SECONDS_LIMIT = 30.0


# -- the theory's runs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ODERun:
    """The ODE from Q(0) = q0 I and ρ(0) = rho0 × a Gaussian pattern (:func:`ode_run`): the
    trajectory ``sol``, the mean-field step ``eta`` (exact), the plateau (None for a teacher
    whose mean eigenvalue is not 1), the escape time (the theory's ``crossing_time`` at
    ‖ρ‖_F = 1/2; None if not reached), the drift of S (None for ρ(0) = 0) and whether the
    zero-loss solutions are unstable at this step."""

    sol: theory.ODESolution
    eta: Fraction
    plateau: theory.PlateauResult | None
    escape_time: float | None
    s_drift: float | None
    solutions_unstable: bool


def ode_run(model: Model, start: ODEStart) -> ODERun:
    """Integrate the mean-field ODE (a·η_w = the model's step at η) from Q(0) = q0 I,
    ρ(0) = rho0 × a standard Gaussian p × p* pattern (numpy's default_rng(seed)), T = diag
    (teacher), on 401 log-spaced times up to t_max, and read the plateau, the escape time and
    the implicit-bias drift of S along the ODE
    (:func:`~fltheory.papers.quadratic.theory.implicit_bias_drift`).

    Bounded with t_max by :func:`~fltheory.papers.quadratic.theory.check_ode_request`, checked
    before any work, for both integrations. A blow-up is a DomainError on η naming the
    stability bounds.

    >>> r = ode_run(Model(2, 2), ODEStart(Fraction(1, 10), t_max=50))
    >>> str(r.plateau.q_exact), round(r.escape_time, 2), r.s_drift < 1e-8
    ('2 - sqrt(2)', 37.89, True)
    """
    p, p_star, noise, taus = model.p, model.p_star, model.noise, model.taus
    eta = model.step(start.eta)
    isotropic_mean = sum(taus) == p_star
    pl = theory.plateau_at(model, eta) if isotropic_mean else None
    theory.check_ode_request(p, p_star, float(eta), float(start.t_max), 401, k=min(p, p_star),
                             count=2)
    T = model.T()
    t = np.unique(np.concatenate([[0.0], np.geomspace(1e-2, float(start.t_max), 400)]))
    R0 = float(start.rho0) * np.random.default_rng(start.seed).standard_normal((p, p_star))
    Q0 = float(start.q0) * np.eye(p)
    try:
        sol = theory.solve(Overlaps(Q0, R0, T), model.coefficients(start.eta), Integration(t),
                           float(eta))
    except theory.ODEDivergence as exc:
        raise DomainError("eta", fraction_text(start.eta),
                          (theory.stability_text(p, p_star, noise) if isotropic_mean else "")
                          or "steps for which the ODE stays bounded",
                          reason=f"makes the mean-field ODE diverge (order parameters beyond "
                                 f"1e8 × their scale by t ≈ {exc.t:.3g}, finite-time "
                                 f"blow-up)") from None
    escape = sol.escape_time(theory.ESCAPE_LEVEL)
    drift = None if start.rho0 == 0 else \
        theory.implicit_bias_drift(Q0, R0, T, float(eta), float(start.t_max))["drift"]
    unstable = (pl is not None and noise == 0 and model.isotropic
                and eta >= Fraction(p_star, 2 * (p_star + 2)))
    return ODERun(sol, eta, pl, None if np.isnan(escape) else escape, drift, unstable)


def escape_laws(model: Model, request: EscapeRequest) -> list[theory.EscapeLaw]:
    """:func:`~fltheory.papers.quadratic.theory.escape_law` at each N of the request (each
    N >= p·p*), after checking the total cost of all of them first
    (:func:`~fltheory.papers.quadratic.theory.check_escape`); a blow-up of the ODE is a
    DomainError on η naming the stability bounds.

    >>> laws = escape_laws(Model(4, 2), EscapeRequest(Fraction(1, 10), [250, 500], samples=2))
    >>> [L.N for L in laws]
    [250, 500]
    """
    theory.check_escape(model, request)
    for N in request.Ns:
        read_count(N, "N", model.p * model.p_star)
    try:
        return [theory.escape_law(model, request, N) for N in request.Ns]
    except theory.ODEDivergence as exc:
        raise DomainError("eta", fraction_text(request.eta),
                          theory.stability_text(model.p, model.p_star, model.noise),
                          reason=f"makes the mean-field ODE diverge by t ≈ {exc.t:.3g} "
                                 f"(finite-time blow-up)") from None


def curvature_counts(model: Model, request: CurvatureRequest) -> dict[str, Any]:
    """Eigenvalue counts at the plateau (loss Hessian in the p·N weight space, ODE Jacobian)
    and, for p >= p*, on the zero-loss manifold (its dimension, the Hessian and Jacobian
    counts there): a dict of integer triples (negative/zero/positive; for the Jacobians
    {"predicted", "numerical"}) and the manifold dimension. N >= p + p*.

    >>> c = curvature_counts(Model(2, 1), CurvatureRequest(10))
    >>> c["hessian_plateau"], c["manifold_dimension"], c["hessian_solution"]
    ((2, 15, 3), 1, (0, 10, 10))
    """
    p, p_star, N, eta = model.p, model.p_star, request.N, request.eta
    if p + p_star > N:
        raise DomainError("N", N, f"N >= p + p* = {p + p_star}")
    out: dict[str, Any] = {
        "hessian_plateau": theory.hessian_plateau_counts(p, p_star, N),
        "jacobian_plateau": theory.ode_jacobian_counts(p, p_star, eta, "plateau")}
    if p >= p_star:
        out |= {"manifold_dimension": theory.manifold_dimension(p, p_star),
                "hessian_solution": theory.hessian_solution_counts(p, p_star, N),
                "jacobian_solution": theory.ode_jacobian_counts(p, p_star, eta, "solution")}
    return out


# -- both sides ----------------------------------------------------------------------------------


def ode_from_sample(W0: np.ndarray, W_star: np.ndarray, eta: Fraction | float,
                    t: np.ndarray) -> theory.ODESolution:
    """The mean-field ODE from the overlaps of a sampled start (W0, W*), on the grid ``t``."""
    N = W0.shape[1]
    return theory.integrate(W0 @ W0.T / N, W0 @ W_star.T / N, W_star @ W_star.T / N, eta, t)


def escape_pair(N: int, p: int, ps: int, eta: Fraction | float, t: np.ndarray,
                seed: SeedLike) -> tuple[float, float]:
    """(t_SGD, t_ODE): first time ‖ρ‖_F reaches 1/2 (log-interpolated on the grid) for SGD from
    a cold start W0 ~ N(0, 1/4) (the simulator's rule, sim.escape_time), and for the ODE from
    that run's sampled overlaps (the theory's, theory.crossing_time)."""
    W0, W_star = sim.cold_start(N, p, ps, seed)
    run = sim.sgd(W0, W_star, eta, t, seed)
    return sim.escape_time(run.t, run.R), ode_from_sample(W0, W_star, eta, t).escape_time()


@dataclass(frozen=True)
class SGDvsODE:
    """One-pass SGD from a cold start against the ODE from the same sampled overlaps
    (:func:`compare_sgd_ode`): on the grid ``t``, SGD's test loss and ‖ρ‖_F, the ODE's loss and
    ‖ρ‖_F (NaN where a run diverged), and the divergence times (None if bounded)."""

    N: int
    t: np.ndarray
    sgd_loss: np.ndarray
    ode_loss: np.ndarray
    sgd_rho: np.ndarray
    ode_rho: np.ndarray
    sgd_diverged_at: float | None
    ode_diverged_by: float | None


def check_comparison(model: Model, run: Comparison) -> None:
    """Refuse, before any work, a :func:`compare_sgd_ode` outside its domain: the mean-field
    model with T = I and no label noise, 0 < η <= η_max(p, p*) (above it the plateau fixed point
    does not exist and the mean-field dynamics diverge), the SGD run within an estimated 30 s
    and the ODE (unreduced: a random Q(0), size p) within its bound. (N, η, t_max: the
    :class:`~fltheory.papers.quadratic.params.Comparison`'s own domain.)"""
    p, p_star, t_f = model.p, model.p_star, float(run.t_max)
    for param, value, ok in (("noise", fraction_text(model.noise), model.noise == 0),
                             ("teacher", ",".join(map(fraction_text, model.taus)),
                              model.isotropic),
                             ("scaling", model.scaling, model.scaling == "mean-field")):
        if not ok:  # the simulator's cold start
            raise DomainError(param, value[:40], "the mean-field model with T = I and no label "
                              "noise (the one SGD is compared in)")
    theory.check_ode_request(p, p_star, 0.1, 1.0, 2, k=p)  # p, p* of a bounded size
    try:
        ok = theory.plateau_at(model, run.eta).eta > 0  # η <= η_max
    except DomainError:
        ok = False
    if not ok:
        bound = theory.stability_bounds(p, p_star)["plateau"]
        raise DomainError("eta", fraction_text(run.eta), f"0 < eta <= η_max = {bound} ≈ "
                          f"{float(bound):.4g} for p = {p}, p* = {p_star}",
                          reason="is not a step of the stable range: above η_max the plateau "
                                 "fixed point q*(η) does not exist and the mean-field dynamics "
                                 "diverge")
    check_cost(f"N = {run.N}, t-max = {t_f:g}, p = {p}, p* = {p_star}",
               sim.sgd_cost(run.N, p, p_star, t_f, n_test=run.n_test, records=run.records),
               SGD_SECONDS_LIMIT, "seconds (estimated)", "a smaller N or t-max")
    theory.check_ode_request(p, p_star, float(run.eta), t_f, run.records, k=p)


def compare_sgd_ode(model: Model, run: Comparison,
                    announce: Callable[[str], None] | None = None) -> SGDvsODE:
    """One-pass SGD at N from a cold start W0 ~ N(0, 1/4) (sim.cold_start) against the
    mean-field ODE from the same sampled overlaps, on the run's grid; checked first by
    :func:`check_comparison`, then ``announce`` (if given) is told the number of SGD steps. A
    run that blows up is reported by its divergence time (SGD: sim's criterion; ODE:
    theory.ODEDivergence), never as numbers.

    >>> c = compare_sgd_ode(Model(4, 2), Comparison(100, Fraction(1, 10), 2, n_test=100))
    >>> len(c.t), c.sgd_diverged_at, c.ode_diverged_by
    (21, None, None)
    """
    check_comparison(model, run)
    if announce is not None:
        announce(f"SGD: {int(float(run.t_max) * run.N)} steps at N = {run.N} ...")
    t = run.grid()
    W0, W_star = sim.cold_start(run.N, model.p, model.p_star, run.seed)
    sgd = sim.sgd_run(W0, W_star, model.coefficients(run.eta), t, run.seed, n_test=run.n_test)
    assert sgd.test_loss is not None
    try:
        ode = theory.solve(Overlaps(W0 @ W0.T / run.N, W0 @ W_star.T / run.N,
                                    W_star @ W_star.T / run.N),
                           model.coefficients(run.eta), Integration(t), run.eta)
        ode_loss, ode_rho, ode_div = ode.loss, ode.overlap_norm, None
    except theory.ODEDivergence as exc:
        ode_loss = ode_rho = np.full(len(t), np.nan)
        ode_div = exc.t
    return SGDvsODE(run.N, t, sgd.test_loss, ode_loss, np.linalg.norm(sgd.R, axis=(1, 2)),
                    ode_rho, sgd.diverged_at, ode_div)


def loss_curves(model: Model, eta: Fraction, Ns: Sequence[int], t_max: Fraction | int = 60,
                seed: int = 0, n_test: int = 2000) -> dict[str, Any]:
    """Cold-start loss curves: SGD (test loss on fresh inputs) at each N, and the ODE from the
    same sampled initial overlaps (:func:`compare_sgd_ode` with 4 records per unit time, the
    same seed at every N); plus the plateau loss (for the figure and the notebook).

    >>> d = loss_curves(Model(4, 2), Fraction(1, 10), (100,), t_max=1, n_test=100)
    >>> len(d["t"]), [c["N"] for c in d["curves"]]
    (5, [100])
    """
    if not Ns:
        raise DomainError("N", "an empty list", "one or more input dimensions")
    runs = [Comparison(N, eta, t_max, seed, n_test, int(4 * Fraction(t_max)) + 1) for N in Ns]
    curves = []
    for run in runs:
        c = compare_sgd_ode(model, run)
        curves.append({"N": run.N, "sgd": c.sgd_loss, "ode": c.ode_loss})
    pl = theory.plateau_at(model, runs[0].eta)
    return {"t": runs[0].grid(), "curves": curves, "plateau_loss": pl.loss, "p": model.p,
            "p_star": model.p_star, "eta": eta}


def escape_vs_p(p_grid: Sequence[int] = (2, 4, 8, 16), N: int = 500,
                eta: Fraction = Fraction(1, 10), p_star: int = 2, seeds: int = 4,
                seed: SeedLike = 0, samples: int = 200) -> dict[str, Any]:
    """Escape time (‖ρ‖_F = 1/2) against p from cold starts W0 ~ N(0, 1/4): the law with and
    without SGD's plateau noise (:func:`~fltheory.papers.quadratic.theory.escape_law`, ``samples``
    draws), and ``seeds`` SGD runs per p (for the figure)."""
    request = EscapeRequest(eta, (N,), samples=samples, dt=0.25)
    models = [Model(p, p_star) for p in p_grid]
    t_max = 30.0
    t = np.linspace(0, t_max, int(4 * t_max) + 1)
    laws = []
    for model in models:
        theory.check_escape(model, request)
        laws.append(theory.escape_law(model, request, request.Ns[0]))
    sgd = [[escape_pair(request.Ns[0], m.p, m.p_star, request.eta, t, rep)[0]
            for rep in children(seed, seeds)] for m in models]
    return {"p": list(p_grid), "N": N, "eta": eta, "p_star": p_star,
            "law": [(L.mean, L.se) for L in laws],
            "mean_field": [(L.mean_field, L.mean_field_se) for L in laws],
            "sgd": np.array(sgd)}
