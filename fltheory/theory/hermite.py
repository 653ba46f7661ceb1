r"""Hermite expansions, information exponent and generative exponent of a function of one variable.

Conventions (SPEC): probabilists' Hermite polynomials He_k, orthogonal under the standard normal
weight φ(z) = e^{-z²/2}/√(2π), with E[He_j He_k] = k! δ_jk; orthonormal h_k = He_k/√(k!).
The coefficients of f are μ_k = E[f(z) h_k(z)], z ~ N(0, 1), so f = Σ μ_k h_k in L²(φ);
in the ``He`` basis c_k = μ_k/√(k!) and f = Σ c_k He_k.

How a coefficient is computed (the ``path`` reported with it), first that applies:

``exact:polynomial``
    f is a polynomial: E[z^n] = (n − 1)!! for even n, 0 for odd n.
``exact:piecewise``
    f is piecewise polynomial (``Max``, ``Abs``, ``sign``, ``Heaviside``, ``Piecewise``): on each
    interval (a, b), J_n = ∫_a^b z^n φ obeys J_n = a^{n−1}φ(a) − b^{n−1}φ(b) + (n − 1) J_{n−2},
    J_0 = Φ(b) − Φ(a), J_1 = φ(a) − φ(b) (integration by parts).
``exact:gaussian-ibp``
    f is smooth and some derivative f^{(j)}, j <= k, is a sum of z^n·exp(a z² + b z + c) with
    a < 1/2 (e.g. erf, gelu, exp(−z²)): Gaussian integration by parts
    E[f He_k] = E[f^{(j)} He_{k−j}]
    and the closed-form Gaussian moments.
``exact:sympy``
    sympy's ``integrate`` on ℝ within a time budget, for functions built from exp/erf/sin/cos
    (cross-checked against quadrature to 15 digits before it is accepted).
``numeric:quad``
    mpmath tanh-sinh quadrature split at the kinks, at ``dps`` + 10 guard digits, re-evaluated at
    ``dps`` + 25; the number of digits on which the two agree is reported.

The **information exponent** is the smallest k >= 1 with μ_k ≠ 0. An exact coefficient is zero only
when sympy proves it; a numeric one counts as zero when |μ_k| <= 10^{−dps}·‖f‖ (‖f‖² = E[f²]) and
below ten times the quadrature's error estimate.

The **generative exponent** (Damian, Pillaud-Vivien, Lee & Bruna 2024) is the smallest k >= 1 such
that E[h_k(z) | y] is not almost surely zero, y = f(z): the information exponent of the best label
transformation T(y). For a deterministic f the law of z given y is explicit:

* at a value c that f takes on a set A of positive measure (a flat piece, e.g. relu's 0), y = c
  is an atom and E[h_k | y = c] = E[h_k 1_A]/P(A) (exact, by the
  interval moments above);
* at a generic value y of the continuous part, z is one of the preimages z_i (f(z_i) = y) with
  probability proportional to φ(z_i)/|f'(z_i)| (co-area formula), so
  E[h_k | y] = Σ_i φ(z_i) h_k(z_i)/|f'(z_i)| / Σ_i φ(z_i)/|f'(z_i)|.

The conditional expectation is evaluated at a handful of generic y (images of fixed irrational-ish
points) and at every atom; k is counted when any of these is non-zero beyond 10^{−10}. Exact
shortcuts come first: μ_1 ≠ 0 gives 1 (T(y) = y); an even f (f(−z) = f(z), proved by sympy) makes
every odd k vanish identically, since z and −z are then equally likely given y. Preimages are found
exactly (polynomial roots) for piecewise-polynomial f, and by bracketing sign changes of f − y on a
grid of [−12, 12] (spacing 0.003) otherwise; the weight of preimages beyond |z| = 12 is below
e^{−70} relative to the ones used. Since E[y h_k] = E[y E[h_k | y]], the generative exponent never
exceeds the information exponent; the code checks it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import mpmath
import sympy as sp

from fltheory.exact import DomainError, check_dps, check_integer
from fltheory.theory.functions import (
    Function,
    Timeout,
    Z,
    hermite_He,
    parse_function,
    time_limit,
)

__all__ = [
    "Coefficient",
    "Expansion",
    "Exponent",
    "Parseval",
    "coefficient",
    "expansion",
    "gauss_moment",
    "generative_exponent",
    "information_exponent",
    "parseval",
]

Basis = Literal["h", "He"]
_GUARD = 10
_RECHECK = 25
_KINK_ATOMS = (sp.Abs, sp.sign, sp.Heaviside, sp.Max, sp.Min, sp.Piecewise)
_SYMPY_FRIENDLY = (sp.exp, sp.erf, sp.erfc, sp.sin, sp.cos, sp.sinh, sp.cosh)


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Coefficient:
    """μ_k = E[f h_k] (orthonormal basis): exact sympy value when known, numeric at ``dps``.

    ``agreement`` is, for the numeric path, the number of significant digits on which two
    evaluations at different working precision agree (``None`` on exact paths).
    """

    k: int
    exact: sp.Expr | None
    numeric: mpmath.mpf
    path: str
    dps: int
    agreement: int | None = None
    zero: bool = False

    def exact_in(self, basis: Basis) -> sp.Expr | None:
        if self.exact is None or basis == "h":
            return self.exact
        return _clean(self.exact / sp.sqrt(sp.factorial(self.k)))

    def numeric_in(self, basis: Basis) -> mpmath.mpf:
        if basis == "h":
            return self.numeric
        with mpmath.workdps(self.dps + _GUARD):
            value = self.numeric / mpmath.sqrt(mpmath.factorial(self.k))
        return value


@dataclass(frozen=True)
class Expansion:
    """The first coefficients of ``function``; ``coefficients[k]`` is μ_k (orthonormal)."""

    function: Function
    coefficients: tuple[Coefficient, ...]
    dps: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exponent:
    """An information or generative exponent: ``value`` (None when none found up to ``kmax``)
    with the reason, and per-k evidence."""

    kind: str
    value: int | None
    kmax: int
    reason: str
    evidence: tuple[str, ...] = ()
    exact: bool = True

    def __str__(self) -> str:
        return str(self.value) if self.value is not None else f"> {self.kmax}"


@dataclass(frozen=True)
class Parseval:
    """Σ_{k<=K} μ_k² against E[f²]."""

    norm2_exact: sp.Expr | None
    norm2: mpmath.mpf
    captured: mpmath.mpf
    K: int
    path: str


# --------------------------------------------------------------------------- exact pieces


def gauss_moment(n: int) -> int:
    """E[z^n] for z ~ N(0, 1): (n − 1)!! for even n, 0 for odd n.

    >>> [gauss_moment(n) for n in range(7)]
    [1, 0, 1, 0, 3, 0, 15]
    """
    return 0 if n % 2 else math.prod(range(n - 1, 0, -2))


def _to_poly(expr: sp.Expr) -> sp.Poly:
    """A polynomial in z as a sympy Poly, built along the expression tree with Poly arithmetic
    (dense, fast): ``sp.Poly(sp.expand(He12(z)**16))`` takes minutes, this takes milliseconds."""
    if expr.is_Add or expr.is_Mul:
        parts = [_to_poly(a) for a in expr.args]
        out = parts[0]
        for part in parts[1:]:
            out = out + part if expr.is_Add else out * part
        return out
    if expr.is_Pow and expr.exp.is_Integer and expr.exp >= 0 and expr.base.has(Z):
        return _to_poly(expr.base) ** int(expr.exp)
    return sp.Poly(expr, Z)


def _expect_polynomial(expr: sp.Expr) -> sp.Expr:
    poly = _to_poly(expr)
    return _clean(sum((c * gauss_moment(m[0]) for m, c in poly.terms()), sp.Integer(0)))


def _is_polynomial(expr: sp.Expr) -> bool:
    return bool(expr.is_polynomial(Z))


def _phi(x: sp.Expr) -> sp.Expr:
    if x in (sp.oo, -sp.oo):
        return sp.Integer(0)
    return sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)


def _Phi(x: sp.Expr) -> sp.Expr:
    if x == sp.oo:
        return sp.Integer(1)
    if x == -sp.oo:
        return sp.Integer(0)
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def _interval_moments(a: sp.Expr, b: sp.Expr, nmax: int) -> list[sp.Expr]:
    """J_n = ∫_a^b z^n φ(z) dz for n = 0..nmax, exactly (recursion by parts)."""
    J = [_Phi(b) - _Phi(a), _phi(a) - _phi(b)]
    for n in range(2, nmax + 1):
        ta = sp.Integer(0) if a == -sp.oo else a**(n - 1) * _phi(a)
        tb = sp.Integer(0) if b == sp.oo else b**(n - 1) * _phi(b)
        J.append(ta - tb + (n - 1) * J[n - 2])
    return J[: nmax + 1]


def _interval_expectation(poly_expr: sp.Expr, a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """E[p(z) 1{a < z < b}] for a polynomial p."""
    poly = _to_poly(poly_expr)
    if poly.is_zero:
        return sp.Integer(0)
    J = _interval_moments(a, b, poly.degree())
    return sum((c * J[m[0]] for m, c in poly.terms()), sp.Integer(0))


def _piecewise_pairs(expr: sp.Expr) -> list[tuple[sp.Expr, sp.Interval]] | None:
    """(polynomial, interval) pairs covering ℝ, or None when f is not piecewise polynomial."""
    if not expr.has(*_KINK_ATOMS):
        return None
    rewritten = expr.rewrite(sp.Piecewise)
    if rewritten.has(sp.Heaviside):
        rewritten = rewritten.replace(
            sp.Heaviside, lambda arg, *_: sp.Piecewise((0, arg < 0), (1, True)))
    folded = sp.piecewise_fold(rewritten)
    if not isinstance(folded, sp.Piecewise):
        return None
    try:
        pairs = folded.as_expr_set_pairs(sp.Reals)
    except (NotImplementedError, TypeError, ValueError, AttributeError):
        return None
    out: list[tuple[sp.Expr, sp.Interval]] = []
    for piece, where in pairs:
        if not _is_polynomial(piece):
            return None
        for part in (where.args if isinstance(where, sp.Union) else (where,)):
            if isinstance(part, sp.Interval) and part.measure > 0:
                out.append((_to_poly(piece).as_expr(), part))
            elif not (isinstance(part, sp.FiniteSet) or part.is_empty):
                return None
    return out


def _piecewise_expectation(pairs: list[tuple[sp.Expr, sp.Interval]], g: sp.Expr) -> sp.Expr:
    """E[f g] for piecewise-polynomial f (given by its pairs) and polynomial g."""
    total = sp.Integer(0)
    for piece, where in pairs:
        total += _interval_expectation(piece * g, where.start, where.end)
    return total


def _gaussian_terms(expr: sp.Expr) -> list[tuple[sp.Expr, int, sp.Expr, sp.Expr, sp.Expr]] | None:
    """Write expr as Σ coeff·z^n·exp(a z² + b z + c); None if it is not of that form."""
    terms = []
    for term in sp.Add.make_args(sp.expand(sp.powsimp(sp.expand(expr), combine="exp"))):
        term = sp.powsimp(term, combine="exp")
        coeff, n, exponent = sp.Integer(1), 0, sp.Integer(0)
        for factor in sp.Mul.make_args(term):
            if not factor.has(Z):
                coeff *= factor
            elif factor == Z:
                n += 1
            elif factor.is_Pow and factor.base == Z and factor.exp.is_Integer and factor.exp > 0:
                n += int(factor.exp)
            elif isinstance(factor, sp.exp):
                exponent += factor.args[0]
            elif factor.is_Pow and factor.base == sp.E:
                exponent += factor.exp
            else:
                return None
        if exponent != 0:
            if not _is_polynomial(exponent):
                return None
            p = sp.Poly(sp.expand(exponent), Z)
            if p.degree() > 2:
                return None
            a, b, c = (p.coeff_monomial(Z**2), p.coeff_monomial(Z), p.coeff_monomial(1))
            if not (sp.Rational(1, 2) - a).is_positive:
                return None
        else:
            a = b = c = sp.Integer(0)
        terms.append((coeff, n, a, b, c))
    return terms


def _gaussian_expectation(expr: sp.Expr) -> sp.Expr | None:
    """E[expr] in closed form when expr = Σ coeff·z^n·exp(a z² + b z + c), a < 1/2.

    ∫ z^n e^{−s z² + b z} dz = √(π/s) e^{b²/(4s)} E[X^n], X ~ N(b/(2s), 1/(2s)), s = 1/2 − a.
    """
    terms = _gaussian_terms(expr)
    if terms is None:
        return None
    total = sp.Integer(0)
    for coeff, n, a, b, c in terms:
        s = sp.Rational(1, 2) - a
        m, v = b / (2 * s), 1 / (2 * s)
        moment = sum(sp.binomial(n, j) * m**(n - j) * v**sp.Rational(j, 2) * gauss_moment(j)
                     for j in range(0, n + 1, 2))
        total += coeff * sp.exp(c) * sp.sqrt(sp.pi / s) * sp.exp(b**2 / (4 * s)) * moment \
            / sp.sqrt(2 * sp.pi)
    return total


# The sympy time budget: :func:`fltheory.theory.functions.time_limit` (SIGALRM, main thread only;
# it never leaves an alarm armed, and an alarm that arrives after its block is ignored).
_Timeout = Timeout
_time_limit = time_limit


def _clean(value: sp.Expr) -> sp.Expr:
    value = sp.nsimplify(value) if value.is_Rational else sp.simplify(value)
    return sp.Integer(0) if value == 0 else value


def _is_zero(value: sp.Expr) -> bool | None:
    """True/False when sympy decides; None when it cannot."""
    if value == 0:
        return True
    decided = sp.simplify(value).is_zero
    return decided if decided is not None else None


# --------------------------------------------------------------------------- numeric pieces


def _kinks(expr: sp.Expr) -> list[sp.Expr]:
    """Real points where f may fail to be smooth: zeros of the arguments of Abs/sign/…"""
    points: set[sp.Expr] = set()
    for atom in expr.atoms(*_KINK_ATOMS):
        if isinstance(atom, sp.Max | sp.Min):
            args = [atom.args[i] - atom.args[j] for i in range(len(atom.args))
                    for j in range(i + 1, len(atom.args))]
        elif isinstance(atom, sp.Piecewise):
            args = [rel.lhs - rel.rhs for _, cond in atom.args
                    for rel in cond.atoms(sp.core.relational.Relational)]
        else:
            args = [atom.args[0]]
        for arg in args:
            if _is_polynomial(arg) and arg.has(Z):
                points.update(r for r in _to_poly(arg).real_roots())
    return sorted(points, key=lambda p: float(p))


def _mp_function(expr: sp.Expr) -> Callable[[Any], Any]:
    return sp.lambdify(Z, expr, modules="mpmath")


def _mp_He(k: int, x: Any) -> Any:
    """He_k(x) by the three-term recursion He_{j+1} = x He_j − j He_{j−1}."""
    prev, cur = mpmath.mpf(1), x
    if k == 0:
        return prev
    for j in range(1, k):
        prev, cur = cur, x * cur - j * prev
    return cur


def _quad_expectation(fn: Callable[[Any], Any], k: int, points: list[Any], dps: int,
                      cache: dict[Any, Any] | None = None) -> tuple[Any, Any]:
    """E[f(z) He_k(z)] by tanh-sinh quadrature at ``dps`` digits, split at ``points``.

    ``cache`` memoises f(x)·e^{−x²/2} by node: the quadrature nodes are the same for every k at
    one precision, so the coefficients of one function share their function evaluations.
    """
    memo: dict[Any, tuple[Any, list[Any]]] = {} if cache is None else cache

    def integrand(x: Any) -> Any:
        entry = memo.get(x)
        if entry is None:
            entry = memo[x] = (fn(x) * mpmath.exp(-x * x / 2), [mpmath.mpf(1), x])
        weight, He = entry
        while len(He) <= k:  # He_{j+1} = x He_j − j He_{j−1}, extended once per node
            j = len(He) - 1
            He.append(x * He[j] - j * He[j - 1])
        return weight * He[k]

    with mpmath.workdps(dps):
        cuts = [mpmath.mpf(sp.N(p, dps + 5)) for p in points] or [mpmath.mpf(0)]
        nodes = [-mpmath.inf, *cuts, mpmath.inf]
        value, err = mpmath.quad(integrand, nodes, error=True, maxdegree=10)
        norm = mpmath.sqrt(2 * mpmath.pi)
        return value / norm, err / norm


# --------------------------------------------------------------------------- public API


def _check(K: int, dps: int) -> None:
    check_integer(K, "K", 0, 200)
    check_dps(dps)


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
            self._points = _kinks(self.expr)
        return self._points

    def exact_He_expectation(self, k: int) -> tuple[sp.Expr, str] | None:
        """E[f He_k] exactly, with the path, or None."""
        He = hermite_He(k)
        if _is_polynomial(self.expr):
            return _expect_polynomial(self.expr * He), "exact:polynomial"
        if self.pairs is not None:
            return _piecewise_expectation(self.pairs, He), "exact:piecewise"
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
            with _time_limit(self.budget) as limited:
                if limited:
                    value = sp.integrate(integrand * _phi(Z), (Z, -sp.oo, sp.oo))
        except _Timeout:
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


def coefficient(engine: _Engine, k: int, scale: Any | None = None) -> Coefficient:
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
        zero = _is_zero(mu)
        return Coefficient(k, mu, numeric, path, dps, None, bool(zero))
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
        bound = max(mpmath.mpf(10) ** (-dps) * scale, 10 * e1 / root)
        zero = abs(mu2) <= bound
        # Digits on which the two precisions agree, relative to |μ_k| (or to ‖f‖ for a zero).
        ref = scale if zero else abs(mu2)
        agreement = dps if diff == 0 else int(min(dps, max(0, -mpmath.log10(diff / ref))))
        return Coefficient(k, None, mpmath.mpf(0) if zero else +mu2, "numeric:quad", dps,
                           agreement, bool(zero))


def expansion(f: str | sp.Expr | Function, K: int = 8, dps: int = 30,
              budget: float = 5.0, param: str = "EXPR") -> Expansion:
    """μ_0, …, μ_K of f (orthonormal basis), exact where possible, else mpmath at ``dps``.

    ``budget`` (seconds) bounds the time spent in sympy's general ``integrate`` for this
    function; the structured exact paths (polynomial, piecewise, Gaussian) do not use it.
    f must be square-integrable under N(0, 1) (checked by :func:`parse_function`; a refusal
    is a DomainError naming ``param``).

    >>> e = expansion("relu", K=4)
    >>> [str(c.exact) for c in e.coefficients]
    ['sqrt(2)/(2*sqrt(pi))', '1/2', '1/(2*sqrt(pi))', '0', '-sqrt(3)/(12*sqrt(pi))']
    >>> [c.path for c in e.coefficients][:2]
    ['exact:piecewise', 'exact:piecewise']
    """
    _check(K, dps)
    if not 0 <= budget <= 600:  # also refuses NaN
        raise DomainError("budget", budget, "[0, 600] seconds")
    func = parse_function(f, param)
    engine = _Engine(func, dps, budget, param)
    norm = _norm2(engine)
    with mpmath.workdps(dps + _GUARD):
        scale = mpmath.sqrt(norm[1]) if norm[1] > 0 else mpmath.mpf(1)
    coeffs = tuple(coefficient(engine, k, scale) for k in range(K + 1))
    if func.l2 == "numeric":
        engine.notes.append("square integrability under N(0, 1) was decided numerically "
                            "(sympy's limits did not decide it; criterion in "
                            "fltheory.theory.functions)")
    return Expansion(func, coeffs, dps, tuple(dict.fromkeys(engine.notes)))


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

    >>> p = parseval("He3", K=4)
    >>> str(p.norm2_exact), mpmath.nstr(p.captured, 30)
    ('6', '1.0')
    """
    func = parse_function(f)
    exp_ = expansion_ or expansion(func, K, dps)
    engine = _Engine(func, dps, 0)
    exact, value, path = _norm2(engine)
    with mpmath.workdps(dps + _GUARD):
        total = mpmath.fsum(c.numeric**2 for c in exp_.coefficients[: K + 1])
        captured = total / value if value != 0 else mpmath.mpf(1)
    return Parseval(exact, value, captured, K, path)


