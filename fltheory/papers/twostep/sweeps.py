"""The two-step paper's sweep tasks (``fltheory sweep --list``): their parameters and domains;
the run is :func:`fltheory.papers.twostep.sim.term_constants_task`, its cost check
:func:`fltheory.papers.twostep.claims.check_term_constants_task`, each imported when first
called (a declaration stays light)."""

from __future__ import annotations

from fltheory.sweep.tasks import Param, Task, TaskFunction

__all__ = ["SWEEP_TASKS"]

SWEEP_TASKS = (
    Task("twostep.term_constants",
         "two-step GD (reused/fresh batch), N = n = d: estimated constants Ĉ_k(v) of the "
         "second-step Taylor terms k = 0..2 along β1, β2 and a random direction",
         {"N": Param("int", 500, 10, 6000), "batch": Param(("reused", "fresh"), "reused")},
         TaskFunction("fltheory.papers.twostep.sim:term_constants_task"),
         check=TaskFunction("fltheory.papers.twostep.claims:check_term_constants_task")),
)
