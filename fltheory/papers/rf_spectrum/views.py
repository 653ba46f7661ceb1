"""Views of the random-feature spectrum for any activation: the table of the levels
λ_{l,j}(d) for a catalogue of activations, the large-d approach table, and the figure of a
predicted spectrum against a simulation for a non-homogeneous σ.

Each builder asks the theory (:mod:`fltheory.papers.rf_spectrum.theory`) or the runs for its
numbers and hands them to :mod:`fltheory.render`; nothing is computed here. Declared in
:mod:`fltheory.papers.rf_spectrum`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fltheory.render.latex import latex_code
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.render.plots import pyplot
from fltheory.results import Table

__all__ = ["LARGE_D_CASES", "LARGE_D_VALUES", "RF_CATALOGUE", "RF_DIGITS", "RF_DIMENSIONS",
           "RF_LEVELS", "draw_rf_spectrum", "rf_large_d_table", "rf_levels_table",
           "rf_spectrum_figure"]

#: activations of the levels table (catalogue names of ``fltheory hermite``)
RF_CATALOGUE = ("relu", "abs", "quadratic", "z**3 + z", "erf", "tanh")
#: dimensions of the levels table (theory.rf_spectrum's Nyström route confirms the 6 digits shown
#: for erf and tanh from d = 10 on; sigmoid is left out: its λ_{0,1} is not confirmed)
RF_DIMENSIONS = (10, 100, 1000)
#: digits shown (and asked of the theory)
RF_DIGITS = 6
#: the levels (l, j) shown
RF_LEVELS = ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (3, 0))
#: dimensions of the large-d table
LARGE_D_VALUES = (10, 100, 10**4, 10**6)
#: (σ, l, digits) rows of the large-d table: a smooth σ (numeric route: 6 digits are confirmed
#: from d = 10 on) and homogeneous ones (exact routes: 15 digits)
LARGE_D_CASES = (("tanh", 1, 6), ("relu", 0, 15), ("relu", 2, 15), ("quadratic", 0, 15))


def _num(x: Any, digits: int) -> str:
    """An mpmath number at ``digits`` significant digits; an exact zero as "0"; None as "-"."""
    import mpmath

    return "-" if x is None else "0" if x == 0 else str(mpmath.nstr(x, digits))


def _gap(gap: Any, digits: int) -> str:
    """λ/limit − 1 from values good to ``digits`` digits: the digits it keeps (at most 3), or
    a bound when it is below their resolution."""
    import math

    if gap is None:
        return "-"
    if gap == 0:
        return "0"
    keep = digits - 1 + math.floor(math.log10(abs(float(gap))))
    if keep < 1:
        return f"|·| < 1e-{digits - 1}"
    return _num(gap, min(3, keep))


@view_params(
    sigma=ViewParam("strs", "Activations σ, catalogue names or expressions in z."),
    d=ViewParam("ints", "Input dimensions.", 2, 10**6),
)
def rf_levels_table(sigma: Sequence[str] = RF_CATALOGUE,
                    d: Sequence[int] = RF_DIMENSIONS) -> Table:
    """The m → ∞ eigenvalues λ_{l,j}(d) of the random-feature Fisher/Gram matrix
    J = (1/m)[E_x σ(w_i·x)σ(w_j·x)], w ~ N(0, I_d/d), for (l, j) in (0,0), (0,1), (1,0), (1,1),
    (2,0), (3,0), and the trace E_w K(w, w), 6 significant digits
    (:func:`fltheory.papers.rf_spectrum.theory.spectrum`; generalising the ReLU Fisher
    paper to any σ).

    Parameters
    ----------
    sigma
        Activations (default relu, abs, quadratic, z**3 + z, erf, tanh).
    d
        Dimensions, one row per (σ, d) (default 10, 100, 1000).
    """
    from fltheory.papers.rf_spectrum.theory import spectrum

    rows = []
    for i, name in enumerate(sigma):
        progress(f"σ = {name} ({i + 1}/{len(sigma)})")
        for dim in d:
            spec = spectrum(name, dim, 1, 3, 1, RF_DIGITS)
            rows.append([name, str(dim)] + [_num(spec.eigenvalue(l, j), RF_DIGITS)
                                           for l, j in RF_LEVELS]
                        + [_num(spec.trace, RF_DIGITS)])
    return Table(
        columns=["σ", "d"] + [f"λ({l},{j})" for l, j in RF_LEVELS] + ["trace"],
        rows=rows,
        latex_columns=[r"$\sigma$", "$d$"] + [rf"$\lambda_{{{l},{j}}}$" for l, j in RF_LEVELS]
        + [r"$E\,K(w,w)$"],
        # σ as typed (z**3 + z), not as maths: the column names the expression the user passes
        latex_rows=[[latex_code(row[0]), *row[1:]] for row in rows],
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


@view_params(d=ViewParam("ints", "Input dimensions.", 2, 10**9))
def rf_large_d_table(d: Sequence[int] = LARGE_D_VALUES) -> Table:
    """Approach of the leading radial level λ_{l,0}(d) to its rank-one large-d form
    c_{l,l}(d) μ_l(s)² (s = 1), and of λ_{l,1}/λ_{l,0} to 0, for tanh (l = 1, 6 digits), relu
    (l = 0, 2) and z² (l = 0) (15 digits) (:func:`fltheory.papers.rf_spectrum.theory.large_d_approach`).

    Parameters
    ----------
    d
        Dimensions (default 10, 100, 10⁴, 10⁶).
    """
    from fltheory.papers.rf_spectrum.theory import large_d_approach

    rows = []
    for sigma, l, digits in LARGE_D_CASES:
        progress(f"σ = {sigma}, l = {l}")
        for dim, lam0, limit, gap, ratio in large_d_approach(sigma, l, tuple(d), 1,
                                                             digits).rows:
            rows.append([sigma, str(l), str(dim), _num(lam0, RF_DIGITS), _num(limit, RF_DIGITS),
                         _gap(gap, digits), _num(ratio, 3)])
    return Table(
        columns=["σ", "l", "d", "λ_{l,0}(d)", "c_{l,l}(d) μ_l(s)²", "λ/limit − 1",
                 "λ_{l,1}/λ_{l,0}"],
        rows=rows,
        latex_columns=[r"$\sigma$", "$l$", "$d$", r"$\lambda_{l,0}(d)$",
                       r"$c_{l,l}(d)\,\mu_l(s)^2$", r"$\lambda/\mathrm{limit} - 1$",
                       r"$\lambda_{l,1}/\lambda_{l,0}$"],
        caption=("Approach of the leading radial level λ_{l,0}(d) to its rank-one large-d "
                 "form c_{l,l}(d) μ_l(s)² (s = 1), and of λ_{l,1}/λ_{l,0} to 0."),
        latex_caption=(r"Approach of the leading radial level $\lambda_{l,0}(d)$ to its "
                       r"rank-one large-$d$ form $c_{l,l}(d)\,\mu_l(s)^2$ ($s = 1$), and of "
                       r"$\lambda_{l,1}/\lambda_{l,0}$ to 0 (homogeneous $\sigma$: rank one "
                       r"at every $d$)."),
        label="tab:rf-large-d",
        align="llrrrrr",
    )


def draw_rf_spectrum(samples: list[Mapping[str, Any]]) -> Any:
    """One panel per sample: the simulated eigenvalues of J (log scale) with the predicted
    levels λ_{l,j} as horizontal bars of length N(d, l), in their predicted order. Levels below
    10⁻³ of the largest eigenvalue are not drawn: at the sizes drawn they lie in the finite-m
    bulk, among levels of degree l > lmax that were not computed.

    Each sample is what :func:`fltheory.papers.rf_spectrum.runs.spectrum_sample` returns: ``sigma``,
    ``d``, ``m``, ``scale``, ``eigenvalues`` (a numpy array, descending) and ``levels``
    ((l, j, λ, N(d, l)) tuples). Returns the matplotlib figure.
    """
    import numpy as np

    plt = pyplot()
    fig, axes = plt.subplots(1, len(samples), figsize=(6.5 * len(samples), 4), squeeze=False)
    for ax, spec in zip(axes[0], samples, strict=True):
        eig = np.asarray(spec["eigenvalues"])
        positive = eig[eig > 1e-12 * eig[0]]
        ax.loglog(np.arange(1, len(positive) + 1), positive, ".", ms=3, label="simulated")
        start = 0
        for l, j, value, mult in sorted(spec["levels"], key=lambda t: -t[2]):
            if value < 1e-3 * eig[0] or start >= len(positive):
                continue
            ax.hlines(value, start + 0.7, start + mult + 0.3, colors="C3", lw=2)
            ax.annotate(f"({l},{j}) ×{mult}", (start + mult + 0.3, value),
                        textcoords="offset points", xytext=(4, 2), fontsize=7, color="C3")
            start += mult
        ax.set_xlabel("eigenvalue index")
        ax.set_ylabel("eigenvalue of J")
        ax.set_title(f"σ = {spec['sigma']}, d = {spec['d']}, m = {spec['m']}, "
                     f"s = {spec['scale']}: predicted λ_(l,j) ×N(d,l) in red", fontsize=8)
    fig.tight_layout()
    return fig


@view_params(
    sigma=ViewParam("strs", "Activations σ, one panel each."),
    d=ViewParam("int", "Input dimension.", 2, 1000),
    m=ViewParam("int", "Random features.", 2, 8000),
    seed=ViewParam("int", "Seed of the simulations.", 0, 2**63 - 1),
)
def rf_spectrum_figure(sigma: Sequence[str] = ("tanh", "tanh(z + 1/2)"), d: int = 6,
                       m: int = 1000, seed: int = 0) -> Any:
    """A simulated random-feature spectrum against the predicted levels λ_{l,j} (l <= 3,
    j <= 1) with their multiplicities N(d, l), one panel per σ (see :func:`draw_rf_spectrum`).
    The default pairs an odd σ (tanh: odd l only) with one neither homogeneous nor odd
    (tanh(z + 1/2): every l and j >= 1); at d = 6 the theory confirms their levels to 5 digits.

    Parameters
    ----------
    sigma
        Activations, one panel each (default tanh, tanh(z + 1/2)).
    d
        Input dimension (default 6).
    m
        Random features (default 1000).
    seed
        Seed of the simulations (default 0).
    """
    from fltheory.papers.rf_spectrum.runs import spectrum_sample

    samples: list[Mapping[str, Any]] = []
    for i, name in enumerate(sigma):
        progress(f"σ = {name}: sample of J at d = {d}, m = {m} and its levels "
                 f"({i + 1}/{len(sigma)})")
        samples.append(spectrum_sample(name, d, m, seed, 1, 3, 1))
    return draw_rf_spectrum(samples)
