"""Views of the ReLU Fisher information paper: its tables, figures and notebook.

Each builder asks the theory or the runs for its numbers and hands them to
:mod:`fltheory.render`; nothing is computed here. Declared in :mod:`fltheory.papers.fisher`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fltheory.render.params import ViewParam, progress, view_params
from fltheory.render.plots import finish_size_axis, pyplot
from fltheory.results import Table

__all__ = ["FISHER_TABLE_DIMENSIONS", "NOTEBOOK", "draw_fisher", "fisher_figure",
           "fisher_levels", "fisher_table"]

FISHER_TABLE_DIMENSIONS = (2, 3, 5, 10, 100, 1000)


@view_params(d=ViewParam("ints", "Input dimensions, one row each.", 2, 10**6))
def fisher_table(d: Sequence[int] = FISHER_TABLE_DIMENSIONS) -> Table:
    """Exact m → ∞ Fisher eigenvalues λ_0, λ_2 of random ReLU features (x ~ N(0, I_d),
    relu(x·w), w uniform on the sphere) at each dimension d, against the paper's approximations
    (2d+1)/(4π) and 1/(2π(d+2)), the multiplicity N(d, 2) and the share of the trace d/2 carried
    by the three leading clusters; 6 significant digits (computed at 20). Source: the ReLU Fisher
    paper (Takeishi et al. line); levels by Funk–Hecke (:func:`fltheory.papers.fisher.theory.
    spectrum`).

    Parameters
    ----------
    d
        Input dimensions, one row each (default 2, 3, 5, 10, 100, 1000).
    """
    import mpmath

    from fltheory.papers.fisher.theory import spectrum

    rows = []
    for dim in d:
        spec = spectrum(dim, 2, 20)
        lev = spec.levels
        rows.append([str(dim), mpmath.nstr(lev[0].value, 6),
                     mpmath.nstr(lev[0].approximation, 6), mpmath.nstr(lev[2].value, 6),
                     mpmath.nstr(lev[2].approximation, 6), str(lev[2].multiplicity),
                     mpmath.nstr(spec.share.top3, 6), mpmath.nstr(spec.share.paper, 6)])
    return Table(
        columns=["d", "λ_0", "(2d+1)/(4π)", "λ_2", "1/(2π(d+2))", "N(d,2)", "top-3 share",
                 "paper's share"],
        rows=rows,
        latex_columns=["$d$", r"$\lambda_0$", r"$\frac{2d+1}{4\pi}$", r"$\lambda_2$",
                       r"$\frac{1}{2\pi(d+2)}$", "$N(d,2)$", "top-3 share", "paper's share"],
        caption=("Exact m → ∞ Fisher eigenvalues of random ReLU features against the paper's "
                 "approximations; λ_1 = 1/4 exactly with multiplicity d."),
        latex_caption=(r"Exact $m \to \infty$ Fisher eigenvalues $\lambda_l(d)$ of random ReLU "
                       r"features against the paper's approximations; $\lambda_1 = 1/4$ exactly "
                       r"(multiplicity $d$). The share is that of the trace $d/2$ carried by the "
                       r"three leading clusters; its $d \to \infty$ limit is "
                       r"$1/2 + 3/(2\pi) \approx 0.9775$."),
        label="tab:fisher",
        align="rrrrrrrr",
    )


def fisher_levels(levels: Any) -> list[tuple[int, float, int]]:
    """The exact levels as ``(l, λ_l, N(d, l))`` triples (λ_l a float), from a
    :class:`~fltheory.papers.fisher.theory.FisherSpectrum` (what :func:`fltheory.papers.fisher.theory.spectrum`
    returns), a sequence of :class:`~fltheory.papers.fisher.theory.FisherLevel`, or triples already.

    >>> from fltheory.papers.fisher.theory import spectrum
    >>> fisher_levels(spectrum(5, 1, 15))
    [(0, 0.87890625, 1), (1, 0.25, 5)]
    """
    items = getattr(levels, "levels", levels)
    out = []
    for item in items:
        if hasattr(item, "multiplicity"):  # a FisherLevel
            out.append((int(item.l), float(item.value), int(item.multiplicity)))
        else:
            l, value, mult = item
            out.append((int(l), float(value), int(mult)))
    return out


def draw_fisher(spectrum: Mapping[str, Any], residuals: Mapping[str, Any],
                exact: Any = None) -> Any:
    """(a) a simulated Fisher spectrum (log scale) with the exact m → ∞ levels and their
    multiplicities; (b) the eigenfunction residual against m with the m^(−1/2) law.

    ``spectrum`` is what :func:`fltheory.papers.fisher.runs.spectrum_sample` returns, a mapping with
    ``"d"`` and ``"m"`` (ints), ``"eigenvalues"`` (the simulated eigenvalues of J, a numpy array,
    e.g. ``fltheory.papers.fisher.sim.sample(d, m, seed).eigenvalues``) and ``"levels"`` (the exact
    levels: ``(l, λ_l, N(d, l))`` triples or a FisherSpectrum, see :func:`fisher_levels`).
    ``exact``, a :class:`~fltheory.papers.fisher.theory.FisherSpectrum` (``theory.spectrum(d, 4)``),
    replaces ``spectrum["levels"]`` when given (the mapping may then leave it out).
    ``residuals`` is what :func:`fltheory.papers.fisher.runs.residuals_vs_m` returns: ``"log_m"``
    (log of each run's width, shape (runs,)) and ``"rel"`` (relative residual per run and
    cluster l = 0, 1, 2, shape (runs, 3)). Returns the matplotlib figure.
    """
    import numpy as np

    plt = pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    eig = np.asarray(spectrum["eigenvalues"])
    positive = eig[eig > 0]
    ax1.semilogy(np.arange(1, len(positive) + 1), positive, ".", ms=3, label="simulated")
    start = 0
    levels = fisher_levels(exact if exact is not None else spectrum["levels"])
    # Levels in the order they appear in a descending spectrum; λ_l = 0 (odd l >= 3) sit at
    # the bottom with the rest of the near-null space and are not drawn.
    for l, value, mult in sorted(levels, key=lambda t: -t[1]):
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
    finish_size_axis(ax2, widths, "m (random features)",
                      "relative residual of f_v off the predicted space")
    fig.tight_layout()
    return fig


@view_params(
    d=ViewParam("int", "Input dimension.", 2, 1000),
    m=ViewParam("int", "Random features of the spectrum panel (a).", 2, 20000),
    widths=ViewParam("ints", "Widths m of the residual panel (b).", 2, 20000),
    seeds=ViewParam("int", "Repetitions per width in panel (b).", 2, 50),
    seed=ViewParam("int", "Seed of the simulations.", 0, 2**63 - 1),
)
def fisher_figure(d: int = 5, m: int = 2000, widths: Sequence[int] = (250, 500, 1000, 2000),
                  seeds: int = 3, seed: int = 0) -> Any:
    """The ReLU Fisher figure (Takeishi et al. line): (a) the simulated spectrum of
    J = E_x[X Xᵀ] of m random ReLU features at dimension d against the exact m → ∞ levels and
    their multiplicities; (b) the residual of the leading eigenvectors' outputs off the
    predicted function spaces against the width, with the m^(−1/2) law (see
    :func:`draw_fisher`).

    Parameters
    ----------
    d
        Input dimension (default 5).
    m
        Features of the simulated spectrum (default 2000).
    widths
        Widths of panel (b) (default 250, 500, 1000, 2000).
    seeds
        Repetitions per width (default 3).
    seed
        Seed of every simulation (default 0).
    """
    from fltheory.papers.fisher.runs import residuals_vs_m, spectrum_sample
    from fltheory.papers.fisher.sweeps import check_clusters_task

    for width in (m, *widths):  # each size's clusters must exist, each run be affordable
        check_clusters_task({"d": d, "m": width})
    progress(f"spectrum of J at d = {d}, m = {m}")
    sample = spectrum_sample(d, m, seed)
    progress(f"residuals at m = {', '.join(map(str, widths))}, {seeds} seeds each")
    return draw_fisher(sample, residuals_vs_m(d, tuple(widths), seeds=seeds, seed=seed))


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", """# Fisher information of random ReLU features

