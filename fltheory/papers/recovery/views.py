"""Views of the sequential recovery paper: its tables, figures and notebook.

Each builder asks the theory or the runs for its numbers and hands them to
:mod:`fltheory.render`; nothing is computed here. Declared in :mod:`fltheory.papers.recovery`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fltheory.exact import fraction_str
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.render.plots import pyplot
from fltheory.results import Table

__all__ = ["NOTEBOOK", "RECOVERY_TABLE_GAMMAS", "draw_recovery",
           "recovery_depth_table", "recovery_figure", "recovery_table"]

RECOVERY_TABLE_GAMMAS = (Fraction(1), Fraction(3, 2))


@view_params(
    d1=ViewParam("int", "Latent directions (rows).", 1, 64),
    gamma=ViewParam("rationals", "Power-law exponents γ of c_k ∝ k^(−γ), one block of "
                                 "columns each.", 0, 100, low_open=True),
)
def recovery_table(d1: int = 8, gamma: Sequence[Fraction] = RECOVERY_TABLE_GAMMAS) -> Table:
    """Sequential recovery (Dandi, Krzakala, Loureiro et al.; q = 2, rank label
    transform): for each direction k of c_k ∝ k^(−γ), θ_k = E[T(h_k² − 1)], the large-δ
    threshold δ_k = E[T²]/θ_k² (n_k = δ_k·D) and the Lu–Li δ at which ρ_k² = 1/2; last row the
    weak-direction constant C. Columns in blocks, one per γ.

    Parameters
    ----------
    d1
        Latent directions (default 8).
    gamma
        Exponents γ, one block each (default 1, 3/2).
    """
    from fltheory.papers.recovery.theory import RecoveryModel, law_exponent

    gammas = tuple(gamma)
    models = [RecoveryModel.power_law(d1, g) for g in gammas]
    rows = []
    for i in range(d1):
        row = [str(i + 1)]
        for m in models:
            row += [f"{m.c[i]:.4f}", f"{m.theta()[i]:.4f}", f"{m.bbp_thresholds()[i]:.2f}",
                    f"{m.crossing(i):.2f}"]
        rows.append(row)
    rows.append(["C", *(x for m in models for x in ("", "", f"{m.weak_constant():.4f}", ""))])
    laws = ", ".join(f"γ = {g}: {law_exponent(g)}" for g in gammas)
    sides = _sides(gammas)
    return Table(
        columns=["k", *(x for g in gammas
                        for x in (f"c_k γ={g}", "θ_k", "δ_k BBP", "δ at ρ²=1/2"))],
        rows=rows,
        latex_columns=["$k$", *(x for _ in gammas
                                for x in ("$c_k$", r"$\theta_k$", r"$\delta_k^{\mathrm{BBP}}$",
                                          r"$\delta_{1/2}$"))],
        caption=(f"Sequential recovery, d1 = {d1} directions, c_k ∝ k^(−γ) for {sides[0]}, "
                 "rank label transform: θ_k = E[T(h_k² − 1)], the large-δ "
                 "threshold δ_k = E[T²]/θ_k² (n_k = δ_k D) and the Lu–Li δ at which ρ_k² = 1/2; "
                 f"C: weak-direction constant. MSE law exponents {laws}."),
        latex_caption=(f"Sequential recovery, $d_1 = {d1}$ directions, "
                       r"$c_k \propto k^{-\gamma}$ "
                       f"for {sides[1]}, rank label transform: "
                       r"$\theta_k = E[T(h_k^2-1)]$, the large-$\delta$ threshold "
                       r"$\delta_k = E[T^2]/\theta_k^2$ ($n_k = \delta_k D$) and the Lu--Li "
                       r"$\delta$ at which $\rho_k^2 = 1/2$; $C$: weak-direction constant."),
        label="tab:recovery",
        align="r" + "rrrr" * len(gammas),
    )


def _sides(gammas: tuple[Fraction, ...]) -> tuple[str, str]:
    """Which block is which γ, in text and LaTeX: "γ = 1 (left) and 3/2 (right)"."""
    texts = [fraction_str(g) for g in gammas]
    if len(texts) == 1:
        return f"γ = {texts[0]}", f"$\\gamma = {texts[0]}$"
    if len(texts) == 2:
        return (f"γ = {texts[0]} (left) and {texts[1]} (right)",
                f"$\\gamma = {texts[0]}$ (left) and ${texts[1]}$ (right)")
    return (f"γ = {', '.join(texts)} (left to right)",
            f"$\\gamma = {', '.join(texts)}$ (left to right)")


@view_params(
    d=ViewParam("ints", "Input dimensions.", 1, 10**9),
    q=ViewParam("ints", "Target degrees q (the kernel needs degree 2q).", 1, 50),
)
def recovery_depth_table(d: Sequence[int] = (10, 100, 1000, 10**4),
                         q: Sequence[int] = (2, 3, 4)) -> Table:
    """Depth advantage (Dandi et al. 2026): the sample-size scale D(d, q) = C(d+q−1, q) of the
    hierarchical spectral method against D(d, 2q) of a shallow kernel on the degree-2q target,
    exact integers, and their ratio (:func:`fltheory.papers.recovery.theory.depth_rows`).

    Parameters
    ----------
    d
        Input dimensions (default 10, 100, 1000, 10⁴).
    q
        Degrees q (default 2, 3, 4).
    """
    import mpmath

    from fltheory.papers.recovery.theory import depth_rows

    def sci(x: int) -> str:
        return str(x) if x < 10**6 else mpmath.nstr(mpmath.mpf(x), 4, min_fixed=0, max_fixed=0)

    rows = []
    for r in depth_rows(tuple(d), tuple(q)):
        rows.append([str(r["d"]), str(r["q"]), sci(r["hier"]), sci(r["kernel"]),
                     mpmath.nstr(mpmath.mpf(r["kernel"]) / r["hier"], 4, min_fixed=0,
                                 max_fixed=6)])
    return Table(
        columns=["d", "q", "hierarchical D(d,q)", "kernel D(d,2q)", "ratio"],
        rows=rows,
        latex_columns=["$d$", "$q$", "$D(d,q)$", "$D(d,2q)$", "ratio"],
        caption=("Depth advantage: sample-size scale of the hierarchical spectral method, "
                 "D(d, q) = C(d+q−1, q) ≈ d^q/q!, against a shallow kernel on the degree-2q "
                 "target, D(d, 2q) ≈ d^{2q}/(2q)! (exact integers)."),
        latex_caption=(r"Depth advantage: sample-size scale of the hierarchical spectral method, "
                       r"$D(d,q) = \binom{d+q-1}{q} \approx d^q/q!$, against a shallow kernel on "
                       r"the degree-$2q$ target, $D(d,2q) \approx d^{2q}/(2q)!$ (exact)."),
        label="tab:recovery-depth",
        align="rrrrr",
    )


def draw_recovery(data: dict[str, Any]) -> Any:
    """(a) overlaps ρ_k² against δ = n/D: Lu–Li curves, large-δ thresholds (dotted), simulated
    means (Gaussian-equivalent features); (b) MSE against δ: the finite-d1 curve, the d1 = ∞
    law P δ^e, simulated means with standard errors."""
    import numpy as np

    plt = pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    for k in range(data["d1"]):
        color = f"C{k % 10}"
        ax1.semilogx(data["fine"], data["curves"][:, k], color=color, lw=1.2,
                     label=f"k = {k + 1}")
        ax1.axvline(data["thresholds"][k], color=color, ls=":", lw=0.8)
        mean = data["rho2"][:, :, k].mean(axis=0)
        ax1.plot(data["deltas"], mean, "o", color=color, ms=4)
    ax1.set_xlabel("δ = n / D")
    ax1.set_ylabel("ρ_k² = ⟨Â_k, A_k⟩²")
    ax1.set_title(f"Lu–Li (lines), simulation d = {data['d']} (D = {data['D']}, dots)",
                  fontsize=9)
    ax1.legend(fontsize=7, ncol=2)
    pref, expo = data["law"]
    ax2.loglog(data["fine"], data["mse_curve"], color="C0", label=f"finite d1 = {data['d1']}")
    ax2.loglog(data["fine"], pref * data["fine"] ** expo, color="k", ls="--", lw=1,
               label=f"law {pref:.3g}·δ^({expo:.3g}), d1 = ∞")
    m = data["mse"]
    ax2.errorbar(data["deltas"], m.mean(axis=0), yerr=m.std(axis=0, ddof=1) / np.sqrt(len(m)),
                 fmt="o", color="C3", ms=4, label="simulation")
    ax2.set_xlabel("δ = n / D")
    ax2.set_ylabel("test MSE / Var(y)")
    ax2.set_title(f"γ = {data['gamma']:g}, rank transform", fontsize=9)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig


@view_params(
    d=ViewParam("int", "Input dimension of the simulation (D = d(d+1)/2 features).", 2, 60),
    delta=ViewParam("rationals", "Sample ratios δ = n/D of the simulated points.", 0, 10**4,
                    low_open=True),
    seeds=ViewParam("int", "Repetitions per δ.", 2, 50),
    d1=ViewParam("int", "Latent directions.", 1, 64),
    gamma=ViewParam("rational", "Power-law exponent γ of c_k ∝ k^(−γ).", 0, 100,
                    low_open=True),
    seed=ViewParam("int", "Seed of the simulations.", 0, 2**63 - 1),
)
def recovery_figure(d: int = 24,
                    delta: Sequence[Fraction] = (Fraction(5, 2), Fraction(5), Fraction(10),
                                                 Fraction(20), Fraction(40), Fraction(80)),
                    seeds: int = 3, d1: int = 8, gamma: Fraction = Fraction(1),
                    seed: int = 0) -> Any:
    """The recovery figure (Dandi, Krzakala, Loureiro et al.): (a) overlaps ρ_k²
    against δ = n/D, Lu–Li curves with the large-δ thresholds and the simulated spectral
    algorithm (Gaussian-equivalent features); (b) test MSE against δ: the finite-d1 curve, the
    d1 = ∞ law P·δ^e and the simulation (see :func:`draw_recovery`,
    :func:`fltheory.papers.recovery.runs.cascade_data`).

    Parameters
    ----------
    d
        Input dimension of the simulation (default 24, D = 300).
    delta
        δ of the simulated points (default 5/2, 5, 10, 20, 40, 80).
    seeds
        Repetitions per δ (default 3).
    d1, gamma
        Latent directions and the exponent of c_k ∝ k^(−γ) (default 8, 1).
    seed
        Seed of the simulations (default 0).
    """
    from fltheory.papers.recovery.runs import cascade_data
    from fltheory.papers.recovery.sweeps import check_spectral_task

    for dl in delta:  # each run's size and cost, before any work
        check_spectral_task({"d": d, "d1": d1, "delta": dl})
    progress(f"Lu–Li curves and {seeds} simulations at each of {len(delta)} δ, d = {d}")
    return draw_recovery(cascade_data(d, tuple(float(x) for x in delta), seeds, d1, gamma,
                                      seed))


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", """# Sequential feature recovery and scaling laws

