r"""Spectral methods for a single-index link y = g(z), z = β·x ~ N(0, 1): when the spectral
estimator recovers β at a linear number of samples, with which preprocessing, and how well.

**Setting** (the normalisation of :mod:`fltheory.engine.spectral.luli`): n samples x ~ N(0, I_d),
α = n/d, the estimator is the top eigenvector of D = (1/n) Σ T(y_μ) x_μ x_μᵀ.

* If E[z | y] is not almost surely 0 (generative exponent 1, decided by the Hermite engine's
  :func:`~fltheory.engine.hermite.generative_exponent`), the linear estimator
  (1/n) Σ y_μ x_μ (more generally Σ E[z|y_μ] x_μ) is positively correlated with β at every
  α > 0: weak recovery needs no threshold (α_c = 0).
* Otherwise, with m(y) = E[z² | y], the spectral weak-recovery threshold is (Mondelli &
  Montanari 2018, *Fundamental limits of weak recovery with applications to phase retrieval*,
  Theorem 1 / eq. (12), real case)

  .. math::  α_c = 1 \big/ \mathbb{E}_y\big[(m(y) − 1)^2\big],

  infinite when m ≡ 1 (generative exponent >= 3: no spectral method works at linear α), and it
  is reached by the preprocessing T*(y) = 1 − 1/m(y) (Luo, Alghamdi & Lu 2019, *Optimal
  spectral initialization for signal recovery with applications to phase retrieval*, which
  shows it is optimal at every α; any positive multiple gives the same eigenvector). Checked
  here independently: the Lu–Li overlap of T* leaves 0 exactly at α_c, and at α = 0.7 and 2 it
  beats other bounded T, Mondelli–Montanari's threshold-optimal (y − 1)/(y + √α − 1) among
  them (tests; the optimality statement itself is quoted, its text was not at hand).
* For y = g(z) deterministic, z given y is one of the preimages z_i of y with probability
  ∝ φ(z_i)/|g'(z_i)| (co-area formula), or, on a flat piece A of g, E[z² 1_A]/P(A). When g is
  even and strictly monotone on (0, ∞), y determines |z|: m(g(z)) = z² and α_c = 1/E[(z² − 1)²]
  = 1/2 exactly, the known real phase-retrieval value (y = z²: Mondelli & Montanari 2018,
  δ_u = 1/2; T*(y) = 1 − 1/y). Other even polynomial links are computed by tanh-sinh quadrature
  over z with m from the real roots of g(z) − y, at ``dps`` + 10 and ``dps`` + 20 digits
  (digits printed: those on which both agree).

* A link made of flat pieces and strictly monotone pieces with disjoint images (sign,
  Heaviside, relu, clamps, finite-label links) has α_c in closed form
  (:func:`piecewise_second_moment`); for a *linear* link that value is the spectral estimator's
  own threshold, reported beside α_c = 0 (``spectral_alpha_c``; ReLU: 1, a strictly monotone
  link: 1/2), and with noise it is :func:`noisy_alpha_c`.
* A preprocessing T with a pole where T → +∞ at a label value is refused (sup T = ∞) before the
  Lu–Li equations are solved.

The Lu–Li overlap of the estimator with a given T as a function of α (:func:`link_overlap`) is
solved in double precision by :func:`fltheory.engine.spectral.luli.luli_overlap`, the law of
(T(g(z)), z²) discretised by composite Gauss–Legendre quadrature in z (two resolutions
compared).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from fltheory.args import read_rational, read_real
from fltheory.engine.expressions import Z
from fltheory.engine.spectral.luli import DiscreteLaw, LuLiOverlap, luli_overlap
from fltheory.exact import DomainError, check_dps

__all__ = ["MAX_NOISE", "LinkAnswer", "Y", "link_overlap", "link_threshold", "noisy_alpha_c",
           "noisy_preprocessing_law", "preprocessing_law"]

#: The label variable of a preprocessing expression T(y).
Y = sp.Symbol("y", real=True)
_GUARD = 10
_TIME = 10.0  # seconds of sympy work for the parity/monotonicity/inverse questions
#: Largest noise level σ of y = g(z) + σε (α_c grows without bound with σ; beyond, the
#: quadrature's relative accuracy on E[(m − 1)²] → 0 is the limit).
MAX_NOISE = 100


@dataclass(frozen=True)
class LinkAnswer:
    """The spectral answer for a link g: ``linear`` (E[z|y] ≠ 0: α_c = 0, the linear estimator
    works at every α), ``alpha_c`` (sympy when exact, an mpf, ``mpmath.inf`` when m ≡ 1, or 0
    when linear), ``optimal`` (T*(y) = 1 − 1/m(y) as text; None when linear or m ≡ 1),
    ``optimal_expr`` (T* as a sympy expression in z through y = g(z) — ``1 − 1/z²`` when y
    determines |z| —, None otherwise), ``exact``, ``digits`` confirmed, ``method`` and
    ``reason``."""

    g: str
    linear: bool
    alpha_c: Any
    optimal: str | None
    optimal_expr: sp.Expr | None
    exact: bool
    digits: int
    method: str
    reason: str
    #: for a linear link (α_c = 0 by the linear estimator): the spectral estimator's own
    #: threshold 1/E[(E[z²|y] − 1)²] (sympy when exact, an mpf, or None when not computed, with
    #: ``spectral_reason``); ``optimal``/``optimal_expr`` are then its T*
    spectral_alpha_c: Any = None
    spectral_exact: bool = False
    spectral_digits: int = 0
    spectral_reason: str = ""


def _even(expr: sp.Expr) -> bool:
    from fltheory.engine.timer import Timeout, time_limit

    z = expr.free_symbols.pop() if expr.free_symbols else sp.Symbol("z")
    try:
        with time_limit(_TIME):
            return bool(sp.simplify(expr.subs(z, -z) - expr) == 0)
    except Timeout:
        return False


def _monotone_on_half_line(expr: sp.Expr, z: sp.Symbol) -> bool:
    """g strictly monotone on (0, ∞), proved by sympy (undecided counts as no)."""
    from fltheory.engine.timer import Timeout, time_limit

    half = sp.Interval.open(0, sp.oo)
    try:
        with time_limit(_TIME):
            return bool(sp.is_strictly_increasing(expr, half, z)
                        or sp.is_strictly_decreasing(expr, half, z))
    except (Timeout, NotImplementedError, TypeError, ValueError):
        return False


def _inverse_text(expr: sp.Expr, z: sp.Symbol) -> str:
    """T*(y) = 1 − 1/z₊(y)² with z₊ the positive preimage: explicit when sympy inverts g."""
    from fltheory.engine.timer import Timeout, time_limit

    try:
        with time_limit(_TIME):
            zp = sp.Symbol("zp", positive=True)
            roots = sp.solve(sp.Eq(expr.subs(z, zp), Y), zp)
        if len(roots) == 1:
            return str(1 - 1 / roots[0] ** 2)
    except (Timeout, NotImplementedError, TypeError, ValueError):
        pass
    return "1 - 1/zp(y)**2, zp(y) > 0 the root of g(z) = y"


def link_threshold(g: str | sp.Expr, dps: int = 30, noise: Any = 0) -> LinkAnswer:
    """Weak-recovery threshold α_c of spectral methods and the optimal preprocessing T* for
    y = g(z) + σε, ε ~ N(0, 1) independent of z (module docstring; ``noise`` = σ >= 0, an exact
    number, 0 by default); ``g`` in the :mod:`fltheory.engine.expressions` grammar.

    Noise keeps the kind of answer: E[z|y] is the Gaussian smoothing of E[z|g]·p_g, which is
    0 iff E[z|g] is (Gaussian convolution is injective), and likewise for E[z²|y] − 1; so a
    linear link stays linear (α_c = 0) and a link with E[z²|g] ≡ 1 keeps α_c = ∞. Otherwise,
    for σ > 0, α_c = 1/E[(m(y) − 1)²] with m(y) = E[z²|y] (:func:`noisy_alpha_c`, doubles,
    digits confirmed by two resolutions).

    >>> a = link_threshold("z**2", dps=15)
    >>> str(a.alpha_c), a.optimal, a.linear
    ('1/2', '1 - 1/y', False)
    >>> link_threshold("tanh", dps=15).linear
    True
    """
    from fltheory.engine.functions import Z, parse_function
    from fltheory.engine.hermite import generative_exponent
    from fltheory.exact import fraction_str

    dps = check_dps(dps)
    sigma = read_rational(noise, "noise", 0, MAX_NOISE)
    func = parse_function(g, "g")
    expr = func.expr
    shown = str(g) if sigma == 0 else f"{g} + {fraction_str(sigma)}·ε"
    gen = generative_exponent(func, kmax=2, dps=dps)
    if gen.value == 1 or gen.value is None:
        answer = _link_by_exponent(shown, gen, sigma, dps)
        return _with_spectral(answer, expr, sigma, dps) if answer.linear else answer
    if sigma > 0:
        return _noisy_link(shown, expr, sigma, dps)
    if _even(expr) and _monotone_on_half_line(expr, Z):
        return LinkAnswer(shown, False, sp.Rational(1, 2), _inverse_text(expr, Z),
                          1 - 1 / Z ** 2, True, dps, "exact",
                          "g is even and strictly monotone on (0, ∞): y determines |z|, "
                          "m(y) = E[z²|y] = z², α_c = 1/E[(z² − 1)²] = 1/2 (Mondelli & "
                          "Montanari 2018), T*(y) = 1 − 1/z²")
    poly = sp.Poly(expr, Z) if expr.is_polynomial(Z) else None
    if poly is None:
        pieces = piecewise_second_moment(expr, dps)
        if isinstance(pieces, str):
            raise DomainError("g", shown, "links with E[z|y] ≠ 0, even links strictly monotone "
                              "on (0, ∞), polynomial links, or links made of flat pieces and "
                              "strictly monotone pieces with disjoint images",
                              reason="needs E[z²|y] from the preimages of g, not implemented "
                                     f"for this g: {pieces}")
        return LinkAnswer(shown, False, pieces.alpha_c, pieces.optimal, pieces.optimal_expr,
                          True, dps, "exact", pieces.reason)
    return _polynomial_link(shown, poly, dps)


def _with_spectral(answer: LinkAnswer, expr: sp.Expr, sigma: Any, dps: int) -> LinkAnswer:
    """A linear link's answer with the spectral estimator's own threshold beside α_c = 0: with
    noise by quadrature (:func:`noisy_alpha_c`), without by the pieces of g
    (:func:`piecewise_second_moment`), or not computed, with the reason."""
    from dataclasses import replace

    if sigma > 0:
        try:
            value, digits = noisy_alpha_c(expr, sigma)
        except DomainError as exc:
            return replace(answer, spectral_reason=f"not computed: {exc}")
        return replace(answer, optimal="1 - 1/m(y), m(y) = E[z²|y] with the noise",
                       spectral_alpha_c=value, spectral_exact=False,
                       spectral_digits=min(digits, dps),
                       spectral_reason="the spectral estimator alone (T* = 1 − 1/m(y)) needs "
                       f"α > 1/E[(m(y) − 1)²] = {mpmath.nstr(value, max(1, min(digits, dps)))} "
                       "(Gauss–Hermite quadrature over (z, ε); Mondelli & Montanari 2018, Luo, "
                       "Alghamdi & Lu 2019)")
    pieces = piecewise_second_moment(expr, dps)
    if isinstance(pieces, str) and expr.is_polynomial(Z) and sp.degree(expr, Z) >= 2:
        runs = []
        for extra in (_GUARD, 2 * _GUARD):
            with mpmath.workdps(dps + extra):
                runs.append(_any_polynomial_alpha_c(sp.Poly(expr, Z)))
        a1, a2 = runs
        rel = abs(a1 - a2) / abs(a2)
        digits = dps if rel == 0 else max(0, min(dps, int(-mpmath.log10(rel)) - 1))
        return replace(answer, optimal="1 - 1/m(y), m(y) = E[z²|y] from the real roots of "
                       "g(z) = y", spectral_alpha_c=a2, spectral_exact=False,
                       spectral_digits=digits,
                       spectral_reason="the spectral estimator alone (T* = 1 − 1/m(y)) needs "
                       f"α > 1/E[(m(y) − 1)²] = {mpmath.nstr(a2, max(1, min(digits, 15)))} "
                       "(tanh-sinh quadrature over z, m(g(z)) from all real preimages weighted "
                       "by φ/|g'|, two working precisions; Mondelli & Montanari 2018)")
    if isinstance(pieces, str):
        return replace(answer, spectral_reason=f"not computed here: {pieces}")
    if pieces.alpha_c == sp.oo:
        return replace(answer, spectral_alpha_c=mpmath.inf, spectral_exact=True,
                       spectral_digits=dps, spectral_reason="the spectral estimator alone "
                       f"has no threshold at linear α: {pieces.reason}")
    return replace(answer, optimal=pieces.optimal, optimal_expr=pieces.optimal_expr,
                   spectral_alpha_c=pieces.alpha_c, spectral_exact=True, spectral_digits=dps,
                   spectral_reason="the spectral estimator alone (T* = 1 − 1/m(y)) needs "
                   f"α > {pieces.reason}")


@dataclass(frozen=True)
class Pieces:
    """The spectral threshold of a link made of flat and strictly monotone pieces
    (:func:`piecewise_second_moment`): ``alpha_c`` exact (sympy), T* as text (``optimal``) and
    as a sympy expression in z (``optimal_expr``), and the ``reason`` (the sum it rests on)."""

    alpha_c: sp.Expr
    optimal: str
    optimal_expr: sp.Expr
    reason: str


def _Phi(x: sp.Expr) -> sp.Expr:
    if x in (sp.oo, -sp.oo):
        return sp.Integer(1 if x == sp.oo else 0)
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def _phi(x: sp.Expr) -> sp.Expr:
    if x in (sp.oo, -sp.oo):
        return sp.Integer(0)
    return sp.exp(-x ** 2 / 2) / sp.sqrt(2 * sp.pi)


def _times_phi(poly: sp.Expr, x: sp.Expr) -> sp.Expr:
    """p(x)φ(x), 0 at ±∞ (φ beats every polynomial)."""
    return sp.Integer(0) if x in (sp.oo, -sp.oo) else poly.subs(Z, x) * _phi(x)


def piecewise_second_moment(expr: sp.Expr, dps: int = 30) -> Pieces | str:
    r"""α = 1/E[(m(y) − 1)²], m(y) = E[z²|y], in closed form for a link g made of pieces on
    intervals (sympy's Piecewise form of g: Max, Abs, sign, Heaviside, …), each *flat* (a
    constant v) or *strictly monotone*, the monotone pieces' images disjoint from each other
    and from the flat values. Then y determines z on a monotone piece (m = z²), and a flat value
    v is taken on a union A_v of intervals (m_v = E[z² 1_{A_v}]/P(A_v), ratios of Gaussian
    integrals), so, with ∫_a^b (z² − 1)² φ = [2Φ(z) − (z³ + z)φ(z)]_a^b and
    ∫_a^b z² φ = [Φ(z) − zφ(z)]_a^b,

    .. math::  E[(m − 1)^2] = \sum_{\text{monotone}} \int_a^b (z^2 − 1)^2 φ
               + \sum_v P(A_v)\,(m_v − 1)^2 .

    Returns the :class:`Pieces`, or a string saying why g is not of this kind.

    >>> str(piecewise_second_moment(sp.Max(Z, 0)).alpha_c)
    '1'
    >>> p = piecewise_second_moment(sp.sign(sp.Abs(Z) - 1))
    >>> round(float(p.alpha_c), 10)
    0.9249580393
    """
    from fltheory.engine.timer import Timeout, time_limit

    try:
        with time_limit(_TIME):
            pieces = _pieces(expr)
    except Timeout:
        return "sympy did not split g into pieces within the time limit"
    if isinstance(pieces, str):
        return pieces
    flats: dict[sp.Expr, list[tuple[sp.Expr, sp.Expr]]] = {}
    mono: list[tuple[sp.Expr, sp.Expr, sp.Expr, tuple[sp.Expr, sp.Expr]]] = []
    for e, a, b in pieces:
        if not e.has(Z):
            flats.setdefault(sp.nsimplify(e), []).append((a, b))
            continue
        try:
            with time_limit(_TIME):
                interval = sp.Interval.open(a, b)
                monotone = bool(sp.is_strictly_increasing(e, interval, Z)
                                or sp.is_strictly_decreasing(e, interval, Z))
                image = (sp.limit(e, Z, a, "+"), sp.limit(e, Z, b, "-"))
        except (Timeout, NotImplementedError, TypeError, ValueError):
            return f"sympy did not decide whether {e} is strictly monotone on ({a}, {b})"
        if not monotone:
            return f"g = {e} on ({a}, {b}) is neither constant nor strictly monotone"
        mono.append((e, a, b, (sp.Min(*image), sp.Max(*image))))
    for i, (_e, a, b, (lo, hi)) in enumerate(mono):
        for _e2, a2, b2, (lo2, hi2) in mono[i + 1:]:
            if bool(sp.Max(lo, lo2) < sp.Min(hi, hi2)):
                return (f"g takes the same values on ({a}, {b}) and ({a2}, {b2}): y does not "
                        "determine z there")
        for v in flats:
            if bool(lo < v) and bool(v < hi):
                return f"g takes its flat value {v} also on ({a}, {b})"
    total = sp.Integer(0)
    for _, a, b, _ in mono:
        total += (2 * _Phi(b) - _times_phi(Z ** 3 + Z, b)) - (2 * _Phi(a)
                                                              - _times_phi(Z ** 3 + Z, a))
    m_of: dict[sp.Expr, sp.Expr] = {}
    for v, intervals in flats.items():
        prob = sum((_Phi(b) - _Phi(a) for a, b in intervals), sp.Integer(0))
        second = sum(((_Phi(b) - _times_phi(Z, b)) - (_Phi(a) - _times_phi(Z, a))
                      for a, b in intervals), sp.Integer(0))
        m_of[v] = sp.simplify(second / prob)
        total += prob * (m_of[v] - 1) ** 2
    total = sp.simplify(total)
    if total == 0:
        return Pieces(sp.oo, "—", sp.Integer(0),
                      "E[z²|y] = 1 for every label (every flat piece has m_v = 1 and there is "
                      "no monotone piece): E[(m − 1)²] = 0, α = ∞")
    alpha = sp.simplify(1 / total)
    with mpmath.workdps(dps):
        shown = {v: sp.simplify(1 - 1 / m) for v, m in m_of.items()}
        labels = ", ".join(f"T*({v}) = " + (str(t) if t.is_Rational else
                                              mpmath.nstr(mpmath.mpf(sp.N(t, dps + 5)), 10))
                           for v, t in shown.items())
        number = "" if alpha.is_Rational else (
            " = " + mpmath.nstr(mpmath.mpf(sp.N(alpha, dps + 5)), min(dps, 15)))
    parts = []
    if mono:
        parts.append("1 − 1/z(y)² on the monotone pieces")
    if labels:
        parts.append(labels)
    optimal = "; ".join(parts)
    cases = [(1 - 1 / Z ** 2, sp.And(sp.Gt(Z, a), sp.Lt(Z, b))) for _, a, b, _ in mono]
    cases += [(shown[v], sp.Or(*(sp.And(sp.Gt(Z, a), sp.Lt(Z, b)) for a, b in intervals)))
              for v, intervals in flats.items()]
    optimal_expr = sp.Piecewise(*cases, (0, True))
    where = (f"{len(mono)} strictly monotone piece(s) (m(y) = z², y determines z)"
             if mono else "")
    flat_text = (f"{len(flats)} flat value(s) with m_v = E[z² 1_(A_v)]/P(A_v) (Gaussian "
                 "integrals over the preimage sets)" if flats else "")
    reason = (f"1/E[(m(y) − 1)²] = {alpha}{number}: g has "
              + " and ".join(p for p in (where, flat_text) if p)
              + "; α_c = 1/(Σ_monotone ∫(z² − 1)²φ + Σ_v P(A_v)(m_v − 1)²), exact (Mondelli & "
              "Montanari 2018; T* = 1 − 1/m(y), Luo, Alghamdi & Lu 2019)")
    return Pieces(alpha, optimal, optimal_expr, reason)


def _pieces(expr: sp.Expr) -> list[tuple[sp.Expr, sp.Expr, sp.Expr]] | str:
    """g as (expression, a, b) on disjoint open intervals covering ℝ up to finitely many
    points, from sympy's Piecewise form; a string when the pieces are not intervals."""
    folded = sp.piecewise_fold(expr.rewrite(sp.Piecewise))
    pairs = folded.args if isinstance(folded, sp.Piecewise) else ((folded, sp.true),)
    remaining: sp.Set = sp.S.Reals
    out = []
    for e, cond in pairs:
        where = (sp.S.Reals if cond is sp.true else cond.as_set()).intersect(remaining)
        remaining = remaining - where
        parts = where.args if isinstance(where, sp.Union) else (where,)
        for part in parts:
            if isinstance(part, sp.FiniteSet) or part is sp.S.EmptySet:
                continue  # a null set
            if not isinstance(part, sp.Interval):
                return f"sympy's pieces of g are not intervals ({part})"
            if part.start != part.end:
                out.append((sp.simplify(e), part.start, part.end))
    return out


