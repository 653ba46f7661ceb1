"""Argument checks of the simulators (definitions, not formulas): a positive integer, a finite
real above a bound, the memory one simulation may allocate. Every failure is a
:class:`~fltheory.exact.DomainError` naming the parameter and its domain, as the command prints
it."""

from __future__ import annotations

import math

import numpy as np

from fltheory.exact import DomainError, as_rational, to_float

__all__ = ["MEMORY_LIMIT_BYTES", "check_memory", "finite_real", "positive_int"]

#: memory one simulation may allocate (the dense Hessians are (pN)² doubles)
MEMORY_LIMIT_BYTES = 2**30


def positive_int(value: object, param: str, minimum: int = 1) -> int:
    """An integer >= ``minimum`` (a Python or numpy integer, not a bool), returned as ``int``.

    >>> positive_int(3, "N")
    3
    >>> positive_int(0, "N")
    Traceback (most recent call last):
    fltheory.exact.DomainError: N = 0 is outside the allowed range integers >= 1
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise DomainError(param, repr(value)[:40], f"integers >= {minimum}",
                          reason="is not an integer")
    if value < minimum:
        raise DomainError(param, value, f"integers >= {minimum}")
    return int(value)


def finite_real(value: object, param: str, low: float, strict: bool) -> float:
    """A real >= low (> with strict) as a double: a float as it is, anything else read by
    :func:`fltheory.exact.as_rational` (int, Fraction, text such as "1/10"); NaN and ±inf
    refused naming the domain.

    >>> finite_real("1/4", "t_max", 0.0, strict=True)
    0.25
    """
    allowed = f"finite numbers {'>' if strict else '>='} {low}"
    if isinstance(value, float | np.floating):
        v = float(value)
        if not math.isfinite(v):
            raise DomainError(param, value, allowed, reason="is not a finite number")
    else:
        try:
            q = as_rational(value, param)
        except DomainError as exc:
            raise DomainError(param, exc.value, allowed, reason=exc.reason) from None
        v = to_float(q, param)
    if v < low or (strict and v == low):
        raise DomainError(param, value, allowed)
    return v


def check_memory(param: str, value: object, nbytes: float) -> None:
    """Refuse, before any allocation, a request of ``nbytes`` above :data:`MEMORY_LIMIT_BYTES`
    (the error names ``param`` = ``value``, the cause of the size).

    >>> check_memory("N", 10**5, 8.0 * 10**10)
    Traceback (most recent call last):
    fltheory.exact.DomainError: N = 100000 would need about 8e+10 bytes...
    """
    if not nbytes <= MEMORY_LIMIT_BYTES:
        raise DomainError(param, value, f"at most {MEMORY_LIMIT_BYTES:.3g} bytes",
                                   reason=f"would need about {nbytes:.3g} bytes")
