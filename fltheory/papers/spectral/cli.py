"""``fltheory spike`` (BBP outliers and overlaps) and ``fltheory link`` (weak-recovery threshold,
optimal preprocessing and Lu–Li overlaps of a link): they parse, call
:mod:`fltheory.papers.spectral.theory` / :mod:`fltheory.engine.spectral` and render."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import click

from fltheory.cli.options import RATIONAL, dps_option, emit, format_option
from fltheory.exact import DomainError, fraction_str, parse_rational, to_decimal_str, to_float
from fltheory.results import Result, Table

_SPIKE_CONVENTIONS = {
    "additive": "M = W + Σ θ_i u_i u_iᵀ; semicircle: W = G/√N, GOE G with off-diagonal "
                "variance 1, bulk [−2, 2]",
    "multiplicative": "S = Σ^{1/2} X Σ^{1/2}, Σ = I + Σ (ℓ_i − 1) v_i v_iᵀ; MP: X = ZZᵀ/n, Z "
                      "p × n standard Gaussian, γ = p/n",
    "overlap": "squared cosine ⟨ũ, u⟩² of the outlier's unit eigenvector with the spike",
    "formulas": "Benaych-Georges & Nadakuditi 2011: G(ρ) = 1/θ, overlap −1/(θ²G'(ρ)) "
                "(additive); T(ρ) = ρG(ρ) − 1 = 1/θ, overlap −(1+θ)/(θ²ρT'(ρ)) (multiplicative, "
                "θ = ℓ − 1)",
}
_MAX_LIST = 20


def _rationals(text: str, param: str) -> list[Fraction]:
    parts = [p.strip() for p in str(text).split(",")]
    if not 1 <= len(parts) <= _MAX_LIST:
        raise DomainError(param, text, f"1 to {_MAX_LIST} comma-separated numbers")
    out = []
    for p in parts:
        q = parse_rational(p, param)
        to_float(q, param)
        out.append(q)
    return out


def _support(text: str) -> tuple[Fraction, Fraction]:
    values = _rationals(text, "support")
    if len(values) != 2:
        raise DomainError("support", text, "two numbers a,b with a < b")
    return values[0], values[1]


#: Largest eigenvalue file read (bytes): MAX_SAMPLE numbers of ~25 characters, with room.
_MAX_FILE = 64 * 2**20


def read_eigenvalues(path: str) -> Any:
    """The eigenvalues in the text file ``path`` (numbers separated by white space or commas;
    lines starting with # are comments) as a float array; an unreadable file, a file over
    64 MiB or a word that is not a number is a DomainError naming ``eigenvalues``."""
    import os
    import stat

    import numpy as np

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):  # a directory, a device (/dev/zero never ends), ...
            raise DomainError("eigenvalues", path, "a regular text file of numbers",
                              reason="is not a regular file")
        if info.st_size > _MAX_FILE:
            raise DomainError("eigenvalues", path, f"a text file of at most {_MAX_FILE} bytes",
                              reason="is too large")
        with open(path, encoding="utf-8") as fh:
            text = fh.read(_MAX_FILE + 1)
    except DomainError:
        raise
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise DomainError("eigenvalues", path, "a readable text file of numbers",
                          reason=f"cannot be read ({exc.__class__.__name__})") from None
    words = [w for line in text.splitlines() if not line.lstrip().startswith("#")
             for w in line.replace(",", " ").split()]
    values = []
    for i, w in enumerate(words):
        try:
            values.append(float(w))
        except ValueError:
            raise DomainError("eigenvalues", f"{path}: word #{i + 1} {w[:20]!r}",
                              "numbers separated by white space or commas",
                              reason="is not a number") from None
    return np.array(values, dtype=float)


def _sample_num(x: Any, spike: Any, key: str, dps: int) -> str | None:
    """A sample estimate to the digits its standard error supports (at least one)."""
    from fltheory.engine.spectral.spikes import stat_text

    if x is None:
        return None
    return stat_text(float(x), spike.stderr[key], min(dps, 15))


def _num(x: Any, spike: Any, dps: int) -> str | None:
    """An exact value as text (a Fraction or a Surd), a numeric one to its confirmed digits."""
    if x is None:
        return None
    if spike.exact:
        return fraction_str(x) if isinstance(x, Fraction) else str(x)
    return _decimal(x, spike, dps)


def _decimal(x: Any, spike: Any, dps: int) -> str | None:
    """The value to ``dps`` significant digits (exact values are exact to every digit)."""
    import mpmath

    if x is None:
        return None
    if isinstance(x, Fraction):
        return to_decimal_str(x, dps)
    if spike.exact:
        return str(x.evalf(dps))
    if not mpmath.isfinite(x):
        return None
    return mpmath.nstr(x, max(1, min(dps, spike.digits)))


def spike_result(strengths: list[Fraction], kind: str, bulk: str, gamma: Any, density: Any,
                 support: Any, dps: int, eigenvalues: str | None = None) -> Result:
    """The answer of `fltheory spike`: one record per strength, on the bulk asked for."""
    from fltheory.papers.spectral.theory import spike_query

    model = "additive" if kind == "theta" else "multiplicative"
    values = read_eigenvalues(eigenvalues) if eigenvalues is not None else None
    spikes = spike_query(strengths, bulk, gamma, density, support, model, dps, values)
    records = [_spike_record(s, dps) for s in spikes]
    symbol = "θ" if kind == "theta" else "ℓ"
    rows = [[r["strength"], r["side"], r["phase"], r["threshold"] or "", r["outlier"] or "—",
             r["overlap"] or "0"] for r in records]
    where = {"semicircle": "semicircle bulk [−2, 2]",
             "mp": f"Marchenko–Pastur bulk, γ = {fraction_str(gamma) if gamma is not None else ''}",
             "density": f"bulk of density {density} on [{support[0] if support else ''}, "
                        f"{support[1] if support else ''}]",
             "sample": f"bulk of the {spikes[0].sample_size} eigenvalues of {eigenvalues}"}[bulk]
    return Result(
        command="spike",
        inputs={kind: [fraction_str(q) for q in strengths], "bulk": bulk,
                "gamma": None if gamma is None else fraction_str(gamma),
                "density": density,
                "support": None if support is None else [fraction_str(v) for v in support],
                "eigenvalues": eigenvalues, "model": model, "dps": dps},
        value=records,
        numeric=records[0].get("overlap_numeric", records[0]["overlap"]),
        conventions=_SPIKE_CONVENTIONS,
        summary=[f"{len(records)} spike(s) on the {where} ({model} model)",
                 *(f"{symbol} = {r['strength']}: {r['reason']}" for r in records)],
        details={"spikes": records},
        table=Table(columns=[symbol, "side", "phase", "threshold", "outlier", "overlap"],
                    rows=rows, caption=f"BBP outliers and squared overlaps, {where}",
                    align="rllrrr",
                    notes=[f"estimates from {spikes[0].sample_size} eigenvalues, each to the "
                           "place of two standard errors"] if bulk == "sample" else []),
        notes=_spike_notes(spikes, bulk, dps),
    )


def _spike_record(s: Any, dps: int) -> dict[str, Any]:
    """One spike as a record: exact and numeric values, or sample estimates with errors."""
    if s.stderr is not None:  # an estimate from a sample: digits from its standard errors
        return {"strength": str(s.strength), "side": s.side, "phase": s.phase,
                "threshold": _sample_num(s.threshold, s, "threshold", dps),
                "outlier": _sample_num(s.outlier, s, "outlier", dps),
                "overlap": _sample_num(s.overlap, s, "overlap", dps),
                "edge": f"{float(s.edge):.6g}", "exact": False,
                "stderr": {k: float(f"{v:.3g}") for k, v in s.stderr.items()},
                "sample_size": s.sample_size, "reason": s.reason}
    return {"strength": str(s.strength), "side": s.side, "phase": s.phase,
            "threshold": _num(s.threshold, s, dps),
            "threshold_numeric": _decimal(s.threshold, s, dps),
            "outlier": _num(s.outlier, s, dps),
            "outlier_numeric": _decimal(s.outlier, s, dps),
            "overlap": _num(s.overlap, s, dps),
            "overlap_numeric": _decimal(s.overlap, s, dps),
            "edge": _decimal(s.edge, s, dps),
            "exact": s.exact, "digits": None if s.exact else s.digits,
            "reason": s.reason}


def _spike_notes(spikes: Any, bulk: str, dps: int) -> list[str]:
    """The note on how the digits were judged (sample estimates, or two precisions)."""
    notes = []
    if bulk == "sample":
        notes.append(f"estimates from {spikes[0].sample_size} eigenvalues (the empirical "
                     "Stieltjes transform stands for the bulk's): each value is printed to the "
                     "decimal place of two standard errors, the errors computed as for "
                     "independent draws (conservative for one matrix's spectrum); the threshold "
                     "is extrapolated to the edge and is the least precise number")
    elif not all(s.exact for s in spikes):
        notes.append(f"numeric values computed at dps + 10 and dps + 20 working digits; printed "
                     f"to the digits on which both agree (at most --dps = {dps})")
    return notes


@click.command("spike")
@click.option("--theta", default=None, help="Additive spike strengths θ_1,θ_2,… (comma-"
              "separated exact numbers, non-zero; at most 20).")
@click.option("--ell", default=None, help="Multiplicative spikes: population eigenvalues "
              "ℓ_1,ℓ_2,… > 0 (with --bulk mp or a density on [0, ∞)).")
@click.option("--bulk", type=click.Choice(["semicircle", "mp", "density", "sample"]),
              default=None,
              help="The bulk: semicircle (default with --theta), mp (default with --ell; needs "
                   "--gamma), density (needs --density and --support) or sample (implied by "
                   "--eigenvalues).")
@click.option("--gamma", type=RATIONAL, default=None, help="Aspect ratio γ = p/n > 0 of the "
              "Marchenko–Pastur bulk.")
@click.option("--density", default=None, help="Density ρ(x) of the bulk, an expression in x of "
              "the grammar of `fltheory hermite` (on the support only: write "
              "\"sqrt(Max(4 - x**2, 0))/(2*pi)\"); it must be >= 0 and integrate to 1.")
@click.option("--support", default=None, help="Support a,b of --density (exact numbers, a < b).")
@click.option("--eigenvalues", default=None, metavar="FILE", help="A text file of eigenvalues "
              "(numbers separated by spaces, commas or new lines; # starts a comment line; 100 "
              "to 10^6 values) whose empirical Stieltjes transform stands for the bulk: "
              "estimates with standard errors.")
@dps_option
@format_option
def spike_command(theta: str | None, ell: str | None, bulk: str | None, gamma: Any,
                  density: str | None, support: str | None, eigenvalues: str | None, dps: int,
                  fmt: str) -> None:
    """BBP outliers and eigenvector overlaps of spiked random matrices.

    Additive spikes θ on the semicircle (exact: outlier θ + 1/θ and squared overlap 1 − 1/θ²
    above θ_c = 1) or on any density; multiplicative spikes ℓ of a sample covariance on the
    Marchenko–Pastur bulk of ratio γ (exact: outlier ℓ(1 + γ/(ℓ−1)), overlap
    (1 − γ/(ℓ−1)²)/(1 + γ/(ℓ−1)) above ℓ_c = 1 + √γ) or on any density on [0, ∞). Each spike
    answers on its own (several at once); the phase names the BBP transition.

    With --eigenvalues FILE the bulk is a sample of eigenvalues (e.g. the spectrum of a noise
    matrix): the answers are estimates from its empirical Stieltjes transform, each printed
    to the digits its standard error supports.

    Example: fltheory spike --theta 3/2,1/2 ; fltheory spike --ell 3 --gamma 1/2 ;
    fltheory spike --theta 2 --bulk density --density "sqrt(Max(4 - x**2, 0))/(2*pi)"
    --support -2,2 ; fltheory spike --theta 2 --eigenvalues spectrum.txt
    """
    if (theta is None) == (ell is None):
        raise DomainError("theta", theta, "exactly one of --theta (additive) and --ell "
                          "(multiplicative)", reason="and --ell: give one of them")
    kind = "theta" if theta is not None else "ell"
    strengths = _rationals(theta if theta is not None else str(ell), kind)
    bulk = bulk or ("sample" if eigenvalues is not None else
                    "semicircle" if kind == "theta" else "mp")
    if (bulk == "sample") != (eigenvalues is not None):
        raise DomainError("eigenvalues", eigenvalues, "--eigenvalues FILE with --bulk sample "
                          "(or alone), and only then")
    sup = _support(support) if support is not None else None
    emit(spike_result(strengths, kind, bulk, gamma, density, sup, dps, eigenvalues), fmt)


# --------------------------------------------------------------------------- links


_LINK_CONVENTIONS = {
    "model": "x ~ N(0, I_d), z = β·x, y = g(z), n = αd samples; the spectral estimator is the "
             "top eigenvector of D = (1/n) Σ T(y_μ) x_μ x_μᵀ",
    "threshold": "α_c = 1/E_y[(E[z²|y] − 1)²] (Mondelli & Montanari 2018) when E[z|y] = 0; "
                 "α_c = 0 when E[z|y] ≠ 0 (the linear estimator)",
    "optimal": "T*(y) = 1 − 1/E[z²|y] (Luo, Alghamdi & Lu 2019), optimal at every α",
    "overlap": "Lu & Li 2017 squared overlap ⟨x̂, β⟩², doubles; digits confirmed by two "
               "quadrature resolutions of the label law",
}


def _confirmed(a: float, b: float) -> int:
    import math

    if a == b:
        return 15
    scale = max(abs(a), abs(b))
    return max(0, min(15, int(-math.log10(abs(a - b) / scale)) - 1)) if scale else 15


def link_result(g: str, T: str | None, alphas: list[Fraction], dps: int,
                noise: Fraction = Fraction(0)) -> Result:
    """The answer of `fltheory link`: α_c, T* and the Lu–Li overlaps at ``alphas``."""
    from fltheory.engine.spectral.links import link_threshold

    ans = link_threshold(g, dps, noise)
    alpha_text = _alpha_c_text(ans, dps)
    curve = _link_curve(g, T, alphas, noise) if alphas else []
    summary = [f"y = {ans.g}: α_c = {alpha_text}", ans.reason]
    if ans.optimal is not None:
        summary.append(f"optimal preprocessing T*(y) = {ans.optimal}")
    for c in curve:
        summary.append(f"α = {c['alpha']}: Lu–Li squared overlap {c['rho2']} with T = "
                       f"{T or 'T*'}")
    table, latex_value = _link_table(ans, g, T, curve, dps)
    return Result(
        command="link",
        inputs={"g": g, "T": T, "alpha": [fraction_str(a) for a in alphas],
                "noise": fraction_str(noise), "dps": dps},
        value={"alpha_c": alpha_text, "linear": ans.linear, "optimal": ans.optimal},
        numeric=alpha_text,
        conventions=_LINK_CONVENTIONS,
        summary=summary,
        details={"alpha_c": alpha_text, "exact": ans.exact,
                 "digits": ans.digits, "method": ans.method, "reason": ans.reason,
                 "overlaps": curve},
        table=table,
        latex_value=latex_value,
    )


def _alpha_c_text(ans: Any, dps: int) -> str:
    """α_c as text: 0 (linear), ∞ (E[z²|y] ≡ 1), exact, or to its confirmed digits."""
    import mpmath

    if ans.linear or ans.optimal is None:  # E[z²|y] ≡ 1: no spectral signal at linear n
        return "0" if ans.linear else "∞"
    if ans.exact:
        return str(ans.alpha_c)
    return str(mpmath.nstr(ans.alpha_c, max(1, min(dps, ans.digits))))


def _link_curve(g: str, T: str | None, alphas: list[Fraction],
                noise: Fraction) -> list[dict[str, Any]]:
    """The Lu–Li overlap at each α, digits confirmed by two resolutions of the label law."""
    from fltheory.engine.spectral.links import noisy_preprocessing_law, preprocessing_law
    from fltheory.engine.spectral.luli import luli_overlap

    t_used = T or "optimal"
    if noise:
        fine = noisy_preprocessing_law(g, t_used, noise, panels=600, hermite=48, inner=150)
        coarse = noisy_preprocessing_law(g, t_used, noise, panels=300, hermite=32, inner=100)
    else:
        fine = preprocessing_law(g, t_used, panels=1200)
        coarse = preprocessing_law(g, t_used, panels=600)
    curve: list[dict[str, Any]] = []
    for a in alphas:
        af = float(a)
        r1, r2 = luli_overlap(fine, 0, af), luli_overlap(coarse, 0, af)
        digits = _confirmed(r1.rho2, r2.rho2)
        shown = "0" if r1.rho2 == 0 and r2.rho2 == 0 else (
            f"{r1.rho2:.{max(1, min(digits, 12))}g}")
        curve.append({"alpha": fraction_str(a), "rho2": shown,
                      "outlier": None if r1.outlier is None else f"{r1.outlier:.6g}",
                      "edge": f"{r1.edge:.6g}", "digits": digits})
    return curve


def _link_table(ans: Any, g: str, T: str | None, curve: list[dict[str, Any]],
                dps: int) -> tuple[Table, str]:
    """The table (the overlaps, or the threshold as a row of the links table) and α_c in LaTeX."""
    from fltheory.papers.spectral.views import link_cells
    from fltheory.render.latex import latex_code, latex_fraction

    plain, latex = link_cells(ans, dps)
    headline = f"α_c = {plain[0]}, T*(y) = {plain[1]} ({plain[2]})"
    if curve:
        table = Table(columns=["α", "ρ²", "outlier", "bulk edge"],
                      rows=[[c["alpha"], c["rho2"], c["outlier"] or "—", c["edge"]]
                            for c in curve],
                      caption=f"Lu–Li overlap of the spectral estimator, y = {g}, "
                              f"T = {T or 'T*'}",
                      align="rrrr", notes=[headline])
    else:  # the threshold itself, as one row of the links table
        table = Table(columns=["y", "α_c", "T*(y)", "how"], rows=[[ans.g, *plain]],
                      latex_columns=["$y$", r"$\alpha_c$", r"$T^*(y)$", "how"],
                      latex_rows=[[r"\texttt{" + latex_code(ans.g) + "}", *latex]],
                      caption=f"Weak-recovery threshold α_c (n/d) of spectral methods and the "
                              f"optimal preprocessing T*(y) = 1 − 1/E[z²|y], y = {ans.g}",
                      align="llll")
    if plain[0] == "∞":
        latex_value = r"\alpha_c = \infty"
    elif ans.exact:
        latex_value = r"\alpha_c = " + latex_fraction(plain[0])
    else:
        latex_value = r"\alpha_c \approx " + plain[0]
    return table, latex_value


@click.command("link")
@click.option("--g", "g", required=True, help="The link y = g(z): a catalogue name or an "
              "expression in z (the grammar of `fltheory hermite`).")
@click.option("--T", "T", default=None, help="Preprocessing T(y) for the overlaps (an "
              "expression in y, bounded above) [default: the optimal T*, when y determines "
              "the absolute value of z].")
@click.option("--alpha", default=None, help="Sample ratios α = n/d > 0 (comma-separated, at "
              "most 20) at which to print the Lu–Li overlap.")
@click.option("--noise", type=RATIONAL, default=Fraction(0), show_default=True,
              help="Label noise σ >= 0 (at most 100): y = g(z) + σε, ε ~ N(0, 1). With σ > 0 "
                   "α_c is a double-precision quadrature, and T* = 1 − 1/E[z²|y] is computed with "
                   "the noise at every label of the Lu–Li law.")
@dps_option
@format_option
def link_command(g: str, T: str | None, alpha: str | None, noise: Fraction, dps: int,
                 fmt: str) -> None:
    """Weak recovery of y = g(z) by spectral methods: the threshold α_c, the optimal
    preprocessing T* and, with --alpha, the Lu–Li overlap of the estimator.

    α_c = 1/E[(E[z²|y] − 1)²] when E[z|y] = 0 (Mondelli & Montanari 2018; 1/2 for phase
    retrieval y = z²), 0 when E[z|y] ≠ 0 (the linear estimator works at every α), ∞ when
    E[z²|y] = 1. T*(y) = 1 − 1/E[z²|y] (Luo, Alghamdi & Lu 2019).

    With --noise σ the labels are y = g(z) + σε: a linear link stays linear and a link with
    E[z²|y] ≡ 1 keeps α_c = ∞ (Gaussian smoothing is injective); otherwise α_c is computed
    with the noise.

    Example: fltheory link --g "z**2" --alpha 1,2 ; fltheory link --g He4 ;
    fltheory link --g "z**2" --noise 1/2 --alpha 2 --T "Min(y, 3)"
    """
    alphas = _rationals(alpha, "alpha") if alpha is not None else []
    for a in alphas:
        if not a > 0:
            raise DomainError("alpha", fraction_str(a), "α = n/d > 0")
    emit(link_result(g, T, alphas, dps, noise), fmt)
