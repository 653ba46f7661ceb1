"""The two-step paper's sweep tasks (``fltheory sweep --list``): their parameters, domains and
cost check; the run is :func:`fltheory.papers.twostep.sim.term_constants_task`, imported when
first called (a declaration stays light)."""

from __future__ import annotations

from typing import Any

from fltheory.sweep.tasks import Param, Task, TaskFunction, run_cost

__all__ = ["SWEEP_TASKS", "check_term_constants_task"]


def check_term_constants_task(v: dict[str, Any]) -> None:
    """The cost check of the sweep task ``twostep.term_constants`` (:func:`sim.
    term_constants_task <fltheory.papers.twostep.sim.term_constants_task>`) against the
    sweep's bound per run (the two-step figure's runs are held to it too)."""
    # N × N matrices, a few GEMMs: measured 0.08 s at N = 500, 2.25 s at N = 1500 (∝ N³)
    N = v["N"]
    run_cost(f"N = {N}", 7e-10 * N**3, "lower N")


SWEEP_TASKS = (
    Task("twostep.term_constants",
         "two-step GD (reused/fresh batch), N = n = d: estimated constants Ĉ_k(v) of the "
         "second-step Taylor terms k = 0..2 along β1, β2 and a random direction",
         {"N": Param("int", 500, 10, 6000), "batch": Param(("reused", "fresh"), "reused")},
         TaskFunction("fltheory.papers.twostep.sim:term_constants_task"),
         check=TaskFunction("fltheory.papers.twostep.sweeps:check_term_constants_task")),
)
