"""Commands of the sample-complexity paper: ``samples`` (a single-index link's table) and
``leap`` (a multi-index polynomial target's leap). They parse, call the theory and render."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

from fltheory.cli.options import CountType, RationalType, emit, format_option
from fltheory.papers.samples.params import KMAX, Link, Target
from fltheory.results import Result, Table

if TYPE_CHECKING:
    from fltheory.papers.samples.multiindex import Stage

#: the directions u_1 … u_r of z = Uᵀx, exact
Directions = tuple[tuple[Fraction, ...], ...]

_SAMPLES_EPILOG = (
    "G is a catalogue name (relu, tanh, sigmoid, softplus, gelu, erf, erf_ss, abs, sign, "
    "quadratic, cubic, He1..He8, bounded3) or an expression in z, exactly as for 'fltheory "
    "exponent' (same grammar, bounds and refusals). Examples: fltheory samples He3 ; fltheory "
    "samples relu --noise 1/2 ; fltheory samples 'z**2*sign(z)' --format json")

_LEAP_EPILOG = (
    "TARGET is a polynomial in the orthonormal coordinates z1 … z8 (z = Uᵀx) with exact "
    "rational coefficients: numbers, z1 … z8, + - * / (by a number) ** (a whole power) and "
    "He0 … He12 of one coordinate. At most 2000 characters, 500 syntax nodes, degree 12 per "
    "coordinate, total degree 24, 5000 terms. A non-polynomial TARGET (sign, Heaviside, Abs, "
    "relu, Max, Min, tanh, erf, sigmoid of sub-expressions, e.g. 'sign(z1*z2*z3)') gets its "
    "generative leap only. Examples: fltheory leap 'z1 + z1*z2 + z1*z2*z3' "
    "(leap 1, merged staircase) ; fltheory leap 'z1*z2*z3' (leap 3) ; fltheory leap "
    "'He3(z1)'")


def samples_result(link: Link) -> Result:
    """The answer of ``fltheory samples``."""
    from fltheory.engine.spectral.spikes import short_fraction
    from fltheory.papers.samples.theory import link_table

    t = link_table(link)
    info, gen = t.information, t.generative
    return Result(
        command="samples",
        inputs={"g": link.g, "noise": short_fraction(link.noise), "kmax": link.kmax,
                "dps": link.dps},
        value={r.algorithm: None if r.scale is None else r.scale.text() for r in t.rows},
        conventions={
            "model": "y = g(w*·x) + ε, x ~ N(0, I_d), |w*| = 1, ε ~ N(0, σ²) independent",
            "n ≍": "order of the number of samples in d (constants dropped; log d where the "
                   "source has it); 'open' where the sources give no bound",
            "information exponent": "smallest k >= 1 with E[g h_k] ≠ 0, h_k = He_k/√(k!)",
            "generative exponent": "smallest k >= 1 with E[h_k(z) | y] ≠ 0",
        },
        summary=[f"g(z) = {t.function}", f"information exponent k = {info}  ({info.reason})",
                 f"generative exponent k* = {gen}  ({gen.reason})"],
        details={"function": t.function,
                 "information": {"value": info.value, "exact": info.exact,
                                 "reason": info.reason},
                 "generative": {"value": gen.value, "exact": gen.exact, "reason": gen.reason},
                 "rows": [r.as_json() for r in t.rows]},
        table=t.table(),
        # the exponents' reasons are in the summary already
        notes=[n for n in t.notes if not n.startswith(("information exponent:",
                                                         "generative exponent:"))],
    )


@click.command("samples", epilog=_SAMPLES_EPILOG)
@click.argument("g")
@click.option("--noise", type=RationalType(), default="0", show_default=True,
              help="Standard deviation σ >= 0 of independent Gaussian label noise (changes no "
                   "exponent, only constants).")
@click.option("--kmax", type=CountType(minimum=1, maximum=KMAX), default=8, show_default=True,
              help="Largest k examined for both exponents, 1 to 40; beyond it '> kmax'.")
@click.option("--dps", type=CountType(minimum=5, maximum=100), default=20, show_default=True,
              help="Digits at which the Hermite coefficients are decided, 5 to 100.")
@format_option
def samples_command(g: str, noise: object, kmax: int, dps: int, fmt: str) -> None:
    """Samples each algorithm needs to recover w* for y = g(w*·x) + noise.

    One row per algorithm (online SGD, smoothed online SGD, the CSQ and SQ lower bounds, the
    partial-trace spectral estimator, GD reusing its batch, the information-theoretic count):
    n as a power of d with its log factors, the exponent it rests on (information or
    generative, from the Hermite engine), weak or strong recovery, the source theorem and its
    assumptions.

    Example: fltheory samples He3   (online SGD d^2, smoothed d^(3/2), reuse d)
    """
    emit(samples_result(Link(g, noise, kmax, dps)), fmt)


def _alpha_text(alpha: tuple[int, ...]) -> str:
    parts = [f"He{a}(z{j + 1})" if a > 1 else f"z{j + 1}" for j, a in enumerate(alpha) if a]
    return "·".join(parts) if parts else "1"


def _vector_text(u: tuple[Any, ...]) -> str:
    return "(" + ", ".join(str(x) for x in u) + ")"


def leap_result(target: Target) -> Result:
    """The answer of `fltheory leap`: the leap, its stages and the generative leap."""
    from fltheory.papers.samples.theory import leap_of

    L = leap_of(target)
    directions = target.directions
    U = L.directions
    stages: list[dict[str, Any]] = [
        {"increment": s.increment, "coordinates": [f"z{j}" for j in s.coordinates],
               "terms": [_alpha_text(a) for a in s.terms],
               "online_sgd_samples": f"d^{s.sgd_power}"} for s in L.stages]
    support = [{"alpha": list(a), "term": _alpha_text(a), "c": str(c)}
               for a, c in L.coefficients.items() if any(a)]
    name = " (merged staircase)" if L.merged_staircase else ""
    formula = " + ".join(f"({s['c']})·{s['term']}" for s in support)
    bounds = L.generative_bounds
    gen_value: Any = L.generative
    if L.generative is None and bounds is not None:
        gen_value = {"lower": bounds.lower, "upper": bounds.upper}
    if L.value is None:  # a non-polynomial target: no finite Hermite support, no leap
        leap_line = ("leap: not computed (f is not a polynomial: its Hermite support is "
                     "infinite); the generative leap below is")
        formula = f"{target.text} (not a polynomial)"
    else:
        leap_line = (f"leap (given coordinates) = {L.value}{name}; online SGD needs "
                     f"Θ̃(d^{L.sgd_power}) samples")
    return Result(
        command="leap",
        inputs={"target": target.text} | ({} if directions is None
                                          else {"directions": directions}),
        value={"leap": L.value, "online_sgd_power": L.sgd_power,
               "generative_leap": gen_value},
        conventions=_leap_conventions(U, polynomial=L.value is not None),
        latex_value=None if L.value is not None else _generative_latex(L.generative, bounds),
        summary=[f"f = {formula}", leap_line,
                 f"generative leap = {L.generative if L.generative is not None else '-'} "
                 f"({L.generative_reason})"],
        details={"r": L.r, "support": support, "stages": stages,
                 "merged_staircase": L.merged_staircase,
                 "generative_reason": L.generative_reason,
                 "generative_chain": None if bounds is None else
                 [{"exponent": k, "coordinates": [f"z{j}" for j in c]} for k, c in bounds.steps],
                 "directions": None if U is None else [[str(x) for x in u] for u in U]},
        table=None if L.value is None else Table(
            columns=["stage", "new coordinates", "new degree", "online SGD n ≍", "terms"],
            rows=_leap_rows(L.stages, U),
            caption="Saddle-to-saddle order: the coordinates picked up at each stage"),
        notes=["a stage's scale d^{max(ℓ − 1, 1)} is up to log factors; the leap is the "
               "largest new degree ℓ (the bottleneck)"] if L.value is not None else [
            "non-polynomial target: the generative leap by the kind of f it recognises "
            "(threshold links of the coordinates exactly; single-index targets, products and "
            "sums of one-coordinate functions by the Hermite engine; otherwise a lower bound "
            "from sign symmetries; see the docs)"],
    )


def _leap_rows(stages: tuple[Stage, ...], U: Directions | None) -> list[list[str]]:
    """One table row per stage: its coordinates (with their directions, if given) and terms."""
    return [[str(i + 1), ", ".join(f"z{j}" for j in s.coordinates) + (
                 "" if U is None else " = " + ", ".join(_vector_text(U[j - 1]) + "·x"
                                                      for j in s.coordinates)),
             str(s.increment), f"d^{s.sgd_power}", ", ".join(_alpha_text(a) for a in s.terms)]
            for i, s in enumerate(stages)]


def _generative_latex(value: int | None, bounds: Any) -> str:
    """The generative leap of a non-polynomial target as display maths: exact, or its bounds."""
    if value is not None:
        return rf"k^* = {value}"
    if bounds is None:
        return r"k^* 	ext{ not computed}"
    upper = "" if bounds.upper is None else rf" \le {bounds.upper}"
    return rf"{bounds.lower} \le k^*{upper}"


def _leap_conventions(U: Directions | None, polynomial: bool = True) -> dict[str, str]:
    """The conventions of the leap answer; the coordinates' one names the directions U (a
    non-polynomial target keeps those of the coordinates and the generative leap only)."""
    coords = ("z1 … zr orthonormal (z = Uᵀx, x ~ N(0, I_d)); the leap is for these coordinates: "
              "the minimum over rotations is at most it and is NOT computed"
              if U is None else
              f"z_i = ⟨u_i, x⟩ for the {len(U)} given directions in R^{len(U[0])}, checked "
              "orthonormal exactly (so z ~ N(0, I_r)); the leap and its stages are for these "
              "coordinates (the same for any orthonormal U): the minimum over rotations of the "
              "coordinates is at most it and is NOT computed")
    out = {
        "coordinates": coords,
        "generative leap": "Damian, Lee & Bruna 2025, rotation invariant; low-degree "
                           "algorithms need n = Θ(d^{max(1, k*/2)})",
        "support": "α with c_α ≠ 0 in f = Σ c_α Π_i He_{α_i}(z_i) (monic He), exact",
        "leap": "min over orderings of the support of the largest new degree (Abbe, "
                "Boix-Adserà & Misiakiewicz 2023)",
        "online SGD": "Θ̃(d^{max(Leap − 1, 1)}) fresh samples: our reading of ABM 2023's "
                      "time Θ̃(d^{max(Leap, 2)}) (conjectured, proved for a class of "
                      "targets), one step per sample costing d",
    }
    return out if polynomial else {k: out[k] for k in ("coordinates", "generative leap")}


@click.command("leap", epilog=_LEAP_EPILOG)
@click.argument("target")
@click.option("--no-generative", is_flag=True,
              help="Skip the generative leap (for a one-coordinate target it imports the "
                   "Hermite engine).")
@click.option("--directions", default=None, metavar="U",
              help="The directions u_1; u_2; … of z = Uᵀx, one per coordinate, each d exact "
                   "rationals separated by commas (e.g. '1,0,0; 0,3/5,4/5'); refused unless "
                   "exactly orthonormal. At most 20000 characters, d <= 256.")
@format_option
def leap_command(target: str, no_generative: bool, directions: str | None, fmt: str) -> None:
    """The leap of a multi-index polynomial TARGET (Abbe, Boix-Adserà & Misiakiewicz 2023).

    From the exact Hermite support: the leap for the given coordinates (leap 1 is the merged
    staircase), the order in which SGD picks the coordinates up, the online-SGD sample scale
    d^{max(Leap − 1, 1)}, and the generative leap (Damian, Lee & Bruna 2025: exact, or
    bounds with the reason, see the docs). A non-polynomial TARGET (sign, thresholds, products
    of one-coordinate functions, relu of a sum, …) gets its generative leap only.

    Example: fltheory leap 'z1 + z1*z2 + z1*z2*z3'   (leap 1: z1, then z2, then z3) ;
    fltheory leap 'sign(z1*z2*z3)'   (generative leap 3)
    """
    emit(leap_result(Target(target, directions, not no_generative)), fmt)