def _link_by_exponent(shown: str, gen: Any, sigma: Any, dps: int) -> LinkAnswer:
    """The exact answers of generative exponent 1 (linear, α_c = 0) and > 2 (α_c = ∞)."""
    kept = "" if sigma == 0 else " (noise keeps it: E[z|y] is the Gaussian smoothing of E[z|g])"
    if gen.value == 1:
        return LinkAnswer(shown, True, sp.Integer(0), None, None, True, dps, "exact",
                          "E[z|y] is not a.s. 0 (generative exponent 1: "
                          f"{gen.reason}){kept}: the linear estimator Σ y_μ x_μ/n is correlated "
                          "with β at every α > 0, so weak recovery by it needs no threshold "
                          "(α_c = 0)")
    return LinkAnswer(shown, False, mpmath.inf, None, None, True, dps, "exact",
                      "E[z|y] = 0 and E[z²|y] = 1 a.s. (generative exponent > 2: "
                      f"{gen.reason}){kept.replace('E[z|y]', 'E[z²|y] − 1')}: "
                      "E[(m − 1)²] = 0, so no spectral method recovers β at linear sample "
                      "size (α_c = ∞)")


def _noisy_link(shown: str, expr: sp.Expr, sigma: Any, dps: int) -> LinkAnswer:
    """Generative exponent 2 with noise σ > 0: α_c by double-precision quadrature."""
    from fltheory.exact import fraction_str

    value, digits = noisy_alpha_c(expr, sigma)
    return LinkAnswer(shown, False, value, "1 - 1/m(y), m(y) = E[z²|y] with the noise",
                      None, False, min(digits, dps), "quadrature",
                      f"E[z|y] = 0 (generative exponent 2); with noise σ = "
                      f"{fraction_str(sigma)}, α_c = 1/E[(m(y) − 1)²] = "
                      f"{mpmath.nstr(value, max(1, min(digits, dps)))} by Gauss–Hermite "
                      "quadrature over (z, ε) with m(y) = ∫z²φ(z)φ_σ(y − g(z))dz / "
                      "∫φ(z)φ_σ(y − g(z))dz (composite Gauss–Legendre in z; Mondelli & "
                      "Montanari 2018)")


