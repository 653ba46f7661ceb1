"""Both sides of the ReLU Fisher paper, side by side, for the command, the views and the claims:
simulated runs (cached for an integer seed: the claims share them), the eigenfunction residuals
against the width, a simulated spectrum with the exact levels, and one simulated J against the
m → ∞ levels — for ReLU (``fisher simulate``) and, through the shared random-feature theory and
sampler, for any activation (``fisher simulate --sigma``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from fltheory.engine import randomfeatures as rf
from fltheory.papers.fisher import sim, theory
from fltheory.papers.fisher.params import Sample
from fltheory.render.shows import ShowsTable
from fltheory.results import Table
from fltheory.simkit import randomfeatures as rfsim
from fltheory.simkit import seeding
from fltheory.simkit.activations import ACTIVATIONS

__all__ = [
    "GRAM",
    "MAX_FLOPS",
    "MIN_SHARE",
    "RUNS",
    "TEST",
    "ClusterComparison",
    "RFComparison",
    "clear_cache",
    "cluster_sizes",
    "compare_clusters",
    "compare_rf",
    "draws",
    "numpy_sigma",
    "residuals",
    "residuals_vs_m",
    "spectrum_sample",
]

#: Seeding keys (fltheory.simkit.seeding): the children of a claim's seed. Repetition s at width m
#: draws its weights from child(seed, RUNS, m, s), so widths and repetitions are independent;
#: the test inputs of the eigenfunction claims from child(seed, TEST); the Monte-Carlo inputs of
#: the Gram claim from child(seed, GRAM).
RUNS, TEST, GRAM = 0, 1, 2

#: an eigenvector belongs to degree l when its degree-l harmonic share is at least this
MIN_SHARE = 0.5


@lru_cache(maxsize=48)
def _cached(d: int, m: int, seed: int, s: int) -> sim.FisherSample:
    return sim.sample(d, m, seeding.child(seed, RUNS, m, s))


def clear_cache() -> None:
    """Forget cached simulations (tests use it to check reproducibility for real)."""
    _cached.cache_clear()


def _sample(d: int, m: int, seed: seeding.SeedLike, s: int) -> sim.FisherSample:
    """Repetition s at width m (cached for an integer seed: the claims share their runs)."""
    if isinstance(seed, int):
        return _cached(d, m, seed, s)
    return sim.sample(d, m, seeding.child(seed, RUNS, m, s))


def draws(d: int, widths: tuple[int, ...], seeds: int, seed: seeding.SeedLike
          ) -> list[tuple[int, sim.FisherSample]]:
    """``seeds`` independent draws at each width, as (m, sample): repetition s at width m from
    child(seed, RUNS, m, s)."""
    return [(m, _sample(d, m, seed, s)) for m in widths for s in range(seeds)]


def residuals(d: int, widths: tuple[int, ...], seeds: int, n_test: int, seed: seeding.SeedLike
              ) -> dict[str, Any]:
    """For each draw (:func:`draws`), the relative L2 residual and the MAE of the network outputs
    of its three leading clusters (l = 0, 1, 2) off the predicted function spaces
    (:func:`~fltheory.papers.fisher.theory.eigenfunction_basis`) on ``n_test`` Gaussian inputs
    drawn from child(seed, TEST): ``log_m``, ``rel``, ``mae`` (runs × 3) and the widths ``m``."""
    x = seeding.rng(seed, TEST).standard_normal((n_test, d))
    bases = [theory.eigenfunction_basis(x, l) for l in range(3)]
    log_m, rel, mae = [], [], []
    for m, s in draws(d, widths, seeds, seed):
        sizes = sim.cluster_summary(s.eigenvalues, 3).sizes
        start, row_rel, row_mae = 0, [], []
        for l, size in enumerate(sizes):
            e_mae, e_rel = sim.project_outputs(s, slice(start, start + size), bases[l], x)
            start += size
            row_rel.append(e_rel)
            row_mae.append(e_mae)
        log_m.append(math.log(m))
        rel.append(row_rel)
        mae.append(row_mae)
    return {"log_m": np.array(log_m), "rel": np.array(rel), "mae": np.array(mae), "m": widths}


def residuals_vs_m(d: int, widths: tuple[int, ...], seeds: int = 2, n_test: int = 2000,
                   seed: int = 0) -> dict[str, Any]:
    """Relative L2 residual and MAE of the cluster-l network outputs (l = 0, 1, 2) against
    the predicted function spaces, for each width and seed (:func:`residuals`; for figures and
    notebooks)."""
    return residuals(d, widths, seeds, n_test, seed)


def cluster_sizes(d: int) -> tuple[int, int, int]:
    """The predicted sizes of the three leading clusters, N(d, l) for l = 0, 1, 2 (what a
    simulation must resolve: m at least their sum)."""
    return tuple(theory.multiplicity(d, l) for l in range(3))  # type: ignore[return-value]


def spectrum_sample(d: int, m: int, seed: seeding.SeedLike = 0) -> dict[str, Any]:
    """A simulated spectrum (:func:`fltheory.papers.fisher.sim.sample` at ``seed``) with the
    predicted levels and multiplicities l = 0..4, for figures."""
    s = sim.sample(d, m, seed)
    levels = theory.spectrum(d, 4, 20)
    return {"d": d, "m": m, "eigenvalues": s.eigenvalues,
            "levels": [(lev.l, float(lev.value), lev.multiplicity) for lev in levels]}


#: Bound of :func:`compare_clusters`: W'W (2·d·m²) and eigh with vectors (~8·m³) flops; 6e11 is
#: ~1 minute on the 2-core machine unloaded at ~10 GFlop/s (m = 4000 at small d, the claims'
#: largest width, is accepted).
MAX_FLOPS = 6e11


@dataclass(frozen=True)
class ClusterComparison(ShowsTable):
    """One simulated Fisher spectrum against the m → ∞ prediction: for each of the three leading
    clusters (split by gaps, no predicted sizes used) its size and mean next to N(d, l) and
    λ_l(d), the relative difference, and the share of the trace the clusters carry."""

    d: int
    m: int
    seed: seeding.SeedLike
    levels: tuple[theory.FisherLevel, ...]  # predicted, l = 0, 1, 2
    clusters: sim.ClusterSummary

    @property
    def relative_errors(self) -> tuple[float, ...]:
        """(cluster mean − λ_l)/λ_l for each cluster found (at most three)."""
        return tuple((mean - float(lev.value)) / float(lev.value)
                     for lev, mean in zip(self.levels, self.clusters.means, strict=False))

    def table(self) -> Table:
        """Per cluster: l, size, N(d, l), mean, λ_l (m → ∞), relative difference."""
        rows = [[str(lev.l), str(size), str(lev.multiplicity), f"{mean:.6g}",
                 f"{float(lev.value):.6g}", f"{rel:+.3%}"]
                for lev, size, mean, rel in zip(self.levels, self.clusters.sizes,
                                                self.clusters.means, self.relative_errors,
                                                strict=False)]
        return Table(columns=["l", "size", "N(d,l)", "mean", "λ_l (m → ∞)", "rel. diff."],
                     rows=rows, caption=f"Simulated clusters, d = {self.d}, m = {self.m}, "
                                        f"seed {self.seed}",
                     label="tab:fltheory-fisher-sim", align="rrrrrr")


def compare_clusters(d: int, m: int, seed: seeding.SeedLike = 0,
                     progress: Callable[[str], None] | None = None) -> ClusterComparison:
    """Sample W (d × m) at ``seed``, build J exactly, split its spectrum into the three leading
    clusters and set them against the exact m → ∞ levels l = 0, 1, 2 (``fltheory fisher
    simulate``). ``d`` >= 2, ``m`` >= 2 with memory and 2·d·m² + 8·m³ <= MAX_FLOPS checked
    before anything is sampled (DomainError/CostError); ``progress`` receives one line before
    the work starts.
    """
    from fltheory.exact import check_cost

    theory.multiplicity(d, 0)  # domain of d
    p = Sample(d, m, seed)
    check_cost(f"m = {m}", 2.0 * d * m * m + 8.0 * m**3, MAX_FLOPS, "floating-point operations",
               "lower m (or d): the cost is 2·d·m² + 8·m³")
    if progress is not None:
        progress(f"sampling W ({d}×{m}), building J, eigendecomposing ...")
    s = sim.draw(p)
    return ClusterComparison(d, m, seed, tuple(theory.spectrum(d, 2, 20)),
                             sim.cluster_summary(s.eigenvalues, 3))


def numpy_sigma(sigma: Any) -> str | Callable[..., Any]:
    """What the simulator takes for the activation ``sigma`` (EXPR as in ``fltheory hermite``):
    the sampler's own definition when ``sigma`` is a name it knows (closed forms for relu,
    abs, erf, quadratic), else the parsed expression as a numpy function (scipy's erf etc.).
    Not square-integrable under N(0, 1): DomainError naming sigma."""
    return rf.numpy_face(sigma, ACTIVATIONS)


@dataclass(frozen=True)
class RFComparison(ShowsTable):
    """One simulated J against the predicted levels: for each level (l, j) predicted, the
    simulated cluster (eigenvectors of harmonic degree l, block j) mean and size."""

    sigma: str
    d: int
    m: int
    seed: seeding.SeedLike
    scale: Any
    method: str
    bound: float
    trace: float
    predicted: tuple[tuple[int, int, float, int], ...]  # (l, j, λ, N(d, l))
    simulated: dict[tuple[int, int], tuple[float, int, float]]  # (mean, size, purity)

    def table(self) -> Table:
        """Per predicted level: l, j, N(d, l), simulated mean, size, purity, λ (m → ∞)."""
        rows = []
        for l, j, value, mult in self.predicted:
            got = self.simulated.get((l, j))
            rows.append([str(l), str(j), str(mult),
                         "—" if got is None else f"{got[0]:.6g}",
                         "—" if got is None else str(got[1]),
                         "—" if got is None else f"{got[2]:.2f}", f"{value:.6g}",
                         "—" if got is None or value == 0 else f"{got[0] / value - 1:+.2%}"])
        return Table(columns=["l", "j", "N(d,l)", "mean", "size", "purity", "λ (m → ∞)",
                              "rel. diff."], rows=rows,
                     caption=f"Simulated levels of J, σ = {self.sigma}, d = {self.d}, "
                             f"m = {self.m}, s = {self.scale}, seed {self.seed}",
                     label="tab:fltheory-rf-sim", align="rrrrrrrr")


def compare_rf(sigma: str, d: int, m: int, seed: seeding.SeedLike = 0, scale: Any = 1,
               lmax: int = 3, jmax: int = 1,
               progress: Callable[[str], None] | None = None) -> RFComparison:
    """Sample W (d × m) at ``seed`` and scale s, build J for ``sigma`` (EXPR), identify its levels
    by harmonic degree (l <= lmax, j <= jmax; only the degrees whose harmonic basis m can
    resolve, 2·C(d+l−1, l) <= m/4) and set them against the predicted levels (``fltheory
    fisher simulate --sigma``). Sizes and cost are checked before anything is sampled
    (DomainError/CostError); ``progress`` receives one line before the work starts."""
    f = numpy_sigma(sigma)
    rfsim.check_rf_sample(d, m, seed, scale)
    spec = rf.spectrum(rf.RFModel(sigma, d, scale, lmax, jmax, 5))  # 5 digits: ≫ 1/√m
    if progress is not None:
        progress(f"sampling W ({d}×{m}), building J for σ = {sigma}, eigendecomposing ...")
    s = rfsim.sample(f, d, m, seed, scale)
    n = sum(lev.multiplicity for lev in spec.levels if float(lev.value) > 0)
    top = min(m, 2 * n + 10, m // 2)
    # the degrees the m features can resolve: C(d+l−1, l)·2 columns <= m/4 (radial degree 1)
    shown = max([0] + [l for l in range(lmax + 1) if 8 * math.comb(d + l - 1, l) <= m])
    content = rfsim.harmonic_content(s.W, s.eigenvectors[:, :top], shown, 1)
    found = {(c.l, c.j): (c.mean, len(c.eigenvalues), c.purity) for c in
             rfsim.degree_clusters(s.eigenvalues[:top], content, d, jmax, MIN_SHARE)}
    predicted = tuple((lev.l, lev.j, float(lev.value), int(lev.multiplicity))
                      for lev in spec.levels)
    return RFComparison(sigma, d, m, seed, scale, s.method, s.bound, s.trace, predicted, found)
