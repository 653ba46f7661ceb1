"""``fltheory twostep learn``: which directions of a multi-index target two GD steps learn, for
any σ — the verdict per direction (:func:`~fltheory.papers.twostep.terms.learnability` for a
polynomial σ, the σ-aware outlier terms of :func:`~fltheory.papers.twostep.sigma.effective_outliers`
otherwise), with each target's information and generative exponents (Hermite engine).

The top of the paper's theory: it uses both :mod:`fltheory.papers.twostep.terms` and
:mod:`fltheory.papers.twostep.sigma`, which do not import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from fltheory.args import read_choice, read_rational
from fltheory.engine.functions import Function, Z
from fltheory.exact import DomainError, fraction_str
from fltheory.papers.twostep.params import BATCHES, TwoStepSetting
from fltheory.papers.twostep.sigma import EffectiveOutliers, outliers_of
from fltheory.papers.twostep.terms import (
    TWO_STEP_SIGMA,  # noqa: F401 (the doctests use it)
    DirectionLearning,
    TwoStepModel,
    _nonzero,
    _short,
    _step1_clause,
    _via_reason,
    learnability_of,
)
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = ["LearnReport", "learn", "learn_of"]


@dataclass(frozen=True)
class LearnReport(ShowsTable):
    """What ``fltheory twostep learn`` reports: the model, Λ, the verdict per direction and the
    information and generative exponents of each target (Hermite engine, kmax 6, 20 digits).
    Shows its :meth:`table` in a notebook."""

    model: TwoStepModel
    lam: int
    directions: list[DirectionLearning]
    exponents: list[tuple[str, str]]
    alpha1: Fraction | None = None
    alpha2: Fraction | None = None
    batch: str | None = None
    #: the effective outlier count of W2 for this σ
    #: (:class:`fltheory.papers.twostep.sigma.EffectiveOutliers`), None when not computed
    outliers: EffectiveOutliers | None = None

    def __repr__(self) -> str:
        """One line: σ, the targets, the step sizes, Λ and, per direction, its exponents and
        where it is learned (the reasons are in :meth:`table`)."""
        steps = "" if self.alpha1 is None or self.alpha2 is None else \
            f", α1 = {fraction_str(self.alpha1)}, α2 = {fraction_str(self.alpha2)}"
        batch = "" if self.batch is None else f", {self.batch}"
        verdicts = "; ".join(
            f"β{i + 1} {d.target} (info {info}, gen {gen}): "
            + ("step 1" if d.step1 else f"step 2 via k = {d.via_k}" if d.step2
               else f"boundary via k = {d.via_k}" if d.boundary else "not learned")
            for i, (d, (info, gen)) in enumerate(zip(self.directions, self.exponents,
                                                       strict=True)))
        targets = ", ".join(g.text for g in self.model.targets)
        return (f"LearnReport(σ = {self.model.sigma.text}, targets [{targets}]{batch}{steps}, "
                f"Λ = {self.lam}: {verdicts})")

    def table(self) -> Table:
        """One row per direction: target, exponents, learned in step 1 / step 2, via k, why."""
        rows = [[f"β{i + 1}", d.target, self.exponents[i][0], self.exponents[i][1],
                 "yes" if d.step1 else "no", d.step2_text,
                 "-" if d.via_k is None else str(d.via_k), d.reason]
                for i, d in enumerate(self.directions)]
        return Table(columns=["dir", "g", "info", "gen", "step 1", "step 2", "via k", "reason"],
                     rows=rows, caption="Learned directions", label="tab:fltheory-twostep-learn",
                     align="lllllllp{6cm}")


def learn(sigma: str, targets: str | list[str], alpha1: Fraction, alpha2: Fraction, batch: str,
          psi: Fraction = Fraction(1), dps: int = 30) -> LearnReport:
    """:func:`learnability` of the model (σ, targets, ψ1 = ψ2 = ``psi`` > 0) with the information
    and generative exponents of each target (as strings, ``"> 6"`` when beyond kmax = 6) and
    the effective outlier count of W2 for σ
    (:func:`fltheory.papers.twostep.sigma.effective_outliers`, field ``outliers``).
    ``targets`` is a list of functions of z; a single string is one target; ``dps`` (5..100)
    the digits of the numerical moments and of the numbers quoted. A direction reached only
    through a term of exponent exactly 0 is reported as a boundary case (``boundary``), not
    as learned.

    >>> r = learn(TWO_STEP_SIGMA, ["He1", "He3"], Fraction(9, 20), Fraction(3, 10), "reused")
    >>> r.lam, r.exponents
    (2, [('1', '1'), ('3', '1')])
    >>> one = learn(TWO_STEP_SIGMA, "He3", Fraction(9, 20), Fraction(3, 10), "fresh")
    >>> repr(one).split(": ", 1)[1]
    'β1 He3 (info 3, gen 1): not learned)'
    >>> learn("tanh", ["He1", "He3"], Fraction(2, 5), Fraction(3, 10), "reused").lam
    3

    Any σ (not only polynomials): for a non-polynomial σ the verdicts come from the σ-aware
    terms (:func:`_directions_any_sigma`); a σ whose σ' jumps (piecewise linear) with a reused
    batch through both parts of each term (:mod:`fltheory.papers.twostep.kinks`):

    >>> r = learn("relu", ["He3"], Fraction(2, 5), Fraction(7, 20), "reused", dps=15)
    >>> r.directions[0].via_k
    1
    """
    # batch and ψ are read here: a setting gives a missing one the paper's default, learn has
    # none (its ψ is 1 unless given)
    return learn_of(TwoStepSetting(alpha1, alpha2, sigma=sigma, targets=targets,
                                   batch=read_choice(batch, "batch", BATCHES),
                                   psi=read_rational(psi, "psi", 0, open_low=True), dps=dps))


def learn_of(setting: TwoStepSetting) -> LearnReport:
    """:func:`learn` of a setting: its σ (any), targets (at least one), α1, α2, batch mode,
    ψ and dps (``fltheory twostep learn`` builds the setting from its options).

    >>> learn_of(TwoStepSetting("9/20", "3/10", sigma="He1", targets=["He1"])).lam
    0
    """
    model = TwoStepModel.of(setting, polynomial=False)
    # the targets as the model parsed them (stripped), as the report names them
    outliers = outliers_of(setting.replace(targets=tuple(g.text for g in model.targets)),
                           model.sigma)
    if model.sigma.expr.is_polynomial(Z):
        lam, directions = learnability_of(model, setting)
    else:
        lam, directions = outliers.generic.value, _directions_any_sigma(model, outliers)
    exponents = [_exponents(g) for g in model.targets]
    return LearnReport(model, lam, directions, exponents, setting.alpha1, setting.alpha2,
                       setting.batch, outliers)


def _exponents(g: Function) -> tuple[str, str]:
    """The information and generative exponents of a target (Hermite engine, kmax 6, 20
    digits), remembered in the run store (the generative exponent takes seconds)."""
    import time

    from fltheory.engine.hermite import analyse
    from fltheory.papers.twostep._moments import disk_get, disk_put

    params = {"target": sp.srepr(g.expr)}
    found = disk_get("twostep.target_exponents", params)
    if found is not None:
        return str(found["information"]), str(found["generative"])
    start = time.perf_counter()
    a = analyse(g, 6, 20)  # the Hermite engine's view
    out = (str(a.information), str(a.generative))
    disk_put("twostep.target_exponents", params, {"information": out[0], "generative": out[1]},
             time.perf_counter() - start)
    return out


def _directions_any_sigma(model: TwoStepModel, eff: EffectiveOutliers
                          ) -> list[DirectionLearning]:
    """:func:`learnability` for a non-polynomial σ, from the σ-aware terms of
    :func:`fltheory.papers.twostep.sigma.effective_outliers`: step 1 iff μ_1(g) ≠ 0 and
    μ_1(σ) ≠ 0; step 2 through the first term 1 <= k <= Λ whose C_k(β) ≠ 0."""
    if eff.count is None:
        raise DomainError("sigma", model.sigma.text, "a σ with a continuous σ' for a reused "
                          "batch (or --batch fresh)", reason="is not covered by the terms")
    out = []
    for i, g in enumerate(model.targets):
        mu1 = model.mu1(i)
        step1 = _nonzero(mu1, model.dps) and eff.one_step
        via = next((t.k for t in eff.terms if t.present and i in t.aligned), None)
        unknown = next((t.k for t in eff.terms if t.present and t.odd_constants is None
                        and (via is None or t.k < via)), None)
        if unknown is not None and not (_nonzero(mu1, model.dps) and eff.one_step):
            raise DomainError("target", g.text, "one target when σ' jumps and the batch is "
                              "reused (or --batch fresh)",
                              reason=f"needs the |a|a^{unknown} part's constant of a kinked σ "
                                     "with several targets (a multi-dimensional integral, not "
                                     "implemented)")
        if step1:
            reason = (f"μ_1(g) = {_short(mu1)} ≠ 0: in the one-step spike (rank one along "
                      "Σ μ_1(g_k) β_k)")
        elif via is not None:
            reason = _via_reason(via, next(t.exponent for t in eff.terms if t.k == via),
                                 eff.batch, _step1_clause(mu1, model.dps, eff.one_step))
        else:
            reason = (f"{_step1_clause(mu1, model.dps, eff.one_step)} and C_k(β) = 0 for every "
                      f"outlier term 1 <= k <= Λ = {eff.generic.value}")
        on_boundary = not step1 and via is not None and next(
            t.exponent for t in eff.terms if t.k == via) == 0
        out.append(DirectionLearning(g.text, mu1, step1, step1 or (via is not None
                                                                 and not on_boundary),
                                     via, reason, on_boundary))
    return out
