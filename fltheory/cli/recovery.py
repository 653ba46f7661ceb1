"""Commands of the sequential-recovery paper (seed 002): ``threshold``, ``recovery`` and
``recovery simulate``."""

from __future__ import annotations

import sys
from fractions import Fraction

import click

from fltheory.cli.options import RATIONAL, CountType, check_dps, dps_option, emit, format_option
from fltheory.exact import DomainError, check_cost, check_integer, fraction_str, parse_int_range
from fltheory.results import Result, Table

_SOURCE = "Dandi, Krzakala, Loureiro, Tabanelli, Wortsman-Zurich (2026), arXiv 2605.14567"
_CONVENTIONS = {
    "model": "φ(x) ∈ R^D orthonormal degree-q Hermite features of x ~ N(0, I_d); h_i = ⟨A_i, φ⟩; "
             "y = Σ_i c_i (h_i² − 1)/√2, c = λ/‖λ‖, λ_i = i^(−γ) (Var y = 1)",
    "D": "D = C(d + q − 1, q) ≈ d^q/q! (--dim dq uses d^q instead)",
    "threshold": "n_k = C · D / a_k², a_k = k^(−γ) or given strengths",
    "source": _SOURCE,
}


_MAX_ROWS = 10_000


def _dim_option(func: click.decorators.FC) -> click.decorators.FC:
    return click.option("--dim", type=click.Choice(["D", "dq"]), default="D", show_default=True,
                        help="Dimension in the thresholds: D = C(d+q−1, q) or d^q (they differ "
                             "by ≈ q!).")(func)


def _gamma(gamma: Fraction) -> Fraction:
    if gamma <= 0:
        raise DomainError("gamma", fraction_str(gamma), "γ > 0")
    return gamma


def _delta(n: Fraction, size: int, dim: str) -> float:
    """δ = n/D as a float, refused (naming n) when a double cannot hold it."""
    from fltheory.exact import to_float

    try:
        return to_float(n / size, "delta", positive=True)
    except DomainError:
        import math

        magnitude = math.log10(n.numerator) - math.log10(n.denominator)
        shown = fraction_str(n) if max(len(str(n.numerator)), len(str(n.denominator))) < 30 \
            else f"1e{magnitude:.0f} (about)"
        size_text = str(size) if size.bit_length() < 100 else f"1e{math.log10(size):.0f}"
        raise DomainError("n", shown, f"n with δ = n/{dim} in [1e-300, 1e300] ({dim} = "
                                      f"{size_text})",
                          reason="is beyond double precision") from None


def _check_finite(*values: float) -> None:
    """Every number printed is finite: a NaN or inf here is a bug, never an answer."""
    import math

    if not all(math.isfinite(v) for v in values):
        raise RuntimeError("non-finite value in the recovery computation (a bug: please report)")


def _strengths(text: str | None) -> list[Fraction] | None:
    if text is None:
        return None
    from fltheory.exact import parse_rational

    values = [parse_rational(v, "strengths") for v in text.split(",")]
    if any(v <= 0 for v in values):
        raise DomainError("strengths", text, "positive numbers a_1,a_2,…")
    return values


def threshold_result(d: int, q: int, gamma: Fraction, ks: list[int], C: Fraction, dim: str,
                     dps: int, strengths: list[Fraction] | None = None) -> Result:
    import mpmath

    from fltheory.theory import recovery as th

    if strengths is not None and max(ks) > len(strengths):
        raise DomainError("k", max(ks), f"k <= {len(strengths)} (the number of strengths)")
    size = th.feature_dimension(d, q) if dim == "D" else d ** q
    rows, out = [], []
    digits = min(dps, 15)
    for k in ks:
        a = None if strengths is None else strengths[k - 1]
        value = th.threshold(d, q, k, gamma, C, dps, dim, a)
        exact = th.threshold_exact(d, q, k, gamma, C, dim, a)
        strength = (mpmath.nstr(th.power_strength(k, gamma, dps), digits) if a is None
                    else fraction_str(a))
        with mpmath.workdps(dps):
            rows.append([str(k), strength, mpmath.nstr(value, digits),
                         mpmath.nstr(mpmath.log10(value), 6)])
            out.append({"k": k, "strength": strength,
                        "exact": None if exact is None else fraction_str(exact),
                        "numeric": mpmath.nstr(value, dps)})
    label = "D" if dim == "D" else f"d^{q}"
    return Result(
        command="threshold",
        inputs={"d": d, "q": q, "gamma": fraction_str(gamma), "k": f"{ks[0]}..{ks[-1]}"
                if ks == list(range(ks[0], ks[-1] + 1)) else ks,
                "C": fraction_str(C), "dim": dim, "dps": dps,
                "strengths": None if strengths is None else [fraction_str(s) for s in strengths]},
        value=[o["exact"] if o["exact"] is not None else o["numeric"] for o in out],
        numeric=out[0]["numeric"],
        conventions=_CONVENTIONS | {"C": "the label transform's constant E[T²]/(θ_k/a_k)²; 1 "
                                         "by default (`fltheory recovery` computes it for the "
                                         "rank transform)"},
        summary=[f"thresholds n_k = C·{label}/a_k², d = {d}, q = {q}, {label} = {size}, "
                 f"C = {fraction_str(C)}"],
        details={"dimension": size, "thresholds": out},
        table=Table(columns=["k", "a_k", "n_k", "log10 n_k"], rows=rows,
                    caption=f"Recovery thresholds n_k = C {label}/a_k^2 (d = {d}, q = {q})",
                    latex_columns=["$k$", "$a_k$", "$n_k$", r"$\log_{10} n_k$"],
                    label="tab:fltheory-threshold", align="rrrr"),
        notes=["exact values are given when 2γ is an integer or strengths are rational"],
    )


