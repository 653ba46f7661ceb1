"""The quadratic paper's sweep tasks (``fltheory sweep --list``): their parameters and domains;
the run is :func:`fltheory.papers.quadratic.sim.escape_task`, its cost check
:func:`fltheory.papers.quadratic.claims.check_escape_task`, each imported when first called (a
declaration stays light)."""

from __future__ import annotations

from fractions import Fraction

from fltheory.sweep.tasks import Param, Task, TaskFunction

__all__ = ["SWEEP_TASKS"]

SWEEP_TASKS = (
    Task("quadratic.escape",
         "one-pass SGD in a quadratic network from W0 ~ N(0, 1/4): escape time (first "
         "‖ρ‖ > 1/2), final test loss, initial ‖ρ‖",
         {"N": Param("int", 1000, 10, 20000), "p": Param("int", 4, 1, 100),
          "p_star": Param("int", 2, 1, 100),
          "eta": Param("rational", Fraction(1, 10), 0, 1, low_open=True),
          "t_max": Param("rational", Fraction(60), 0, 1000, low_open=True)},
         TaskFunction("fltheory.papers.quadratic.sim:escape_task"),
         check=TaskFunction("fltheory.papers.quadratic.claims:check_escape_task")),
)
