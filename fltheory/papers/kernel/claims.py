"""Claims of the kernel paper: predictions (exact spectra, eigenlearning curves, the
polynomial-regime limit, the proportional ridge risk) against real kernel and ridge regression.

Finite-size effects are measured, not hidden in tolerances: a quantity y measured at several
sizes is fitted as y = a + b·x (x = 1/n, 1/d or n^(−1/2), stated per claim) over draws, and the
extrapolated a is compared with the prediction within a Bonferroni z-bound on its standard error.
Where the learning curve is not exact at the sizes simulated (d = 3 without noise), the claim
says so and registers the size of the miss.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from fltheory.claims.registry import Claim, Point, Status, Verdict
from fltheory.claims.stats import linear_fit, z_crit
from fltheory.papers.kernel.params import KernelSpec, RandomFeatures, Ridge
from fltheory.papers.kernel.runs import gram_run, krr_run, rf_run, ridge_run
from fltheory.papers.kernel.theory import staircase

__all__ = ["CLAIMS", "clear_cache"]

_SOURCE = ("Bordelon, Canatar & Pehlevan 2020; Simon, Dickens, Karkada & DeWeese 2023; "
           "Bach 2017; Bietti & Mairal 2019")


def _spec(text: str) -> KernelSpec:
    """Claim kernels by name: 'relu-ntk', 'relu-nngp', 'tanh-nngp', or an expression in t."""
    if text.endswith(("-ntk", "-nngp")):
        activation, kind = text.rsplit("-", 1)
        return KernelSpec(activation=activation, kind=kind)
    return KernelSpec(kernel=text)


@lru_cache(maxsize=16)
def _gram_cached(kernel: str, d: int, ns: tuple[int, ...], seeds: int, seed: int) -> Any:
    return gram_run(_spec(kernel), d, ns, seeds, seed=seed)


def clear_cache() -> None:
    """Forget cached simulations (tests use it to check reproducibility for real)."""
    _gram_cached.cache_clear()


# --------------------------------------------------------------------------- Gram levels


def _gram_predict(p: Mapping[str, Any]) -> list[tuple[str, int, tuple[int, ...],
                                                       tuple[float, ...]]]:
    out = []
    for kernel, d in p["kernels"]:
        run = _gram_cached(kernel, d, tuple(p["n"]), p["seeds"], 0)
        out.append((kernel, d, run.multiplicities, run.predicted))
    return out


def _gram_simulate(p: Mapping[str, Any], seed: int) -> list[Any]:
    return [_gram_cached(kernel, d, tuple(p["n"]), p["seeds"], seed)
            for kernel, d in p["kernels"]]


def _gram_compare(pred: list[Any], runs: list[Any]) -> Verdict:
    # each block mean of the eigenvalues of K/n is fitted as a + b/n over the sizes and draws;
    # a must equal μ_k within z standard errors (Bonferroni over every block of every kernel)
    tests = sum(len(run.degrees) for run in runs)
    z = z_crit(tests)
    points, worst, parts = [], 0.0, []
    for (kernel, d, mults, predicted), run in zip(pred, runs, strict=True):
        for j, (k, mult, mu) in enumerate(zip(run.degrees, mults, predicted, strict=True)):
            a, se, _, _ = linear_fit(run.inv_n, run.means[:, j])
            dev = abs(a - mu) / se
            worst = max(worst, dev)
            parts.append(f"{kernel} d={d} k={k} (×{mult}): {a:.6g}±{se:.2g} vs {mu:.6g}")
            points.append(Point(f"{kernel}, d = {d}, k = {k}", a, mu, se, z * se,
                                series=f"{kernel} d={d}",
                                quantity="n → ∞ block mean of the eigenvalues of K/n"))
    ok = worst <= z
    return Verdict("pass" if ok else "fail", "μ_k (multiplicity N(d, k))",
                   "; ".join(parts), f"|a − μ_k| <= {z:.2f} SE (Bonferroni over {tests})",
                   reason=f"largest deviation {worst:.2f} SE", points=tuple(points))


# --------------------------------------------------------------------------- curves


def _prop_simulate(p: Mapping[str, Any], seed: int) -> list[Any]:
    return [krr_run(_spec(p["kernel"]), d, p["psi"] * d, p["ridge"], p["noise"],
                    {p["degree"]: 1}, p["seeds"], seed=seed, n_test=p["n_test"])
            for d in p["d"]]


def _prop_compare(_: Any, runs: list[Any]) -> Verdict:
    # relative deviation δ = measured/predicted − 1 per size, fitted as a + b n^(−1/2)
    # (deterministic-equivalent errors are O(n^(−1/2)) at most: Cheng & Montanari 2022,
    # Misiakiewicz & Saeed 2024); a = 0 within z SE means the curve is the n → ∞ limit
    x = np.array([r.n ** -0.5 for r in runs for _ in r.draws])
    y = np.array([v / r.predicted - 1 for r in runs for v in r.draws])
    a, se, b, _ = linear_fit(x, y)
    z = z_crit(1)
    ok = abs(a) <= z * se
    points = [Point(f"d = {r.d}, n = {r.n}", r.ratio - 1, 0.0, r.measured_se / r.predicted,
                    None, r.n ** -0.5, "n^(−1/2)", "per size",
                    "relative deviation of KRR from the curve")
              for r in runs]
    points.append(Point("n → ∞ (fit)", a, 0.0, se, z * se, 0.0, "n^(−1/2)", "fit",
                        "relative deviation of KRR from the curve"))
    shown = ", ".join(f"d={r.d}: {r.ratio - 1:+.3f}±{r.measured_se / r.predicted:.3f}"
                      for r in runs)
    return Verdict("pass" if ok else "fail", "0 (the curve is the limit)",
                   f"{a:+.4f}±{se:.4f} (per size: {shown})", f"|a| <= {z:.2f} SE",
                   reason=f"slope b = {b:+.3g}", points=tuple(points))


def _small_d_simulate(p: Mapping[str, Any], seed: int) -> list[Any]:
    return [krr_run(_spec(p["kernel"]), p["d"], n, p["ridge"], 0, {p["degree"]: 1},
                    p["seeds"], seed=seed, n_test=p["n_test"]) for n in p["n"]]


def _small_d_compare(_: Any, runs: list[Any]) -> Verdict:
    # the registered miss: at every n the geometric mean of measured/predicted over draws
    # exceeds 1 by more than z SE of log(ratio) (the error of one draw is positive and
    # right-skewed: its logarithm is the near-Gaussian quantity, so the test is on it)
    z = z_crit(len(runs))
    stats = []
    for r in runs:
        logs = np.log(np.array(r.draws) / r.predicted)
        stats.append((float(logs.mean()), float(logs.std(ddof=1) / np.sqrt(len(logs)))))
    missed = [m > z * s for m, s in stats]
    # the registered miss is refuted where the ratio is confidently below 5/4
    refuted = [m + z * s < np.log(1.25) for m, s in stats]
    status: Status = "pass" if all(missed) else "fail" if any(refuted) else "inconclusive"
    points = tuple(Point(f"n = {r.n}", m, 0.0, s, None, float(r.n), "n", "d = 3, noiseless",
                         "log(KRR error / curve)") for r, (m, s) in zip(runs, stats,
                                                                        strict=True))
    shown = ", ".join(f"n={r.n}: ×{np.exp(m):.2f} (log {m:+.2f}±{s:.2f})"
                      for r, (m, s) in zip(runs, stats, strict=True))
    reason = {"pass": "the eigenlearning curve underestimates noiseless KRR at d = 3 at every "
                      "n simulated",
              "fail": "the ratio is confidently below 5/4 at some n: no miss there",
              "inconclusive": "the miss is not significant at some n with these draws"}[status]
    return Verdict(status, "ratio > 1 (the curve underestimates)", shown,
                   f"mean log ratio > {z:.2f} SE at every n (refuted below log 5/4)",
                   reason=reason, points=points)


def _stair_predict(p: Mapping[str, Any]) -> float:
    energies = {int(k): float(Fraction(e)) for k, e in p["energies"].items()}
    return staircase(_spec(p["kernel"]), 1, [float(p["psi"])], 0.0, energies, 0.0).error[0]


def _stair_simulate(p: Mapping[str, Any], seed: int) -> list[Any]:
    return [krr_run(_spec(p["kernel"]), d, p["psi"] * d, 0, 0, dict(p["energies"]),
                    p["seeds"], seed=seed, n_test=p["n_test"]) for d in p["d"]]


def _stair_compare(limit: float, runs: list[Any]) -> Verdict:
    # error at n = ψd fitted as a + b/d over sizes and draws (the degree-2 modes start being
    # learned at n ~ d², so the finite-d correction is O(ψ/d)); a against the d → ∞ limit
    x = np.array([1 / r.d for r in runs for _ in r.draws])
    y = np.array([v for r in runs for v in r.draws])
    a, se, b, _ = linear_fit(x, y)
    z = z_crit(1)
    ok = abs(a - limit) <= z * se
    points = [Point(f"d = {r.d}", r.measured, r.predicted, r.measured_se, None, 1 / r.d, "1/d",
                    "KRR at n = ψd (vs finite-d curve)", "test error") for r in runs]
    points.append(Point("d → ∞ (fit)", a, limit, se, z * se, 0.0, "1/d", "limit",
                        "test error"))
    shown = ", ".join(f"d={r.d}: {r.measured:.4f}±{r.measured_se:.4f} (curve {r.predicted:.4f})"
                      for r in runs)
    return Verdict("pass" if ok else "fail", f"{limit:.5f} (d → ∞ plateau)",
                   f"{a:.5f}±{se:.5f}; {shown}", f"|a − limit| <= {z:.2f} SE",
                   reason=f"slope b = {b:+.3g} (finite-d approach)", points=tuple(points))


# --------------------------------------------------------------------------- ridge


def _ridge_predict(p: Mapping[str, Any]) -> list[float]:
    return [ridge_run(Ridge(g, p["signal"], p["noise"], lam), (), 0).predicted
            for g, lam in p["cases"]]


def _ridge_simulate(p: Mapping[str, Any], seed: int) -> list[Any]:
    return [ridge_run(Ridge(g, p["signal"], p["noise"], lam), p["n"], p["draws"], seed)
            for g, lam in p["cases"]]


def _ridge_compare(pred: list[float], runs: list[Any]) -> Verdict:
    # risk per draw fitted as a + b/n over sizes and draws (finite-n corrections of the
    # Marchenko–Pastur resolvent are O(1/n)); a against the proportional limit, Bonferroni
    z = z_crit(len(runs))
    points, parts, worst = [], [], 0.0
    for value, run in zip(pred, runs, strict=True):
        x = np.repeat([1 / n for n in run.n], run.risks.shape[1])
        a, se, _, _ = linear_fit(x, run.risks.ravel())
        worst = max(worst, abs(a - value) / se)
        q = run.question
        label = f"γ={q.gamma}, λ={'λ*' if q.ridge == 'optimal' else q.ridge}"
        parts.append(f"{label}: {a:.4f}±{se:.4f} vs {value:.4f}")
        points.append(Point(label, a, value, se, z * se, quantity="n → ∞ risk"))
    ok = worst <= z
    return Verdict("pass" if ok else "fail", "Hastie et al. 2022 limit", "; ".join(parts),
                   f"|a − R| <= {z:.2f} SE (Bonferroni over {len(runs)})",
                   reason=f"largest deviation {worst:.2f} SE", points=tuple(points))


# --------------------------------------------------------------------------- random features


def _rf_question(case: tuple[Any, ...], p: Mapping[str, Any]) -> RandomFeatures:
    activation, psi1, psi2, lam = case
    return RandomFeatures(activation, psi1, psi2, lam, p["signal"], 0, p["noise"])


def _rf_predict(p: Mapping[str, Any]) -> list[tuple[float, float]]:
    runs = [rf_run(_rf_question(c, p), (), 0, 1) for c in p["cases"]]
    return [(r.predicted, r.kernel_limit) for r in runs]


def _rf_simulate(p: Mapping[str, Any], seed: int) -> list[Any]:
    return [rf_run(_rf_question(c, p), p["d"], p["draws"], p["n_test"], seed)
            for c in p["cases"]]


def _rf_compare(pred: list[tuple[float, float]], runs: list[Any]) -> Verdict:
    # the clean test error per draw fitted as a + b/d over widths and draws (N and n grow with
    # d at fixed ψ_1, ψ_2: the mean's finite-size correction is O(1/d)); a against the limit,
    # Bonferroni over the cases. Power: a's distance from the ψ_1 → ∞ (kernel) limit, in SE
    z = z_crit(len(runs))
    points, parts, worst, power = [], [], 0.0, math.inf
    for (value, wide), run in zip(pred, runs, strict=True):
        x = np.repeat([1 / d for d in run.d], run.risks.shape[1])
        a, se, _, _ = linear_fit(x, run.risks.ravel())
        worst = max(worst, abs(a - value) / se)
        power = min(power, abs(wide - value) / se)
        q = run.question
        label = f"{q.activation}, ψ1={q.psi1}, ψ2={q.psi2}, λ={q.ridge}"
        parts.append(f"{label}: {a:.4f}±{se:.4f} vs {value:.4f} (ψ1 → ∞: {wide:.4f})")
        for d, row in zip(run.d, run.risks, strict=True):
            points.append(Point(f"{label}, d = {d}", float(row.mean()), value,
                                float(row.std(ddof=1) / math.sqrt(len(row))), None, 1 / d,
                                "1/d", label, "clean test error"))
        points.append(Point(f"{label}, d → ∞ (fit)", a, value, se, z * se, 0.0, "1/d", label,
                            "clean test error"))
    state: Status = "pass" if worst <= z else "fail"
    return Verdict(state, "Mei & Montanari 2019 limit (as transcribed)", "; ".join(parts),
                   f"|a − R| <= {z:.2f} SE (Bonferroni over {len(runs)})",
                   reason=f"largest deviation {worst:.2f} SE; the ψ1 → ∞ limit lies at least "
                          f"{power:.1f} SE from the prediction (the test's power against a "
                          "width-blind formula)", points=tuple(points))


def _describe(pred: Any) -> str:
    return str(pred)[:200]


CLAIMS = [
    Claim(
        id="kernel.gram_levels",
        statement="the top eigenvalues of K/n (K_ij = κ(x_i·x_j), x_i uniform on S^{d−1}) "
                  "fall into blocks of N(d, k) whose means tend to the exact μ_k as n → ∞ "
                  "(ReLU NNGP at d = 3; large size adds exp(2t − 2) at d = 5 and the tanh "
                  "NNGP at d = 4)",
        predict=_gram_predict, simulate=_gram_simulate, compare=_gram_compare,
        why="block means are unbiased for μ_k up to O(1/n) (the addition theorem makes each "
            "level's own trace exactly μ_k N(d, k); mixing with other levels is second order): "
            "fitted a + b/n over sizes and draws, a within a Bonferroni z-bound of its SE",
        sizes={"small": {"kernels": (("relu-nngp", 3),), "n": (200, 400, 800), "seeds": 4},
               "large": {"kernels": (("relu-nngp", 3), ("exp(2*t - 2)", 5),
                                     ("tanh-nngp", 4)),
                         "n": (400, 800, 1600, 3200), "seeds": 6}},
        source="Funk–Hecke; Cho & Saul 2009 (arc-cosine kernels); Koltchinskii & Giné 2000 "
               "(Gram spectra converge to the operator's)",
        describe=_describe),
    Claim(
        id="kernel.curve_proportional",
        statement="with noisy labels (σ = 1/2) in the proportional regime n = 4d, the test "
                  "error of ridgeless kernel regression (ReLU NTK, target of unit norm in "
                  "degree 1) tends to the eigenlearning curve on the exact spectrum: the "
                  "relative deviation extrapolates to 0 as n → ∞",
        predict=lambda p: 0.0, simulate=_prop_simulate, compare=_prop_compare,
        why="each size's mean over draws has an SE from the draws; the relative deviation is "
            "fitted as a + b n^(−1/2) (deterministic equivalents are accurate to O(n^(−1/2))) "
            "and a must be 0 within z SE; measured: a few % at n = 40 … 640, within the SE",
        sizes={"small": {"kernel": "relu-ntk", "psi": 4, "degree": 1, "ridge": 0,
                         "noise": Fraction(1, 2), "d": (10, 20, 40), "seeds": 16,
                         "n_test": 2000},
               "large": {"kernel": "relu-ntk", "psi": 4, "degree": 1, "ridge": 0,
                         "noise": Fraction(1, 2), "d": (10, 20, 40, 80, 160), "seeds": 24,
                         "n_test": 4000}},
        source="Bordelon, Canatar & Pehlevan 2020 (Sec. 3); Simon et al. 2023 (Sec. 4)",
        describe=_describe),
    Claim(
        id="kernel.curve_small_d",
        statement="where the curve is not exact: at d = 3 without label noise, ridgeless KRR "
                  "with the ReLU NTK on a degree-2 target has more error than the "
                  "eigenlearning curve predicts at every n simulated: about 1.6–1.9 times as "
                  "much at n = 200 … 1000 (measured), 1.4 times at n = 3000 (large size); "
                  "degree-1 targets: about 0.6 times",
        predict=lambda p: 1.0, simulate=_small_d_simulate, compare=_small_d_compare,
        why="registers the part of the curve that fails: the mean of log(error/curve) over "
            "draws (the error of one draw is right-skewed; its log is near Gaussian) must "
            "exceed the Bonferroni z-bound of its SE at every n (fail: a ratio confidently "
            "below 5/4 somewhere; inconclusive otherwise); the curve assumes many modes near "
            "the cut-off (d = 3 has 2k + 1 per degree)",
        sizes={"small": {"kernel": "relu-ntk", "d": 3, "degree": 2, "ridge": 0,
                         "n": (200, 800), "seeds": 16, "n_test": 2000},
               "large": {"kernel": "relu-ntk", "d": 3, "degree": 2, "ridge": 0,
                         "n": (300, 1000, 3000), "seeds": 24, "n_test": 4000}},
        source="Simon et al. 2023 (the eigenlearning equations); this simulation",
        describe=_describe),
    Claim(
        id="kernel.staircase",
        statement="the plateau between degrees 1 and 2 is the polynomial-regime limit: at "
                  "n = ψd (ψ = 4), target energy 1/2 in degrees 1 and 2, ReLU NTK, the KRR "
                  "error tends as d → ∞ to the limit of the eigenlearning equations "
                  "(α = ψ, effective ridge R_1/b_1)",
        predict=_stair_predict, simulate=_stair_simulate, compare=_stair_compare,
        why="the finite-d correction is O(1/d) (degree-2 learnability ≈ 2b_2 n/(d² R_1) at "
            "n = ψd): the draws are fitted as a + b/d and a must match the limit within z SE; "
            "at these d the curve shows a shoulder, not yet a flat plateau",
        sizes={"small": {"kernel": "relu-ntk", "psi": 4, "energies": {1: "1/2", 2: "1/2"},
                         "d": (25, 50, 100), "seeds": 8, "n_test": 3000},
               "large": {"kernel": "relu-ntk", "psi": 4, "energies": {1: "1/2", 2: "1/2"},
                         "d": (25, 50, 100, 200, 400), "seeds": 12, "n_test": 4000}},
        source="Misiakiewicz 2022; Hu & Lu 2022; Xiao et al. 2022; the limit of the "
               "eigenlearning equations",
        describe=_describe),
    Claim(
        id="kernel.ridge_proportional",
        statement="ridge regression with isotropic Gaussian features has the proportional-"
                  "regime risk of Hastie et al. (2022): at the optimal λ* = γσ²/r² and "
                  "ridgeless on both sides of the peak (γ = 1/2 and 2, r² = σ² = 1)",
        predict=_ridge_predict, simulate=_ridge_simulate, compare=_ridge_compare,
        why="risk per draw fitted as a + b/n over sizes and draws (resolvent corrections are "
            "O(1/n)); a within a Bonferroni z-bound of its SE",
        sizes={"small": {"cases": (("1/2", "optimal"), ("2", "optimal"), ("1/2", 0), ("2", 0)),
                         "signal": 1, "noise": 1, "n": (100, 200, 400), "draws": 24},
               "large": {"cases": (("1/2", "optimal"), ("2", "optimal"), ("1/2", 0), ("2", 0),
                                   ("1/4", "1/10")),
                         "signal": 1, "noise": 1, "n": (200, 400, 800, 1600), "draws": 40}},
        source="Hastie, Montanari, Rosset & Tibshirani 2022 (Thms. 1–2); Dobriban & Wager 2018",
        describe=_describe),
    Claim(
        id="kernel.rf",
        statement="random-features ridge regression (x and θ_a uniform on the sphere of radius "
                  "√d, N = ψ1·d features σ(θ·x/√d) with E σ(G)² = 1, n = ψ2·d samples of a "
                  "linear target ‖β‖² = 1 with label noise 1/2) has Mei & Montanari's "
                  "proportional test error: the clean error per draw, fitted as a + b/d over "
                  "d = 50…200 (large 100…800), extrapolates to the limit for ReLU at ψ1 = 2, "
                  "ψ2 = 3, λ = 1/10 (over-parametrised) and tanh at ψ1 = 1/2, ψ2 = 2, "
                  "λ = 1/20 (fewer features than samples)",
        predict=_rf_predict, simulate=_rf_simulate, compare=_rf_compare,
        why="the mean error of random-matrix regression has O(1/d) finite-size corrections at "
            "fixed ψ1, ψ2 (measured: at d = 100…800, 32 draws, every mean within 2 SE of the "
            "limit); a within a Bonferroni z-bound of its SE; the reason states the distance "
            "of the ψ1 → ∞ kernel limit, which a formula blind to the width would give",
        sizes={"small": {"cases": (("relu", 2, 3, Fraction(1, 10)),
                                   ("tanh", Fraction(1, 2), 2, Fraction(1, 20))),
                         "signal": 1, "noise": Fraction(1, 2), "d": (50, 100, 200),
                         "draws": 16, "n_test": 2000},
               "large": {"cases": (("relu", 2, 3, Fraction(1, 10)),
                                   ("tanh", Fraction(1, 2), 2, Fraction(1, 20)),
                                   ("relu", Fraction(1, 2), 2, Fraction(1, 20))),
                         "signal": 1, "noise": Fraction(1, 2), "d": (100, 200, 400, 800),
                         "draws": 32, "n_test": 2000}},
        source="Mei & Montanari 2019 (arXiv:1908.05355; our transcription, checked against "
               "two public transcriptions and the ψ1 → ∞ limit)",
        describe=_describe),
]
