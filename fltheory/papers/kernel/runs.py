"""Both sides of the kernel paper's questions, side by side: a kernel regression simulated next
to its learning curve, the Gram matrix's eigenvalues next to the predicted levels, and ridge
regression next to the proportional formula. The command, the views and the claims call these;
none of them computes either side."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.exact import DomainError
from fltheory.papers.kernel import sim
from fltheory.papers.kernel.params import (
    Curve,
    Experiment,
    KernelSpec,
    Levels,
    RandomFeatures,
    Ridge,
    Target,
)
from fltheory.papers.kernel.theory import curve, random_features, ridge, spectrum
from fltheory.simkit import seeding

__all__ = ["CONDITION_WARN", "GramRun", "KrrRun", "RFRun", "RidgeRun", "gram_run", "krr_run",
           "numpy_kernel", "rf_run", "ridge_run"]

#: the width ψ_1 that stands for ψ_1 → ∞ (the kernel limit of random features) in
#: :func:`rf_run`'s ``kernel_limit``: the largest the parameters take; its risk moves by under
#: 1e-5 (relative) from ψ_1 = 10^6 to 10^8 at the claim's ψ_2, ζ², λ̄ (measured)
WIDE = 10**6


def numpy_kernel(spec: KernelSpec) -> Callable[[np.ndarray], np.ndarray]:
    """The simulator's kernel for ``spec``: its own NNGP/NTK recursion for a catalogue
    activation, or the user's expression in t evaluated by numpy (the kernel is the model's
    definition, not a prediction)."""
    if spec.kernel is not None:
        import sympy as sp

        from fltheory.engine.expressions import Z

        fn = sp.lambdify(Z, spec.expr, modules="numpy")
        return lambda t: np.broadcast_to(np.asarray(fn(t), dtype=float), np.shape(t)).copy()
    from fltheory.exact import DomainError
    from fltheory.simkit.activations import NUMPY_CATALOGUE

    if spec.activation not in NUMPY_CATALOGUE:
        raise DomainError("activation", spec.activation, "a catalogue name for the simulator (" +
                          ", ".join(sorted(NUMPY_CATALOGUE)) + ")")
    return sim.network_kernel(str(spec.activation), str(spec.kind), int(spec.depth),
                              float(spec.bias))


#: the condition number of K + λI above which a simulated fit is called rounding noise
#: (float64 keeps ~16 digits; beyond 10¹² fewer than 4 of the fit are left)
CONDITION_WARN = 1e12


@dataclass(frozen=True)
class KrrRun:
    """Kernel ridge regression at one (d, n, λ, σ, target): the curve's prediction (clean
    error, noisy-label error) and the simulation's mean over ``seeds`` draws with its standard
    error (across draws; each draw's own test-set error is far smaller)."""

    d: int
    n: int
    ridge: Fraction
    noise: Fraction
    energies: dict[int, Fraction]
    predicted: float
    predicted_noisy: float
    measured: float
    measured_se: float
    draws: tuple[float, ...]
    #: the largest condition number of K + λI over the regressions
    condition: float = math.nan

    @property
    def ratio(self) -> float:
        return self.measured / self.predicted if self.predicted else math.inf

    @property
    def singular(self) -> bool:
        """K + λI too ill-conditioned for float64 to fit on it (condition > CONDITION_WARN)."""
        return self.condition > CONDITION_WARN


def krr_run(spec: KernelSpec, d: int, n: int, ridge_: Any, noise: Any,
            energies: dict[int, Any], seeds: int, seed: seeding.SeedLike = 0,
            n_test: int = 2000, kmax: int | None = None,
            progress: Callable[[str], None] | None = None) -> KrrRun:
    """Predict (eigenlearning on the exact spectrum) and simulate (``seeds`` independent
    regressions) the error of KRR for the kernel ``spec``.

    >>> r = krr_run(KernelSpec(activation="relu", kind="ntk"), 10, 100, 0, "1/2", {1: 1}, 2)
    >>> round(r.predicted, 4), 0 < r.measured < 1
    (0.1613, True)
    """
    target = Target(energies={k: Fraction(e) for k, e in energies.items()})
    top = target.top + 40 if kmax is None else kmax
    question = Curve(n, ridge_, noise, target)
    kernel = numpy_kernel(spec)  # refuses a kernel the simulator cannot evaluate, first
    answer = curve(spec, Levels(d, min(top, 400), 20), question)
    row = answer.rows[0]
    draws, conditions = [], []
    for s in range(seeds):
        if progress is not None:
            progress(f"kernel simulate: regression {s + 1}/{seeds} (n = {n})")
        exp = Experiment(d, n, question.ridge, question.noise, target.top, n_test,
                         seed=0)
        child = seeding.child(seed, d, n, s)
        one = sim.krr(kernel, exp, {k: float(e) for k, e in target.energies.items()},
                      seed=child)
        draws.append(one.error)
        conditions.append(one.condition)
    arr = np.array(draws)
    se = float(arr.std(ddof=1) / math.sqrt(len(arr))) if len(arr) > 1 else math.nan
    return KrrRun(d, n, Fraction(question.ridge), Fraction(question.noise),
                  dict(target.energies), row.error, row.noisy, float(arr.mean()), se,
                  tuple(draws), max(conditions))


@dataclass(frozen=True)
class GramRun:
    """The top eigenvalues of K/n against the predicted levels: for each degree k kept (in the
    predicted order, μ_k > 0, separated from the next by ``gap``), its multiplicity, μ_k and
    the mean of the Gram eigenvalues in its block, per n and draw."""

    d: int
    degrees: tuple[int, ...]
    multiplicities: tuple[int, ...]
    predicted: tuple[float, ...]
    n: tuple[int, ...]
    means: np.ndarray  # (len(n) × draws, len(degrees))
    inv_n: np.ndarray


def _blocks(levels: Sequence[tuple[int, int, float]], count: int, gap: float
            ) -> list[tuple[int, int, float]]:
    """The first ``count`` levels (k, N, μ) in decreasing μ, each separated from the next by a
    factor >= ``gap`` (so that the Gram eigenvalues fall into blocks in this order)."""
    ordered = sorted((lev for lev in levels if lev[2] > 0), key=lambda lev: -lev[2])
    kept: list[tuple[int, int, float]] = []
    for i, lev in enumerate(ordered[:-1]):
        if len(kept) == count:
            break
        if i > 0 and ordered[i - 1][2] < gap * lev[2]:
            break
        if lev[2] < gap * ordered[i + 1][2]:
            break
        kept.append(lev)
    return kept


def gram_run(spec: KernelSpec, d: int, ns: Sequence[int], seeds: int, count: int = 4,
             seed: seeding.SeedLike = 0, gap: float = 1.5) -> GramRun:
    """Predicted levels and the block means of the Gram eigenvalues of K/n."""
    s = spectrum(spec, Levels(d, 16, 20))
    levels = [(lev.k, lev.multiplicity, float(lev.value)) for lev in s.levels]
    kept = _blocks(levels, count, gap)
    kernel = numpy_kernel(spec)
    means, inv_n = [], []
    for n in ns:
        for r in range(seeds):
            eig = sim.gram_eigenvalues(kernel, d, n, seeding.child(seed, n, r))
            start, row = 0, []
            for _, mult, _ in kept:
                row.append(float(eig[start:start + mult].mean()))
                start += mult
            means.append(row)
            inv_n.append(1.0 / n)
    return GramRun(d, tuple(k for k, _, _ in kept), tuple(m for _, m, _ in kept),
                   tuple(v for _, _, v in kept), tuple(ns), np.array(means), np.array(inv_n))


@dataclass(frozen=True)
class RidgeRun:
    """Ridge regression with isotropic features: the exact limit (risk) and the simulated
    risks at each n (p = γn), ``draws`` per n."""

    question: Ridge
    predicted: float
    lam: float
    n: tuple[int, ...]
    risks: np.ndarray  # (len(n), draws)


def ridge_run(question: Ridge, ns: Sequence[int], draws: int, seed: seeding.SeedLike = 0
              ) -> RidgeRun:
    """The proportional formula and ``draws`` simulations at each n (p = round(γn))."""
    import sympy as sp

    a = ridge(question)
    lam = float(a.lam)
    risks = np.array([[sim.ridge_risk_sample(round(float(question.gamma) * n), n,
                                             float(question.signal), float(question.noise),
                                             lam, seeding.child(seed, n, r))
                       for r in range(draws)] for n in ns])
    return RidgeRun(question, float(sp.N(a.risk, 20)), lam, tuple(ns), risks)


@dataclass(frozen=True)
class RFRun:
    """Random-features ridge regression (Mei & Montanari's setting, a linear target): the
    proportional limit, the same at ψ_1 = :data:`WIDE` (the kernel limit: what the width adds
    is told from it), and the simulated clean test errors at each d (N = round(ψ_1 d),
    n = round(ψ_2 d)), ``draws`` per d."""

    question: RandomFeatures
    predicted: float
    kernel_limit: float
    d: tuple[int, ...]
    risks: np.ndarray  # (len(d), draws)


def rf_run(question: RandomFeatures, ds: Sequence[int], draws: int, n_test: int,
           seed: seeding.SeedLike = 0) -> RFRun:
    """The limit and ``draws`` numpy simulations (:func:`sim.rf_ridge_sample`) at each d, on
    ``n_test`` fresh points each; the simulator's target is linear (F_*² = 0)."""
    if question.nonlinear != 0:
        raise DomainError("nonlinear", question.nonlinear, "0 (the simulated target is linear)")
    q = question
    wide = RandomFeatures(q.activation, WIDE, q.psi2, q.ridge, q.signal, q.nonlinear, q.noise)
    risks = np.array([[sim.rf_ridge_sample(q.activation, d, round(float(q.psi1) * d),
                                           round(float(q.psi2) * d), float(q.ridge),
                                           float(q.signal), float(q.noise), n_test,
                                           seeding.child(seed, d, r))
                       for r in range(draws)] for d in ds])
    return RFRun(q, random_features(q).risk, random_features(wide).risk, tuple(ds), risks)
