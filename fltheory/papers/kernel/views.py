"""What the kernel paper shows: a table of the spectra of common kernels, a table of the
proportional ridge risk, the figures of μ_k against k and of a learning curve against kernel
regression, and the notebook's cells. Each builder asks the theory or the runs for its numbers
and hands them to :mod:`fltheory.render`; nothing is computed here."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fltheory.render.params import ViewParam, progress, view_params
from fltheory.render.plots import pyplot
from fltheory.results import Table

__all__ = ["CURVE_N", "NOTEBOOK", "SPECTRA", "kernel_curve_figure", "kernel_ridge_table",
           "kernel_spectrum_figure", "kernel_table"]

#: the kernels of the spectra table and figure: (label, KernelSpec keyword arguments)
SPECTRA: tuple[tuple[str, dict[str, Any]], ...] = (
    ("ReLU NNGP", {"activation": "relu"}),
    ("ReLU NTK", {"activation": "relu", "kind": "ntk"}),
    ("ReLU NTK, depth 3", {"activation": "relu", "kind": "ntk", "depth": 3}),
    ("abs NNGP", {"activation": "abs"}),
    ("erf NNGP", {"activation": "erf"}),
    ("tanh NTK", {"activation": "tanh", "kind": "ntk"}),
    ("exp(2t − 2)", {"kernel": "exp(2*t - 2)"}),
    ("(1 + t)³/8", {"kernel": "(1 + t)**3/8"}),
)
#: sample sizes of the learning-curve figure's simulated points
CURVE_N = (20, 50, 100, 200, 500, 1000)


@view_params(d=ViewParam("int", "Dimension d of the sphere S^{d−1}.", 2, 10**6),
             digits=ViewParam("int", "Significant digits shown (at most those confirmed).", 3,
                              20))
def kernel_table(d: int = 10, digits: int = 6) -> Table:
    """Eigenvalues μ_0 … μ_5 of common dot-product kernels on S^{d−1} (P_k(1) = 1,
    multiplicity N(d, k)), each to ``digits`` significant digits or to the digits its bound
    confirms when fewer ('*'); exact zeros by parity shown as 0. Networks: He-normalised,
    no bias (``fltheory kernel spectrum --help``).

    Parameters
    ----------
    d
        Dimension of the sphere (default 10).
    digits
        Significant digits shown (default 6).
    """
    import mpmath

    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum

    rows = []
    for i, (label, kwargs) in enumerate(SPECTRA):
        progress(f"{label} ({i + 1}/{len(SPECTRA)})")
        s = spectrum(KernelSpec(**kwargs), Levels(d, 5, max(digits + 4, 20)))
        cells = []
        for lev in s.levels:
            if lev.zero:
                cells.append("0")
            elif lev.digits >= digits:
                cells.append(mpmath.nstr(lev.value, digits))
            elif lev.digits > 0:
                cells.append(mpmath.nstr(lev.value, lev.digits) + "*")
            else:
                cells.append("-")
        rows.append([label, _number(s.at_one_exact, s.at_one, digits), *cells])
    return Table(
        columns=["kernel", "κ(1)", *[f"μ_{k}" for k in range(6)]], rows=rows,
        latex_columns=["kernel", r"$\kappa(1)$", *[f"$\\mu_{k}$" for k in range(6)]],
        caption=f"Eigenvalues of dot-product kernels on the sphere S^{d - 1} (d = {d}), "
                f"{digits} digits ('*': fewer confirmed)",
        latex_caption=f"Eigenvalues $\\mu_k$ of dot-product kernels on $S^{{{d - 1}}}$ "
                      f"($d = {d}$, $P_k(1) = 1$), {digits} digits (*: fewer confirmed).",
        label="tab:fltheory-kernel", align="lr" + "r" * 6,
        notes=["networks: first layer N(0, 1), c_σ = 1/E[σ²], no bias; depth 2 unless said"])


def _number(exact: Any, value: Any, digits: int) -> str:
    """An exact value as it is, an integral numeric value as an integer, else ``digits``."""
    import mpmath

    if exact is not None:
        return str(exact)
    if abs(value - mpmath.nint(value)) <= mpmath.mpf(10) ** (-digits - 5) * max(1, abs(value)):
        return str(int(mpmath.nint(value)))
    return mpmath.nstr(value, digits)


@view_params(gamma=ViewParam("rationals", "Ratios γ = p/n, one row each.", 0, 1000, True))
def kernel_ridge_table(gamma: Sequence[Any] = (Fraction(1, 4), Fraction(1, 2), Fraction(1),
                                               Fraction(2), Fraction(4))) -> Table:
    """The proportional ridge risk (isotropic features, r² = σ² = 1): the optimal λ* = γσ²/r²
    with its risk (exact) and the ridgeless risk on both sides of the interpolation peak
    (Hastie et al. 2022; Dobriban & Wager 2018).

    Parameters
    ----------
    gamma
        Ratios γ = p/n (default 1/4, 1/2, 1, 2, 4).
    """
    import sympy as sp

    from fltheory.papers.kernel.params import Ridge
    from fltheory.papers.kernel.theory import ridge

    rows, latex_rows = [], []
    for g in gamma:
        a = ridge(Ridge(g, 1, 1, "optimal"))
        free = "∞" if a.ridgeless == sp.oo else f"{a.ridgeless} = {sp.N(a.ridgeless, 6)}"
        rows.append([str(a.question.gamma), str(a.lam), str(a.risk), str(sp.N(a.risk, 8)),
                     free])
        latex_rows.append([f"${sp.latex(sp.nsimplify(a.question.gamma))}$",
                           f"${sp.latex(a.lam)}$", f"${sp.latex(a.risk)}$",
                           f"${sp.N(a.risk, 8)}$",
                           r"$\infty$" if a.ridgeless == sp.oo else
                           f"${sp.latex(a.ridgeless)}$"])
    return Table(columns=["γ", "λ*", "R(λ*) exact", "R(λ*)", "ridgeless R"], rows=rows,
                 latex_columns=[r"$\gamma$", r"$\lambda^*$", r"$R(\lambda^*)$ exact",
                                r"$R(\lambda^*)$", "ridgeless $R$"],
                 latex_rows=latex_rows,
                 caption="Ridge regression with isotropic features, r² = σ² = 1: optimal ridge "
                         "and risk, and the ridgeless risk",
                 label="tab:fltheory-kernel-ridge", align="rllrl",
                 notes=["risk against the clean target; the noisy-label test error adds σ² = 1"])


@view_params(d=ViewParam("ints", "Dimensions, one panel each.", 2, 10**6),
             kmax=ViewParam("int", "Highest degree.", 1, 60))
def kernel_spectrum_figure(d: Sequence[int] = (3, 30), kmax: int = 20) -> Any:
    """μ_k against k (log scale) for the kernels of :data:`SPECTRA` (ReLU NNGP/NTK, depth 3,
    erf, tanh NTK, the RBF exp(2t − 2)), one panel per d; exact zeros (parity) are left out,
    values with fewer than 3 confirmed digits drawn hollow.

    Parameters
    ----------
    d
        Dimensions, one panel each (default 3, 30).
    kmax
        Highest degree (default 20).
    """
    import mpmath

    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum

    plt = pyplot()
    fig, axes = plt.subplots(1, len(d), figsize=(6 * len(d), 4), squeeze=False)
    for ax, dim in zip(axes[0], d, strict=True):
        for i, (label, kwargs) in enumerate(SPECTRA):
            if "kernel" in kwargs and "**3" in str(kwargs["kernel"]):
                continue  # a polynomial: three levels only
            progress(f"d = {dim}: {label}")
            s = spectrum(KernelSpec(**kwargs), Levels(dim, kmax, 20))
            ks = [lev.k for lev in s.levels if not lev.zero and lev.value > 0]
            vs = [float(mpmath.log10(lev.value)) for lev in s.levels
                  if not lev.zero and lev.value > 0]
            ok = [lev.digits >= 3 for lev in s.levels if not lev.zero and lev.value > 0]
            ax.plot(ks, vs, "-", color=f"C{i}", lw=0.8, label=label)
            ax.plot([k for k, g in zip(ks, ok, strict=True) if g],
                    [v for v, g in zip(vs, ok, strict=True) if g], "o", ms=3, color=f"C{i}")
            ax.plot([k for k, g in zip(ks, ok, strict=True) if not g],
                    [v for v, g in zip(vs, ok, strict=True) if not g], "o", ms=3,
                    mfc="none", color=f"C{i}")
        ax.set_xlabel("degree k")
        ax.set_ylabel("log10 μ_k")
        ax.set_title(f"eigenvalues on S^{dim - 1} (d = {dim})", fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


@view_params(d=ViewParam("int", "Dimension of the sphere.", 2, 200),
             seeds=ViewParam("int", "Regressions per simulated point.", 2, 64))
def kernel_curve_figure(d: int = 10, seeds: int = 6) -> Any:
    """The eigenlearning curve of the ReLU NTK (noisy labels σ = 1/2, ridgeless) for targets
    of unit norm in degree 1 and in degree 2, with kernel ridge regression at n in
    :data:`CURVE_N` (mean ± SE over ``seeds`` regressions).

    Parameters
    ----------
    d
        Dimension (default 10).
    seeds
        Regressions per point (default 6).
    """
    from fltheory.papers.kernel.params import Curve, KernelSpec, Levels, Target
    from fltheory.papers.kernel.runs import krr_run
    from fltheory.papers.kernel.theory import curve

    plt = pyplot()
    spec = KernelSpec(activation="relu", kind="ntk")
    fig, ax = plt.subplots(figsize=(6, 4))
    for degree in (1, 2):
        a = curve(spec, Levels(d, 42, 20), Curve("10..3000:60", 0, "1/2", Target(degree=degree)))
        ax.loglog([r.n for r in a.rows], [r.error for r in a.rows], "-", color=f"C{degree}",
                  label=f"curve, degree {degree}")
        pts = []
        for n in CURVE_N:
            progress(f"degree {degree}: kernel regression at n = {n}")
            pts.append(krr_run(spec, d, n, 0, "1/2", {degree: 1}, seeds))
        ax.errorbar([p.n for p in pts], [p.measured for p in pts],
                    yerr=[p.measured_se for p in pts], fmt="o", ms=4, color=f"C{degree}",
                    label=f"KRR, degree {degree}")
    ax.set_xlabel("n")
    ax.set_ylabel("test error E(f̂ − f*)²")
    ax.set_title(f"ReLU NTK on S^{d - 1}, σ = 1/2, ridgeless: curve and simulation",
                 fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


NOTEBOOK: list[tuple[str, str]] = [
    ("markdown", """# Kernel spectra and learning curves on the sphere