Model (Takeishi et al. line): $x \\sim N(0, I_d)$, $X(x) = \\mathrm{relu}(x^\\top W)$,
$W_{ij} \\sim N(0, 1/m)$, Fisher matrix $J = E_x[X X^\\top]$.

This notebook reproduces the paper's validation — the error between the network outputs of the
leading eigenvectors and their predicted limit functions falls as $m$ grows, for several $d$ —
through fltheory's public API, and shows the exact $m \\to \\infty$ spectrum that fltheory
derives (Funk–Hecke), against the paper's approximations."""),
    ("code", """import numpy as np
import mpmath
from fltheory.papers.fisher import theory
from fltheory.papers.fisher.runs import compare_clusters, residuals_vs_m, spectrum_sample
from fltheory.papers.fisher.views import draw_fisher

theory.spectrum(d=5)  # exact levels l = 0..4, the paper's values, shares of the trace d/2"""),
    ("code", """for d in (2, 3, 5, 10, 100):
    levels = theory.spectrum(d, 2, 20)
    print(f"d = {d:>3}: " + ", ".join(
        f"λ{lev.l} = {mpmath.nstr(lev.value, 8)} (paper {mpmath.nstr(lev.approximation, 8)}, ×{lev.multiplicity})"
        for lev in levels) + f"; top-3 share {mpmath.nstr(levels.share.top3, 6)}")"""),
    ("markdown", """One finite network ($d = 5$, $m = 1000$): its three leading eigenvalue clusters, found
from the gaps alone, against the exact levels."""),
    ("code", """compare_clusters(5, 1000, seed=0)"""),
    ("markdown", """## Error against the width $m$ (the paper's validation)

For each cluster $l = 0, 1, 2$ the outputs $f_v(x) = X(x)^\\top v$ of its eigenvectors are
projected on the predicted functions ($\\|x\\|$; $x_a$; $x_a x_b/\\|x\\|$ and
$x_c^2/\\|x\\| - \\|x\\|/d$); the mean absolute error of the remainder is plotted against $m$."""),
    ("code", """import matplotlib.pyplot as plt
%matplotlib inline

widths = (250, 500, 1000, 2000)
fig, axes = plt.subplots(1, 3, figsize=(12, 3.5), sharey=True)
for ax, d in zip(axes, (3, 5, 10), strict=True):
    r = residuals_vs_m(d, widths, seeds=2)
    m = np.rint(np.exp(r["log_m"]))
    for l in range(3):
        mean = [r["mae"][m == w, l].mean() for w in widths]
        slope = np.polyfit(r["log_m"], np.log(r["mae"][:, l]), 1)[0]
        ax.loglog(widths, mean, "-o", label=f"l = {l} (slope {slope:.2f})")
    ax.set_title(f"d = {d}")
    ax.set_xticks(widths, [str(w) for w in widths])
    ax.minorticks_off()
    ax.set_xlabel("m")
    ax.legend(fontsize=8)
axes[0].set_ylabel("MAE of f_v off the predicted space")
fig.tight_layout()"""),
    ("markdown", r"""The slopes are close to the $m^{-1/2}$ of a Monte-Carlo average over the $m$ random
features. At $d = 3$, $m = 250$ the simulated spectrum does not yet split into the predicted
cluster sizes (the gaps are too small), which shows up as one large error at the smallest width;
`fltheory verify fisher` therefore uses $m \geq 500$ at $d = 5$."""),
    ("markdown", "## A simulated spectrum with the exact levels"),
    ("code", """fig = draw_fisher(spectrum_sample(5, 2000, 0), residuals_vs_m(5, widths, seeds=3))"""),
]
