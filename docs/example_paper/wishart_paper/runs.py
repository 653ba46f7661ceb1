"""Both sides of one question, side by side: the edge predicted and the top eigenvalue measured.
The command, the table and the claim all call this; none of them computes either side."""

from __future__ import annotations

from dataclasses import dataclass

from wishart_paper.params import Sample, Wishart
from wishart_paper.sim import top_eigenvalue
from wishart_paper.theory import edge

__all__ = ["EdgeRun", "edge_run"]


@dataclass(frozen=True)
class EdgeRun:
    """The prediction λ₊ (exact text and float), the measured top eigenvalue and the scale
    n^(−2/3) of its fluctuations."""

    model: Wishart
    sample: Sample
    exact: str
    predicted: float
    measured: float

    @property
    def scale(self) -> float:
        return float(self.sample.n) ** (-2.0 / 3.0)


def edge_run(model: Wishart, sample: Sample) -> EdgeRun:
    """Prediction and simulation of the same model.

    >>> r = edge_run(Wishart("1/4"), Sample(400))
    >>> r.exact, abs(r.measured - r.predicted) < 10 * r.scale
    ('9/4', True)
    """
    lam = edge(model)
    return EdgeRun(model, sample, str(lam), float(lam), top_eigenvalue(model, sample))
