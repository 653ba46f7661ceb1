"""What the GLM paper shows: the table of thresholds for a catalogue of priors × channels, the
figure of the error against α with GAMP's points and the thresholds, the notebook's cells. It
presents; the numbers come from :mod:`fltheory.papers.glm.theory` and the runs."""

from __future__ import annotations

from typing import Any

from fltheory.papers.glm.params import Channel, gauss_bernoulli, gaussian, rademacher
from fltheory.results import Table

__all__ = ["CATALOGUE", "NOTEBOOK", "error_figure", "thresholds_table"]

#: the priors × channels of the table (names as the command takes them)
CATALOGUE = (
    ("rademacher", rademacher, Channel("sign")),
    ("rademacher", rademacher, Channel("door", K="0.674")),
    ("gaussian", gaussian, Channel("square")),
    ("gaussian", gaussian, Channel("relu")),
    ("gaussian", gaussian, Channel("door", K="0.674")),
    ("gauss-bernoulli(1/2)", lambda: gauss_bernoulli("1/2"), Channel("linear")),
)


def _cell(ans: Any, name: str) -> tuple[str, str]:
    for n, val, kind, _qb, _qa, exact in ans.items:
        if n == name:
            text = val.text() if not exact or exact == val.text() else \
                (exact if len(exact) <= 6 else val.text())
            return text, kind
    return "—", ""


def thresholds_table() -> Table:
    """α_WR, α_IT and α_alg of the catalogue, each with its kind; digits confirmed by two
    quadrature resolutions (exact values where a closed form exists)."""
    from fltheory.papers.glm.theory import thresholds

    rows, latex = [], []
    for name, make, ch in CATALOGUE:
        ans = thresholds(make(), ch)
        cells = [_cell(ans, n) for n in ("WR", "IT", "alg")]
        rows.append([name, str(ch)] + [f"{v} ({k})" if k else v for v, k in cells])
        latex.append([name, str(ch).replace("_", r"\_")]
                     + [f"${v}$ ({k})" if k else v for v, k in cells])
    return Table(columns=["prior", "channel", "α_WR", "α_IT", "α_alg"], rows=rows,
                 caption="Thresholds of Bayes-optimal GLMs (Barbier et al. 2019): weak "
                         "recovery, information-theoretic and algorithmic (AMP spinodal)",
                 label="tab:glm-thresholds",
                 latex_columns=["prior", "channel", r"$\alpha_{WR}$", r"$\alpha_{IT}$",
                                r"$\alpha_{alg}$"],
                 latex_rows=latex,
                 notes=["— : the threshold does not exist (α_WR = 0 when E[z|y] ≠ 0); digits "
                        "printed are those two quadrature resolutions agree on"])


def error_figure(d: int = 600, seeds: int = 2, seed: int = 0) -> Any:
    """The binary perceptron (Rademacher prior, sign channel): the Bayes-optimal and AMP
    generalisation errors against α, GAMP's test errors at d (mean of ``seeds`` instances)
    and the thresholds α_IT and α_alg marked."""
    import numpy as np

    from fltheory.papers.glm.params import AmpRun
    from fltheory.papers.glm.runs import amp_side
    from fltheory.papers.glm.theory import point, thresholds
    from fltheory.render.plots import pyplot

    prior, ch = rademacher(), Channel("sign")
    grid = np.linspace(0.1, 2.0, 40)
    pts = [point(prior, ch, float(a)) for a in grid]
    th = thresholds(prior, ch)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.2, 3.4))
    ax.plot(grid, [p.bayes_error.value for p in pts], label="Bayes-optimal")
    ax.plot(grid, [p.amp_error.value for p in pts], "--", label="AMP (state evolution)")
    sim_a = (0.5, 1.0, 1.3, 1.8)
    sims = [amp_side(prior, ch, AmpRun(d, a, 80, 1000 * seed), seeds) for a in sim_a]
    ax.errorbar(sim_a, [np.mean(s.errors) for s in sims],
                yerr=[np.std(s.errors, ddof=1) / np.sqrt(seeds) if seeds > 1 else 0.0
                      for s in sims], fmt="o", label=f"GAMP, d = {d}")
    for name, ls in (("IT", ":"), ("alg", "-.")):
        v = th.get(name)
        if v is not None:
            ax.axvline(v.value, ls=ls, c="grey")
            ax.text(v.value, 0.45, f" α_{name}", fontsize=8)
    ax.set_xlabel("α = n/d")
    ax.set_ylabel("generalisation error")
    ax.set_title("binary perceptron: Rademacher teacher, sign labels")
    ax.legend()
    fig.tight_layout()
    return fig


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", """# Bayes-optimal generalised linear models

A teacher $y = \\varphi(w^*\\cdot x/\\sqrt d)$ with $w^*$ drawn from a prior, $n = \\alpha d$
samples: the replica formula of Barbier, Krzakala, Macris, Miolane & Zdeborová (PNAS 2019)
gives the Bayes-optimal errors, and its state evolution the performance of AMP. fltheory
locates the thresholds on the curve of fixed points $\\alpha = A(\\hat q)$ by root finding and
prints only the digits that two quadrature resolutions confirm."""),
    ("code", """from fltheory.papers.glm import (Channel, gaussian, rademacher, thresholds, point,
                                 ridge_optimal)

t = thresholds(rademacher(), Channel("sign"))
for name, value, kind, q_below, q_above, exact in t.items:
    print(name, value.text(), kind, round(q_below, 4), "->", round(q_above, 4))"""),
    ("markdown", """## Phase retrieval with a Gaussian prior

Weak recovery at $\\alpha_{WR} = 1/2$ (the spectral threshold of Mondelli & Montanari),
perfect recovery information-theoretically at $\\alpha_{IT} = 1$, and by AMP only beyond the
spinodal $\\alpha_{alg} \\approx 1.128$."""),
    ("code", """t = thresholds(gaussian(), Channel("square"))
for name, value, kind, q_below, q_above, exact in t.items:
    print(name, exact or value.text(), kind)
p = point(gaussian(), Channel("square"), 1.05)
print("at alpha = 1.05: Bayes q =", p.bayes_q.text(), " AMP q =", p.amp_q.text())"""),
    ("markdown", """## Ridge regression beside Bayes

How far is the best ridge estimator from the Bayes-optimal error on sign labels of a
Gaussian teacher?"""),
    ("code", """for a in (0.5, 1.0, 2.0, 4.0):
    r = ridge_optimal(gaussian(), Channel("sign"), a)
    b = point(gaussian(), Channel("sign"), a)
    print(a, "ridge", round(r.error, 5), "(lambda", round(r.lam, 4), ") Bayes", b.bayes_error.text())"""),
    ("markdown", """## The figure: errors along α with GAMP's points"""),
    ("code", """from fltheory.papers.glm.views import error_figure

fig = error_figure(d=600, seeds=2)"""),
]
