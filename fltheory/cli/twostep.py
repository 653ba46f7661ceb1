"""Commands of the two-step paper (seed 000): ``lambda``."""

from __future__ import annotations

from fractions import Fraction

import click

from fltheory.cli.options import RATIONAL, CountType, check_dps, dps_option, emit, format_option
from fltheory.exact import INF, Infinity, fraction_str, to_decimal_str
from fltheory.results import Result, Table

_CONVENTIONS = {
    "Λ": "counts the spectral outliers of W2 beyond the one-step spike; W2 has 1 + Λ in all",
    "scaling": "η1 ≍ N^α1, η2 ≍ N^α2; the k-th term of the second update ≍ N^(α2 + k(α1 − 1/2)), "
               "k = 0, …, L − 1; a term is an outlier when its exponent is > 0",
    "numbers": "inputs are exact rationals; decimals are rounded from them at --dps digits",
    "source": "Moniri & Hassani (2026), arXiv 2605.17767",
}


def lambda_result(alpha1: Fraction, alpha2: Fraction, L: int | Infinity, dps: int) -> Result:
    """Λ(α1, α2; L) with its exponents, regime and boundary flag, as a :class:`Result`."""
    from fltheory.theory.twostep import lambda_details

    r = lambda_details(alpha1, alpha2, L)
    a1, a2 = fraction_str(r.alpha1), fraction_str(r.alpha2)
    summary = [
        f"Λ(α1 = {a1}, α2 = {a2}; L = {r.L}) = {r.value}",
        f"W2 has 1 + Λ = {r.outliers_of_w2} outliers: the one-step spike plus Λ beyond it",
        f"regime: {r.regime}",
        f"ratio α2/(1/2 − α1) = {fraction_str(r.ratio)} ≈ {to_decimal_str(r.ratio, dps)}",
    ]
    notes = []
    if r.boundary_k is not None:
        notes.append(
            f"boundary case: α2/(1/2 − α1) = {r.boundary_k} is an integer, so the term "
            f"k = {r.boundary_k} has exponent exactly 0; whether it is an outlier depends on its "
            f"O(1) constant, not on the exponent (Λ = {r.value} counts it; without it "
            f"Λ would be {r.value - 1})")
    if not isinstance(r.L, Infinity) and r.value == r.L - 1 and r.ratio >= r.L:
        notes.append(f"Λ is capped by L − 1 = {r.L - 1}: σ has Hermite degree L = {r.L}, "
                     "so the second update has no terms beyond k = L − 1")
    exponents = [{"k": t.k, "exponent": fraction_str(t.exponent),
                  "numeric": to_decimal_str(t.exponent, dps), "status": t.status}
                 for t in r.exponents]
    table = Table(
        columns=["k", "exponent α2 + k(α1 − 1/2)", "decimal", "status"],
        rows=[[str(e["k"]), str(e["exponent"]), str(e["numeric"]), str(e["status"])]
              for e in exponents],
        latex_columns=["$k$", r"$\alpha_2 + k(\alpha_1 - \tfrac12)$", "decimal", "status"],
        latex_rows=[[str(t.k), "$" + _latex_q(t.exponent) + "$",
                     to_decimal_str(t.exponent, dps), t.status] for t in r.exponents],
        caption=(f"Exponents of the terms of the second update at α1 = {a1}, α2 = {a2}, "
                 f"L = {r.L}: Λ = {r.value}"),
        latex_caption=(r"Exponents of the terms of the second update at $\alpha_1 = "
                       + _latex_q(r.alpha1) + r"$, $\alpha_2 = " + _latex_q(r.alpha2)
                       + r"$, $L = " + ("\\infty" if isinstance(r.L, Infinity) else str(r.L))
                       + r"$: $\Lambda = " + str(r.value) + "$."),
        label="tab:fltheory-lambda-exponents",
        align="rrrl",
    )
    latex_value = (r"\Lambda(\alpha_1 = " + _latex_q(r.alpha1) + r", \alpha_2 = "
                   + _latex_q(r.alpha2) + ("" if isinstance(r.L, Infinity) else f"; L = {r.L}")
                   + f") = {r.value}")
    return Result(
        command="lambda",
        inputs={"a1": a1, "a2": a2, "L": str(r.L), "dps": dps},
        value=r.value,
        numeric=str(r.value),
        conventions=_CONVENTIONS,
        summary=summary,
        details={
            "outliers_of_W2": r.outliers_of_w2,
            "ratio": fraction_str(r.ratio),
            "ratio_numeric": to_decimal_str(r.ratio, dps),
            "regime": r.regime,
            "one_step_equivalent": r.alpha1 + r.alpha2 < Fraction(1, 2),
            "boundary": r.boundary_k is not None,
            "boundary_k": r.boundary_k,
            "exponents": exponents,
        },
        table=table,
        notes=notes,
        latex_value=latex_value,
    )


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
@dps_option
@format_option
def lambda_command(a1: Fraction, a2: Fraction, L: int | Infinity, dps: int, fmt: str) -> None:
    """Λ(α1, α2; L) = min(L − 1, ⌊α2/(1/2 − α1)⌋): outliers of W2 beyond the one-step spike.

    Computed exactly on rationals. Shows the exponent α2 + k(α1 − 1/2) of each term of the
    second update, the regime, and flags boundary cases (integer ratio: a term with exponent 0).

    Example: fltheory lambda --a1 .4 --a2 .3
    """
    emit(lambda_result(a1, a2, L, check_dps(dps)), fmt)
