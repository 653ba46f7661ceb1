"""Views of the soft-committee-machine paper (issue 16): table, figure, notebook.

Each builder asks the theory (:mod:`fltheory.theory.committee_plateau`) or the comparisons
(:mod:`fltheory.claims.committee`) for its numbers and hands them to :mod:`fltheory.render`;
nothing is computed here. Declared in :mod:`fltheory.papers.committee`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fltheory.exact import fraction_str
from fltheory.render.plots import pyplot
from fltheory.results import Table

__all__ = ["COMMITTEE_TABLE_CASES", "NOTEBOOK", "committee_figure", "committee_table",
           "draw_committee", "draw_plateau"]

#: (g, η, second layers, guess) of the table's rows, K = M = 2, T = I; x² with a = 1/K,
#: a* = 1/M is the quadratic module's normalisation. ReLU's plateau is found by Newton from the
#: guess (q, c, r) = (0.7, 0.4, 0.5): the analysis' default search (a long reduced
#: integration) is refused there as too stiff since committee-dyn's graded ReLU mesh; the
#: root, checked as a fixed point of the full ODE, is the one that search found before.
COMMITTEE_TABLE_CASES: tuple[tuple[str, Fraction, str | None, Any], ...] = (
    ("erf", Fraction(1, 10), None, None), ("erf", Fraction(1, 2), None, None),
    ("erf", Fraction(1), None, None), ("erf", Fraction(3, 2), None, None),
    ("relu", Fraction(1, 10), None, (0.7, 0.4, 0.5)), ("x**2", Fraction(1, 10), "mean", None))


def committee_table() -> Table:
    """Plateau heights and escape rates, K = M = 2, T = I, for a catalogue of activations."""
    from fltheory.theory.committee_equations import CommitteeModel
    from fltheory.theory.committee_plateau import symmetric_plateau

    rows = []
    for g, eta, layers, guess in COMMITTEE_TABLE_CASES:
        model = CommitteeModel(g, 2, 2, a="1/K" if layers else None,
                               a_star="1/M" if layers else None)
        p = symmetric_plateau(model, eta, guess=guess)
        rows.append([g, "1/K, 1/M" if layers else "1, 1", fraction_str(eta), f"{p.q:.5f}",
                     f"{p.c:.5f}", f"{p.r:.5f}", f"{p.eps_g:.5f}", str(len(p.unstable)),
                     f"{p.escape_rate:.5f}"])
    latex_names = {"erf": r"$\mathrm{erf}(x/\sqrt2)$", "relu": "ReLU", "x**2": "$x^2$"}
    return Table(
        columns=["g", "a, a*", "η", "q", "c", "r", "ε_g plateau", "unstable", "escape rate"],
        rows=rows,
        latex_rows=[[latex_names.get(r[0], r[0]), *r[1:]] for r in rows],
        latex_columns=["$g$", "$a$, $a^*$", r"$\eta$", "$q$", "$c$", "$r$",
                       r"$\epsilon_g^*$", "unstable", r"$\lambda_{\mathrm{esc}}$"],
        caption=("Soft committee machine, K = M = 2, T = I, online SGD: the unspecialised "
                 "plateau Q_kk = q, Q_kl = c, R = r (fixed point of the derived ODEs with their "
                 "η² terms), its ε_g, the number of unstable directions and the escape rate "
                 "(largest Jacobian eigenvalue). erf means erf(x/√2). tanh and sigmoid "
                 "(numeric averages, ~30 s CPU each at K = M = 2) are not in this table: "
                 "fltheory committee plateau --g tanh gives them with their errors."),
        latex_caption=(r"Soft committee machine, $K = M = 2$, $T = I$, online SGD: the "
                       r"unspecialised plateau $Q_{kk} = q$, $Q_{kl} = c$, $R = r$ (fixed point "
                       r"of the derived ODEs with their $\eta^2$ terms), its generalisation "
                       r"error, the number of unstable directions and the escape rate (largest "
                       r"Jacobian eigenvalue)."),
        label="tab:committee",
        align="llrrrrrrr",
    )


def draw_committee(data: dict[str, Any]) -> Any:
    """ε_g(t) of SGD (test set, solid) at each N and of the ODE from the same sampled start
    (dashed), one panel per (g, η) of :func:`fltheory.claims.committee.loss_curves`, with the
    plateau's ε_g dotted."""
    plt = pyplot()
    cases = data["cases"]
    fig, axes = plt.subplots(1, len(cases), figsize=(5.5 * len(cases), 4), squeeze=False)
    for ax, case in zip(axes[0], cases, strict=True):
        for i, c in enumerate(case["curves"]):
            ax.semilogy(c.t, c.sgd_eps, color=f"C{i}", alpha=0.7, label=f"SGD, N = {c.N}")
            ax.semilogy(c.t, c.ode_eps, color=f"C{i}", ls="--", lw=1)
        if case["plateau_eps"] is not None:
            ax.axhline(case["plateau_eps"], color="k", ls=":", lw=1, label="plateau ε_g*")
        ax.set_xlabel("t = steps / N")
        ax.set_ylabel("ε_g")
        ax.set_title(f"g = {case['g']}, K = {data['K']}, M = {data['M']}, "
                     f"η = {fraction_str(Fraction(case['eta']))} (dashed: ODE)", fontsize=9)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def committee_figure() -> Any:
    from fltheory.claims.committee import loss_curves

    return draw_committee(loss_curves((("erf", Fraction(3, 2)), ("relu", Fraction(1, 2))),
                                      Ns=(500, 2000), t_max=100))


