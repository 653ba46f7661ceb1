"""Takeishi et al. line: the Fisher information of random ReLU features, its exact
m → ∞ spectrum for any d and its eigenfunctions (:mod:`fltheory.papers.fisher.theory`).

The command ``fltheory fisher`` (:mod:`fltheory.papers.fisher.cli`) is declared here: the ReLU
closed forms, and ``--sigma`` for random features of any activation through the shared
random-feature theory (:mod:`fltheory.engine.randomfeatures`) and sampler
(:mod:`fltheory.simkit.randomfeatures`)."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="fisher",
    title="ReLU Fisher information, Takeishi et al. line",
    claims="fltheory.papers.fisher.claims",
    commands={"fisher": "fltheory.papers.fisher.cli:fisher_command"},
    light={"fisher": "fltheory.papers.fisher.light:FISHER"},
    tables={"fisher": "fltheory.papers.fisher.views:fisher_table"},
    figures={"fisher": "fltheory.papers.fisher.views:fisher_figure"},
    sweep_tasks="fltheory.papers.fisher.sweeps:SWEEP_TASKS",
    notebook="fltheory.papers.fisher.views:NOTEBOOK",
    order=2,
)

# The paper's public names, each imported from its module on first use: importing this
# package (as paper discovery does) costs no more than the declaration above.
_NAMES = {
    "params": ("MAX_BYTES", "Levels", "Sample"),
    "runs": (
        "GRAM", "MAX_FLOPS", "MIN_SHARE", "RUNS", "TEST", "ClusterComparison", "RFComparison",
        "clear_cache", "cluster_sizes", "compare_clusters", "compare_rf", "draws", "numpy_sigma",
        "residuals", "residuals_vs_m", "spectrum_sample"),
    "theory": (
        "CLOSED_FORMS", "FisherLevel", "FisherSpectrum", "MAX_L", "MAX_SPECTRUM_WORK",
        "TraceShare", "eigenfunction_basis", "eigenfunction_gram", "eigenvalue",
        "eigenvalue_quadrature", "legendre_coefficients", "multiplicity", "paper_approximation",
        "paper_top3_limit", "spectrum", "spectrum_of", "spectrum_work", "trace", "trace_share"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
