"""Bayes-optimal learning of generalised linear models — the replica free entropy and state
evolution for any prior and channel (Barbier, Krzakala, Macris, Miolane & Zdeborová, PNAS 2019),
the thresholds α_WR, α_IT and α_alg located to confirmed digits, GAMP as the witness, and ridge
regression beside it (:mod:`fltheory.papers.glm.theory`, :mod:`fltheory.papers.glm.erm`)."""

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

_NAMES = {
    "params": ("Alphas", "AmpRun", "Channel", "Prior", "gauss_bernoulli", "gaussian", "mixture",
               "rademacher", "read_channel", "read_prior", "sparse_rademacher"),
    "theory": ("alpha_wr_exact", "point", "state_evolution", "thresholds"),
    "erm": ("ridge", "ridge_optimal"),
    "runs": ("amp_side", "glm_run", "ridge_side"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
