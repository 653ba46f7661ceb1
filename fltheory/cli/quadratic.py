"""Commands of the quadratic-network paper (seed 003): ``quadratic ode`` and ``equations``."""

from __future__ import annotations

from fractions import Fraction

import click

from fltheory.cli.options import RATIONAL, CountType, emit, format_option
from fltheory.exact import DomainError, fraction_str, to_float
from fltheory.results import Result, Table

_CONVENTIONS = {
    "model": "f = a Σ_k (w_k·x)²/N, y = b Σ_m (w*_m·x)²/N + σξ, squared loss, one fresh sample "
             "per step, t = steps/N",
    "normalisation": "a = 1/p, b = 1/p*, η_w = p η (mean field: a η_w = η for every p); "
                     "--scaling fixed: η_w = η (a η_w = η/p)",
    "source": "Bocchi, Regimbeau, Lucibello, Saglietti, Cammarota (2026), arXiv 2604.03068",
}


def _teacher(text: str, p_star: int) -> list[Fraction]:
    from fltheory.exact import parse_rational

    if text == "identity":
        return [Fraction(1)] * p_star
    if not text.startswith("diag:"):
        raise DomainError("teacher", text, "identity or diag:t1,t2,… (p* values, mean 1)")
    parts = text[5:].split(",")
    if len(parts) != p_star:
        raise DomainError("teacher", text[:40], f"{p_star} positive eigenvalues")
    values = [parse_rational(v, "teacher") for v in parts]
    if any(v <= 0 for v in values):
        raise DomainError("teacher", text[:40], f"{p_star} positive eigenvalues")
    if any(not Fraction(1, 1000) <= v <= 1000 for v in values):
        raise DomainError("teacher", text[:40], "eigenvalues in [1/1000, 1000]")
    return values


def _positive(value: Fraction, param: str, allow_zero: bool = False,
              maximum: int | None = None) -> float:
    """A command-line number as a float for evaluation: refuses values a double cannot hold,
    values <= 0 (< 0 with ``allow_zero``) and values above ``maximum``."""
    if value < 0 or (value == 0 and not allow_zero) or (maximum is not None
                                                         and value > maximum):
        low = f"{param} >= 0" if allow_zero else f"{param} > 0"
        raise DomainError(param, fraction_str(value) if value.denominator < 10**12
                          else f"{float(value):.3g}",
                          low if maximum is None else f"{low}, <= {maximum}")
    return to_float(value, param)



def _bounds_text(p: int, p_star: int, noise: Fraction = Fraction(0)) -> str:
    from fltheory.theory.quadratic import stability_bounds

    b = stability_bounds(p, p_star, noise)
    parts = []
    if b["plateau"] is not None:
        parts.append(f"the plateau exists for η <= {b['plateau']} ≈ {float(b['plateau']):.4g}")
    if b["solution"] is not None:
        parts.append(f"zero-loss solutions are stable for η < p*/(2(p*+2)) = "
                     f"{fraction_str(b['solution'])}")
    return "; ".join(parts)


@click.group("quadratic")
def quadratic_group() -> None:
    """One-pass SGD in quadratic networks (Bocchi et al. 2026): ode, equations."""


@quadratic_group.command("ode")
@click.option("--p", "p", type=CountType(minimum=1), required=True,
              help="Student width p. Bound: with p* and t-max, the two integrations must fit "
                   "an estimated 2 × 20 s and 1 GiB (checked first; e.g. p <= 1100 at p* = 2, "
                   "t-max = 200).")
@click.option("--p-star", "p_star", type=CountType(minimum=1), required=True,
              help="Teacher width p*. Bound: as for p (e.g. p* <= 240 at p = 4, t-max = 200).")
@click.option("--eta", type=RATIONAL, required=True,
              help="Step η > 0 (mean field: η_w = p η; fixed: η_w = η). Above the stability "
                   "limits the ODE blows up: refused, naming the limits.")
@click.option("--scaling", type=click.Choice(["mean-field", "fixed"]), default="mean-field",
              show_default=True,
              help="mean-field: a = 1/p, η_w = pη (a·η_w = η for every p); fixed: the literal "
                   "fixed step a = 1/p, η_w = η (a·η_w = η/p).")
