"""Views of the sample-complexity paper: the catalogue table and the slope figure.

Each builder asks the theory or the runs for its numbers and hands them to
:mod:`fltheory.render`; nothing is computed here. Declared in :mod:`fltheory.papers.samples`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fltheory.render.latex import latex_code
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.results import Table

__all__ = ["NOTEBOOK", "SAMPLES_TABLE_LINKS", "samples_figure", "samples_table"]

#: the catalogue of the table: Hermite links, relu, |z|, sign, z² sign(z), z e^{−z²/2}, and
#: |z| e^{−z²/2}, whose generative exponent is 4 (even, and E[He_2(z) | y] = 0: on each level
#: set {±u, ±s}, u e^{−u²/2} = s e^{−s²/2}, the weights φ(z) He_2(z)/|g'(z)| are ∓1/√(2π))
SAMPLES_TABLE_LINKS = ("He1", "He2", "He3", "He4", "He5", "He6", "relu", "abs", "sign",
                       "z**2*sign(z)", "z*exp(-z**2/2)", "abs(z)*exp(-z**2/2)")

_COLUMNS = ("online SGD", "smoothed online SGD", "SQ / low-degree bound", "batch-reusing GD")


@view_params(
    links=ViewParam("strs", "Links g(z), catalogue names or expressions (the grammar of "
                            "fltheory exponent)."),
    kmax=ViewParam("int", "Degree up to which the exponents are looked for.", 1, 24),
)
def samples_table(links: Sequence[str] = SAMPLES_TABLE_LINKS, kmax: int = 8) -> Table:
    """Information exponent k, generative exponent k* (Hermite engine, examined up to kmax,
    decided at 20 digits) and the sample orders of online SGD (d^{k−1}, d log d, d), smoothed
    online SGD (d^{k/2}), the SQ/low-degree bound (d^{max(k*/2, 1)}) and GD reusing its batch
    (d^{max(k*−1, 1)} up to polylog d, Lee, Oko, Suzuki & Wu 2024) for each link, as in
    ``fltheory samples``.

    Parameters
    ----------
    links
        Links g(z) (default: He1 … He6, relu, abs, sign, z² sign(z), z e^{−z²/2} and
        |z| e^{−z²/2}, generative exponent 4).
    kmax
        Degree up to which both exponents are looked for (default 8).
    """
    from fltheory.papers.samples.params import Link
    from fltheory.papers.samples.theory import link_table

    rows, latex_rows = [], []
    for i, g in enumerate(links):
        progress(f"{g} ({i + 1}/{len(links)})")
        t = link_table(Link(g, 0, kmax, 20))
        cells = [t.row(a) for a in _COLUMNS]
        rows.append([g, str(t.information), str(t.generative),
                     *("open" if r.scale is None else r.scale.text() for r in cells)])
        latex_rows.append([r"\texttt{" + latex_code(g) + "}", f"${t.information}$",
                           f"${t.generative}$",
                           *("open" if r.scale is None else r.scale.latex() for r in cells)])
    return Table(
        columns=["g", "k", "k*", *_COLUMNS],
        rows=rows,
        latex_columns=["$g$", "$k$", "$k^*$", "online SGD", "smoothed SGD", "SQ bound",
                       "batch reuse"],
        latex_rows=latex_rows,
        caption=("Samples n (order in d) to recover w* for y = g(w*·x): information exponent k, "
                 f"generative exponent k* (examined up to k = {kmax}); online SGD: Ben Arous, "
                 "Gheissari & Jagannath 2021; smoothed: Damian, Nichani, Ge & Lee 2023; SQ "
                 "bound: Damian, Pillaud-Vivien, Lee & Bruna 2024; batch reuse: Dandi et al. "
                 "2024, Lee et al. 2024, Arnaboldi et al. 2024 (d^{max(k*−1, 1)} up to polylog d, Lee "
                 "et al.; above the SQ order for k* >= 3)."),
        latex_caption=(r"Samples $n$ (order in $d$) to recover $w^*$ for $y = g(w^*\cdot x)$: "
                       r"information exponent $k$, generative exponent $k^*$ (examined up to "
                       rf"$k = {kmax}$); online SGD: Ben Arous, Gheissari \& Jagannath 2021; "
                       r"smoothed: Damian, Nichani, Ge \& Lee 2023; SQ bound: Damian, "
                       r"Pillaud-Vivien, Lee \& Bruna 2024; batch reuse: Dandi et al.\ 2024, "
                       r"Lee et al.\ 2024, Arnaboldi et al.\ 2024 ($d^{\max(k^*-1, 1)}$ up to "
                       r"polylog $d$, Lee et al.; above the SQ order for $k^* \ge 3$)."),
        label="tab:samples",
        align="lcccccc",
    )


@view_params(
    seed=ViewParam("int", "Seed of the simulations.", 0, 2**31 - 1),
)
def samples_figure(seed: int = 0) -> Any:
    """log median n (samples to overlap 1/2) against log d for online SGD with the links h_1,
    h_2, h_3 (the claims' runs at size small), each with the table's law (d, d log d, d²)
    drawn through the data's mean.

    Parameters
    ----------
    seed
        Seed of the simulations (default 0, the claims' CI seed).
    """
    import math

    import numpy as np

    from fltheory.papers.samples.params import SLOPE_SIZES, SlopeSizes
    from fltheory.papers.samples.runs import medians, slope_runs
    from fltheory.papers.samples.theory import online_sgd_scale
    from fltheory.render.plots import pyplot

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for k in (1, 2, 3):
        progress(f"online SGD, h_{k}")
        x, y, se = medians(slope_runs(SlopeSizes(**SLOPE_SIZES[k]["small"]), seed))
        finite = np.isfinite(se)
        ax.errorbar(x, y, yerr=np.where(finite, se, 0), fmt="o", label=f"h_{k} (measured)")
        scale = online_sgd_scale(k)
        # log of d^p (log d)^q, through the data's mean
        law = float(scale.power) * x + scale.log_power * np.log(x)
        ax.plot(x, y.mean() + law - law.mean(), "--", color=ax.lines[-1].get_color(),
                label=f"n ∝ {scale.text()}")
    ax.set_xlabel("log d")
    ax.set_ylabel("log median n (samples to overlap 1/2)")
    ax.set_title("Online SGD: samples against dimension")
    ax.legend(fontsize=7)
    ax.set_xlim(math.log(24), math.log(1400))
    fig.tight_layout()
    return fig


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", """# From exponents to sample complexity

Single index: $y = g(\\langle w^*, x\\rangle) + \\varepsilon$, $x \\sim N(0, I_d)$. The Hermite
engine gives the information exponent $k$ (first $\\mu_k = E[g h_k] \\ne 0$) and the generative
exponent $k^*$ (first $k$ with $E[h_k(z) \\mid y] \\ne 0$); each algorithm's sample order
follows from one of them, as its source states it (online SGD $d^{\\max(k-1,1)}$, $d \\log d$ at
$k = 2$; smoothed SGD and the CSQ bound $d^{k/2}$; the SQ / low-degree bound and the
partial-trace estimator $d^{\\max(k^*/2, 1)}$; batch reuse $d^{\\max(k^*-1, 1)}$ up to polylog;
any estimator $d$). Multi-index: the leap of a polynomial target (Abbe, Boix-Adserà &
Misiakiewicz 2023) and its generative leap (Damian, Lee & Bruna 2025), exactly from its Hermite
support. The figure: online SGD simulated on the sphere, samples to overlap 1/2 against $d$."""),
    ("code", """from fltheory.papers.samples.theory import sample_table

t = sample_table("He3", kmax=6)
print(t.information, t.generative)
t"""),
    ("markdown", """## A link with generative exponent 4

$g(z) = |z| e^{-z^2/2}$ is even, and on each level set $\\{\\pm u, \\pm s\\}$
($u e^{-u^2/2} = s e^{-s^2/2}$) the weights $\\varphi(z) \\mathrm{He}_2(z)/|g'(z)|$ are
$\\mp 1/\\sqrt{2\\pi}$: $E[\\mathrm{He}_2(z) \\mid y] = 0$, so no label transformation
reaches below degree 4. Every algorithm row moves up: SQ $d^2$, batch reuse $d^3$."""),
    ("code", """g4 = sample_table("abs(z)*exp(-z**2/2)", kmax=6)
[(r.algorithm, r.scale.text() if r.scale else "open", r.note) for r in g4.rows]"""),
    ("code", """from fltheory.papers.samples.views import samples_table

samples_table()"""),
    ("markdown", """## Multi-index targets: leap and generative leap

The leap is for the coordinates the target is written in (the rotation minimum is not
computed); `directions` states them explicitly and is refused unless exactly orthonormal. The
generative leap is rotation invariant; it is exact when the chain of sign symmetries and
Hermite coefficients of $f^m$ closes, otherwise bounds with the reason."""),
    ("code", """from fltheory.papers.samples.theory import leap

for target in ["z1 + z1*z2 + z1*z2*z3", "z1*z2*z3", "z1 + z2*z3*z4", "He3(z1) + He3(z2)"]:
    L = leap(target)
    print(f"{target:24s} leap {L.value}, online SGD d^{L.sgd_power}; generative leap: "
          f"{L.generative_reason}")"""),
    ("code", """L = leap("z1 + z2*z3*z4", directions="1,0,0,0,0; 0,3/5,4/5,0,0; 0,-4/5,3/5,0,0; 0,0,0,1,0")
for s in L.stages:
    print(f"new degree {s.increment}:", "; ".join(
        "(" + ", ".join(map(str, L.directions[j - 1])) + ")" for j in s.coordinates))"""),
    ("markdown", """## The slopes, simulated

Median samples to overlap 1/2 for online SGD (exact three-number reduction of the
$d$-dimensional algorithm), links $h_1, h_2, h_3$, at the claims' CI sizes; dashed: the table's
law through the data. `fltheory verify samples` turns these into the claims' verdicts."""),
    ("code", """from fltheory.papers.samples.views import samples_figure

fig = samples_figure()"""),
]
