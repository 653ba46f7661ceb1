"""Seed 000, Moniri & Hassani (2026): two steps of gradient descent, the outlier count Λ(α1, α2)
and what a reused or a fresh batch learns (:mod:`fltheory.theory.twostep`)."""

from fltheory.papers import Paper

PAPER = Paper(
    key="twostep",
    title="Moniri & Hassani 2026, two steps of GD (seed 000)",
    claims="fltheory.claims.twostep",
    commands={"lambda": "fltheory.cli.twostep:lambda_command",
              "phase": "fltheory.cli.twostep:phase_command",
              "twostep": "fltheory.cli.twostep:twostep_group"},
    tables={"lambda": "fltheory.views.twostep:lambda_table",
            "twostep": "fltheory.views.twostep:twostep_table",
            "twostep_terms": "fltheory.views.twostep:twostep_terms_table",
            "twostep_outliers": "fltheory.views.twostep:twostep_outliers_table"},
    figures={"lambda": "fltheory.views.twostep:lambda_figure",
             "twostep": "fltheory.views.twostep:twostep_figure"},
    sweep_tasks="fltheory.views.twostep:SWEEP_TASKS",
    notebook="fltheory.views.twostep:NOTEBOOK",
    order=1,
)
