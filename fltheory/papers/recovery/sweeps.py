"""The recovery paper's sweep tasks (``fltheory sweep --list``): their parameters and domains;
the run is :func:`fltheory.papers.recovery.sim.spectral_task`, its check
:func:`check_spectral_task`, each imported when first called (a declaration stays light)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fltheory.sweep.tasks import Param, Task, TaskFunction

__all__ = ["SWEEP_TASKS", "check_spectral_task"]

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
         check=TaskFunction("fltheory.papers.recovery.sweeps:check_spectral_task")),
)


def check_spectral_task(v: dict[str, Any]) -> None:
    """The check of the sweep task ``recovery.spectral`` (:func:`sim.spectral_task
    <fltheory.papers.recovery.sim.spectral_task>`): 10 <= n = δ·D <= 2e6 samples, d1 <= D,
    and the run's cost against the sweep's bound."""
    from fltheory.exact import DomainError, fraction_str
    from fltheory.papers.recovery.params import feature_count
    from fltheory.sweep.tasks import run_cost, short_value

    d, d1 = v["d"], v["d1"]
    D = feature_count(d, 2)  # degree-2 Hermite features
    n = round(float(v["delta"]) * D)
    if not 10 <= n <= 2 * 10**6:
        raise DomainError("delta", short_value(v["delta"]), f"10 <= n = δ·D <= 2e6 (D = {D} at "
                          f"d = {d})", reason=f"gives n = {n} samples")
    if d1 > D:
        raise DomainError("d1", d1, f"d1 <= D = {D} at d = {d}", reason="is out of range")
    # Ĉ accumulated by GEMMs over n (+ 12000 fit/test) samples of D features, then a D × D
    # eigendecomposition: measured 1.1 s at d = 40, δ = 20 (estimate 1.9 s)
    run_cost(f"delta = {fraction_str(v['delta'])}", 1e-10 * (n + 12000) * D**2 + 1e-9 * D**3,
             "lower delta or d")
