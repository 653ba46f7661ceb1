"""Commands of the Hermite engine: ``hermite`` and ``exponent``."""

from __future__ import annotations

from typing import Any

import click

from fltheory.cli.options import CountType, check_dps, dps_option, emit, format_option
from fltheory.exact import DomainError, check_integer
from fltheory.results import Result, Table

_EXPR_HELP = ("EXPR is a catalogue name (relu, tanh, sigmoid, softplus, gelu, erf, abs, sign, "
              "quadratic, cubic, He1..He8) or an expression in z built from "
              "numbers (exact: .5 is 1/2), z, pi, E, + - * / ** (or ^), and the functions exp log "
              "sqrt sin cos tan tanh sinh cosh atan erf erfc Abs sign Max Min Heaviside relu "
              "sigmoid softplus Phi He0..He12. Quote it in the shell: \"Max(z, 0)\". "
              # The same numbers as fltheory.theory.functions.LIMITS (a test compares them; they
              # are restated here so that the CLI module does not import sympy at load time).
              "Bounds, checked before any work: at most 2000 characters, 500 syntax nodes, "
              "nesting depth 50, polynomial degree 200 (40 inside Abs/sign/Max/Min/Heaviside/relu) "
              "and 5000 terms after expansion, exact "
              "constants of 10000 digits, numeric exponents of magnitude 1000. f must be "
              "real-valued and square-integrable under N(0, 1) (decided by sympy limits at its "
              "singular points and at ±∞, numerically when sympy cannot); otherwise EXPR is "
              "refused with the reason.")
#: Largest degree / kmax on the command line (the API allows 200): at the default --dps 30 a
#: numeric (quadrature) expansion costs ~1 s per coefficient on this machine for a singular f
#: such as |z|^(-1/3), so 60 (hermite) and 40 (exponent, which also runs the generative search)
#: stay around a minute in the worst accepted case.
_K_MAX = 60
_KMAX_MAX = 40


def _conventions(basis: str) -> dict[str, str]:
    if basis == "h":
        text = ("orthonormal h_k = He_k/√(k!); μ_k = E[f(z) h_k(z)], z ~ N(0, 1); f = Σ μ_k h_k")
    else:
        text = ("probabilists' He_k (monic); c_k = μ_k/√(k!) = E[f He_k]/k!; f = Σ c_k He_k")
    return {"basis": text,
            "paths": "exact:* = closed form (sympy); numeric:quad = mpmath quadrature at dps + 10 "
                     "digits, checked against dps + 25 (agreement in digits)"}


def _check_budget(budget: Any) -> float:
    """Seconds in [0, 600], compared exactly (so 1e309 is one line, not an OverflowError)."""
    from fractions import Fraction

    from fltheory.exact import fraction_str, parse_rational

    value = parse_rational(budget, "budget") if not isinstance(budget, float | int) \
        else Fraction(budget)
    if not 0 <= value <= 600:
        shown = budget if isinstance(budget, str) and len(budget) < 40 else fraction_str(value) \
            if value.numerator.bit_length() < 200 else "a number beyond 600"
        raise DomainError("budget", shown, "[0, 600] seconds")
    return float(value)


def _numeric_text(value: Any, dps: int, agreement: int | None, zero: bool) -> str:
    """A coefficient to the digits that were confirmed: all ``dps`` on exact paths; on the
    numeric path only the digits on which the two working precisions agree, and the word
    'unconfirmed' (with the digits reached) when not even one agreed."""
    import mpmath

    if agreement is None or agreement >= dps or zero:
        return mpmath.nstr(value, dps)
    if agreement < 1:
        return "unconfirmed (0 digits agree)"
    return f"{mpmath.nstr(value, agreement)} ({agreement} digits)"


