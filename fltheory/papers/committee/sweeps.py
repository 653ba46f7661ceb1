"""The committee paper's sweep tasks (``fltheory sweep --list``): their parameters and
domains. committee.sgd runs the simulator alone (:func:`fltheory.papers.committee.sim.sgd_task`);
committee.ode (:func:`ode_task`) the ODE from the overlaps of the very start that committee.sgd
samples at the same grid point and seed, and the symmetric plateau; their checks are
:func:`check_sgd_task` and :func:`check_ode_task`, each bounding a run before any starts. The
task functions are named by text and imported when first called: the declarations stay light
(this module imports the sweep machinery only at start-up; the simulator and the theory
inside the functions).

Both tasks: a_k = a*_m = 1, σ = κ = 0, an orthonormal teacher (T = I), cold start W0 ~ N(0, q0)
(sim.cold_start), records on ``sim.SWEEP_RECORDS`` equally spaced times in [0, t_max]. Escape
time (both tasks, the definition of the claims' committee.plateau_duration and of ode_run): the
first record time at which the specialisation ‖R − mean(R)‖_F reaches 1/2, log-interpolated
between the two records around it (sim.crossing_time); NaN when it is not reached by t_max, and
NaN for a run that diverged (a blow-up is no escape)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from fltheory.exact import DomainError, fraction_str
from fltheory.sweep.tasks import Param, Task, TaskFunction, run_cost

__all__ = ["SGD_TASK", "SWEEP_ACTIVATIONS", "SWEEP_TASKS", "check_ode_task", "check_sgd_task",
           "ode_task"]

#: the activations a committee sweep accepts (``erf_ss`` is erf(x/√2), ``erf`` erf(x));
#: polynomials in x
SWEEP_ACTIVATIONS = ("erf_ss", "erf", "relu", "tanh", "sigmoid", "x**2", "x**3")

_COMMITTEE_PARAMS = {
    "g": Param(SWEEP_ACTIVATIONS, "erf_ss"),
    "K": Param("int", 2, 1, 50), "M": Param("int", 2, 1, 50),
    # defaults: erf K = M = 2 at η = 1 escapes the plateau by t ≈ 67 at N = 1000 (SGD, 2 seeds)
    "eta": Param("rational", Fraction(1), 0, 10, low_open=True),
    "N": Param("int", 1000, 10, 10000),
    "t_max": Param("rational", Fraction(100), 0, 1000, low_open=True),
    "q0": Param("rational", Fraction(1, 4), 0, 100, low_open=True),
}

#: committee.sgd (committee.ode derives its seed, to start where this task starts)
SGD_TASK = Task(
    "committee.sgd",
    "online SGD in a soft committee machine (a = a* = 1, T = I) from W0 ~ N(0, q0): held-out "
    "ε_g at t_max and its SE, escape time (first ‖R − mean R‖_F >= 1/2; NaN if not by t_max), "
    "final specialisation, diverged (0/1)",
    _COMMITTEE_PARAMS, TaskFunction("fltheory.papers.committee.sim:sgd_task"),
    check=TaskFunction("fltheory.papers.committee.sweeps:check_sgd_task"))

SWEEP_TASKS = (
    SGD_TASK,
    Task("committee.ode",
         "the committee ODE (theory, deterministic given its start) from the overlaps of the "
         "start committee.sgd samples at the same point and seed: ε_g at t_max, escape time, "
         "specialisation, diverged; the symmetric plateau's ε_g* and escape rate (erf and "
         "polynomials; NaN for relu, tanh, sigmoid or where no plateau is located)",
         _COMMITTEE_PARAMS, TaskFunction("fltheory.papers.committee.sweeps:ode_task"),
         derive_seed=False, check=TaskFunction("fltheory.papers.committee.sweeps:check_ode_task")),
)


def _check_teacher(v: dict[str, Any]) -> None:
    """The orthonormal teacher needs N >= M (sim.cold_start)."""
    if v["N"] < v["M"]:
        raise DomainError("N", v["N"], f"N >= M = {v['M']} (an orthonormal teacher)",
                          reason="is smaller than M")


def check_sgd_task(v: dict[str, Any]) -> None:
    """The check of the sweep task ``committee.sgd`` (:func:`sim.sgd_task
    <fltheory.papers.committee.sim.sgd_task>`): N >= M, and the simulator's cost model
    (``sim.sgd_cost``) against the sweep's bound per run."""
    from fltheory.papers.committee import sim

    _check_teacher(v)
    N, K, M, t_max = v["N"], v["K"], v["M"], v["t_max"]
    # the simulator's cost model (engine auto: numba when installed) for the run above
    # (SWEEP_N_TEST test inputs, SWEEP_RECORDS records); measured on this machine, numba,
    # after its one-off ~1 s start-up: erf K = M = 2, N = 4000, t_max = 50: 14.0 s (estimate
    # 16.3); sigmoid K = M = 3, N = 10⁴, t_max = 10: 20.9 s (25.3)
    run_cost(f"N = {N}, K = {K}, M = {M}, t_max = {fraction_str(t_max)}",
             sim.sgd_cost(N, K, M, float(t_max), n_test=sim.SWEEP_N_TEST,
                          records=sim.SWEEP_RECORDS),
             "lower t_max, N or K (SGD runs t_max·N steps)")


