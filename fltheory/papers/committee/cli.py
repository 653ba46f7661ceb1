"""Commands of the soft-committee-machine paper: ``committee ode``, ``equations``,
``plateau``, ``simulate``."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fltheory.cli.options import RATIONAL, CountType, emit, format_option
from fltheory.exact import fraction_str
from fltheory.results import Result, Table

if TYPE_CHECKING:
    from fltheory.papers.committee.params import CommitteeModel, ODESettings
    from fltheory.papers.committee.plateau import Convergence, MaxLearningRate, Plateau
    from fltheory.papers.committee.runs import ODERun, SGDvsODE

F = TypeVar("F", bound=Callable[..., Any])

_CONVENTIONS = {
    "model": "f = Σ_k a_k g(w_k·x/√N), y = Σ_m a*_m g(w*_m·x/√N) + σξ, x ~ N(0, I_N); online "
             "SGD on ½(f − y)², one fresh sample per step: w_k += (η/√N) a_k (y − f) "
             "g'(λ_k) x − (ηκ/N) w_k; t = steps/N",
    "overlaps": "Q = WWᵀ/N, R = WW*ᵀ/N, T = W*W*ᵀ/N; ε_g = ½E(f − y_clean)²",
    "activation": ("erf_ss means erf(x/√2) (Saad & Solla), erf means erf(x) as in every "
                   "command; relu, tanh, polynomials in x or z"),
    "source": "Saad & Solla (1995); Biehl & Schwarze (1995); Goldt et al. (2019)",
}


def _model_options(func: F) -> F:
    """--g, --K, --M, second layers, noise and weight decay: the model of every command."""
    for decorate in reversed([
        click.option("--g", "g", default="erf_ss", show_default=True,
                     help="Activation: erf_ss (= erf(x/√2), Saad & Solla), erf (= erf(x)), relu, "
                          "tanh, sigmoid, a polynomial "
                          "in x or z (x**2, He3), or an expression in z (theory only)."),
        click.option("--K", "K", type=CountType(minimum=1, maximum=50), default=2,
                     show_default=True, help="Student units K, 1 <= K <= 50."),
        click.option("--M", "M", type=CountType(minimum=1, maximum=50), default=2,
                     show_default=True, help="Teacher units M, 1 <= M <= 50."),
        click.option("--a", "a", default="1", show_default=True,
                     help="Student second layer: a number for every unit, or 1/K (each 0 or "
                          "1/100 <= abs(a) <= 4)."),
        click.option("--a-star", "a_star", default="1", show_default=True,
                     help="Teacher second layer: a number for every unit, or 1/M (each 0 or "
                          "1/100 <= abs(a*) <= 4)."),
        click.option("--noise", metavar="RATIONAL", default="0", show_default=True,
                     help="Label-noise standard deviation σ >= 0."),
        click.option("--weight-decay", "weight_decay", metavar="RATIONAL", default="0",
                     show_default=True, help="Weight decay κ >= 0 (the step −(ηκ/N) w)."),
    ]):
        func = decorate(func)
    return func


def _model(g: str, K: int, M: int, a: str, a_star: str, noise: str,
           weight_decay: str) -> CommitteeModel:
    """The typed model of the options (every field read there, the second layers' range
    :data:`~fltheory.papers.committee.params.A_RANGE` included)."""
    from fltheory.papers.committee.params import CommitteeModel

    return CommitteeModel(g, K, M, a=a, a_star=a_star, noise=noise, weight_decay=weight_decay)


def _model_inputs(model: CommitteeModel) -> dict[str, Any]:
    return {"g": model.g, "K": model.K, "M": model.M,
            "a": [fraction_str(v) for v in model.a],
            "a_star": [fraction_str(v) for v in model.a_star],
            "noise": fraction_str(model.noise), "weight_decay": fraction_str(model.weight_decay)}


def _num(x: float, spec: str = ".6g") -> str:
    return format(x, spec) if math.isfinite(x) else "diverged"


@click.group("committee")
def committee_group() -> None:
    """Online SGD in soft committee machines (Saad & Solla 1995): ode, equations, plateau,
    simulate."""


@committee_group.command("ode")
@_model_options
@click.option("--eta", metavar="RATIONAL", required=True, help="Step η > 0.")
@click.option("--t-max", "t_max", metavar="RATIONAL", default="200", show_default=True,
              help="Integration time, 0 < t-max <= 10^5 (the integration's cost is bounded "
                   "with K, M before it starts).")
@click.option("--q0", metavar="RATIONAL", default="1/4", show_default=True,
              help="Initial Q = q0 I, 0 < q0 <= 1000 (unless --Q0).")
@click.option("--rho0", metavar="RATIONAL", default="1/1000", show_default=True,
              help="Initial R = rho0 × a seeded Gaussian K × M pattern (unless --R0).")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True)
@click.option("--T", "T", default=None, help="Teacher overlaps (rows ';', entries ','); "
              "default the identity. Must be positive semi-definite.")
@click.option("--Q0", "Q0", default=None, help="Initial Q (rows ';'), with --R0.")
@click.option("--R0", "R0", default=None, help="Initial R (K × M, rows ';').")
@click.option("--rtol", metavar="RATIONAL", default="1e-10", show_default=True,
              help="Relative local tolerance of the integration, 1e-13 <= rtol <= 1e-3 (the "
                   "stated accuracy of ε_g follows it).")
@click.option("--atol", metavar="RATIONAL", default=None,
              help="Absolute local tolerance, 1e-16 <= atol <= 1e-3 (default 1e-12; relu "
                   "1e-10).")
@click.option("--n-out", "n_out", type=CountType(minimum=2, maximum=100001), default=201,
              show_default=True, help="Output times, equally spaced in [0, t-max], 2 <= n <= "
                                      "100001 (every one is a step's end: bounded with t-max).")
@click.option("--times", default=None, help="Output times instead of --t-max/--n-out: "
              "increasing rationals in [0, 10^5], comma-separated, at most 1000 (0 is added "
              "first; the last is t-max).")
@format_option
def ode_command(g: str, K: int, M: int, a: str, a_star: str, noise: str, weight_decay: str,
                eta: str, t_max: str, q0: str, rho0: str, seed: int, T: str | None,
                Q0: str | None, R0: str | None, rtol: str, atol: str | None, n_out: int,
                times: str | None, fmt: str) -> None:
    """Integrate the derived ODEs from a generic start: ε_g(t), the plateau and the escape.

    Example: fltheory committee ode --g erf --K 2 --M 2 --eta .5
    """
    from fltheory.papers.committee.params import ODESettings, read_times
    from fltheory.papers.committee.runs import ode_run

    model = _model(g, K, M, a, a_star, noise, weight_decay)
    grid = None if times is None else read_times(times)
    settings = ODESettings(eta, t_max=t_max if grid is None else grid[-1], q0=q0, rho0=rho0,
                           seed=seed, T=T, Q0=Q0, R0=R0, rtol=rtol, atol=atol, records=n_out,
                           t_grid=None if grid is None else [float(v) for v in grid])
    _announce(model, settings)
    run = ode_run(model, settings)
    tr, spec, stop, acc = run.trajectory, run.specialisation, run.runaway, run.accuracy
    end = len(tr.t) if stop is None else stop[0] + 1
    eps = [max(float(v), 0.0) for v in tr.eps_g[:end]]
    every = 1 if grid is not None else max(1, round((len(tr.t) - 1) / 10))
    rows = [[f"{tr.t[i]:.4g}", _eps_text(eps[i], float(acc[i])), f"{spec[i]:.4f}",
             f"{float(tr.Q[i].trace()) / K:.4f}"] for i in range(0, end, every)]
    if (end - 1) % every:
        i = end - 1
        rows.append([f"{tr.t[i]:.4g}", _eps_text(eps[i], float(acc[i])), f"{spec[i]:.4f}",
                     f"{float(tr.Q[i].trace()) / K:.4f}"])
    details = {"t": tr.t[:end].tolist(), "eps_g": eps,
               "eps_g_accuracy": [float(v) for v in acc[:end]], "method": tr.method,
               "nfev": tr.nfev, "escape_time": run.escape_time, "plateau": _plateau_json(run),
               "runaway": None if stop is None else {"t": stop[1], "trQ_over_K": stop[2],
                                                     "scale": stop[3]}}
    emit(Result(command="committee ode",
                inputs=_model_inputs(model) | {"eta": fraction_str(settings.eta),
                                               "t_max": fraction_str(settings.t_max),
                                               "q0": fraction_str(settings.q0),
                                               "rho0": fraction_str(settings.rho0), "seed": seed,
                                               "T": T, "Q0": Q0, "R0": R0, "rtol": rtol,
                                               "atol": atol, "n_out": n_out, "times": times},
                value=eps[-1], conventions=_CONVENTIONS,
                summary=_ode_summary(run, stop, eps[-1], float(acc[end - 1])),
                details=details,
                table=Table(columns=["t", "ε_g", "‖R − mean R‖_F", "tr Q/K"], rows=rows,
                            caption=f"ODE trajectory ({_every_text(every)})",
                            label="tab:fltheory-committee-ode", align="rrrr")), fmt)


def _every_text(every: int) -> str:
    """Which grid points the table shows.

    >>> _every_text(1), _every_text(2), _every_text(20), _every_text(21)
    ('every grid point', 'every 2nd grid point', 'every 20th grid point', 'every 21st grid point')
    """
    if every == 1:
        return "every grid point"
    tail = {1: "st", 2: "nd", 3: "rd"}.get(every % 10 if every % 100 not in (11, 12, 13) else 0,
                                          "th")
    return f"every {every}{tail} grid point"


def _announce(model: CommitteeModel, settings: ODESettings) -> float:
    """One line on stderr (never stdout or JSON) before an integration whose estimated time
    is 5 s or more; returns the estimate. One estimate per run: the bound's
    (:func:`~fltheory.papers.committee.ode.check_trajectory_cost` refuses first, quoting it)
    and this line's are the same figure,
    :func:`~fltheory.papers.committee.ode.integration_seconds` on the right side the
    integration takes."""
    from fltheory.papers.committee.ode import check_trajectory_cost, integration_seconds

    check_trajectory_cost(model, settings)
    seconds = integration_seconds(model, settings)
    if seconds >= 5:
        click.echo(f"fltheory committee ode: integrating to t = {fraction_str(settings.t_max)} "
                   f"(estimated {seconds:.0f} s) ...", err=True)
    return seconds


def _plateau_json(run: ODERun) -> dict[str, Any] | None:
    p = run.plateau
    if p is None:
        return None
    return {"q": p.q, "c": p.c, "r": p.r, "eps_g": p.eps_g, "escape_rate": p.escape_rate,
            "visited": run.plateau_visited,
            "eigenvalues_real": [float(v.real) for v in p.eigenvalues],
            "eigenvalues_imag": [float(v.imag) for v in p.eigenvalues]}


def _eps_text(value: float, acc: float) -> str:
    """ε_g >= 0 with only its confirmed digits: "< acc" when within the stated absolute
    accuracy of 0, else as many significant digits as value/acc confirms (at most 6)."""
    if not math.isfinite(value):
        return "diverged"
    if value <= acc:
        return f"< {acc:.1e}"
    digits = max(1, min(6, math.floor(math.log10(value / acc))))
    return f"{value:.{digits}g}"


def _ode_summary(run: ODERun, stop: tuple[int, float, float, float] | None = None,
                 final: float = 0.0, acc: float = 0.0) -> list[str]:
    import numpy as np

    from fltheory.papers.committee.model import model_averages

    tr = run.trajectory
    out = [f"{run.model}, η = {fraction_str(run.eta)}; integrated by {tr.method} "
           f"({tr.nfev} right-side evaluations)"]
    p = run.plateau
    if p is not None:
        which = ("the one this trajectory visits" if run.plateau_visited else
                 "the one the reduced flow from the symmetric start reaches; this trajectory "
                 "passes none on its grid")
        out.append(f"symmetric plateau: q = {p.q:.6f}, c = {p.c:.6f}, r = {p.r:.6f}, ε_g = "
                   f"{p.eps_g:.6f}; escape rate {p.escape_rate:.6f} "
                   f"({len(p.unstable)} unstable direction(s)); {which} (committee plateau "
                   "lists every symmetric fixed point)")
    else:
        out.append(f"no symmetric plateau analysed: {run.plateau_note}")
    if stop is not None:
        out.append(f"the ODE runs away: tr Q/K = {stop[2]:.4g} exceeds 100 × its natural scale "
                   f"{stop[3]:.3g} at t ≈ {tr.t[stop[0]]:.4g} and keeps growing (η far above "
                   f"the largest stable step); the output stops there")
    when = float(run.settings.t_max) if stop is None else float(tr.t[stop[0]])
    if run.escape_time is not None and run.escape_time <= when:
        esc = run.escape_time
        i = int(np.searchsorted(tr.t, esc))
        lo, hi = float(tr.t[max(i - 1, 0)]), float(tr.t[min(i, len(tr.t) - 1)])
        coarse = (f" (interpolated between the output times {lo:g} and {hi:g})"
                  if hi - lo > 0.05 * esc else "")
        out.append(f"escape (‖R − mean R‖_F >= 1/2) at t ≈ {esc:.4g}{coarse}")
    else:  # the output ends where the ODE ran away: say so, not "t-max"
        out.append("no escape before t-max" if stop is None
                   else f"no escape before the ODE ran away (t ≈ {when:.4g})")
    out.append(f"ε_g at t = {when:g}: {_eps_text(final, acc)} (stated absolute accuracy "
               f"{acc:.1e}: integration tolerances and the averages' error)")
    if run.average_errors is not None:
        kinds = ", ".join(f"{k.upper()} {v:.1e}" for k, v in sorted(run.average_errors.items()))
        av = model_averages(run.model)
        out += [f"averages: {av.method}",
                f"their estimated error along this trajectory (start, middle, end; "
                f"{av.error_how}): {kinds}"]
        if p is not None and p.average_errors is not None:
            out += _error_lines(run.model, p)[1:]
    return out


@committee_group.command("equations")
@_model_options
@click.option("--order", type=CountType(minimum=1, maximum=2), default=2, show_default=True,
              help="1: first order in η; 2: with the η² (and noise) terms.")
@format_option
def equations_command(g: str, K: int, M: int, a: str, a_star: str, noise: str,
                      weight_decay: str, order: int, fmt: str) -> None:
    """The ODEs dQ/dt, dR/dt derived for g (sympy; K + M <= 6, bounded before work).

    Example: fltheory committee equations --g relu --K 2 --M 1 --format latex
    """
    from fltheory.papers.committee.model import equations, model_averages

    model = _model(g, K, M, a, a_star, noise, weight_decay)
    eq = equations(model, order)
    latex = eq.latex()
    lines = [f"dQ_{i + 1}{k + 1}/dt = {eq.dQ[i, k]}" for i in range(K) for k in range(i, K)]
    lines += [f"dR_{i + 1}{m + 1}/dt = {eq.dR[i, m]}" for i in range(K) for m in range(M)]
    emit(Result(command="committee equations", inputs=_model_inputs(model) | {"order": order},
                value=lines, conventions=_CONVENTIONS | {
                    "averages": model_averages(model).method,
                    "symbols": "Q_ij, R_in, T_nm overlaps, eta the step"},
                summary=[str(model), *lines, f"eps_g = {eq.eps_g}"],
                details={"latex": latex, "eps_g": str(eq.eps_g)}), fmt)
    if fmt == "latex":  # in maths: an align* block, long right sides broken at their terms
        click.echo(eq.latex_block())


@committee_group.command("plateau")
@_model_options
@click.option("--eta", type=RATIONAL, required=True, help="Step η > 0.")
@click.option("--guess", default=None, help="A start q,c,r for Newton's method (q,r when "
              "K = 1) instead of the settling integration, e.g. 0.78,0.35,0.52.")
@format_option
def plateau_command(g: str, K: int, M: int, a: str, a_star: str, noise: str,
                    weight_decay: str, eta: Fraction, guess: str | None, fmt: str) -> None:
    """The unspecialised plateau Q_kk = q, Q_kl = c, R = r (T = I): its ε_g, the Jacobian's
    eigenvalues there, the unstable directions and the escape rate.

    Example: fltheory committee plateau --g erf --K 2 --M 2 --eta 1/2
    """
    from fltheory.papers.committee.model import model_averages
    from fltheory.papers.committee.plateau import symmetric_plateau

    model = _model(g, K, M, a, a_star, noise, weight_decay)
    p = symmetric_plateau(model, eta, guess=guess)
    rows = [[str(i + 1), f"{v.real:+.6g}", f"{v.imag:+.3g}"]
            for i, v in enumerate(p.eigenvalues)]
    value = {"q": p.q, "c": p.c, "r": p.r, "eps_g": p.eps_g, "escape_rate": p.escape_rate}
    numeric = p.average_errors is not None
    extra = {"average_errors": p.average_errors, "refined_change": p.refined_change,
             "averages": model_averages(model).method} if numeric else {}
    every, every_json = _every_fixed_point(model, eta, p, guess)
    extra["symmetric_fixed_points"] = every_json
    emit(Result(command="committee plateau",
                inputs=_model_inputs(model) | {"eta": fraction_str(eta), "guess": guess},
                value=value,
                conventions=_CONVENTIONS,
                summary=[f"{model}, η = {fraction_str(eta)}",
                         f"plateau q = {p.q:.8f}, c = {p.c:.8f}, r = {p.r:.8f}",
                         f"ε_g = {p.eps_g:.8f}; escape rate {p.escape_rate:.8f} "
                         f"({len(p.unstable)} unstable direction(s)); residual "
                         f"{p.residual:.1e}", *_error_lines(model, p), *every],
                details=value | {"residual": p.residual} | extra,
                table=Table(columns=["#", "Re λ", "Im λ"], rows=rows,
                            caption="Jacobian eigenvalues at the plateau",
                            label="tab:fltheory-committee-plateau", align="rrr")), fmt)


def _every_fixed_point(model: CommitteeModel, eta: Fraction, p: Plateau, guess: str | None
                       ) -> tuple[list[str], Any]:
    """Summary lines and JSON of every symmetric fixed point
    (:func:`~fltheory.papers.committee.plateau.symmetric_fixed_points`), each with its
    stability, the one ``p`` (the plateau above) marked as the one the symmetric flow
    reaches (or Newton from the guess); where the search is refused (its cost), why."""
    from fltheory.exact import DomainError
    from fltheory.papers.committee.plateau import (
        SEARCH_C,
        SEARCH_Q,
        SEARCH_R,
        same_point,
        symmetric_fixed_points,
    )

    try:
        points = symmetric_fixed_points(model, eta)
    except DomainError as exc:
        return [f"every symmetric fixed point: not searched ({exc})"], None
    starts = len(SEARCH_Q) * (len(SEARCH_C) if model.K > 1 else 1) * len(SEARCH_R)
    reach = ("the one the reduced flow from the symmetric start reaches" if guess is None
             else "the one Newton reached from the guess")
    lines = [f"every symmetric fixed point (Newton on the reduced equations from up to {starts} "
             f"admissible starts; a grid search): {len(points)} found"]
    out = []
    for i, f in enumerate(points):
        visited = same_point(f, p)
        where = f"q = c = {f.q:.6f}" if model.K > 1 and abs(f.q - f.c) <= 1e-9 * max(
            1.0, abs(f.q)) else f"q = {f.q:.6f}, c = {f.c:.6f}"
        lines.append(f"  {i + 1}. {where}, r = {f.r:.6f}, ε_g = {f.eps_g:.6f}: "
                     + (f"unstable, {len(f.unstable)} direction(s), largest Re λ "
                        f"{f.escape_rate:.6f}" if f.unstable else
                        f"stable (largest Re λ {float(f.eigenvalues[0].real):.3g})")
                     + (f" — {reach}" if visited else ""))
        out.append({"q": f.q, "c": f.c, "r": f.r, "eps_g": f.eps_g,
                    "unstable": len(f.unstable), "escape_rate": f.escape_rate,
                    "max_real_eigenvalue": float(f.eigenvalues[0].real),
                    "visited": visited})
    return lines, out


def _error_lines(model: CommitteeModel, p: Plateau) -> list[str]:
    """For numeric averages: the method, their estimated errors at this plateau and the
    changes when the final Newton and Jacobian are redone with the finer rule."""
    from fltheory.papers.committee.model import model_averages

    if p.average_errors is None:
        return []
    av = model_averages(model)
    err, ch = p.average_errors, p.refined_change
    kinds = ", ".join(f"{k.upper()} {v:.1e}" for k, v in sorted(err.items()))
    redo = ("the redo with the finer rule failed (its Newton left the admissible states)"
            if ch is None else
            f"redone with the finer rule: q, c, r change by {max(ch['q'], ch['c'], ch['r']):.1e},"
            f" ε_g by {ch['eps_g']:.1e}, the escape rate by {ch['escape_rate']:.1e}, the "
            f"eigenvalues by {ch['eigenvalues']:.1e} (digits below these are not meaningful)")
    return [f"averages: {av.method}",
            f"their estimated error at this plateau's covariances "
            f"({av.error_how}): {kinds}", redo]


@committee_group.command("simulate")
@_model_options
@click.option("--eta", metavar="RATIONAL", required=True, help="Step η > 0.")
@click.option("--N", "N", type=CountType(minimum=10, maximum=20000), default=1000,
              show_default=True, help="Input dimension, in [10, 20000]; with t-max, K and M "
              "the SGD run must fit an estimated 30 s (fltheory.papers.committee.sim.sgd_cost).")
@click.option("--t-max", "t_max", metavar="RATIONAL", default="50", show_default=True,
              help="Simulated time (steps/N), 0 < t-max <= 1000, bounded with N.")
@click.option("--q0", metavar="RATIONAL", default="1/4", show_default=True,
              help="Cold start W0 ~ N(0, q0), q0 > 0.")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True)
@format_option
def simulate_command(g: str, K: int, M: int, a: str, a_star: str, noise: str,
                     weight_decay: str, eta: str, N: int, t_max: str, q0: str, seed: int,
                     fmt: str) -> None:
    """One-pass SGD from a cold start against the ODE from the same sampled overlaps: test ε_g
    (± its SE) and the specialisation ‖R − mean R‖_F on a time grid.

    Example: fltheory committee simulate --g erf --K 2 --M 2 --eta 3/2 --N 1000 --t-max 80
    """
    import sys

    from fltheory.papers.committee.params import SGDSettings
    from fltheory.papers.committee.runs import compare_sgd_ode

    model = _model(g, K, M, a, a_star, noise, weight_decay)
    settings = SGDSettings(eta, N, t_max, seed=seed, q0=q0, records=21)
    if sys.stderr.isatty():
        click.echo(f"SGD: {int(float(settings.t_max) * N)} steps at N = {N} ...", err=True)
    c = compare_sgd_ode(model, settings)
    rows = [[f"{c.t[i]:g}", f"{_num(float(c.sgd_eps[i]), '.4g')} ± {c.sgd_eps_se[i]:.1g}",
             _num(float(c.ode_eps[i]), ".4g"), _num(float(c.sgd_spec[i]), ".3f"),
             _num(float(c.ode_spec[i]), ".3f")] for i in range(len(c.t))]
    final = float(c.sgd_eps[-1])
    emit(Result(command="committee simulate",
                inputs=_model_inputs(model) | {"eta": fraction_str(settings.eta), "N": N,
                                               "t_max": fraction_str(settings.t_max),
                                               "q0": fraction_str(settings.q0), "seed": seed},
                value=final if math.isfinite(final) else None, conventions=_CONVENTIONS,
                summary=_simulate_summary(c), details=_simulate_details(c),
                table=Table(columns=["t", "SGD test ε_g", "ODE ε_g", "spec. SGD", "spec. ODE"],
                            rows=rows, caption="One-pass SGD against the ODE (spec. = "
                            "‖R − mean R‖_F)", label="tab:fltheory-committee-sim",
                            align="rrrrr")), fmt)


def _finite(xs: Any) -> list[float | None]:
    return [float(x) if math.isfinite(x) else None for x in xs]


def _simulate_details(c: SGDvsODE) -> dict[str, Any]:
    return {"t": c.t.tolist(), "sgd_eps_g": _finite(c.sgd_eps),
            "sgd_eps_g_se": _finite(c.sgd_eps_se), "ode_eps_g": _finite(c.ode_eps),
            "sgd_specialisation": _finite(c.sgd_spec), "ode_specialisation": _finite(c.ode_spec),
            "sgd_diverged_at": c.sgd_diverged_at, "ode_diverged_by": c.ode_diverged_by,
            "ode_method": c.ode_method}


def _simulate_summary(c: SGDvsODE) -> list[str]:
    out = [f"SGD at N = {c.N} (g = {c.g}, K = {c.K}, M = {c.M}) against the ODE from the same "
           f"initial overlaps ({c.ode_method}); test ε_g on 2000 fresh inputs"]
    if c.sgd_diverged_at is not None:
        out.append(f"SGD diverged at t ≈ {c.sgd_diverged_at:.4g}: the weights left every bounded "
                   "region (‖w‖²/N beyond 10^6 × its scale), the run was stopped there")
    if c.ode_diverged_by is not None:
        out.append(f"the ODE diverged by t ≈ {c.ode_diverged_by:.4g}")
    return out


# ---- committee converge: the specialised fixed point, its rate and η_max --------

#: most significant digits printed for a numeric quantity (float64 analysis)
_MAX_DIGITS = 12


def _confirmed(value: float, err: float) -> int:
    """Significant digits of ``value`` confirmed by an error estimate ``err`` (the change
    between two difference steps), one digit kept in reserve; 0 when none is."""
    if not math.isfinite(value) or value == 0:
        return 0
    return max(0, min(_MAX_DIGITS, math.floor(math.log10(abs(value) / max(err, 1e-300))) - 1))


def _sig(value: float, digits: int) -> str:
    return f"{value:.{digits}g}" if digits > 0 else f"~{value:.1g} (no digit confirmed)"


@committee_group.command("converge")
@_model_options
@click.option("--eta", type=RATIONAL, required=True, help="Step η > 0 (for the Jacobian and "
              "the convergence rate; η_max does not depend on it).")
@format_option
def converge_command(g: str, K: int, M: int, a: str, a_star: str, noise: str,
                     weight_decay: str, eta: Fraction, fmt: str) -> None:
    """The specialised fixed point (Q = R = T, T = I, for a realisable K = M teacher), the
    Jacobian's spectrum there, the asymptotic convergence rate and η_max, the largest step at
    which that point is linearly stable.

    Example: fltheory committee converge --g erf --K 2 --M 2 --eta 1/2
    """
    from fltheory.papers.committee.plateau import convergence_analysis

    model = _model(g, K, M, a, a_star, noise, weight_decay)
    c = convergence_analysis(model, eta)
    summary = [f"{model}, η = {fraction_str(eta)}; T = I"]
    details: dict[str, Any] = {"eta": fraction_str(eta)}
    value: dict[str, Any] = {"eps_g": None, "convergence_rate": None, "eta_max": None}
    rows: list[list[str]] = []
    if c.fixed_point is None:
        lines, found = _no_jacobian(c)
        summary += lines
        value["eps_g"] = 0.0
        details |= found
    else:
        rows, lines, values, found = _fixed_point_report(c)
        summary += lines
        value |= values
        details |= found
        lines, values, found = _eta_max_report(c, eta)
        summary += lines
        value |= values
        details |= found
    emit(Result(command="committee converge",
                inputs=_model_inputs(model) | {"eta": fraction_str(eta)},
                value=value, conventions=_CONVENTIONS, summary=summary, details=details,
                table=Table(columns=["#", "Re λ", "Im λ"], rows=rows,
                            caption="Jacobian eigenvalues at the specialised fixed point",
                            label="tab:fltheory-committee-converge", align="rrr")
                if rows else None), fmt)


def _no_jacobian(c: Convergence) -> tuple[list[str], dict[str, Any]]:
    """Summary lines and details of ``committee converge`` when the right side has no
    Jacobian at Q = R = T (the analysis says why)."""
    res, reason, T = c.residual, c.no_jacobian, c.T
    lines = [f"specialised fixed point Q = R = T (each student on its teacher): ε_g = 0, "
             f"max|rhs| there {res:.1e}",
             f"no Jacobian at this point, so no convergence rate and no η_max: the right "
             f"side {reason}; the approach to it is not a linear (exponential) one that a "
             "Jacobian could describe"]
    return lines, {"Q": T.tolist(), "R": T.tolist(), "residual": res, "eigenvalues_real": None,
                   "eigenvalues_imag": None, "jacobian": None, "jacobian_refused": reason}


def _fixed_point_report(c: Convergence
                        ) -> tuple[list[list[str]], list[str], dict[str, Any], dict[str, Any]]:
    """The table rows (Jacobian eigenvalues), summary lines, values and details of
    ``committee converge`` at the specialised fixed point: its eigenvalues and convergence
    rate with the digits their error estimates (a second Jacobian with twice the difference
    step) confirm."""
    fp, lam_err, rate_err = c.fixed_point, c.eigenvalue_error, c.rate_error
    assert fp is not None and lam_err is not None and rate_err is not None
    rate_digits = _confirmed(fp.convergence_rate, rate_err)
    decimals = max(1, min(_MAX_DIGITS, math.floor(-math.log10(lam_err)) - 1))
    rows = [[str(i + 1), f"{v.real:+.{decimals}f}", f"{v.imag:+.{decimals}f}"]
            for i, v in enumerate(fp.eigenvalues)]
    where = ("Q = R = T (each student on its teacher)" if c.at_teacher
             else "from Newton started at Q = R = T (not Q = R = T: the model is not "
                  "realisable noiselessly)")
    eps_g = max(fp.eps_g, 0.0)
    lines = [f"specialised fixed point {where}: ε_g = {eps_g:.3g}, max|rhs| there "
             f"{fp.residual:.1e}",
             f"Jacobian there (numeric: central differences of the right side with one "
             f"Richardson step; eigenvalues to ±{lam_err:.0e}, the change with twice the "
             f"difference step): {len(fp.eigenvalues)} eigenvalues, {fp.unstable} with "
             f"Re λ > 0, {fp.zero_modes} zero mode(s)",
             f"asymptotic convergence rate −max Re λ = "
             f"{_sig(fp.convergence_rate, rate_digits)} per unit t = steps/N (numeric, "
             f"{rate_digits} digits confirmed): Q − T, R − T decay as exp(−rate·t) and "
             "ε_g, quadratic in the weights' distance to the teacher's, as "
             "exp(−2·rate·t)" + (" (negative: the point repels at this η)"
                                 if fp.convergence_rate < 0 else "")]
    details = {"Q": fp.Q.tolist(), "R": fp.R.tolist(), "residual": fp.residual,
               "eigenvalues_real": [float(v.real) for v in fp.eigenvalues],
               "eigenvalues_imag": [float(v.imag) for v in fp.eigenvalues],
               "eigenvalue_error": lam_err, "zero_modes": fp.zero_modes,
               "unstable": fp.unstable, "convergence_rate_error": rate_err,
               "convergence_rate_digits": rate_digits,
               "eps_g_decay_rate": 2 * fp.convergence_rate,
               "jacobian": "central differences"}
    return rows, lines, {"eps_g": eps_g, "convergence_rate": fp.convergence_rate}, details


def _eta_max_report(c: Convergence, eta: Fraction
                    ) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """Summary lines, values and details of ``committee converge`` about η_max (or why it was
    not computed)."""
    m = c.eta_max
    if m is None:
        return [f"η_max not computed: {c.eta_max_refused}"], {}, {
            "eta_max_refused": c.eta_max_refused}
    lines = _eta_max_lines(c, m, float(eta))
    details: dict[str, Any] = {"eta_max_kind": m.kind, "eta_max_method": m.method,
                               "eta_max_error": m.rel_error}
    if c.closed_form is not None:
        details["eta_max_closed_form"] = c.closed_form[1]
    return lines, {"eta_max": m.eta_max}, details


def _eta_max_lines(c: Convergence, m: MaxLearningRate, eta: float) -> list[str]:
    """η_max: closed form where there is one (erf, K = M = 1), else numeric with the digits
    its error estimate confirms; and whether the given η is below it."""
    how = ("a real eigenvalue through 0" if m.kind == "real"
           else "a complex pair through the imaginary axis")
    closed = c.closed_form
    if m.method == "quadratic":
        method = "the K = M = 1 quadratic det(J1 + ηJ2) = 0 / trace condition on a numeric J1, J2"
    else:
        method = "bisection on η of max Re λ(J1 + ηJ2), J1, J2 from numeric Jacobians"
    if m.rel_error is not None:
        digits = _confirmed(m.eta_max, m.rel_error * m.eta_max)
        text = _sig(m.eta_max, digits)
        conf = f"{digits} digits confirmed by a second difference step"
    else:
        digits, text, conf = 8, f"{m.eta_max:.8g}", "about 1e-9 relative"
    out = []
    if closed is not None:
        agree = math.floor(-math.log10(max(abs(m.eta_max / closed[0] - 1), 1e-16)))
        out.append(f"η_max = {closed[1]} = {closed[0]:.15g} (closed form, Saad–Solla "
                   f"K = M = 1); numeric ({method}): {text}, agreeing to {agree} digits")
    else:
        out.append(f"η_max = {text} (numeric, no closed form: {method}; {conf}); stability is "
                   f"lost by {how}")
    if m.zero_modes:
        out.append(f"{m.zero_modes} direction(s) null at every η (a manifold of fixed points) "
                   "left out of the stability test")
    side = "below" if eta < m.eta_max else "above"
    out.append(f"η = {eta:g} is {side} η_max: the specialised point is "
               f"{'linearly stable' if side == 'below' else 'linearly unstable'} there")
    return out
