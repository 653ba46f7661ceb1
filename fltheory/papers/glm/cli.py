"""``fltheory glm``: parse, build the prior and channel once, call the run, render."""

from __future__ import annotations

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
                   "sparse-rademacher(RHO), mixture(W*delta(M) + W*normal(M,S) + ...).")
@click.option("--channel", default="sign", show_default=True,
              help="sign, abs, square, relu, linear, door(K), or an expression g(z) in the "
                   "shared grammar (recognised when it is one of these, e.g. "
                   "'sign(Abs(z) - 1/2)' is door(1/2); any other g needs --noise > 0).")
@click.option("--probit", type=RATIONAL, default="0", show_default=True,
              help="σ_in >= 0: noise inside φ, y = φ(z + σ_in ε') (the probit channel for "
                   "sign).")
@click.option("--noise", type=RATIONAL, default="0", show_default=True,
              help="σ >= 0: additive Gaussian noise on the label.")
@click.option("--alpha", default=None,
              help="Sample ratios α = n/d > 0, comma-separated (at most 200): the overlap, "
                   "MMSE and errors at each.")
@click.option("--ridge", "ridge_lam", default=None,
              help="Also ridge regression at this λ > 0, or 'opt' for the best λ (with "
                   "--alpha).")
@format_option
def glm_command(prior: str, channel: str, probit: object, noise: object, alpha: str | None,
                ridge_lam: str | None, fmt: str) -> None:
    """Bayes-optimal errors and thresholds of a generalised linear model.

    Examples:
      fltheory glm --prior rademacher --channel sign
      fltheory glm --prior gaussian --channel 'sign(Abs(z) - 1/2)' --alpha 1,2,5
      fltheory glm --prior gaussian --channel square --alpha 1/2,1,2 --format json
      fltheory glm --prior gaussian --channel sign --alpha 2 --ridge opt
    """
    from fltheory.papers.glm.params import Alphas, read_channel, read_prior

    p = read_prior(prior)
    ch = read_channel(channel, probit=probit, noise=noise)
    alphas = Alphas(alpha).values if alpha is not None else ()
    lam = _read_lam(ridge_lam) if ridge_lam is not None else None
    from fltheory.papers.glm.runs import glm_run

    run = glm_run(p, ch, tuple(float(a) for a in alphas), progress=True)
    emit(_result(p, ch, alphas, run, lam), fmt)


def _read_lam(text: str) -> float | str:
    from fltheory.args import read_real

    return "opt" if text.strip() == "opt" else read_real(text, "ridge", 0, 1e6, open_low=True)


def _result(p: Any, ch: Any, alphas: tuple[Any, ...], run: Any, lam: Any) -> Result:
    from fltheory.args import fraction_text
    from fltheory.papers.glm.erm import ridge, ridge_optimal

    th = run.thresholds
    summary = [f"prior {p} (ρ = {fraction_text(p.rho)}), channel {ch}"]
    value: dict[str, object] = {}
    for name, val, kind, qb, qa, exact in th.items:
        shown = val.text() if not exact or exact == val.text() else f"{exact} = {val.text()}"
        extra = "" if kind == "continuous" else f": q {qb:.4g} → {qa:.4g}"
        summary.append(f"α_{name} = {shown} ({kind}{extra}; "
                       f"{'exact' if exact else str(val.digits) + ' digits'})")
        value[f"alpha_{name}"] = {"value": shown, "kind": kind, "digits": val.digits,
                                  "exact": bool(exact), "q_below": qb, "q_above": qa}
    summary.extend(th.notes)
    table = None
    if alphas:
        cols = ["α", "q Bayes", "MMSE", "error Bayes", "q AMP", "error AMP"]
        rows = []
        for a, pt in zip(alphas, run.points, strict=True):
            row = [fraction_text(a), pt.bayes_q.text(), pt.bayes_mmse.text(),
                   pt.bayes_error.text(), pt.amp_q.text(), pt.amp_error.text()]
            if lam is not None:
                r = ridge_optimal(p, ch, float(a)) if lam == "opt" else \
                    ridge(p, ch, float(a), float(lam))
                row += [f"{r.error:.6g}", f"{r.lam:.4g}"]
            rows.append(row)
        if lam is not None:
            cols += ["error ridge", "λ"]
        kind = run.points[0].error_kind
        table = Table(columns=cols, rows=rows,
                      caption=f"Bayes-optimal and AMP fixed points ({kind} error)")
        value["points"] = [dict(zip(cols, r, strict=True)) for r in rows]
    conventions = dict(_CONVENTIONS)
    if lam is not None:
        conventions["ridge"] = ("ŵ = argmin Σ½(y − x·w/√d)² + ½λ|w|², proportional limit "
                                "(Aubin, Krzakala, Lu & Zdeborová 2020); error of sign(ŷ) for "
                                "±1 labels, E(y − ŷ)² otherwise")
    return Result(command="glm",
                  inputs={"prior": str(p), "channel": str(ch),
                          "alpha": [fraction_text(a) for a in alphas],
                          "ridge": None if lam is None else str(lam)},
                  value=value, conventions=conventions, summary=summary, table=table,
                  notes=[f"thresholds in {th.seconds:.2f} s (both resolutions)"])
