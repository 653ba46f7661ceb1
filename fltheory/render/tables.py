"""Named tables for ``fltheory table NAME``: each builder asks the theory for its numbers and
arranges them; nothing is computed here. Every builder is deterministic, so the committed files
in ``tables/`` are exactly what the command writes (a test regenerates and compares them)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from fltheory.exact import to_decimal_str
from fltheory.results import Table

__all__ = ["TABLES", "build_table"]


def _lambda_table() -> Table:
    from fltheory.theory.twostep import lambda_details

    grid = [Fraction(i, 20) for i in range(10)]  # 0, 0.05, ..., 0.45
    rows, latex_rows = [], []
    for a1 in grid:
        row, latex_row = [_dec(a1)], [_dec(a1)]
        for a2 in grid:
            r = lambda_details(a1, a2)
            flag = r.boundary_k is not None
            row.append(f"{r.value}{'*' if flag else ''}")
            latex_row.append(f"${r.value}^\\dagger$" if flag else str(r.value))
        rows.append(row)
        latex_rows.append(latex_row)
    return Table(
        columns=["α1 \\ α2", *(_dec(a2) for a2 in grid)],
        rows=rows,
        latex_columns=[r"$\alpha_1 \backslash \alpha_2$", *(_dec(a2) for a2 in grid)],
        latex_rows=latex_rows,
        caption=("Number Λ(α1, α2) = ⌊α2/(1/2 − α1)⌋ of spectral outliers of W2 beyond the "
                 "one-step spike (L = ∞), after Moniri & Hassani (2026); W2 has 1 + Λ."),
        latex_caption=(r"Number $\Lambda(\alpha_1, \alpha_2) = \lfloor \alpha_2/(1/2 - \alpha_1)"
                       r" \rfloor$ of spectral outliers of $W_2$ beyond the one-step spike "
                       r"($L = \infty$), after Moniri \& Hassani (2026); $W_2$ has $1 + \Lambda$."),
        label="tab:lambda",
        align="l" + "r" * len(grid),
        notes=["* boundary case: α2/(1/2 − α1) is an integer, the last counted term has "
               "exponent 0 and its outlier status depends on constants."],
        latex_notes=[r"$^\dagger$ boundary case: $\alpha_2/(1/2-\alpha_1)$ is an integer, the "
                     r"last counted term has exponent $0$ and its outlier status depends on "
                     r"constants."],
    )


def _dec(q: Fraction) -> str:
    """Grid values as short exact decimals: 0, 0.05, ..., 0.45."""
    return to_decimal_str(q, 10)


HERMITE_TABLE_FUNCTIONS = ("relu", "tanh", "sigmoid", "softplus", "gelu", "erf", "abs", "sign",
                           "quadratic", "cubic", "He2", "He3", "He4")


def _hermite_table() -> Table:
    import mpmath

    from fltheory.theory.hermite import expansion, generative_exponent, information_exponent

    K, kmax, dps = 4, 8, 20
    rows = []
    for name in HERMITE_TABLE_FUNCTIONS:
        e = expansion(name, kmax, dps)
        info = information_exponent(e.function, kmax, dps, e)
        gen = generative_exponent(e.function, kmax, dps, e)
        rows.append([name, *(mpmath.nstr(c.numeric, 6) if not c.zero else "0"
                             for c in e.coefficients[: K + 1]), str(info), str(gen)])
    latex_rows = [[r"\texttt{" + row[0] + "}", *(f"${v}$" for v in row[1:-2]),
                   *(f"${v}$" for v in row[-2:])] for row in rows]
    return Table(
        columns=["f", *(f"μ_{k}" for k in range(K + 1)), "info. exp.", "gen. exp."],
        rows=rows,
        latex_columns=["$f$", *(f"$\\mu_{k}$" for k in range(K + 1)),
                       r"$k_\star$", r"$k_\star^{\mathrm{gen}}$"],
        latex_rows=latex_rows,
        caption=("Hermite coefficients μ_k = E[f(z) h_k(z)] (orthonormal h_k = He_k/√(k!)) of "
                 "the catalogue, information and generative exponents (examined up to k = 8)."),
        latex_caption=(r"Hermite coefficients $\mu_k = \mathrm{E}[f(z)\,h_k(z)]$, "
                       r"$h_k = \mathrm{He}_k/\sqrt{k!}$, $z \sim \mathcal{N}(0,1)$, of the "
                       r"catalogue activations, with the information exponent $k_\star$ and the "
                       r"generative exponent $k_\star^{\mathrm{gen}}$ (examined up to $k = 8$)."),
        label="tab:hermite",
        align="l" + "r" * (K + 1) + "cc",
    )


FISHER_TABLE_DIMENSIONS = (2, 3, 5, 10, 100, 1000)


def _fisher_table() -> Table:
    import mpmath

    from fltheory.theory.fisher import paper_approximation, spectrum

    rows = []
    for d in FISHER_TABLE_DIMENSIONS:
        lev = spectrum(d, 2, 20)
        with mpmath.workdps(25):
            exact_share = sum(x.multiplicity * x.value for x in lev) / (mpmath.mpf(d) / 2)
            paper = [paper_approximation(d, x.l, 20) for x in lev]
            paper_share = sum(x.multiplicity * p for x, p in zip(lev, paper, strict=True)
                              if p is not None) / (mpmath.mpf(d) / 2)
        rows.append([str(d), mpmath.nstr(lev[0].value, 6),
                     mpmath.nstr(lev[0].approximation, 6), mpmath.nstr(lev[2].value, 6),
                     mpmath.nstr(lev[2].approximation, 6), str(lev[2].multiplicity),
                     mpmath.nstr(exact_share, 6), mpmath.nstr(paper_share, 6)])
    return Table(
        columns=["d", "λ_0", "(2d+1)/(4π)", "λ_2", "1/(2π(d+2))", "N(d,2)", "top-3 share",
                 "paper's share"],
        rows=rows,
        latex_columns=["$d$", r"$\lambda_0$", r"$\frac{2d+1}{4\pi}$", r"$\lambda_2$",
                       r"$\frac{1}{2\pi(d+2)}$", "$N(d,2)$", "top-3 share", "paper's share"],
        caption=("Exact m → ∞ Fisher eigenvalues of random ReLU features against the paper's "
                 "approximations; λ_1 = 1/4 exactly with multiplicity d."),
        latex_caption=(r"Exact $m \to \infty$ Fisher eigenvalues $\lambda_l(d)$ of random ReLU "
                       r"features against the paper's approximations; $\lambda_1 = 1/4$ exactly "
                       r"(multiplicity $d$). The share is that of the trace $d/2$ carried by the "
                       r"three leading clusters; its $d \to \infty$ limit is "
                       r"$1/2 + 3/(2\pi) \approx 0.9775$."),
        label="tab:fisher",
        align="rrrrrrrr",
    )


TWOSTEP_TABLE_POINTS = ((Fraction(1, 10), Fraction(1, 5)), (Fraction(3, 10), Fraction(1, 4)),
                        (Fraction(2, 5), Fraction(3, 10)), (Fraction(9, 20), Fraction(3, 10)))
TWOSTEP_TABLE_TARGETS = ("He1", "He3", "He2", "bounded3")


def _twostep_table() -> Table:
    from fltheory.theory.twostep_terms import TwoStepModel, learnability

    sigma = "(He1(z) + He2(z)/sqrt(2) + He3(z)/sqrt(6))/sqrt(3)"
    rows = []
    for batch in ("reused", "fresh"):
        psi = Fraction(1) if batch == "reused" else Fraction(2)
        model = TwoStepModel.build(sigma, list(TWOSTEP_TABLE_TARGETS), psi1=psi, psi2=psi)
        for a1, a2 in TWOSTEP_TABLE_POINTS:
            lam, dirs = learnability(model, a1, a2, batch)
            cells = []
            for d in dirs:
                if d.step1:
                    cells.append("step 1")
                elif d.step2:
                    cells.append(f"step 2 (k={d.via_k})")
                else:
                    cells.append("no")
            rows.append([batch, _dec(a1), _dec(a2), str(lam), *cells])
    return Table(
        columns=["batch", "α1", "α2", "Λ", *TWOSTEP_TABLE_TARGETS],
        rows=rows,
        latex_columns=["batch", r"$\alpha_1$", r"$\alpha_2$", r"$\Lambda$",
                       *(r"\texttt{" + t + "}" for t in TWOSTEP_TABLE_TARGETS)],
        caption=("Directions learned by two GD steps, σ = (h1 + h2 + h3)/√3 (L = 3, so Λ <= 2), "
                 "y = Σ_k g_k(β_k·x), ψ = d/n = 1 per step (reused) or 2 (fresh halves)."),
        latex_caption=(r"Directions learned by two gradient steps, $\sigma = (h_1 + h_2 + h_3)/"
                       r"\sqrt3$ ($L = 3$, so $\Lambda \le 2$), $y = \sum_k g_k(\beta_k\cdot "
                       r"x)$; step 2 (k) names the first outlier term whose spike constant "
                       r"$C_k(\beta) \ne 0$. \texttt{bounded3} is a bounded odd target with "
                       r"$\mu_1 = 0$, $\mu_3 \ne 0$."),
        label="tab:twostep",
        align="lrrrllll",
    )


def _twostep_terms_table() -> Table:
    from fltheory.theory.twostep_terms import TwoStepModel, term_prediction

    sigma = "(He1(z) + He2(z)/sqrt(2) + He3(z)/sqrt(6))/sqrt(3)"
    rows = []
    for batch in ("reused", "fresh"):
        psi = Fraction(1) if batch == "reused" else Fraction(2)
        model = TwoStepModel.build(sigma, ["He1", "bounded3"], psi1=psi, psi2=psi)
        for k in range(3):
            cells = []
            for j in (0, 1):
                C = float(term_prediction(model, k, j, batch, with_Q=False).C)
                cells.append("0" if abs(C) < 1e-12 else f"{C:.5g}")
            rows.append([batch, str(k), *cells])
    return Table(
        columns=["batch", "k", "C_k(β1), g = He1", "C_k(β2), g = bounded3"],
        rows=rows,
        latex_columns=["batch", "$k$", r"$C_k(\beta_1)$, \texttt{He1}",
                       r"$C_k(\beta_2)$, \texttt{bounded3}"],
        caption=("Leading-order spike constants of the terms H_k of the second update "
                 "(σ = (h1 + h2 + h3)/√3, y = He1(β1·x) + bounded3(β2·x), ψ = 1 reused, 2 fresh)."),
        latex_caption=(r"Leading-order spike constants $C_k(\beta)$ of the terms $H_k$ of the "
                       r"second update, $(H_k\beta)_j \approx a_j^{k+1} C_k(\beta)/\sqrt N$ "
                       r"($\sigma = (h_1+h_2+h_3)/\sqrt3$, $y = \mathrm{He}_1(\beta_1\cdot x) + "
                       r"g(\beta_2\cdot x)$ with $g$ = \texttt{bounded3}; $\psi = d/n = 1$ "
                       r"reused, $2$ fresh)."),
        label="tab:twostep-terms",
        align="lrrr",
    )


QUADRATIC_TABLE_P = (2, 3, 4, 8)


def _quadratic_table() -> Table:
    import numpy as np
    import sympy as sp

    from fltheory.theory.quadratic import (
        hessian_plateau_counts,
        hessian_solution_counts,
        integrate,
        manifold_dimension,
        plateau,
    )

    p_star, eta, N = 2, Fraction(1, 10), 100
    rows, latex_q = [], []
    for p in QUADRATIC_TABLE_P:
        pl = plateau(p, p_star, eta)
        # escape time of the ODE from Q = I/4 and a fixed generic ρ(0) of Frobenius norm 1e-3
        R0 = np.random.default_rng(0).standard_normal((p, p_star))
        R0 *= 1e-3 / np.linalg.norm(R0)
        t = np.linspace(0, 200, 4001)
        sol = integrate(np.eye(p) / 4, R0, np.eye(p_star), float(eta), t)
        escape = t[np.argmax(np.linalg.norm(sol.R, axis=(1, 2)) > 0.5)]
        latex_q.append(sp.latex(pl.q_exact))
        neg, zero, pos = hessian_plateau_counts(p, p_star, N)
        sneg, szero, spos = hessian_solution_counts(p, p_star, N)
        rows.append([str(p), str(pl.q_exact), f"{pl.q:.5f}", f"{pl.loss:.5f}",
                     f"{pl.escape_rate:.5f}", f"{escape:.2f}",
                     str(manifold_dimension(p, p_star)), f"{neg}/{zero}/{pos}",
                     f"{sneg}/{szero}/{spos}"])
    return Table(
        columns=["p", "q* exact", "q*", "plateau loss", "escape rate", "t_esc (ODE)",
                 "dim manifold", "H plateau (−/0/+)", "H solution (−/0/+)"],
        rows=rows,
        latex_rows=[[r[0], f"${q}$", *r[2:]] for r, q in zip(rows, latex_q, strict=True)],
        latex_columns=["$p$", "$q^*$", "", "plateau loss", "escape rate",
                       r"$t_{\mathrm{esc}}$", r"$\dim$", r"$H_{\mathrm{plateau}}$",
                       r"$H_{\mathrm{sol}}$"],
        caption=("Quadratic networks under one-pass SGD, p* = 2, η = 1/10, mean-field "
                 "normalisation (a = 1/p, b = 1/p*, η_w = pη), T = I; Hessian counts at N = 100; "
                 "t_esc: ODE from Q = I/4, ‖ρ(0)‖ = 1e-3, first ‖ρ‖ > 1/2."),
        latex_caption=(r"Quadratic networks under one-pass SGD, $p^* = 2$, $\eta = 1/10$, "
                       r"mean-field normalisation ($a = 1/p$, $b = 1/p^*$, $\eta_w = p\eta$), "
                       r"$T = I$: plateau value and loss, escape rate, ODE escape time from "
                       r"$Q = I/4$, $\|\rho(0)\| = 10^{-3}$; dimension of the zero-loss "
                       r"manifold and Hessian eigenvalue counts (negative/zero/positive) at the "
                       r"plateau and at a solution, $N = 100$."),
        label="tab:quadratic",
        align="rlrrrrrrr",
    )


RECOVERY_TABLE_GAMMAS = (Fraction(1), Fraction(3, 2))


def _recovery_table() -> Table:
    from fltheory.theory.recovery import RecoveryModel, law_exponent

    d1 = 8
    models = [RecoveryModel.power_law(d1, float(g)) for g in RECOVERY_TABLE_GAMMAS]
    rows = []
    for i in range(d1):
        row = [str(i + 1)]
        for m in models:
            row += [f"{m.c[i]:.4f}", f"{m.theta()[i]:.4f}", f"{m.bbp_thresholds()[i]:.2f}",
                    f"{m.crossing(i):.2f}"]
        rows.append(row)
    rows.append(["C", *(x for m in models for x in ("", "", f"{m.weak_constant():.4f}", ""))])
    laws = ", ".join(f"γ = {g}: {law_exponent(g)}" for g in RECOVERY_TABLE_GAMMAS)
    return Table(
        columns=["k", *(x for g in RECOVERY_TABLE_GAMMAS
                        for x in (f"c_k γ={g}", "θ_k", "δ_k BBP", "δ at ρ²=1/2"))],
        rows=rows,
        latex_columns=["$k$", *(x for _ in RECOVERY_TABLE_GAMMAS
                                for x in ("$c_k$", r"$\theta_k$", r"$\delta_k^{\mathrm{BBP}}$",
                                          r"$\delta_{1/2}$"))],
        caption=(f"Sequential recovery, d1 = {d1} directions, c_k ∝ k^(−γ) for γ = 1 (left) "
                 "and 3/2 (right), rank label transform: θ_k = E[T(h_k² − 1)], the large-δ "
                 "threshold δ_k = E[T²]/θ_k² (n_k = δ_k D) and the Lu–Li δ at which ρ_k² = 1/2; "
                 f"C: weak-direction constant. MSE law exponents {laws}."),
        latex_caption=(f"Sequential recovery, $d_1 = {d1}$ directions, "
                       r"$c_k \propto k^{-\gamma}$ "
                       r"for $\gamma = 1$ (left) and $3/2$ (right), rank label transform: "
                       r"$\theta_k = E[T(h_k^2-1)]$, the large-$\delta$ threshold "
                       r"$\delta_k = E[T^2]/\theta_k^2$ ($n_k = \delta_k D$) and the Lu--Li "
                       r"$\delta$ at which $\rho_k^2 = 1/2$; $C$: weak-direction constant."),
        label="tab:recovery",
        align="r" + "rrrr" * len(RECOVERY_TABLE_GAMMAS),
    )


def _recovery_depth_table() -> Table:
    import mpmath

    from fltheory.theory.recovery import depth_rows

    def sci(x: int) -> str:
        return str(x) if x < 10**6 else mpmath.nstr(mpmath.mpf(x), 4, min_fixed=0, max_fixed=0)

    rows = []
    for r in depth_rows((10, 100, 1000, 10**4), (2, 3, 4)):
        d, q = r["d"], r["q"]
        rows.append([str(d), str(q), sci(r["hier"]), sci(r["kernel"]),
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


TABLES: dict[str, Callable[[], Table]] = {
    "recovery": _recovery_table,
    "recovery_depth": _recovery_depth_table,
    "fisher": _fisher_table,
    "quadratic": _quadratic_table,
    "twostep": _twostep_table,
    "twostep_terms": _twostep_terms_table,
    "hermite": _hermite_table,
    "lambda": _lambda_table,
}


def build_table(name: str) -> Table:
    return TABLES[name]()
