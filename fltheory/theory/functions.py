"""Functions of one variable ``z``: a safe, bounded parser and the catalogue of activations.

An expression such as ``"tanh(z)"``, ``"Max(z, 0)"`` or ``"z**3 - 3*z"`` is parsed with Python's
:mod:`ast` and rebuilt node by node into a sympy expression from a whitelist of operators,
functions and constants: nothing is ever passed to ``eval``, so ``"__import__('os')"`` is just an
unknown name. Decimal literals become exact rationals (``.5`` is 1/2). ``^`` means power.
A catalogue name (``relu``, ``gelu``, ``He3``, …) may be given instead of an expression, and
``He3(z)`` may be used inside one.

**Bounds, checked before sympy builds anything** (:data:`LIMITS`). The text, the size and depth of
its syntax tree are bounded; while the tree is rebuilt bottom-up, every node carries an estimate
of what sympy would make of it (the polynomial degree after expansion, the number of terms after
expansion, the number of digits of its exact constants), and a node whose estimate is beyond the
bound is refused *before* its operation runs: ``"((9**999)**999)**999"`` is refused at the second
power (about 9.5·10^5 digits) and ``"He12(z)**100"`` by its degree (1200), without evaluating them.

**Real values.** A non-integer power, a ``log`` or a power with an exponent depending on z is
accepted only when sympy proves its base (argument) non-negative on ℝ (``sqrt(Abs(z))``,
``log(1 + exp(z))``), so ``sqrt(z)``, ``log(z)`` and ``z**z`` are refused as not real-valued;
a numeric evaluation at a few points backs this up.

**Square integrability** (:func:`check_square_integrable`). Hermite coefficients are defined for
f ∈ L²(N(0, 1)). The check finds the real points where f may be singular (real zeros of every
denominator, of every ``log`` argument, poles of ``tan``) with ``sympy.solveset``, and decides
each end (t → 0+ on both sides of a point p; z → ±∞) by one-sided limits with sympy:

* at a point p: f(p ± t)²·t^{9/10} → finite (f² = O(t^{−9/10}), integrable) accepts;
  f(p ± t)²·t → a positive limit or ∞ (f² >= c/t, not integrable) refuses; then
  f(p ± t)²·t^{99/100} → finite accepts;
* at ±∞: f(±t)² e^{−t²/2} t² → finite accepts; f(±t)² e^{−t²/2} t → positive or ∞ refuses;
  then f(±t)² e^{−t²/2} t^{101/100} → finite accepts.

When sympy gives neither answer (oscillating factors, a time-out), a numeric criterion decides
(mpmath at 30 digits; the result says which was used): at a point, g(t) = f(p ± t)² t^{99/100} must
not increase along t = 10^{−4}, 10^{−8}, 10^{−14}; at ±∞, the maximum of f² e^{−z²/2} z² over the
windows [2^i, 2^{i+1}], i = 5, 6, 7 (64 samples each), must decrease strictly or be below
10^{−30}. Anything else is refused with the reason. This is a sufficient test, not a necessary one:
a few L² functions on the boundary (f² ~ c·e^{z²/2}/z², decided by sympy) pass only exactly.
"""

from __future__ import annotations

import ast
import math
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import sympy as sp

from fltheory.exact import DomainError, parse_rational

__all__ = ["CATALOGUE", "GRAMMAR", "LIMITS", "Function", "Z", "check_square_integrable",
           "hermite_He", "parse_function", "time_limit"]

#: The variable every function is written in.
Z = sp.Symbol("z", real=True)
_T = sp.Symbol("t", positive=True)

_ALLOWED = "an expression in z or a catalogue name (see: fltheory hermite --help)"

#: Bounds on an expression, checked before sympy evaluates it. How they were chosen: on this
#: machine (2 shared cores), ``hermite`` of a degree-200 polynomial with -K 60 takes ~3 s and
#: ``exponent`` with --kmax 40 ~5 s; expansion to 5,000 terms takes ~2 s; an exact constant of
#: 10^4 digits is printed and multiplied in milliseconds. So an accepted expression stays well under
#: a minute, while each refused example would have run for minutes or exhausted memory.
LIMITS = {
    "characters": 2000,        # length of the text
    "nodes": 500,              # nodes of its syntax tree
    "depth": 50,               # nesting depth of the syntax tree
    "degree": 200,             # polynomial degree after expansion (estimated from the tree)
    "kink degree": 40,         # degree inside Abs/sign/Max/Min/Heaviside/relu (exact piecewise
                               # path: ~25 s of CPU at degree 40 with -K 60, as much as tanh)
    "terms": 5000,             # terms after expansion (estimated: multinomial counts)
    "digits": 10_000,          # digits of any exact constant (e.g. 9**999 has 954: fine)
    "exponent": 1000,          # |numeric exponent|
}

