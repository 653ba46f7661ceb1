"""The domains of the Hermite engine's arguments, checked before any work starts: the highest
degree of an expansion, the largest k examined for the exponents, the sympy time budget.

This module imports neither sympy nor mpmath, so the command line can state these bounds in its
help texts without loading them; :func:`fltheory.exact.check_dps` is the bound on ``dps``.

How the bounds were chosen: at the default ``dps`` 30 a numeric (quadrature) expansion costs
about 1 s per coefficient on a 2-core machine for a singular f such as |z|^(−1/3), so an
expansion to degree :data:`K_MAX` = 60, or the exponents (whose generative search adds the
conditional expectations at every k) up to :data:`KMAX_MAX` = 40, stay around a minute in the
worst accepted case.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Final

from fltheory.exact import DomainError, fraction_str, parse_rational

__all__ = ["BUDGET_MAX", "KMAX_MAX", "K_MAX", "check_budget"]

#: Highest degree k of an expansion (:func:`fltheory.engine.hermite.expansion`, ``parseval``,
#: ``information_exponent``).
K_MAX: Final = 60
#: Largest k examined by the generative exponent (and so by ``analyse``).
KMAX_MAX: Final = 40
#: Largest sympy time budget, in seconds.
BUDGET_MAX: Final = 600


def check_budget(budget: object) -> float:
    """A sympy time budget in seconds, in [0, :data:`BUDGET_MAX`], compared exactly.

    Parameters: ``budget``, a number (int, float, Fraction) or its text (``"5"``, ``"1e309"``,
    ``"1/2"``). Returns it as a float; a value out of range, NaN or not a number is a
    :class:`~fltheory.exact.DomainError` naming ``budget`` (``1e309`` is one line, not an
    OverflowError).

    >>> check_budget("2.5")
    2.5
    >>> check_budget("1e309")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: budget = 1e309 is outside the allowed range [0, 600] seconds
    """
    allowed = f"[0, {BUDGET_MAX}] seconds"
    if isinstance(budget, float) and not math.isfinite(budget):
        raise DomainError("budget", budget, allowed)
    if isinstance(budget, bool):
        raise DomainError("budget", budget, allowed, reason="is not a number")
    value = Fraction(budget) if isinstance(budget, int | float | Fraction) \
        else parse_rational(str(budget), "budget")
    if not 0 <= value <= BUDGET_MAX:
        shown = budget if isinstance(budget, str) and len(budget) < 40 else fraction_str(value) \
            if value.numerator.bit_length() < 200 else f"a number beyond {BUDGET_MAX}"
        raise DomainError("budget", shown, allowed)
    return float(value)