def information_exponent(f: str | sp.Expr | Function, kmax: int = 12, dps: int = 30,
                         expansion_: Expansion | None = None) -> Exponent:
    """Smallest k >= 1 with μ_k ≠ 0 (``value`` None when there is none up to ``kmax``).

    >>> information_exponent("He3").value, information_exponent("relu").value
    (3, 1)
    """
    check_integer(kmax, "kmax", 1, 200)
    func = parse_function(f)
    exp_ = expansion_ or expansion(func, kmax, dps)
    evidence: list[str] = []
    for c in exp_.coefficients[1: kmax + 1]:
        if not c.zero:
            how = ("exactly non-zero" if c.exact is not None else
                   f"|μ_{c.k}| = {mpmath.nstr(abs(c.numeric), 5)} above the zero bound")
            return Exponent("information", c.k, kmax,
                            f"μ_{c.k} = {_short(c)} is the first non-zero coefficient ({how})",
                            tuple(evidence), c.exact is not None)
        evidence.append(f"μ_{c.k} = 0" + (" (exact)" if c.exact is not None
                                           else f" (|μ_{c.k}| <= 10^-{dps}·‖f‖)"))
    exact = all(c.exact is not None for c in exp_.coefficients[1: kmax + 1])
    return Exponent("information", None, kmax, f"μ_k = 0 for all 1 <= k <= {kmax}",
                    tuple(evidence), exact)


