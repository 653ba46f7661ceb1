"""``fltheory glm``: parse, build the prior and channel once, call the run, render."""

from __future__ import annotations

import math
from typing import Any

import click

from fltheory.cli.options import RATIONAL, emit, format_option
from fltheory.results import Result, Table

_CONVENTIONS = {
    "model": "x ~ N(0, I_d), w* i.i.d. from the prior (E w² = ρ), z = w*·x/√d, "
             "y = φ(z + σ_in ε') + σ ε; n = αd, n, d → ∞ (Barbier, Krzakala, Macris, Miolane & "
             "Zdeborová, PNAS 2019)",
    "overlap": "q = E[w*·⟨w⟩]/d (Bayes: posterior mean; AMP: the state-evolution fixed point "
               "reached from q₀ = 0⁺); MMSE = ρ − q",
    "error": "Bayes generalisation error of a fresh label: P(ŷ ≠ y) for ±1 labels, "
             "E(y − ŷ)² otherwise",
    "thresholds": "α_WR: the uninformative fixed point q = 0 loses stability; α_IT: the "
                  "fixed point of largest free entropy jumps; α_alg: the spinodal where the "
                  "branch AMP follows ends",
    "digits": "double precision at two quadrature resolutions; a digit is printed only when "
              "both agree (exact values in closed form)",
}


@click.command("glm")
@click.option("--prior", default="gaussian", show_default=True,
              help="gaussian, gaussian(RHO), rademacher, gauss-bernoulli(RHO), "
                   "sparse-rademacher(RHO), mixture(W*delta(M) + W*normal(M,S) + ...) "
                   "(weights W, means M, variances S: normal(0,4) has E w² = 4).")
@click.option("--channel", default="sign", show_default=True,
              help="sign, abs, square, relu, linear, door(K), or an expression g(z) in the "
                   "shared grammar (recognised when it is one of these, e.g. "
                   "'sign(Abs(z) - 1/2)' is door(1/2); any other g needs --noise > 0 and must "
                   "be piecewise linear, e.g. 'Max(0, z) - z/3' or 'Max(-1, Min(1, z))', or "
                   "smooth, e.g. 'tanh(z)' (a three-dimensional quadrature: a few seconds).")
@click.option("--probit", type=RATIONAL, default="0", show_default=True,
              help="σ_in >= 0: noise inside φ, y = φ(z + σ_in ε') (the probit channel for "
                   "sign).")
@click.option("--noise", type=RATIONAL, default="0", show_default=True,
              help="σ >= 0: additive Gaussian noise on the label, y = g(z) + σε (every "
                   "channel; a g with several kinks costs minutes; square: σ >= 10⁻⁶ρ'). "
                   "The three-dimensional sums (square, smooth g) use the cores this process "
                   "may run on, at most 8, or FLTHEORY_THREADS of them; the answer is the "
                   "same to the last bit.")
@click.option("--alpha", default=None,
              help="Sample ratios α = n/d > 0, comma-separated (at most 200): the overlap, "
                   "MMSE and errors at each.")
@click.option("--erm", "erm_losses", default=None,
              help="Empirical risk minimisation beside Bayes (with --alpha): losses among "
                   "ridge, logistic, hinge, comma-separated, with the ℓ2 penalty λ of "
                   "--lambda; logistic and hinge need the sign channel (--probit allowed).")
@click.option("--lambda", "lam", default=None,
              help="The penalty λ in (0, 10⁴] of --erm, or 'opt' (the default): the λ "
                   "minimising the error, located by Brent's method in ln λ.")
@click.option("--ridge", "ridge_lam", default=None,
              help="Also ridge regression at this λ > 0, or 'opt' for the best λ (with "
                   "--alpha).")
