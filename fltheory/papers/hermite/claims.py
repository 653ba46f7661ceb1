"""Claims of the Hermite engine: exact/mpmath coefficients against Monte Carlo."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fltheory.claims.registry import Claim, Point, Verdict
from fltheory.claims.stats import z_crit as _z_crit
from fltheory.papers.hermite.runs import predicted_coefficients, sampled_coefficients
from fltheory.papers.hermite.sim import MonteCarloCoefficients
from fltheory.simkit.seeding import SeedLike

__all__ = ["CLAIMS"]


def _predict(params: Mapping[str, Any]) -> dict[str, list[float]]:
    return predicted_coefficients(params["activations"], params["K"])


def _simulate(params: Mapping[str, Any], seed: SeedLike) -> dict[str, MonteCarloCoefficients]:
    """One independent stream per activation: child i of the seed for activation i."""
    return sampled_coefficients(params["activations"], params["K"], params["n"], seed)


def _compare(predicted: dict[str, list[float]], measured: dict[str, MonteCarloCoefficients]
             ) -> Verdict:
    tests = [(name, k, (mc.mean[k] - predicted[name][k]) / mc.stderr[k])
             for name, mc in measured.items() for k in range(len(predicted[name]))]
    # Bonferroni: each |z| is (asymptotically) standard normal under a correct prediction.
    z_crit = _z_crit(len(tests))
    name, k, worst = max(tests, key=lambda t: abs(t[2]))
    n = next(iter(measured.values())).n
    # one point per (f, k): the Monte-Carlo mean ± SE against μ_k, accepted within z_crit·SE
    points = tuple(Point(f"{f} μ_{j}", float(mc.mean[j]), predicted[f][j], float(mc.stderr[j]),
                         z_crit * float(mc.stderr[j]), float(j), "k", f)
                   for f, mc in measured.items() for j in range(len(predicted[f])))
    return Verdict("pass" if abs(worst) <= z_crit else "fail",
                   f"μ_k, k <= {len(predicted[name]) - 1}, for {len(predicted)} activations",
                   f"max |z| = {abs(worst):.2f} ({name}, μ_{k}; n = {n})",
                   f"|z| <= {z_crit:.2f}", points=points)


CLAIMS = [
    Claim(
        id="hermite.coefficient",
        statement="μ_k = E[f(z) h_k(z)] computed exactly or by mpmath equals its Monte-Carlo mean",
        source="definition μ_k = E[f(z) He_k(z)]/√(k!); the engine's exact and quadrature paths",
        predict=_predict,
        simulate=_simulate,
        compare=_compare,
        why=("z = (Monte-Carlo mean − prediction)/standard error is ≈ N(0, 1) for each (f, k); "
             "the threshold is the Bonferroni bound for a family-wise false alarm of 1e-3 over "
             "all tested coefficients"),
        sizes={
            "small": {"activations": ("relu", "tanh", "sigmoid", "softplus", "gelu", "erf",
                                      "abs", "sign", "He3"), "K": 6, "n": 200_000},
            "large": {"activations": ("relu", "tanh", "sigmoid", "softplus", "gelu", "erf",
                                      "abs", "sign", "He2", "He3", "He4"), "K": 8,
                      "n": 4_000_000},
        },
    ),
]
