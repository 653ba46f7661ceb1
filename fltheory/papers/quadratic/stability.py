r"""The plateau of the quadratic-network ODEs (Bocchi et al. 2026): the ρ = 0 fixed point q*(η), its
loss, the escape rates, and the stability bounds on the step η.

At ρ = 0, Q = q I, T = I (a = 1/p, b = 1/p*, η_w = pη) the Q-equation reduces to
q·[−(q − 1 + 2q/p) + η((q − 1)² + 2q²/p + 2 tr T²/p*² + 4q(q − 1)/p + 8q²/p² + σ²)] = 0, a
quadratic for q* whose small-η root tends to p/(p + 2); it exists while the discriminant is
>= 0 (η <= η_max). Linearising the ρ-equation there gives the rate
r_i = 2η(1 − q* − 2q*/p + 2τ_i/p*) along each teacher eigenvalue τ_i. Exact in sympy; see
:mod:`fltheory.papers.quadratic.theory` for the model and the derivation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import sympy as sp

from fltheory.args import fraction_text, read_count, read_finite, read_noise, read_step
from fltheory.exact import DomainError
from fltheory.papers.quadratic.params import Model

__all__ = ["PlateauResult", "linear_rate", "plateau", "plateau_at", "stability_bounds",
           "stability_text"]

def stability_bounds(p: int, p_star: int, noise: Fraction | int | float | str = Fraction(0)
                     ) -> dict[str, Any]:
    r"""Steps beyond which the mean-field dynamics (T = I, a = 1/p, b = 1/p*) cannot converge.

    ``plateau``: η_max, the largest step for which the norm-adjustment phase has a fixed point
    q*(η) (the discriminant of the plateau quadratic, :func:`plateau`); above it dq/dt > 0 for
    every q and q(t) blows up in finite time (the η² term grows like q³). Exact (sympy).

    ``solution`` (σ = 0): η_sol = p*/(2(p* + 2)), above which the zero-loss solutions are
    unstable. Derivation: at a solution W = M W*, a MᵀM = b I, let a student component
    orthogonal to the teacher's space have Gram s (fields μ ~ N(0, s)); with u = Mν,
    E[uuᵀ] = (p/p*)P (P the rank-p* projector), f − y = 2a u·μ + O(s), so
    ds/dt = −4aη_w E[(f − y) λ μᵀ]_sym + 4a²η_w² E[(f − y)² λλᵀ] restricted to s = εP is
    (8ηε/p*)(2η(p* + 2)/p* − 1) (a η_w = η): growth iff η > p*/(2(p* + 2)), for every p.
    (Checked against the numerical Jacobian of the derived ODE at a solution in the tests.)
    Between η_sol and η_max the plateau exists but the run cannot end at zero loss: it ends at
    a non-zero-loss state or blows up after the escape.

    Parameters: integers p, p* >= 1; label noise σ >= 0 (Fraction). Returns a dict: ``plateau``
    an exact sympy number (None when no positive bound exists), ``solution`` a Fraction (None
    when σ > 0).

    >>> b = stability_bounds(4, 2)
    >>> b["plateau"], b["solution"]
    (3/10, Fraction(1, 4))
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    noise = read_noise(noise)
    _, disc, (_, eta_s, s2), _ = _plateau_symbolic(p, p_star)
    roots = sp.solve(disc.subs(s2, sp.Rational((noise**2).numerator, (noise**2).denominator)),
                     eta_s)
    positive = sorted((r for r in roots if r.is_positive), key=float)
    return {"plateau": positive[0] if positive else None,
            "solution": Fraction(p_star, 2 * (p_star + 2)) if noise == 0 else None}



def stability_text(p: int, p_star: int, noise: Fraction | int | float | str = 0) -> str:
    """The stability bounds of :func:`stability_bounds` as one sentence (for error messages and
    summaries).

    >>> print(stability_text(4, 2).replace("; ", "\\n"))
    the plateau exists for η <= 3/10 ≈ 0.3
    zero-loss solutions are stable for η < p*/(2(p*+2)) = 1/4
    """
    b = stability_bounds(p, p_star, noise)
    parts = []
    if b["plateau"] is not None:
        parts.append(f"the plateau exists for η <= {b['plateau']} ≈ {float(b['plateau']):.4g}")
    if b["solution"] is not None:
        parts.append(f"zero-loss solutions are stable for η < p*/(2(p*+2)) = "
                     f"{fraction_text(b['solution'])}")
    return "; ".join(parts)

