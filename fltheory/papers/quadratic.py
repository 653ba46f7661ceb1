"""Seed 003, Bocchi, Lucibello, Saglietti, Cammarota et al. (2026): quadratic networks under
one-pass SGD — ODEs, plateau and escape, zero-loss manifold, implicit bias, Hessians
(:mod:`fltheory.theory.quadratic`, which re-exports the split modules quadratic_equations,
_plateau, _integrate, _escape, _curvature, _bias, _report and _ode; the simulator
:mod:`fltheory.sim.quadratic`; claims and the SGD-vs-ODE comparisons
:mod:`fltheory.claims.quadratic`)."""

from fltheory.papers import Paper

PAPER = Paper(
    key="quadratic",
    title="Bocchi, Lucibello, Saglietti, Cammarota et al. 2026, quadratic nets (seed 003)",
    claims="fltheory.claims.quadratic",
    commands={"quadratic": "fltheory.cli.quadratic:quadratic_group"},
    tables={"quadratic": "fltheory.views.quadratic:quadratic_table"},
    figures={"quadratic": "fltheory.views.quadratic:quadratic_figure"},
    sweep_tasks="fltheory.views.quadratic:SWEEP_TASKS",
    notebook="fltheory.views.quadratic:NOTEBOOK",
    order=3,
)
