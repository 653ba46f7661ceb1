"""Dandi, Krzakala, Loureiro et al. (2026): sequential recovery by a layer-wise
spectral algorithm — thresholds, the recovery cascade and the MSE power law
(:mod:`fltheory.papers.recovery.theory`)."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="recovery",
    title="Dandi, Krzakala, Loureiro et al. 2026, sequential recovery",
    claims="fltheory.papers.recovery.claims",
    commands={"recovery": "fltheory.papers.recovery.cli:recovery_group",
              "threshold": "fltheory.papers.recovery.cli:threshold_command"},
    tables={"recovery": "fltheory.papers.recovery.views:recovery_table",
            "recovery_depth": "fltheory.papers.recovery.views:recovery_depth_table"},
    figures={"recovery": "fltheory.papers.recovery.views:recovery_figure"},
    sweep_tasks="fltheory.papers.recovery.sweeps:SWEEP_TASKS",
    notebook="fltheory.papers.recovery.views:NOTEBOOK",
    order=4,
)

# The paper's public names, each imported from its module on first use: importing this
# package (as paper discovery does) costs no more than the declaration above.
_NAMES = {
    "chi2": (
        "ruben_terms",),
    "counting": (
        "ThresholdRow", "Thresholds", "continuum_count", "depth_rows", "dimension",
        "feature_dimension", "power_strength", "recovered_count", "sample_ratio",
        "strength_norm2", "threshold", "threshold_exact", "threshold_table", "thresholds"),
    "depth": (
        "KERNEL_DEGREES", "KernelShare", "kernel_half_point", "kernel_share"),
    "law": (
        "MSELaw", "law_a1_squared", "law_exponent", "law_prefactor", "mse_law", "mse_law_for"),
    "luli": (
        "LabelLaw", "Overlap", "RecoveryModel", "ruben_work"),
    "params": (
        "DEPTH_MAX_N", "DIMS", "DepthRun", "FEATURES", "Features", "LATENTS", "LawQuery",
        "MAX_D1", "MAX_DIGITS", "MAX_Q",
        "MAX_SIM_BYTES", "MAX_THRESHOLD_ROWS", "Model", "RecoveryQuery", "SIM_MAX_D",
        "SIM_MAX_D1", "SIM_MAX_D_OTHER", "SIM_MAX_FEATURES", "SIM_MAX_Q", "SIM_MAX_SEEDS",
        "SIM_N", "SIM_TRANSFORMS", "Simulation", "SpectralRun", "Strengths", "TRANSFORMS",
        "ThresholdQuery", "feature_count", "k_text"),
    "runs": (
        "SimulationComparison", "cascade_data", "compare", "compare_simulation", "model_of",
        "spectral_point"),
    "theory": (
        "DirectionAt", "RecoveryAt", "recovery", "recovery_at"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
