"""Views of the sample-complexity paper: the catalogue table and the slope figure.

Each builder asks the theory or the claims for its numbers and hands them to
:mod:`fltheory.render`; nothing is computed here. Declared in :mod:`fltheory.papers.samples`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fltheory.render.latex import latex_code
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.results import Table

__all__ = ["SAMPLES_TABLE_LINKS", "samples_figure", "samples_table"]

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
    from fltheory.papers.samples.complexity import sample_table

    rows, latex_rows = [], []
    for i, g in enumerate(links):
        progress(f"{g} ({i + 1}/{len(links)})")
        t = sample_table(g, 0, kmax, 20)
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

    from fltheory.papers.samples.claims import CLAIMS, _medians, slope_runs
    from fltheory.papers.samples.complexity import online_sgd_scale
    from fltheory.render.plots import pyplot

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for claim in CLAIMS[:3]:
        params = claim.sizes["small"]
        k = params["k"]
        progress(f"online SGD, h_{k}")
        x, y, se = _medians(slope_runs(params, seed))
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