@format_option
def glm_command(prior: str, channel: str, probit: object, noise: object, alpha: str | None,
                erm_losses: str | None, lam: str | None, ridge_lam: str | None,
                fmt: str) -> None:
    """Bayes-optimal errors and thresholds of a generalised linear model, and empirical risk
    minimisation beside them.

    Examples: fltheory glm --prior rademacher --channel sign ;
    fltheory glm --prior gaussian --channel 'sign(Abs(z) - 1/2)' --alpha 1,2,5 ;
    fltheory glm --prior gaussian --channel square --alpha 1/2,1,2 --format json ;
    fltheory glm --prior gaussian --channel sign --alpha 2 --ridge opt ;
    fltheory glm --prior gaussian --channel sign --alpha 2 --erm logistic,hinge,ridge ;
    fltheory glm --prior rademacher --channel sign --probit 1/2 --alpha 3 --erm logistic
    --lambda 1/10 ;
    fltheory glm --prior rademacher --channel sign --noise 3/10 --alpha 1,2
    """
    from fltheory.engine.threads import thread_count
    from fltheory.papers.glm.params import Alphas, read_channel, read_erm, read_prior, read_ridge

    thread_count()      # FLTHEORY_THREADS read before any work (a bad value: one line, exit 2)
    p = read_prior(prior)
    ch = read_channel(channel, probit=probit, noise=noise)
    alphas = Alphas(alpha).values if alpha is not None else ()
    erm = read_erm(erm_losses, lam, ridge_lam, alphas, ch)
    ridge = read_ridge(ridge_lam) if ridge_lam is not None else None
    from fltheory.papers.glm.runs import glm_run

    run = glm_run(p, ch, tuple(float(a) for a in alphas), progress=True, erm=erm, ridge=ridge)
    emit(_result(p, ch, alphas, run, ridge, erm), fmt)


def _q_text(q: float, rho: float) -> str:
    """An overlap to 4 digits, or as many more as it takes not to print q < ρ as ρ (nor q > 0
    as 0).

    >>> _q_text(0.99999, 1.0), _q_text(1.0, 1.0), _q_text(0.4763, 1.0)
    ('0.99999', '1', '0.4763')
    """
    for n in (4, 6, 8, 10, 12, 15):
        text = f"{q:.{n}g}"
        if (q == rho or float(text) != rho) and (q == 0 or float(text) != 0):
            return text
    return f"{q:.17g}"


def _result(p: Any, ch: Any, alphas: tuple[Any, ...], run: Any, lam: Any, erm: Any) -> Result:
    from fltheory.args import fraction_text

    th = run.thresholds
    summary = [f"prior {p} (ρ = {fraction_text(p.rho)}), channel {ch}"]
    value: dict[str, object] = {}
    for name, val, kind, qb, qa, exact in th.items:
        shown = val.text() if not exact or exact == val.text() else f"{exact} = {val.text()}"
        extra = ("" if kind == "continuous"
                 else f": q {_q_text(qb, float(p.rho))} → {_q_text(qa, float(p.rho))}")
        summary.append(f"α_{name} = {shown} ({kind}{extra}; "
                       f"{'exact' if exact else str(val.digits) + ' digits'})")
        # "value": the confirmed digits alone (a number to JSON readers); "exact": the closed
        # form when there is one (it was "1/2 = 0.5" in "value", which no reader could parse)
        # the overlaps either side as the text shows them (the spinodal's q is fixed only to
        # ~1e-8, where A is flat; JSON printed it to 17 digits)
        rho = float(p.rho)
        value[f"alpha_{name}"] = {"value": val.text(), "kind": kind, "digits": val.digits,
                                  "exact": exact or None, "q_below": float(_q_text(qb, rho)),
                                  "q_above": float(_q_text(qa, rho))}
    summary.extend(th.notes)
    # what the thresholds say, α's or not: JSON's value and (with a table) the LaTeX table's
    # notes carry it too (both had dropped the notes, e.g. "no α_IT: …")
    value["threshold_notes"] = list(th.notes)
    said = summary[1:]
    table = None
    if alphas:
        cols = ["α", "q Bayes", "MMSE", "error Bayes", "q AMP", "error AMP"]
        rows = []
        erm_json: list[dict[str, object]] = []
        for i, (a, pt) in enumerate(zip(alphas, run.points, strict=True)):
            row = [fraction_text(a), pt.bayes_q.text(), pt.bayes_mmse.text(),
                   pt.bayes_error.text(), pt.amp_q.text(), pt.amp_error.text()]
            if lam is not None:
                r = run.ridge[i]
                row += [f"{r.error:.6g}", f"{r.lam:.4g}"]
            asked = erm.losses if erm is not None else ()
            for loss, r in zip(asked, run.erm[i] if asked else (), strict=True):
                row += _erm_cells(r, pt.bayes_error)
                erm_json.append(_erm_json(loss, fraction_text(a), r, pt.bayes_error))
                summary.extend(_erm_lines(loss, fraction_text(a), r, pt.bayes_error))
            rows.append(row)
        if lam is not None:
            cols += ["error ridge", "λ"]
        if erm is not None:
            for loss in erm.losses:
                cols += [f"error {loss}", f"λ {loss}", f"{loss} − Bayes"]
        kind = run.points[0].error_kind
        from fltheory.render.latex import latex_escape

        table = Table(columns=cols, rows=rows,
                      caption=f"Bayes-optimal and AMP fixed points ({kind} error)"
                      + ("" if erm is None else ", and empirical risk minimisation"),
                      latex_notes=[latex_escape(line) for line in said])
        value["points"] = [dict(zip(cols, r, strict=True)) for r in rows]
        if erm is not None:
            value["erm"] = erm_json
    conventions = dict(_CONVENTIONS)
    if lam is not None:
        conventions["ridge"] = ("ŵ = argmin Σ½(y − x·w/√d)² + ½λ|w|², no intercept, "
                                "proportional limit (Aubin, Krzakala, Lu & Zdeborová 2020); "
                                "error of sign(ŷ) for ±1 labels, E(y − ŷ)² otherwise (labels "
                                "with a mean: the mean is part of it)")
    inputs: dict[str, object] = {"prior": str(p), "channel": str(ch),
                                 "alpha": [fraction_text(a) for a in alphas],
                                 "ridge": None if lam is None else str(lam)}
    if erm is not None:
        conventions["erm"] = _ERM_CONVENTION + (
            "λ as given" if erm.lam != "opt" else
            "λ minimising the error (bounded Brent in ln λ on [1e-6, 1e4] inside the best of "
            "21 bracketing values; its digits: those the two resolutions and the flatness of "
            "the minimum confirm)")
        inputs["erm"] = list(erm.losses)
        inputs["lambda"] = erm.lam if erm.lam == "opt" else fraction_text(erm.lam)
    # without sample ratios there is no table: the thresholds are the LaTeX value
    shown = [rf"\alpha_{{\mathrm{{{name}}}}} = {val.text()}" for name, val, *_ in th.items]
    latex = None if table is not None else (r",\quad ".join(shown) if shown else
                                            r"\text{no threshold}")
    return Result(command="glm", inputs=inputs,
                  value=value, conventions=conventions, summary=summary, table=table,
                  notes=[f"thresholds in {th.seconds:.2f} s (both resolutions)"],
                  latex_value=latex)


