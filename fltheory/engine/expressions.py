"""Expressions in ``z``: a safe, bounded parser and the catalogue of activations.

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

Square integrability is decided elsewhere (:mod:`fltheory.engine.integrability`); the parsed
function with its integrability is :func:`fltheory.engine.functions.parse_function`.
"""

from __future__ import annotations

import ast
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from fltheory.args import read_count
from fltheory.exact import DomainError, did_you_mean, parse_rational

__all__ = ["BOUNDS", "CATALOGUE", "GRAMMAR", "LIMITS", "Z", "catalogue_text",
           "equal_expressions", "hermite_He", "is_smooth",
           "linear_pieces", "normal_cdf", "parse_expression"]

#: The variable every function is written in (``x`` is accepted as another name for it).
Z = sp.Symbol("z", real=True)

_ALLOWED = ("an expression in z (or x) or a catalogue name (both written out in "
            "fltheory hermite --help)")

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
GRAMMAR = ("numbers (exact: .5 is 1/2), z (or x), pi, E, + - * / ** (or ^), and the functions "
           "exp log sqrt sin cos tan tanh sinh cosh atan erf erfc Abs sign Max Min Heaviside relu "
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
    """Probabilists' Hermite polynomial He_k(x) (monic, orthogonal under N(0, 1)), expanded.

    Parameters: ``k``, the degree, an integer in [0, 200] (:data:`LIMITS` "degree"); ``x``, a
    sympy expression (default :data:`Z`). Returns an exact sympy polynomial in ``x``; He_k obeys
    He_{k+1} = x He_k − k He_{k−1}, E[He_j He_k] = k! δ_jk under N(0, 1).

    >>> hermite_He(3)
    z**3 - 3*z
    """
    read_count(k, "k", 0, LIMITS["degree"])
    return sp.expand(sp.hermite_prob(k, x))


def normal_cdf(x: sp.Expr) -> sp.Expr:
    """Φ(x) = (1 + erf(x/√2))/2, the standard normal distribution function, as a sympy expression.

    >>> normal_cdf(sp.Integer(0))
    1/2
    """
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
    "Phi": normal_cdf,
    **{f"He{k}": _He_function(k) for k in range(13)},
}
#: Functions taking several arguments (at least two); every other one takes exactly one.
_VARIADIC = {"Max", "max", "Min", "min"}
#: Functions that keep a piecewise-polynomial argument piecewise polynomial (no new generator).
_PIECEWISE = {"Abs", "abs", "sign", "Max", "max", "Min", "min", "Heaviside", "relu"}
_CONSTANTS: dict[str, sp.Expr] = {"z": Z, "x": Z, "pi": sp.pi, "E": sp.E}



