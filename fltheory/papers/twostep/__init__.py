"""Moniri & Hassani (2026): two steps of gradient descent, the outlier count Λ(α1, α2)
and what a reused or a fresh batch learns (:mod:`fltheory.papers.twostep.theory`), with its
parameters (:mod:`fltheory.papers.twostep.params`), simulator and runs."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="twostep",
    title="Moniri & Hassani 2026, two steps of GD",
    claims="fltheory.papers.twostep.claims",
    commands={"lambda": "fltheory.papers.twostep.cli:lambda_command",
              "phase": "fltheory.papers.twostep.cli:phase_command",
              "twostep": "fltheory.papers.twostep.cli:twostep_group"},
    tables={"lambda": "fltheory.papers.twostep.views:lambda_table",
            "twostep": "fltheory.papers.twostep.views:twostep_table",
            "twostep_terms": "fltheory.papers.twostep.views:twostep_terms_table",
            "twostep_outliers": "fltheory.papers.twostep.views:twostep_outliers_table"},
    figures={"lambda": "fltheory.papers.twostep.views:lambda_figure",
             "twostep": "fltheory.papers.twostep.views:twostep_figure"},
    sweep_tasks="fltheory.papers.twostep.sweeps:SWEEP_TASKS",
    notebook="fltheory.papers.twostep.views:NOTEBOOK",
    order=1,
)

# The paper's public names (those of its theory: the predictions and the setting they take),
# each imported from its module on first use: importing this package (as paper discovery does)
# costs no more than the declaration above. ``theory`` gathers them; each is fetched from its
# own module, so that ``from fltheory.papers.twostep import lambda_count`` stays as light as
# ``phases``. The simulator's parameters and the runs are at their homes
# (``fltheory.papers.twostep.params``, ``.runs``).
_NAMES = {
    "params": (
        "BATCHES", "BATCH_PSI", "HALF", "Simulation", "StepPairs", "TwoStepSetting", "check_alpha",
        "target_texts"),
    "phases": (
        "GENERIC_CONDITION", "LambdaResult", "MAX_ROWS", "PhaseRegion", "TWO_STEP_SIGMA",
        "TWO_STEP_SIGMA_NAME", "TermExponent", "exponent_of", "lambda_count", "lambda_details",
        "lambda_of", "phase_line", "phase_of", "phase_region_count", "region_count_of",
        "term_exponent"),
    "terms": (
        "DirectionLearning", "TermPrediction", "TwoStepModel", "batch_model", "batch_psi",
        "learnability", "learnability_of", "one_step_overlap", "one_step_ratio", "term_prediction"),
    "sigma": (
        "EffectiveOutliers", "EffectivePhase", "KMAX", "SpikePresence", "TermOutlier",
        "derivative_moment", "effective_outliers", "effective_phase", "effective_phase_of",
        "outliers_of", "spike_presence", "term_constants"),
    "kinks": (
        "Kink", "kink_structure", "odd_part_constant", "odd_slope_coefficients", "odd_weights",
        "one_sided_coefficients", "q_moment", "symmetric_moment"),
    "learning": ("LearnReport", "learn", "learn_of"),
    "runs": (
        "SimulateRun", "constants_vs_N", "figure_runs", "model_summary", "paper_model",
        "predicted_constants", "simulate_run"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
