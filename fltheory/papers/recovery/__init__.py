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
        "feature_dimension", "k_text", "power_strength", "recovered_count", "sample_ratio",
        "strength_norm2", "threshold", "threshold_exact", "threshold_table", "thresholds"),
    "law": (
        "MSELaw", "law_a1_squared", "law_exponent", "law_prefactor", "mse_law", "mse_law_for"),
    "luli": (
        "LabelLaw", "Overlap", "RecoveryModel", "ruben_work"),
    "params": (
        "Features", "LawQuery", "Model", "RecoveryQuery", "Strengths", "ThresholdQuery"),
    "theory": (
        "DirectionAt", "RecoveryAt", "recovery", "recovery_at"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
