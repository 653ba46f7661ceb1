"""Views of the random-feature spectrum for any activation (issue #15): the table of the levels
λ_{l,j}(d) for a catalogue of activations, the large-d approach table, and the figure of a
predicted spectrum against a simulation for a non-homogeneous σ.

Each builder asks the theory (:mod:`fltheory.theory.rf_spectrum`) or the claims module for its
numbers and hands them to :mod:`fltheory.render`; nothing is computed here. Declared in
:mod:`fltheory.papers.rf_spectrum`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fltheory.render.plots import pyplot
from fltheory.results import Table

__all__ = ["LARGE_D_VALUES", "RF_CATALOGUE", "RF_DIMENSIONS", "RF_LEVELS", "draw_rf_spectrum",
           "rf_large_d_table", "rf_levels_table", "rf_spectrum_figure"]

#: activations of the levels table (catalogue names of ``fltheory hermite``)
RF_CATALOGUE = ("relu", "abs", "erf", "tanh", "quadratic", "sigmoid")
#: dimensions of the levels table
RF_DIMENSIONS = (3, 10, 100)
#: the levels (l, j) shown
RF_LEVELS = ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (3, 0))
#: dimensions of the large-d table
LARGE_D_VALUES = (10, 100, 1000, 10**4, 10**6)


def rf_levels_table() -> Table:
    import mpmath

    from fltheory.theory.rf_spectrum import spectrum

    rows = []
    for sigma in RF_CATALOGUE:
        for d in RF_DIMENSIONS:
            spec = spectrum(sigma, d, 1, 3, 1, 20)
            rows.append([sigma, str(d)] + [mpmath.nstr(spec.eigenvalue(l, j), 6)
                                           for l, j in RF_LEVELS]
                        + [mpmath.nstr(spec.trace, 6)])
    return Table(
        columns=["σ", "d"] + [f"λ({l},{j})" for l, j in RF_LEVELS] + ["trace"],
        rows=rows,
        latex_columns=[r"$\sigma$", "$d$"] + [rf"$\lambda_{{{l},{j}}}$" for l, j in RF_LEVELS]
        + [r"$E\,K(w,w)$"],
        caption=("m → ∞ eigenvalues λ_{l,j}(d) of J = (1/m)[E_x σ(w_i·x)σ(w_j·x)], "
                 "w ~ N(0, I_d/d) (s = 1): level j of the degree-l radial operator, "
                 "multiplicity N(d, l) each; trace = E_w K(w, w)."),
        latex_caption=(r"Limits $m \to \infty$ of the eigenvalues $\lambda_{l,j}(d)$ of "
                       r"$J = \frac1m[E_x\,\sigma(w_i\cdot x)\sigma(w_j\cdot x)]$, "
                       r"$w \sim N(0, I_d/d)$: level $j$ of the degree-$l$ radial operator, "
                       r"multiplicity $N(d,l)$ each. Homogeneous $\sigma$ (relu, abs, $z^2$) "
                       r"have $\lambda_{l,1} = 0$; odd $\sigma$ (erf, tanh) have "
                       r"$\lambda_{l,j} = 0$ for even $l$."),
        label="tab:rf-spectrum",
        align="ll" + "r" * (len(RF_LEVELS) + 1),
    )


def rf_large_d_table() -> Table:
    import mpmath

    from fltheory.theory.rf_spectrum import large_d_approach

    rows = []
    for sigma in ("tanh", "erf", "relu"):
        for l in (0, 1, 2):
            for row in large_d_approach(sigma, l, LARGE_D_VALUES, 1, 20):
                rows.append([sigma, str(l), str(row.d), mpmath.nstr(row.value, 8),
                             mpmath.nstr(row.limit, 8), mpmath.nstr(row.relative_gap, 3)])
    return Table(
        columns=["σ", "l", "d", "λ_{l,0}(d)·N(d,l)", "d → ∞ limit", "relative gap"],
        rows=rows,
        latex_columns=[r"$\sigma$", "$l$", "$d$", r"$N(d,l)\,\lambda_{l,0}(d)$",
                       r"$d \to \infty$", "relative gap"],
        caption="Approach of the leading radial level to its d → ∞ limit (s = 1).",
        label="tab:rf-large-d",
        align="llrrrr",
    )


def draw_rf_spectrum(samples: list[Mapping[str, Any]]) -> Any:
    """One panel per sample: the simulated eigenvalues of J (log scale) with the predicted
    levels λ_{l,j} as horizontal bars of length N(d, l), in their predicted order.

    Each sample is what :func:`fltheory.claims.rf_spectrum.spectrum_sample` returns: ``sigma``,
    ``d``, ``m``, ``scale``, ``eigenvalues`` (a numpy array, descending) and ``levels``
    ((l, j, λ, N(d, l)) tuples). Returns the matplotlib figure.
    """
    import numpy as np

    plt = pyplot()
    fig, axes = plt.subplots(1, len(samples), figsize=(5 * len(samples), 4), squeeze=False)
    for ax, spec in zip(axes[0], samples, strict=True):
        eig = np.asarray(spec["eigenvalues"])
        positive = eig[eig > 1e-12 * eig[0]]
        ax.loglog(np.arange(1, len(positive) + 1), positive, ".", ms=3, label="simulated")
        start = 0
        for l, j, value, mult in sorted(spec["levels"], key=lambda t: -t[2]):
            if value <= 1e-12 * eig[0] or start >= len(positive):
                continue
            ax.hlines(value, start + 1, start + mult, colors="C3", lw=2)
            if mult >= 1 and value > positive[min(len(positive) - 1, 60)]:
                ax.annotate(f"({l},{j}) ×{mult}", (start + mult, value),
                            textcoords="offset points", xytext=(4, 2), fontsize=7, color="C3")
            start += mult
        ax.set_xlabel("eigenvalue index")
        ax.set_ylabel("eigenvalue of J")
        ax.set_title(f"σ = {spec['sigma']}, d = {spec['d']}, m = {spec['m']}, "
                     f"s = {spec['scale']}: predicted (red)", fontsize=9)
    fig.tight_layout()
    return fig


def rf_spectrum_figure() -> Any:
    from fltheory.claims.rf_spectrum import spectrum_sample

    return draw_rf_spectrum([spectrum_sample("tanh", 4, 1000, 0),
                             spectrum_sample("tanh(z + 1/2)", 4, 1000, 0)])