#: What an expression may contain (for help texts).
GRAMMAR = ("numbers (exact: .5 is 1/2), z, pi, E, + - * / ** (or ^), and the functions exp log "
           "sqrt sin cos tan tanh sinh cosh atan erf erfc Abs sign Max Min Heaviside relu "
           "sigmoid softplus Phi He0..He12")

#: The bounds as a sentence (for help texts).
BOUNDS = (f"Bounds, checked before any work: at most {LIMITS['characters']} characters, "
          f"{LIMITS['nodes']} syntax nodes, nesting depth {LIMITS['depth']}, polynomial degree "
          f"{LIMITS['degree']} ({LIMITS['kink degree']} inside Abs/sign/Max/Min/Heaviside/relu) "
          f"and {LIMITS['terms']} terms after expansion, exact constants of "
          f"{LIMITS['digits']} digits, numeric exponents of magnitude {LIMITS['exponent']}. "
          "f must be real-valued and square-integrable under N(0, 1) (decided by sympy limits at "
          "its singular points and at ±∞, numerically when sympy cannot).")


def hermite_He(k: int, x: sp.Expr = Z) -> sp.Expr:
    """Probabilists' Hermite polynomial He_k(x) (monic, orthogonal under N(0, 1)).

    >>> hermite_He(3)
    z**3 - 3*z
    """
    return sp.expand(sp.hermite_prob(k, x))


def _phi_cdf(x: sp.Expr) -> sp.Expr:
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def _He_function(k: int) -> Callable[[sp.Expr], sp.Expr]:
    def He(x: sp.Expr) -> sp.Expr:  # exactly one argument (no default to override)
        return hermite_He(k, x)
    return He


_FUNCTIONS: dict[str, Callable[..., sp.Expr]] = {
    "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "sin": sp.sin, "cos": sp.cos,
    "tan": sp.tan, "tanh": sp.tanh, "sinh": sp.sinh, "cosh": sp.cosh, "atan": sp.atan,
    "erf": sp.erf, "erfc": sp.erfc, "Abs": sp.Abs, "abs": sp.Abs, "sign": sp.sign,
    "Max": sp.Max, "max": sp.Max, "Min": sp.Min, "min": sp.Min, "Heaviside": sp.Heaviside,
    "relu": lambda x: sp.Max(x, 0),
    "sigmoid": lambda x: 1 / (1 + sp.exp(-x)),
    "softplus": lambda x: sp.log(1 + sp.exp(x)),
    "Phi": _phi_cdf,
    **{f"He{k}": _He_function(k) for k in range(13)},
}
#: Functions taking several arguments (at least two); every other one takes exactly one.
_VARIADIC = {"Max", "max", "Min", "min"}
#: Functions that keep a piecewise-polynomial argument piecewise polynomial (no new generator).
_PIECEWISE = {"Abs", "abs", "sign", "Max", "max", "Min", "min", "Heaviside", "relu"}
_CONSTANTS: dict[str, sp.Expr] = {"z": Z, "pi": sp.pi, "E": sp.E}


@dataclass(frozen=True)
class Function:
    """A parsed function of ``z``: the user's text, a display name and the sympy expression.

    ``l2`` says how square integrability under N(0, 1) was established ("" when not checked).
    """

    name: str
    expr: sp.Expr
    text: str
    l2: str = ""

    def __str__(self) -> str:
        return self.name