@click.option("--teacher", default="identity", show_default=True,
              help="Teacher overlap T: identity or diag:t1,…,tp* (each in [1/1000, 1000]; mean "
                   "1 for the plateau analysis).")
@click.option("--noise", type=RATIONAL, default="0", show_default=True,
              help="Label-noise standard deviation σ, in [0, 1000].")
@click.option("--q0", type=RATIONAL, default="1/4", show_default=True,
              help="Initial Q = q0 I, 0 < q0 <= 1000.")
@click.option("--rho0", type=RATIONAL, default="1/1000", show_default=True,
              help="Scale in [0, 1000] of the initial overlaps: ρ(0) = rho0 × a Gaussian "
                   "p × p* matrix (0: the exact fixed point ρ ≡ 0).")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True,
              help="Seed of ρ(0)'s Gaussian pattern (a generic start; equal entries would keep "
                   "the students identical forever).")
@click.option("--t-max", "t_max", type=RATIONAL, default="200", show_default=True,
              help="Integration time, in [1/100, 10^5] (cost ≈ 3000 + 15·η·t-max right-side "
                   "evaluations per integration, bounded with p and p*).")
@format_option
def ode_command(p: int, p_star: int, eta: Fraction, scaling: str, teacher: str,
                noise: Fraction, q0: Fraction, rho0: Fraction, seed: int, t_max: Fraction,
                fmt: str) -> None:
    """Integrate the derived ODEs: plateau value and loss, escape rate, escape time, final loss.

    The dynamics of W' = √a W depends on a and η_w only through a·η_w (and the label scale b),
    so --scaling fixed is the mean-field dynamics at step η/p: its escape rate falls like 1/p
    and overparameterisation slows the escape, where the mean-field rate does not depend on p.

    Example: fltheory quadratic ode --p 4 --p-star 2 --eta .1
    """
    _positive(eta, "eta")
    noise_f = _positive(noise, "noise", allow_zero=True, maximum=1000)
    q0_f = _positive(q0, "q0", maximum=1000)
    rho0_f = _positive(rho0, "rho0", allow_zero=True, maximum=1000)
    if not Fraction(1, 100) <= t_max <= 10**5:
        raise DomainError("t_max", fraction_str(t_max), "[1/100, 10^5]")
    taus = _teacher(teacher, p_star)
    eta_in = eta
    if scaling == "fixed":
        eta = eta / p  # a·η_w = (1/p)·η: the mean-field dynamics at step η/p
    eta_f = to_float(eta, "eta")
    from fltheory.theory.quadratic import ODEDivergence, check_ode_request, integrate, plateau

    pl = plateau(p, p_star, eta, noise, taus) if sum(taus) == p_star else None
    # both integrations (the trajectory and the implicit-bias drift), before any allocation
    check_ode_request(p, p_star, eta_f, float(t_max), 401, k=min(p, p_star), count=2)

    import numpy as np

    T = np.diag([float(t) for t in taus])
    t = np.unique(np.concatenate([[0.0], np.geomspace(1e-2, float(t_max), 400)]))
    R0 = rho0_f * np.random.default_rng(seed).standard_normal((p, p_star))
    try:
        sol = integrate(q0_f * np.eye(p), R0, T, eta_f, t, noise_f)
    except ODEDivergence as exc:
        bounds = _bounds_text(p, p_star, noise) if sum(taus) == p_star else ""
        raise DomainError("eta", fraction_str(eta_in), bounds or "steps for which the ODE "
                          "stays bounded", reason=f"makes the mean-field ODE diverge (order "
                          f"parameters beyond 1e8 × their scale by t ≈ {exc.t:.3g}, finite-time "
                          f"blow-up)") from None
    rho = np.linalg.norm(sol.R, axis=(1, 2))
    escape = t[np.argmax(rho > 0.5)] if np.any(rho > 0.5) else None
    rows = [[f"{t[i]:.3g}", f"{sol.loss[i]:.6g}", f"{rho[i]:.4g}",
             f"{np.trace(sol.Q[i]) / p:.4f}"] for i in range(0, len(t), 40)]
    summary = [f"p = {p}, p* = {p_star}, η = {fraction_str(eta_in)} ({scaling} scaling"
               + (f": a·η_w = η/p = {fraction_str(eta)}" if scaling == "fixed" else "")
               + f"), teacher {teacher}, σ = {fraction_str(noise)}"]
    details: dict[str, object] = {"final_loss": float(sol.loss[-1]),
                                  "escape_time": None if escape is None else float(escape)}
    if pl is not None:
        summary.append(f"plateau: q* = {pl.q_exact} ≈ {pl.q:.6f}, loss {pl.loss:.6f}; escape "
                       f"rate {pl.escape_rate:.6f}" + (f"; plateau exists for "
                                                       f"{'a·η_w' if scaling == 'fixed' else 'η'}"
                                                       f" <= "
                                                       f"{pl.eta_max_exact[0]}"
                                                       if pl.eta_max_exact else ""))
        details |= {"q_star": str(pl.q_exact), "plateau_loss": pl.loss,
                    "escape_rates": list(pl.rates)}
        if noise == 0 and all(tau == 1 for tau in taus) and eta >= Fraction(p_star,
                                                                            2 * (p_star + 2)):
            summary.append(f"note: η >= p*/(2(p*+2)) = "
                           f"{fraction_str(Fraction(p_star, 2 * (p_star + 2)))}: the zero-loss "
                           "solutions are unstable (a student component orthogonal to the "
                           "teacher grows), the loss cannot converge to 0")
    summary.append(f"escape (‖ρ‖_F > 1/2) at t ≈ {escape:.3g}" if escape is not None
                   else "no escape before t-max")
    summary.append(f"loss at t = {float(t_max):g}: {sol.loss[-1]:.3e}")
    from fltheory.theory.quadratic import implicit_bias_drift

    if rho0 == 0:
        summary.append("ρ(0) = 0 is an exact fixed point of the ODE (dρ/dt is linear in ρ): "
                       "ρ(t) = 0 for all t, the students never leave the plateau; the implicit-"
                       "bias direction S = ρ(ρᵀρ)^(−1/2) is undefined (no drift reported)")
        details["S_drift"] = None
    else:
        bias = implicit_bias_drift(q0_f * np.eye(p), R0, T, eta_f, float(t_max))
        summary.append(f"implicit bias: drift of S = ρ(ρᵀρ)^(−1/2) along the ODE "
                       f"{bias['drift']:.2e}"
                       + (" (conserved: the solution reached is the one closest to the start)"
                          if bias["drift"] < 1e-8 else " (not conserved: anisotropic teacher)"))
        details["S_drift"] = bias["drift"]
    emit(Result(command="quadratic ode",
                inputs={"p": p, "p_star": p_star, "eta": fraction_str(eta_in),
                        "scaling": scaling, "teacher": teacher,
                        "noise": fraction_str(noise), "q0": fraction_str(q0),
                        "rho0": fraction_str(rho0), "seed": seed,
                        "t_max": fraction_str(t_max)},
                value=float(sol.loss[-1]), conventions=_CONVENTIONS, summary=summary,
                details=details,
                table=Table(columns=["t", "loss", "‖ρ‖_F", "tr Q/p"], rows=rows,
                            caption="ODE trajectory (every 40th point of a log grid)",
                            label="tab:fltheory-quadratic-ode", align="rrrr")), fmt)


