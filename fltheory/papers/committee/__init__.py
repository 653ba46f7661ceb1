"""Online SGD in soft committee machines with any activation — Saad & Solla (1995), Biehl &
Schwarze (1995), Goldt et al. (2019). The parameters (the model, an ODE run, an SGD run) in
:mod:`fltheory.papers.committee.params`; the theory's face :mod:`fltheory.papers.committee.theory`
(the ODEs for the overlaps Q, R derived for the user's g in
:mod:`~fltheory.papers.committee.model`, averages in :mod:`~fltheory.papers.committee.gaussian`,
integrated by :mod:`~fltheory.papers.committee.ode`, the plateau and fixed points analysed by
:mod:`~fltheory.papers.committee.plateau`); the simulator :mod:`fltheory.papers.committee.sim`;
SGD against the ODE in :mod:`fltheory.papers.committee.runs`; the claims
:mod:`fltheory.papers.committee.claims`; the sweep tasks :mod:`fltheory.papers.committee.sweeps`."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="committee",
    title="Saad & Solla 1995, Biehl & Schwarze 1995, Goldt et al. 2019: soft committee machines",
    claims="fltheory.papers.committee.claims",
    commands={"committee": "fltheory.papers.committee.cli:committee_group"},
    tables={"committee": "fltheory.papers.committee.views:committee_table"},
    figures={"committee": "fltheory.papers.committee.views:committee_figure"},
    sweep_tasks="fltheory.papers.committee.sweeps:SWEEP_TASKS",
    notebook="fltheory.papers.committee.views:NOTEBOOK",
    order=6,
)

# The paper's public names, each imported from its module on first use: importing this
# package (as paper discovery does) costs no more than the declaration above.
_NAMES = {
    "params": (
        "A_RANGE", "CommitteeModel", "MAX_FIELDS", "MAX_OVERLAP", "METHODS", "ODESettings",
        "SGDSettings", "paired", "read_layer", "read_overlaps", "read_times"),
    "gaussian": ("GaussianAverages", "MAX_DEGREE", "averages", "erf_i4"),
    "model": (
        "CommitteeEquations", "MAX_SYMBOLIC_FIELDS", "average_errors", "check_state", "equations",
        "flat_rhs", "generalisation_error", "model_averages", "rhs", "rhs_seconds"),
    "ode": (
        "CommitteeDivergence", "CommitteeTrajectory", "FlatSolution", "MEMORY_LIMIT_BYTES",
        "ODE_SECONDS_LIMIT", "check_integration_request", "check_trajectory_cost",
        "compiled_erf_cost", "eps_accuracy", "evaluation_seconds", "expected_nfev", "integrate",
        "integrate_flat", "integration_cost", "integration_seconds", "runaway", "trajectory"),
    "plateau": (
        "Convergence", "FixedPoint", "MaxLearningRate", "Plateau", "analysis_seconds",
        "closed_form_eta_max", "convergence_analysis", "convergence_rate", "eta_max_of_field",
        "fixed_point_of_field", "jacobian", "max_learning_rate", "max_lr_of_field",
        "plateau_digits", "plateau_of_field", "same_point", "specialised_fixed_point",
        "symmetric_fixed_points", "symmetric_plateau"),
    "runs": (
        "ODERun", "SGD_SECONDS_LIMIT", "SGDvsODE", "check_comparison_request", "compare_sgd_ode",
        "loss_curves", "mode_amplitudes", "ode_run", "ode_start"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