#: Catalogue of named activations (name -> expression text, parsed by the same parser).
CATALOGUE: dict[str, str] = {
    "relu": "Max(z, 0)",
    "tanh": "tanh(z)",
    "sigmoid": "1/(1 + exp(-z))",
    "softplus": "log(1 + exp(z))",
    "gelu": "z*(1 + erf(z/sqrt(2)))/2",
    "erf": "erf(z)",
    "abs": "Abs(z)",
    "sign": "sign(z)",
    "quadratic": "z**2",
    "cubic": "z**3",
    **{f"He{k}": f"He{k}(z)" for k in range(1, 9)},
    # A bounded odd target with μ_1 = 0 and μ_3 ≠ 0 (for the two-step paper's simulations):
    # A sin(2z) − B sin(z) with A = e²/2, B = e^{1/2} cancels E[z sin(bz)] = b e^{−b²/2}; the
    # denominator makes E[g²] = 1 via E[sin(bz) sin(cz)] = (e^{−(b−c)²/2} − e^{−(b+c)²/2})/2.
    "bounded3": ("(exp(2)/2*sin(2*z) - exp(1/2)*sin(z)) / sqrt(exp(4)/4*(1 - exp(-8))/2"
                 " - exp(5/2)*(exp(-1/2) - exp(-9/2))/2 + exp(1)*(1 - exp(-2))/2)"),
}


# --------------------------------------------------------------------------- time limit


class Timeout(BaseException):
    """Raised by :func:`time_limit`; a BaseException so that sympy's ``except Exception`` lets
    it pass."""


def _pending_signals() -> None:
    """A Python-level call: CPython runs pending signal handlers on entering it."""


@contextmanager
def time_limit(seconds: float) -> Iterator[bool]:
    """Yield True and raise :class:`Timeout` inside the block after ``seconds``; yield False
    (no limit) off the main thread or without ``setitimer``.

    Safe by construction: the alarm is armed only from the main thread (where CPython runs
    signal handlers), the handler raises only while its own block is active, the timer is
    disarmed and any alarm already delivered is consumed (by a Python call, while the handler
    is still installed) before the previous handler is restored, and an enclosing timer
    (of an outer ``time_limit`` or of the caller) is shortened to nothing more than it had and
    re-armed with its remaining time on exit.
    """
    usable = (seconds > 0 and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield False
        return
    state = {"active": True}

    def _raise(signum: int, frame: Any) -> None:
        if state["active"]:
            state["active"] = False
            raise Timeout

    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, _raise)
    outer, _ = signal.getitimer(signal.ITIMER_REAL)
    signal.setitimer(signal.ITIMER_REAL, min(seconds, outer) if outer > 0 else seconds)
    try:
        yield True
    finally:
        state["active"] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        _pending_signals()
        signal.signal(signal.SIGALRM, previous)
        if outer > 0:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 1e-3))


# --------------------------------------------------------------------------- parsing


def parse_function(text: str | sp.Expr | Function, param: str = "EXPR",
                   square_integrable: bool = True) -> Function:
    """Parse a catalogue name or an expression in ``z`` into a :class:`Function`.

    The text is bounded before sympy sees it (:data:`LIMITS`), f must be real-valued on ℝ and,
    unless ``square_integrable`` is False, in L²(N(0, 1)) (:func:`check_square_integrable`).
    Every refusal is a :class:`DomainError` naming ``param``.

    >>> parse_function("gelu").expr
    z*(erf(sqrt(2)*z/2) + 1)/2
    >>> parse_function("z^3 - .5*z").expr
    z**3 - z/2
    >>> parse_function("import os")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: EXPR = import os is not a valid expression; allowed: ...
    """
    if isinstance(text, Function):
        if square_integrable and not text.l2:
            return Function(text.name, text.expr, text.text,
                            check_square_integrable(text.expr, param, text.text))
        return text
    if isinstance(text, sp.Basic):
        expr = sp.sympify(text)
        if expr.free_symbols - {Z}:
            raise DomainError(param, text, _ALLOWED, reason="uses a variable other than z")
        _check_real_valued(expr, param, str(expr))
        l2 = check_square_integrable(expr, param, str(expr)) if square_integrable else ""
        return Function(str(expr), expr, str(expr), l2)
    source = str(text).strip()
    expr = _build(CATALOGUE.get(source, source), param, source)
    l2 = check_square_integrable(expr, param, source) if square_integrable else ""
    return Function(source, expr, source, l2)


_BUILD_CACHE: dict[str, sp.Expr] = {}


def _show(source: str) -> str:
    return source if len(source) <= 60 else f"{source[:40]}… ({len(source)} characters)"