@quadratic_group.command("equations")
@click.option("--p", "p", type=CountType(minimum=1), required=True)
@click.option("--p-star", "p_star", type=CountType(minimum=1), required=True)
@format_option
def equations_command(p: int, p_star: int, fmt: str) -> None:
    """The ODEs dQ/dt, dρ/dt and the loss, derived element by element by Isserlis.

    Bound: p + p* <= 6 (the derivation's cost grows about ×2 per field: measured 1.2 s,
    2.3 s, 4.3 s at p + p* = 4, 5, 6 and 13-16 s at 7), checked before work starts.

    Example: fltheory quadratic equations --p 2 --p-star 2 --format latex
    """
    import sympy as sp

    from fltheory.theory.quadratic import derive_elementwise

    d = derive_elementwise(p, p_star)
    eqs = []
    for k in range(p):
        for l in range(k, p):
            eqs.append((f"dQ_{k + 1}{l + 1}/dt", sp.factor_terms(d["dQ"][k, l])))
    for k in range(p):
        for m in range(p_star):
            eqs.append((f"drho_{k + 1}{m + 1}/dt", sp.factor_terms(d["drho"][k, m])))
    eqs.append(("L", d["loss"]))
    latex = "\\begin{align*}\n" + " \\\\\n".join(
        f"{_latex_lhs(name)} &= {sp.latex(expr)}" for name, expr in eqs) + "\n\\end{align*}"
    emit(Result(command="quadratic equations", inputs={"p": p, "p_star": p_star},
                value={name: str(expr) for name, expr in eqs},
                conventions=_CONVENTIONS | {"symbols": "a, b prefactors, eta_w per-weight step, "
                                                       "sigma label noise"},
                summary=[f"{name} = {expr}" for name, expr in eqs],
                latex_value=None, details={"latex": latex}), fmt)
    if fmt == "latex":
        click.echo(latex)


