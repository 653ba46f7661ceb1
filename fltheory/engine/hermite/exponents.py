r"""The information and generative exponents of a function of one variable.

The **information exponent** is the smallest k >= 1 with μ_k = E[f(z) h_k(z)] ≠ 0, z ~ N(0, 1)
(orthonormal h_k = He_k/√(k!)). Exact and numeric coefficients are decided by one rule
(:mod:`fltheory.engine.hermite.zero`): μ_k counts as zero at ``dps`` digits when
|μ_k| <= 10^{−dps}·‖f‖ (‖f‖² = E[f²]; a numeric one also below ten times the quadrature's error
estimate). An exact μ_k under that bound that sympy does not prove zero is *near zero*: counted
as zero at this precision, and named in the reason with its size and the ``dps`` that would
resolve it.

The **generative exponent** (Damian, Pillaud-Vivien, Lee & Bruna 2024) is the smallest k >= 1 such
that E[h_k(z) | y] is not almost surely zero, y = f(z): the information exponent of the best label
transformation T(y). For a deterministic f the law of z given y is explicit:

* at a value c that f takes on a set A of positive measure (a flat piece, e.g. relu's 0), y = c
  is an atom and E[h_k | y = c] = E[h_k 1_A]/P(A) (exact, by the
  interval moments of :mod:`fltheory.engine.hermite.exact`);
* at a generic value y of the continuous part, z is one of the preimages z_i (f(z_i) = y) with
  probability proportional to φ(z_i)/|f'(z_i)| (co-area formula), so

  .. math::

      \mathbb{E}[h_k \mid y]
        = \frac{\sum_i \varphi(z_i)\, h_k(z_i) / |f'(z_i)|}{\sum_i \varphi(z_i) / |f'(z_i)|}.

The conditional expectation is evaluated at a handful of generic y (images of fixed irrational-ish
points) and at every atom; k is counted when any of these is non-zero by the same rule (scale
‖h_k‖ = 1; at an atom the value is exact; at a generic y the rule allows the sum's rounding
error, and the grid path resolves at most 30 digits, see below), or when μ_k ≠ 0 (T(y) = y),
the very coefficient the information exponent reads. Exact shortcuts come first: μ_1 ≠ 0 gives
1 (T(y) = y); an even f (f(−z) = f(z), proved by sympy) makes
every odd k vanish identically, since z and −z are then equally likely given y. Preimages are found
exactly (polynomial roots) for piecewise-polynomial f, and by bracketing sign changes of f − y on a
grid of [−12, 12] (spacing 0.003) otherwise; the weight of preimages beyond |z| = 12 is below
e^{−70} relative to the ones used. Since E[y h_k] = E[y E[h_k | y]], the generative exponent never
exceeds the information exponent: the search enforces it by asking μ_k at every k.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy as sp

from fltheory.args import read_count
from fltheory.engine.functions import Function, Z, hermite_He, parse_function
from fltheory.engine.hermite.bounds import K_MAX, KMAX_MAX
from fltheory.engine.hermite.coefficients import (
    _GUARD,
    Coefficient,
    Expansion,
    _coefficient,
    _Engine,
    _engine,
    expansion,
)
from fltheory.engine.hermite.exact import _interval_expectation, _is_polynomial, _to_poly
from fltheory.engine.hermite.quadrature import _mp_function, _mp_He
from fltheory.engine.hermite.zero import ZeroTest, decide_zero
from fltheory.engine.timer import Timeout, time_limit
from fltheory.exact import DomainError, check_dps

__all__ = ["Exponent", "generative_exponent", "information_exponent"]


@dataclass(frozen=True)
class Exponent:
    """An information or generative exponent (``kind``): ``value`` (None when there is none up to
    ``kmax``; ``str`` shows it as "> kmax") with the ``reason``, the per-k ``evidence``, and
    whether the decision is ``exact`` (sympy-proved zeros) or numeric; ``near_zero`` lists the
    k whose μ_k was counted as zero at this precision without being proved exactly zero (each
    described, with its size, in the reason)."""

    kind: str
    value: int | None
    kmax: int
    reason: str
    evidence: tuple[str, ...] = ()
    exact: bool = True
    near_zero: tuple[int, ...] = ()

    def __str__(self) -> str:
        return str(self.value) if self.value is not None else f"> {self.kmax}"


def _given(expansion_: Expansion | None, kmax: int) -> None:
    """An expansion passed in must reach degree kmax (else 'μ_k = 0 up to kmax' would be a lie)."""
    if expansion_ is not None and len(expansion_.coefficients) < kmax + 1:
        raise DomainError("kmax", kmax, f"integers in [1, {len(expansion_.coefficients) - 1}] "
                          "(the degree of the expansion given)")


def _of(expansion_: Expansion | None, func: Function) -> Expansion | None:
    """An expansion passed in must be one of f (the parsed expressions compared structurally,
    which is cheap): else the exponent of another function would be returned silently."""
    if expansion_ is None:
        return None
    if not isinstance(expansion_, Expansion):
        raise DomainError("expansion_", type(expansion_).__name__, "an Expansion of f or None")
    if expansion_.function.expr != func.expr:
        raise DomainError("expansion_", f"an expansion of {expansion_.function.expr}"[:60],
                          f"an expansion of f = {func.expr}"[:80],
                          reason="is not an expansion of f")
    return expansion_


def information_exponent(f: str | sp.Expr | Function, kmax: int = 12, dps: int = 30,
                         expansion_: Expansion | None = None) -> Exponent:
    """Smallest k >= 1 with μ_k = E[f(z) h_k(z)] ≠ 0 (see the module docstring).

    Parameters: ``f`` as for :func:`~fltheory.engine.hermite.coefficients.expansion`; ``kmax``,
    the largest k examined, in [1, 60] (K_MAX, the expansion's bound; the generative
    exponent stops at 40, a time bound: see :mod:`~fltheory.engine.hermite.bounds`);
    ``dps``, in [5, 100]; ``expansion_``, an expansion of f to degree >= kmax already computed
    (else computed here; an expansion of another function is a DomainError). Returns an
    :class:`Exponent` whose ``value`` is None when μ_k = 0 for every 1 <= k <= kmax.

    >>> information_exponent("He3", 4, 15).value, information_exponent("relu", 4, 15).value
    (3, 1)
    """
    read_count(kmax, "kmax", 1, K_MAX)
    check_dps(dps)
    func = parse_function(f)
    given = _of(expansion_, func)
    _given(given, kmax)
    exp_ = given or expansion(func, kmax, dps)
    evidence: list[str] = []
    near: list[int] = []
    for c in exp_.coefficients[1: kmax + 1]:
        if not c.zero:
            how = ("exactly non-zero" if c.exact is not None else "numeric") + \
                f", |μ_{c.k}| = {mpmath.nstr(abs(c.numeric), 5)} above the zero bound " \
                f"10^-{dps}·‖f‖"
            return Exponent("information", c.k, kmax,
                            f"μ_{c.k} = {_short(c)} is the first non-zero coefficient "
                            f"({how}){_near_note(exp_, near)}",
                            tuple(evidence), c.exact is not None and not near, tuple(near))
        if c.near_zero:
            near.append(c.k)
        evidence.append(_zero_text(c))
    exact = all(c.exact is not None and not c.near_zero
                for c in exp_.coefficients[1: kmax + 1])
    return Exponent("information", None, kmax,
                    f"μ_k = 0 for all 1 <= k <= {kmax}{_near_note(exp_, near)}",
                    tuple(evidence), exact, tuple(near))


def _zero_text(c: Coefficient) -> str:
    """Why μ_k counts as zero: exactly, near zero (its size), or numerically."""
    if c.test is not None and c.near_zero:
        return c.test.describe(f"μ_{c.k}")
    return f"μ_{c.k} = 0" + (" (exact)" if c.exact is not None
                             else f" (|μ_{c.k}| <= 10^-{c.dps}·‖f‖)")


def _near_note(exp_: Expansion, near: list[int]) -> str:
    """The near-zero coefficients passed over, each with its size (never silently)."""
    tests = [exp_.coefficients[k].test for k in near]
    return "".join(f"; {t.describe(f'μ_{k}')}" for k, t in zip(near, tests, strict=True)
                   if t is not None and exp_.coefficients[k].exact is not None)


def _short(c: Coefficient) -> str:
    if c.exact is not None and len(str(c.exact)) <= 60:
        return str(c.exact)
    return mpmath.nstr(c.numeric, 8)



# --------------------------------------------------------------------------- generative exponent

_GENERIC_Z = ("0.3137", "-0.6229", "1.0771", "-1.4173", "0.0419", "1.8523", "-2.2361")
_GRID_HALF_WIDTH = 12
_GRID_POINTS = 8001
#: digits to which the grid path resolves E[h_k | y]: the preimages beyond |z| = 12 it ignores
#: weigh below e^{−70} ≈ 4·10^{−31} relative to the ones used
_GRID_DIGITS = 30


def _is_even(expr: sp.Expr) -> bool:
    """f(−z) = f(z), proved by sympy (Poly arithmetic for a polynomial; simplify otherwise, within
    a time limit: undecided counts as not even, which only skips the parity shortcut)."""
    if _is_polynomial(expr):
        poly = _to_poly(expr)
        return all(m[0] % 2 == 0 for m in poly.monoms() if poly.coeff_monomial(m) != 0)
    try:
        with time_limit(10.0):
            return bool(sp.simplify(expr.subs(Z, -Z) - expr) == 0)
    except Timeout:
        return False


@dataclass
class _Conditional:
    """E[h_k(z) | y] at several y values, for k = 1..kmax."""

    labels: list[str] = field(default_factory=list)
    values: list[list[Any]] = field(default_factory=list)  # values[i][k-1]
    # the exact value (sympy, at an atom) or the absolute rounding error of the sum (mpmath)
    exact: list[list[Any]] = field(default_factory=list)
    errors: list[list[Any]] = field(default_factory=list)
    digits: list[int] = field(default_factory=list)  # digits resolved (dps, or the grid's)

    def test(self, i: int, k: int) -> ZeroTest:
        """The zero rule (:mod:`fltheory.engine.hermite.zero`, scale ‖h_k‖ = 1) on E[h_k | y_i]."""
        exact = self.exact[i][k - 1]
        if exact is not None:
            return decide_zero(exact, self.digits[i])
        return decide_zero(self.values[i][k - 1], self.digits[i], 1, self.errors[i][k - 1])


def _atoms(pairs: list[tuple[sp.Expr, sp.Interval]] | None
           ) -> dict[sp.Expr, list[sp.Interval]]:
    atoms: dict[sp.Expr, list[sp.Interval]] = {}
    for piece, where in pairs or []:
        if not piece.has(Z):
            atoms.setdefault(piece, []).append(where)
    return atoms


def _preimages(engine: _Engine, y: Any, grid: list[Any], values: list[Any]) -> list[Any]:
    """All real z with f(z) = y (isolated roots), exact for piecewise polynomials."""
    roots: list[Any] = []
    if engine.pairs is not None:
        for piece, where in engine.pairs:
            if not piece.has(Z):
                continue
            coeffs = [mpmath.mpf(sp.N(c, engine.dps + _GUARD)) for c in
                      sp.Poly(piece, Z).all_coeffs()]
            coeffs[-1] -= y
            if len(coeffs) == 1:
                continue
            found = mpmath.polyroots(coeffs, maxsteps=200, extraprec=60) if len(coeffs) > 2 \
                else [-coeffs[1] / coeffs[0]]
            lo = mpmath.mpf(sp.N(where.start, 40)) if where.start != -sp.oo else -mpmath.inf
            hi = mpmath.mpf(sp.N(where.end, 40)) if where.end != sp.oo else mpmath.inf
            for r in found:
                if abs(mpmath.im(r)) < mpmath.mpf(10) ** (-engine.dps // 2):
                    x = mpmath.re(r)
                    if lo < x < hi:
                        roots.append(x)
        return roots
    for i in range(len(grid) - 1):
        a, b = values[i] - y, values[i + 1] - y
        if a == 0:
            roots.append(grid[i])
        elif a * b < 0:
            try:
                roots.append(mpmath.findroot(lambda x: engine.fn(x) - y, (grid[i], grid[i + 1]),
                                             solver="anderson"))
            except (ValueError, ZeroDivisionError):
                roots.append(_bisect(lambda x: engine.fn(x) - y, grid[i], grid[i + 1], a))
    return roots


def _bisect(g: Callable[[Any], Any], lo: Any, hi: Any, g_lo: Any) -> Any:
    """A root of g in (lo, hi) where g changes sign, to the working precision: plain bisection,
    which cannot fail (unlike mpmath's tolerance test on a flat g such as z¹⁰⁰ − y near 0)."""
    for _ in range(mpmath.mp.prec + 8):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        g_mid = g(mid)
        if g_mid == 0:
            return mid
        if (g_mid < 0) == (g_lo < 0):
            lo, g_lo = mid, g_mid
        else:
            hi = mid
    return (lo + hi) / 2


def _conditional_expectations(engine: _Engine, kmax: int) -> _Conditional:
    """E[h_k | y], k = 1..kmax, at the atoms of y = f(z) (exact, :func:`_atom_rows`) and at up
    to four generic values (:func:`_generic_rows`), at the engine's digits plus a guard."""
    out = _Conditional()
    with mpmath.workdps(engine.dps + _GUARD):
        _atom_rows(engine, kmax, out)
        _generic_rows(engine, kmax, out)
    return out


def _atom_rows(engine: _Engine, kmax: int, out: _Conditional) -> None:
    """Atoms: y = c on a set of positive measure; E[h_k | y = c] exactly (interval
    expectations of He_k over the set, over its mass)."""
    dps = engine.dps
    for c, intervals in _atoms(engine.pairs).items():
        mass = sum((_interval_expectation(sp.Integer(1), w.start, w.end) for w in intervals),
                   sp.Integer(0))
        row, exact_row = [], []
        for k in range(1, kmax + 1):
            num = sum((_interval_expectation(hermite_He(k), w.start, w.end)
                       for w in intervals), sp.Integer(0))
            value = num / mass / sp.sqrt(sp.factorial(k))
            exact_row.append(value)
            row.append(mpmath.mpf(sp.N(value, dps + _GUARD)))
        out.labels.append(f"atom y = {_short_number(c)} (P = {sp.N(mass, 4)})")
        out.values.append(row)
        out.exact.append(exact_row)
        out.errors.append([0] * kmax)
        out.digits.append(dps)


def _generic_rows(engine: _Engine, kmax: int, out: _Conditional) -> None:
    """Continuous part: up to four generic values y = f(z0) (z0 from ``_GENERIC_Z``, skipping
    flat points and atoms), E[h_k | y] = Σ_r φ(r) h_k(r)/|f'(r)| / Σ_r φ(r)/|f'(r)| over the
    preimages r of y, with a rounding bound per value."""
    dps = engine.dps
    norms = [mpmath.sqrt(mpmath.factorial(k)) for k in range(kmax + 1)]
    # f' away from the kinks: the DiracDelta terms of a piecewise f vanish at generic points
    dfn = _mp_function(sp.diff(engine.expr, Z).replace(sp.DiracDelta,
                                                      lambda *_: sp.Integer(0)))
    grid: list[Any] = []
    values: list[Any] = []
    if engine.pairs is None:
        step = mpmath.mpf(2 * _GRID_HALF_WIDTH) / (_GRID_POINTS - 1)
        grid = [-_GRID_HALF_WIDTH + i * step for i in range(_GRID_POINTS)]
        values = [engine.fn(x) for x in grid]
    atom_values = [mpmath.mpf(sp.N(c, dps)) for c in _atoms(engine.pairs)]
    used = 0
    for z0s in _GENERIC_Z:
        z0 = mpmath.mpf(z0s)
        if abs(dfn(z0)) < mpmath.mpf(10) ** (-dps // 2):
            continue  # a flat point: y0 is an atom or critical value, not generic
        y = engine.fn(z0)
        if any(abs(y - a) < mpmath.mpf(10) ** (-dps // 2) for a in atom_values):
            continue
        roots = _preimages(engine, y, grid, values)
        weights = []
        for r in roots:
            d = abs(dfn(r))
            if d == 0:
                continue
            weights.append((r, mpmath.npdf(r) / d))
        total = mpmath.fsum(w for _, w in weights)
        if total == 0:
            continue
        terms = [[w * _mp_He(k, r) / total / norms[k] for r, w in weights]
                 for k in range(1, kmax + 1)]
        row = [mpmath.fsum(t) for t in terms]
        # rounding: each term to dps + _GUARD digits (roots, weights, He_k), times their count
        unit = mpmath.mpf(10) ** (-(dps + _GUARD - 2)) * len(weights)
        out.errors.append([unit * mpmath.fsum(abs(x) for x in t) for t in terms])
        out.exact.append([None] * kmax)
        out.digits.append(dps if engine.pairs is not None else min(dps, _GRID_DIGITS))
        out.labels.append(f"y = f({z0s}) = {mpmath.nstr(y, 6)} "
                          f"({len(weights)} preimage{'s' if len(weights) != 1 else ''})")
        out.values.append(row)
        used += 1
        if used >= 4:
            break


def generative_exponent(f: str | sp.Expr | Function, kmax: int = 12, dps: int = 30,
                        expansion_: Expansion | None = None) -> Exponent:
    """Smallest k >= 1 with E[h_k(z) | f(z)] not almost surely zero (see the module docstring).

    Parameters: ``f`` as for :func:`~fltheory.engine.hermite.coefficients.expansion`; ``kmax``,
    the largest k examined, in [1, 40] (KMAX_MAX: a time bound, not a mathematical one — the
    search adds a conditional expectation at every k; see
    :mod:`~fltheory.engine.hermite.bounds`); ``dps``, in [5, 100]; ``expansion_``, an
    expansion of f already computed (its μ_k are used as they are; an expansion of another
    function is a DomainError). Returns an :class:`Exponent` whose ``value`` is None when
    E[h_k | y] vanished at every tested y for 1 <= k <= kmax; ``exact`` is False unless μ_1 ≠ 0
    decided it.

    Every zero is decided by the one rule of :mod:`fltheory.engine.hermite.zero`, at ``dps``
    digits, as for the information exponent; and at each k the search also asks μ_k itself
    (the same coefficient :func:`information_exponent` reads): μ_k ≠ 0 ends it at k, since
    T(y) = y already correlates with h_k. So the generative exponent never exceeds the
    information exponent, by construction.

    >>> generative_exponent("He3", 4, 15).value, generative_exponent("abs", 4, 15).value
    (1, 2)
    """
    read_count(kmax, "kmax", 1, KMAX_MAX)
    check_dps(dps)
    func = parse_function(f)
    mu = _Coefficients(func, dps, _of(expansion_, func))
    if not func.expr.has(Z):
        return Exponent("generative", None, kmax,
                        "f is constant: y carries no information, E[h_k | y] = E[h_k] = 0")
    mu1 = mu(1)
    if not mu1.zero:  # the information exponent is 1
        return Exponent("generative", 1, kmax,
                        "μ_1 ≠ 0: already T(y) = y correlates with h_1, so E[h_1 | y] ≠ 0",
                        exact=mu1.exact is not None)
    cond = _conditional_expectations(_Engine(func, dps, 0), kmax)
    return _generative_search(cond, mu, _is_even(func.expr), kmax, dps)


def _generative_search(cond: Any, mu: _Coefficients, even: bool, kmax: int, dps: int
                       ) -> Exponent:
    """The search of :func:`generative_exponent` over k = 1..kmax (μ_1 = 0): odd k skipped
    for an even f; k is the exponent when E[h_k | y] is non-zero at a tested y (``cond``), or
    when μ_k ≠ 0; otherwise the evidence that it counted as zero (and any near-zero value)
    is kept for the answer."""
    evidence: list[str] = []
    near: list[int] = []
    notes: list[str] = []  # the near-zero values passed over, with their size
    for k in range(1, kmax + 1):
        if even and k % 2:
            evidence.append(f"k = {k}: E[h_{k} | y] = 0 exactly (f is even, h_{k} odd)")
            continue
        tests = [cond.test(i, k) for i in range(len(cond.values))]
        nonzero = [i for i, t in enumerate(tests) if not t.zero]
        if nonzero:
            best = max(nonzero, key=lambda i: abs(cond.values[i][k - 1]))
            reason = (f"E[h_{k}(z) | y] = {mpmath.nstr(cond.values[best][k - 1], 8)} at "
                      f"{cond.labels[best]}"
                      + (" (odd k vanish: f is even)" if even and k > 1 else "")
                      + "".join(notes))
            return Exponent("generative", k, kmax, reason, tuple(evidence), exact=False,
                            near_zero=tuple(near))
        c = mu(k)
        if not c.zero:  # T(y) = y: never above the information exponent
            return Exponent("generative", k, kmax,
                            f"μ_{k} ≠ 0 (|μ_{k}| = {mpmath.nstr(abs(c.numeric), 5)}): T(y) = y "
                            f"already correlates with h_{k} (the information exponent is {k}), "
                            f"although E[h_{k} | y] counted as zero at the {len(tests)} tested "
                            "values" + "".join(notes), tuple(evidence), exact=False,
                            near_zero=tuple(near))
        evidence.append(_zero_evidence(k, tests, cond, c, dps, near, notes))
    return Exponent("generative", None, kmax,
                    f"E[h_k | y] vanished at every tested y for 1 <= k <= {kmax}"
                    + "".join(notes),
                    tuple(evidence), exact=False, near_zero=tuple(near))


def _zero_evidence(k: int, tests: list[Any], cond: Any, c: Coefficient, dps: int,
                   near: list[int], notes: list[str]) -> str:
    """The evidence line of a k at which E[h_k | y] and μ_k counted as zero; a near-zero value
    among them adds k to ``near`` and its size to ``notes``."""
    close = [(cond.labels[i], t) for i, t in enumerate(tests) if t.near_zero
             and t.exact]
    if close or c.near_zero:
        near.append(k)
    what = (f"k = {k}: E[h_{k} | y] counts as zero (|·| <= 10^-{min(cond.digits or [dps])})"
            f" at all {len(tests)} tested values")
    if close:
        label, t = max(close, key=lambda p: p[1].magnitude)
        what += f"; near zero at {label}: {t.describe(f'E[h_{k} | y]')}"
        notes.append(f"; at {label}, {t.describe(f'E[h_{k} | y]')}")
    elif c.near_zero and c.test is not None:
        notes.append(f"; {c.test.describe(f'μ_{k}')}")
    return what


class _Coefficients:
    """μ_k of f as :func:`information_exponent` reads them: from the expansion given when it
    reaches k, else computed here (one engine, in order, cached), with the same zero rule."""

    def __init__(self, func: Function, dps: int, given: Expansion | None):
        self.func, self.dps, self.given = func, dps, given
        self.engine: tuple[_Engine, Any] | None = None
        self.cache: dict[int, Coefficient] = {}

    def __call__(self, k: int) -> Coefficient:
        if self.given is not None and k < len(self.given.coefficients):
            return self.given.coefficients[k]
        if k not in self.cache:
            if self.engine is None:
                self.engine = _engine(self.func, self.dps, 5.0, "EXPR")
            self.cache[k] = _coefficient(self.engine[0], k, self.engine[1])
        return self.cache[k]


def _short_number(value: sp.Expr) -> str:
    text = str(value)
    return text if len(text) <= 30 else mpmath.nstr(mpmath.mpf(sp.N(value, 20)), 12)
