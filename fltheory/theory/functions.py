"""Functions of one variable ``z``: a safe parser and the catalogue of activations.

An expression such as ``"tanh(z)"``, ``"Max(z, 0)"`` or ``"z**3 - 3*z"`` is parsed with Python's
:mod:`ast` and rebuilt node by node into a sympy expression from a whitelist of operators,
functions and constants: nothing is ever passed to ``eval``, so ``"__import__('os')"`` is just an
unknown name. Decimal literals become exact rationals (``.5`` is 1/2). ``^`` means power.
A catalogue name (``relu``, ``gelu``, ``He3``, …) may be given instead of an expression, and
``He3(z)`` may be used inside one.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from fltheory.exact import DomainError

__all__ = ["CATALOGUE", "GRAMMAR", "Function", "Z", "hermite_He", "parse_function"]

#: The variable every function is written in.
Z = sp.Symbol("z", real=True)

_ALLOWED = "an expression in z or a catalogue name (see: fltheory hermite --help)"

#: What an expression may contain (for help texts).
GRAMMAR = ("numbers (exact: .5 is 1/2), z, pi, E, + - * / ** (or ^), and the functions exp log "
           "sqrt sin cos tan tanh sinh cosh atan erf erfc Abs sign Max Min Heaviside relu "
           "sigmoid softplus Phi He0..He12")


def hermite_He(k: int, x: sp.Expr = Z) -> sp.Expr:
    """Probabilists' Hermite polynomial He_k(x) (monic, orthogonal under N(0, 1)).

    >>> hermite_He(3)
    z**3 - 3*z
    """
    return sp.expand(sp.hermite_prob(k, x))


def _phi_cdf(x: sp.Expr) -> sp.Expr:
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


_FUNCTIONS: dict[str, Callable[..., sp.Expr]] = {
    "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "sin": sp.sin, "cos": sp.cos,
    "tan": sp.tan, "tanh": sp.tanh, "sinh": sp.sinh, "cosh": sp.cosh, "atan": sp.atan,
    "erf": sp.erf, "erfc": sp.erfc, "Abs": sp.Abs, "abs": sp.Abs, "sign": sp.sign,
    "Max": sp.Max, "max": sp.Max, "Min": sp.Min, "min": sp.Min, "Heaviside": sp.Heaviside,
    "relu": lambda x: sp.Max(x, 0),
    "sigmoid": lambda x: 1 / (1 + sp.exp(-x)),
    "softplus": lambda x: sp.log(1 + sp.exp(x)),
    "Phi": _phi_cdf,
    **{f"He{k}": (lambda x, k=k: hermite_He(k, x)) for k in range(13)},
}
_CONSTANTS: dict[str, sp.Expr] = {"z": Z, "pi": sp.pi, "E": sp.E}


@dataclass(frozen=True)
class Function:
    """A parsed function of ``z``: the user's text, a display name and the sympy expression."""

    name: str
    expr: sp.Expr
    text: str

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


def parse_function(text: str | sp.Expr | Function, param: str = "EXPR") -> Function:
    """Parse a catalogue name or an expression in ``z`` into a :class:`Function`.

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
        return text
    if isinstance(text, sp.Basic):
        expr = sp.sympify(text)
        if expr.free_symbols - {Z}:
            raise DomainError(param, text, _ALLOWED, reason="uses a variable other than z")
        return Function(str(expr), expr, str(expr))
    source = str(text).strip()
    if source in CATALOGUE:
        return Function(source, _build(CATALOGUE[source], param), source)
    expr = _build(source, param)
    return Function(source, expr, source)


def _build(source: str, param: str) -> sp.Expr:
    if not source:
        raise DomainError(param, "''", _ALLOWED, reason="is empty")
    if len(source) > 2000:
        raise DomainError(param, source[:40] + "…", _ALLOWED, reason="is too long")
    try:
        tree = ast.parse(source.replace("^", "**"), mode="eval")
    except SyntaxError:
        raise DomainError(param, source, _ALLOWED, reason="is not a valid expression") from None
    try:
        expr = _node(tree.body, source, param)
    except (ZeroDivisionError, RecursionError):
        raise DomainError(param, source, _ALLOWED, reason="divides by zero") from None
    expr = sp.sympify(expr)
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise DomainError(param, source, _ALLOWED, reason="is not finite (division by zero?)")
    if not expr.has(Z) and not expr.is_number:
        raise DomainError(param, source, _ALLOWED, reason="is not a function of z")
    return expr


_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a**b,
}


def _node(node: ast.AST, source: str, param: str) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) \
            and not isinstance(node.value, bool):
        # The literal's own text, so that .1 is exactly 1/10 rather than the nearest double.
        literal = ast.get_source_segment(source.replace("^", "**"), node) or repr(node.value)
        return sp.Rational(Fraction(literal))
    if isinstance(node, ast.Name):
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        if node.id in _FUNCTIONS:
            raise DomainError(param, source, _ALLOWED,
                              reason=f"uses the function {node.id} without an argument")
        raise DomainError(param, source, _ALLOWED, reason=f"uses the unknown name {node.id!r}")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = _node(node.left, source, param), _node(node.right, source, param)
        if isinstance(node.op, ast.Div) and sp.sympify(right).is_zero:
            raise ZeroDivisionError
        if isinstance(node.op, ast.Pow) and sp.sympify(right).is_number \
                and abs(sp.sympify(right)) > 1000:
            raise DomainError(param, source, _ALLOWED, reason="has an exponent above 1000")
        return _BINOPS[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _node(node.operand, source, param)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords \
            and node.func.id in _FUNCTIONS:
        args = [_node(arg, source, param) for arg in node.args]
        try:
            return _FUNCTIONS[node.func.id](*args)
        except TypeError:
            raise DomainError(param, source, _ALLOWED,
                              reason=f"calls {node.func.id} with {len(args)} argument(s)") \
                from None
    raise DomainError(param, source, _ALLOWED, reason="is not a valid expression")