def _polynomial_link(shown: str, poly: sp.Poly, dps: int) -> LinkAnswer:
    """A polynomial g of generative exponent 2: α_c at two precisions, their agreement."""
    runs = []
    for extra in (_GUARD, 2 * _GUARD):
        with mpmath.workdps(dps + extra):
            runs.append(_polynomial_alpha_c(poly))
    a1, a2 = runs
    rel = abs(a1 - a2) / abs(a2)
    digits = dps if rel == 0 else max(0, min(dps, int(-mpmath.log10(rel)) - 1))
    return LinkAnswer(shown, False, a2, "1 - 1/m(y), m(y) = E[z²|y] from the real roots of "
                      "g(z) = y", None, False, digits, "quadrature",
                      f"E[z|y] = 0 (generative exponent 2); α_c = 1/E[(m(y) − 1)²] = "
                      f"{mpmath.nstr(a2, min(digits, 15))} by tanh-sinh quadrature over z with "
                      "m(g(z)) from the real preimages (Mondelli & Montanari 2018)")


def _any_polynomial_alpha_c(poly: sp.Poly) -> Any:
    """1/E_z[(m(g(z)) − 1)²] for any real polynomial g of degree >= 2 at the working precision:
    m(y) = Σ u² w_u / Σ w_u over the real roots u of g(u) = y, w_u = φ(u)/|g'(u)| (co-area),
    the root x of y = g(x) divided out; the integral over x split at the critical points of g
    and at every preimage of a critical value (where the number of preimages changes)."""
    coeffs = [mpmath.mpf(sp.N(c, mpmath.mp.dps + 5)) for c in poly.all_coeffs()]
    deriv = [c * (len(coeffs) - 1 - i) for i, c in enumerate(coeffs[:-1])]

    def weight(u: Any) -> Any:
        slope = abs(mpmath.polyval(deriv, u))
        return mpmath.npdf(u) / slope if slope != 0 else mpmath.mpf(0)

    def m(x: Any) -> Any:
        y = mpmath.polyval(coeffs, x)
        w0 = weight(x)
        num, den = w0 * x * x, w0
        for u in _real_roots(_deflate([*coeffs[:-1], coeffs[-1] - y], x)):
            w = weight(u)
            num += w * u * u
            den += w
        return num / den

    points = set()
    for c in _real_roots(deriv):
        points.add(c)
        for u in _real_roots([*coeffs[:-1], coeffs[-1] - mpmath.polyval(coeffs, c)]):
            points.add(u)
    cuts = sorted(p for p in points if -40 < p < 40)
    grid = [-mpmath.inf, *cuts, mpmath.inf]
    return 1 / mpmath.quad(lambda x: mpmath.npdf(x) * (m(x) - 1) ** 2, grid)


