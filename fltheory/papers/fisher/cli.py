"""``fltheory fisher`` and ``fisher simulate``: the random-feature spectrum, exact for ReLU
(this paper's closed forms) and for any σ with ``--sigma`` (the shared random-feature theory,
:mod:`fltheory.engine.randomfeatures`, which the any-σ paper :mod:`fltheory.papers.rf_spectrum`
uses too). The command parses, builds the parameters once, calls the theory or the runs
(:mod:`fltheory.papers.fisher.runs`) and renders. Its plain form (``--d``, ``--lmax``, ``--dps``,
``--format``) is also answered without click (:mod:`fltheory.papers.fisher.light`), from the same
:func:`fisher_result`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from fltheory.cli.options import RATIONAL, CountType, dps_option, emit, format_option
from fltheory.papers.fisher.light import CONVENTIONS as _CONVENTIONS
from fltheory.papers.fisher.light import fisher_result
from fltheory.results import Result

if TYPE_CHECKING:
    from fltheory.engine.randomfeatures import RFSpectrum

_RF_CONVENTIONS = {
    "model": "x ~ N(0, I_d), w_i i.i.d. N(0, s² I_d/d), K(w, w') = E_x σ(w·x)σ(w'·x), "
             "J = (1/m)[K(w_i, w_j)] (without --sigma: ReLU with W ~ N(0, 1/m), i.e. s = √d)",
    "levels": "λ_{l,j}: eigenvalue j (descending) of the degree-l radial operator, "
              "multiplicity N(d, l) each (Mehler + Funk–Hecke)",
    "trace": "trace J → E_w K(w, w) = Σ_l N(d, l) Σ_j λ_{l,j}",
}


def _rf_levels(spec: RFSpectrum) -> list[dict[str, Any]]:
    return [{"l": lev.l, "j": lev.j, "multiplicity": lev.multiplicity,
             "exact": None if lev.closed is None else str(lev.closed),
             "numeric": lev.text(spec.dps),
             "digits": lev.digits, "method": lev.method, "reason": lev.reason}
            for lev in spec.levels]


def rf_result(sigma: str, d: int, scale: Any, lmax: int, jmax: int, dps: int | None) -> Result:
    """``dps=None``: the precision chosen by the theory (each value with its digits)."""
    import mpmath

    from fltheory.engine import randomfeatures as rf

    spec = rf.spectrum(rf.RFModel(sigma, d, scale, lmax, jmax, dps))
    dps = spec.dps
    levels = _rf_levels(spec)
    tdig, cdig = spec.confirmed_trace_digits  # never a digit that is not confirmed
    trace, captured = mpmath.nstr(spec.trace, tdig), mpmath.nstr(spec.trace_captured, cdig)
    return Result(
        command="fisher",
        inputs={"sigma": sigma, "d": d, "scale": str(scale), "lmax": lmax, "jmax": jmax,
                "dps": dps},
        value=[o["exact"] if o["exact"] is not None else o["numeric"] for o in levels],
        numeric=trace, conventions=_RF_CONVENTIONS,
        summary=[f"random-feature spectrum, σ = {sigma}, d = {d}, s = {scale}, m → ∞: "
                 f"trace E K(w, w) = {trace}; levels l <= {lmax}, j <= {jmax} carry {captured}"],
        details={"levels": levels, "trace": trace, "trace_captured": captured,
                 "vanishing": [str(v) for v in spec.vanishing]},
        table=spec.table(),
    )


@click.group("fisher", invoke_without_command=True)
@click.option("--d", "d", type=CountType(minimum=2), default=None,
              help="Input dimension d >= 2 (multiplicities N(d, lmax) of at most 1000 digits).")
@click.option("--sigma", default=None, help="Activation EXPR (as in `fltheory hermite`: relu, "
              "tanh, erf, z**2, ...); without it: the ReLU paper's spectrum (s = √d).")
@click.option("--scale", type=RATIONAL, default=None, help="s > 0: w ~ N(0, s² I/d) [default 1; "
              "with --sigma only].")
@click.option("--lmax", type=CountType(minimum=0), default=4, show_default=True,
              help="Highest spherical-harmonic degree l, 0..60; work lmax³·(dps + "
                   "lmax·digits(d))² <= 3e10 (e.g. lmax <= 60 at d = 10^6, 20 at d = 10^50).")
@click.option("--jmax", type=CountType(minimum=0), default=None,
              help="Highest radial index j [default 2; with --sigma only].")
@dps_option
@format_option
@click.pass_context
def fisher_command(ctx: click.Context, d: int | None, sigma: str | None, scale: Any, lmax: int,
                   jmax: int | None, dps: int, fmt: str) -> None:
    """Exact m → ∞ spectrum of the Fisher matrix of random features.

    Without --sigma (random ReLU features, the paper's model): for each degree l the exact
    λ_l (closed form), the paper's approximation and its relative error, the multiplicity
    N(d, l) and the cumulative share of the trace. With --sigma: the levels λ_{l,j} of any
    activation (w ~ N(0, s² I/d)).

    Example: fltheory fisher --d 10 ; fltheory fisher --sigma tanh --d 10 ;
    fltheory fisher simulate --d 5 --m 2000
    """
    if ctx.invoked_subcommand is not None:
        return
    if d is None:
        raise click.UsageError("Missing option '--d'.")
    if sigma is None and scale is None and jmax is None:
        emit(fisher_result(d, lmax, dps), fmt)
        return
    asked = ctx.get_parameter_source("dps") is not click.core.ParameterSource.DEFAULT
    emit(rf_result(sigma or "relu", d, 1 if scale is None else scale, lmax,
                   2 if jmax is None else jmax, dps if asked else None), fmt)


def simulate_result(d: int, m: int, seed: int, progress: bool) -> Result:
    from fltheory.papers.fisher.runs import compare_clusters

    cmp = compare_clusters(d, m, seed, (lambda line: click.echo(line, err=True))
                           if progress else None)
    out = [{"l": lev.l, "size": size, "multiplicity": lev.multiplicity, "mean": mean,
            "predicted": float(lev.value), "relative_error": rel}
           for lev, size, mean, rel in zip(cmp.levels, cmp.clusters.sizes, cmp.clusters.means,
                                           cmp.relative_errors, strict=False)]
    total, share = cmp.clusters.trace, cmp.clusters.top_share
    return Result(
        command="fisher simulate",
        inputs={"d": d, "m": m, "seed": seed},
        value=out,
        numeric=f"{share:.6f}",
        conventions=_CONVENTIONS | {"clusters": "split where consecutive eigenvalues differ by "
                                                "a factor > 1.3 (no predicted sizes used)"},
        summary=[f"simulated J at d = {d}, m = {m}, seed {seed}: trace {total:.5f} "
                 f"(limit {d / 2}), top-3 share {share:.6f}"],
        details={"clusters": out, "trace": total, "top3_share": share},
        table=cmp.table(),
        notes=["finite-m cluster means deviate by O(1/m) plus a common scale fluctuation "
               "O(1/√(dm)); `fltheory verify fisher` extrapolates over widths and seeds"],
    )


def rf_simulate_result(sigma: str, d: int, m: int, seed: int, scale: Any, progress: bool
                       ) -> Result:
    from fltheory.papers.fisher.runs import compare_rf

    cmp = compare_rf(sigma, d, m, seed, scale, 3, 1,
                     (lambda line: click.echo(line, err=True)) if progress else None)
    out = [{"l": l, "j": j, "multiplicity": mult, "predicted": value,
            "mean": None if (l, j) not in cmp.simulated else cmp.simulated[(l, j)][0],
            "size": None if (l, j) not in cmp.simulated else cmp.simulated[(l, j)][1],
            "purity": None if (l, j) not in cmp.simulated else cmp.simulated[(l, j)][2]}
           for l, j, value, mult in cmp.predicted]
    return Result(
        command="fisher simulate",
        inputs={"sigma": sigma, "d": d, "m": m, "seed": seed, "scale": str(scale)},
        value=out, numeric=f"{cmp.trace:.6g}",
        conventions=_RF_CONVENTIONS | {"levels found": "eigenvectors of harmonic degree l "
                                       "(share >= 1/2), block j of N(d, l) by eigenvalue"},
        summary=[f"simulated J, σ = {sigma}, d = {d}, m = {m}, s = {scale}, seed {seed}: "
                 f"trace {cmp.trace:.6g}; J by {cmp.method} (relative error bound "
                 f"{cmp.bound:.1g})"],
        details={"levels": out, "trace": cmp.trace, "method": cmp.method,
                 "error_bound": cmp.bound},
        table=cmp.table(),
        notes=["finite-m cluster means deviate by O(1/m) plus O(1/√m) draw-to-draw; "
               "`fltheory verify rf_spectrum` extrapolates over widths and draws"])


@fisher_command.command("simulate")
@click.option("--d", "d", type=CountType(minimum=2), required=True,
              help="Input dimension d >= 2; memory 8·(d·m + 3·m²) bytes <= 2 GiB.")
@click.option("--m", "m", type=CountType(minimum=1), default=2000, show_default=True,
              help="Number of random features m >= 2; cost 2·d·m² + 8·m³ <= 6e11 operations "
                   "(m <= 4200 at small d).")
@click.option("--seed", type=CountType(minimum=0), default=0, show_default=True)
@click.option("--sigma", default=None, help="Activation EXPR; without it: ReLU, the paper's "
              "model (s = √d).")
@click.option("--scale", type=RATIONAL, default=None, help="s > 0 [default 1; with --sigma].")
@format_option
def simulate_command(d: int, m: int, seed: int, sigma: str | None, scale: Any, fmt: str
                     ) -> None:
    """Sample W, build J exactly (closed form or bounded Mehler series), eigendecompose,
    compare the clusters with the m → ∞ levels."""
    if sigma is None and scale is None:
        emit(simulate_result(d, m, seed, sys.stderr.isatty()), fmt)
        return
    emit(rf_simulate_result(sigma or "relu", d, m, seed, 1 if scale is None else scale,
                            sys.stderr.isatty()), fmt)
