"""``fltheory kernel``: spectra of dot-product kernels on the sphere, learning curves of kernel
ridge regression on them, the proportional ridge risk, the staircase limit, and a kernel
regression simulated beside its curve. Each command parses, builds the parameter objects once,
calls the theory or a run, and renders."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

import click

from fltheory.cli.options import RATIONAL, CountType, dps_option, emit, format_option
from fltheory.results import Result

__all__ = ["curve_command", "curve_result", "kernel_group", "kernel_options", "rf_command",
           "rf_result", "ridge_command", "ridge_result", "simulate_command", "simulate_result",
           "spectrum_command", "spectrum_result", "staircase_command", "staircase_result"]

F = TypeVar("F", bound=Callable[..., Any])


def _tex_float(x: float, digits: int) -> str:
    """A float in LaTeX to ``digits`` significant digits (powers of ten as ×10^{…}).

    >>> print(_tex_float(1.25e-5, 3), _tex_float(0.5, 3))
    1.25 \\times 10^{-5} 0.5
    """
    mantissa, _, exponent = f"{x:.{digits}g}".partition("e")
    return mantissa if not exponent else rf"{mantissa} \times 10^{{{int(exponent)}}}"


def _progress() -> Callable[[str], None] | None:
    return (lambda line: click.echo(line, err=True)) if sys.stderr.isatty() else None


def kernel_options(func: F) -> F:
    """--kernel EXPR | --activation NAME [--kind --depth --bias]."""
    for option in reversed([
        click.option("--kernel", default=None, help="κ(t) as an expression in t on [-1, 1] "
                     "(the grammar of `fltheory hermite` with t for z, plus asin/acos), e.g. "
                     "'exp(2*t - 2)' (a Gaussian RBF on the sphere)."),
        click.option("--activation", default=None, help="A network's activation (catalogue name "
                     "or expression in z: relu, abs, sign, erf, tanh, gelu, z**2, …) for its "
                     "NNGP or NTK."),
        click.option("--kind", type=click.Choice(["nngp", "ntk"]), default="nngp",
                     show_default=True, help="With --activation: which kernel."),
        click.option("--depth", type=CountType(minimum=2, maximum=8), default=2,
                     show_default=True, help="With --activation: weight layers L (L − 1 hidden)."),
        click.option("--bias", type=RATIONAL, default="0", show_default=True,
                     help="With --activation: bias variance β² >= 0 at every layer."),
    ]):
        func = option(func)
    return func


def _spec(kernel: str | None, activation: str | None, kind: str, depth: int, bias: Any) -> Any:
    from fltheory.papers.kernel.params import KernelSpec

    if kernel is None and activation is None:
        raise click.UsageError("Give --kernel EXPR (in t) or --activation NAME.")
    return KernelSpec(kernel=kernel, activation=activation, kind=kind, depth=depth, bias=bias)


@click.group("kernel")
def kernel_group() -> None:
    """Dot-product kernels on the sphere: exact eigenvalues (any κ(t); NNGP/NTK of any
    activation and depth), kernel-ridge learning curves on them, the proportional ridge risk
    and the n ≍ d^ℓ staircase; real kernel regression as the witness.

    Examples: fltheory kernel spectrum --activation relu --kind ntk --d 3 --kmax 6 ;
    fltheory kernel curve --kernel 'exp(2*t - 2)' --d 10 --n 100 --target-degree 2 ;
    fltheory kernel ridge --gamma 1/2 --signal 1 --noise 1 --ridge optimal
    """


def spectrum_result(spec: Any, levels: Any) -> Result:
    import mpmath

    from fltheory.papers.kernel.theory import spectrum

    s = spectrum(spec, levels, _progress())
    dps = int(levels.dps)
    rows = [{"k": lev.k, "multiplicity": str(lev.multiplicity),
             "exact": None if lev.exact is None else str(lev.exact),
             # trailing zeros kept where they are confirmed digits (not for an exact value,
             # whose "exact" field says it all)
             "numeric": "0" if lev.value == 0 else mpmath.nstr(
                 lev.value, max(lev.digits, 3),
                 strip_zeros=lev.exact is not None or lev.digits < 3),
             "error_bound": mpmath.nstr(lev.bound, 3), "digits": lev.digits}
            for lev in s.levels]
    one = str(s.at_one_exact) if s.at_one_exact is not None else mpmath.nstr(s.at_one, dps)
    zeros = [lev.k for lev in s.levels if lev.zero]
    mercer, share = s.mercer_text()
    summary = [f"{spec.name} on S^{s.d - 1} (d = {s.d}): κ(1) = {one}, κ(−1) = "
               f"{mpmath.nstr(s.at_minus_one, 12)}",
               f"Mercer: Σ_(k <= {levels.kmax}) N(d, k) μ_k = {mercer} = {share} of κ(1)"]
    if zeros:
        summary.append("exact zeros (parity or closed form) at k = "
                       + ", ".join(str(k) for k in zeros[:12]) + (" …" if len(zeros) > 12 else ""))
    inputs = {"kernel": spec.kernel, "activation": spec.activation,
              "kind": spec.kind if spec.activation else None,
              "depth": spec.depth if spec.activation else None,
              "bias": str(spec.bias) if spec.activation else None,
              "d": levels.d, "kmax": levels.kmax, "dps": dps}
    details = {"levels": rows, "kappa_1": one,
               "kappa_minus_1": mpmath.nstr(s.at_minus_one, dps),
               "mercer_sum": s.mercer_text(dps)[0],
               "mercer_share": s.mercer_text(dps + 5)[1], "method": s.method}
    conventions, table = s.conventions, s.table()
    relation = s.rf_relation()
    if relation is not None:  # printed once: a convention (text, JSON), a table note (LaTeX)
        from fltheory.render.latex import latex_escape

        conventions = {**conventions, "random features": relation.text}
        details["random_features"] = relation.as_json()
        table = table.replace(latex_notes=[latex_escape(n) for n in table.notes]
                              + ["random features: " + _relation_latex(relation)])
    return Result(command="kernel spectrum", inputs=inputs,
                  value=[r["exact"] if r["exact"] is not None else r["numeric"] for r in rows],
                  numeric=mpmath.nstr(s.mercer, 15), conventions=conventions,
                  summary=summary, details=details, table=table, notes=list(s.notes))


def _relation_latex(relation: Any) -> str:
    """The relation's line in LaTeX, its command lines as typed (``\\texttt``)."""
    from fltheory.render.latex import latex_code, latex_escape

    text, out = relation.text, []
    for command in (relation.command(), relation.fisher_command):
        if command is not None:
            before, _, text = text.partition(command)
            out += [latex_escape(before), r"\texttt{" + latex_code(command) + "}"]
    return "".join(out) + latex_escape(text)


