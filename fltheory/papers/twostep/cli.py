"""Commands of the two-step paper (Moniri & Hassani 2026): ``lambda``, ``phase``, ``twostep
learn``, ``twostep simulate``. Each parses, builds the parameters once
(:mod:`fltheory.papers.twostep.params`), calls one function of the theory or the runs, renders.

``fltheory lambda`` without ``--sigma`` imports the light part of the theory only
(:mod:`fltheory.papers.twostep.phases`, standard library); the σ-aware theory, the learning
verdicts and the runs are imported by the commands that use them."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

from fltheory.cli.options import RATIONAL, CountType, dps_option, emit, format_option
from fltheory.exact import INF, Infinity, fraction_str, to_decimal_str
from fltheory.papers.twostep.params import Simulation, TwoStepSetting
from fltheory.papers.twostep.phases import (
    GENERIC_CONDITION,
    TWO_STEP_SIGMA,
    LambdaResult,
    PhaseRegion,
    lambda_of,
    phase_of,
    region_count_of,
)
from fltheory.results import Result, Table

if TYPE_CHECKING:
    from fltheory.papers.twostep.learning import LearnReport
    from fltheory.papers.twostep.runs import SimulateRun
    from fltheory.papers.twostep.sigma import EffectiveOutliers, EffectivePhase

_CONVENTIONS = {
    "Λ": "counts the spectral outliers of W2 beyond the one-step spike; W2 has 1 + Λ in all",
    "scaling": "η1 ≍ N^α1, η2 ≍ N^α2; the k-th term of the second update ≍ N^(α2 + k(α1 − 1/2)), "
               "k = 0, …, L − 1; a term is an outlier when its exponent is > 0",
    "numbers": "inputs are exact rationals; decimals are rounded from them at --dps digits",
    "source": "Moniri & Hassani (2026), arXiv 2605.17767",
}


def lambda_result(setting: TwoStepSetting) -> Result:
    """Λ(α1, α2; L) of a setting with its exponents, regime and boundary flag, as a
    :class:`Result`; with σ (L then is σ's degree) also the effective count for σ and the
    setting's targets."""
    eff = _effective(setting)
    r = lambda_of(setting) if eff is None else eff.generic
    dps = setting.dps
    a1, a2 = fraction_str(r.alpha1), fraction_str(r.alpha2)
    exponents = [{"k": t.k, "exponent": fraction_str(t.exponent),
                  "numeric": to_decimal_str(t.exponent, dps), "status": t.status}
                 for t in r.exponents]
    notes = _lambda_notes(r)
    details = _lambda_details(r, exponents, dps)
    table = _lambda_table(r, dps, notes)
    summary = [
        f"Λ(α1 = {a1}, α2 = {a2}; L = {r.L}) = {r.value}",
        f"W2 has 1 + Λ = {r.outliers_of_w2} outliers: the one-step spike plus Λ beyond it",
        f"regime: {r.regime}",
        f"ratio α2/(1/2 − α1) = {fraction_str(r.ratio)} ≈ {to_decimal_str(r.ratio, dps)}",
    ]
    inputs: dict[str, Any] = {"a1": a1, "a2": a2, "L": str(r.L), "dps": dps}
    if eff is None:
        notes.append(GENERIC_CONDITION)
        details["generic_condition"] = GENERIC_CONDITION
    else:
        _add_effective(eff, summary, details, table, notes, inputs)
    return Result(
        command="lambda", inputs=inputs, value=r.value, numeric=str(r.value),
        conventions=_CONVENTIONS, summary=summary, details=details, table=table, notes=notes,
        latex_value=(r"\Lambda(\alpha_1 = " + _latex_q(r.alpha1) + r", \alpha_2 = "
                     + _latex_q(r.alpha2) + ("" if isinstance(r.L, Infinity) else f"; L = {r.L}")
                     + f") = {r.value}"),
    )


def _effective(setting: TwoStepSetting) -> EffectiveOutliers | None:
    """:func:`~fltheory.papers.twostep.sigma.outliers_of` of a setting with σ, or None (the
    generic count)."""
    if setting.sigma is None:
        return None
    from fltheory.papers.twostep.sigma import outliers_of

    _progress_to_terminal()
    return outliers_of(setting)


def _progress_to_terminal() -> None:
    """Progress lines of the σ-aware moments go to stderr when it is a terminal (never to
    stdout or into JSON)."""
    import sys

    from fltheory.papers.twostep import _moments as _twostep_moments

    if sys.stderr.isatty():
        _twostep_moments.PROGRESS = lambda message: click.echo(f"fltheory: {message}", err=True)


def _effective_json(eff: EffectiveOutliers) -> dict[str, Any]:
    return {
        "sigma": eff.sigma, "batch": eff.batch, "targets": list(eff.targets),
        "one_step_spike": eff.one_step, "one_step_reason": eff.one_step_reason,
        "count": eff.count, "outliers_of_W2": eff.outliers_of_w2, "odd_sigma": eff.odd,
        "zero_threshold": f"M_k,p = E[σ^(k+1)σ'^p]: exact (polynomial σ, parity) or "
                          f"|M| <= max(10^-{eff.dps} E|σ^(k+1)σ'^p|, 10 × its error bound); "
                          f"C_k(β): exact or |C| <= 10^-{eff.dps // 2}",
        "terms": [_term_json(t, eff.dps) for t in eff.terms],
    }


def _term_json(t: Any, dps: int) -> dict[str, Any]:
    """One term; a kinked σ's term (reused batch) adds its outlier count and the constants of
    its |a|a^k part."""
    out = {"k": t.k, "present": t.present, "reason": t.reason,
           "targets": [i + 1 for i in t.aligned],
           "constants": [_num(c, min(12, dps)) for c in t.constants]}
    if t.parts != 1 or t.odd_constants != ():
        out["outliers"] = t.parts if t.present else 0
        out["odd_part_constants"] = None if t.odd_constants is None else [
            _num(c, min(12, dps)) for c in t.odd_constants]
    return out


def _num(value: Any, digits: int = 12) -> str:
    """A constant to ``digits`` significant digits (at most --dps: never more than computed)."""
    import sympy as sp

    return str(value) if not isinstance(value, sp.Float) and value == 0 \
        else str(sp.N(value, digits))


def _add_effective(eff: EffectiveOutliers, summary: list[str], details: dict[str, Any],
                   table: Table, notes: list[str], inputs: dict[str, Any]) -> None:
    """The σ-aware part of ``lambda``: summary lines, details["effective"], two table
    columns (spike non-zero, why) and the notes of the analysis."""
    inputs.update(sigma=eff.sigma, targets=list(eff.targets), batch=eff.batch)
    details["effective"] = _effective_json(eff)
    summary.append(f"for σ = {eff.sigma} ({eff.batch} batch): " + (
        f"W2 has {int(eff.one_step)} + {eff.count} = {eff.outliers_of_w2} outliers (effective)"
        if eff.count is not None else "the effective count is not covered (see the terms)"))
    vanish = [f"k = {t.k}" for t in eff.terms if t.present is False]
    summary.append("outlier terms: " + (", ".join(f"k = {k}" for k in eff.present_ks) or "none")
                   + ("; vanishing: " + ", ".join(vanish) if vanish else "")
                   + _boundary_clause(eff))
    summary.append(f"one-step spike: {eff.one_step_reason}")
    if eff.targets and eff.count is None:
        summary.append("target alignment: not covered for this σ and batch")
    for i, g in enumerate(eff.targets if eff.count is not None else ()):
        ks = [str(t.k) for t in eff.terms if i in t.aligned]
        summary.append(f"β{i + 1} ({g}) is in the spike of term(s) k = {', '.join(ks) or 'none'}")
    from fltheory.render.latex import latex_escape

    by_k = {t.k: t for t in eff.terms}
    for rows, esc in ((table.rows, str), (table.latex_rows or [], latex_escape)):
        for row in rows:
            t = by_k.get(int(row[0])) if row[0].isdigit() else None
            row.append("-" if t is None else {None: "not covered", True: "yes",
                                              False: "no"}[t.present])
            row.append(esc("beyond Λ" if t is None else t.reason))
    table.columns.extend(["spike ≠ 0 (σ)", "why"])
    if table.latex_columns is not None:
        table.latex_columns.extend(["spike $\\ne 0$", "why"])
    table.align = (table.align or "") + "lp{6cm}"
    notes.extend(eff.notes)


def _lambda_notes(r: LambdaResult) -> list[str]:
    notes = []
    if r.boundary_k is not None:
        notes.append(
            f"boundary case: α2/(1/2 − α1) = {r.boundary_k} is an integer, so the term "
            f"k = {r.boundary_k} has exponent exactly 0; whether it is an outlier depends on its "
            f"O(1) constant, not on the exponent (Λ = {r.value} counts it; without it "
            f"Λ would be {r.value - 1})")
    if r.capped and not isinstance(r.L, Infinity):
        notes.append(f"Λ is capped by L − 1 = {r.L - 1}: σ has Hermite degree L = {r.L}, "
                     "so the second update has no terms beyond k = L − 1")
    return notes


def _lambda_details(r: LambdaResult, exponents: list[dict[str, Any]], dps: int) -> dict[str, Any]:
    return {
        "outliers_of_W2": r.outliers_of_w2,
        "ratio": fraction_str(r.ratio),
        "ratio_numeric": to_decimal_str(r.ratio, dps),
        "regime": r.regime,
        "one_step_equivalent": r.one_step_equivalent,
        "boundary": r.boundary_k is not None,
        "boundary_k": r.boundary_k,
        "exponents": exponents,
        "exponents_omitted": None if r.omitted is None else
        {"k_from": r.omitted[0], "k_to": r.omitted[1], "status": "outlier"},
    }


def _lambda_table(r: LambdaResult, dps: int, notes: list[str]) -> Table:
    """The exponents table (:meth:`LambdaResult.table`); appends the note on omitted rows
    (α1 near 1/2) to ``notes``."""
    if r.omitted is not None:
        lo, hi = r.omitted
        notes.append(f"{hi - lo + 1} terms k = {lo}..{hi} are not listed: their exponents are "
                     "all > 0 (outliers); Λ is exact")
    return r.table(dps)


def _latex_q(q: Fraction) -> str:
    from fltheory.render.latex import latex_fraction

    return latex_fraction(q)


@click.command("lambda")
@click.option("--a1", "a1", type=RATIONAL, required=True,
              help="α1 in [0, 1/2): η1 ≍ N^α1 (exact rational, e.g. .4 or 2/5).")
@click.option("--a2", "a2", type=RATIONAL, required=True,
              help="α2 in [0, 1/2): η2 ≍ N^α2.")
@click.option("--L", "-L", "L", type=CountType(minimum=1, allow_inf=True), default=INF,
              show_default=True, help="Hermite degree of σ (an integer >= 1, or inf).")
@click.option("--sigma", default=None,
              help="Activation (catalogue name or expression in z, as in `fltheory hermite`): "
                   "adds the effective count of outliers for this σ, with the reasons.")
@click.option("--target", "targets", multiple=True,
              help="With --sigma: g_k of one direction, repeated; shows which terms carry it.")
@click.option("--batch", type=click.Choice(["reused", "fresh"]), default=None,
              help="With --sigma: reused (default) or fresh batch.")
@dps_option
@format_option
def lambda_command(a1: Fraction, a2: Fraction, L: int | Infinity, sigma: str | None,
                   targets: tuple[str, ...], batch: str | None, dps: int, fmt: str) -> None:
    """Λ(α1, α2; L) = min(L − 1, ⌊α2/(1/2 − α1)⌋): outliers of W2 beyond the one-step spike.

    Computed exactly on rationals. Shows the exponent α2 + k(α1 − 1/2) of each term of the
    second update, the regime, and flags boundary cases (integer ratio: a term with exponent 0).
    With --sigma also the effective count for that activation: term k counts only if its spike
    constant is non-zero (E[σ^(k+1)σ'^p] ≠ 0 for some p <= k; fresh batch: μ_{k+1}(σ) ≠ 0).

    Example: fltheory lambda --a1 .4 --a2 .3 --sigma tanh
    """
    emit(lambda_result(TwoStepSetting(a1, a2, L, sigma, targets, batch, dps=dps)), fmt)


def phase_result(setting: TwoStepSetting) -> Result:
    """The regions of constant Λ along α2 at the setting's α1, as a :class:`Result`; with σ
    (L then is σ's degree) also the effective outlier count of W2 in each region."""
    eff = _phase_effective(setting)
    regions = phase_of(setting) if eff is None else list(eff.regions)
    L = setting.L if eff is None else eff.L
    dps, alpha1 = setting.dps, setting.alpha1
    rows, latex_rows, out, notes = _phase_rows(regions, region_count_of(setting, L), dps)
    a1 = fraction_str(alpha1)
    table = Table(columns=["α2 interval", "decimal", "Λ", "boundary at lower end"],
                  rows=rows, latex_columns=[r"$\alpha_2$", "decimal", r"$\Lambda$",
                                            "boundary"], latex_rows=latex_rows,
                  caption=f"Phase regions at α1 = {a1}",
                  latex_caption=f"Regions of constant $\\Lambda$ at $\\alpha_1 = "
                                f"{_latex_q(alpha1)}$.",
                  label="tab:fltheory-phase", align="lrrl")
    summary = [f"Λ along α2 at α1 = {a1} (L = {L}); boundaries α2 = k(1/2 − α1) "
               f"= k·{fraction_str(Fraction(1, 2) - alpha1)}"]
    details: dict[str, Any] = {"regions": out}
    notes = ["at a boundary α2 = k(1/2 − α1) the k-th term has exponent 0: its outlier status "
             "depends on its O(1) constant; Λ there counts it", *notes]
    if eff is None:
        notes.append(GENERIC_CONDITION)
    else:
        _phase_add_effective(eff, table, summary, details, notes, out)
    return Result(command="phase", inputs={"a1": a1, "L": str(L), "dps": dps}
                  | ({} if eff is None else {"sigma": eff.presence.sigma,
                                             "batch": eff.presence.batch}),
                  value=[o["lambda"] for o in out if "lambda" in o], conventions=_CONVENTIONS,
                  summary=summary, details=details, table=table, notes=notes)


def _phase_effective(setting: TwoStepSetting) -> EffectivePhase | None:
    """:func:`~fltheory.papers.twostep.sigma.effective_phase_of` of a setting with σ, or
    None."""
    if setting.sigma is None:
        return None
    from fltheory.papers.twostep.sigma import effective_phase_of

    _progress_to_terminal()
    return effective_phase_of(setting)


def _phase_add_effective(eff: EffectivePhase, table: Table, summary: list[str],
                         details: dict[str, Any], notes: list[str], out: list[dict[str, Any]]
                         ) -> None:
    """Column 'W2 outliers (σ)' per region, the per-term facts in summary and details."""
    pres = eff.presence
    by_value = {r.value: n for r, n in zip(eff.regions, eff.effective, strict=True)}
    for rows in (table.rows, table.latex_rows or []):
        for row in rows:
            n = by_value.get(int(row[2])) if row[2].isdigit() else None
            row.append("-" if n is None else str(n))
    table.columns.append("W2 outliers (σ)")
    if table.latex_columns is not None:
        table.latex_columns.append(r"$W_2$ outliers ($\sigma$)")
    table.align = (table.align or "") + "r"
    for o in out:
        if "lambda" in o:
            o["effective_outliers_of_W2"] = by_value.get(o["lambda"])
    present = [str(k + 1) for k, p in enumerate(pres.present) if p]
    summary.append(f"σ = {pres.sigma} ({pres.batch} batch): terms with a non-zero spike k = "
                   f"{', '.join(present) or 'none'} (of 1..{len(pres.present)}); "
                   f"{pres.one_step_reason}")
    details["effective"] = {"sigma": pres.sigma, "batch": pres.batch,
                            "one_step_spike": pres.one_step,
                            "terms": [{"k": k + 1, "present": p, "reason": r} for k, (p, r)
                                      in enumerate(zip(pres.present, pres.reasons,
                                                       strict=True))]}
    notes.extend(f"k = {k + 1}: {r}" for k, (p, r) in enumerate(zip(pres.present, pres.reasons,
                                                                   strict=True)) if not p)


def _phase_rows(regions: list[PhaseRegion], count: int, dps: int) -> tuple[list[list[str]],
                                                                     list[list[str]],
                                                                     list[dict[str, Any]],
                                                                     list[str]]:
    """Text rows, LaTeX rows, JSON entries and notes of the phase table (a jump in Λ between
    consecutive regions marks omitted middle regions, α1 near 1/2)."""
    rows: list[list[str]] = []
    latex_rows: list[list[str]] = []
    out: list[dict[str, Any]] = []
    notes = []
    for i, r in enumerate(regions):
        if i and r.value != regions[i - 1].value + 1:
            lo, hi = regions[i - 1].value + 1, r.value - 1
            rows.append(["…", "…", f"{lo}..{hi}", "yes"])
            latex_rows.append(["\\ldots", "\\ldots", f"${lo}..{hi}$", "yes"])
            out.append({"omitted": {"lambda_from": lo, "lambda_to": hi}})
            notes.append(f"{hi - lo + 1} regions Λ = {lo}..{hi} are not listed (region Λ = k is "
                         f"[k·g, (k+1)·g) with g = 1/2 − α1); {count} regions in all")
        high = "1/2" if r.alpha2_high is None else fraction_str(r.alpha2_high)
        high_q = Fraction(1, 2) if r.alpha2_high is None else r.alpha2_high
        rows.append([f"[{fraction_str(r.alpha2_low)}, {high})",
                     f"[{to_decimal_str(r.alpha2_low, dps)}, {to_decimal_str(high_q, dps)})",
                     str(r.value), "yes" if r.boundary_at_low else "no"])
        latex_rows.append([f"$[{_latex_q(r.alpha2_low)}, {_latex_q(high_q)})$", rows[-1][1],
                           str(r.value), rows[-1][3]])
        out.append({"alpha2_low": fraction_str(r.alpha2_low), "alpha2_high": high,
                    "lambda": r.value, "boundary_at_low": r.boundary_at_low})
    return rows, latex_rows, out, notes


@click.command("phase")
@click.option("--a1", "a1", type=RATIONAL, required=True, help="α1 in [0, 1/2).")
@click.option("--L", "-L", "L", type=CountType(minimum=1, allow_inf=True), default=INF,
              show_default=True, help="Hermite degree of σ (an integer >= 1, or inf).")
@click.option("--sigma", default=None,
              help="Activation (as in `fltheory hermite`): adds the effective number of "
                   "outliers of W2 for this σ in each region.")
@click.option("--batch", type=click.Choice(["reused", "fresh"]), default=None,
              help="With --sigma: reused (default) or fresh batch.")
@dps_option
@format_option
def phase_command(a1: Fraction, L: int | Infinity, sigma: str | None, batch: str | None,
                  dps: int, fmt: str) -> None:
    """Regions of constant Λ along α2 ∈ [0, 1/2) at fixed α1 (boundaries α2 = k(1/2 − α1)).

    The lower end of every region with Λ >= 1 is a boundary case: there the last counted term
    has exponent exactly 0. Example: fltheory phase --a1 .45
    """
    emit(phase_result(TwoStepSetting(a1, L=L, sigma=sigma, batch=batch, dps=dps)), fmt)


@click.group("twostep")
def twostep_group() -> None:
    """Two steps of gradient descent (Moniri & Hassani 2026): learn, simulate."""


@twostep_group.command("learn")
@click.option("--sigma", default=TWO_STEP_SIGMA,
              show_default=True, help="Activation: an expression in z or a catalogue name "
                                      "(polynomial: exact; any other σ through the σ-aware "
                                      "terms, e.g. tanh).")
@click.option("--target", "targets", multiple=True, required=True,
              help="g_k of one direction, repeated: --target He1 --target He3 (directions "
                   "β_1, β_2, … orthonormal, one per --target; functions written in z).")
@click.option("--a1", "a1", type=RATIONAL, required=True, help="α1 in [0, 1/2).")
@click.option("--a2", "a2", type=RATIONAL, required=True, help="α2 in [0, 1/2).")
@click.option("--batch", type=click.Choice(["reused", "fresh"]), default="reused",
              show_default=True)
@click.option("--psi", type=RATIONAL, default="1", show_default=True,
              help="d/n of each step's batch.")
@dps_option
@format_option
def learn_command(sigma: str, targets: tuple[str, ...], a1: Fraction, a2: Fraction, batch: str,
                  psi: Fraction, dps: int, fmt: str) -> None:
    """Which target directions are learned after step 1 and after step 2, with the reason.

    y = Σ_k g_k(β_k·x). A direction is learned in step 2 when its spike constant C_k(β) ≠ 0
    for an outlier term 1 <= k <= Λ (Λ capped by L − 1, L the degree of σ).

    Example: fltheory twostep learn --target He1 --target He3 --a1 .45 --a2 .3 --batch reused
    """
    from fltheory.papers.twostep.learning import learn_of

    setting = TwoStepSetting(a1, a2, sigma=sigma, targets=targets, batch=batch, psi=psi,
                             dps=dps)
    _progress_to_terminal()
    report = learn_of(setting)
    emit(learn_result(report, {"sigma": sigma, "targets": list(targets), "a1": fraction_str(a1),
                               "a2": fraction_str(a2), "batch": batch,
                               "psi": fraction_str(psi), "dps": report.model.dps}), fmt)


def learn_result(report: LearnReport, inputs: dict[str, Any]) -> Result:
    """A :class:`~fltheory.papers.twostep.learning.LearnReport` as a :class:`Result`."""
    dirs, exps = report.directions, report.exponents
    return Result(
        command="twostep learn",
        inputs=inputs,
        value=[{"direction": i + 1, "target": d.target, "step1": d.step1, "step2": d.step2,
                "boundary": d.boundary, "via_k": d.via_k} for i, d in enumerate(dirs)],
        conventions=_CONVENTIONS | {"normalisation": "f(x) = aᵀσ(Wx)/√N, W0 ~ N(0, 1/d), "
                                                     "a ~ N(0, 1) fixed, correlation loss"},
        summary=[f"Λ = {report.lam} (σ of degree {_degree(report)}, α1 = {inputs['a1']}, "
                 f"α2 = {inputs['a2']}, {inputs['batch']} batch)", *_learn_outliers(report)],
        details={"lambda": report.lam, "directions": [
            {"reason": d.reason, "information_exponent": ex[0], "generative_exponent": ex[1]}
            for d, ex in zip(dirs, exps, strict=True)]}
        | ({} if report.outliers is None else {"effective": _effective_json(report.outliers)}),
        table=report.table(),
        notes=["info/gen: information and generative exponents of g (Hermite engine). A reused "
               "batch can reach a direction only if its generative exponent is 1 (some power of "
               "y correlates with β·x); a fresh one only if its information exponent is 1",
               *(f"k = {t.k}: {t.reason}" for t in (() if report.outliers is None
                                                     else report.outliers.terms)
                 if not t.present)],
    )


def _degree(report: LearnReport) -> int | Infinity:
    """L of the report's σ (inf for a non-polynomial σ)."""
    return report.model.degree if report.outliers is None else report.outliers.generic.L


def _learn_outliers(report: LearnReport) -> list[str]:
    """The effective outlier count of W2 for σ, one line (none when not computed)."""
    eff = report.outliers
    if eff is None:
        return []
    ks = ", ".join(map(str, eff.present_ks)) or "none"
    count = "not covered" if eff.count is None else \
        f"{int(eff.one_step)} + {eff.count} = {eff.outliers_of_w2}"
    return [f"outliers of W2 for this σ: {count} (terms with a non-zero spike: k = {ks}; "
            f"generic 1 + Λ = {1 + report.lam})" + _boundary_clause(eff)]


def _boundary_clause(eff: EffectiveOutliers) -> str:
    """'; k = K is a boundary case …' when a counted term has exponent exactly 0 (as the
    lambda note says: Λ and the effective count include it)."""
    ks = [t.k for t in eff.terms if t.present and t.exponent == 0]
    return "" if not ks else (f"; k = {ks[0]} is a boundary case (exponent exactly 0: counted, "
                              "but whether it is an outlier depends on its O(1) constant)")


@twostep_group.command("simulate")
@click.option("--N", "N", type=CountType(minimum=10), default=1000, show_default=True,
              help="Width N = n = d >= 10; cost 2·(4 + L)·N³ <= 4e11 operations (N <= 3000 "
                   "for a cubic σ) and memory <= 2 GiB.")
@click.option("--a1", "a1", type=RATIONAL, default="2/5", show_default=True)
@click.option("--a2", "a2", type=RATIONAL, default="3/10", show_default=True)
@click.option("--batch", type=click.Choice(["reused", "fresh"]), default="reused",
              show_default=True)
@click.option("--sigma", default="h1+h2+h3", show_default=True,
              help="Simulator activation: a polynomial (h1+h2+h3, h1+h3, He1, cubic) or tanh, "
                   "relu, erf, tanh(z+1/2), gelu (no finite Taylor terms: only the spectrum "
                   "and the one-step overlap are reported).")
@click.option("--target", "targets", multiple=True,
              help="Simulator target per direction, repeated (He1, He2, He3, tanh, bounded3); "
                   "default: --target He1 --target bounded3.")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True)
