r"""Hermite coefficients μ_k = E[f(z) h_k(z)], z ~ N(0, 1), of a function of one variable: the
:class:`Expansion` of f to degree K, each :class:`Coefficient` with the path that produced it, and
the :class:`Parseval` check Σ_{k<=K} μ_k² against E[f²].

Conventions: probabilists' He_k, E[He_j He_k] = k! δ_jk; orthonormal h_k = He_k/√(k!);
f = Σ μ_k h_k in L²(φ); in the ``He`` basis c_k = μ_k/√(k!) and f = Σ c_k He_k.

How a coefficient is computed (the ``path`` reported with it), first that applies: the exact paths
of :mod:`fltheory.engine.hermite.exact` (``exact:polynomial``, ``exact:piecewise``,
``exact:piecewise-gaussian``, ``exact:gaussian-ibp``: Gaussian integration by parts
E[f He_k] = E[f^{(j)} He_{k−j}] until f^{(j)} is in the Gaussian class); ``exact:sympy``,
sympy's ``integrate`` within a time budget for functions built from exp/erf/sin/cos, accepted
only when quadrature agrees to 15 digits;
``numeric:quad`` (:mod:`fltheory.engine.hermite.quadrature`) at ``dps`` + 10 guard digits,
re-evaluated at ``dps`` + 25, with the number of digits on which the two agree. Every
coefficient, exact or numeric, counts as zero when |μ_k| <= 10^{−dps}·‖f‖ (‖f‖² = E[f²]; a
numeric one also below ten times the quadrature's error estimate): the one rule of
:mod:`fltheory.engine.hermite.zero`. An exact coefficient under that bound that sympy does not
prove zero is *near zero*: counted as zero at this precision, reported with its size.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import mpmath
import sympy as sp

from fltheory.args import read_count
from fltheory.engine.functions import Function, Z, hermite_He, parse_function
from fltheory.engine.hermite.bounds import K_MAX, check_budget
from fltheory.engine.hermite.exact import (
    _KINK_ATOMS,
    _clean,
    _expect_polynomial,
    _gaussian_expectation,
    _is_polynomial,
    _phi,
    _piecewise_expectation,
    _piecewise_gaussian_expectation,
    _piecewise_gaussian_pairs,
    _piecewise_pairs,
)
from fltheory.engine.hermite.quadrature import _mp_function, _quad_expectation, kink_points
from fltheory.engine.hermite.zero import ZeroTest, decide_zero
from fltheory.engine.timer import Timeout, time_limit
from fltheory.exact import DomainError, check_dps
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = ["Basis", "Coefficient", "Expansion", "Parseval", "coefficient", "expansion",
           "parseval"]

#: The two bases: ``"h"`` orthonormal h_k = He_k/√(k!) (μ_k), ``"He"`` monic He_k (c_k).
Basis = Literal["h", "He"]
_GUARD = 10
_REPR_TERMS = 9  # coefficients shown by Expansion's repr (the table shows all)
_RECHECK = 25
_SYMPY_FRIENDLY = (sp.exp, sp.erf, sp.erfc, sp.sin, sp.cos, sp.sinh, sp.cosh)


def _check_basis(basis: object) -> None:
    if basis not in ("h", "He"):
        raise DomainError("basis", repr(basis)[:40], "'h' or 'He'")


@dataclass(frozen=True)
class Coefficient:
    """μ_k = E[f h_k] (orthonormal basis): exact sympy value when known, numeric at ``dps``.

    ``exact`` is the sympy value (None on the numeric path), ``numeric`` an mpmath number good to
    ``dps`` digits on exact paths and to ``agreement`` digits on the numeric path (the digits on
    which two evaluations at different working precision agree; None on exact paths); ``path``
    says how it was computed and ``zero`` whether it counts as zero at ``dps`` digits, by the one
    rule of :mod:`fltheory.engine.hermite.zero` (|μ_k| <= 10^{−dps}·‖f‖, exact values included);
    ``test`` is that decision (:class:`~fltheory.engine.hermite.zero.ZeroTest`: exactly zero,
    near zero — not proved zero but under the bound — or non-zero, with the size).
    """

    k: int
    exact: sp.Expr | None
    numeric: mpmath.mpf
    path: str
    dps: int
    agreement: int | None = None
    zero: bool = False
    test: ZeroTest | None = None

    @property
    def near_zero(self) -> bool:
        """Counts as zero at ``dps`` digits without being proved exactly zero."""
        return self.test is not None and self.test.near_zero

    def exact_in(self, basis: Basis) -> sp.Expr | None:
        """The exact value in ``basis``: μ_k ("h") or c_k = μ_k/√(k!) ("He"); None if unknown."""
        _check_basis(basis)
        if self.exact is None or basis == "h":
            return self.exact
        return _clean(self.exact / sp.sqrt(sp.factorial(self.k)))

    def numeric_in(self, basis: Basis) -> mpmath.mpf:
        """The numeric value in ``basis``: μ_k ("h") or c_k = μ_k/√(k!) ("He")."""
        _check_basis(basis)
        if basis == "h":
            return self.numeric
        with mpmath.workdps(self.dps + _GUARD):
            value = self.numeric / mpmath.sqrt(mpmath.factorial(self.k))
        return value

    def confirmed_text(self, basis: Basis = "h") -> str:
        """The numeric value in ``basis`` to the digits that were confirmed: all ``dps`` on exact
        paths (and for a zero); on the numeric path only the ``agreement`` digits, followed by
        their number in parentheses, or 'unconfirmed (0 digits agree)' when not one agreed."""
        value = self.numeric_in(basis)
        if self.agreement is None or self.agreement >= self.dps or self.zero:
            return str(mpmath.nstr(value, self.dps))
        if self.agreement < 1:
            return "unconfirmed (0 digits agree)"
        return f"{mpmath.nstr(value, self.agreement)} ({self.agreement} digits)"


@dataclass(frozen=True)
class Expansion(ShowsTable):
    """The first coefficients of ``function``; ``coefficients[k]`` is μ_k (orthonormal), each
    at ``dps`` digits; ``notes`` say when sympy's budget ran out or square integrability was
    decided numerically; ``budget`` is the sympy time budget it was given, in seconds.
    In a notebook it shows as a table (k, exact, numeric to its confirmed digits, path)."""

    function: Function
    coefficients: tuple[Coefficient, ...]
    dps: int
    notes: tuple[str, ...] = ()
    budget: float = 5.0

    @property
    def worst_agreement(self) -> int | None:
        """The fewest digits on which a numeric-path coefficient was confirmed (None when every
        coefficient is exact)."""
        agreements = [c.agreement or 0 for c in self.coefficients if c.agreement is not None]
        return min(agreements) if agreements else None

    def __repr__(self) -> str:
        """One line: f, the degree, dps and μ_0..μ_K (exact where known, else 8 digits); the
        paths and notes are in :meth:`table`.

        >>> expansion("He2", 3, 15)
        Expansion(f(z) = z**2 - 1, K = 3, dps = 15: μ = 0, 0, sqrt(2), 0)
        """
        def shown(c: Coefficient) -> str:
            if c.exact is not None:
                return str(c.exact)
            return "0" if c.zero else mpmath.nstr(c.numeric, 8)

        values = ", ".join(shown(c) for c in self.coefficients[:_REPR_TERMS])
        more = f", … ({len(self.coefficients) - _REPR_TERMS} more)" \
            if len(self.coefficients) > _REPR_TERMS else ""
        notes = f"; {len(self.notes)} note(s)" if self.notes else ""
        return (f"Expansion(f(z) = {self.function.expr}, K = {len(self.coefficients) - 1}, "
                f"dps = {self.dps}: μ = {values}{more}{notes})")

    def table(self, basis: str = "h") -> Table:
        """The coefficients in ``basis`` ("h": μ_k, "He": c_k = μ_k/√(k!)): k, the exact value
        ("-" when only numeric), the numeric value to its confirmed digits, the path; the notes
        in the table's notes. Its LaTeX cells are what ``fltheory hermite --format latex``
        prints (the command renders this very table)."""
        _check_basis(basis)
        b: Basis = "h" if basis == "h" else "He"
        symbol = "μ" if basis == "h" else "c"
        rows, latex_rows = [], []
        for c in self.coefficients:
            exact, numeric = c.exact_in(b), c.confirmed_text(b)
            rows.append([str(c.k), str(exact) if exact is not None else "-", numeric, c.path])
            latex_rows.append([str(c.k), f"${sp.latex(exact)}$" if exact is not None else "--",
                               _latex_numeric(numeric), c.path])
        expr = self.function.expr
        return Table(
            columns=["k", f"{symbol}_k exact", f"{symbol}_k numeric", "path"],
            rows=rows,
            latex_columns=["$k$", ("$\\mu_k$" if basis == "h" else "$c_k$") + " exact",
                           "numeric", "path"],
            latex_rows=latex_rows,
            caption=f"Hermite coefficients of f(z) = {expr} (basis {basis})",
            latex_caption=(f"Hermite coefficients of $f(z) = {sp.latex(expr)}$ "
                           + ("(basis $h_k$)." if basis == "h" else r"(basis $\mathrm{He}_k$).")),
            label="tab:fltheory-hermite",
            align="rlrl",
            notes=list(self.notes),
        )


def _latex_numeric(text: str) -> str:
    """A confirmed numeric cell as LaTeX: the number in maths, the digit count in words
    ("0.1234 (4 digits)" -> "$0.1234$ (4 digits)"); "unconfirmed (...)" stays words."""
    number, sep, rest = text.partition(" ")
    if number.startswith("unconfirmed"):
        return text
    mantissa, e, exponent = number.partition("e")
    maths = f"{mantissa} \\times 10^{{{int(exponent)}}}" if e else number
    return f"${maths}$" + (f" {rest}" if sep else "")


@dataclass(frozen=True)
class Parseval:
    """Σ_{k<=K} μ_k² against E[f²]: ``norm2_exact`` (sympy, None when only numeric) and ``norm2``
    (mpmath) are E[f²], computed by ``path``; ``captured`` = Σ_{k<=K} μ_k² / E[f²] (mpmath)."""

    norm2_exact: sp.Expr | None
    norm2: mpmath.mpf
    captured: mpmath.mpf
    K: int
    path: str


class _Engine:
    """Per-function state: decides once which exact path applies, keeps the sympy budget."""

    def __init__(self, func: Function, dps: int, budget: float, param: str = "EXPR"):
        self.func = func
        self.param = param
        self.expr = func.expr
        self.dps = dps
        self.budget = budget
        self.notes: list[str] = []
        self.pairs = None if _is_polynomial(self.expr) else _piecewise_pairs(self.expr)
        self.gaussian_pairs = (None if _is_polynomial(self.expr) or self.pairs is not None
                               else _piecewise_gaussian_pairs(self.expr))
        self.smooth = not self.expr.has(*_KINK_ATOMS) and not self.expr.has(sp.DiracDelta)
        # sympy's integrate is tried only on polynomials in exp/erf/sin/cos/… (not, e.g., on
        # 1/(1 + exp(−z)), where it spends its whole budget and fails).
        functions = self.expr.atoms(sp.Function)
        self.sympy_friendly = all(isinstance(f, _SYMPY_FRIENDLY) for f in functions) and bool(
            self.expr.is_polynomial(Z, *functions))
        # Derivatives can reach the Gaussian class only from exp/erf/erfc and polynomials.
        self.gaussian_candidate = self.smooth and all(
            isinstance(f, sp.exp | sp.erf | sp.erfc) for f in functions)
        self._fn: Callable[[Any], Any] | None = None
        self.cache: dict[int, dict[Any, Any]] = {}
        self._points: list[Any] | None = None

    @property
    def fn(self) -> Callable[[Any], Any]:
        if self._fn is None:
            self._fn = _mp_function(self.expr)
        return self._fn

    @property
    def points(self) -> list[Any]:
        if self._points is None:
            self._points = kink_points(self.expr)
        return self._points

    def exact_He_expectation(self, k: int) -> tuple[sp.Expr, str] | None:
        """E[f He_k] exactly, with the path, or None."""
        He = hermite_He(k)
        if _is_polynomial(self.expr):
            return _expect_polynomial(self.expr * He), "exact:polynomial"
        if self.pairs is not None:
            return _piecewise_expectation(self.pairs, He), "exact:piecewise"
        if self.gaussian_pairs is not None:
            value = _piecewise_gaussian_expectation(self.gaussian_pairs, He)
            if value is not None:
                return value, "exact:piecewise-gaussian"
        if self.gaussian_candidate:
            for j in range(k + 1):
                value = _gaussian_expectation(sp.diff(self.expr, Z, j) * hermite_He(k - j))
                if value is not None:
                    return value, "exact:gaussian-ibp"
        if self.smooth and self.sympy_friendly and self.budget > 0:
            return self._sympy_integrate(self.expr * He)
        return None

    def _sympy_integrate(self, integrand: sp.Expr) -> tuple[sp.Expr, str] | None:
        start = time.perf_counter()
        value = None
        try:
            with time_limit(self.budget) as limited:
                if limited:
                    value = sp.integrate(integrand * _phi(Z), (Z, -sp.oo, sp.oo))
        except Timeout:
            self.notes.append("sympy.integrate ran out of its time budget; quadrature used")
            value = None
        finally:
            self.budget -= time.perf_counter() - start
        if value is None or value.has(sp.Integral, sp.Piecewise, sp.oo, sp.nan, sp.zoo) \
                or not value.is_number:
            return None
        # sympy can return a wrong closed form; accept it only if quadrature agrees.
        check, _ = _quad_expectation(_mp_function(integrand), 0, self.points, 20)
        if abs(sp.N(value, 20) - sp.Float(check, 20)) > 1e-14 * max(1, abs(check)):
            self.notes.append("a sympy.integrate result disagreed with quadrature; discarded")
            return None
        return value, "exact:sympy"


def _finite_real(engine: _Engine, k: int, value: Any) -> Any:
    """``value`` as a finite real mpf, or a DomainError: no inf/NaN/complex is ever printed."""
    if isinstance(value, mpmath.mpc):
        if abs(value.imag) > mpmath.mpf(10) ** (-engine.dps) * (1 + abs(value.real)):
            raise DomainError(engine.param, engine.func.text, "real-valued functions of z",
                              reason=f"gives a complex Hermite coefficient μ_{k}")
        value = value.real
    if not mpmath.isfinite(value):
        raise DomainError(engine.param, engine.func.text,
                          "functions f with E[f(z)²] < ∞, z ~ N(0, 1)",
                          reason=f"gives a Hermite coefficient μ_{k} that is not finite")
    return value



def _coefficient(engine: _Engine, k: int, scale: Any | None = None) -> Coefficient:
    """μ_k of the engine's function; ``scale`` (‖f‖) sets the zero bound of the numeric path."""
    dps = engine.dps
    found = engine.exact_He_expectation(k)
    if found is not None:
        value, path = found
        mu = _clean(value / sp.sqrt(sp.factorial(k)))
        with mpmath.workdps(dps + _GUARD):
            try:
                numeric = mpmath.mpmathify(sp.N(mu, dps + _GUARD)) if mu != 0 \
                    else mpmath.mpf(0)
            except (TypeError, ValueError):
                numeric = mpmath.mpf("nan")
            numeric = _finite_real(engine, k, numeric)
        test = decide_zero(mu, dps, scale if scale is not None else 1)
        return Coefficient(k, mu, numeric, path, dps, None, test.zero, test)
    v1, e1 = _quad_expectation(engine.fn, k, engine.points, dps + _GUARD,
                               engine.cache.setdefault(dps + _GUARD, {}))
    v2, _ = _quad_expectation(engine.fn, k, engine.points, dps + _RECHECK,
                              engine.cache.setdefault(dps + _RECHECK, {}))
    v1, v2 = _finite_real(engine, k, v1), _finite_real(engine, k, v2)
    if isinstance(e1, mpmath.mpc):
        e1 = abs(e1)
    with mpmath.workdps(dps + _RECHECK):
        root = mpmath.sqrt(mpmath.factorial(k))
        mu1, mu2 = v1 / root, v2 / root
        scale = scale if scale is not None else mpmath.mpf(1)
        diff = abs(mu1 - mu2)
        test = decide_zero(mu2, dps, scale, e1 / root)
        zero = test.zero
        # Digits on which the two precisions agree, relative to |μ_k| (or to ‖f‖ for a zero).
        ref = scale if zero else abs(mu2)
        agreement = dps if diff == 0 else int(min(dps, max(0, -mpmath.log10(diff / ref))))
        return Coefficient(k, None, mpmath.mpf(0) if zero else +mu2, "numeric:quad", dps,
                           agreement, bool(zero), test)