def _latex_lhs(name: str) -> str:
    if name == "L":
        return r"\mathcal{L}"
    sym, idx = name[1:].split("_")
    idx = idx.replace("/dt", "")
    return (r"\dot Q_{" if sym == "Q" else r"\dot\rho_{") + idx + "}"


@quadratic_group.command("hessian")
@click.option("--p", "p", type=CountType(minimum=1), required=True)
@click.option("--p-star", "p_star", type=CountType(minimum=1), required=True)
@click.option("--N", "N", type=CountType(minimum=2), default=100, show_default=True,
              help="Input dimension for the full weight-space counts, N >= p + p* (no cost "
                   "bound needed: the counts are closed forms in N, no matrix of size N is "
                   "built).")
@click.option("--eta", type=RATIONAL, default="1/10", show_default=True,
              help="Step η > 0 for the ODE Jacobian at the plateau (bound on p, p*: the "
                   "Jacobian of size p(p+1)/2 + p p* within an estimated 20 s, e.g. p = p* <= "
                   "50).")
@format_option
def hessian_command(p: int, p_star: int, N: int, eta: Fraction, fmt: str) -> None:
    """Eigenvalue counts: loss Hessian (full p·N weight space) at the plateau and at a zero-loss
    point, zero-loss manifold dimension, and the ODE Jacobian (order parameters) at both.

    Example: fltheory quadratic hessian --p 4 --p-star 2 --N 100
    """
    from fltheory.theory import quadratic as th

    if p + p_star > N:
        raise DomainError("N", N, f"N >= p + p* = {p + p_star}")
    plateau_h = th.hessian_plateau_counts(p, p_star, N)
    rows = [["loss Hessian at the plateau (−/0/+)", "/".join(map(str, plateau_h))]]
    details: dict[str, object] = {"hessian_plateau": plateau_h}
    jac_p = th.ode_jacobian_counts(p, p_star, eta, "plateau")
    rows.append(["ODE Jacobian at the plateau (unstable/0/stable)",
                 "/".join(map(str, jac_p["predicted"]))
                 + ("" if jac_p["predicted"] == jac_p["numerical"] else
                    f" (numerical {jac_p['numerical']})")])
    details["jacobian_plateau"] = jac_p
    if p >= p_star:
        sol_h = th.hessian_solution_counts(p, p_star, N)
        jac_s = th.ode_jacobian_counts(p, p_star, eta, "solution")
        rows += [["zero-loss manifold dimension", str(th.manifold_dimension(p, p_star))],
                 ["loss Hessian at a solution (−/0/+)", "/".join(map(str, sol_h))],
                 ["ODE Jacobian at a solution (unstable/0/stable)",
                  "/".join(map(str, jac_s["predicted"]))
                  + ("" if jac_s["predicted"] == jac_s["numerical"] else
                     f" (numerical {jac_s['numerical']})")]]
        details |= {"manifold_dimension": th.manifold_dimension(p, p_star),
                    "hessian_solution": sol_h, "jacobian_solution": jac_s}
    notes = [] if p >= p_star else [f"p < p* = {p_star}: no zero-loss solution exists"]
    emit(Result(command="quadratic hessian",
                inputs={"p": p, "p_star": p_star, "N": N, "eta": fraction_str(eta)},
                value=details, conventions=_CONVENTIONS,
                summary=[f"p = {p}, p* = {p_star}, N = {N}, T = I"],
                details=details,
                table=Table(columns=["quantity", "counts"], rows=rows,
                            caption="Curvature at the plateau and on the zero-loss manifold",
                            label="tab:fltheory-quadratic-hessian", align="lr"),
                notes=notes), fmt)


