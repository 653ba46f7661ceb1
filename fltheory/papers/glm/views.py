"""What the GLM paper shows: the table of thresholds for a catalogue of priors × channels, the
figure of the error against α with GAMP's points and the thresholds, the notebook's cells. It
presents; the numbers come from :mod:`fltheory.papers.glm.theory` and the runs."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fltheory.papers.glm.params import Channel, gauss_bernoulli, gaussian, rademacher
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.results import Table

__all__ = ["ERM_ALPHAS", "NOTEBOOK", "catalogue", "error_figure",
           "thresholds_table"]

def catalogue(K: Fraction) -> tuple[tuple[str, Any, Channel], ...]:
    """The priors × channels of the table (names as the command takes them), the doors of half
    width K."""
    return (
        ("rademacher", rademacher, Channel("sign")),
        ("rademacher", rademacher, Channel("door", K=K)),
        ("rademacher", rademacher, Channel("abs")),
        ("gaussian", gaussian, Channel("square")),
        ("gaussian", gaussian, Channel("relu")),
        ("gaussian", gaussian, Channel("door", K=K)),
        ("gauss-bernoulli(1/2)", lambda: gauss_bernoulli("1/2"), Channel("linear")),
    )


def _cell(ans: Any, name: str) -> tuple[str, str]:
    for n, val, kind, _qb, _qa, exact in ans.items:
        if n == name:
            text = val.text() if not exact or exact == val.text() else \
                (exact if len(exact) <= 6 else val.text())
            return text, kind
    return "—", ""


@view_params(K=ViewParam("rational", "Half width K of the door channels (0.674: balanced "
                            "labels).", 0, 100, low_open=True))
def thresholds_table(K: Fraction = Fraction(337, 500)) -> Table:
    """α_WR, α_IT and α_alg of a catalogue of priors × channels, each with its kind; digits
    confirmed by two quadrature resolutions (exact values where a closed form exists).

    Parameters
    ----------
    K
        Half width of the door channels sign(|z| − K) (default 337/500 = 0.674).
    """
    from fltheory.papers.glm.theory import thresholds

    rows, latex = [], []
    cat = catalogue(Fraction(K))
    for i, (name, make, ch) in enumerate(cat):
        progress(f"{name} × {ch} ({i + 1}/{len(cat)})")
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


#: the sample ratios of the ERM curves of the figure (logistic and hinge cost ~0.5 s each)
ERM_ALPHAS = tuple(Fraction(x) for x in ("1/4", "1/2", "1", "3/2", "2", "3", "4", "6"))
@view_params(d=ViewParam("int", "Dimension of the GAMP runs.", 50, 4000),
             seeds=ViewParam("int", "Instances per α.", 1, 20),
             seed=ViewParam("int", "Seed of the simulations.", 0, 2**63 - 1),
             erm_alphas=ViewParam("rationals", "Sample ratios of the ERM curves (panels b, c; "
                                  "at most 200).", 0, 50, low_open=True))
def error_figure(d: int = 600, seeds: int = 2, seed: int = 0,
                 erm_alphas: Sequence[Any] = ERM_ALPHAS) -> Any:
    """(a) The binary perceptron (Rademacher prior, sign channel): the Bayes-optimal and AMP
    generalisation errors against α, GAMP's test errors at d (mean of ``seeds`` instances)
    and the thresholds α_IT and α_alg marked. (b) A Gaussian teacher with sign labels: the
    Bayes-optimal error (AMP reaches it at every α: no threshold) and the errors of ridge,
    logistic and hinge regression at the optimal λ (ŵ = argmin Σ ℓ + ½λ|w|², λ minimising
    each error; with the ℓ2 penalty the teacher's prior enters only through ρ = 1, so the ERM
    curves are also those of the Rademacher teacher of (a)). (c) Their excess over the Bayes
    error, on a log scale.

    Parameters
    ----------
    d
        Dimension of the GAMP runs (default 600, at most 4000).
    seeds
        Instances per α (default 2).
    seed
        Seed of the simulations (default 0).
    erm_alphas
        Sample ratios of the ERM curves of panels (b) and (c), at most 200, each in (0, 50]
        (default 1/4, 1/2, 1, 3/2, 2, 3, 4, 6; logistic costs ~0.5 s of CPU each).
    """
    from fltheory.papers.glm.params import Alphas

    alphas = sorted(float(a) for a in Alphas(erm_alphas).values)  # at most 200, first
    import numpy as np

    from fltheory.papers.glm.erm import erm_curve
    from fltheory.papers.glm.params import AmpRun
    from fltheory.papers.glm.runs import amp_side
    from fltheory.papers.glm.theory import point, thresholds
    from fltheory.render.plots import pyplot

    prior, ch = rademacher(), Channel("sign")
    grid = np.linspace(0.1, 2.0, 40)
    pts = [point(prior, ch, float(a)) for a in grid]
    th = thresholds(prior, ch)
    plt = pyplot()
    fig, (ax, bx, cx) = plt.subplots(1, 3, figsize=(14, 3.9))
    ax.plot(grid, [p.bayes_error.value for p in pts], label="Bayes-optimal")
    ax.plot(grid, [p.amp_error.value for p in pts], "--", label="AMP (state evolution)")
    sim_a = (0.5, 1.0, 1.3, 1.8)
    sims = []
    for i, a in enumerate(sim_a):
        progress(f"GAMP α = {a} ({i + 1}/{len(sim_a)}), d = {d}")
        sims.append(amp_side(prior, ch, AmpRun(d, a, 80, 1000 * seed), seeds))
    ax.errorbar(sim_a, [np.mean(s.errors) for s in sims],
                yerr=[np.std(s.errors, ddof=1) / np.sqrt(seeds) if seeds > 1 else 0.0
                      for s in sims], fmt="o", label=f"GAMP, d = {d}")
    for name, ls in (("IT", ":"), ("alg", "-.")):
        v = th.get(name)
        if v is not None:
            ax.axvline(v.value, ls=ls, c="grey")
            ax.text(v.value, 0.97, f" α_{name}", fontsize=8, va="top",
                    transform=ax.get_xaxis_transform())
    ax.set_xlabel("α = n/d")
    ax.set_ylabel("generalisation error")
    ax.set_title("(a) binary perceptron: Rademacher teacher", fontsize=10)
    ax.legend(fontsize=8)

    # (b), (c): a Gaussian teacher, the ERM curves at the optimal λ
    gauss = gaussian()
    fine = np.linspace(min(alphas), max(alphas), 60)
    bayes = [point(gauss, ch, float(a)).bayes_error.value for a in fine]
    bayes_at = [point(gauss, ch, a).bayes_error.value for a in alphas]
    bx.plot(fine, bayes, c="k", label="Bayes-optimal (= AMP)")
    for loss, style in (("logistic", "o-"), ("hinge", "s-"), ("ridge", "^-")):
        progress(f"{loss} at the optimal λ, {len(alphas)} values of α")
        curve = erm_curve(gauss, ch, tuple(alphas), loss)
        ok = [(a, r.error.value, r.error.value - b)
              for a, r, b in zip(alphas, curve, bayes_at, strict=True) if not isinstance(r, str)]
        xs, errs, excess = (list(c) for c in zip(*ok, strict=True)) if ok else ([], [], [])
        bx.plot(xs, errs, style, ms=3, label=loss)
        cx.semilogy(xs, excess, style, ms=3, label=loss)
    bx.set_xlabel("α = n/d")
    bx.set_ylabel("generalisation error")
    bx.set_title("(b) Gaussian teacher, sign labels", fontsize=10)
    bx.legend(fontsize=8, title="ERM: argmin Σℓ + ½λ|w|²,\nλ minimising each error",
              title_fontsize=8)
    cx.set_xlabel("α = n/d")
    cx.set_ylabel("error − Bayes-optimal error")
    cx.set_title("(c) how far ERM is from Bayes-optimal", fontsize=10)
    cx.legend(fontsize=8, title="at the optimal λ", title_fontsize=8)
    fig.tight_layout()
    return fig


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", """# Bayes-optimal generalised linear models

