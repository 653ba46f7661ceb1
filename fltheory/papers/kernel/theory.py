r"""Kernel spectra on the sphere and the learning curves of kernel ridge regression: the face of
the kernel paper (docs: ``docs/papers/kernel.rst``).

Conventions, printed with every answer:

* x, y uniform on S^{d−1}, t = x·y; a dot-product kernel κ(x·y) has eigenvalues μ_k on the
  degree-k spherical harmonics (Funk–Hecke), μ_k = E_t[κ(t) P_k(t)], P_k the Gegenbauer
  polynomial with P_k(1) = 1, multiplicity N(d, k); Σ_k N(d, k) μ_k = κ(1) (Mercer).
* A network's NNGP/NTK: :mod:`fltheory.engine.kernels.networks` (first layer N(0, 1) weights,
  later N(0, c_σ/width) with c_σ = 1/E[σ(z)²], bias N(0, β²)).
* Kernel ridge regression f̂ = k(x)ᵀ(K + λI_n)⁻¹y with y = f*(x) + ε, ε ~ N(0, σ²); error
  E_x(f̂ − f*)² (clean), and the noisy-label test error (clean + σ²) beside it.

What is exact: the eigenvalues of the arc-cosine family at depth 2 without bias (Gamma ratios,
rational multiples of Γ(d/2)²/(πΓ((d+1)/2)²)), of polynomial kernels and polynomial activations
(rationals); every other value carries a bound from which its confirmed digits follow
(:mod:`fltheory.engine.kernels`). The learning curves are the eigenlearning equations
(:mod:`fltheory.engine.kernels.curves`), an approximation at small n; the proportional ridge risk
is exact (:mod:`fltheory.engine.kernels.ridge`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from fltheory.engine.kernels.activations import ActivationForm
from fltheory.engine.kernels.moments import confirmed_digits
from fltheory.engine.kernels.networks import Eigen
from fltheory.engine.spherical import multiplicity
from fltheory.exact import DomainError, fraction_str
from fltheory.papers.kernel.params import (
    FAST_ACTIVATIONS,
    Curve,
    KernelSpec,
    Levels,
    PolynomialTarget,
    Ridge,
    Target,
)
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = ["CONVENTIONS", "DIGITS_WARN", "STAIRCASE_SOURCES", "TAIL_WARN", "CurveAnswer",
           "KernelSpectrum", "Level", "RFSpectrumRelation", "RandomFeaturesAnswer", "RidgeAnswer",
           "StaircaseLevel", "curve", "curve_warnings", "eigen", "polynomial_target",
           "random_features", "ridge", "spectrum", "staircase", "sum_text", "taylor"]

CONVENTIONS = {
    "sphere": "x, y uniform on S^{d−1}, t = x·y",
    "eigenvalues": "μ_k = E_t[κ(t) P_k(t)] (Funk–Hecke), P_k Gegenbauer with P_k(1) = 1, "
                   "multiplicity N(d, k); Σ_k N(d, k) μ_k = κ(1)",
    "digits": "each μ_k to the digits its error bound confirms (all --dps digits when exact)",
}
#: bounds of the composed route (smooth σ deeper than 2 or with bias): kmax·depth and dps
SMOOTH_DEEP_WORK = 200
SMOOTH_DEEP_DPS = 40
#: bound of the Hermite route (smooth σ, depth 2, no bias): (kmax + 50)·(dps + 10)², the
#: coefficients needed (~kmax + 2 dps) at working precision ~dps (gelu NTK on S^1 at kmax 200,
#: dps 30, near the bound: about 15 s alone, 45 s on a loaded machine)
SMOOTH_WORK = 600_000
#: bound of the series route of the ReLU family deeper than 2 or with bias:
#: depth·(kmax + 32)·(dps + 10), one complex recursion of depth layers per Cauchy point, the
#: points growing with kmax (depth 8, kmax 200, dps 30 near the bound: about 50 s loaded)
KINKED_DEEP_WORK = 80_000
NETWORK = ("depth L weight layers; first layer w ~ N(0, I_d) (w·x ~ N(0, 1)), later layers "
           "N(0, c_σ/width) with c_σ = 1/E[σ(z)²] (ReLU: 2, He), bias N(0, β²); "
           "NNGP Σ^(L−1), NTK Θ^(L) (Jacot et al. 2018; Arora et al. 2019, eq. 4)")


# --------------------------------------------------------------------------- spectra


def sum_text(value: Any, bound: Any, cap: int) -> str:
    """A sum of μ_k's to the digits its error ``bound`` confirms, at most ``cap`` ('~' and two
    digits when none is; '0 ± b' when the bound reaches the value).

    >>> sum_text(mpmath.mpf("0.123456789"), mpmath.mpf("1e-6"), 10), sum_text(1, 0, 4)
    ('0.1235', '1.000')
    """
    if value == 0 or bound >= abs(value):
        return "0" if bound == 0 else f"0 ± {mpmath.nstr(bound, 2)}"
    digits = confirmed_digits(value, bound, cap)
    if digits == 0:
        return "~" + mpmath.nstr(value, 2)
    # trailing zeros kept: each one is a confirmed digit; an int or a Fraction taken at the
    # digits asked (mpmath's default 15 digits cut the JSON's 30 to binary64 noise)
    with mpmath.workdps(cap + 10):
        v = value if isinstance(value, mpmath.mpf) else mpmath.mpmathify(value)
        return mpmath.nstr(v, digits, strip_zeros=False)


@dataclass(frozen=True)
class Level:
    """Degree k: multiplicity N(d, k), the exact value (sympy, or None), the value at ``dps``
    (mpmath) with a ``bound`` on its error and the ``digits`` that bound confirms."""

    k: int
    multiplicity: int
    exact: Any
    value: Any
    bound: Any
    digits: int

    @property
    def zero(self) -> bool:
        """Exactly zero (by parity or a closed form)."""
        return self.value == 0 and self.bound == 0

    def shown(self) -> str:
        """The value to its confirmed digits ('0' for an exact zero; '|μ_k| <= b' when only a
        bound is known)."""
        if self.value == 0:
            return "0" if self.bound == 0 else f"|μ| <= {mpmath.nstr(self.bound, 3)}"
        if self.digits <= 0:
            return f"{mpmath.nstr(self.value, 3)} (unconfirmed, ± {mpmath.nstr(self.bound, 2)})"
        # trailing zeros kept: "0.375000000000000" has the 15 digits its column claims
        return mpmath.nstr(self.value, self.digits, strip_zeros=False)

    def latex(self) -> str:
        """:meth:`shown` as LaTeX (math mode; no Unicode μ or ±, which pdflatex refuses)."""
        if self.value == 0 and self.bound != 0:
            return rf"$|\mu_{{{self.k}}}| \le {_latex_number(self.bound, 3)}$"
        if self.value != 0 and self.digits <= 0:
            return (f"${_latex_number(self.value, 3)}$ (unconfirmed, "
                    rf"$\pm {_latex_number(self.bound, 2)}$)")
        return f"${self.shown()}$"

    def exact_text(self, limit: int = 80) -> str:
        """The exact value as text when known and at most ``limit`` characters, else ""."""
        if self.exact is None:
            return ""
        text = str(self.exact)
        return text if len(text) <= limit else ""


@dataclass(frozen=True)
class KernelSpectrum(ShowsTable):
    """The eigenvalues μ_0 … μ_kmax of one kernel on S^{d−1}, with κ(1), κ(−1), the Mercer sum
    Σ_{k <= kmax} N(d, k) μ_k against κ(1), the method and its notes. A table in a notebook."""

    spec: KernelSpec
    levels_asked: Levels
    levels: tuple[Level, ...]
    at_one: Any
    at_one_exact: Any
    at_minus_one: Any
    mercer: Any
    method: str
    notes: tuple[str, ...]

    @property
    def d(self) -> int:
        return int(self.levels_asked.d)

    @property
    def share(self) -> Any:
        """Σ_{k <= kmax} N(d, k) μ_k / κ(1)."""
        with mpmath.workdps(self.levels_asked.dps + 5):
            return +(self.mercer / self.at_one) if self.at_one else mpmath.mpf(0)

    @property
    def mercer_bound(self) -> Any:
        """Σ_{k <= kmax} N(d, k)·(the bound of μ_k): the Mercer sum's error (κ(1) is known to
        more digits than any μ_k, so the share's relative error is the sum's)."""
        with mpmath.workdps(self.levels_asked.dps + 5):
            return mpmath.fsum(lev.multiplicity * lev.bound for lev in self.levels)

    def mercer_text(self, cap: int = 15) -> tuple[str, str]:
        """The Mercer sum and its share of κ(1), each to the digits the μ_k's bounds confirm
        (at most ``cap`` and ``cap`` − 5).

        >>> from fltheory.papers.kernel.params import KernelSpec, Levels
        >>> spectrum(KernelSpec(kernel="exp(2*t - 2)"), Levels(3, 2, 20)).mercer_text()
        ('0.879118901042160', '0.8791189010')
        """
        bound = self.mercer_bound
        return (sum_text(self.mercer, bound, cap),
                sum_text(self.share, bound / abs(self.at_one) if self.at_one else bound,
                         cap - 5))

    @property
    def conventions(self) -> dict[str, str]:
        out = dict(CONVENTIONS)
        if self.spec.activation is not None:
            out["network"] = NETWORK
        return out

    def rf_relation(self) -> RFSpectrumRelation | None:
        """The relation of these μ_l to the random-feature spectrum of ``fltheory fisher
        --sigma`` (:class:`RFSpectrumRelation`) where one holds: an NNGP of depth 2 without bias
        of a positively homogeneous σ (the relu/abs/leaky family, or a step); else None."""
        spec = self.spec
        if (spec.activation is None or spec.kind != "nngp" or int(spec.depth) != 2
                or spec.bias):
            return None
        form = _form(spec)
        if form.family not in ("linear", "step"):
            return None
        degree = 1 if form.family == "linear" else 0
        relu = form.family == "linear" and (form.a, form.c) == (1, 0)
        second = (Fraction(form.a) ** 2 + Fraction(form.c) ** 2) / 2
        return RFSpectrumRelation(str(spec.activation), self.d, degree, second,
                                  Fraction(self.d) * second if relu else None)

    def __repr__(self) -> str:
        values = ", ".join(lev.exact_text(20) or lev.shown()[:12] for lev in self.levels[:6])
        more = ", …" if len(self.levels) > 6 else ""
        return (f"KernelSpectrum({self.spec.name}, d={self.d}, kmax={self.levels_asked.kmax}: "
                f"μ = {values}{more})")

    def table(self) -> Table:
        """k, N(d, k), μ_k exact (when short), μ_k to its confirmed digits, digits, cumulative
        share of κ(1)."""
        rows, latex_rows = [], []
        dps = self.levels_asked.dps
        total = total_bound = mpmath.mpf(0)
        for lev in self.levels:
            with mpmath.workdps(dps + 5):
                total += lev.multiplicity * lev.value
                total_bound += lev.multiplicity * lev.bound
                one = abs(self.at_one) if self.at_one else mpmath.mpf(1)
                share = total / one if self.at_one else mpmath.mpf(0)
            mult = str(lev.multiplicity) if lev.multiplicity < 10**15 else \
                f"{mpmath.nstr(mpmath.mpf(lev.multiplicity), 6)}"
            exact = lev.exact_text() or "-"
            digits = "exact" if lev.bound == 0 else str(lev.digits)
            row = [str(lev.k), mult, exact, lev.shown(), digits,
                   sum_text(share, total_bound / one, 10)]
            rows.append(row)
            latex_rows.append([row[0], f"${mult}$" if "e" not in mult else mult,
                               _latex_exact(lev), lev.latex(), row[4], row[5]])
        return Table(columns=["k", "N(d, k)", "μ_k exact", "μ_k", "digits", "share of κ(1)"],
                     rows=rows,
                     latex_columns=["$k$", "$N(d,k)$", r"$\mu_k$ exact", r"$\mu_k$", "digits",
                                    r"share of $\kappa(1)$"],
                     latex_rows=latex_rows,
                     caption=f"Eigenvalues of {self.spec.name} on S^{self.d - 1} (d = {self.d})",
                     label="tab:fltheory-kernel-spectrum", align="rrllrr",
                     notes=[self.method, *self.notes])


@dataclass(frozen=True)
class RFSpectrumRelation:
    """Where a depth-2 NNGP meets fltheory's random-feature spectrum (``fltheory fisher
    --sigma``, :mod:`fltheory.engine.randomfeatures`). For σ positively homogeneous of degree
    ``degree`` q — a·relu(z) + c·relu(−z) (q = 1) or a·1(z > 0) + c·1(z < 0) (q = 0) — and
    random features w ~ N(0, s² I_d/d), x ~ N(0, I_d): σ(w·x) = ‖w‖^q σ(ŵ·x), so
    K(w, w') = E_x σ(w·x)σ(w'·x) = ‖w‖^q ‖w'‖^q · E[σ(z)²] · κ(ŵ·ŵ') with κ the NNGP of depth 2
    without bias (normalised κ(1) = 1, c_σ = 1/E[σ²]) and ŵ uniform on S^{d−1}, independent of
    ‖w‖. The degree-l radial operator therefore has rank one (the function ‖w‖^q):
    λ_(l,0) = E‖w‖^{2q} · E[σ²] · μ_l = s^{2q} · E[σ²] · μ_l (E‖w‖² = s²) and λ_(l,j) = 0 for
    j >= 1. For ReLU, the Fisher paper's model (``fltheory fisher`` without --sigma) is s = √d:
    λ_l = (d/2) · μ_l. ``second_moment`` is E[σ(z)²] = (a² + c²)/2, exact.

    >>> r = spectrum(KernelSpec(activation="relu"), Levels(6, 2)).rf_relation()
    >>> r.factor(Fraction(3, 2)), r.fisher_factor
    (Fraction(9, 8), Fraction(3, 1))
    """

    activation: str
    d: int
    degree: int
    second_moment: Fraction
    #: λ_l / μ_l of ``fltheory fisher --d d`` (ReLU, s = √d), None for another σ
    fisher_factor: Fraction | None

    def factor(self, s: Fraction | int) -> Fraction:
        """λ_(l,0)/μ_l at scale s > 0: s^{2q}·E[σ²]."""
        return Fraction(s) ** (2 * self.degree) * self.second_moment

    def command(self, s: object = "s") -> str:
        """The command line that prints the random-feature spectrum this relation is about."""
        import shlex

        return f"fltheory fisher --sigma {shlex.quote(self.activation)} --d {self.d} --scale {s}"

    @property
    def fisher_command(self) -> str | None:
        """``fltheory fisher --d d`` (the Fisher paper's ReLU, s = √d) for ReLU, else None."""
        return None if self.fisher_factor is None else f"fltheory fisher --d {self.d}"

    @property
    def formula(self) -> str:
        """λ_(l,0) in terms of μ_l and s, with E[σ²] written out: ``(1/2)·s²·μ_l``."""
        m = fraction_str(self.second_moment)
        coefficient = "" if self.second_moment == 1 else f"({m})·" if "/" in m else f"{m}·"
        return f"{coefficient}{'s²·' if self.degree else ''}μ_l"

    @property
    def text(self) -> str:
        """The relation as printed by ``fltheory kernel spectrum`` (one line)."""
        kind = ("positively homogeneous of degree 1: K(w, w') = ‖w‖‖w'‖·E[σ²]·κ(ŵ·ŵ'), "
                "E‖w‖² = s²" if self.degree else
                "homogeneous of degree 0: K(w, w') = E[σ²]·κ(ŵ·ŵ'), whatever s")
        scale = "s²·" if self.degree else ""
        out = (f"{self.command()} prints, for every s > 0, λ_(l,0) = {scale}E[σ(z)²]·μ_l = "
               f"{self.formula} (E[σ(z)²] = {fraction_str(self.second_moment)}) and "
               f"λ_(l,j) = 0 for j >= 1, μ_l being μ_k above at k = l (σ {kind})")
        if self.fisher_factor is not None:
            out += (f"; {self.fisher_command} (ReLU, s = √d) prints λ_l = (d/2)·μ_l = "
                    f"{fraction_str(self.fisher_factor)}·μ_l")
        return out

    def as_json(self) -> dict[str, Any]:
        return {"command": self.command(), "lambda_l0": f"{self.formula}",
                "lambda_lj": "0 for j >= 1", "second_moment": fraction_str(self.second_moment),
                "scale_power": 2 * self.degree,
                "fisher_command": self.fisher_command,
                "fisher_factor": None if self.fisher_factor is None
                else fraction_str(self.fisher_factor)}


def _latex_number(x: Any, n: int) -> str:
    r"""x to n digits in LaTeX: 1.2e-5 as 1.2\times10^{-5}.

    >>> _latex_number(mpmath.mpf("7.94e-49"), 3), _latex_number(mpmath.mpf("0.25"), 2)
    ('7.94\\times10^{-49}', '0.25')
    """
    text = mpmath.nstr(x, n)
    if "e" in text:
        mant, exp = text.split("e")
        return rf"{mant}\times10^{{{int(exp)}}}"
    return text


def _latex_exact(lev: Level) -> str:
    if not lev.exact_text():
        return "--"
    if hasattr(lev.exact, "latex"):  # the arc-cosine family: LaTeX without sympy
        return f"${lev.exact.latex()}$"
    import sympy as sp

    return f"${sp.latex(lev.exact)}$"


def _form(spec: KernelSpec) -> ActivationForm:
    """The activation's family, refused here when no route of the recursions takes it."""
    if spec.activation in FAST_ACTIVATIONS:
        family, a, c = FAST_ACTIVATIONS[spec.activation]
        form = ActivationForm(family, None, Fraction(a), Fraction(c))
    else:
        from fltheory.engine.kernels.activations import activation_form

        form = activation_form(spec.expr)
    shown = str(spec.activation)
    if form.family == "kinked":
        raise DomainError("activation", shown, "a·relu(z) + c·relu(−z), a step, a polynomial "
                          "or a smooth σ (no Abs/sign/Max/Min/Heaviside otherwise)",
                          reason="has a kink the recursions do not take (its Hermite "
                                 "coefficients need a quadrature each: fltheory hermite)")
    if form.family == "smooth":
        import sympy as sp

        from fltheory.engine.expressions import Z
        from fltheory.engine.integrability import check_square_integrable

        check_square_integrable(spec.expr, "activation", shown)  # E[σ²] < ∞: a dual exists
        if spec.kind == "ntk":
            check_square_integrable(sp.diff(spec.expr, Z), "activation",
                                    f"σ' of {shown}")  # E[σ'²] < ∞: the NTK is finite
    if form.family == "step" and spec.kind == "ntk":
        raise DomainError("kind", "ntk", "nngp for a step activation (σ' is a Dirac mass: "
                          "the NTK is infinite at t = 1)")
    if form.family == "polynomial":
        from fltheory.engine.kernels.networks import MAX_POLY_DEGREE

        p = len(form.coefficients) - 1
        degree = p ** (int(spec.depth) - 1) if p else 0
        if degree > MAX_POLY_DEGREE:
            raise DomainError("depth", spec.depth, f"depths with deg(σ)^(L−1) <= "
                              f"{MAX_POLY_DEGREE} for a polynomial σ",
                              reason=f"gives a kernel of degree {degree}")
    return form


def eigen(spec: KernelSpec, levels: Levels,
          progress: Callable[[str], None] | None = None) -> Eigen:
    """The engine's answer for this kernel (:class:`~fltheory.engine.kernels.networks.Eigen`):
    values, bounds, exact values where known, κ(±1) and the method; refusals (an activation no
    route takes, a composed route beyond its cost bound) come first.

    >>> eigen(KernelSpec(activation="abs"), Levels(3, 2)).method
    'closed form (arc-cosine kernels, Gamma ratios)'
    """
    d, kmax, dps = int(levels.d), int(levels.kmax), int(levels.dps)
    if spec.kernel is not None:
        from fltheory.engine.kernels.expression import expression_eigenvalues

        return expression_eigenvalues(spec.expr, d, kmax, dps, progress=progress)
    from fltheory.engine.kernels.networks import Network, network_eigenvalues

    net = Network(_form(spec), str(spec.kind), int(spec.depth), Fraction(spec.bias))
    # the composed route (smooth σ deeper than 2 or with bias) evaluates depth truncated duals
    # of ~kmax + 2 dps terms at ~8 kmax points, at 4/3 of dps + 5 digits: bounded before it
    # starts
    if net.form.family == "smooth" and (net.depth > 2 or net.bias) and (
            kmax * net.depth > SMOOTH_DEEP_WORK or dps > SMOOTH_DEEP_DPS):
        raise DomainError("kmax", kmax, f"kmax·depth <= {SMOOTH_DEEP_WORK} and --dps <= "
                          f"{SMOOTH_DEEP_DPS} for a smooth σ deeper than 2 or with bias",
                          reason=f"(with depth {net.depth}, dps {dps}) would compose series "
                                 "of several hundred terms at thousands of points")
    family = net.form.family
    if family == "smooth" and net.depth == 2 and not net.bias and (
            (kmax + 50) * (dps + 10) ** 2 > SMOOTH_WORK):
        raise DomainError("kmax", kmax, f"(kmax + 50)·(dps + 10)² <= {SMOOTH_WORK} for a smooth "
                          "σ (the Hermite route)",
                          reason=f"with --dps {dps} would need ~{kmax + 2 * dps + 80}+ Hermite "
                                 f"coefficients at {dps}+ digits (work "
                                 f"{(kmax + 50) * (dps + 10) ** 2})")
    if family in ("linear", "step") and (net.depth > 2 or net.bias) and (
            net.depth * (kmax + 32) * (dps + 10) > KINKED_DEEP_WORK):
        raise DomainError("kmax", kmax, f"depth·(kmax + 32)·(dps + 10) <= {KINKED_DEEP_WORK} "
                          "for the ReLU family deeper than 2 or with bias (the series route)",
                          reason=f"with depth {net.depth} and --dps {dps} would evaluate the "
                                 "kernel's recursion at thousands of complex points (work "
                                 f"{net.depth * (kmax + 32) * (dps + 10)})")
    return network_eigenvalues(net, d, kmax, dps, progress=progress)


def spectrum(spec: KernelSpec, levels: Levels,
             progress: Callable[[str], None] | None = None) -> KernelSpectrum:
    """μ_0 … μ_kmax of the kernel on S^{d−1}, each with its multiplicity and confirmed digits.

    >>> s = spectrum(KernelSpec(activation="relu", kind="ntk"), Levels(3, 4))
    >>> [str(lev.exact) for lev in s.levels], s.at_one_exact
    (['1/2', '1/3', '5/64', '0', '1/192'], Fraction(2, 1))
    >>> mpmath.nstr(s.share, 6)
    '0.96875'
    """
    e = eigen(spec, levels, progress)
    d, dps = int(levels.d), int(levels.dps)
    out = []
    with mpmath.workdps(dps + 10):
        mercer = mpmath.mpf(0)
        for k, (value, bound) in enumerate(zip(e.values, e.bounds, strict=True)):
            mult = multiplicity(d, k)
            exact = e.exact[k] if e.exact is not None else None
            digits = dps if bound == 0 else confirmed_digits(value, bound, dps)
            out.append(Level(k, mult, exact, value, bound, digits))
            mercer += mult * value
        # the sum as it stands at dps + 10 digits (a unary + outside this block rounded it
        # to mpmath's default 53 bits: JSON printed 0.69999999999999995559… for 7/10)
        return KernelSpectrum(spec, levels, tuple(out), e.at_one, e.exact_one,
                              e.at_minus_one, mercer, e.method, e.notes)


# --------------------------------------------------------------------------- learning curves


def polynomial_target(target: PolynomialTarget, d: int) -> Target:
    """The energy per harmonic degree of f*(x) = p(x·u) on S^{d−1}, exact: p = Σ_k c_k P_k
    with c_k = N(d, k) E_t[p(t) P_k(t)] (E[P_k²] = 1/N(d, k)), so the degree-k part has energy
    e_k = N(d, k)·(Σ_j p_j a_{j,k})², a_{j,k} = E_t[t^j P_k(t)] exact; Σ_k e_k = E_t[p(t)²]
    (Parseval). Degrees of zero energy are left out.

    >>> polynomial_target(PolynomialTarget("t**2"), 3).energies
    {0: Fraction(1, 9), 2: Fraction(4, 45)}
    """
    from fltheory.engine.kernels.moments import gegenbauer_moment

    d = int(d)
    energies: dict[int, Fraction] = {}
    for k in range(len(target.coefficients)):
        c = sum((p * gegenbauer_moment(d, k, j) for j, p in enumerate(target.coefficients)
                 if p), Fraction(0))
        if c:
            energies[k] = multiplicity(d, k) * c * c
    total = sum(energies.values(), Fraction(0))
    if total > 10**6:
        raise DomainError("target_polynomial", target.polynomial, "a target with E[p(x·u)²] <= "
                          "10^6 (the energies' range)",
                          reason=f"has E[p(x·u)²] = {float(total):.4g} on S^{d - 1}")
    return Target(energies=energies)


@dataclass(frozen=True)
class CurveRow:
    """One n of a learning curve (floats): the ridge used, κ_eff, E_0, clean and noisy test
    errors, bias and variance, learnability of each target degree, μ_K/κ_eff."""

    n: int
    ridge: float
    kappa: float
    E0: float
    error: float
    noisy: float
    bias: float
    variance: float
    learnability: dict[int, float]
    tail_ratio: float


@dataclass(frozen=True)
class CurveAnswer(ShowsTable):
    """A learning curve on an exact spectrum: the spectrum, the question and one row per n."""

    spectrum: KernelSpectrum
    question: Curve
    rows: tuple[CurveRow, ...]

    def table(self) -> Table:
        degrees = sorted(self.question.target.energies)
        cols = ["n", "λ", "κ_eff", "E_0", "error (clean)", "test error (noisy labels)",
                *[f"L_{k}" for k in degrees]]
        rows = [[str(r.n), _g(r.ridge), _g(r.kappa), _g(r.E0), _g(r.error), _g(r.noisy),
                 *[_g(r.learnability[k]) for k in degrees]] for r in self.rows]
        notes = ["eigenlearning equations (Bordelon, Canatar & Pehlevan 2020; Simon et al. "
                 "2023): an approximation at small n (see the claims)",
                 f"degrees beyond kmax = {self.spectrum.levels_asked.kmax} enter through their "
                 "trace R/κ_eff; largest μ_kmax/κ_eff over the curve: "
                 f"{_g(max(r.tail_ratio for r in self.rows))}"]
        return Table(columns=cols, rows=rows,
                     caption="Learning curve of kernel ridge regression, "
                             f"{self.spectrum.spec.name}, d = {self.spectrum.d}",
                     label="tab:fltheory-kernel-curve",
                     align="r" * len(cols), notes=notes)


#: μ_kmax/κ_eff above which the degrees beyond kmax are learned in part (their trace alone,
#: as the effective ridge takes them, no longer describes them)
TAIL_WARN = 0.01
#: confirmed digits of a μ_k below which the curve says it rests on an unconfirmed value
DIGITS_WARN = 3


def curve_warnings(a: CurveAnswer) -> list[str]:
    """What the curve rests on that it cannot vouch for: a truncation at kmax that modes
    beyond it defeat (μ_kmax/κ_eff >= TAIL_WARN: with --kmax 2 for a degree-2 target the
    error was 8.6× too high and said nothing), and μ_k with few confirmed digits where they
    matter.
    >>> from fltheory.papers.kernel.params import Curve, Levels, Target
    >>> a = curve(KernelSpec(kernel="exp(2*t - 2)"), Levels(10, 2),
    ...           Curve("100,1000", 0, 0, Target(degree=2)))
    >>> curve_warnings(a)[0][:34]
    'warning: μ_kmax/κ_eff reaches 20.7'
    """
    out = []
    worst = max(r.tail_ratio for r in a.rows)
    kmax = a.spectrum.levels_asked.kmax
    if worst >= TAIL_WARN:
        out.append(f"warning: μ_kmax/κ_eff reaches {worst:.3g} (>= {TAIL_WARN}): degrees above "
                   f"kmax = {kmax} are partly learned at these n and enter only through their "
                   "trace; raise --kmax")
    # a level matters where some n learns it in part (μ_k >= 10⁻³ κ_eff) or its modes hold
    # a visible part of the trace (N_k μ_k >= 10⁻⁶ κ(1))
    kappa = min(r.kappa for r in a.rows)
    one = float(a.spectrum.at_one)
    weak = [lev.k for lev in a.spectrum.levels
            if not lev.zero and lev.digits < DIGITS_WARN
            and (abs(float(lev.value)) >= 1e-3 * kappa
                 or lev.multiplicity * abs(float(lev.value)) >= 1e-6 * one)]
    if weak:
        ks = ", ".join(str(k) for k in weak[:8]) + (", …" if len(weak) > 8 else "")
        out.append(f"warning: μ_k at k = {ks} ha{'s' if len(weak) == 1 else 've'} fewer than "
                   f"{DIGITS_WARN} confirmed digits (kernel spectrum prints them): the curve "
                   "rests on those values")
    return out


def _g(x: float) -> str:
    if math.isinf(x):
        return "inf"
    return f"{x:.6g}"


def _curve_spectrum(s: KernelSpectrum) -> Any:
    from fltheory.engine.kernels.curves import Spectrum

    values = [lev.value for lev in s.levels]
    return Spectrum.from_values(values, [lev.multiplicity for lev in s.levels], s.at_one)


def curve(spec: KernelSpec, levels: Levels, question: Curve,
          progress: Callable[[str], None] | None = None) -> CurveAnswer:
    """The eigenlearning curve at each n of ``question`` (ridge fixed, or optimal per n).

    A target degree above ``levels.kmax`` is refused (its eigenvalue was not computed).

    >>> from fltheory.papers.kernel.params import Target
    >>> a = curve(KernelSpec(activation="relu", kind="ntk"), Levels(3, 40),
    ...           Curve("10,100", 0, 0, Target(degree=1)))
    >>> [round(r.error, 6) for r in a.rows]
    [0.022159, 3e-06]
    """
    import numpy as np

    from fltheory.engine.kernels.curves import curve_point, optimal_ridge

    target = question.target
    if target.top > int(levels.kmax):
        raise DomainError("kmax", levels.kmax, f"kmax >= {target.top}, the highest degree of the "
                          "target", reason="is below the target's degrees")
    s = spectrum(spec, levels, progress)
    cs = _curve_spectrum(s)
    energies = np.zeros(int(levels.kmax) + 1)
    for k, e in target.energies.items():
        energies[k] = float(e)
    noise2 = float(question.noise) ** 2
    rows = []
    for n in question.n:
        if question.ridge == "optimal":
            p = optimal_ridge(cs, energies, float(n), noise2)
        else:
            p = curve_point(cs, energies, float(n), float(question.ridge), noise2)
        rows.append(CurveRow(n, p.ridge, p.kappa, p.E0, p.error, p.noisy, p.bias, p.variance,
                             {k: float(p.L[k]) for k in target.energies}, p.tail_ratio))
    return CurveAnswer(s, question, tuple(rows))


# --------------------------------------------------------------------------- ridge regression


@dataclass(frozen=True)
class RidgeAnswer:
    """The proportional-regime answer: the ridge used (exact), the risk and its parts (exact
    sympy, numeric at ``dps``), the noisy-label test error, and both ridgeless risks."""

    question: Ridge
    lam: Any
    risk: Any
    bias: Any
    variance: Any
    noisy: Any
    ridgeless: Any
    optimal_lam: Any
    optimal_risk: Any


def ridge(question: Ridge) -> RidgeAnswer:
    """Hastie et al. (2022) / Dobriban & Wager (2018) at γ, r², σ and λ (exact).

    >>> a = ridge(Ridge("1/2", 1, 1, "optimal"))
    >>> a.lam, a.risk, a.ridgeless
    (1/2, -1 + sqrt(2), 1)
    """
    from fltheory.engine.kernels.ridge import ridge_risk, ridgeless_risk

    g, r2, sig = question.gamma, question.signal, question.noise
    ridgeless = ridgeless_risk(g, r2, sig)
    best = ridge_risk(g, r2, sig, None) if r2 > 0 else None
    if question.ridge == "optimal":
        assert best is not None
        r = best
    elif question.ridge == 0:
        import sympy as sp

        s2 = sp.Rational(sig.numerator, sig.denominator) ** 2
        return RidgeAnswer(question, sp.Integer(0), ridgeless, None, None,
                           ridgeless + s2 if ridgeless != sp.oo else sp.oo, ridgeless,
                           best.lam if best else None, best.risk if best else None)
    else:
        r = ridge_risk(g, r2, sig, question.ridge)
    return RidgeAnswer(question, r.lam, r.risk, r.bias, r.variance, r.noisy, ridgeless,
                       best.lam if best else None, best.risk if best else None)


# --------------------------------------------------------------------------- the staircase


@dataclass(frozen=True)
class StaircaseLevel:
    """The polynomial-regime limit at level ℓ (n = ψ d^ℓ, d → ∞): b_ℓ = lim N(d, ℓ) μ_ℓ (the
    Taylor coefficient of κ), the mass R_ℓ of the higher degrees, and per ψ the effective ridge
    θ = κ_eff/μ_ℓ, the learnability of degree ℓ and the clean error."""

    ell: int
    b: float
    rest: float
    psi: tuple[float, ...]
    theta: tuple[float, ...]
    learnability: tuple[float, ...]
    error: tuple[float, ...]
    #: ρ = (λ + R_ℓ)/b_ℓ, the effective ridge of the level-ℓ ridge problem
    rho: float = 0.0
    #: e_{>ℓ}, the clean error between levels ℓ and ℓ + 1 (ψ → ∞ here, ψ → 0 at level ℓ + 1)
    plateau: float = 0.0
    #: (ψ*, error at ψ*) of the interior peak of ψ ↦ error at this ρ (None: no peak;
    #: ρ = 0 with effective noise: ψ* = 1/ℓ! and an infinite error)
    peak: tuple[float, float] | None = None


#: The statement each output of :func:`staircase` rests on (printed with the answer).
STAIRCASE_SOURCES: dict[str, str] = {
    "learned": "degrees k < ℓ learned (their error → 0), k > ℓ not (their error → e_k) at "
               "n ≍ d^ℓ: Ghorbani, Mei, Misiakiewicz & Montanari 2021 (Ann. Statist. 49, the "
               "kernel ridge regression theorem, stated for d^(ℓ+δ) <= n <= d^(ℓ+1−δ); its "
               "number not checked against a copy here) and Misiakiewicz 2022 (arXiv:2204.10425, "
               "abstract: for κ ∉ ℕ KRR fits exactly a degree-⌊κ⌋ polynomial approximation); at "
               "κ = ℓ ∈ ℕ itself: our reading of Misiakiewicz 2022 and Hu & Lu 2022",
    "level": "degree ℓ at n/d^ℓ → ψ: ridge regression on N(d, ℓ) isotropic features with "
             "n/N(d, ℓ) → α = ψ ℓ!, signal e_ℓ, noise e_{>ℓ} + σ² and ridge ρ = (λ + R_ℓ)/b_ℓ "
             "(the higher degrees act as ridge): the form of the limit in Misiakiewicz 2022 "
             "(arXiv:2204.10425, abstract: double descent 'depending on the effective "
             "regularization and signal-to-noise ratio at level κ') and Hu & Lu 2022 "
             "(arXiv:2205.06798, n ≍ d^k); their theorem numbers and constants not checked "
             "against a copy here: the constants are our reading, the d → ∞ limit of the "
             "eigenlearning equations, equal to Hastie et al. 2022 Thm. 2 at γ = 1/α, "
             "λ_H = ρ/α (checked in tests/papers/kernel/test_independent_kernel.py)",
    "plateau": "ψ → ∞ (between levels ℓ and ℓ + 1): clean error → e_{>ℓ}, the label noise "
               "averaged out: Ghorbani, Mei, Misiakiewicz & Montanari 2021 (as for 'learned'), "
               "and the α → ∞ limit of the level-ℓ formula",
    "peak": "Xiao, Hu, Misiakiewicz, Lu & Pennington 2022 (arXiv:2205.14846, abstract: a peak "
            "in the learning curve whenever m ≈ d^r/r!, i.e. α = 1, the ridgeless ρ = 0 case); "
            "at ρ > 0 located here (our computation) as the interior local maximum of "
            "ψ ↦ error of the level-ℓ formula",
}


def taylor(spec: KernelSpec, J: int, dps: int = 20) -> tuple[list[Any], Any]:
    """b_0 … b_J of κ(t) = Σ_j b_j t^j and κ(1) (exact for polynomials; Cauchy integral or
    Hermite coefficients otherwise, :func:`fltheory.engine.kernels.networks.taylor_coefficients`).

    >>> b, one = taylor(KernelSpec(kernel="exp(2*t - 2)"), 2)
    >>> [round(float(v), 10) for v in b], float(one)
    ([0.1353352832, 0.2706705665, 0.2706705665], 1.0)
    """
    if spec.kernel is not None:
        from fltheory.engine.kernels.expression import rational_polynomial
        from fltheory.engine.kernels.series import taylor as cauchy

        coeffs = rational_polynomial(spec.expr)
        with mpmath.workdps(dps + 10):
            if coeffs is not None:
                out = [mpmath.mpf(c.numerator) / c.denominator for c in coeffs[: J + 1]]
                total = sum(coeffs, Fraction(0))
                return (out + [mpmath.mpf(0)] * (J + 1 - len(out)),
                        mpmath.mpf(total.numerator) / total.denominator)
            import sympy as sp

            from fltheory.engine.expressions import Z

            fn = sp.lambdify(Z, spec.expr, modules="mpmath")
            one = mpmath.mpf(fn(mpmath.mpf(1)))
            return list(cauchy(fn, J, dps, one).coefficients), one
    from fltheory.engine.kernels.networks import Network, taylor_coefficients

    net = Network(_form(spec), str(spec.kind), int(spec.depth), Fraction(spec.bias))
    try:
        return taylor_coefficients(net, J, dps)
    except ValueError:
        raise DomainError("activation", spec.activation, "the arc-cosine family, a polynomial, "
                          "or a smooth σ at depth 2 without bias (the Taylor coefficients of "
                          "this kernel are not offered)") from None


def staircase(spec: KernelSpec, ell: int, psis: list[float], ridge_: float,
              energies: dict[int, float], noise2: float) -> StaircaseLevel:
    """The limit of the eigenlearning equations at n = ψ d^ℓ, d → ∞
    (:func:`~fltheory.engine.kernels.curves.limit_point`): degrees below ℓ learned, above ℓ
    not, degree ℓ a ridge problem with n/N(d, ℓ) → α = ψ ℓ! and effective ridge
    ρ = (λ + R_ℓ)/b_ℓ, where b_ℓ = lim N(d, ℓ) μ_ℓ is the Taylor coefficient of κ and
    R_ℓ = κ(1) − Σ_{k <= ℓ} b_k the mass of the higher degrees. This is the shape of the
    test-error limit of Misiakiewicz (2022, abstract: "double descent … depending on the
    effective regularization and signal-to-noise ratio at level κ") and Hu & Lu (2022) for
    n/d^ℓ → ψ; its constants here come from the eigenlearning equations (the claim
    kernel.staircase checks them against kernel regression). Also the plateau e_{>ℓ} and the
    peak (ψ*, error) of ψ ↦ error at this ρ (:func:`~fltheory.engine.kernels.curves.limit_peak`);
    :data:`STAIRCASE_SOURCES` names the statement each output rests on.

    >>> lev = staircase(KernelSpec(kernel="t/2 + t**2/2"), 1, [0.5, 2.0], 0.0, {1: 1.0}, 0.0)
    >>> [round(e, 6) for e in lev.error]
    [0.674437, 0.207107]
    """
    from fltheory.engine.kernels.curves import limit_peak, limit_point

    coefficients, at_one = taylor(spec, ell + 1)
    b = float(coefficients[ell])
    if b <= 0:
        raise DomainError("ell", ell, "a degree with b_ℓ > 0 (the kernel's Taylor coefficient)",
                          reason=f"has b_{ell} = 0: degree {ell} is never learned")
    rest = max(float(at_one) - float(sum(coefficients[: ell + 1])), 0.0)
    rho = (ridge_ + rest) / b
    higher = sum(e for k, e in energies.items() if k > ell)
    level = energies.get(ell, 0.0)
    thetas, Ls, errors = [], [], []
    for psi in psis:
        alpha = psi * math.factorial(ell)
        theta, L, err = limit_point(alpha, rho, level, higher, noise2)
        thetas.append(theta)
        Ls.append(L)
        errors.append(err)
    top = limit_peak(rho, level, higher, noise2)
    peak = None if top is None else (top[0] / math.factorial(ell), top[1])
    return StaircaseLevel(ell, b, rest, tuple(psis), tuple(thetas), tuple(Ls), tuple(errors),
                          rho, higher, peak)


# --------------------------------------------------------------------------- random features


@dataclass(frozen=True)
class RandomFeaturesAnswer:
    """The proportional limit of random-features ridge regression (Mei & Montanari 2019,
    :mod:`fltheory.engine.kernels.rf`): σ's Hermite parts μ_0², μ_1², μ_*² (σ normalised to
    E σ(G)² = 1), ζ² = μ_1²/μ_*², λ̄ = λ/μ_*², the bias and variance factors B, V and the clean
    test error F_1² B + (τ² + F_*²) V + F_*²."""

    question: Any
    mu0sq: float
    mu1sq: float
    mustar2: float
    zeta2: float
    lam_bar: float
    bias: float
    variance: float
    risk: float


def random_features(question: Any) -> RandomFeaturesAnswer:
    """Random-features ridge regression at N/d → ψ_1, n/d → ψ_2 for the activation of
    ``question`` (:class:`~fltheory.papers.kernel.params.RandomFeatures`): μ_0², μ_1² are the
    first two Taylor coefficients b_0, b_1 of its depth-2 NNGP (κ(1) = 1, the He normalisation,
    so μ_*² = 1 − b_0 − b_1); the limit is our transcription of Mei & Montanari (2019, Def. 1
    and Thm. 1; the paper's full text was not at hand), equal at generic parameters to two
    public transcriptions (tests/papers/kernel/test_citations.py), checked against a simulation
    and against the ψ_1 → ∞ kernel limit (tests/papers/kernel/test_independent_kernel.py).

    >>> from fltheory.papers.kernel.params import RandomFeatures
    >>> a = random_features(RandomFeatures("relu", 2, 3, "1/10", 1, 0, "1/2"))
    >>> round(a.mu1sq, 6), round(a.risk, 4)
    (0.5, 0.4412)
    """
    from fltheory.engine.kernels.rf import rf_risk

    b, one = taylor(question.spec, 1)
    mu0sq, mu1sq = float(b[0] / one), float(b[1] / one)
    mustar2 = 1.0 - mu0sq - mu1sq
    if mustar2 <= 1e-12 or mu1sq <= 0:
        raise DomainError("activation", question.activation, "a σ with μ_1 ≠ 0 and a nonlinear "
                          "part μ_*² > 0 (Mei & Montanari's setting)",
                          reason=f"has μ_1² = {mu1sq:.6g}, μ_*² = {mustar2:.6g}")
    lam_bar = float(question.ridge) / mustar2
    zeta2 = mu1sq / mustar2
    r = rf_risk(float(question.psi1), float(question.psi2), zeta2, lam_bar,
                float(question.signal), float(question.nonlinear), float(question.noise) ** 2)
    return RandomFeaturesAnswer(question, mu0sq, mu1sq, mustar2, zeta2, lam_bar, r.bias,
                                r.variance, r.risk)