_ERM_CONVENTION = (
    "ŵ = argmin Σ_μ ℓ(y_μ, x_μ·w/√d) + ½λ|w|² (no intercept), proportional limit (Aubin, "
    "Krzakala, Lu & Zdeborová 2020): ridge ℓ = ½(y − ŷ)², logistic ℓ = ln(1 + e^(−yŷ)), hinge "
    "ℓ = max(0, 1 − yŷ); error of sign(ŷ) on a fresh sample for ±1 labels, E(y − ŷ)² "
    "otherwise; 'LOSS − Bayes' is that error minus the Bayes-optimal one, to the digits both "
    "confirm; ")


def _excess(r: Any, bayes: Any) -> str:
    """error − Bayes error, to the decimals both values confirm (~ when none)."""
    diff = r.error.value - bayes.value
    ulp = max(abs(r.error.value) * 10.0 ** -r.error.digits,
              abs(bayes.value) * 10.0 ** -bayes.digits)
    if diff == 0 or ulp == 0:
        return f"{diff:.3g}"
    sig = math.floor(math.log10(abs(diff) / ulp))
    return f"{diff:.{max(sig, 1)}g}" if sig >= 1 else f"~{diff:.1g}"


def _erm_cells(r: Any, bayes: Any) -> list[str]:
    if isinstance(r, str):
        return ["not converged", "-", "-"]
    return [r.error.text(), r.lam.text(), _excess(r, bayes)]


def _erm_json(loss: str, alpha: str, r: Any, bayes: Any) -> dict[str, object]:
    if isinstance(r, str):
        return {"loss": loss, "alpha": alpha, "converged": False, "message": r}
    return {"loss": loss, "alpha": alpha, "converged": True, "lambda": r.lam.text(),
            "lambda_digits": r.lam.digits, "lambda_optimal": r.optimal, "m": r.m.text(),
            "q": r.q.text(), "Sigma": r.sigma.text(), "error": r.error.text(),
            "error_digits": r.error.digits, "error_kind": r.error_kind,
            "error_bayes": bayes.text(), "excess_over_bayes": _excess(r, bayes),
            "lambda_note": r.note}


def _erm_lines(loss: str, alpha: str, r: Any, bayes: Any) -> list[str]:
    if isinstance(r, str):
        return [f"{loss} at α = {alpha}: {r}"]
    lines = [f"{loss} at α = {alpha}: error {r.error.text()} at λ = {r.lam.text()} vs Bayes "
             f"{bayes.text()} (excess {_excess(r, bayes)})"]
    from fltheory.papers.glm.erm import OPTIMAL_NOTE

    if r.note not in ("given", OPTIMAL_NOTE):
        lines.append(f"{loss} at α = {alpha}: {r.note}")
    return lines