def _engine(f: str | sp.Expr | Function, dps: int, budget: float,
            param: str) -> tuple[_Engine, Any]:
    """The engine of f and ‖f‖ (1 when f = 0), the scale of the numeric zero bound."""
    engine = _Engine(parse_function(f, param), dps, budget, param)
    norm = _norm2(engine)
    with mpmath.workdps(dps + _GUARD):
        scale = mpmath.sqrt(norm[1]) if norm[1] > 0 else mpmath.mpf(1)
    return engine, scale


def coefficient(f: str | sp.Expr | Function, k: int, dps: int = 30,
                budget: float = 5.0) -> Coefficient:
    """The one coefficient μ_k = E[f(z) h_k(z)] of f, as :func:`expansion` computes it.

    Parameters as for :func:`expansion`, with ``k`` in [0, 60] the degree. Returns a
    :class:`Coefficient`: exact sympy value when a structured path applies, else mpmath at
    ``dps`` digits.

    >>> c = coefficient("relu", 2, dps=15)
    >>> c.exact, c.path
    (1/(2*sqrt(pi)), 'exact:piecewise')
    """
    read_count(k, "k", 0, K_MAX)
    check_dps(dps)
    engine, scale = _engine(f, dps, check_budget(budget), "EXPR")
    return _coefficient(engine, k, scale)


