"""Functions of one variable ``z`` as the Hermite engine takes them: :func:`parse_function` turns
a catalogue name, an expression string or a sympy expression into a :class:`Function` that is
real-valued and square-integrable under N(0, 1), or refuses it with a one-line
:class:`~fltheory.exact.DomainError`.

This module is the public face of three implementation modules, one concern each, whose public
names it re-exports (``from fltheory.engine.functions import …`` keeps working for all of them):

* :mod:`fltheory.engine.expressions`: the safe, bounded parser (:data:`LIMITS`, checked before
  sympy builds anything), the grammar, the catalogue of activations, :data:`Z` and
  :func:`hermite_He`;
* :mod:`fltheory.engine.integrability`: the decision E[f(z)²] < ∞
  (:func:`check_square_integrable`: sympy limits at the singular points and at ±∞, a numeric
  criterion when sympy cannot decide);
* :mod:`fltheory.engine.timer`: :func:`time_limit`, the CPU-time bound on sympy's work.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from fltheory.engine.expressions import (
    BOUNDS,
    CATALOGUE,
    GRAMMAR,
    LIMITS,
    Z,
    _as_text,
    hermite_He,
    parse_expression,
)
from fltheory.engine.integrability import check_square_integrable
from fltheory.engine.timer import Timeout, time_limit

__all__ = ["BOUNDS", "CATALOGUE", "GRAMMAR", "LIMITS", "Function", "Timeout", "Z",
           "check_square_integrable", "hermite_He", "parse_expression", "parse_function",
           "time_limit"]


@dataclass(frozen=True)
class Function:
    """A parsed function of ``z``: the user's text, a display name and the sympy expression.

    ``l2`` says how square integrability under N(0, 1) was established: "exact", "numeric"
    (see :mod:`fltheory.engine.integrability`) or "" when not checked.
    """

    name: str
    expr: sp.Expr
    text: str
    l2: str = ""

    def __str__(self) -> str:
        return self.name


def parse_function(text: str | sp.Expr | Function, param: str = "EXPR",
                   square_integrable: bool = True) -> Function:
    """Parse a catalogue name or an expression in ``z`` into a :class:`Function`.

    Parameters: ``text``, a catalogue name (:data:`CATALOGUE`), an expression string (grammar
    :data:`GRAMMAR`), a sympy expression in :data:`Z` or an already parsed :class:`Function`;
    ``param``, the name a refusal gives the input; ``square_integrable``, whether to require
    f ∈ L²(N(0, 1)) (:func:`check_square_integrable`).
    The text is bounded before sympy sees it (:data:`LIMITS`) and f must be real-valued on ℝ.
    Every refusal is a :class:`~fltheory.exact.DomainError` naming ``param``.

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
        expr = parse_expression(text, param)
        source = str(expr)
    else:
        source = _as_text(text, param)
        expr = parse_expression(source, param)
    l2 = check_square_integrable(expr, param, source) if square_integrable else ""
    return Function(source, expr, source, l2)