Model (Dandi, Krzakala, Loureiro et al.): degree-2 Hermite features $\\phi(x) \\in
\\mathbb{R}^D$ of $x \\sim N(0, I_d)$, $D = d(d+1)/2$; latent directions $A_1, \\dots, A_{d_1}$;
label $y = \\sum_i c_i (h_i^2 - 1)/\\sqrt 2$ with $h_i = \\langle A_i, \\phi\\rangle$ and
$c_i \\propto i^{-\\gamma}$. The layer-wise spectral algorithm takes the top eigenvectors of
$\\hat C = \\frac1n \\sum_j T(y_j) \\phi_j \\phi_j^\\top$ ($T$ = rank transform), then fits the
second layer in the recovered latent space.

This notebook reproduces the paper's headline figure — a cascade of recoveries and the power-law
MSE it produces — from fltheory's public API: Lu–Li overlaps at finite $\\delta = n/D$, the
simulated spectral algorithm, and the $d_1 = \\infty$ law $\\mathrm{MSE} \\approx P\\,
\\delta^{-1 + 1/(2\\gamma)}$."""),
    ("code", """from fractions import Fraction
from fltheory.papers.recovery import theory
from fltheory.papers.recovery.runs import cascade_data
from fltheory.papers.recovery.views import draw_recovery

