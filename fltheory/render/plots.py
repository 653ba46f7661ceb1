"""Figures for ``fltheory plot NAME``: matplotlib views of data computed elsewhere.

Each builder asks the public API (claims/theory) for its data and draws it; matplotlib is
imported only here (``pip install 'fltheory[plot]'``); the CLI selects the Agg backend, a
notebook keeps its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from fltheory.exact import DomainError

__all__ = ["PLOTS", "figure_fisher", "figure_lambda", "figure_quadratic", "figure_recovery",
           "figure_twostep",
           "make_figure"]


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise DomainError("plot", "matplotlib", "an installation with the [plot] extra: "
                          "pip install 'fltheory[plot]'", reason="is not installed") from None
    del matplotlib  # the backend is the caller's choice (the CLI selects Agg)
    import matplotlib.pyplot as plt

    return plt


def figure_fisher(spectrum: dict[str, Any], residuals: dict[str, Any]) -> Any:
    """(a) a simulated Fisher spectrum (log scale) with the exact m → ∞ levels and their
    multiplicities; (b) the eigenfunction residual against m with the m^(−1/2) law."""
    plt = _pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    eig = spectrum["eigenvalues"]
    positive = eig[eig > 0]
    ax1.semilogy(np.arange(1, len(positive) + 1), positive, ".", ms=3, label="simulated")
    start = 0
    # Levels in the order they appear in a descending spectrum; λ_l = 0 (odd l >= 3) sit at
    # the bottom with the rest of the near-null space and are not drawn.
    for l, value, mult in sorted(spectrum["levels"], key=lambda t: -t[1]):
        if value <= 0:
            continue
        ax1.hlines(value, start + 1, start + mult, colors="C3", lw=2)
        ax1.annotate(f"l={l}, ×{mult}", (start + mult, value), textcoords="offset points",
                     xytext=(4, 4), fontsize=8, color="C3")
        start += mult
    ax1.set_xscale("log")
    ax1.set_xlabel("eigenvalue index")
    ax1.set_ylabel("eigenvalue of J")
    ax1.set_title(f"d = {spectrum['d']}, m = {spectrum['m']}: exact levels (red)")
    ms = np.rint(np.exp(residuals["log_m"]))
    for l in range(residuals["rel"].shape[1]):
        widths = np.unique(ms)
        mean = [residuals["rel"][ms == w, l].mean() for w in widths]
        ax2.loglog(ms, residuals["rel"][:, l], ".", color=f"C{l}", alpha=0.5)
        ax2.loglog(widths, mean, "-o", color=f"C{l}", label=f"cluster l = {l}")
    widths = np.unique(ms)
    ref = residuals["rel"][ms == widths[0]].mean() * np.sqrt(widths[0] / widths)
    ax2.loglog(widths, ref, "k--", label="∝ m^(−1/2)")
    _finish_size_axis(ax2, widths, "m (random features)",
                      "relative residual of f_v off the predicted space")
    fig.tight_layout()
    return fig


def _finish_size_axis(ax: Any, sizes: Any, xlabel: str, ylabel: str) -> None:
    """Log-scaled size axis labelled at the simulated sizes, labels and legend."""
    ax.set_xscale("log")
    ax.set_xticks(sizes, [str(int(v)) for v in sizes])
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)


def figure_lambda(grid: int = 200) -> Any:
    """Phase diagram of Λ(α1, α2) (L = ∞) with the boundaries α2 = k(1/2 − α1)."""
    from fractions import Fraction

    from fltheory.theory.twostep import lambda_count

    plt = _pyplot()
    values = np.array([[lambda_count(Fraction(i, 2 * grid), Fraction(j, 2 * grid))
                        for i in range(grid)] for j in range(grid)])
    fig, ax = plt.subplots(figsize=(5, 4.2))
    mesh = ax.pcolormesh(np.arange(grid) / (2 * grid), np.arange(grid) / (2 * grid),
                         np.minimum(values, 10), shading="auto", cmap="viridis")
    a1 = np.linspace(0, 0.5, 400)
    for k in range(1, 11):
        ax.plot(a1, k * (0.5 - a1), "w-", lw=0.6)
    ax.set_xlim(0, 0.5)
    ax.set_ylim(0, 0.5)
    ax.set_xlabel("α1")
    ax.set_ylabel("α2")
    ax.set_title("Λ(α1, α2): outliers of W2 beyond the one-step spike")
    fig.colorbar(mesh, ax=ax, label="Λ (clipped at 10)")
    fig.tight_layout()
    return fig


def figure_twostep(spectra: dict[str, Any], constants: dict[str, Any]) -> Any:
    """(a) singular values of W0, W1, W2 with W0's bulk edge; (b) the estimated spike constants
    Ĉ_k of the second-step terms against N, with the predicted C_k (dashed)."""
    plt = _pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    for name, color in (("W0", "0.6"), ("W1", "C0"), ("W2", "C3")):
        sv = spectra[name]
        ax1.semilogy(np.arange(1, len(sv) + 1), sv, ".", ms=3, color=color, label=name)
    ax1.axhline(spectra["edge"], color="k", ls="--", lw=0.8, label="bulk edge of W0")
    ax1.set_xscale("log")
    ax1.set_xlabel("index")
    ax1.set_ylabel("singular value")
    ax1.set_title(f"N = n = d = {spectra['N']}, α1 = {spectra['alpha1']}, "
                  f"α2 = {spectra['alpha2']} (reused)")
    ax1.legend(fontsize=8)
    Ns = constants["N"]
    labels = {(0, 0): "k=0, β1 (He1)", (2, 0): "k=2, β1 (He1)", (2, 1): "k=2, β2 (τ=3)"}
    for i, ((k, j), label) in enumerate(labels.items()):
        est = constants["estimates"][:, :, k, j]
        pred = constants["predicted"][k, j]
        scale = abs(pred)
        ax2.errorbar(Ns, est.mean(axis=1) / scale,
                     yerr=est.std(axis=1, ddof=1) / np.sqrt(est.shape[1]) / scale, fmt="o-",
                     color=f"C{i}", label=f"{label}: C = {pred:.3g}")
    ax2.axhline(1, color="k", ls="--", lw=0.8)
    ax2.axhline(-1, color="k", ls="--", lw=0.8)
    _finish_size_axis(ax2, Ns, "N", "Ĉ_k / |C_k| (predicted ±1)")
    fig.tight_layout()
    return fig


def figure_quadratic(data: dict[str, Any], escape: dict[str, Any] | None = None) -> Any:
    """(a) Loss against t = steps/N: SGD (test loss) at several N and the ODE from the same
    initial overlaps, with the plateau loss marked; (b) with ``escape``, the escape time against
    p: the law with SGD's plateau noise, the noise-free mean-field law, SGD runs."""
    plt = _pyplot()
    if escape is None:
        fig, ax = plt.subplots(figsize=(6, 4))
    else:
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for i, c in enumerate(data["curves"]):
        ax.semilogy(data["t"], c["sgd"], color=f"C{i}", alpha=0.6, label=f"SGD, N = {c['N']}")
        ax.semilogy(data["t"], c["ode"], color=f"C{i}", ls="--", lw=1)
    ax.axhline(data["plateau_loss"], color="k", ls=":", lw=1, label="plateau loss (closed form)")
    ax.set_xlabel("t = steps / N")
    ax.set_ylabel("loss")
    ax.set_title(f"p = {data['p']}, p* = {data['p_star']}, η = {data['eta']} (dashed: ODE)")
    ax.legend(fontsize=8)
    if escape is not None:
        ps = np.array(escape["p"])
        law, mf = np.array(escape["law"]), np.array(escape["mean_field"])
        ax2.errorbar(ps, law[:, 0], yerr=law[:, 1], color="C0", marker="s", ms=4,
                     label="law with SGD plateau noise")
        ax2.errorbar(ps, mf[:, 0], yerr=mf[:, 1], color="C7", ls="--", marker="^", ms=4,
                     label="mean field, no noise")
        runs = escape["sgd"]
        for j in range(runs.shape[1]):
            ax2.plot(ps, runs[:, j], "o", color="C3", ms=3, alpha=0.5,
                     label="SGD runs" if j == 0 else None)
        ax2.set_xscale("log", base=2)
        ax2.set_xlabel("p (student width)")
        ax2.set_ylabel("t_esc (‖ρ‖_F = 1/2)")
        ax2.set_title(f"random start W0 ~ N(0, 1/4), N = {escape['N']}, p* = "
                      f"{escape['p_star']}", fontsize=9)
        ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure_recovery(data: dict[str, Any]) -> Any:
    """(a) overlaps ρ_k² against δ = n/D: Lu–Li curves, large-δ thresholds (dotted), simulated
    means (Gaussian-equivalent features); (b) MSE against δ: the finite-d1 curve, the d1 = ∞
    law P δ^e, simulated means with standard errors."""
    plt = _pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    for k in range(data["d1"]):
        color = f"C{k % 10}"
        ax1.semilogx(data["fine"], data["curves"][:, k], color=color, lw=1.2,
                     label=f"k = {k + 1}")
        ax1.axvline(data["thresholds"][k], color=color, ls=":", lw=0.8)
        mean = data["rho2"][:, :, k].mean(axis=0)
        ax1.plot(data["deltas"], mean, "o", color=color, ms=4)
    ax1.set_xlabel("δ = n / D")
    ax1.set_ylabel("ρ_k² = ⟨Â_k, A_k⟩²")
    ax1.set_title(f"Lu–Li (lines), simulation d = {data['d']} (D = {data['D']}, dots)",
                  fontsize=9)
    ax1.legend(fontsize=7, ncol=2)
    pref, expo = data["law"]
    ax2.loglog(data["fine"], data["mse_curve"], color="C0", label=f"finite d1 = {data['d1']}")
    ax2.loglog(data["fine"], pref * data["fine"] ** expo, color="k", ls="--", lw=1,
               label=f"law {pref:.3g}·δ^({expo:.3g}), d1 = ∞")
    m = data["mse"]
    ax2.errorbar(data["deltas"], m.mean(axis=0), yerr=m.std(axis=0, ddof=1) / np.sqrt(len(m)),
                 fmt="o", color="C3", ms=4, label="simulation")
    ax2.set_xlabel("δ = n / D")
    ax2.set_ylabel("test MSE / Var(y)")
    ax2.set_title(f"γ = {data['gamma']:g}, rank transform", fontsize=9)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _recovery() -> Any:
    from fltheory.claims.recovery import cascade_data

    return figure_recovery(cascade_data())


def _quadratic() -> Any:
    from fltheory.claims.quadratic import escape_vs_p, loss_curves

    return figure_quadratic(loss_curves(4, 2, 0.1, (250, 1000), t_max=60), escape_vs_p())


def _twostep() -> Any:
    from fltheory.claims.twostep import constants_vs_N, w2_singular_values

    return figure_twostep(w2_singular_values(1000), constants_vs_N((400, 800, 1600), seeds=6))


def _fisher() -> Any:
    from fltheory.claims.fisher import residuals_vs_m, spectrum_sample

    return figure_fisher(spectrum_sample(5, 2000, 0),
                         residuals_vs_m(5, (250, 500, 1000, 2000), seeds=3))


PLOTS: dict[str, Callable[[], Any]] = {"fisher": _fisher, "lambda": figure_lambda,
                                       "quadratic": _quadratic, "recovery": _recovery,
                                       "twostep": _twostep}


def make_figure(name: str) -> Any:
    if name not in PLOTS:
        raise DomainError("NAME", name, "one of " + ", ".join(sorted(PLOTS)),
                          reason="is not a known figure")
    return PLOTS[name]()