@click.command("threshold")
@click.option("--d", "d", type=CountType(minimum=1), required=True,
              help="Input dimension d (D = C(d+q−1, q) of at most 1000 digits).")
@click.option("--q", "q", type=CountType(minimum=1), default=2, show_default=True,
              help="Hermite degree q of the first layer (1..64).")
@click.option("--gamma", type=RATIONAL, default="1", show_default=True,
              help="Power-law exponent γ > 0: a_k = k^(−γ) (any size: huge γ is evaluated "
                   "with guard digits).")
@click.option("--strengths", default=None,
              help="Explicit strengths a_1,a_2,… instead of k^(−γ).")
@click.option("--k", "k_text", default="1..10", show_default=True,
              help=f"Directions: k, a..b or a,b,c (k <= 10^6, at most {_MAX_ROWS} of them).")
@click.option("--C", "C", type=RATIONAL, default="1", show_default=True,
              help="Threshold constant C (label-transform dependent).")
@_dim_option
@dps_option
@format_option
def threshold_command(d: int, q: int, gamma: Fraction, strengths: str | None, k_text: str,
                      C: Fraction, dim: str, dps: int, fmt: str) -> None:
    """Sample-size thresholds n_k = C·D/a_k² of the spectral recovery of direction k.

    Example: fltheory threshold --d 1000 --q 3 --gamma 1.5 --k 1..10
    """
    ks = parse_int_range(k_text, "k", 1, 10**6)
    # each row is a few mpmath evaluations (~0.1 ms) plus a printed line: 10^4 rows ≈ 1 s
    check_cost(f"k = {k_text}", len(ks), _MAX_ROWS, "rows", "ask for fewer directions")
    emit(threshold_result(d, q, gamma, ks, C, dim, check_dps(dps),
                          _strengths(strengths)), fmt)


# --------------------------------------------------------------------------- recovery


