r"""A dot-product kernel κ(t) written as an expression in t, in the grammar of the activations
(:mod:`fltheory.engine.expressions`: the same bounded, eval-free builder and limits) with t in
place of z, plus ``asin``/``acos`` (``arcsin``/``arccos``) for the arc-cosine kernels.

Where the activations must be real on ℝ, a kernel must be real and finite on [−1, 1] only
(``sqrt(1 - t**2)``, ``acos(t)``, ``log(2 - t)`` are fine), checked at 41 points with ±1. A kink
(Abs, sign, Max, Min, Heaviside, relu) is refused: the eigenvalues are computed through the
Taylor series of κ, which a kernel positive definite on every sphere has (Schoenberg 1942), and a
kink has none. Whether the series really represents κ is checked after it is computed
(:func:`~fltheory.engine.kernels.kernels.expression_eigenvalues`).
"""

from __future__ import annotations

import ast
from fractions import Fraction
from typing import Any

import sympy as sp

from fltheory.engine import expressions as ex
from fltheory.exact import DomainError, fraction_str

__all__ = ["KERNEL_GRAMMAR", "T", "kernel_text", "parse_kernel"]

#: the variable of a kernel, as printed (the builder works in ``z`` internally)
T = sp.Symbol("t", real=True)

#: what a kernel expression may contain (for help texts)
KERNEL_GRAMMAR = ("an expression in t on [-1, 1]: numbers (exact: .5 is 1/2), t, pi, E, + - * / ** "
                  "(or ^), and exp log sqrt sin cos tan tanh sinh cosh atan asin acos erf erfc")

_ALLOWED = "an expression in t, real and finite on [-1, 1] (the grammar: --help)"
_EXTRA = {"asin": sp.asin, "acos": sp.acos, "arcsin": sp.asin, "arccos": sp.acos, "log": sp.log}
_KINKS = ("Abs", "abs", "sign", "Max", "max", "Min", "min", "Heaviside", "relu")


class _KernelBuilder(ex._Builder):
    """The activations' builder with t as the variable, asin/acos, and non-integer powers of
    expressions in t allowed (their reality is checked on [−1, 1] afterwards)."""

    def node(self, node: ast.AST) -> Any:
        if isinstance(node, ast.Name):
            if node.id == "t":
                return ex._Est(ex.Z, degree=1)
            if node.id in ("z", "x"):
                raise self.refuse(f"uses the variable {node.id} (a kernel is written in t)")
            if node.id in ex.CATALOGUE and self.text.strip() == node.id:
                raise self.refuse(f"is an activation name; give the kernel as an expression in "
                                  f"t, or the activation with --activation {node.id}")
        return super().node(node)

    def call(self, node: ast.Call) -> Any:
        if isinstance(node.func, ast.Name):
            name = node.func.id
            if name in _KINKS:
                raise self.refuse(f"uses {name}: a kink has no Taylor series in t (the "
                                  "eigenvalues are computed through it)")
            if name in _EXTRA:
                if len(node.args) != 1 or node.keywords:
                    raise self.refuse(f"calls {name} with {len(node.args)} argument(s) (1 "
                                      "expected)")
                arg = self.node(node.args[0])
                self.bounded(arg)
                est = self.bounded(ex._Est(None, 1, 1.0, arg.digits, False))
                return ex._Est(_EXTRA[name](arg.value), est.degree, est.terms, est.digits,
                               False)
        return super().call(node)

    def power(self, a: Any, b: Any) -> Any:
        base, exponent = sp.sympify(a.value), sp.sympify(b.value)
        if base.has(ex.Z) and not exponent.has(ex.Z) and exponent.is_real \
                and not exponent.is_Integer:
            digits = a.digits + b.digits
            est = self.bounded(ex._Est(None, 1, 1.0, digits, False))
            return ex._Est(base**exponent, est.degree, est.terms, est.digits, False)
        return super().power(a, b)


def kernel_text(expr: sp.Expr) -> str:
    """The kernel as text in t.

    >>> kernel_text(parse_kernel("exp(2*t - 2)"))
    'exp(2*t - 2)'
    """
    return str(expr.subs(ex.Z, T))


def parse_kernel(text: str, param: str = "kernel") -> sp.Expr:
    """κ(t) as a sympy expression in the engine's variable (``z``; printed with t by
    :func:`kernel_text`), refused in one line (naming ``param``) unless it is a bounded
    expression in t, real and finite on [−1, 1], without kinks.

    >>> kernel_text(parse_kernel("(sqrt(1 - t^2) + t*(pi - acos(t)))/pi"))
    '(t*(pi - acos(t)) + sqrt(1 - t**2))/pi'
    >>> parse_kernel("1/(1 - t)")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: kernel = 1/(1 - t) is not finite at t = 1; allowed: ...
    """
    shown = ex._show(str(text).strip())
    source = str(text).strip()
    if not source:
        raise DomainError(param, "''", _ALLOWED, reason="is empty")
    if len(source) > ex.LIMITS["characters"]:
        raise DomainError(param, shown, _ALLOWED,
                          reason=f"is longer than {ex.LIMITS['characters']} characters")
    code = source.replace("^", "**")
    try:
        tree = ast.parse(code, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise DomainError(param, shown, _ALLOWED, reason="is not a valid expression") from None
    ex._check_tree(tree, shown, param)
    builder = _KernelBuilder(code, shown, param)
    try:
        expr = sp.sympify(builder.node(tree.body).value)
    except DomainError as exc:
        raise DomainError(param, shown, _ALLOWED, reason=exc.reason) from None
    except ZeroDivisionError:
        raise DomainError(param, shown, _ALLOWED, reason="divides by zero") from None
    except (RecursionError, MemoryError, OverflowError):
        raise DomainError(param, shown, _ALLOWED, reason="is too large to build") from None
    except Exception as exc:
        raise DomainError(param, shown, _ALLOWED,
                          reason=f"could not be built by sympy ({type(exc).__name__})") from None
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise DomainError(param, shown, _ALLOWED, reason="is not finite")
    if expr.free_symbols - {ex.Z}:
        raise DomainError(param, shown, _ALLOWED, reason="uses a variable other than t")
    _check_on_interval(expr, param, shown)
    return expr


def _check_on_interval(expr: sp.Expr, param: str, shown: str) -> None:
    """Real and finite at 41 points of [−1, 1], ±1 included."""
    import mpmath

    fn = sp.lambdify(ex.Z, expr, modules="mpmath")
    with mpmath.workdps(30):
        for i in range(41):
            t = mpmath.mpf(i - 20) / 20
            where = fraction_str(Fraction(i - 20, 20))
            try:
                value = fn(t)
            except (ZeroDivisionError, ValueError, OverflowError):
                raise DomainError(param, shown, _ALLOWED,
                                  reason=f"is not finite at t = {where}") from None
            where = fraction_str(Fraction(i - 20, 20))
            value = mpmath.mpmathify(value)
            if not mpmath.isfinite(value):
                raise DomainError(param, shown, _ALLOWED, reason=f"is not finite at t = {where}")
            if isinstance(value, mpmath.mpc) and abs(value.imag) > 1e-20 * (1 + abs(value.real)):
                raise DomainError(param, shown, _ALLOWED,
                                  reason=f"is not real at t = {where}")
