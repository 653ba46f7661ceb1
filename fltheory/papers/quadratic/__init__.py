"""Bocchi, Lucibello, Saglietti, Cammarota et al. (2026): quadratic networks under one-pass SGD —
ODEs, plateau and escape, zero-loss manifold, implicit bias, Hessians
(:mod:`fltheory.papers.quadratic.theory`, which re-exports the modules equations, stability, ode,
escape, curvature, bias and rhs; the parameters :mod:`fltheory.papers.quadratic.params`; the
simulator :mod:`fltheory.papers.quadratic.sim`; the commands' runs and the SGD-vs-ODE
comparisons :mod:`fltheory.papers.quadratic.runs`; the claims
:mod:`fltheory.papers.quadratic.claims`)."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="quadratic",
    title="Bocchi, Lucibello, Saglietti, Cammarota et al. 2026, quadratic nets",
    claims="fltheory.papers.quadratic.claims",
    commands={"quadratic": "fltheory.papers.quadratic.cli:quadratic_group"},
    tables={"quadratic": "fltheory.papers.quadratic.views:quadratic_table"},
    figures={"quadratic": "fltheory.papers.quadratic.views:quadratic_figure"},
    sweep_tasks="fltheory.papers.quadratic.sweeps:SWEEP_TASKS",
    notebook="fltheory.papers.quadratic.views:NOTEBOOK",
    order=3,
)

# The paper's public names, each imported from its module on first use: importing this
# package (as paper discovery does) costs no more than the declaration above.
_NAMES = {
    "bias": (
        "cold_start_drift", "implicit_bias_drift", "polar_factor", "polar_stack"),
    "curvature": (
        "hessian_plateau_counts", "hessian_solution_counts", "jacobian_cost", "manifold_dimension",
        "ode_jacobian_counts"),
    "equations": (
        "MAX_MATCHINGS", "derive_elementwise", "loss_matrix", "rhs_matrix", "wick_expectation"),
    "escape": (
        "EscapeLaw", "check_escape", "check_escape_request", "escape_cost", "escape_law",
        "escape_time_law", "noise_integral", "plateau_noise_integral", "plateau_noise_moment",
        "plateau_noise_rate", "plateau_overlap_variance"),
    "ode": (
        "ESCAPE_LEVEL", "ODESolution", "check_ode_request", "crossing_time", "integrate",
        "ode_cost", "solve"),
    "params": (
        "INTEGRATORS", "MAX_ENTRY", "SCALE_MAX", "SCALINGS", "Coefficients", "Comparison",
        "CurvatureRequest", "EscapeRequest", "Integration", "Model", "ODEStart", "Overlaps",
        "mean_field_step"),
    "rhs": (
        "block_matrix", "block_rhs", "block_rhs_loops", "block_traces", "bulk_dq",
        "reduce_start"),
    "stability": (
        "PlateauResult", "linear_rate", "plateau", "plateau_at", "stability_bounds",
        "stability_text"),
    "runs": (
        "SGD_SECONDS_LIMIT", "ODERun", "SGDvsODE", "check_comparison", "compare_sgd_ode",
        "curvature_counts", "escape_laws", "escape_pair", "escape_vs_p", "loss_curves",
        "ode_from_sample", "ode_run"),
    "theory": (
        "ESCAPE_SECONDS_LIMIT", "MEMORY_LIMIT_BYTES", "ODEDivergence", "ODE_SECONDS_LIMIT"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