def recovery_result(d: int, q: int, gamma: Fraction, n: Fraction, d1: int, transform: str,
                    dim: str, dps: int) -> Result:
    import mpmath

    from fltheory.theory import recovery as th

    check_integer(d1, "d1", 1, th.MAX_D1)
    if n <= 0:
        raise DomainError("n", fraction_str(n), "n > 0")
    size = th.feature_dimension(d, q) if dim == "D" else d ** q
    delta = _delta(n, size, dim)
    model = th.RecoveryModel.power_law(d1, gamma, transform)
    try:
        C: float | None = model.weak_constant()
    except DomainError as exc:  # d1 = 1, rank: no weak direction, so no C, scaling count, law
        C, no_C = None, str(exc.reason)
    C_frac = None if C is None else Fraction(C).limit_denominator(10**12)
    rows, out = [], []
    theta, bbp = model.theta(), model.bbp_thresholds()
    for i in range(d1):
        ov = model.overlap(i, delta)
        bbp_rho2 = max(0.0, 1 - bbp[i] / delta)
        rows.append([str(i + 1), f"{model.c[i]:.4f}", f"{theta[i]:.4f}", f"{bbp[i] * size:.4g}",
                     f"{ov.rho2:.4f}", f"{bbp_rho2:.4f}",
                     "-" if ov.outlier is None else f"{ov.outlier:.4f}"])
        out.append({"k": i + 1, "c": float(model.c[i]), "theta": float(theta[i]),
                    "n_threshold_bbp": float(bbp[i] * size), "rho2": ov.rho2,
                    "rho2_bbp": bbp_rho2, "outlier": ov.outlier, "bulk_edge": ov.edge})
    k_luli = sum(1 for o in out if o["rho2"] > 0)
    k_scaling = None if C_frac is None else th.recovered_count(n, d, q, gamma, C_frac, dim)
    mse = float(model.mse([delta])[0])
    _check_finite(mse, *(o["rho2"] for o in out), *(o["theta"] for o in out))
    details = {"D": size, "delta": delta, "C": C, "directions": out, "recovered_luli": k_luli,
               "recovered_scaling": k_scaling, "mse": mse,
               "bulk_edge": out[0]["bulk_edge"]}
    scaling = (f"scaling count (d1 = ∞) k*(n) = #{{k : n >= C·{dim}·k^(2γ)}} = {k_scaling} "
               f"(C = {C:.6g})" if C is not None else "no scaling count: the weak-direction "
               f"constant C is undefined at d1 = 1 ({no_C})")
    summary = [f"d = {d}, q = {q}, {dim} = {size}, n = {fraction_str(n)}: δ = n/{dim} = "
               f"{delta:.6g}; {transform} transform, d1 = {d1}, γ = {fraction_str(gamma)}",
               f"recovered (Lu–Li outliers): {k_luli} of {d1}; {scaling}",
               f"MSE (finite d1 = {d1}) = {mse:.6g}"]
    notes = []
    if C is None or C_frac is None:
        notes.append("d1 = 1: no MSE law (it needs the weak-direction constant C)")
    elif gamma > Fraction(1, 2):
        expo = th.law_exponent(gamma)
        with mpmath.workdps(dps):
            pref = th.law_prefactor(gamma, th.law_a1_squared(gamma, C, dps), dps)
            law = pref * mpmath.power(mpmath.mpf(delta), float(expo))
            cont = th.continuum_count(n, d, q, gamma, C_frac, dim, dps)
        summary.append(f"law (d1 = ∞): MSE ≈ {mpmath.nstr(pref, 8)}·δ^({fraction_str(expo)}) "
                       f"= {mpmath.nstr(law, 8)}; continuum count (n/(C·{dim}))^(1/(2γ)) = "
                       f"{mpmath.nstr(cont, 8)}")
        details |= {"law_exponent": fraction_str(expo), "law_prefactor": mpmath.nstr(pref, dps),
                    "law_mse": mpmath.nstr(law, dps), "continuum_count": mpmath.nstr(cont, dps)}
    else:
        notes.append("γ <= 1/2: Σ k^(−2γ) diverges for d1 = ∞, so no MSE law (finite d1 only)")
    notes.append("overlaps: Lu & Li (2017) for Gaussian-equivalent features; real Hermite features "
                 "at small d recover later (fourth-cumulant clutter)")
    if C is not None:
        notes.append("C and the law use the weak-direction constant of this d1-direction model")
    return Result(
        command="recovery",
        inputs={"d": d, "q": q, "gamma": fraction_str(gamma), "n": fraction_str(n), "d1": d1,
                "transform": transform, "dim": dim, "dps": dps},
        value={"recovered": k_luli, "mse": mse},
        numeric=f"{mse:.15g}",
        conventions=_CONVENTIONS | {"overlap": "ρ_k² = ⟨Â_k, A_k⟩², Lu–Li at δ = n/D",
                                    "mse": "1 − Σ c_k² ρ_k⁴ (Var y = 1)"},
        summary=summary,
        details=details,
        table=Table(columns=["k", "c_k", "θ_k", "n_k (BBP)", "ρ² Lu–Li", "ρ² BBP", "outlier"],
                    rows=rows, caption=f"Recovery at n = {fraction_str(n)} (δ = {delta:.4g})",
                    latex_columns=["$k$", "$c_k$", r"$\theta_k$", "$n_k$", r"$\rho_k^2$",
                                   r"$\rho_k^2$ (BBP)", "outlier"],
                    label="tab:fltheory-recovery-query", align="rrrrrrr"),
        notes=notes,
    )


@click.group("recovery", invoke_without_command=True)
@click.option("--d", "d", type=CountType(minimum=1), default=None,
              help="Input dimension d (D = C(d+q−1, q) of at most 1000 digits).")
@click.option("--q", "q", type=CountType(minimum=1), default=2, show_default=True,
              help="Hermite degree q (1..64).")
