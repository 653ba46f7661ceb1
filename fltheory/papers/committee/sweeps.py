"""The committee paper's sweep tasks (``fltheory sweep --list``): their parameters and
domains. committee.sgd runs the simulator alone (:func:`fltheory.papers.committee.sim.sgd_task`);
committee.ode the ODE from the overlaps of the very start that committee.sgd samples at the
same grid point and seed, and the symmetric plateau
(:func:`fltheory.papers.committee.claims.ode_task`); their checks are
:func:`~fltheory.papers.committee.claims.check_sgd_task` and
:func:`~fltheory.papers.committee.claims.check_ode_task`. Each is imported when first called (a
declaration stays light).

Both tasks: a_k = a*_m = 1, σ = κ = 0, an orthonormal teacher (T = I), cold start W0 ~ N(0, q0)
(sim.cold_start), records on ``sim.SWEEP_RECORDS`` equally spaced times in [0, t_max]. Escape
time (both tasks, the definition of the claims' committee.plateau_duration and of ode_run): the
first record time at which the specialisation ‖R − mean(R)‖_F reaches 1/2, log-interpolated
between the two records around it (sim.crossing_time); NaN when it is not reached by t_max, and
NaN for a run that diverged (a blow-up is no escape)."""

from __future__ import annotations

from fractions import Fraction

from fltheory.sweep.tasks import Param, Task, TaskFunction

__all__ = ["SGD_TASK", "SWEEP_ACTIVATIONS", "SWEEP_TASKS"]

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
    check=TaskFunction("fltheory.papers.committee.claims:check_sgd_task"))

SWEEP_TASKS = (
    SGD_TASK,
    Task("committee.ode",
         "the committee ODE (theory, deterministic given its start) from the overlaps of the "
         "start committee.sgd samples at the same point and seed: ε_g at t_max, escape time, "
         "specialisation, diverged; the symmetric plateau's ε_g* and escape rate (erf and "
         "polynomials; NaN for relu, tanh, sigmoid or where no plateau is located)",
         _COMMITTEE_PARAMS, TaskFunction("fltheory.papers.committee.claims:ode_task"),
         derive_seed=False, check=TaskFunction("fltheory.papers.committee.claims:check_ode_task")),
)
