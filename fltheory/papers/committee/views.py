"""Views of the soft-committee-machine paper: table, figure, notebook.

Each builder asks the theory (:mod:`fltheory.papers.committee.plateau`) or the runs
(:mod:`fltheory.papers.committee.runs`) for its numbers and hands them to :mod:`fltheory.render`;
nothing is computed or checked here. Declared in :mod:`fltheory.papers.committee`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fltheory.exact import fraction_str
from fltheory.render.latex import latex_code
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.render.plots import pyplot
from fltheory.results import Table

if TYPE_CHECKING:
    from fltheory.papers.committee.runs import ODERun, SGDvsODE

__all__ = ["COMMITTEE_TABLE_CASES", "NOTEBOOK", "committee_figure", "committee_table",
           "draw_committee", "draw_plateau"]

#: (g, η, second layers, guess) of the table's rows, K = M = 2, T = I; x² with a = 1/K,
#: a* = 1/M is the quadratic module's normalisation. ReLU's plateau is found by Newton from the
#: guess (q, c, r) = (0.7, 0.4, 0.5): the analysis' default search (a long reduced
#: integration) is refused there as too stiff since committee-dyn's graded ReLU mesh; the
#: root, checked as a fixed point of the full ODE, is the one that search found before.
COMMITTEE_TABLE_CASES: tuple[tuple[str, Fraction, str | None, Any], ...] = (
    ("erf_ss", Fraction(1, 10), None, None), ("erf_ss", Fraction(1, 2), None, None),
    ("erf_ss", Fraction(1), None, None), ("erf_ss", Fraction(3, 2), None, None),
    ("relu", Fraction(1, 10), None, (0.7, 0.4, 0.5)), ("x**2", Fraction(1, 10), "mean", None))


def _km(K: int, M: int) -> str:
    return f"K = M = {K}" if K == M else f"K = {K}, M = {M}"


@view_params(
    g=ViewParam("strs", "Activations g (committee names: erf_ss is erf(x/√2), erf is erf(x); relu, tanh, sigmoid, "
                        "polynomials in x); with --eta, one row per (g, η)."),
    eta=ViewParam("rationals", "Learning rates η, one per g (or one for all).", 0, 100,
                  low_open=True),
    K=ViewParam("int", "Student hidden units.", 1, 20),
    M=ViewParam("int", "Teacher hidden units.", 1, 20),
    layers=ViewParam(("1", "mean"), "Second layers: a = a* = 1, or a = 1/K, a* = 1/M (mean)."),
)
def committee_table(g: Sequence[str] | None = None, eta: Sequence[Fraction] | None = None,
                    K: int = 2, M: int = 2, layers: str = "1") -> Table:
    """Plateau heights and escape rates of the soft committee machine (Saad & Solla 1995)
    under online SGD, T = I: for each (g, η), the unspecialised plateau Q_kk = q, Q_kl = c,
    R = r (fixed point of the derived ODEs with their η² terms,
    :func:`fltheory.papers.committee.plateau.symmetric_plateau`), its ε_g, the number of
    unstable directions and the escape rate. Five decimals.

    Parameters
    ----------
    g, eta
        The rows: each g with its η (one η for all g, or one g for all η). Default (neither
        given): erf at η = 1/10, 1/2, 1, 3/2, relu at 1/10 (Newton from the guess (0.7, 0.4,
        0.5)) and x² with mean second layers at 1/10, at K = M = 2.
    K, M
        Student and teacher hidden units (default 2, 2).
    layers
        "1": a = a* = 1 (default); "mean": a = 1/K, a* = 1/M (the quadratic module's
        normalisation); ignored for the default rows, which set their own.
    """
    from fltheory.papers.committee.params import CommitteeModel
    from fltheory.papers.committee.plateau import symmetric_plateau

    cases = (_cases(g, eta, layers) if g is not None or eta is not None
             else list(COMMITTEE_TABLE_CASES))
    rows = []
    for i, (g_i, eta_i, layers_i, guess) in enumerate(cases):
        progress(f"plateau of g = {g_i}, η = {fraction_str(eta_i)} ({i + 1}/{len(cases)})")
        model = CommitteeModel(g_i, K, M, a="1/K" if layers_i else None,
                               a_star="1/M" if layers_i else None)
        p = symmetric_plateau(model, eta_i, guess=guess)
        rows.append([g_i, "1/K, 1/M" if layers_i else "1, 1", fraction_str(eta_i), f"{p.q:.5f}",
                     f"{p.c:.5f}", f"{p.r:.5f}", f"{p.eps_g:.5f}", str(len(p.unstable)),
                     f"{p.escape_rate:.5f}"])
    latex_names = {"erf_ss": r"$\mathrm{erf}(x/\sqrt2)$", "erf": r"$\mathrm{erf}(x)$", "relu": "ReLU", "x**2": "$x^2$"}
    return Table(
        columns=["g", "a, a*", "η", "q", "c", "r", "ε_g plateau", "unstable", "escape rate"],
        rows=rows,
        latex_rows=[[latex_names.get(r[0], r"\texttt{" + latex_code(r[0]) + "}"), *r[1:]]
                    for r in rows],
        latex_columns=["$g$", "$a$, $a^*$", r"$\eta$", "$q$", "$c$", "$r$",
                       r"$\epsilon_g^*$", "unstable", r"$\lambda_{\mathrm{esc}}$"],
        caption=(f"Soft committee machine, {_km(K, M)}, T = I, online SGD: the unspecialised "
                 "plateau Q_kk = q, Q_kl = c, R = r (fixed point of the derived ODEs with their "
                 "η² terms), its ε_g, the number of unstable directions and the escape rate "
                 "(largest Jacobian eigenvalue). erf_ss means erf(x/√2)" + (". tanh and sigmoid "
                 "(numeric averages, ~30 s CPU each at K = M = 2) are not in this table: "
                 "fltheory committee plateau --g tanh gives them with their errors."
                 if g is None else ".")),
        latex_caption=(f"Soft committee machine, ${_km(K, M)}$, $T = I$, online SGD: the "
                       r"unspecialised plateau $Q_{kk} = q$, $Q_{kl} = c$, $R = r$ (fixed point "
                       r"of the derived ODEs with their $\eta^2$ terms), its generalisation "
                       r"error, the number of unstable directions and the escape rate (largest "
                       r"Jacobian eigenvalue)."),
        label="tab:committee",
        align="llrrrrrrr",
    )


def draw_committee(data: dict[str, Any]) -> Any:
    """ε_g(t) of SGD (test set, solid) at each N and of the ODE from the same sampled start
    (dashed), one panel per (g, η) of :func:`fltheory.papers.committee.runs.loss_curves`, with the
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