@click.option("--gamma", type=RATIONAL, default="1", show_default=True,
              help="λ_k = k^(−γ), γ > 0. Ruben's series needs ≈ 20·d1^γ terms and "
                   "(d1 + 2)·terms²/2 operations: refused above 3e8 (e.g. γ <= 5/2 at d1 = 8).")
@click.option("--n", "n", type=RATIONAL, default=None,
              help="Sample size n > 0 (e.g. 1e6), with δ = n/D in [1e-300, 1e300].")
@click.option("--d1", "d1", type=CountType(minimum=1), default=8, show_default=True,
              help="Number of latent directions (1..64; see --gamma for the cost).")
@click.option("--transform", type=click.Choice(["rank", "sign"]), default="rank",
              show_default=True, help="Bounded label transform T.")
@_dim_option
@dps_option
@format_option
@click.pass_context
def recovery_group(ctx: click.Context, d: int | None, q: int, gamma: Fraction,
                   n: Fraction | None, d1: int, transform: str, dim: str, dps: int,
                   fmt: str) -> None:
    """Sequential recovery at sample size n: overlaps, recovered count, MSE and its law.

    Example: fltheory recovery --d 100 --q 2 --gamma 1 --n 1e6 ;
    fltheory recovery simulate --d 30 --n 20000
    """
    if ctx.invoked_subcommand is not None:
        return
    if d is None or n is None:
        raise click.UsageError("Missing option '--d' or '--n'.")
    emit(recovery_result(d, q, gamma, n, d1, transform, dim, check_dps(dps)), fmt)


def simulate_result(d: int, n: int, d1: int, gamma: Fraction, features: str, transform: str,
                    seed: int, seeds: int, progress: bool, q: int = 2) -> Result:
    import numpy as np

    from fltheory.sim import recovery as sim

    check_integer(q, "q", 1, 4)
    if features == "hermite" and q != 2:
        raise DomainError("q", q, "q = 2 with --features hermite (any q <= 4 with gaussian)")
    check_integer(d, "d", 2, 60 if q == 2 else 20)
    check_integer(d1, "d1", 1, 64)
    check_integer(seeds, "seeds", 1, 100)
    D = sim.feature_dim(d, q)
    if D > 4000:
        raise DomainError("d", d, f"C(d+q−1, q) <= 4000 (here D = {D})")
    check_integer(n, "n", 10, 2 * 10**6)
    if d1 > D:
        raise DomainError("d1", d1, f"d1 <= D = {D}")
    from fltheory.exact import to_float

    gamma_f = to_float(gamma, "gamma", positive=True)
    model = None
    if transform in ("rank", "sign"):  # before the runs: its cost is checked up front
        from fltheory.theory.recovery import RecoveryModel

        model = RecoveryModel.power_law(d1, gamma, transform)
    runs = []
    for s in range(seed, seed + seeds):
        if progress:
            click.echo(f"run {s - seed + 1}/{seeds}: n = {n}, D = {D}, {features} features ...",
                       err=True)
        runs.append(sim.run(d, n, s, q=q, d1=d1, gamma=gamma_f, features=features,
                            transform=transform))
    rho2 = np.array([r.best_overlaps for r in runs])
    mse = np.array([r.relative_mse for r in runs])
    pred = None
    if model is not None:
        pred = model.overlaps([n / D])[0]
        pred_mse = float(model.mse([n / D])[0])
    rows = []
    for i in range(d1):
        se = rho2[:, i].std(ddof=1) / np.sqrt(seeds) if seeds > 1 else float("nan")
        rows.append([str(i + 1), f"{rho2[:, i].mean():.4f}", "-" if seeds == 1 else f"{se:.4f}",
                     "-" if pred is None else f"{pred[i]:.4f}"])
    summary = [f"spectral algorithm, q = {q}, d = {d} (D = {D}), n = {n} (δ = {n / D:.4g}), "
               f"{features} features, {transform} transform, seeds {seed}..{seed + seeds - 1}",
               f"test MSE/Var(y) = {mse.mean():.4f}"
               + ("" if pred is None else f" (Lu–Li finite-d1 prediction {pred_mse:.4f})")]
    notes = ["ρ_k² = max over the top d1 eigenvectors of ⟨Â_j, A_k⟩²"]
    if features == "hermite":
        notes.append("predictions are for Gaussian-equivalent features; real Hermite features at "
                     "small d recover later")
    return Result(
        command="recovery simulate",
        inputs={"d": d, "q": q, "n": n, "d1": d1, "gamma": fraction_str(gamma),
                "features": features,
                "transform": transform, "seed": seed, "seeds": seeds},
        value={"rho2": rho2.mean(axis=0).tolist(), "mse": float(mse.mean())},
        numeric=f"{mse.mean():.6g}",
        conventions=_CONVENTIONS | {"features": "gaussian: φ ~ N(0, I_D) (the surrogate); "
                                                "hermite: the real degree-2 features"},
        summary=summary,
        details={"D": D, "rho2_runs": rho2.tolist(), "mse_runs": mse.tolist(),
                 "predicted_rho2": None if pred is None else pred.tolist()},
        table=Table(columns=["k", "ρ² measured", "s.e.", "ρ² Lu–Li"], rows=rows,
                    caption=f"Measured overlaps, d = {d}, n = {n}",
                    label="tab:fltheory-recovery-sim", align="rrrr"),
        notes=notes,
    )


