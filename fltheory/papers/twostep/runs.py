"""Both sides of the two-step paper's questions, side by side: the simulated spike constants
Ĉ_k(v) of the paper's model next to the predicted C_k(v), the figure's runs, and one
``fltheory twostep simulate`` run next to the exponents of its terms. The command, the views
and the claims call these; none of them computes either side.

The paper's model (σ = (h1 + h2 + h3)/√3, targets He1 and bounded3, N = n = d) is the same
definition on both sides: :func:`paper_model` for the theory
(:func:`fltheory.papers.twostep.terms.batch_model`) and
:func:`fltheory.papers.twostep.sim.model_run` for the simulator.

Seeds: repetition ``s`` of a run with seed ``seed`` simulates with ``child(seed, s)``
(:mod:`fltheory.simkit.seeding`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from fltheory.papers.twostep import sim
from fltheory.papers.twostep.params import Simulation, TwoStepSetting
from fltheory.papers.twostep.phases import exponent_of
from fltheory.papers.twostep.sweeps import check_term_constants_task
from fltheory.papers.twostep.terms import TwoStepModel, batch_model, term_prediction
from fltheory.simkit.seeding import child

__all__ = ["SimulateRun", "constants_vs_N", "figure_runs", "model_summary",
           "paper_model", "predicted_constants", "simulate_run"]

@lru_cache(maxsize=512)
def model_summary(N: int, batch: str, seed: int, s: int) -> sim.SpikeSummary:
    """Repetition ``s`` of the user's ``seed`` (its child ``s``) of the paper's model at
    N = n = d (α1 = 2/5, α2 = 3/10): Ĉ_k(v) for k = 0..2 and v = β1, β2, random (3 × 3) and the
    Taylor residual of one run (cached: the claims and the figure share the runs).

    >>> model_summary(40, "reused", 0, 0).C.shape
    (3, 3)
    """
    return sim.spike_summary(Simulation(N, batch=batch, seed=child(seed, s)))


@lru_cache(maxsize=8)
def paper_model(batch: str) -> TwoStepModel:
    """The theory's model of the paper's example for a batch mode: σ = (h1 + h2 + h3)/√3, the
    simulator's targets :data:`~fltheory.papers.twostep.sim.MODEL_TARGETS`, ψ = 1 (reused) or 2
    (fresh halves)."""
    return batch_model(list(sim.MODEL_TARGETS), batch)


def predicted_constants() -> dict[tuple[str, int, int], float]:
    """The leading-order constants C_k(v) of the paper's model, by (batch, k, j): k = 0..2,
    j = 0, 1 the target directions and 2 a random direction (C = 0 there).

    >>> round(predicted_constants()[("reused", 0, 0)], 6)
    0.57735
    """
    return {(b, k, j): float(term_prediction(paper_model(b), k, j if j < 2 else None, b,
                                             with_Q=False).C)
            for b in ("reused", "fresh") for k in range(3) for j in range(3)}


def constants_vs_N(N_grid: tuple[int, ...], seeds: int, batch: str = "reused", seed: int = 0
                   ) -> dict[str, Any]:
    """Estimated Ĉ_k(v) (k = 0..2; v = β1, β2, random) per N and repetition s < ``seeds`` (the
    children of ``seed``, the runs of the claims), with the predictions C_k(v) — for figures
    and notebooks: ``estimates[i, s, k, j]``, ``predicted[k, j]``."""
    est = np.array([[model_summary(N, batch, seed, s).C for s in range(seeds)]
                    for N in N_grid])
    pred = predicted_constants()
    return {"N": np.array(N_grid), "estimates": est,
            "predicted": np.array([[pred[(batch, k, j)] for j in range(3)] for k in range(3)])}


def figure_runs(N: int = 1000, Ns: Sequence[int] = (400, 800, 1600), seeds: int = 6,
                batch: str = "reused", seed: int = 0,
                announce: Callable[[str], None] | None = None
                ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The two-step figure's runs: the singular values of W0, W1, W2 of one run at N = n = d
    (α1 = 2/5, α2 = 3/10) and :func:`constants_vs_N` over ``Ns``; every size's cost is checked
    first (the sweep task's bound per run). ``announce`` hears what starts."""
    for size in (N, *Ns):
        check_term_constants_task({"N": size})
    if announce is not None:
        announce(f"singular values at N = {N}")
    spectra = sim.singular_values(Simulation(N, batch=batch, seed=seed))
    if announce is not None:
        announce(f"spike constants at N = {', '.join(map(str, Ns))}, {seeds} seeds each")
    return spectra, constants_vs_N(tuple(Ns), seeds, batch, seed)


@dataclass(frozen=True)
class SimulateRun:
    """One ``fltheory twostep simulate`` run: the simulator's report (the constants Ĉ_k of a
    polynomial σ, or the spectrum and overlaps of another) and, per measured term k, the
    theory's N-exponent α2 + k(α1 − 1/2) of its prefactor."""

    run: Simulation
    report: sim.SimulationReport
    exponents: tuple[Fraction, ...]


def simulate_run(run: Simulation, sigma: str = "h1+h2+h3", targets: Sequence[str] = (),
                 on_start: Callable[[], None] | None = None) -> SimulateRun:
    """:func:`fltheory.papers.twostep.sim.measure` of the run, with the exponent of each
    measured term (:func:`fltheory.papers.twostep.phases.exponent_of`).

    >>> r = simulate_run(Simulation(40))
    >>> len(r.report.C_hat), [str(e) for e in r.exponents]
    (3, ['3/10', '1/5', '1/10'])
    """
    report = sim.measure(run, sigma, targets, on_start)
    terms = 0 if report.C_hat is None else len(report.C_hat)
    steps = TwoStepSetting(run.alpha1, run.alpha2)  # the run's step exponents, for the theory
    return SimulateRun(run, report, tuple(exponent_of(steps, k) for k in range(terms)))


def clear_cache() -> None:
    """Forget the cached runs of the paper's model (tests use it to check reproducibility)."""
    model_summary.cache_clear()