model = theory.RecoveryModel.power_law(8, Fraction(1))
print("θ_k =", model.theta().round(4))
print("large-δ thresholds δ_k =", model.bbp_thresholds().round(2))
print("Lu–Li δ at ρ² = 1/2 :", [round(model.crossing(i), 2) for i in range(8)])
print("weak-direction constant C =", round(model.weak_constant(), 4))"""),
    ("markdown", """## The cascade and the MSE

Lines: Lu–Li overlaps (left) and the finite-$d_1$ MSE $1 - \\sum_i c_i^2 \\rho_i^4$ (right);
dots: the simulated spectral algorithm with Gaussian-equivalent features at $d = 24$
($D = 300$), three seeds. The simulated overlaps of weak directions lag the curves: a finite-$D$
effect that `fltheory verify recovery` removes by extrapolating in $1/D$."""),
    ("code", """fig = draw_recovery(cascade_data(d=24, seeds=3))"""),
    ("markdown", """## Thresholds at scale

Thresholds $n_k = C\\,D/a_k^2$ are exact integers when $2\\gamma$ is an integer; $D$ reaches
$10^{12}$ and beyond without rounding."""),
    ("code", """theory.thresholds(10**6, 2, [1, 10, 100], Fraction(1), dps=30)"""),
    ("code", """print(theory.recovered_count(Fraction(10**15), 10**6, 2, Fraction(3, 2)))
print(theory.depth_rows((100, 1000), (2, 3)))"""),
    ("markdown", """## One sample size, and the law

`recovery_at` answers at a given $n$: the Lu–Li overlaps and outliers per direction, the number
recovered, the finite-$d_1$ MSE and the $d_1 = \\infty$ law with this model's constant $C$;
`mse_law` gives the law alone. `compare_simulation` runs the spectral algorithm (seeds are the
`SeedSequence` children of `seed`) against the same prediction."""),
    ("code", """at = theory.recovery_at(100, 2, Fraction(1), Fraction(10**6))
print(f"δ = {at.delta:.4g}: {at.recovered_luli} of {at.d1} recovered, MSE = {at.mse:.4f}")
at"""),
    ("code", """theory.mse_law(Fraction(3, 2))"""),
    ("code", """from fltheory.papers.recovery.runs import compare_simulation

compare_simulation(d=20, n=4000, seeds=2)"""),
]