def _short(c: Coefficient) -> str:
    return str(c.exact) if c.exact is not None else mpmath.nstr(c.numeric, 8)


# --------------------------------------------------------------------------- generative exponent

_GENERIC_Z = ("0.3137", "-0.6229", "1.0771", "-1.4173", "0.0419", "1.8523", "-2.2361")
_GRID_HALF_WIDTH = 12
_GRID_POINTS = 8001
_NONZERO = mpmath.mpf("1e-10")


def _is_even(expr: sp.Expr) -> bool:
    """f(−z) = f(z), proved by sympy (Poly arithmetic for a polynomial; simplify otherwise, within
    a time limit: undecided counts as not even, which only skips the parity shortcut)."""
    if _is_polynomial(expr):
        poly = _to_poly(expr)
        return all(m[0] % 2 == 0 for m in poly.monoms() if poly.coeff_monomial(m) != 0)
    try:
        with _time_limit(10.0):
            return bool(sp.simplify(expr.subs(Z, -Z) - expr) == 0)
    except _Timeout:
        return False


@dataclass
class _Conditional:
    """E[h_k(z) | y] at several y values, for k = 1..kmax."""

    labels: list[str] = field(default_factory=list)
    values: list[list[Any]] = field(default_factory=list)  # values[i][k-1]


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
    out = _Conditional()
    dps = engine.dps
    with mpmath.workdps(dps + _GUARD):
        norms = [mpmath.sqrt(mpmath.factorial(k)) for k in range(kmax + 1)]
        # Atoms: y = c on a set of positive measure.
        for c, intervals in _atoms(engine.pairs).items():
            mass = sum((_interval_expectation(sp.Integer(1), w.start, w.end) for w in intervals),
                       sp.Integer(0))
            row = []
            for k in range(1, kmax + 1):
                num = sum((_interval_expectation(hermite_He(k), w.start, w.end)
                           for w in intervals), sp.Integer(0))
                row.append(mpmath.mpf(sp.N(num / mass, dps + _GUARD)) / norms[k])
            out.labels.append(f"atom y = {c} (P = {sp.N(mass, 4)})")
            out.values.append(row)
        # Continuous part: generic values y = f(z0).
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
            row = [mpmath.fsum(w * _mp_He(k, r) for r, w in weights) / total / norms[k]
                   for k in range(1, kmax + 1)]
            out.labels.append(f"y = f({z0s}) = {mpmath.nstr(y, 6)} "
                              f"({len(weights)} preimage{'s' if len(weights) != 1 else ''})")
            out.values.append(row)
            used += 1
            if used >= 4:
                break
    return out


