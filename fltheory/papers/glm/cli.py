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
@click.option("--erm", "erm_losses", default=None,
              help="Empirical risk minimisation beside Bayes (with --alpha): losses among "
                   "ridge, logistic, hinge, comma-separated, ℓ2 penalty λ (--lambda). "
                   "Logistic and hinge need the sign channel.")
@click.option("--lambda", "lam", default=None,
              help="The penalty λ > 0 of --erm, or 'opt' (default): the λ minimising the "
                   "error, located by Brent's method.")
@click.option("--ridge", "ridge_lam", default=None,
              help="Shorthand for --erm ridge --lambda VALUE (VALUE > 0 or 'opt').")
@format_option
def glm_command(prior: str, channel: str, probit: object, noise: object, alpha: str | None,
                erm_losses: str | None, lam: str | None, ridge_lam: str | None,
                fmt: str) -> None:
    """Bayes-optimal errors and thresholds of a generalised linear model.

    Examples:
      fltheory glm --prior rademacher --channel sign
      fltheory glm --prior gaussian --channel 'sign(Abs(z) - 1/2)' --alpha 1,2,5
      fltheory glm --prior gaussian --channel square --alpha 1/2,1,2 --format json
      fltheory glm --prior gaussian --channel sign --alpha 2 --ridge opt
      fltheory glm --prior gaussian --channel sign --alpha 1,2,5 --erm logistic,hinge,ridge
      fltheory glm --prior rademacher --channel sign --probit 1/2 --alpha 3 --erm logistic --lambda 1/10
    """
    from fltheory.exact import DomainError
    from fltheory.papers.glm.params import Alphas, Erm, check_erm, read_channel, read_prior

    p = read_prior(prior)
    ch = read_channel(channel, probit=probit, noise=noise)
    alphas = Alphas(alpha).values if alpha is not None else ()
    erm = None
    if ridge_lam is not None:
        if erm_losses is not None or lam is not None:
            raise DomainError("ridge", ridge_lam, "--ridge alone, or --erm with --lambda",
                              reason="is given with --erm/--lambda")
        erm = Erm("ridge", ridge_lam.strip())
    elif erm_losses is not None:
        erm = Erm(erm_losses, "opt" if lam is None else lam.strip())
    elif lam is not None:
        raise DomainError("lambda", lam, "--lambda with --erm", reason="is given without --erm")
    if erm is not None:
        if not alphas:
            raise DomainError("erm", ",".join(erm.losses), "--erm with --alpha",
                              reason="needs the sample ratios --alpha")
        check_erm(ch, erm.losses)
    from fltheory.papers.glm.runs import glm_run

    run = glm_run(p, ch, tuple(float(a) for a in alphas), progress=True, erm=erm)
    emit(_result(p, ch, alphas, run, erm), fmt)


def _result(p: Any, ch: Any, alphas: tuple[Any, ...], run: Any, erm: Any) -> Result:
    from fltheory.args import fraction_text

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
        erm_json = []
        lam_notes: dict[str, str] = {}
        for i, (a, pt) in enumerate(zip(alphas, run.points, strict=True)):
            row = [fraction_text(a), pt.bayes_q.text(), pt.bayes_mmse.text(),
                   pt.bayes_error.text(), pt.amp_q.text(), pt.amp_error.text()]
            for r in (run.erm[i] if erm is not None else ()):
                row += [r.error.text(), r.lam.text()]
                erm_json.append({"loss": r.loss, "alpha": fraction_text(a),
                                 "lambda": r.lam.text(), "lambda_digits": r.lam.digits,
                                 "m": r.m.text(), "q": r.q.text(), "Sigma": r.sigma.text(),
                                 "error": r.error.text(), "error_digits": r.error.digits,
                                 "error_kind": r.error_kind, "lambda_note": r.note})
                if r.note not in ("given", "optimal λ (located minimum of the error)"):
                    lam_notes[f"{r.loss} at α = {fraction_text(a)}"] = r.note
            rows.append(row)
        if erm is not None:
            for loss in erm.losses:
                cols += [f"error {loss}", f"λ {loss}"]
        kind = run.points[0].error_kind
        table = Table(columns=cols, rows=rows,
                      caption=f"Bayes-optimal and AMP fixed points ({kind} error)"
                      + ("" if erm is None else ", and empirical risk minimisation"))
        value["points"] = [dict(zip(cols, r, strict=True)) for r in rows]
        if erm is not None:
            value["erm"] = erm_json
            summary.extend(f"{k}: {v}" for k, v in lam_notes.items())
    conventions = dict(_CONVENTIONS)
    if erm is not None:
        conventions["erm"] = (
            "ŵ = argmin Σ ℓ(y, x·w/√d) + ½λ|w|², proportional limit (Aubin, Krzakala, Lu & "
            "Zdeborová 2020): ridge ℓ = ½(y − ŷ)², logistic ℓ = ln(1 + e^{−yŷ}), hinge "
            "ℓ = max(0, 1 − yŷ); error of sign(ŷ) for ±1 labels, E(y − ŷ)² otherwise; "
            + ("λ as given" if erm.lam != "opt" else
               "λ minimising the error (bounded Brent in ln λ on [1e-6, 1e4] after a "
               "bracket; its digits: those two resolutions and the flatness of the minimum "
               "confirm)"))
    return Result(command="glm",
                  inputs={"prior": str(p), "channel": str(ch),
                          "alpha": [fraction_text(a) for a in alphas],
                          "erm": None if erm is None else list(erm.losses),
                          "lambda": None if erm is None else (
                              erm.lam if erm.lam == "opt" else fraction_text(erm.lam))},
                  value=value, conventions=conventions, summary=summary, table=table,
                  notes=[f"thresholds in {th.seconds:.2f} s (both resolutions)"])