def expansion(f: str | sp.Expr | Function, K: int = 8, dps: int = 30,
              budget: float | str = 5.0, param: str = "EXPR") -> Expansion:
    """μ_0, …, μ_K of f (orthonormal basis), exact where possible, else mpmath at ``dps``.

    Parameters: ``f``, a catalogue name, an expression in z, a sympy expression or a parsed
    :class:`~fltheory.engine.functions.Function`; it must be real-valued and square-integrable
    under N(0, 1) (checked by :func:`~fltheory.engine.functions.parse_function`; a refusal
    is a DomainError naming ``param``). ``K``, the highest degree, in [0, 60]; ``dps``, the
    significant digits of the numeric values, in [5, 100]; ``budget``, the seconds (in
    [0, 600], a number or its text) that sympy's general ``integrate`` may spend on this
    function (the structured exact paths do not use it). Every bound is checked before any
    work. Returns an :class:`Expansion`: ``coefficients[k]`` is μ_k = E[f(z) h_k(z)].

    >>> e = expansion("relu", K=4, dps=15)
    >>> [str(c.exact) for c in e.coefficients]
    ['sqrt(2)/(2*sqrt(pi))', '1/2', '1/(2*sqrt(pi))', '0', '-sqrt(3)/(12*sqrt(pi))']
    >>> [c.path for c in e.coefficients][:2]
    ['exact:piecewise', 'exact:piecewise']
    """
    seconds = check_budget(budget)  # first: the order the command line has always used
    read_count(K, "K", 0, K_MAX)
    check_dps(dps)
    engine, scale = _engine(f, dps, seconds, param)
    coeffs = tuple(_coefficient(engine, k, scale) for k in range(K + 1))
    if engine.func.l2 == "numeric":
        engine.notes.append("square integrability under N(0, 1) was decided numerically "
                            "(sympy's limits did not decide it; criterion in "
                            "fltheory.engine.integrability)")
    return Expansion(engine.func, coeffs, dps, tuple(dict.fromkeys(engine.notes)), seconds)