def _cases(g: Sequence[str] | None, eta: Sequence[Fraction] | None,
           layers: str) -> list[tuple[str, Fraction, str | None, Any]]:
    """(g, η, layers, guess) rows from the g and η lists: paired, or one broadcast
    (:func:`~fltheory.papers.committee.params.paired`)."""
    from fltheory.papers.committee.params import paired

    return [(gi, ei, "mean" if layers == "mean" else None, None)
            for gi, ei in paired(g or ["erf_ss"], eta or [Fraction(1, 10)])]


@view_params(
    g=ViewParam("strs", "Activations g, one panel each (erf_ss is erf(x/√2), erf is erf(x)).") ,
    eta=ViewParam("rationals", "Learning rate of each panel (or one for all).", 0, 100,
                  low_open=True),
    K=ViewParam("int", "Student hidden units.", 1, 20),
    M=ViewParam("int", "Teacher hidden units.", 1, 20),
    N=ViewParam("ints", "Input dimensions of the SGD runs, one curve each.", 10, 10000),
    t_max=ViewParam("rational", "End time t = steps/N.", 0, 10000, low_open=True),
    seed=ViewParam("int", "Seed of the start and the SGD runs.", 0, 2**63 - 1),
)
def committee_figure(g: Sequence[str] = ("erf_ss", "relu"),
                     eta: Sequence[Fraction] = (Fraction(3, 2), Fraction(1, 2)), K: int = 2,
                     M: int = 2, N: Sequence[int] = (500, 2000), t_max: Fraction = Fraction(100),
                     seed: int = 0) -> Any:
    """The soft-committee figure (Saad & Solla 1995): for each (g, η), ε_g(t) of online SGD
    (held-out test set) at each N against the ODE from the same sampled start, with the
    symmetric plateau's ε_g (see :func:`draw_committee`,
    :func:`fltheory.papers.committee.runs.loss_curves`). a = a* = 1, T = I.

    Parameters
    ----------
    g, eta
        One panel per (g, η) (default erf at 3/2 and relu at 1/2); one η applies to every g.
    K, M
        Student and teacher hidden units (default 2, 2).
    N
        Input dimensions of the SGD runs (default 500, 2000).
    t_max
        End time in t = steps/N (default 100).
    seed
        Seed of the start and the runs (default 0).
    """
    from fltheory.papers.committee.runs import loss_curves

    cases = [(gi, ei) for gi, ei, _, _ in _cases(g, eta, "1")]
    data: dict[str, Any] = {"K": K, "M": M, "cases": []}
    for i, (gi, ei) in enumerate(cases):
        progress(f"g = {gi}, η = {fraction_str(ei)}: SGD at N = "
                 f"{', '.join(map(str, N))} and the ODE ({i + 1}/{len(cases)})")
        data["cases"] += loss_curves(((gi, ei),), K, M, Ns=tuple(N), t_max=float(t_max),
                                     seed=seed)["cases"]
    return draw_committee(data)


