"""Seed 004, Takeishi et al. line: the Fisher information of random ReLU features, its exact
m → ∞ spectrum for any d and its eigenfunctions (:mod:`fltheory.theory.fisher`)."""

from fltheory.papers import Paper

PAPER = Paper(
    key="fisher",
    title="ReLU Fisher information, Takeishi et al. line (seed 004)",
    claims="fltheory.claims.fisher",
    commands={"fisher": "fltheory.cli.fisher:fisher_command"},
    tables={"fisher": "fltheory.views.fisher:fisher_table"},
    figures={"fisher": "fltheory.views.fisher:fisher_figure"},
    sweep_tasks="fltheory.views.fisher:SWEEP_TASKS",
    notebook="fltheory.views.fisher:NOTEBOOK",
    order=2,
)