@kernel_group.command("spectrum")
@kernel_options
@click.option("--d", "d", type=CountType(minimum=1), required=True,
              help="Dimension d of the sphere S^{d−1}, 2 to 10^9.")
@click.option("--kmax", type=CountType(minimum=0), default=10, show_default=True,
              help="Highest degree k, 0 to 400.")
@dps_option
@format_option
def spectrum_command(kernel: str | None, activation: str | None, kind: str, depth: int,
                     bias: Any, d: int, kmax: int, dps: int, fmt: str) -> None:
    """Eigenvalues μ_k of a dot-product kernel on S^{d−1}, multiplicity N(d, k), each to the
    digits its error bound confirms (exact for the ReLU family at depth 2 and for polynomials).

    Examples: fltheory kernel spectrum --kernel 'exp(2*t - 2)' --d 3 --kmax 6 ;
    fltheory kernel spectrum --activation relu --kind ntk --depth 2 --d 3 --kmax 6 ;
    fltheory kernel spectrum --activation relu --kind ntk --d 1000000 --kmax 200 ;
    fltheory kernel spectrum --activation relu --d 6 --kmax 4   (the NNGP: its relation to
    the random-feature spectrum of fltheory fisher --sigma relu, printed)
    """
    from fltheory.papers.kernel.params import Levels

    spec = _spec(kernel, activation, kind, depth, bias)
    emit(spectrum_result(spec, Levels(d, kmax, dps)), fmt)


def _target(target_degree: int | None, target_energies: str | None,
            target_polynomial: str | None = None, d: int | None = None) -> Any:
    from fltheory.papers.kernel.params import PolynomialTarget, Target

    given = [x is not None for x in (target_degree, target_energies, target_polynomial)]
    if sum(given) != 1:
        raise click.UsageError("Give one of --target-degree K, --target-energies 'k:e,…' or "
                               "--target-polynomial 'p(t)'.")
    if target_polynomial is not None:
        from fltheory.papers.kernel.theory import polynomial_target

        return polynomial_target(PolynomialTarget(target_polynomial), int(d or 0))
    return Target(degree=target_degree, energies=target_energies)


