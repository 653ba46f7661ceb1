"""Seed 002, Dandi, Krzakala, Loureiro et al. (2026): sequential recovery by a layer-wise
spectral algorithm — thresholds, the recovery cascade and the MSE power law
(:mod:`fltheory.theory.recovery`)."""

from fltheory.papers import Paper

PAPER = Paper(
    key="recovery",
    title="Dandi, Krzakala, Loureiro et al. 2026, sequential recovery (seed 002)",
    claims="fltheory.claims.recovery",
    commands={"recovery": "fltheory.cli.recovery:recovery_group",
              "threshold": "fltheory.cli.recovery:threshold_command"},
    tables={"recovery": "fltheory.views.recovery:recovery_table",
            "recovery_depth": "fltheory.views.recovery:recovery_depth_table"},
    figures={"recovery": "fltheory.views.recovery:recovery_figure"},
    sweep_tasks="fltheory.views.recovery:SWEEP_TASKS",
    notebook="fltheory.views.recovery:NOTEBOOK",
    order=4,
)
