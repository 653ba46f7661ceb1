"""Argument checks shared by the recovery modules (fltheory.papers.recovery.theory and its parts):
every public function raises DomainError on a bad argument, never another exception."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fltheory.exact import DomainError, as_rational, check_integer, short_rational


def _integer(value: Any, param: str, minimum: int | None = 1, maximum: int | None = None) -> int:
    """An integer parameter (bool, float, Fraction, text refused: "is not an integer") within
    inclusive bounds."""
    return check_integer(value, param, minimum, maximum)


def _rational(value: Any, param: str) -> Fraction:
    """A number read by :func:`fltheory.exact.as_rational`, the one reading of the public API:
    int and Fraction exactly, text as on the command line (``"3/2"``), a finite float as the
    decimal it was typed as (0.1 is 1/10), anything else DomainError naming ``param``."""
    return as_rational(value, param)


#: integers of more bits than this are not converted to text (Python refuses beyond 4300 digits)
_TEXT_BITS = 14_000


def _digits(x: int) -> int:
    """The number of decimal digits of |x| (estimated from its bits when it is huge)."""
    x = abs(x)
    return len(str(x)) if x.bit_length() < _TEXT_BITS else int(x.bit_length() * 0.30103) + 1


def _shown(value: Fraction) -> str:
    """A rational for a message: exact when short (numerator and denominator below 200 bits,
    about 60 digits), else its order of magnitude (:func:`fltheory.exact.short_rational`)."""
    return short_rational(Fraction(value))


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