def _legendre_panels(lo: float, hi: float, panels: int) -> tuple[np.ndarray, np.ndarray]:
    """Composite 8-point Gauss–Legendre nodes and weights on [lo, hi]."""
    x, w = np.polynomial.legendre.leggauss(8)
    edges = np.linspace(lo, hi, panels + 1)
    half = (edges[1] - edges[0]) / 2
    return (edges[:-1, None] + half * (x[None, :] + 1)).ravel(), half * np.tile(w, panels)


def _noisy_m(g_num: Any, sigma: float, y: np.ndarray, inner: int) -> np.ndarray:
    """m(y) = E[z²|y] for y = g(z) + σε at the labels ``y``: composite Gauss–Legendre in z
    (``inner`` panels of 8 nodes on [−12, 12]) with the Gaussian kernel φ_σ(y − g(z)) stabilised
    per row (doubles)."""
    zi, wi = _legendre_panels(-_HALF_WIDTH, _HALF_WIDTH, inner)
    wi = wi * np.exp(-zi * zi / 2)
    gi = np.broadcast_to(np.asarray(g_num(zi), dtype=float), zi.shape)
    out = np.empty(y.size)
    for start in range(0, y.size, 512):
        block = y[start:start + 512, None]
        expo = -((block - gi[None, :]) ** 2) / (2 * sigma * sigma)
        kern = np.exp(expo - expo.max(axis=1, keepdims=True)) * wi[None, :]
        out[start:start + 512] = (kern @ (zi * zi)) / kern.sum(axis=1)
    return out


