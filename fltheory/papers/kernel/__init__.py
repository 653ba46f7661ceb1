"""Kernel spectra and learning curves on the sphere: exact eigenvalues of dot-product kernels
(any κ(t); the NNGP and NTK of any activation and depth), the eigenlearning curves of kernel
ridge regression on them, ridge regression in the proportional regime and the n ≍ d^ℓ
staircase, checked against real kernel regression (:mod:`fltheory.papers.kernel.theory`)."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="kernel",
    title="Kernel spectra and learning curves on the sphere (NNGP/NTK, eigenlearning, ridge)",
    claims="fltheory.papers.kernel.claims",
    commands={"kernel": "fltheory.papers.kernel.cli:kernel_group"},
    tables={"kernel": "fltheory.papers.kernel.views:kernel_table",
            "kernel_ridge": "fltheory.papers.kernel.views:kernel_ridge_table"},
    figures={"kernel_spectrum": "fltheory.papers.kernel.views:kernel_spectrum_figure",
             "kernel_curve": "fltheory.papers.kernel.views:kernel_curve_figure"},
    notebook="fltheory.papers.kernel.views:NOTEBOOK",
    order=9,
)

# The paper's public names (its theory's), each imported from its module on first use; the
# parameter objects are in fltheory.papers.kernel.params, the runs in .runs.
_NAMES = {
    "theory": (
        "CONVENTIONS", "CurveAnswer", "DIGITS_WARN", "KernelSpectrum", "Level",
        "RFSpectrumRelation", "RandomFeaturesAnswer",
        "RidgeAnswer", "STAIRCASE_SOURCES", "StaircaseLevel", "TAIL_WARN", "curve",
        "curve_warnings", "eigen",
        "polynomial_target", "random_features", "ridge", "spectrum", "staircase", "sum_text",
        "taylor"),
    "params": (
        "Curve", "Experiment", "FAST_ACTIVATIONS", "KINDS", "KernelSpec", "Levels", "MAX_D",
        "MAX_DEPTH", "MAX_KMAX", "MAX_N", "MAX_N_VALUES", "MAX_POLY_TARGET", "MAX_SIM_N",
        "MAX_TEST", "PolynomialTarget", "RandomFeatures", "Ridge", "SIMULATE_WORK", "Target",
        "check_simulate_work"),
    "runs": ("CONDITION_WARN", "GramRun", "KrrRun", "RFRun", "RidgeRun", "gram_run", "krr_run",
             "numpy_kernel", "rf_run", "ridge_run"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
