"""Views of the quadratic-networks paper (one-pass SGD): tables, figures, notebook.

Each builder asks the theory or the runs for its numbers and hands them to
:mod:`fltheory.render`; nothing is computed here. Declared in :mod:`fltheory.papers.quadratic`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fltheory.exact import fraction_str
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.render.plots import pyplot
from fltheory.results import Table

__all__ = ["NOTEBOOK", "QUADRATIC_TABLE_P", "draw_quadratic", "quadratic_figure",
           "quadratic_table"]

QUADRATIC_TABLE_P = (2, 3, 4, 8)


@view_params(
    p=ViewParam("ints", "Student widths p, one row each.", 1, 64),
    p_star=ViewParam("int", "Teacher width p*.", 1, 64),
    eta=ViewParam("rational", "Learning rate η.", 0, 10, low_open=True),
    N=ViewParam("int", "Input dimension of the Hessian counts.", 2, 400),
)
def quadratic_table(p: Sequence[int] = QUADRATIC_TABLE_P, p_star: int = 2,
                    eta: Fraction = Fraction(1, 10), N: int = 100) -> Table:
    """Quadratic networks under one-pass SGD (mean-field normalisation a = 1/p, b = 1/p*,
    η_w = pη, T = I; the quadratic-networks paper): for each p, the plateau value q* (exact and
    decimal) and loss, the escape rate, the ODE's escape time from Q = I/4, ‖ρ(0)‖ = 1e-3
    (first ‖ρ‖ > 1/2), the dimension of the zero-loss manifold and the Hessian's
    negative/zero/positive eigenvalue counts at the plateau and at a solution at dimension N.

    Parameters
    ----------
    p
        Student widths (default 2, 3, 4, 8).
    p_star
        Teacher width (default 2).
    eta
        Learning rate (default 1/10).
    N
        Input dimension of the Hessian counts (default 100).
    """
    widths = tuple(p)
    rows, latex_q = [], []
    for i, pw in enumerate(widths):
        progress(f"p = {pw} ({i + 1}/{len(widths)})")
        row, q_latex = _quadratic_row(pw, p_star, eta, N)
        rows.append(row)
        latex_q.append(q_latex)
    return Table(
        columns=["p", "q* exact", "q*", "plateau loss", "escape rate", "t_esc (ODE)",
                 "dim manifold", "H plateau (−/0/+)", "H solution (−/0/+)"],
        rows=rows,
        latex_rows=[[r[0], f"${q}$", *r[2:]] for r, q in zip(rows, latex_q, strict=True)],
        latex_columns=["$p$", "$q^*$", "", "plateau loss", "escape rate",
                       r"$t_{\mathrm{esc}}$", r"$\dim$", r"$H_{\mathrm{plateau}}$",
                       r"$H_{\mathrm{sol}}$"],
        caption=(f"Quadratic networks under one-pass SGD, p* = {p_star}, η = "
                 f"{fraction_str(eta)}, mean-field normalisation (a = 1/p, b = 1/p*, η_w = pη), "
                 f"T = I; Hessian counts at N = {N}; "
                 "t_esc: ODE from Q = I/4, ‖ρ(0)‖ = 1e-3, first ‖ρ‖ > 1/2."),
        latex_caption=(f"Quadratic networks under one-pass SGD, $p^* = {p_star}$, "
                       f"$\\eta = {fraction_str(eta)}$, "
                       r"mean-field normalisation ($a = 1/p$, $b = 1/p^*$, $\eta_w = p\eta$), "
                       r"$T = I$: plateau value and loss, escape rate, ODE escape time from "
                       r"$Q = I/4$, $\|\rho(0)\| = 10^{-3}$; dimension of the zero-loss "
                       r"manifold and Hessian eigenvalue counts (negative/zero/positive) at the "
                       f"plateau and at a solution, $N = {N}$."),
        label="tab:quadratic",
        align="rlrrrrrrr",
    )


def _quadratic_row(pw: int, p_star: int, eta: Fraction, N: int) -> tuple[list[str], str]:
    """One row of :func:`quadratic_table` (student width ``pw``) as text, and q* in LaTeX."""
    import numpy as np
    import sympy as sp

    from fltheory.papers.quadratic.theory import (
        hessian_plateau_counts,
        hessian_solution_counts,
        integrate,
        manifold_dimension,
        plateau,
    )

    pl = plateau(pw, p_star, eta)
    # escape time of the ODE from Q = I/4 and a fixed generic ρ(0) of Frobenius norm 1e-3
    R0 = np.random.default_rng(0).standard_normal((pw, p_star))
    R0 *= 1e-3 / np.linalg.norm(R0)
    t = np.linspace(0, 200, 4001)
    escape = integrate(np.eye(pw) / 4, R0, np.eye(p_star), eta, t).escape_time()
    q_latex = sp.latex(pl.q_exact)
    neg, zero, pos = hessian_plateau_counts(pw, p_star, N)
    sneg, szero, spos = hessian_solution_counts(pw, p_star, N)
    return [str(pw), str(pl.q_exact), f"{pl.q:.5f}", f"{pl.loss:.5f}",
            f"{pl.escape_rate:.5f}", f"{escape:.2f}",
            str(manifold_dimension(pw, p_star)), f"{neg}/{zero}/{pos}",
            f"{sneg}/{szero}/{spos}"], q_latex


def draw_quadratic(data: dict[str, Any], escape: dict[str, Any] | None = None) -> Any:
    """(a) Loss against t = steps/N: SGD (test loss) at several N and the ODE from the same
    initial overlaps, with the plateau loss marked; (b) with ``escape``, the escape time against
    p: the law with SGD's plateau noise, the noise-free mean-field law, SGD runs."""
    import numpy as np

    plt = pyplot()
    if escape is None:
        fig, ax = plt.subplots(figsize=(6, 4))
    else:
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for i, c in enumerate(data["curves"]):
        ax.semilogy(data["t"], c["sgd"], color=f"C{i}", alpha=0.6, label=f"SGD, N = {c['N']}")
        ax.semilogy(data["t"], c["ode"], color=f"C{i}", ls="--", lw=1)
    ax.axhline(data["plateau_loss"], color="k", ls=":", lw=1, label="plateau loss (closed form)")
    ax.set_xlabel("t = steps / N")
    ax.set_ylabel("loss")
    ax.set_title(f"p = {data['p']}, p* = {data['p_star']}, η = {data['eta']} (dashed: ODE)")
    ax.legend(fontsize=8)
    if escape is not None:
        ps = np.array(escape["p"])
        law, mf = np.array(escape["law"]), np.array(escape["mean_field"])
        ax2.errorbar(ps, law[:, 0], yerr=law[:, 1], color="C0", marker="s", ms=4,
                     label="law with SGD plateau noise")
        ax2.errorbar(ps, mf[:, 0], yerr=mf[:, 1], color="C7", ls="--", marker="^", ms=4,
                     label="mean field, no noise")
        runs = escape["sgd"]
        for j in range(runs.shape[1]):
            ax2.plot(ps, runs[:, j], "o", color="C3", ms=3, alpha=0.5,
                     label="SGD runs" if j == 0 else None)
        ax2.set_xscale("log", base=2)
        ax2.set_xlabel("p (student width)")
        ax2.set_ylabel("t_esc (‖ρ‖_F = 1/2)")
        ax2.set_title(f"random start W0 ~ N(0, 1/4), N = {escape['N']}, p* = "
                      f"{escape['p_star']}", fontsize=9)
        ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig


@view_params(
    p=ViewParam("int", "Student width of the loss panel (a).", 1, 64),
    p_star=ViewParam("int", "Teacher width p*.", 1, 64),
    eta=ViewParam("rational", "Learning rate η.", 0, 10, low_open=True),
    N=ViewParam("ints", "Input dimensions of the SGD curves of panel (a).", 10, 4000),
    t_max=ViewParam("rational", "End time of panel (a), t = steps/N.", 0, 1000,
                    low_open=True),
    escape_p=ViewParam("ints", "Student widths of the escape panel (b).", 1, 64),
    escape_N=ViewParam("int", "Input dimension of the escape panel (b).", 10, 4000),
    seeds=ViewParam("int", "SGD runs per width in panel (b).", 1, 50),
    seed=ViewParam("int", "Seed of the simulations.", 0, 2**63 - 1),
)
def quadratic_figure(p: int = 4, p_star: int = 2, eta: Fraction = Fraction(1, 10),
                     N: Sequence[int] = (250, 1000), t_max: Fraction = Fraction(60),
                     escape_p: Sequence[int] = (2, 4, 8, 16), escape_N: int = 500,
                     seeds: int = 4, seed: int = 0) -> Any:
    """The quadratic-networks figure: (a) loss against t = steps/N, SGD (test loss) at each N
    and the ODE from the same start, with the closed-form plateau loss; (b) the escape time
    against p from cold starts: the law with SGD's plateau noise, the noise-free mean-field
    law, SGD runs (see :func:`draw_quadratic`, :func:`fltheory.papers.quadratic.runs.loss_curves`,
    :func:`fltheory.papers.quadratic.runs.escape_vs_p`).

    Parameters
    ----------
    p, p_star, eta
        Student and teacher widths and the learning rate (default 4, 2, 1/10); p_star and eta
        apply to both panels.
    N, t_max
        Dimensions of the SGD curves and their end time (default 250, 1000; 60).
    escape_p, escape_N, seeds
        Widths, dimension and runs per width of panel (b) (default 2, 4, 8, 16; 500; 4).
    seed
        Seed of the simulations (default 0).
    """
    from fltheory.papers.quadratic.params import Model
    from fltheory.papers.quadratic.runs import escape_vs_p, loss_curves

    progress(f"loss curves at N = {', '.join(map(str, N))}, p = {p}")
    curves = loss_curves(Model(p, p_star), eta, tuple(N), t_max=t_max, seed=seed)
    progress(f"escape times at p = {', '.join(map(str, escape_p))}, N = {escape_N}, "
             f"{seeds} runs each")
    return draw_quadratic(curves, escape_vs_p(tuple(escape_p), escape_N, eta, p_star, seeds,
                                              seed))


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", r"""# One-pass SGD in quadratic networks (Bocchi et al. 2026)

