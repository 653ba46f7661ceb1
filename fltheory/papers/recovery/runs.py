"""Both sides of sequential recovery, side by side: the simulated spectral algorithm next to the
Lu–Li prediction of the same model. ``recovery simulate``, the recovery figure, its notebook and
the claims call these; none of them computes either side itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from fltheory.papers.recovery import sim, theory
from fltheory.papers.recovery.params import Simulation, SpectralRun
from fltheory.render.shows import ShowsTable
from fltheory.results import Table
from fltheory.simkit import seeding

__all__ = ["SimulationComparison", "cascade_data", "compare", "compare_simulation", "model_of",
           "spectral_point"]


@lru_cache(maxsize=512)
def spectral_point(features: str, d: int, n: int, seed: int, s: int, d1: int, gamma: float
                   ) -> sim.RecoveryRun:
    """Repetition ``s`` of the run at (d, n) of the claims' grid and the figure (q = 2, rank
    transform, 4000 fitting and 8000 test samples): it draws from the child (s, d, n) of the
    user's seed (fltheory.simkit.seeding), so that every cell of a grid is independent of every
    other. Cached (:func:`clear_cache`)."""
    # the second layer has d1 + 1 coefficients: 4000 fitting samples leave an overfitting
    # excess of (d1 + 1)/4000 ≈ 0.2 % of the MSE, far below its sampling error
    return sim.simulate(SpectralRun(d, n, d1=d1, gamma=gamma, features=features, n_fit=4000,
                                    n_test=8000), seeding.child(seed, s, d, n))


@lru_cache(maxsize=8)
def model_of(d1: int, gamma: float) -> theory.RecoveryModel:
    """The Lu–Li model of strengths k^(−γ), k <= d1, rank transform (cached)."""
    return theory.RecoveryModel.power_law(d1, gamma)


def clear_cache() -> None:
    """Forget cached simulations (tests use it to check reproducibility for real)."""
    spectral_point.cache_clear()


def cascade_data(d: int = 24, deltas: tuple[float, ...] = (2.5, 5, 10, 20, 40, 80),
                 seeds: int = 3, d1: int = 8, gamma: float | Fraction = 1.0,
                 seed: int = 0) -> dict[str, Any]:
    """Data of the recovery figure: Lu–Li overlap curves and MSE on a fine δ grid, the large-δ
    thresholds, the d1 = ∞ law with this model's weak-direction constant, and simulated points
    (Gaussian-equivalent features at dimension d; repetition s of δ draws from the child
    (s, d, n) of ``seed``)."""
    model = model_of(d1, float(gamma))
    fine = np.geomspace(1, 200, 80)
    D = sim.feature_dim(d, 2)
    rho2 = np.zeros((seeds, len(deltas), d1))
    mse = np.zeros((seeds, len(deltas)))
    for s in range(seeds):
        for b, delta in enumerate(deltas):
            r = spectral_point("gaussian", d, round(delta * D), seed, s, d1, float(gamma))
            rho2[s, b], mse[s, b] = r.best_overlaps, r.relative_mse
    g = gamma if isinstance(gamma, Fraction) else Fraction(gamma).limit_denominator(1000)
    a1sq = theory.law_a1_squared(g, model.weak_constant())
    return {"d": d, "D": D, "d1": d1, "gamma": float(gamma), "fine": fine,
            "curves": model.overlaps(fine), "mse_curve": model.mse(fine),
            "thresholds": model.bbp_thresholds(), "deltas": np.array(deltas),
            "rho2": rho2, "mse": mse,
            "law": (float(theory.law_prefactor(g, a1sq)), float(theory.law_exponent(g)))}


@dataclass(frozen=True)
class SimulationComparison(ShowsTable):
    """Runs of the spectral algorithm against the Lu–Li prediction (see
    :func:`compare_simulation`): per-run overlaps ``rho2`` (runs × d1) and test MSE/Var(y)
    ``mse`` (runs), the predicted overlaps and MSE (None for the identity transform)."""

    d: int
    q: int
    D: int
    n: int
    d1: int
    features: str
    transform: str
    seed: int
    seeds: int
    rho2: np.ndarray
    mse: np.ndarray
    predicted_rho2: np.ndarray | None
    predicted_mse: float | None

    @property
    def delta(self) -> float:
        """δ = n/D."""
        return self.n / self.D

    def rho2_se(self) -> np.ndarray:
        """Standard errors of the mean overlaps over the runs (nan with one run)."""
        if self.seeds == 1:
            return np.full(self.d1, math.nan)
        out: np.ndarray = self.rho2.std(axis=0, ddof=1) / np.sqrt(self.seeds)
        return out

    def table(self) -> Table:
        mean, se, pred = self.rho2.mean(axis=0), self.rho2_se(), self.predicted_rho2
        rows = [[str(i + 1), f"{mean[i]:.4f}", "-" if self.seeds == 1 else f"{se[i]:.4f}",
                 "-" if pred is None else f"{pred[i]:.4f}"] for i in range(self.d1)]
        return Table(columns=["k", "ρ² measured", "s.e.", "ρ² Lu–Li"], rows=rows,
                     caption=f"Measured overlaps, d = {self.d}, n = {self.n}",
                     label="tab:fltheory-recovery-sim", align="rrrr")


def compare_simulation(d: int, n: int, d1: int = 8, gamma: Fraction = Fraction(1),
                       features: str = "gaussian", transform: str = "rank", seed: int = 0,
                       seeds: int = 1, q: int = 2,
                       progress: Callable[[int, int], None] | None = None
                       ) -> SimulationComparison:
    """``seeds`` runs of the spectral algorithm (:func:`fltheory.papers.recovery.sim.run`, run s
    drawing from ``seeding.children(seed, seeds)[s]``) at n samples against the Lu–Li overlaps
    and MSE of the same model (rank or sign transform; no prediction for ``identity``):
    :func:`compare` of the :class:`~fltheory.papers.recovery.params.Simulation` these arguments
    make.

    Bounds (seconds of work): 1 <= q <= 4 (q = 2 with hermite features), 2 <= d <= 60 at q = 2
    (20 otherwise), D <= 4000, 10 <= n <= 2·10^6, 1 <= d1 <= min(64, D), 1 <= seeds <= 100,
    γ > 0. ``progress(s, D)`` is called before run s.

    >>> c = compare_simulation(6, 2000, d1=2)
    >>> c.D, c.rho2.shape, round(float(c.predicted_rho2[0]), 4)
    (21, (1, 2), 0.9837)
    """
    return compare(Simulation(d, n, d1, gamma, features, transform, seed, seeds, q), progress)


def compare(setting: Simulation, progress: Callable[[int, int], None] | None = None
            ) -> SimulationComparison:
    """The runs of ``setting`` (read once) against the prediction for its model."""
    D, n = setting.D, setting.n
    model = setting.model
    # the theory's model before the runs: its cost is checked up front
    predicted = None if model is None else theory.RecoveryModel.of(model)
    spec = SpectralRun(setting.d, n, setting.q, setting.d1, float(setting.gamma),
                       features=setting.features, transform=setting.transform)
    runs = []
    for s, ss in enumerate(seeding.children(setting.seed, setting.seeds)):
        if progress is not None:
            progress(s, D)
        runs.append(sim.simulate(spec, ss))
    return SimulationComparison(
        setting.d, setting.q, D, n, setting.d1, setting.features, setting.transform,
        setting.seed, setting.seeds,
        np.array([r.best_overlaps for r in runs]), np.array([r.relative_mse for r in runs]),
        None if predicted is None else predicted.overlaps([n / D])[0],
        None if predicted is None else float(predicted.mse([n / D])[0]))
