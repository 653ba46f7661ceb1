"""The plain ``fltheory fisher`` query (``--d``, ``--lmax``, ``--dps``, ``--format``) answered
without click (:mod:`fltheory.cli.light`): the result the command prints, built here once and
used by both paths (the click command, :mod:`fltheory.papers.fisher.cli`, is the reference for
every other form)."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from fltheory.cli.light import DEFAULT_DPS, LightCommand, LightOption, count_value
from fltheory.exact import MAX_DPS, MIN_DPS
from fltheory.results import Result

if TYPE_CHECKING:
    from fltheory.papers.fisher.theory import FisherSpectrum

__all__ = ["CONVENTIONS", "FISHER", "fisher_result"]

CONVENTIONS = {
    "model": "x ~ N(0, I_d), X(x) = relu(xᵀW), W ∈ R^{d×m} i.i.d. N(0, 1/m), J = E_x[X Xᵀ]",
    "eigenvalues": "exact m → ∞ limit λ_l(d) = d·E_t[κ(t) P_l(t)] (Funk–Hecke), "
                   "κ(t) = (√(1−t²) + (π − arccos t) t)/(2π); multiplicity N(d, l)",
    "paper": "(2d+1)/(4π) ×1, 1/4 ×d, 1/(2π(d+2)) ×(d(d+1)/2 − 1)",
    "trace": "trace J → d/2",
}


def _levels_json(spec: FisherSpectrum) -> list[dict[str, Any]]:
    import mpmath

    dps = spec.dps
    return [{"l": lev.l, "multiplicity": lev.multiplicity,
             "exact": None if lev.exact is None else str(lev.exact),
             "numeric": mpmath.nstr(lev.value, dps),
             "paper": None if lev.approximation is None else mpmath.nstr(lev.approximation, dps),
             "paper_relative_error": None if err is None else mpmath.nstr(err, 6),
             "cumulative_trace_share": mpmath.nstr(share, dps),
             "reason": lev.reason}
            for lev, err, share in zip(spec.levels, spec.paper_errors, spec.share.cumulative,
                                       strict=True)]


def _summary(spec: FisherSpectrum, th: ModuleType) -> list[str]:
    import mpmath

    summary = [f"Fisher spectrum of random ReLU features, d = {spec.d}, m → ∞ (trace = d/2 = "
               f"{th.trace(spec.d)})",
               "closed forms: λ_0 = " + th.CLOSED_FORMS[0] + ", λ_1 = 1/4, λ_2 = λ_0/(d + 1)², "
               "λ_l = 0 for odd l >= 3"]
    if spec.share.top3 is not None:
        limit = mpmath.nstr(th.paper_top3_limit(), 10)
        summary.append(f"top-3 clusters carry {mpmath.nstr(spec.share.top3, 10)} of the trace "
                       f"(paper's d → ∞ limit 1/2 + 3/(2π) = {limit})")
    return summary


def fisher_result(d: int, lmax: int, dps: int) -> Result:
    import mpmath

    from fltheory.papers.fisher import theory as th
    from fltheory.papers.fisher.params import Levels

    spec = th.spectrum_of(Levels(d, lmax, dps))
    levels, top3 = _levels_json(spec), spec.share.top3
    notes = ["eigenfunctions (m → ∞): ‖x‖ (l = 0); x_a (l = 1); x_a x_b/‖x‖ (a < b) and "
             "x_c²/‖x‖ − ‖x‖/d (l = 2)"]
    if d > 1000:
        notes.append("exact Gamma-ratio forms are not expanded for d > 1000; the numeric values "
                     "come from the same closed-form sum in mpmath with guard digits")
    return Result(
        command="fisher",
        inputs={"d": d, "lmax": lmax, "dps": dps},
        value=[o["exact"] if o["exact"] is not None else o["numeric"] for o in levels],
        numeric=None if top3 is None else mpmath.nstr(top3, dps),
        conventions=CONVENTIONS,
        summary=_summary(spec, th),
        details={"levels": levels, "trace": str(th.trace(d)),
                 "top3_share": None if top3 is None else mpmath.nstr(top3, dps),
                 "paper_top3_limit": mpmath.nstr(th.paper_top3_limit(dps), dps)},
        table=spec.table(),
        notes=notes,
        latex_value=None,
    )



def _count(minimum: int, maximum: int | None = None) -> Any:
    return lambda value, name: count_value(value, name, minimum, maximum)


#: ``fltheory fisher --d D [--lmax L] [--dps P] [--format F]``: the click command's options of
#: the same names, types and defaults (tests/framework/test_light.py holds them equal)
FISHER = LightCommand((LightOption("--d", "d", _count(2), required=True),
                       LightOption("--lmax", "lmax", _count(0), 4),
                       LightOption("--dps", "dps", _count(MIN_DPS, MAX_DPS), DEFAULT_DPS)),
                      fisher_result)
