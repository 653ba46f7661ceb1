"""Commands of the quadratic-network paper (Bocchi et al. 2026): ``quadratic ode``,
``equations``."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

from fltheory.cli.options import RATIONAL, CountType, emit, format_option
from fltheory.exact import fraction_str
from fltheory.results import Result, Table

if TYPE_CHECKING:
    from fltheory.papers.quadratic.params import Model, ODEStart
    from fltheory.papers.quadratic.runs import ODERun, SGDvsODE

_CONVENTIONS = {
    "model": "f = a Σ_k (w_k·x)²/N, y = b Σ_m (w*_m·x)²/N + σξ, squared loss, one fresh sample "
             "per step, t = steps/N",
    "normalisation": "a = 1/p, b = 1/p*, η_w = p η (mean field: a η_w = η for every p); "
                     "--scaling fixed: η_w = η (a η_w = η/p)",
    "source": "Bocchi, Regimbeau, Lucibello, Saglietti, Cammarota (2026), arXiv 2604.03068",
}


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
    from fltheory.papers.quadratic.params import Model, ODEStart
    from fltheory.papers.quadratic.runs import ode_run

    model = Model(p, p_star, noise, teacher, scaling)
    start = ODEStart(eta, q0, rho0, seed, t_max)
    run = ode_run(model, start)
    sol = run.sol
    rho = sol.overlap_norm
    rows = [[f"{sol.t[i]:.3g}", f"{sol.loss[i]:.6g}", f"{rho[i]:.4g}",
             f"{sol.Q[i].trace() / p:.4f}"] for i in range(0, len(sol.t), 40)]
    details: dict[str, object] = {"final_loss": float(sol.loss[-1]),
                                  "escape_time": run.escape_time, "S_drift": run.s_drift}
    if run.plateau is not None:
        details |= {"q_star": str(run.plateau.q_exact), "plateau_loss": run.plateau.loss,
                    "escape_rates": list(run.plateau.rates)}
    emit(Result(command="quadratic ode",
                inputs={"p": p, "p_star": p_star, "eta": fraction_str(start.eta),
                        "scaling": scaling, "teacher": teacher,
                        "noise": fraction_str(model.noise), "q0": fraction_str(start.q0),
                        "rho0": fraction_str(start.rho0), "seed": seed,
                        "t_max": fraction_str(start.t_max)},
                value=float(sol.loss[-1]), conventions=_CONVENTIONS,
                summary=_ode_summary(run, model, start, teacher),
                details=details,
                table=Table(columns=["t", "loss", "‖ρ‖_F", "tr Q/p"], rows=rows,
                            caption="ODE trajectory (every 40th point of a log grid)",
                            label="tab:fltheory-quadratic-ode", align="rrrr")), fmt)


def _ode_summary(run: ODERun, model: Model, start: ODEStart, teacher: str) -> list[str]:
    p, p_star, scaling = model.p, model.p_star, model.scaling
    fixed = scaling == "fixed"
    out = [f"p = {p}, p* = {p_star}, η = {fraction_str(start.eta)} ({scaling} scaling"
           + (f": a·η_w = η/p = {fraction_str(run.eta)}" if fixed else "")
           + f"), teacher {teacher}, σ = {fraction_str(model.noise)}"]
    pl = run.plateau
    if pl is not None:
        out.append(f"plateau: q* = {pl.q_exact} ≈ {pl.q:.6f}, loss {pl.loss:.6f}; escape rate "
                   f"{pl.escape_rate:.6f}" + (f"; plateau exists for {'a·η_w' if fixed else 'η'}"
                                              f" <= {pl.eta_max_exact[0]}"
                                              if pl.eta_max_exact else ""))
    if run.solutions_unstable:
        bound = fraction_str(Fraction(p_star, 2 * (p_star + 2)))
        out.append(f"note: η >= p*/(2(p*+2)) = {bound}: the zero-loss solutions are unstable (a "
                   "student component orthogonal to the teacher grows), the loss cannot "
                   "converge to 0")
    out.append(f"escape (‖ρ‖_F > 1/2) at t ≈ {run.escape_time:.3g}"
               if run.escape_time is not None else "no escape before t-max")
    out.append(f"loss at t = {float(start.t_max):g}: {run.sol.loss[-1]:.3e}")
    if run.s_drift is None:
        out.append("ρ(0) = 0 is an exact fixed point of the ODE (dρ/dt is linear in ρ): ρ(t) = 0 "
                   "for all t, the students never leave the plateau; the implicit-bias "
                   "direction S = ρ(ρᵀρ)^(−1/2) is undefined (no drift reported)")
    else:
        # below 1e-12 the drift is round-off (an isotropic start gives 9.5e-16 at rtol 1e-9 and
        # 9.8e-16 at 1e-12), so no digit of it is printed
        drift = ("< 1e-12 (round-off)" if run.s_drift < 1e-12 else f"{run.s_drift:.2e}")
        out.append(f"implicit bias: drift of S = ρ(ρᵀρ)^(−1/2) along the ODE (the mean-field "
                   f"dynamics, not SGD) {drift}"
                   + (" (conserved: the solution reached is the one closest to the start)"
                      if run.s_drift < 1e-8 else " (not conserved: anisotropic teacher)"))
    return out


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

    from fltheory.papers.quadratic.theory import derive_elementwise

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
    from fltheory.papers.quadratic.params import CurvatureRequest, Model
    from fltheory.papers.quadratic.runs import curvature_counts

    request = CurvatureRequest(N, eta)
    c = curvature_counts(Model(p, p_star), request)

    def jac(j: dict[str, Any]) -> str:
        same = j["predicted"] == j["numerical"]
        return "/".join(map(str, j["predicted"])) + ("" if same else
                                                     f" (numerical {j['numerical']})")

    rows = [["loss Hessian at the plateau (−/0/+)", "/".join(map(str, c["hessian_plateau"]))],
            ["ODE Jacobian at the plateau (unstable/0/stable)", jac(c["jacobian_plateau"])]]
    if p >= p_star:
        rows += [["zero-loss manifold dimension", str(c["manifold_dimension"])],
                 ["loss Hessian at a solution (−/0/+)", "/".join(map(str, c["hessian_solution"]))],
                 ["ODE Jacobian at a solution (unstable/0/stable)", jac(c["jacobian_solution"])]]
    notes = [] if p >= p_star else [f"p < p* = {p_star}: no zero-loss solution exists"]
    emit(Result(command="quadratic hessian",
                inputs={"p": p, "p_star": p_star, "N": N, "eta": fraction_str(request.eta)},
                value=c, conventions=_CONVENTIONS,
                summary=[f"p = {p}, p* = {p_star}, N = {N}, T = I"], details=c,
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
    from fltheory.papers.quadratic.params import EscapeRequest, Model
    from fltheory.papers.quadratic.runs import escape_laws

    Ns = parse_int_range(N_text, "N", minimum=p * p_star)
    model = Model(p, p_star, noise=noise)
    request = EscapeRequest(eta, Ns, q0, threshold, samples, seed)
    laws = escape_laws(model, request)
    rows = [[str(L.N), f"{L.mean:.3f} ± {L.se:.3f}", f"{L.mean_field:.3f}", f"{L.shift:+.3f}",
             f"{L.mean_log_overlap:.4f}"] for L in laws]
    L0 = laws[0]
    keys = ("N", "mean", "se", "mean_field", "mean_field_se", "shift", "shift_se",
            "mean_log_overlap")
    details = {"rate": L0.rate, "noise_variance_J": L0.noise_variance,
               "laws": [{k: getattr(L, k) for k in keys} for L in laws]}
    summary = [f"p = {p}, p* = {p_star}, η = {fraction_str(request.eta)}, W0 ~ N(0, "
               f"{fraction_str(q0)}), escape at ‖ρ‖_F = {fraction_str(threshold)}, σ = "
               f"{fraction_str(model.noise)}",
               f"plateau rate r = {L0.rate:.6f}; ln N slope → 1/(2r) = {1 / (2 * L0.rate):.4f}",
               f"plateau noise J = {L0.noise_variance:.5f}: SGD starts the escape as if "
               f"Var ρ(0) = (q0 + J)/N; shift ≈ −ln(1 + J/q0)/(2r) = {L0.linear_shift:.3f}"]
    emit(Result(command="quadratic escape",
                inputs={"p": p, "p_star": p_star, "eta": fraction_str(request.eta), "N": Ns,
                        "q0": fraction_str(q0), "threshold": fraction_str(threshold),
                        "noise": fraction_str(model.noise), "samples": samples, "seed": seed},
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
    import sys

    from fltheory.papers.quadratic.params import Comparison, Model
    from fltheory.papers.quadratic.runs import compare_sgd_ode

    run = Comparison(N, eta, t_max, seed)
    c = compare_sgd_ode(Model(p, p_star), run,
                        announce=lambda text: click.echo(text, err=True)
                        if sys.stderr.isatty() else None)
    rows = [[f"{c.t[i]:g}", _cell(c.sgd_loss[i], ".4g"), _cell(c.ode_loss[i], ".4g"),
             _cell(c.sgd_rho[i], ".4f"), _cell(c.ode_rho[i], ".4f")] for i in range(len(c.t))]
    final = float(c.sgd_loss[-1])
    emit(Result(command="quadratic simulate",
                inputs={"N": N, "p": p, "p_star": p_star, "eta": fraction_str(run.eta),
                        "t_max": fraction_str(run.t_max), "seed": seed},
                value=final if math.isfinite(final) else None, conventions=_CONVENTIONS,
                summary=_simulate_summary(c, p, p_star, run.eta),
                details={"t": c.t.tolist(), "sgd_test_loss": _finite(c.sgd_loss),
                         "ode_loss": _finite(c.ode_loss), "sgd_diverged_at": c.sgd_diverged_at,
                         "ode_diverged_by": c.ode_diverged_by},
                table=Table(columns=["t", "SGD test loss", "ODE loss", "‖ρ‖ SGD", "‖ρ‖ ODE"],
                            rows=rows, caption="One-pass SGD against the ODE",
                            label="tab:fltheory-quadratic-sim", align="rrrrr")), fmt)


def _cell(x: float, spec: str) -> str:
    return format(x, spec) if math.isfinite(x) else "diverged"


def _finite(xs: Any) -> list[float | None]:
    return [float(x) if math.isfinite(x) else None for x in xs]


def _simulate_summary(c: SGDvsODE, p: int, p_star: int, eta: Fraction) -> list[str]:
    from fltheory.papers.quadratic.theory import stability_bounds, stability_text

    out = [f"SGD at N = {c.N} vs the ODE from the same initial overlaps"]
    if c.sgd_diverged_at is not None:
        out.append(f"SGD diverged at t ≈ {c.sgd_diverged_at:.4g}: the weights left every "
                   f"bounded region (‖w‖²/N beyond 10^6 × its scale), the run was stopped there "
                   f"(stability of the mean-field dynamics: {stability_text(p, p_star)})")
    solution = stability_bounds(p, p_star)["solution"]
    if c.ode_diverged_by is not None:
        out.append(f"the mean-field ODE diverged by t ≈ {c.ode_diverged_by:.4g} (finite-time "
                   f"blow-up; {stability_text(p, p_star)})")
    elif solution is not None and eta >= solution:
        out.append(f"note: η >= p*/(2(p*+2)) = {fraction_str(solution)}: the zero-loss "
                   "solutions are unstable, the loss cannot converge to 0")
    return out
