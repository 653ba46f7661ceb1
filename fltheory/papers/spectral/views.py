"""Views of the spectral-threshold kit: the table of α_c and T* for a catalogue of links and the
figure of the BBP overlap against θ with simulation points.

Each builder asks the theory or the runs for its numbers and hands them to
:mod:`fltheory.render`; nothing is computed here. Declared in :mod:`fltheory.papers.spectral`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fltheory.render.latex import latex_code, latex_escape
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.results import Table

if TYPE_CHECKING:
    from fltheory.engine.spectral.links import LinkAnswer

__all__ = ["link_cells", "links_table", "overlap_figure"]


def link_cells(answer: LinkAnswer, digits: int) -> tuple[list[str], list[str]]:
    """The cells α_c, T*(y), how of one link's answer (a
    :class:`~fltheory.engine.spectral.links.LinkAnswer`), plain and LaTeX; a quadrature's α_c
    to at most ``digits`` significant digits (and never more than it confirmed). Shared by the
    table and by ``fltheory link``."""
    import mpmath

    if answer.linear and answer.spectral_alpha_c is not None:
        # the linear estimator's α_c = 0 and the spectral estimator's own threshold
        spectral = _spectral_text(answer, digits)
        latex_alpha = ("$0$ (linear); " + ("$\\infty$" if spectral == "∞" else f"${spectral}$")
                       + " (spectral)")
        t_star = answer.optimal or "—"
        how = "E[z|y] ≠ 0; spectral " + ("exact" if answer.spectral_exact else "quadrature")
        return ([f"0 (linear); {spectral} (spectral)", t_star, how],
                [latex_alpha, "---" if t_star == "—" else r"\texttt{" + latex_code(t_star) + "}",
                 latex_escape(how)])
    if answer.linear:
        alpha, t_star, how = "0", "E[z|y] (linear)", "E[z|y] ≠ 0"
    elif answer.optimal is None:
        alpha, t_star, how = "∞", "—", "E[z²|y] = 1"
    else:
        alpha = (_exact_text(answer.alpha_c, digits) if answer.exact
                 else mpmath.nstr(answer.alpha_c, max(1, min(digits, answer.digits))))
        t_star = answer.optimal if answer.exact else "1 − 1/m(y)"
        how = "exact" if answer.exact else "quadrature"
    latex = ["$\\infty$" if alpha == "∞" else
             f"${alpha.split(' ≈ ')[1]}$ (closed form in the text output)" if " ≈ " in alpha
             else f"${alpha}$",
             "---" if t_star == "—" else r"\texttt{" + latex_code(t_star) + "}",
             latex_escape(how)]
    return [alpha, t_star, how], latex


def _spectral_text(answer: LinkAnswer, digits: int) -> str:
    """A linear link's spectral threshold: exact (a fraction as it is, anything else followed
    by its decimal), ∞, or a quadrature to its confirmed digits."""
    import mpmath

    value = answer.spectral_alpha_c
    if value == mpmath.inf:
        return "∞"
    if not answer.spectral_exact:
        return mpmath.nstr(value, max(1, min(digits, answer.spectral_digits)))
    return _exact_text(value, digits)


def _exact_text(value: Any, digits: int) -> str:
    """An exact value: a fraction as it is, a closed form followed by its decimal."""
    import mpmath

    if getattr(value, "is_Rational", True):
        return str(value)
    return f"{value} ≈ {mpmath.nstr(mpmath.mpf(value.evalf(digits + 5)), digits)}"


def _catalogue() -> tuple[str, ...]:
    from fltheory.papers.spectral.theory import LINK_CATALOGUE

    return LINK_CATALOGUE


@view_params(links=ViewParam("strs", "Links g(z), catalogue names or expressions (the grammar "
                                     "of fltheory hermite)."))
def links_table(links: Sequence[str] | None = None) -> Table:
    """The weak-recovery threshold α_c = 1/E[(E[z²|y] − 1)²] of spectral methods (Mondelli &
    Montanari 2018) and the optimal preprocessing T*(y) = 1 − 1/E[z²|y] (Luo, Alghamdi & Lu
    2019) for each link y = g(z); α_c = 0 where E[z|y] ≠ 0 (the linear estimator works at every
    α). Exact values as fractions, quadratures to 10 significant digits (computed at 15 and
    confirmed at two working precisions).

    Parameters
    ----------
    links
        Links g(z) (default: the catalogue z², |z|, He2, e^{−z²}, He4, z⁴ − 3z², z²(z² − 1)²,
        tanh, relu, He3).
    """
    from fltheory.papers.spectral.theory import link_rows

    chosen = tuple(links) if links is not None else _catalogue()
    rows, latex_rows = [], []
    for i, g in enumerate(chosen):
        progress(f"{g} ({i + 1}/{len(chosen)})")
        plain, latex = link_cells(link_rows((g,), 15)[0], 10)
        rows.append([g, *plain])
        latex_rows.append([r"\texttt{" + latex_code(g) + "}", *latex])
    return Table(
        columns=["g(z)", "α_c", "T*(y)", "how"],
        rows=rows,
        latex_columns=["$g(z)$", r"$\alpha_c$", r"$T^*(y)$", "how"],
        latex_rows=latex_rows,
        caption=("Weak-recovery threshold α_c (n/d) of spectral methods and the optimal "
                 "preprocessing T*(y) = 1 − 1/m(y), m(y) = E[z²|y], for y = g(z), z ~ N(0, 1)."),
        latex_caption=(r"Weak-recovery threshold $\alpha_c = 1/\operatorname{E}[(m(y)-1)^2]$ of "
                       r"spectral methods (Mondelli \& Montanari 2018) and the optimal "
                       r"preprocessing $T^*(y) = 1 - 1/m(y)$ (Luo, Alghamdi \& Lu 2019), "
                       r"$m(y) = \operatorname{E}[z^2 \mid y]$, $y = g(z)$, $z \sim N(0,1)$; "
                       r"$\alpha_c = 0$ where $\operatorname{E}[z \mid y] \neq 0$."),
        label="tab:spectral-links",
        align="llll",
    )


@view_params(
    thetas=ViewParam("rationals", "Spike strengths θ simulated.", 0),
    N=ViewParam("int", "Matrix size N.", 2, 4000),
    reps=ViewParam("int", "Matrices per θ.", 1, 100),
    seed=ViewParam("int", "Seed of the simulations.", 0, 2**63 - 1),
)
def overlap_figure(thetas: Sequence[Any] = (Fraction(5, 4), Fraction(3, 2), Fraction(2),
                                          Fraction(3)), N: int = 1000, reps: int = 4,
                   seed: int = 0) -> Any:
    """The BBP transition of a spiked Wigner matrix: the squared overlap 1 − 1/θ² (0 below
    θ_c = 1) against θ, with the mean ± standard error of ``reps`` sampled matrices of size N
    at each θ of ``thetas`` (:func:`fltheory.papers.spectral.runs.wigner_overlap`).

    Parameters
    ----------
    thetas
        Spike strengths θ simulated (default 5/4, 3/2, 2, 3).
    N
        Matrix size (default 1000, at most 4000).
    reps
        Matrices per θ (default 4).
    seed
        Seed of the simulations (default 0).
    """
    import numpy as np

    from fltheory.papers.spectral.runs import wigner_overlap
    from fltheory.papers.spectral.theory import semicircle_overlap_curve
    from fltheory.render.plots import pyplot

    plt = pyplot()
    grid = np.linspace(0.0, 3.5, 351)
    theory = semicircle_overlap_curve(grid)
    means, errs = [], []
    for i, th in enumerate(thetas):
        progress(f"θ = {th} ({i + 1}/{len(thetas)}), N = {N}")
        mean, err = wigner_overlap(float(th), N, reps, seed, i)
        means.append(mean)
        errs.append(err)
    fig, ax = plt.subplots(figsize=(5, 3.4))
    ax.plot(grid, theory, label="1 − 1/θ² (θ > 1), 0 below")
    ax.errorbar([float(t) for t in thetas], means, yerr=errs, fmt="o", label=f"simulation, N = {N}")
    ax.axvline(1.0, ls=":", c="grey")
    ax.set_xlabel("θ")
    ax.set_ylabel("⟨v₁, u⟩²")
    ax.set_title("spiked Wigner: BBP transition at θ = 1")
    ax.legend()
    fig.tight_layout()
    return fig


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", """# Spectral thresholds: BBP spikes for any bulk, weak recovery of links

