"""The recovery paper's sweep tasks (``fltheory sweep --list``): their parameters and domains;
the run is :func:`fltheory.papers.recovery.sim.spectral_task`, its check
:func:`fltheory.papers.recovery.claims.check_spectral_task`, each imported when first called (a
declaration stays light)."""

from __future__ import annotations

from fractions import Fraction

from fltheory.sweep.tasks import Param, Task, TaskFunction

__all__ = ["SWEEP_TASKS"]

SWEEP_TASKS = (
    Task("recovery.spectral",
         "the layer-wise spectral algorithm (q = 2) at n = δ·D: overlaps ρ_k² and test "
         "MSE/Var(y)",
         {"d": Param("int", 24, 2, 60),
          "delta": Param("rational", Fraction(10), 0, 10**6, low_open=True),
          "d1": Param("int", 8, 1, 64),
          "gamma": Param("rational", Fraction(1), 0, 1000, low_open=True),
          "features": Param(("gaussian", "hermite"), "gaussian")},
         TaskFunction("fltheory.papers.recovery.sim:spectral_task"),
         check=TaskFunction("fltheory.papers.recovery.claims:check_spectral_task")),
)
