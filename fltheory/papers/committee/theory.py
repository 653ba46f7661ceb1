r"""The theory of online SGD in soft committee machines (Saad & Solla 1995; Biehl & Schwarze
1995; Goldt et al. 2019): the face the docs, the notebook, the runs and the command use. The
predictions are written in the helper modules beside this one, each for one part:

* :mod:`~fltheory.papers.committee.gaussian` — the Gaussian averages E2, I2, I3, I4 of any
  activation g (closed forms for erf and ReLU, Wick sums for polynomials, an erf mixture for
  tanh-like g, a trapezoid rule otherwise);
* :mod:`~fltheory.papers.committee.model` — the ODEs of the overlaps Q, R derived from them
  (numpy right side, the compiled flat one, the sympy equations), ε_g, the state's domain;
* :mod:`~fltheory.papers.committee.ode` — their integration and its one cost estimate
  (:func:`evaluation_seconds`), divergences, the accuracy of ε_g;
* :mod:`~fltheory.papers.committee.plateau` — the symmetric plateau, the specialised fixed
  point, the Jacobian, the escape and convergence rates and η_max (in closed form for
  erf(x/√2), K = M = 1: :func:`closed_form_eta_max`).

Every function takes the model as one typed object,
:class:`~fltheory.papers.committee.params.CommitteeModel`, read once at its construction.

>>> from fltheory.papers.committee.params import CommitteeModel
>>> model = CommitteeModel("erf_ss", 2, 2)
>>> round(symmetric_plateau(model, "1/10").escape_rate, 5)
0.00653
"""

from __future__ import annotations

from fltheory.papers.committee.gaussian import MAX_DEGREE, GaussianAverages, averages, erf_i4
from fltheory.papers.committee.model import (
    MAX_FIELDS,
    MAX_SYMBOLIC_FIELDS,
    CommitteeEquations,
    average_errors,
    check_state,
    equations,
    flat_rhs,
    generalisation_error,
    model_averages,
    rhs,
    rhs_seconds,
)
from fltheory.papers.committee.ode import (
    MEMORY_LIMIT_BYTES,
    ODE_SECONDS_LIMIT,
    CommitteeDivergence,
    CommitteeTrajectory,
    FlatSolution,
    check_integration_request,
    check_trajectory_cost,
    compiled_erf_cost,
    eps_accuracy,
    evaluation_seconds,
    expected_nfev,
    integrate,
    integrate_flat,
    integration_cost,
    integration_seconds,
    runaway,
    trajectory,
)
from fltheory.papers.committee.plateau import (
    Convergence,
    FixedPoint,
    MaxLearningRate,
    Plateau,
    analysis_seconds,
    closed_form_eta_max,
    convergence_analysis,
    convergence_rate,
    eta_max_of_field,
    fixed_point_of_field,
    jacobian,
    max_learning_rate,
    max_lr_of_field,
    plateau_digits,
    plateau_of_field,
    same_point,
    specialised_fixed_point,
    symmetric_fixed_points,
    symmetric_plateau,
)

__all__ = [
    "MAX_DEGREE", "MAX_FIELDS", "MAX_SYMBOLIC_FIELDS", "MEMORY_LIMIT_BYTES", "ODE_SECONDS_LIMIT",
    "CommitteeDivergence", "CommitteeEquations", "CommitteeTrajectory", "Convergence",
    "FixedPoint", "FlatSolution", "GaussianAverages", "MaxLearningRate", "Plateau",
    "analysis_seconds", "average_errors", "averages", "check_integration_request", "check_state",
    "check_trajectory_cost", "closed_form_eta_max", "compiled_erf_cost", "convergence_analysis",
    "convergence_rate", "eps_accuracy", "equations", "erf_i4", "eta_max_of_field",
    "evaluation_seconds", "expected_nfev", "fixed_point_of_field", "flat_rhs",
    "generalisation_error", "integrate", "integrate_flat", "integration_cost",
    "integration_seconds", "jacobian", "max_learning_rate", "max_lr_of_field", "model_averages",
    "plateau_digits", "plateau_of_field", "rhs", "rhs_seconds", "runaway", "same_point",
    "specialised_fixed_point", "symmetric_fixed_points", "symmetric_plateau", "trajectory"]