def _target_polynomial_option(func: F) -> F:
    return click.option(
        "--target-polynomial", default=None,
        help="Target f*(x) = p(x·u) for a fixed unit u, p a polynomial in t of degree <= 60 "
             "(e.g. 't**3 - t'); its energy per degree follows exactly at d.")(func)


def curve_result(spec: Any, levels: Any, question: Any, polynomial: str | None = None
                 ) -> Result:
    from fltheory.papers.kernel.theory import curve, curve_warnings

    a = curve(spec, levels, question, _progress())
    rows = [{"n": r.n, "ridge": r.ridge, "kappa_eff": r.kappa, "E0": r.E0,
             "error": r.error, "noisy_test_error": r.noisy, "bias": r.bias,
             "variance": r.variance, "learnability": {str(k): v for k, v in
                                                      r.learnability.items()},
             "tail_ratio": r.tail_ratio} for r in a.rows]
    first, last = a.rows[0], a.rows[-1]
    target = ", ".join(f"degree {k}: {e}" for k, e in question.target.energies.items())
    if polynomial is not None:
        target = f"p(x·u) = {polynomial}, energies {target}"
    ridge = "optimal per n" if question.ridge == "optimal" else str(question.ridge)
    warnings = curve_warnings(a)
    return Result(
        command="kernel curve",
        inputs={"kernel": spec.kernel, "activation": spec.activation,
                "kind": spec.kind if spec.activation else None,
                "depth": spec.depth if spec.activation else None,
                "bias": str(spec.bias) if spec.activation else None,
                "d": levels.d, "kmax": levels.kmax, "n": list(question.n), "ridge": ridge,
                "noise": str(question.noise),
                "target": {str(k): str(e) for k, e in question.target.energies.items()},
                **({"target_polynomial": polynomial} if polynomial is not None else {})},
        value=[r["error"] for r in rows], numeric=f"{last.error:.10g}",
        conventions={**a.spectrum.conventions,
                     "estimator": "f̂(x) = k(x)ᵀ(K + λI_n)⁻¹y, K_ij = κ(x_i·x_j), "
                                  "y_i = f*(x_i) + ε_i, ε ~ N(0, σ²)",
                     "error": "E_x(f̂ − f*)² (clean target); the noisy-label test error adds σ²",
                     "target": "energy per degree k: Σ over its N(d, k) modes of the squared "
                               "coefficients",
                     "curve": "eigenlearning: Σ_k N_k μ_k/(μ_k + κ) + λ/κ = n, L_k = μ_k/(μ_k "
                              "+ κ), E_0 = n/(n − Σ N_k L_k²), error = E_0(Σ(1 − L_k)² e_k + "
                              "σ²) − σ² (an approximation at small n)"},
        summary=[f"{spec.name}, d = {levels.d}; target {target}; ridge {ridge}; noise σ = "
                 f"{question.noise}",
                 (f"n = {first.n}: error {first.error:.6g}; " if len(a.rows) > 1 else "")
                 + f"n = {last.n}: error {last.error:.6g} (noisy-label test error "
                 f"{last.noisy:.6g})", *warnings],
        details={"curve": rows, "method": a.spectrum.method, "warnings": warnings},
        table=a.table())


@kernel_group.command("curve")
@kernel_options
@click.option("--d", "d", type=CountType(minimum=1), required=True,
              help="Dimension d of the sphere, 2 to 10^9.")
@click.option("--kmax", type=CountType(minimum=0), default=None,
              help="Degrees of the spectrum used, at least the target's [default: target + 40, "
                   "at most 400]; the degrees above enter through their trace.")
@click.option("--n", "n", default="10..10000:30", show_default=True,
              help="Sample sizes: one n, a list 10,100,1000, or a geometric range lo..hi:count.")
@click.option("--ridge", default="0", show_default=True,
              help="Ridge λ >= 0 of (K + λI)⁻¹, or 'optimal' (per n).")
@click.option("--noise", type=RATIONAL, default="0", show_default=True,
              help="Label noise standard deviation σ >= 0.")
@click.option("--target-degree", type=CountType(minimum=0), default=None,
              help="Target of unit norm in one degree k.")
@click.option("--target-energies", default=None,
              help="Target energies per degree, 'k:e,k:e' (e.g. '1:1/2,3:1/2').")
