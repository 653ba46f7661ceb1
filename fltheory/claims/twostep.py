"""Claims of the two-step paper (seed 000, Moniri & Hassani 2026)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from fltheory.claims.registry import Claim, Verdict
from fltheory.exact import INF
from fltheory.theory.twostep import lambda_details


def _predict_lambda(params: Mapping[str, Any]) -> int:
    return lambda_details(params["alpha1"], params["alpha2"], params.get("L", INF)).value


def _compare_count(predicted: int, measured: int) -> Verdict:
    return Verdict("pass" if predicted == measured else "fail", str(predicted), str(measured),
                   "exact count equality")


CLAIMS = [
    Claim(
        id="twostep.lambda",
        statement="W2 has 1 + Λ spectral outliers, Λ = min(L − 1, ⌊α2/(1/2 − α1)⌋)",
        source="Moniri & Hassani (2026), main theorem on the second step",
        predict=_predict_lambda,
        simulate=None,
        compare=_compare_count,
        why="an outlier count is an integer: equality or nothing",
        sizes={
            # α1 = 2/5, α2 = 1/4: ratio 5/2, away from the boundary cases (integer ratios).
            "small": {"alpha1": Fraction(2, 5), "alpha2": Fraction(1, 4), "N": 1000},
            "large": {"alpha1": Fraction(2, 5), "alpha2": Fraction(1, 4), "N": 4000},
        },
        pending=("no simulation yet: the two-step simulator comes with the two-step issue; "
                 "outlier counts at feasible N are not expected to show Λ"),
        describe=lambda value: f"Λ = {value}",
    ),
]