def draw_plateau(run: ODERun, sgd: SGDvsODE | None = None) -> Any:
    """The classic plateau figure: ε_g(t) of the ODE (:func:`fltheory.papers.committee.runs.ode_run`)
    on a log scale with the symmetric plateau's ε_g, and optionally an SGD run against the ODE
    from its start (:func:`fltheory.papers.committee.runs.compare_sgd_ode`) in a second panel."""
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
from fltheory.papers.committee.params import CommitteeModel, ODESettings, SGDSettings
from fltheory.papers.committee.model import equations
from fltheory.papers.committee.plateau import max_learning_rate, symmetric_plateau
from fltheory.papers.committee.runs import compare_sgd_ode, ode_run
from fltheory.papers.committee.views import draw_plateau

print(equations(CommitteeModel("erf_ss", 1, 1), order=1).latex())"""),
    ("markdown", r"""The classic plateau (Saad & Solla 1995, K = M = 3, η = 0.1, erf): from a
small start the students first learn the teacher's mean, all alike (the unspecialised plateau,
a saddle of the ODEs), and leave it only through the exponential growth of a symmetry-breaking
perturbation. The plateau's height and escape rate are computed directly:"""),
    ("code", """model = CommitteeModel("erf_ss", 3, 3)
p = symmetric_plateau(model, Fraction(1, 10))
print(f"q = {p.q:.5f}, c = {p.c:.5f}, r = {p.r:.5f}, plateau ε_g = {p.eps_g:.5f}, "
      f"escape rate {p.escape_rate:.5f}")
run = ode_run(model, ODESettings(Fraction(1, 10), t_max=3000, records=301))
print(f"ODE ({run.trajectory.method}): escape at t ≈ {run.escape_time:.0f}")"""),
    ("markdown", r"""One SGD run at N = 500 (η = 1/2, so the plateau is shorter) against the ODE
from the same sampled initial overlaps:"""),
    ("code", """sgd = compare_sgd_ode(model, SGDSettings(Fraction(1, 2), 500, 600, seed=0, records=61))
fig = draw_plateau(run, sgd)"""),
    ("markdown", r"""For a single unit (K = M = 1) the solution is stable only below
$\eta_{\max} = \pi\sqrt{5/3}$ (derived from the Jacobian at Q = R = T; the claim
`committee.max_lr` checks the sign change against SGD):"""),
    ("code", """import math
print(max_learning_rate(CommitteeModel("erf_ss", 1, 1)).eta_max, math.pi * math.sqrt(5 / 3))"""),
]