@_target_polynomial_option
@dps_option
@format_option
def curve_command(kernel: str | None, activation: str | None, kind: str, depth: int,
                  bias: Any, d: int, kmax: int | None, n: str, ridge: str, noise: Any,
                  target_degree: int | None, target_energies: str | None,
                  target_polynomial: str | None, dps: int, fmt: str) -> None:
    """Learning curve of kernel ridge regression on the exact spectrum (eigenlearning):
    effective ridge, learnability of each target degree, clean and noisy-label test error.

    Examples: fltheory kernel curve --kernel 'exp(2*t - 2)' --d 10 --n 100 --ridge 0
    --noise 0 --target-degree 2 ;
    fltheory kernel curve --activation relu --kind ntk --d 3 --n 10..10000:100 --target-degree 3 ;
    fltheory kernel curve --activation relu --kind ntk --d 20 --n 10..10000:30
    --target-polynomial 't**3 - t' --noise 1/10
    """
    from fltheory.papers.kernel.params import Curve, Levels

    spec = _spec(kernel, activation, kind, depth, bias)
    Levels(d, 0)  # d in its domain before the target is resolved at d
    target = _target(target_degree, target_energies, target_polynomial, d)
    question = Curve(n, ridge, noise, target)
    top = min(target.top + 40, 400) if kmax is None else kmax
    emit(curve_result(spec, Levels(d, top, min(dps, 30)), question, target_polynomial), fmt)


def ridge_result(question: Any) -> Result:
    import sympy as sp

    from fltheory.papers.kernel.theory import ridge

    a = ridge(question)

    def num(x: Any) -> str | None:
        if x is None:
            return None
        return "inf" if x == sp.oo else str(sp.N(x, 15))

    def tex(x: Any) -> str:
        return sp.latex(x) + ("" if x == sp.oo or x.is_Rational else
                              rf" \approx {_tex_float(float(x), 12)}")

    lam = "optimal" if question.ridge == "optimal" else str(question.ridge)
    summary = [f"γ = {question.gamma}, r² = {question.signal}, σ = {question.noise}, λ = "
               f"{a.lam}{' (optimal: γσ²/r²)' if question.ridge == 'optimal' else ''}",
               f"risk E(x·β̂ − x·β)² = {a.risk} = {num(a.risk)}; noisy-label test error "
               f"{num(a.noisy)}",
               f"ridgeless (λ → 0+): {a.ridgeless} = {num(a.ridgeless)}"]
    if a.optimal_lam is not None and question.ridge != "optimal":
        summary.append(f"optimal λ* = {a.optimal_lam}: risk {a.optimal_risk} = "
                       f"{num(a.optimal_risk)}")
    undefined = {}
    if a.risk == sp.oo:
        undefined["numeric"] = "the ridgeless risk is infinite at γ = 1 (interpolation peak)"
    return Result(
        command="kernel ridge",
        inputs={"gamma": str(question.gamma), "signal": str(question.signal),
                "noise": str(question.noise), "ridge": lam},
        value=str(a.risk), numeric=None if a.risk == sp.oo else num(a.risk),
        latex_value=",\\quad ".join(
            [rf"\gamma = {sp.latex(sp.Rational(question.gamma))}",
             rf"\lambda = {sp.latex(a.lam)}", rf"R(\lambda) = {tex(a.risk)}",
             rf"R(0^+) = {tex(a.ridgeless)}"]
            + ([rf"\lambda^* = {sp.latex(a.optimal_lam)}", rf"R(\lambda^*) = "
                rf"{tex(a.optimal_risk)}"]
               if a.optimal_lam is not None and question.ridge != "optimal" else [])),
        conventions={"model": "x ~ N(0, I_p), y = xᵀβ + ε, ε ~ N(0, σ²), ‖β‖² = r², p/n → γ",
                     "estimator": "β̂ = argmin (1/n)‖y − Xβ‖² + λ‖β‖²",
                     "risk": "E_x(xᵀβ̂ − xᵀβ)² (clean); noisy-label test error adds σ²",
                     "formula": "r²λ²m'(−λ) + σ²γ(m(−λ) − λm'(−λ)), m the Marchenko–Pastur "
                                "Stieltjes transform (Hastie et al. 2022, Thm. 2; Dobriban & "
                                "Wager 2018, Thm. 2.1; theorem numbers not checked against the "
                                "papers, the formula as restated in R. Tibshirani's Stat 241B "
                                "notes, ridge.tex); exact (algebraic)"},
        summary=summary,
        details={"lambda": str(a.lam), "risk": str(a.risk),
                 "risk_numeric": None if a.risk == sp.oo else num(a.risk),
                 "bias": None if a.bias is None else str(a.bias),
                 "variance": None if a.variance is None else str(a.variance),
                 "noisy_test_error": None if a.noisy is None else str(a.noisy),
                 "ridgeless": str(a.ridgeless),
                 "optimal_lambda": None if a.optimal_lam is None else str(a.optimal_lam),
                 "optimal_risk": None if a.optimal_risk is None else str(a.optimal_risk)},
        undefined=undefined)


