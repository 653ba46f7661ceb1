"""The quadratic paper's sweep tasks (``fltheory sweep --list``): their parameters and domains,
and the cost check :func:`check_escape_task`; the run is
:func:`fltheory.papers.quadratic.sim.escape_task`, imported when first called (a declaration
stays light)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fltheory.exact import fraction_str
from fltheory.sweep.tasks import Param, Task, TaskFunction, run_cost

__all__ = ["SWEEP_TASKS", "check_escape_task"]

SWEEP_TASKS = (
    Task("quadratic.escape",
         "one-pass SGD in a quadratic network from W0 ~ N(0, 1/4): escape time (first "
         "‖ρ‖ > 1/2), final test loss, initial ‖ρ‖",
         {"N": Param("int", 1000, 10, 20000), "p": Param("int", 4, 1, 100),
          "p_star": Param("int", 2, 1, 100),
          "eta": Param("rational", Fraction(1, 10), 0, 1, low_open=True),
          "t_max": Param("rational", Fraction(60), 0, 1000, low_open=True)},
         TaskFunction("fltheory.papers.quadratic.sim:escape_task"),
         check=TaskFunction("fltheory.papers.quadratic.sweeps:check_escape_task")),
)


def check_escape_task(v: dict[str, Any]) -> None:
    """The cost check of the sweep task ``quadratic.escape`` (:func:`sim.escape_task
    <fltheory.papers.quadratic.sim.escape_task>`): the simulator's one cost model
    (``sim.sgd_cost``) against the sweep's bound per run. ``v``: the task's parameters, read by
    the sweep (N, p, p_star integers; eta, t_max exact)."""
    from fltheory.papers.quadratic import sim

    N, p, ps, t_max = v["N"], v["p"], v["p_star"], v["t_max"]
    # the simulator's one cost model, for the run escape_task makes (1000 test samples,
    # 121 records): measured 1.9 s at N = 1000, t_max = 60, p = 4, p* = 2 (estimate 3.2 s)
    run_cost(f"t_max = {fraction_str(t_max)}",
             sim.sgd_cost(N, p, ps, float(t_max), n_test=1000, records=sim.ESCAPE_TASK_RECORDS),
             "lower t_max or N (SGD runs t_max·N steps)")