def hermite_result(expr: str, K: int, basis: str, dps: int, budget: float) -> Result:
    import mpmath
    import sympy as sp

    from fltheory.theory.hermite import expansion, parseval

    check_integer(K, "K", 0, _K_MAX)
    e = expansion(expr, K, dps, _check_budget(budget))
    p = parseval(e.function, K, dps, e)
    symbol = "μ" if basis == "h" else "c"
    rows, latex_rows, coeffs = [], [], []
    for c in e.coefficients:
        exact = c.exact_in(basis)  # type: ignore[arg-type]
        numeric = _numeric_text(c.numeric_in(basis), dps, c.agreement,  # type: ignore[arg-type]
                                c.zero)
        exact_s = str(exact) if exact is not None else "-"
        rows.append([str(c.k), exact_s, numeric, c.path])
        latex_rows.append([str(c.k), f"${sp.latex(exact)}$" if exact is not None else "--",
                           f"${numeric}$",
                           c.path])
        coeffs.append({"k": c.k, "exact": None if exact is None else str(exact),
                       "numeric": None if numeric.startswith("unconfirmed") else numeric,
                       "path": c.path, "agreement_digits": c.agreement,
                       "zero": c.zero})
    captured = mpmath.nstr(p.captured, min(dps, 15))
    table = Table(
        columns=["k", f"{symbol}_k exact", f"{symbol}_k numeric", "path"],
        rows=rows,
        latex_columns=["$k$", ("$\\mu_k$" if basis == "h" else "$c_k$") + " exact", "numeric",
                       "path"],
        latex_rows=latex_rows,
        caption=f"Hermite coefficients of f(z) = {e.function.expr} (basis {basis})",
        latex_caption=(f"Hermite coefficients of $f(z) = {sp.latex(e.function.expr)}$ "
                       + ("(basis $h_k$)." if basis == "h" else r"(basis $\mathrm{He}_k$).")),
        label="tab:fltheory-hermite",
        align="rlrl",
    )
    numeric_paths = [c for c in e.coefficients if c.agreement is not None]
    notes = list(e.notes)
    if numeric_paths:
        worst = min(c.agreement or 0 for c in numeric_paths)
        notes.append(f"numeric coefficients agree to >= {worst} digits between working "
                     f"precisions {dps + 10} and {dps + 25}; a numeric coefficient counts as zero "
                     f"when |μ_k| <= 10^-{dps}·‖f‖")
        if worst < dps:
            notes.append("a numeric coefficient is printed only to the digits on which the two "
                         "precisions agree (their number in parentheses)")
    return Result(
        command="hermite",
        inputs={"expr": expr, "K": K, "basis": basis, "dps": dps, "budget": budget},
        value=[c["exact"] if c["exact"] is not None else c["numeric"] for c in coeffs],
        numeric=None,
        conventions=_conventions(basis),
        summary=[f"f(z) = {e.function.expr}",
                 f"E[f²] = {p.norm2_exact if p.norm2_exact is not None else '-'} ≈ "
                 f"{mpmath.nstr(p.norm2, min(dps, 15))} ({p.path})",
                 f"Parseval: Σ_(k<={K}) μ_k² / E[f²] = {captured}"],
        details={"function": str(e.function.expr), "coefficients": coeffs,
                 "norm2": {"exact": None if p.norm2_exact is None else str(p.norm2_exact),
                           "numeric": mpmath.nstr(p.norm2, dps), "path": p.path},
                 "parseval_captured": captured},
        table=table,
        notes=notes,
        latex_value=f"f(z) = {sp.latex(e.function.expr)}",
    )


@click.command("hermite", epilog=_EXPR_HELP)
@click.argument("expr")
@click.option("-K", "K", type=CountType(minimum=0), default=8, show_default=True,
              help=f"Highest degree k (at most {_K_MAX}).")
@click.option("--basis", type=click.Choice(["h", "He"]), default="h", show_default=True,
              help="h: orthonormal μ_k; He: monic c_k = μ_k/√(k!).")
@click.option("--budget", default="5", show_default=True,
              help="Seconds sympy.integrate may spend on this function before quadrature, "
                   "in [0, 600]. It bounds sympy's integrate only; the bounds on EXPR below "
                   "hold whatever the budget.")
@dps_option
@format_option
def hermite_command(expr: str, K: int, basis: str, budget: str, dps: int, fmt: str) -> None:
    """Hermite coefficients of EXPR: exact where possible, else mpmath at --dps digits.

    Each coefficient says which path produced it (exact:polynomial, exact:piecewise,
    exact:gaussian-ibp, exact:sympy or numeric:quad). Also E[f²] and the Parseval fraction.

    Example: fltheory hermite relu -K 12 ; fltheory hermite "tanh(z)" --dps 50
    """
    from fltheory.theory.functions import parse_function

    budget_s = _check_budget(budget)
    check_integer(K, "K", 0, _K_MAX)
    parse_function(expr)  # a bad expression fails before any work
    emit(hermite_result(expr, K, basis, check_dps(dps), budget_s), fmt)


def exponent_result(expr: str, kmax: int, dps: int) -> Result:
    from fltheory.theory.hermite import expansion, generative_exponent, information_exponent

    check_integer(kmax, "kmax", 1, _KMAX_MAX)
    e = expansion(expr, kmax, dps, 5.0)
    info = information_exponent(e.function, kmax, dps, e)
    gen = generative_exponent(e.function, kmax, dps, e)
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
        summary=[f"f(z) = {e.function.expr}",
                 f"information exponent: {info}  ({info.reason})",
                 f"generative exponent: {gen}  ({gen.reason})"],
        details={"function": str(e.function.expr),
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
              help=f"Largest k examined (at most {_KMAX_MAX}); beyond it the answer is '> kmax'.")
@dps_option
@format_option
def exponent_command(expr: str, kmax: int, dps: int, fmt: str) -> None:
    """Information and generative exponents of EXPR, each with its reason.

    Example: fltheory exponent He3   (information 3, generative 1)
    """
    from fltheory.theory.functions import parse_function

    check_integer(kmax, "kmax", 1, _KMAX_MAX)
    parse_function(expr)  # a bad or non-square-integrable expression fails before any work
    emit(exponent_result(expr, kmax, check_dps(dps)), fmt)