def _norm2(engine: _Engine) -> tuple[sp.Expr | None, Any, str]:
    """E[f²]: exact where a structured path applies, else quadrature."""
    expr = engine.expr
    exact: sp.Expr | None = None
    path = "numeric:quad"
    if _is_polynomial(expr):
        exact, path = _expect_polynomial(expr**2), "exact:polynomial"
    elif engine.pairs is not None:
        exact, path = _piecewise_expectation([(p**2, w) for p, w in engine.pairs], 1), \
            "exact:piecewise"
    elif engine.gaussian_pairs is not None:
        exact = _piecewise_gaussian_expectation([(p**2, w) for p, w in engine.gaussian_pairs],
                                                sp.Integer(1))
        path = "numeric:quad" if exact is None else "exact:piecewise-gaussian"
    elif engine.smooth:
        g = _gaussian_expectation(expr**2)
        if g is not None:
            exact, path = g, "exact:gaussian"
    if exact is not None:
        exact = _clean(exact)
        with mpmath.workdps(engine.dps + _GUARD):
            return exact, mpmath.mpf(sp.N(exact, engine.dps + _GUARD)), path
    value, _ = _quad_expectation(_mp_function(expr**2), 0, engine.points, engine.dps + _GUARD)
    return None, _finite_real(engine, 0, value), path



