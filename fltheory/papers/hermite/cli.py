"""Commands of the Hermite engine: ``hermite`` and ``exponent``. Each parses, builds its query
once (:mod:`fltheory.papers.hermite.params`), asks the theory (the engine) and renders."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from fltheory.cli.options import CountType, dps_option, emit, format_option
from fltheory.engine.hermite.bounds import BUDGET_MAX, K_MAX, KMAX_MAX
from fltheory.papers.hermite.params import ExpansionQuery, ExponentQuery
from fltheory.results import Result

if TYPE_CHECKING:
    from fltheory.papers.hermite.theory import Basis, Expansion

_EXPR_HELP = ("EXPR is a catalogue name (relu, tanh, sigmoid, softplus, gelu, erf = erf(z), "
              "erf_ss = erf(z/√2) (Saad & Solla's), abs, sign, quadratic, cubic, He1..He8, "
              "bounded3) or an expression in z (or x) built from "
              "numbers (exact: .5 is 1/2), z (or x), pi, E, + - * / ** (or ^), and the functions "
              "exp log sqrt sin cos tan tanh sinh cosh atan erf erfc Abs sign Max Min Heaviside "
              "relu sigmoid softplus Phi He0..He12. Quote it in the shell: \"Max(z, 0)\". "
              # The same numbers as fltheory.engine.functions.LIMITS (a test compares them; they
              # are restated here so that the CLI module does not import sympy at load time).
              "Bounds, checked before any work: at most 2000 characters, 500 syntax nodes, "
              "nesting depth 50, polynomial degree 200 (40 inside Abs/sign/Max/Min/Heaviside/relu) "
              "and 5000 terms after expansion, exact "
              "constants of 10000 digits, numeric exponents of magnitude 1000. f must be "
              "real-valued and square-integrable under N(0, 1) (decided by sympy limits at its "
              "singular points and at ±∞, numerically when sympy cannot); otherwise EXPR is "
              "refused with the reason.")


def _conventions(basis: str) -> dict[str, str]:
    if basis == "h":
        text = ("orthonormal h_k = He_k/√(k!); μ_k = E[f(z) h_k(z)], z ~ N(0, 1); f = Σ μ_k h_k")
    else:
        text = ("probabilists' He_k (monic); c_k = μ_k/√(k!) = E[f He_k]/k!; f = Σ c_k He_k")
    return {"basis": text,
            "paths": "exact:* = closed form (sympy); numeric:quad = mpmath quadrature at dps + 10 "
                     "digits, checked against dps + 25 (agreement in digits)"}


def _coefficients(e: Expansion, basis: Basis) -> list[dict]:
    """JSON records of the coefficients in ``basis``."""
    coeffs = []
    for c in e.coefficients:
        exact, numeric = c.exact_in(basis), c.confirmed_text(basis)
        coeffs.append({"k": c.k, "exact": None if exact is None else str(exact),
                       "numeric": None if numeric.startswith("unconfirmed") else numeric,
                       "path": c.path, "agreement_digits": c.agreement, "zero": c.zero})
    return coeffs


def _notes(e: Expansion) -> list[str]:
    notes, dps, worst = list(e.notes), e.dps, e.worst_agreement
    if worst is not None:
        notes.append(f"numeric coefficients agree to >= {worst} digits between working "
                     f"precisions {dps + 10} and {dps + 25}; a numeric coefficient counts as zero "
                     f"when |μ_k| <= 10^-{dps}·‖f‖")
        if worst < dps:
            notes.append("a numeric coefficient is printed only to the digits on which the two "
                         "precisions agree (their number in parentheses)")
    notes.extend(c.test.describe(f"μ_{c.k}") for c in e.coefficients
                 if c.near_zero and c.exact is not None and c.test is not None)
    return notes


def hermite_result(query: ExpansionQuery) -> Result:
    """μ_0..μ_K of the query's function with E[f²] and the Parseval fraction, as a Result."""
    import mpmath
    import sympy as sp

    from fltheory.papers.hermite.theory import expansion, parseval

    expr, K, basis, dps = query.expr, query.K, query.basis, query.dps
    e = expansion(expr, K, dps, query.budget)
    p = parseval(e.function, K, dps, e)
    coeffs = _coefficients(e, basis)
    captured = mpmath.nstr(p.captured, min(dps, 15))
    norm2 = {"exact": None if p.norm2_exact is None else str(p.norm2_exact),
             "numeric": mpmath.nstr(p.norm2, dps), "path": p.path}
    return Result(
        command="hermite",
        inputs={"expr": expr, "K": K, "basis": basis, "dps": dps, "budget": e.budget},
        value=[c["exact"] if c["exact"] is not None else c["numeric"] for c in coeffs],
        numeric=None,
        conventions=_conventions(basis),
        summary=[f"f(z) = {e.function.expr}",
                 f"E[f²] = {p.norm2_exact if p.norm2_exact is not None else '-'} ≈ "
                 f"{mpmath.nstr(p.norm2, min(dps, 15))} ({p.path})",
                 f"Parseval: Σ_(k<={K}) μ_k² / E[f²] = {captured}"],
        details={"function": str(e.function.expr), "coefficients": coeffs, "norm2": norm2,
                 "parseval_captured": captured},
        table=e.table(basis).replace(notes=[]),  # the notes are the result's own
        notes=_notes(e),
        latex_value=f"f(z) = {sp.latex(e.function.expr)}",
    )