@quadratic_group.command("escape")
@click.option("--p", "p", type=CountType(minimum=1), default=4, show_default=True)
@click.option("--p-star", "p_star", type=CountType(minimum=1), default=2, show_default=True)
@click.option("--eta", type=RATIONAL, default="1/10", show_default=True)
@click.option("--N", "N_text", default="250,500,1000,2000", show_default=True,
              help="Input dimensions: a list (250,1000) or a range (1000..4000). Bound: with "
                   "--samples, --eta and p, p*, an estimated 60 s and 1 GiB (checked before "
                   "work: the horizon grows like p*/η, e.g. η = 1e-9 needs 1e10 grid points).")
@click.option("--q0", type=RATIONAL, default="1/4", show_default=True,
              help="Initial weight variance: W0 ~ N(0, q0), 0 < q0 <= 1000.")
@click.option("--threshold", type=RATIONAL, default="1/2", show_default=True,
              help="Escape when ‖ρ‖_F first reaches this value, in [1e-6, 1).")
@click.option("--noise", type=RATIONAL, default="0", show_default=True,
              help="Label noise σ, in [0, 1000].")
@click.option("--samples", type=CountType(minimum=10), default=400,
              show_default=True, help="Monte Carlo draws of the initial overlaps (bounded "
                                      "with --N: an estimated 60 s in all).")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True)
@format_option
def escape_command(p: int, p_star: int, eta: Fraction, N_text: str, q0: Fraction,
                   threshold: Fraction, noise: Fraction, samples: int, seed: int,
                   fmt: str) -> None:
    """Escape time from a cold random start, with SGD's plateau noise derived: the mean-field
    ODE from Gaussian overlaps of variance (q0 + J)/N (mean field, T = I).

    Example: fltheory quadratic escape --p 4 --p-star 2 --eta 1/10 --N 250,1000,4000
    """
    from fltheory.exact import parse_int_range
    from fltheory.theory import quadratic as th

    Ns = parse_int_range(N_text, "N", minimum=p * p_star)
    q0_f = _positive(q0, "q0", maximum=1000)
    if not Fraction(1, 10**6) <= threshold < 1:
        raise DomainError("threshold", fraction_str(threshold), "1e-6 <= threshold < 1")
    _positive(eta, "eta")
    _positive(noise, "noise", allow_zero=True, maximum=1000)
    # the exact step and noise go to theory (floats only at evaluation); every N's cost first
    th.check_escape_request(p, p_star, eta, Ns, q0_f, float(threshold), noise, samples)
    try:
        laws = [th.escape_time_law(p, p_star, eta, N, q0_f, float(threshold), noise, samples,
                                   seed) for N in Ns]
    except th.ODEDivergence as exc:
        raise DomainError("eta", fraction_str(eta), _bounds_text(p, p_star, noise),
                          reason=f"makes the mean-field ODE diverge by t ≈ {exc.t:.3g} "
                                 f"(finite-time blow-up)") from None
    rows = [[str(L.N), f"{L.mean:.3f} ± {L.se:.3f}", f"{L.mean_field:.3f}", f"{L.shift:+.3f}",
             f"{L.mean_log_overlap:.4f}"] for L in laws]
    L0 = laws[0]
    details = {"rate": L0.rate, "noise_variance_J": L0.noise_variance,
               "laws": [{"N": L.N, "mean": L.mean, "se": L.se, "mean_field": L.mean_field,
                         "mean_field_se": L.mean_field_se, "shift": L.shift,
                         "shift_se": L.shift_se, "mean_log_overlap": L.mean_log_overlap}
                        for L in laws]}
    summary = [f"p = {p}, p* = {p_star}, η = {fraction_str(eta)}, W0 ~ N(0, {fraction_str(q0)}), "
               f"escape at ‖ρ‖_F = {fraction_str(threshold)}, σ = {fraction_str(noise)}",
               f"plateau rate r = {L0.rate:.6f}; ln N slope → 1/(2r) = {1 / (2 * L0.rate):.4f}",
               f"plateau noise J = {L0.noise_variance:.5f}: SGD starts the escape as if "
               f"Var ρ(0) = (q0 + J)/N; shift ≈ −ln(1 + J/q0)/(2r) = "
               f"{L0.linear_shift:.3f}"]
    emit(Result(command="quadratic escape",
                inputs={"p": p, "p_star": p_star, "eta": fraction_str(eta), "N": Ns,
                        "q0": fraction_str(q0), "threshold": fraction_str(threshold),
                        "noise": fraction_str(noise), "samples": samples, "seed": seed},
                value=[L.mean for L in laws], conventions=_CONVENTIONS, summary=summary,
                details=details,
                table=Table(columns=["N", "E t_esc (SGD)", "mean field", "SGD − ODE",
                                     "E ln‖ρ_eff(0)‖_F"], rows=rows,
                            caption="Escape time from a random start (Monte Carlo over the "
                                    "initial overlaps, ± its standard error)",
                            label="tab:fltheory-quadratic-escape", align="rrrrr"),
                notes=["neglected: the O(1/√N) anisotropy of Q(0) and SGD noise after the "
                       "escape has begun (claims quadratic.escape_time_vs_N/_vs_p test the law "
                       "against SGD)"]), fmt)