@recovery_group.command("simulate")
@click.option("--d", "d", type=CountType(minimum=2), default=30, show_default=True,
              help="Input dimension (q = 2: D = d(d+1)/2).")
@click.option("--q", "q", type=CountType(minimum=1), default=2, show_default=True,
              help="Hermite degree (hermite features: q = 2; gaussian features: q <= 4).")
@click.option("--n", "n", type=CountType(minimum=1), default=20000, show_default=True)
@click.option("--d1", "d1", type=CountType(minimum=1), default=8, show_default=True)
@click.option("--gamma", type=RATIONAL, default="1", show_default=True)
@click.option("--features", type=click.Choice(["gaussian", "hermite"]), default="gaussian",
              show_default=True)
@click.option("--transform", type=click.Choice(["rank", "sign", "identity"]), default="rank",
              show_default=True)
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True)
@click.option("--seeds", type=CountType(minimum=1), default=1, show_default=True,
              help="Number of consecutive seeds to average.")
@format_option
def simulate_command(d: int, q: int, n: int, d1: int, gamma: Fraction, features: str,
                     transform: str, seed: int, seeds: int, fmt: str) -> None:
    """Run the layer-wise spectral algorithm and compare with the Lu–Li overlaps."""
    emit(simulate_result(d, n, d1, _gamma(gamma), features, transform, seed, seeds,
                         sys.stderr.isatty(), q), fmt)


@recovery_group.command("law")
@click.option("--gamma", type=RATIONAL, required=True, help="λ_k = k^(−γ); the law needs γ > 1/2.")
@click.option("--a1", "a1_sq", type=RATIONAL, default="1", show_default=True,
              help="a_1² in the weak-direction normalisation a_k² = a_1² k^(−2γ).")
@dps_option
@format_option
def law_command(gamma: Fraction, a1_sq: Fraction, dps: int, fmt: str) -> None:
    """The d1 = ∞ MSE law MSE ≈ P·δ^(−1 + 1/(2γ)), δ = n/D, with its ζ-function prefactor
    P = 8γ²/((4γ² − 1) ζ(2γ))·(a_1²)^(−1 + 1/(2γ)) (derivation: fltheory/theory/recovery.py).

    Example: fltheory recovery law --gamma 3/2
    """
    import mpmath

    from fltheory.theory import recovery as th

    check_dps(dps)
    if a1_sq <= 0:
        raise DomainError("a1", fraction_str(a1_sq), "a_1² > 0")
    expo = th.law_exponent(gamma)
    with mpmath.workdps(dps):
        P = th.law_prefactor(gamma, mpmath.mpf(a1_sq.numerator) / a1_sq.denominator, dps)
        text = mpmath.nstr(P, dps)
    g = fraction_str(gamma)
    exact = f"8·({g})²/((4·({g})² − 1)·ζ({fraction_str(2 * gamma)}))·({fraction_str(a1_sq)})^" \
            f"({fraction_str(expo)})"
    emit(Result(command="recovery law",
                inputs={"gamma": g, "a1_squared": fraction_str(a1_sq), "dps": dps},
                value={"exponent": fraction_str(expo), "prefactor": exact},
                numeric=text, conventions=_CONVENTIONS,
                summary=[f"MSE ≈ P·δ^({fraction_str(expo)}), δ = n/D, P = {exact} = {text}"],
                details={"exponent": fraction_str(expo), "prefactor": text},
                notes=["finite-d1 models are steeper over any finite window (all directions "
                       "recovered: MSE → 1/δ); `fltheory recovery` gives the finite-d1 curve"]),
         fmt)
