r"""Exact m → ∞ spectrum of random features for any activation σ: the face of the paper.

x ~ N(0, I_d); w_1, …, w_m i.i.d. N(0, s² I_d/d); K(w, w') = E_x[σ(w·x) σ(w'·x)]; the Fisher
(Gram) matrix J = (1/m)[K(w_i, w_j)]. Mehler + Funk–Hecke split the m → ∞ operator by harmonic
degree l into radial operators R_l whose eigenvalues λ_{l,0} >= λ_{l,1} >= … have multiplicity
N(d, l); the ReLU Fisher paper (:mod:`fltheory.papers.fisher`) is the case σ = relu, s = √d.

The derivation, the routes (exact for σ polynomial on each half-line, Gram at small d, Nyström
otherwise) and their precision checks are shared theory, in
:mod:`fltheory.engine.randomfeatures` (the command ``fltheory fisher --sigma`` of the ReLU paper
uses them too). This paper adds the approach to the rank-one large-d limit
(:func:`large_d_approach`): at fixed s the radial law concentrates at r = s (variance
s²/(2d)), c_{k,l}/c_{l,l} = O(d^{−(k−l)/2}), so R_l tends to the rank-one kernel
c_{l,l} μ_l(r) μ_l(r') and λ_{l,0}(d) ≈ c_{l,l}(d) μ_l(s)², λ_{l,1}/λ_{l,0} → 0 (measured for
tanh, l = 1: the relative gap falls like 1/d, λ_{1,1}/λ_{1,0} like 1/d²).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath

from fltheory.engine import randomfeatures as rf
from fltheory.engine.randomfeatures import (
    FLOAT_MAX_DPS,
    MAX_D,
    MAX_JMAX,
    MAX_L,
    MAX_WORK,
    RFLevel,
    RFSpectrum,
    kernel_trace,
    multiplicity,
)
from fltheory.papers.rf_spectrum.params import Approach
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = [
    "FLOAT_MAX_DPS",
    "MAX_D",
    "MAX_JMAX",
    "MAX_L",
    "MAX_WORK",
    "RFApproach",
    "RFLevel",
    "RFSpectrum",
    "kernel_trace",
    "large_d_approach",
    "multiplicity",
    "spectrum",
]


def spectrum(sigma: Any, d: int, scale: Any = 1, lmax: int = 4, jmax: int = 2,
             dps: int | None = 30) -> RFSpectrum:
    """The eigenvalues λ_{l,j} (l <= lmax, j <= jmax) of the m → ∞ random-feature operator
    for the activation ``sigma`` at dimension ``d`` and weight scale ``s``
    (w ~ N(0, s² I_d/d)), each with its multiplicity N(d, l), plus the trace identity:
    :func:`fltheory.engine.randomfeatures.spectrum` of the model
    :class:`~fltheory.engine.randomfeatures.RFModel` read once from these arguments.

    ``sigma``: a catalogue name or an expression in z (Hermite engine grammar), square-
    integrable under N(0, 1) and of at most polynomial growth; ``d``: integer in [2, 10^12];
    ``scale``: s > 0 (a rational as the command line reads it, or a sympy number such as
    sqrt(d)); ``lmax`` in [0, 60]; ``jmax`` in [0, 20]; ``dps`` in [5, 100], or None (what the
    command line uses without --dps: the highest precision within the work bound, each value
    with the digits it is confirmed to). Returns an :class:`RFSpectrum`.

    >>> spec = spectrum("relu", 3, lmax=2, jmax=1, dps=15)
    >>> [str(v.closed) for v in spec.levels]
    ['3/16', '0', '1/12', '0', '3/256', '0']
    >>> spec.eigenvalue(2, 0) == mpmath.mpf(3) / 256
    True
    """
    return rf.spectrum(rf.RFModel(sigma, d, scale, lmax, jmax, dps))


@dataclass(frozen=True)
class RFApproach(ShowsTable):
    """:func:`large_d_approach`: for each d, λ_{l,0}(d), the rank-one limit form
    c_{l,l}(d) μ_l(s)², their ratio − 1, and λ_{l,1}/λ_{l,0} (mpmath; None where undefined)."""

    sigma: str
    l: int
    scale: str
    mu_l: Any
    rows: tuple[tuple[int, Any, Any, Any, Any], ...]

    def table(self) -> Table:
        """d, λ_{l,0}, c_{l,l} μ_l(s)², relative gap, λ_{l,1}/λ_{l,0}."""
        def shown(x: Any) -> str:
            return "-" if x is None else str(mpmath.nstr(x, 8))

        return Table(columns=["d", "λ_l,0", "c_ll μ_l(s)²", "λ/limit − 1", "λ_l,1/λ_l,0"],
                     rows=[[str(d), *(shown(x) for x in rest)] for d, *rest in self.rows],
                     caption=(f"Approach to the rank-one large-d limit, σ = {self.sigma}, "
                              f"l = {self.l}, s = {self.scale}"))


def large_d_approach(sigma: Any, l: int, d_values: Sequence[int], scale: Any = 1,
                     dps: int = 15) -> RFApproach:
    """λ_{l,0}(d) against its large-d form c_{l,l}(d) μ_l(s)² (the radial law concentrates
    at r = s, R_l tends to rank one), and λ_{l,1}/λ_{l,0} → 0, for each d in ``d_values``.

    ``l`` in [0, 60]; ``d_values``: 1 to 20 integers d >= 2; other arguments as in
    :func:`spectrum`. μ_l(s) comes from the Hermite engine (exact where it can). Returns an
    :class:`RFApproach` (a table in a notebook).

    For σ = z², l = 0: λ_{0,0} = E[r⁴](1 + 2/d) = (1 + 2/d)², limit μ_0(1)² = 1, gap
    4/d + 4/d²:

    >>> a = large_d_approach("z**2", 0, [10, 1000], dps=10)
    >>> [mpmath.nstr(row[3], 4) for row in a.rows]
    ['0.44', '0.004004']
    """
    from dataclasses import replace

    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.hermite import coefficient
    from fltheory.engine.randomfeatures.radial import funk_hecke

    approach = Approach(sigma, l, d_values, scale, dps)
    l, dps = approach.l, approach.dps
    model = rf.RFModel(sigma, approach.d_values[0], scale, lmax=l, jmax=1, dps=dps)
    func, s = model.sigma, model.scale
    mu = coefficient(func.expr.subs(Z, s * Z), l, dps=dps)
    with mpmath.workdps(dps + 5):
        mu_l = mpmath.mpf(sp.N(mu.exact, dps + 5)) if mu.exact is not None else mu.numeric
    rows = []
    for d in approach.d_values:
        spec = rf.spectrum(replace(model, d=d))
        lam0, lam1 = spec.eigenvalue(l, 0), spec.eigenvalue(l, 1)
        c = funk_hecke(d, l, l)
        with mpmath.workdps(dps + 5):
            limit = mpmath.mpf(c.numerator) / c.denominator * mu_l**2
            gap = lam0 / limit - 1 if limit != 0 else None
            ratio = lam1 / lam0 if lam0 != 0 else None
        rows.append((d, lam0, limit, gap, ratio))
    return RFApproach(func.text, l, str(s), mu_l, tuple(rows))