def linear_rate(q: Any, p: int, p_star: int, eta: Any, tau: Any = 1) -> Any:
    """Linear growth rate r = 2η(1 − q − 2q/p + 2τ/p*) of ρ along the teacher eigenvalue τ at
    ρ = 0, Q = q I (mean field, a η_w = η), the linearised ρ-equation of the module docstring.

    ``q``, ``eta`` and ``tau`` are finite real numbers (Fraction or int in, Fraction out; text
    such as ``"1/10"`` is read exactly; a numpy array of q gives an array: the rate along an
    ODE trajectory q(t)); p, p* integers >= 1. NaN, ±inf and non-numbers are a DomainError.

    >>> linear_rate(Fraction(2, 3), 4, 2, Fraction(1, 10))
    Fraction(1, 5)
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    return _rate(read_finite(q, "q"), p, p_star, read_finite(eta, "eta"), read_finite(tau, "tau"))


def _rate(q: Any, p: int, p_star: int, eta: Any, tau: Any = 1) -> Any:
    """:func:`linear_rate` on arguments already read (the plateau's rates, the escape law's
    rate along q(t))."""
    exact = all(isinstance(x, int | Fraction) for x in (q, eta, tau))  # exact in, exact out
    inv_p, inv_ps = (Fraction(1, p), Fraction(1, p_star)) if exact else (1 / p, 1 / p_star)
    return 2 * eta * (1 - q - 2 * q * inv_p + 2 * tau * inv_ps)


@dataclass(frozen=True)
class PlateauResult:
    """The ρ = 0 fixed point Q = q* I (mean field a = 1/p, b = 1/p*), from :func:`plateau`:
    ``q_exact`` (sympy) and ``q`` (float) the plateau value, ``loss`` the plateau loss,
    ``rates`` one escape rate per teacher eigenvalue τ_i, ``eta_max_exact`` the positive roots
    of the discriminant (the largest admissible steps) or None.

    A rate r is the linear growth rate of the overlaps ρ along τ_i's teacher direction at the
    plateau, ‖ρ(t)‖ ∝ e^{r t} with t = steps/N (the ODE's time), r = 2η(1 − q* − 2q*/p +
    2τ_i/p*) (:func:`linear_rate`); :attr:`escape_rate` is the largest, the direction that
    leaves first (for T = I all rates are equal)."""

    p: int
    p_star: int
    eta: Fraction
    q_exact: Any
    q: float
    loss: float
    rates: tuple[float, ...]
    eta_max_exact: Any

    @property
    def escape_rate(self) -> float:
        """max(rates): the growth rate per unit t = steps/N of ρ along the teacher direction
        that leaves the plateau first (the largest τ_i)."""
        return max(self.rates)

    def _repr_latex_(self) -> str:
        return (f"$q^* = {sp.latex(self.q_exact)} \\approx {self.q:.6g}$, plateau loss "
                f"${self.loss:.6g}$, escape rate $r = {self.escape_rate:.6g}$")


@lru_cache(maxsize=64)
def _plateau_symbolic(p: int, p_star: int,
                      tr_t2: Fraction | None = None) -> tuple[Any, Any, Any, Any]:
    """The plateau bracket as a quadratic in q; ``tr_t2`` = tr T² (default p*, T = I): the
    teacher enters the η term as 2b² tr T² with b = 1/p*."""
    q, eta, s2 = sp.symbols("q eta sigma2", positive=True)
    t2 = Fraction(p_star) if tr_t2 is None else Fraction(tr_t2)
    bracket = (-(q - 1 + 2 * q / p)
               + eta * ((q - 1) ** 2 + 2 * q**2 / p
                        + 2 * sp.Rational(t2.numerator, t2.denominator) / p_star**2
                        + 4 * q * (q - 1) / p + 8 * q**2 / p**2 + s2))
    poly = sp.Poly(sp.expand(bracket), q)
    A2, A1, A0 = (poly.coeff_monomial(q**2), poly.coeff_monomial(q), poly.coeff_monomial(1))
    disc = sp.expand(A1**2 - 4 * A2 * A0)
    # the root continuous with p/(p + 2) at η → 0 (A2 ∝ η): (−A1 − √disc)/(2A2) with A1 < 0;
    # the same root without the cancellation of a small η: 2A0/(−A1 + √disc)
    root = (-A1 - sp.sqrt(disc)) / (2 * A2)
    return root, disc, (q, eta, s2), (A2, A1, A0)


def plateau(p: int, p_star: int, eta: Fraction | int | float | str,
            noise: Fraction | int | float | str = Fraction(0),
            teacher: Sequence[Fraction] | None = None) -> PlateauResult:
    """Plateau value q*, plateau loss and escape rates (one per teacher eigenvalue τ_i), in the
    mean-field normalisation with T = diag(teacher) (default identity; the fixed point assumes
    tr T = p*, i.e. an average eigenvalue 1).

    Parameters: integers p, p* >= 1; step η >= 0 (Fraction, kept exact; η <= η_max, else
    DomainError naming η_max); label noise 0 <= σ <= 1000; ``teacher`` p* eigenvalues in
    [1/1000, 1000] with mean 1 (read as :class:`~fltheory.papers.quadratic.params.Model`).
    Returns a :class:`PlateauResult` with q* exact (sympy; the root of the quadratic in the
    module docstring continuous with p/(p + 2) at η → 0) and the loss
    ½((q* − 1)² + 2(q*²/p + tr T²/p*²) + σ²) and rates as floats.

    >>> r = plateau(4, 2, Fraction(1, 10))
    >>> r.q_exact, round(r.q, 6), round(r.loss, 6), round(r.escape_rate, 6)
    (3 - sqrt(5), 0.763932, 0.673762, 0.17082)
    >>> [round(x, 6) for x in plateau(4, 2, "1/10", teacher=["3/2", "1/2"]).rates]
    [0.265207, 0.065207]
    >>> plateau(2, 2, Fraction(0)).q_exact  # η → 0: p/(p + 2), no escape (rate 0)
    1/2
    """
    return plateau_at(Model(p, p_star, noise, teacher), read_step(eta, allow_zero=True))


def plateau_at(model: Model, eta: Fraction) -> PlateauResult:
    """:func:`plateau` of a :class:`~fltheory.papers.quadratic.params.Model` (p, p*, σ and the
    teacher's eigenvalues, which must have mean 1) at a step η >= 0 already read (exact).

    >>> plateau_at(Model(4, 2), Fraction(1, 10)).q_exact
    3 - sqrt(5)
    """
    p, p_star, noise, taus = model.p, model.p_star, model.noise, model.taus
    if model.teacher is not None and sum(taus) != p_star:
        raise DomainError("teacher", ",".join(map(str, taus)),
                          f"{p_star} positive eigenvalues with mean 1 (tr T = p*)")
    tr_t2 = sum(t * t for t in taus)
    root, disc, (_, eta_s, s2), coeffs = _plateau_symbolic(p, p_star, tr_t2)
    subs = {eta_s: sp.Rational(eta.numerator, eta.denominator),
            s2: sp.Rational((noise**2).numerator, (noise**2).denominator)}
    eta_max = sp.solve(disc.subs(s2, subs[s2]), eta_s)
    qf = None
    if eta == 0:
        q_exact = sp.Rational(p, p + 2)
    else:
        d = disc.subs(subs)
        if d < 0:
            bound = [e for e in eta_max if e.is_positive]
            raise DomainError("eta", fraction_text(eta), "steps for which the plateau fixed point "
                              "q*(η) exists: eta <= "
                              + (f"{bound[0]} ≈ {float(bound[0]):.6g}" if bound else "η_max"),
                              reason="is too large: no plateau fixed point")
        A2, A1, A0 = (c.subs(subs) for c in coeffs)
        q_exact = sp.nsimplify(sp.simplify(root.subs(subs)))
        # nsimplify searches for a simple number near a 15-digit evaluation: keep its answer
        # only when it is exactly a root of the plateau quadratic, and the right one (for a
        # tiny η the 15-digit evaluation cancels), else the cancellation-free form
        stable = 2 * A0 / (-A1 + sp.sqrt(d))
        q_stable = float(sp.N(stable, 30))
        if sp.expand(A2 * q_exact**2 + A1 * q_exact + A0) != 0 \
                or not abs(float(q_exact) - q_stable) <= 1e-9 * max(1.0, abs(q_stable)):
            q_exact, qf = stable, q_stable
    qf = float(q_exact) if qf is None else qf
    loss = 0.5 * ((qf - 1) ** 2 + 2 * (qf**2 / p + float(tr_t2) / p_star**2)
                  + float(noise) ** 2)
    rates = tuple(float(_rate(qf, p, p_star, float(eta), float(tau))) for tau in taus)
    return PlateauResult(p, p_star, eta, q_exact, qf, loss, rates,
                         [e for e in eta_max if e.is_positive] or None)