def generative_exponent(f: str | sp.Expr | Function, kmax: int = 12, dps: int = 30,
                        expansion_: Expansion | None = None) -> Exponent:
    """Smallest k >= 1 with E[h_k(z) | f(z)] not almost surely zero (see the module docstring).

    >>> generative_exponent("He3").value, generative_exponent("abs").value
    (1, 2)
    """
    check_integer(kmax, "kmax", 1, 200)
    func = parse_function(f)
    exp_ = expansion_ or expansion(func, min(kmax, 2), dps)
    info = information_exponent(func, min(kmax, 2), dps, exp_) \
        if len(exp_.coefficients) > 1 else None
    if info is not None and info.value == 1:
        return Exponent("generative", 1, kmax,
                        "μ_1 ≠ 0: already T(y) = y correlates with h_1, so E[h_1 | y] ≠ 0",
                        exact=info.exact)
    engine = _Engine(func, dps, 0)
    even = _is_even(func.expr)
    if not func.expr.has(Z):
        return Exponent("generative", None, kmax,
                        "f is constant: y carries no information, E[h_k | y] = E[h_k] = 0")
    cond = _conditional_expectations(engine, kmax)
    evidence = []
    for k in range(1, kmax + 1):
        if even and k % 2:
            evidence.append(f"k = {k}: E[h_{k} | y] = 0 exactly (f is even, h_{k} odd)")
            continue
        values = [row[k - 1] for row in cond.values]
        best = max(range(len(values)), key=lambda i: abs(values[i]), default=None)
        if best is not None and abs(values[best]) > _NONZERO:
            reason = (f"E[h_{k}(z) | y] = {mpmath.nstr(values[best], 8)} at {cond.labels[best]}"
                      + (" (odd k vanish: f is even)" if even and k > 1 else ""))
            return Exponent("generative", k, kmax, reason, tuple(evidence), exact=False)
        evidence.append(f"k = {k}: |E[h_{k} | y]| <= 1e-10 at all {len(values)} tested values")
    return Exponent("generative", None, kmax,
                    f"E[h_k | y] vanished at every tested y for 1 <= k <= {kmax}",
                    tuple(evidence), exact=False)
