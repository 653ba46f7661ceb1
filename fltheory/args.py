"""Argument readers shared by the theory modules of several papers (definitions, not formulas):
a step or noise level as an exact rational, a bounded integer, a finite real, a finite number or
array kept as it is, a real matrix of a given shape. Each failure is a
:class:`~fltheory.exact.DomainError` naming the parameter and its domain, as the command prints
it. The one reading of a number is :func:`fltheory.exact.as_rational`."""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.exact import DomainError, as_rational, check_dps, check_integer, to_float

__all__ = ["fraction_text", "read_count", "read_dps", "read_finite", "read_grid", "read_integral",
           "read_matrix", "read_noise", "read_real", "read_step"]


def read_step(eta: Any, param: str = "eta", allow_zero: bool = False) -> Fraction:
    """A step as an exact rational, read by :func:`fltheory.exact.as_rational` (the one reading
    of the public API): a Fraction or int exactly — every caller inside fltheory (CLI, claims,
    views) passes the user's Fraction —, text as on the command line (``"1/10"``), a float
    typed by a Python user as the decimal it stands for, its shortest round-tripping repr (so
    0.1 is 1/10 and 1e-13 is 1/10^13). Refuses NaN/±inf (naming the domain), values a double
    cannot hold, and steps <= 0 (or < 0 with ``allow_zero``).

    >>> read_step(0.1), read_step("1/10")
    (Fraction(1, 10), Fraction(1, 10))
    >>> read_step(0)
    Traceback (most recent call last):
    fltheory.exact.DomainError: eta = 0 is outside the allowed range eta > 0
    """
    allowed = f"{param} >= 0" if allow_zero else f"{param} > 0"
    if isinstance(eta, float | np.floating) and not math.isfinite(eta):
        raise DomainError(param, eta, f"finite numbers with {allowed}",
                          reason="is not a finite number")
    try:
        eta = as_rational(eta, param)
    except DomainError as exc:
        raise DomainError(param, exc.value, f"rational numbers with {allowed} (int, Fraction, "
                          "float or text such as 1/10)", reason=exc.reason) from None
    to_float(eta, param)
    if eta < 0 or (eta == 0 and not allow_zero):
        raise DomainError(param, fraction_text(eta), allowed)
    return eta


def read_count(value: Any, param: str, minimum: int | None = None, maximum: int | None = None
           ) -> int:
    """An integer argument (not a bool, float or string: "is not an integer") within
    inclusive bounds.

    >>> read_count(3, "K", 1, 50)
    3
    >>> read_count(2.0, "K", 1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: K = 2.0 is not an integer; allowed: integers in [1, inf]
    """
    return check_integer(value, param, minimum, maximum)


def fraction_text(x: Fraction) -> str:
    """A rational as the command line writes it: ``3/4``, or ``2`` for an integer.

    >>> fraction_text(Fraction(3, 4)), fraction_text(Fraction(4, 2))
    ('3/4', '2')
    """
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def read_real(x: Any, param: str, low: float | None = None, strict: bool = False) -> float:
    """A finite real argument >= ``low`` (> with ``strict``) as a double: read by
    :func:`fltheory.exact.as_rational` (int, Fraction, text, a float as typed), NaN/±inf
    refused naming the domain.

    >>> read_real("1/4", "b", 0.0, strict=True)
    0.25
    """
    allowed = (f"finite numbers {'>' if strict else '>='} {low}" if low is not None
               else "finite numbers")
    if isinstance(x, float | np.floating) and not math.isfinite(x):
        raise DomainError(param, x, allowed, reason="is not a finite number")
    try:
        q = as_rational(x, param)
    except DomainError as exc:
        raise DomainError(param, exc.value, allowed, reason=exc.reason) from None
    v = float(x) if isinstance(x, float | np.floating) else to_float(q, param)
    if low is not None and (v < low or (strict and v == low)):
        raise DomainError(param, x, allowed)
    return v