def _build(source: str, param: str, shown: str | None = None) -> sp.Expr:
    shown = _show(shown if shown is not None else source)
    if source in _BUILD_CACHE:
        return _BUILD_CACHE[source]
    if not source:
        raise DomainError(param, "''", _ALLOWED, reason="is empty")
    if len(source) > LIMITS["characters"]:
        raise DomainError(param, shown, _ALLOWED,
                          reason=f"is longer than {LIMITS['characters']} characters")
    text = source.replace("^", "**")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        why = ("is nested too deeply" if "nested" in str(exc) or isinstance(exc, RecursionError)
               else "is not a valid expression")
        raise DomainError(param, shown, _ALLOWED, reason=why) from None
    _check_tree(tree, shown, param)
    builder = _Builder(text, shown, param)
    try:
        expr = sp.sympify(builder.node(tree.body).value)
    except DomainError:
        raise
    except ZeroDivisionError:
        raise DomainError(param, shown, _ALLOWED, reason="divides by zero") from None
    except (RecursionError, MemoryError, OverflowError):
        raise DomainError(param, shown, _ALLOWED, reason="is too large to build") from None
    except Exception as exc:  # a sympy failure on an input we let through: still one line
        raise DomainError(param, shown, _ALLOWED,
                          reason=f"could not be built by sympy ({type(exc).__name__})") from None
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise DomainError(param, shown, _ALLOWED, reason="is not finite (division by zero?)")
    if expr.free_symbols - {Z}:
        raise DomainError(param, shown, _ALLOWED, reason="uses a variable other than z")
    if not expr.has(Z) and not expr.is_number:
        raise DomainError(param, shown, _ALLOWED, reason="is not a function of z")
    _check_real_valued(expr, param, shown)
    _BUILD_CACHE[source] = expr
    return expr


def _check_tree(tree: ast.AST, shown: str, param: str) -> None:
    """Size and depth of the syntax tree (iteratively: no recursion on hostile input)."""
    count, stack = 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > LIMITS["nodes"]:
            raise DomainError(param, shown, _ALLOWED,
                              reason=f"has more than {LIMITS['nodes']} syntax nodes")
        if depth > LIMITS["depth"]:
            raise DomainError(param, shown, _ALLOWED,
                              reason=f"is nested deeper than {LIMITS['depth']} levels")
        for child in ast.iter_child_nodes(node):
            # a chain a + b + c + … is left-nested in the tree but flat to the reader (and to
            # sympy): only nesting through anything else counts as depth
            chained = isinstance(node, ast.BinOp) and child is node.left \
                and isinstance(child, ast.BinOp)
            stack.append((child, depth if chained else depth + 1))


@dataclass(frozen=True)
class _Est:
    """A built node with the estimates that bound what sympy does with it."""

    value: Any
    degree: int = 0        # polynomial degree after expansion (generators: z and every atom)
    terms: float = 1.0     # terms after expansion (upper estimate)
    digits: float = 0.0    # digits of the exact constants it carries (numerator + denominator)
    polynomial: bool = True  # a polynomial in z (no other generator)


def _log10_rational(value: sp.Rational) -> float:
    p, q = abs(int(value.p)), int(value.q)
    return (math.log10(p) if p else 0.0) + math.log10(q)


def _multinomial_terms(terms: float, n: int) -> float:
    """Number of monomials of degree n in ``terms`` variables: C(n + terms − 1, n) (as float)."""
    if terms <= 1 or n == 0:
        return 1.0
    if terms > 1e6:
        return math.inf
    t = int(terms)
    return math.exp(math.lgamma(n + t) - math.lgamma(n + 1) - math.lgamma(t))