@kernel_group.command("ridge")
@click.option("--gamma", type=RATIONAL, required=True, help="γ = p/n in (0, 1000].")
@click.option("--signal", type=RATIONAL, default="1", show_default=True,
              help="Signal r² = ‖β‖² >= 0.")
@click.option("--noise", type=RATIONAL, default="1", show_default=True,
              help="Label noise standard deviation σ >= 0.")
@click.option("--ridge", default="optimal", show_default=True,
              help="Ridge λ >= 0 (0: ridgeless), or 'optimal' (λ* = γσ²/r²).")
@format_option
def ridge_command(gamma: Any, signal: Any, noise: Any, ridge: str, fmt: str) -> None:
    """Ridge regression with isotropic features in the proportional regime (the linear kernel):
    the limiting risk at any λ, ridgeless on both sides of the interpolation peak, the optimal λ*
    and its risk, exact.

    Example: fltheory kernel ridge --gamma 1/2 --signal 1 --noise 1 --ridge optimal
    """
    from fltheory.papers.kernel.params import Ridge

    emit(ridge_result(Ridge(gamma, signal, noise, ridge)), fmt)


def rf_result(question: Any) -> Result:
    from fltheory.papers.kernel.theory import random_features
    from fltheory.results import Table

    a = random_features(question)
    q = question
    rows = [["μ_0² (E σ(G))²", f"{a.mu0sq:.10g}"], ["μ_1² (E σ(G)G)²", f"{a.mu1sq:.10g}"],
            ["μ_*² = 1 − μ_0² − μ_1²", f"{a.mustar2:.10g}"], ["ζ² = μ_1²/μ_*²", f"{a.zeta2:.10g}"],
            ["scaled ridge λ/μ_*²", f"{a.lam_bar:.10g}"], ["B (bias factor)", f"{a.bias:.10g}"],
            ["V (variance factor)", f"{a.variance:.10g}"], ["test error (clean)", f"{a.risk:.10g}"]]
    table = Table(columns=["quantity", "value"], rows=rows,
                  caption=f"Random-features ridge regression, σ = {q.activation}, "
                          f"ψ_1 = {q.psi1}, ψ_2 = {q.psi2}, λ = {q.ridge}",
                  label="tab:fltheory-kernel-rf", align="lr")
    return Result(
        command="kernel rf",
        inputs={"activation": str(q.activation), "psi1": str(q.psi1), "psi2": str(q.psi2),
                "ridge": str(q.ridge), "signal": str(q.signal), "nonlinear": str(q.nonlinear),
                "noise": str(q.noise)},
        value=a.risk, numeric=f"{a.risk:.10g}",
        conventions={"model": "x, θ_a uniform on the sphere of radius √d, features "
                              "σ(⟨θ_a, x⟩/√d), a <= N; y = ⟨β, x⟩ + f_NL(x) + ε, ‖β‖² = F_1², "
                              "‖f_NL‖² = F_*², E ε² = τ²; N/d → ψ_1, n/d → ψ_2, d → ∞",
                     "estimator": "â = argmin (1/n)‖y − Za‖² + (Nλ/d)‖a‖²",
                     "activation": "σ normalised to E σ(G)² = 1; μ_0², μ_1² the Taylor "
                                   "coefficients b_0, b_1 of its depth-2 NNGP",
                     "risk": "F_1² B + (τ² + F_*²) V + F_*² against the clean target",
                     "source": "Mei & Montanari 2019 (arXiv:1908.05355), Definition 1 and "
                               "Theorem 1, as transcribed here (the stored copies of the paper "
                               "give its abstract and introduction only); agrees with two "
                               "public transcriptions (github.com/Jeffwang87/RFR_AF and one "
                               "other, tests/papers/kernel/test_citations.py), tested against "
                               "a numpy simulation at d = 200 and against the ψ_1 → ∞ kernel "
                               "ridge limit"},
        summary=[f"σ = {q.activation}: ζ² = {a.zeta2:.6g}, λ/μ_*² = {a.lam_bar:.6g}",
                 f"test error (clean) = {a.risk:.10g} (B = {a.bias:.6g}, V = {a.variance:.6g})"],
        details={"mu0sq": a.mu0sq, "mu1sq": a.mu1sq, "mustar2": a.mustar2, "zeta2": a.zeta2,
                 "lam_bar": a.lam_bar, "bias": a.bias, "variance": a.variance,
                 "risk": a.risk}, table=table)


