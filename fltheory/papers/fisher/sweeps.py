"""The Fisher paper's sweep tasks (``fltheory sweep --list``): their parameters, domains and
checks; the run is :func:`fltheory.papers.fisher.sim.clusters_task`, imported when first called
(a declaration stays light), the check :func:`check_clusters_task`."""

from __future__ import annotations

from typing import Any

from fltheory.sweep.tasks import Param, Task, TaskFunction

__all__ = ["SWEEP_TASKS", "check_clusters_task"]


def check_clusters_task(v: dict[str, Any]) -> None:
    """The check of the sweep task ``fisher.clusters`` (:func:`sim.clusters_task
    <fltheory.papers.fisher.sim.clusters_task>`): m at least the number of eigenvalues of the
    three leading clusters (1 + d + N(d, 2)), and the run's cost against the sweep's bound."""
    from fltheory.exact import DomainError
    from fltheory.papers.fisher.runs import cluster_sizes
    from fltheory.sweep.tasks import run_cost

    d, m = int(v["d"]), int(v["m"])
    need = sum(cluster_sizes(d))
    if m < need:  # fewer features than the three clusters' eigenvalues: the clusters are not there
        raise DomainError("m", m, f"m >= 1 + d + N(d, 2) = {need} at d = {d}",
                          reason="is fewer than the three leading clusters' eigenvalues")
    # m × m eigendecomposition: measured 0.43 s at m = 1000, 3.4 s at 2000, 35 s at 4000 (∝ m³);
    # J from W (d × m): d·m² multiply-adds
    run_cost(f"m = {m}", 6e-10 * m**3 + 1e-9 * d * m**2, "lower m (or d)")


SWEEP_TASKS = (
    Task("fisher.clusters",
         "random ReLU features: the three leading eigenvalue clusters of J (means, sizes) and "
         "their share of the trace",
         {"d": Param("int", 5, 2, 1000), "m": Param("int", 1000, 2, 20000)},
         TaskFunction("fltheory.papers.fisher.sim:clusters_task"),
         check=TaskFunction("fltheory.papers.fisher.sweeps:check_clusters_task")),
)
