"""Claims of the spectral-threshold kit: BBP outliers and overlaps of sampled spiked Wigner and
Wishart matrices, and the overlap of the phase-retrieval spectral estimator with the optimal
preprocessing, each against the formulas of :mod:`fltheory.engine.spectral`.

Finite-N effects are handled by finite-size scaling, not by wide tolerances: each quantity y(N)
(one value per sampled matrix) is fitted as y = a + b/N over a grid of sizes, and the
extrapolated a is compared with the N → ∞ prediction within a Bonferroni z-bound on its standard
error. The fitted b (the direction and size of the finite-N correction) is reported as measured.
The sampling and the fit are the runs' (:mod:`fltheory.papers.spectral.runs`)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.registry import Claim, Point, Status, Verdict
from fltheory.claims.stats import z_crit
from fltheory.papers.spectral.params import Spikes
from fltheory.papers.spectral.runs import fit_quantity, measure

__all__ = ["CLAIMS", "clear_cache"]


def clear_cache() -> None:
    """Nothing is cached (kept for the registry's interface)."""


def _predict_spikes(kind: str) -> Any:
    def predict(params: Mapping[str, Any]) -> list[tuple[float, float, float]]:
        from fltheory.engine.spectral.bulks import MarchenkoPastur
        from fltheory.papers.spectral.theory import spike_query

        out = []
        for q in params["strengths"]:
            if kind == "wigner":
                s = spike_query(Spikes(theta=[q]))[0]
            else:
                s = spike_query(Spikes(ell=[q]), MarchenkoPastur(params["gamma"]))[0]
            out.append((float(q), float(s.outlier), float(s.overlap)))
        return out
    return predict


def _simulate_spikes(kind: str) -> Any:
    def simulate(params: Mapping[str, Any], seed: int) -> list[dict[str, np.ndarray]]:
        return [measure(kind, params, float(q), seed) for q in params["strengths"]]
    return simulate


def _compare_spikes(pred: list[tuple[float, float, float]], meas: list[dict[str, np.ndarray]]
                    ) -> Verdict:
    zc = z_crit(2 * len(pred))
    worst, parts, points = 0.0, [], []
    for (q, outlier, overlap), m in zip(pred, meas, strict=True):
        for name, y, p in (("outlier", m["eigenvalue"], outlier),
                           ("squared overlap", m["overlap"], overlap)):
            z, text, pts = fit_quantity(f"{name} at strength {q:g}", m["inv_n"], y, p, zc)
            worst = max(worst, z)
            parts.append(text)
            points += pts
    return Verdict("pass" if worst <= zc else "fail",
                   "; ".join(f"strength {q:g}: outlier {o:.5g}, overlap {v:.5g}"
                             for q, o, v in pred),
                   "; ".join(parts) + f"; max |z| = {worst:.2f}", f"|z| <= {zc:.2f}",
                   points=tuple(points))


# --------------------------------------------------------------------------- phase retrieval


def _predict_phase(params: Mapping[str, Any]) -> list[tuple[float, float]]:
    from fltheory.engine.spectral.links import link_overlap

    return [(a, link_overlap("z**2", "optimal", a).rho2) for a in params["alphas"]]


def _simulate_phase(params: Mapping[str, Any], seed: int) -> list[dict[str, np.ndarray]]:
    return [measure("phase", params, a, seed) for a in params["alphas"]]


def _compare_phase(pred: list[tuple[float, float]], meas: list[dict[str, np.ndarray]]
                   ) -> Verdict:
    """Above α_c = 1/2 the extrapolated overlap must match Lu–Li; below it the overlap's N → ∞
    fit must be consistent with 0 (the estimator carries no information)."""
    zc = z_crit(len(pred))
    worst, parts, points = 0.0, [], []
    for (alpha, rho2), m in zip(pred, meas, strict=True):
        z, text, pts = fit_quantity(f"squared overlap at α = {alpha:g}", m["inv_n"],
                                    m["overlap"], rho2, zc)
        worst = max(worst, z)
        parts.append(text)
        points += pts
    return Verdict("pass" if worst <= zc else "fail",
                   "; ".join(f"α = {a:g}: ρ² = {r:.5g}" for a, r in pred),
                   "; ".join(parts) + f"; max |z| = {worst:.2f}", f"|z| <= {zc:.2f}",
                   points=tuple(points))


def _compare_below(pred: list[tuple[float, float]], meas: list[dict[str, np.ndarray]]
                   ) -> Verdict:
    """Below α_c: pass when the N → ∞ fit a + b/d of the overlap is consistent with 0; fail when
    the mean overlap does not decrease from the smallest to the largest d (by z·se); else
    inconclusive: the overlap decreases but its finite-d approach is not resolved as 1/d (the
    bulk edge of D sits at ψ(τ), τ = sup T = 1, not at a square-root edge, so no 1/d law is
    known to hold there)."""
    zc = z_crit(2 * len(pred))
    parts: list[str] = []
    points: list[Point] = []
    status: Status = "pass"
    for (alpha, rho2), m in zip(pred, meas, strict=True):
        z, text, pts = fit_quantity(f"squared overlap at α = {alpha:g}", m["inv_n"],
                                    m["overlap"], rho2, zc)
        points += pts
        inv = m["inv_n"]
        small, large = m["overlap"][inv == inv.max()], m["overlap"][inv == inv.min()]
        drop = small.mean() - large.mean()
        se = float(np.hypot(small.std(ddof=1) / np.sqrt(len(small)),
                            large.std(ddof=1) / np.sqrt(len(large))))
        parts.append(f"{text}; mean overlap {small.mean():.4f} at d = {round(1 / inv.max())} → "
                     f"{large.mean():.4f} at d = {round(1 / inv.min())} (drop {drop / se:.1f} se)")
        if drop < -zc * se or (drop <= zc * se and z > zc):
            status = "fail"
        elif z > zc and status == "pass":
            status = "inconclusive"
    reason = ("" if status != "inconclusive" else
              "the overlap decreases with d but its N → ∞ fit a + b/d is not yet consistent "
              "with 0: at this edge (ψ(τ), τ = sup T) the finite-d approach is slower than 1/d "
              "and the CI sizes cannot decide")
    return Verdict(status, "; ".join(f"α = {a:g}: ρ² = {r:.5g}" for a, r in pred),
                   "; ".join(parts), f"|z| <= {zc:.2f} (N → ∞ fit), or a drop over d",
                   reason=reason, points=tuple(points))


_WIGNER_WHY = ("sampled M = W + θe₁e₁ᵀ (GOE W, off-diagonal variance 1/N), eigh at each N; per "
               "θ and N the top eigenvalue and ⟨v₁, e₁⟩² of independent draws, fitted as "
               "a + b/N; a compared with θ + 1/θ and 1 − 1/θ² (Bonferroni over 4 tests)")
_WISHART_WHY = ("sampled S = ZZᵀ/n with the first row of Z scaled by √ℓ (γ = p/n), eigh at each "
                "p; fit a + b/p of the top eigenvalue and of ⟨v₁, e₁⟩², a compared with "
                "ℓ(1 + γ/(ℓ−1)) and (1 − γ/(ℓ−1)²)/(1 + γ/(ℓ−1)) (Paul 2007)")
_PHASE_WHY = ("phase retrieval y = (x·e₁)², T(y) = 1 − 1/y, D = Σ T(y)xxᵀ/n at n = αd; fit a + "
              "b/d of ⟨v₁, e₁⟩² per α, a compared with the Lu–Li overlap of the engine (0 below "
              "α_c = 1/2). α = 1 (twice α_c) is only in the large size: at d <= 800 its overlap "
              "still drifts down with d faster than 1/d (measured 0.27 at d = 200, 0.20±0.02 at "
              "d = 400, 0.22±0.02 at d = 2000 vs Lu–Li 0.2307), so a 1/d fit there is biased. "
              "The transition point itself is not a claim: its finite-d window is wider than "
              "the distance to α_c that the CI sizes could resolve.")

CLAIMS = [
    Claim("spectral.wigner",
          "the top eigenvalue of a spiked Wigner matrix tends to θ + 1/θ and its squared "
          "overlap with the spike to 1 − 1/θ² above θ_c = 1 (BBP)",
          _predict_spikes("wigner"), _simulate_spikes("wigner"), _compare_spikes, _WIGNER_WHY,
          sizes={"small": {"strengths": (Fraction(3, 2), Fraction(3)),
                           "sizes": (250, 500, 1000), "reps": {250: 100, 500: 40, 1000: 10}},
                 "large": {"strengths": (Fraction(3, 2), Fraction(3)),
                           "sizes": (500, 1000, 2000, 4000),
                           "reps": {500: 40, 1000: 20, 2000: 10, 4000: 4}}},
          source="Péché 2006; Benaych-Georges & Nadakuditi 2011 §3.1"),
    Claim("spectral.wishart",
          "the top eigenvalue of a spiked sample covariance (γ = 1/2) tends to ℓ(1 + γ/(ℓ−1)) "
          "and its squared overlap to (1 − γ/(ℓ−1)²)/(1 + γ/(ℓ−1)) above ℓ_c = 1 + √γ",
          _predict_spikes("wishart"), _simulate_spikes("wishart"), _compare_spikes,
          _WISHART_WHY,
          sizes={"small": {"strengths": (Fraction(5, 2), Fraction(4)), "gamma": Fraction(1, 2),
                           "sizes": (200, 400, 800), "reps": {200: 100, 400: 40, 800: 10}},
                 "large": {"strengths": (Fraction(5, 2), Fraction(4)), "gamma": Fraction(1, 2),
                           "sizes": (400, 800, 1600, 3200),
                           "reps": {400: 40, 800: 20, 1600: 10, 3200: 4}}},
          source="Baik, Ben Arous & Péché 2005; Paul 2007, Theorem 4"),
    Claim("spectral.phase_retrieval",
          "above α_c = 1/2 the spectral estimator of real phase retrieval with T*(y) = 1 − 1/y "
          "has the Lu–Li squared overlap",
          _predict_phase, _simulate_phase, _compare_phase, _PHASE_WHY,
          sizes={"small": {"alphas": (2.0, 3.0), "sizes": (200, 400, 800),
                           "reps": {200: 40, 400: 20, 800: 8}},
                 "large": {"alphas": (1.0, 2.0, 3.0), "sizes": (400, 800, 1200),
                           "reps": {400: 60, 800: 30, 1200: 12}}},
          source="Mondelli & Montanari 2018; Luo, Alghamdi & Lu 2019; Lu & Li 2017"),
    Claim("spectral.phase_retrieval_below",
          "below α_c = 1/2 the spectral estimator of real phase retrieval with T*(y) = 1 − 1/y "
          "carries no information (squared overlap → 0)",
          _predict_phase, _simulate_phase, _compare_below, _PHASE_WHY,
          sizes={"small": {"alphas": (0.3,), "sizes": (200, 400, 800, 1600),
                           "reps": {200: 40, 400: 20, 800: 10, 1600: 4}},
                 "large": {"alphas": (0.3,), "sizes": (400, 800, 1600, 3200),
                           "reps": {400: 80, 800: 40, 1600: 16, 3200: 4}}},
          source="Mondelli & Montanari 2018, Theorem 1 (lower bound side of the spectral method)"),
]