def _sgd_start_seed(p: dict[str, Any], seed: int) -> Any:
    """The simulation seed committee.sgd uses at this grid point and user seed."""
    from fltheory.sweep.runner import derived_seed
    from fltheory.sweep.tasks import canonical

    return derived_seed(SGD_TASK.id, canonical(SGD_TASK, p), seed)


#: g whose plateau a committee.ode run locates (closed-form or exact averages, compiled)
_PLATEAU_KINDS = ("erf", "polynomial")


def _ode_settings(p: dict[str, Any]) -> Any:
    """The integration of a committee.ode run: η at the records of ``sim.sweep_times``."""
    from fltheory.papers.committee.params import ODESettings
    from fltheory.papers.committee.sim import sweep_times

    return ODESettings(p["eta"], t_grid=sweep_times(p["t_max"]))


def ode_task(p: dict[str, Any], seed: int) -> dict[str, float]:
    """The sweep task ``committee.ode``: the committee ODE (deterministic given its start)
    from the overlaps of the start committee.sgd samples at the same point and ``seed`` (the
    user's seed: the task derives committee.sgd's), records at ``sim.sweep_times``: ε_g at
    t_max, the escape time, the final specialisation, diverged (0/1); and for erf and
    polynomial g the symmetric plateau's ε_g* and escape rate (NaN where it is not located,
    and for other g)."""
    from fltheory.papers.committee import sim
    from fltheory.papers.committee.gaussian import averages
    from fltheory.papers.committee.ode import CommitteeDivergence, trajectory
    from fltheory.papers.committee.params import CommitteeModel
    from fltheory.papers.committee.plateau import symmetric_plateau

    N, K, M = int(p["N"]), int(p["K"]), int(p["M"])
    W0, W_star = sim.cold_start(N, K, M, _sgd_start_seed(p, seed), q0=p["q0"])
    start = (W0 @ W0.T / N, W0 @ W_star.T / N, W_star @ W_star.T / N)
    model, run = CommitteeModel(str(p["g"]), K, M), _ode_settings(p)
    out = {"eps_g": math.nan, "escape_time": math.nan, "specialisation": math.nan,
           "diverged": 0.0, "plateau_eps_g": math.nan, "escape_rate": math.nan}
    try:
        tr = trajectory(model, run, start)
    except CommitteeDivergence:
        out["diverged"] = 1.0
    else:
        spec = sim.specialisation(tr.R)
        out.update(eps_g=float(tr.eps_g[-1]), escape_time=sim.crossing_time(tr.t, spec, 0.5),
                   specialisation=float(spec[-1]))
    if averages(model.g).kind in _PLATEAU_KINDS:
        try:
            plateau = symmetric_plateau(model, run.eta)
        except DomainError:  # not located (e.g. η too large: no plateau): NaN
            pass
        else:
            out.update(plateau_eps_g=plateau.eps_g, escape_rate=plateau.escape_rate)
    return out


def check_ode_task(v: dict[str, Any]) -> None:
    """The check of the sweep task ``committee.ode`` (:func:`ode_task`): N >= M, the
    integrator's own bound, then the task's estimated seconds (the integration, and for erf
    and polynomial g the plateau analysis: the theory's estimates) against the sweep's bound
    per run."""
    from fltheory.papers.committee.gaussian import averages
    from fltheory.papers.committee.ode import check_trajectory_cost, integration_seconds
    from fltheory.papers.committee.params import CommitteeModel
    from fltheory.papers.committee.plateau import analysis_seconds

    _check_teacher(v)
    K, M = v["K"], v["M"]
    model, run = CommitteeModel(str(v["g"]), K, M), _ode_settings(v)
    check_trajectory_cost(model, run)  # integrate's own bound, then this task's
    seconds = integration_seconds(model, run)
    if averages(model.g).kind in _PLATEAU_KINDS:
        # the analysis' Jacobian and Newton steps (committee.plateau's estimate: 24 n + 200
        # numpy right sides, n = K(K+1)/2 + KM) and the compiled settling of the reduced
        # flow, measured at most 1.5 s (erf K = M = 2 at η = 1/100; 0.16 s at K = M = 5,
        # 0.8 s at K = M = 8): counted as 5 s
        seconds += analysis_seconds(model, 200) + 5.0
    # the cold start (N × (K + M) normals and a QR of the teacher): well under a second
    run_cost(f"g = {v['g']}, K = {K}, M = {M}, t_max = {fraction_str(v['t_max'])}", seconds,
             "lower t_max or K, M (the ODE's cost grows as K²(K + M)²; tanh and sigmoid use "
             "numeric averages, ~100× slower)")