def _noisy_m_at(g_num: Any, sigma: float, y: np.ndarray, inner: int) -> np.ndarray:
    """:func:`_noisy_m` at many labels: directly at a few, else a cubic spline through m on a
    uniform y-grid of step 2σ/``inner`` (m is smooth on the scale σ; at most 40 001 grid
    points) — the spline's error shows in the two resolutions the callers compare."""
    flat = np.atleast_1d(y).ravel()
    if flat.size <= 64:
        return _noisy_m(g_num, sigma, flat, inner).reshape(np.shape(y))
    from scipy.interpolate import CubicSpline

    lo, hi = float(flat.min()), float(flat.max())
    count = int(min(40001, max(65, np.ceil((hi - lo) * inner / (2 * sigma)) + 1)))
    grid = np.linspace(lo, hi, count)
    return CubicSpline(grid, _noisy_m(g_num, sigma, grid, inner))(flat).reshape(np.shape(y))


def _noisy_second_moment(g_num: Any, sigma: float, inner: int, outer: int, ke: int) -> float:
    """E[(m(y) − 1)²] for y = g(z) + σε in doubles: the outer expectation over z by composite
    Gauss–Legendre (``outer`` panels of 8 nodes on [−9, 9], an even count so z = 0 — where
    even links have their kink or turning point — is a panel edge) and over ε by Gauss–Hermite
    (``ke`` nodes); m(y) at each outer node by :func:`_noisy_m` (``inner`` panels)."""
    zo, wo = _legendre_panels(-9.0, 9.0, outer)
    wo = wo * np.exp(-zo * zo / 2) / np.sqrt(2 * np.pi)
    eo, we = np.polynomial.hermite_e.hermegauss(ke)
    we = we / np.sqrt(2 * np.pi)
    y = (np.broadcast_to(np.asarray(g_num(zo), dtype=float), zo.shape)[:, None]
         + sigma * eo[None, :]).ravel()
    weight = (wo[:, None] * we[None, :]).ravel()
    return float(weight @ ((_noisy_m(g_num, sigma, y, inner) - 1) ** 2))


