"""``fltheory spike`` (BBP outliers and overlaps) and ``fltheory link`` (weak-recovery threshold,
optimal preprocessing and Lu–Li overlaps of a link): they parse, build the parameters once
(:mod:`fltheory.papers.spectral.params`, the kit's bulks :mod:`fltheory.engine.spectral.bulks`),
call :mod:`fltheory.papers.spectral.theory` and render."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

from fltheory.cli.options import RATIONAL, dps_option, emit, format_option
from fltheory.engine.spectral.bulks import read_bulk
from fltheory.engine.spectral.spikes import short_fraction
from fltheory.exact import fraction_str, to_decimal_str
from fltheory.papers.spectral.params import Link, Spikes
from fltheory.results import Result, Table

if TYPE_CHECKING:
    from fltheory.engine.spectral.bulks import SpikeBulk
    from fltheory.engine.spectral.links import LinkAnswer
    from fltheory.engine.spectral.spikes import Spike
    from fltheory.papers.spectral.theory import LinkOverlap

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


def _sample_num(x: float | None, spike: Spike, key: str, dps: int) -> str | None:
    """A sample estimate to the digits its standard error supports (at least one)."""
    from fltheory.engine.spectral.spikes import stat_text

    if x is None or spike.stderr is None:
        return None
    return stat_text(float(x), spike.stderr[key], min(dps, 15))


def _num(x: Any, spike: Spike, dps: int) -> str | None:
    """An exact value as text (a Fraction or a Surd), a numeric one to its confirmed digits."""
    if x is None:
        return None
    if spike.exact:
        return short_fraction(x) if isinstance(x, Fraction) else str(x)
    return _decimal(x, spike, dps)


def _decimal(x: Any, spike: Spike, dps: int) -> str | None:
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


def spike_result(spikes: Spikes, bulk: SpikeBulk, dps: int) -> Result:
    """The answer of `fltheory spike`: one record per strength, on the bulk asked for."""
    from fltheory.engine.spectral.bulks import Sample
    from fltheory.papers.spectral.theory import spike_query

    answers = spike_query(spikes, bulk, dps)
    records = [_spike_record(s, dps) for s in answers]
    symbol = "θ" if spikes.param == "theta" else "ℓ"
    rows = [[r["strength"], r["side"], r["phase"], _readable(r, "threshold") or "",
             _readable(r, "outlier") or "—", _readable(r, "overlap") or "0"] for r in records]
    inputs, where = _bulk_inputs(bulk, answers[0].sample_size)
    sample = isinstance(bulk, Sample)
    return Result(
        command="spike",
        inputs={spikes.param: [short_fraction(q) for q in spikes.strengths], **inputs,
                "model": spikes.model, "dps": dps},
        value=records,
        numeric=records[0].get("overlap_numeric", records[0]["overlap"]),
        conventions=_SPIKE_CONVENTIONS,
        summary=[f"{len(records)} spike(s) on the {where} ({spikes.model} model)",
                 *(f"{symbol} = {r['strength']}: {r['reason']}" for r in records)],
        details={"spikes": records},
        table=Table(columns=[symbol, "side", "phase", "threshold", "outlier", "overlap"],
                    rows=rows, caption=f"BBP outliers and squared overlaps, {where}",
                    align="rllrrr",
                    notes=[f"estimates from {answers[0].sample_size} eigenvalues, each to the "
                           "place of two standard errors"] if sample else []),
        notes=_spike_notes(answers, sample, dps),
    )


def _readable(record: dict[str, Any], key: str) -> str | None:
    """An exact cell with its decimal beside it when it is not a whole number ("13/6 ≈
    2.16667", "1 + sqrt(1/2) ≈ 1.70711"); other cells as they are."""
    import mpmath

    value = record.get(key)
    numeric = record.get(f"{key}_numeric")
    if not record.get("exact") or value is None or numeric is None:
        return value
    if ("/" not in value and "sqrt" not in value) or "exact:" in value:  # whole, or shortened
        return value
    return f"{value} ≈ {mpmath.nstr(mpmath.mpf(numeric), 6)}"


def _bulk_inputs(bulk: SpikeBulk, sample_size: int | None) -> tuple[dict[str, Any], str]:
    """The bulk as the answer's inputs (each bulk's own fields, None for the others) and as the
    words that name it."""
    from fltheory.engine.spectral.bulks import Density, MarchenkoPastur, Sample

    inputs: dict[str, Any] = {"bulk": bulk.name, "gamma": None, "density": None,
                              "support": None, "eigenvalues": None}
    if isinstance(bulk, MarchenkoPastur):
        inputs["gamma"] = fraction_str(bulk.gamma)
        return inputs, f"Marchenko–Pastur bulk, γ = {fraction_str(bulk.gamma)}"
    if isinstance(bulk, Density):
        from fltheory.engine.spectral.bulks import support_text

        inputs.update(density=bulk.expr, support=[support_text(v) for v in bulk.support])
        return inputs, f"bulk of density {bulk.expr} on [{bulk.support[0]}, {bulk.support[1]}]"
    if isinstance(bulk, Sample):
        inputs["eigenvalues"] = bulk.source
        return inputs, f"bulk of the {sample_size} eigenvalues of {bulk.source}"
    return inputs, "semicircle bulk [−2, 2]"


def _spike_record(s: Spike, dps: int) -> dict[str, Any]:
    """One spike as a record: exact and numeric values, or sample estimates with errors."""
    if s.stderr is not None:  # an estimate from a sample: digits from its standard errors
        return {"strength": short_fraction(s.strength), "side": s.side, "phase": s.phase,
                "threshold": _sample_num(s.threshold, s, "threshold", dps),
                "outlier": _sample_num(s.outlier, s, "outlier", dps),
                "overlap": _sample_num(s.overlap, s, "overlap", dps),
                "edge": f"{float(s.edge):.6g}", "exact": False,
                "stderr": {k: float(f"{v:.3g}") for k, v in s.stderr.items()},
                "sample_size": s.sample_size, "reason": s.reason}
    return {"strength": short_fraction(s.strength), "side": s.side, "phase": s.phase,
            "threshold": _num(s.threshold, s, dps),
            "threshold_numeric": _decimal(s.threshold, s, dps),
            "outlier": _num(s.outlier, s, dps),
            "outlier_numeric": _decimal(s.outlier, s, dps),
            "overlap": _num(s.overlap, s, dps),
            "overlap_numeric": _decimal(s.overlap, s, dps),
            "edge": _decimal(s.edge, s, dps),
            "exact": s.exact, "digits": None if s.exact else s.digits,
            "reason": s.reason}


def _spike_notes(spikes: tuple[Spike, ...], sample: bool, dps: int) -> list[str]:
    """The note on how the digits were judged (sample estimates, or two precisions)."""
    notes = []
    if sample:
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
@click.option("--support", default=None, help="Support a,b of --density (exact numbers, a < b; "
              "surds such as -sqrt(3),sqrt(3) are read exactly).")
@click.option("--eigenvalues", default=None, metavar="FILE", help="A text file of eigenvalues "
              "(numbers separated by spaces, commas or new lines; # starts a comment line; 100 "
              "to 10^6 values) whose empirical Stieltjes transform stands for the bulk: "
              "estimates with standard errors.")
@dps_option
@format_option
def spike_command(theta: str | None, ell: str | None, bulk: str | None, gamma: Fraction | None,
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
    spikes = Spikes(theta=theta, ell=ell)
    chosen = read_bulk(bulk, spikes.model, gamma=gamma, density=density, support=support,
                       eigenvalues=eigenvalues)
    emit(spike_result(spikes, chosen, dps), fmt)


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


def link_result(link: Link, dps: int) -> Result:
    """The answer of `fltheory link`: α_c, T* and the Lu–Li overlaps at the link's α."""
    from fltheory.papers.spectral.theory import link_answer, link_overlaps

    ans = link_answer(link, dps)
    alpha_text = _alpha_c_text(ans, dps)
    spectral = _spectral_alpha_text(ans, dps)
    curve = [_overlap_record(o) for o in link_overlaps(link)] if link.alphas else []
    if ans.linear:  # the linear estimator's α_c = 0, and the spectral estimator's own
        summary = [f"y = {ans.g}: α_c = {alpha_text} with the linear estimator; the spectral "
                   f"estimator's own threshold α_c = {spectral or 'not computed'}", ans.reason,
                   ans.spectral_reason if spectral else
                   f"the spectral estimator's threshold is {ans.spectral_reason}"]
    else:
        summary = [f"y = {ans.g}: α_c = {alpha_text}", ans.reason]
    if ans.optimal is not None and ans.optimal != "—":
        summary.append(f"optimal preprocessing T*(y) = {ans.optimal}")
    for c in curve:
        summary.append(f"α = {c['alpha']}: Lu–Li squared overlap {c['rho2']} with T = "
                       f"{link.T or 'T*'}")
    table, latex_value = _link_table(ans, link, curve, dps)
    return Result(
        command="link",
        inputs={"g": link.g, "T": link.T, "alpha": [fraction_str(a) for a in link.alphas],
                "noise": fraction_str(link.noise), "dps": dps},
        value={"alpha_c": alpha_text, "linear": ans.linear, "optimal": ans.optimal}
        | ({"alpha_c_spectral": spectral} if ans.linear else {}),
        numeric=alpha_text,
        conventions=_LINK_CONVENTIONS,
        summary=summary,
        details={"alpha_c": alpha_text, "exact": ans.exact,
                 "digits": ans.digits, "method": ans.method, "reason": ans.reason,
                 "overlaps": curve},
        table=table,
        latex_value=latex_value,
    )


def _alpha_c_text(ans: LinkAnswer, dps: int) -> str:
    """α_c as text: 0 (linear), ∞ (E[z²|y] ≡ 1), exact (an irrational closed form followed by
    its decimal), or to its confirmed digits."""
    import mpmath

    if ans.linear or ans.optimal is None:  # E[z²|y] ≡ 1: no spectral signal at linear n
        return "0" if ans.linear else "∞"
    if ans.exact:
        if getattr(ans.alpha_c, "is_Rational", True):
            return str(ans.alpha_c)
        return f"{ans.alpha_c} ≈ {mpmath.nstr(mpmath.mpf(ans.alpha_c.evalf(dps + 5)), dps)}"
    return str(mpmath.nstr(ans.alpha_c, max(1, min(dps, ans.digits))))


def _spectral_alpha_text(ans: LinkAnswer, dps: int) -> str | None:
    """A linear link's spectral threshold as text (None: not computed; see its reason)."""
    from fltheory.papers.spectral.views import link_cells

    if not ans.linear or ans.spectral_alpha_c is None:
        return None
    return link_cells(ans, dps)[0][0].removeprefix("0 (linear); ").removesuffix(" (spectral)")


def _overlap_record(o: LinkOverlap) -> dict[str, Any]:
    """One α of the Lu–Li curve as a record, ρ² to the digits two resolutions confirm."""
    shown = "0" if o.rho2 == 0 and o.rho2_coarse == 0 else (
        f"{o.rho2:.{max(1, min(o.digits, 12))}g}")
    return {"alpha": fraction_str(o.alpha), "rho2": shown,
            "outlier": None if o.outlier is None else f"{o.outlier:.6g}",
            "edge": f"{o.edge:.6g}", "digits": o.digits}


def _link_table(ans: LinkAnswer, link: Link, curve: list[dict[str, Any]],
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
                      caption=f"Lu–Li overlap of the spectral estimator, y = {link.g}, "
                              f"T = {link.T or 'T*'}",
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
    elif ans.linear:
        latex_value = r"\alpha_c = 0"
    elif ans.exact and "≈" in plain[0]:  # an irrational closed form: its decimal
        latex_value = r"\alpha_c \approx " + plain[0].split("≈")[1].strip()
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
    emit(link_result(Link(g, T, noise, alpha), dps), fmt)