class _Builder:
    """Rebuild the syntax tree into sympy, refusing a node before its operation runs when the
    estimate of its result is beyond :data:`LIMITS`."""

    def __init__(self, text: str, shown: str, param: str):
        self.text, self.shown, self.param = text, shown, param

    def refuse(self, reason: str) -> DomainError:
        return DomainError(self.param, self.shown, _ALLOWED, reason=reason)

    def bounded(self, est: _Est) -> _Est:
        if est.degree > LIMITS["degree"]:
            raise self.refuse(f"would have polynomial degree about {est.degree} after expansion "
                              f"(at most {LIMITS['degree']})")
        if not est.terms <= LIMITS["terms"]:
            raise self.refuse(f"would have about {est.terms:.3g} terms after expansion "
                              f"(at most {LIMITS['terms']})")
        if not est.digits <= LIMITS["digits"]:
            raise self.refuse(f"would carry exact constants of about {est.digits:.3g} digits "
                              f"(at most {LIMITS['digits']})")
        return est

    def node(self, node: ast.AST) -> _Est:
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            if node.id in _CONSTANTS:
                value = _CONSTANTS[node.id]
                return _Est(value, degree=1 if value == Z else 0)
            if node.id in _FUNCTIONS:
                raise self.refuse(f"uses the function {node.id} without an argument")
            raise self.refuse(f"uses the unknown name {node.id!r}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, _BINOPS):
            return self.binop(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = self.node(node.operand)
            return inner if isinstance(node.op, ast.UAdd) else _Est(
                -inner.value, inner.degree, inner.terms, inner.digits, inner.polynomial)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            raise self.refuse("uses attribute access (only names, numbers and calls are allowed)")
        raise self.refuse("is not a valid expression")

    def constant(self, node: ast.Constant) -> _Est:
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise self.refuse("is not a valid expression")
        literal = ast.get_source_segment(self.text, node) or repr(node.value)
        try:  # the literal's own text, so that .1 is exactly 1/10 (and 0x10, 1_0 are refused)
            value = parse_rational(literal, self.param)
        except DomainError as exc:
            why = "is not a decimal number" if exc.reason == "is not a number" else exc.reason
            raise self.refuse(f"contains {literal[:20]}, which {why} (numbers are decimals "
                              "such as 12, .5 or 3e-2)") from None
        rational = sp.Rational(value.numerator, value.denominator)
        return _Est(rational, digits=_log10_rational(rational) if rational else 0.0)

    def binop(self, node: ast.BinOp) -> _Est:
        a, b = self.node(node.left), self.node(node.right)
        op = node.op
        if isinstance(op, ast.Add | ast.Sub):
            est = _Est(None, max(a.degree, b.degree), a.terms + b.terms, a.digits + b.digits,
                       a.polynomial and b.polynomial)
            self.bounded(est)
            return _Est(a.value + b.value if isinstance(op, ast.Add) else a.value - b.value,
                        est.degree, est.terms, est.digits, est.polynomial)
        if isinstance(op, ast.Mult):
            est = _Est(None, a.degree + b.degree, a.terms * b.terms, a.digits + b.digits,
                       a.polynomial and b.polynomial)
            self.bounded(est)
            return _Est(a.value * b.value, est.degree, est.terms, est.digits, est.polynomial)
        if isinstance(op, ast.Div):
            if sp.sympify(b.value).is_zero:
                raise ZeroDivisionError
            constant = not sp.sympify(b.value).has(Z)
            est = _Est(None, a.degree + b.degree, a.terms * b.terms, a.digits + b.digits,
                       a.polynomial and constant)
            self.bounded(est)
            return _Est(a.value / b.value, est.degree, est.terms, est.digits, est.polynomial)
        return self.power(a, b)

    def power(self, a: _Est, b: _Est) -> _Est:
        base, exponent = sp.sympify(a.value), sp.sympify(b.value)
        if exponent.has(Z):
            if not base.is_positive:
                raise self.refuse(f"raises {base}, which is not provably positive on ℝ, to a "
                                  "power that depends on z (not real-valued; write exp(...))")
            est = _Est(None, 1, 1.0, a.digits + b.digits, False)
            self.bounded(est)
            return _Est(base**exponent, 1, 1.0, est.digits, False)
        if not exponent.is_real:
            raise self.refuse(f"has the non-real exponent {exponent}")
        try:
            size = abs(float(exponent))
        except (TypeError, OverflowError):
            size = math.inf
        if not size <= LIMITS["exponent"]:
            raise self.refuse(f"has an exponent of magnitude above {LIMITS['exponent']}")
        if exponent.is_Integer:
            n = abs(int(exponent))
            if exponent < 0 and base.has(Z):
                degree, terms = 1, 1.0  # 1/g(z)^n: a new generator, not expanded
                polynomial = False
            else:
                degree = n * a.degree
                terms = min(_multinomial_terms(a.terms, n),
                            degree + 1.0 if a.polynomial else math.inf)
                polynomial = a.polynomial
            # multinomial coefficients add up to n·log10(terms) digits
            digits = n * (a.digits + math.log10(max(a.terms, 1.0)))
            est = self.bounded(_Est(None, degree, terms, digits, polynomial))
            if exponent < 0 and base.is_zero:
                raise ZeroDivisionError
            return _Est(base**exponent, est.degree, est.terms, est.digits, est.polynomial)
        # a non-integer power: real only for a base that is >= 0 on ℝ
        if base.has(Z) and not base.is_nonnegative:
            raise self.refuse(f"takes the non-integer power {exponent} of {base}, which can be "
                              "negative: f is not real-valued on ℝ")
        digits = size * a.digits + b.digits if base.is_Rational else a.digits + b.digits
        est = self.bounded(_Est(None, 1 if base.has(Z) else 0, 1.0, digits, not base.has(Z)))
        return _Est(base**exponent, est.degree, est.terms, est.digits, est.polynomial)

    def call(self, node: ast.Call) -> _Est:
        if not isinstance(node.func, ast.Name):
            raise self.refuse("calls something that is not a function name")
        name = node.func.id
        if name not in _FUNCTIONS:
            raise self.refuse(f"calls the unknown function {name!r}")
        if node.keywords:
            raise self.refuse(f"calls {name} with a keyword argument")
        wanted = "at least 2" if name in _VARIADIC else "1"
        if (name in _VARIADIC and len(node.args) < 2) or (name not in _VARIADIC
                                                          and len(node.args) != 1):
            raise self.refuse(f"calls {name} with {len(node.args)} argument(s) ({wanted} "
                              "expected)")
        if any(isinstance(arg, ast.Starred) for arg in node.args):
            raise self.refuse(f"calls {name} with a starred argument")
        args = [self.node(arg) for arg in node.args]
        digits = sum(arg.digits for arg in args)
        if name[2:].isascii() and name[2:].isdigit() and name.startswith("He"):  # not Heaviside
            k = int(name[2:])
            u = args[0]
            est = self.bounded(_Est(None, k * u.degree,
                                    min(_multinomial_terms(u.terms, k) * (k // 2 + 1),
                                        k * u.degree + 1.0 if u.polynomial else math.inf),
                                    k * (u.digits + math.log10(max(u.terms, 1.0)) + 2),
                                    u.polynomial))
        elif name in _PIECEWISE:
            est = self.bounded(_Est(None, max(arg.degree for arg in args),
                                    sum(arg.terms for arg in args), digits, False))
            if est.degree > LIMITS["kink degree"]:
                raise self.refuse(f"applies {name} to an expression of degree about "
                                  f"{est.degree} (at most {LIMITS['kink degree']} inside "
                                  "Abs/sign/Max/Min/Heaviside/relu)")
        else:
            for arg in args:  # the argument is not expanded; only bounded
                self.bounded(arg)
            est = self.bounded(_Est(None, 1, 1.0, digits, False))
        if name == "log":
            arg = sp.sympify(args[0].value)
            if arg.has(Z) and not arg.is_nonnegative:
                raise self.refuse(f"takes log of {arg}, which can be negative: f is not "
                                  "real-valued on ℝ")
        value = _FUNCTIONS[name](*(arg.value for arg in args))
        return _Est(value, est.degree, est.terms, est.digits, est.polynomial)


_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)

# Generic points where a real-valued f is evaluated as a cross-check of the structural rules.
_SAMPLES = ("0.3137", "-0.6229", "1.0771", "-1.4173", "2.2361", "-3.1623", "5.0990", "-7.3")


def _check_real_valued(expr: sp.Expr, param: str, shown: str) -> None:
    """f must be real (and finite) at generic real points."""
    import mpmath

    if expr.is_number:
        if not (expr.is_real and expr.is_finite) or expr.has(sp.I):
            raise DomainError(param, shown, _ALLOWED, reason="is not a finite real number")
        return
    if expr.has(sp.I):
        raise DomainError(param, shown, _ALLOWED, reason="is not real-valued (contains I)")
    try:
        fn = sp.lambdify(Z, expr, modules="mpmath")
        with mpmath.workdps(30):
            for point in _SAMPLES:
                value = fn(mpmath.mpf(point))
                if isinstance(value, mpmath.mpc) and abs(value.imag) > 1e-20 * (
                        1 + abs(value.real)):
                    raise DomainError(param, shown, _ALLOWED,
                                      reason=f"is not real-valued (complex at z = {point})")
    except DomainError:
        raise
    except (ZeroDivisionError, ValueError):
        return  # a singular sample point: the integrability check locates singularities
    except Exception as exc:
        raise DomainError(param, shown, _ALLOWED,
                          reason=f"cannot be evaluated numerically ({type(exc).__name__})"
                          ) from None


# --------------------------------------------------------------------------- square integrability

_L2_CACHE: dict[sp.Expr, str] = {}
_L2_SYMPY_SECONDS = 20.0  # the whole sympy part of one check (solveset + limits) ...
_L2_STEP_SECONDS = 5.0    # ... and of one solveset or limit; past either, numeric criteria
_deadline = [math.inf]     # monotonic time at which the current check's sympy budget ends


def _sympy_seconds() -> float:
    return min(_L2_STEP_SECONDS, _deadline[0] - time.monotonic())


class _NotL2(Exception):
    pass


def check_square_integrable(expr: sp.Expr, param: str = "EXPR", shown: str | None = None) -> str:
    """Decide that E[f(z)²] < ∞ for z ~ N(0, 1), or raise :class:`DomainError` with the reason.

    Returns how it was decided: "exact" (sympy limits or a polynomial / piecewise-polynomial /
    bounded structure), or "numeric" (the mpmath criterion of the module docstring).

    >>> check_square_integrable(sp.exp(Z**2 / 5))
    'exact'
    >>> check_square_integrable(sp.exp(Z**2 / 4))
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: EXPR = exp(z**2/4) is not square-integrable under N(0, 1): ...
    """
    shown = _show(shown if shown is not None else str(expr))
    if expr in _L2_CACHE:
        return _L2_CACHE[expr]
    _deadline[0] = time.monotonic() + _L2_SYMPY_SECONDS
    try:
        how = _decide_l2(expr)
    except _NotL2 as exc:
        raise DomainError(param, shown, "functions f with E[f(z)²] < ∞, z ~ N(0, 1)",
                          reason=f"is not square-integrable under N(0, 1): {exc}") from None
    _L2_CACHE[expr] = how
    return how


def _is_piecewise_polynomial(expr: sp.Expr) -> bool:
    """Built from z, numbers, + − ·, integer powers >= 0 and Abs/sign/Max/Min/Heaviside: such an
    f is bounded by a polynomial, hence in L²(N(0, 1))."""
    if not expr.has(Z) or expr == Z:
        return True
    if isinstance(expr, sp.Add | sp.Mul | sp.Abs | sp.sign | sp.Max | sp.Min | sp.Heaviside):
        return all(_is_piecewise_polynomial(a) for a in expr.args)
    if expr.is_Pow:
        return bool(expr.exp.is_Integer and expr.exp >= 0) and _is_piecewise_polynomial(expr.base)
    return False


def _decide_l2(expr: sp.Expr) -> str:
    if _is_piecewise_polynomial(expr):
        return "exact"
    points, numeric = _singular_points(expr)
    for p in points:
        for side in (1, -1):
            numeric |= _local_end(expr, p, side)
    for side in (1, -1):
        numeric |= _infinite_end(expr, side)
    return "numeric" if numeric else "exact"


def _sympy_limit(expr: sp.Expr, point: Any) -> sp.Expr | None:
    """sympy's one-sided limit in t (t > 0), or None when it fails or runs out of time."""
    seconds = _sympy_seconds()
    if seconds <= 0:
        return None
    try:
        with time_limit(seconds) as limited:
            if not limited:
                return None  # off the main thread nothing bounds sympy: numeric instead
            return sp.limit(expr, _T, point, "+")
    except Timeout:
        return None
    except Exception:  # sympy gave up (NotImplementedError, …): the numeric criterion decides
        return None


def _positive(value: sp.Expr | None) -> bool:
    return value is not None and (value == sp.oo or bool(value.is_extended_positive))


def _finite(value: sp.Expr | None) -> bool:
    return value is not None and value.is_number and bool(value.is_finite) and bool(value.is_real)


def _singular_points(expr: sp.Expr) -> tuple[list[sp.Expr], bool]:
    """Real points where f may be infinite: zeros of denominators and of log arguments, poles of
    tan. Refuses (``_NotL2``) when they fill an interval or cannot be located."""
    suspects: list[sp.Expr] = []
    for sub in sp.preorder_traversal(expr):
        if sub.is_Pow and sub.base.has(Z) and sub.exp.is_negative:
            suspects.append(sub.base)
        elif isinstance(sub, sp.log) and sub.args[0].has(Z):
            suspects.append(sub.args[0])
        elif isinstance(sub, sp.tan) and sub.args[0].has(Z):
            suspects.append(sp.cos(sub.args[0]))
        elif sub.is_Pow and sub.exp.has(Z) and not sub.exp.is_polynomial(Z):
            suspects.extend(_denominators(sub.exp))
    points: set[sp.Expr] = set()
    for g in dict.fromkeys(suspects):
        if g.is_positive or g.is_negative:
            continue
        try:
            with time_limit(max(_sympy_seconds(), 1e-3)) as limited:
                zeros = sp.solveset(g, Z, sp.Reals) if limited or sp.Poly(g, Z).degree() < 5 \
                    else None
        except (Timeout, Exception):
            zeros = None
        if zeros is None or isinstance(zeros, sp.ConditionSet):
            raise _NotL2(f"the real zeros of {g} could not be located")
        if zeros.is_empty:
            continue
        if isinstance(zeros, sp.FiniteSet):
            if len(zeros) > 20:
                raise _NotL2(f"{g} has more than 20 real zeros")
            points.update(zeros)
            continue
        try:
            filled = bool(zeros.measure > 0)
        except (NotImplementedError, TypeError, AttributeError):
            filled = False
        if filled:
            raise _NotL2(f"it is infinite or undefined on {zeros} (where {g} = 0)")
        raise _NotL2(f"it has infinitely many real singular points (where {g} = 0)")
    return sorted(points, key=lambda p: float(p)), False


def _denominators(expr: sp.Expr) -> list[sp.Expr]:
    return [sub.base for sub in sp.preorder_traversal(expr)
            if sub.is_Pow and sub.base.has(Z) and sub.exp.is_negative]


def _local_end(expr: sp.Expr, p: sp.Expr, side: int) -> bool:
    """Square integrability of f on one side of a singular point p; True if numeric."""
    where = f"z → {p}{'+' if side > 0 else '-'}"
    gap = f"|{Z - p}|"
    f2 = expr.subs(Z, p + side * _T) ** 2
    if _finite(_sympy_limit(f2 * _T ** sp.Rational(9, 10), 0)):
        return False
    if _positive(_sympy_limit(f2 * _T, 0)):
        raise _NotL2(f"f(z)² >= c/{gap} as {where} (sympy limit)")
    if _finite(_sympy_limit(f2 * _T ** sp.Rational(99, 100), 0)):
        return False
    import mpmath

    fn = sp.lambdify(_T, f2 * _T ** sp.Rational(99, 100), modules="mpmath")
    try:
        with mpmath.workdps(30):
            g = [abs(fn(mpmath.mpf(10) ** -j)) for j in (4, 8, 14)]
    except Exception:
        raise _NotL2(f"f could not be evaluated near {p}") from None
    if not (g[2] <= g[1] <= g[0] and all(mpmath.isfinite(v) for v in g)):
        raise _NotL2(f"f(z)²·{gap}^(99/100) does not decrease as {where} (numeric)")
    return True


def _infinite_end(expr: sp.Expr, side: int) -> bool:
    """Square integrability of f φ at +∞ (side 1) or −∞ (side −1); True if numeric."""
    where = "+∞" if side > 0 else "−∞"
    f2phi = expr.subs(Z, side * _T) ** 2 * sp.exp(-_T**2 / 2)
    if _finite(_sympy_limit(f2phi * _T**2, sp.oo)):
        return False
    if _positive(_sympy_limit(f2phi * _T, sp.oo)):
        raise _NotL2(f"f(z)² e^(−z²/2) >= c/|z| as z → {where} (sympy limit)")
    if _finite(_sympy_limit(f2phi * _T ** sp.Rational(101, 100), sp.oo)):
        return False
    import mpmath

    fn = sp.lambdify(_T, f2phi * _T**2, modules="mpmath")
    maxima = []
    try:
        with mpmath.workdps(30):
            for i in (5, 6, 7):
                lo = mpmath.mpf(2) ** i
                maxima.append(max(abs(fn(lo + lo * j / 64)) for j in range(64)))
    except Exception:
        raise _NotL2(f"f could not be evaluated towards {where}") from None
    if all(m < mpmath.mpf(10) ** -30 for m in maxima) or maxima[2] < maxima[1] < maxima[0]:
        return True
    raise _NotL2(f"f(z)² e^(−z²/2) z² does not decrease towards {where} (numeric: window maxima "
                 f"{', '.join(mpmath.nstr(m, 3) for m in maxima)} on [32, 256])")