def read_finite(x: Any, param: str) -> Any:
    """A finite real number or array, kept as it is (int/Fraction exact, float, numpy array of
    finite floats; text read by :func:`fltheory.exact.as_rational`); NaN, ±inf, bools and
    non-numbers are a DomainError naming ``param``.

    >>> read_finite("2/3", "x"), read_finite(0.5, "x")
    (Fraction(2, 3), 0.5)
    """
    if isinstance(x, np.ndarray | list | tuple):
        try:
            arr = np.asarray(x, dtype=float)
        except (TypeError, ValueError):
            raise DomainError(param, str(x)[:40], "finite real numbers") from None
        if not np.isfinite(arr).all():
            raise DomainError(param, "an array with non-finite entries", "finite real numbers")
        return arr
    if isinstance(x, float | np.floating):
        if not math.isfinite(x):
            raise DomainError(param, x, "finite real numbers", reason="is not a finite number")
        return x
    if isinstance(x, int | Fraction) and not isinstance(x, bool):
        return x
    try:
        return as_rational(x, param)
    except DomainError as exc:
        raise DomainError(param, exc.value, "finite real numbers", reason=exc.reason) from None


def read_noise(sigma: Any, param: str = "noise") -> Fraction:
    """A label-noise standard deviation σ >= 0 as an exact rational (a float read as by
    :func:`read_step`).

    >>> read_noise("1/10")
    Fraction(1, 10)
    """
    return read_step(sigma, param, allow_zero=True)


def read_matrix(M: Any, param: str, shape: tuple[int, int]) -> np.ndarray:
    """A real matrix of the given ``shape`` with finite entries, as a float array.

    >>> read_matrix([[1, 0]], "T", (2, 2))
    Traceback (most recent call last):
    fltheory.exact.DomainError: T = an array of shape (1, 2) is outside the allowed range ...
    """
    A = np.asarray(M, dtype=float)
    if A.shape != shape:
        raise DomainError(param, f"an array of shape {A.shape}", f"shape {shape}")
    if not np.isfinite(A).all():
        raise DomainError(param, "a matrix with non-finite entries", "finite entries")
    return A


def read_grid(t_grid: Any, param: str = "t_grid") -> np.ndarray:
    """A grid of output times: a non-empty, finite, non-decreasing 1-d float array (contiguous).

    >>> read_grid([0, 1, 2]).tolist()
    [0.0, 1.0, 2.0]
    >>> read_grid([1, 0])
    Traceback (most recent call last):
    fltheory.exact.DomainError: t_grid = an array of shape (2,) is outside the allowed range ...
    """
    try:
        t = np.ascontiguousarray(t_grid, dtype=float)
    except (TypeError, ValueError):
        raise DomainError(param, str(t_grid)[:40], "a 1-d grid of times") from None
    if t.ndim != 1 or len(t) < 1 or not np.isfinite(t).all() or np.any(np.diff(t) < 0):
        raise DomainError(param, f"an array of shape {t.shape}",
                          "a non-empty, finite, non-decreasing 1-d grid of times")
    return t


def read_integral(value: Any, name: str, low: int, high: int | None = None) -> int:
    """``value`` (any integral number, numpy's included) as an int in [low, high]; a bool,
    float, string or None is a DomainError.

    >>> import numpy as np
    >>> read_integral(np.int64(5), "d", 2)
    5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        allowed = f"integers in [{low}, {'inf' if high is None else high}]"
        raise DomainError(name, repr(value) if isinstance(value, str) else value, allowed,
                          reason="is not an integer")
    return check_integer(int(value), name, low, high)


def read_dps(dps: Any) -> int:
    """A working precision in digits (any integral number), checked by
    :func:`fltheory.exact.check_dps`.

    >>> read_dps(30)
    30
    """
    if isinstance(dps, numbers.Integral) and not isinstance(dps, bool):
        dps = int(dps)
    return check_dps(dps)