@kernel_group.command("rf")
@click.option("--activation", required=True, help="σ by catalogue name or expression in z.")
@click.option("--psi1", type=RATIONAL, required=True, help="ψ_1 = N/d in (0, 10^6].")
@click.option("--psi2", type=RATIONAL, required=True, help="ψ_2 = n/d in (0, 10^6].")
@click.option("--ridge", type=RATIONAL, required=True, help="Ridge λ in (0, 10^6].")
@click.option("--signal", type=RATIONAL, default="1", show_default=True,
              help="Linear signal F_1² >= 0.")
@click.option("--nonlinear", type=RATIONAL, default="0", show_default=True,
              help="Nonlinear target energy F_*² >= 0.")
@click.option("--noise", type=RATIONAL, default="0", show_default=True,
              help="Label noise standard deviation τ >= 0.")
@format_option
def rf_command(activation: str, psi1: Any, psi2: Any, ridge: Any, signal: Any, nonlinear: Any,
               noise: Any, fmt: str) -> None:
    """Random-features ridge regression at N/d → ψ_1, n/d → ψ_2 (Mei & Montanari 2019): the
    finite-width twin of kernel ridge regression.

    Example: fltheory kernel rf --activation relu --psi1 2 --psi2 3 --ridge 1/10 --noise 1/2
    """
    from fltheory.papers.kernel.params import RandomFeatures

    emit(rf_result(RandomFeatures(activation, psi1, psi2, ridge, signal, nonlinear, noise)), fmt)


def simulate_result(spec: Any, d: int, n: int, ridge: Any, noise: Any, target: Any,
                    seeds: int, n_test: int, seed: int) -> Result:
    from fltheory.papers.kernel.runs import krr_run

    r = krr_run(spec, d, n, ridge, noise, dict(target.energies), seeds, seed=seed,
                n_test=n_test, progress=_progress() if n >= 1000 else None)
    return Result(
        command="kernel simulate",
        inputs={"kernel": spec.kernel, "activation": spec.activation,
                "kind": spec.kind if spec.activation else None,
                "depth": spec.depth if spec.activation else None,
                "bias": str(spec.bias) if spec.activation else None, "d": d, "n": n,
                "ridge": str(r.ridge), "noise": str(r.noise),
                "target": {str(k): str(e) for k, e in r.energies.items()}, "seeds": seeds,
                "n_test": n_test, "seed": seed},
        value={"predicted": r.predicted, "measured": r.measured, "se": r.measured_se},
        numeric=f"{r.measured:.6g}",
        latex_value=(rf"\text{{KRR error}} = {_tex_float(r.measured, 6)} \pm "
                     rf"{_tex_float(r.measured_se, 2)},\quad \text{{curve}} = "
                     rf"{_tex_float(r.predicted, 6)}"),
        conventions={"simulation": "n points uniform on S^{d−1}, f̂ = k(x)ᵀ(K + λI)⁻¹y, target "
                                   "√N(d, k)·P_k(x·u) per degree (unit norm, random u), labels "
                                   "+ N(0, σ²); error on fresh test points; mean ± SE over "
                                   "independent regressions",
                     "prediction": "eigenlearning curve on the exact spectrum (kernel curve)"},
        summary=[f"{spec.name}, d = {d}, n = {n}, λ = {r.ridge}, σ = {r.noise}",
                 f"kernel regression: error {r.measured:.6g} ± {r.measured_se:.2g} "
                 f"({seeds} regressions); curve {r.predicted:.6g}; ratio {r.ratio:.4g}",
                 f"noisy-label test error: curve {r.predicted_noisy:.6g}",
                 *([("warning: the Gram matrix is singular to float64 (no Cholesky factor)"
                     if math.isinf(r.condition) else
                     f"warning: the Gram matrix's condition number is at least "
                     f"{r.condition:.2g} (float64 resolves ~10¹⁶)")
                    + ": the ridgeless fit is rounding noise here, not a measurement; give "
                    "--ridge > 0 (e.g. 1e-9)"]
                   if r.singular else [])],
        details={"draws": list(r.draws), "predicted_noisy": r.predicted_noisy,
                 "condition": r.condition if math.isfinite(r.condition) else None})


