"""Both sides of the Hermite paper's question, side by side: the coefficients μ_k of each
activation as the engine computes them (exact or mpmath) and their Monte-Carlo estimates. The
claim (and anyone checking an activation by hand) calls these; neither side is computed
elsewhere."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fltheory.papers.hermite.params import Sample
from fltheory.papers.hermite.sim import MonteCarloCoefficients, sample
from fltheory.papers.hermite.theory import expansion
from fltheory.simkit.seeding import SeedLike, children

__all__ = ["CoefficientCheck", "coefficient_check", "predicted_coefficients",
           "sampled_coefficients"]

#: digits of the predicted coefficients (far below any Monte-Carlo standard error)
DPS = 20


def predicted_coefficients(names: Sequence[str], K: int) -> dict[str, list[float]]:
    """μ_0..μ_K of each activation (the engine, at :data:`DPS` digits), as floats.

    >>> predicted_coefficients(["relu"], 1)
    {'relu': [0.3989422804014327, 0.5]}
    """
    return {name: [float(c.numeric) for c in expansion(name, K, DPS).coefficients]
            for name in names}


def sampled_coefficients(names: Sequence[str], K: int, n: int, seed: SeedLike
                         ) -> dict[str, MonteCarloCoefficients]:
    """The Monte-Carlo coefficients of each activation from ``n`` samples: one independent
    stream per activation, child i of ``seed`` for activation i."""
    return {name: sample(Sample(name, K, n, s))
            for name, s in zip(names, children(seed, len(names)), strict=True)}


@dataclass(frozen=True)
class CoefficientCheck:
    """The predicted coefficients of each activation next to their Monte-Carlo estimates."""

    predicted: dict[str, list[float]]
    sampled: dict[str, MonteCarloCoefficients]


def coefficient_check(names: Sequence[str], K: int, n: int, seed: SeedLike = 0
                      ) -> CoefficientCheck:
    """Both sides for the activations ``names`` (keys of the simulator's catalogue).

    >>> c = coefficient_check(["He1"], 1, 1000)
    >>> mc = c.sampled["He1"]
    >>> c.predicted["He1"], bool(abs(mc.mean[1] - 1.0) < 4 * mc.stderr[1])
    ([0.0, 1.0], True)
    """
    return CoefficientCheck(predicted_coefficients(names, K),
                            sampled_coefficients(names, K, n, seed))