def noisy_alpha_c(g: str | sp.Expr, noise: Any) -> tuple[Any, int]:
    """α_c = 1/E[(m(y) − 1)²] for y = g(z) + σε, σ = ``noise`` > 0, in double precision, and
    the significant digits on which two resolutions agree (inner 300 panels, outer 64 panels ×
    40 Hermite nodes against 200, 40 × 30; at most 12). A link with E[z|y] ≠ 0 has no threshold
    (:func:`link_threshold` says so before calling this).

    >>> a, digits = noisy_alpha_c("z**2", "3/5")
    >>> round(float(a), 6), digits >= 8
    (0.557933, True)
    """
    from fltheory.engine.functions import Z, parse_function
    from fltheory.exact import fraction_str

    sigma_q = read_rational(noise, "noise", 0, MAX_NOISE, open_low=True)
    expr = parse_function(g, "g").expr
    g_num = sp.lambdify(Z, expr, modules="numpy")
    sigma = float(sigma_q)
    with np.errstate(over="ignore", invalid="ignore"):
        fine = _noisy_second_moment(g_num, sigma, 300, 64, 40)
        coarse = _noisy_second_moment(g_num, sigma, 200, 40, 30)
    if not (np.isfinite(fine) and np.isfinite(coarse)) or fine <= 0:
        raise DomainError("g", str(g), "links whose E[(m(y) − 1)²] is finite and positive",
                          reason=f"gives E[(m − 1)²] = {fine:.3g} with noise σ = {sigma:g}")
    rel = abs(fine - coarse) / fine
    digits = 12 if rel == 0 else max(0, min(12, int(-np.log10(rel)) - 1))
    if digits < 3:
        raise DomainError("noise", fraction_str(sigma_q), "a noise level the quadrature "
                          "resolves (or 0: the noiseless value)",
                          reason=f"leaves {digits} confirmed digits of α_c (the kernel "
                                 "φ_σ(y − g(z)) is too narrow for the z-grid)")
    return mpmath.mpf(1 / fine), digits


