"""Online SGD in soft committee machines with any activation — Saad & Solla (1995), Biehl &
Schwarze (1995), Goldt et al. (2019). The ODEs for the overlaps Q, R derived for the user's g
(:mod:`fltheory.papers.committee.model`, averages in :mod:`~fltheory.papers.committee.gaussian`),
integrated (:mod:`~fltheory.papers.committee.ode`), the plateau and fixed points analysed
(:mod:`~fltheory.papers.committee.plateau`); the simulator
:mod:`fltheory.papers.committee.sim`; claims and the SGD-vs-ODE comparisons
:mod:`fltheory.papers.committee.claims`."""

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
    "gaussian": (
        "GaussianAverages", "MAX_DEGREE", "averages", "erf_i4"),
    "model": (
        "CommitteeEquations", "CommitteeModel", "MAX_FIELDS", "MAX_SYMBOLIC_FIELDS",
        "average_errors", "check_state", "equations", "flat_rhs", "generalisation_error", "rhs"),
    "ode": (
        "CommitteeDivergence", "CommitteeTrajectory", "FlatSolution", "MEMORY_LIMIT_BYTES",
        "ODE_SECONDS_LIMIT", "check_integration_request", "compiled_erf_cost",
        "eps_accuracy", "expected_nfev", "integrate", "integrate_flat", "integration_cost",
        "runaway"),
    "plateau": (
        "FixedPoint", "MaxLearningRate", "Plateau", "convergence_rate", "eta_max_of_field",
        "fixed_point_of_field", "jacobian", "max_learning_rate", "max_lr_of_field",
        "plateau_digits", "plateau_of_field", "specialised_fixed_point", "symmetric_plateau"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
