"""Views of the two-step GD paper (Moniri & Hassani): tables, figures, notebook.

Each builder asks the theory or the runs for its numbers and hands them to
:mod:`fltheory.render`; nothing is computed or checked here (the parameters' domains are
:mod:`fltheory.papers.twostep.params`'). Declared in :mod:`fltheory.papers.twostep`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fltheory.exact import to_decimal_str
from fltheory.papers.twostep.params import StepPairs
from fltheory.papers.twostep.phases import TWO_STEP_SIGMA_NAME
from fltheory.render.latex import latex_code
from fltheory.render.params import ViewParam, progress, view_params
from fltheory.render.plots import finish_size_axis, pyplot
from fltheory.results import Table

__all__ = [
    "NOTEBOOK",
    "OUTLIER_TABLE_ALPHA1",
    "OUTLIER_TABLE_SIGMAS",
    "TWOSTEP_TABLE_POINTS",
    "TWOSTEP_TABLE_TARGETS",
    "draw_twostep",
    "lambda_figure",
    "lambda_table",
    "twostep_figure",
    "twostep_outliers_table",
    "twostep_table",
    "twostep_terms_table",
]


@view_params(n=ViewParam("int", "Grid points per axis: α = 0, 1/(2n), ..., (n−1)/(2n).", 1, 50))
def lambda_table(n: int = 10) -> Table:
    """Λ(α1, α2) = ⌊α2/(1/2 − α1)⌋ (L = ∞), the number of spectral outliers of W2 beyond the
    one-step spike after two GD steps with η_i = N^(α_i) (Moniri & Hassani 2026), on the grid
    α1, α2 = 0, 1/(2n), ..., (n−1)/(2n); a boundary case (exponent exactly 0) is marked.

    Parameters
    ----------
    n
        Grid points per axis (default 10: 0, 0.05, ..., 0.45).
    """
    from fltheory.papers.twostep.phases import lambda_details

    grid = [Fraction(i, 2 * n) for i in range(n)]  # default: 0, 0.05, ..., 0.45
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
    """Grid values as short exact decimals (0, 0.05, ..., 0.45), a fraction where the decimal
    does not end (1/3)."""
    from fltheory.exact import fraction_str

    text = to_decimal_str(q, 10)
    return text if Fraction(text) == q else fraction_str(q)


TWOSTEP_TABLE_POINTS = ((Fraction(1, 10), Fraction(1, 5)), (Fraction(3, 10), Fraction(1, 4)),
                        (Fraction(2, 5), Fraction(3, 10)), (Fraction(9, 20), Fraction(3, 10)))


TWOSTEP_TABLE_TARGETS = ("He1", "He3", "He2", "bounded3")


@view_params(
    targets=ViewParam("strs", "Targets g_k of y = Σ_k g_k(β_k·x), one column each."),
    alpha1=ViewParam("rationals", "α1 of each row (paired with --alpha2).", 0, Fraction(1, 2)),
    alpha2=ViewParam("rationals", "α2 of each row (paired with --alpha1).", 0, 10),
)
def twostep_table(targets: Sequence[str] = TWOSTEP_TABLE_TARGETS,
                  alpha1: Sequence[Fraction] = tuple(a for a, _ in TWOSTEP_TABLE_POINTS),
                  alpha2: Sequence[Fraction] = tuple(b for _, b in TWOSTEP_TABLE_POINTS)
                  ) -> Table:
    """Which directions two GD steps learn (Moniri & Hassani 2026), σ = (h1 + h2 + h3)/√3,
    both batch modes (ψ = d/n = 1 reused, 2 fresh halves), at each (α1, α2): Λ and, per target,
    "step 1", "step 2 (k)" (the first outlier term whose spike constant C_k(β) ≠ 0) or "no"
    (:func:`fltheory.papers.twostep.terms.learnability`).

    Parameters
    ----------
    targets
        Targets, catalogue names or expressions in z (default He1, He3, He2, bounded3).
    alpha1, alpha2
        The rows' (α1, α2), paired (default (1/10, 1/5), (3/10, 1/4), (2/5, 3/10),
        (9/20, 3/10)).
    """
    from fltheory.papers.twostep.terms import batch_model, learnability

    points = StepPairs(alpha1, alpha2).points
    rows = []
    for batch in ("reused", "fresh"):
        progress(f"{batch} batch: {len(targets)} targets at {len(points)} points")
        model = batch_model(list(targets), batch)
        for a1, a2 in points:
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
        columns=["batch", "α1", "α2", "Λ", *targets],
        rows=rows,
        latex_columns=["batch", r"$\alpha_1$", r"$\alpha_2$", r"$\Lambda$",
                       *(r"\texttt{" + latex_code(t) + "}" for t in targets)],
        caption=(f"Directions learned by two GD steps, σ = {TWO_STEP_SIGMA_NAME} (L = 3, so Λ <= 2), "
                 "y = Σ_k g_k(β_k·x), ψ = d/n = 1 per step (reused) or 2 (fresh halves)."),
        latex_caption=(r"Directions learned by two gradient steps, $\sigma = (h_1 + h_2 + h_3)/"
                       r"\sqrt3$ ($L = 3$, so $\Lambda \le 2$), $y = \sum_k g_k(\beta_k\cdot "
                       r"x)$; step 2 (k) names the first outlier term whose spike constant "
                       r"$C_k(\beta) \ne 0$. \texttt{bounded3} is a bounded odd target with "
                       r"$\mu_1 = 0$, $\mu_3 \ne 0$."),
        label="tab:twostep",
        align="lrrr" + "l" * len(targets),
    )


@view_params(kmax=ViewParam("int", "Terms k = 0..kmax of the second update.", 0, 2))
def twostep_terms_table(kmax: int = 2) -> Table:
    """Leading-order spike constants C_k(β) of the terms H_k of the second GD update (Moniri &
    Hassani 2026), (H_k β)_j ≈ a_j^(k+1) C_k(β)/√N, for y = He1(β1·x) + bounded3(β2·x),
    σ = (h1 + h2 + h3)/√3, both batch modes
    (:func:`fltheory.papers.twostep.terms.term_prediction`).

    Parameters
    ----------
    kmax
        Highest term k (default 2 = L − 1, the last term of σ's degree L = 3).
    """
    from fltheory.papers.twostep.terms import batch_model, term_prediction

    rows = []
    for batch in ("reused", "fresh"):
        model = batch_model(["He1", "bounded3"], batch)
        for k in range(kmax + 1):
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
                 f"(σ = {TWO_STEP_SIGMA_NAME}, y = He1(β1·x) + bounded3(β2·x), ψ = 1 reused, "
                 "2 fresh)."),
        latex_caption=(r"Leading-order spike constants $C_k(\beta)$ of the terms $H_k$ of the "
                       r"second update, $(H_k\beta)_j \approx a_j^{k+1} C_k(\beta)/\sqrt N$ "
                       r"($\sigma = (h_1+h_2+h_3)/\sqrt3$, $y = \mathrm{He}_1(\beta_1\cdot x) + "
                       r"g(\beta_2\cdot x)$ with $g$ = \texttt{bounded3}; $\psi = d/n = 1$ "
                       r"reused, $2$ fresh)."),
        label="tab:twostep-terms",
        align="lrrr",
    )


#: the activations of :func:`twostep_outliers_table` (catalogue names / expressions in z)
OUTLIER_TABLE_SIGMAS = ("tanh", "erf", "relu", "gelu", "tanh(z+1/2)", "z**3")
#: its α1; the columns are the regions Λ = 1..4 of α2 at this α1 (α2 in [k/10, (k+1)/10))
OUTLIER_TABLE_ALPHA1 = Fraction(2, 5)


@view_params(sigma=ViewParam("strs", "Activations σ, catalogue names or expressions in z."))
def twostep_outliers_table(sigma: Sequence[str] = OUTLIER_TABLE_SIGMAS) -> Table:
    """The effective number of outliers of W2 (Moniri & Hassani 2026, σ-aware rule) for each
    activation and both batch modes against the generic 1 + Λ, in the regions Λ = 1..4 along α2
    at α1 = 2/5 (:func:`fltheory.papers.twostep.sigma.effective_phase`); zeros exact or
    numerical at 15 digits.

    Parameters
    ----------
    sigma
        Activations (default tanh, erf, relu, gelu, tanh(z+1/2), z**3).
    """
    from fltheory.papers.twostep.sigma import effective_phase

    rows = []
    for i, name in enumerate(sigma):
        progress(f"σ = {name} ({i + 1}/{len(sigma)})")
        for batch in ("reused", "fresh"):
            ph = effective_phase(OUTLIER_TABLE_ALPHA1, name, batch, dps=15)
            pres = ph.presence
            by_value = dict(zip((r.value for r in ph.regions), ph.effective, strict=True))
            cells = ["-" if lam not in by_value else
                     f"{1 + lam} → {'?' if by_value[lam] is None else by_value[lam]}"
                     for lam in range(1, 5)]
            rows.append([name, batch,
                         ", ".join(str(k + 1) for k, p in enumerate(pres.present) if p) or "none",
                         ", ".join(str(k + 1) for k, p in enumerate(pres.present)
                                   if p is None) or "-", *cells])
    return Table(
        columns=["σ", "batch", "k <= 4 with spike ≠ 0", "not covered",
                 *(f"Λ = {lam}" for lam in range(1, 5))],
        rows=rows,
        latex_columns=[r"$\sigma$", "batch", r"$k \le 4$, spike $\ne 0$", "not covered",
                       *(f"$\\Lambda = {lam}$" for lam in range(1, 5))],
        latex_rows=[[r"\texttt{" + latex_code(r[0].replace("**", "^")) + "}",
                     *r[1:4], *(c.replace("→", r"$\to$") for c in r[4:])] for r in rows],
        caption=("Outliers of W2 at α1 = 2/5 in the regions Λ = 1..4 of α2 (α2 in "
                 "[Λ/10, (Λ+1)/10)): generic 1 + Λ → effective count for σ (the one-step spike "
                 "if μ_1(σ) ≠ 0, plus the terms 1 <= k <= Λ whose spike is non-zero: "
                 "E[σ^(k+1)σ'^p] ≠ 0 for some p <= k, p = 0 only for a fresh batch; where σ' "
                 "jumps, with a reused batch, a term whose a^(k+1) and |a|a^k parts are both "
                 "non-zero counts twice: fltheory.papers.twostep.kinks); ? = a term not "
                 "covered; - = Λ beyond L − 1. Zeros: exact, or numerical at 15 digits."),
        latex_caption=(r"Outliers of $W_2$ at $\alpha_1 = 2/5$ in the regions $\Lambda = 1..4$ "
                       r"of $\alpha_2$: generic $1 + \Lambda$ $\to$ effective count for "
                       r"$\sigma$ (one-step spike if $\mu_1(\sigma) \ne 0$, plus the terms "
                       r"$1 \le k \le \Lambda$ with $E[\sigma^{(k+1)}\sigma'^p] \ne 0$ for "
                       r"some $p \le k$; $p = 0$ only for a fresh batch; where $\sigma'$ "
                       r"jumps, with a reused batch, a term whose $a^{k+1}$ and $|a|a^k$ parts "
                       r"are both non-zero counts twice). ? = not covered; -- = "
                       r"$\Lambda > L - 1$."),
        label="tab:twostep-outliers",
        align="llllrrrr",
    )


@view_params(grid=ViewParam("int", "Pixels per axis of the phase diagram.", 2, 2000))
def lambda_figure(grid: int = 200) -> Any:
    """Phase diagram of Λ(α1, α2) (L = ∞, Moniri & Hassani 2026) on [0, 1/2)², with the
    boundaries α2 = k(1/2 − α1), k = 1..10; Λ clipped at 10.

    Parameters
    ----------
    grid
        Pixels per axis (default 200; exact Λ at each pixel's corner).
    """
    from fractions import Fraction

    import numpy as np

    from fltheory.papers.twostep.phases import lambda_count

    plt = pyplot()
    values = np.array([[lambda_count(Fraction(i, 2 * grid), Fraction(j, 2 * grid))
                        for i in range(grid)] for j in range(grid)])
    fig, ax = plt.subplots(figsize=(5, 4.2))
    mesh = ax.pcolormesh(np.arange(grid) / (2 * grid), np.arange(grid) / (2 * grid),
                         np.minimum(values, 10), shading="auto", cmap="viridis")
    a1 = np.linspace(0, 0.5, 400)
    for k in range(1, 11):
        ax.plot(a1, k * (0.5 - a1), "w-", lw=0.6)
    ax.set_xlim(0, 0.5)
    ax.set_ylim(0, 0.5)
    ax.set_xlabel("α1")
    ax.set_ylabel("α2")
    ax.set_title("Λ(α1, α2): outliers of W2 beyond the one-step spike")
    fig.colorbar(mesh, ax=ax, label="Λ (clipped at 10)")
    fig.tight_layout()
    return fig


def draw_twostep(spectra: dict[str, Any], constants: dict[str, Any]) -> Any:
    """(a) singular values of W0, W1, W2 with W0's bulk edge; (b) the estimated spike constants
    Ĉ_k of the second-step terms against N, with the predicted C_k (dashed)."""
    import numpy as np

    plt = pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    for name, color in (("W0", "0.6"), ("W1", "C0"), ("W2", "C3")):
        sv = spectra[name]
        ax1.semilogy(np.arange(1, len(sv) + 1), sv, ".", ms=3, color=color, label=name)
    ax1.axhline(spectra["edge"], color="k", ls="--", lw=0.8, label="bulk edge of W0")
    ax1.set_xscale("log")
    ax1.set_xlabel("index")
    ax1.set_ylabel("singular value")
    ax1.set_title(f"N = n = d = {spectra['N']}, α1 = {spectra['alpha1']}, "
                  f"α2 = {spectra['alpha2']} (reused)")
    ax1.legend(fontsize=8)
    Ns = constants["N"]
    labels = {(0, 0): "k=0, β1 (He1)", (2, 0): "k=2, β1 (He1)", (2, 1): "k=2, β2 (τ=3)"}
    for i, ((k, j), label) in enumerate(labels.items()):
        est = constants["estimates"][:, :, k, j]
        pred = constants["predicted"][k, j]
        scale = abs(pred)
        ax2.errorbar(Ns, est.mean(axis=1) / scale,
                     yerr=est.std(axis=1, ddof=1) / np.sqrt(est.shape[1]) / scale, fmt="o-",
                     color=f"C{i}", label=f"{label}: C = {pred:.3g}")
    ax2.axhline(1, color="k", ls="--", lw=0.8)
    ax2.axhline(-1, color="k", ls="--", lw=0.8)
    finish_size_axis(ax2, Ns, "N", "Ĉ_k / |C_k| (predicted ±1)")
    fig.tight_layout()
    return fig


@view_params(
    N=ViewParam("int", "Size N = n = d of the spectrum panel (a).", 10, 4000),
    Ns=ViewParam("ints", "Sizes of the constants panel (b).", 10, 4000),
    seeds=ViewParam("int", "Repetitions per size in panel (b).", 2, 50),
    batch=ViewParam(("reused", "fresh"), "Batch of the second step."),
    seed=ViewParam("int", "Seed of the simulations.", 0, 2**63 - 1),
)
def twostep_figure(N: int = 1000, Ns: Sequence[int] = (400, 800, 1600), seeds: int = 6,
                   batch: str = "reused", seed: int = 0) -> Any:
    """The two-step figure (Moniri & Hassani 2026): (a) singular values of W0, W1, W2 at
    N = n = d, α1 = 0.4, α2 = 0.3, with W0's bulk edge; (b) the estimated spike constants Ĉ_k of
    the second-step terms against N with the predicted C_k (see :func:`draw_twostep`).

    Parameters
    ----------
    N
        Size of panel (a) (default 1000).
    Ns
        Sizes of panel (b) (default 400, 800, 1600).
    seeds
        Repetitions per size (default 6).
    batch
        "reused" (default) or "fresh".
    seed
        Seed of the simulations (default 0).
    """
    from fltheory.papers.twostep.runs import figure_runs

    return draw_twostep(*figure_runs(N, Ns, seeds, batch, seed, announce=progress))


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", r"""# Two steps of gradient descent (Moniri & Hassani 2026)

$f(x) = a^\top\sigma(Wx)/\sqrt N$, $W_0$ i.i.d. $N(0, 1/d)$, $a$ fixed, correlation loss,
$\eta_i = N^{\alpha_i}$. The second update is exactly $\eta_2\sum_{k<L}\varepsilon^k H_k$ with
$\varepsilon = \eta_1/\sqrt N$; its $k$-th term is an outlier when
$\alpha_2 + k(\alpha_1 - 1/2) > 0$, which gives
$\Lambda = \min(L-1, \lfloor \alpha_2/(1/2-\alpha_1) \rfloor)$ outliers beyond the one-step
spike. This notebook draws the phase diagram, asks which directions each batch mode learns, and
checks the leading-order spike constants $C_k$ of the terms against simulation."""),
    ("code", """%matplotlib inline
from fractions import Fraction
from fltheory.papers.twostep import TWO_STEP_SIGMA, TwoStepSetting, lambda_of, learn_of
from fltheory.papers.twostep.runs import figure_runs
from fltheory.papers.twostep.views import draw_twostep, lambda_figure

lambda_of(TwoStepSetting(Fraction(2, 5), Fraction(3, 10)))"""),
    ("code", """fig = lambda_figure()"""),
    ("code", """for batch in ("reused", "fresh"):  # ψ = d/n per step: 1 reused, 2 fresh halves
    display(learn_of(TwoStepSetting(Fraction(9, 20), Fraction(3, 10), sigma=TWO_STEP_SIGMA,
                                    targets=["He1", "He3", "He2"], batch=batch)))"""),
    ("markdown", r"""The outlier count of $W_2$ does not show $\Lambda$ at feasible $N$ (left: the
bulk of the $k \ge 1$ terms is heavy-tailed and as large as their spikes). What can be checked is
the constant of each term's spike: the estimate $\hat C_k$ (projection of $H_k v$ on the neuron
profile $a^{k+1}$) against the predicted $C_k$ (right, normalised so that the prediction is
$\pm 1$), flat in $N$."""),
    ("code", """fig = draw_twostep(*figure_runs(1000, (400, 800, 1600), seeds=6))"""),
]
