"""Issue 16: online SGD in soft committee machines with any activation — Saad & Solla (1995),
Biehl & Schwarze (1995), Goldt et al. (2019). The ODEs for the overlaps Q, R derived for the
user's g (:mod:`fltheory.theory.committee_equations`, averages in committee_averages), integrated
(committee_ode), the plateau and fixed points analysed (committee_plateau); the simulator
:mod:`fltheory.sim.committee`; claims and the SGD-vs-ODE comparisons
:mod:`fltheory.claims.committee`."""

from fltheory.papers import Paper

PAPER = Paper(
    key="committee",
    title="Saad & Solla 1995, Biehl & Schwarze 1995, Goldt et al. 2019: soft committee machines",
    claims="fltheory.claims.committee",
    commands={"committee": "fltheory.cli.committee:committee_group"},
    tables={"committee": "fltheory.views.committee:committee_table"},
    figures={"committee": "fltheory.views.committee:committee_figure"},
    sweep_tasks="fltheory.views.committee:SWEEP_TASKS",
    notebook="fltheory.views.committee:NOTEBOOK",
    order=6,
)