Student $f = a\sum_k (w_k\cdot x)^2/N$, teacher $y = b\sum_m (w^*_m\cdot x)^2/N$, one fresh sample
per step, $t$ = steps$/N$, mean-field normalisation $a = 1/p$, $b = 1/p^*$, $\eta_w = p\eta$.
fltheory derives the ODEs for the overlaps $Q$, $\rho$ from the SGD update by Isserlis' theorem,
solves the plateau in closed form and checks everything against the simulated SGD."""),
    ("code", """%matplotlib inline
from fractions import Fraction
from fltheory.papers.quadratic import runs, theory
from fltheory.papers.quadratic.params import Model, ODEStart
from fltheory.papers.quadratic.views import draw_quadratic

d = theory.derive_elementwise(1, 1)
print("dQ/dt =", d["dQ"][0, 0])
print("drho/dt =", d["drho"][0, 0])"""),
    ("markdown", r"""The plateau value $q^*(\eta)$ and the escape rate: at small $\eta$ the rate is
$4\eta/p^*$ for every $p$ — overparameterisation does not change the exponential rate in this
normalisation, only the prefactor of the escape time through the initial overlaps."""),
    ("code", """for eta in (Fraction(1, 1000), Fraction(1, 10)):
    for p in (2, 4, 8, 50):
        r = theory.plateau(p, 2, eta)
        print(f"η = {eta}, p = {p:>2}: q* = {r.q:.5f}, plateau loss {r.loss:.5f}, "
              f"rate {r.escape_rate:.6f}")"""),
    ("code", """theory.plateau(4, 2, Fraction(1, 10))  # exact q*; renders as LaTeX"""),
    ("markdown", r"""The ODE from a small generic start, one call (what `fltheory quadratic ode`
prints): the escape time is read by the theory's one escape rule, the first time
$\|\rho\|_F = 1/2$ (log-interpolated), and $S = \rho(\rho^\top\rho)^{-1/2}$ is conserved
along the mean-field ODE for an isotropic teacher."""),
    ("code", """run = runs.ode_run(Model(4, 2), ODEStart(Fraction(1, 10), t_max=200))
print(f"escape at t = {run.escape_time:.2f}, final loss {run.sol.loss[-1]:.2e}, "
      f"drift of S along the ODE {run.s_drift:.1e}")"""),
    ("code", """fig = draw_quadratic(runs.loss_curves(Model(4, 2), Fraction(1, 10), (250, 1000),
                                     t_max=60))"""),
    ("markdown", r"""Escape from a random start. SGD's plateau noise kicks every overlap with variance
$4\eta^2 E[(f-y)^2\lambda^2\nu^2]/N$ per unit time (closed form); amplified like $\rho(0)$, it
acts as an initial overlap variance $(q_0 + J)/N$ instead of $q_0/N$. Both are $O(1/N)$: the
$\ln N/(2r)$ law survives, and every escape comes earlier by about $\ln(1 + J/q_0)/(2r)$ — at
every $N$. The law (mean-field ODE from Gaussian overlaps, exactly reduced, Monte Carlo):"""),
    ("code", """for N in (250, 1000, 4000):
    L = theory.escape_time_law(4, 2, Fraction(1, 10), N, samples=100)
    print(f"N = {N:>4}: E t_esc = {L.mean:.2f} ± {L.se:.2f} (no noise {L.mean_field:.2f}), "
          f"J = {L.noise_variance:.4f}, shift {L.shift:+.3f}")"""),
    ("markdown", r"""From a cold start SGD does not select the closest solution: its plateau noise
(the same $J$) tilts the direction $S$ before the escape. Predicted drift
$E\|\mathrm{polar}(A + \sqrt{J/q_0}B) - \mathrm{polar}(A)\|_F$ (Monte Carlo over Gaussian
$A$, $B$), growing with $\eta$ and independent of $N$ (claim `quadratic.cold_start_drift`):"""),
    ("code", """for eta, (J, drift, se) in theory.cold_start_drift(
        4, 2, [Fraction(1, 20), Fraction(1, 10), Fraction(1, 5)], mc=20000).items():
    print(f"η = {eta}: J = {J:.4f}, E drift = {drift:.3f} ± {se:.3f}")"""),
    ("markdown", r"""Hessian counts (negative/zero/positive) in the full weight space at the plateau
(a saddle) and on the zero-loss manifold (marginal), $N = 40$:"""),
    ("code", """for p in (2, 3, 4, 8):
    print(p, "plateau", theory.hessian_plateau_counts(p, 2, 40),
          "solution", theory.hessian_solution_counts(p, 2, 40),
          "manifold dimension", theory.manifold_dimension(p, 2))"""),
]