@format_option
def simulate_command(N: int, a1: Fraction, a2: Fraction, batch: str, sigma: str,
                     targets: tuple[str, ...], seed: int, fmt: str) -> None:
    """Simulate the two steps and report the estimated spike constants Ĉ_k of the terms H_k
    along each target direction and a random one, and the Taylor-identity residual.

    Ĉ_k(v) = √N Σ_j a_j^{k+1}(H_k v)_j / Σ_j a_j^{2k+2} estimates the leading-order constant
    C_k(v) of `fltheory verify twostep`.
    """
    import sys

    from fltheory.papers.twostep.runs import simulate_run

    run = Simulation(N, alpha1=a1, alpha2=a2, batch=batch, seed=seed)

    def announce() -> None:
        if sys.stderr.isatty():
            click.echo(f"simulating N = n = d = {N} ({batch} batch) ...", err=True)

    result = simulate_run(run, sigma, targets, on_start=announce)
    inputs = {"N": N, "a1": fraction_str(a1), "a2": fraction_str(a2), "batch": batch,
              "sigma": sigma, "targets": list(result.report.targets), "seed": seed}
    emit(simulate_result(result, inputs), fmt)


def simulate_result(result: SimulateRun, inputs: dict[str, Any]) -> Result:
    """A :class:`~fltheory.papers.twostep.runs.SimulateRun` as a :class:`Result`; the exponent
    column is the theory's, from the run."""
    report = result.report
    if report.C_hat is None:  # non-polynomial σ: the spectrum and the one-step alignment
        sv = report.singular_values or []
        return Result(
            command="twostep simulate", inputs=inputs,
            value={"top_singular_values_W2": sv[:8], "one_step_overlaps": report.overlaps},
            conventions=_CONVENTIONS,
            summary=[f"σ = {report.sigma} has no finite Taylor expansion: no terms H_k",
                     "top singular values of W2: " + ", ".join(f"{v:.3f}" for v in sv[:8]),
                     "squared overlaps of W1's top right-singular vector with β_k: "
                     + ", ".join(f"{o:.4f}" for o in report.overlaps or [])],
            details={"singular_values_W2": sv})
    est = report.C_hat
    names = [f"Ĉ_k(β{i + 1}: {t})" for i, t in enumerate(report.targets)] + ["Ĉ_k(random)"]
    rows = [[str(k), *(f"{c:+.4f}" for c in est[k]), to_decimal_str(result.exponents[k], 6)]
            for k in range(len(est))]
    return Result(
        command="twostep simulate", inputs=inputs, value=est, conventions=_CONVENTIONS,
        summary=[f"Taylor identity residual {report.taylor_residual:.1e}; ε = η1/√N = "
                 f"{report.epsilon:.4f}"],
        details={"C_hat": est, "columns": names, "taylor_residual": report.taylor_residual},
        table=Table(columns=["k", *names, "exponent"], rows=rows,
                    caption="Estimated spike constants of the second-step terms",
                    label="tab:fltheory-twostep-sim", align="r" * (len(names) + 2)),
        notes=["predictions: fltheory verify twostep (one seed is noisy: average seeds)"],
    )
