"""Both sides of the GLM questions, side by side: what the command, the views and the claims
show. The theory (state evolution, thresholds, ridge) and the simulator (GAMP, ridge by a
linear solve) are called here; neither computes the other's side."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from fltheory.papers.glm.params import AmpRun, Channel, Erm, ErmRun, Prior
from fltheory.papers.glm.sim import amp_overlap, erm_fit, ridge_fit
from fltheory.papers.glm.theory import (
    NotConverged,
    PointAnswer,
    ThresholdAnswer,
    point,
    thresholds,
)

if TYPE_CHECKING:
    from fltheory.papers.glm.erm import ErmAnswer, RidgeAnswer

__all__ = ["AmpSide", "ErmSide", "GlmRun", "RidgeSide", "amp_side", "erm_side", "glm_run",
           "ridge_side"]


@dataclass(frozen=True)
class GlmRun:
    """The thresholds and, per α, the Bayes-optimal and AMP fixed points; with ``erm``, per α
    one entry per loss asked (in their order): an :class:`~fltheory.papers.glm.erm.ErmAnswer`,
    or the text of :class:`~fltheory.papers.glm.theory.NotConverged` when that loss's fixed
    point did not converge there; with the older ``ridge`` option, per α a
    :class:`~fltheory.papers.glm.erm.RidgeAnswer`."""

    thresholds: ThresholdAnswer
    points: tuple[PointAnswer, ...]
    erm: tuple[tuple[ErmAnswer | str, ...], ...] = ()
    ridge: tuple[RidgeAnswer, ...] = ()


def glm_run(prior: Prior, channel: Channel, alphas: tuple[float, ...] = (),
            progress: bool = False, erm: Erm | None = None,
            ridge: float | str | None = None) -> GlmRun:
    """Theory only: thresholds, then each α (progress on stderr past 20 of them, or at each α
    when logistic or hinge is minimised over λ); ``erm`` the losses beside Bayes, ``ridge``
    the older option's λ (or "opt")."""
    import sys

    if progress and channel.noise > 0 and channel.kind == "expr":
        from fltheory.papers.glm._channels import channel_numerics

        channel_numerics(channel, float(prior.rho))   # a refusal for cost comes first
        print("glm: a noisy expression channel: each fixed point is a two-dimensional (ω, y) sum "
              "(piecewise-linear g) or a three-dimensional (ω, y, z) one (smooth g) at two "
              "resolutions; with several kinks the thresholds can take minutes, a smooth g "
              "seconds",
              file=sys.stderr)
    elif progress and channel.noise > 0 and channel.kind in ("square", "abs", "relu"):
        from fltheory.papers.glm._channels import channel_numerics

        channel_numerics(channel, float(prior.rho))   # a refusal for cost comes first
        # measured (farm-bench, whole command, medians): abs/relu with σ = 1/5 1.0–1.4 s for a
        # Gaussian prior, 1.4–1.7 s for Rademacher; the square (its sum in C, on the cores)
        # 1.2 s (Gaussian, σ = 1) and 1.8 s (Rademacher, σ = 1/10)
        print(f"glm: noisy {channel.kind}: each average is a "
              f"{'three' if channel.kind == 'square' else 'two'}-dimensional sum at two "
              "resolutions; the thresholds take a second or two", file=sys.stderr)
    th = thresholds(prior, channel)
    pts = []
    ermed: list[tuple[ErmAnswer | str, ...]] = []
    ridged: list[RidgeAnswer] = []
    slow = erm is not None and erm.lam == "opt" and any(x != "ridge" for x in erm.losses)
    # each loss's answer at the α before seeds it at the next (erm.erm_curve)
    previous: dict[str, ErmAnswer] = {}
    for i, a in enumerate(alphas):
        if progress and ((len(alphas) > 20 and i % 10 == 0) or slow):
            print(f"glm: α {i + 1}/{len(alphas)}", file=sys.stderr)
        pts.append(point(prior, channel, a))
        if erm is not None:
            here = tuple(_erm_at(prior, channel, a, loss, erm.lam, previous.get(loss))
                         for loss in erm.losses)
            previous.update((r.loss, r) for r in here if not isinstance(r, str))
            ermed.append(here)
        if ridge is not None:
            from fltheory.papers.glm.erm import erm_optimal
            from fltheory.papers.glm.erm import ridge as ridge_at

            # 'opt': the λ that --erm ridge locates (one optimum per α, whichever option
            # asks: the two located different λ on a flat error at α → 0)
            lam_at = (float(erm_optimal(prior, channel, a, "ridge").lam.value)
                      if ridge == "opt" else float(ridge))
            ridged.append(ridge_at(prior, channel, a, lam_at))
    return GlmRun(th, tuple(pts), tuple(ermed), tuple(ridged))


def _erm_at(prior: Prior, channel: Channel, alpha: float, loss: str,
            lam: Fraction | str, previous: ErmAnswer | None = None) -> ErmAnswer | str:
    from fltheory.papers.glm.erm import erm_optimal, erm_point

    try:
        return erm_optimal(prior, channel, alpha, loss, previous) if lam == "opt" else \
            erm_point(prior, channel, alpha, loss, float(lam), previous)
    except NotConverged as exc:
        return str(exc)


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


@dataclass(frozen=True)
class ErmSide:
    """One loss at (α, λ): the theory's (m, q, classification error) and the fits' over
    seeds."""

    loss: str
    lam: float
    alpha: float
    predicted: tuple[float, float, float]
    measured: tuple[tuple[float, float, float], ...]


def erm_side(prior: Prior, channel: Channel, loss: str, run: ErmRun, seeds: int) -> ErmSide:
    from fltheory.papers.glm.erm import erm_point

    r = erm_point(prior, channel, float(run.alpha), loss, float(run.lam))
    meas = tuple(erm_fit(prior, channel, loss, ErmRun(run.d, run.alpha, run.lam, run.seed + s))
                 for s in range(seeds))
    return ErmSide(loss, float(run.lam), float(run.alpha),
                   (r.m.value, r.q.value, r.error.value), meas)