@kernel_group.command("simulate")
@kernel_options
@click.option("--d", "d", type=CountType(minimum=1), required=True,
              help="Dimension d of the sphere, 2 to 1000.")
@click.option("--n", "n", type=CountType(minimum=1), default=200, show_default=True,
              help="Training points, 1 to 10^4 (an n × n Gram matrix per regression; the "
                   "memory bound, 1 GiB, stops n near 6000; seeds·n³ <= 2e12).")
@click.option("--ridge", type=RATIONAL, default="0", show_default=True, help="Ridge λ >= 0.")
@click.option("--noise", type=RATIONAL, default="0", show_default=True,
              help="Label noise standard deviation σ >= 0.")
@click.option("--target-degree", type=CountType(minimum=0), default=None,
              help="Target of unit norm in one degree k.")
@click.option("--target-energies", default=None, help="Target energies 'k:e,k:e'.")
@_target_polynomial_option
@click.option("--seeds", type=CountType(minimum=2, maximum=1000), default=8, show_default=True,
              help="Independent regressions averaged.")
@click.option("--n-test", type=CountType(minimum=10), default=2000, show_default=True,
              help="Fresh test points per regression.")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True)
@format_option
def simulate_command(kernel: str | None, activation: str | None, kind: str, depth: int,
                     bias: Any, d: int, n: int, ridge: Any, noise: Any,
                     target_degree: int | None, target_energies: str | None,
                     target_polynomial: str | None, seeds: int, n_test: int, seed: int,
                     fmt: str) -> None:
    """Real kernel ridge regression (numpy) beside the learning curve at one n.

    Example: fltheory kernel simulate --activation relu --kind ntk --d 10 --n 200
    --noise 1/2 --target-degree 1
    """
    from fltheory.papers.kernel.params import Experiment, check_simulate_work

    spec = _spec(kernel, activation, kind, depth, bias)
    Experiment(d, n, ridge, noise, 0, n_test, seed)  # d, n, … in the simulator's domain
    check_simulate_work(int(n), int(seeds))
    target = _target(target_degree, target_energies, target_polynomial, d)
    Experiment(d, n, ridge, noise, target.top, n_test, seed)  # and the target's degrees
    emit(simulate_result(spec, d, n, ridge, noise, target, seeds, n_test, seed), fmt)


