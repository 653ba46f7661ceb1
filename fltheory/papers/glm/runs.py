"""Both sides of the GLM questions, side by side: what the command, the views and the claims
show. The theory (state evolution, thresholds, ridge) and the simulator (GAMP, ridge by a
linear solve) are called here; neither computes the other's side."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fltheory.papers.glm.params import AmpRun, Channel, Prior
from fltheory.papers.glm.sim import amp_overlap, ridge_fit
from fltheory.papers.glm.theory import PointAnswer, ThresholdAnswer, point, thresholds

__all__ = ["AmpSide", "GlmRun", "RidgeSide", "amp_side", "glm_run", "ridge_side"]


@dataclass(frozen=True)
class GlmRun:
    """The thresholds and, per α, the Bayes-optimal and AMP fixed points."""

    thresholds: ThresholdAnswer
    points: tuple[PointAnswer, ...]


def glm_run(prior: Prior, channel: Channel, alphas: tuple[float, ...] = (),
            progress: bool = False) -> GlmRun:
    """Theory only: thresholds, then each α (progress on stderr past 20 of them)."""
    import sys

    th = thresholds(prior, channel)
    pts = []
    for i, a in enumerate(alphas):
        if progress and len(alphas) > 20 and i % 10 == 0:
            print(f"glm: α {i + 1}/{len(alphas)}", file=sys.stderr)
        pts.append(point(prior, channel, a))
    return GlmRun(th, tuple(pts))


@dataclass(frozen=True)
class AmpSide:
    """GAMP's final overlaps over seeds (m = ŵ·w*/d, its test error) next to state evolution's
    AMP fixed point."""

    alpha: float
    d: int
    predicted_q: float
    predicted_error: float
    overlaps: tuple[float, ...]
    errors: tuple[float, ...]
    seconds: float

    @property
    def mean(self) -> float:
        return float(np.mean(self.overlaps))

    @property
    def sem(self) -> float:
        k = len(self.overlaps)
        return float(np.std(self.overlaps, ddof=1) / math.sqrt(k)) if k > 1 else math.inf


def amp_side(prior: Prior, channel: Channel, run: AmpRun, seeds: int) -> AmpSide:
    """State evolution's AMP overlap at run.alpha against GAMP on ``seeds`` instances."""
    import time

    p = point(prior, channel, float(run.alpha))
    t0 = time.perf_counter()
    res = [amp_overlap(prior, channel, AmpRun(run.d, run.alpha, run.iterations, run.seed + s))
           for s in range(seeds)]
    return AmpSide(float(run.alpha), run.d, p.amp_q.value, p.amp_error.value,
                   tuple(r.overlap for r in res), tuple(r.test_error for r in res),
                   (time.perf_counter() - t0) / seeds)


@dataclass(frozen=True)
class RidgeSide:
    """Ridge regression at λ: the theory's (m, q, error) and the fits' over seeds."""

    lam: float
    alpha: float
    predicted: tuple[float, float, float]
    measured: tuple[tuple[float, float, float], ...]


def ridge_side(prior: Prior, channel: Channel, run: AmpRun, lam: float,
               seeds: int) -> RidgeSide:
    from fltheory.papers.glm.erm import ridge

    r = ridge(prior, channel, float(run.alpha), lam)
    meas = tuple(ridge_fit(prior, channel, AmpRun(run.d, run.alpha, 1, run.seed + s), lam)
                 for s in range(seeds))
    return RidgeSide(lam, float(run.alpha), (r.m, r.q, r.error), meas)