@click.command("hermite", epilog=_EXPR_HELP)
@click.argument("expr")
@click.option("-K", "K", type=CountType(minimum=0), default=8, show_default=True,
              help=f"Highest degree k (at most {K_MAX}).")
@click.option("--basis", type=click.Choice(["h", "He"]), default="h", show_default=True,
              help="h: orthonormal μ_k; He: monic c_k = μ_k/√(k!).")
@click.option("--budget", default="5", show_default=True,
              help="Seconds sympy.integrate may spend on this function before quadrature, "
                   f"in [0, {BUDGET_MAX}]. It bounds sympy's integrate only; the bounds on EXPR "
                   "below hold whatever the budget.")
@dps_option
@format_option
def hermite_command(expr: str, K: int, basis: str, budget: str, dps: int, fmt: str) -> None:
    """Hermite coefficients of EXPR: exact where possible, else mpmath at --dps digits.

    Each coefficient says which path produced it (exact:polynomial, exact:piecewise,
    exact:gaussian-ibp, exact:sympy or numeric:quad). Also E[f²] and the Parseval fraction.

    Example: fltheory hermite relu -K 12 ; fltheory hermite "tanh(z)" --dps 50
    """
    emit(hermite_result(ExpansionQuery(expr, K, basis, dps, budget)), fmt)


def exponent_result(query: ExponentQuery) -> Result:
    """The information and generative exponents of the query's function, as a Result."""
    from fltheory.papers.hermite.theory import analyse

    expr, kmax, dps = query.expr, query.kmax, query.dps
    a = analyse(expr, kmax, dps)
    info, gen = a.information, a.generative
    return Result(
        command="exponent",
        inputs={"expr": expr, "kmax": kmax, "dps": dps},
        value={"information": str(info), "generative": str(gen)},
        conventions={
            "information exponent": "smallest k >= 1 with μ_k = E[f h_k] ≠ 0",
            "generative exponent": "smallest k >= 1 with E[h_k(z) | f(z)] not a.s. zero "
                                   "(Damian, Pillaud-Vivien, Lee & Bruna 2024)",
            "basis": "orthonormal h_k = He_k/√(k!)",
        },
        summary=[f"f(z) = {a.function.expr}",
                 f"information exponent: {info}  ({info.reason})",
                 f"generative exponent: {gen}  ({gen.reason})"],
        details={"function": str(a.function.expr),
                 "information": {"value": info.value, "exact": info.exact,
                                 "reason": info.reason, "evidence": list(info.evidence)},
                 "generative": {"value": gen.value, "exact": gen.exact, "reason": gen.reason,
                                "evidence": list(gen.evidence)}},
        notes=[] if info.value is not None else [f"no non-zero coefficient up to kmax = {kmax}"],
        latex_value=(rf"k_\star = {info.value if info.value is not None else '>' + str(kmax)},"
                     rf"\quad k^\star_{{\mathrm{{gen}}}} = "
                     rf"{gen.value if gen.value is not None else '>' + str(kmax)}"),
    )


@click.command("exponent", epilog=_EXPR_HELP)
@click.argument("expr")
@click.option("--kmax", type=CountType(minimum=1), default=12, show_default=True,
              help=f"Largest k examined (at most {KMAX_MAX}); beyond it the answer is '> kmax'.")
@dps_option
@format_option
def exponent_command(expr: str, kmax: int, dps: int, fmt: str) -> None:
    """Information and generative exponents of EXPR, each with its reason.

    Example: fltheory exponent He3   (information 3, generative 1)
    """
    emit(exponent_result(ExponentQuery(expr, kmax, dps)), fmt)