def _real_roots(coeffs: list[Any]) -> list[Any]:
    """Real roots of a polynomial (coefficients highest first) at the working precision."""
    coeffs = list(coeffs)
    while len(coeffs) > 1 and coeffs[0] == 0:
        coeffs.pop(0)
    if len(coeffs) <= 1:
        return []
    if len(coeffs) == 2:
        return [-coeffs[1] / coeffs[0]]
    if len(coeffs) == 3:  # the quadratic formula (cancellation-free form)
        a, b, c = coeffs
        disc = b * b - 4 * a * c
        if disc < 0:
            return []
        q = -(b + mpmath.sign(b) * mpmath.sqrt(disc)) / 2 if b != 0 else mpmath.sqrt(-a * c)
        return [q / a, c / q] if q != 0 else [mpmath.mpf(0), mpmath.mpf(0)]
    for steps, extra in ((100, 64), (400, 4 * mpmath.mp.prec)):
        try:
            roots = mpmath.polyroots(coeffs, maxsteps=steps, extraprec=extra)
            break
        except mpmath.mp.NoConvergence:
            continue
    else:  # pragma: no cover - polyroots failed twice: a (near) multiple root
        raise DomainError("g", "this polynomial", "polynomials whose level sets mpmath resolves",
                          reason="has level sets whose roots mpmath.polyroots does not separate")
    tol = mpmath.mpf(10) ** (-mpmath.mp.dps // 2)
    return [mpmath.re(r) for r in roots if abs(mpmath.im(r)) < tol]


def _deflate(coeffs: list[Any], root: Any) -> list[Any]:
    """The quotient of a polynomial by (u − root) (synthetic division; the remainder is 0)."""
    out = [coeffs[0]]
    for c in coeffs[1:-1]:
        out.append(c + root * out[-1])
    return out


def _polynomial_alpha_c(poly: sp.Poly) -> Any:
    """1/E_z[(m(g(z)) − 1)²] for an even polynomial g at the working precision.

    g(z) = p(u), u = z²: the level set of y = g(x) is {±√u : p(u) = y, u >= 0}, and u = x² is a
    known root, divided out, so the remaining roots come from a polynomial of degree deg p − 1
    (linear for a quartic g: no root-finder at all). Given y, the root u has probability
    ∝ φ(√u)/(√u |p'(u)|) (co-area, both signs ±√u alike), so m(y) = Σ u w_u / Σ w_u."""
    z = poly.gens[0]
    pu = sp.Poly(poly.as_expr().subs(z, sp.sqrt(sp.Symbol("u"))), sp.Symbol("u"))
    coeffs = [mpmath.mpf(sp.N(c, mpmath.mp.dps + 5)) for c in pu.all_coeffs()]
    deriv = [c * (len(coeffs) - 1 - i) for i, c in enumerate(coeffs[:-1])]

    def weight(u: Any) -> Any:
        slope = abs(mpmath.polyval(deriv, u)) * mpmath.sqrt(u)
        return mpmath.npdf(mpmath.sqrt(u)) / slope if slope != 0 else mpmath.mpf(0)

    def m(x: Any) -> Any:
        u0 = x * x
        y = mpmath.polyval(coeffs, u0)
        shifted = [*coeffs[:-1], coeffs[-1] - y]
        w0 = weight(u0)
        num, den = w0 * u0, w0
        for u in _real_roots(_deflate(shifted, u0)):
            if u > 0:
                w = weight(u)
                num += w * u
                den += w
        return num / den

    # split points: critical points of g (z = 0 and √u at p'(u) = 0) and every preimage of a
    # critical value, where the number of preimages (so m∘g) changes
    crit = [mpmath.mpf(0), *(u for u in _real_roots(deriv) if u > 0)]
    points = set()
    for c in crit:  # p(u) − p(c) has c as a double root (c = 0: z = 0 is one in z): divide
        y = mpmath.polyval(coeffs, c)
        rest = _deflate([*coeffs[:-1], coeffs[-1] - y], c)
        if c > 0:
            points.add(mpmath.sqrt(c))
            rest = _deflate(rest, c)
        for u in _real_roots(rest):
            if u > 0:
                points.add(mpmath.sqrt(u))
    cuts = sorted(p for p in points if 0 < p < 40)
    grid = [mpmath.mpf(0), *cuts, mpmath.inf]
    second = 2 * mpmath.quad(lambda x: mpmath.npdf(x) * (m(x) - 1) ** 2, grid)
    return 1 / second


# --------------------------------------------------------------------------- Lu–Li for a link


_HALF_WIDTH = 12.0  # P(|z| > 12) ≈ 4e-33: the law is cut there


def _upward_pole(expr: sp.Expr, var: sp.Symbol) -> Any | None:
    """A real point where ``expr`` → +∞ (a pole that makes sup T infinite), or None (none
    found by sympy within the time limit)."""
    from fltheory.engine.timer import Timeout, time_limit

    try:
        with time_limit(_TIME):
            points = sp.singularities(expr, var, sp.S.Reals)
            if not isinstance(points, sp.FiniteSet):
                return None
            for p in points:
                for side in ("+", "-"):
                    if sp.limit(expr, var, p, side) == sp.oo:
                        return p
    except (Timeout, NotImplementedError, TypeError, ValueError):
        return None
    return None


def _refuse_pole(T: Any, expr: sp.Expr, var: sp.Symbol, what: str, name: str) -> None:
    """One line instead of the Lu–Li solver's overflow: T → +∞ at a pole the labels reach."""
    pole = _upward_pole(expr, var)
    if pole is not None:
        raise DomainError("T", str(T), "a preprocessing bounded above (sup T < ∞)",
                          reason=f"has a pole: {what} → +∞ as {name} → {pole}, so sup T = ∞ "
                                 "(the Lu–Li equations need sup T < ∞)")


def noisy_preprocessing_law(g: str | sp.Expr, T: str | sp.Expr, noise: Any, panels: int = 600,
                            hermite: int = 40, inner: int = 150) -> DiscreteLaw:
    """The law of (T(y), z²) for y = g(z) + σε, σ = ``noise`` > 0: the nodes of
    :func:`preprocessing_law` in z (``panels`` × 8) times ``hermite`` Gauss–Hermite nodes in
    ε, t = T(g(z_j) + σε_k). ``T`` is an expression in y, or ``"optimal"``: T*(y) = 1 − 1/m(y)
    (Luo, Alghamdi & Lu 2019) with m(y) = E[z²|y] computed with the noise at every label node by
    :func:`_noisy_m` (``inner`` panels; T* <= 1 is bounded). τ = sup T over the nodes and T at
    y = ±10³, ±10⁶ (refused when T still grows from 10³ to 10⁶).

    >>> law = noisy_preprocessing_law("z**2", "Min(y, 3)", "1/2", panels=100)
    >>> round(float(law.base.sum()), 12), round(float(law.biased.sum()), 10), law.tau
    (1.0, 1.0, 3.0)
    """
    from fltheory.engine.expressions import parse_expression
    from fltheory.engine.functions import Z, parse_function

    sigma_q = read_rational(noise, "noise", 0, MAX_NOISE, open_low=True)
    func = parse_function(g, "g")
    g_num = sp.lambdify(Z, func.expr, modules="numpy")
    sigma = float(sigma_q)
    if isinstance(T, str) and T.strip() == "optimal":
        def t_num(y: Any) -> Any:  # T* = 1 − 1/m(y), m with the noise
            return 1 - 1 / _noisy_m_at(g_num, sigma, np.asarray(y, dtype=float), inner)
    else:
        t_of_y = parse_expression(T.replace("y", "z") if isinstance(T, str) else T.subs(Y, Z),
                                  "T")
        _refuse_pole(T, t_of_y, Z, "T(y)", "y")  # noisy labels take every real value
        t_num = sp.lambdify(Z, t_of_y, modules="numpy")
    z, wz = _legendre_panels(-_HALF_WIDTH, _HALF_WIDTH, panels)
    wz = wz * np.exp(-z * z / 2) / np.sqrt(2 * np.pi)
    e, we = np.polynomial.hermite_e.hermegauss(hermite)
    we = we / np.sqrt(2 * np.pi)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        y = (np.broadcast_to(np.asarray(g_num(z), dtype=float), z.shape)[:, None]
             + sigma * e[None, :]).ravel()
        t = np.broadcast_to(np.asarray(t_num(y), dtype=float), y.shape).copy()
        ends = np.array([1e3, 1e6, -1e3, -1e6])
        tails = np.broadcast_to(np.asarray(t_num(ends), dtype=float), ends.shape).copy()
    if not np.all(np.isfinite(t)):
        raise DomainError("T", str(T), "a preprocessing finite at almost every label",
                          reason="is not finite on the quadrature nodes")
    near = max(float(t.max()), float(tails[[0, 2]].max()))
    if not np.all(np.isfinite(tails)) or float(tails[[1, 3]].max()) - near > 1e-6 * (1 + abs(near)):
        raise DomainError("T", str(T), "a preprocessing bounded above (sup T < ∞)",
                          reason="grows without bound: the Lu–Li equations need sup T < ∞")
    base = (wz[:, None] * we[None, :]).ravel()
    zz = np.repeat(z * z, hermite)
    return DiscreteLaw(t, base, (base * zz)[None, :], float(max(t.max(), tails.max())))


def preprocessing_law(g: str | sp.Expr, T: str | sp.Expr, panels: int = 600,
                      order: int = 8) -> DiscreteLaw:
    """The law of (T(y), z²), y = g(z), discretised for the Lu–Li equations: composite
    Gauss–Legendre nodes z_j on [−12, 12] (``panels`` × ``order``), t_j = T(g(z_j)), weights
    φ(z_j)·w_j and z_j²·φ(z_j)·w_j; τ = sup T is the largest of the node values and of T at
    |z| = 12, 10³ and 10⁶ (refused when T∘g still grows from 10³ to 10⁶: T must be bounded
    above). ``T``: an expression in y (the grammar of ``g``, written in y), or ``"optimal"``
    for T* = 1 − 1/z² when y determines |z| (:func:`link_threshold`).

    >>> law = preprocessing_law("z**2", "Min(y, 3)")
    >>> round(float(law.base.sum()), 12), round(law.tau, 12)
    (1.0, 3.0)
    """
    from fltheory.engine.functions import Z, parse_function

    func = parse_function(g, "g")
    if isinstance(T, str) and T.strip() == "optimal":
        ans = link_threshold(func.expr, dps=15)
        if ans.optimal_expr is None:
            raise DomainError("T", "optimal", "an expression in y, or optimal for links where "
                              "y determines |z|", reason="has no closed form here: "
                              f"{ans.spectral_reason if ans.linear else ans.reason}")
        composed = ans.optimal_expr
    else:
        from fltheory.engine.expressions import parse_expression

        t_of_y = parse_expression(T.replace("y", "z") if isinstance(T, str) else T.subs(Y, Z),
                                  "T")
        composed = t_of_y.subs(Z, func.expr)
        _refuse_pole(T, composed, Z, "T(g(z))", "z")
    fn = sp.lambdify(Z, composed, modules="numpy")
    x, w = np.polynomial.legendre.leggauss(order)
    edges = np.linspace(-_HALF_WIDTH, _HALF_WIDTH, panels + 1)
    half = (edges[1] - edges[0]) / 2
    z = (edges[:-1, None] + half * (x[None, :] + 1)).ravel()
    weights = (half * w[None, :] * np.ones((panels, 1))).ravel() * np.exp(-z * z / 2) / np.sqrt(
        2 * np.pi)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.broadcast_to(np.asarray(fn(z), dtype=float), z.shape).copy()
        ends = np.array([_HALF_WIDTH, 1e3, 1e6, -_HALF_WIDTH, -1e3, -1e6])
        tails = np.broadcast_to(np.asarray(fn(ends), dtype=float), ends.shape).copy()
    if not np.all(np.isfinite(t)):
        raise DomainError("T", str(T), "a preprocessing finite at almost every label",
                          reason="is not finite on the quadrature nodes")
    # still growing from |z| = 10³ to 10⁶ beyond rounding: T∘g is not bounded above
    near = max(float(t.max()), float(tails[[0, 1, 3, 4]].max()))
    growth = float(tails[[2, 5]].max()) - near
    if not np.all(np.isfinite(tails)) or growth > 1e-6 * (1 + abs(near)):
        raise DomainError("T", str(T), "a preprocessing bounded above (sup T < ∞)",
                          reason="grows without bound: the Lu–Li equations need sup T < ∞")
    tau = float(max(t.max(), tails.max()))
    return DiscreteLaw(t, weights, (weights * z * z)[None, :], tau)


def link_overlap(g: str | sp.Expr, T: str | sp.Expr, alpha: float) -> LuLiOverlap:
    """The Lu–Li squared overlap at α = n/d > 0 of the spectral estimator with preprocessing
    ``T`` for y = g(z) (:func:`preprocessing_law`), with the outlier and the bulk edge of D.

    >>> round(link_overlap("z**2", "optimal", 0.4).rho2, 6), link_overlap("z**2", "optimal",
    ...       2.0).rho2 > 0.5
    (0.0, True)
    """
    delta = read_real(alpha, "alpha", low=0, open_low=True)
    return luli_overlap(preprocessing_law(g, T), 0, delta)

