"""Claims of the ReLU Fisher-information paper (Takeishi et al. line).

Finite-m effects are handled by finite-size scaling, not by wide tolerances: each measured
quantity y(m) is fitted as y = a + b/m over a grid of widths and seeds, and the extrapolated a is
compared with the m → ∞ prediction within a Bonferroni z-bound on its standard error. The size of
the 1/m correction b is reported (measured, not assumed).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from fltheory.claims.registry import Claim, Point, Status, Verdict
from fltheory.claims.stats import fit_points
from fltheory.claims.stats import linear_fit as _fit
from fltheory.claims.stats import z_crit as _z_crit
from fltheory.exact import DomainError
from fltheory.papers.fisher import sim, theory
from fltheory.render.shows import ShowsTable
from fltheory.results import Table
from fltheory.simkit import seeding
from fltheory.sweep.tasks import run_cost

__all__ = ["CLAIMS", "GRAM", "MAX_FLOPS", "RUNS", "TEST", "ClusterComparison",
           "check_clusters_task", "clear_cache", "compare_clusters", "residuals_vs_m",
           "spectrum_sample"]

#: Seeding keys (fltheory.simkit.seeding): the children of a claim's seed. Repetition s at width m
#: draws its weights from child(seed, RUNS, m, s), so widths and repetitions are independent;
#: the test inputs of the eigenfunction claims from child(seed, TEST); the Monte-Carlo inputs of
#: the Gram claim from child(seed, GRAM).
RUNS, TEST, GRAM = 0, 1, 2


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


def _runs(params: Mapping[str, Any], seed: seeding.SeedLike
          ) -> list[tuple[int, sim.FisherSample]]:
    return [(m, _sample(params["d"], m, seed, s))
            for m in params["m"] for s in range(params["seeds"])]


def _levels(params: Mapping[str, Any]) -> list[float]:
    return [float(lev.value) for lev in theory.spectrum(params["d"], 2, 30)]


# --------------------------------------------------------------------------- eigenvalues


def _sim_cluster_means(params: Mapping[str, Any], seed: int) -> dict[str, Any]:
    inv_m, means = [], []
    for m, s in _runs(params, seed):
        inv_m.append(1 / m)
        means.append(sim.cluster_summary(s.eigenvalues, 3).means)
    return {"inv_m": np.array(inv_m), "means": np.array(means)}


def _compare_eigenvalues(pred: list[float], meas: dict[str, Any]) -> Verdict:
    z_crit, parts, worst, points = _z_crit(3), [], 0.0, []
    for l in range(3):
        a, se, b, _ = _fit(meas["inv_m"], meas["means"][:, l])
        worst = max(worst, abs(a - pred[l]) / se)
        parts.append(f"λ{l}: {a:.5g}±{se:.1g} (1/m coef {b / pred[l]:+.2g}·λ)")
        points += [replace(p, quantity="Fisher eigenvalue λ_l") for p in fit_points(
            f"λ{l}", meas["inv_m"], meas["means"][:, l], a, se, pred[l], z_crit * se)]
    return Verdict("pass" if worst <= z_crit else "fail",
                   ", ".join(f"λ{l} = {p:.5g}" for l, p in enumerate(pred)),
                   "; ".join(parts) + f"; max |z| = {worst:.2f}", f"|z| <= {z_crit:.2f}",
                   points=tuple(points))


# --------------------------------------------------------------------------- multiplicities


def _predict_multiplicities(params: Mapping[str, Any]) -> tuple[int, ...]:
    return tuple(theory.multiplicity(params["d"], l) for l in range(3))


def _sim_sizes(params: Mapping[str, Any], seed: int) -> list[tuple[int, tuple[int, ...]]]:
    """Per draw: its width m and the sizes of the three leading clusters."""
    return [(m, sim.cluster_summary(s.eigenvalues, 3).sizes) for m, s in _runs(params, seed)]


def _compare_sizes(pred: tuple[int, ...], meas: list[tuple[int, tuple[int, ...]]]) -> Verdict:
    bad = [sizes for _, sizes in meas if sizes != pred]
    # exact: each cluster size against N(d, l), band 0 (equality); a cluster not found (fewer
    # than three) has no point, and its draw is among the "bad" ones
    points = tuple(Point(f"cluster {l}, m = {m}, draw {i}", float(size), float(pred[l]),
                         band=0.0, x=float(m), x_label="m", series=f"l = {l}")
                   for i, (m, sizes) in enumerate(meas)
                   for l, size in enumerate(sizes[:len(pred)]))
    return Verdict("pass" if not bad else "fail", f"sizes {pred}",
                   f"{len(meas) - len(bad)}/{len(meas)} spectra split as predicted"
                   + (f" (e.g. {bad[0]})" if bad else ""), "all equal", points=points)


# --------------------------------------------------------------------------- trace share


def _predict_share(params: Mapping[str, Any]) -> float:
    return float(theory.trace_share(params["d"], 2, 30).cumulative[2])


def _sim_share(params: Mapping[str, Any], seed: int) -> dict[str, Any]:
    inv_m, share = [], []
    for m, s in _runs(params, seed):
        inv_m.append(1 / m)
        share.append(sim.cluster_summary(s.eigenvalues, 3).top_share)
    return {"inv_m": np.array(inv_m), "share": np.array(share)}


def _compare_share(pred: float, meas: dict[str, Any]) -> Verdict:
    a, se, b, _ = _fit(meas["inv_m"], meas["share"])
    z, z_crit = abs(a - pred) / se, _z_crit(1)
    return Verdict("pass" if z <= z_crit else "fail", f"{pred:.6f}",
                   f"m→∞ fit {a:.6f}±{se:.1g} (1/m coef {b:+.3g}; |z| = {z:.2f})",
                   f"|z| <= {z_crit:.2f}",
                   points=tuple(fit_points("trace share", meas["inv_m"], meas["share"], a, se,
                                            pred, z_crit * se)))


# --------------------------------------------------------------------------- eigenfunctions


def _x_test(params: Mapping[str, Any], seed: int) -> np.ndarray:
    return seeding.rng(seed, TEST).standard_normal((params["n_test"], params["d"]))


def _sim_residuals(params: Mapping[str, Any], seed: int) -> dict[str, Any]:
    x = _x_test(params, seed)
    bases = [theory.eigenfunction_basis(x, l) for l in range(3)]
    log_m, rel, mae = [], [], []
    for m, s in _runs(params, seed):
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
    return {"log_m": np.array(log_m), "rel": np.array(rel), "mae": np.array(mae),
            "m": params["m"]}


def _compare_rate(pred: float, meas: dict[str, Any]) -> Verdict:
    z_crit, worst, parts, points = _z_crit(3), 0.0, [], []
    for l in range(3):
        _, _, slope, se = _fit(meas["log_m"], np.log(meas["rel"][:, l]))
        worst = max(worst, abs(slope - pred) / se)
        parts.append(f"l={l}: slope {slope:.2f}±{se:.2f}")
        points += _slope_points(f"relative residual, l = {l}", meas["log_m"], meas["rel"][:, l],
                                slope, se, pred, z_crit * se)
    largest = meas["rel"][meas["log_m"] == meas["log_m"].max()].mean(axis=0)
    return Verdict("pass" if worst <= z_crit else "fail",
                   f"relative residual ∝ m^{pred}",
                   "; ".join(parts) + f"; residual at m = {max(meas['m'])}: "
                   + ", ".join(f"{r:.3f}" for r in largest), f"|z| <= {z_crit:.2f}",
                   points=tuple(points))


def _slope_points(name: str, log_m: np.ndarray, y: np.ndarray, slope: float, se: float,
                  pred: float | None, band: float | None, rule: str = "") -> list[Point]:
    """The data of a log-log fit (y per draw against m) and its slope against ``pred`` within
    ``band`` (``pred``/``band`` None: the rule is not an interval, ``rule`` names it)."""
    data = [Point(f"{name}, m = {round(math.exp(x))}", float(v), x=float(round(math.exp(x))),
                  x_label="m", series=f"{name} (per draw)") for x, v in zip(log_m, y, strict=True)]
    return [*data, Point(f"log-log slope, {name}", slope, pred, se, band,
                         series="log-log slope" + rule)]


def _compare_decrease(pred: float, meas: dict[str, Any]) -> Verdict:
    """pass: every slope is below 0 by z·SE; fail: a slope that does not exclude 0 and is above
    the predicted rate ``pred`` (−1/2) by more than z·SE (no decrease at the predicted rate);
    inconclusive otherwise: a slope consistent with −1/2 whose standard error is too large at
    this size to exclude 0 (a lack of power, not evidence against the claim)."""
    z_crit, parts, slopes, points = _z_crit(3), [], [], []
    for l in range(3):
        _, _, slope, se = _fit(meas["log_m"], np.log(meas["mae"][:, l]))
        slopes.append((l, slope, se))
        parts.append(f"l={l}: {slope:.2f}±{se:.2f}")
        # qualitative (a sign): no predicted value, the series states the rule
        points += _slope_points(f"MAE, l = {l}", meas["log_m"], meas["mae"][:, l], slope, se,
                                None, None, f" (pass: slope + {z_crit:.2f}·SE < 0)")
    undecided = [(l, slope, se) for l, slope, se in slopes if slope + z_crit * se >= 0]
    refuted = [l for l, slope, se in undecided if slope - z_crit * se > pred]
    status: Status = "fail" if refuted else "inconclusive" if undecided else "pass"
    reason = ""
    if undecided and not refuted:
        reason = "; ".join(
            f"l={l}: slope {slope:.2f}±{se:.2f} is negative but within {z_crit:.2f}·SE of 0 "
            f"(deciding needs SE < {abs(slope) / z_crit:.2f})" for l, slope, se in undecided)
        reason += (" — too few seeds/widths at this size to exclude a flat MAE; the m^(−1/2) "
                   "rate itself is checked by fisher.eigenfunctions; the large size decides")
    return Verdict(status, "MAE decreasing in m (slope < 0)",
                   "log-log slopes " + "; ".join(parts),
                   f"pass: slope + {z_crit:.2f}·SE < 0; fail: also slope − {z_crit:.2f}·SE > "
                   f"{pred}",
                   reason=reason, points=tuple(points))


# --------------------------------------------------------------------------- orthogonality


def _predict_gram(params: Mapping[str, Any]) -> list[list[float]]:
    _, G = theory.eigenfunction_gram(params["d"])
    return [[float(v) for v in row] for row in G]


def _sim_gram(params: Mapping[str, Any], seed: int) -> dict[str, Any]:
    x = seeding.rng(seed, GRAM).standard_normal((params["n_gram"], params["d"]))
    F = sim.paper_functions(x)
    prods = F[:, :, None] * F[:, None, :]
    return {"mean": prods.mean(axis=0), "se": prods.std(axis=0, ddof=1) / math.sqrt(len(F))}


def _compare_gram(pred: list[list[float]], meas: dict[str, Any]) -> Verdict:
    P = np.array(pred)
    iu = np.triu_indices_from(P)
    z = np.abs(meas["mean"][iu] - P[iu]) / np.maximum(meas["se"][iu], 1e-300)
    z_crit = _z_crit(len(z))
    off = P[0, 3] / math.sqrt(P[0, 0] * P[3, 3])
    # one point per Gram entry (upper triangle): Monte-Carlo mean ± SE against the exact value
    points = tuple(Point(f"G[{i},{j}]", float(meas["mean"][i, j]), float(P[i, j]),
                         float(meas["se"][i, j]), z_crit * float(meas["se"][i, j]))
                   for i, j in zip(*iu, strict=True))
    return Verdict("pass" if z.max() <= z_crit else "fail",
                   f"exact Gram (e.g. cos(‖x‖, x_1²/‖x‖) = {off:.4f}; corrected form ⟂ ‖x‖)",
                   f"max |z| = {z.max():.2f} over {len(z)} entries", f"|z| <= {z_crit:.2f}",
                   points=points)


def residuals_vs_m(d: int, widths: tuple[int, ...], seeds: int = 2, n_test: int = 2000,
                   seed: int = 0) -> dict[str, Any]:
    """Relative L2 residual and MAE of the cluster-l network outputs (l = 0, 1, 2) against
    the predicted function spaces, for each width and seed (public API for figures/notebooks)."""
    return _sim_residuals({"d": d, "m": widths, "seeds": seeds, "n_test": n_test}, seed)


def spectrum_sample(d: int, m: int, seed: seeding.SeedLike = 0) -> dict[str, Any]:
    """A simulated spectrum (:func:`fltheory.papers.fisher.sim.sample` at ``seed``) with the
    predicted
    levels and multiplicities l = 0..4, for figures."""
    s = sim.sample(d, m, seed)
    levels = theory.spectrum(d, 4, 20)
    return {"d": d, "m": m, "eigenvalues": s.eigenvalues,
            "levels": [(lev.l, float(lev.value), lev.multiplicity) for lev in levels]}


# --------------------------------------------------------------------------- one simulation


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
    sim.check_sample(d, m, seed)
    check_cost(f"m = {m}", 2.0 * d * m * m + 8.0 * m**3, MAX_FLOPS, "floating-point operations",
               "lower m (or d): the cost is 2·d·m² + 8·m³")
    if progress is not None:
        progress(f"sampling W ({d}×{m}), building J, eigendecomposing ...")
    s = sim.sample(d, m, seed)
    return ClusterComparison(d, m, seed, tuple(theory.spectrum(d, 2, 20)),
                             sim.cluster_summary(s.eigenvalues, 3))


_FIT_WHY = ("finite-size scaling: y(m) = a + b/m fitted over the width grid and seeds; the "
            "extrapolated a is compared with the m → ∞ value, |z| = |a − pred|/SE(a), with a "
            "Bonferroni bound for a family-wise false alarm of 1e-3")
_SMALL = {"d": 5, "m": (500, 1000, 2000), "seeds": 4, "n_test": 2000, "n_gram": 200_000}
_LARGE = {"d": 10, "m": (1000, 2000, 4000), "seeds": 8, "n_test": 4000, "n_gram": 2_000_000}
_SOURCE = "Takeishi et al. line; exact spectrum: fltheory.papers.fisher.theory"


def _simulated_at(size: Mapping[str, Any]) -> str:
    """What a simulation of this paper covers: J of m random ReLU features in dimension d,
    m = first…last, with the number of independent draws per width."""
    m = size["m"]
    return f"d = {size['d']}, m = {m[0]}…{m[-1]}, {size['seeds']} draws per m"


#: appended to each statement: the sizes the verdict rests on (small: CI; large: -m slow)
_AT = f" (simulated: {_simulated_at(_SMALL)}; large size {_simulated_at(_LARGE)})"

CLAIMS = [
    Claim("fisher.eigenvalues",
          "cluster means of J's spectrum → λ_l(d) (exact Funk–Hecke), l = 0, 1, 2" + _AT,
          _levels, _sim_cluster_means, _compare_eigenvalues, _FIT_WHY, {"small": _SMALL,
                                                                          "large": _LARGE},
          source=_SOURCE),
    Claim("fisher.multiplicities",
          "the three leading clusters have sizes 1, d, d(d+1)/2 − 1" + _AT,
          _predict_multiplicities, _sim_sizes, _compare_sizes,
          "cluster sizes are integers: equality at every width and seed (clusters split where "
          "consecutive eigenvalues differ by a factor > 1.3)",
          {"small": _SMALL, "large": _LARGE}, source=_SOURCE),
    Claim("fisher.trace_share",
          "share of trace J in the three leading clusters (m-independent in the limit)" + _AT,
          _predict_share, _sim_share, _compare_share, _FIT_WHY,
          {"small": _SMALL, "large": _LARGE}, source=_SOURCE),
    Claim("fisher.eigenfunctions",
          "network outputs of cluster-l eigenvectors converge to ‖x‖, x_a, x_ax_b/‖x‖ and "
          "x_c²/‖x‖ − ‖x‖/d" + _AT,
          lambda params: -0.5, _sim_residuals, _compare_rate,
          "the residual after projecting f_v on the predicted space is a finite-m fluctuation "
          "(an average over m random features, and an eigenvector perturbation of the same "
          "order), so it falls as m^(−1/2) (CLT); the log-log slope over widths and seeds is "
          "compared with −1/2 within a Bonferroni z-bound; a wrong space would plateau (slope 0)",
          {"small": _SMALL, "large": _LARGE}, source=_SOURCE),
    Claim("fisher.orthogonality",
          "E_x-Gram matrix of the paper's functions (exact sphere moments) matches Monte Carlo",
          _predict_gram, _sim_gram, _compare_gram,
          "each Monte-Carlo Gram entry has z = (mean − exact)/SE ≈ N(0, 1); Bonferroni bound for "
          "a family-wise false alarm of 1e-3",
          {"small": _SMALL, "large": _LARGE}, source=_SOURCE),
    Claim("fisher.error_decreases_with_m",
          "the mean absolute error between f_v and its projection falls as m grows" + _AT,
          lambda params: -0.5, _sim_residuals, _compare_decrease,
          "log-log slope of the MAE against m, over widths and seeds: pass when it is negative "
          "by more than a Bonferroni z-bound times its standard error, fail when it does not "
          "exclude 0 and is above the rate −1/2 by as much, inconclusive in between (at the "
          "small size the single eigenvector of cluster l = 0 gives SE ≈ 0.15–0.2 for a slope "
          "of −1/2, so about half the seeds cannot exclude 0 — measured over seeds 0–5)",
          {"small": _SMALL, "large": _LARGE}, source=_SOURCE),
]


# -- the sweep task's check ------------------------------------------------------------------


def check_clusters_task(v: dict[str, Any]) -> None:
    """The check of the sweep task ``fisher.clusters`` (:func:`sim.clusters_task
    <fltheory.papers.fisher.sim.clusters_task>`): m at least the number of eigenvalues of the
    three leading clusters (the theory's multiplicities), and the run's cost against the
    sweep's bound."""
    d, m = int(v["d"]), int(v["m"])
    # the three leading clusters' eigenvalues
    need = sum(theory.multiplicity(d, l) for l in range(3))
    if m < need:  # fewer features than the three clusters' eigenvalues: the clusters are not there
        raise DomainError("m", m, f"m >= 1 + d + N(d, 2) = {need} at d = {d}",
                          reason="is fewer than the three leading clusters' eigenvalues")
    # m × m eigendecomposition: measured 0.43 s at m = 1000, 3.4 s at 2000, 35 s at 4000 (∝ m³);
    # J from W (d × m): d·m² multiply-adds
    run_cost(f"m = {m}", 6e-10 * m**3 + 1e-9 * d * m**2, "lower m (or d)")