A spiked random matrix has an outlier eigenvalue, and an eigenvector correlated with the spike,
only beyond a critical strength (the BBP transition). This notebook walks through fltheory's
shared kit `fltheory.engine.spectral` through its public API: the closed forms of the
semicircle and Marchenko–Pastur bulks, any bulk given by a density or by a sample of
eigenvalues, the rectangular (singular value) form, and — for single-index links
$y = g(z) + \\sigma\\varepsilon$ — the weak-recovery threshold $\\alpha_c$ of spectral methods,
the optimal preprocessing $T^*$ and the Lu–Li overlap curve."""),
    ("code", """from fractions import Fraction
import mpmath
from fltheory.papers.spectral import (Density, Link, MarchenkoPastur, Sample, Spikes,
                                      link_answer, link_overlaps, link_rows, spike_query)
from fltheory.engine.spectral.spikes import rectangular_spike

for s in spike_query(Spikes(theta=["3/2", "1/2", "-3"])):  # semicircle, exact
    print(s.strength, s.phase, s.outlier, s.overlap)
for s in spike_query(Spikes(ell=[3, "5/4"]), MarchenkoPastur("1/2")):  # exact surds
    print(s.strength, s.phase, s.threshold, s.outlier, s.overlap)"""),
    ("markdown", """## Any bulk: a density, or a sample of eigenvalues

