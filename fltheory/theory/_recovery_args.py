"""Argument checks shared by the recovery modules (fltheory.theory.recovery and its parts):
every public function raises DomainError on a bad argument, never another exception."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.exact import DomainError, check_integer, fraction_str, parse_rational


def _integer(value: Any, param: str, minimum: int | None = 1, maximum: int | None = None) -> int:
    """An integer parameter (bool, float, Fraction refused) within inclusive bounds."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        lo = "-inf" if minimum is None else str(minimum)
        hi = "inf" if maximum is None else str(maximum)
        raise DomainError(param, repr(value), f"integers in [{lo}, {hi}]",
                          reason="is not an integer")
    return check_integer(int(value), param, minimum, maximum)


def _rational(value: Any, param: str) -> Fraction:
    """A number given as int, Fraction, finite float or text (``"3/2"``), exactly."""
    if isinstance(value, str):
        return parse_rational(value, param)
    if isinstance(value, bool) or not isinstance(value, int | Fraction | float | np.integer
                                                 | np.floating):
        raise DomainError(param, repr(value), "a rational number (int, Fraction, float or text "
                          "such as 3/2)", reason="is not a number")
    if isinstance(value, float | np.floating):
        if not math.isfinite(value):
            raise DomainError(param, value, "finite numbers", reason="is not a finite number")
        return Fraction(float(value))
    return Fraction(int(value)) if isinstance(value, np.integer) else Fraction(value)


#: integers of more bits than this are not converted to text (Python refuses beyond 4300 digits)
_TEXT_BITS = 14_000


def _digits(x: int) -> int:
    """The number of decimal digits of |x| (estimated from its bits when it is huge)."""
    x = abs(x)
    return len(str(x)) if x.bit_length() < _TEXT_BITS else int(x.bit_length() * 0.30103) + 1


def _shown(value: Fraction) -> str:
    """A rational for a message: exact, or its order of magnitude when it is too long."""
    value = Fraction(value)
    if max(value.numerator.bit_length(), value.denominator.bit_length()) < _TEXT_BITS:
        return fraction_str(value)
    magnitude = (math.log10(abs(value.numerator)) - math.log10(value.denominator)
                 if value else 0.0)
    return f"{'-' if value < 0 else ''}1e{round(magnitude)} (about)"


def _positive_float(value: Any, param: str, allowed: str | None = None) -> float:
    """A positive number the numeric code takes as a double (refused when one cannot hold it)."""
    from fltheory.exact import to_float

    x = _check_positive(value, param, allowed)
    return to_float(x, param, positive=True)

def _check_positive(value: Any, param: str, allowed: str | None = None) -> Fraction:
    value = _rational(value, param)
    if value <= 0:
        raise DomainError(param, _shown(value), allowed or f"{param} > 0")
    return value