def draw_plateau(run: Any, sgd: Any = None) -> Any:
    """The classic plateau figure: ε_g(t) of the ODE (:func:`fltheory.claims.committee.ode_run`)
    on a log scale with the symmetric plateau's ε_g, and optionally an SGD run against the ODE
    from its start (:func:`fltheory.claims.committee.compare_sgd_ode`) in a second panel."""
    plt = pyplot()
    fig, axes = plt.subplots(1, 1 if sgd is None else 2, figsize=(5.5 if sgd is None else 11, 4),
                             squeeze=False)
    tr = run.trajectory
    ax = axes[0][0]
    ax.semilogy(tr.t, tr.eps_g, color="C0", label="ODE")
    if run.plateau is not None:
        ax.axhline(run.plateau.eps_g, color="k", ls=":", lw=1, label="symmetric plateau")
    ax.set_xlabel("t = steps / N")
    ax.set_ylabel("ε_g")
    ax.set_title(f"{run.model}, η = {fraction_str(Fraction(run.eta))}", fontsize=9)
    ax.legend(fontsize=8)
    if sgd is not None:
        ax2 = axes[0][1]
        ax2.semilogy(sgd.t, sgd.sgd_eps, color="C3", label=f"SGD, N = {sgd.N} (test set)")
        ax2.semilogy(sgd.t, sgd.ode_eps, color="C0", ls="--", label="ODE, same start")
        ax2.set_xlabel("t = steps / N")
        ax2.set_ylabel("ε_g")
        ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", r"""# Online SGD in soft committee machines (Saad & Solla 1995)

Student $f(x) = \sum_k a_k g(w_k\cdot x/\sqrt N)$, teacher $y = \sum_m a^*_m g(w^*_m\cdot x/\sqrt N)
+ \sigma\xi$, one fresh Gaussian sample per step, $t$ = steps$/N$. fltheory derives the ODEs for
the overlaps $Q = WW^\top/N$, $R = WW^{*\top}/N$ for the activation you give (closed forms for
$\mathrm{erf}(x/\sqrt2)$, exact Wick sums for polynomials, a 1-D integral for ReLU's fourth
moment, cubature otherwise), integrates them, analyses the plateau, and checks itself against
an independent SGD simulator."""),
    ("code", """%matplotlib inline
from fractions import Fraction
from fltheory.theory.committee_equations import CommitteeModel, equations
from fltheory.theory.committee_plateau import max_learning_rate, symmetric_plateau
from fltheory.claims.committee import compare_sgd_ode, ode_run
from fltheory.views.committee import draw_plateau

print(equations(CommitteeModel("erf", 1, 1), order=1).latex())"""),
    ("markdown", r"""The classic plateau (Saad & Solla 1995, K = M = 3, η = 0.1, erf): from a
small start the students first learn the teacher's mean, all alike (the unspecialised plateau,
a saddle of the ODEs), and leave it only through the exponential growth of a symmetry-breaking
perturbation. The plateau's height and escape rate are computed directly:"""),
    ("code", """model = CommitteeModel("erf", 3, 3)
p = symmetric_plateau(model, Fraction(1, 10))
print(f"q = {p.q:.5f}, c = {p.c:.5f}, r = {p.r:.5f}, plateau ε_g = {p.eps_g:.5f}, "
      f"escape rate {p.escape_rate:.5f}")
run = ode_run(model, Fraction(1, 10), t_max=3000, records=301)
print(f"ODE ({run.trajectory.method}): escape at t ≈ {run.escape_time:.0f}")"""),
    ("markdown", r"""One SGD run at N = 500 (η = 1/2, so the plateau is shorter) against the ODE
from the same sampled initial overlaps:"""),
    ("code", """sgd = compare_sgd_ode(model, Fraction(1, 2), 500, 600, seed=0, records=61)
fig = draw_plateau(run, sgd)"""),
    ("markdown", r"""For a single unit (K = M = 1) the solution is stable only below
$\eta_{\max} = \pi\sqrt{5/3}$ (derived from the Jacobian at Q = R = T; the claim
`committee.max_lr` checks the sign change against SGD):"""),
    ("code", """import math
print(max_learning_rate(CommitteeModel("erf", 1, 1)).eta_max, math.pi * math.sqrt(5 / 3))"""),
]