A teacher $y = \\varphi(w^*\\cdot x/\\sqrt d)$ with $w^*$ drawn from a prior, $n = \\alpha d$
samples: the replica formula of Barbier, Krzakala, Macris, Miolane & Zdeborová (PNAS 2019)
gives the Bayes-optimal errors, and its state evolution the performance of AMP. fltheory
locates the thresholds on the curve of fixed points $\\alpha = A(\\hat q)$ by root finding and
prints only the digits that two quadrature resolutions confirm."""),
    ("code", """from fltheory.papers.glm import thresholds, point
from fltheory.papers.glm.params import Channel, gaussian, rademacher

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
    ("markdown", """## How far is logistic regression from Bayes-optimal?

One command answers it for sign labels of a Gaussian teacher, at the λ that minimises each
loss's error (ŵ = argmin Σ ℓ + ½λ|w|², the proportional limit of Aubin, Krzakala, Lu &
Zdeborová 2020):

    fltheory glm --prior gaussian --channel sign --alpha 1/2,1,2,4 --erm logistic,hinge,ridge

The same run through the API (the sample ratios are a curve: each α is seeded by the one
before), printed as the command's table: each error and λ to the digits two quadrature
resolutions (and, for λ, the flatness of the minimum) confirm."""),
    ("code", """from fltheory.papers.glm import glm_run
from fltheory.papers.glm.params import Erm

alphas = (0.5, 1.0, 2.0, 4.0)
run = glm_run(gaussian(), Channel("sign"), alphas, erm=Erm("logistic,hinge,ridge"))
print(f"{'α':>4}  {'Bayes':>15}" + "".join(f"  {loss:>15} {'λ':>9} {'excess':>9}"
                                          for loss in ("logistic", "hinge", "ridge")))
for a, p, answers in zip(alphas, run.points, run.erm):
    cells = "".join(f"  {r.error.text():>15} {r.lam.text():>9} "
                    f"{r.error.value - p.bayes_error.value:9.2e}" for r in answers)
    print(f"{a:4g}  {p.bayes_error.text():>15}" + cells)"""),
    ("markdown", """In this table logistic regression at its optimal λ is within 10⁻⁴ of the Bayes-optimal
error (the command with `--alpha 1/2,1,3/2,...,10` gives between 1.1·10⁻⁵ and 5.5·10⁻⁵ on that
range, as Aubin et al. report); the hinge loss and ridge are about 10⁻² away from α = 2 on, and
ridge's distance grows with α (its optimal λ is π/2 − 1 at every α)."""),
    ("markdown", """## The figure: errors along α

(a) the binary perceptron with GAMP's points and its thresholds; (b) ridge, logistic and hinge
regression at their optimal λ beside the Bayes-optimal error of a Gaussian teacher with sign
labels; (c) their excess over it, on a log scale."""),
    ("code", """from fltheory.papers.glm.views import error_figure

fig = error_figure(d=600, seeds=2)"""),
]