#: Catalogue of named activations (name -> expression text, parsed by the same parser). One
#: meaning in every command: ``erf`` is erf(z); Saad & Solla's erf(z/√2) is ``erf_ss``. Its numpy
#: face (g and g' for the simulators, no sympy) is :mod:`fltheory.simkit.activations`, held equal
#: to this one by a test.
CATALOGUE: dict[str, str] = {
    "relu": "Max(z, 0)",
    "tanh": "tanh(z)",
    "sigmoid": "1/(1 + exp(-z))",
    "softplus": "log(1 + exp(z))",
    "gelu": "z*(1 + erf(z/sqrt(2)))/2",
    "erf": "erf(z)",
    "erf_ss": "erf(z/sqrt(2))",  # Saad & Solla (1995): the soft committee machine's g
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


def catalogue_text() -> str:
    """The catalogue's names in one line (He1 … He8 as a range).

    >>> catalogue_text()[:29]
    'relu, tanh, sigmoid, softplus'
    """
    names = [n for n in CATALOGUE if not n.startswith("He")]
    hermite = [n for n in CATALOGUE if n.startswith("He")]
    return ", ".join(names) + (f", {hermite[0]} … {hermite[-1]}" if hermite else "")


# --------------------------------------------------------------------------- parsing


def parse_expression(text: str | sp.Basic, param: str = "EXPR") -> sp.Expr:
    """A catalogue name or an expression in ``z`` as a real-valued sympy expression.

    Parameters: ``text``, a catalogue name (:data:`CATALOGUE`), an expression string in the
    grammar :data:`GRAMMAR`, or a sympy expression in :data:`Z`; ``param``, the name a refusal
    gives the input. The text is bounded before sympy sees it (:data:`LIMITS`) and f must be
    real-valued on ℝ; every refusal is a :class:`~fltheory.exact.DomainError` naming ``param``.
    Returns the exact sympy expression (decimals become rationals). Square integrability is
    not checked here.

    >>> parse_expression("relu")
    Max(0, z)
    >>> parse_expression("z^2 - .5")
    z**2 - 1/2
    >>> parse_expression("log(z)")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: EXPR = log(z) takes log of z, which can be negative: ...
    """
    if isinstance(text, sp.Basic):
        expr = sp.sympify(text)
        if not isinstance(expr, sp.Expr):
            raise DomainError(param, _show(str(text)), _ALLOWED, reason="is not an expression")
        if expr.free_symbols - {Z}:
            raise DomainError(param, text, _ALLOWED, reason="uses a variable other than z")
        _check_real_valued(expr, param, str(expr))
        return expr
    source = _as_text(text, param)
    return _build(CATALOGUE.get(source, source), param, source)


def _as_text(text: object, param: str) -> str:
    """The text of an input that is not a sympy expression (``str`` of a number, stripped)."""
    try:
        return str(text).strip()
    except ValueError:  # an int of more than 4300 digits
        raise DomainError(param, "a huge number", _ALLOWED,
                          reason="is not a valid expression") from None

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
            if self.text.strip() == node.id:  # the whole input: a mistyped activation name
                hint = did_you_mean(node.id, [*CATALOGUE, *_CONSTANTS])
                if not hint:    # the catalogue itself (not every command's --help lists it)
                    hint = f" (the catalogue: {catalogue_text()})"
                raise self.refuse(f"is an unknown activation {node.id!r}{hint}")
            raise self.refuse(f"uses the unknown name {node.id!r}"
                              f"{did_you_mean(node.id, [*_CONSTANTS, *CATALOGUE])}")
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
            raise self.refuse(f"calls the unknown function {name!r}"
                              f"{did_you_mean(name, list(_FUNCTIONS))}")
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


def equal_expressions(a: sp.Expr, b: sp.Expr) -> bool:
    """Whether sympy proves a = b identically in z. Where the two differ at one of three generic
    rational points (evaluated to 30 digits) no proof is attempted: simplify of a difference
    that is not 0 took ~0.25 s (a channel told apart from a catalogue of five, 1.3 s).

    >>> equal_expressions(parse_expression("sqrt(z**2)"), parse_expression("Abs(z)"))
    True
    >>> equal_expressions(parse_expression("tanh(z)"), parse_expression("sign(z)"))
    False
    """
    diff = a - b
    for point in (sp.Rational(37, 100), sp.Rational(-121, 100), sp.Rational(23, 10)):
        try:
            value = complex(diff.subs(Z, point).evalf(30))
        except (TypeError, ValueError):
            continue                  # a value that cannot be evaluated says nothing
        if abs(value) > 1e-20:
            return False
    return bool(diff.simplify() == 0)


#: at most this many breakpoints in :func:`linear_pieces`
_MAX_PIECES = 64


def is_smooth(expr: sp.Expr) -> bool:
    """Whether g(z) has no kink or jump and is real and finite at z = 0, ±1, ±10: free of Abs,
    sign, Heaviside, Max, Min, Piecewise, floor and ceiling (a quadrature that assumes a smooth
    integrand may take it).

    >>> is_smooth(parse_expression("tanh(z)")), is_smooth(parse_expression("Max(0, z**3)"))
    (True, False)
    """
    kinked = (sp.Abs, sp.sign, sp.Heaviside, sp.Max, sp.Min, sp.Piecewise,
              sp.floor, sp.ceiling)
    if any(expr.atoms(k) for k in kinked):
        return False
    for z0 in (0, 1, -1, 10, -10):
        v = complex(expr.subs(Z, z0).evalf())
        if not (math.isfinite(v.real) and math.isfinite(v.imag) and abs(v.imag) < 1e-12):
            return False
    return True


def linear_pieces(expr: sp.Expr) -> tuple[tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr], ...] | None:
    """The pieces of a piecewise-linear f(z): ``(c, d, a, b)`` with f = a z + b on (c, d), exact
    (c = −oo and d = oo at the ends; adjacent equal pieces merged), or None when f is not
    piecewise linear with finitely many breakpoints (the breakpoints are the real zeros of the
    arguments of Abs, sign, Heaviside and of the differences of Max/Min arguments; on each
    interval every such function is resolved at the midpoint and what remains must be a
    polynomial of degree <= 1 in z).

    >>> linear_pieces(parse_expression("Max(0, z) - z/3"))
    ((-oo, 0, -1/3, 0), (0, oo, 2/3, 0))
    >>> linear_pieces(parse_expression("sign(Abs(z) - 1)"))
    ((-oo, -1, 0, 1), (-1, 1, 0, -1), (1, oo, 0, 1))
    >>> linear_pieces(parse_expression("tanh(z)")) is None
    True
    """
    pts: set[sp.Expr] = set()
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Abs | sp.sign | sp.Heaviside):
            args = [node.args[0]]
        elif isinstance(node, sp.Max | sp.Min):
            args = [a - b for i, a in enumerate(node.args) for b in node.args[i + 1:]]
        else:
            continue
        for a in args:
            if not a.has(Z):
                continue
            try:
                roots = sp.solveset(a, Z, domain=sp.S.Reals)
            except (NotImplementedError, ValueError, TypeError):
                return None
            if not isinstance(roots, sp.FiniteSet):
                return None
            for r in roots:
                if not (r.is_number and r.is_real):
                    return None
                pts.add(r)
            if len(pts) > _MAX_PIECES:
                return None
    edges = [-sp.oo, *sorted(pts, key=lambda r: float(r)), sp.oo]
    pieces: list[tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]] = []
    for c, d in itertools.pairwise(edges):
        if c.is_finite and d.is_finite:
            m = (c + d) / 2
        elif c.is_finite:
            m = c + 1
        elif d.is_finite:
            m = d - 1
        else:
            m = sp.Integer(0)
        res = _resolve(expr, m)
        if res is None:
            return None
        res = sp.expand(res)
        if not res.is_polynomial(Z) or sp.degree(res, Z) > 1:
            return None
        a, b = res.coeff(Z, 1), res.subs(Z, 0)
        if not (a.is_number and b.is_number and a.is_real and b.is_real):
            return None
        if pieces and pieces[-1][2] == a and pieces[-1][3] == b:
            pieces[-1] = (pieces[-1][0], d, a, b)
        else:
            pieces.append((c, d, a, b))
    return tuple(pieces)


def _resolve(e: sp.Expr, m: sp.Expr) -> sp.Expr | None:
    """``e`` with every Abs, sign, Heaviside, Max and Min replaced by its branch at
    z = m (None when a branch is not decided there)."""
    if e.is_Atom or not e.has(Z):
        return e
    if isinstance(e, sp.Abs | sp.sign | sp.Heaviside):
        inner = _resolve(e.args[0], m)
        if inner is None:
            return None
        v = inner.subs(Z, m)
        if v == 0 or not v.is_real:
            return None
        pos = bool(v > 0)
        if isinstance(e, sp.Abs):
            return inner if pos else -inner
        if isinstance(e, sp.sign):
            return sp.Integer(1 if pos else -1)
        return sp.Integer(1 if pos else 0)
    if isinstance(e, sp.Max | sp.Min):
        resolved = [_resolve(a, m) for a in e.args]
        args = [a for a in resolved if a is not None]
        if len(args) < len(resolved):
            return None
        vals = [a.subs(Z, m) for a in args]
        best = max(vals) if isinstance(e, sp.Max) else min(vals)
        return args[vals.index(best)]
    args = [_resolve(a, m) for a in e.args]
    if any(a is None for a in args):
        return None
    return e.func(*args)