A dot-product kernel $\\kappa(x\\cdot y)$ on $S^{d-1}$ acts on the degree-$k$ spherical harmonics
as multiplication by $\\mu_k = E_t[\\kappa(t) P_k(t)]$ (Funk–Hecke, $P_k(1) = 1$), with
multiplicity $N(d, k)$. fltheory computes $\\mu_k$ exactly where a closed form exists (the ReLU
family at depth 2, polynomials) and otherwise with a bound on every value, at any $d$ up to
$10^9$ — then runs the eigenlearning equations on that spectrum and checks them against real
kernel ridge regression."""),
    ("code", """from fltheory.papers.kernel import spectrum, curve
from fltheory.papers.kernel.params import KernelSpec, Levels, Curve, Target, Ridge

spectrum(KernelSpec(activation="relu", kind="ntk"), Levels(3, 8))  # exact: rationals"""),
    ("code", """s = spectrum(KernelSpec(activation="relu", kind="ntk"), Levels(10**6, 200))
s.levels[200].shown(), s.share   # degree 200 at d = 10^6, and the Mercer share of κ(1) = 2"""),
    ("code", """spectrum(KernelSpec(activation="tanh", kind="ntk"), Levels(10, 6))  # bounded digits"""),
    ("markdown", """## Learning curves

Kernel ridge regression $\\hat f = k(x)^\\top (K + \\lambda I)^{-1} y$, error against the clean
target. The curve is the eigenlearning approximation; the figure puts real regressions beside
it."""),
    ("code", """a = curve(KernelSpec(activation="relu", kind="ntk"), Levels(10, 42),
          Curve("10..3000:8", 0, "1/2", Target(degree=2)))
a"""),
    ("code", """from fltheory.papers.kernel.views import kernel_curve_figure
kernel_curve_figure(d=10, seeds=4);"""),
    ("markdown", """## Proportional ridge regression and the staircase

The linear kernel with isotropic features is ridge regression in the proportional regime
(Hastie et al. 2022), exact; at $n = \\psi d^\\ell$ the eigenlearning equations tend to a ridge
problem at level $\\ell$ (the staircase)."""),
    ("code", """from fltheory.papers.kernel import ridge, staircase
r = ridge(Ridge("1/2", 1, 1, "optimal"))
r.lam, r.risk, r.ridgeless"""),
    ("code", """lev = staircase(KernelSpec(activation="relu", kind="ntk"), 1, [1, 4, 16, 64], 0.0,
                {1: 0.5, 2: 0.5}, 0.0)
list(zip(lev.psi, lev.error))   # the plateau at e_2 = 1/2 as ψ grows"""),
]