def staircase_result(spec: Any, ell: int, psi: Any, ridge: Any, noise: Any, target: Any
                     ) -> Result:
    from fltheory.papers.kernel.theory import STAIRCASE_SOURCES, staircase

    psis = [float(p) for p in psi]
    lev = staircase(spec, ell, psis, float(ridge), {k: float(e) for k, e in
                                                    target.energies.items()},
                    float(noise) ** 2)
    # an infinite error (ρ = 0 at α = 1 with effective noise) is null in JSON and ∞ in text
    rows = [{"psi": str(p), "theta": t, "learnability": L,
             "error": None if math.isinf(e) else e}
            for p, t, L, e in zip(psi, lev.theta, lev.learnability, lev.error, strict=True)]
    from fltheory.results import Table

    plateau = sum((e for k, e in target.energies.items() if k > ell), Fraction(0))
    peak: dict[str, Any] | None
    if lev.peak is None:
        peak = None
        peak_line = (f"peak: none at ρ = {lev.rho:.6g} (ψ ↦ error has no interior maximum at "
                     f"this ridge, noise and target)")
    elif math.isinf(lev.peak[1]):
        at = Fraction(1, math.factorial(ell))
        peak = {"psi": str(at), "alpha": 1, "error": None, "diverges": True}
        peak_line = (f"peak: ψ* = 1/ℓ! = {at} (α = 1), error diverges (ρ = 0 and effective "
                     f"noise e_{{>{ell}}} + σ² > 0)")
    else:
        psi_star, top = lev.peak
        alpha_star = psi_star * math.factorial(ell)
        peak = {"psi": psi_star, "alpha": alpha_star, "error": top, "diverges": False}
        peak_line = (f"peak: ψ* = {psi_star:.8g} (α* = ψ* ℓ! = {alpha_star:.8g}), "
                     f"error {top:.8g} at ρ = {lev.rho:.6g}")
    table = Table(columns=["ψ", "α = ψ ℓ!", "θ = κ_eff/μ_ℓ", f"L_{ell}", "error (clean)"],
                  rows=[[str(p), f"{float(p) * math.factorial(ell):.6g}",
                         f"{t:.6g}", f"{L:.6g}", "∞" if math.isinf(e) else f"{e:.6g}"]
                        for p, t, L, e in zip(psi, lev.theta, lev.learnability, lev.error,
                                              strict=True)],
                  caption=f"Polynomial-regime limit at level ℓ = {ell}, {spec.name}",
                  label="tab:fltheory-kernel-staircase", align="rrrrr",
                  notes=[f"b_{ell} = {lev.b:.10g} (Taylor coefficient = lim N(d, ℓ) μ_ℓ), "
                         f"R_{ell} = {lev.rest:.10g} (higher degrees' mass, acting as ridge)"])
    return Result(
        command="kernel staircase",
        inputs={"kernel": spec.kernel, "activation": spec.activation,
                "kind": spec.kind if spec.activation else None,
                "depth": spec.depth if spec.activation else None,
                "bias": str(spec.bias) if spec.activation else None, "ell": ell,
                "psi": [str(p) for p in psi], "ridge": str(ridge), "noise": str(noise),
                "target": {str(k): str(e) for k, e in target.energies.items()}},
        value=[r["error"] for r in rows],
        numeric="∞" if math.isinf(lev.error[-1]) else f"{lev.error[-1]:.10g}",
        conventions={"regime": "n = ψ d^ℓ, d → ∞ (the limit of the eigenlearning equations): "
                               "degrees < ℓ learned, > ℓ not, degree ℓ a ridge problem with "
                               "n/N(d, ℓ) → ψ ℓ! and effective ridge (λ + R_ℓ)/b_ℓ",
                     **{f"source: {key}": text for key, text in STAIRCASE_SOURCES.items()}},
        summary=[f"{spec.name}: level ℓ = {ell}, b_ℓ = {lev.b:.6g}, R_ℓ = {lev.rest:.6g}, "
                 f"effective ridge ρ = (λ + R_ℓ)/b_ℓ = {lev.rho:.6g}",
                 f"learned: degrees < {ell} (error → 0); degree {ell} in part (L_{ell} above); "
                 f"degrees > {ell} not [learned]",
                 f"plateau between levels {ell} and {ell + 1} (ψ → ∞): clean error → e_{{>{ell}}}"
                 f" = {plateau} [plateau]",
                 peak_line + " [peak]"],
        details={"rows": rows, "b": lev.b, "rest": lev.rest, "rho": lev.rho,
                 "plateau": str(plateau), "peak": peak}, table=table)


@kernel_group.command("staircase")
@kernel_options
@click.option("--ell", type=CountType(minimum=1, maximum=20), default=1, show_default=True,
              help="Level ℓ >= 1 of n = ψ d^ℓ (ℓ = 0 would be a fixed n = ψ).")
@click.option("--psi", default="1/4,1,4,16,64", show_default=True,
              help="Values of ψ = n/d^ℓ (comma list, > 0).")
@click.option("--ridge", type=RATIONAL, default="0", show_default=True, help="Ridge λ >= 0.")
@click.option("--noise", type=RATIONAL, default="0", show_default=True,
              help="Label noise standard deviation σ >= 0.")
@click.option("--target-degree", type=CountType(minimum=0), default=None,
              help="Target of unit norm in one degree k.")
@click.option("--target-energies", default=None, help="Target energies 'k:e,k:e'.")
@format_option
def staircase_command(kernel: str | None, activation: str | None, kind: str, depth: int,
                      bias: Any, ell: int, psi: str, ridge: Any, noise: Any,
                      target_degree: int | None, target_energies: str | None,
                      fmt: str) -> None:
    """The n ≍ d^ℓ staircase: the limiting error at n = ψ d^ℓ as d → ∞ (one level).

    Example: fltheory kernel staircase --activation relu --kind ntk --ell 1
    --target-energies 1:1/2,2:1/2
    """
    from fltheory.args import read_noise, read_rational, read_rationals

    spec = _spec(kernel, activation, kind, depth, bias)
    target = _target(target_degree, target_energies)
    psis = read_rationals(psi, "psi", 0, 10**9, open_low=True, most=200)
    emit(staircase_result(spec, ell, psis, read_rational(ridge, "ridge", 0, 10**6),
                          read_noise(noise), target), fmt)
