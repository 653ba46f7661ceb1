"""The Fisher paper's sweep tasks (``fltheory sweep --list``): their parameters and domains;
the run is :func:`fltheory.papers.fisher.sim.clusters_task`, its check
:func:`fltheory.papers.fisher.claims.check_clusters_task`, each imported when first called (a
declaration stays light)."""

from __future__ import annotations

from fltheory.sweep.tasks import Param, Task, TaskFunction

__all__ = ["SWEEP_TASKS"]

SWEEP_TASKS = (
    Task("fisher.clusters",
         "random ReLU features: the three leading eigenvalue clusters of J (means, sizes) and "
         "their share of the trace",
         {"d": Param("int", 5, 2, 1000), "m": Param("int", 1000, 2, 20000)},
         TaskFunction("fltheory.papers.fisher.sim:clusters_task"),
         check=TaskFunction("fltheory.papers.fisher.claims:check_clusters_task")),
)