A density on its support gives the Stieltjes transform by quadrature (digits confirmed at two
working precisions). A sample of eigenvalues gives the empirical transform: every value is then
an estimate with a standard error, printed to the digits the sample supports, and a strength too
close to the threshold is reported as `unresolved`."""),
    ("code", """semicircle = Density("sqrt(Max(4 - x**2, 0))/(2*pi)", "-2,2")
s = spike_query(Spikes(theta=["3/2"]), semicircle, dps=20)[0]
print(mpmath.nstr(s.outlier, s.digits), mpmath.nstr(s.overlap, s.digits), s.digits, "digits")

import numpy as np
rng = np.random.default_rng(0)
a = rng.standard_normal((1500, 1500))
goe = Sample(np.linalg.eigvalsh((a + a.T) / np.sqrt(2 * 1500)))  # a GOE spectrum
for s in spike_query(Spikes(theta=["2", "11/10", "1/2"]), goe):
    print(s.strength, s.phase, "|", s.reason)"""),
    ("markdown", """## Rectangular matrices and the figure

$X + \\theta u v^\\top$ with $X$ an $N \\times d$ Gaussian matrix (entries of variance $1/d$,
$c = N/d$): an outlier singular value iff $\\theta > c^{1/4}$ (Benaych-Georges & Nadakuditi
2012); this is the form the two-step paper's one-step overlap uses. The figure: the squared
overlap of a spiked Wigner matrix against $\\theta$, with sampled matrices."""),
    ("code", """r = rectangular_spike(Fraction(13, 10), Fraction(1, 2))
print(r.phase, r.singular2, r.left, r.right)"""),
    ("code", """from fltheory.papers.spectral.views import overlap_figure

fig = overlap_figure(N=600, reps=3)"""),
    ("markdown", """## Links: $\\alpha_c$, $T^*$ and the Lu–Li overlap

$\\alpha_c = 1/\\mathbb{E}[(\\mathbb{E}[z^2|y] - 1)^2]$ (Mondelli & Montanari 2018) when
$\\mathbb{E}[z|y] = 0$; $0$ when it is not (the linear estimator works at every $\\alpha$). With
label noise the threshold rises: phase retrieval $y = z^2 + \\sigma\\varepsilon$ needs more
samples than the noiseless $1/2$."""),
    ("code", """for r in link_rows(("z**2", "He4", "tanh")):
    print(r.g, r.alpha_c, r.optimal)
for sigma in ("1/3", "1", "3"):  # printed to the digits two resolutions confirm
    a = link_answer(Link("z**2", noise=sigma), 15)
    print("sigma =", sigma, "alpha_c =", mpmath.nstr(a.alpha_c, a.digits))"""),
    ("code", """curve = link_overlaps(Link("z**2", alphas="2/5,1/2,3/5,4/5,1,3/2,2,3"))
print([(str(o.alpha), round(o.rho2, 4)) for o in curve])"""),
]
