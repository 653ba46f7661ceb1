"""The simulator: sample X, form S = XᵀX/n, return its largest eigenvalue. numpy only; it imports
no prediction (the wall of tests/framework/test_architecture.py)."""

from __future__ import annotations

import numpy as np

from wishart_paper.params import Sample, Wishart

__all__ = ["top_eigenvalue"]


def top_eigenvalue(model: Wishart, sample: Sample) -> float:
    """The largest eigenvalue of XᵀX/n for one seeded draw.

    >>> round(top_eigenvalue(Wishart(1), Sample(10, seed=0)), 6) > 0
    True
    """
    rng = np.random.default_rng(sample.seed)
    d = sample.d(model)
    X = rng.standard_normal((sample.n, d))
    return float(np.linalg.eigvalsh(X.T @ X / sample.n)[-1])