def parseval(f: str | sp.Expr | Function, K: int = 12, dps: int = 30,
             expansion_: Expansion | None = None) -> Parseval:
    """Σ_{k<=K} μ_k² against E[f²]: the fraction of ‖f‖² captured by the first K + 1 terms.

    Parameters: ``f``, ``K`` (in [0, 60]) and ``dps`` (in [5, 100]) as for :func:`expansion`;
    ``expansion_``, an expansion of f to degree >= K already computed (else computed here).
    Returns a :class:`Parseval`; E[f²] is exact on the structured paths (polynomial,
    piecewise, Gaussian), else mpmath quadrature at ``dps`` + 10 digits.

    >>> p = parseval("He3", K=4, dps=15)
    >>> str(p.norm2_exact), mpmath.nstr(p.captured, 15)
    ('6', '1.0')
    """
    read_count(K, "K", 0, K_MAX)
    check_dps(dps)
    func = parse_function(f)
    exp_ = expansion_ or expansion(func, K, dps)
    if len(exp_.coefficients) < K + 1:
        raise DomainError("K", K, f"integers in [0, {len(exp_.coefficients) - 1}] (the degree "
                          "of the expansion given)")
    engine = _Engine(func, dps, 0)
    exact, value, path = _norm2(engine)
    with mpmath.workdps(dps + _GUARD):
        total = mpmath.fsum(c.numeric**2 for c in exp_.coefficients[: K + 1])
        captured = total / value if value != 0 else mpmath.mpf(1)
    return Parseval(exact, value, captured, K, path)
