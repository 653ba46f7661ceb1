r"""The predictions of the two-step paper (Moniri & Hassani 2026), in one face.

Source: Moniri & Hassani (2026), *Feature Learning in Linear-Width Two-Layer Networks: Two vs.
One Step of Gradient Descent*, arXiv 2605.17767. Normalisation: :mod:`fltheory.papers.twostep.sim`
(f(x) = aᵀσ(Wx)/√N, W0 i.i.d. N(0, 1/d), a i.i.d. N(0, 1) fixed, correlation loss,
η_i = N^{α_i}).

Each question takes a :class:`~fltheory.papers.twostep.params.TwoStepSetting` (read once), or
its arguments one by one (read into a setting at the door):

* Λ(α1, α2; L) and the phase line, exact on rationals (standard library only):
  :func:`lambda_of` / :func:`lambda_details`, :func:`lambda_count`, :func:`term_exponent`,
  :func:`phase_of` / :func:`phase_line` (:mod:`fltheory.papers.twostep.phases`);
* the leading-order spike constants C_k(v) of the terms of the second update, what each batch
  mode learns, the one-step BBP overlap (:mod:`fltheory.papers.twostep.terms`);
* the effective outlier count for a given σ, which terms vanish and why
  (:func:`outliers_of` / :func:`effective_outliers`, :func:`effective_phase_of`;
  :mod:`fltheory.papers.twostep.sigma`; a σ whose σ' jumps with a reused batch: the one-sided
  expansion of :mod:`fltheory.papers.twostep.kinks`);
* which target directions two steps learn, for any σ (:func:`learn_of` / :func:`learn`;
  :mod:`fltheory.papers.twostep.learning`).

This module imports sympy (through the σ-aware theory); ``fltheory lambda`` without ``--sigma``
uses :mod:`fltheory.papers.twostep.phases` alone and stays light.

>>> lambda_of(TwoStepSetting("2/5", "3/10")).value
3
"""

from __future__ import annotations

from fltheory.papers.twostep.learning import LearnReport, learn, learn_of
from fltheory.papers.twostep.params import TwoStepSetting
from fltheory.papers.twostep.phases import (
    GENERIC_CONDITION,
    MAX_ROWS,
    TWO_STEP_SIGMA,
    TWO_STEP_SIGMA_NAME,
    LambdaResult,
    PhaseRegion,
    TermExponent,
    exponent_of,
    lambda_count,
    lambda_details,
    lambda_of,
    phase_line,
    phase_of,
    phase_region_count,
    region_count_of,
    term_exponent,
)
from fltheory.papers.twostep.sigma import (
    KMAX,
    EffectiveOutliers,
    EffectivePhase,
    SpikePresence,
    TermOutlier,
    derivative_moment,
    effective_outliers,
    effective_phase,
    effective_phase_of,
    outliers_of,
    spike_presence,
    term_constants,
)
from fltheory.papers.twostep.terms import (
    DirectionLearning,
    TermPrediction,
    TwoStepModel,
    batch_model,
    batch_psi,
    learnability,
    learnability_of,
    one_step_overlap,
    one_step_ratio,
    term_prediction,
)

__all__ = [
    "GENERIC_CONDITION",
    "KMAX",
    "MAX_ROWS",
    "TWO_STEP_SIGMA",
    "TWO_STEP_SIGMA_NAME",
    "DirectionLearning",
    "EffectiveOutliers",
    "EffectivePhase",
    "LambdaResult",
    "LearnReport",
    "PhaseRegion",
    "SpikePresence",
    "TermExponent",
    "TermOutlier",
    "TermPrediction",
    "TwoStepModel",
    "TwoStepSetting",
    "batch_model",
    "batch_psi",
    "derivative_moment",
    "effective_outliers",
    "effective_phase",
    "effective_phase_of",
    "exponent_of",
    "lambda_count",
    "lambda_details",
    "lambda_of",
    "learn",
    "learn_of",
    "learnability",
    "learnability_of",
    "one_step_overlap",
    "one_step_ratio",
    "outliers_of",
    "phase_line",
    "phase_of",
    "phase_region_count",
    "region_count_of",
    "spike_presence",
    "term_constants",
    "term_exponent",
    "term_prediction",
]