@quadratic_group.command("simulate")
@click.option("--N", "N", type=CountType(minimum=10), default=1000, show_default=True,
              help="Input dimension, in [10, 20000]; with t-max, p and p* the SGD run must fit "
                   "an estimated 30 s (t-max·N steps of ≈ 5e-5 + 2e-8·N(p + p* + 8) s; e.g. "
                   "t-max <= 90 at N = 1000, p = 4, p* = 2).")
@click.option("--p", "p", type=CountType(minimum=1), default=4, show_default=True)
@click.option("--p-star", "p_star", type=CountType(minimum=1), default=2, show_default=True)
@click.option("--eta", type=RATIONAL, default="1/10", show_default=True,
              help="Step η, 0 < η <= η_max(p, p*): above η_max the plateau fixed point does not "
                   "exist and the mean-field dynamics diverge (refused, naming η_max).")
@click.option("--t-max", "t_max", type=RATIONAL, default="40", show_default=True,
              help="Simulated time (steps/N), 0 < t-max <= 1000, bounded with N (see --N).")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True)
@format_option
def simulate_command(N: int, p: int, p_star: int, eta: Fraction, t_max: Fraction, seed: int,
                     fmt: str) -> None:
    """One-pass SGD from a random start (W0 ~ N(0, 1/4)), against the ODE from the same
    initial overlaps: test loss and ‖ρ‖ on a time grid. A run that blows up (SGD or the ODE)
    is reported as such ("SGD diverged at t ≈ …"), never as numbers."""
    import math
    import sys

    from fltheory.exact import check_cost, check_integer
    from fltheory.sim.quadratic import sgd_cost
    from fltheory.theory.quadratic import ODEDivergence, check_ode_request, stability_bounds

    check_integer(N, "N", 10, 20000)
    eta_f = _positive(eta, "eta")
    bound = stability_bounds(p, p_star)
    if bound["plateau"] is not None and eta > bound["plateau"]:
        raise DomainError("eta", fraction_str(eta), f"0 < eta <= η_max = {bound['plateau']} "
                          f"≈ {float(bound['plateau']):.4g} for p = {p}, p* = {p_star}",
                          reason="is above the stability bound: the plateau fixed point q*(η) "
                                 "does not exist and the mean-field dynamics diverge")
    if not 0 < t_max <= 1000:
        raise DomainError("t_max", fraction_str(t_max), "0 < t-max <= 1000")
    t_max_f = float(t_max)
    # SGD cost (fitted in sim.quadratic.sgd_cost), and the ODE on the unreduced state (a random
    # Q(0) has no isotropic part: reduced size p)
    check_cost(f"N = {N}, t-max = {fraction_str(t_max)}, p = {p}, p* = {p_star}",
               sgd_cost(N, p, p_star, t_max_f, n_test=2000), 30.0, "seconds (estimated)",
               "a smaller N or t-max")
    check_ode_request(p, p_star, eta_f, t_max_f, 21, k=p)
    import numpy as np

    from fltheory.sim.quadratic import orthonormal_teacher, sgd
    from fltheory.theory.quadratic import integrate

    if sys.stderr.isatty():
        click.echo(f"SGD: {int(t_max_f * N)} steps at N = {N} ...", err=True)
    rng = np.random.default_rng(seed)
    W_star = orthonormal_teacher(N, p_star, rng)
    W0 = 0.5 * rng.standard_normal((p, N))
    t = np.linspace(0, t_max_f, 21)
    run = sgd(W0, W_star, eta_f, t, seed + 100, n_test=2000)
    ode_diverged = None
    try:
        ode = integrate(W0 @ W0.T / N, W0 @ W_star.T / N, W_star @ W_star.T / N, eta_f, t)
        ode_loss, ode_rho = ode.loss, np.linalg.norm(ode.R, axis=(1, 2))
    except ODEDivergence as exc:
        ode_diverged = exc.t
        ode_loss = ode_rho = np.full(len(t), np.nan)
    assert run.test_loss is not None
    sgd_rho = np.linalg.norm(run.R, axis=(1, 2))

    def cell(x: float, spec: str) -> str:
        return format(x, spec) if math.isfinite(x) else "diverged"

    def finite(xs: np.ndarray) -> list[float | None]:
        return [float(x) if math.isfinite(x) else None for x in xs]

    rows = [[f"{t[i]:g}", cell(run.test_loss[i], ".4g"), cell(ode_loss[i], ".4g"),
             cell(sgd_rho[i], ".4f"), cell(ode_rho[i], ".4f")] for i in range(len(t))]
    summary = [f"SGD at N = {N} vs the ODE from the same initial overlaps"]
    if run.diverged_at is not None:
        summary.append(f"SGD diverged at t ≈ {run.diverged_at:.4g}: the weights left every "
                       f"bounded region (‖w‖²/N beyond 10^6 × its scale), the run was stopped "
                       f"there (stability of the mean-field dynamics: {_bounds_text(p, p_star)})")
    if ode_diverged is not None:
        summary.append(f"the mean-field ODE diverged by t ≈ {ode_diverged:.4g} (finite-time "
                       f"blow-up; {_bounds_text(p, p_star)})")
    elif bound["solution"] is not None and eta >= bound["solution"]:
        summary.append(f"note: η >= p*/(2(p*+2)) = {fraction_str(bound['solution'])}: the "
                       "zero-loss solutions are unstable, the loss cannot converge to 0")
    final = run.test_loss[-1]
    emit(Result(command="quadratic simulate",
                inputs={"N": N, "p": p, "p_star": p_star, "eta": fraction_str(eta),
                        "t_max": fraction_str(t_max), "seed": seed},
                value=float(final) if math.isfinite(final) else None,
                conventions=_CONVENTIONS,
                summary=summary,
                details={"t": t.tolist(), "sgd_test_loss": finite(run.test_loss),
                         "ode_loss": finite(ode_loss), "sgd_diverged_at": run.diverged_at,
                         "ode_diverged_by": ode_diverged},
                table=Table(columns=["t", "SGD test loss", "ODE loss", "‖ρ‖ SGD", "‖ρ‖ ODE"],
                            rows=rows, caption="One-pass SGD against the ODE",
                            label="tab:fltheory-quadratic-sim", align="rrrrr")), fmt)
