"""Bayes-optimal learning of generalised linear models — the replica free entropy and state
evolution for any prior and channel (Barbier, Krzakala, Macris, Miolane & Zdeborová, PNAS 2019),
the thresholds α_WR, α_IT and α_alg located to confirmed digits, GAMP as the witness, and
empirical risk minimisation beside it — ridge, logistic and hinge regression at a given or the
optimal penalty, with numpy/scipy fits as their witness (:mod:`fltheory.papers.glm.theory`,
:mod:`fltheory.papers.glm.erm`)."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="glm",
    title="Bayes-optimal GLMs: replica free entropy, state evolution, α_WR/α_IT/α_alg, GAMP",
    claims="fltheory.papers.glm.claims",
    commands={"glm": "fltheory.papers.glm.cli:glm_command"},
    tables={"glm_thresholds": "fltheory.papers.glm.views:thresholds_table"},
    figures={"glm": "fltheory.papers.glm.views:error_figure"},
    notebook="fltheory.papers.glm.views:NOTEBOOK",
    order=10,
)

# the public names of the theory modules (the parameter objects: fltheory.papers.glm.params)
_NAMES = {
    "theory": (
        "NotConverged", "PointAnswer", "ThresholdAnswer", "Value", "alpha_wr_exact", "curve_points",
        "digits", "point", "state_evolution", "thresholds"),
    "erm": ("ErmAnswer", "RidgeAnswer", "erm_curve", "erm_fixed_point", "erm_optimal",
            "erm_point", "ridge", "ridge_optimal"),
    "params": (
        "Alphas", "AmpRun", "CHANNEL_KINDS", "Channel", "ERM_LOSSES", "Erm", "ErmRun",
        "MAX_ALPHA", "MAX_D", "MAX_LAMBDA", "PRIOR_NAMES", "Prior", "check_erm",
        "gauss_bernoulli", "gaussian", "mixture", "rademacher", "read_channel", "read_erm",
        "read_prior", "read_ridge", "sparse_rademacher"),
    "runs": ("AmpSide", "ErmSide", "GlmRun", "RidgeSide", "amp_side", "erm_side", "glm_run",
             "ridge_side"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
